//! House rules (`docs/house-rules.md`): the catalog of variants and presets, how a game's
//! variants are stored in its creation event and validated, and the variants that leave an
//! expansion's figures in the box. The scoring variants are tested with the rules they
//! change (`rules_base.rs`, `rules_abbot.rs`, `rules_robbers.rs`, `rules_flier.rs`,
//! `rules_mage_witch.rs`).

mod common;

use std::collections::BTreeMap;

use common::{Table, RED};
use tilepost_engine::rules::{FieldScoring, SmallCity};
use tilepost_engine::{
    rule_catalog, Action, Event, Expansion, FigureKind, Game, GameConfig, HouseRules, PlayError,
    ReplayError, RuleError, SetupError,
};

fn config(rules: HouseRules) -> GameConfig {
    GameConfig {
        players: 2,
        expansions: vec![Expansion::Abbot, Expansion::InnsCathedrals],
        tile_order: None,
        seed: 42,
        rules,
    }
}

#[test]
fn the_catalog_lists_every_variant_with_its_values_and_default() {
    let cat = rule_catalog();
    let names: Vec<&str> = cat.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(
        names,
        vec![
            "small_city_points",
            "field_scoring",
            "unplaceable_tile",
            "abbot_completed_points",
            "robbers_end_bonus_3",
            "big_follower",
            "builder",
            "pig",
            "mayor",
            "wagon",
            "barn",
            "flier_landing",
            "magic_meeting",
            "tiles_in_hand",
        ]
    );
    let standard = HouseRules::default();
    for v in &cat.variants {
        assert!(v.values.len() >= 2, "{} has an alternative", v.name);
        assert_eq!(standard.get(&v.name), Ok(v.default.as_str()));
        assert!(!v.description.is_empty());
        if let Some(e) = &v.expansion {
            assert!(Expansion::from_id(e).is_some(), "{}: {e}", v.name);
        }
    }
    let small = &cat.variants[0];
    assert_eq!(
        (small.values.clone(), small.default.as_str()),
        (vec!["4".to_string(), "2".to_string()], "4")
    );
    let presets: Vec<&str> = cat.presets.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        presets,
        vec!["standard", "first_edition", "tournament", "tiles_only"]
    );
    let first = HouseRules::preset("first_edition").unwrap();
    assert_eq!(first.small_city, SmallCity::Two);
    assert_eq!(first.field_scoring, FieldScoring::PerCity);
}

#[test]
fn the_catalog_serialises_as_json() {
    let json = serde_json::to_value(rule_catalog()).unwrap();
    assert_eq!(json["variants"][0]["name"], "small_city_points");
    assert_eq!(json["variants"][0]["default"], "4");
    assert_eq!(json["variants"][3]["expansion"], "abbot");
    assert!(json["variants"][0].get("expansion").is_none());
    assert_eq!(json["presets"][1]["rules"]["field_scoring"], "per_city");
    let back: tilepost_engine::RuleCatalog = serde_json::from_value(json).unwrap();
    assert_eq!(back, rule_catalog());
}

#[test]
fn a_standard_game_stores_no_rules_and_old_events_read_as_standard() {
    let (_, created) = Game::new(&config(HouseRules::default())).unwrap();
    let (kind, version, payload) = created.encode();
    assert_eq!((kind, version), ("game_created", 1));
    assert!(!payload.contains("rules"), "{payload}");
    // a creation stored before house rules existed
    let old = r#"{"seed":"42","players":2,"expansions":["abbot","inns_cathedrals"]}"#;
    let ev = Event::decode("game_created", 1, old).unwrap();
    assert_eq!(ev, created);
    assert_eq!(
        Game::replay(&[ev]).unwrap(),
        Game::new(&config(HouseRules::default())).unwrap().0
    );
}

#[test]
fn a_game_with_house_rules_stores_the_values_that_differ() {
    let mut rules = HouseRules::default();
    rules.set("field_scoring", "per_city").unwrap();
    rules.set("big_follower", "off").unwrap();
    let (game, created) = Game::new(&config(rules)).unwrap();
    let (_, _, payload) = created.encode();
    let json: serde_json::Value = serde_json::from_str(&payload).unwrap();
    assert_eq!(
        json["rules"],
        serde_json::json!({"big_follower": "off", "field_scoring": "per_city"})
    );
    let back = Event::decode("game_created", 1, &payload).unwrap();
    assert_eq!(back, created);
    assert_eq!(Game::replay(&[back]).unwrap(), game);
    assert_eq!(game.house_rules(), rules);
}

