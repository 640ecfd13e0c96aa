//! Mage & Witch as the rulebook states it (`shared/rules/mage-witch.md`): MW1–MW5.

mod common;

use common::{Table, BLUE, RED};
use tilepost_engine::expansions::completed_value;
use tilepost_engine::expansions::final_value;
use tilepost_engine::expansions::minis::{magic_adjusted, MagicFigure};
use tilepost_engine::{Action, Effect, FeatureKind, HouseRules, Phase, PlayError};

const INN: u8 = 1;
const CATHEDRAL: u8 = 2;

/// Every listed action moves a magic figure (none sets one aside).
fn assert_only_moves_listed(t: &Table) {
    assert!(t
        .game
        .legal_actions()
        .iter()
        .all(|a| matches!(a, Action::MoveMagic { .. })));
}

#[test]
fn mw1_mage_on_a_completed_road() {
    let mut t = Table::with(&["mage_witch"], 2, &["mw/01-crrr", "base/U", "base/W"]);
    // Red: (1,0) a magic tile; its W road end joins T0's road
    t.place(1, 0, 0);
    assert_eq!(t.game.phase(), Phase::MoveMagic);
    // a figure off the board cannot be set aside; only moves are listed
    assert_only_moves_listed(&t);
    t.try_play(Action::MoveMagic {
        figure: MagicFigure::Mage,
        x: 0,
        y: 0,
        spot: "E".into(),
    })
    .expect("the mage onto T0's road");
    assert_eq!(t.game.phase(), Phase::PlaceFigure);
    t.figure("W"); // the mage blocks no follower
    t.place(-1, 0, 0).pass(); // Blue
    t.place(-2, 0, 0).pass(); // Red closes the road: 4 tiles + 4 (mage)
    assert_eq!(t.scored()[0], (FeatureKind::Road, 8, vec![RED], false));
    assert!(t.last.contains(&Effect::MagicSetAside {
        figure: MagicFigure::Mage
    }));
    assert_eq!(t.game.magic_figure(MagicFigure::Mage), None);
    t.assert_replays();
}

#[test]
fn mw2_the_witch_halves_rounding_up() {
    // road of 5 tiles
    assert_eq!(
        magic_adjusted(completed_value(FeatureKind::Road, 5, 0, 0), 5, false, true),
        3
    );
    // city of 3 tiles + 1 pennant = 8
    assert_eq!(
        magic_adjusted(completed_value(FeatureKind::City, 3, 1, 0), 3, false, true),
        4
    );
    // cathedral city, 3 tiles + 1 pennant = 12
    assert_eq!(
        magic_adjusted(
            completed_value(FeatureKind::City, 3, 1, CATHEDRAL),
            3,
            false,
            true
        ),
        6
    );
}

#[test]
fn mw3_with_inns_and_cathedrals_at_the_end() {
    // incomplete inn road of 3 tiles with the mage: 0 + 3
    assert_eq!(
        magic_adjusted(final_value(FeatureKind::Road, 3, 0, INN, 0), 3, true, false),
        3
    );
    // incomplete city of 4 tiles + 2 pennants with the mage: 6 + 4
    assert_eq!(
        magic_adjusted(final_value(FeatureKind::City, 4, 2, 0, 0), 4, true, false),
        10
    );
    // incomplete cathedral city of 4 tiles with the mage: 0 + 4
    assert_eq!(
        magic_adjusted(
            final_value(FeatureKind::City, 4, 0, CATHEDRAL, 0),
            4,
            true,
            false
        ),
        4
    );
    // completed inn road of 3 tiles with the mage: 6 + 3
    assert_eq!(
        magic_adjusted(
            completed_value(FeatureKind::Road, 3, 0, INN),
            3,
            true,
            false
        ),
        9
    );
}

#[test]
fn a_magic_figure_must_change_feature_and_avoid_the_other() {
    let mut t = Table::with(&["mage_witch"], 2, &["mw/01-crrr", "mw/05-cfcf"]);
    t.place(1, 0, 0);
    t.try_play(Action::MoveMagic {
        figure: MagicFigure::Mage,
        x: 0,
        y: 0,
        spot: "E".into(),
    })
    .expect("mage");
    t.pass();
    // Blue: a second magic tile at (0,1): city caps N and S (S closes T0's cap)
    t.place(0, 1, 0);
    let refused = t.try_play(Action::MoveMagic {
        figure: MagicFigure::Witch,
        x: 1,
        y: 0,
        spot: "W".into(),
    });
    assert_eq!(
        refused,
        Err(PlayError::MagicNotAllowed),
        "not the mage's road"
    );
    assert_eq!(
        t.try_play(Action::MoveMagic {
            figure: MagicFigure::Mage,
            x: 1,
            y: 0,
            spot: "W".into(),
        }),
        Err(PlayError::MagicNotAllowed),
        "a moved figure must change feature"
    );
    assert_eq!(
        t.try_play(Action::MoveMagic {
            figure: MagicFigure::Witch,
            x: 0,
            y: 0,
            spot: "N".into(),
        }),
        Err(PlayError::MagicNotAllowed),
        "T0's city was completed by this tile"
    );
    t.try_play(Action::MoveMagic {
        figure: MagicFigure::Witch,
        x: 1,
        y: 0,
        spot: "N".into(),
    })
    .expect("the witch onto (1,0)'s city cap");
    t.pass();
    t.assert_replays();
}

