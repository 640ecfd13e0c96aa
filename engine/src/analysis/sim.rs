//! One future played on a copy of the board by the estimator's greedy policy (see
//! `estimate.rs`): each tile goes to the needed cell and rotation where it makes the most
//! progress, or elsewhere.
//!
//! The work per tile is kept small: every frontier cell is summed up by a *key* (the
//! state of its four sides), a tile type's best placement on a cell of each key is
//! computed once per analysis (when first needed), and the needed cells are counted by key, so that a
//! tile is judged against the keys present rather than against every cell.

use super::estimate::Watched;
use crate::board::Board;
use crate::catalog::{catalog, TileType, TileTypeId, NONE};
use crate::geometry::{Dir, Pos, Rotation};

/// Edge kinds (3 bits per side, as in the frontier's `required`) of roads and cities.
const ROAD: u16 = 2;
const CITY: u16 = 3;

/// Side states of a cell: 0 no neighbour, 1–5 the edge kind a neighbour requires, 6 an
/// abbey (matches anything, closes what touches it).
const SIDE_STATES: u16 = 7;
const KEYS: usize = (SIDE_STATES * SIDE_STATES * SIDE_STATES * SIDE_STATES) as usize;

/// The key of a frontier cell that is not needed.
const NOT_NEEDED: u16 = u16::MAX;

/// The key of a frontier cell: its four side states in base 7, N first.
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

/// Whether a key has an open road or city side facing the cell.
fn faces_open_side(key: u16) -> bool {
    let mut k = key;
    for _ in 0..4 {
        let s = k % SIDE_STATES;
        if s == ROAD || s == CITY {
            return true;
        }
        k /= SIDE_STATES;
    }
    false
}

/// The best placement of `tt` on a cell of `key`: `(progress + 64) * 4 + rotation`, or
/// -1 when it fits in no rotation. The progress is the open road and city sides it
/// closes minus the open sides it adds to the features it joins; among equal rotations
/// the first.
fn placement(tt: &TileType, key: u16) -> i16 {
    let mut states = [0u16; 4];
    let mut k = key;
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
    best.map_or(-1, |(p, r)| ((p + 64) * 4 + r as i32) as i16)
}

/// Not yet computed (in a [`Placements`] table).
const UNKNOWN: i16 = i16::MIN;

/// A tile type's [`placement`] on every key, computed when first asked.
struct Placements {
    tile: &'static TileType,
    table: Vec<std::cell::Cell<i16>>,
}

impl Placements {
    fn new(t: TileTypeId) -> Placements {
        Placements {
            tile: catalog().get(t),
            table: vec![std::cell::Cell::new(UNKNOWN); KEYS],
        }
    }

    #[inline]
    fn get(&self, key: u16) -> i16 {
        let slot = &self.table[key as usize];
        let mut v = slot.get();
        if v == UNKNOWN {
            v = placement(self.tile, key);
            slot.set(v);
        }
        v
    }
}

/// For every cell, how many of the watched monasteries and gardens open at the start it
/// lies around (a grid over their surroundings). A cloister completed later has no empty
/// cell around it, so for an empty cell the count never changes.
struct AroundCloisters {
    x0: i32,
    y0: i32,
    w: i32,
    h: i32,
    count: Vec<u8>,
}

impl AroundCloisters {
    fn new(cloisters: &[Pos]) -> AroundCloisters {
        let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for c in cloisters {
            x0 = x0.min(c.x - 1);
            y0 = y0.min(c.y - 1);
            x1 = x1.max(c.x + 1);
            y1 = y1.max(c.y + 1);
        }
        let (w, h) = if cloisters.is_empty() {
            (0, 0)
        } else {
            (x1 - x0 + 1, y1 - y0 + 1)
        };
        let mut grid = AroundCloisters {
            x0,
            y0,
            w,
            h,
            count: vec![0; (w * h) as usize],
        };
        for c in cloisters {
            for p in c.surrounding() {
                let i = grid.index(p).unwrap_or(0);
                grid.count[i] += 1;
            }
        }
        grid
    }

