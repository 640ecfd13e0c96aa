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
//! `sqrt(p (1 - p) / samples)`: at most 0.46 points with the default 12,000 samples.
//! (Playing each order also reversed was tried: it halves the noise of some features and
//! doubles that of others.)
//!
//! A future is played on a board of the estimator's own (`sim_board.rs`: the cells, the
//! frontier in the engine's order and the open sides of the features, reset by undoing
//! what the last future changed), about 6.5 µs per future at mid-game (59 tiles to come).
//! The futures can be cut into parts that a caller runs on its threads ([`Split`]): part
//! `k` starts its generator where part `k - 1` ends (SplitMix64 jumps ahead exactly), so
//! the estimate does not depend on the cut. The default budget is the round figure that
//! keeps every feature within 2 points of a 20,000-future reference on 230 random
//! positions (`tests/analysis.rs`) and the analysis of such a position within 50 ms at
//! the 95th percentile on two threads of a 2-core machine
//! (`examples/analysis_latency.rs`).
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

/// Where the parts of an estimate run. The engine starts no thread: a caller with threads
/// to spare runs the parts on them. The futures are cut into ranges that each start where
/// the one before ends in the random sequence, so the estimate is the same however many
/// parts it is cut into and wherever they run.
pub trait Split {
    /// How many parts to cut the futures into (1: all in the caller's thread).
    fn ways(&self) -> usize;
    /// Runs every job, in any order and on any thread, and returns when all are done.
    fn run<'a>(&self, jobs: Vec<Job<'a>>);
}

/// One part of an estimate: draws the orders of some tiles, or plays a range of futures
/// and counts, per watched feature, the futures that completed it; it writes only to
/// what it was given.
pub type Job<'a> = Box<dyn FnOnce() + Send + 'a>;

/// Every part in turn, in the caller's thread.
pub struct InTurn;

impl Split for InTurn {
    fn ways(&self) -> usize {
        1
    }

    fn run<'a>(&self, jobs: Vec<Job<'a>>) {
        for job in jobs {
            job();
        }
    }
}

/// What every part of a sampled estimate reads.
struct Orders<'a> {
    board: &'a Board,
    watched: &'a [Watched],
    types: &'a [TileTypeId],
    first: Option<TileTypeId>,
    pool: &'a [TileTypeId],
    /// Per tile, its stratum in each order (`strata` per tile).
    by_tile: &'a [u32],
    strata: usize,
    /// The generator just after the strata were drawn: order `k` draws `pool.len()`
    /// values from `k * pool.len()` on.
    rng: Rng,
}

impl Orders<'_> {
    /// Plays the orders `range` and counts the futures that completed each feature.
    fn play(&self, range: std::ops::Range<usize>) -> Vec<u64> {
        let n = self.pool.len();
        let mut sim = Sim::new(self.board, self.watched, self.types);
        let mut completed = vec![0u64; self.watched.len()];
        let mut rng = self.rng.clone();
        rng.advance(range.start as u64 * n as u64);
        // an order's key of a tile: its stratum (below 2^15), 32 random bits, then the
        // tile type (16 bits), in one word
        let mut keyed: Vec<u64> = Vec::with_capacity(n);
        let mut sorter = KeySorter::new(n, self.strata);
        let mut order: Vec<TileTypeId> = Vec::with_capacity(n + 1);
        // the strata of a block of orders, order by order (read from the tiles' columns
        // a block at a time: a few cache lines from each)
        const BLOCK: usize = 64;
        let mut block: Vec<u32> = Vec::with_capacity(BLOCK * n);
        for k in range.clone() {
            let j = (k - range.start) % BLOCK;
            if j == 0 {
                let end = (k + BLOCK).min(range.end);
                block.clear();
                block.resize((end - k) * n, 0);
                for i in 0..n {
                    let column = &self.by_tile[i * self.strata + k..i * self.strata + end];
                    for (o, s) in column.iter().enumerate() {
                        block[o * n + i] = *s;
                    }
                }
            }
            keyed.clear();
            for (s, t) in block[j * n..(j + 1) * n].iter().zip(self.pool) {
                let key = ((*s as u64) << 32) | (rng.next_u64() >> 32);
                keyed.push((key << 16) | t.0 as u64);
            }
            let sorted = sorter.sort(&keyed).iter().map(|x| TileTypeId(*x as u16));
            play_future(&mut sim, &mut order, self.first, sorted, &mut completed);
        }
        completed
    }
}

