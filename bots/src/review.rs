//! The review of a finished game: every decision that had a choice, judged by the
//! strongest bot's search from what its player could see then (the seat's view at that
//! moment: no pile order, no other hand), as the expected final margin of the best
//! option and of the option played. Pure: the caller runs it on a bounded pool and keeps
//! the result.

use serde::{Deserialize, Serialize};
use tilepost_engine::{Action, Event, Game, NoEffects};

use crate::mcts::{margin_of, MctsBot};
use crate::{Budget, SeatView};

/// One judged decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Judged {
    /// The game's version once the decision was recorded (the log's length then: the
    /// decision is the log's event `version - 1`; `version - 1` is the position it was
    /// taken in).
    pub version: u32,
    pub player: u8,
    pub played: Action,
    /// The option the search prefers (the one played when it agrees).
    pub best: Action,
    /// The expected final margin (points ahead of the best opponent) with the best
    /// option, and with the one played; their difference is what the decision lost.
    pub margin_best: f64,
    pub margin_played: f64,
}

impl Judged {
    /// What the decision lost against the search's preference, in points of final
    /// margin (0 when it played the preferred option).
    pub fn loss(&self) -> f64 {
        (self.margin_best - self.margin_played).max(0.0)
    }
}

/// Why a log cannot be reviewed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewError {
    /// The log does not replay.
    Replay(String),
    /// The game is not over.
    NotOver,
}

impl std::fmt::Display for ReviewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReviewError::Replay(e) => write!(f, "the log does not replay: {e}"),
            ReviewError::NotOver => f.write_str("the game is not over"),
        }
    }
}

impl std::error::Error for ReviewError {}

/// The number of decisions [`review`] judges (those with more than one listed option),
/// for a progress bar.
pub fn decisions_to_judge(events: &[Event]) -> Result<usize, ReviewError> {
    let mut count = 0;
    walk(events, |game, _, _| {
        if game.legal_actions().len() > 1 {
            count += 1;
        }
    })?;
    Ok(count)
}

/// Reviews a finished game's log: each decision with a choice, judged by an MCTS bot with
/// `budget` (seeded per decision from `seed`, so a review repeats itself). `progress` is
/// called after each judged decision with the ones done so far.
pub fn review(
    events: &[Event],
    budget: Budget,
    seed: u64,
    mut progress: impl FnMut(&[Judged]),
) -> Result<Vec<Judged>, ReviewError> {
    let mut out = Vec::new();
    walk(events, |game, index, (player, action)| {
        if game.legal_actions().len() <= 1 {
            return;
        }
        if let Some(j) = judge(&game.seat_view(player), index, action, budget, seed) {
            out.push(j);
            progress(&out);
        }
    })?;
    Ok(out)
}

/// Judges one decision: `action`, taken by the view's seat at the log's position
/// `index` (the event's index), with `budget`; the seed of the search is `seed` mixed
/// with `index`. `None` when the action is not one of the seat's listed options.
pub fn judge(
    view: &SeatView,
    index: usize,
    action: &Action,
    budget: Budget,
    seed: u64,
) -> Option<Judged> {
    let mut bot = MctsBot::new(
        seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        budget,
    );
    let a = bot.appraise(view, action)?;
    Some(Judged {
        version: index as u32 + 1,
        player: view.seat(),
        played: action.clone(),
        best: a.best,
        margin_best: round(margin_of(a.best_value)),
        margin_played: round(margin_of(a.played_value)),
    })
}

