//! Knockout brackets, single and double elimination, seeded by the stage's entrant
//! order (rating for a first stage, the previous stage's standings otherwise).
//!
//! The bracket is a pure function of the number of entrants: matches fed by a seed,
//! the winner of an earlier match or its loser. Its size is the next power of two (at
//! least 4 for double elimination); seeds are placed in the standard order (1 v 16,
//! 8 v 9, …), so the missing seeds are byes for the best seeds. A match with one player
//! is a walkover and is never paired; a withdrawn player's next match is a walkover.
//!
//! Double elimination: the losers of the winners' bracket round 1 meet in losers'
//! round 1; each later winners' round drops its losers (in reverse order every other
//! round, to put off rematches) against the losers' bracket survivors, who then play
//! each other. The grand final pits the winners' champion against the losers'
//! champion; if the losers' champion wins it, a second final (`GF2`) is played.
//!
//! Each round pairs every match whose players are both known, once the previous round
//! is over. A knockout match tied after its games goes to the greater total score,
//! then to the better seed. Final places: the champion, then by how far each player
//! went (the later the round they were eliminated in, the better), then by seed.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::error::Error;
use crate::state::{MatchStatus, State};
use crate::swiss::Paired;

/// Where a bracket match's player comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The entrant with this 0-based seed.
    Seed(usize),
    Winner(usize),
    Loser(usize),
}

/// A match of the bracket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BracketMatch {
    pub name: String,
    pub a: Source,
    pub b: Source,
    /// How far a player eliminated here went (higher is further).
    pub depth: u32,
    /// The grand final's second match, played only if the losers' champion won the
    /// first.
    pub reset: bool,
}

/// A bracket for a number of entrants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bracket {
    pub matches: Vec<BracketMatch>,
}

/// A player slot as the results so far fill it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Not known yet.
    Unknown,
    /// Nobody (a bye, or a walkover's loser).
    Empty,
    Player(usize),
}

/// A bracket match as it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub a: Slot,
    pub b: Slot,
    pub winner: Slot,
    pub loser: Slot,
    /// (round, table) where it is played.
    pub table: Option<(u32, u32)>,
}

/// The whole bracket as it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    pub matches: Vec<Resolved>,
    pub champion: Option<usize>,
    /// Whether the last match is settled (a champion, or nobody left).
    pub complete: bool,
    /// Player → depth of the match that eliminated them.
    pub eliminated_at: BTreeMap<usize, usize>,
}

/// Seed indices (0-based) in bracket order for a bracket of `size` (a power of two).
pub fn seed_positions(size: usize) -> Vec<usize> {
    let mut v = vec![0usize];
    while v.len() < size {
        let m = v.len() * 2;
        v = v.iter().flat_map(|s| [*s, m - 1 - *s]).collect();
    }
    v
}

impl Bracket {
    pub fn new(entrants: usize, double: bool) -> Bracket {
        let min = if double { 4 } else { 2 };
        let size = entrants.max(min).next_power_of_two();
        let k = size.trailing_zeros() as usize;
        let pos = seed_positions(size);
        let mut matches = Vec::new();
        let mut push = |name: String, a: Source, b: Source, depth: u32, reset: bool| {
            matches.push(BracketMatch {
                name,
                a,
                b,
                depth,
                reset,
            });
            matches.len() - 1
        };
        // winners' bracket
        let mut wb: Vec<Vec<usize>> = Vec::new();
        let mut prev: Vec<Source> = pos.iter().map(|s| Source::Seed(*s)).collect();
        for r in 1..=k {
            let mut round = Vec::new();
            for i in 0..prev.len() / 2 {
                let depth = if double { 0 } else { r as u32 };
                round.push(push(
                    format!("W{r}.{}", i + 1),
                    prev[2 * i],
                    prev[2 * i + 1],
                    depth,
                    false,
                ));
            }
            prev = round.iter().map(|m| Source::Winner(*m)).collect();
            wb.push(round);
        }
        if !double {
            return Bracket { matches };
        }
        let wb_final = wb[k - 1][0];
        // losers' bracket
        let mut lr = 0u32;
        let mut survivors: Vec<Source> = wb[0].iter().map(|m| Source::Loser(*m)).collect();
        let pair_up = |srcs: &[Source],
                       drops: Option<&[Source]>,
                       push: &mut dyn FnMut(String, Source, Source, u32, bool) -> usize,
                       lr: &mut u32| {
            *lr += 1;
            let mut out = Vec::new();
            match drops {
                None => {
                    for i in 0..srcs.len() / 2 {
                        let m = push(
                            format!("L{lr}.{}", i + 1),
                            srcs[2 * i],
                            srcs[2 * i + 1],
                            *lr,
                            false,
                        );
                        out.push(Source::Winner(m));
                    }
                }
                Some(d) => {
                    for i in 0..srcs.len() {
                        let m = push(format!("L{lr}.{}", i + 1), srcs[i], d[i], *lr, false);
                        out.push(Source::Winner(m));
                    }
                }
            }
            out
        };
        survivors = pair_up(&survivors, None, &mut push, &mut lr);
        for (j, round) in wb.iter().enumerate().skip(1) {
            let mut drops: Vec<Source> = round.iter().map(|m| Source::Loser(*m)).collect();
            if j % 2 == 1 {
                drops.reverse();
            }
            survivors = pair_up(&survivors, Some(&drops), &mut push, &mut lr);
            if j + 1 < k {
                survivors = pair_up(&survivors, None, &mut push, &mut lr);
            }
        }
        let lb_champion = survivors[0];
        let gf = push(
            "GF".into(),
            Source::Winner(wb_final),
            lb_champion,
            lr + 1,
            false,
        );
        push(
            "GF2".into(),
            Source::Winner(gf),
            Source::Loser(gf),
            lr + 2,
            true,
        );
        Bracket { matches }
    }

