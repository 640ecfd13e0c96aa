//! The chance that each open feature is completed before the tiles run out, estimated by
//! playing the tiles still to come onto a copy of the board.
//!
//! # The estimator
//!
//! A *future* is an order of the tiles still to come as the seat sees them: the drawn
//! tile first when it waits to be placed, then the other tiles (the pile, and with the
//! house rule `tiles_in_hand` every hand) in a uniformly random order. The River's tiles
//! are left out: they can only continue the river, at its one open end. A future is
//! played on a copy of the board by one fixed, greedy policy, tile after tile:
//!
//! - a *needed cell* is an empty cell next to the board that a watched feature (one of
//!   the features open now, as it grows) needs: across an open side of a road or city,
//!   or among the eight cells around a monastery or garden;
//! - the tile goes to the needed cell and rotation where it fits (its edges match every
//!   neighbour) that makes the most progress: the open sides of watched roads and cities
//!   it closes, plus the monasteries and gardens it fills a cell around, minus the open
//!   sides it adds to them; among equals, a fixed order (cells around cloisters first,
//!   then by the state of the cell's sides, then the board's frontier order);
//! - when its best progress is negative, or it fits no needed cell, the tile is laid
//!   elsewhere, away from the watched features (it changes nothing the estimate reads).
//!
//! A feature counts as completed in a future when it is complete on the board after the
//! last tile. The chance is the share of futures that complete it. When the number of
//! distinct orders of the tiles to come is at most the sample budget (one tile left, or
//! a few), every order is played once and the chance is exact for this policy; otherwise
//! `samples` orders are drawn with the portable [`Rng`] from a seed, in Latin hypercube
//! fashion: an order sorts the tiles by random keys, and over the orders each tile's key
//! falls once in each of `samples` strata (every order stays equally likely; the noise
//! is a little lower than with independent shuffles, never much higher). The same view,
//! budget and seed give the same estimate on every machine. The noise is about
//! `sqrt(p (1 - p) / samples)`: at most 0.9 points with the default 3,000 samples.
//! (Playing each order also reversed was tried: it halves the noise of some features and
//! doubles that of others.)
//!
//! A future is played on a board of the estimator's own (`sim_board.rs`: the cells, the
//! frontier in the engine's order and the open sides of the features, reset by undoing
//! what the last future changed), about 9 µs per future at mid-game (59 tiles to come);
//! the default budget is the largest round figure that keeps the analysis of such a
//! position within 50 ms at the 95th percentile on a shared 2-core machine.
//!
//! The policy is optimistic (every tile that helps goes where it helps) and it does not
//! model the tiles laid elsewhere blocking a cell, the abbeys of Abbey & Mayor, the ferries
//! moving or a follower's owner choosing not to help: it measures what the tiles left
//! allow, not what the players will do.

use super::sim::Sim;
use crate::board::Board;
use crate::catalog::{catalog, TileTypeId};
use crate::rng::Rng;

/// A feature the estimator watches: one of its segments on the board it starts from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Watched {
    pub seg: u16,
    /// A monastery or garden (complete when its eight surrounding cells are filled),
    /// else a road or city (complete when it has no open side).
    pub cloister: bool,
}

/// The result of an estimate: per watched feature, the futures that completed it, out of
/// `futures`; `exact` when every distinct order was played.
pub(crate) struct Estimate {
    pub completed: Vec<f64>,
    pub futures: u64,
    pub exact: bool,
}

/// Whether the tile never leaves the river's course (left out of the futures).
pub(crate) fn is_river_tile(t: TileTypeId) -> bool {
    catalog().get(t).in_first_stack()
}

// an order's keys hold a stratum in 15 bits
const _: () = assert!(super::MAX_SAMPLES <= 1 << 15);

/// Number of distinct orders of `pool` (sorted), saturating at `cap + 1`.
fn distinct_orders(pool: &[TileTypeId], cap: u64) -> u64 {
    // n! / prod(c_i!) built one tile at a time: the k-th tile of a kind seen `c` times
    // multiplies by k / c (exact in integers when done as (value * k) / c)
    let mut value: u128 = 1;
    let mut run = 0u128;
    for (k, t) in pool.iter().enumerate() {
        run = if k > 0 && pool[k - 1] == *t {
            run + 1
        } else {
            1
        };
        value = value * (k as u128 + 1) / run;
        if value > cap as u128 {
            return cap + 1;
        }
    }
    value as u64
}

