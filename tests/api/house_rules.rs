//! House rules through the API: the catalog, creation with a preset and variants, the
//! rules in force in the game view and the export, and a variant's score.

use serde_json::{json, Value};
use tilepost_engine::{Action, FigureKind, Game, GameConfig, HouseRules};

use crate::common::*;

fn catalog_and_validation(app: &TestApp) {
    let a = app.user("ann");
    let c = app.anon().get("/v1/rules");
    let cat = c.ok().clone();
    let names: Vec<&str> = cat["variants"]
        .as_array()
        .expect("variants")
        .iter()
        .filter_map(|v| v["name"].as_str())
        .collect();
    for n in [
        "small_city_points",
        "field_scoring",
        "unplaceable_tile",
        "abbot_completed_points",
        "robbers_end_bonus_3",
    ] {
        assert!(names.contains(&n), "{n} in {names:?}");
    }
    let presets: Vec<&str> = cat["presets"]
        .as_array()
        .expect("presets")
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert!(
        presets.contains(&"standard") && presets.contains(&"first_edition"),
        "{presets:?}"
    );
    // every variant's default is its first value
    for v in cat["variants"].as_array().expect("variants") {
        assert_eq!(v["values"][0], v["default"], "{v}");
    }
    let bad = |options: Value, field: &str| {
        let r = a.post("/v1/games", json!({"seats": 2, "options": options}));
        r.problem(400, "validation-failed");
        assert!(r.text.contains(field), "{}", r.text);
    };
    bad(json!({"preset": "nope"}), "options.preset");
    bad(
        json!({"rules": {"small_city_points": "3"}}),
        "options.rules",
    );
    bad(json!({"rules": {"no_such_rule": "on"}}), "options.rules");
    // a preset and a variant on top of it, shown before and after the start
    let g = a.post(
        "/v1/games",
        json!({"seats": 2, "options": {"preset": "first_edition", "rules": {"abbot_completed_points": "7"}}}),
    );
    let v = g.ok().clone();
    let id = v["id"].as_str().expect("id").to_string();
    let expected = {
        let mut r = HouseRules::preset("first_edition").expect("preset");
        r.set("abbot_completed_points", "7").expect("value");
        serde_json::to_value(r.to_values()).expect("json")
    };
    assert_eq!(v["rules"], expected);
    app.user("ben")
        .post(&format!("/v1/games/{id}/join"), json!({}))
        .ok();
    assert_eq!(a.get(&format!("/v1/games/{id}")).ok()["rules"], expected);
    // a standard game shows none
    let s = a.post("/v1/games", json!({"seats": 2}));
    assert_eq!(s.ok()["rules"], json!({}));
}

/// The small city's value under both settings: the same tiles, the same move, 4 or 2.
fn small_city_scores_by_the_variant(app: &TestApp) {
    let (a, b) = (app.user("ann"), app.user("ben"));
    let tiles = ["base/E", "base/E", "base/E", "base/E"];
    for (value, points) in [("4", 4), ("2", 2)] {
        let mut rules = HouseRules::default();
        rules.set("small_city_points", value).expect("value");
        // find, in the engine, the placement and follower that close the start tile's city
        let config = GameConfig {
            players: 2,
            expansions: Vec::new(),
            tile_order: Some(tiles.iter().map(|t| t.to_string()).collect()),
            seed: 1,
            rules,
        };
        let (game, _) = Game::new(&config).expect("game");
        let mut found = None;
        for place in game.legal_actions() {
            let mut g = game.clone();
            g.play(0, &place).expect("listed");
            for f in g.legal_actions() {
                if !matches!(
                    f,
                    Action::PlaceFigure {
                        figure: FigureKind::Follower,
                        ..
                    }
                ) {
                    continue;
                }
                let mut h = g.clone();
                h.play(0, &f).expect("listed");
                if h.players()[0].score > 0 && found.is_none() {
                    assert_eq!(h.players()[0].score, points);
                    found = Some((place.clone(), f.clone()));
                }
            }
        }
        let (place, figure) = found.expect("a move that closes the city");
        let g = a.post(
            "/v1/games",
            json!({"seats": 2, "options": {"tile_order": tiles, "rules": {"small_city_points": value}}}),
        );
        let id = g.ok()["id"].as_str().expect("id").to_string();
        b.post(&format!("/v1/games/{id}/join"), json!({})).ok();
        let v = a.get(&format!("/v1/games/{id}")).ok().clone();
        let r = a.post(
            &format!("/v1/games/{id}/moves"),
            json!({"expected_version": v["version"], "actions": [place, figure]}),
        );
        let events = r.ok()["events"].clone();
        assert!(
            events.to_string().contains(&format!("\"points\":{points}")),
            "{events}"
        );
        let v = a.get(&format!("/v1/games/{id}")).ok().clone();
        assert_eq!(v["players"][0]["score"], points);
        // the stored creation carries the variant when it is not the standard one
        let export = a.get(&format!("/v1/games/{id}/export")).ok().clone();
        let created = &export["events"][0]["payload"];
        if value == "4" {
            assert!(created.get("rules").is_none(), "{created}");
        } else {
            assert_eq!(created["rules"], json!({"small_city_points": "2"}));
        }
    }
}

