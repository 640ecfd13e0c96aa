//! Abbey & Mayor: the abbey (placed into a hole instead of drawing, and in a final round
//! after the last tile), the mayor (strength by pennants), the wagon (moves on when its
//! feature is scored) and the barn (on a corner where four fields meet; farmers score into
//! it, and it scores 4 per completed city at the end).

use super::prelude::*;

/// Final points per completed city for each barn (Abbey & Mayor).
pub const BARN_POINTS_PER_CITY: i32 = 4;

impl Game {
    /// Wagons freed by a scoring and waiting for their owners' decisions, with the cell
    /// each stood on (Abbey & Mayor). They are neither on the board nor in a supply.
    pub fn freed_wagons(&self) -> &[(u8, Pos)] {
        &self.wagons
    }

    /// Is there an empty cell with tiles on all four sides?
    pub fn has_hole(&self) -> bool {
        debug_assert_eq!(self.board.has_hole(), !self.holes().is_empty());
        self.board.has_hole()
    }

    /// Empty cells with tiles on all four sides (where an abbey may go).
    pub fn holes(&self) -> Vec<Pos> {
        let mut v: Vec<Pos> = self
            .board
            .frontier()
            .iter()
            .map(|f| f.pos)
            .filter(|p| {
                crate::geometry::Dir::ALL
                    .iter()
                    .all(|d| self.board.is_occupied(p.step(*d)))
            })
            .collect();
        v.sort();
        v
    }

    /// May the pending wagon move onto segment `seg`?
    pub(crate) fn wagon_target_ok(&self, seg: u16) -> bool {
        let Some(&(_, from)) = self.wagons.first() else {
            return false;
        };
        let at = self.board.tiles()[self.board.seg_tile(seg)].pos;
        (at.x - from.x).abs() <= 1
            && (at.y - from.y).abs() <= 1
            && expansions::figure_allowed(
                self.expansions,
                FigureKind::Wagon,
                self.board.seg_kind(seg),
            )
            && !self.board.is_complete(seg)
            && self.board.figures_in(seg) == 0
    }

    /// Has the pending wagon anywhere to go?
    pub(crate) fn has_wagon_target(&self) -> bool {
        let Some(&(_, from)) = self.wagons.first() else {
            return false;
        };
        let mut cells = [from; 9];
        cells[1..].copy_from_slice(&from.surrounding());
        cells.iter().any(|p| {
            self.board.tile_index_at(*p).is_some_and(|j| {
                (0..self.board.tiles()[j].tile_type().features.len())
                    .any(|i| self.wagon_target_ok(self.board.seg(j, i)))
            })
        })
    }

    /// Where the pending wagon may move: (cell, spot name, segment), the features on the
    /// wagon's tile and the 8 around it that are roads, cities or monasteries, incomplete
    /// and unoccupied.
    pub fn wagon_targets(&self) -> Vec<(Pos, String, u16)> {
        let mut out = Vec::new();
        let Some(&(owner, from)) = self.wagons.first() else {
            return out;
        };
        let _ = owner;
        let mut cells = [from; 9];
        cells[1..].copy_from_slice(&from.surrounding());
        cells.sort();
        for p in cells {
            let Some(j) = self.board.tile_index_at(p) else {
                continue;
            };
            let pt = self.board.tiles()[j];
            let tt = pt.tile_type();
            for (i, f) in tt.features.iter().enumerate() {
                if !expansions::figure_allowed(self.expansions, FigureKind::Wagon, f.kind) {
                    continue;
                }
                let seg = self.board.seg(j, i);
                if self.board.is_complete(seg) || self.board.figures_in(seg) > 0 {
                    continue;
                }
                out.push((p, tt.spot_name(tt.canonical_spot(pt.rotation, i)), seg));
            }
        }
        out
    }

    /// May the active player put their barn on corner `c` of placed tile `ti`? Returns
    /// the field segment it would stand in.
    pub(crate) fn barn_check(&self, ti: usize, c: u8) -> Result<u16, PlayError> {
        barn_check_on(self, &self.board, ti, c)
    }

