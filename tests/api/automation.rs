//! Decisions the server takes for players: forced decisions, standing orders and
//! conditional turns (plans), through the API.

use serde_json::{json, Value};
use tilepost_engine::{Action, Game, GameConfig};

use crate::common::*;

fn patch(c: &Client, path: &str, body: Value) -> Resp {
    c.request("PATCH", path, Some(&body.to_string()), &[])
}

fn put(c: &Client, path: &str, body: Value) -> Resp {
    c.request("PUT", path, Some(&body.to_string()), &[])
}

fn all_events(c: &Client, id: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut after = 0;
    loop {
        let r = c.get(&format!("/v1/games/{id}/events?after={after}&limit=200"));
        let page = r.ok().clone();
        out.extend(page["events"].as_array().cloned().unwrap_or_default());
        match page["next_after"].as_i64() {
            Some(n) => after = n,
            None => return out,
        }
    }
}

/// Defaults and per-game orders: each player sees and changes only their own.
fn orders_are_private(app: &TestApp) {
    let (a, b, c) = (app.user("ann"), app.user("ben"), app.user("cid"));
    assert_eq!(
        a.get("/v1/users/me/orders").ok(),
        &json!({"crop_add": "ask", "crop_remove": "ask", "freed_wagon": "ask", "message_figure": "ask", "robber_victim": "ask"})
    );
    let r = patch(
        &a,
        "/v1/users/me/orders",
        json!({"freed_wagon": "supply", "robber_victim": "leader"}),
    );
    assert_eq!(r.ok()["freed_wagon"], "supply");
    assert_eq!(r.ok()["robber_victim"], "leader");
    assert_eq!(r.ok()["crop_add"], "ask");
    // null clears a default
    let r = patch(&a, "/v1/users/me/orders", json!({"robber_victim": null}));
    assert_eq!(r.ok()["robber_victim"], "ask");
    assert_eq!(r.ok()["freed_wagon"], "supply");
    patch(&a, "/v1/users/me/orders", json!({"freed_wagon": "always"}))
        .problem(400, "validation-failed");
    patch(&a, "/v1/users/me/orders", json!({"wagon": "supply"})).problem(400, "validation-failed");
    // b's defaults are untouched
    assert_eq!(b.get("/v1/users/me/orders").ok()["freed_wagon"], "ask");

    let g = a.post(
        "/v1/games",
        json!({"seats": 2, "expansions": ["abbey_mayor", "crop_circles"],
            "options": {"tile_order": ["base/V", "base/U", "base/E", "base/K"]}}),
    );
    let id = g.ok()["id"].as_str().expect("id").to_string();
    b.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    let path = format!("/v1/games/{id}/orders");
    assert_eq!(
        a.get(&path).ok()["applicable"],
        json!(["crop_add", "crop_remove", "freed_wagon"])
    );
    // the robbers are not in this game: no order for their decisions
    let r = patch(
        &a,
        &path,
        json!({"crop_add": "never", "robber_victim": "leader"}),
    );
    r.problem(422, "order-not-in-game");
    assert_eq!(r.json["errors"][0]["field"], "robber_victim", "{}", r.text);
    assert!(
        r.json["detail"].as_str().unwrap().contains("robbers"),
        "{}",
        r.text
    );
    assert_eq!(
        a.get(&path).ok()["game"]["crop_add"],
        Value::Null,
        "nothing written"
    );
    let r = patch(
        &a,
        &path,
        json!({"crop_add": "never", "freed_wagon": "ask"}),
    );
    let v = r.ok();
    assert_eq!(v["game"]["crop_add"], "never");
    assert_eq!(v["game"]["freed_wagon"], "ask");
    assert_eq!(v["game"]["robber_victim"], Value::Null);
    assert_eq!(v["defaults"]["freed_wagon"], "supply");
    assert_eq!(v["effective"]["freed_wagon"], "ask");
    assert_eq!(v["effective"]["crop_add"], "never");
    // back to the default
    let v = patch(&a, &path, json!({"freed_wagon": null})).ok().clone();
    assert_eq!(v["game"]["freed_wagon"], Value::Null);
    assert_eq!(v["effective"]["freed_wagon"], "supply");
    // b sees b's own orders at the game, never a's
    let bv = b.get(&path).ok().clone();
    assert_eq!(bv["effective"]["crop_add"], "ask");
    assert_eq!(bv["game"]["crop_add"], Value::Null);
    // someone without a seat has no orders there
    c.get(&path).problem(403, "not-a-player");
    patch(&c, &path, json!({"crop_add": "never"})).problem(403, "not-a-player");
    app.anon().get(&path).problem(401, "unauthorized");
    c.get("/v1/games/nope/orders")
        .problem(404, "game-not-found");

    // a base game asks for none of these decisions: none may be set for it, and the
    // defaults still show what a game with the expansions would do
    let id = start_game(&[&a, &b], Value::Null);
    let path = format!("/v1/games/{id}/orders");
    let v = a.get(&path).ok().clone();
    assert_eq!(v["applicable"], json!([]));
    assert_eq!(v["defaults"]["freed_wagon"], "supply");
    for kind in [
        "crop_add",
        "crop_remove",
        "freed_wagon",
        "message_figure",
        "robber_victim",
    ] {
        let answer = v["defaults"][kind].clone();
        patch(&a, &path, json!({kind: answer})).problem(422, "order-not-in-game");
        // clearing one is harmless
        patch(&a, &path, json!({kind: null})).ok();
    }
}

