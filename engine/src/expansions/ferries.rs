//! The Ferries: every lake tile holds one ferry joining two of its road ends (jetties);
//! after a lake tile the active player places its ferry, and a tile that extends a road
//! carrying a ferry lets the player move the first ferry met along that road in each
//! direction (each ferry once per turn part, not the one placed this part). A move may
//! split a road: the roads are rebuilt from the tiles and the ferry links, and figures stay
//! on their segments.

use super::prelude::*;
use crate::geometry::Dir;

/// A ferry on the lake of a placed tile, joining two jetties (segments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ferry {
    pub tile: u16,
    pub a: u16,
    pub b: u16,
}

/// The state of The Ferries, held by a game with this expansion only.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FerryState {
    /// The ferry of every lake on the board.
    ferries: Vec<Ferry>,
    /// Lake tiles whose ferry moved in this turn part.
    moved: Vec<usize>,
    /// Lake tiles whose ferry was placed or moved in this turn part.
    touched: Vec<usize>,
}

impl FerryState {
    /// Heap bytes held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.ferries.capacity() * std::mem::size_of::<Ferry>()
            + (self.moved.capacity() + self.touched.capacity()) * std::mem::size_of::<usize>()
    }
}

impl Table {
    /// Stage *ferries*: the decision due, if any: the ferry of a lake tile placed this
    /// part, then the ferry moves.
    pub(crate) fn ferry_decision(&self) -> Option<Phase> {
        let st = self.ferry.as_deref()?;
        if let Some(ti) = self.part_tile {
            if self.jetties(ti).len() >= 2 && !st.ferries.iter().any(|f| f.tile as usize == ti) {
                return Some(Phase::PlaceFerry);
            }
        }
        (!self.movable_ferries().is_empty()).then_some(Phase::MoveFerry)
    }

    /// Hook *before scoring*: the road ends of every lake whose ferry was placed or moved
    /// this part are added to the segments to check (`segs[..*ns]`); the part's ferry
    /// record is cleared.
    pub(crate) fn ferry_roads_to_score(&mut self, segs: &mut [u16], ns: &mut usize) {
        let Some(mut st) = self.ferry.take() else {
            return;
        };
        for &lake in &st.touched {
            for (_, seg) in self.jetties(lake) {
                if *ns < segs.len() {
                    segs[*ns] = seg;
                    *ns += 1;
                }
            }
        }
        st.touched.clear();
        st.moved.clear();
        self.ferry = Some(st);
    }

    /// The jetties of placed tile `ti` (its road segments that end at a lake), with the
    /// side each leaves by (board orientation).
    pub fn jetties(&self, ti: usize) -> Vec<(Dir, u16)> {
        let pt = self.board.tiles()[ti];
        let tt = pt.tile_type();
        if !tt.features.iter().any(|f| f.kind == FeatureKind::Lake) {
            return Vec::new();
        }
        let mut v = Vec::new();
        for d in Dir::ALL {
            let f = tt.edge_feature[pt.rotation.index()][d.index()];
            if f != crate::catalog::NONE && tt.features[f as usize].kind == FeatureKind::Road {
                v.push((d, self.board.seg(ti, f as usize)));
            }
        }
        v
    }

    /// The ferries on the board.
    pub fn ferries(&self) -> &[Ferry] {
        self.ferry.as_deref().map_or(&[], |st| &st.ferries)
    }

