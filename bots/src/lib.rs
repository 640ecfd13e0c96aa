//! # tilepost-bots
//!
//! Computer opponents for tilepost, on the rules engine alone: one [`Bot`] interface and
//! four levels ([`Level::Random`], [`Level::Greedy`], [`Level::Mcts`], [`Level::Expert`]), and an
//! [`arena`] that plays them against each other.
//!
//! A bot sees a game only through a [`SeatView`] (`Game::seat_view`): the visible past
//! and a canonical hidden future, so its input holds nothing its seat could not see. It
//! picks one of the pending decision's listed options (`Game::legal_actions`), which
//! covers every expansion without special cases. Given its seed (and a budget counted in
//! playouts), a bot decides the same way every time; the only clock a bot reads is the
//! optional time limit of its [`Budget`].
//!
//! ```
//! use tilepost_bots::{Bot, Budget, Level};
//! use tilepost_engine::{Game, GameConfig};
//! let (mut game, _) = Game::new(&GameConfig { players: 2, seed: 7, ..Default::default() }).unwrap();
//! let mut bots = [Level::Greedy.bot(1, Budget::default()), Level::Random.bot(2, Budget::default())];
//! while let Some(p) = game.pending() {
//!     let action = bots[p.player as usize].decide(&game.seat_view(p.player)).unwrap();
//!     game.play(p.player, &action).unwrap();
//! }
//! assert!(game.is_over());
//! ```

pub mod arena;
pub mod eval;
pub mod expert;
pub mod greedy;
pub mod mcts;
pub mod random;
pub mod review;

use std::cell::Cell;
use std::time::{Duration, Instant};

pub use tilepost_engine::SeatView;
use tilepost_engine::{Action, Game};

/// A computer opponent.
pub trait Bot: Send {
    /// The level's name (`random`, `greedy`, `mcts`).
    fn name(&self) -> &'static str;

    /// One of the listed options of the pending decision, when it is the view's seat's;
    /// `None` when nothing is pending for that seat.
    fn decide(&mut self, view: &SeatView) -> Option<Action>;
}

/// How much a searching bot may spend on one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Sampled games (playouts) per decision.
    pub playouts: u32,
    /// A time limit per decision; with it the bot stops at whichever comes first and is no
    /// longer deterministic.
    pub time: Option<Duration>,
}

/// The share of a time limit a search always keeps in reserve for the answer's
/// bookkeeping.
const TIME_RESERVE: f64 = 0.02;

impl Budget {
    /// The clock of a decision started at `started` (`None` without a time limit).
    pub(crate) fn clock(&self, started: Instant) -> Option<Clock> {
        self.time.map(|t| Clock::new(started, t))
    }
}

/// A decision's time limit, read before every step of the search (one evaluation of the
/// greedy rule, in its look ahead too; one move of a playout). The search stops when the
/// next step could end past the limit: when the time now, plus the longest stretch
/// between two readings so far (a step, or a pause of the whole process on a busy
/// machine), plus a reserve of 2% of the limit, reaches it. So a decision overruns its
/// limit only when one step, or one pause, outlasts every one before it by more than the
/// reserve.
#[derive(Clone, Debug)]
pub(crate) struct Clock {
    end: Instant,
    reserve: Duration,
    last: Cell<Instant>,
    gap: Cell<Duration>,
}

impl Clock {
    fn new(started: Instant, limit: Duration) -> Clock {
        Clock {
            end: started + limit,
            reserve: limit.mul_f64(TIME_RESERVE),
            last: Cell::new(started),
            gap: Cell::new(Duration::ZERO),
        }
    }

    /// Whether a step starting now could end past the limit.
    pub(crate) fn up(&self) -> bool {
        self.up_after(Duration::ZERO)
    }

    /// Whether a step starting now and lasting `extra` more than the longest stretch
    /// between readings could end past the limit.
    pub(crate) fn up_after(&self, extra: Duration) -> bool {
        let now = Instant::now();
        let gap = self
            .gap
            .get()
            .max(now.saturating_duration_since(self.last.get()));
        self.gap.set(gap);
        self.last.set(now);
        now + gap + self.reserve + extra >= self.end
    }
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            playouts: 300,
            time: None,
        }
    }
}

/// The levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// A uniformly random listed option.
    Random,
    /// The option with the best immediate evaluation (points, open features, fields,
    /// followers kept), looking on through the rest of the player's turn part.
    Greedy,
    /// Information-set Monte Carlo search over sampled hidden futures (see `mcts`: the
    /// greedy's best candidates compared on shared samples, a tree search below them).
    Mcts,
    /// The search of `mcts` spent where it decides: a wider root raced on shared samples,
    /// the endgame played to the end, several threads (see `expert`).
    Expert,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Random, Level::Greedy, Level::Mcts, Level::Expert];

    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Greedy => "greedy",
            Level::Mcts => "mcts",
            Level::Expert => "expert",
        }
    }

    pub fn from_name(s: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == s)
    }

    /// A bot of this level with its own seed (the budget counts for `mcts` and `expert`).
    pub fn bot(self, seed: u64, budget: Budget) -> Box<dyn Bot> {
        match self {
            Level::Random => Box::new(random::RandomBot::new(seed)),
            Level::Greedy => Box::new(greedy::GreedyBot::new(seed)),
            Level::Mcts => Box::new(mcts::MctsBot::new(seed, budget)),
            Level::Expert => Box::new(expert::ExpertBot::new(seed, budget)),
        }
    }
}

/// The listed options of the view's pending decision if it is the view's seat's.
pub(crate) fn own_options(view: &SeatView) -> Option<(&Game, Vec<Action>)> {
    let game = view.game();
    let pending = game.pending()?;
    if pending.player != view.seat() {
        return None;
    }
    let options = game.legal_actions();
    (!options.is_empty()).then_some((game, options))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_limit_keeps_two_percent_in_reserve() {
        let now = Instant::now();
        let reserve = |ms| Clock::new(now, Duration::from_millis(ms)).reserve;
        assert_eq!(reserve(3000), Duration::from_millis(60));
        assert_eq!(reserve(100), Duration::from_millis(2));
        // no time left, no step; a long limit leaves time for one
        assert!(Clock::new(now, Duration::ZERO).up());
        assert!(!Clock::new(Instant::now(), Duration::from_secs(60)).up());
    }
}