/// The engine's game for a sandbox of `tiles` (the pile is the tile order, whatever the
/// seed), to find a legal placement ahead of time.
fn local_game(players: u8, tiles: &[&str]) -> Game {
    let config = GameConfig {
        players,
        expansions: Vec::new(),
        tile_order: Some(tiles.iter().map(|t| t.to_string()).collect()),
        seed: 1,
        rules: Default::default(),
    };
    Game::new(&config).expect("a game").0
}

/// A plan for the tile a player draws next plays at once when the turn comes; the plans
/// are dropped, the player is told, and nobody else sees them.
fn a_plan_plays_when_its_tile_comes(app: &TestApp) {
    let (a, b) = (app.user("ann"), app.user("ben"));
    let tiles = ["base/V", "base/U", "base/E", "base/K", "base/W", "base/B"];
    let id = start_game(&[&a, &b], json!({"tile_order": tiles}));
    let acts = a.get(&format!("/v1/games/{id}/actions")).ok().clone();
    assert_eq!(acts["pending"]["user_id"], a.user_id.as_str());
    // the same game, locally: a places the first listed option and passes
    let mut local = local_game(2, &tiles);
    let listed: Vec<Action> = serde_json::from_value(acts["actions"].clone()).expect("actions");
    assert_eq!(
        listed,
        local.legal_actions(),
        "the local game is the server's"
    );
    let a_move = vec![listed[0].clone(), Action::Pass];
    local.play_move(0, &a_move).expect("a's move");
    let pending = local.pending().expect("b's turn");
    assert_eq!(pending.player, 1);
    let b_tile = tilepost_engine::catalog()
        .get(pending.tile.expect("b's tile"))
        .id
        .clone();
    let b_place = local.legal_actions()[0].clone();
    // b leaves a plan for that tile (and one for a tile not drawn), before the turn
    let plans = json!({"plans": [
        {"tile": b_tile, "actions": [b_place, {"type": "pass"}]},
        {"tile": "base/A", "actions": [{"type": "place_tile", "x": 4242, "y": 0, "rotation": 0}]},
    ]});
    let r = put(&b, &format!("/v1/games/{id}/plans"), plans.clone());
    assert_eq!(r.ok()["plans"].as_array().map(Vec::len), Some(2));
    // nobody else sees them
    assert_eq!(
        a.get(&format!("/v1/games/{id}/plans")).ok()["plans"],
        json!([])
    );
    for path in ["", "/actions", "/events", "/orders", "/plans", "/export"] {
        let r = a.get(&format!("/v1/games/{id}{path}"));
        assert!(!r.text.contains("4242"), "{path}: {}", r.text);
    }
    // a plays: b's plan plays at once
    let r = a.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": acts["version"], "actions": a_move}),
    );
    // a's answer shows b's placement as b's decision: the plan is b's alone
    let events = r.ok()["events"].as_array().cloned().unwrap_or_default();
    let bs: Vec<&Value> = events
        .iter()
        .filter(|e| e["actor"]["user_id"] == b.user_id.as_str())
        .collect();
    assert_eq!(bs.len(), 2, "{events:?}");
    assert!(
        events.iter().all(|e| e["decided_by"] != "plan"),
        "{events:?}"
    );
    let next = a.get(&format!("/v1/games/{id}/actions")).ok().clone();
    assert_eq!(next["pending"]["user_id"], a.user_id.as_str());
    // the plans are gone, b was told
    assert_eq!(
        b.get(&format!("/v1/games/{id}/plans")).ok()["plans"],
        json!([])
    );
    let told = app.messages(&b.user_id, "game.plan_played");
    assert_eq!(told.len(), 1);
    assert_eq!(told[0]["data"]["tile"], b_tile.as_str());
    // b's history says so; a's (and an anonymous reader's) does not
    let history = all_events(&b, &id);
    assert_eq!(
        history.iter().filter(|e| e["decided_by"] == "plan").count(),
        2
    );
    assert!(all_events(&a, &id)
        .iter()
        .all(|e| e["decided_by"] != "plan"));
    assert!(all_events(&app.anon(), &id)
        .iter()
        .all(|e| e["decided_by"] != "plan"));
}

