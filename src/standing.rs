//! A player's standing: ratings and the figures of a profile, worked out from a game's
//! end (pure; the store writes them in the transaction of the game's last event).
//!
//! **Ratings** are Glicko-2 (Glickman, 2001), computed by `skillratings`, one rating per
//! pool ([`Pool`]: base games apart from games with expansions, whose skills differ).
//! A game of 2 to 6 players counts as one rating period in which each player met every
//! other player once: a win against each player ranked below, a loss against each
//! ranked above, a draw with a tie, all against the others' ratings from before the
//! game. Players who resigned or timed out rank below everyone who stayed (the engine's
//! ranking), so leaving still rates. A rating is provisional while its deviation is above
//! [`PROVISIONAL_DEVIATION`]; the leaderboard lists only established ratings.
//! Why Glicko-2 rather than TrueSkill or Weng-Lin: docs/players.md.
//!
//! **Only real games rate.** A rated game changes ratings only when every player made at
//! least [`MIN_DECISIONS`] decisions of their own ([`decisions`]), and when no two of its
//! players already had their day's count of rated games together (the pair limit,
//! [`pair_limit_reached`]); otherwise it ends unrated, with an [`UnratedReason`].

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;
use utoipa::ToSchema;

/// Above this deviation a rating is provisional (and off the leaderboard).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The rating pools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pool {
    /// Games without expansions.
    Base,
    /// Games with at least one expansion.
    Expansions,
}

impl Pool {
    pub const ALL: [Pool; 2] = [Pool::Base, Pool::Expansions];

    pub fn as_str(self) -> &'static str {
        match self {
            Pool::Base => "base",
            Pool::Expansions => "expansions",
        }
    }

    pub fn from_name(s: &str) -> Option<Pool> {
        Pool::ALL.into_iter().find(|p| p.as_str() == s)
    }

    /// The pool of a game with these expansions.
    pub fn of(expansions: &[String]) -> Pool {
        if expansions.is_empty() {
            Pool::Base
        } else {
            Pool::Expansions
        }
    }
}

/// A player's rating in a pool.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played in the pool.
    pub games: i32,
}

impl Default for Rating {
    /// A player's first rating: 1500 with deviation 350 and volatility 0.06.
    fn default() -> Rating {
        let g = Glicko2Rating::new();
        Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
            games: 0,
        }
    }
}

impl Rating {
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

/// The ratings after a game: `players` are the ratings before it with each player's
/// rank (1 = first; equal ranks are ties), the answer is in the same order.
pub fn rate(players: &[(Rating, u8)]) -> Vec<Rating> {
    let config = Glicko2Config::new();
    players
        .iter()
        .enumerate()
        .map(|(i, (me, my_rank))| {
            let results: Vec<(Glicko2Rating, Outcomes)> = players
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, (other, rank))| {
                    let outcome = match my_rank.cmp(rank) {
                        std::cmp::Ordering::Less => Outcomes::WIN,
                        std::cmp::Ordering::Greater => Outcomes::LOSS,
                        std::cmp::Ordering::Equal => Outcomes::DRAW,
                    };
                    (other.glicko(), outcome)
                })
                .collect();
            if results.is_empty() {
                return *me;
            }
            let new = glicko2_rating_period(&me.glicko(), &results, &config);
            Rating {
                rating: new.rating,
                deviation: new.deviation,
                volatility: new.volatility,
                games: me.games + 1,
            }
        })
        .collect()
}

/// One event of a game's log as the figures see it: who took it by a request (`None`:
/// the server, or a decision its player left to the server), whose own decision it was
/// and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub actor: Option<String>,
    /// The player whose own decision this was: one they took (by a request, or a
    /// computer player's choice) or left to their standing orders and conditional turns.
    /// `None`: no decision of a player's own (the game's creation, a resignation, a
    /// time-out, a decision with one legal option that the server took).
    pub decider: Option<String>,
    pub at: i64,
}

/// Each player's moves and the time they took, from a game's log in order: a move is a
/// run of consecutive decisions of one player, and it took the time since the decision
/// before it (whoever took that one). Decisions the server took count for nobody.
pub fn move_times(steps: &[Step]) -> HashMap<String, (i64, i64)> {
    let mut out: HashMap<String, (i64, i64)> = HashMap::new();
    for pair in steps.windows(2) {
        let (before, step) = (&pair[0], &pair[1]);
        let Some(actor) = &step.actor else { continue };
        if before.actor.as_ref() == Some(actor) {
            continue;
        }
        let e = out.entry(actor.clone()).or_default();
        e.0 += 1;
        e.1 += (step.at - before.at).max(0);
    }
    out
}

