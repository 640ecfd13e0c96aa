//! Entering and organising an event: computer opponents entered together, rating
//! bounds, invitations, a start date, the organiser's removal of a player, and what
//! the players hear as the event moves on (rounds, a knockout's players out, stage
//! ends, the end, an invitation, an event not held).

use serde_json::{json, Value};
use tilepost::clock::Clock;
use tilepost_tournament::Event;

use crate::both;
use crate::common::*;
use crate::tournaments::{
    create, log_of, long_tokens, running_games, served_standings, standings_from_log, sweep_now,
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

/// Every tournament message type, for a player's endpoint.
fn tournament_types() -> Value {
    json!([
        "tournament.invited",
        "tournament.round_started",
        "tournament.eliminated",
        "tournament.stage_ended",
        "tournament.finished"
    ])
}

/// The players of the tests of messages.
const NAMES: [&str; 4] = ["ann", "ben", "cat", "dan"];

/// An app that delivers to local endpoints at once, a receiver, an organiser, and the
/// four players of [`NAMES`], each with an endpoint for every tournament message.
fn four_listening(kind: Db) -> (TestApp, crate::notifications::Receiver, Client, Vec<Client>) {
    use crate::notifications::{endpoint, fast, Receiver};
    let app = TestApp::with(kind, |c| {
        fast(c);
        c.webhook_allow_private = true;
    });
    let rx = Receiver::start();
    let org = app.user("org");
    let players: Vec<Client> = NAMES.iter().map(|n| app.user(n)).collect();
    for p in &players {
        endpoint(p, &rx.url(), tournament_types());
    }
    (app, rx, org, players)
}

/// The second seat of a running game (player ids in seat order) resigns, so the first
/// wins: their names, winner first.
fn lose(players: &[Client], game: &str, seats: &[String]) -> (String, String) {
    let name_of = |user: &str| {
        let i = players.iter().position(|p| p.user_id == user);
        i.map(|i| NAMES[i].to_string()).unwrap_or_default()
    };
    let loser = players
        .iter()
        .find(|p| p.user_id == seats[1])
        .expect("a player");
    loser
        .post(&format!("/v1/games/{game}/resign"), json!({}))
        .ok();
    (name_of(&seats[0]), name_of(&seats[1]))
}

/// An event made with `body` by `org`, every one of `players` registered, started.
fn started(org: &Client, players: &[Client], body: Value) -> String {
    let id = org.post("/v1/tournaments", body).ok()["id"]
        .as_str()
        .expect("id")
        .to_string();
    for p in players {
        p.post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .ok();
    }
    org.post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .ok();
    id
}

/// The `data` of every message of type `t` the receiver accepted, in order.
fn data_of(rx: &crate::notifications::Receiver, t: &str) -> Vec<Value> {
    rx.accepted()
        .iter()
        .filter(|m| m.json["type"] == t)
        .map(|m| m.json["data"].clone())
        .collect()
}

/// The players hear of the event as it moves on, on their own endpoints (and so by
/// email and the live stream, which take the same messages): every player of a round
/// its table, opponents and games; every player of a stage that is not the last
/// whether they go on; everyone the winner and their place at the end. The final's
/// loser hears of it from `tournament.finished` alone (no `tournament.eliminated`: the
/// match ended the stage).
fn players_hear_of_rounds_stages_and_the_end(kind: Db) {
    use crate::notifications::wait_for;
    let (app, rx, org, players) = four_listening(kind);
    let names = NAMES;
    let id = started(
        &org,
        &players,
        json!({
            "name": "Cup",
            "stages": [{"format": "swiss", "rounds": 1}, {"format": "knockout", "top": 2}],
        }),
    );
    let of = |t: &str| data_of(&rx, t);
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
    assert!(of("tournament.eliminated").is_empty());
    assert_eq!(rx.accepted().len(), 4 + 4 + 2 + 4);
}

/// A knockout tells each player a match puts out at once, on their endpoints and their
/// live stream: who beat them, the round and match, and what follows (an earlier
/// stage: how many go on, told at its end; the last stage: their event ends there).
/// The match that ends a stage is told by the stage's own message, to everyone,
/// those out earlier included. Here a 4-player knockout whose best 4 go on to a second
/// 4-player knockout; each match is decided by its loser's resignation.
fn a_knockout_tells_each_player_out_at_once(kind: Db) {
    use crate::notifications::wait_for;
    use crate::stream::Sse;
    let (app, rx, org, players) = four_listening(kind);
    let live = Sse::open(&players[0], &app.url(), None);
    let id = started(
        &org,
        &players,
        json!({
            "name": "Knock",
            "stages": [{"format": "knockout"}, {"format": "knockout", "top": 4}],
        }),
    );
    let of = |t: &str| data_of(&rx, t);
    let lose = |game: &str, seats: &[String]| lose(&players, game, seats);
    wait_for(&app, 0, "the first round", || {
        of("tournament.round_started").len() == 4
    });
    // one semi-final decided: its loser hears at once, the other plays on
    let semis = running_games(&org, &id);
    assert_eq!(semis.len(), 2);
    let (winner, loser) = lose(&semis[0].0, &semis[0].1);
    wait_for(&app, 0, "the first player out", || {
        of("tournament.eliminated").len() == 1
    });
    let out = &of("tournament.eliminated")[0];
    assert_eq!(out["recipient"]["name"], loser.as_str());
    assert_eq!(out["tournament_id"], id.as_str());
    assert_eq!(out["tournament_name"], "Knock");
    assert_eq!(
        (out["stage"].as_u64(), out["round"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(out["beaten_by"], winner.as_str());
    assert!(out["match"].as_str().is_some_and(|m| m.starts_with("W1.")));
    assert_eq!(
        (&out["last_stage"], &out["qualifying"]),
        (&json!(false), &json!(4))
    );
    assert!(out["text"]
        .as_str()
        .is_some_and(|t| t.contains(&format!("{winner} beat you in round 1 of stage 1"))));
    assert_eq!(of("tournament.round_started").len(), 4, "the final waits");
    lose(&semis[1].0, &semis[1].1);
    wait_for(&app, 0, "the second player out and the final", || {
        of("tournament.eliminated").len() == 2 && of("tournament.round_started").len() == 6
    });
    // the final ends the stage: its loser hears it with everyone, from the stage's end
    let fin = running_games(&org, &id);
    assert_eq!(fin.len(), 1);
    lose(&fin[0].0, &fin[0].1);
    wait_for(
        &app,
        0,
        "the stage's end and the next stage's first round",
        || of("tournament.stage_ended").len() == 4 && of("tournament.round_started").len() == 10,
    );
    assert_eq!(of("tournament.eliminated").len(), 2);
    let mut ranks: Vec<u64> = of("tournament.stage_ended")
        .iter()
        .filter(|m| m["qualified"] == true)
        .filter_map(|m| m["rank"].as_u64())
        .collect();
    ranks.sort();
    assert_eq!(ranks, [1, 2, 3, 4], "everyone, the best 4 going on");
    // the last stage: its semi-finals' losers' event ends there
    let semis = running_games(&org, &id);
    assert_eq!(semis.len(), 2);
    for (g, seats) in &semis {
        lose(g, seats);
    }
    wait_for(
        &app,
        0,
        "the last stage's players out and its final",
        || of("tournament.eliminated").len() == 4 && of("tournament.round_started").len() == 12,
    );
    for m in &of("tournament.eliminated")[2..] {
        assert_eq!(
            (&m["stage"], &m["round"], &m["last_stage"], &m["qualifying"]),
            (&json!(1), &json!(1), &json!(true), &Value::Null)
        );
        assert!(m["text"]
            .as_str()
            .is_some_and(|t| t.contains("Your event ends here")));
    }
    let fin = running_games(&org, &id);
    let (champion, _) = lose(&fin[0].0, &fin[0].1);
    wait_for(&app, 0, "the event's end", || {
        of("tournament.finished").len() == 4
    });
    assert!(of("tournament.finished")
        .iter()
        .all(|m| m["winner"] == champion.as_str() && m["held"] == true));
    // nothing more: 12 round starts, 4 players out, 4 stage ends, 4 ends
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(of("tournament.eliminated").len(), 4);
    assert_eq!(rx.accepted().len(), 12 + 4 + 4 + 4);
    // the live stream carries ann's tournament messages as her endpoint got them
    let mine = |t: &str| {
        of(t)
            .iter()
            .filter(|m| m["recipient"]["name"] == "ann")
            .count()
    };
    assert!(mine("tournament.round_started") >= 2);
    let streamed = live.drain(std::time::Duration::from_millis(500));
    for t in [
        "tournament.round_started",
        "tournament.eliminated",
        "tournament.stage_ended",
        "tournament.finished",
    ] {
        let frames: Vec<&Value> = streamed
            .iter()
            .filter(|f| f.event == t)
            .map(|f| &f.data)
            .collect();
        assert_eq!(frames.len(), mine(t), "{t}");
        assert!(frames
            .iter()
            .all(|f| f["data"]["tournament_id"] == id.as_str() && f["data"].get("html").is_none()));
    }
}

/// A double elimination puts a player out at their second loss: a first loss (into the
/// losers' bracket) tells nothing, each losers' bracket match tells its loser at once,
/// and the grand final (replayed or not) ends the event with `tournament.finished` for
/// everyone and no `tournament.eliminated`.
fn a_double_elimination_tells_the_second_loss(kind: Db) {
    use crate::notifications::wait_for;
    let (app, rx, org, players) = four_listening(kind);
    let id = started(
        &org,
        &players,
        json!({"name": "Twice", "stages": [{"format": "knockout", "double": true}]}),
    );
    let of = |t: &str| data_of(&rx, t);
    let rounds = |n: usize| of("tournament.round_started").len() == n;
    wait_for(&app, 0, "the first round", || rounds(4));
    // the winners' bracket's first round: two first losses, nobody out
    for (g, seats) in running_games(&org, &id) {
        lose(&players, &g, &seats);
    }
    wait_for(&app, 0, "the second round", || rounds(8));
    assert!(of("tournament.eliminated").is_empty());
    // the winners' final and the losers' first match: its loser is out
    let mut out = Vec::new();
    for (g, seats) in running_games(&org, &id) {
        let (winner, loser) = lose(&players, &g, &seats);
        out.push((winner, loser));
    }
    wait_for(
        &app,
        0,
        "the first player out and the losers' final",
        || of("tournament.eliminated").len() == 1 && rounds(10),
    );
    let first = &of("tournament.eliminated")[0];
    assert_eq!(first["match"], "L1.1");
    assert_eq!(first["round"], 2);
    assert!(
        out.iter()
            .any(|(w, l)| first["recipient"]["name"] == l.as_str()
                && first["beaten_by"] == w.as_str())
    );
    assert_eq!(first["last_stage"], true);
    // the losers' final: its loser is out; the grand final follows
    for (g, seats) in running_games(&org, &id) {
        lose(&players, &g, &seats);
    }
    wait_for(&app, 0, "the second player out and the grand final", || {
        of("tournament.eliminated").len() == 2 && rounds(12)
    });
    assert_eq!(of("tournament.eliminated")[1]["match"], "L2.1");
    // the grand final, replayed if the losers' champion wins it, ends the event
    while of("tournament.finished").is_empty() {
        let games = running_games(&org, &id);
        if let Some((g, seats)) = games.first() {
            lose(&players, g, seats);
        }
        let before = of("tournament.round_started").len();
        wait_for(&app, 0, "the grand final's end", || {
            of("tournament.finished").len() == 4 || of("tournament.round_started").len() > before
        });
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let started = of("tournament.round_started").len();
    assert!(started == 12 || started == 14, "{started}");
    assert_eq!(of("tournament.eliminated").len(), 2);
    assert_eq!(rx.accepted().len(), started + 2 + 4);
}

/// An invited player hears who invites them, to what, from when; an event that reaches
/// its start date with fewer than 2 players ends without a round, and its one player
/// hears it did not take place. Each type has its email switch.
fn the_invited_and_the_lonely_hear_of_it(kind: Db) {
    use crate::notifications::{endpoint, fast, wait_for, Receiver};
    let app = TestApp::with(kind, |c| {
        fast(c);
        c.webhook_allow_private = true;
        c.token_ttl_secs = 60 * 86_400;
    });
    let rx = Receiver::start();
    let org = app.user("org");
    let ann = app.user("ann");
    for c in [&org, &ann] {
        endpoint(c, &rx.url(), tournament_types());
    }
    let switches = ann.get("/v1/users/me/notifications").ok().clone();
    for t in ["tournament.invited", "tournament.eliminated"] {
        assert_eq!(switches["email"][t], true, "{t} has its switch");
    }
    let day = 86_400_000;
    let at = tilepost::clock::rfc3339(app.clock.now_ms() + day);
    let id = create(&org, 1, json!({"starts_at": at, "invitation_only": true}));
    org.post(
        &format!("/v1/tournaments/{id}/invitations"),
        json!({"username": "ann"}),
    )
    .ok();
    let of = |t: &str| data_of(&rx, t);
    wait_for(&app, 0, "the invitation", || {
        of("tournament.invited").len() == 1
    });
    let inv = &of("tournament.invited")[0];
    assert_eq!(inv["recipient"]["name"], "ann");
    assert_eq!(inv["invited_by"], "org");
    assert_eq!(inv["tournament_id"], id.as_str());
    assert_eq!(inv["starts_at"], at.as_str());
    assert_eq!(inv["invitation_only"], true);
    assert!(inv["join"]
        .as_str()
        .is_some_and(|u| u.ends_with(&format!("/v1/tournaments/{id}/join"))));
    assert!(inv["links"]["play"]
        .as_str()
        .is_some_and(|u| u.ends_with(&format!("/play/tournaments/{id}"))));
    ann.post(&format!("/v1/tournaments/{id}/join"), json!({}))
        .ok();
    // the date comes with ann alone
    app.clock.advance_ms(day + 1);
    assert_eq!(sweep_now(&app), 1);
    let v = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(v["status"], "ended");
    wait_for(&app, 0, "the news that it did not take place", || {
        of("tournament.finished").len() == 1
    });
    let end = &of("tournament.finished")[0];
    assert_eq!(end["recipient"]["name"], "ann");
    assert_eq!(
        (&end["held"], &end["winner"], &end["place"], &end["players"]),
        (&json!(false), &Value::Null, &Value::Null, &json!(1))
    );
    assert!(end["text"]
        .as_str()
        .is_some_and(|t| t.contains("did not take place")));
    // nothing to the organiser, nothing more
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(rx.accepted().len(), 2);
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
    let sweep = || sweep_now(app);
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
    // a field out of its range is refused even where the kind does not read it
    for extra in [
        json!({"points": 500}),
        json!({"round": 0}),
        json!({"stage": 9}),
        json!({"scores": [1]}),
    ] {
        let mut body = json!({"kind": "remove", "player": ann.user_id, "reason": "x"});
        for (k, v) in extra.as_object().into_iter().flatten() {
            body[k] = v.clone();
        }
        org.post(&format!("/v1/tournaments/{id}/adjustments"), body)
            .problem(400, "validation-failed");
    }
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
        a_knockout_tells_each_player_out_at_once,
        a_double_elimination_tells_the_second_loss,
        the_invited_and_the_lonely_hear_of_it,
        an_event_starts_on_its_date,
    );
}
