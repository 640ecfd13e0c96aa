//! Tournaments: creation, registration, the start, rounds whose games are real games
//! started in the pairing's start order, results flowing back from ended games, the
//! sweep pairing a round on its date, the race of two server processes, and the
//! organiser's adjustments (events played by computer opponents are in
//! `tournament_sims.rs`).

use serde_json::{json, Value};
use tilepost_tournament::{Event, Tournament};

use tilepost::clock::Clock;

use crate::both;
use crate::common::*;

pub(crate) fn block<F: std::future::Future>(f: F) -> F::Output {
    actix_web::rt::System::new().block_on(f)
}

/// A Swiss of `rounds` rounds at 2-player tables, best of 1, with `extra` settings.
pub(crate) fn create(org: &Client, rounds: u32, extra: Value) -> String {
    let mut body = json!({
        "name": "Spring open",
        "stages": [{"format": "swiss", "rounds": rounds}],
    });
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            b.insert(k.clone(), v.clone());
        }
    }
    let r = org.post("/v1/tournaments", body);
    assert_eq!(r.status, 201, "{}", r.text);
    assert!(r.header("location").is_some());
    r.json["id"].as_str().expect("id").to_string()
}

/// Every game of the current round that is still running, with its players.
pub(crate) fn running_games(c: &Client, id: &str) -> Vec<(String, Vec<String>)> {
    let rounds = c
        .get(&format!("/v1/tournaments/{id}/rounds?limit=200"))
        .ok()
        .clone();
    let mut out = Vec::new();
    for r in rounds["rounds"].as_array().cloned().unwrap_or_default() {
        for t in r["tables"].as_array().cloned().unwrap_or_default() {
            for g in t["games"].as_array().cloned().unwrap_or_default() {
                if g["status"] == "active" {
                    let players = t["players"]
                        .as_array()
                        .map(|ps| {
                            ps.iter()
                                .filter_map(|p| p["user_id"].as_str().map(String::from))
                                .collect()
                        })
                        .unwrap_or_default();
                    out.push((
                        g["game_id"].as_str().unwrap_or_default().to_string(),
                        players,
                    ));
                }
            }
        }
    }
    out
}

/// The tournament's log, as the API serves it.
pub(crate) fn log_of(c: &Client, id: &str) -> Vec<Event> {
    let mut events = Vec::new();
    let mut after = 0;
    loop {
        let page = c
            .get(&format!(
                "/v1/tournaments/{id}/events?after={after}&limit=200"
            ))
            .ok()
            .clone();
        for e in page["events"].as_array().cloned().unwrap_or_default() {
            let kind = e["type"].as_str().expect("type");
            let version = e["version"].as_u64().expect("version") as u32;
            events.push(Event::decode(kind, version, &e["payload"].to_string()).expect("decodes"));
        }
        match page["next_after"].as_i64() {
            Some(n) => after = n,
            None => break,
        }
    }
    events
}

/// The standings recomputed from the log the API serves.
pub(crate) fn standings_from_log(c: &Client, id: &str, stage: usize) -> Vec<(String, f64)> {
    let events = log_of(c, id);
    let state = Tournament::replay(&events).expect("the log replays");
    state
        .standings_of(stage)
        .iter()
        .map(|s| (s.player.clone(), s.points.as_f64()))
        .collect()
}

