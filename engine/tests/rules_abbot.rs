//! The Abbot as the rulebook states it (`shared/rules/abbot.md`): examples A1–A4.

mod common;

use common::{Table, BLUE, RED};
use tilepost_engine::{Action, FeatureKind, FigureKind, HouseRules, PlayError};

fn abbot_supply(t: &Table, player: u8) -> u8 {
    t.game.players()[player as usize].supply[FigureKind::Abbot as usize]
}

/// Red's abbot on the garden of `base/V-garden` at (0,-1).
fn garden_with_abbot(players: u8, rest: &[&str]) -> Table {
    garden_with_abbot_under(players, rest, HouseRules::default())
}

/// Red's abbot on the garden of `base/V-garden` at (0,-1), under house rules.
fn garden_with_abbot_under(players: u8, rest: &[&str], rules: HouseRules) -> Table {
    let mut tiles = vec!["base/V-garden"];
    tiles.extend_from_slice(rest);
    let mut t = Table::with_rules(&["abbot"], players, &tiles, 1, rules);
    t.place(0, -1, 0);
    assert_eq!(t.edges(0, -1), "FFRR");
    t.try_figure_kind(FigureKind::Abbot, "C")
        .expect("the abbot may stand on the garden");
    assert_eq!(abbot_supply(&t, RED), 0);
    t
}

#[test]
fn a1_abbot_on_a_garden_completed_scores_nine() {
    let t = a1_garden_completed(HouseRules::default());
    assert_eq!(t.scored()[0], (FeatureKind::Garden, 9, vec![RED], false));
    assert_eq!(t.score(RED), 9);
    assert_eq!(abbot_supply(&t, RED), 1, "the abbot is back in the supply");
    t.assert_replays();
}

#[test]
fn house_rule_abbot_completed_points_7() {
    let mut rules = HouseRules::default();
    rules.set("abbot_completed_points", "7").unwrap();
    let t = a1_garden_completed(rules);
    assert_eq!(t.scored()[0], (FeatureKind::Garden, 7, vec![RED], false));
    assert_eq!(t.score(RED), 7);
    assert_eq!(abbot_supply(&t, RED), 1);
    t.assert_replays();
}

#[test]
fn house_rule_abbot_completed_points_7_leaves_the_early_return_alone() {
    let mut rules = HouseRules::default();
    rules.set("abbot_completed_points", "7").unwrap();
    // A2 under the house rule: the return scores 1 per tile, as before
    let mut t = garden_with_abbot_under(2, &["base/U", "base/U"], rules);
    t.place(1, 0, 0).pass(); // Blue
    t.place(-1, -1, 0); // Red
    t.try_play(Action::ReturnAbbot).expect("the abbot returns");
    assert_eq!(t.scored()[0], (FeatureKind::Garden, 4, vec![RED], false));
    t.assert_replays();
}

/// A1: the garden's eight neighbours arrive; the last completes it.
fn a1_garden_completed(rules: HouseRules) -> Table {
    let mut t = garden_with_abbot_under(
        3,
        &[
            "base/U", "base/U", "base/U", "base/B", "base/U", "base/B", "base/B",
        ],
        rules,
    );
    t.place(-1, 0, 0).pass();
    t.place(1, 0, 0).pass();
    t.place(-1, -1, 0).pass();
    t.place(1, -1, 0).pass();
    t.place(0, -2, 90).pass();
    t.place(-1, -2, 0).pass();
    assert_eq!(t.score(RED), 0);
    // the 8th neighbour arrives: the garden scores in that turn's scoring
    t.place(1, -2, 0).pass();
    t
}