    /// Pairs of sides the new ferry may join.
    pub fn ferry_choices(&self) -> Vec<(Pos, Dir, Dir)> {
        let mut v = Vec::new();
        match self.phase {
            Phase::PlaceFerry => {
                if let Some(ti) = self.part_tile {
                    let pos = self.board.tiles()[ti].pos;
                    let j = self.jetties(ti);
                    for x in 0..j.len() {
                        for y in x + 1..j.len() {
                            v.push((pos, j[x].0, j[y].0));
                        }
                    }
                }
            }
            Phase::MoveFerry => {
                for k in self.movable_ferries() {
                    let f = self.ferries()[k];
                    let ti = f.tile as usize;
                    let pos = self.board.tiles()[ti].pos;
                    let j = self.jetties(ti);
                    for x in 0..j.len() {
                        for y in x + 1..j.len() {
                            let pair = (j[x].1, j[y].1);
                            if pair != (f.a, f.b) && pair != (f.b, f.a) {
                                v.push((pos, j[x].0, j[y].0));
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        v
    }

    fn jetty_pair(&self, pos: Pos, from: Dir, to: Dir) -> Option<(usize, u16, u16)> {
        let ti = self.board.tile_index_at(pos)?;
        let j = self.jetties(ti);
        let a = j.iter().find(|x| x.0 == from)?.1;
        let b = j.iter().find(|x| x.0 == to)?.1;
        (a != b).then_some((ti, a, b))
    }

    pub(crate) fn place_ferry(&mut self, pos: Pos, from: Dir, to: Dir) -> Result<Stage, PlayError> {
        if !self.ferry_choices().contains(&(pos, from, to))
            && !self.ferry_choices().contains(&(pos, to, from))
        {
            return Err(PlayError::FerryNotAllowed);
        }
        let (ti, a, b) = self
            .jetty_pair(pos, from, to)
            .ok_or(PlayError::FerryNotAllowed)?;
        let st = self
            .ferry
            .as_deref_mut()
            .ok_or(PlayError::FerryNotAllowed)?;
        st.ferries.push(Ferry {
            tile: ti as u16,
            a,
            b,
        });
        st.touched.push(ti);
        self.board.link(a, b);
        Ok(Stage::Ferries)
    }

    pub(crate) fn move_ferry(
        &mut self,
        pos: Pos,
        from: Dir,
        to: Dir,
        sink: &mut impl EffectSink,
    ) -> Result<Stage, PlayError> {
        if !self.ferry_choices().contains(&(pos, from, to))
            && !self.ferry_choices().contains(&(pos, to, from))
        {
            return Err(PlayError::FerryNotAllowed);
        }
        let (ti, a, b) = self
            .jetty_pair(pos, from, to)
            .ok_or(PlayError::FerryNotAllowed)?;
        let st = self
            .ferry
            .as_deref_mut()
            .ok_or(PlayError::FerryNotAllowed)?;
        if let Some(f) = st.ferries.iter_mut().find(|f| f.tile as usize == ti) {
            f.a = a;
            f.b = b;
        }
        st.moved.push(ti);
        st.touched.push(ti);
        let links: Vec<(u16, u16)> = st.ferries.iter().map(|f| (f.a, f.b)).collect();
        self.board.rebuild_roads(&links);
        #[cfg(debug_assertions)]
        {
            let mut full = self.board.clone();
            full.rebuild(&links);
            debug_assert!(
                full.same_features(&self.board),
                "road rebuild differs from a full rebuild"
            );
        }
        // a builder or pig cut off from its owner's followers goes home
        self.return_lonely_specials(sink);
        Ok(Stage::Ferries)
    }

    /// Indices (into `ferries`) of the ferries the active player may move now: the first
    /// ferry met along each road from the tile placed this part, not moved yet this part
    /// and not placed this part.
    pub fn movable_ferries(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let Some(st) = self.ferry.as_deref() else {
            return out;
        };
        let Some(start) = self.part_tile else {
            return out;
        };
        if st.ferries.is_empty() {
            return out;
        }
        let tt = self.board.tiles()[start].tile_type();
        // the walk stays on the roads of the placed tile (a ferry's two jetties are on one
        // road): without a ferry on one of them there is nothing to find
        let mut roads = [0u16; 8];
        let mut nr = 0;
        for (i, f) in tt.features.iter().enumerate() {
            if f.kind == FeatureKind::Road && nr < roads.len() {
                roads[nr] = self.board.find(self.board.seg(start, i));
                nr += 1;
            }
        }
        if nr < roads.len()
            && !st
                .ferries
                .iter()
                .any(|f| roads[..nr].contains(&self.board.find(f.a)))
        {
            return out;
        }
        let mut seen: Vec<u16> = Vec::with_capacity(32);
        let mut queue: Vec<u16> = Vec::new();
        for (i, f) in tt.features.iter().enumerate() {
            if f.kind == FeatureKind::Road {
                queue.push(self.board.seg(start, i));
            }
        }
        while let Some(s) = queue.pop() {
            if seen.contains(&s) {
                continue;
            }
            seen.push(s);
            let ti = self.board.seg_tile(s);
            if let Some(k) = st.ferries.iter().position(|f| f.a == s || f.b == s) {
                let f = st.ferries[k];
                let other = if f.a == s { f.b } else { f.a };
                if ti == start {
                    // the ferry of the tile just placed: cross it
                    queue.push(other);
                } else {
                    if !st.moved.contains(&ti) && !out.contains(&k) {
                        out.push(k);
                    }
                    continue;
                }
            }
            // along the road to the neighbouring tiles
            let pt = self.board.tiles()[ti];
            let ptt = pt.tile_type();
            let fi = self.board.seg_feature(s);
            for d in Dir::ALL {
                if ptt.edge_feature[pt.rotation.index()][d.index()] as usize != fi {
                    continue;
                }
                if let Some(j) = self.board.tile_index_at(pt.pos.step(d)) {
                    let o = self.board.tiles()[j];
                    let of = o.tile_type().edge_feature[o.rotation.index()][d.opposite().index()];
                    if of != crate::catalog::NONE {
                        queue.push(self.board.seg(j, of as usize));
                    }
                }
            }
        }
        out.sort();
        out
    }
}

/// The ferry lake, for the tile's description.
pub(crate) fn describe_tile(tile: &crate::catalog::TileType, w: &mut crate::tile_words::Words) {
    if tile.features.iter().any(|f| f.kind == FeatureKind::Lake) {
        w.shape("ferry-lake");
    }
}

/// Ferries' decisions: place the new lake's ferry, then move ferries the tile reached
/// (or stop).
pub(crate) struct Ferries;

impl Hooks for Ferries {
    /// The road ends of every lake whose ferry was placed or moved this part.
    fn segments_to_score(&self, t: &mut Table, segs: &mut [u16], ns: &mut usize) {
        t.ferry_roads_to_score(segs, ns);
    }

    fn heap_bytes(&self, t: &Table) -> usize {
        t.ferry.as_deref().map_or(0, |f| f.heap_bytes())
    }

    /// No ferry yet; the board records its road joins (a ferry move rebuilds the roads
    /// from them).
    fn set_up(&self, t: &mut Table) {
        if t.expansions.contains(Expansion::Ferries) {
            t.board.record_roads();
            t.ferry = Some(Box::default());
        }
    }
}

impl Decisions for Ferries {
    const PHASES: &'static [Phase] = &[Phase::PlaceFerry, Phase::MoveFerry];

    /// The active player left before the ferries were settled: on to scoring.
    fn player_left(
        &self,
        t: &mut Table,
        player: u8,
        _deciding: bool,
        _sink: &mut impl EffectSink,
    ) -> Option<Option<Stage>> {
        if !matches!(t.phase, Phase::PlaceFerry | Phase::MoveFerry) {
            return None;
        }
        if player != t.current {
            return Some(None);
        }
        t.cancel_builder();
        t.after_magic = Stage::Figure;
        Some(Some(Stage::Scoring))
    }

    fn options(&self, t: &Table, out: &mut Vec<Action>) {
        if !matches!(t.phase, Phase::PlaceFerry | Phase::MoveFerry) {
            return;
        }
        let moved = t.phase == Phase::MoveFerry;
        out.extend(t.ferry_choices().into_iter().map(|(p, a, b)| {
            let (from, to) = (a.name().to_string(), b.name().to_string());
            if moved {
                Action::MoveFerry {
                    x: p.x,
                    y: p.y,
                    from,
                    to,
                }
            } else {
                Action::PlaceFerry {
                    x: p.x,
                    y: p.y,
                    from,
                    to,
                }
            }
        }));
        if moved {
            out.push(Action::Pass);
        }
    }

    fn apply(
        &self,
        t: &mut Table,
        _player: u8,
        action: &Action,
        sink: &mut impl EffectSink,
    ) -> Option<Result<Decided, PlayError>> {
        Some(match (t.phase, action) {
            (Phase::PlaceFerry, Action::PlaceFerry { x, y, from, to })
            | (Phase::MoveFerry, Action::MoveFerry { x, y, from, to }) => {
                t.set_ferry(Pos::new(*x, *y), from, to, sink)
            }
            (Phase::MoveFerry, Action::Pass) => {
                Ok((Done::Declined(Declined::Ferries), Some(Stage::Scoring)))
            }
            _ => return None,
        })
    }
}

impl Table {
    /// The ferry of the lake at `pos` placed (or, in the move phase, moved) to join the
    /// road ends leaving by sides `from` and `to`; recorded by the sides' own names.
    fn set_ferry(
        &mut self,
        pos: Pos,
        from: &str,
        to: &str,
        sink: &mut impl EffectSink,
    ) -> Result<Decided, PlayError> {
        let parse = |s: &str| {
            s.parse::<Dir>()
                .map_err(|_| PlayError::UnknownSpot(s.to_string()))
        };
        let (f, t) = (parse(from)?, parse(to)?);
        let moved = self.phase == Phase::MoveFerry;
        let next = if moved {
            self.move_ferry(pos, f, t, sink)?
        } else {
            self.place_ferry(pos, f, t)?
        };
        let done = if (from, to) == (f.name(), t.name()) {
            Done::AsPosted
        } else {
            let (from, to) = (f.name().to_string(), t.name().to_string());
            let (x, y) = (pos.x, pos.y);
            Done::As(if moved {
                Action::MoveFerry { x, y, from, to }
            } else {
                Action::PlaceFerry { x, y, from, to }
            })
        };
        Ok((done, Some(next)))
    }
}
