//! The Robbers through play (`shared/rules/robbers.md`, `interactions.md` §2.6): the active
//! player orders features completed together, and the awards follow that order; a robber
//! on the space of two players tying in one feature robs the one its owner chooses. The
//! robbery examples RB1–RB4 are unit tests of the track (`src/expansions/track.rs`).

mod common;

use common::{Table, BLUE, GREEN, RED};
use tilepost_engine::{Action, Effect, Event, FeatureKind, HouseRules, Phase, PlayError};

#[test]
fn the_active_player_orders_features_completed_together() {
    let mut t = Table::with(&["robbers"], 2, &["base/W", "base/E", "base/E", "base/L"]);
    t.place(-1, 0, 0).figure("E"); // Red: highwayman; the road's west end is a junction
    t.place(0, 1, 180).pass(); // Blue closes T0's cap (nobody in it)
    t.place(1, 1, 180).figure("S"); // Red: knight in a cap facing (1,0)
                                    // Blue's junction closes the road and the city at once
    t.place(1, 0, 0).pass();
    assert_eq!(t.game.phase(), Phase::ScoringOrder);
    assert_eq!(t.current(), BLUE);
    let options = t.game.legal_actions();
    assert_eq!(options.len(), 2);
    assert!(options
        .iter()
        .all(|a| matches!(a, Action::ScoreNext { .. })));
    // Blue scores the city first
    let city = options
        .iter()
        .find(|a| matches!(a, Action::ScoreNext { x: 1, .. }))
        .cloned()
        .expect("the city is named on its smallest tile (1,0)");
    t.try_play(city).expect("city first");
    assert_eq!(t.log.last().map(Event::type_name), Some("scoring_ordered"));
    assert_eq!(t.game.track(RED), [7, 0]);
    assert_eq!(t.score(RED), 7);
    let scored: Vec<(FeatureKind, i32)> = t
        .history
        .iter()
        .filter_map(|e| match e {
            Effect::FeatureScored {
                feature, points, ..
            } => Some((*feature, *points)),
            _ => None,
        })
        .collect();
    assert_eq!(scored, vec![(FeatureKind::Road, 3), (FeatureKind::City, 4)]);
    t.assert_replays();
}

#[test]
fn features_completed_by_a_player_who_leaves_score_in_the_listed_order() {
    let mut t = Table::with(
        &["robbers"],
        3,
        &["base/E", "base/W", "base/E", "base/L", "base/E"],
    );
    t.place(0, 1, 180).pass(); // Red closes T0's cap
    t.place(-1, 0, 0).figure("E"); // Blue: highwayman
    t.place(1, 1, 180).figure("S"); // Green: knight in a cap facing (1,0)
    t.place(1, 0, 0); // Red's junction closes the road and the city at once...
    assert_eq!(t.game.phase(), Phase::PlaceFigure);
    t.resign(RED); // ...and Red leaves before the figure and the scoring order
                   // nobody is left to order the scoring: the listed order, then Blue's turn
    assert_eq!(t.game.phase(), Phase::PlaceTile);
    assert_eq!(t.current(), BLUE);
    assert_eq!((t.score(BLUE), t.score(GREEN)), (3, 4));
    assert_eq!(t.game.track(BLUE), [3, 0]);
    assert_eq!(t.game.track(GREEN), [4, 0]);
    t.assert_replays();
}

/// RB4 through play: Red and Blue (both on space 0) tie for a 5-tile road; Green's robber
/// stands on 0 and Green chooses whom to rob.
fn tie_under_greens_robber() -> Table {
    let mut t = Table::with(
        &["robbers"],
        3,
        &["base/W", "rb/03-frrr", "base/E", "base/V", "base/V"],
    );
    t.place(-1, 0, 0).figure("E"); // Red: the road from this junction eastwards
    t.place(0, -1, 0); // Blue: a robber tile
    assert_eq!(t.game.phase(), Phase::PlaceRobber);
    t.pass(); // Blue keeps his robber
    assert_eq!(
        t.current(),
        GREEN,
        "the next player with a robber in the supply"
    );
    t.try_play(Action::PlaceRobber { space: 0 })
        .expect("Red and Blue stand on 0");
    t.figure("E"); // Blue: the road from his junction eastwards
    t.place(0, 1, 180).pass(); // Green closes the start tile's city (nobody in it)
    t.place(1, 0, 0).pass(); // Red
    t.place(1, -1, 90).pass(); // Blue joins and closes the road: Red and Blue tie
    t
}

