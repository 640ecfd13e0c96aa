//! Combined examples of `shared/rules/interactions.md`.

mod common;

use common::{Table, BLUE, RED};
use tilepost_engine::{Action, FeatureKind, FigureKind, Pos};

/// Red's abbot on the garden of (0,-1); Blue's gold tile at (1,-1) puts its second ingot
/// on the garden tile.
fn garden_with_gold(tiles_after: &[&str]) -> Table {
    let mut tiles = vec!["base/V-garden", "base/U", "base/U", "gm/01-frrf", "base/U", "base/U"];
    tiles.extend_from_slice(tiles_after);
    let mut t = Table::with(&["abbot", "gold_mines"], 2, &tiles);
    t.place(0, -1, 0);
    t.try_figure_kind(FigureKind::Abbot, "C").expect("abbot");
    t.place(1, 0, 0).pass(); // Blue
    t.place(-1, 0, 0).pass(); // Red
    t.place(1, -1, 0); // Blue: the gold tile
    t.try_play(Action::PlaceIngot { x: 0, y: -1 })
        .expect("the second ingot on the garden tile");
    t.pass();
    t.place(-1, -1, 0).pass(); // Red
    t.place(2, 0, 0).pass(); // Blue
    assert_eq!(t.game.ingots_at(Pos::new(0, -1)), 1);
    t
}

#[test]
fn x7_the_abbot_returns_without_gold() {
    let mut t = garden_with_gold(&["base/U"]);
    // Red places the 6th neighbour and returns the abbot: 1 + 6, no ingot
    t.place(0, -2, 90);
    t.try_play(Action::ReturnAbbot).expect("return");
    assert_eq!(t.scored()[0], (FeatureKind::Garden, 7, vec![RED], false));
    assert_eq!(t.game.players()[RED as usize].gold, 0);
    assert_eq!(t.game.ingots_at(Pos::new(0, -1)), 1, "the ingot stays");
    assert!(t.is_over());
    assert_eq!(t.scores(), vec![7, 0]);
    t.assert_replays();
}

#[test]
fn x7_a_completed_garden_collects_the_gold_of_its_nine_tiles() {
    let mut t = garden_with_gold(&["base/U", "base/B", "base/U"]);
    t.place(0, -2, 90).pass(); // Red
    t.place(-1, -2, 0).pass(); // Blue
    t.place(1, -2, 90).pass(); // Red: the 8th neighbour
    assert_eq!(t.scored()[0], (FeatureKind::Garden, 9, vec![RED], false));
    // the garden tile's ingot and the gold tile's own
    assert_eq!(t.game.players()[RED as usize].gold, 2);
    assert!(t.is_over());
    assert_eq!(t.scores(), vec![9 + 2, 0]);
    let _ = BLUE;
    t.assert_replays();
}