#[test]
fn a2_early_return_scores_the_garden_at_once() {
    // Neighbours (0,0), (1,0), (-1,0), (1,-1); Red places (-1,-1), the 5th, and returns
    // the abbot instead of placing a figure: 1 + 5.
    let mut t = garden_with_abbot(2, &["base/U", "base/U", "base/B", "base/U", "base/B"]);
    t.place(1, 0, 0).pass(); // Blue
    t.place(-1, 0, 0).pass(); // Red
    t.place(1, -1, 0).pass(); // Blue
    t.place(-1, -1, 0); // Red: its E side is a road, matching (0,-1)'s W road
    assert_eq!(t.edges(-1, -1), "FRFR");
    assert!(t.game.legal_actions().contains(&Action::ReturnAbbot));
    t.try_play(Action::ReturnAbbot).expect("the abbot returns");
    assert_eq!(t.scored()[0], (FeatureKind::Garden, 6, vec![RED], false));
    assert_eq!(t.score(RED), 6);
    assert_eq!(abbot_supply(&t, RED), 1);
    // that was Red's one figure action: Blue is next
    assert_eq!(t.current(), BLUE);
    t.assert_replays();
}

#[test]
fn a2_only_the_owner_of_an_abbot_on_an_incomplete_cloister_may_return_it() {
    let mut t = garden_with_abbot(2, &["base/U", "base/U"]);
    t.place(1, 0, 0);
    // Blue has no abbot on the board
    assert!(!t.game.legal_actions().contains(&Action::ReturnAbbot));
    assert_eq!(
        t.try_play(Action::ReturnAbbot),
        Err(PlayError::NoAbbotToReturn)
    );
    t.pass();
}

#[test]
fn a3_abbot_at_the_end_of_the_game() {
    // Red's abbot on a monastery with 7 of 8 neighbours when the supply runs out: 1 + 7.
    let mut t = Table::with(
        &["abbot"],
        2,
        &[
            "base/B", "base/U", "base/U", "base/B", "base/B", "base/B", "base/B",
        ],
    );
    t.place(0, -1, 0);
    t.try_figure_kind(FigureKind::Abbot, "C")
        .expect("abbot on the monastery");
    t.place(-1, 0, 0).pass();
    t.place(1, 0, 0).pass();
    t.place(-1, -1, 0).pass();
    t.place(1, -1, 0).pass();
    t.place(0, -2, 0).pass();
    t.place(-1, -2, 0).pass();
    assert!(t.is_over());
    assert_eq!(
        t.all_scored(),
        vec![(FeatureKind::Monastery, 8, vec![RED], true)]
    );
    assert_eq!(t.scores(), vec![8, 0]);
    t.assert_replays();
}

#[test]
fn a4_followers_may_not_stand_on_a_garden() {
    let mut t = Table::with(&["abbot", "inns_cathedrals"], 2, &["base/V-garden"]);
    t.place(0, -1, 0);
    assert_eq!(
        t.try_figure("C"),
        Err(PlayError::FigureNotAllowed {
            figure: "follower",
            feature: "garden"
        })
    );
    assert_eq!(
        t.try_figure_kind(FigureKind::BigFollower, "C"),
        Err(PlayError::FigureNotAllowed {
            figure: "big_follower",
            feature: "garden"
        })
    );
    // the abbot may not go on a road or a field
    assert!(t.try_figure_kind(FigureKind::Abbot, "S").is_err());
    assert!(t.try_figure_kind(FigureKind::Abbot, "NNW").is_err());
    // the abbot is offered on the garden only
    let abbot_spots: Vec<String> = t
        .game
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::PlaceFigure {
                figure: FigureKind::Abbot,
                spot,
            } => Some(spot),
            _ => None,
        })
        .collect();
    assert_eq!(abbot_spots, vec!["C".to_string()]);
}

#[test]
fn a4_monk_or_abbot_never_both() {
    let mut t = Table::with(&["abbot"], 2, &["base/B", "base/U"]);
    t.place(0, -1, 0).figure("C"); // Red's monk
                                   // Blue places next to it: the monastery is only on Red's tile
    t.place(1, 0, 0);
    assert!(t.game.legal_actions().iter().all(|a| !matches!(
        a,
        Action::PlaceFigure {
            figure: FigureKind::Abbot,
            ..
        }
    )));
}

#[test]
fn without_the_abbot_a_garden_is_decoration() {
    let mut t = Table::new(2, &["base/V-garden"]);
    t.place(0, -1, 0);
    assert_eq!(t.game.players()[0].supply[FigureKind::Abbot as usize], 0);
    assert!(t.try_figure("C").is_err());
    assert!(t.try_figure_kind(FigureKind::Abbot, "C").is_err());
}
