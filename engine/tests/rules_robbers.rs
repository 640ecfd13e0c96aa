//! The Robbers through play (`shared/rules/robbers.md`, `interactions.md` §2.6): the active
//! player orders features completed together, and the awards follow that order. The
//! robbery examples RB1–RB4 are unit tests of the track (`src/expansions/track.rs`).

mod common;

use common::{Table, BLUE, RED};
use tilepost_engine::{Action, Effect, Event, FeatureKind, Phase};

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
    assert!(matches!(t.log.last(), Some(Event::ScoringOrdered { .. })));
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
