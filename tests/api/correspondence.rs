//! Correspondence play: clocks driven through the server's injectable clock (no real
//! days pass), the default reminder (chosen reminders and time banks are in
//! `clocks.rs`), timeouts by the sweep and by claim, vacations, invitations,
//! the my-turn list, chat, the export replayed by `tilepost replay`, and two servers on
//! one Postgres timing a player out exactly once.

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tilepost::clock::{rfc3339, Clock};
use tilepost::store::OutboxRow;

use crate::common::*;

pub(crate) const HOUR: i64 = 3_600_000;
pub(crate) const DAY: i64 = 24 * HOUR;

pub(crate) fn block<F: std::future::Future>(f: F) -> F::Output {
    actix_web::rt::System::new().block_on(f)
}

/// One pass of the deadline sweep of `app`'s server at its clock's time.
pub(crate) fn sweep(app: &TestApp) -> tilepost::sweep::Swept {
    let st = &app.server.state;
    block(tilepost::sweep::sweep(
        &st.store,
        &st.config,
        &st.notifier,
        &st.replays,
        app.clock.now_ms(),
    ))
    .expect("sweep")
}

pub(crate) fn outbox(app: &TestApp, user: &Client, kind: &str) -> Vec<OutboxRow> {
    block(app.server.state.store.outbox_for_user(user.user_id.clone()))
        .expect("outbox")
        .into_iter()
        .filter(|m| m.kind == kind)
        .collect()
}

pub(crate) fn events(c: &Client, id: &str) -> Vec<Value> {
    let r = c.get(&format!("/v1/games/{id}/events?limit=200"));
    r.ok()["events"].as_array().cloned().unwrap_or_default()
}

pub(crate) fn timeouts(c: &Client, id: &str) -> Vec<Value> {
    events(c, id)
        .into_iter()
        .filter(|e| e["decision"]["type"] == "player_resigned")
        .collect()
}

/// Creates a started game of these players with a clock of `days` per move (or none).
pub(crate) fn clocked_game(players: &[&Client], days: Option<i64>) -> String {
    let opts = match days {
        Some(d) => json!({"days_per_move": d}),
        None => Value::Null,
    };
    let id = start_game(players, opts);
    let v = players[0].get(&format!("/v1/games/{id}"));
    assert_eq!(v.ok()["status"], "active", "{}", v.text);
    id
}

pub(crate) fn pending_client<'a>(players: &[&'a Client], id: &str) -> &'a Client {
    let v = players[0].get(&format!("/v1/games/{id}"));
    client_for(players, &v.ok()["pending"])
}

/// A server whose tokens outlive the days the tests let pass. The notification worker is
/// off: these tests read the outbox rows as the moves wrote them (a row the worker has
/// not handled yet is "not sent", which abort relies on).
pub(crate) fn corr_app(kind: Db, tweak: impl FnOnce(&mut tilepost::config::Config)) -> TestApp {
    TestApp::with(kind, |c| {
        c.token_ttl_secs = 400 * 86_400;
        c.notify_worker = false;
        tweak(c)
    })
}

pub(crate) fn app_with_reminder(kind: Db, hours: i64) -> TestApp {
    corr_app(kind, |c| c.reminder_before_secs = hours * 3600)
}

/// The view shows the deadline; the reminder goes out once, when the configured time
/// (here 6 h) remains.
fn reminder_at_the_configured_time(kind: Db) {
    let app = app_with_reminder(kind, 6);
    let ann = app.user("ann");
    let ben = app.user("ben");
    let start = app.clock.now_ms();
    let id = clocked_game(&[&ann, &ben], Some(1));
    let v = ann.get(&format!("/v1/games/{id}"));
    assert_eq!(v.json["clock"]["days_per_move"], 1);
    assert_eq!(v.json["clock"]["deadline"], rfc3339(start + DAY));
    assert_eq!(v.json["clock"]["paused"], false);
    let late = pending_client(&[&ann, &ben], &id);
    app.clock.advance_ms(18 * HOUR - 1);
    assert_eq!(sweep(&app).reminders, 0);
    assert!(outbox(&app, late, "game.deadline_near").is_empty());
    app.clock.advance_ms(1);
    assert_eq!(sweep(&app).reminders, 1);
    assert_eq!(sweep(&app).reminders, 0, "one reminder per turn");
    let r = outbox(&app, late, "game.deadline_near");
    assert_eq!(r.len(), 1);
    let body: Value = serde_json::from_str(&r[0].payload).unwrap();
    assert_eq!(body["type"], "game.deadline_near");
    assert_eq!(body["data"]["game_id"], id.as_str());
    assert_eq!(body["data"]["deadline"], rfc3339(start + DAY));
    assert!(body["data"]["text"].as_str().unwrap().contains("due by"));
    // nothing timed out yet
    assert!(timeouts(&ann, &id).is_empty());
}