fn round(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Replays `events`, calling `f` with the game before each decided event, its index and
/// `(player, action)`.
fn walk(
    events: &[Event],
    mut f: impl FnMut(&Game, usize, (u8, &Action)),
) -> Result<(), ReviewError> {
    let mut game = Game::replay(events.get(..1).unwrap_or_default())
        .map_err(|e| ReviewError::Replay(e.to_string()))?;
    for (i, e) in events.iter().enumerate().skip(1) {
        if let Event::Decided { player, action, .. } = e {
            f(&game, i, (*player, action));
        }
        game.apply_at(events, i, &mut NoEffects)
            .map_err(|e| ReviewError::Replay(e.to_string()))?;
    }
    if !game.is_over() {
        return Err(ReviewError::NotOver);
    }
    Ok(())
}

/// The biggest losses of each player: `(player, judged)` of the `n` costliest decisions
/// per player (a loss of at least `min` points), costliest first.
pub fn biggest_losses(judged: &[Judged], n: usize, min: f64) -> Vec<&Judged> {
    let mut players: Vec<u8> = judged.iter().map(|j| j.player).collect();
    players.sort_unstable();
    players.dedup();
    let mut out = Vec::new();
    for p in players {
        let mut mine: Vec<&Judged> = judged
            .iter()
            .filter(|j| j.player == p && j.loss() >= min)
            .collect();
        mine.sort_by(|a, b| {
            b.loss()
                .total_cmp(&a.loss())
                .then(a.version.cmp(&b.version))
        });
        out.extend(mine.into_iter().take(n));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A review judges every decision with a choice, repeats itself for one seed, and
    /// the option it prefers is never worth less than the one played.
    #[test]
    fn a_review_judges_every_choice_and_repeats_itself() {
        let events = super::tests_support::finished_game(3);
        let budget = Budget {
            playouts: 4,
            time: None,
        };
        let mut calls = 0;
        let a = review(&events, budget, 1, |_| calls += 1).expect("a review");
        assert_eq!(a.len(), decisions_to_judge(&events).expect("counted"));
        assert_eq!(calls, a.len());
        assert!(a.len() > 40, "{}", a.len());
        assert!(a.iter().all(|j| j.margin_best >= j.margin_played));
        assert!(a.iter().any(|j| j.loss() > 0.0));
        let b = review(&events, budget, 1, |_| {}).expect("a review");
        assert_eq!(a, b);
        let worst = biggest_losses(&a, 3, 0.1);
        assert!(worst.len() <= 6);
        for w in worst.windows(2) {
            if w[0].player == w[1].player {
                assert!(w[0].loss() >= w[1].loss());
            }
        }
        // a game that is not over is not reviewed
        assert!(matches!(
            review(&events[..events.len() - 1], budget, 1, |_| {}),
            Err(ReviewError::NotOver)
        ));
    }
}

#[cfg(test)]
mod timing {
    use super::*;

    /// The review of a finished 2-player base game at the server's default budget (400
    /// playouts per decision, `TILEPOST_REVIEW_PLAYOUTS`), on one core: `cargo test --release -p tilepost-bots --lib
    /// review::timing -- --ignored --nocapture` prints the time (a figure, not a check).
    #[test]
    #[ignore]
    fn a_base_game_reviewed_at_the_default_budget() {
        let events = tests_support::finished_game(11);
        let started = std::time::Instant::now();
        let judged = review(
            &events,
            Budget {
                playouts: 400,
                time: None,
            },
            1,
            |_| {},
        )
        .expect("a review");
        println!(
            "{} decisions judged in {:.1} s",
            judged.len(),
            started.elapsed().as_secs_f64()
        );
    }
}

#[cfg(test)]
mod tests_support {
    use tilepost_engine::rng::Rng;
    use tilepost_engine::{Event, Game, GameConfig};

    /// A 2-player base game played to its end by random legal choices.
    pub fn finished_game(seed: u64) -> Vec<Event> {
        let (mut game, first) = Game::new(&GameConfig {
            players: 2,
            expansions: Vec::new(),
            tile_order: None,
            seed,
            rules: Default::default(),
        })
        .expect("a base game");
        let mut events = vec![first];
        let mut rng = Rng::new(seed);
        while let Some(p) = game.pending() {
            let options = game.legal_actions();
            let a = options[rng.below(options.len() as u64) as usize].clone();
            events.push(game.play(p.player, &a).expect("legal").event);
        }
        events
    }
}