    /// Hook *features scored*: farmers of a field that got a barn this part score 3 per
    /// city; farmers joined to a barn field by the tile at `ti` score 1 per city; then they
    /// go home.
    pub(crate) fn score_barn_fields(&mut self, ti: usize, sink: &mut impl EffectSink) {
        let tt = self.board.tiles()[ti].tile_type();
        let mut fields = [0u16; 12];
        let mut nf = 0;
        if let Some(b) = self.barn_placed {
            fields[0] = self.board.find(b);
            nf = 1;
        }
        for (i, f) in tt.features.iter().enumerate() {
            if f.kind == FeatureKind::Field && nf < fields.len() {
                let root = self.board.find(self.board.seg(ti, i));
                if !fields[..nf].contains(&root) {
                    fields[nf] = root;
                    nf += 1;
                }
            }
        }
        // the fields holding barns (one barn per player), when a field here has figures
        let mut barns = [0u16; 8];
        let mut nb = 0;
        if fields[..nf].iter().any(|r| self.board.figures_in(*r) > 0) {
            for f in &self.board.figures {
                if f.kind == FigureKind::Barn && nb < barns.len() {
                    barns[nb] = self.board.find(f.seg);
                    nb += 1;
                }
            }
        }
        if nb == 0 {
            nf = 0;
        }
        let mut cities = Vec::new();
        for (k, &root) in fields[..nf].iter().enumerate() {
            let barn_here = barns[..nb].contains(&root);
            let farmers = self
                .board
                .figures
                .iter()
                .any(|f| f.kind.is_follower() && self.board.find(f.seg) == root);
            if !barn_here || !farmers {
                continue;
            }
            let done = self.board.completed_cities(root, &mut cities) as i32;
            let placed_now = k == 0 && self.barn_placed.is_some();
            let per_city = if placed_now { 3 } else { 1 };
            self.award(
                root,
                FeatureKind::Field,
                per_city * done,
                expansions::PIG_BONUS_PER_CITY * done,
                false,
                1000 + k as u16,
                sink,
            );
            let mut i = 0;
            while i < self.board.figures.len() {
                let f = self.board.figures[i];
                if (f.kind.is_follower() || f.kind == FigureKind::Pig)
                    && self.board.find(f.seg) == root
                {
                    self.return_figure(i, sink);
                } else {
                    i += 1;
                }
            }
        }
    }

    /// Hook *final scoring*: every barn scores 4 per completed city of its field.
    pub(crate) fn score_barns(&mut self, cities: &mut Vec<u16>, sink: &mut impl EffectSink) {
        let barns: Vec<(u8, u16)> = self
            .board
            .figures
            .iter()
            .filter(|f| f.kind == FigureKind::Barn)
            .map(|f| (f.owner, f.seg))
            .collect();
        for (owner, seg) in barns {
            let done = self.board.completed_cities(seg, cities) as i32;
            let points = BARN_POINTS_PER_CITY * done;
            self.grant(owner, points, 0, sink);
            if sink.enabled() {
                sink.push(Effect::BarnScored {
                    player: owner,
                    points,
                    tiles: self.board.feature_positions(seg),
                });
            }
        }
    }
}

/// Barn placement (Abbey & Mayor): on corner `c` of the placed tile `ti` of `board`, where
/// four tiles meet with fields only, in a field without a barn.
pub(crate) fn barn_check_on(g: &Game, board: &Board, ti: usize, c: u8) -> Result<u16, PlayError> {
    if !g.expansions.contains(Expansion::AbbeyMayor) {
        return Err(PlayError::FigureNotAllowed {
            figure: "barn",
            feature: "field",
        });
    }
    let pt = board.tiles()[ti];
    for (q, qc) in crate::geometry::corner_cells(pt.pos, c) {
        let o = board.tile_at(q).ok_or(PlayError::BarnNotAllowed(
            "four tiles must meet at the corner",
        ))?;
        let f = o
            .tile_type()
            .feature_at(o.rotation, Spot::Corner(qc))
            .filter(|f| o.tile_type().features[*f].kind == FeatureKind::Field);
        if f.is_none() {
            return Err(PlayError::BarnNotAllowed(
                "all four corner areas must be field",
            ));
        }
    }
    let fi = pt
        .tile_type()
        .feature_at(pt.rotation, Spot::Corner(c))
        .ok_or(PlayError::BarnNotAllowed(
            "all four corner areas must be field",
        ))?;
    let seg = board.seg(ti, fi);
    let root = board.find(seg);
    if board
        .figures
        .iter()
        .any(|f| f.kind == FigureKind::Barn && board.find(f.seg) == root)
    {
        return Err(PlayError::BarnNotAllowed("the field already has a barn"));
    }
    if g.players[g.current as usize].supply[FigureKind::Barn as usize] == 0 {
        return Err(PlayError::NoFigureLeft("barn"));
    }
    Ok(seg)
}