#[test]
fn mw4_meeting_on_completion_moves_one_figure_before_scoring() {
    let mut t = mw4_meeting(HouseRules::default());
    assert_only_moves_listed(&t);
    t.try_play(Action::MoveMagic {
        figure: MagicFigure::Witch,
        x: 0,
        y: -1,
        spot: "E".into(),
    })
    .expect("the witch leaves");
    t.pass();
    // 4 tiles × 2 + 4 (mage): a tie
    assert_eq!(
        t.scored()[0],
        (FeatureKind::City, 12, vec![RED, BLUE], false)
    );
    assert_eq!(t.game.magic_figure(MagicFigure::Mage), None);
    assert!(t.game.magic_figure(MagicFigure::Witch).is_some());
    t.assert_replays();
}

#[test]
fn house_rule_magic_meeting_remove_sets_one_aside() {
    let mut rules = HouseRules::default();
    rules.set("magic_meeting", "remove").unwrap();
    for (aside, points) in [(MagicFigure::Witch, 12), (MagicFigure::Mage, 4)] {
        let mut t = mw4_meeting(rules);
        // no move is offered: either figure is set aside
        let options = t.game.legal_actions();
        assert_eq!(
            options,
            vec![
                Action::RemoveMagic {
                    figure: MagicFigure::Mage
                },
                Action::RemoveMagic {
                    figure: MagicFigure::Witch
                }
            ]
        );
        assert_eq!(
            t.try_play(Action::MoveMagic {
                figure: MagicFigure::Witch,
                x: 0,
                y: -1,
                spot: "E".into(),
            }),
            Err(PlayError::MagicNotAllowed)
        );
        t.try_play(Action::RemoveMagic { figure: aside })
            .expect("set aside");
        assert_eq!(t.game.magic_figure(aside), None);
        t.pass();
        // 4 tiles × 2 with the mage (+4) or the witch (halved): a tie
        assert_eq!(
            t.scored()[0],
            (FeatureKind::City, points, vec![RED, BLUE], false),
            "{aside:?} set aside"
        );
        // the other figure was in the scored city: set aside too
        assert_eq!(t.game.magic_figure(aside.other()), None);
        t.assert_replays();
    }
}

/// MW4 up to the meeting: Green's tile joins the mage's city and the witch's city and
/// completes it.
fn mw4_meeting(rules: HouseRules) -> Table {
    let mut t = Table::with_rules(
        &["mage_witch"],
        3,
        &[
            "mw/01-crrr",
            "base/N",
            "mw/05-cfcf",
            "base/A",
            "base/U",
            "base/N",
        ],
        1,
        rules,
    );
    // 1. Red: the mage and a knight in city A, (1,0)'s cap
    t.place(1, 0, 0);
    t.try_play(Action::MoveMagic {
        figure: MagicFigure::Mage,
        x: 1,
        y: 0,
        spot: "N".into(),
    })
    .expect("mage into A");
    t.figure("N");
    // 2. Blue: (0,1) city E–S joins T0's cap: city B, with Blue's knight
    t.place(0, 1, 180).figure("S");
    // 3. Green: a magic tile south of T0; the witch goes into B
    t.place(0, -1, 90);
    assert_eq!(t.edges(0, -1), "FCFC");
    t.try_play(Action::MoveMagic {
        figure: MagicFigure::Witch,
        x: 0,
        y: 0,
        spot: "N".into(),
    })
    .expect("witch into B");
    t.pass();
    t.place(2, 0, 90).pass(); // Red
    t.place(-1, 0, 0).pass(); // Blue
                              // 6. Green joins A and B and completes the city: the figures meet
    t.place(1, 1, 270);
    assert_eq!(t.game.phase(), Phase::MoveMagic);
    assert!(t.game.magic_meeting());
    t
}
