//! The clocks players choose, under the server's injectable clock: reminders at the
//! hours each player picks, and time banks (running out exactly when they say,
//! standing still on vacation).

use serde_json::{json, Value};
use tilepost::clock::{rfc3339, Clock};

use crate::common::*;
use crate::correspondence::*;

/// Reminders the player chooses (48 h and 2 h before) on a 3-day clock: each goes out
/// once, at its time, by the sweep under the injected clock; the settings say so; a
/// change replans the turn without sending again what was sent; a reminder that would
/// fall before the turn started is skipped.
fn chosen_reminders_each_go_out_once(kind: Db) {
    let app = app_with_reminder(kind, 24);
    let ann = app.user("ann");
    let ben = app.user("ben");
    for who in [&ann, &ben] {
        let s = who.get("/v1/users/me/notifications");
        assert_eq!(s.ok()["reminder_hours"], json!([24]));
        assert_eq!(s.json["reminder_default"], true);
        let r = who.request(
            "PATCH",
            "/v1/users/me/notifications",
            Some(&json!({"reminder_hours": [2, 48]}).to_string()),
            &[],
        );
        assert_eq!(r.ok()["reminder_hours"], json!([48, 2]), "{}", r.text);
        assert_eq!(r.json["reminder_default"], false);
    }
    for bad in [
        json!([0]),
        json!([337]),
        json!([2, 2]),
        json!([1, 2, 3, 4, 5, 6]),
    ] {
        ann.request(
            "PATCH",
            "/v1/users/me/notifications",
            Some(&json!({ "reminder_hours": bad }).to_string()),
            &[],
        )
        .problem(400, "validation-failed");
    }
    let start = app.clock.now_ms();
    let id = clocked_game(&[&ann, &ben], Some(3));
    let late = pending_client(&[&ann, &ben], &id);
    let sent = |app: &TestApp| outbox(app, late, "game.deadline_near").len();
    assert_eq!(sweep(&app).reminders, 0);
    app.clock.advance_ms(24 * HOUR - 1);
    assert_eq!(sweep(&app).reminders, 0);
    assert_eq!(sent(&app), 0);
    app.clock.advance_ms(1);
    assert_eq!(sweep(&app).reminders, 1, "48 h before");
    assert_eq!(sweep(&app).reminders, 0, "once");
    assert_eq!(sent(&app), 1);
    // a change of mind replans the turn: 48 h was sent, 2 h is still to come
    let r = late.request(
        "PATCH",
        "/v1/users/me/notifications",
        Some(&json!({"reminder_hours": [48, 2]}).to_string()),
        &[],
    );
    r.ok();
    assert_eq!(sweep(&app).reminders, 0, "not sent again");
    app.clock.advance_ms(46 * HOUR - 1);
    assert_eq!(sweep(&app).reminders, 0);
    app.clock.advance_ms(1);
    assert_eq!(sweep(&app).reminders, 1, "2 h before");
    assert_eq!(sweep(&app).reminders, 0, "once");
    let rows = outbox(&app, late, "game.deadline_near");
    assert_eq!(rows.len(), 2);
    for r in &rows {
        let body: Value = serde_json::from_str(&r.payload).unwrap();
        assert_eq!(body["data"]["deadline"], rfc3339(start + 3 * DAY));
    }
    // the next turn (3 days again) gets its own reminders: play the late player's
    // turn out
    app.clock.advance_ms(HOUR);
    while pending_client(&[&ann, &ben], &id).user_id == late.user_id {
        let a = late.get(&format!("/v1/games/{id}/actions"));
        let a = a.ok().clone();
        late.post(
            &format!("/v1/games/{id}/moves"),
            json!({"expected_version": a["version"], "actions": [a["actions"][0].clone()]}),
        )
        .ok();
    }
    let next = pending_client(&[&ann, &ben], &id);
    assert_ne!(next.user_id, late.user_id);
    assert_eq!(sweep(&app).reminders, 0);
    app.clock.advance_ms(24 * HOUR);
    assert_eq!(sweep(&app).reminders, 1, "the next turn's 48 h");
    assert_eq!(outbox(&app, next, "game.deadline_near").len(), 1);
    // no reminders at all
    next.request(
        "PATCH",
        "/v1/users/me/notifications",
        Some(&json!({"reminder_hours": []}).to_string()),
        &[],
    )
    .ok();
    app.clock.advance_ms(47 * HOUR - 1);
    assert_eq!(sweep(&app).reminders, 0, "none chosen");
    assert_eq!(outbox(&app, next, "game.deadline_near").len(), 1);
}

/// Plays out the pending player's turn (their first option each time); returns them.
fn play_turn<'a>(players: &[&'a Client], id: &str) -> &'a Client {
    let who = pending_client(players, id);
    while pending_client(players, id).user_id == who.user_id {
        let a = who.get(&format!("/v1/games/{id}/actions"));
        let a = a.ok().clone();
        who.post(
            &format!("/v1/games/{id}/moves"),
            json!({"expected_version": a["version"], "actions": [a["actions"][0].clone()]}),
        )
        .ok();
    }
    who
}

/// The minutes left of `player`'s bank in the game view.
fn bank_left(v: &Value, player: u64) -> i64 {
    v["clock"]["banks"]
        .as_array()
        .and_then(|b| b.iter().find(|x| x["player"].as_u64() == Some(player)))
        .and_then(|x| x["minutes_left"].as_i64())
        .unwrap_or(-1)
}

