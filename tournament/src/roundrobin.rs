//! Round robin: Berger tables by the circle method (with an odd number of players, the
//! player drawn against the phantom rests that round, worth nothing), single or double
//! (the second cycle repeats the first), optionally in groups dealt by snake seeding.
//!
//! **Starts.** Within a pair, the player who started fewer games over the event
//! starts; on equal counts, the Berger table's order. In the second cycle of a double
//! round robin each pair plays with the starts of their first meeting reversed.
//!
//! **Withdrawal** ([`WithdrawalRule`]): a withdrawn player is not paired again. Each
//! scheduled game they miss, once its round is paired, is a forfeit: a win for the
//! opponent (the rank points of a win, no game played, no scores). Under
//! `remove_under_half`, a withdrawn player who played fewer than half of their
//! scheduled games has every result removed (their games count for no one, their
//! forfeits too) and ranks with nothing.

use crate::config::{Format, WithdrawalRule};
use crate::error::Error;
use crate::state::{MatchStatus, State};
use crate::swiss::Paired;

/// The groups of a round-robin stage, each in seed order; empty for other formats.
pub fn groups_of(state: &State, stage: usize) -> Vec<Vec<usize>> {
    let Some(st) = state.stages.get(stage) else {
        return Vec::new();
    };
    let Format::RoundRobin { groups, .. } = st.config.format else {
        return Vec::new();
    };
    let entrants = if st.rounds.is_empty() && stage == 0 {
        state.registered_in_seed_order()
    } else {
        st.entrants.clone()
    };
    let g = (groups as usize).max(1);
    let mut out = vec![Vec::new(); g];
    for (i, p) in entrants.into_iter().enumerate() {
        let lap = i / g;
        let k = if lap.is_multiple_of(2) {
            i % g
        } else {
            g - 1 - i % g
        };
        out[k].push(p);
    }
    out
}

/// The rounds of one group: each a list of (first seat, second seat) by index into the
/// group, `None` for the phantom.
pub fn schedule(n: usize, double: bool) -> Vec<Vec<(Option<usize>, Option<usize>)>> {
    if n < 2 {
        return Vec::new();
    }
    let m = n + n % 2;
    let mut arr: Vec<usize> = (0..m).collect();
    let mut rounds = Vec::new();
    for r in 0..m - 1 {
        let mut pairs = Vec::new();
        for i in 0..m / 2 {
            let (a, b) = (arr[i], arr[m - 1 - i]);
            // the fixed player alternates; the others as the circle gives them
            let (a, b) = if i == 0 && r % 2 == 1 { (b, a) } else { (a, b) };
            let some = |x: usize| (x < n).then_some(x);
            pairs.push((some(a), some(b)));
        }
        rounds.push(pairs);
        arr[1..].rotate_right(1);
    }
    if double {
        let second: Vec<_> = rounds
            .iter()
            .map(|r| r.iter().map(|(a, b)| (*b, *a)).collect::<Vec<_>>())
            .collect();
        rounds.extend(second);
    }
    rounds
}

fn double_of(state: &State, stage: usize) -> bool {
    matches!(
        state.stages.get(stage).map(|s| &s.config.format),
        Some(Format::RoundRobin { double: true, .. })
    )
}

/// Rounds of the stage not yet paired.
pub fn remaining_rounds(state: &State, stage: usize) -> usize {
    let double = double_of(state, stage);
    let total = groups_of(state, stage)
        .iter()
        .map(|g| schedule(g.len(), double).len())
        .max()
        .unwrap_or(0);
    total.saturating_sub(state.stages[stage].rounds.len())
}

/// Pairs the next round of the stage being played.
pub(crate) fn pair(state: &State) -> Result<Paired, Error> {
    let stage = state.current_stage();
    let groups = groups_of(state, stage);
    if groups.iter().all(|g| g.len() < 2) {
        return Err(Error::NotEnoughPlayers(
            "a round robin needs 2 players in a group".into(),
        ));
    }
    let r = state.stages[stage].rounds.len();
    let double = double_of(state, stage);
    let starts = state.starts();
    let balance = |p: usize| 2 * i64::from(starts[p].0) - i64::from(starts[p].1);
    let mut tables = Vec::new();
    let mut byes = Vec::new();
    for g in &groups {
        let rounds = schedule(g.len(), double);
        let cycle = rounds.len() / if double { 2 } else { 1 };
        let Some(round) = rounds.get(r) else { continue };
        for (a, b) in round {
            match (a.map(|i| g[i]), b.map(|i| g[i])) {
                (Some(a), Some(b)) => {
                    let wa = state.players[a].withdrawn;
                    let wb = state.players[b].withdrawn;
                    if wa || wb {
                        continue;
                    }
                    // the second cycle reverses the first cycle's start
                    let first_cycle = (r >= cycle)
                        .then(|| state.stages[stage].rounds.get(r - cycle))
                        .flatten()
                        .and_then(|old| {
                            old.tables
                                .iter()
                                .find(|t| t.seats.contains(&a) && t.seats.contains(&b))
                        });
                    let seats = match first_cycle {
                        Some(t) => vec![t.seats[1], t.seats[0]],
                        None if balance(b) < balance(a) => vec![b, a],
                        None => vec![a, b],
                    };
                    tables.push((seats, None));
                }
                (Some(p), None) | (None, Some(p)) => {
                    if !state.players[p].withdrawn {
                        byes.push(p);
                    }
                }
                (None, None) => {}
            }
        }
    }
    Ok((tables, byes))
}

/// Players whose results are removed, and the forfeits of scheduled games missed by a
/// withdrawn player, as (winner, loser).
pub(crate) fn unplayed(state: &State, stage: usize) -> (Vec<usize>, Vec<(usize, usize)>) {
    let st = &state.stages[stage];
    let double = double_of(state, stage);
    let mut forfeits = Vec::new();
    let mut removed = Vec::new();
    for g in groups_of(state, stage) {
        let rounds = schedule(g.len(), double);
        for (r, paired) in st.rounds.iter().enumerate() {
            let Some(round) = rounds.get(r) else { continue };
            for (a, b) in round {
                let (Some(a), Some(b)) = (a.map(|i| g[i]), b.map(|i| g[i])) else {
                    continue;
                };
                let together = paired
                    .tables
                    .iter()
                    .any(|t| t.seats.contains(&a) && t.seats.contains(&b));
                if together {
                    continue;
                }
                match (state.players[a].withdrawn, state.players[b].withdrawn) {
                    (true, false) => forfeits.push((b, a)),
                    (false, true) => forfeits.push((a, b)),
                    _ => {}
                }
            }
        }
        if state.config.withdrawal == WithdrawalRule::RemoveUnderHalf {
            let scheduled = (g.len().saturating_sub(1)) * if double { 2 } else { 1 };
            for p in &g {
                if !state.players[*p].withdrawn {
                    continue;
                }
                let played = st
                    .rounds
                    .iter()
                    .flat_map(|r| &r.tables)
                    .filter(|t| {
                        t.seats.contains(p)
                            && matches!(state.table_status(stage, t), MatchStatus::Decided { .. })
                    })
                    .count();
                if played * 2 < scheduled {
                    removed.push(*p);
                }
            }
        }
    }
    forfeits.retain(|(w, l)| !removed.contains(w) && !removed.contains(l));
    (removed, forfeits)
}
