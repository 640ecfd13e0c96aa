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
        if river::is_river_tile(tt) {
            // a river tile can only continue the open end
            if let Some(end) = self.river {
                for r in Rotation::ALL {
                    if self.board.fits(tt, end.cell, r)
                        && river::check(self.river, &self.board, tt, end.cell, r).is_ok()
                    {
                        out.push((end.cell, r));
                    }
                }
            }
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
        if river::is_river_tile(tt) {
            let mut v = Vec::new();
            self.tile_placements(t, &mut v);
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
                    for c in 0..4u8 {
                        if barn_check_on(self, b, *ti, c).is_ok() {
                            let feature =
                                tt.feature_at(rotation, Spot::Corner(c)).unwrap_or_default() as u8;
                            spots.push(SpotOption {
                                spot: Spot::Corner(c),
                                feature,
                                figures: vec![FigureKind::Barn],
                            });
                        }
                    }
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
    pub(crate) fn figure_check(
        &self,
        board: &Board,
        seg: u16,
        k: FigureKind,
    ) -> Result<(), PlayError> {
        let me = self.current;
        let kind = board.seg_kind(seg);
        let refuse = || PlayError::FigureNotAllowed {
            figure: k.id(),
            feature: kind.name(),
        };
        if matches!(k, FigureKind::Builder | FigureKind::Pig)
            && !self.expansions.contains(Expansion::TradersBuilders)
        {
            return Err(refuse());
        }
        match k {
            FigureKind::Builder => {
                if !matches!(kind, FeatureKind::Road | FeatureKind::City) {
                    return Err(refuse());
                }
                if board.open_sides(seg) == 0 {
                    return Err(PlayError::FigureNotAllowed {
                        figure: k.id(),
                        feature: "completed feature",
                    });
                }
                if !has_own_follower(board, seg, me) {
                    return Err(PlayError::NeedsOwnFollower(k.id()));
                }
            }
            FigureKind::Pig => {
                if kind != FeatureKind::Field {
                    return Err(refuse());
                }
                if !has_own_follower(board, seg, me) {
                    return Err(PlayError::NeedsOwnFollower(k.id()));
                }
            }
            _ => {
                if !k.is_follower() || !expansions::figure_allowed(self.expansions, k, kind) {
                    return Err(refuse());
                }
                if board.figures_in(seg) > 0 {
                    return Err(PlayError::FeatureOccupied(kind.name()));
                }
            }
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
                if let Some(ti) = self.placed {
                    for c in 0..4u8 {
                        if self.barn_check(ti, c).is_ok() {
                            v.push(Action::PlaceFigure {
                                figure: FigureKind::Barn,
                                spot: crate::geometry::CORNERS[c as usize].to_string(),
                            });
                        }
                    }
                }
                if self.returnable_abbot(self.current).is_some() {
                    v.push(Action::ReturnAbbot);
                }
                for figure in self.flyable() {
                    v.push(Action::Fly { figure });
                }
                v.push(Action::Pass);
                v
            }
            Phase::PlaceIngot => self
                .ingot_targets()
                .into_iter()
                .map(|p| Action::PlaceIngot { x: p.x, y: p.y })
                .collect(),
            Phase::MoveMagic => {
                let mut v: Vec<Action> = self
                    .magic_moves()
                    .into_iter()
                    .map(|(figure, p, spot, _)| Action::MoveMagic {
                        figure,
                        x: p.x,
                        y: p.y,
                        spot,
                    })
                    .collect();
                v.extend(
                    self.magic_removals()
                        .into_iter()
                        .map(|figure| Action::RemoveMagic { figure }),
                );
                v
            }
            Phase::FlierLanding => {
                let mut v: Vec<Action> = self
                    .landings()
                    .into_iter()
                    .map(|(spot, _)| Action::Land { spot })
                    .collect();
                if self.landing_optional() {
                    v.push(Action::Pass);
                }
                v
            }
            Phase::PlaceFerry | Phase::MoveFerry => {
                let moved = self.phase == Phase::MoveFerry;
                let mut v: Vec<Action> = self
                    .ferry_choices()
                    .into_iter()
                    .map(|(p, a, b)| {
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
                    })
                    .collect();
                if moved {
                    v.push(Action::Pass);
                }
                v
            }
            Phase::PlaceRobber => {
                let mut v: Vec<Action> = self
                    .robber_spaces(self.robber_decider())
                    .into_iter()
                    .map(|space| Action::PlaceRobber { space })
                    .collect();
                v.push(Action::Pass);
                v
            }
            Phase::ScoringOrder => self
                .scoring_order()
                .iter()
                .map(|c| Action::ScoreNext {
                    x: c.pos.x,
                    y: c.pos.y,
                    spot: c.spot.clone(),
                })
                .collect(),
            Phase::ChooseVictim => {
                self.victim_choice(self.award_figure())
                    .map_or_else(Vec::new, |(_, victims)| {
                        (0..8u8)
                            .filter(|v| victims & (1 << v) != 0)
                            .map(|victim| Action::ChooseVictim { victim })
                            .collect()
                    })
            }
            Phase::ChooseScoreFigure => vec![
                Action::ChooseScoreFigure {
                    figure: ScoreFigure::Meeple,
                },
                Action::ChooseScoreFigure {
                    figure: ScoreFigure::Messenger,
                },
            ],
            Phase::ResolveMessage => {
                let mut v: Vec<Action> = Vec::new();
                for o in self.message_options() {
                    v.push(match o {
                        MessageChoice::Feature { pos, spot, .. } => Action::MessageFeature {
                            x: pos.x,
                            y: pos.y,
                            spot,
                        },
                        MessageChoice::Follower { figure, pos, spot } => Action::MessageFollower {
                            figure,
                            x: pos.x,
                            y: pos.y,
                            spot,
                        },
                        MessageChoice::ExtraTile | MessageChoice::Points(_) => {
                            Action::MessageAction
                        }
                    });
                }
                v.push(Action::MessageTwoPoints);
                v
            }
            Phase::CropMode => vec![
                Action::ChooseCropMode {
                    mode: CropMode::Add,
                },
                Action::ChooseCropMode {
                    mode: CropMode::Remove,
                },
            ],
            Phase::CropAction => {
                let p = self.decider();
                let add = self.crop_adds();
                let mut v: Vec<Action> = self
                    .crop_options(p)
                    .into_iter()
                    .map(|(figure, seg)| {
                        let ti = self.board.seg_tile(seg);
                        let pos = self.board.tiles()[ti].pos;
                        let spot = self.spot_name_of(seg);
                        if add {
                            Action::AddFollower {
                                figure,
                                x: pos.x,
                                y: pos.y,
                                spot,
                            }
                        } else {
                            Action::RemoveFollower {
                                figure,
                                x: pos.x,
                                y: pos.y,
                                spot,
                            }
                        }
                    })
                    .collect();
                if add {
                    v.push(Action::Pass);
                }
                v
            }
            Phase::AbbeyOrDraw | Phase::FinalAbbey => {
                let mut v: Vec<Action> = self
                    .holes()
                    .into_iter()
                    .map(|p| Action::PlaceAbbey { x: p.x, y: p.y })
                    .collect();
                v.push(if self.phase == Phase::AbbeyOrDraw {
                    Action::DrawTile
                } else {
                    Action::Pass
                });
                v
            }
            Phase::MoveWagon => {
                let mut v: Vec<Action> = self
                    .wagon_targets()
                    .into_iter()
                    .map(|(p, spot, _)| Action::MoveWagon {
                        x: p.x,
                        y: p.y,
                        spot,
                    })
                    .collect();
                v.push(Action::Pass);
                v
            }
        }
    }
}