/// The next distinct permutation in lexicographic order; false after the last.
fn next_permutation(v: &mut [TileTypeId]) -> bool {
    if v.len() < 2 {
        return false;
    }
    let mut i = v.len() - 1;
    while i > 0 && v[i - 1] >= v[i] {
        i -= 1;
    }
    if i == 0 {
        return false;
    }
    let mut j = v.len() - 1;
    while v[j] <= v[i - 1] {
        j -= 1;
    }
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// Sorts the keys of an order (the stratum in the top 16 bits, below the number of
/// strata): into buckets by stratum, then by insertion (the result is the sorted keys, as
/// any sort gives it).
struct KeySorter {
    /// Strata per bucket, as a shift.
    shift: u32,
    starts: Vec<u32>,
    out: Vec<u64>,
}

impl KeySorter {
    fn new(n: usize, strata: usize) -> KeySorter {
        // about one key per bucket
        let mut shift = 0;
        while (strata >> (shift + 1)) >= n.max(1) {
            shift += 1;
        }
        KeySorter {
            shift,
            starts: vec![0; (strata >> shift) + 2],
            out: vec![0; n],
        }
    }

    fn sort(&mut self, keys: &[u64]) -> &[u64] {
        let bucket = |k: u64| ((k >> 48) >> self.shift) as usize;
        self.starts.fill(0);
        for k in keys {
            self.starts[bucket(*k) + 1] += 1;
        }
        let mut sum = 0;
        for c in self.starts.iter_mut() {
            sum += *c;
            *c = sum;
        }
        self.out.resize(keys.len(), 0);
        for k in keys {
            let b = bucket(*k);
            self.out[self.starts[b] as usize] = *k;
            self.starts[b] += 1;
        }
        for i in 1..self.out.len() {
            let k = self.out[i];
            let mut j = i;
            while j > 0 && self.out[j - 1] > k {
                self.out[j] = self.out[j - 1];
                j -= 1;
            }
            self.out[j] = k;
        }
        &self.out
    }
}

/// Estimates the completion chance of each of `watched` on `board`: see the module
/// documentation. `first` is the drawn tile waiting to be placed, `pool` the other tiles
/// to come (any order).
pub(crate) fn estimate(
    board: &Board,
    watched: &[Watched],
    first: Option<TileTypeId>,
    pool: &[TileTypeId],
    samples: u32,
    seed: u64,
) -> Estimate {
    let first = first.filter(|t| !is_river_tile(*t));
    let mut pool: Vec<TileTypeId> = pool
        .iter()
        .copied()
        .filter(|t| !is_river_tile(*t))
        .collect();
    pool.sort_unstable();
    let mut types: Vec<TileTypeId> = pool.iter().copied().chain(first).collect();
    types.sort_unstable();
    types.dedup();
    let mut sim = Sim::new(board, watched, &types);
    let mut completed = vec![0u64; watched.len()];
    let samples = samples.clamp(1, super::MAX_SAMPLES) as u64;
    let orders = distinct_orders(&pool, samples);
    let exact = orders <= samples;
    let mut order: Vec<TileTypeId> = Vec::with_capacity(pool.len() + 1);
    let mut play = |tail: &[TileTypeId], completed: &mut [u64]| {
        order.clear();
        order.extend(first);
        order.extend_from_slice(tail);
        sim.play(&order);
        for (c, done) in completed.iter_mut().zip(sim.done.iter()) {
            *c += *done as u64;
        }
    };
    let futures = if exact {
        let mut tail = pool.clone();
        loop {
            play(&tail, &mut completed);
            if !next_permutation(&mut tail) {
                break;
            }
        }
        orders
    } else {
        // Latin hypercube orders: over the orders, each tile's key falls once in each of
        // `samples` strata
        let base = samples as usize;
        let n = pool.len();
        let mut rng = Rng::new(seed);
        // each tile's strata shuffled in turn, kept by order, then by tile
        let mut by_order: Vec<u32> = vec![0; n * base];
        let mut strata: Vec<u32> = Vec::with_capacity(base);
        for i in 0..n {
            strata.clear();
            strata.extend(0..base as u32);
            rng.shuffle(&mut strata);
            for (k, s) in strata.iter().enumerate() {
                by_order[k * n + i] = *s;
            }
        }
        // an order's key of a tile: its stratum (below 2^15), 32 random bits, then the
        // tile type (16 bits), in one word
        let mut keyed: Vec<u64> = Vec::with_capacity(n);
        let mut sorter = KeySorter::new(n, base);
        let mut tail: Vec<TileTypeId> = Vec::with_capacity(n);
        for strata in by_order.chunks_exact(n.max(1)).take(base) {
            keyed.clear();
            for (s, t) in strata.iter().zip(&pool) {
                let key = ((*s as u64) << 32) | (rng.next_u64() >> 32);
                keyed.push((key << 16) | t.0 as u64);
            }
            let sorted = sorter.sort(&keyed);
            tail.clear();
            tail.extend(sorted.iter().map(|x| TileTypeId(*x as u16)));
            play(&tail, &mut completed);
        }
        samples
    };
    Estimate {
        completed: completed
            .iter()
            .map(|c| *c as f64 / futures as f64)
            .collect(),
        futures,
        exact,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_orders_count_multisets() {
        let t = |i| TileTypeId(i);
        assert_eq!(distinct_orders(&[], 100), 1);
        assert_eq!(distinct_orders(&[t(1)], 100), 1);
        assert_eq!(distinct_orders(&[t(1), t(1), t(2)], 100), 3);
        assert_eq!(distinct_orders(&[t(1), t(1), t(2), t(2)], 100), 6);
        assert_eq!(distinct_orders(&[t(1), t(2), t(3), t(4), t(5)], 100), 101);
        let mut v = vec![t(1), t(1), t(2), t(2)];
        let mut n = 1;
        while next_permutation(&mut v) {
            n += 1;
        }
        assert_eq!(n, 6);
    }
}