    fn index(&self, p: Pos) -> Option<usize> {
        let (dx, dy) = (p.x.wrapping_sub(self.x0), p.y.wrapping_sub(self.y0));
        (dx >= 0 && dy >= 0 && dx < self.w && dy < self.h).then(|| (dy * self.w + dx) as usize)
    }

    fn at(&self, p: Pos) -> u8 {
        self.index(p).map_or(0, |i| self.count[i])
    }
}

/// A frontier cell as the policy sees it (kept parallel to the board's frontier).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Info {
    /// [`side_key`], or [`NOT_NEEDED`].
    key: u16,
    /// Open watched cloisters around it.
    filled: u8,
}

const NOT_A_CELL: Info = Info {
    key: NOT_NEEDED,
    filled: 0,
};

/// The needed cells, counted by key (those around cloisters listed apart).
struct Needed {
    /// Per frontier cell (same index as the board's frontier).
    info: Vec<Info>,
    /// Needed cells around no cloister, per key.
    count: Vec<u32>,
    /// The keys whose count is not zero, and each key's place in it.
    present: Vec<u16>,
    slot: Vec<u16>,
    /// Needed cells around cloisters.
    near_cloisters: Vec<Pos>,
}

impl Needed {
    fn new() -> Needed {
        Needed {
            info: Vec::with_capacity(128),
            count: vec![0; KEYS],
            present: Vec::with_capacity(64),
            slot: vec![u16::MAX; KEYS],
            near_cloisters: Vec::with_capacity(32),
        }
    }

    fn add(&mut self, i: Info, p: Pos) {
        if i.key == NOT_NEEDED {
            return;
        }
        if i.filled > 0 {
            self.near_cloisters.push(p);
            return;
        }
        let k = i.key as usize;
        if self.count[k] == 0 {
            self.slot[k] = self.present.len() as u16;
            self.present.push(i.key);
        }
        self.count[k] += 1;
    }

    fn remove(&mut self, i: Info, p: Pos) {
        if i.key == NOT_NEEDED {
            return;
        }
        if i.filled > 0 {
            if let Some(j) = self.near_cloisters.iter().position(|q| *q == p) {
                self.near_cloisters.swap_remove(j);
            }
            return;
        }
        let k = i.key as usize;
        self.count[k] -= 1;
        if self.count[k] == 0 {
            let s = self.slot[k] as usize;
            self.present.swap_remove(s);
            if let Some(moved) = self.present.get(s) {
                self.slot[*moved as usize] = s as u16;
            }
        }
    }

    /// Becomes a copy of `other`, touching only the keys either of them holds.
    fn reset_from(&mut self, other: &Needed) {
        self.info.clone_from(&other.info);
        for &k in &self.present {
            self.count[k as usize] = 0;
            self.slot[k as usize] = u16::MAX;
        }
        for &k in &other.present {
            self.count[k as usize] = other.count[k as usize];
            self.slot[k as usize] = other.slot[k as usize];
        }
        self.present.clone_from(&other.present);
        self.near_cloisters.clone_from(&other.near_cloisters);
    }
}

/// One future played on a copy of the board.
pub(super) struct Sim {
    board: Board,
    /// Per tile type to come (by catalog index): its index in `tables`.
    local: Vec<u16>,
    /// Per tile type to come: its placements by key.
    tables: Vec<Placements>,
    watched: Vec<Watched>,
    around: AroundCloisters,
    needed: Needed,
    start: Needed,
    /// Per watched feature: completed at the end of the last future.
    pub(super) done: Vec<bool>,
}

