//! The board a future is played on: only what the greedy policy and the completion check
//! read, kept apart from the engine's [`Board`] so that a future neither copies nor
//! updates the whole board.
//!
//! It holds the occupied cells, the frontier (the same cells, with the same edge
//! requirements, in the same order as the engine's board would hold them after the same
//! placements) and the open sides of the roads, cities and rivers that a placement can
//! reach: one node per feature open at the start and per feature of a tile placed since,
//! joined with union-find (the fields, the figures and the rest of the engine's board are
//! left out). A future starts from the board's state by undoing the cells it changed.

use crate::board::Board;
use crate::catalog::{catalog, EdgeKind, TileTypeId, NONE};
use crate::geometry::{Dir, Pos, Rotation};

/// No feature on a side, or no cell of the frontier.
const NO_NODE: u16 = u16::MAX;
/// An abbey's side: it closes whatever touches it.
const ABBEY: u16 = u16::MAX - 1;
/// Room left around the cells in use when the grid grows.
const MARGIN: i32 = 8;

#[derive(Clone, Copy, PartialEq, Eq)]
struct Cell {
    occupied: bool,
    /// The watched monasteries and gardens open at the start that the cell lies around (a
    /// cloister completed later has no empty cell around it, so for an empty cell the
    /// count never changes).
    around: u8,
    /// Index in the frontier, or [`NO_NODE`].
    front: u16,
    /// Of an occupied cell, per side (of those that can face an empty cell): the node of
    /// the road, city or river there, [`ABBEY`] or [`NO_NODE`].
    side: [u16; 4],
}

const EMPTY: Cell = Cell {
    occupied: false,
    around: 0,
    front: NO_NODE,
    side: [NO_NODE; 4],
};

/// A cell of the frontier: its position and its key, the state of its four sides in
/// base [`SIDE_STATES`], N first (the least significant): 0 no neighbour, 1–4 the edge
/// kind the neighbour requires (as in the frontier's `required`), 6 an abbey (matches
/// anything, closes what touches it).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Front {
    pub pos: Pos,
    pub key: u16,
    /// The watched cloisters open at the start around it.
    pub around: u8,
}

/// The states a side of a frontier cell can be in.
pub(super) const SIDE_STATES: u16 = 7;
/// The state of a cell's side next to an abbey's side.
const ABBEY_SIDE: u16 = 6;

/// Per side `i`, the weight of its state in a key.
const WEIGHT: [u16; 4] = [
    1,
    SIDE_STATES,
    SIDE_STATES * SIDE_STATES,
    SIDE_STATES * SIDE_STATES * SIDE_STATES,
];

/// A tile type in one rotation, as placing it reads it.
#[derive(Clone, Copy)]
struct Shape {
    /// Per side: the tile's road, city or river there (its place among the tile's
    /// features of these kinds), [`ABBEY`] or [`NO_NODE`].
    side: [u16; 4],
    /// Per side: what the neighbouring empty cell's key gains.
    key_gain: [u16; 4],
}

/// A feature in the union-find: its parent ([`NO_NODE`] at a root), and at a root the
/// open sides of the class.
#[derive(Clone, Copy)]
struct Node {
    parent: u16,
    open: i16,
}

/// Per side (N, E, S, W): the offset of the cell there (read from a table rather than
/// by a branch per side).
const STEP: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// A node as a tile brings it (its open sides set when the tile type is read).
const FRESH: Node = Node {
    parent: NO_NODE,
    open: 0,
};

/// Tiles whose nodes the node buffer makes room for at once.
const NODE_ROOM: usize = 64;

/// What a watched feature's completion is read from.
#[derive(Clone, Copy)]
enum Watch {
    /// A road, city or river: complete when its class has no open side.
    Edges(u16),
    /// A monastery or garden at this cell: complete when its eight neighbours are filled.
    Cloister(Pos),
}

