//! The event's configuration, as recorded in its creation event: the stages and their
//! formats, match length, table size, rank points, tie-break order, bye value,
//! withdrawal rule and round cap rule. [`Config::validate`] is the one gate: a config
//! that passes it can be replayed without further checks.

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::points::Points;

/// Everything fixed when the event is created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The stages, played in order. The first takes every registered player; each
    /// later one takes the qualifiers its [`Entry`] names from the stage before.
    pub stages: Vec<StageConfig>,
    /// Rank points by finishing place, per table size (index 0: 2 seats, … index 4:
    /// 6 seats). Empty: [`Config::default_rank_points`]. Each list has one entry per
    /// place, never increasing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rank_points: Vec<Vec<u32>>,
    /// Tie-breaks after points, in order. Empty: the World Championship's
    /// (Buchholz cut-1, then score difference), always followed by a seeded draw.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tie_breaks: Vec<TieBreak>,
    /// A Swiss bye is worth this many half points (2 = a win at 2-player tables with
    /// the default rank points).
    #[serde(default = "default_bye_half_points")]
    pub bye_half_points: u32,
    /// What happens to a round-robin player's results when they withdraw.
    #[serde(default)]
    pub withdrawal: WithdrawalRule,
    /// How a game still running at the round's deadline is decided.
    #[serde(default)]
    pub round_cap: RoundCap,
    /// Decimal seed of the final draw between players tied on every tie-break.
    #[serde(default)]
    pub seed: String,
}

fn default_bye_half_points() -> u32 {
    2
}

/// One stage of the event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StageConfig {
    pub format: Format,
    /// Games per pairing: 1, 3 or 5 (2-player tables only; multi-player tables play 1).
    #[serde(default = "one")]
    pub best_of: u8,
    /// Seats per table: 2 to 6 (Swiss only; other formats play at 2-player tables).
    #[serde(default = "two")]
    pub table_size: u8,
    /// Who enters this stage.
    #[serde(default)]
    pub entry: Entry,
}

fn one() -> u8 {
    1
}
fn two() -> u8 {
    2
}

/// How a stage pairs its players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Format {
    /// `rounds` Swiss rounds.
    Swiss { rounds: u32 },
    /// Every player meets every other (twice when `double`), in Berger tables; with
    /// `groups` > 1 the entrants are dealt into groups by snake seeding and each group
    /// plays its own round robin.
    RoundRobin {
        #[serde(default)]
        double: bool,
        #[serde(default = "one_u32")]
        groups: u32,
    },
    /// A seeded knockout bracket.
    Knockout {
        #[serde(default)]
        double: bool,
    },
}

fn one_u32() -> u32 {
    1
}

/// Who enters a stage.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Entry {
    /// Every registered player who has not withdrawn, seeded by rating (highest
    /// first), then by registration order. Only for the first stage.
    #[default]
    Registered,
    /// The best `count` of the previous stage's standings (per group, when it had
    /// groups: the group winners first, then the runners-up, …), seeded in that order.
    Top { count: u32 },
}

/// Tie-breaks, applied in the configured order after points. See the crate README for
/// their definitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    Buchholz,
    BuchholzCut1,
    SonnebornBerger,
    ScoreDifference,
    HeadToHead,
    GamesWon,
    FewerStarts,
}

impl TieBreak {
    /// The World Championship's order.
    pub const DEFAULT: [TieBreak; 2] = [TieBreak::BuchholzCut1, TieBreak::ScoreDifference];
}

/// What happens to a round-robin player's results when they withdraw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WithdrawalRule {
    /// Their results stand; every scheduled game they did not play is lost by forfeit
    /// (a win for the opponent, no game scores).
    #[default]
    ForfeitUnplayed,
    /// When they played fewer than half of their scheduled games, all their results
    /// are removed (as if they had never entered); otherwise as `forfeit_unplayed`.
    RemoveUnderHalf,
}

/// How a game still running at the round's deadline is decided. The crate keeps no
/// clock: the server applies the rule and records the decision as a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundCap {
    /// Days a round lasts; 0: no deadline.
    #[serde(default)]
    pub days: u32,
    #[serde(default)]
    pub decision: CapDecision,
}

impl Default for RoundCap {
    fn default() -> RoundCap {
        RoundCap {
            days: 0,
            decision: CapDecision::ScoreIfEndedNow,
        }
    }
}

/// The decision taken at a round's deadline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CapDecision {
    /// The game is scored as if it ended now (final scoring of the board as it is).
    #[default]
    ScoreIfEndedNow,
    /// The player(s) whose clock ran out forfeit; the others are ranked by score.
    Forfeit,
}

