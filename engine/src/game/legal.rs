//! Legal moves: placements of the drawn tile with their spots and figures, and every
//! option of the pending decision as complete actions.

use super::*;

impl Game {
    /// Legal (position, rotation) pairs for the drawn tile, appended to `out` (with the
    /// house rule `tiles_in_hand`: for the first kind of tile in the hand; see
    /// [`Game::tiles_to_place`] and [`Game::placements_of_into`]).
    pub fn placements_into(&self, out: &mut Vec<(Pos, Rotation)>) {
        if let Some(t) = self.tiles_to_place().first() {
            self.tile_placements(*t, out);
        }
    }

    /// Legal (position, rotation) pairs for tile `t`, one of [`Game::tiles_to_place`],
    /// appended to `out` (nothing for another tile).
    pub fn placements_of_into(&self, t: TileTypeId, out: &mut Vec<(Pos, Rotation)>) {
        if self.tiles_to_place().contains(&t) {
            self.tile_placements(t, out);
        }
    }

    pub(crate) fn tile_placements(&self, t: TileTypeId, out: &mut Vec<(Pos, Rotation)>) {
        let tt = catalog().get(t);
        // a tile an expansion places by rules of its own (a river tile continues the
        // river's open end)
        if self.expansion_placements(tt, out) {
            return;
        }
        for f in self.board.frontier() {
            for r in Rotation::ALL {
                if tt.signature[r.index()] & f.mask == f.required {
                    out.push((f.pos, r));
                }
            }
        }
    }

    pub(crate) fn has_placement(&self, t: TileTypeId) -> bool {
        let tt = catalog().get(t);
        let mut v = Vec::new();
        if self.expansion_placements(tt, &mut v) {
            return !v.is_empty();
        }
        self.board.frontier().iter().any(|f| {
            Rotation::ALL
                .iter()
                .any(|r| tt.signature[r.index()] & f.mask == f.required)
        })
    }

    /// Legal placements of the drawn tile (with the house rule `tiles_in_hand`: of each
    /// kind of tile in the hand, in the order of the hand), each with the spots where the
    /// current player may put a figure and which figures.
    pub fn placements(&self) -> Vec<Placement> {
        self.tiles_to_place()
            .into_iter()
            .flat_map(|t| self.placements_of(t))
            .collect()
    }

    fn placements_of(&self, t: TileTypeId) -> Vec<Placement> {
        let mut pr = Vec::with_capacity(64);
        self.tile_placements(t, &mut pr);
        let tt = catalog().get(t);
        let me = &self.players[self.current as usize];
        // builders and pigs depend on the joined feature's contents: try the placement
        let needs_trial = FigureKind::ALL
            .iter()
            .any(|k| !k.is_follower() && me.supply[*k as usize] > 0);
        pr.into_iter()
            .map(|(pos, rotation)| {
                let mut spots = Vec::with_capacity(tt.features.len());
                let trial = needs_trial.then(|| {
                    let mut b = self.board.clone();
                    let ti = b.place(t, pos, rotation);
                    (b, ti)
                });
                for i in 0..tt.features.len() {
                    let figs: Vec<FigureKind> = match &trial {
                        Some((b, ti)) => {
                            let seg = b.seg(*ti, i);
                            FigureKind::ALL
                                .into_iter()
                                .filter(|k| self.figure_check(b, seg, *k).is_ok())
                                .collect()
                        }
                        None => {
                            let occupied = self.board.occupied_after(tt, pos, rotation, i);
                            let kind = tt.features[i].kind;
                            FigureKind::ALL
                                .into_iter()
                                .filter(|k| {
                                    !occupied
                                        && me.supply[*k as usize] > 0
                                        && expansions::figure_allowed(self.expansions, *k, kind)
                                })
                                .collect()
                        }
                    };
                    if !figs.is_empty() {
                        spots.push(SpotOption {
                            spot: tt.canonical_spot(rotation, i),
                            feature: i as u8,
                            figures: figs,
                        });
                    }
                }
                if let Some((b, ti)) = &trial {
                    // the expansions' figures on corners (barns)
                    self.expansion_corner_figures(b, *ti, |spot, figure| {
                        let feature = tt.feature_at(rotation, spot).unwrap_or_default() as u8;
                        spots.push(SpotOption {
                            spot,
                            feature,
                            figures: vec![figure],
                        });
                    });
                }
                Placement {
                    tile: t,
                    pos,
                    rotation,
                    spots,
                }
            })
            .collect()
    }

    /// May the current player put a figure of kind `k` on segment `seg` of `board` (with
    /// the tile just placed)?
    #[inline]
    pub(crate) fn figure_check(
        &self,
        board: &Board,
        seg: u16,
        k: FigureKind,
    ) -> Result<(), PlayError> {
        let me = self.current;
        let refuse = || PlayError::FigureNotAllowed {
            figure: k.id(),
            feature: board.seg_kind(seg).name(),
        };
        if k.is_follower() {
            let kind = board.seg_kind(seg);
            if !expansions::figure_allowed(self.expansions, k, kind) {
                return Err(refuse());
            }
            if board.figures_in(seg) > 0 {
                return Err(PlayError::FeatureOccupied(kind.name()));
            }
        } else {
            // a figure an expansion places by rules of its own (builder, pig)
            self.expansion_figure_check(board, seg, k)
                .unwrap_or_else(|| Err(refuse()))?;
        }
        if self.players[me as usize].supply[k as usize] == 0 {
            return Err(PlayError::NoFigureLeft(k.id()));
        }
        Ok(())
    }

    /// Every option of the pending decision, as complete actions.
    pub fn legal_actions(&self) -> Vec<Action> {
        match self.phase {
            Phase::GameOver => Vec::new(),
            Phase::PlaceTile => {
                let mut v = Vec::new();
                let mut pr = Vec::with_capacity(64);
                for t in self.tiles_to_place() {
                    // with tiles in hand every option names its tile
                    let tile = self.hands.is_some().then(|| catalog().get(t).id.clone());
                    pr.clear();
                    self.tile_placements(t, &mut pr);
                    v.extend(pr.iter().map(|(p, r)| Action::PlaceTile {
                        x: p.x,
                        y: p.y,
                        rotation: *r,
                        tile: tile.clone(),
                    }));
                }
                v
            }
            Phase::PlaceFigure => {
                let mut v = Vec::new();
                if let Some(ti) = self.placed {
                    let pt = self.board.tiles()[ti];
                    let tt = pt.tile_type();
                    for i in 0..tt.features.len() {
                        let seg = self.board.seg(ti, i);
                        for k in FigureKind::ALL {
                            if self.figure_check(&self.board, seg, k).is_ok() {
                                v.push(Action::PlaceFigure {
                                    figure: k,
                                    spot: tt.spot_name(tt.canonical_spot(pt.rotation, i)),
                                });
                            }
                        }
                    }
                }
                // what the expansions add: barns, the abbot's return, flights
                self.expansion_options(&mut v);
                v.push(Action::Pass);
                v
            }
            _ => {
                let mut v = Vec::new();
                self.expansion_options(&mut v);
                v
            }
        }
    }
}
