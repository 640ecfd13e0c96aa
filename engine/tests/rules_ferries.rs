//! The Ferries as the rulebook states it (`shared/rules/ferries.md`): FE1–FE3. The lake
//! tile `fe/02-frrr` r0 has road ends (jetties) W, S and E.

mod common;

use common::{Table, BLUE, GREEN, RED};
use tilepost_engine::{Action, FeatureKind, Phase};

fn ferry(from: &str, to: &str) -> Action {
    Action::PlaceFerry {
        x: 1,
        y: 0,
        from: from.into(),
        to: to.into(),
    }
}

#[test]
fn fe1_a_ferry_extends_a_road_completed_later() {
    let mut t = Table::with(&["ferries"], 3, &["fe/02-frrr", "base/W", "base/W"]);
    // 1. Red: the lake at (1,0), a highwayman on the W jetty (joined to T0's road)
    t.place(1, 0, 0);
    assert_eq!(t.edges(1, 0), "FRRR");
    t.figure("W");
    assert_eq!(t.game.phase(), Phase::PlaceFerry);
    assert_eq!(t.game.legal_actions().len(), 3, "three pairs of jetties");
    t.try_play(ferry("W", "E")).expect("ferry W–E");
    // 2. Blue: a junction closes the east end; the road holds a ferry: Blue may move it
    t.place(2, 0, 0).pass();
    assert_eq!(t.game.phase(), Phase::MoveFerry);
    t.try_play(Action::Pass).expect("Blue leaves the ferry");
    assert_eq!(t.scored(), vec![]);
    // 3. Green closes the west end: {(-1,0),(0,0),(1,0),(2,0)}
    t.place(-1, 0, 0).pass();
    t.try_play(Action::Pass).expect("no ferry move");
    assert_eq!(t.scored()[0], (FeatureKind::Road, 4, vec![RED], false));
    assert_eq!(t.supply(RED), 7);
    let _ = (BLUE, GREEN);
    t.assert_replays();
}

#[test]
fn fe2_placing_the_ferry_completes_a_road() {
    let mut t = Table::with(&["ferries"], 2, &["base/W", "fe/02-frrr"]);
    t.place(-1, 0, 0).figure("E"); // Red: highwayman on the junction's E end
    t.place(1, 0, 0).pass(); // Blue: the lake
    t.try_play(ferry("S", "E")).expect("ferry S–E");
    // T0's road now ends at the W jetty: {(-1,0),(0,0),(1,0)}
    assert_eq!(t.scored()[0], (FeatureKind::Road, 3, vec![RED], false));
    t.assert_replays();
}

#[test]
fn fe2_a_ferry_across_keeps_the_road_open() {
    let mut t = Table::with(&["ferries"], 2, &["base/W", "fe/02-frrr"]);
    t.place(-1, 0, 0).figure("E");
    t.place(1, 0, 0).pass();
    t.try_play(ferry("W", "E")).expect("ferry W–E");
    assert!(
        t.scored().iter().all(|s| s.3),
        "nothing completes during the game"
    );
}

#[test]
fn fe3_moving_a_ferry_completes_a_road() {
    // Seats differ from the rulebook's colours: the lake's placer is Red here.
    let mut t = Table::with(
        &["ferries"],
        3,
        &["fe/02-frrr", "base/U", "base/W", "base/U"],
    );
    // 1. Red: the lake, a highwayman on the S jetty, ferry S–W
    t.place(1, 0, 0).figure("S");
    t.try_play(ferry("S", "W")).expect("ferry S–W");
    // 2. Blue extends the road south; may move the ferry but does not
    t.place(1, -1, 90).pass();
    assert_eq!(t.edges(1, -1), "RFRF");
    assert_eq!(t.game.phase(), Phase::MoveFerry);
    t.try_play(Action::Pass).expect("declines");
    // 3. Green: a junction closes the south end
    t.place(1, -2, 180).pass();
    assert_eq!(t.edges(1, -2), "RRFR");
    t.try_play(Action::Pass).expect("no move");
    // 4. Red at the west end extends the same road; the lake's ferry is the first met
    t.place(-1, 0, 0).pass();
    assert_eq!(t.game.phase(), Phase::MoveFerry);
    let moves = t.game.legal_actions();
    assert!(moves.contains(&Action::MoveFerry {
        x: 1,
        y: 0,
        from: "E".into(),
        to: "W".into()
    }));
    t.try_play(Action::MoveFerry {
        x: 1,
        y: 0,
        from: "W".into(),
        to: "E".into(),
    })
    .expect("ferry W–E");
    // {(1,0) S jetty, (1,-1), (1,-2)} ends at a ferry-less jetty and a junction: complete
    assert_eq!(t.scored()[0], (FeatureKind::Road, 3, vec![RED], false));
    assert_eq!(t.supply(RED), 7, "the highwayman returns");
    // the other road {(-1,0),(0,0),(1,0)} is open at both ends
    let b = t.game.board();
    let t0 = b
        .tile_index_at(tilepost_engine::Pos::new(0, 0))
        .expect("T0");
    assert!(b.open_sides(b.seg(t0, 1)) > 0);
    t.assert_replays();
}