/// A missed deadline: the sweep records the engine's resignation with reason
/// `timed_out`, the late player's figures leave and they rank last, the others play on
/// to the end, and the late player gets `game.timed_out`.
fn timeout_forfeits_and_the_game_goes_on(kind: Db) {
    let app = corr_app(kind, |_| {});
    let ann = app.user("ann");
    let ben = app.user("ben");
    let cat = app.user("cat");
    let players = [&ann, &ben, &cat];
    let id = clocked_game(&players, Some(2));
    let late = pending_client(&players, &id);
    app.clock.advance_ms(2 * DAY - 1);
    assert_eq!(sweep(&app).timeouts, 0);
    app.clock.advance_ms(1);
    assert_eq!(sweep(&app).timeouts, 1);
    assert_eq!(sweep(&app).timeouts, 0);
    let t = timeouts(&ann, &id);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0]["decision"]["reason"], "timed_out");
    assert_eq!(t[0]["actor"]["user_id"], late.user_id.as_str());
    let v = ann.get(&format!("/v1/games/{id}"));
    let v = v.ok();
    assert_eq!(v["status"], "active");
    let me = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["user_id"] == late.user_id.as_str())
        .unwrap();
    assert_eq!(me["active"], false);
    assert_ne!(v["pending"]["user_id"], late.user_id.as_str());
    // the next player's deadline counts from the timeout
    assert_eq!(
        v["clock"]["deadline"],
        rfc3339(app.clock.now_ms() + 2 * DAY)
    );
    assert_eq!(outbox(&app, late, "game.timed_out").len(), 1);
    // the late player can no longer move; the others finish the game
    late.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": v["version"], "actions": [{"type": "pass"}]}),
    )
    .problem(403, "not-your-turn");
    let others: Vec<&Client> = players
        .iter()
        .copied()
        .filter(|c| c.user_id != late.user_id)
        .collect();
    play_random(&others, &id, 11);
    let v = ann.get(&format!("/v1/games/{id}"));
    assert_eq!(v.json["status"], "finished");
    let ranking = v.json["ranking"].as_array().unwrap();
    assert_eq!(ranking.last().unwrap()["username"], late.name.as_str());
    assert!(ranking.last().unwrap()["rank"].as_u64() > ranking[0]["rank"].as_u64());
}