impl Config {
    /// A single-stage event with the defaults.
    pub fn single(stage: StageConfig) -> Config {
        Config {
            stages: vec![stage],
            rank_points: Vec::new(),
            tie_breaks: Vec::new(),
            bye_half_points: default_bye_half_points(),
            withdrawal: WithdrawalRule::default(),
            round_cap: RoundCap::default(),
            seed: "0".into(),
        }
    }

    /// Rank points by place when nothing is configured: n−1, n−2, …, 0 at an n-seat
    /// table (a win is 1 point at 2-player tables; 3/2/1/0 at 4-player tables).
    pub fn default_rank_points(seats: usize) -> Vec<u32> {
        (0..seats).rev().map(|p| p as u32).collect()
    }

    /// The points for each place at an n-seat table.
    pub fn rank_points_for(&self, seats: usize) -> Vec<u32> {
        match seats
            .checked_sub(2)
            .and_then(|i| self.rank_points.get(i))
            .filter(|v| !v.is_empty())
        {
            Some(v) => v.clone(),
            None => Config::default_rank_points(seats),
        }
    }

    /// The tie-breaks in force.
    pub fn tie_breaks(&self) -> Vec<TieBreak> {
        if self.tie_breaks.is_empty() {
            TieBreak::DEFAULT.to_vec()
        } else {
            self.tie_breaks.clone()
        }
    }

    /// The bye's value.
    pub fn bye_points(&self) -> Points {
        Points::from_halves(i64::from(self.bye_half_points))
    }

    /// The draw seed as a number (an unreadable seed was refused by `validate`).
    pub fn seed_value(&self) -> u64 {
        self.seed.parse().unwrap_or(0)
    }

    /// Checks the config; the only gate.
    pub fn validate(&self) -> Result<(), Error> {
        let bad = |why: String| Err(Error::InvalidConfig(why));
        if self.stages.is_empty() {
            return bad("an event needs at least one stage".into());
        }
        if self.stages.len() > 8 {
            return bad("at most 8 stages".into());
        }
        if !self.seed.is_empty() && self.seed.parse::<u64>().is_err() {
            return bad("the seed is a decimal number".into());
        }
        if self.bye_half_points > 2 * 1000 {
            return bad("the bye is worth at most 1000 points".into());
        }
        if self.rank_points.len() > 5 {
            return bad("rank points are given for 2 to 6 seats".into());
        }
        for (i, pts) in self.rank_points.iter().enumerate() {
            if !pts.is_empty() && pts.len() != i + 2 {
                return bad(format!(
                    "rank points for {} seats need {} places",
                    i + 2,
                    i + 2
                ));
            }
            if pts.windows(2).any(|w| w[0] < w[1]) || pts.iter().any(|p| *p > 1000) {
                return bad("rank points never increase and are at most 1000".into());
            }
        }
        let mut seen = Vec::new();
        for t in &self.tie_breaks {
            if seen.contains(t) {
                return bad(format!("tie-break {t:?} is listed twice"));
            }
            seen.push(*t);
        }
        for (i, s) in self.stages.iter().enumerate() {
            if !(2..=6).contains(&s.table_size) {
                return bad(format!("stage {i}: a table seats 2 to 6"));
            }
            if ![1, 3, 5].contains(&s.best_of) {
                return bad(format!("stage {i}: a match is best of 1, 3 or 5"));
            }
            if s.table_size > 2 && s.best_of != 1 {
                return bad(format!("stage {i}: multi-player tables play one game"));
            }
            match s.format {
                Format::Swiss { rounds } => {
                    if rounds == 0 || rounds > 50 {
                        return bad(format!("stage {i}: 1 to 50 Swiss rounds"));
                    }
                }
                Format::RoundRobin { groups, .. } => {
                    if s.table_size != 2 {
                        return bad(format!("stage {i}: round robins play at 2-player tables"));
                    }
                    if groups == 0 || groups > 64 {
                        return bad(format!("stage {i}: 1 to 64 groups"));
                    }
                }
                Format::Knockout { .. } => {
                    if s.table_size != 2 {
                        return bad(format!("stage {i}: knockouts play at 2-player tables"));
                    }
                }
            }
            match (i, &s.entry) {
                (0, Entry::Registered) => {}
                (0, _) => return bad("the first stage takes the registered players".into()),
                (_, Entry::Registered) => {
                    return bad(format!("stage {i} takes the best of the stage before"))
                }
                (_, Entry::Top { count }) => {
                    if *count < 2 {
                        return bad(format!("stage {i} needs at least 2 qualifiers"));
                    }
                }
            }
        }
        Ok(())
    }
}
