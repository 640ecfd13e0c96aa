//! The Flier as the rulebook states it (`shared/rules/flier.md`): F1–F3. The die is
//! drawn from the game's seed, so each test picks a seed that rolls what it needs.

mod common;

use common::{Table, BLUE, GREEN, RED};
use tilepost_engine::rng::Rng;
use tilepost_engine::{Action, Effect, FeatureKind, FigureKind, HouseRules, Phase, PlayError, Pos};

/// A seed whose first roll of the die (faces 1,1,2,2,3,3) is `d`.
fn seed_rolling(d: u64) -> u64 {
    (0..).find(|s| 1 + Rng::new(*s).below(3) == d).unwrap_or(0)
}

/// T0; (1,0) base/D; Blue's knight on (0,1) base/G (city N–S, open to the north);
/// Green places elsewhere; Red places the flying machine at (2,0), pointing west.
fn flier_board(roll: u64) -> Table {
    flier_board_under(roll, HouseRules::default())
}

/// [`flier_board`] under house rules.
fn flier_board_under(roll: u64, rules: HouseRules) -> Table {
    let mut t = Table::with_rules(
        &["flying_machines"],
        3,
        &[
            "base/D",
            "base/G",
            "base/B",
            "fm/05-frfr",
            "base/U",
            "base/E",
        ],
        seed_rolling(roll),
        rules,
    );
    t.place(1, 0, 0).pass(); // Red
    t.place(0, 1, 90).figure("N"); // Blue's knight
    assert_eq!(t.edges(0, 1), "CFCF");
    t.place(0, -1, 0).pass(); // Green, elsewhere
    t.place(2, 0, 0); // Red: the flying machine, direction W
    assert!(t.game.legal_actions().contains(&Action::Fly {
        figure: FigureKind::Follower
    }));
    t.try_play(Action::Fly {
        figure: FigureKind::Follower,
    })
    .expect("the follower takes off");
    t
}

#[test]
fn f1_landing_in_an_occupied_city_then_a_tie() {
    let mut t = flier_board(2);
    assert!(t.last.contains(&Effect::DieRolled {
        player: RED,
        value: 2,
        x: 0,
        y: 0
    }));
    assert_eq!(t.game.phase(), Phase::FlierLanding);
    assert_eq!(t.game.flight_target(), Some(Pos::new(0, 0)));
    // the city cap (Blue's, incomplete) and the road are legal; no field
    let mut spots: Vec<String> = t
        .game
        .legal_actions()
        .into_iter()
        .map(|a| match a {
            Action::Land { spot } => spot,
            other => panic!("{other:?}"),
        })
        .collect();
    spots.sort();
    assert_eq!(spots, vec!["E".to_string(), "N".to_string()]);
    assert_eq!(
        t.try_play(Action::Land { spot: "SSW".into() }),
        Err(PlayError::CannotLand("SSW".into()))
    );
    t.try_play(Action::Land { spot: "N".into() })
        .expect("land in Blue's city");
    assert_eq!(t.current(), BLUE);
    t.place(3, 0, 0).pass(); // Blue
    t.place(0, 2, 180).pass(); // Green closes {(0,0),(0,1),(0,2)}
    assert_eq!(
        t.scored()[0],
        (FeatureKind::City, 6, vec![RED, BLUE], false)
    );
    t.assert_replays();
}

#[test]
fn f2_a_roll_of_one_lands_next_door() {
    let mut t = flier_board(1);
    assert_eq!(t.game.flight_target(), Some(Pos::new(1, 0)));
    let mut spots: Vec<String> = t
        .game
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Land { spot } => Some(spot),
            _ => None,
        })
        .collect();
    spots.sort();
    // (1,0)'s city cap and the road through (0,0), (1,0), (2,0)
    assert_eq!(spots, vec!["E".to_string(), "N".to_string()]);
    t.try_play(Action::Land { spot: "E".into() }).expect("road");
    t.assert_replays();
}

#[test]
fn f2_a_roll_of_three_finds_no_tile_and_the_follower_stays_home() {
    let t = flier_board(3);
    assert!(t.last.contains(&Effect::DieRolled {
        player: RED,
        value: 3,
        x: -1,
        y: 0
    }));
    // nothing at (-1,0): the turn goes on without a figure
    assert_eq!(t.current(), BLUE);
    assert_eq!(t.supply(RED), 7);
    t.assert_replays();
}

#[test]
fn f3_a_big_follower_flies_onto_an_occupied_road() {
    let mut t = Table::with_seed(
        &["flying_machines", "inns_cathedrals"],
        2,
        &["base/W", "base/U", "fm/05-frfr", "base/W"],
        seed_rolling(2),
    );
    t.place(-1, 0, 0).pass(); // Red: junction, the road's west end
    t.place(1, 0, 0).figure("E"); // Blue: highwayman
    t.place(2, 0, 0); // Red: flying machine, west
    t.try_play(Action::Fly {
        figure: FigureKind::BigFollower,
    })
    .expect("the big follower flies");
    t.try_play(Action::Land { spot: "E".into() })
        .expect("onto Blue's road");
    t.place(3, 0, 0).pass(); // Blue closes the 5-tile road
    assert_eq!(t.scored()[0], (FeatureKind::Road, 5, vec![RED], false));
    assert_eq!(t.scores(), vec![5, 0]);
    let _ = GREEN;
    t.assert_replays();
}