/// Any other player may claim a timeout once the deadline has passed (the sweep may
/// lag): not before, not their own, not a stranger, not in a game without a clock.
fn claim_after_the_deadline(kind: Db) {
    let app = corr_app(kind, |_| {});
    let ann = app.user("ann");
    let ben = app.user("ben");
    let eve = app.user("eve");
    let id = clocked_game(&[&ann, &ben], Some(1));
    let late = pending_client(&[&ann, &ben], &id);
    let other = if late.user_id == ann.user_id {
        &ben
    } else {
        &ann
    };
    let path = format!("/v1/games/{id}/claim-timeout");
    other
        .post(&path, json!({}))
        .problem(409, "deadline-not-reached");
    app.clock.advance_ms(DAY);
    late.post(&path, json!({})).problem(403, "own-timeout");
    eve.post(&path, json!({})).problem(403, "not-a-player");
    app.anon()
        .post(&path, json!({}))
        .problem(401, "unauthorized");
    let r = other.post(&path, json!({}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["events"][0]["decision"]["type"], "player_resigned");
    assert_eq!(r.json["events"][0]["decision"]["reason"], "timed_out");
    // two players: the one left wins
    assert_eq!(r.json["status"], "finished");
    let v = ann.get(&format!("/v1/games/{id}"));
    assert_eq!(v.json["ranking"][0]["username"], other.name.as_str());
    assert_eq!(timeouts(&ann, &id).len(), 1);
    other
        .post(&path, json!({}))
        .problem(409, "game-not-started");
    assert_eq!(sweep(&app).timeouts, 0);
    assert_eq!(outbox(&app, late, "game.timed_out").len(), 1);
    // no clock
    let free = clocked_game(&[&ann, &ben], None);
    assert!(ann.get(&format!("/v1/games/{free}")).json["clock"].is_null());
    app.clock.advance_ms(30 * DAY);
    let late = pending_client(&[&ann, &ben], &free);
    let other = if late.user_id == ann.user_id {
        &ben
    } else {
        &ann
    };
    other
        .post(&format!("/v1/games/{free}/claim-timeout"), json!({}))
        .problem(409, "no-clock");
    other
        .post("/v1/games/nope/claim-timeout", json!({}))
        .problem(404, "game-not-found");
    // a clock of 0 or 15 days is refused
    for d in [0, 15] {
        ann.post(
            "/v1/games",
            json!({"seats": 2, "options": {"days_per_move": d}}),
        )
        .problem(400, "validation-failed");
    }
}

/// A vacation stops the player's clocks and moves their deadlines out by its length;
/// the others see it in the game view; it ends by hand or with the next move.
fn vacation_pauses_and_resumes_deadlines(kind: Db) {
    let app = corr_app(kind, |_| {});
    let ann = app.user("ann");
    let ben = app.user("ben");
    let start = app.clock.now_ms();
    let id = clocked_game(&[&ann, &ben], Some(1));
    let late = pending_client(&[&ann, &ben], &id);
    let other = if late.user_id == ann.user_id {
        &ben
    } else {
        &ann
    };
    let me = late.get("/v1/users/me");
    assert_eq!(me.ok()["vacation"]["days_left"], 14);
    assert!(me.json["vacation"]["until"].is_null());
    late.request("DELETE", "/v1/users/me/vacation", None, &[])
        .problem(409, "not-on-vacation");
    app.clock.advance_ms(12 * HOUR);
    let until = rfc3339(app.clock.now_ms() + 15 * DAY);
    late.post("/v1/users/me/vacation", json!({"until": until}))
        .problem(409, "not-enough-vacation");
    late.post("/v1/users/me/vacation", json!({"until": "tomorrow"}))
        .problem(400, "validation-failed");
    assert_eq!(me.json["vacation"]["days_reserved"], 0);
    let v = late.post("/v1/users/me/vacation", json!({}));
    assert_eq!(v.status, 200, "{}", v.text);
    assert!(v.json["until"].is_string());
    assert_eq!(v.json["until_move"], true);
    // until the next move: the whole bank is held, and says so
    assert_eq!(v.json["days_left"], 0);
    assert_eq!(v.json["days_reserved"], 14);
    late.post("/v1/users/me/vacation", json!({}))
        .problem(409, "already-on-vacation");
    let view = other.get(&format!("/v1/games/{id}"));
    assert_eq!(view.json["on_vacation"][0]["username"], late.name.as_str());
    assert_eq!(view.json["clock"]["paused"], true);
    // three days pass: the clock stood still
    app.clock.advance_ms(3 * DAY);
    assert_eq!(sweep(&app).timeouts, 0);
    other
        .post(&format!("/v1/games/{id}/claim-timeout"), json!({}))
        .problem(409, "deadline-not-reached");
    let r = late.request("DELETE", "/v1/users/me/vacation", None, &[]);
    assert_eq!(r.status, 200, "{}", r.text);
    // 3 days used of the bank
    assert_eq!(r.json["days_left"], 11);
    assert_eq!(r.json["days_reserved"], 0);
    let view = other.get(&format!("/v1/games/{id}"));
    assert_eq!(view.json["clock"]["paused"], false);
    assert!(view.json["on_vacation"].as_array().unwrap().is_empty());
    assert_eq!(view.json["clock"]["deadline"], rfc3339(start + 4 * DAY));
    // the clock runs again: 12 h were left
    app.clock.advance_ms(12 * HOUR - 1);
    assert_eq!(sweep(&app).timeouts, 0);
    app.clock.advance_ms(1);
    assert_eq!(sweep(&app).timeouts, 1);
    assert_eq!(timeouts(&ann, &id).len(), 1);

    // a vacation until the next move ends with that move
    let id = clocked_game(&[&ann, &ben], Some(3));
    let mover = pending_client(&[&ann, &ben], &id);
    mover.post("/v1/users/me/vacation", json!({})).ok();
    assert!(mover.get("/v1/users/me").json["vacation"]["until"].is_string());
    let a = mover.get(&format!("/v1/games/{id}/actions"));
    let pick = a.json["actions"][0].clone();
    // a move refused as stale writes nothing: the vacation goes on
    let stale = a.json["version"].as_i64().unwrap() - 1;
    mover
        .post(
            &format!("/v1/games/{id}/moves"),
            json!({"expected_version": stale, "actions": [pick]}),
        )
        .problem(409, "stale-version");
    assert!(mover.get("/v1/users/me").json["vacation"]["until"].is_string());
    mover
        .post(
            &format!("/v1/games/{id}/moves"),
            json!({"expected_version": a.json["version"], "actions": [pick]}),
        )
        .ok();
    assert!(mover.get("/v1/users/me").json["vacation"]["until"].is_null());
}

/// Invitations reserve seats and send `game.invited`; accepted and declined; open seats
/// for anyone else; leaving before the start, aborting, starting early; seat order and
/// colours in the view.
fn invitations_accepted_and_declined(kind: Db) {
    let app = corr_app(kind, |_| {});
    let ann = app.user("ann");
    let ben = app.user("ben");
    let cat = app.user("cat");
    let dan = app.user("dan");
    ann.post("/v1/games", json!({"seats": 3, "invite": ["nobody"]}))
        .problem(400, "validation-failed");
    ann.post("/v1/games", json!({"seats": 3, "invite": ["ann"]}))
        .problem(400, "validation-failed");
    ann.post("/v1/games", json!({"seats": 2, "invite": ["ben", "cat"]}))
        .problem(400, "validation-failed");
    let g = ann.post("/v1/games", json!({"seats": 3, "invite": ["ben", "cat"]}));
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().unwrap().to_string();
    assert_eq!(g.json["invitations"].as_array().unwrap().len(), 2);
    assert_eq!(g.json["invitations"][0]["status"], "pending");
    for c in [&ben, &cat] {
        let rows = outbox(&app, c, "game.invited");
        assert_eq!(rows.len(), 1);
        let body: Value = serde_json::from_str(&rows[0].payload).unwrap();
        assert_eq!(body["data"]["inviter"], "ann");
        assert_eq!(body["data"]["game_id"], id.as_str());
    }
    assert_eq!(cat.get("/v1/users/me").json["waiting"]["invitations"], 1);
    // both free seats are reserved
    dan.post(&format!("/v1/games/{id}/join"), json!({}))
        .problem(409, "no-open-seat");
    dan.post(&format!("/v1/games/{id}/invitation/accept"), json!({}))
        .problem(409, "not-invited");
    let a = ben.post(&format!("/v1/games/{id}/invitation/accept"), json!({}));
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json["players"][1]["username"], "ben");
    ben.post(&format!("/v1/games/{id}/invitation/accept"), json!({}))
        .problem(409, "already-seated");
    let d = cat.post(&format!("/v1/games/{id}/invitation/decline"), json!({}));
    assert_eq!(d.status, 200, "{}", d.text);
    let inv: Vec<(String, String)> = d.json["invitations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["username"].as_str().unwrap().to_string(),
                i["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(inv.contains(&("ben".into(), "accepted".into())));
    assert!(inv.contains(&("cat".into(), "declined".into())));
    assert_eq!(cat.get("/v1/users/me").json["waiting"]["invitations"], 0);
    cat.post(&format!("/v1/games/{id}/invitation/decline"), json!({}))
        .problem(409, "not-invited");
    // the declined seat is open: dan takes it and the game starts
    let j = dan.post(&format!("/v1/games/{id}/join"), json!({}));
    assert_eq!(j.json["status"], "active", "{}", j.text);
    let seats: Vec<(u64, String, String)> = j.json["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["seat"].as_u64().unwrap(),
                p["username"].as_str().unwrap().to_string(),
                p["colour"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        seats,
        vec![
            (0, "ann".into(), "orange".into()),
            (1, "ben".into(), "sky_blue".into()),
            (2, "dan".into(), "bluish_green".into())
        ]
    );

    // leave before the start; the creator aborts instead
    let g = ann.post("/v1/games", json!({"seats": 4, "invite": ["dan"]}));
    let id = g.json["id"].as_str().unwrap().to_string();
    ben.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    cat.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    let l = ben.post(&format!("/v1/games/{id}/leave"), json!({}));
    assert_eq!(l.status, 200, "{}", l.text);
    let names: Vec<&str> = l.json["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["username"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["ann", "cat"]);
    assert_eq!(l.json["players"][1]["seat"], 1);
    ben.post(&format!("/v1/games/{id}/leave"), json!({}))
        .problem(403, "not-a-player");
    ann.post(&format!("/v1/games/{id}/leave"), json!({}))
        .problem(403, "not-creator");
    // start early with 2 players (the pending invitation lapses)
    cat.post(&format!("/v1/games/{id}/abort"), json!({}))
        .problem(403, "not-creator");
    let s = ann.post(&format!("/v1/games/{id}/start"), json!({}));
    assert_eq!(s.json["status"], "active", "{}", s.text);
    assert_eq!(s.json["players"].as_array().unwrap().len(), 2);
    assert_eq!(s.json["invitations"][0]["username"], "dan");
    assert_eq!(s.json["invitations"][0]["status"], "lapsed");
    assert_eq!(outbox(&app, &dan, "game.invited").len(), 1);
    cat.post(&format!("/v1/games/{id}/leave"), json!({}))
        .problem(409, "game-already-started");
    dan.post(&format!("/v1/games/{id}/invitation/accept"), json!({}))
        .problem(409, "game-already-started");
    // abort before the first move: the game is gone
    let r = ann.post(&format!("/v1/games/{id}/abort"), json!({}));
    assert_eq!(r.status, 204, "{}", r.text);
    ann.get(&format!("/v1/games/{id}"))
        .problem(404, "game-not-found");
    // its invitation was not sent yet: it is void
    assert!(outbox(&app, &dan, "game.invited").is_empty());
    // not after a move
    let id = clocked_game(&[&ann, &ben], None);
    let who = pending_client(&[&ann, &ben], &id);
    let a = who.get(&format!("/v1/games/{id}/actions"));
    who.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": a.json["version"], "actions": [a.json["actions"][0]]}),
    )
    .ok();
    ann.post(&format!("/v1/games/{id}/abort"), json!({}))
        .problem(409, "game-has-moves");
}

/// `my_turn=true` lists the caller's games the most urgent first (nearest deadline, then
/// games without a clock); `/v1/users/me` counts them.
fn my_turn_list_by_deadline(kind: Db) {
    let app = corr_app(kind, |_| {});
    let ann = app.user("ann");
    let ben = app.user("ben");
    // ann creates and so moves first in each game
    let slow = clocked_game(&[&ann, &ben], Some(3));
    app.clock.advance_ms(HOUR);
    let fast = clocked_game(&[&ann, &ben], Some(1));
    app.clock.advance_ms(HOUR);
    let none = clocked_game(&[&ann, &ben], None);
    app.clock.advance_ms(HOUR);
    let mid = clocked_game(&[&ann, &ben], Some(2));
    for id in [&slow, &fast, &none, &mid] {
        assert_eq!(
            ann.get(&format!("/v1/games/{id}")).json["pending"]["username"],
            "ann"
        );
    }
    let l = ann.get("/v1/games?player=me&my_turn=true");
    let ids: Vec<&str> = l.ok()["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        vec![fast.as_str(), mid.as_str(), slow.as_str(), none.as_str()]
    );
    assert!(l.json["games"][0]["deadline"].is_string());
    assert!(l.json["games"][3]["deadline"].is_null());
    assert_eq!(ann.get("/v1/users/me").json["waiting"]["my_turn"], 4);
    assert_eq!(ben.get("/v1/users/me").json["waiting"]["my_turn"], 0);
    let l = ben.get("/v1/games?player=me&my_turn=true");
    assert!(l.json["games"].as_array().unwrap().is_empty());
}

/// Seated players write; anyone reads; plain text with a length limit; each message
/// knows its place in the events feed; the chat is paged, and the history and the export
/// refer to it.
fn chat_for_readers_not_for_strangers(kind: Db) {
    let app = corr_app(kind, |_| {});
    let ann = app.user("ann");
    let ben = app.user("ben");
    let eve = app.user("eve");
    let id = clocked_game(&[&ann, &ben], None);
    let path = format!("/v1/games/{id}/chat");
    let m = ann.post(&path, json!({"text": "  good luck <b>ben</b> & co  "}));
    assert_eq!(m.status, 201, "{}", m.text);
    assert_eq!(m.json["text"], "good luck <b>ben</b> & co");
    assert_eq!(m.json["after_seq"], 1);
    let who = pending_client(&[&ann, &ben], &id);
    let a = who.get(&format!("/v1/games/{id}/actions"));
    who.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": a.json["version"], "actions": [a.json["actions"][0]]}),
    )
    .ok();
    ben.post(&path, json!({"text": "thanks\nyou too"})).ok();
    eve.post(&path, json!({"text": "hi"}))
        .problem(403, "not-a-player");
    app.anon()
        .post(&path, json!({"text": "hi"}))
        .problem(401, "unauthorized");
    ann.post(&path, json!({"text": "   "}))
        .problem(400, "validation-failed");
    ann.post(&path, json!({"text": "x".repeat(1001)}))
        .problem(400, "validation-failed");
    ann.post(&path, json!({"text": "bell\u{7}"}))
        .problem(400, "validation-failed");
    ann.post(&path, json!({"text": "hi", "html": "<b>"}))
        .problem(400, "validation-failed");
    // anyone who may read the game reads the chat, in order
    for reader in [app.anon(), eve.clone()] {
        let c = reader.get(&path);
        let msgs = c.ok()["messages"].as_array().unwrap().clone();
        assert_eq!(msgs.len(), 2);
        assert_eq!(msgs[0]["username"], "ann");
        assert_eq!(msgs[0]["seat"], 0);
        assert_eq!(msgs[1]["text"], "thanks\nyou too");
        assert_eq!(msgs[1]["after_seq"], 2);
    }
    app.anon()
        .get("/v1/games/nope/chat")
        .problem(404, "game-not-found");
    // the history and the export carry the chat by reference
    let e = app.anon().get(&format!("/v1/games/{id}/export"));
    assert_eq!(e.ok()["chat"]["count"], 2);
    assert_eq!(e.json["chat"]["href"], path.as_str());
    let page = app.anon().get(&format!("/v1/games/{id}/events?limit=1"));
    assert_eq!(page.ok()["chat"]["count"], 2);
    assert_eq!(page.json["chat"]["href"], path.as_str());
    // the chat is paged, from either end; a cursor keeps its order
    let first = app.anon().get(&format!("{path}?limit=1"));
    assert_eq!(first.ok()["messages"][0]["username"], "ann");
    let cursor = first.json["next_cursor"]
        .as_str()
        .expect("more")
        .to_string();
    let second = app.anon().get(&format!("{path}?limit=1&cursor={cursor}"));
    assert_eq!(second.ok()["messages"][0]["text"], "thanks\nyou too");
    assert!(second.json["next_cursor"].is_null());
    let newest = app.anon().get(&format!("{path}?order=newest&limit=1"));
    assert_eq!(newest.ok()["messages"][0]["username"], "ben");
    let cursor = newest.json["next_cursor"]
        .as_str()
        .expect("more")
        .to_string();
    let older = app.anon().get(&format!("{path}?limit=5&cursor={cursor}"));
    assert_eq!(older.ok()["messages"].as_array().unwrap().len(), 1);
    assert_eq!(older.json["messages"][0]["username"], "ann");
    app.anon()
        .get(&format!("{path}?order=oldest&cursor={cursor}"))
        .problem(400, "validation-failed");
    app.anon()
        .get(&format!("{path}?cursor=bm90LWEtY3Vyc29y"))
        .problem(400, "validation-failed");
    app.anon()
        .get(&format!("{path}?limit=201"))
        .problem(400, "validation-failed");
}

fn run_replay(json: &str) -> (bool, Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    std::fs::write(&file, json).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tilepost"))
        .arg("replay")
        .arg(&file)
        .output()
        .expect("run tilepost replay");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    (
        out.status.success(),
        serde_json::from_str(&stdout).unwrap_or(Value::Null),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// The export of a running game hides the seed and cannot be replayed; once the game is
/// over it is complete and `tilepost replay` reproduces the final scores.
fn export_replays_to_the_same_final_scores(kind: Db) {
    let app = corr_app(kind, |_| {});
    let ann = app.user("ann");
    let ben = app.user("ben");
    let cat = app.user("cat");
    let players = [&ann, &ben, &cat];
    let id = clocked_game(&players, Some(5));
    let running = app.anon().get(&format!("/v1/games/{id}/export"));
    assert_eq!(running.ok()["complete"], false);
    assert_eq!(running.json["events"][0]["type"], "game_created");
    assert!(running.json["events"][0]["payload"].get("seed").is_none());
    assert!(!running.text.contains("seed"));
    let (ok, _, err) = run_replay(&running.text);
    assert!(!ok, "a running game's export does not replay");
    assert!(err.contains("cannot replay"), "{err}");
    assert!(err.contains("the game is not over"), "{err}");
    assert!(!err.contains("malformed"), "{err}");
    // the bare log of a running game says the same
    let (ok, _, err) = run_replay(&running.json["events"].to_string());
    assert!(!ok);
    assert!(err.contains("the game is not over"), "{err}");
    // one player resigns on the way: the replay knows that too
    let r = cat.post(&format!("/v1/games/{id}/resign"), json!({}));
    assert_eq!(r.status, 200, "{}", r.text);
    play_random(&[&ann, &ben], &id, 21);
    let view = ann.get(&format!("/v1/games/{id}"));
    assert_eq!(view.json["status"], "finished");
    let e = app.anon().get(&format!("/v1/games/{id}/export"));
    assert_eq!(e.ok()["complete"], true);
    assert_eq!(e.json["status"], "finished");
    assert!(e.json["events"][0]["payload"]["seed"].is_string());
    assert_eq!(
        e.json["events"].as_array().unwrap().len() as i64,
        view.json["version"].as_i64().unwrap()
    );
    assert_eq!(e.json["players"][2]["username"], "cat");
    let (ok, replayed, err) = run_replay(&e.text);
    assert!(ok, "replay failed: {err}");
    assert_eq!(replayed["over"], true);
    let scores = |v: &Value| -> Vec<(u64, i64, u64)> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["seat"].as_u64().unwrap(),
                    r["score"].as_i64().unwrap(),
                    r["rank"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(scores(&replayed["ranking"]), scores(&view.json["ranking"]));
    assert_eq!(
        replayed["board"].as_array().unwrap().len(),
        view.json["board"].as_array().unwrap().len()
    );
    // the bare array of stored events replays too
    let (ok, again, _) = run_replay(&e.json["events"].to_string());
    assert!(ok);
    assert_eq!(again["ranking"], replayed["ranking"]);
}

/// Every turn email of a game with a clock says when the decision is due: the date in the
/// reader's own locale and time zone (`en` in UTC, `pt-BR` in São Paulo), from the first
/// turn on; the payload carries the same moment in RFC 3339.
fn turn_emails_carry_the_deadline(kind: Db) {
    let app = corr_app(kind, |_| {});
    let ann = app.user("ann");
    let ben = app.user("ben");
    let settings = json!({"locale": "pt-BR", "time_zone": "America/Sao_Paulo"}).to_string();
    let r = ben.request("PATCH", "/v1/users/me", Some(&settings), &[]);
    assert_eq!(r.status, 200, "{}", r.text);
    let start = app.clock.now_ms();
    let id = clocked_game(&[&ann, &ben], Some(2));
    let expect = |c: &Client, due: i64| {
        let (locale, tz) = if c.user_id == ben.user_id {
            ("pt-BR", "America/Sao_Paulo")
        } else {
            ("en", "UTC")
        };
        let rows = outbox(&app, c, "game.turn_started");
        let last = rows.last().expect("a turn email");
        let body: Value = serde_json::from_str(&last.payload).unwrap();
        assert_eq!(body["data"]["deadline"], rfc3339(due));
        let date = tilepost::i18n::datetime(due, locale, tz);
        let line = tilepost::i18n::text(
            locale,
            "turn-deadline",
            &[("deadline", date.as_str().into())],
        );
        let text = body["data"]["text"].as_str().unwrap_or_default();
        assert!(text.contains(&line), "{locale}: {line:?} not in {text}");
        assert!(body["data"]["html"]
            .as_str()
            .unwrap_or_default()
            .contains(&date));
        line
    };
    let first = pending_client(&[&ann, &ben], &id);
    let line = expect(first, start + 2 * DAY);
    // a day later the first player moves: the other one's turn is due two days after that
    app.clock.advance_ms(DAY);
    let v = first.get(&format!("/v1/games/{id}"));
    let version = v.ok()["version"].clone();
    loop {
        let a = first.get(&format!("/v1/games/{id}/actions"));
        let a = a.ok();
        if a["pending"]["username"] != v.json["pending"]["username"] {
            break;
        }
        first
            .post(
                &format!("/v1/games/{id}/moves"),
                json!({"expected_version": a["version"], "actions": [a["actions"][0].clone()]}),
            )
            .ok();
    }
    assert_ne!(
        first.get(&format!("/v1/games/{id}")).ok()["version"],
        version
    );
    let second = pending_client(&[&ann, &ben], &id);
    assert_ne!(second.user_id, first.user_id);
    let other = expect(second, start + 3 * DAY);
    // one of the two reads Portuguese, the other English
    let both = format!("{line} | {other}");
    assert!(
        both.contains("Jogue antes de") && both.contains("Please play before"),
        "{both}"
    );
    assert!(
        both.contains("(America/Sao_Paulo)") && both.contains("(UTC)"),
        "{both}"
    );
}

each_db!(
    reminder_at_the_configured_time,
    timeout_forfeits_and_the_game_goes_on,
    claim_after_the_deadline,
    vacation_pauses_and_resumes_deadlines,
    invitations_accepted_and_declined,
    my_turn_list_by_deadline,
    chat_for_readers_not_for_strangers,
    export_replays_to_the_same_final_scores,
    turn_emails_carry_the_deadline,
);

/// Two server processes' worth of servers on one Postgres, both running the deadline
/// sweep every 20 ms on one clock: the reminder goes out once, and the missed deadline
/// produces exactly one timeout event and one `game.timed_out` row.
#[test]
fn two_servers_time_a_player_out_once() {
    let app = corr_app(Db::Postgres, |c| c.deadline_sweep_ms = 20);
    let other = tilepost::startup::spawn(
        {
            let mut c = test_config(&app.db.url);
            c.deadline_sweep_ms = 20;
            c.token_ttl_secs = 400 * 86_400;
            c
        },
        app.clock.clone(),
    )
    .expect("second server");
    let ann = app.user("ann");
    let ben = app.user("ben");
    let id = clocked_game(&[&ann, &ben], Some(2));
    let late = pending_client(&[&ann, &ben], &id);
    let wait_for = |what: &str, done: &dyn Fn() -> bool| {
        let t = Instant::now();
        while !done() {
            assert!(t.elapsed() < Duration::from_secs(20), "{what} never came");
            std::thread::sleep(Duration::from_millis(20));
        }
        // let both sweepers run a few more times
        std::thread::sleep(Duration::from_millis(300));
    };
    app.clock.advance_ms(DAY);
    wait_for("the reminder", &|| {
        !outbox(&app, late, "game.deadline_near").is_empty()
    });
    assert_eq!(outbox(&app, late, "game.deadline_near").len(), 1);
    app.clock.advance_ms(DAY);
    wait_for("the timeout", &|| !timeouts(&ann, &id).is_empty());
    assert_eq!(timeouts(&ann, &id).len(), 1);
    assert_eq!(outbox(&app, late, "game.timed_out").len(), 1);
    let v = Client::new(&other.url(), None).get(&format!("/v1/games/{id}"));
    assert_eq!(v.json["status"], "finished");
    assert_eq!(v.json["ranking"][1]["username"], late.name.as_str());
}