/// Plays one future (`first`, then `tail`) and counts the features it completed.
#[inline(always)]
fn play_future(
    sim: &mut Sim,
    order: &mut Vec<TileTypeId>,
    first: Option<TileTypeId>,
    tail: impl Iterator<Item = TileTypeId>,
    completed: &mut [u64],
) {
    order.clear();
    order.extend(first);
    order.extend(tail);
    sim.play(order);
    for (c, done) in completed.iter_mut().zip(sim.done.iter()) {
        *c += *done as u64;
    }
}

/// Shuffles each tile's strata (`by_tile`: `strata` per tile) with a generator from
/// `seed`, the tiles in turn, and returns the generator after the last. The tiles are cut
/// into parts run by `split`: each part's generator starts where the tiles before it
/// leave it, which is known in advance unless a draw was rejected (`Rng::below`, with
/// odds below 2^-50 here), in which case the strata are drawn again in one part.
fn draw_strata(by_tile: &mut [u32], strata: usize, seed: u64, split: &dyn Split) -> Rng {
    let shuffle = |tiles: &mut [u32], rng: &mut Rng| {
        for column in tiles.chunks_exact_mut(strata) {
            for (k, s) in column.iter_mut().enumerate() {
                *s = k as u32;
            }
            rng.shuffle(column);
        }
    };
    let n = by_tile.len() / strata.max(1);
    // a shuffle of `strata` values draws `strata - 1` values when none is rejected
    let draws = strata.saturating_sub(1) as u64;
    let ways = split.ways().clamp(1, n.max(1));
    let mut ends: Vec<bool> = vec![true; ways];
    let mut rest = &mut by_tile[..];
    let mut jobs: Vec<Job> = Vec::with_capacity(ways);
    for (w, ok) in ends.iter_mut().enumerate() {
        let tiles = (n * (w + 1) / ways - n * w / ways) * strata;
        let (mine, more) = std::mem::take(&mut rest).split_at_mut(tiles);
        rest = more;
        let mut rng = Rng::new(seed);
        rng.advance((n * w / ways) as u64 * draws);
        jobs.push(Box::new(move || {
            let mut expected = rng.clone();
            expected.advance((mine.len() / strata.max(1)) as u64 * draws);
            shuffle(mine, &mut rng);
            *ok = rng == expected;
        }));
    }
    split.run(jobs);
    let mut rng = Rng::new(seed);
    if ends.iter().all(|ok| *ok) {
        rng.advance(n as u64 * draws);
    } else {
        shuffle(by_tile, &mut rng);
    }
    rng
}

/// Estimates the completion chance of each of `watched` on `board`: see the module
/// documentation. `first` is the drawn tile waiting to be placed, `pool` the other tiles
/// to come (any order). The sampled futures are cut into `split.ways()` parts run by
/// `split`; the estimate does not depend on it.
pub(crate) fn estimate(
    board: &Board,
    watched: &[Watched],
    first: Option<TileTypeId>,
    pool: &[TileTypeId],
    samples: u32,
    seed: u64,
    split: &dyn Split,
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
    let mut completed = vec![0u64; watched.len()];
    let samples = samples.clamp(1, super::MAX_SAMPLES) as u64;
    let orders = distinct_orders(&pool, samples);
    let exact = orders <= samples;
    let futures = if exact {
        let mut sim = Sim::new(board, watched, &types);
        let mut order: Vec<TileTypeId> = Vec::with_capacity(pool.len() + 1);
        let mut tail = pool.clone();
        loop {
            play_future(
                &mut sim,
                &mut order,
                first,
                tail.iter().copied(),
                &mut completed,
            );
            if !next_permutation(&mut tail) {
                break;
            }
        }
        orders
    } else {
        // Latin hypercube orders: over the orders, each tile's key falls once in each of
        // `samples` strata: each tile's strata shuffled in turn, then the orders' keys
        let base = samples as usize;
        let n = pool.len();
        let mut by_tile: Vec<u32> = vec![0; n * base];
        let rng = draw_strata(&mut by_tile, base, seed, split);
        let shared = Orders {
            board,
            watched,
            types: &types,
            first,
            pool: &pool,
            by_tile: &by_tile,
            strata: base,
            rng,
        };
        let ways = split.ways().clamp(1, base);
        let shared = &shared;
        let mut parts: Vec<Vec<u64>> = vec![Vec::new(); ways];
        let jobs: Vec<Job> = parts
            .iter_mut()
            .enumerate()
            .map(|(w, out)| {
                let range = base * w / ways..base * (w + 1) / ways;
                Box::new(move || *out = shared.play(range)) as Job
            })
            .collect();
        split.run(jobs);
        for part in parts {
            for (c, p) in completed.iter_mut().zip(part) {
                *c += p;
            }
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
