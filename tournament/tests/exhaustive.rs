//! Small events compared with an exhaustive search of every possible pairing of each
//! round: the Swiss matching never repeats an opponent (nor gives a second bye) where
//! some pairing of that round avoids it, and among those it unbalances no more starts
//! than it must; the multi-player grouping heuristic seats no more earlier opponents
//! together than the best grouping does.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{swiss, Sim};
use tilepost_tournament::*;

/// What a round's pairing is judged on, from the state before it.
struct History {
    players: Vec<String>,
    /// Earlier meetings of each ordered pair.
    met: BTreeMap<(String, String), u32>,
    byes: BTreeSet<String>,
    balance: BTreeMap<String, i64>,
}

fn history(sim: &Sim) -> History {
    let state = &sim.state;
    let id = |p: usize| state.players()[p].id.clone();
    let mut met = BTreeMap::new();
    let mut byes = BTreeSet::new();
    for r in &state.stages()[0].rounds {
        for t in &r.tables {
            for a in &t.seats {
                for b in &t.seats {
                    if a != b {
                        *met.entry((id(*a), id(*b))).or_insert(0) += 1;
                    }
                }
            }
        }
        for b in &r.byes {
            byes.insert(id(*b));
        }
    }
    History {
        players: state
            .players()
            .iter()
            .filter(|p| !p.withdrawn)
            .map(|p| p.id.clone())
            .collect(),
        met,
        byes,
        balance: sim.balance(),
    }
}

/// (repeats and second byes, start conflicts) of a pairing.
fn cost2(h: &History, pairs: &[(String, Option<String>)]) -> (u32, u32) {
    let mut repeats = 0;
    let mut conflicts = 0;
    for (a, b) in pairs {
        match b {
            None => repeats += u32::from(h.byes.contains(a)),
            Some(b) => {
                repeats += h.met.get(&(a.clone(), b.clone())).copied().unwrap_or(0);
                let (x, y) = (h.balance[a], h.balance[b]);
                conflicts += u32::from(x != 0 && x.signum() == y.signum());
            }
        }
    }
    (repeats, conflicts)
}

/// The best (repeats, conflicts) over every pairing of `left`.
fn best2(
    h: &History,
    left: &mut Vec<String>,
    acc: &mut Vec<(String, Option<String>)>,
) -> (u32, u32) {
    if left.is_empty() {
        return cost2(h, acc);
    }
    let a = left.remove(0);
    let mut best = (u32::MAX, u32::MAX);
    if left.len().is_multiple_of(2) {
        // odd count: `a` may take the bye
        acc.push((a.clone(), None));
        best = best.min(best2(h, left, acc));
        acc.pop();
    }
    for i in 0..left.len() {
        let b = left.remove(i);
        acc.push((a.clone(), Some(b.clone())));
        best = best.min(best2(h, left, acc));
        acc.pop();
        left.insert(i, b);
    }
    left.insert(0, a);
    best
}

#[test]
fn two_player_swiss_matches_the_exhaustive_optimum() {
    for (players, rounds) in [(5, 4), (6, 5), (7, 6), (8, 7), (9, 5), (10, 6)] {
        for seed in 0..4 {
            let mut sim = Sim::new(Config::single(swiss(rounds, 1, 2)), seed);
            sim.register(players);
            for _ in 0..rounds {
                let h = history(&sim);
                let mut left = h.players.clone();
                let best = best2(&h, &mut left, &mut Vec::new());
                let p = sim.pair();
                let mut chosen: Vec<(String, Option<String>)> = p
                    .tables
                    .iter()
                    .map(|t| (t.seats[0].clone(), Some(t.seats[1].clone())))
                    .collect();
                chosen.extend(p.byes.iter().map(|b| (b.clone(), None)));
                assert_eq!(
                    cost2(&h, &chosen),
                    best,
                    "{players} players, seed {seed}, round {}",
                    p.round
                );
                sim.play_out();
            }
            sim.check_replay();
        }
    }
}

/// Earlier meetings (counted with multiplicity) seated together by a grouping into tables of `sizes`.
fn repeats_of(h: &History, tables: &[Vec<String>]) -> u32 {
    let mut n = 0;
    for t in tables {
        for (i, a) in t.iter().enumerate() {
            for b in &t[i + 1..] {
                n += h.met.get(&(a.clone(), b.clone())).copied().unwrap_or(0);
            }
        }
    }
    n
}

/// The fewest repeats over every grouping of `left` into tables of `sizes`.
fn best_grouping(h: &History, left: &[String], sizes: &[usize], acc: &mut Vec<Vec<String>>) -> u32 {
    let Some((size, rest)) = sizes.split_first() else {
        return repeats_of(h, acc);
    };
    // the table takes the first player left and any size−1 of the others
    let others = &left[1..];
    let mut best = u32::MAX;
    for mask in 0u32..(1 << others.len()) {
        if mask.count_ones() as usize != size - 1 {
            continue;
        }
        let mut table = vec![left[0].clone()];
        let mut remaining = Vec::new();
        for (i, o) in others.iter().enumerate() {
            if mask & (1 << i) != 0 {
                table.push(o.clone());
            } else {
                remaining.push(o.clone());
            }
        }
        acc.push(table);
        best = best.min(best_grouping(h, &remaining, rest, acc));
        acc.pop();
    }
    best
}

#[test]
fn multi_player_grouping_matches_the_exhaustive_optimum_on_small_cases() {
    let mut rounds_checked = 0;
    for (players, size, rounds) in [(9, 3, 4), (8, 4, 3), (10, 4, 3), (12, 4, 3), (12, 3, 4)] {
        for seed in 0..4 {
            let mut sim = Sim::new(Config::single(swiss(rounds, 1, size)), seed);
            sim.register(players);
            for _ in 0..rounds {
                let h = history(&sim);
                let p = sim.pair();
                assert!(p.byes.is_empty());
                let mut sizes: Vec<usize> = p.tables.iter().map(|t| t.seats.len()).collect();
                sizes.sort_by(|a, b| b.cmp(a));
                let best = best_grouping(&h, &h.players, &sizes, &mut Vec::new());
                let tables: Vec<Vec<String>> = p.tables.iter().map(|t| t.seats.clone()).collect();
                assert_eq!(
                    repeats_of(&h, &tables),
                    best,
                    "{players} players at {size}, seed {seed}, round {}",
                    p.round
                );
                rounds_checked += 1;
                sim.play_out();
            }
            sim.check_replay();
        }
    }
    assert_eq!(rounds_checked, 4 * (4 + 3 + 3 + 3 + 4));
}
