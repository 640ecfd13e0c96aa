//! Inns & Cathedrals as the rulebook states it (`shared/rules/inns-cathedrals.md`):
//! examples I1–I5.

mod common;

use common::{Table, BLUE, RED};
use tilepost_engine::{FeatureKind, FigureKind, Game, GameConfig, SetupError};

use FeatureKind::{City, Road};

fn ic(players: u8, tiles: &[&str]) -> Table {
    Table::with(&["inns_cathedrals"], players, tiles)
}

// ----- I1 / I2 — roads with an inn ------------------------------------------------------------

fn inn_road(tiles: &[&str]) -> Table {
    let mut t = ic(3, tiles);
    // 1. Red: (1,0) straight road with an inn, and a highwayman.
    t.place(1, 0, 0);
    assert_eq!(t.edges(1, 0), "FRFR");
    t.figure("E");
    // 2. Blue: (2,0) junction; its W road segment ends there.
    t.place(2, 0, 0).pass();
    assert_eq!(t.edges(2, 0), "FRRR");
    t
}

#[test]
fn i1_completed_road_with_an_inn_scores_two_per_tile() {
    let mut t = inn_road(&["ic/15-frfr-garden", "base/W", "base/W"]);
    // 3. Green: (-1,0) junction closes the road {(-1,0),(0,0),(1,0),(2,0)}.
    t.place(-1, 0, 0).pass();
    assert_eq!(t.scored()[0], (Road, 8, vec![RED], false));
    assert_eq!(t.score(RED), 8);
    t.assert_replays();
}

#[test]
fn i2_inn_road_incomplete_at_the_end_scores_nothing() {
    let t = inn_road(&["ic/15-frfr-garden", "base/W"]);
    assert!(t.is_over());
    assert_eq!(t.all_scored(), vec![(Road, 0, vec![RED], true)]);
    assert_eq!(t.score(RED), 0);
}

// ----- I3 / I4 — cathedral cities ---------------------------------------------------------------

fn cathedral(tiles: &[&str]) -> Table {
    let mut t = ic(3, tiles);
    // 1. Red: (0,1) cathedral tile with a knight; its S side joins T0's cap.
    t.place(0, 1, 0).figure("N");
    assert_eq!(t.edges(0, 1), "CCCC");
    // 2. Others: (0,2) cap S, (1,1) cap W.
    t.place(0, 2, 180).pass();
    assert_eq!(t.edges(0, 2), "FFCF");
    t.place(1, 1, 270).pass();
    assert_eq!(t.edges(1, 1), "FFFC");
    t
}

#[test]
fn i3_completed_cathedral_city_scores_three_per_tile() {
    let mut t = cathedral(&["ic/01-cccc", "base/E", "base/E", "base/E"]);
    t.place(-1, 1, 90).pass();
    assert_eq!(t.edges(-1, 1), "FCFF");
    // {(0,0),(0,1),(0,2),(1,1),(-1,1)}: 5 tiles, no pennant, cathedral
    assert_eq!(t.scored()[0], (City, 15, vec![RED], false));
    assert_eq!(t.score(RED), 15);
    t.assert_replays();
}

#[test]
fn i3_variant_with_a_pennant_scores_eighteen() {
    // the same city closed on the east by a cap with a pennant (an Abbey & Mayor tile)
    let mut t = Table::with(
        &["inns_cathedrals", "abbey_mayor"],
        3,
        &["ic/01-cccc", "base/E", "am/09-fffc", "base/E"],
    );
    t.place(0, 1, 0).figure("N");
    t.place(0, 2, 180).pass();
    t.place(1, 1, 0).pass();
    assert_eq!(t.edges(1, 1), "FFFC");
    t.place(-1, 1, 90).pass();
    // (5 tiles + 1 pennant) × 3
    assert_eq!(t.scored()[0], (City, 18, vec![RED], false));
    t.assert_replays();
}

#[test]
fn i4_cathedral_city_incomplete_at_the_end_scores_nothing() {
    let t = cathedral(&["ic/01-cccc", "base/E", "base/E"]);
    assert!(t.is_over());
    assert_eq!(t.all_scored(), vec![(City, 0, vec![RED], true)]);
    assert_eq!(t.score(RED), 0);
}

