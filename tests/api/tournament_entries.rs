//! Entering and organising an event: computer opponents entered together, rating
//! bounds, invitations, a start date, the organiser's removal of a player, and what
//! the players hear as the event moves on.

use serde_json::{json, Value};
use tilepost::clock::Clock;
use tilepost_tournament::Event;

use crate::both;
use crate::common::*;
use crate::tournaments::{
    block, create, log_of, long_tokens, running_games, served_standings, standings_from_log,
};

/// Computer opponents added at the same moment: to one event, each request seats its own
/// opponent; to several events, the first use of a level's account makes one account
/// and every request is answered. Never a failure of the server.
fn computer_opponents_added_together(app: &TestApp) {
    let org = app.user("org");
    let id = create(&org, 1, json!({"computer_opponents": true}));
    let add = |o: &Client, id: &str, level: &str| {
        o.post(
            &format!("/v1/tournaments/{id}/bots"),
            json!({"level": level}),
        )
    };
    let statuses = |rs: Vec<Resp>| rs.iter().map(|r| r.status).collect::<Vec<_>>();
    let answers = crate::trust::together(6, |_| add(&org, &id, "greedy"));
    assert_eq!(statuses(answers), vec![200; 6]);
    let v = org
        .get(&format!("/v1/tournaments/{id}/standings"))
        .ok()
        .clone();
    let mut names: Vec<String> = v["standings"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter_map(|p| p["player"]["username"].as_str().map(str::to_string))
        .collect();
    names.sort();
    assert_eq!(
        names,
        (1..=6)
            .map(|k| format!("bot-greedy-{k}"))
            .collect::<Vec<_>>()
    );
    // six organisers, six events, the first "random" opponent at once
    let orgs: Vec<Client> = (0..6).map(|i| app.user(&format!("org{i}"))).collect();
    let ids: Vec<String> = orgs
        .iter()
        .map(|o| create(o, 1, json!({"computer_opponents": true})))
        .collect();
    let answers = crate::trust::together(6, |i| add(&orgs[i], &ids[i], "random"));
    assert_eq!(statuses(answers), vec![200; 6]);
}

/// The players hear of the event as it moves on, on their own endpoints (and so by
/// email and the live stream, which take the same messages): every player of a round
/// its table, opponents and games; every player of a stage that is not the last
/// whether they go on; everyone the winner and their place at the end.
fn players_hear_of_rounds_stages_and_the_end(kind: Db) {
    use crate::notifications::{endpoint, fast, wait_for, Receiver};
    let app = TestApp::with(kind, |c| {
        fast(c);
        c.webhook_allow_private = true;
    });
    let rx = Receiver::start();
    let org = app.user("org");
    let names = ["ann", "ben", "cat", "dan"];
    let players: Vec<Client> = names.iter().map(|n| app.user(n)).collect();
    let types = json!([
        "tournament.round_started",
        "tournament.stage_ended",
        "tournament.finished"
    ]);
    for p in &players {
        endpoint(p, &rx.url(), types.clone());
    }
    let r = org.post(
        "/v1/tournaments",
        json!({
            "name": "Cup",
            "stages": [{"format": "swiss", "rounds": 1}, {"format": "knockout", "top": 2}],
        }),
    );
    let id = r.ok()["id"].as_str().expect("id").to_string();
    for p in &players {
        p.post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .ok();
    }
    org.post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .ok();
    let of = |t: &str| -> Vec<Value> {
        rx.accepted()
            .iter()
            .filter(|m| m.json["type"] == t)
            .map(|m| m.json["data"].clone())
            .collect()
    };
    wait_for(&app, 0, "the first round's messages", || {
        of("tournament.round_started").len() == 4
    });
    let games = running_games(&org, &id);
    assert_eq!(games.len(), 2);
    for m in of("tournament.round_started") {
        assert_eq!(m["tournament_id"], id.as_str());
        assert_eq!(m["tournament_name"], "Cup");
        assert_eq!(
            (m["stage"].as_u64(), m["round"].as_u64()),
            (Some(0), Some(1))
        );
        let me = m["recipient"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let game = m["games"][0].as_str().unwrap_or_default();
        let (_, seated) = games
            .iter()
            .find(|(g, _)| g == game)
            .expect("the message names a game of the round");
        assert_eq!(seated.len(), 2);
        let opponent = m["opponents"][0].as_str().unwrap_or_default();
        assert_ne!(opponent, me);
        assert!(names.contains(&opponent));
        assert!(m["links"]["play"]
            .as_str()
            .is_some_and(|u| u.ends_with(&format!("/play/tournaments/{id}"))));
    }
    let all: Vec<&Client> = players.iter().collect();
    for (i, (g, _)) in games.iter().enumerate() {
        play_random(&all, g, i as u64);
    }
    wait_for(&app, 0, "the stage's end and the final's pairing", || {
        of("tournament.stage_ended").len() == 4 && of("tournament.round_started").len() == 6
    });
    let ended = of("tournament.stage_ended");
    assert_eq!(ended.iter().filter(|m| m["qualified"] == true).count(), 2);
    let mut ranks: Vec<u64> = ended.iter().filter_map(|m| m["rank"].as_u64()).collect();
    ranks.sort();
    assert_eq!(ranks, vec![1, 2, 3, 4]);
    let qualified: Vec<String> = ended
        .iter()
        .filter(|m| m["qualified"] == true)
        .filter_map(|m| m["recipient"]["name"].as_str().map(str::to_string))
        .collect();
    let finalists: Vec<String> = of("tournament.round_started")
        .iter()
        .filter(|m| m["stage"] == 1)
        .filter_map(|m| m["recipient"]["name"].as_str().map(str::to_string))
        .collect();
    assert_eq!(finalists.len(), 2);
    assert!(finalists.iter().all(|f| qualified.contains(f)));
    let final_games = running_games(&org, &id);
    assert_eq!(final_games.len(), 1);
    play_random(&all, &final_games[0].0, 9);
    wait_for(&app, 0, "the event's end", || {
        of("tournament.finished").len() == 4
    });
    let finished = of("tournament.finished");
    let mut places: Vec<u64> = finished
        .iter()
        .filter_map(|m| m["place"].as_u64())
        .collect();
    places.sort();
    assert_eq!(places, vec![1, 2, 3, 4]);
    let winner = finished[0]["winner"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(finished.iter().all(|m| m["winner"] == winner.as_str()));
    let first = finished.iter().find(|m| m["place"] == 1).expect("a winner");
    assert_eq!(first["recipient"]["name"], winner.as_str());
    assert!(finalists.contains(&winner));
    // nothing more: one message per player and happening
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(rx.accepted().len(), 4 + 4 + 2 + 4);
}

/// A start date: the sweep starts the event when it comes (the first round paired), and
/// ends one that has fewer than 2 players then; a date in the past is refused.
fn an_event_starts_on_its_date(kind: Db) {
    let app = &long_tokens(kind);
    let org = app.user("org");
    let (a, b) = (app.user("ann"), app.user("bob"));
    let day = 86_400_000;
    let at = tilepost::clock::rfc3339(app.clock.now_ms() + day);
    let id = create(&org, 1, json!({"starts_at": at}));
    let lonely = create(&org, 1, json!({"starts_at": at}));
    let v = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(v["starts_at"], at.as_str());
    for p in [&a, &b] {
        p.post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .ok();
    }
    a.post(&format!("/v1/tournaments/{lonely}/join"), json!({}))
        .ok();
    let st = &app.server.state;
    let sweep = || {
        block(tilepost::tournaments::sweep(
            &st.store,
            &st.notifier,
            &st.replays,
            app.clock.now_ms(),
        ))
        .expect("sweep")
    };
    assert_eq!(sweep(), 0, "not yet");
    app.clock.advance_ms(day + 1);
    assert_eq!(sweep(), 2);
    let v = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(
        (v["status"].as_str(), v["current_round"].as_i64()),
        (Some("running"), Some(1))
    );
    assert!(v["next_round_at"].is_null());
    assert_eq!(running_games(&org, &id).len(), 1);
    let v = org.get(&format!("/v1/tournaments/{lonely}")).ok().clone();
    assert_eq!(v["status"], "ended");
    assert_eq!(sweep(), 0, "each once");
    // refused dates
    for bad in [
        json!({"starts_at": tilepost::clock::rfc3339(app.clock.now_ms() - 1000)}),
        json!({"starts_at": tilepost::clock::rfc3339(app.clock.now_ms() + 400 * day)}),
        json!({"starts_at": "tomorrow"}),
    ] {
        let mut body = json!({"name": "Late", "stages": [{"format": "swiss", "rounds": 1}]});
        body["starts_at"] = bad["starts_at"].clone();
        org.post("/v1/tournaments", body)
            .problem(400, "validation-failed");
    }
}

/// Rating bounds: a player registers only with a rating inside them (without
/// one, 1500); computer opponents the organiser enters are not bound; bounds out of
/// range or crossed are refused.
fn rating_bounds_hold_at_registration(app: &TestApp) {
    let org = app.user("org");
    let ann = app.user("ann");
    let high = create(
        &org,
        1,
        json!({"min_rating": 1600, "computer_opponents": true}),
    );
    let low = create(&org, 1, json!({"max_rating": 1400}));
    let around = create(&org, 1, json!({"min_rating": 1500, "max_rating": 1500}));
    let v = org.get(&format!("/v1/tournaments/{high}")).ok().clone();
    assert_eq!(
        (v["min_rating"].as_i64(), v["max_rating"].is_null()),
        (Some(1600), true)
    );
    for id in [&high, &low] {
        ann.post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .problem(403, "rating-out-of-bounds");
    }
    ann.post(&format!("/v1/tournaments/{around}/join"), json!({}))
        .ok();
    org.post(
        &format!("/v1/tournaments/{high}/bots"),
        json!({"level": "random"}),
    )
    .ok();
    for bad in [
        json!({"min_rating": -1}),
        json!({"max_rating": 4001}),
        json!({"min_rating": 1600, "max_rating": 1500}),
    ] {
        let mut body = json!({"name": "Bounded", "stages": [{"format": "swiss", "rounds": 1}]});
        for (k, v) in bad.as_object().cloned().unwrap_or_default() {
            body[k] = v;
        }
        org.post("/v1/tournaments", body)
            .problem(400, "validation-failed");
    }
}

/// By invitation only: the organiser invites by name, only those invited register; an
/// invitation is recorded once, never for a player registered, never by another user.
fn only_the_invited_register(app: &TestApp) {
    let org = app.user("org");
    let (ann, bob) = (app.user("ann"), app.user("bob"));
    let id = create(&org, 1, json!({"invitation_only": true}));
    let invite = |c: &Client, name: &str| {
        c.post(
            &format!("/v1/tournaments/{id}/invitations"),
            json!({"username": name}),
        )
    };
    ann.post(&format!("/v1/tournaments/{id}/join"), json!({}))
        .problem(403, "invitation-only");
    bob.post(
        &format!("/v1/tournaments/{id}/invitations"),
        json!({"username": "bob"}),
    )
    .problem(403, "not-organiser");
    invite(&org, "nobody").problem(404, "user-not-found");
    let v = invite(&org, "ann").ok().clone();
    assert_eq!(v["invitation_only"], true);
    invite(&org, "ann").problem(409, "already-invited");
    let seen = ann.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(seen["invited"], true);
    ann.post(&format!("/v1/tournaments/{id}/join"), json!({}))
        .ok();
    invite(&org, "org").ok();
    org.post(&format!("/v1/tournaments/{id}/join"), json!({}))
        .ok();
    invite(&org, "ann").problem(409, "already-registered");
    bob.post(&format!("/v1/tournaments/{id}/join"), json!({}))
        .problem(403, "invitation-only");
    let log: Vec<String> = log_of(&org, &id)
        .iter()
        .map(|e| e.encode().0.to_string())
        .collect();
    assert_eq!(log.iter().filter(|t| *t == "player_invited").count(), 2);
    // an open event takes anyone, invited or not
    let open = create(&org, 1, json!({}));
    bob.post(&format!("/v1/tournaments/{open}/join"), json!({}))
        .ok();
}

/// The organiser removes a player mid-round, with a reason: their game is forfeited and
/// ends for their opponent, the log holds the removal and its reason, and the next
/// round is paired without them. Another user may not; a second removal is refused.
fn organiser_removes_a_player(app: &TestApp) {
    let org = app.user("org");
    let players: Vec<Client> = ["ann", "ben", "cat", "dan"]
        .iter()
        .map(|n| app.user(n))
        .collect();
    let id = create(&org, 2, json!({}));
    for p in &players {
        p.post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .ok();
    }
    org.post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .ok();
    let ann = &players[0];
    let games = running_games(&org, &id);
    let (mine, seats) = games
        .iter()
        .find(|(_, s)| s.contains(&ann.user_id))
        .cloned()
        .expect("ann plays");
    let opponent = seats
        .iter()
        .find(|p| **p != ann.user_id)
        .cloned()
        .unwrap_or_default();
    let remove = |c: &Client, player: &str| {
        c.post(
            &format!("/v1/tournaments/{id}/adjustments"),
            json!({"kind": "remove", "player": player, "reason": "stopped answering"}),
        )
    };
    remove(&players[1], &ann.user_id).problem(403, "not-organiser");
    org.post(
        &format!("/v1/tournaments/{id}/adjustments"),
        json!({"kind": "remove", "reason": "x"}),
    )
    .problem(400, "validation-failed");
    remove(&org, &ann.user_id).ok();
    // her game is over, won by her opponent
    let g = org.get(&format!("/v1/games/{mine}")).ok().clone();
    assert_eq!(g["status"], "finished", "{g}");
    let points_of = |who: &str| {
        served_standings(&org, &id, 0)
            .into_iter()
            .find(|(p, _)| p == who)
            .map(|(_, pts)| pts)
    };
    assert_eq!(points_of(&opponent), Some(1.0));
    assert_eq!(points_of(&ann.user_id), Some(0.0));
    assert_eq!(
        served_standings(&org, &id, 0),
        standings_from_log(&org, &id, 0)
    );
    let removed = log_of(&org, &id).into_iter().any(|e| {
        matches!(&e, Event::OrganiserAdjusted {
            adjustment: tilepost_tournament::Adjustment::PlayerRemoved { player },
            reason,
        } if *player == ann.user_id && reason == "stopped answering")
    });
    assert!(removed);
    remove(&org, &ann.user_id).problem(409, "already-registered");
    // the other game ends; round 2 pairs the three left (one bye), never her
    let all: Vec<&Client> = players.iter().collect();
    for (g, _) in running_games(&org, &id) {
        play_random(&all, &g, 5);
    }
    let next = running_games(&org, &id);
    assert_eq!(next.len(), 1);
    assert!(next.iter().all(|(_, s)| !s.contains(&ann.user_id)));
    let v = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(v["current_round"], 2);
}

both!(
    computer_opponents_added_together,
    rating_bounds_hold_at_registration,
    only_the_invited_register,
    organiser_removes_a_player,
);

mod timed {
    use super::*;

    each_db!(
        players_hear_of_rounds_stages_and_the_end,
        an_event_starts_on_its_date,
    );
}