    /// The bracket as the stage's recorded results fill it.
    pub fn resolve(&self, state: &State, stage: usize) -> Resolution {
        let st = &state.stages[stage];
        let entrants = state.entrants_of(stage);
        let mut tables = BTreeMap::new();
        for (r, round) in st.rounds.iter().enumerate() {
            for t in &round.tables {
                if let Some(name) = &t.bracket {
                    tables.insert(name.clone(), (r as u32 + 1, t));
                }
            }
        }
        let fed: Vec<bool> = (0..self.matches.len())
            .map(|m| {
                self.matches
                    .iter()
                    .any(|x| x.a == Source::Loser(m) || x.b == Source::Loser(m))
            })
            .collect();
        let mut out: Vec<Resolved> = Vec::new();
        let mut eliminated_at = BTreeMap::new();
        for (i, m) in self.matches.iter().enumerate() {
            let slot = |s: Source, out: &[Resolved]| match s {
                Source::Seed(k) => entrants.get(k).map_or(Slot::Empty, |p| Slot::Player(*p)),
                Source::Winner(x) => out[x].winner,
                Source::Loser(x) => out[x].loser,
            };
            let (mut a, mut b) = (slot(m.a, &out), slot(m.b, &out));
            let table = tables.get(&m.name);
            if table.is_none() {
                // a withdrawn player's unpaired match is a walkover: they go out here
                for s in [&mut a, &mut b] {
                    if let Slot::Player(p) = s {
                        if state.players[*p].withdrawn {
                            eliminated_at.insert(*p, m.depth as usize);
                            *s = Slot::Empty;
                        }
                    }
                }
            }
            let mut res = Resolved {
                a,
                b,
                winner: Slot::Unknown,
                loser: Slot::Unknown,
                table: table.map(|(r, t)| (*r, t.table)),
            };
            if m.reset {
                // the first final's winner came from the winners' bracket: no second final
                if let Source::Winner(gf) = m.a {
                    let first = &out[gf];
                    if first.winner != Slot::Unknown && first.winner == first.a {
                        res.winner = first.winner;
                        res.loser = first.loser;
                    }
                }
            }
            if res.winner == Slot::Unknown {
                match (a, b) {
                    (Slot::Unknown, _) | (_, Slot::Unknown) => {}
                    (Slot::Empty, Slot::Empty) => {
                        res.winner = Slot::Empty;
                        res.loser = Slot::Empty;
                    }
                    (Slot::Player(_), Slot::Empty) | (Slot::Empty, Slot::Player(_)) => {
                        res.winner = if a == Slot::Empty { b } else { a };
                        res.loser = Slot::Empty;
                    }
                    (Slot::Player(_), Slot::Player(_)) => {
                        if let Some((_, t)) = table {
                            if let MatchStatus::Decided { places } = state.table_status(stage, t) {
                                let (w, l) = if places.first() == Some(&0) {
                                    (t.seats[0], t.seats[1])
                                } else {
                                    (t.seats[1], t.seats[0])
                                };
                                res.winner = Slot::Player(w);
                                res.loser = Slot::Player(l);
                            }
                        }
                    }
                }
            }
            if let Slot::Player(l) = res.loser {
                if !fed[i] {
                    eliminated_at.insert(l, m.depth as usize);
                }
            }
            out.push(res);
        }
        let last = out.last().map(|r| r.winner).unwrap_or(Slot::Empty);
        Resolution {
            champion: match last {
                Slot::Player(p) => Some(p),
                _ => None,
            },
            complete: last != Slot::Unknown,
            matches: out,
            eliminated_at,
        }
    }

