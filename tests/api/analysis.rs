//! Seeing the game: the analysis of a position, the points over a game and the review
//! of a finished one, under each game's `assistance` (docs/analysis.md).

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::*;

/// A short pile, so that a game ends within a few requests.
const ORDER: &[&str] = &[
    "base/D", "base/E", "base/U", "base/V", "base/B", "base/K", "base/L", "base/N",
];

fn analysis_app(kind: Db) -> TestApp {
    TestApp::with(kind, |c| {
        c.bot_poll_ms = 50;
        c.review_playouts = 2;
    })
}

/// A 2-player sandbox game with `assistance` (none: the default), after a few decisions.
fn game_with(a: &Client, b: &Client, assistance: Option<&str>) -> String {
    let mut body = json!({"seats": 2, "options": {"tile_order": ORDER}});
    if let Some(x) = assistance {
        body["assistance"] = json!(x);
    }
    let g = a.post("/v1/games", body);
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().expect("id").to_string();
    b.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    decide_each(&[a, b], &id, 2);
    id
}

/// The defaults, and what each setting shows while the game runs, to a player and to a
/// spectator; everything once it is over.
fn assistance_decides_what_a_running_game_shows(kind: Db) {
    let app = analysis_app(kind);
    let (ann, ben, cid) = (app.user("ann"), app.user("ben"), app.user("cid"));
    // the defaults: casual games show everything, rated ones the scores
    let casual = ann.post("/v1/games", json!({"seats": 2})).ok().clone();
    assert_eq!(casual["assistance"], "full");
    let rated = ann
        .post("/v1/games", json!({"seats": 2, "rated": true}))
        .ok()
        .clone();
    assert_eq!(rated["assistance"], "scores");
    let bad = ann.post("/v1/games", json!({"seats": 2, "assistance": "some"}));
    assert_eq!(bad.status, 400, "{}", bad.text);

    let anon = app.anon();
    for setting in ["none", "scores", "full"] {
        let id = game_with(&ann, &ben, Some(setting));
        assert_eq!(
            ann.get(&format!("/v1/games/{id}")).ok()["assistance"],
            setting
        );
        for who in [&ann, &ben, &cid, &anon] {
            let a = who.get(&format!("/v1/games/{id}/analysis"));
            let t = who.get(&format!("/v1/games/{id}/timeline"));
            match setting {
                "none" => {
                    a.problem(403, "assistance-off");
                    t.problem(403, "assistance-off");
                }
                _ => {
                    let v = a.ok();
                    assert_eq!(v["assistance"], setting);
                    assert_eq!(v["scores"].as_array().map(Vec::len), Some(2));
                    assert!(v["tiles"]["left"].as_u64().unwrap_or(0) > 0, "{v}");
                    assert_eq!(v.get("features").is_some(), setting == "full", "{v}");
                    assert_eq!(v.get("chances").is_some(), setting == "full", "{v}");
                    let seat = if who.user_id == ann.user_id {
                        json!(0)
                    } else if who.user_id == ben.user_id {
                        json!(1)
                    } else {
                        Value::Null
                    };
                    assert_eq!(v["seat"], seat);
                    let points = t.ok()["points"].as_array().cloned().unwrap_or_default();
                    assert!(points.len() >= 2, "{}", t.text);
                }
            }
        }
        // no review while it runs
        assert_eq!(
            ann.get(&format!("/v1/games/{id}/review")).ok()["status"],
            "none"
        );
        ann.post(&format!("/v1/games/{id}/review"), json!({}))
            .problem(409, "game-not-over");
        // once over, everything to everyone
        play_random(&[&ann, &ben], &id, 3);
        let over = ann.get(&format!("/v1/games/{id}")).ok().clone();
        assert_eq!(over["status"], "finished");
        for who in [&ann, &cid, &anon] {
            let v = who.get(&format!("/v1/games/{id}/analysis")).ok().clone();
            assert!(v.get("features").is_some() && v.get("fields").is_some());
            assert_eq!(v["tiles"]["left"], 0);
            // the score if it ended now is the final score
            for (s, r) in v["scores"]
                .as_array()
                .unwrap()
                .iter()
                .zip(over["players"].as_array().unwrap())
            {
                assert_eq!(s["if_ended"], r["score"], "{v}");
                assert_eq!(s["score"], r["score"], "{v}");
            }
            let t = who.get(&format!("/v1/games/{id}/timeline")).ok().clone();
            let last = t["points"]
                .as_array()
                .and_then(|p| p.last())
                .cloned()
                .unwrap_or_default();
            assert_eq!(last["version"], over["version"]);
            let finals: Vec<Value> = over["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["score"].clone())
                .collect();
            assert_eq!(last["scores"], json!(finals));
            assert_eq!(last["if_ended"], json!(finals));
        }
        // the game notation: a line per event, read back by `tilepost replay`
        let text = ann.get(&format!("/v1/games/{id}/export?format=text"));
        assert_eq!(text.status, 200);
        assert!(text
            .header("content-type")
            .unwrap_or_default()
            .starts_with("text/plain"));
        assert!(text.text.starts_with("# tilepost game "), "{}", text.text);
        assert_eq!(
            text.text.lines().filter(|l| !l.starts_with('#')).count() as i64,
            over["version"].as_i64().unwrap_or(0)
        );
        let json = ann.get(&format!("/v1/games/{id}/export")).text.clone();
        let (a, b) = (
            tilepost::replay::replay_text(&text.text).expect("the notation replays"),
            tilepost::replay::replay_text(&json).expect("the export replays"),
        );
        assert_eq!(a, b);
        assert_eq!(a["over"], true);
        ann.get(&format!("/v1/games/{id}/export?format=pgn"))
            .problem(400, "validation-failed");
    }
}

/// With hidden hands, a running game's analysis is its players' alone.
fn hidden_hands_keep_the_analysis_to_the_players(kind: Db) {
    let app = analysis_app(kind);
    let (ann, ben, cid) = (app.user("ann"), app.user("ben"), app.user("cid"));
    let g = ann.post(
        "/v1/games",
        json!({"seats": 2, "options": {"rules": {"tiles_in_hand": "2"}}}),
    );
    let id = g.ok()["id"].as_str().expect("id").to_string();
    ben.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    let mine = ann.get(&format!("/v1/games/{id}/analysis")).ok().clone();
    assert_eq!(mine["seat"], 0);
    ben.get(&format!("/v1/games/{id}/analysis")).ok();
    cid.get(&format!("/v1/games/{id}/analysis"))
        .problem(403, "assistance-off");
    app.anon()
        .get(&format!("/v1/games/{id}/analysis"))
        .problem(403, "assistance-off");
}

/// Waits until the review of `id` is done, and returns it.
fn review_done(c: &Client, id: &str) -> Value {
    let start = Instant::now();
    loop {
        let r = c.get(&format!("/v1/games/{id}/review")).ok().clone();
        if r["status"] == "done" {
            return r;
        }
        assert_ne!(r["status"], "failed", "{r}");
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the review ends: {r}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A player asks for a finished game's review; it is judged on the bots' pool and kept.
/// A rated game gets one by itself.
fn reviews_of_finished_games(kind: Db) {
    let app = analysis_app(kind);
    let (ann, ben, cid) = (app.user("ann"), app.user("ben"), app.user("cid"));
    let id = game_with(&ann, &ben, None);
    play_random(&[&ann, &ben], &id, 5);
    cid.post(&format!("/v1/games/{id}/review"), json!({}))
        .problem(403, "not-a-player");
    let first = ann.post(&format!("/v1/games/{id}/review"), json!({}));
    assert_eq!(first.status, 202, "{}", first.text);
    assert!(["queued", "running", "done"].contains(&first.json["status"].as_str().unwrap_or("")));
    let again = ben.post(&format!("/v1/games/{id}/review"), json!({}));
    assert_eq!(again.status, 200, "{}", again.text);
    let r = review_done(&app.anon(), &id);
    let judged = r["judged"].as_array().cloned().unwrap_or_default();
    assert_eq!(judged.len() as u64, r["total"].as_u64().unwrap_or(0), "{r}");
    assert!(!judged.is_empty());
    let version = ann.get(&format!("/v1/games/{id}")).ok()["version"]
        .as_i64()
        .unwrap_or(0);
    let mut last = 0;
    for j in &judged {
        let v = j["version"].as_i64().unwrap_or(0);
        assert!(v > last && v <= version, "{j}");
        last = v;
        let (best, played) = (
            j["margin_best"].as_f64().unwrap_or(0.0),
            j["margin_played"].as_f64().unwrap_or(0.0),
        );
        assert!(best >= played, "{j}");
        assert!(["ann", "ben"].contains(&j["username"].as_str().unwrap_or("")));
        assert!(j["played"]["type"].is_string() && j["best"]["type"].is_string());
    }
    for l in r["biggest_losses"].as_array().cloned().unwrap_or_default() {
        assert!(l["loss"].as_f64().unwrap_or(0.0) >= 1.0, "{l}");
        assert!(judged.contains(&l), "{l}");
    }

    // a rated game ends: its review comes by itself
    let rated = ann
        .post("/v1/games", json!({"seats": 2, "rated": true}))
        .ok()
        .clone();
    let rid = rated["id"].as_str().expect("id").to_string();
    ben.post(&format!("/v1/games/{rid}/join"), json!({})).ok();
    play_random(&[&ann, &ben], &rid, 7);
    let r = review_done(&ann, &rid);
    assert!(r["total"].as_u64().unwrap_or(0) > 40, "{r}");
}

each_db!(
    assistance_decides_what_a_running_game_shows,
    hidden_hands_keep_the_analysis_to_the_players,
    reviews_of_finished_games,
);
