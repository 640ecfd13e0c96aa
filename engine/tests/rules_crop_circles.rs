//! Crop Circles as the rulebook states it (`shared/rules/crop-circles.md`): CC1–CC4 (CC4
//! with Blue's single knight: two separate knights of Blue cannot join a 3-tile city).

mod common;

use common::{Table, BLUE, GREEN, RED};
use tilepost_engine::expansions::minis::CropMode;
use tilepost_engine::{Action, FeatureKind, FigureKind, Phase};

#[test]
fn cc2_club_remove() {
    // Red: highwaymen on R1 (T0's road) and R2; Green: one on R3; Blue: none.
    let mut t = Table::with(
        &["crop_circles"],
        3,
        &[
            "base/U",
            "base/L",
            "base/U",
            "base/U",
            "base/U",
            "base/B",
            "cc/02-rrrr",
        ],
    );
    t.place(1, 0, 0).figure("E"); // Red: R1
    t.place(-1, 0, 0).pass(); // Blue: three road ends; its E end joins R1
    t.place(-1, -1, 90).figure("N"); // Green: R3, from (-1,0)'s south end
    t.place(-2, 0, 0).figure("E"); // Red: R2, from (-1,0)'s west end
    t.place(2, 0, 0).pass(); // Blue
    t.place(0, -1, 0).pass(); // Green
                              // Red places the club circle; nothing completes
    t.place(3, 0, 0).pass();
    assert_eq!(t.game.phase(), Phase::CropMode);
    assert_eq!(t.current(), RED);
    t.try_play(Action::ChooseCropMode {
        mode: CropMode::Remove,
    })
    .expect("remove");
    // Blue has no highwayman: skipped. Green must remove hers; no pass
    assert_eq!(t.game.pending().map(|p| p.player), Some(GREEN));
    let options = t.game.legal_actions();
    assert_eq!(
        options,
        vec![Action::RemoveFollower {
            figure: FigureKind::Follower,
            x: -1,
            y: -1,
            spot: "N".into()
        }]
    );
    t.try_play_as(GREEN, options[0].clone())
        .expect("Green removes");
    // Red removes one of his two: R2
    assert_eq!(t.game.pending().map(|p| p.player), Some(RED));
    assert_eq!(t.game.legal_actions().len(), 2);
    t.try_play_as(
        RED,
        Action::RemoveFollower {
            figure: FigureKind::Follower,
            x: -2,
            y: 0,
            spot: "E".into(),
        },
    )
    .expect("Red removes R2's highwayman");
    assert_eq!((t.supply(RED), t.supply(GREEN)), (6, 7));
    assert!(t.history.iter().all(|e| !matches!(
        e,
        tilepost_engine::Effect::FeatureScored {
            final_scoring: false,
            ..
        }
    )));
    // the end: R1 (5 tiles, open) still holds Red's highwayman
    assert!(t.is_over());
    assert_eq!(
        t.all_scored(),
        vec![(FeatureKind::Road, 5, vec![RED], true)]
    );
    let _ = BLUE;
    t.assert_replays();
}

#[test]
fn cc3_pitchfork_remove_and_the_pig_goes_too() {
    // F north of the caps C1 and C2: Blue's farmer and pig; Green's farmer joins it from
    // T0's strip. Green has a second farmer south of T0.
    let mut t = Table::with(
        &["crop_circles", "traders_builders"],
        3,
        &[
            "base/D",
            "base/E",
            "base/U",
            "base/E",
            "base/B",
            "base/B",
            "base/U",
            "base/U",
            "base/B",
            "cc/03-cfrf",
        ],
    );
    t.place(1, 0, 0).pass(); // Red
    t.place(0, 1, 180).figure("NNW"); // Blue: farmer in F, closes C1
    t.place(2, 0, 0).figure("NNW"); // Green: farmer in T0's strip
    t.place(1, 1, 180).pass(); // Red closes C2
    t.place(0, 2, 0); // Blue: the pig
    t.try_figure_kind(FigureKind::Pig, "NNW").expect("pig");
    t.place(2, 1, 0).pass(); // Green joins the strip to F
    t.place(-1, 0, 0).pass(); // Red
    t.place(3, 0, 0).pass(); // Blue
    t.place(0, -1, 0).figure("NNW"); // Green: a farmer south of T0
                                     // Red: the pitchfork circle; Remove
    t.place(0, -2, 90).pass();
    t.try_play(Action::ChooseCropMode {
        mode: CropMode::Remove,
    })
    .expect("remove");
    // Blue's only farmer is in F: it goes, and the pig with it
    assert_eq!(t.game.pending().map(|p| p.player), Some(BLUE));
    assert_eq!(t.game.legal_actions().len(), 1);
    let a = t.game.legal_actions()[0].clone();
    t.try_play_as(BLUE, a).expect("Blue removes");
    assert_eq!(
        t.game.players()[BLUE as usize].supply[FigureKind::Pig as usize],
        1,
        "the pig follows its farmer home"
    );
    // Green keeps the one in F and removes the other
    t.try_play_as(
        GREEN,
        Action::RemoveFollower {
            figure: FigureKind::Follower,
            x: 0,
            y: -1,
            spot: "NNW".into(),
        },
    )
    .expect("Green removes the southern farmer");
    // Red has no farmer: skipped; the game ends
    assert!(t.is_over());
    let fields: Vec<_> = t
        .all_scored()
        .into_iter()
        .filter(|s| s.0 == FeatureKind::Field)
        .collect();
    assert_eq!(fields, vec![(FeatureKind::Field, 6, vec![GREEN], true)]);
    assert_eq!(t.score(BLUE), 0);
    t.assert_replays();
}