/// Why a rated game changed no rating: `too_short` (a player made fewer than two
/// decisions of their own) or `pair_limit` (two of its players had already played their
/// day's count of rated games together that change ratings).
// stored by `as_str` in `game_results.unrated_reason`
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum UnratedReason {
    /// A player made fewer than [`MIN_DECISIONS`] decisions of their own.
    TooShort,
    /// Two of its players already had `TILEPOST_RATED_GAMES_PER_PAIR_PER_DAY` rated games
    /// together that counted within the day.
    PairLimit,
}

impl UnratedReason {
    pub const ALL: [UnratedReason; 2] = [UnratedReason::TooShort, UnratedReason::PairLimit];

    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            UnratedReason::TooShort => "too_short",
            UnratedReason::PairLimit => "pair_limit",
        }
    }

    pub fn from_name(s: &str) -> Option<UnratedReason> {
        UnratedReason::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

/// Decisions each player must have made of their own for a rated game to rate.
pub const MIN_DECISIONS: u32 = 2;

/// The pair limit's window: the day before a game's end.
pub const PAIR_WINDOW_MS: i64 = 24 * 3600 * 1000;

/// Each player's own decisions in a game's log (see [`Step::decider`]).
pub fn decisions(steps: &[Step]) -> HashMap<String, u32> {
    let mut out: HashMap<String, u32> = HashMap::new();
    for who in steps.iter().filter_map(|s| s.decider.as_ref()) {
        *out.entry(who.clone()).or_default() += 1;
    }
    out
}

/// Whether a player of a rated game made fewer than [`MIN_DECISIONS`] decisions of their
/// own (`decisions`, one per player): such a game rates nobody.
pub fn too_short(decisions: &[u32]) -> bool {
    decisions.iter().any(|d| *d < MIN_DECISIONS)
}

/// Whether some pair of a rated game's `players` already has `limit` rated games that
/// counted within [`PAIR_WINDOW_MS`] before its end: such a game rates nobody.
/// `counted(i, j)` (`i < j`) says how many the players `i` and `j` have; it is asked pair
/// by pair until one is full.
pub fn pair_limit_reached<E>(
    players: usize,
    limit: i64,
    mut counted: impl FnMut(usize, usize) -> Result<i64, E>,
) -> Result<bool, E> {
    for i in 0..players {
        for j in i + 1..players {
            if counted(i, j)? >= limit {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// Glickman's worked example ("Example of the Glicko-2 system", 2013): a player of
    /// 1500 (deviation 200, volatility 0.06) beats 1400 (30), loses to 1550 (100) and to
    /// 1700 (300) in one rating period, with τ = 0.5: 1464.06, 151.52, 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let me = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let new = glicko2_rating_period(
            &me,
            &[
                (opponent(1400.0, 30.0), Outcomes::WIN),
                (opponent(1550.0, 100.0), Outcomes::LOSS),
                (opponent(1700.0, 300.0), Outcomes::LOSS),
            ],
            &Glicko2Config::new(),
        );
        assert!(close(new.rating, 1464.06, 0.01), "{new:?}");
        assert!(close(new.deviation, 151.52, 0.01), "{new:?}");
        assert!(close(new.volatility, 0.05999, 0.00001), "{new:?}");
    }

    /// A 3-player game worked by hand with Glickman's steps (each player one period of
    /// two games against the others' ratings before the game): A (1500, 200) wins, C
    /// (1700, 300) is second, B (1400, 30) last; all volatilities 0.06, τ = 0.5.
    ///
    /// A: with g(30) = 0.99550, g(300) = 0.72424, E(A,B) = 0.63947 and E(A,C) = 0.30284
    /// (Glicko-2 scale), v = 1/(g(30)²·E(A,B)(1−E(A,B)) + g(300)²·E(A,C)(1−E(A,C))) =
    /// 2.94796 and Σ g·(s − E) = 0.99550·0.36053 + 0.72424·0.69716 = 0.86382, so
    /// Δ = 2.54649; the volatility stays 0.060002; φ* = 1.15285, φ' = 0.95711 and
    /// μ' = 0 + φ'²·0.86382 = 0.79132: 1500 + 173.7178·μ' = 1637.47, deviation
    /// 173.7178·φ' = 166.27.
    /// B and C likewise: B 1397.22 (31.62), C 1567.47 (223.42).
    #[test]
    fn a_three_player_game_worked_by_hand() {
        let r = |rating, deviation| Rating {
            rating,
            deviation,
            volatility: 0.06,
            games: 4,
        };
        let (a, b, c) = (r(1500.0, 200.0), r(1400.0, 30.0), r(1700.0, 300.0));
        let new = rate(&[(a, 1), (b, 3), (c, 2)]);
        let want = [(1637.47, 166.27), (1397.22, 31.62), (1567.47, 223.42)];
        for (got, (rating, deviation)) in new.iter().zip(want) {
            assert!(close(got.rating, rating, 0.01), "{got:?} vs {rating}");
            assert!(
                close(got.deviation, deviation, 0.01),
                "{got:?} vs {deviation}"
            );
            assert!(close(got.volatility, 0.06, 0.0001), "{got:?}");
            assert_eq!(got.games, 5);
        }
    }

    #[test]
    fn ties_are_draws_and_a_two_player_game_is_symmetric_for_equal_players() {
        let new = rate(&[(Rating::default(), 1), (Rating::default(), 1)]);
        assert!(close(new[0].rating, 1500.0, 1e-6), "{new:?}");
        let new = rate(&[(Rating::default(), 1), (Rating::default(), 2)]);
        assert!(
            close(new[0].rating - 1500.0, 1500.0 - new[1].rating, 1e-6),
            "{new:?}"
        );
        assert!(new[0].rating > 1600.0 && new[0].provisional());
    }

    #[test]
    fn a_move_is_a_run_of_one_players_decisions_timed_from_the_decision_before() {
        let s = |actor: Option<&str>, at| Step {
            actor: actor.map(str::to_string),
            decider: actor.map(str::to_string),
            at,
        };
        let steps = [
            s(None, 0),
            s(Some("ann"), 100),
            s(Some("ann"), 150),
            s(Some("ben"), 1150),
            s(None, 1200),
            s(Some("ann"), 1700),
        ];
        let t = move_times(&steps);
        assert_eq!(t.get("ann"), Some(&(2, 100 + 500)));
        assert_eq!(t.get("ben"), Some(&(1, 1000)));
    }

    #[test]
    fn a_reason_reads_back_as_stored_and_as_serialised() {
        for r in UnratedReason::ALL {
            assert_eq!(UnratedReason::from_name(r.as_str()), Some(r));
            assert_eq!(serde_json::to_value(r).ok(), Some(r.as_str().into()));
        }
        assert_eq!(UnratedReason::from_name("too-short"), None);
    }

    /// The decisions of a game that ann and ben left at once, and of one where each
    /// placed a tile and a follower (ben's follower by his standing order) before ann
    /// resigned.
    #[test]
    fn only_a_players_own_decisions_count() {
        let step = |decider: Option<&str>| Step {
            actor: None,
            decider: decider.map(str::to_string),
            at: 0,
        };
        // the creation, ben's forced move, ann's resignation: nobody's decision
        let farmed = [step(None), step(None), step(None)];
        let d = decisions(&farmed);
        assert!(d.is_empty());
        let count = |d: &HashMap<String, u32>, who: &str| d.get(who).copied().unwrap_or(0);
        assert!(too_short(&[count(&d, "ann"), count(&d, "ben")]));
        let played = [
            step(None),
            step(Some("ann")),
            step(Some("ann")),
            step(Some("ben")),
            step(Some("ben")),
            step(None),
        ];
        let d = decisions(&played);
        assert_eq!((count(&d, "ann"), count(&d, "ben")), (2, 2));
        assert!(!too_short(&[2, 2]));
        assert!(too_short(&[2, 1]), "every player, not the pair together");
        assert!(too_short(&[5, 7, 0]));
        assert!(!too_short(&[MIN_DECISIONS; 6]));
    }

    #[test]
    fn the_pair_limit_holds_for_every_pair_of_a_game() {
        let never = |_: usize, _: usize| -> Result<i64, ()> { panic!("no pair to ask") };
        assert_eq!(pair_limit_reached(1, 3, never), Ok(false));
        // two players: below, at and above the limit
        for (n, full) in [(0, false), (2, false), (3, true), (4, true)] {
            assert_eq!(pair_limit_reached(2, 3, |_, _| Ok::<_, ()>(n)), Ok(full));
        }
        // four players: only the pair (1, 3) is full; every pair is asked once, in order,
        // until then
        let mut asked = Vec::new();
        let full = pair_limit_reached(4, 3, |i, j| {
            asked.push((i, j));
            Ok::<_, ()>(if (i, j) == (1, 3) { 3 } else { 2 })
        });
        assert_eq!(full, Ok(true));
        assert_eq!(asked, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3)]);
        let mut asked = 0;
        let full = pair_limit_reached(6, 3, |_, _| {
            asked += 1;
            Ok::<_, ()>(2)
        });
        assert_eq!((full, asked), (Ok(false), 15));
        // an error of the count is the answer
        assert_eq!(pair_limit_reached(3, 3, |_, _| Err("down")), Err("down"));
    }
}
