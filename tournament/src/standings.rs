//! Standings and tie-breaks, derived from a stage's decided matches: each player's
//! record (points, games, scores, opponents with the share won against each), then the
//! configured tie-breaks in order and a seeded draw. The definitions are in the crate
//! README; the Swiss pairing ranks players with the same order.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::config::{Format, TieBreak};
use crate::knockout::Bracket;
use crate::points::Points;
use crate::rng;
use crate::state::{game_places, start_order, MatchStatus, State};

/// A player's line in the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// 1-based; unique (the seeded draw separates players tied on everything).
    pub rank: u32,
    pub player: String,
    /// Match points (rank points of the matches, byes, forfeits and adjustments).
    pub points: Points,
    /// Game points: a game won 1, drawn ½ (at a multi-player table, the share of the
    /// opponents beaten).
    pub game_points: Points,
    pub games: u32,
    pub games_won: u32,
    pub starts: u32,
    pub byes: u32,
    pub score_difference: Points,
    pub withdrawn: bool,
    /// 1-based group of a round robin with groups.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<u32>,
    /// The configured tie-breaks' values, in order.
    pub tie_breaks: Vec<(TieBreak, Points)>,
}

/// One opponent met at a decided table: (player, the share won against them in
/// units of [`Points::UNIT`]: a whole for finishing above, half for a tie).
type Opponent = (usize, i64);

/// What a stage's results give a player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub points: Points,
    pub game_points: Points,
    pub games: u32,
    pub games_won: u32,
    pub starts: u32,
    pub byes: u32,
    pub score_difference: Points,
    pub opponents: Vec<Opponent>,
    /// Virtual opponents (from byes) and the share won against each.
    pub virtual_opponents: u32,
    pub virtual_share: i64,
}

/// Rank points of each seat from its place, tied places sharing the points of the
/// places they cover.
pub fn match_points(state: &State, places: &[u32]) -> Vec<Points> {
    let table = state.config.rank_points_for(places.len());
    places
        .iter()
        .map(|p| {
            let tied = places.iter().filter(|q| *q == p).count();
            let start = *p as usize;
            let sum: i64 = (start..start + tied)
                .map(|i| i64::from(table.get(i).copied().unwrap_or(0)))
                .sum();
            Points(sum * Points::UNIT / tied as i64)
        })
        .collect()
}

/// The records of every player (by index) in a stage.
pub fn records(state: &State, stage: usize) -> Vec<Record> {
    let mut out = vec![Record::default(); state.players.len()];
    let Some(st) = state.stages.get(stage) else {
        return out;
    };
    let (removed, forfeits) = match st.config.format {
        Format::RoundRobin { .. } => crate::roundrobin::unplayed(state, stage),
        _ => (Vec::new(), Vec::new()),
    };
    let swiss = matches!(st.config.format, Format::Swiss { .. });
    let size = usize::from(st.config.table_size);
    for round in &st.rounds {
        for t in &round.tables {
            if t.seats.iter().any(|p| removed.contains(p)) {
                continue;
            }
            let MatchStatus::Decided { places } = state.table_status(stage, t) else {
                continue;
            };
            let n = t.seats.len();
            let mp = match_points(state, &places);
            for (i, p) in t.seats.iter().enumerate() {
                let r = &mut out[*p];
                r.points += mp[i];
                for (j, q) in t.seats.iter().enumerate() {
                    if i != j {
                        r.opponents.push((*q, share(places[i], places[j])));
                    }
                }
            }
            for (g, result) in t.games.iter().enumerate() {
                let gp = game_places(result, n);
                let first = start_order(&t.seats, g)[0];
                for (i, p) in t.seats.iter().enumerate() {
                    let r = &mut out[*p];
                    r.games += 1;
                    if *p == first {
                        r.starts += 1;
                    }
                    let won: i64 = (0..n)
                        .filter(|j| *j != i)
                        .map(|j| share(gp[i], gp[j]))
                        .sum();
                    r.game_points += Points(won / (n as i64 - 1));
                    if (0..n).all(|j| j == i || gp[i] < gp[j]) {
                        r.games_won += 1;
                    }
                    let mine = result.scores.get(i).copied().unwrap_or(0);
                    let others: i64 = (0..n)
                        .filter(|j| *j != i)
                        .map(|j| result.scores.get(j).copied().unwrap_or(0))
                        .sum();
                    r.score_difference +=
                        Points((mine * (n as i64 - 1) - others) * Points::UNIT / (n as i64 - 1));
                }
            }
        }
        if swiss {
            let bye = state.config.bye_points();
            let top = Points::whole(i64::from(
                state
                    .config
                    .rank_points_for(size)
                    .first()
                    .copied()
                    .unwrap_or(1),
            ));
            let vshare = if top.0 > 0 {
                (bye.0 * Points::UNIT / top.0).min(Points::UNIT)
            } else {
                0
            };
            for p in &round.byes {
                let r = &mut out[*p];
                r.points += bye;
                r.byes += 1;
                r.virtual_opponents += size as u32 - 1;
                r.virtual_share = vshare;
            }
        }
    }
    let win = match_points(state, &[0, 1]);
    for (w, l) in forfeits {
        out[w].points += win[0];
        out[w].opponents.push((l, Points::UNIT));
        out[l].points += win[1];
        out[l].opponents.push((w, 0));
    }
    for (p, adj) in &st.adjustments {
        out[*p].points += *adj;
    }
    for p in removed {
        out[p] = Record::default();
    }
    out
}