/// A plan that is not legal when the turn comes is skipped: the turn waits.
fn an_illegal_plan_is_skipped(app: &TestApp) {
    let (a, b) = (app.user("ann"), app.user("ben"));
    let tiles = ["base/V", "base/U", "base/E", "base/K"];
    let id = start_game(&[&a, &b], json!({"tile_order": tiles}));
    let acts = a.get(&format!("/v1/games/{id}/actions")).ok().clone();
    let mut local = local_game(2, &tiles);
    let a_move = vec![local.legal_actions()[0].clone(), Action::Pass];
    local.play_move(0, &a_move).expect("a's move");
    let b_tile = tilepost_engine::catalog()
        .get(local.pending().and_then(|p| p.tile).expect("b's tile"))
        .id
        .clone();
    put(
        &b,
        &format!("/v1/games/{id}/plans"),
        json!({"plans": [{"tile": b_tile, "actions": [{"type": "place_tile", "x": 30, "y": 30, "rotation": 0}]}]}),
    )
    .ok();
    a.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": acts["version"], "actions": a_move}),
    )
    .ok();
    let next = a.get(&format!("/v1/games/{id}/actions")).ok().clone();
    assert_eq!(next["pending"]["user_id"], b.user_id.as_str());
    assert_eq!(next["pending"]["kind"], "place_tile");
    assert!(all_events(&a, &id)
        .iter()
        .all(|e| e["decided_by"] != "plan"));
    assert!(app.messages(&b.user_id, "game.plan_played").is_empty());
    // b plays by hand: the plan is dropped with the turn
    let place = next["actions"][0].clone();
    b.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": next["version"], "actions": [place]}),
    )
    .ok();
    assert_eq!(
        b.get(&format!("/v1/games/{id}/plans")).ok()["plans"],
        json!([])
    );
}