/// A seed whose first rolls are `rolls`.
fn seed_rolling_seq(rolls: &[u64]) -> u64 {
    (0..)
        .find(|s| {
            let mut r = Rng::new(*s);
            rolls.iter().all(|d| 1 + r.below(3) == *d)
        })
        .unwrap_or(0)
}

/// Blue's monk on the monastery at (0,-1) with 6 of its 8 neighbours; Red's flying machine
/// at (0,-2) points north.
fn monk_and_flier(rolls: &[u64], extra: &[&str]) -> Table {
    let mut tiles = vec![
        "base/U",
        "base/B",
        "base/U",
        "base/B",
        "base/B",
        "base/B",
        "fm/02-ffff",
        "base/B",
    ];
    tiles.extend_from_slice(extra);
    let mut t = Table::with_seed(&["flying_machines"], 2, &tiles, seed_rolling_seq(rolls));
    t.place(1, 0, 0).pass(); // Red
    t.place(0, -1, 0).figure("C"); // Blue's monk
    t.place(-1, 0, 0).pass();
    t.place(1, -1, 0).pass();
    t.place(-1, -1, 0).pass();
    t.place(1, -2, 0).pass(); // 6 neighbours
    t.place(0, -2, 90); // Red: the flying machine, turned to point north
    t.try_play(Action::Fly {
        figure: FigureKind::Follower,
    })
    .expect("fly");
    t
}

#[test]
fn f5_a_flier_joins_a_monk_and_both_score() {
    let mut t = monk_and_flier(&[1], &[]);
    assert_eq!(t.game.flight_target(), Some(Pos::new(0, -1)));
    assert_eq!(
        t.game.legal_actions(),
        vec![Action::Land { spot: "C".into() }],
        "the monastery is occupied but incomplete"
    );
    t.try_play(Action::Land { spot: "C".into() }).expect("land");
    t.place(-1, -2, 0).pass(); // Blue: the 8th neighbour
    assert_eq!(
        t.scored()[0],
        (FeatureKind::Monastery, 9, vec![RED, BLUE], false)
    );
    assert_eq!((t.supply(RED), t.supply(BLUE)), (7, 7));
    t.assert_replays();
}

#[test]
fn f4_nothing_legal_on_the_target_tile() {
    // after F5, Red's next flier from (0,-3) rolls 2: the complete monastery at (0,-1)
    let mut t = monk_and_flier(&[1, 2], &["fm/02-ffff", "base/B"]);
    t.try_play(Action::Land { spot: "C".into() }).expect("land");
    t.place(-1, -2, 0).pass(); // completes the monastery
    t.place(0, -3, 90);
    t.try_play(Action::Fly {
        figure: FigureKind::Follower,
    })
    .expect("fly");
    assert!(t.last.contains(&Effect::DieRolled {
        player: RED,
        value: 2,
        x: 0,
        y: -1
    }));
    // a complete monastery and a field: nowhere to land; the follower stays home
    assert_eq!(t.current(), BLUE);
    assert_eq!(t.supply(RED), 7);
    t.assert_replays();
}

#[test]
fn house_rule_flier_landing_mandatory_refuses_a_pass() {
    let mut t = flier_board(2);
    assert!(!t.game.legal_actions().contains(&Action::Pass));
    assert!(matches!(
        t.try_play(Action::Pass),
        Err(PlayError::WrongPhase { .. })
    ));
}

#[test]
fn house_rule_flier_landing_optional_keeps_the_follower_home() {
    let mut rules = HouseRules::default();
    rules.set("flier_landing", "optional").unwrap();
    let mut t = flier_board_under(2, rules);
    assert_eq!(t.game.phase(), Phase::FlierLanding);
    // the two landings of F1, and the pass
    let options = t.game.legal_actions();
    assert_eq!(options.len(), 3);
    assert!(options.contains(&Action::Pass));
    t.try_play(Action::Pass).expect("the follower stays home");
    assert_eq!(t.log.last().map(|e| e.type_name()), Some("landing_skipped"));
    assert_eq!(t.supply(RED), 7);
    assert_eq!(t.current(), BLUE);
    t.place(3, 0, 0).pass(); // Blue
    t.place(0, 2, 180).pass(); // Green closes Blue's city, Blue alone in it
    assert_eq!(t.scored()[0], (FeatureKind::City, 6, vec![BLUE], false));
    t.assert_replays();
}

#[test]
fn house_rule_flier_landing_optional_still_lets_the_follower_land() {
    let mut rules = HouseRules::default();
    rules.set("flier_landing", "optional").unwrap();
    let mut t = flier_board_under(2, rules);
    t.try_play(Action::Land { spot: "N".into() })
        .expect("land in Blue's city");
    t.place(3, 0, 0).pass();
    t.place(0, 2, 180).pass();
    assert_eq!(
        t.scored()[0],
        (FeatureKind::City, 6, vec![RED, BLUE], false)
    );
    t.assert_replays();
}
