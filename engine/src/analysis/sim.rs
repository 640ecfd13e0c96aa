//! One future played by the estimator's greedy policy (see `estimate.rs`) on a board of
//! its own (`sim_board.rs`: the cells, the frontier in the engine's order and the open
//! sides of the features, nothing else): each tile goes to the needed cell and rotation
//! where it makes the most progress, or elsewhere.
//!
//! The work per tile is kept small: every frontier cell is summed up by a *key* (the
//! state of its four sides, kept up to date by the board as tiles are placed), the keys
//! met are numbered as they come, every tile type's best placement on a cell of a key is
//! computed once per analysis (when the key is first met) into one row per type, and the
//! needed cells are counted by key, so that a tile is judged against the keys present
//! rather than against every cell.

use super::estimate::Watched;
use super::sim_board::{SimBoard, SIDE_STATES};
use crate::board::Board;
use crate::catalog::{catalog, TileType, TileTypeId, NONE};
use crate::geometry::{Pos, Rotation};

/// Edge kinds (3 bits per side, as in the frontier's `required`) of roads and cities.
const ROAD: u16 = 2;
const CITY: u16 = 3;

const KEYS: usize = (SIDE_STATES * SIDE_STATES * SIDE_STATES * SIDE_STATES) as usize;

/// The key of a frontier cell that is not needed.
const NOT_NEEDED: u16 = u16::MAX;

/// A key's number before it is met, and the bit of the keys without an open road or city
/// side facing the cell, in [`Sim::compact`].
const UNNUMBERED: u16 = 0x7fff;
const CLOSED: u16 = 0x8000;

/// The score of a tile on a cell where it fits in no rotation (below 0 with any number
/// of cloisters around).
const NO_FIT: i8 = -100;

/// Room for the keys' numbers in a row of the placements (a power of two: an index is
/// reduced by a mask rather than checked).
const ROW: usize = 4096;
const _: () = assert!(KEYS <= ROW);

/// Per key: whether it has an open road or city side facing the cell.
static FACES_OPEN_SIDE: [bool; KEYS] = {
    let mut table = [false; KEYS];
    let mut key = 0;
    while key < KEYS {
        let mut k = key as u16;
        let mut side = 0;
        while side < 4 {
            let s = k % SIDE_STATES;
            if s == ROAD || s == CITY {
                table[key] = true;
            }
            k /= SIDE_STATES;
            side += 1;
        }
        key += 1;
    }
    table
};

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

/// A frontier cell as the policy sees it (kept parallel to the board's frontier).
#[derive(Clone, Copy, Eq)]
#[repr(C, align(4))]
struct Info {
    /// [`side_key`], or [`NOT_NEEDED`].
    key: u16,
    /// Open watched cloisters around it.
    filled: u16,
}

impl Info {
    /// Both fields in one word.
    #[inline(always)]
    fn word(self) -> u32 {
        self.key as u32 | (self.filled as u32) << 16
    }
}

impl PartialEq for Info {
    #[inline(always)]
    fn eq(&self, other: &Info) -> bool {
        self.word() == other.word()
    }
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
    slot: Box<[u16; ROW]>,
    /// Needed cells around cloisters, and their positions.
    near: Vec<Info>,
    near_pos: Vec<u64>,
}

impl Needed {
    fn new() -> Needed {
        Needed {
            info: Vec::with_capacity(128),
            count: vec![0; KEYS],
            present: Vec::with_capacity(64),
            slot: Box::new([u16::MAX; ROW]),
            near: Vec::with_capacity(32),
            near_pos: Vec::with_capacity(32),
        }
    }

    #[inline(always)]
    fn add(&mut self, i: Info, p: Pos) {
        if i.key == NOT_NEEDED {
            return;
        }
        if i.filled > 0 {
            self.near.push(i);
            self.near_pos.push(packed(p));
            return;
        }
        let k = i.key as usize;
        if self.count[k] == 0 {
            self.slot[k] = self.present.len() as u16;
            self.present.push(i.key);
        }
        self.count[k] += 1;
    }