pub(crate) fn served_standings(c: &Client, id: &str, stage: usize) -> Vec<(String, f64)> {
    let s = c
        .get(&format!(
            "/v1/tournaments/{id}/standings?stage={stage}&limit=200"
        ))
        .ok()
        .clone();
    s["standings"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|l| {
            (
                l["player"]["user_id"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                l["points"].as_f64().unwrap_or(-1.0),
            )
        })
        .collect()
}

/// Four players, two Swiss rounds: each round's games start in the pairing's start
/// order and say which tournament they belong to; playing them to the end records
/// their results and pairs the next round; the event ends with the standings the log
/// gives.
fn a_swiss_runs_its_rounds_through_real_games(app: &TestApp) {
    let org = app.user("org");
    let players: Vec<Client> = ["ann", "bob", "cid", "dee"]
        .iter()
        .map(|n| app.user(n))
        .collect();
    let id = create(&org, 2, json!({"days_per_move": 3}));
    for p in &players {
        let v = p
            .post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .ok()
            .clone();
        assert_eq!(v["registered"], true);
        assert!(p
            .post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .problem(409, "already-registered")
            .json["detail"]
            .is_string());
    }
    let v = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(
        (v["status"].as_str(), v["players"].as_i64()),
        (Some("registering"), Some(4))
    );
    players[0]
        .post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .problem(403, "not-organiser");
    let v = org
        .post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .ok()
        .clone();
    assert_eq!(
        (v["status"].as_str(), v["current_round"].as_i64()),
        (Some("running"), Some(1))
    );
    org.post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .problem(409, "tournament-started");
    let refs: Vec<&Client> = players.iter().collect();
    for round in 1..=2 {
        let games = running_games(&org, &id);
        assert_eq!(games.len(), 2, "round {round}: two tables");
        for (gid, seats) in &games {
            let g = org.get(&format!("/v1/games/{gid}")).ok().clone();
            assert_eq!(g["tournament"]["id"], id.as_str());
            assert_eq!(g["tournament"]["round"], round);
            assert_eq!(g["clock"]["days_per_move"], 3, "{}", g["clock"]);
            // seat 0 is the start player the pairing chose, and has the first turn
            assert_eq!(g["players"][0]["user_id"], seats[0].as_str());
            assert_eq!(g["pending"]["user_id"], seats[0].as_str());
            // a player with a game to play may not withdraw
            let me = players
                .iter()
                .find(|p| p.user_id == seats[1])
                .expect("a player");
            me.post(&format!("/v1/tournaments/{id}/leave"), json!({}))
                .problem(409, "game-to-play");
            let mine = me.get(&format!("/v1/tournaments/{id}/games")).ok().clone();
            assert_eq!(mine["games"].as_array().map(Vec::len), Some(round));
            assert_eq!(mine["games"][round - 1]["game_id"], gid.as_str());
        }
        if round == 1 {
            // no undo in a tournament's game: a tile placed alone stays placed
            let (gid, seats) = &games[0];
            let first = players
                .iter()
                .find(|p| p.user_id == seats[0])
                .expect("a player");
            let a = first.get(&format!("/v1/games/{gid}/actions")).ok().clone();
            first
                .post(
                    &format!("/v1/games/{gid}/moves"),
                    json!({"expected_version": a["version"], "actions": [a["actions"][0].clone()]}),
                )
                .ok();
            let a = first.get(&format!("/v1/games/{gid}/actions")).ok().clone();
            if a["pending"]["user_id"] == seats[0].as_str() {
                assert_eq!(a["undo"], false);
                first
                    .post(
                        &format!("/v1/games/{gid}/undo"),
                        json!({"expected_version": a["version"]}),
                    )
                    .problem(403, "undo-not-allowed");
            }
        }
        for (i, (gid, _)) in games.iter().enumerate() {
            play_random(&refs, gid, 7 + i as u64);
        }
    }
    let v = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(v["status"], "ended", "{v}");
    let rounds = org
        .get(&format!("/v1/tournaments/{id}/rounds"))
        .ok()
        .clone();
    assert_eq!(rounds["rounds"].as_array().map(Vec::len), Some(2));
    for r in rounds["rounds"].as_array().cloned().unwrap_or_default() {
        for t in r["tables"].as_array().cloned().unwrap_or_default() {
            assert!(t["places"].is_array(), "every match decided: {t}");
            assert!(t["games"][0]["scores"].is_array());
        }
    }
    // nobody met the same opponent twice
    let pairs: Vec<Vec<String>> = rounds["rounds"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .flat_map(|r| r["tables"].as_array().cloned().unwrap_or_default())
        .map(|t| {
            let mut p: Vec<String> = t["players"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .iter()
                .filter_map(|p| p["user_id"].as_str().map(String::from))
                .collect();
            p.sort();
            p
        })
        .collect();
    let mut unique = pairs.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), pairs.len(), "no repeat: {pairs:?}");
    let served = served_standings(&org, &id, 0);
    assert_eq!(served.len(), 4);
    let total: f64 = served.iter().map(|s| s.1).sum();
    assert!(
        (total - 4.0).abs() < 1e-9,
        "two matches a round, a point each: {served:?}"
    );
    assert_eq!(served, standings_from_log(&org, &id, 0));
    let s = org
        .get(&format!("/v1/tournaments/{id}/standings"))
        .ok()
        .clone();
    assert_eq!(s["standings"][0]["tie_breaks"][0]["kind"], "buchholz_cut1");
    // the list shows it, paged
    let list = org.get("/v1/tournaments?limit=1").ok().clone();
    assert_eq!(list["tournaments"][0]["id"], id.as_str());
    let ended = org.get("/v1/tournaments?status=ended").ok().clone();
    assert_eq!(ended["tournaments"].as_array().map(Vec::len), Some(1));
    let reg = org.get("/v1/tournaments?status=registering").ok().clone();
    assert_eq!(reg["tournaments"].as_array().map(Vec::len), Some(0));
    app.user("eve")
        .post(&format!("/v1/tournaments/{id}/join"), json!({}))
        .problem(409, "tournament-ended");
}

/// Refusals, each with its code.
fn refusals_have_codes(app: &TestApp) {
    let org = app.user("org");
    let ann = app.user("ann");
    org.post("/v1/tournaments", json!({"name": "x", "stages": []}))
        .problem(400, "validation-failed");
    org.post(
        "/v1/tournaments",
        json!({"name": "x", "stages": [{"format": "swiss"}]}),
    )
    .problem(400, "validation-failed");
    org.post(
        "/v1/tournaments",
        json!({"name": "x", "stages": [{"format": "knockout", "table_size": 4}]}),
    )
    .problem(400, "validation-failed");
    org.post(
        "/v1/tournaments",
        json!({"name": "x", "stages": [{"format": "swiss", "rounds": 3, "best_of": 2}]}),
    )
    .problem(400, "validation-failed");
    org.post(
        "/v1/tournaments",
        json!({"name": "x", "stages": [{"format": "swiss", "rounds": 3}], "bogus": 1}),
    )
    .problem(400, "validation-failed");
    // a field out of its documented range is refused even where the format ignores it
    for stage in [
        json!({"format": "swiss", "rounds": 3, "groups": 0}),
        json!({"format": "round_robin", "rounds": 0}),
        json!({"format": "knockout", "best_of": 7}),
    ] {
        org.post("/v1/tournaments", json!({"name": "x", "stages": [stage]}))
            .problem(400, "validation-failed");
    }
    org.post(
        "/v1/tournaments",
        json!({"name": "x", "stages": [
            {"format": "swiss", "rounds": 3},
            {"format": "knockout", "top": 2000}
        ]}),
    )
    .problem(400, "validation-failed");
    ann.get("/v1/tournaments/nope")
        .problem(404, "tournament-not-found");
    ann.post("/v1/tournaments/nope/join", json!({}))
        .problem(404, "tournament-not-found");
    app.anon()
        .get("/v1/tournaments")
        .problem(401, "unauthorized");
    let id = create(&org, 3, json!({}));
    // a Swiss has no bracket, nor has a stage the event does not have
    for stage in ["", "?stage=0", "?stage=2147483646"] {
        ann.get(&format!("/v1/tournaments/{id}/bracket{stage}"))
            .problem(404, "bracket-not-found");
    }
    org.post(
        &format!("/v1/tournaments/{id}/bots"),
        json!({"level": "random"}),
    )
    .problem(403, "computer-opponents-not-allowed");
    ann.post(&format!("/v1/tournaments/{id}/leave"), json!({}))
        .problem(409, "not-registered");
    ann.post(&format!("/v1/tournaments/{id}/join"), json!({}))
        .ok();
    org.post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .problem(409, "not-enough-players");
    // a withdrawal before the start leaves one player
    ann.post(&format!("/v1/tournaments/{id}/leave"), json!({}))
        .ok();
    let v = ann.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(v["registered"], false);
    let with_bots = create(
        &org,
        1,
        json!({"computer_opponents": true, "max_players": 2}),
    );
    ann.post(
        &format!("/v1/tournaments/{with_bots}/bots"),
        json!({"level": "random"}),
    )
    .problem(403, "not-organiser");
    org.post(
        &format!("/v1/tournaments/{with_bots}/bots"),
        json!({"level": "genius"}),
    )
    .problem(400, "validation-failed");
    org.post(
        &format!("/v1/tournaments/{with_bots}/bots"),
        json!({"level": "random"}),
    )
    .ok();
    org.post(
        &format!("/v1/tournaments/{with_bots}/bots"),
        json!({"level": "random"}),
    )
    .ok();
    ann.post(&format!("/v1/tournaments/{with_bots}/join"), json!({}))
        .problem(409, "tournament-full");
    // a knockout takes nobody once its first round is paired
    let r = org.post(
        "/v1/tournaments",
        json!({"name": "cup", "stages": [{"format": "knockout"}]}),
    );
    let cup = r.ok()["id"].as_str().expect("id").to_string();
    let bob = app.user("bob");
    for p in [&ann, &bob] {
        p.post(&format!("/v1/tournaments/{cup}/join"), json!({}))
            .ok();
    }
    org.post(&format!("/v1/tournaments/{cup}/start"), json!({}))
        .ok();
    app.user("cid")
        .post(&format!("/v1/tournaments/{cup}/join"), json!({}))
        .problem(409, "registration-closed");
}

/// The organiser's adjustments: points with a reason, then a played game's result
/// replaced; each is in the log with its reason and the standings follow; others may
/// not, fields must fit the kind, and nothing changes once the event is over.
fn organiser_adjusts_with_a_reason(app: &TestApp) {
    let org = app.user("org");
    let (ann, ben) = (app.user("ann"), app.user("ben"));
    let id = create(&org, 2, json!({}));
    for p in [&ann, &ben] {
        p.post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .ok();
    }
    org.post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .ok();
    let adjust =
        |c: &Client, body: Value| c.post(&format!("/v1/tournaments/{id}/adjustments"), body);
    let late = json!({"kind": "points", "player": ann.user_id, "points": -1.5, "reason": "late"});
    adjust(&ben, late.clone()).problem(403, "not-organiser");
    for bad in [
        json!({"kind": "points", "player": ann.user_id, "points": 0.3, "reason": "x"}),
        json!({"kind": "points", "player": ann.user_id, "points": 0, "reason": "x"}),
        json!({"kind": "points", "points": 1, "reason": "x"}),
        json!({"kind": "points", "player": ann.user_id, "points": 1, "reason": " "}),
        json!({"kind": "result", "stage": 0, "round": 1, "table": 1, "reason": "x"}),
        // no result to replace yet
        json!({"kind": "result", "stage": 0, "round": 1, "table": 1, "game": 0,
               "scores": [10, 20], "reason": "x"}),
    ] {
        adjust(&org, bad.clone()).problem(400, "validation-failed");
    }
    adjust(
        &org,
        json!({"kind": "points", "player": "nobody", "points": 1, "reason": "x"}),
    )
    .problem(409, "not-registered");
    adjust(&org, late).ok();
    let points_of = |who: &str| {
        served_standings(&org, &id, 0)
            .into_iter()
            .find(|(p, _)| p == who)
            .map(|(_, pts)| pts)
    };
    assert_eq!(points_of(&ann.user_id), Some(-1.5));
    assert_eq!(
        served_standings(&org, &id, 0),
        standings_from_log(&org, &id, 0)
    );
    // the first round's game, played to its end, then its result replaced: the second
    // seat wins it now
    let (gid, seats) = running_games(&org, &id).into_iter().next().expect("a game");
    play_random(&[&ann, &ben], &gid, 3);
    let v = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(v["current_round"], 2, "{v}");
    adjust(
        &org,
        json!({"kind": "result", "stage": 0, "round": 1, "table": 1, "game": 0,
               "scores": [10, 90], "reason": "a scoring error"}),
    )
    .ok();
    let log = log_of(&org, &id);
    let reasons: Vec<String> = log
        .iter()
        .filter_map(|e| match e {
            Event::OrganiserAdjusted { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(reasons, ["late", "a scoring error"]);
    let rounds = org
        .get(&format!("/v1/tournaments/{id}/rounds"))
        .ok()
        .clone();
    assert_eq!(
        rounds["rounds"][0]["tables"][0]["games"][0]["scores"],
        json!([10, 90])
    );
    let ann_won = seats[1] == ann.user_id;
    assert_eq!(
        points_of(&ann.user_id),
        Some(if ann_won { -0.5 } else { -1.5 })
    );
    assert_eq!(
        served_standings(&org, &id, 0),
        standings_from_log(&org, &id, 0)
    );
    // the second round played, the event is over: no more adjustments
    let (gid, _) = running_games(&org, &id).into_iter().next().expect("a game");
    play_random(&[&ann, &ben], &gid, 4);
    adjust(
        &org,
        json!({"kind": "points", "player": ben.user_id, "points": 1, "reason": "x"}),
    )
    .problem(409, "tournament-ended");
}

/// An event that starts when full starts with the entry that fills it: its first
/// round is paired and its games start, and nobody else gets in.
fn a_full_event_starts_by_itself(app: &TestApp) {
    let org = app.user("org");
    let id = create(&org, 2, json!({"max_players": 2, "start_when_full": true}));
    let v = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(v["start_when_full"], true);
    let ann = app.user("ann");
    let v = ann
        .post(&format!("/v1/tournaments/{id}/join"), json!({}))
        .ok()
        .clone();
    assert_eq!(v["status"], "registering");
    let v = app
        .user("ben")
        .post(&format!("/v1/tournaments/{id}/join"), json!({}))
        .ok()
        .clone();
    assert_eq!(
        (v["status"].as_str(), v["current_round"].as_i64()),
        (Some("running"), Some(1))
    );
    assert_eq!(running_games(&org, &id).len(), 1);
    app.user("cid")
        .post(&format!("/v1/tournaments/{id}/join"), json!({}))
        .problem(409, "tournament-full");
    // the organiser's start is not needed any more
    org.post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .problem(409, "tournament-started");
}

/// A round with a calendar date waits for it: the sweep pairs it when it comes, and a
/// finished game's result reaches the log through the sweep too.
fn a_dated_round_is_paired_by_the_sweep(kind: Db) {
    let app = &long_tokens(kind);
    let org = app.user("org");
    let (a, b) = (app.user("ann"), app.user("bob"));
    let later = app.clock.now_ms() + 3 * 86_400_000;
    let id = create(
        &org,
        2,
        json!({"round_starts": [tilepost::clock::rfc3339(app.clock.now_ms()), tilepost::clock::rfc3339(later)]}),
    );
    for p in [&a, &b] {
        p.post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .ok();
    }
    org.post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .ok();
    let games = running_games(&org, &id);
    assert_eq!(games.len(), 1);
    play_random(&[&a, &b], &games[0].0, 3);
    let v = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(v["status"], "running");
    assert_eq!(v["current_round"], 1);
    assert_eq!(v["next_round_at"], tilepost::clock::rfc3339(later).as_str());
    assert_eq!(sweep_now(app), 0, "the round waits for its date");
    app.clock.advance_ms(3 * 86_400_000 + 1);
    assert_eq!(sweep_now(app), 1);
    let v = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(
        (v["current_round"].as_i64(), v["next_round_at"].is_null()),
        (Some(2), true)
    );
    assert_eq!(running_games(&org, &id).len(), 1);
}

/// The round cap: a game still running at the deadline is decided by the organiser's
/// rule (here: the score if it ended now) and the event moves on.
fn the_round_cap_decides_running_games(kind: Db) {
    let app = &long_tokens(kind);
    let org = app.user("org");
    let (a, b) = (app.user("ann"), app.user("bob"));
    let id = create(
        &org,
        1,
        json!({"round_cap": {"days": 7, "decision": "score_if_ended_now"}}),
    );
    for p in [&a, &b] {
        p.post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .ok();
    }
    org.post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .ok();
    let games = running_games(&org, &id);
    decide_each(&[&a, &b], &games[0].0, 3);
    assert_eq!(sweep_now(app), 0);
    app.clock.advance_ms(7 * 86_400_000 + 1);
    assert_eq!(sweep_now(app), 1);
    let v = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(v["status"], "ended");
    let rounds = org
        .get(&format!("/v1/tournaments/{id}/rounds"))
        .ok()
        .clone();
    let g = &rounds["rounds"][0]["tables"][0]["games"][0];
    assert_eq!(g["decision"], "score_if_ended_now", "{g}");
    assert_eq!(
        served_standings(&org, &id, 0),
        standings_from_log(&org, &id, 0)
    );
}

/// Two server processes on one Postgres: requests to start the event and sweeps due
/// for a dated round, released together, make exactly one pairing per round.
#[test]
fn two_processes_pair_each_round_once() {
    let app = long_tokens(Db::Postgres);
    let mut config = test_config(&app.db.url);
    config.token_ttl_secs = 60 * 86_400;
    let other = tilepost::startup::spawn(config, app.clock.clone()).expect("a second server");
    let org = app.user("org");
    let (a, b, c, d) = (
        app.user("ann"),
        app.user("bob"),
        app.user("cid"),
        app.user("dee"),
    );
    let later = app.clock.now_ms() + 86_400_000;
    let id = create(
        &org,
        2,
        json!({"round_starts": [tilepost::clock::rfc3339(app.clock.now_ms()), tilepost::clock::rfc3339(later)]}),
    );
    for p in [&a, &b, &c, &d] {
        p.post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .ok();
    }
    let org2 = org.on(&other.url());
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(6));
    let handles: Vec<_> = (0..6)
        .map(|i| {
            let client = if i % 2 == 0 {
                org.clone()
            } else {
                org2.clone()
            };
            let (barrier, id) = (barrier.clone(), id.clone());
            std::thread::spawn(move || {
                barrier.wait();
                client
                    .post(&format!("/v1/tournaments/{id}/start"), json!({}))
                    .status
            })
        })
        .collect();
    let statuses: Vec<u16> = handles
        .into_iter()
        .map(|h| h.join().expect("thread"))
        .collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        1,
        "{statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 409),
        "{statuses:?}"
    );
    let games = running_games(&org, &id);
    assert_eq!(games.len(), 2);
    let all = [&a, &b, &c, &d];
    for (i, (g, _)) in games.iter().enumerate() {
        play_random(&all, g, i as u64);
    }
    app.clock.advance_ms(86_400_000 + 1);
    let states = [app.server.state.clone(), other.state.clone()];
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(6));
    let now = app.clock.now_ms();
    let handles: Vec<_> = (0..6)
        .map(|i| {
            let st = states[i % 2].clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                block(tilepost::tournaments::sweep(
                    &st.store,
                    &st.notifier,
                    &st.replays,
                    now,
                ))
                .expect("sweep")
            })
        })
        .collect();
    let advanced: usize = handles.into_iter().map(|h| h.join().expect("thread")).sum();
    assert_eq!(advanced, 1, "one sweep pairs the round");
    let paired = org
        .get(&format!("/v1/tournaments/{id}/events?limit=200"))
        .ok()["events"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter(|e| e["type"] == "round_paired")
        .count();
    assert_eq!(paired, 2);
    assert_eq!(running_games(&org, &id).len(), 2);
    drop(other);
}

/// One pass of the tournaments' sweep at the app's time; how many it advanced.
pub(crate) fn sweep_now(app: &TestApp) -> usize {
    let st = &app.server.state;
    block(tilepost::tournaments::sweep(
        &st.store,
        &st.notifier,
        &st.replays,
        app.clock.now_ms(),
    ))
    .expect("sweep")
}

/// A server whose login tokens outlive the days the tests move the clock on.
pub(crate) fn long_tokens(kind: Db) -> TestApp {
    TestApp::with(kind, |c| c.token_ttl_secs = 60 * 86_400)
}

both!(
    a_swiss_runs_its_rounds_through_real_games,
    refusals_have_codes,
    organiser_adjusts_with_a_reason,
    a_full_event_starts_by_itself,
);

mod timed {
    use super::*;

    each_db!(
        a_dated_round_is_paired_by_the_sweep,
        the_round_cap_decides_running_games,
    );
}