#[test]
fn rb4_the_robbers_owner_chooses_whom_to_rob_in_a_tie() {
    let mut t = tie_under_greens_robber();
    assert_eq!(t.game.phase(), Phase::ChooseVictim);
    assert_eq!(t.current(), GREEN);
    assert_eq!(
        t.game.legal_actions(),
        vec![
            Action::ChooseVictim { victim: RED },
            Action::ChooseVictim { victim: BLUE }
        ]
    );
    assert_eq!(
        t.try_play(Action::ChooseVictim { victim: GREEN }),
        Err(PlayError::VictimNotAllowed),
        "never oneself"
    );
    assert_eq!(
        t.try_play_as(RED, Action::ChooseVictim { victim: BLUE })
            .map_err(|e| e.code()),
        Err("not-your-turn")
    );
    t.try_play(Action::ChooseVictim { victim: RED })
        .expect("Red is listed");
    assert!(matches!(
        t.log.last(),
        Some(Event::Decided {
            player: GREEN,
            action: Action::ChooseVictim { victim: RED },
            ..
        })
    ));
    assert!(t.history.contains(&Effect::RobberStole {
        player: GREEN,
        victim: RED,
        points: 3
    }));
    assert_eq!(
        t.scores(),
        vec![5, 5, 3],
        "both get 5; Green takes ceil(5/2)"
    );
    assert_eq!(t.game.robber(GREEN), None, "the robber goes home");
    t.assert_replays();
}

#[test]
fn the_robbers_owner_may_rob_the_second_player_of_a_tie() {
    let mut t = tie_under_greens_robber();
    t.try_play(Action::ChooseVictim { victim: BLUE })
        .expect("Blue is listed");
    let thefts: Vec<&Effect> = t
        .history
        .iter()
        .filter(|e| matches!(e, Effect::RobberStole { .. }))
        .collect();
    assert_eq!(
        thefts,
        vec![&Effect::RobberStole {
            player: GREEN,
            victim: BLUE,
            points: 3
        }],
        "Red's award passes the robber; Blue's is robbed"
    );
    assert_eq!(t.scores(), vec![5, 5, 3]);
    assert_eq!(t.game.robber(GREEN), None);
    t.assert_replays();
}

#[test]
fn a_robber_next_to_a_single_victim_robs_without_asking() {
    // the same road without Blue's follower: only Red scores, nothing to choose
    let mut t = Table::with(
        &["robbers"],
        3,
        &["base/W", "rb/03-frrr", "base/E", "base/V", "base/V"],
    );
    t.place(-1, 0, 0).figure("E");
    t.place(0, -1, 0).pass();
    t.try_play(Action::PlaceRobber { space: 0 })
        .expect("Red and Blue stand on 0");
    t.pass(); // Blue places no follower: Red alone owns the road
    t.place(0, 1, 180).pass();
    t.place(1, 0, 0).pass();
    t.place(1, -1, 90).pass();
    assert_ne!(t.game.phase(), Phase::ChooseVictim);
    assert!(!t
        .log
        .iter()
        .any(|e| matches!(e.action(), Some(Action::ChooseVictim { .. }))));
    assert_eq!(t.scores(), vec![5, 0, 3]);
    t.assert_replays();
}

#[test]
fn a_victim_leaving_the_game_ends_the_choice() {
    let mut t = tie_under_greens_robber();
    t.resign(BLUE);
    assert_ne!(
        t.game.phase(),
        Phase::ChooseVictim,
        "only Red is left to rob"
    );
    assert_eq!(t.score(RED), 5);
    assert_eq!(t.score(GREEN), 3);
    t.assert_replays();
}

/// Red puts a robber beside Blue's scoring figure on space 0; nothing scores after that,
/// so the robber is still on the track when the game ends.
fn robber_left_on_the_track(bonus: &str) -> Table {
    let mut rules = HouseRules::default();
    rules.set("robbers_end_bonus_3", bonus).unwrap();
    let mut t = Table::with_rules(&["robbers"], 2, &["rb/03-frrr", "base/E"], 1, rules);
    t.place(0, -1, 0); // Red: a robber tile
    t.try_play(Action::PlaceRobber { space: 0 })
        .expect("Blue stands on 0");
    assert_eq!(t.current(), BLUE, "Blue may place a robber too");
    t.pass();
    t.pass(); // Red: no figure
    t.place(0, 1, 180).pass(); // Blue closes T0's cap, nobody in it
    assert!(t.is_over());
    t
}

#[test]
fn house_rule_robbers_end_bonus_3_off_by_default() {
    let t = robber_left_on_the_track("off");
    assert_eq!(t.scores(), vec![0, 0]);
    assert!(!t
        .history
        .iter()
        .any(|e| matches!(e, Effect::RobberBonus { .. })));
    t.assert_replays();
}

#[test]
fn house_rule_robbers_end_bonus_3_pays_a_robber_left_on_the_track() {
    let t = robber_left_on_the_track("on");
    assert_eq!(t.scores(), vec![3, 0]);
    assert!(t.history.contains(&Effect::RobberBonus {
        player: RED,
        points: 3
    }));
    assert_eq!(t.game.robber(RED), None, "the robber went home");
    t.assert_replays();
}