/// Plans are checked for form only; bad ones are refused with the field named.
fn plans_are_validated(app: &TestApp) {
    let (a, b, c) = (app.user("ann"), app.user("ben"), app.user("cid"));
    let open = a.post("/v1/games", json!({"seats": 3})).ok()["id"]
        .as_str()
        .expect("id")
        .to_string();
    let one = json!({"plans": [{"tile": "base/U", "actions": [{"type": "place_tile", "x": 1, "y": 0, "rotation": 0}]}]});
    put(&a, &format!("/v1/games/{open}/plans"), one.clone()).problem(409, "game-not-started");
    let id = start_game(&[&a, &b], Value::Null);
    let path = format!("/v1/games/{id}/plans");
    put(&c, &path, one.clone()).problem(403, "not-a-player");
    put(&a, &path, json!({"plans": [{"tile": "base/ZZ", "actions": [{"type": "place_tile", "x": 1, "y": 0, "rotation": 0}]}]}))
        .problem(400, "validation-failed");
    put(
        &a,
        &path,
        json!({"plans": [{"tile": "base/U", "actions": [{"type": "pass"}]}]}),
    )
    .problem(400, "validation-failed");
    put(
        &a,
        &path,
        json!({"plans": [{"tile": "base/U", "actions": []}]}),
    )
    .problem(400, "validation-failed");
    let twice = json!({"plans": [
        {"tile": "base/U", "actions": [{"type": "place_tile", "x": 1, "y": 0, "rotation": 0}]},
        {"tile": "base/U", "actions": [{"type": "place_tile", "x": 2, "y": 0, "rotation": 0}]},
    ]});
    put(&a, &path, twice).problem(400, "validation-failed");
    let many: Vec<Value> = tilepost_engine::catalog()
        .iter()
        .take(101)
        .map(|(_, t)| json!({"tile": t.id, "actions": [{"type": "place_tile", "x": 9, "y": 9, "rotation": 0}]}))
        .collect();
    put(&a, &path, json!({"plans": many})).problem(400, "validation-failed");
    put(&a, &path, json!({"plans": []})).ok();
}

/// Random games where every decision is posted from the listed options: no decision
/// with one option is ever pending, and standing orders act only for their player.
fn forced_decisions_and_orders_play_themselves(app: &TestApp) {
    let (a, b) = (app.user("ann"), app.user("ben"));
    patch(
        &a,
        "/v1/users/me/orders",
        json!({"crop_add": "never", "crop_remove": "ordinary_first", "freed_wagon": "supply", "message_figure": "meeple", "robber_victim": "leader"}),
    )
    .ok();
    let mut system = 0;
    let mut ordered = 0;
    for seed in 0..2u64 {
        let g = a.post(
            "/v1/games",
            json!({"seats": 2, "expansions": ["abbey_mayor", "crop_circles", "messages", "robbers"]}),
        );
        let id = g.ok()["id"].as_str().expect("id").to_string();
        b.post(&format!("/v1/games/{id}/join"), json!({})).ok();
        let mut rng = TestRng::new(seed);
        let mut moves = 0;
        loop {
            let acts = a.get(&format!("/v1/games/{id}/actions")).ok().clone();
            let options = acts["actions"].as_array().cloned().unwrap_or_default();
            if acts["pending"].is_null() {
                break;
            }
            assert_ne!(options.len(), 1, "a decision with one option waits: {acts}");
            let pick = options[rng.below(options.len())].clone();
            let who = client_for(&[&a, &b], &acts["pending"]);
            who.post(
                &format!("/v1/games/{id}/moves"),
                json!({"expected_version": acts["version"], "actions": [pick]}),
            )
            .ok();
            moves += 1;
            assert!(moves < 2000, "the game ends");
        }
        for e in all_events(&a, &id) {
            match e["decided_by"].as_str() {
                Some("system") => system += 1,
                Some("standing_order") => {
                    ordered += 1;
                    assert_eq!(e["actor"]["user_id"], a.user_id.as_str(), "{e}");
                }
                Some(other) => panic!("decided by {other}: {e}"),
                None => {}
            }
        }
    }
    assert!(system > 0, "forced decisions were taken");
    println!("{system} forced decisions, {ordered} by standing orders");
}

crate::both!(
    orders_are_private,
    a_plan_plays_when_its_tile_comes,
    an_illegal_plan_is_skipped,
    plans_are_validated,
    forced_decisions_and_orders_play_themselves
);