/// A time bank of 48 hours, 24 added per turn, at most 60: each turn is due when the
/// bank it started with runs out; what a turn used (less vacation time) is taken, the
/// increment added, the maximum kept; the view shows every bank; the sweep times the
/// player out exactly when their bank says.
fn time_bank_runs_out_exactly_when_it_says(kind: Db) {
    let app = corr_app(kind, |_| {});
    let ann = app.user("ann");
    let ben = app.user("ben");
    for (bank, field) in [
        (
            json!({"initial_hours": 0, "hours_per_move": 1}),
            "options.time_bank.initial_hours",
        ),
        (
            json!({"initial_hours": 10, "hours_per_move": 721}),
            "options.time_bank.hours_per_move",
        ),
        (
            json!({"initial_hours": 10, "hours_per_move": 1, "max_hours": 9}),
            "options.time_bank.max_hours",
        ),
    ] {
        let r = ann.post(
            "/v1/games",
            json!({"seats": 2, "options": {"time_bank": bank}}),
        );
        r.problem(400, "validation-failed");
        assert!(r.text.contains(field), "{}", r.text);
    }
    ann.post(
        "/v1/games",
        json!({"seats": 2, "options": {"days_per_move": 2, "time_bank": {"initial_hours": 10, "hours_per_move": 1}}}),
    )
    .problem(400, "validation-failed");
    let bank = json!({"initial_hours": 48, "hours_per_move": 24, "max_hours": 60});
    let start = app.clock.now_ms();
    let id = start_game(&[&ann, &ben], json!({ "time_bank": bank }));
    let players = [&ann, &ben];
    let v = ann.get(&format!("/v1/games/{id}"));
    let v = v.ok().clone();
    assert_eq!(v["clock"]["time_bank"], bank);
    assert_eq!(v["clock"]["days_per_move"], 0);
    assert_eq!(v["clock"]["deadline"], rfc3339(start + 48 * HOUR));
    let first = pending_client(&players, &id);
    let second = if first.user_id == ann.user_id {
        &ben
    } else {
        &ann
    };
    let seat_of = |c: &Client| -> u64 {
        v["players"]
            .as_array()
            .and_then(|ps| ps.iter().find(|p| p["user_id"] == c.user_id.as_str()))
            .and_then(|p| p["seat"].as_u64())
            .unwrap_or(9)
    };
    assert_eq!(bank_left(&v, seat_of(first)), 48 * 60);
    assert_eq!(bank_left(&v, seat_of(second)), 48 * 60);
    // the first player uses 10 hours: 38 left, 24 added, 60 at most → 60
    app.clock.advance_ms(10 * HOUR);
    play_turn(&players, &id);
    let t1 = app.clock.now_ms();
    let v = ann.get(&format!("/v1/games/{id}"));
    let v = v.ok().clone();
    assert_eq!(bank_left(&v, seat_of(first)), 60 * 60);
    assert_eq!(
        v["clock"]["deadline"],
        rfc3339(t1 + 48 * HOUR),
        "the second's own bank"
    );
    // the second uses 47 hours: 1 left + 24 = 25
    app.clock.advance_ms(47 * HOUR);
    play_turn(&players, &id);
    let t2 = app.clock.now_ms();
    let v = ann.get(&format!("/v1/games/{id}"));
    let v = v.ok().clone();
    assert_eq!(bank_left(&v, seat_of(second)), 25 * 60);
    assert_eq!(v["clock"]["deadline"], rfc3339(t2 + 60 * HOUR));
    assert_eq!(bank_left(&v, seat_of(first)), 60 * 60);
    // the first uses 50 hours of 60: 10 + 24 = 34
    app.clock.advance_ms(50 * HOUR);
    play_turn(&players, &id);
    let t3 = app.clock.now_ms();
    // the second has 25 hours: the sweep times them out at exactly t3 + 25 h
    app.clock.advance_ms(25 * HOUR - 1);
    assert_eq!(sweep(&app).timeouts, 0);
    let v = ann.get(&format!("/v1/games/{id}"));
    assert_eq!(v.ok()["clock"]["deadline"], rfc3339(t3 + 25 * HOUR));
    assert_eq!(
        bank_left(&v.json, seat_of(second)),
        0,
        "less than a minute left"
    );
    assert_eq!(bank_left(&v.json, seat_of(first)), 34 * 60);
    app.clock.advance_ms(1);
    assert_eq!(sweep(&app).timeouts, 1);
    let t = timeouts(&ann, &id);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0]["actor"]["user_id"], second.user_id.as_str());
}

/// A vacation stops a time bank too: the turn's deadline moves out by the time on
/// vacation, and that time is not taken from the bank.
fn time_bank_stands_still_on_vacation(kind: Db) {
    let app = corr_app(kind, |_| {});
    let ann = app.user("ann");
    let ben = app.user("ben");
    let players = [&ann, &ben];
    let start = app.clock.now_ms();
    let id = start_game(
        &players,
        json!({"time_bank": {"initial_hours": 48, "hours_per_move": 0}}),
    );
    let first = pending_client(&players, &id);
    app.clock.advance_ms(HOUR);
    let until = rfc3339(app.clock.now_ms() + DAY);
    first
        .post("/v1/users/me/vacation", json!({ "until": until }))
        .ok();
    app.clock.advance_ms(DAY + HOUR);
    let v = ann.get(&format!("/v1/games/{id}"));
    assert_eq!(
        v.ok()["clock"]["deadline"],
        rfc3339(start + 48 * HOUR + DAY)
    );
    // 2 hours used, the day on vacation not
    play_turn(&players, &id);
    let v = ann.get(&format!("/v1/games/{id}"));
    let seat = v.ok()["players"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["user_id"] == first.user_id.as_str()))
        .and_then(|p| p["seat"].as_u64())
        .unwrap_or(9);
    assert_eq!(bank_left(&v.json, seat), 46 * 60);
}

each_db!(
    chosen_reminders_each_go_out_once,
    time_bank_runs_out_exactly_when_it_says,
    time_bank_stands_still_on_vacation,
);
