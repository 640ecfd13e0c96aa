//! Ferries change which road ends are joined: a link joins two road ends across a lake,
//! and after a ferry moves the roads are rebuilt from the recorded joins and the links.

use super::*;

impl Board {
    /// Joins two segments that a piece on the board connects (a ferry joining two road
    /// ends across its lake). The ends at the lake were never open, so nothing closes.
    pub fn link(&mut self, a: u16, b: u16) {
        self.union(a, b);
    }

    /// Rebuilds the roads from the recorded road joins and the given links (after a ferry
    /// moved and may have split a road). Only roads can change: a ferry joins road ends,
    /// and no other feature ever joins a road. The roads come out exactly as a rebuild of
    /// every feature would make them (the same joins in the same order); figures stay on
    /// their segments.
    pub fn rebuild_roads(&mut self, links: &[(u16, u16)]) {
        if !self.record_roads {
            return self.rebuild(links);
        }
        for k in 0..self.road_segs.len() {
            let id = self.road_segs[k];
            let (tile, feature) = {
                let s = &self.segs[id as usize];
                (s.tile, s.feature as usize)
            };
            let tt = catalog().get(self.tiles[tile as usize].tile);
            self.segs[id as usize] = fresh_seg(tt, id, tile, feature);
        }
        for k in 0..self.road_joins.len() {
            let (a, b) = self.road_joins[k];
            if b == EMPTY {
                let root = self.find(a);
                self.segs[root as usize].open -= 1;
            } else {
                let root = self.union(a, b);
                self.segs[root as usize].open -= 2;
            }
        }
        for &(a, b) in links {
            self.union(a, b);
        }
        self.lonely_check = true;
        for k in 0..self.figures.len() {
            let seg = self.figures[k].seg;
            if self.segs[seg as usize].kind == FeatureKind::Road {
                let root = self.find(seg);
                self.segs[root as usize].figures += 1;
            }
        }
    }

    /// Same tiles, features (roots, member order, root totals) and figures as `other`.
    /// Totals left on segments that stopped being roots are not compared: they are stale.
    #[cfg(debug_assertions)]
    pub(crate) fn same_features(&self, other: &Board) -> bool {
        self.tiles == other.tiles
            && self.figures == other.figures
            && self.segs.len() == other.segs.len()
            && self
                .segs
                .iter()
                .zip(&other.segs)
                .enumerate()
                .all(|(i, (a, b))| {
                    let plain = (a.parent, a.next, a.tile, a.feature, a.kind)
                        == (b.parent, b.next, b.tile, b.feature, b.kind);
                    plain && (a.parent as usize != i || a == b)
                })
    }

    /// Rebuilds every feature from the placed tiles and the given links (what
    /// [`Board::rebuild_roads`] does without recorded road joins; debug builds check one
    /// against the other). Figures stay on their segments.
    pub fn rebuild(&mut self, links: &[(u16, u16)]) {
        for idx in 0..self.tiles.len() {
            let pt = self.tiles[idx];
            let tt = catalog().get(pt.tile);
            for i in 0..tt.features.len() {
                let id = pt.seg_base + i as u16;
                self.segs[id as usize] = fresh_seg(tt, id, idx as u16, i);
            }
        }
        for idx in 0..self.tiles.len() {
            self.join_tile(idx, false);
        }
        for &(a, b) in links {
            self.union(a, b);
        }
        for k in 0..self.figures.len() {
            let root = self.find(self.figures[k].seg);
            self.segs[root as usize].figures += 1;
        }
    }
}