pub(super) struct SimBoard {
    x0: i32,
    y0: i32,
    w: i32,
    h: i32,
    cells: Vec<Cell>,
    frontier: Vec<Front>,
    /// The nodes in use are the first `node_len` (the rest is room for the next tile's).
    nodes: Vec<Node>,
    node_len: usize,
    /// Per tile type (by its index among the types to come) and rotation.
    shapes: Vec<[Shape; 4]>,
    /// Per tile type: the nodes of its roads, cities and rivers as printed (at most one
    /// per side), and their number.
    fresh: Vec<([Node; 4], usize)>,
    /// The cells changed since the start (by index), with what they held (in the order
    /// of change).
    undo: Vec<(u32, Cell)>,
    start_frontier: Vec<Front>,
    start_nodes: Vec<Node>,
    watch: Vec<Watch>,
}

impl SimBoard {
    /// The state of `board`, watching the feature of each of `watched` (segment, and
    /// whether it is a monastery or garden), for the tiles of `types`.
    /// `cloisters` are the positions of the watched monasteries and gardens open now.
    pub(super) fn new(
        board: &Board,
        watched: impl Iterator<Item = (u16, bool)>,
        cloisters: &[Pos],
        types: &[TileTypeId],
    ) -> SimBoard {
        let mut sb = SimBoard {
            x0: 0,
            y0: 0,
            w: 0,
            h: 0,
            cells: Vec::new(),
            frontier: Vec::with_capacity(128),
            nodes: Vec::with_capacity(256),
            node_len: 0,
            undo: Vec::with_capacity(512),
            start_frontier: Vec::new(),
            start_nodes: Vec::new(),
            watch: Vec::new(),
            shapes: types.iter().map(|t| shapes(*t)).collect(),
            fresh: types
                .iter()
                .map(|t| {
                    let tt = catalog().get(*t);
                    let mut fresh = ([FRESH; 4], 0);
                    // a side holds one road, city or river at most
                    for (n, f) in tt
                        .features
                        .iter()
                        .filter(|f| f.kind.is_edge_feature())
                        .take(4)
                        .enumerate()
                    {
                        fresh.0[n].open = f.edges.count_ones() as i16;
                        fresh.1 = n + 1;
                    }
                    fresh
                })
                .collect(),
        };
        if let Some(first) = board.tiles().first() {
            let (mut x0, mut y0, mut x1, mut y1) =
                (first.pos.x, first.pos.y, first.pos.x, first.pos.y);
            for t in board.tiles() {
                x0 = x0.min(t.pos.x);
                y0 = y0.min(t.pos.y);
                x1 = x1.max(t.pos.x);
                y1 = y1.max(t.pos.y);
            }
            sb.x0 = x0 - MARGIN;
            sb.y0 = y0 - MARGIN;
            sb.w = x1 - x0 + 1 + 2 * MARGIN;
            sb.h = y1 - y0 + 1 + 2 * MARGIN;
            sb.cells = vec![EMPTY; (sb.w * sb.h) as usize];
        }
        // the node of each root met, by segment
        let segs = board
            .tiles()
            .last()
            .map_or(0, |t| t.seg_base as usize + t.tile_type().features.len());
        let mut node_of = vec![NO_NODE; segs];
        let mut node = |nodes: &mut Vec<Node>, seg: u16| -> u16 {
            let root = board.find(seg);
            let slot = &mut node_of[root as usize];
            if *slot == NO_NODE {
                *slot = nodes.len() as u16;
                nodes.push(Node {
                    parent: NO_NODE,
                    open: board.open_sides(root) as i16,
                });
            }
            *slot
        };
        for t in board.tiles() {
            let tt = t.tile_type();
            let r = t.rotation;
            let mut side = [NO_NODE; 4];
            for d in Dir::ALL {
                if board.is_occupied(t.pos.step(d)) {
                    continue;
                }
                let ef = tt.edge_feature[r.index()][d.index()];
                side[d.index()] = if ef != NONE {
                    node(&mut sb.nodes, t.seg_base + ef as u16)
                } else if tt.edge_at(r, d) == EdgeKind::Abbey {
                    ABBEY
                } else {
                    NO_NODE
                };
            }
            let i = sb.index(t.pos).unwrap_or(0);
            sb.cells[i] = Cell {
                occupied: true,
                around: 0,
                front: NO_NODE,
                side,
            };
        }
        for c in cloisters {
            for q in c.surrounding() {
                if let Some(i) = sb.index(q) {
                    sb.cells[i].around += 1;
                }
            }
        }
        for (fi, f) in board.frontier().iter().enumerate() {
            let i = sb.index(f.pos).unwrap_or(0);
            sb.cells[i].front = fi as u16;
        }
        for (seg, cloister) in watched {
            let w = if cloister {
                Watch::Cloister(board.tiles()[board.seg_tile(seg)].pos)
            } else {
                Watch::Edges(node(&mut sb.nodes, seg))
            };
            sb.watch.push(w);
        }
        let frontier: Vec<Front> = board
            .frontier()
            .iter()
            .map(|f| Front {
                pos: f.pos,
                key: start_key(board, f.pos, f.required, f.mask),
                around: sb.cell(f.pos).around,
            })
            .collect();
        sb.frontier.extend_from_slice(&frontier);
        sb.start_frontier = sb.frontier.clone();
        sb.start_nodes = sb.nodes.clone();
        sb.node_len = sb.nodes.len();
        sb.nodes.resize(sb.node_len + 4 * NODE_ROOM, FRESH);
        sb
    }

