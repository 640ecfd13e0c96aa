//! No peeking: a move may not go on after an action that brings hidden information into the
//! game. Each test builds the same visible position twice, with hidden futures that differ
//! (another next tile, another die roll), sends the same move to both and checks the
//! answer is the same, the fixed refusal, with the game untouched.

mod common;

use common::{Table, BLUE, RED};
use tilepost_engine::rng::Rng;
use tilepost_engine::{Action, FigureKind, MoveError, PlayError, Rotation};

fn tile(x: i32, y: i32, degrees: i64) -> Action {
    Action::PlaceTile {
        x,
        y,
        rotation: Rotation::from_degrees(degrees).expect("a right angle"),
        tile: None,
    }
}

/// Sends `batch` for the pending player of both tables; the answers must be the same
/// refusal and both games untouched. Returns the refusal.
fn same_refusal(a: &mut Table, b: &mut Table, batch: &[Action]) -> MoveError {
    let player = a.current();
    assert_eq!(player, b.current(), "the positions agree on who is to move");
    let (before_a, before_b) = (a.game.clone(), b.game.clone());
    let ra = a.game.play_move(player, batch).map(|_| ());
    let rb = b.game.play_move(player, batch).map(|_| ());
    assert_eq!(a.game, before_a, "a refused move changed the game");
    assert_eq!(b.game, before_b, "a refused move changed the game");
    assert_eq!(ra, rb, "the answer depends on the hidden outcome");
    ra.expect_err("the move is refused")
}

/// What the same batch gave action by action: the answers differed with the hidden
/// outcome (the leak this rule closes).
fn one_by_one(t: &Table, batch: &[Action]) -> Result<(), PlayError> {
    let mut g = t.game.clone();
    let player = t.current();
    for a in batch {
        g.play(player, a)?;
    }
    Ok(())
}

fn past_reveal(index: usize) -> MoveError {
    MoveError {
        index,
        error: PlayError::MovePastHiddenInformation,
    }
}

// ----- Traders & Builders: the builder's second turn part draws a tile --------------------

/// Red's builder stands on the road (1,0)-(2,0); Red has drawn (3,0), which extends it.
/// The tile Red will draw for the second part is `second`.
fn builder_position(second: &str) -> Table {
    let mut t = Table::with(
        &["traders_builders"],
        2,
        &[
            "base/U", "base/B", "base/U", "base/B", "base/U", second, "base/B", "base/W", "base/B",
        ],
    );
    t.place(1, 0, 0).figure("E");
    t.place(0, -1, 0).pass();
    t.place(2, 0, 0);
    t.try_figure_kind(FigureKind::Builder, "E")
        .expect("builder on Red's road");
    t.place(1, -1, 0).pass();
    assert_eq!(t.current(), RED);
    t
}

#[test]
fn the_builders_second_tile_is_not_probed() {
    let mut junction = builder_position("base/W");
    let mut monastery = builder_position("base/B");
    // the probe: would the hidden second tile fit west of the start tile?
    let batch = [tile(3, 0, 0), Action::Pass, tile(-1, 0, 0)];
    assert_ne!(
        one_by_one(&junction, &batch),
        one_by_one(&monastery, &batch),
        "action by action, the probe tells the tiles apart"
    );
    assert_eq!(
        same_refusal(&mut junction, &mut monastery, &batch),
        past_reveal(2)
    );
    // a figure phase instead of a pass, and a figure action as the probe
    let batch = [
        tile(3, 0, 0),
        Action::Pass,
        Action::PlaceFigure {
            figure: FigureKind::Follower,
            spot: "E".into(),
        },
    ];
    assert_eq!(
        same_refusal(&mut junction, &mut monastery, &batch),
        past_reveal(2)
    );
    // the same move ending with the pass is played, and the second part follows
    let outcomes = junction
        .game
        .play_move(RED, &[tile(3, 0, 0), Action::Pass])
        .expect("a move may end with the reveal");
    assert_eq!(outcomes.len(), 2);
    assert_eq!(junction.current(), RED, "the second turn part");
}

// ----- Flying Machines: the die -----------------------------------------------------------

/// A seed whose first roll of the die (faces 1,1,2,2,3,3) is `d`.
fn seed_rolling(d: u64) -> u64 {
    (0..).find(|s| 1 + Rng::new(*s).below(3) == d).unwrap_or(0)
}