#[test]
fn unknown_variants_and_values_in_a_log_are_setup_errors() {
    for (name, value, error) in [
        (
            "house_of_cards",
            "on",
            RuleError::UnknownRule("house_of_cards".into()),
        ),
        (
            "small_city_points",
            "3",
            RuleError::BadValue {
                rule: "small_city_points".into(),
                value: "3".into(),
                allowed: "4, 2".into(),
            },
        ),
    ] {
        let created = Event::GameCreated {
            seed: "1".into(),
            players: 2,
            expansions: vec![],
            tile_order: None,
            rules: BTreeMap::from([(name.to_string(), value.to_string())]),
        };
        assert_eq!(
            Game::replay(&[created]),
            Err(ReplayError::Setup {
                index: 0,
                source: SetupError::Rules(error.clone()),
            })
        );
        let mut r = HouseRules::default();
        assert_eq!(r.set(name, value), Err(error));
        assert!(r.is_standard(), "a refused value changes nothing");
    }
    assert_eq!(
        HouseRules::from_preset_and_values(Some("anarchy"), &BTreeMap::new()),
        Err(RuleError::UnknownPreset("anarchy".into()))
    );
    let e: SetupError = RuleError::UnknownPreset("anarchy".into()).into();
    assert_eq!(e.to_string(), "unknown house-rule preset anarchy");
}

#[test]
fn a_preset_with_values_on_top() {
    let values = BTreeMap::from([("field_scoring".to_string(), "per_field".to_string())]);
    let r = HouseRules::from_preset_and_values(Some("first_edition"), &values).unwrap();
    assert_eq!(r.small_city, SmallCity::Two);
    assert_eq!(r.field_scoring, FieldScoring::PerField);
    assert_eq!(
        r.to_values(),
        BTreeMap::from([
            ("small_city_points".to_string(), "2".to_string()),
            ("unplaceable_tile".to_string(), "reshuffled".to_string())
        ])
    );
}

/// The supply of a 2-player game with `expansions` and the variant `name` at `value`.
fn supply(expansions: &[&str], name: &str, value: &str) -> [u8; FigureKind::COUNT] {
    let mut rules = HouseRules::default();
    rules.set(name, value).unwrap();
    let t = Table::with_rules(expansions, 2, &["base/U"], 1, rules);
    t.game.players()[0].supply
}

#[test]
fn an_expansions_figures_can_stay_in_the_box() {
    for (exp, name, kind) in [
        ("inns_cathedrals", "big_follower", FigureKind::BigFollower),
        ("traders_builders", "builder", FigureKind::Builder),
        ("traders_builders", "pig", FigureKind::Pig),
        ("abbey_mayor", "mayor", FigureKind::Mayor),
        ("abbey_mayor", "wagon", FigureKind::Wagon),
        ("abbey_mayor", "barn", FigureKind::Barn),
    ] {
        let with = supply(&[exp], name, "on");
        let without = supply(&[exp], name, "off");
        assert_eq!(with[kind as usize], 1, "{name}");
        assert_eq!(without[kind as usize], 0, "{name}");
        // nothing else changes
        let mut rest = without;
        rest[kind as usize] = 1;
        assert_eq!(rest, with, "{name}");
    }
    // without the expansion the variant changes nothing
    assert_eq!(
        supply(&[], "big_follower", "on"),
        supply(&[], "big_follower", "off")
    );
}

#[test]
fn without_the_big_follower_none_is_listed_or_accepted() {
    let mut rules = HouseRules::default();
    rules.set("big_follower", "off").unwrap();
    let mut t = Table::with_rules(&["inns_cathedrals"], 2, &["base/U", "base/U"], 1, rules);
    t.place(1, 0, 0);
    assert!(!t.game.legal_actions().iter().any(|a| matches!(
        a,
        Action::PlaceFigure {
            figure: FigureKind::BigFollower,
            ..
        }
    )));
    assert!(matches!(
        t.try_figure_kind(FigureKind::BigFollower, "E"),
        Err(PlayError::NoFigureLeft(_))
    ));
    t.figure("E");
    assert_eq!(t.supply(RED), 6);
    t.assert_replays();
}
