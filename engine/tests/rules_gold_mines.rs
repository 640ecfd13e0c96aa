//! The Gold Mines as the rulebook states it (`shared/rules/gold-mines.md`): G1–G5.

mod common;

use common::{Table, BLUE, GREEN, RED};
use tilepost_engine::expansions::minis::{gold_points, gold_round_robin, GoldPile};
use tilepost_engine::{Effect, FeatureKind, Phase, Pos};

const YELLOW: u8 = 3;

#[test]
fn g1_the_owner_takes_every_ingot_of_a_completed_city() {
    let mut t = Table::with(&["gold_mines"], 2, &["gm/06-crrc", "base/E"]);
    // 1. Red: (0,1) city E–S, road W–N, and a knight. One ingot on (0,1); the second goes
    //    on (0,0), the only tile around (no decision needed).
    t.place(0, 1, 180);
    assert_eq!(t.edges(0, 1), "RCCR");
    assert_eq!(t.game.phase(), tilepost_engine::Phase::PlaceFigure);
    assert_eq!(t.game.ingots_at(Pos::new(0, 1)), 1);
    assert_eq!(t.game.ingots_at(Pos::new(0, 0)), 1);
    t.figure("E");
    // 2. Blue closes the city {(0,0),(0,1),(1,1)}: 3 tiles.
    t.place(1, 1, 270).pass();
    assert_eq!(t.scored()[0], (FeatureKind::City, 6, vec![RED], false));
    assert!(t.last.contains(&Effect::GoldTaken {
        player: RED,
        ingots: 2
    }));
    assert_eq!(t.game.players()[RED as usize].gold, 2);
    assert_eq!(t.game.ingots_at(Pos::new(0, 1)), 0);
    // at the end: 2 ingots × 1
    assert!(t.is_over());
    assert_eq!(t.scores(), vec![6 + 2, 0]);
    t.assert_replays();
}

#[test]
fn the_second_ingot_is_a_decision_when_several_tiles_surround_the_gold_tile() {
    let mut t = Table::with(&["gold_mines"], 2, &["base/U", "gm/01-frrf"]);
    t.place(1, 0, 0).pass();
    // (1,-1): monastery, road E–S... placed with its N field against (1,0)
    t.place(1, -1, 0);
    assert_eq!(t.game.phase(), Phase::PlaceIngot);
    let targets = t.game.ingot_targets();
    assert_eq!(targets, vec![Pos::new(0, 0), Pos::new(1, 0)]);
    assert_eq!(
        t.try_play(tilepost_engine::Action::PlaceIngot { x: 5, y: 5 })
            .unwrap_err()
            .code(),
        "illegal-placement"
    );
    t.try_play(tilepost_engine::Action::PlaceIngot { x: 0, y: 0 })
        .expect("a tile around the gold tile");
    assert_eq!(t.game.ingots_at(Pos::new(0, 0)), 1);
    assert_eq!(t.game.ingots_at(Pos::new(1, -1)), 1);
    assert_eq!(t.game.phase(), Phase::PlaceFigure);
    t.pass();
    t.assert_replays();
}

fn pile(ingots: u8, claimants: &[u8], x: i32) -> GoldPile {
    GoldPile {
        ingots,
        claimants: claimants.iter().fold(0, |m, p| m | (1 << p)),
        pos: Pos::new(x, 0),
    }
}

#[test]
fn g2_tie_round_robin_from_the_active_player() {
    // a road of Red and Blue completed by Blue; its tiles hold 3 ingots
    let mut piles = [pile(2, &[RED, BLUE], 0), pile(1, &[RED, BLUE], 1)];
    let taken = gold_round_robin(&mut piles, BLUE, 3);
    assert_eq!((taken[BLUE as usize], taken[RED as usize]), (2, 1));
    // Green (no claim) completed it: start with the first claimant clockwise (Red)
    let mut piles = [pile(2, &[RED, BLUE], 0), pile(1, &[RED, BLUE], 1)];
    let taken = gold_round_robin(&mut piles, GREEN, 3);
    assert_eq!((taken[RED as usize], taken[BLUE as usize]), (2, 1));
}

#[test]
fn g3_a_monastery_collects_from_its_nine_tiles() {
    let mut piles = [pile(1, &[RED], 0), pile(1, &[RED], 1), pile(2, &[RED], 2)];
    let taken = gold_round_robin(&mut piles, RED, 2);
    assert_eq!(taken[RED as usize], 4);
}

#[test]
fn g4_two_features_share_a_gold_tile() {
    // X (city of Red and road of Blue) 1 ingot; Y (road only) 1 ingot
    let x = || pile(1, &[RED, BLUE], 0);
    let y = || pile(1, &[BLUE], 1);
    let taken = gold_round_robin(&mut [x(), y()], RED, 2);
    assert_eq!((taken[RED as usize], taken[BLUE as usize]), (1, 1));
    let taken = gold_round_robin(&mut [x(), y()], BLUE, 2);
    assert_eq!((taken[RED as usize], taken[BLUE as usize]), (0, 2));
}

#[test]
fn g5_final_values() {
    assert_eq!(gold_points(5), 10);
    assert_eq!(gold_points(3), 3);
    assert_eq!(gold_points(10), 40);
    assert_eq!(gold_points(7), 21);
    assert_eq!(gold_points(0), 0);
    assert_eq!(gold_points(1), 1);
    assert_eq!(gold_points(4), 8);
    assert_eq!(gold_points(16), 64);
    let _ = YELLOW;
}
