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

crate::both!(catalog_and_validation, small_city_scores_by_the_variant);
