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
//!   sides it adds to them; among equals, the first cell of the board's frontier and the
//!   first rotation;
//! - when its best progress is negative, or it fits no needed cell, the tile is laid
//!   elsewhere, away from the watched features (it changes nothing the estimate reads).
//!
//! A feature counts as completed in a future when it is complete on the board after the
//! last tile. The chance is the share of futures that complete it. When the number of
//! distinct orders of the tiles to come is at most the sample budget (one tile left, or
//! a few), every order is played once and the chance is exact for this policy; otherwise
//! `samples` orders are drawn with the portable [`Rng`] from a seed. The same view, budget
//! and seed give the same estimate on every machine.
//!
//! The policy is optimistic (every tile that helps goes where it helps) and it does not
//! model the tiles laid elsewhere blocking a cell, the abbeys of Abbey & Mayor, the ferries
//! moving or a follower's owner choosing not to help: it measures what the tiles left
//! allow, not what the players will do.

use crate::board::Board;
use crate::catalog::{catalog, TileType, TileTypeId, NONE};
use crate::expansion::Expansion;
use crate::geometry::{Dir, Pos, Rotation};
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
    catalog().get(t).expansion == Some(Expansion::River)
}

/// Number of distinct orders of `pool` (sorted), saturating at `cap + 1`.
fn distinct_orders(pool: &[TileTypeId], cap: u64) -> u64 {
    // n! / prod(c_i!) built one tile at a time: the k-th tile of a kind seen `c` times
    // multiplies by k / c (exact in integers when done as (value * k) / c)
    let mut value: u128 = 1;
    let mut run = 0u128;
    for (k, t) in pool.iter().enumerate() {
        run = if k > 0 && pool[k - 1] == *t { run + 1 } else { 1 };
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
    let mut pool: Vec<TileTypeId> = pool.iter().copied().filter(|t| !is_river_tile(*t)).collect();
    pool.sort_unstable();
    let mut sim = Sim::new(board, watched);
    let mut completed = vec![0u64; watched.len()];
    let samples = samples.max(1) as u64;
    let orders = distinct_orders(&pool, samples);
    let exact = orders <= samples;
    let mut order: Vec<TileTypeId> = Vec::with_capacity(pool.len() + 1);
    let mut play = |tail: &[TileTypeId], completed: &mut [u64]| {
        order.clear();
        order.extend(first);
        order.extend_from_slice(tail);
        sim.play(board, &order);
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
        let mut rng = Rng::new(seed);
        let mut tail = pool.clone();
        for _ in 0..samples {
            rng.shuffle(&mut tail);
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

/// A needed cell of the simulated board, with the edges its neighbours require.
#[derive(Clone, Copy)]
struct Cell {
    pos: Pos,
    required: u16,
    mask: u16,
}

/// One future played on a copy of the board.
struct Sim {
    board: Board,
    watched: Vec<Watched>,
    /// The watched roads' and cities' roots on the simulated board.
    roots: Vec<u16>,
    /// The positions of the watched monasteries and gardens not yet complete.
    cloisters: Vec<Pos>,
    cells: Vec<Cell>,
    /// Per watched feature: completed at the end of the last future.
    done: Vec<bool>,
}

impl Sim {
    fn new(board: &Board, watched: &[Watched]) -> Sim {
        Sim {
            board: board.clone(),
            watched: watched.to_vec(),
            roots: Vec::with_capacity(watched.len()),
            cloisters: Vec::with_capacity(watched.len()),
            cells: Vec::with_capacity(64),
            done: vec![false; watched.len()],
        }
    }

    /// Plays `order` from `start` and records which watched features end complete.
    fn play(&mut self, start: &Board, order: &[TileTypeId]) {
        self.board.clone_from(start);
        self.refresh();
        for &t in order {
            if self.cells.is_empty() {
                break;
            }
            let tt = catalog().get(t);
            if let Some((pos, r)) = self.best_placement(tt) {
                self.board.place(t, pos, r);
                self.refresh();
            }
        }
        for (d, w) in self.done.iter_mut().zip(&self.watched) {
            *d = if w.cloister {
                self.board.is_complete(w.seg)
            } else {
                self.board.open_sides(w.seg) == 0
            };
        }
    }

    /// Recomputes the watched roots, the open cloisters and the needed cells.
    fn refresh(&mut self) {
        let b = &self.board;
        self.roots.clear();
        self.cloisters.clear();
        for w in &self.watched {
            if w.cloister {
                if !b.is_complete(w.seg) {
                    self.cloisters.push(b.tiles()[b.seg_tile(w.seg)].pos);
                }
            } else if b.open_sides(w.seg) > 0 {
                let r = b.find(w.seg);
                if !self.roots.contains(&r) {
                    self.roots.push(r);
                }
            }
        }
        self.cells.clear();
        for f in b.frontier() {
            let needed = Dir::ALL
                .into_iter()
                .any(|d| self.watched_side(f.pos.step(d), d.opposite()).is_some())
                || self.cloisters.iter().any(|c| around(*c, f.pos));
            if needed {
                self.cells.push(Cell {
                    pos: f.pos,
                    required: f.required,
                    mask: f.mask,
                });
            }
        }
    }

    /// The root of the watched road or city on side `d` of the tile at `p`, if any.
    fn watched_side(&self, p: Pos, d: Dir) -> Option<u16> {
        let b = &self.board;
        let j = b.tile_index_at(p)?;
        let o = b.tiles()[j];
        let f = o.tile_type().edge_feature[o.rotation.index()][d.index()];
        if f == NONE {
            return None;
        }
        let root = b.find(b.seg(j, f as usize));
        self.roots.contains(&root).then_some(root)
    }

    /// The needed cell and rotation where `tt` makes the most progress, if that progress
    /// is not negative.
    fn best_placement(&self, tt: &TileType) -> Option<(Pos, Rotation)> {
        let mut best: Option<(i32, Pos, Rotation)> = None;
        for c in &self.cells {
            for r in Rotation::ALL {
                if tt.signature[r.index()] & c.mask != c.required {
                    continue;
                }
                let p = self.progress(tt, c.pos, r);
                if p >= 0 && best.is_none_or(|b| p > b.0) {
                    best = Some((p, c.pos, r));
                }
            }
        }
        best.map(|(_, p, r)| (p, r))
    }

    /// The progress of `tt` at `pos` with `r`: watched open sides closed, plus cells
    /// filled around open cloisters, minus open sides added to watched roads and cities.
    fn progress(&self, tt: &TileType, pos: Pos, r: Rotation) -> i32 {
        let mut closed = 0;
        // features of the tile that join a watched road or city (bits)
        let mut joined = 0u32;
        for d in Dir::ALL {
            if self.watched_side(pos.step(d), d.opposite()).is_some() {
                closed += 1;
                let f = tt.edge_feature[r.index()][d.index()];
                if f != NONE {
                    joined |= 1 << f;
                }
            }
        }
        let mut opened = 0;
        if joined != 0 {
            for d in Dir::ALL {
                let f = tt.edge_feature[r.index()][d.index()];
                if f != NONE && joined & (1 << f) != 0 && !self.board.is_occupied(pos.step(d)) {
                    opened += 1;
                }
            }
        }
        let filled = self.cloisters.iter().filter(|c| around(**c, pos)).count() as i32;
        closed + filled - opened
    }
}

/// Whether `p` is one of the eight cells around `c`.
fn around(c: Pos, p: Pos) -> bool {
    c != p && (c.x - p.x).abs() <= 1 && (c.y - p.y).abs() <= 1
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
