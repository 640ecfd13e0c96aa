//! Crop Circles as the rulebook states it (`shared/rules/crop-circles.md`): CC2.

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