    /// Back to the state it was made from.
    pub(super) fn reset(&mut self) {
        while let Some((i, c)) = self.undo.pop() {
            self.cells[i as usize] = c;
        }
        self.frontier.clone_from(&self.start_frontier);
        self.node_len = self.start_nodes.len();
        self.nodes[..self.node_len].copy_from_slice(&self.start_nodes);
    }

    #[inline]
    fn index(&self, p: Pos) -> Option<usize> {
        // negative offsets wrap to large unsigned ones
        let dx = p.x.wrapping_sub(self.x0) as u32;
        let dy = p.y.wrapping_sub(self.y0) as u32;
        (dx < self.w as u32 && dy < self.h as u32).then(|| (dy * self.w as u32 + dx) as usize)
    }

    #[inline]
    fn cell(&self, p: Pos) -> Cell {
        self.index(p).map_or(EMPTY, |i| self.cells[i])
    }

    /// Cell `i` for writing (what it held is kept for [`SimBoard::reset`]).
    #[inline]
    fn write(&mut self, i: usize) -> &mut Cell {
        self.undo.push((i as u32, self.cells[i]));
        &mut self.cells[i]
    }

    /// Makes room around `p` (at least one cell on every side), moving the cells and the
    /// indices kept for undoing.
    #[cold]
    fn grow_around(&mut self, p: Pos) {
        let (mut x0, mut y0) = (self.x0, self.y0);
        let (mut x1, mut y1) = (self.x0 + self.w, self.y0 + self.h);
        if self.w == 0 {
            (x0, y0, x1, y1) = (p.x, p.y, p.x + 1, p.y + 1);
        }
        x0 = x0.min(p.x - MARGIN);
        y0 = y0.min(p.y - MARGIN);
        x1 = x1.max(p.x + 1 + MARGIN);
        y1 = y1.max(p.y + 1 + MARGIN);
        let (w, h) = (x1 - x0, y1 - y0);
        let moved = |i: usize| {
            let (xx, yy) = ((i as i32) % self.w, (i as i32) / self.w);
            ((self.y0 + yy - y0) * w + (self.x0 + xx - x0)) as usize
        };
        let mut cells = vec![EMPTY; (w * h) as usize];
        for (i, c) in self.cells.iter().enumerate() {
            cells[moved(i)] = *c;
        }
        for u in self.undo.iter_mut() {
            u.0 = moved(u.0 as usize) as u32;
        }
        self.cells = cells;
        (self.x0, self.y0, self.w, self.h) = (x0, y0, w, h);
    }

    pub(super) fn frontier(&self) -> &[Front] {
        &self.frontier
    }

