//! Every problem a client can meet: status, `code`, headers; and a refused request
//! writes nothing.

use serde_json::{json, Value};

use crate::common::*;

fn version(c: &Client, id: &str) -> i64 {
    c.get(&format!("/v1/games/{id}")).json["version"]
        .as_i64()
        .unwrap()
}

fn mv(c: &Client, id: &str, version: i64, actions: Value) -> Resp {
    c.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": version, "actions": actions}),
    )
}

/// Illegal actions get the engine's codes, and a refused batch changes nothing.
fn illegal_actions(app: &TestApp) {
    let (red, blue) = (app.user("red"), app.user("blue"));
    let outsider = app.user("eve");
    let id = start_game(
        &[&red, &blue],
        json!({"tile_order": ["base/E", "base/U", "base/U", "base/B"]}),
    );
    let place =
        |x: i32, y: i32, r: i32| json!({"type": "place_tile", "x": x, "y": y, "rotation": r});
    mv(&red, &id, 1, json!([place(5, 5, 0)])).problem(422, "illegal-placement");
    mv(&red, &id, 1, json!([place(0, 0, 0)])).problem(422, "illegal-placement");
    // base/E is a city cap: north of the start tile only turned to face it (180)
    let r = mv(&red, &id, 1, json!([place(0, 1, 0)]));
    r.problem(422, "tile-does-not-fit");
    assert_eq!(r.json["errors"][0]["field"], "actions[0]");
    mv(&red, &id, 1, json!([{"type": "pass"}])).problem(422, "unexpected-action");
    mv(&blue, &id, 1, json!([place(0, 1, 180)])).problem(403, "not-your-turn");
    mv(&outsider, &id, 1, json!([place(0, 1, 180)])).problem(403, "not-a-player");
    mv(&red, &id, 0, json!([place(0, 1, 180)]))
        .problem(409, "stale-version")
        .json["current_version"]
        .as_i64()
        .map(|v| assert_eq!(v, 1))
        .expect("current_version");
    // a batch is atomic: the tile is legal, the figure is not: nothing is applied
    let r = mv(
        &red,
        &id,
        1,
        json!([place(0, 1, 180), {"type": "place_figure", "figure": "follower", "spot": "Q"}]),
    );
    r.problem(422, "unknown-spot");
    assert_eq!(r.json["errors"][0]["field"], "actions[1]");
    mv(
        &red,
        &id,
        1,
        json!([place(0, 1, 180), {"type": "place_figure", "figure": "builder", "spot": "S"}]),
    )
    .problem(422, "figure-not-allowed");
    assert_eq!(version(&red, &id), 1);
    let ev = red.get(&format!("/v1/games/{id}/events"));
    assert_eq!(ev.json["events"].as_array().unwrap().len(), 1);
    // B7: a road occupied two tiles away cannot be claimed
    mv(&red, &id, 1, json!([place(0, 1, 180), {"type": "pass"}])).ok();
    mv(
        &blue,
        &id,
        3,
        json!([place(1, 0, 0), {"type": "place_figure", "figure": "follower", "spot": "E"}]),
    )
    .ok();
    mv(
        &red,
        &id,
        5,
        json!([place(-1, 0, 0), {"type": "place_figure", "figure": "follower", "spot": "E"}]),
    )
    .problem(422, "feature-occupied");
    mv(
        &red,
        &id,
        5,
        json!([place(-1, 0, 0), {"type": "place_figure", "figure": "follower", "spot": "NNW"}]),
    )
    .ok();
}