impl Sim {
    pub(super) fn new(board: &Board, watched: &[Watched], types: &[TileTypeId]) -> Sim {
        let mut local = vec![u16::MAX; catalog().tiles.len()];
        for (i, t) in types.iter().enumerate() {
            local[t.0 as usize] = i as u16;
        }
        let cloisters: Vec<Pos> = watched
            .iter()
            .filter(|w| w.cloister && !board.is_complete(w.seg))
            .map(|w| board.tiles()[board.seg_tile(w.seg)].pos)
            .collect();
        let mut sim = Sim {
            board: board.clone(),
            local,
            tables: types.iter().map(|t| Placements::new(*t)).collect(),
            watched: watched.to_vec(),
            around: AroundCloisters::new(&cloisters),
            needed: Needed::new(),
            start: Needed::new(),
            done: vec![false; watched.len()],
        };
        for f in board.frontier() {
            let i = sim.info(f.pos);
            sim.needed.info.push(i);
            sim.needed.add(i, f.pos);
        }
        sim.start.reset_from(&sim.needed);
        sim
    }

    /// The frontier cell `p` as the policy sees it.
    fn info(&self, p: Pos) -> Info {
        let Some(f) = self.board.frontier_at(p) else {
            return NOT_A_CELL;
        };
        let key = side_key(&self.board, p, f.required, f.mask);
        let filled = self.around.at(p);
        if filled == 0 && !faces_open_side(key) {
            return NOT_A_CELL;
        }
        Info { key, filled }
    }

    /// Plays `order` from `start` and records which watched features end complete.
    pub(super) fn play(&mut self, start: &Board, order: &[TileTypeId]) {
        self.board.clone_from(start);
        self.needed.reset_from(&self.start);
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

    /// Places a tile and updates the needed cells: the board takes the cell out of its
    /// frontier (a swap-remove) and adds or changes only the four neighbours' cells (a
    /// cloister completed has no empty cell around it any more).
    fn place(&mut self, t: TileTypeId, pos: Pos, r: Rotation) {
        let Some(idx) = self.board.frontier_index(pos) else {
            return;
        };
        let old = self.needed.info.swap_remove(idx);
        self.needed.remove(old, pos);
        self.board.place(t, pos, r);
        let n = self.board.frontier().len();
        self.needed.info.resize(n, NOT_A_CELL);
        for d in Dir::ALL {
            let q = pos.step(d);
            let Some(j) = self.board.frontier_index(q) else {
                continue;
            };
            let before = self.needed.info[j];
            let now = self.info(q);
            if before != now {
                self.needed.remove(before, q);
                self.needed.add(now, q);
                self.needed.info[j] = now;
            }
        }
    }

    /// The needed cell and rotation where `t` makes the most progress (the cloisters
    /// around the cell count one each), if that progress is not negative. Among equals:
    /// the cells around cloisters first, then the keys in the order they appeared, and
    /// the first such cell of the frontier.
    fn best_placement(&self, t: TileTypeId) -> Option<(Pos, Rotation)> {
        let table = &self.tables[self.local[t.0 as usize] as usize];
        // (progress, key, cell around a cloister)
        let mut best: Option<(i32, u16, Option<Pos>)> = None;
        for &p in &self.needed.near_cloisters {
            let Some(j) = self.board.frontier_index(p) else {
                continue;
            };
            let i = self.needed.info[j];
            let v = table.get(i.key);
            if v < 0 {
                continue;
            }
            let progress = (v as i32 >> 2) - 64 + i.filled as i32;
            if progress >= 0 && best.is_none_or(|b| progress > b.0) {
                best = Some((progress, i.key, Some(p)));
            }
        }
        for &key in &self.needed.present {
            let v = table.get(key);
            if v < 0 {
                continue;
            }
            let progress = (v as i32 >> 2) - 64;
            if progress >= 0 && best.is_none_or(|b| progress > b.0) {
                best = Some((progress, key, None));
            }
        }
        let (_, key, near) = best?;
        let r = Rotation::ALL[(table.get(key) & 3) as usize];
        let pos = match near {
            Some(p) => p,
            None => {
                let j = self
                    .needed
                    .info
                    .iter()
                    .position(|i| i.key == key && i.filled == 0)?;
                self.board.frontier()[j].pos
            }
        };
        Some((pos, r))
    }
}