    /// The index in [`SimBoard::frontier`] of the frontier cell at `p`.
    #[inline]
    pub(super) fn frontier_index(&self, p: Pos) -> Option<usize> {
        let c = self.cell(p);
        (c.front != NO_NODE).then_some(c.front as usize)
    }

    #[inline]
    fn is_occupied(&self, p: Pos) -> bool {
        self.cell(p).occupied
    }

    #[inline(always)]
    fn find(&mut self, mut n: u16) -> u16 {
        loop {
            let p = self.nodes[n as usize].parent;
            if p == NO_NODE {
                return n;
            }
            let gp = self.nodes[p as usize].parent;
            if gp == NO_NODE {
                return p;
            }
            self.nodes[n as usize].parent = gp;
            n = gp;
        }
    }

    #[inline(always)]
    fn union(&mut self, a: u16, b: u16) -> u16 {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.nodes[rb as usize].parent = ra;
            self.nodes[ra as usize].open += self.nodes[rb as usize].open;
        }
        ra
    }

    /// Places the tile of index `ti` among the types on the frontier cell `p` in rotation
    /// `r` (the caller has checked that it fits), as [`Board::place`] does for what this
    /// board holds; the frontier cells around get their keys. Each of them is passed to
    /// `on_front` as it is added (`true`, at the end of the frontier) or changed, with its
    /// index in the frontier, side after side (N, E, S, W).
    #[inline(always)]
    pub(super) fn place(
        &mut self,
        ti: usize,
        p: Pos,
        r: Rotation,
        mut on_front: impl FnMut(usize, Front, bool),
    ) {
        let (dx, dy) = (p.x.wrapping_sub(self.x0), p.y.wrapping_sub(self.y0));
        if dx < 1 || dy < 1 || dx >= self.w - 1 || dy >= self.h - 1 {
            self.grow_around(p);
        }
        let w = self.w as usize;
        let at = ((p.y - self.y0) as usize) * w + (p.x - self.x0) as usize;
        // N, E, S, W (y grows to the north)
        let around = [at + w, at + 1, at - w, at - 1];
        debug_assert!(Dir::ALL
            .into_iter()
            .all(|d| self.index(p.step(d)) == Some(around[d.index()])));
        let shape = self.shapes[ti][r.index()];
        let front = self.cells[at].front;
        if front != NO_NODE {
            let i = front as usize;
            self.frontier.swap_remove(i);
            if let Some(moved) = self.frontier.get(i) {
                let m = self.index(moved.pos).unwrap_or(0);
                self.write(m).front = i as u16;
            }
        }
        let base = self.node_len;
        if base + 4 > self.nodes.len() {
            self.nodes.resize(base + 4 * NODE_ROOM, FRESH);
        }
        let (fresh, added) = self.fresh[ti];
        if let Some(room) = self.nodes.get_mut(base..base + 4) {
            room.copy_from_slice(&fresh);
        }
        self.node_len = base + added;
        let base = base as u16;
        let side = shape.side.map(|s| if s < ABBEY { base + s } else { s });
        let cell = self.write(at);
        cell.occupied = true;
        cell.front = NO_NODE;
        cell.side = side;
        // side after side (N, E, S, W), written out: no loop to predict
        self.side(0, around[0], p, side[0], &shape, &mut on_front);
        self.side(1, around[1], p, side[1], &shape, &mut on_front);
        self.side(2, around[2], p, side[2], &shape, &mut on_front);
        self.side(3, around[3], p, side[3], &shape, &mut on_front);
    }

    /// Side `d` (N, E, S, W) of a tile placed at `p`, whose road, city or river there is
    /// `mine`, against cell `qi`: joins the features of a tile there, or adds or changes
    /// the frontier cell there (passed to `on_front`).
    #[inline(always)]
    fn side(
        &mut self,
        d: usize,
        qi: usize,
        p: Pos,
        mine: u16,
        shape: &Shape,
        on_front: &mut impl FnMut(usize, Front, bool),
    ) {
        let c = self.cells[qi];
        if c.occupied {
            match (mine, c.side[(d + 2) % 4]) {
                (NO_NODE, _) | (_, NO_NODE) | (ABBEY, ABBEY) => {}
                (ABBEY, n) | (n, ABBEY) => {
                    let root = self.find(n);
                    self.nodes[root as usize].open -= 1;
                }
                (a, b) => {
                    let root = self.union(a, b);
                    self.nodes[root as usize].open -= 2;
                }
            }
            return;
        }
        let gain = shape.key_gain[d];
        if c.front == NO_NODE {
            let fi = self.frontier.len() as u16;
            self.write(qi).front = fi;
            let f = Front {
                pos: Pos::new(p.x + STEP[d].0, p.y + STEP[d].1),
                key: gain,
                around: c.around,
            };
            self.frontier.push(f);
            on_front(fi as usize, f, true);
        } else if let Some(f) = self.frontier.get_mut(c.front as usize) {
            f.key += gain;
            on_front(c.front as usize, *f, false);
        }
    }

    /// Whether the eight cells around `c` hold tiles.
    #[inline]
    fn surrounded(&self, c: Pos) -> bool {
        let (dx, dy) = (c.x.wrapping_sub(self.x0), c.y.wrapping_sub(self.y0));
        if dx < 1 || dy < 1 || dx >= self.w - 1 || dy >= self.h - 1 {
            return c.surrounding().into_iter().all(|q| self.is_occupied(q));
        }
        let w = self.w as usize;
        let i = dy as usize * w + dx as usize;
        let rows = [
            &self.cells[i - w - 1..i - w + 2],
            &self.cells[i + w - 1..i + w + 2],
        ];
        rows.iter().all(|r| r.iter().all(|c| c.occupied))
            && self.cells[i - 1].occupied
            && self.cells[i + 1].occupied
    }

    /// Whether each watched feature is complete, into `done`.
    pub(super) fn completed(&self, done: &mut [bool]) {
        for (d, w) in done.iter_mut().zip(&self.watch) {
            *d = match *w {
                Watch::Edges(mut n) => {
                    while self.nodes[n as usize].parent != NO_NODE {
                        n = self.nodes[n as usize].parent;
                    }
                    self.nodes[n as usize].open == 0
                }
                Watch::Cloister(c) => self.surrounded(c),
            };
        }
    }
}