/// A player with every follower on the board cannot place another.
fn no_figure_left(app: &TestApp) {
    let (red, blue) = (app.user("red"), app.user("blue"));
    let tiles: Vec<&str> = std::iter::repeat_n("base/B", 40).collect();
    let id = start_game(&[&red, &blue], json!({ "tile_order": tiles }));
    let mut seen = false;
    for _ in 0..40 {
        let p = red.get(&format!("/v1/games/{id}/placements"));
        if p.json["pending"].is_null() {
            break;
        }
        let v = p.json["version"].as_i64().unwrap();
        let pl = &p.json["placements"][0];
        let tile =
            json!({"type": "place_tile", "x": pl["x"], "y": pl["y"], "rotation": pl["rotation"]});
        let monk = json!({"type": "place_figure", "figure": "follower", "spot": "C"});
        if p.json["pending"]["seat"] == 1 {
            mv(&blue, &id, v, json!([tile, {"type": "pass"}])).ok();
            continue;
        }
        let supply = red.get(&format!("/v1/games/{id}")).json["players"][0]["supply"]["follower"]
            .as_i64()
            .unwrap_or(0);
        if supply == 0 {
            mv(&red, &id, v, json!([tile, monk])).problem(422, "no-figure-left");
            assert_eq!(version(&red, &id), v);
            seen = true;
            break;
        }
        mv(&red, &id, v, json!([tile, monk])).ok();
    }
    assert!(seen, "red ran out of followers");
}

/// Games that do not exist, have not started or cannot be joined.
fn game_lifecycle_problems(app: &TestApp) {
    let (a, b, c) = (app.user("ann"), app.user("ben"), app.user("cat"));
    a.get("/v1/games/no-such-game")
        .problem(404, "game-not-found");
    a.get(&format!("/v1/games/{}", "x".repeat(100)))
        .problem(404, "game-not-found");
    a.post("/v1/games/no-such-game/join", json!({}))
        .problem(404, "game-not-found");
    a.get("/v1/games/no-such-game/events")
        .problem(404, "game-not-found");
    let g = a.post("/v1/games", json!({"seats": 2}));
    let id = g.json["id"].as_str().unwrap().to_string();
    a.post(&format!("/v1/games/{id}/join"), json!({}))
        .problem(409, "already-seated");
    a.get(&format!("/v1/games/{id}/actions"))
        .problem(409, "game-not-started");
    a.get(&format!("/v1/games/{id}/placements"))
        .problem(409, "game-not-started");
    mv(&a, &id, 0, json!([{"type": "pass"}])).problem(409, "game-not-started");
    b.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    c.post(&format!("/v1/games/{id}/join"), json!({}))
        .problem(409, "game-already-started");
    a.post("/v1/games", json!({"seats": 2, "expansions": ["dragons"]}))
        .problem(400, "validation-failed");
    a.post("/v1/games", json!({"seats": 6}))
        .problem(400, "validation-failed");
    a.post(
        "/v1/games",
        json!({"seats": 2, "options": {"tile_order": ["base/ZZ"]}}),
    )
    .problem(400, "validation-failed");
    a.post(
        "/v1/games",
        json!({"seats": 2, "options": {"tile_order": []}}),
    )
    .problem(400, "validation-failed");
}

