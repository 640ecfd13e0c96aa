//! Undo before anything is revealed, over HTTP: a tile placed alone is taken back and
//! the game is as it was (view and options for every seat); refusals after a reveal, in
//! rated games, for another player's decision and with nothing to take back; the
//! history shows the undo; and random casual games with undos everywhere they are
//! allowed.

use serde_json::{json, Value};

use crate::common::*;

fn place(x: i32, y: i32, r: i32) -> Value {
    json!({"type": "place_tile", "x": x, "y": y, "rotation": r})
}

fn pass() -> Value {
    json!({"type": "pass"})
}

/// A game with `expansions` and a fixed tile order, all seats taken.
fn sandbox(players: &[&Client], expansions: &[&str], tiles: &[&str]) -> String {
    let g = players[0].post(
        "/v1/games",
        json!({"seats": players.len(), "expansions": expansions, "options": {"tile_order": tiles}}),
    );
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().expect("id").to_string();
    for p in &players[1..] {
        p.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    }
    id
}

fn version(c: &Client, id: &str) -> i64 {
    c.get(&format!("/v1/games/{id}")).json["version"]
        .as_i64()
        .expect("version")
}

fn mv(c: &Client, id: &str, actions: Value) -> Resp {
    let v = version(c, id);
    c.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": v, "actions": actions}),
    )
}

fn undo(c: &Client, id: &str) -> Resp {
    let v = version(c, id);
    c.post(
        &format!("/v1/games/{id}/undo"),
        json!({"expected_version": v}),
    )
}

/// What `c` sees of the game, without what only says how far the log has gone (the
/// version, the times): the view and the pending decision's options.
fn seen(c: &Client, id: &str) -> Value {
    let mut view = c.get(&format!("/v1/games/{id}")).ok().clone();
    let mut actions = c.get(&format!("/v1/games/{id}/actions")).ok().clone();
    for v in [&mut view, &mut actions] {
        if let Some(m) = v.as_object_mut() {
            m.retain(|k, _| {
                !matches!(
                    k.as_str(),
                    "version" | "updated_at" | "turn_started_at" | "last_move_at" | "deadline"
                )
            });
        }
    }
    json!({"view": view, "actions": actions})
}

fn undo_allowed(c: &Client, id: &str) -> bool {
    c.get(&format!("/v1/games/{id}/actions")).ok()["undo"] == true
}

fn a_tile_placed_alone_is_taken_back(app: &TestApp) {
    let (red, blue) = (app.user("red"), app.user("blue"));
    let id = sandbox(
        &[&red, &blue],
        &[],
        &["base/D", "base/E", "base/U", "base/V"],
    );
    // nothing decided yet
    assert!(!undo_allowed(&red, &id));
    undo(&red, &id).problem(409, "nothing-to-undo");
    let before = [seen(&red, &id), seen(&blue, &id)];
    mv(&red, &id, json!([place(1, 0, 0)])).ok();
    assert!(undo_allowed(&red, &id));
    assert!(!undo_allowed(&blue, &id));
    // another player's decision is not theirs to take back
    undo(&blue, &id).problem(403, "undo-not-yours");
    // a stale version is refused
    let v = version(&red, &id);
    red.post(
        &format!("/v1/games/{id}/undo"),
        json!({"expected_version": v - 1}),
    )
    .problem(409, "stale-version");
    let r = undo(&red, &id);
    let body = r.ok().clone();
    assert_eq!(body["version"], v + 1);
    assert_eq!(body["events"][0]["decision"]["type"], "undone", "{body}");
    assert_eq!(body["events"][0]["decision"]["count"], 1, "{body}");
    assert_eq!(body["events"][0]["actor"]["seat"], 0, "{body}");
    // the game is as it was, for every seat
    assert_eq!([seen(&red, &id), seen(&blue, &id)], before);
    undo(&red, &id).problem(409, "nothing-to-undo");
    // another placement, then the figure: the same next tile is drawn for blue
    mv(&red, &id, json!([place(0, 1, 180), pass()])).ok();
    let a = blue.get(&format!("/v1/games/{id}/actions")).ok().clone();
    assert_eq!(a["pending"]["tile"], "base/E", "{a}");
    // the turn passed with a tile drawn: nothing of it may be taken back
    undo(&red, &id).problem(403, "undo-not-yours");
    undo(&blue, &id).problem(409, "nothing-to-undo");
    // the history shows the undone placement and the undo
    let events = red
        .get(&format!("/v1/games/{id}/events?limit=50"))
        .ok()
        .clone();
    let types: Vec<&str> = events["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["decision"]["type"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        types,
        [
            "game_created",
            "tile_placed",
            "undone",
            "tile_placed",
            "figure_skipped"
        ]
    );
}