fn share(mine: u32, theirs: u32) -> i64 {
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Less => Points::UNIT,
        std::cmp::Ordering::Equal => Points::UNIT / 2,
        std::cmp::Ordering::Greater => 0,
    }
}

/// Buchholz and cut-1: the opponents' points (a virtual opponent has the player's own
/// points); cut-1 leaves out the lowest one.
fn buchholz(rec: &[Record], p: usize, cut: bool) -> Points {
    let mut v: Vec<i64> = rec[p]
        .opponents
        .iter()
        .map(|(q, _)| rec[*q].points.0)
        .collect();
    v.extend(std::iter::repeat_n(
        rec[p].points.0,
        rec[p].virtual_opponents as usize,
    ));
    let sum: i64 = v.iter().sum();
    let low = if cut {
        v.iter().min().copied().unwrap_or(0)
    } else {
        0
    };
    Points(sum - low)
}

/// Sonneborn-Berger: each opponent's points weighted by the share won against them.
fn sonneborn_berger(rec: &[Record], p: usize) -> Points {
    let real: i64 = rec[p]
        .opponents
        .iter()
        .map(|(q, s)| rec[*q].points.0 * s / Points::UNIT)
        .sum();
    let virt =
        i64::from(rec[p].virtual_opponents) * rec[p].points.0 * rec[p].virtual_share / Points::UNIT;
    Points(real + virt)
}

/// The players a stage ranks: its entrants (for the first stage, everyone registered).
fn stage_players(state: &State, stage: usize) -> Vec<usize> {
    let st = &state.stages[stage];
    let mut v = st.entrants.clone();
    if stage == 0 {
        for p in state.registered_in_seed_order() {
            if !v.contains(&p) {
                v.push(p);
            }
        }
    }
    v
}

