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
        // antithetic pairs: an order, then the same order reversed
        let mut rng = Rng::new(seed);
        let mut tail = pool.clone();
        for k in 0..samples {
            if k.is_multiple_of(2) {
                rng.shuffle(&mut tail);
            } else {
                tail.reverse();
            }
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

/// Edge kinds (3 bits per side, as in the frontier's `required`) of roads and cities.
const ROAD: u16 = 2;
const CITY: u16 = 3;

/// The sides (bits) where a frontier cell's neighbours require a road or a city: open
/// sides of roads and cities facing the cell.
fn open_sides_facing(required: u16, mask: u16) -> u8 {
    let mut sides = 0u8;
    for d in 0..4 {
        let k = (required >> (3 * d)) & 0b111;
        if (mask >> (3 * d)) & 0b111 != 0 && (k == ROAD || k == CITY) {
            sides |= 1 << d;
        }
    }
    sides
}

/// A needed cell: an empty cell next to the board across an open road or city side
/// (`facing`, bits per side) or around open watched cloisters (`filled` of them).
#[derive(Clone, Copy)]
struct Needed {
    pos: Pos,
    /// The state of its four sides (see [`side_key`]).
    key: u16,
    filled: u8,
}

/// Side states of a cell: 0 no neighbour, 1–5 the edge kind a neighbour requires, 6 an
/// abbey (matches anything, closes what touches it).
const SIDE_STATES: u16 = 7;
const KEYS: usize = (SIDE_STATES * SIDE_STATES * SIDE_STATES * SIDE_STATES) as usize;

/// The key of a cell: its four side states in base 7, N first.
fn side_key(board: &Board, p: Pos, required: u16, mask: u16) -> u16 {
    let mut key = 0;
    for d in Dir::ALL.into_iter().rev() {
        let i = d.index();
        let state = if (mask >> (3 * i)) & 0b111 != 0 {
            (required >> (3 * i)) & 0b111
        } else if board.is_occupied(p.step(d)) {
            6
        } else {
            0
        };
        key = key * SIDE_STATES + state;
    }
    key
}

/// For every cell key, the best placement of `tt` there: `(progress + 64) * 4 +
/// rotation`, or -1 when it fits in no rotation. The progress is the open road and city
/// sides it closes minus the open sides it adds to the features it joins.
fn placement_table(tt: &TileType) -> Vec<i16> {
    let mut table = vec![-1i16; KEYS];
    for (key, slot) in table.iter_mut().enumerate() {
        let mut states = [0u16; 4];
        let mut k = key as u16;
        for s in states.iter_mut() {
            *s = k % SIDE_STATES;
            k /= SIDE_STATES;
        }
        let (mut required, mut mask, mut facing) = (0u16, 0u16, 0u8);
        for (i, s) in states.iter().enumerate() {
            if (1..=5).contains(s) {
                required |= s << (3 * i);
                mask |= 0b111 << (3 * i);
                if *s == ROAD || *s == CITY {
                    facing |= 1 << i;
                }
            }
        }
        let mut best: Option<(i32, usize)> = None;
        for r in Rotation::ALL {
            if tt.signature[r.index()] & mask != required {
                continue;
            }
            let ef = &tt.edge_feature[r.index()];
            let mut joined = 0u32;
            for (i, f) in ef.iter().enumerate() {
                if facing & (1 << i) != 0 && *f != NONE {
                    joined |= 1 << f;
                }
            }
            let opened = (0..4)
                .filter(|i| ef[*i] != NONE && joined & (1 << ef[*i]) != 0 && states[*i] == 0)
                .count() as i32;
            let p = facing.count_ones() as i32 - opened;
            if best.is_none_or(|b| p > b.0) {
                best = Some((p, r.index()));
            }
        }
        if let Some((p, r)) = best {
            *slot = ((p + 64) * 4 + r as i32) as i16;
        }
    }
    table
}

/// One future played on a copy of the board.
struct Sim {
    board: Board,
    /// Per tile type to come (by catalog index): its index in `tables`.
    local: Vec<u16>,
    /// Per tile type to come: [`placement_table`].
    tables: Vec<Vec<i16>>,
    watched: Vec<Watched>,
    /// The positions of the watched monasteries and gardens not yet complete.
    cloisters: Vec<Pos>,
    /// The needed cells.
    cells: Vec<Needed>,
    start_cloisters: Vec<Pos>,
    start_cells: Vec<Needed>,
    /// Per watched feature: completed at the end of the last future.
    done: Vec<bool>,
}

impl Sim {
    fn new(board: &Board, watched: &[Watched], types: &[TileTypeId]) -> Sim {
        let mut local = vec![u16::MAX; catalog().tiles.len()];
        for (i, t) in types.iter().enumerate() {
            local[t.0 as usize] = i as u16;
        }
        let mut sim = Sim {
            board: board.clone(),
            local,
            tables: types
                .iter()
                .map(|t| placement_table(catalog().get(*t)))
                .collect(),
            watched: watched.to_vec(),
            cloisters: Vec::with_capacity(watched.len()),
            cells: Vec::with_capacity(64),
            start_cloisters: Vec::new(),
            start_cells: Vec::new(),
            done: vec![false; watched.len()],
        };
        for w in watched {
            if w.cloister && !board.is_complete(w.seg) {
                sim.cloisters.push(board.tiles()[board.seg_tile(w.seg)].pos);
            }
        }
        for f in board.frontier() {
            if let Some(n) = sim.needed(f.pos) {
                sim.cells.push(n);
            }
        }
        sim.start_cloisters = sim.cloisters.clone();
        sim.start_cells = sim.cells.clone();
        sim
    }

    /// The empty cell `p` as a needed cell, if it is one.
    fn needed(&self, p: Pos) -> Option<Needed> {
        let f = self.board.frontier_at(p)?;
        let facing = open_sides_facing(f.required, f.mask);
        let filled = self.cloisters.iter().filter(|c| around(**c, p)).count() as u8;
        (facing != 0 || filled != 0).then(|| Needed {
            pos: p,
            key: side_key(&self.board, p, f.required, f.mask),
            filled,
        })
    }

    /// Plays `order` from `start` and records which watched features end complete.
    fn play(&mut self, start: &Board, order: &[TileTypeId]) {
        self.board.clone_from(start);
        self.cells.clone_from(&self.start_cells);
        self.cloisters.clone_from(&self.start_cloisters);
        for &t in order {
            if let Some((pos, r)) = self.best_placement(t) {
                self.place(t, pos, r);
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

    /// Places a tile and updates the needed cells: the cell itself is filled, its four
    /// neighbours change (no other cell does: a cloister completed has no empty cell
    /// around it any more).
    fn place(&mut self, t: TileTypeId, pos: Pos, r: Rotation) {
        self.board.place(t, pos, r);
        if let Some(i) = self.cells.iter().position(|c| c.pos == pos) {
            self.cells.swap_remove(i);
        }
        let b = &self.board;
        self.cloisters
            .retain(|c| !around(*c, pos) || b.surrounding_tiles(*c) < 8);
        for d in Dir::ALL {
            let q = pos.step(d);
            let Some(n) = self.needed(q) else {
                continue;
            };
            match self.cells.iter_mut().find(|c| c.pos == q) {
                Some(c) => *c = n,
                None => self.cells.push(n),
            }
        }
    }

    /// The needed cell and rotation where `t` makes the most progress (the cloisters
    /// around the cell it fills count one each), if that progress is not negative.
    fn best_placement(&self, t: TileTypeId) -> Option<(Pos, Rotation)> {
        let table = &self.tables[self.local[t.0 as usize] as usize];
        let mut best: Option<(i32, Pos, usize)> = None;
        for c in &self.cells {
            let v = table[c.key as usize];
            if v < 0 {
                continue;
            }
            let p = (v as i32 >> 2) - 64 + c.filled as i32;
            if p >= 0 && best.is_none_or(|b| p > b.0) {
                best = Some((p, c.pos, (v & 3) as usize));
            }
        }
        best.map(|(_, p, r)| (p, Rotation::ALL[r]))
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