/// Bad input of every kind gets a clear 4xx problem, never a 5xx.
fn bad_input(app: &TestApp) {
    let a = app.user("ann");
    let anon = app.anon();
    // unknown fields, wrong types, missing fields, absurd numbers
    let r = a.post("/v1/games", json!({"seats": 2, "colour": "red"}));
    r.problem(400, "validation-failed");
    assert_eq!(r.json["errors"][0]["field"], "colour");
    a.post("/v1/games", json!({"seats": "two"}))
        .problem(400, "validation-failed");
    a.post("/v1/games", json!({}))
        .problem(400, "validation-failed");
    a.post("/v1/games", json!({"seats": 1}))
        .problem(400, "validation-failed");
    a.post("/v1/games", json!({"seats": -5}))
        .problem(400, "validation-failed");
    a.post("/v1/games", json!({"seats": 1e300}))
        .problem(400, "validation-failed");
    a.post(
        "/v1/games",
        json!({"seats": 99999999999999999999u128 as f64}),
    )
    .problem(400, "validation-failed");
    a.request("POST", "/v1/games", Some("{not json"), &[])
        .problem(400, "validation-failed");
    a.request("POST", "/v1/games", Some(""), &[])
        .problem(400, "validation-failed");
    a.request("POST", "/v1/games", Some("[]"), &[])
        .problem(400, "validation-failed");
    anon.post(
        "/v1/users",
        json!({"username": "x", "email": "nope", "password": "short"}),
    )
    .problem(400, "validation-failed");
    let b = app.user("ben");
    let id = start_game(&[&a, &b], Value::Null);
    let bad = |body: Value| {
        let r = a.post(&format!("/v1/games/{id}/moves"), body);
        r.problem(400, "validation-failed");
        r
    };
    bad(json!({"expected_version": 1, "actions": []}));
    bad(json!({"expected_version": 1}));
    bad(json!({"actions": [{"type": "pass"}]}));
    bad(
        json!({"expected_version": 1, "actions": [{"type": "place_tile", "x": 1, "y": 0, "rotation": 45}]}),
    );
    bad(
        json!({"expected_version": 1, "actions": [{"type": "place_tile", "x": 1e12, "y": 0, "rotation": 0}]}),
    );
    bad(json!({"expected_version": 1, "actions": [{"type": "fly"}]}));
    // objects written as arrays (serde would take a struct as a sequence)
    bad(json!([1, [{"type": "pass"}]]));
    let r = bad(json!({"expected_version": 1, "actions": [["place_tile", 1, 0, 0]]}));
    assert_eq!(r.json["errors"][0]["field"], "actions[0]");
    a.post("/v1/games", json!({"seats": 2, "options": [["base/D"]]}))
        .problem(400, "validation-failed");
    a.request(
        "PATCH",
        "/v1/users/me",
        Some(r#"{"notifications": [false, false]}"#),
        &[],
    )
    .problem(400, "validation-failed");
    a.request("PATCH", "/v1/users/me", Some("[null, null]"), &[])
        .problem(400, "validation-failed");
    let r = bad(json!({"expected_version": 1, "actions": [{"type": "pass", "extra": 1}]}));
    assert!(r.json["errors"][0]["field"]
        .as_str()
        .unwrap()
        .starts_with("actions[0]"));
    bad(
        json!({"expected_version": 1, "actions": [{"type": "place_tile", "x": 1, "y": 0, "rotation": 0, "z": 3}]}),
    );
    bad(
        json!({"expected_version": 1, "actions": [{"type": "place_figure", "figure": "dragon", "spot": "N"}]}),
    );
    a.request(
        "POST",
        &format!("/v1/games/{id}/moves"),
        Some(&json!({"actions": [{"type": "pass"}]}).to_string()),
        &[("If-Match", "soon")],
    )
    .problem(400, "validation-failed");
    a.get(&format!("/v1/games/{id}/events?after=-1"))
        .problem(400, "validation-failed");
    a.get(&format!("/v1/games/{id}/events?limit=500"))
        .problem(400, "validation-failed");
    a.get(&format!("/v1/games/{id}/events?after=abc"))
        .problem(400, "validation-failed");
    a.get("/v1/games?status=sleeping")
        .problem(400, "validation-failed");
    a.get("/v1/games?bogus=1").problem(400, "validation-failed");
    // nothing of that was written
    assert_eq!(version(&a, &id), 1);
    // size, media type, method, path
    let huge = json!({"seats": 2, "expansions": ["x".repeat(70_000)]});
    a.post("/v1/games", huge).problem(413, "payload-too-large");
    a.request(
        "POST",
        "/v1/games",
        Some("seats=2"),
        &[("Content-Type", "text/plain")],
    )
    .problem(415, "unsupported-media-type");
    let r = a.request("DELETE", &format!("/v1/games/{id}"), None, &[]);
    r.problem(405, "method-not-allowed");
    assert_eq!(r.header("allow"), Some("GET"));
    let r = a.request("PUT", "/v1/games", Some("{}"), &[]);
    r.problem(405, "method-not-allowed");
    assert_eq!(r.header("allow"), Some("GET, POST"));
    let r = a.request("GET", "/v1/auth/token", None, &[]);
    assert_eq!(r.header("allow"), Some("POST"));
    a.get("/v1/nothing-here").problem(404, "not-found");
    a.get("/nothing-here").problem(404, "not-found");
    // the site's root is no longer a 404: it leads to the web client
    assert_eq!(a.get("/").status, 200);
    // every answer carries a request id
    assert!(r.header("x-request-id").is_some_and(|v| !v.is_empty()));
    let echoed = a.request("GET", "/healthz", None, &[("x-request-id", "abc-123")]);
    assert_eq!(echoed.header("x-request-id"), Some("abc-123"));
}

/// Registration conflicts.
fn username_taken(app: &TestApp) {
    app.user("ann");
    app.anon()
        .post(
            "/v1/users",
            json!({"username": "ann", "email": "other@example.com", "password": "something long"}),
        )
        .problem(409, "username-taken");
}

/// A GET asking for a language.
fn get_in(c: &Client, path: &str, language: &str) -> Resp {
    c.request("GET", path, None, &[("Accept-Language", language)])
}

/// Problems in the reader's language: `Accept-Language` for anyone, the account's
/// `locale` for a signed-in caller (whatever the request asks); the `code`, status and
/// fields never change; `Content-Language` names the language.
fn problems_in_the_readers_language(app: &TestApp) {
    let anon = app.anon();
    let gone = "/v1/games/00000000-0000-4000-8000-000000000000";
    let en = anon.get(gone);
    en.problem(404, "game-not-found");
    assert_eq!(en.json["title"], "No such game");
    assert_eq!(en.header("content-language"), Some("en"));
    let pt = get_in(&anon, gone, "pt-BR,pt;q=0.9,en;q=0.5");
    pt.problem(404, "game-not-found");
    assert_eq!(pt.json["title"], "Partida inexistente");
    assert_eq!(pt.json["detail"], "Não há partida com este id.");
    assert_eq!(pt.json["type"], en.json["type"]);
    assert_eq!(pt.header("content-language"), Some("pt-BR"));
    let vary = pt.header("vary").unwrap_or_default().to_ascii_lowercase();
    assert!(
        vary.contains("accept-language") && vary.contains("origin"),
        "{vary}"
    );
    // a language the server does not speak: English
    assert_eq!(get_in(&anon, gone, "fr-FR").json["title"], "No such game");
    // before the token is checked (an unknown route), and a refused token
    let r = get_in(&anon, "/v1/nothing-here", "pt");
    r.problem(404, "not-found");
    assert_eq!(r.json["title"], "Não encontrado");
    let r = get_in(&anon.with_token("not.a.token"), "/v1/users/me", "pt-BR");
    r.problem(401, "unauthorized");
    assert_eq!(r.json["title"], "Autenticação necessária");
    // a signed-in player who chose pt-BR reads Portuguese even when asking for English
    let ann = app.user("ann");
    let settings = json!({"locale": "pt-BR"}).to_string();
    assert_eq!(
        ann.request("PATCH", "/v1/users/me", Some(&settings), &[])
            .status,
        200
    );
    let r = get_in(&ann, gone, "en");
    r.problem(404, "game-not-found");
    assert_eq!(r.json["title"], "Partida inexistente");
    assert_eq!(r.header("content-language"), Some("pt-BR"));
    // a validation problem names its fields; the English messages stay in `errors`
    let body = json!({"seats": 9}).to_string();
    let v = ann.request(
        "POST",
        "/v1/games",
        Some(&body),
        &[
            ("Content-Type", "application/json"),
            ("Accept-Language", "pt-BR"),
        ],
    );
    v.problem(400, "validation-failed");
    assert_eq!(v.json["title"], "Requisição inválida");
    let fields: Vec<&str> = v.json["errors"]
        .as_array()
        .map(|a| a.iter().filter_map(|e| e["field"].as_str()).collect())
        .unwrap_or_default();
    assert!(!fields.is_empty(), "{}", v.text);
    assert_eq!(
        v.json["detail"],
        format!("A requisição é inválida: {}.", fields.join(", "))
    );
    // and an English player reads English whatever the request asks
    let ben = app.user("ben");
    assert_eq!(get_in(&ben, gone, "pt-BR").json["title"], "No such game");
}

crate::both!(
    illegal_actions,
    no_figure_left,
    game_lifecycle_problems,
    bad_input,
    username_taken,
    problems_in_the_readers_language,
);
