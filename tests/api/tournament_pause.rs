//! The organiser's pause: the clocks of the event's games stand still, no cap applies
//! and no round is paired until it resumes; then every deadline has moved out by the
//! pause, and the event goes on.

use serde_json::json;
use tilepost::clock::{rfc3339, Clock};

use crate::common::*;
use crate::correspondence::{outbox, sweep};
use crate::tournaments::{
    create, log_of, long_tokens, running_games, served_standings, standings_from_log, sweep_now,
};

const DAY: i64 = 86_400_000;

fn a_pause_holds_clocks_and_cap(kind: Db) {
    let app = &long_tokens(kind);
    let org = app.user("org");
    let (a, b) = (app.user("ann"), app.user("bob"));
    let id = create(
        &org,
        1,
        json!({"days_per_move": 2, "round_cap": {"days": 7, "decision": "score_if_ended_now"}}),
    );
    for p in [&a, &b] {
        p.post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .ok();
    }
    let pause = |c: &Client, body| c.post(&format!("/v1/tournaments/{id}/pause"), body);
    pause(&org, json!({"reason": "early"})).problem(409, "tournament-not-running");
    org.post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .ok();
    let t0 = app.clock.now_ms();
    let game = running_games(&org, &id)[0].0.clone();
    let clock_of = || org.get(&format!("/v1/games/{game}")).ok()["clock"].clone();
    assert_eq!(clock_of()["deadline"], rfc3339(t0 + 2 * DAY));
    let sweep_games = || sweep(app).timeouts;

    // a day in, the organiser pauses (others may not; a reason is needed)
    app.clock.advance_ms(DAY);
    pause(&a, json!({"reason": "mine"})).problem(403, "not-organiser");
    pause(&org, json!({"reason": "  "})).problem(400, "validation-failed");
    let v = pause(&org, json!({"reason": "the club moves house"}))
        .ok()
        .clone();
    assert_eq!(v["paused_at"], rfc3339(t0 + DAY));
    assert_eq!(v["pause_reason"], "the club moves house");
    pause(&org, json!({"reason": "again"})).problem(409, "tournament-paused");
    assert_eq!(clock_of()["paused"], true);
    // each player hears it once, with the reason; the organiser, not playing, does not
    for p in [&a, &b] {
        let heard = outbox(app, p, "tournament.paused");
        assert_eq!(heard.len(), 1);
        assert!(heard[0].payload.contains("the club moves house"));
    }
    assert!(outbox(app, &org, "tournament.paused").is_empty());

    // nine days pass: past the move's two days and the round's seven
    app.clock.advance_ms(9 * DAY);
    assert_eq!(sweep_games(), 0, "no one times out while paused");
    sweep_now(app);
    assert_eq!(running_games(&org, &id).len(), 1, "the cap waits");
    let c = clock_of();
    assert_eq!(c["paused"], true);
    assert_eq!(c["deadline"], rfc3339(t0 + 2 * DAY + 9 * DAY));

    // resumed: the turn keeps the day it had, the cap moves out by the pause
    a.post(&format!("/v1/tournaments/{id}/resume"), json!({}))
        .problem(403, "not-organiser");
    let v = org
        .post(&format!("/v1/tournaments/{id}/resume"), json!({}))
        .ok()
        .clone();
    assert!(v["paused_at"].is_null() && v["pause_reason"].is_null());
    assert_eq!(v["round_deadline"], rfc3339(t0 + 7 * DAY + 9 * DAY));
    org.post(&format!("/v1/tournaments/{id}/resume"), json!({}))
        .problem(409, "tournament-not-paused");
    for p in [&a, &b] {
        assert_eq!(outbox(app, p, "tournament.resumed").len(), 1);
    }
    let c = clock_of();
    assert_eq!(c["paused"], false);
    assert_eq!(c["deadline"], rfc3339(t0 + 11 * DAY));

    // the clock runs again: the turn times out a day later, and the event ends
    app.clock.advance_ms(DAY - 60_000);
    assert_eq!(sweep_games(), 0);
    app.clock.advance_ms(60_001);
    assert_eq!(sweep_games(), 1);
    sweep_now(app);
    let v = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(v["status"], "ended");
    pause(&org, json!({"reason": "late"})).problem(409, "tournament-ended");
    let log = log_of(&org, &id);
    let kinds: Vec<&str> = log.iter().map(|e| e.type_name()).collect();
    let p = kinds
        .iter()
        .position(|k| *k == "tournament_paused")
        .expect("the pause is in the log");
    assert_eq!(kinds[p + 1], "tournament_resumed");
    assert!(matches!(
        &log[p],
        tilepost_tournament::Event::TournamentPaused { reason } if reason == "the club moves house"
    ));
    assert_eq!(
        served_standings(&org, &id, 0),
        standings_from_log(&org, &id, 0)
    );
}

/// While paused, a round that ends is not followed by the next one; resuming pairs it.
fn a_paused_event_pairs_its_next_round_when_it_resumes(kind: Db) {
    let app = &long_tokens(kind);
    let org = app.user("org");
    let (a, b) = (app.user("ann"), app.user("bob"));
    let id = create(&org, 2, json!({"days_per_move": 2}));
    for p in [&a, &b] {
        p.post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .ok();
    }
    org.post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .ok();
    let game = running_games(&org, &id)[0].0.clone();
    org.post(
        &format!("/v1/tournaments/{id}/pause"),
        json!({"reason": "holidays"}),
    )
    .ok();
    // a player leaves the game while paused: its result is recorded, no round follows
    a.post(&format!("/v1/games/{game}/resign"), json!({})).ok();
    sweep_now(app);
    let v = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(v["current_round"], 1);
    assert!(running_games(&org, &id).is_empty());
    let v = org
        .post(&format!("/v1/tournaments/{id}/resume"), json!({}))
        .ok()
        .clone();
    assert_eq!(v["current_round"], 2);
    assert_eq!(running_games(&org, &id).len(), 1);
    assert_eq!(
        served_standings(&org, &id, 0),
        standings_from_log(&org, &id, 0)
    );
}

each_db!(
    a_pause_holds_clocks_and_cap,
    a_paused_event_pairs_its_next_round_when_it_resumes,
);