fn tile(x: i32, y: i32, r: i32, t: Option<&str>) -> Value {
    let mut a = json!({"type": "place_tile", "x": x, "y": y, "rotation": r});
    if let Some(t) = t {
        a["tile"] = json!(t);
    }
    a
}

fn figure(spot: &str) -> Value {
    json!({"type": "place_figure", "figure": "follower", "spot": spot})
}

fn hand_game(players: &[&Client], tiles: &[&str]) -> String {
    let g = players[0].post(
        "/v1/games",
        json!({"seats": players.len(), "options": {"tile_order": tiles, "rules": {"tiles_in_hand": "2"}}}),
    );
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().expect("id").to_string();
    for p in &players[1..] {
        p.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    }
    id
}

fn play(c: &Client, id: &str, actions: Value) -> Resp {
    let v = c.get(&format!("/v1/games/{id}")).json["version"].clone();
    c.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": v, "actions": actions}),
    )
}

/// Tiles in hand through HTTP: the catalog lists the variant; a game with a fixed tile
/// order plays out both hands to exact scores; each player sees their own hand, the
/// others (and anonymous readers) only its size.
fn tiles_in_hand_play_out_and_stay_hidden(app: &TestApp) {
    let (a, b, anon) = (app.user("ann"), app.user("ben"), app.anon());
    let cat = anon.get("/v1/rules").ok().clone();
    let v = cat["variants"]
        .as_array()
        .expect("variants")
        .iter()
        .find(|v| v["name"] == "tiles_in_hand")
        .cloned()
        .expect("tiles_in_hand in the catalog");
    assert_eq!(v["values"], json!(["1", "2", "3"]));
    let tiles = ["base/E", "base/U", "base/E", "base/B", "base/V"];
    let id = hand_game(&[&a, &b], &tiles);
    let path = format!("/v1/games/{id}");
    // Ann's hand is hers: she sees it, Ben and anonymous readers see its size
    let mine = a.get(&path).ok().clone();
    assert_eq!(mine["hand"], json!(["base/E", "base/U"]));
    assert_eq!(mine["players"][0]["hand"], 2);
    assert_eq!(mine["players"][1]["hand"], 0);
    assert_eq!(mine["pending"]["tile"], Value::Null);
    let theirs = b.get(&path).ok().clone();
    assert_eq!(theirs["hand"], json!([]));
    assert_eq!(theirs["players"][0]["hand"], 2);
    assert!(anon.get(&path).ok().get("hand").is_none());
    let acts = a.get(&format!("{path}/actions")).ok().clone();
    let listed = acts["actions"].as_array().expect("actions");
    assert!(listed.iter().all(|x| x["tile"].is_string()), "{acts}");
    assert!(listed.iter().any(|x| x["tile"] == "base/U"));
    let pl = a.get(&format!("{path}/placements")).ok().clone();
    assert!(pl["placements"]
        .as_array()
        .expect("placements")
        .iter()
        .any(|p| p["tile"] == "base/E"));
    for c in [&b, &anon] {
        assert_eq!(c.get(&format!("{path}/actions")).ok()["actions"], json!([]));
        assert_eq!(
            c.get(&format!("{path}/placements")).ok()["placements"],
            json!([])
        );
    }
    // the hand must be named when it holds two kinds, and only its tiles
    play(&a, &id, json!([tile(0, 1, 180, None)])).problem(422, "tile-not-named");
    play(&a, &id, json!([tile(0, 1, 180, Some("base/B"))])).problem(422, "tile-not-in-hand");
    // 1. Ann closes the start tile's city: 4
    let r = play(
        &a,
        &id,
        json!([tile(0, 1, 180, Some("base/E")), figure("S")]),
    );
    let events = r.ok()["events"].clone();
    assert!(events.to_string().contains("\"points\":4"), "{events}");
    // Ben's draws are named to Ben alone
    let drawn = |c: &Client| {
        let h = c.get(&format!("{path}/events?limit=200")).ok().clone();
        h["events"]
            .as_array()
            .expect("events")
            .iter()
            .flat_map(|e| e["consequences"].as_array().cloned().unwrap_or_default())
            .filter(|c| c["type"] == "tile_to_hand" && c["seat"] == 1)
            .collect::<Vec<Value>>()
    };
    assert!(drawn(&a).iter().all(|c| c.get("tile").is_none()));
    assert!(drawn(&anon).iter().all(|c| c.get("tile").is_none()));
    assert_eq!(
        drawn(&b)
            .iter()
            .map(|c| c["tile"].clone())
            .collect::<Vec<_>>(),
        vec![json!("base/E"), json!("base/B")]
    );
    assert!(
        events.to_string().contains("tile_to_hand"),
        "the move answer shows Ben's draw: {events}"
    );
    assert!(
        !events.to_string().contains("\"tile\":\"base/B\""),
        "Ben's hand in Ann's answer: {events}"
    );
    // 2. Ben: the monastery; 3. Ann: the road; 4. Ben: E; 5. Ann: V
    play(
        &b,
        &id,
        json!([tile(0, -1, 0, Some("base/B")), figure("C")]),
    )
    .ok();
    play(&a, &id, json!([tile(1, 0, 0, Some("base/U")), figure("E")])).ok();
    play(&b, &id, json!([tile(1, 1, 0, None), {"type": "pass"}])).ok();
    play(&a, &id, json!([tile(2, 0, 0, None), {"type": "pass"}])).ok();
    let end = a.get(&path).ok().clone();
    assert_eq!(end["status"], "finished", "{end}");
    assert_eq!(end["players"][0]["score"], 7);
    assert_eq!(end["players"][1]["score"], 3);
    // the export replays
    let export = a.get(&format!("{path}/export")).ok().clone();
    assert_eq!(
        export["events"][0]["payload"]["rules"],
        json!({"tiles_in_hand": "2"})
    );
}

