//! The board: placed tiles on a growing grid, the frontier of empty cells where a tile
//! may go (with the edge constraints their neighbours impose), the features joined with
//! union-find as tiles are placed, and the figures standing on segments.
//!
//! A *segment* is one feature of one placed tile; segment ids are dense (`seg_base` of the
//! placed tile + feature index). A *feature* is a union-find class of segments; its root
//! keeps the open side count (roads, cities), pennants and the number of figures in it.

use crate::catalog::{catalog, EdgeKind, FeatureKind, TileType, TileTypeId, NONE};
use crate::figures::FigureKind;
use crate::geometry::{Dir, Pos, Rotation, Spot};

mod roads;

const EMPTY: u16 = u16::MAX;

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedTile {
    pub tile: TileTypeId,
    pub rotation: Rotation,
    pub pos: Pos,
    /// Id of the segment of feature 0 of this tile.
    pub seg_base: u16,
}

impl PlacedTile {
    pub fn tile_type(&self) -> &'static TileType {
        catalog().get(self.tile)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell {
    tile: u16,
    front: u16,
    /// Placed tiles on the four sides (of an empty cell).
    around: u8,
}

const EMPTY_CELL: Cell = Cell {
    tile: EMPTY,
    front: EMPTY,
    around: 0,
};

/// An empty cell next to at least one tile, with the edge kinds its neighbours require
/// (3 bits per side, as in [`TileType::signature`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrontierCell {
    pub pos: Pos,
    pub required: u16,
    pub mask: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seg {
    parent: u16,
    /// Next segment in the circular member list of its class.
    next: u16,
    /// Placed tile index.
    tile: u16,
    feature: u8,
    kind: FeatureKind,
    // root data
    size: u16,
    open: u16,
    pennants: u16,
    figures: u16,
    /// `FLAG_INN`, `FLAG_CATHEDRAL` of any segment in the class.
    flags: u8,
    /// Goods symbols (wine, grain, cloth) in the class.
    goods: [u8; 3],
}

/// A road of the feature has an inn.
pub const FLAG_INN: u8 = 1;
/// A city of the feature has a cathedral.
pub const FLAG_CATHEDRAL: u8 = 2;

/// A segment on its own, as printed on the tile.
fn fresh_seg(tt: &TileType, id: u16, tile: u16, i: usize) -> Seg {
    let f = &tt.features[i];
    Seg {
        parent: id,
        next: id,
        tile,
        feature: i as u8,
        kind: f.kind,
        size: 1,
        open: if f.kind.is_edge_feature() {
            f.edges.count_ones() as u16
        } else {
            0
        },
        pennants: f.pennants as u16,
        figures: 0,
        flags: if f.inn { FLAG_INN } else { 0 } | if f.cathedral { FLAG_CATHEDRAL } else { 0 },
        goods: match f.goods {
            Some(crate::catalog::Goods::Wine) => [1, 0, 0],
            Some(crate::catalog::Goods::Grain) => [0, 1, 0],
            Some(crate::catalog::Goods::Cloth) => [0, 0, 1],
            None => [0, 0, 0],
        },
    }
}

/// A figure standing on a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardFigure {
    pub owner: u8,
    pub kind: FigureKind,
    pub seg: u16,
    /// The tile corner a barn stands on (`NO_CORNER` for other figures).
    pub corner: u8,
}

/// [`BoardFigure::corner`] of figures that stand on a feature, not a corner.
pub const NO_CORNER: u8 = u8::MAX;

