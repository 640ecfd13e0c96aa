//! No peeking: a move that goes on after an action that draws a tile or rolls the die is
//! refused with the same answer whatever the hidden tile or roll, and writes nothing.

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

fn state(c: &Client, id: &str) -> (i64, usize) {
    let v = c.get(&format!("/v1/games/{id}")).json["version"]
        .as_i64()
        .unwrap();
    let events = c.get(&format!("/v1/games/{id}/events?limit=200")).json["events"]
        .as_array()
        .map_or(0, |e| e.len());
    (v, events)
}

fn mv(c: &Client, id: &str, actions: Value) -> Resp {
    let (v, _) = state(c, id);
    c.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": v, "actions": actions}),
    )
}

/// Sends `actions` to every game and checks one answer for all, nothing written.
fn same_refusal(c: &Client, ids: &[String], actions: Value) -> Value {
    let mut bodies = Vec::new();
    for id in ids {
        let before = state(c, id);
        let r = mv(c, id, actions.clone());
        r.problem(422, "move-past-hidden-information");
        assert_eq!(state(c, id), before, "a refused move wrote something");
        bodies.push(json!({
            "status": r.json["status"],
            "code": r.json["code"],
            "detail": r.json["detail"],
            "errors": r.json["errors"],
        }));
    }
    assert!(
        bodies.windows(2).all(|w| w[0] == w[1]),
        "the answers differ: {bodies:?}"
    );
    bodies.swap_remove(0)
}

/// Traders & Builders: `[place_tile (builder), pass, place_tile]` does not tell where the
/// hidden second tile fits.
fn builder_second_tile(app: &TestApp) {
    let (red, blue) = (app.user("red"), app.user("blue"));
    let mut ids = Vec::new();
    for second in ["base/W", "base/B"] {
        let tiles = [
            "base/U", "base/B", "base/U", "base/B", "base/U", second, "base/B", "base/W", "base/B",
        ];
        let id = sandbox(&[&red, &blue], &["traders_builders"], &tiles);
        let follower = json!({"type": "place_figure", "figure": "follower", "spot": "E"});
        let builder = json!({"type": "place_figure", "figure": "builder", "spot": "E"});
        mv(&red, &id, json!([place(1, 0, 0), follower])).ok();
        mv(&blue, &id, json!([place(0, -1, 0), pass()])).ok();
        mv(&red, &id, json!([place(2, 0, 0), builder])).ok();
        mv(&blue, &id, json!([place(1, -1, 0), pass()])).ok();
        ids.push(id);
    }
    let body = same_refusal(&red, &ids, json!([place(3, 0, 0), pass(), place(-1, 0, 0)]));
    assert_eq!(body["errors"][0]["field"], "actions[2]");
    // the move that ends with the pass is played: the second part follows
    mv(&red, &ids[0], json!([place(3, 0, 0), pass()])).ok();
}

/// Flying Machines: `[fly, land on a spot that does not exist]` does not tell the roll.
/// The seed is secret, so six games roll what they roll: all answers must agree.
fn flier_roll(app: &TestApp) {
    let (red, blue, green) = (app.user("red"), app.user("blue"), app.user("green"));
    let tiles = [
        "base/D",
        "base/G",
        "base/B",
        "fm/05-frfr",
        "base/U",
        "base/E",
    ];
    let mut ids = Vec::new();
    for _ in 0..6 {
        let id = sandbox(&[&red, &blue, &green], &["flying_machines"], &tiles);
        let knight = json!({"type": "place_figure", "figure": "follower", "spot": "N"});
        mv(&red, &id, json!([place(1, 0, 0), pass()])).ok();
        mv(&blue, &id, json!([place(0, 1, 90), knight])).ok();
        mv(&green, &id, json!([place(0, -1, 0), pass()])).ok();
        ids.push(id);
    }
    let fly = json!({"type": "fly", "figure": "follower"});
    let land = json!({"type": "land", "spot": "nowhere"});
    let body = same_refusal(&red, &ids, json!([place(2, 0, 0), fly, land]));
    assert_eq!(body["errors"][0]["field"], "actions[2]");
    for id in &ids {
        mv(&red, id, json!([place(2, 0, 0)])).ok();
    }
    same_refusal(&red, &ids, json!([fly, land]));
    // the flight alone is played
    mv(&red, &ids[0], json!([fly])).ok();
}

crate::both!(builder_second_tile, flier_roll);