/// Blue's knight on (0,1); Red has drawn the flying machine for (2,0), pointing west.
/// The die will roll `roll` (2: onto the start tile; 3: onto an empty cell).
fn flier_position(roll: u64) -> Table {
    let mut t = Table::with_seed(
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
    );
    t.place(1, 0, 0).pass();
    t.place(0, 1, 90).figure("N");
    t.place(0, -1, 0).pass();
    assert_eq!(t.current(), RED);
    t
}

#[test]
fn the_die_is_not_probed_by_a_landing() {
    let mut lands = flier_position(2);
    let mut misses = flier_position(3);
    let fly = Action::Fly {
        figure: FigureKind::Follower,
    };
    let land = Action::Land {
        spot: "nowhere".into(),
    };
    let batch = [tile(2, 0, 0), fly.clone(), land.clone()];
    assert_ne!(
        one_by_one(&lands, &batch),
        one_by_one(&misses, &batch),
        "action by action, the landing tells the rolls apart"
    );
    assert_eq!(
        same_refusal(&mut lands, &mut misses, &batch),
        past_reveal(2)
    );
    // the tile alone, then [fly, land] as the next move
    lands.place(2, 0, 0);
    misses.place(2, 0, 0);
    let batch = [fly.clone(), land];
    assert_eq!(
        same_refusal(&mut lands, &mut misses, &batch),
        past_reveal(1)
    );
    let batch = [fly, Action::Pass];
    assert_eq!(
        same_refusal(&mut lands, &mut misses, &batch),
        past_reveal(1)
    );
}

#[test]
fn refusals_before_the_roll_are_judged_as_usual() {
    let mut lands = flier_position(2);
    let mut misses = flier_position(3);
    // the first action is already illegal: its own error, at its own index
    let batch = [
        tile(9, 9, 0),
        Action::Fly {
            figure: FigureKind::Follower,
        },
        Action::Pass,
    ];
    assert_eq!(
        same_refusal(&mut lands, &mut misses, &batch),
        MoveError {
            index: 0,
            error: PlayError::NotAdjacent { x: 9, y: 9 },
        }
    );
}

// ----- Abbey & Mayor: drawing instead of placing the abbey ----------------------------------

/// (1,-1) is a hole and Red holds the abbey; the tile Red would draw is `next`.
fn abbey_position(next: &str) -> Table {
    let mut t = Table::with(
        &["abbey_mayor"],
        2,
        &[
            "base/U", "base/U", "base/U", "base/W", "base/B", "base/U", "base/B", "base/B", next,
        ],
    );
    t.place(1, 0, 0).pass();
    t.place(0, -1, 0).figure("E");
    t.place(-1, -1, 0).pass();
    t.place(-2, -1, 0).pass();
    t.place(0, -2, 0).pass();
    t.place(2, 0, 0).pass();
    t.place(1, -2, 0).pass();
    t.place(2, -1, 0).pass();
    assert_eq!(t.current(), RED);
    assert_eq!(t.drawn(), None);
    t
}

#[test]
fn a_drawn_tile_is_not_probed_after_draw_tile() {
    let mut monastery = abbey_position("base/B");
    let mut junction = abbey_position("base/W");
    let batch = [Action::DrawTile, tile(-1, -2, 0)];
    assert_ne!(
        one_by_one(&monastery, &batch),
        one_by_one(&junction, &batch),
        "action by action, the probe tells the tiles apart"
    );
    assert_eq!(
        same_refusal(&mut monastery, &mut junction, &batch),
        past_reveal(1)
    );
}

// ----- Every turn: the next player's tile -----------------------------------------------------

#[test]
fn nothing_follows_the_end_of_a_turn() {
    // two different next tiles for Blue
    let mut a = Table::new(2, &["base/D", "base/U", "base/B"]);
    let mut b = Table::new(2, &["base/D", "base/B", "base/U"]);
    let batch = [tile(1, 0, 0), Action::Pass, tile(-1, 0, 0)];
    assert_eq!(same_refusal(&mut a, &mut b, &batch), past_reveal(2));
    // a move that ends with the pass is played
    a.game
        .play_move(RED, &batch[..2])
        .expect("a move may end with the reveal");
    assert_eq!(a.current(), BLUE);
}
