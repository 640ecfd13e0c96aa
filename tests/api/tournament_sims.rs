//! Tournaments played to the end by computer opponents through real games: a small
//! Swiss and a Swiss then a top-8 knockout in CI, and the five full-size events of the
//! acceptance on demand, each log audited and its standings compared with the served
//! ones.

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tilepost_tournament::Tournament;

use crate::common::*;
use crate::tournaments::{create, log_of, served_standings, standings_from_log};

/// Waits until the tournament has ended (the bots play, the sweep advances).
fn wait_until_ended(c: &Client, id: &str, limit: Duration) {
    let start = Instant::now();
    loop {
        let v = c.get(&format!("/v1/tournaments/{id}")).ok().clone();
        if v["status"] == "ended" {
            return;
        }
        assert!(
            start.elapsed() < limit,
            "the tournament ends in time: round {} of stage {}",
            v["current_round"],
            v["current_stage"]
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The organiser enters `n` `random` computer opponents and starts the event.
fn enter_random_bots_and_start(org: &Client, id: &str, n: usize) {
    for _ in 0..n {
        org.post(
            &format!("/v1/tournaments/{id}/bots"),
            json!({"level": "random"}),
        )
        .ok();
    }
    org.post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .ok();
}

fn bot_app(kind: Db) -> TestApp {
    TestApp::with(kind, |c| {
        c.bot_poll_ms = 20;
        c.deadline_sweep_ms = 200;
    })
}

/// A 2-player Swiss of computer opponents plays every game to its end; the standings
/// served equal those recomputed from the log.
fn computer_opponents_play_a_swiss_to_the_end(kind: Db) {
    let app = bot_app(kind);
    let org = app.user("org");
    let id = create(&org, 3, json!({"computer_opponents": true}));
    enter_random_bots_and_start(&org, &id, 4);
    wait_until_ended(&org, &id, Duration::from_secs(600));
    let served = served_standings(&org, &id, 0);
    assert_eq!(served.len(), 4);
    assert_eq!(served, standings_from_log(&org, &id, 0));
    let rounds = org
        .get(&format!("/v1/tournaments/{id}/rounds"))
        .ok()
        .clone();
    assert_eq!(rounds["rounds"].as_array().map(Vec::len), Some(3));
    for r in rounds["rounds"].as_array().cloned().unwrap_or_default() {
        for t in r["tables"].as_array().cloned().unwrap_or_default() {
            let g = &t["games"][0];
            assert_eq!(g["status"], "finished", "{t}");
            assert_eq!(g["decision"], "played", "{t}");
        }
    }
}

/// A Swiss followed by a top-8 knockout of best-of-1 matches, all computer opponents:
/// both stages are played through real games to the champion.
fn computer_opponents_play_swiss_then_top8_knockout(kind: Db) {
    let app = bot_app(kind);
    let org = app.user("org");
    let r = org.post(
        "/v1/tournaments",
        json!({
            "name": "Worlds",
            "stages": [
                {"format": "swiss", "rounds": 2},
                {"format": "knockout", "top": 8},
            ],
            "computer_opponents": true,
        }),
    );
    let id = r.ok()["id"].as_str().expect("id").to_string();
    enter_random_bots_and_start(&org, &id, 10);
    wait_until_ended(&org, &id, Duration::from_secs(1200));
    assert_eq!(
        served_standings(&org, &id, 0),
        standings_from_log(&org, &id, 0)
    );
    let ko = served_standings(&org, &id, 1);
    assert_eq!(ko.len(), 8);
    assert_eq!(ko, standings_from_log(&org, &id, 1));
    let bracket = org
        .get(&format!("/v1/tournaments/{id}/bracket?stage=1"))
        .ok()
        .clone();
    let decided = bracket["matches"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter(|m| m["status"] == "decided")
        .count();
    assert_eq!(decided, 7, "{bracket}");
}

/// One event of the full-size simulation: its settings and how many computer opponents
/// play it.
struct SimEvent {
    name: &'static str,
    stages: Value,
    players: usize,
    /// Swiss stages: no repeat meeting (every one is avoidable at these sizes).
    no_repeats: bool,
    /// 2-player games only, each player's starts and second moves within one.
    balanced: bool,
    /// Pairings give the start to whoever started less (a round robin's Berger tables
    /// fix the starts instead, balanced over the event).
    start_rule: bool,
}

/// The five events of the acceptance, each played to its end by computer opponents
/// through real games on one server: a 64-player 6-round Swiss, an 8-player double
/// round robin, a 16-player double elimination of best-of-3 matches, a 30-player Swiss
/// at 4-player tables and a Swiss followed by a top-8 knockout. Each log is audited (no
/// avoidable repeat, the start to whoever started less, at most one bye each, every
/// game decided), every game of every round was played to its end, and the standings
/// served equal those the log gives. Run with `--ignored`: about five minutes in a
/// debug build (figures in docs/tournaments.md).
fn computer_opponents_play_five_full_size_events(kind: Db) {
    let app = TestApp::with(kind, |c| {
        c.bot_poll_ms = 20;
        c.bot_threads = 2;
        c.deadline_sweep_ms = 200;
        c.tournaments_per_day = 10;
        c.tournament_entries_per_hour = 1000;
    });
    let org = app.user("org");
    let events = [
        SimEvent {
            name: "64-player Swiss",
            stages: json!([{"format": "swiss", "rounds": 6}]),
            players: 64,
            no_repeats: true,
            balanced: true,
            start_rule: true,
        },
        SimEvent {
            name: "double round robin",
            stages: json!([{"format": "round_robin", "double": true}]),
            players: 8,
            no_repeats: false,
            balanced: true,
            start_rule: false,
        },
        SimEvent {
            name: "double elimination, best of 3",
            stages: json!([{"format": "knockout", "double": true, "best_of": 3}]),
            players: 16,
            no_repeats: false,
            balanced: false,
            start_rule: true,
        },
        SimEvent {
            name: "Swiss at 4-player tables",
            stages: json!([{"format": "swiss", "rounds": 5, "table_size": 4}]),
            players: 30,
            no_repeats: true,
            balanced: false,
            start_rule: true,
        },
        SimEvent {
            name: "Swiss, then the top 8",
            stages: json!([
                {"format": "swiss", "rounds": 4},
                {"format": "knockout", "top": 8},
            ]),
            players: 16,
            no_repeats: true,
            balanced: false,
            start_rule: true,
        },
    ];
    let started = Instant::now();
    let mut ids = Vec::new();
    for e in &events {
        let r = org.post(
            "/v1/tournaments",
            json!({"name": e.name, "stages": e.stages, "computer_opponents": true}),
        );
        let id = r.ok()["id"].as_str().expect("id").to_string();
        enter_random_bots_and_start(&org, &id, e.players);
        ids.push(id);
    }
    for (e, id) in events.iter().zip(&ids) {
        wait_until_ended(&org, id, Duration::from_secs(3600));
        let log = log_of(&org, id);
        let audit = tilepost_tournament::audit(&log).expect("the log audits");
        assert!(audit.replay_agrees, "{}: {audit:?}", e.name);
        assert_eq!(audit.undecided, 0, "{}: {audit:?}", e.name);
        assert!(audit.most_byes <= 1, "{}: {audit:?}", e.name);
        if e.start_rule {
            assert_eq!(audit.start_rule_broken, 0, "{}: {audit:?}", e.name);
        }
        if e.no_repeats {
            assert_eq!(audit.repeats, 0, "{}: {audit:?}", e.name);
        }
        if e.balanced {
            assert!(audit.start_imbalance <= 1, "{}: {audit:?}", e.name);
        }
        let state = Tournament::replay(&log).expect("the log replays");
        let mut games = 0;
        for stage in 0..state.stages().len() {
            assert_eq!(
                served_standings(&org, id, stage),
                standings_from_log(&org, id, stage),
                "{}",
                e.name
            );
            for r in &state.stages()[stage].rounds {
                for t in &r.tables {
                    for g in &t.games {
                        assert_eq!(g.decision, None, "{}: played to its end", e.name);
                        games += 1;
                    }
                }
            }
        }
        eprintln!(
            "{}: {} players, {games} games, {} events in the log; {audit:?}",
            e.name,
            e.players,
            log.len()
        );
    }
    eprintln!(
        "five events played in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn sqlite_swiss() {
    computer_opponents_play_a_swiss_to_the_end(Db::Sqlite)
}

#[test]
fn postgres_swiss() {
    computer_opponents_play_a_swiss_to_the_end(Db::Postgres)
}

#[test]
fn sqlite_swiss_then_knockout() {
    computer_opponents_play_swiss_then_top8_knockout(Db::Sqlite)
}

#[test]
#[ignore = "five full-size events, about 400 games: minutes"]
fn sqlite_five_full_size_events() {
    computer_opponents_play_five_full_size_events(Db::Sqlite)
}

#[test]
#[ignore = "five full-size events, about 400 games: minutes"]
fn postgres_five_full_size_events() {
    computer_opponents_play_five_full_size_events(Db::Postgres)
}