    #[inline(always)]
    fn remove(&mut self, i: Info, p: Pos) {
        if i.key == NOT_NEEDED {
            return;
        }
        if i.filled > 0 {
            if let Some(j) = find_first(&self.near_pos, packed(p)) {
                self.near_pos.swap_remove(j);
                self.near.swap_remove(j);
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
        self.near.clone_from(&other.near);
        self.near_pos.clone_from(&other.near_pos);
    }
}

/// A position in one word (compared in one instruction).
#[inline(always)]
fn packed(p: Pos) -> u64 {
    ((p.x as u32 as u64) << 32) | p.y as u32 as u64
}

fn unpacked(v: u64) -> Pos {
    Pos {
        x: (v >> 32) as u32 as i32,
        y: v as u32 as i32,
    }
}

/// The index of the first `v` in `list`.
#[inline(always)]
fn find_first<T: Copy + PartialEq>(list: &[T], v: T) -> Option<usize> {
    // eight at a time, without a branch per entry
    let mut base = 0;
    for chunk in list.chunks_exact(8) {
        if chunk.iter().fold(false, |any, q| any | (*q == v)) {
            break;
        }
        base += 8;
    }
    Some(base + list[base..].iter().position(|q| *q == v)?)
}

/// One future played on a board of its own.
pub(super) struct Sim {
    board: SimBoard,
    /// Per tile type to come (by catalog index): its index among `tiles`.
    local: Vec<u16>,
    keys: Keys,
    needed: Needed,
    start: Needed,
    /// Per watched feature: completed at the end of the last future.
    pub(super) done: Vec<bool>,
}

/// The keys met, numbered, with every tile type's placement on a cell of each.
struct Keys {
    tiles: Vec<&'static TileType>,
    /// Per key: its number among the keys met so far (in the order met), or
    /// [`UNNUMBERED`]; with [`CLOSED`] when it has no open side facing the cell.
    compact: Vec<u16>,
    /// The keys met so far.
    keys: Vec<u16>,
    /// The [`placement`] of every tile type to come on a cell of every key met, as a
    /// score (its progress plus 64, or [`NO_FIT`]) and a rotation: a row per type (by its
    /// index), by the key's number.
    table: Vec<[i8; ROW]>,
    rotation: Vec<Vec<u8>>,
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
            board: SimBoard::new(
                board,
                watched.iter().map(|w| (w.seg, w.cloister)),
                &cloisters,
                types,
            ),
            local,
            keys: Keys {
                tiles: types.iter().map(|t| catalog().get(*t)).collect(),
                compact: FACES_OPEN_SIDE
                    .iter()
                    .map(|open| {
                        if *open {
                            UNNUMBERED
                        } else {
                            UNNUMBERED | CLOSED
                        }
                    })
                    .collect(),
                keys: Vec::with_capacity(KEYS),
                table: vec![[NO_FIT; ROW]; types.len()],
                rotation: vec![Vec::new(); types.len()],
            },
            needed: Needed::new(),
            start: Needed::new(),
            done: vec![false; watched.len()],
        };
        for j in 0..sim.board.frontier().len() {
            let f = sim.board.frontier()[j];
            let i = sim.keys.info(f.key, f.around);
            let p = f.pos;
            sim.needed.info.push(i);
            sim.needed.add(i, p);
        }
        sim.start.reset_from(&sim.needed);
        sim
    }
}

impl Keys {
    /// Numbers `key` (met for the first time) and computes its placements.
    #[cold]
    #[inline(never)]
    fn number(&mut self, key: u16) -> u16 {
        let c = self.keys.len();
        self.keys.push(key);
        self.compact[key as usize] = c as u16 | (self.compact[key as usize] & CLOSED);
        for (ti, tt) in self.tiles.iter().enumerate() {
            let v = placement(tt, key);
            let score = if v < 0 { NO_FIT } else { (v >> 2) as i8 };
            self.table[ti][c] = score;
            self.rotation[ti].push((v & 3) as u8);
        }
        c as u16
    }