    /// The matches ready to be played: both players known, not yet paired. The player
    /// who started fewer games over the event starts; on equal counts, the better seed.
    pub(crate) fn pair(&self, state: &State) -> Result<Paired, Error> {
        let stage = state.current_stage();
        let entrants = state.entrants_of(stage);
        if entrants.len() < 2 {
            return Err(Error::NotEnoughPlayers("a knockout needs 2 players".into()));
        }
        let res = self.resolve(state, stage);
        let starts = state.starts();
        let balance = |p: usize| 2 * i64::from(starts[p].0) - i64::from(starts[p].1);
        let seed = |p: usize| entrants.iter().position(|s| *s == p).unwrap_or(usize::MAX);
        let mut tables = Vec::new();
        for (m, r) in self.matches.iter().zip(&res.matches) {
            if let (Slot::Player(a), Slot::Player(b), None, Slot::Unknown) =
                (r.a, r.b, r.table, r.winner)
            {
                let seats = if (balance(b), seed(b)) < (balance(a), seed(a)) {
                    vec![b, a]
                } else {
                    vec![a, b]
                };
                tables.push((seats, Some(m.name.clone())));
            }
        }
        if tables.is_empty() {
            return Err(Error::StageComplete);
        }
        Ok((tables, Vec::new()))
    }
}

/// A bracket match for display.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BracketMatchView {
    pub name: String,
    pub players: [Option<String>; 2],
    pub winner: Option<String>,
    /// `waiting` (a player not known yet), `ready`, `playing`, `decided`, `walkover`,
    /// `empty` (nobody to play) or `not_needed` (the grand final's second match when the
    /// winners' champion won the first).
    pub status: &'static str,
    /// (round, table) where it is played.
    pub table: Option<(u32, u32)>,
}

/// A player put out of a knockout stage by a match they played and lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnockedOut {
    pub player: String,
    /// The round of the stage (1-based) where the match was played.
    pub round: u32,
    /// The bracket's name for the match (`W2.1`, `L3.2`, `GF`, …).
    pub bracket: String,
    /// Who won it.
    pub by: String,
}

impl State {
    /// The players of a knockout stage put out by a decided match, in bracket order:
    /// single elimination, the loser of each match; double elimination, the loser of
    /// their second match (a losers' bracket match, or the grand final: its first match
    /// when the winners' champion wins it, else the second). Not a player who
    /// withdrew (whose next match is a walkover), nor anyone still in. Empty for a stage
    /// of another format, or one not played yet.
    pub fn knocked_out(&self, stage: usize) -> Vec<KnockedOut> {
        let Some(st) = self.stages.get(stage) else {
            return Vec::new();
        };
        let crate::config::Format::Knockout { double } = st.config.format else {
            return Vec::new();
        };
        let b = Bracket::new(self.entrants_of(stage).len(), double);
        let res = b.resolve(self, stage);
        let mut out: Vec<(usize, KnockedOut)> = Vec::new();
        for p in res.eliminated_at.keys() {
            if self.players[*p].withdrawn {
                continue;
            }
            // the last match they played and lost (a first loss in a double
            // elimination comes earlier in bracket order)
            let lost = res.matches.iter().enumerate().rev().find_map(|(i, m)| {
                match (m.loser, m.winner, m.table) {
                    (Slot::Player(l), Slot::Player(w), Some((round, _))) if l == *p => {
                        Some((i, round, w))
                    }
                    _ => None,
                }
            });
            if let Some((i, round, w)) = lost {
                out.push((
                    i,
                    KnockedOut {
                        player: self.players[*p].id.clone(),
                        round,
                        bracket: b.matches[i].name.clone(),
                        by: self.players[w].id.clone(),
                    },
                ));
            }
        }
        out.sort_by_key(|(i, _)| *i);
        out.into_iter().map(|(_, k)| k).collect()
    }

    /// The bracket of a knockout stage, match by match.
    pub fn bracket(&self, stage: usize) -> Option<Vec<BracketMatchView>> {
        let st = self.stages.get(stage)?;
        let crate::config::Format::Knockout { double } = st.config.format else {
            return None;
        };
        let b = Bracket::new(self.entrants_of(stage).len(), double);
        let res = b.resolve(self, stage);
        let name = |s: Slot| match s {
            Slot::Player(p) => Some(self.players[p].id.clone()),
            _ => None,
        };
        Some(
            b.matches
                .iter()
                .zip(res.matches)
                .map(|(m, r)| {
                    let status = match (r.a, r.b, r.winner, r.table) {
                        (_, _, Slot::Empty, _) => "empty",
                        (_, _, Slot::Player(_), None) if m.reset => "not_needed",
                        (Slot::Player(_), Slot::Player(_), Slot::Player(_), Some(_)) => "decided",
                        (_, _, Slot::Player(_), _) => "walkover",
                        (_, _, Slot::Unknown, Some(_)) => "playing",
                        (Slot::Player(_), Slot::Player(_), Slot::Unknown, None) => "ready",
                        _ => "waiting",
                    };
                    BracketMatchView {
                        name: m.name.clone(),
                        players: [name(r.a), name(r.b)],
                        winner: name(r.winner),
                        status,
                        table: r.table,
                    }
                })
                .collect(),
        )
    }
}