/// Drops what differs between two games whatever their play: ids and times.
fn normalised(v: &Value, id: &str) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.retain(|k, _| k != "at" && !k.ends_with("_at"));
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v: Value = serde_json::from_str(&v.to_string().replace(id, "GAME")).expect("json");
    strip(&mut v);
    v
}

/// Two games whose first player holds different tiles (the same tiles in all, another
/// order): everything the second player and anonymous readers are shown is the same, and
/// so is the first player's move answer once the second player has drawn.
fn another_players_hand_is_never_shown(app: &TestApp) {
    let (a, b, anon) = (app.user("ann"), app.user("ben"), app.anon());
    let orders = [
        ["base/E", "base/U", "base/D", "base/X", "base/B"],
        ["base/E", "base/D", "base/U", "base/X", "base/B"],
    ];
    let ids: Vec<String> = orders.iter().map(|o| hand_game(&[&a, &b], o)).collect();
    let seen = |c: &Client| -> Vec<Value> {
        ids.iter()
            .map(|id| {
                let mut all = Vec::new();
                for p in ["", "/actions", "/placements", "/events?limit=200"] {
                    let r = c.get(&format!("/v1/games/{id}{p}"));
                    all.push(normalised(&r.ok().clone(), id));
                }
                Value::Array(all)
            })
            .collect()
    };
    for c in [&b, &anon] {
        let v = seen(c);
        assert_eq!(v[0], v[1], "the hands differ, the view must not");
    }
    assert_ne!(seen(&a)[0], seen(&a)[1], "Ann sees her own hand");
    // Ann plays the tile both hands share; Ben draws; Ann's answer shows the same
    let answers: Vec<Value> = ids
        .iter()
        .map(|id| {
            let r = play(
                &a,
                id,
                json!([tile(0, 1, 180, Some("base/E")), {"type": "pass"}]),
            );
            normalised(&r.ok().clone(), id)
        })
        .collect();
    assert_eq!(answers[0], answers[1]);
    let v = seen(&anon);
    assert_eq!(v[0], v[1]);
}

crate::both!(
    catalog_and_validation,
    small_city_scores_by_the_variant,
    tiles_in_hand_play_out_and_stay_hidden,
    another_players_hand_is_never_shown
);