/// City A on row -1: Blue's knight in the west cap, Red's in the east cap, joined by a
/// three-sided city with a pennant, open to the south; Blue also has a knight in city B.
/// Red then places a shield circle and chooses Add.
fn shield_add(expansions: &[&str]) -> Table {
    let mut t = Table::with(
        expansions,
        3,
        &[
            "base/U",
            "base/U",
            "base/U",
            "base/E",
            "base/E",
            "base/U",
            "base/Q",
            "base/E",
            "base/U",
            "cc/05-cfcf",
            "base/E",
        ],
    );
    t.place(-1, 0, 0).pass(); // Red
    t.place(1, 0, 0).pass(); // Blue
    t.place(2, 0, 0).pass(); // Green
    t.place(1, -1, 270).figure("W"); // Red: knight in the east cap
    t.place(-1, -1, 90).figure("E"); // Blue: knight in the west cap
    t.place(3, 0, 0).pass(); // Green
    t.place(0, -1, 180).pass(); // Red: joins them into A (1 pennant), open south
    assert_eq!(t.edges(0, -1), "FCCC");
    t.place(-1, 1, 0).figure("N"); // Blue: knight in city B
    t.place(4, 0, 0).pass(); // Green
    t.place(2, 1, 90).pass(); // Red: the shield circle
    t.try_play(Action::ChooseCropMode {
        mode: CropMode::Add,
    })
    .expect("add");
    t
}

#[test]
fn cc1_shield_add_changes_a_majority() {
    let mut t = shield_add(&["crop_circles"]);
    // Blue (left of Red) adds next to his knight in A
    assert_eq!(t.game.pending().map(|p| p.player), Some(BLUE));
    t.try_play_as(
        BLUE,
        Action::AddFollower {
            figure: FigureKind::Follower,
            x: -1,
            y: -1,
            spot: "E".into(),
        },
    )
    .expect("Blue adds");
    // Green has no knight: skipped; Red adds in A too
    assert_eq!(t.game.pending().map(|p| p.player), Some(RED));
    t.try_play_as(
        RED,
        Action::AddFollower {
            figure: FigureKind::Follower,
            x: 1,
            y: -1,
            spot: "W".into(),
        },
    )
    .expect("Red adds");
    // later A completes: 4 tiles + 1 pennant = 10, Red 2 against Blue 2
    t.place(0, -2, 0).pass(); // Blue closes A
    assert_eq!(
        t.scored()[0],
        (FeatureKind::City, 10, vec![RED, BLUE], false)
    );
    let _ = GREEN;
    t.assert_replays();
}

#[test]
fn cc4_add_a_big_follower_next_to_a_knight() {
    let mut t = shield_add(&["crop_circles", "inns_cathedrals"]);
    t.try_play_as(BLUE, Action::Pass)
        .expect("Blue adds nothing");
    // Red adds his big follower next to his knight: 3 against Blue's 1
    assert!(t.game.legal_actions().contains(&Action::AddFollower {
        figure: FigureKind::BigFollower,
        x: 1,
        y: -1,
        spot: "W".into(),
    }));
    t.try_play_as(
        RED,
        Action::AddFollower {
            figure: FigureKind::BigFollower,
            x: 1,
            y: -1,
            spot: "W".into(),
        },
    )
    .expect("Red adds the big follower");
    t.place(0, -2, 0).pass();
    assert_eq!(t.scored()[0], (FeatureKind::City, 10, vec![RED], false));
    t.assert_replays();
}