// ----- I5 — big follower majority -------------------------------------------------------------

/// Row 0 is T0's road extended; below it, a road on row -1 is built in separate pieces
/// that the last tiles join.
#[test]
fn i5_big_follower_ties_two_normal_followers() {
    let mut t = ic(
        2,
        &[
            "base/U", "base/U", "base/U", "base/U", "base/W", "base/W", "base/U", "base/U",
            "base/U", "base/U",
        ],
    );
    t.place(-1, 0, 0).pass(); // Red
    t.place(1, 0, 0).pass(); // Blue
    t.place(-2, 0, 0).pass(); // Red
    t.place(2, 0, 0).pass(); // Blue
    t.place(-2, -1, 0); // Red: junction, its E road end
    t.try_figure_kind(FigureKind::BigFollower, "E")
        .expect("big follower on the road");
    t.place(2, -1, 0).figure("W"); // Blue: junction, its W road end
    t.place(3, 0, 0).pass(); // Red: elsewhere
    t.place(0, -1, 0).figure("E"); // Blue: a separate straight piece
    t.place(-1, -1, 0).pass(); // Red joins the west part
    t.place(1, -1, 0).pass(); // Blue closes the 5-tile road
                              // Red big follower (2) vs Blue 2 normal followers (2): tie
    assert_eq!(t.scored()[0], (Road, 5, vec![RED, BLUE], false));
    assert_eq!(t.scores(), vec![5, 5]);
    let big = t.game.players()[RED as usize].supply[FigureKind::BigFollower as usize];
    assert_eq!(big, 1, "the big follower returns like any follower");
    t.assert_replays();
}

#[test]
fn i5_big_and_normal_follower_beat_two_normal_followers() {
    // The same construction with four separate pieces: Red big + Red normal (3) against
    // Blue's 2 on a 7-tile road.
    let mut t = ic(
        2,
        &[
            "base/U", "base/U", "base/U", "base/U", "base/U", "base/U", "base/W", "base/W",
            "base/U", "base/U", "base/U", "base/U", "base/U",
        ],
    );
    t.place(-1, 0, 0).pass(); // Red
    t.place(1, 0, 0).pass(); // Blue
    t.place(-2, 0, 0).pass(); // Red
    t.place(2, 0, 0).pass(); // Blue
    t.place(-3, 0, 0).pass(); // Red
    t.place(3, 0, 0).pass(); // Blue
    t.place(-3, -1, 0); // Red: junction, E road end
    t.try_figure_kind(FigureKind::BigFollower, "E")
        .expect("big follower");
    t.place(3, -1, 0).figure("W"); // Blue: junction, W road end
    t.place(-1, -1, 0).figure("E"); // Red: separate straight
    t.place(1, -1, 0).figure("E"); // Blue: separate straight
    t.place(-2, -1, 0).pass(); // Red joins
    t.place(0, -1, 0).pass(); // Blue joins
    t.place(2, -1, 0).pass(); // Red closes the road of 7 tiles
    assert_eq!(t.scored()[0], (Road, 7, vec![RED], false));
    assert_eq!(t.scores(), vec![7, 0]);
}

#[test]
fn a_sixth_player_needs_inns_and_cathedrals() {
    let six = |expansions| GameConfig {
        players: 6,
        expansions,
        tile_order: None,
        seed: 3,
        rules: Default::default(),
    };
    assert_eq!(
        Game::new(&six(vec![])).map(|_| ()),
        Err(SetupError::PlayerCount { got: 6, max: 5 })
    );
    assert!(Game::new(&six(vec![tilepost_engine::Expansion::InnsCathedrals])).is_ok());
}

#[test]
fn inns_and_cathedrals_adds_eighteen_tiles_and_a_big_follower() {
    let config = GameConfig {
        players: 2,
        expansions: vec![tilepost_engine::Expansion::InnsCathedrals],
        tile_order: None,
        seed: 3,
        rules: Default::default(),
    };
    let (g, _) = Game::new(&config).expect("set-up");
    assert_eq!(g.tiles_left() + 1, 71 + 18);
    assert_eq!(g.players()[0].supply[FigureKind::BigFollower as usize], 1);
}