/// Traders & Builders: red's builder earns a second turn part, whose tile is drawn after
/// red's figure decision; nothing before that draw may be taken back.
fn refused_after_a_reveal(app: &TestApp) {
    let (red, blue) = (app.user("red"), app.user("blue"));
    let tiles = [
        "base/U", "base/B", "base/U", "base/B", "base/U", "base/W", "base/B", "base/W", "base/B",
    ];
    let id = sandbox(&[&red, &blue], &["traders_builders"], &tiles);
    let follower = json!({"type": "place_figure", "figure": "follower", "spot": "E"});
    let builder = json!({"type": "place_figure", "figure": "builder", "spot": "E"});
    mv(&red, &id, json!([place(1, 0, 0), follower])).ok();
    mv(&blue, &id, json!([place(0, -1, 0), pass()])).ok();
    mv(&red, &id, json!([place(2, 0, 0), builder])).ok();
    mv(&blue, &id, json!([place(1, -1, 0), pass()])).ok();
    mv(&red, &id, json!([place(3, 0, 0)])).ok();
    // the tile alone may be taken back, and placed again
    undo(&red, &id).ok();
    mv(&red, &id, json!([place(3, 0, 0)])).ok();
    mv(&red, &id, json!([pass()])).ok();
    // the builder's second part: red decides again, on a newly drawn tile
    let a = red.get(&format!("/v1/games/{id}/actions")).ok().clone();
    assert_eq!(a["pending"]["seat"], 0, "{a}");
    assert_eq!(a["undo"], false, "{a}");
    undo(&red, &id).problem(409, "undo-past-reveal");
}

fn refused_in_rated_games(app: &TestApp) {
    let (red, blue) = (app.user("red"), app.user("blue"));
    let g = red.post("/v1/games", json!({"seats": 2, "rated": true}));
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().expect("id").to_string();
    blue.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    let a = red.get(&format!("/v1/games/{id}/actions")).ok().clone();
    let who = client_for(&[&red, &blue], &a["pending"]);
    let r = who.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": a["version"], "actions": [a["actions"][0]]}),
    );
    r.ok();
    assert!(!undo_allowed(who, &id));
    let v = version(who, &id);
    who.post(
        &format!("/v1/games/{id}/undo"),
        json!({"expected_version": v}),
    )
    .problem(403, "undo-not-allowed");
    assert_eq!(version(who, &id), v, "a refused undo wrote something");
}

/// Random casual games with expansions: wherever `…/actions` offers an undo, the
/// decision is taken back and every seat sees the game as it was before it.
fn random_games_with_undos(app: &TestApp) {
    let (red, blue) = (app.user("red"), app.user("blue"));
    let players = [&red, &blue];
    let mut undos = 0;
    for (seed, expansions) in [
        (1u64, json!([])),
        (2, json!(["traders_builders", "abbot", "inns_cathedrals"])),
    ] {
        let g = red.post("/v1/games", json!({"seats": 2, "expansions": expansions}));
        assert_eq!(g.status, 201, "{}", g.text);
        let id = g.json["id"].as_str().expect("id").to_string();
        blue.post(&format!("/v1/games/{id}/join"), json!({})).ok();
        let mut rng = TestRng::new(seed);
        for _ in 0..60 {
            let a = red.get(&format!("/v1/games/{id}/actions")).ok().clone();
            if a["pending"].is_null() {
                break;
            }
            let who = client_for(&players, &a["pending"]);
            let options = who.get(&format!("/v1/games/{id}/actions")).ok()["actions"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let pick = options[rng.below(options.len())].clone();
            let before = [seen(&red, &id), seen(&blue, &id)];
            let r = who.post(
                &format!("/v1/games/{id}/moves"),
                json!({"expected_version": a["version"], "actions": [pick]}),
            );
            assert_eq!(r.status, 200, "{}", r.text);
            if undo_allowed(who, &id) && rng.below(2) == 0 {
                undo(who, &id).ok();
                assert_eq!([seen(&red, &id), seen(&blue, &id)], before);
                undos += 1;
                // the same decision again
                let v = version(who, &id);
                who.post(
                    &format!("/v1/games/{id}/moves"),
                    json!({"expected_version": v, "actions": [pick]}),
                )
                .ok();
            }
        }
    }
    assert!(undos > 3, "{undos} undos");
}

crate::both!(
    a_tile_placed_alone_is_taken_back,
    refused_after_a_reveal,
    refused_in_rated_games,
    random_games_with_undos,
);