/// The key of the engine's frontier cell at `p`.
fn start_key(board: &Board, p: Pos, required: u16, mask: u16) -> u16 {
    let mut key = 0;
    for d in Dir::ALL {
        let i = d.index();
        let state = if (mask >> (3 * i)) & 0b111 != 0 {
            (required >> (3 * i)) & 0b111
        } else if board.is_occupied(p.step(d)) {
            ABBEY_SIDE
        } else {
            0
        };
        key += state * WEIGHT[i];
    }
    key
}

/// Tile type `t` in each rotation.
fn shapes(t: TileTypeId) -> [Shape; 4] {
    let tt = catalog().get(t);
    // each feature's place among the roads, cities and rivers
    let mut place = vec![NO_NODE; tt.features.len()];
    let mut n = 0;
    for (i, f) in tt.features.iter().enumerate() {
        if f.kind.is_edge_feature() {
            place[i] = n;
            n += 1;
        }
    }
    Rotation::ALL.map(|r| {
        let mut shape = Shape {
            side: [NO_NODE; 4],
            key_gain: [0; 4],
        };
        for d in Dir::ALL {
            let i = d.index();
            let ef = tt.edge_feature[r.index()][i];
            let kind = tt.edge_at(r, d);
            shape.side[i] = if ef != NONE {
                place[ef as usize]
            } else if kind == EdgeKind::Abbey {
                ABBEY
            } else {
                NO_NODE
            };
            let state = if kind == EdgeKind::Abbey {
                ABBEY_SIDE
            } else {
                kind as u16
            };
            shape.key_gain[i] = state * WEIGHT[d.opposite().index()];
        }
        shape
    })
}