/// The board state.
#[derive(Debug, PartialEq, Eq)]
pub struct Board {
    tiles: Vec<PlacedTile>,
    segs: Vec<Seg>,
    frontier: Vec<FrontierCell>,
    min_x: i32,
    min_y: i32,
    w: i32,
    h: i32,
    cells: Vec<Cell>,
    /// Empty cells with tiles on all four sides.
    holes: u16,
    /// Since the last [`Board::take_lonely_check`], a follower left the board, a road was
    /// rebuilt or a builder or pig came: one of them may stand without its owner's
    /// followers.
    lonely_check: bool,
    /// Whether placing tiles records the road joins below (for rebuilding the roads).
    record_roads: bool,
    /// Road segments, in placement order.
    road_segs: Vec<u16>,
    /// Road joins made by placing tiles, in order: two road ends meeting (`(a, b)`), or an
    /// abbey closing road end `a` (`(a, EMPTY)`).
    road_joins: Vec<(u16, u16)>,
    pub figures: Vec<BoardFigure>,
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            tiles: self.tiles.clone(),
            segs: self.segs.clone(),
            frontier: self.frontier.clone(),
            min_x: self.min_x,
            min_y: self.min_y,
            w: self.w,
            h: self.h,
            cells: self.cells.clone(),
            holes: self.holes,
            lonely_check: self.lonely_check,
            record_roads: self.record_roads,
            road_segs: self.road_segs.clone(),
            road_joins: self.road_joins.clone(),
            figures: self.figures.clone(),
        }
    }

    /// Copies `source` into this board, reusing its allocations (playouts copy one board
    /// many times).
    fn clone_from(&mut self, source: &Board) {
        self.tiles.clone_from(&source.tiles);
        self.segs.clone_from(&source.segs);
        self.frontier.clone_from(&source.frontier);
        self.min_x = source.min_x;
        self.min_y = source.min_y;
        self.w = source.w;
        self.h = source.h;
        self.cells.clone_from(&source.cells);
        self.holes = source.holes;
        self.lonely_check = source.lonely_check;
        self.record_roads = source.record_roads;
        self.road_segs.clone_from(&source.road_segs);
        self.road_joins.clone_from(&source.road_joins);
        self.figures.clone_from(&source.figures);
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    pub fn new() -> Board {
        Board::with_capacity(96, 384)
    }

    /// An empty board with room for `tiles` tiles holding `segments` features in all
    /// without reallocating.
    pub fn with_capacity(tiles: usize, segments: usize) -> Board {
        Board {
            tiles: Vec::with_capacity(tiles),
            segs: Vec::with_capacity(segments),
            frontier: Vec::with_capacity(64),
            min_x: 0,
            min_y: 0,
            w: 0,
            h: 0,
            cells: Vec::new(),
            holes: 0,
            lonely_check: false,
            record_roads: false,
            road_segs: Vec::new(),
            road_joins: Vec::new(),
            figures: Vec::with_capacity(16),
        }
    }

    /// Records the road joins of the tiles placed from now on, for
    /// [`Board::rebuild_roads`] (call before the first tile).
    pub fn record_roads(&mut self) {
        self.record_roads = true;
        let n = self.segs.capacity() / 2;
        self.road_segs.reserve(n);
        self.road_joins.reserve(n);
    }

    /// Is there an empty cell with tiles on all four sides?
    pub fn has_hole(&self) -> bool {
        self.holes > 0
    }

    pub fn tiles(&self) -> &[PlacedTile] {
        &self.tiles
    }

    pub fn frontier(&self) -> &[FrontierCell] {
        &self.frontier
    }

    /// The frontier cell at `p`: an empty cell next to a tile, with the edges its
    /// neighbours require.
    pub fn frontier_at(&self, p: Pos) -> Option<&FrontierCell> {
        let c = self.cell(p);
        (c.tile == EMPTY && c.front != EMPTY).then(|| &self.frontier[c.front as usize])
    }

    /// The index in [`Board::frontier`] of the frontier cell at `p`.
    pub fn frontier_index(&self, p: Pos) -> Option<usize> {
        let c = self.cell(p);
        (c.tile == EMPTY && c.front != EMPTY).then_some(c.front as usize)
    }

    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    #[inline]
    fn cell_index(&self, p: Pos) -> Option<usize> {
        // negative offsets wrap to large unsigned ones
        let dx = p.x.wrapping_sub(self.min_x) as u32;
        let dy = p.y.wrapping_sub(self.min_y) as u32;
        if dx < self.w as u32 && dy < self.h as u32 {
            Some((dy * self.w as u32 + dx) as usize)
        } else {
            None
        }
    }

    #[inline]
    fn cell(&self, p: Pos) -> Cell {
        match self.cell_index(p) {
            Some(i) => self.cells[i],
            None => EMPTY_CELL,
        }
    }

    /// Index of the placed tile at `p`.
    #[inline]
    pub fn tile_index_at(&self, p: Pos) -> Option<usize> {
        let c = self.cell(p);
        (c.tile != EMPTY).then_some(c.tile as usize)
    }

    pub fn tile_at(&self, p: Pos) -> Option<&PlacedTile> {
        self.tile_index_at(p).map(|i| &self.tiles[i])
    }

    pub fn is_occupied(&self, p: Pos) -> bool {
        self.cell(p).tile != EMPTY
    }

    fn cell_mut(&mut self, p: Pos) -> &mut Cell {
        let i = match self.cell_index(p) {
            Some(i) => i,
            None => {
                self.grow_to(p);
                self.cell_index(p).unwrap_or(0)
            }
        };
        &mut self.cells[i]
    }

    fn grow_to(&mut self, p: Pos) {
        const MARGIN: i32 = 6;
        let (mut x0, mut y0, mut x1, mut y1) = if self.w == 0 {
            (p.x, p.y, p.x + 1, p.y + 1)
        } else {
            (
                self.min_x,
                self.min_y,
                self.min_x + self.w,
                self.min_y + self.h,
            )
        };
        if p.x < x0 {
            x0 = p.x - MARGIN;
        }
        if p.y < y0 {
            y0 = p.y - MARGIN;
        }
        if p.x >= x1 {
            x1 = p.x + 1 + MARGIN;
        }
        if p.y >= y1 {
            y1 = p.y + 1 + MARGIN;
        }
        if self.w == 0 {
            x0 -= MARGIN;
            y0 -= MARGIN;
            x1 += MARGIN;
            y1 += MARGIN;
        }
        let (w, h) = (x1 - x0, y1 - y0);
        let mut cells = vec![EMPTY_CELL; (w * h) as usize];
        for yy in 0..self.h {
            for xx in 0..self.w {
                let old = self.cells[(yy * self.w + xx) as usize];
                let nx = self.min_x + xx - x0;
                let ny = self.min_y + yy - y0;
                cells[(ny * w + nx) as usize] = old;
            }
        }
        self.cells = cells;
        self.min_x = x0;
        self.min_y = y0;
        self.w = w;
        self.h = h;
    }

    /// Does tile `t` in rotation `r` fit the edges around the empty cell `p`? (Only the
    /// edge match; adjacency is implied for frontier cells.)
    pub fn fits(&self, t: &TileType, p: Pos, r: Rotation) -> bool {
        let c = self.cell(p);
        if c.tile != EMPTY || c.front == EMPTY {
            return false;
        }
        let f = &self.frontier[c.front as usize];
        t.signature[r.index()] & f.mask == f.required
    }

    /// Places a tile (the caller has checked legality) and joins its features.
    /// Returns the placed tile index.
    pub fn place(&mut self, tile: TileTypeId, p: Pos, r: Rotation) -> usize {
        let tt = catalog().get(tile);
        let idx = self.tiles.len() as u16;
        let seg_base = self.segs.len() as u16;
        for i in 0..tt.features.len() {
            self.segs.push(fresh_seg(tt, seg_base + i as u16, idx, i));
            if self.record_roads && tt.features[i].kind == FeatureKind::Road {
                self.road_segs.push(seg_base + i as u16);
            }
        }
        self.tiles.push(PlacedTile {
            tile,
            rotation: r,
            pos: p,
            seg_base,
        });
        // take the cell out of the frontier
        let front = self.cell(p).front;
        if front != EMPTY {
            self.frontier_remove(front as usize);
        }
        let cell = self.cell_mut(p);
        cell.tile = idx;
        if cell.around == 4 {
            self.holes -= 1;
        }
        self.join_tile(idx as usize, true);
        idx as usize
    }

    /// Joins tile `idx` with its neighbours (those placed before it, or all of them),
    /// and records the frontier cells around it when `frontier` is set.
    fn join_tile(&mut self, idx: usize, frontier: bool) {
        let PlacedTile {
            tile,
            rotation: r,
            pos: p,
            seg_base,
        } = self.tiles[idx];
        let tt = catalog().get(tile);
        for d in Dir::ALL {
            let q = p.step(d);
            let my_kind = tt.edge_at(r, d);
            match self.tile_index_at(q).filter(|j| *j < idx) {
                Some(j) => {
                    let other = self.tiles[j];
                    let ot = catalog().get(other.tile);
                    let od = d.opposite();
                    let their_kind = ot.edge_at(other.rotation, od);
                    let mine = tt.edge_feature[r.index()][d.index()];
                    let theirs = ot.edge_feature[other.rotation.index()][od.index()];
                    match (mine != NONE, theirs != NONE) {
                        (true, true) => {
                            let a = seg_base + mine as u16;
                            let b = other.seg_base + theirs as u16;
                            let root = self.union(a, b);
                            self.segs[root as usize].open -= 2;
                            self.record_road_join(frontier, a, b);
                        }
                        // an abbey side closes whatever touches it
                        (true, false) if their_kind == EdgeKind::Abbey => {
                            let a = seg_base + mine as u16;
                            let root = self.find(a);
                            self.segs[root as usize].open -= 1;
                            self.record_road_join(frontier, a, EMPTY);
                        }
                        (false, true) if my_kind == EdgeKind::Abbey => {
                            let a = other.seg_base + theirs as u16;
                            let root = self.find(a);
                            self.segs[root as usize].open -= 1;
                            self.record_road_join(frontier, a, EMPTY);
                        }
                        _ => {}
                    }
                    for h in d.halves() {
                        let a = tt.half_feature[r.index()][h.index()];
                        let b = ot.half_feature[other.rotation.index()][h.across().index()];
                        if a != NONE && b != NONE {
                            self.union(seg_base + a as u16, other.seg_base + b as u16);
                        }
                    }
                }
                None if !frontier => {}
                None => {
                    let shift = 3 * d.opposite().index();
                    let (req, mask) = if my_kind == EdgeKind::Abbey {
                        (0, 0)
                    } else {
                        ((my_kind as u16) << shift, 0b111 << shift)
                    };
                    let fi = self.frontier.len() as u16;
                    let c = self.cell_mut(q);
                    c.around += 1;
                    let hole = c.around == 4;
                    let front = c.front;
                    if front == EMPTY {
                        c.front = fi;
                        self.frontier.push(FrontierCell {
                            pos: q,
                            required: req,
                            mask,
                        });
                    } else {
                        let f = &mut self.frontier[front as usize];
                        f.required |= req;
                        f.mask |= mask;
                    }
                    if hole {
                        self.holes += 1;
                    }
                }
            }
        }
    }

    /// Records a join of placement (`placing`) that involves road end `a`.
    #[inline]
    fn record_road_join(&mut self, placing: bool, a: u16, b: u16) {
        if placing && self.record_roads && self.segs[a as usize].kind == FeatureKind::Road {
            self.road_joins.push((a, b));
        }
    }

    fn frontier_remove(&mut self, i: usize) {
        let pos = self.frontier[i].pos;
        self.frontier.swap_remove(i);
        if i < self.frontier.len() {
            let moved = self.frontier[i].pos;
            self.cell_mut(moved).front = i as u16;
        }
        self.cell_mut(pos).front = EMPTY;
    }

    /// Root of a segment's feature. Every segment points straight at its root (a union
    /// relinks the members of the smaller class), so this is one lookup.
    #[inline]
    pub fn find(&self, s: u16) -> u16 {
        let r = self.segs[s as usize].parent;
        debug_assert_eq!(self.segs[r as usize].parent, r);
        r
    }

    fn union(&mut self, a: u16, b: u16) -> u16 {
        let ra = self.find(a);
        let rb = self.find(b);
        if ra == rb {
            return ra;
        }
        let (big, small) = if self.segs[ra as usize].size >= self.segs[rb as usize].size {
            (ra, rb)
        } else {
            (rb, ra)
        };
        let s = self.segs[small as usize];
        {
            let g = &mut self.segs[big as usize];
            g.size += s.size;
            g.open += s.open;
            g.pennants += s.pennants;
            g.figures += s.figures;
            g.flags |= s.flags;
            for k in 0..3 {
                g.goods[k] += s.goods[k];
            }
        }
        // the smaller class's members now belong to `big`
        let mut m = small;
        loop {
            self.segs[m as usize].parent = big;
            m = self.segs[m as usize].next;
            if m == small {
                break;
            }
        }
        // splice the circular member lists
        let nb = self.segs[big as usize].next;
        let ns = self.segs[small as usize].next;
        self.segs[big as usize].next = ns;
        self.segs[small as usize].next = nb;
        big
    }

    /// Segment id of feature `i` of placed tile `t`.
    pub fn seg(&self, t: usize, i: usize) -> u16 {
        self.tiles[t].seg_base + i as u16
    }

    pub fn seg_tile(&self, s: u16) -> usize {
        self.segs[s as usize].tile as usize
    }

    pub fn seg_feature(&self, s: u16) -> usize {
        self.segs[s as usize].feature as usize
    }

    pub fn seg_kind(&self, s: u16) -> FeatureKind {
        self.segs[s as usize].kind
    }

    /// Open sides of the feature containing `s` (roads, cities, rivers).
    pub fn open_sides(&self, s: u16) -> u32 {
        self.segs[self.find(s) as usize].open as u32
    }

    pub fn pennants(&self, s: u16) -> u32 {
        self.segs[self.find(s) as usize].pennants as u32
    }

    /// `FLAG_*` bits of the feature containing `s`.
    pub fn flags(&self, s: u16) -> u8 {
        self.segs[self.find(s) as usize].flags
    }

    /// Goods symbols (wine, grain, cloth) in the feature containing `s`.
    pub fn goods(&self, s: u16) -> [u8; 3] {
        self.segs[self.find(s) as usize].goods
    }

    /// Figures of any kind in the feature containing `s`.
    pub fn figures_in(&self, s: u16) -> u32 {
        self.segs[self.find(s) as usize].figures as u32
    }

    /// Iterates the segments of the feature whose root is `root`.
    pub fn members(&self, root: u16) -> impl Iterator<Item = u16> + '_ {
        let mut cur = root;
        let mut done = false;
        std::iter::from_fn(move || {
            if done {
                return None;
            }
            let s = cur;
            cur = self.segs[s as usize].next;
            if cur == root {
                done = true;
            }
            Some(s)
        })
    }

    /// Number of distinct tiles the feature containing `s` lies on.
    pub fn distinct_tiles(&self, s: u16) -> u32 {
        let root = self.find(s);
        let mut seen = [0u64; 8];
        let mut big: Vec<u16> = Vec::new();
        let mut n = 0;
        for m in self.members(root) {
            let t = self.segs[m as usize].tile as usize;
            if t < 512 {
                let (w, b) = (t / 64, 1u64 << (t % 64));
                if seen[w] & b == 0 {
                    seen[w] |= b;
                    n += 1;
                }
            } else if !big.contains(&(t as u16)) {
                big.push(t as u16);
                n += 1;
            }
        }
        n
    }

    /// The lexicographically smallest position among the tiles of the feature (used to
    /// order scorings deterministically).
    pub fn smallest_pos(&self, s: u16) -> Pos {
        let root = self.find(s);
        self.members(root)
            .map(|m| self.tiles[self.segs[m as usize].tile as usize].pos)
            .min()
            .unwrap_or(Pos::new(0, 0))
    }

    /// Positions of the distinct tiles of the feature, sorted.
    pub fn feature_positions(&self, s: u16) -> Vec<Pos> {
        let root = self.find(s);
        let mut v: Vec<Pos> = self
            .members(root)
            .map(|m| self.tiles[self.segs[m as usize].tile as usize].pos)
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// How many completed cities border the field of segment `s` (`scratch` is reused
    /// space for the list of cities).
    pub fn completed_cities(&self, s: u16, scratch: &mut Vec<u16>) -> u32 {
        self.field_cities(s, scratch);
        scratch.iter().filter(|c| self.open_sides(**c) == 0).count() as u32
    }

    /// Roots of the distinct cities a field (containing `s`) touches.
    pub fn field_cities(&self, s: u16, out: &mut Vec<u16>) {
        out.clear();
        let root = self.find(s);
        for m in self.members(root) {
            let seg = self.segs[m as usize];
            let pt = self.tiles[seg.tile as usize];
            let f = &catalog().get(pt.tile).features[seg.feature as usize];
            let mut b = f.borders;
            while b != 0 {
                let j = b.trailing_zeros() as u16;
                b &= b - 1;
                let c = self.find(pt.seg_base + j);
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        }
    }

    /// Occupied cells among the 8 around `p`.
    pub fn surrounding_tiles(&self, p: Pos) -> u32 {
        p.surrounding()
            .into_iter()
            .filter(|q| self.is_occupied(*q))
            .count() as u32
    }

    /// Is the feature containing `s` complete?
    pub fn is_complete(&self, s: u16) -> bool {
        let seg = self.segs[s as usize];
        match seg.kind {
            FeatureKind::Road | FeatureKind::City | FeatureKind::River => self.open_sides(s) == 0,
            FeatureKind::Monastery | FeatureKind::Garden => {
                self.surrounding_tiles(self.tiles[seg.tile as usize].pos) == 8
            }
            _ => false,
        }
    }

    /// Puts a figure on a segment.
    pub fn add_figure(&mut self, owner: u8, kind: FigureKind, seg: u16) {
        self.add_figure_at(owner, kind, seg, NO_CORNER);
    }

    /// Puts a figure on a segment, at a tile corner (barns).
    pub fn add_figure_at(&mut self, owner: u8, kind: FigureKind, seg: u16, corner: u8) {
        let root = self.find(seg);
        self.segs[root as usize].figures += 1;
        if kind.needs_own_follower() {
            self.lonely_check = true;
        }
        self.figures.push(BoardFigure {
            owner,
            kind,
            seg,
            corner,
        });
    }

    /// Removes figure `i` (index into `figures`).
    pub fn remove_figure(&mut self, i: usize) -> BoardFigure {
        let f = self.figures.remove(i);
        let root = self.find(f.seg);
        self.segs[root as usize].figures -= 1;
        if f.kind.is_follower() {
            self.lonely_check = true;
        }
        f
    }

    /// Whether a builder or pig may stand alone now (see `lonely_check`); clears it.
    pub fn take_lonely_check(&mut self) -> bool {
        std::mem::take(&mut self.lonely_check)
    }

    /// Would feature `i` of tile `t` placed at `p` with `r` join an occupied feature?
    /// (Look-ahead for listing placements without placing.)
    pub fn occupied_after(&self, t: &TileType, p: Pos, r: Rotation, i: usize) -> bool {
        self.occupied_after_mask(t, p, r) & (1 << i) != 0
    }

    /// For tile `t` placed at `p` with `r`: bit `i` set when feature `i` would belong to an
    /// occupied feature. Two features of the tile that touch the same neighbouring feature
    /// end up in one feature, so an occupied feature reached through one of them occupies
    /// the other too (a field on both sides of a road end, for instance).
    pub fn occupied_after_mask(&self, t: &TileType, p: Pos, r: Rotation) -> u32 {
        // (feature of the tile, root of the neighbouring feature it joins)
        let mut touch = [(0u8, 0u16); 12];
        let mut k = 0;
        for d in Dir::ALL {
            let Some(j) = self.tile_index_at(p.step(d)) else {
                continue;
            };
            let o = &self.tiles[j];
            let ot = catalog().get(o.tile);
            let od = d.opposite();
            let mine = t.edge_feature[r.index()][d.index()];
            let theirs = ot.edge_feature[o.rotation.index()][od.index()];
            if mine != NONE && theirs != NONE {
                touch[k] = (mine, self.find(o.seg_base + theirs as u16));
                k += 1;
            }
            for h in d.halves() {
                let a = t.half_feature[r.index()][h.index()];
                let b = ot.half_feature[o.rotation.index()][h.across().index()];
                if a != NONE && b != NONE {
                    touch[k] = (a, self.find(o.seg_base + b as u16));
                    k += 1;
                }
            }
        }
        // group the tile's features that share a neighbouring feature
        let mut group: [u8; 32] = std::array::from_fn(|i| i as u8);
        fn top(group: &[u8; 32], mut i: u8) -> u8 {
            while group[i as usize] != i {
                i = group[i as usize];
            }
            i
        }
        for x in 0..k {
            for y in x + 1..k {
                if touch[x].1 == touch[y].1 {
                    let (a, b) = (top(&group, touch[x].0), top(&group, touch[y].0));
                    group[a.max(b) as usize] = a.min(b);
                }
            }
        }
        let mut occupied_groups = 0u32;
        for &(f, root) in &touch[..k] {
            if self.segs[root as usize].figures > 0 {
                occupied_groups |= 1 << top(&group, f);
            }
        }
        if occupied_groups == 0 {
            return 0;
        }
        let mut mask = 0u32;
        for i in 0..t.features.len() as u8 {
            if occupied_groups & (1 << top(&group, i)) != 0 {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// The spot a figure stands on, in board orientation.
    pub fn figure_spot(&self, f: &BoardFigure) -> (Pos, Spot) {
        let seg = self.segs[f.seg as usize];
        let pt = &self.tiles[seg.tile as usize];
        if f.corner != NO_CORNER {
            return (pt.pos, Spot::Corner(f.corner));
        }
        let spot = catalog()
            .get(pt.tile)
            .canonical_spot(pt.rotation, seg.feature as usize);
        (pt.pos, spot)
    }

    /// Approximate heap bytes held by the board.
    pub fn heap_bytes(&self) -> usize {
        self.tiles.capacity() * std::mem::size_of::<PlacedTile>()
            + self.segs.capacity() * std::mem::size_of::<Seg>()
            + self.frontier.capacity() * std::mem::size_of::<FrontierCell>()
            + self.cells.capacity() * std::mem::size_of::<Cell>()
            + self.figures.capacity() * std::mem::size_of::<BoardFigure>()
            + self.road_segs.capacity() * 2
            + self.road_joins.capacity() * 4
    }
}