/// Player indices of a stage in standings order, with their tie-break values.
pub(crate) fn ranked(state: &State, stage: usize) -> Vec<(usize, Vec<(TieBreak, Points)>)> {
    let Some(st) = state.stages.get(stage) else {
        return Vec::new();
    };
    let players = stage_players(state, stage);
    if let Format::Knockout { double } = st.config.format {
        let b = Bracket::new(state.entrants_of(stage).len(), double);
        let res = b.resolve(state, stage);
        let mut v: Vec<(usize, usize)> = players
            .iter()
            .map(|p| {
                let progress = if res.champion == Some(*p) {
                    usize::MAX
                } else {
                    res.eliminated_at.get(p).copied().unwrap_or(usize::MAX - 1)
                };
                (*p, progress)
            })
            .collect();
        let seed = |p: usize| {
            st.entrants
                .iter()
                .position(|s| *s == p)
                .unwrap_or(usize::MAX)
        };
        v.sort_by_key(|(p, progress)| (std::cmp::Reverse(*progress), seed(*p)));
        return v.into_iter().map(|(p, _)| (p, Vec::new())).collect();
    }
    let rec = records(state, stage);
    let breaks = state.config.tie_breaks();
    // keys[p]: points then each tie-break, all "higher is better"
    let mut keys: BTreeMap<usize, Vec<i64>> = players
        .iter()
        .map(|p| (*p, vec![rec[*p].points.0]))
        .collect();
    let mut values: BTreeMap<usize, Vec<(TieBreak, Points)>> = BTreeMap::new();
    for tb in &breaks {
        let mut col: BTreeMap<usize, Points> = BTreeMap::new();
        for p in &players {
            let v = match tb {
                TieBreak::Buchholz => buchholz(&rec, *p, false),
                TieBreak::BuchholzCut1 => buchholz(&rec, *p, true),
                TieBreak::SonnebornBerger => sonneborn_berger(&rec, *p),
                TieBreak::ScoreDifference => rec[*p].score_difference,
                TieBreak::GamesWon => Points::whole(i64::from(rec[*p].games_won)),
                TieBreak::FewerStarts => Points::whole(i64::from(rec[*p].starts)),
                TieBreak::HeadToHead => {
                    // the share won against the players equal on every key so far
                    let mine = &keys[p];
                    let group: Vec<usize> = players
                        .iter()
                        .copied()
                        .filter(|q| q != p && keys[q] == *mine)
                        .collect();
                    Points(
                        rec[*p]
                            .opponents
                            .iter()
                            .filter(|(q, _)| group.contains(q))
                            .map(|(_, s)| *s)
                            .sum(),
                    )
                }
            };
            col.insert(*p, v);
        }
        for p in &players {
            let v = col[p];
            values.entry(*p).or_default().push((*tb, v));
            let k = if *tb == TieBreak::FewerStarts {
                -v.0
            } else {
                v.0
            };
            if let Some(ks) = keys.get_mut(p) {
                ks.push(k);
            }
        }
    }
    let seed = state.config.seed_value();
    let mut order = players.clone();
    order.sort_by(|a, b| {
        keys[b].cmp(&keys[a]).then_with(|| {
            rng::hash(seed, &state.players[*a].id).cmp(&rng::hash(seed, &state.players[*b].id))
        })
    });
    order
        .into_iter()
        .map(|p| (p, values.remove(&p).unwrap_or_default()))
        .collect()
}

/// The standings of a stage.
pub fn standings(state: &State, stage: usize) -> Vec<Standing> {
    let rec = records(state, stage);
    let groups = crate::roundrobin::groups_of(state, stage);
    ranked(state, stage)
        .into_iter()
        .enumerate()
        .map(|(i, (p, tie_breaks))| {
            let r = &rec[p];
            Standing {
                rank: i as u32 + 1,
                player: state.players[p].id.clone(),
                points: r.points,
                game_points: r.game_points,
                games: r.games,
                games_won: r.games_won,
                starts: r.starts,
                byes: r.byes,
                score_difference: r.score_difference,
                withdrawn: state.players[p].withdrawn,
                group: groups
                    .iter()
                    .position(|g| g.contains(&p))
                    .filter(|_| groups.len() > 1)
                    .map(|g| g as u32 + 1),
                tie_breaks,
            }
        })
        .collect()
}

/// The best `count` of a stage who have not withdrawn, in seed order for the next stage
/// (with groups: the group winners in group order, then the runners-up, …).
pub fn qualifiers(state: &State, stage: usize, count: usize) -> Vec<usize> {
    let order: Vec<usize> = ranked(state, stage)
        .into_iter()
        .map(|(p, _)| p)
        .filter(|p| !state.players[*p].withdrawn)
        .collect();
    let groups = crate::roundrobin::groups_of(state, stage);
    if groups.len() <= 1 {
        return order.into_iter().take(count).collect();
    }
    let per_group: Vec<Vec<usize>> = groups
        .iter()
        .map(|g| order.iter().copied().filter(|p| g.contains(p)).collect())
        .collect();
    let mut out = Vec::new();
    let longest = per_group.iter().map(Vec::len).max().unwrap_or(0);
    for place in 0..longest {
        for g in &per_group {
            if let Some(p) = g.get(place) {
                out.push(*p);
            }
        }
    }
    out.truncate(count);
    out
}

impl State {
    /// The standings of the stage being played.
    pub fn standings(&self) -> Vec<Standing> {
        standings(self, self.current_stage())
    }

    /// The standings of any stage.
    pub fn standings_of(&self, stage: usize) -> Vec<Standing> {
        standings(self, stage)
    }
}