    /// A frontier cell of key `key` around `filled` watched cloisters as the policy sees
    /// it (its key numbered).
    #[inline(always)]
    fn info(&mut self, key: u16, filled: u8) -> Info {
        let filled = filled as u16;
        let c = self.compact[key as usize];
        if c < UNNUMBERED {
            return Info { key: c, filled };
        }
        // a key without an open side facing the cell, or not numbered yet
        if c & CLOSED != 0 && filled == 0 {
            return NOT_A_CELL;
        }
        let c = c & !CLOSED;
        Info {
            key: if c == UNNUMBERED { self.number(key) } else { c },
            filled,
        }
    }
}

impl Sim {
    /// Plays `order` from the start and records which watched features end complete.
    pub(super) fn play(&mut self, order: &[TileTypeId]) {
        self.board.reset();
        self.needed.reset_from(&self.start);
        for &t in order {
            let ti = self.local[t.0 as usize] as usize;
            if let Some((j, r)) = self.best_placement(ti) {
                self.place(ti, j, r);
            }
        }
        self.board.completed(&mut self.done);
    }

    /// Places the tile of index `ti` and updates the needed cells: the board takes the
    /// cell out of its frontier (a swap-remove) and adds or changes only the four
    /// neighbours' cells (a cloister completed has no empty cell around it any more).
    /// The tile goes to the frontier cell of index `idx`.
    fn place(&mut self, ti: usize, idx: usize, r: Rotation) {
        let pos = self.board.frontier()[idx].pos;
        let old = self.needed.info.swap_remove(idx);
        self.needed.remove(old, pos);
        let Sim {
            board,
            keys,
            needed,
            ..
        } = self;
        // each frontier cell around, as the board adds or changes it (a new one last)
        board.place(ti, pos, r, |j, f, new| {
            if new {
                needed.info.push(NOT_A_CELL);
            }
            let before = needed.info[j];
            let now = keys.info(f.key, f.around);
            if before != now {
                needed.remove(before, f.pos);
                needed.add(now, f.pos);
                needed.info[j] = now;
            }
        });
    }

    /// The index of the first cell of the frontier of key `key` around no cloister.
    fn first_cell(&self, key: u16) -> Option<usize> {
        find_first(&self.needed.info, Info { key, filled: 0 })
    }

    /// The needed cell and rotation where the tile of index `ti` makes the most progress
    /// (the cloisters around the cell count one each), if that progress is not negative.
    /// Among equals: the cells around cloisters first, then the keys in the order they
    /// appeared, and the first such cell of the frontier.
    /// Returns the cell's index in the frontier.
    fn best_placement(&self, ti: usize) -> Option<(usize, Rotation)> {
        let table = &self.keys.table[ti];
        // a score above 63 makes progress (the cloisters around a cell count when the tile
        // fits; where it does not fit, the score stays below 0)
        let needed = &self.needed;
        // the present keys: the best, and among equals the first in the order of
        // `present`, as one word (the score, then the slot counted from the last), without
        // a branch
        let mut best = i32::MIN;
        for (n, k) in needed.present.iter().enumerate() {
            let rank = (table[*k as usize % ROW] as i32) << 16 | (u16::MAX as usize - n) as i32;
            best = best.max(rank);
        }
        let pscore = best >> 16;
        let pslot = u16::MAX as usize - (best & 0xffff) as usize;
        // the cells around cloisters: the best, and among equals the first; they come
        // first among equals
        let mut top = 63;
        let near = &needed.near;
        let mut at = usize::MAX;
        for (n, i) in near.iter().enumerate() {
            let score = table[i.key as usize % ROW] as i32 + i.filled as i32;
            if score > top {
                top = score;
                at = n;
            }
        }
        let (key, j) = if pscore > top {
            let pkey = *needed.present.get(pslot)?;
            (pkey, self.first_cell(pkey)?)
        } else if at != usize::MAX {
            (
                near[at].key,
                self.board.frontier_index(unpacked(needed.near_pos[at]))?,
            )
        } else {
            return None;
        };
        let r = Rotation::ALL[(self.keys.rotation[ti][key as usize] & 3) as usize];
        Some((j, r))
    }
}
