//! The one gate: every action is checked against the pending decision and applied, or
//! refused with the game untouched.

use super::*;

impl Game {
    // ----- playing -----------------------------------------------------------------

    /// Checks `action` by `player` against the pending decision and applies it. Returns the
    /// event to store and its consequences, or an error with the game untouched.
    pub fn play(&mut self, player: u8, action: &Action) -> Result<Outcome, PlayError> {
        let mut fx = Vec::new();
        let event = self.play_into(player, action, &mut fx)?;
        Ok(Outcome { event, effects: fx })
    }

    /// [`Game::play`] with a caller-chosen effect sink.
    pub fn play_into(
        &mut self,
        player: u8,
        action: &Action,
        sink: &mut impl EffectSink,
    ) -> Result<Event, PlayError> {
        let recorded = match self.step(player, action, sink)? {
            Done::AsPosted => action.clone(),
            Done::As(a) => a,
            Done::Tile(t) => {
                // the tile placed is the event's `tile` (stored once: the action's own
                // `tile` would share its key, so the recorded action names none)
                let mut action = action.clone();
                if let Action::PlaceTile { tile, .. } = &mut action {
                    *tile = None;
                }
                return Ok(Event::Decided {
                    player,
                    action,
                    tile: Some(catalog().get(t).id.clone()),
                    declined: None,
                });
            }
            Done::Declined(d) => {
                return Ok(Event::Decided {
                    player,
                    action: Action::Pass,
                    tile: None,
                    declined: Some(d),
                })
            }
            Done::Spot(seg) => {
                let mut a = action.clone();
                if let Some(spot) = a.spot_mut() {
                    *spot = self.spot_name_of(seg);
                }
                a
            }
        };
        Ok(Event::Decided {
            player,
            action: recorded,
            tile: None,
            declined: None,
        })
    }

    /// The one gate: checks an action against the pending decision and applies it (live
    /// and on replay; reached through [`Game::step`], which keeps the undo trail).
    pub(crate) fn step_inner(
        &mut self,
        player: u8,
        action: &Action,
        sink: &mut impl EffectSink,
    ) -> Result<Done, PlayError> {
        if self.phase == Phase::GameOver {
            return Err(PlayError::GameOver);
        }
        if player != self.decider() {
            return Err(PlayError::NotYourTurn {
                player,
                expected: self.decider(),
            });
        }
        let done = match (self.phase, action) {
            (
                Phase::PlaceTile,
                Action::PlaceTile {
                    x,
                    y,
                    rotation,
                    tile,
                },
            ) => {
                let (pos, rotation) = (Pos::new(*x, *y), *rotation);
                let t = self.tile_to_place(tile.as_deref())?;
                let t = self.check_tile(t, pos, rotation)?;
                self.take_from_hand(t);
                self.drawn = Some(t);
                self.apply_tile(t, pos, rotation);
                self.run(Stage::Tile, sink);
                Done::Tile(t)
            }
            (Phase::AbbeyOrDraw | Phase::FinalAbbey, Action::PlaceAbbey { x, y }) => {
                let pos = Pos::new(*x, *y);
                if !self.players[player as usize].abbey {
                    return Err(PlayError::NoFigureLeft("abbey"));
                }
                let hole = !self.board.is_occupied(pos)
                    && crate::geometry::Dir::ALL
                        .iter()
                        .all(|d| self.board.is_occupied(pos.step(*d)));
                if !hole {
                    return Err(PlayError::NotAHole { x: pos.x, y: pos.y });
                }
                let abbey = catalog()
                    .iter()
                    .find(|(_, t)| t.not_in_draw_pile && t.edges[0] == EdgeKind::Abbey)
                    .map(|(i, _)| i)
                    .ok_or(PlayError::NoFigureLeft("abbey"))?;
                self.players[player as usize].abbey = false;
                let idx = self.board.place(abbey, pos, Rotation::R0);
                self.placed = Some(idx);
                self.part_tile = Some(idx);
                self.drop_magic_symbol();
                self.drawn = None;
                self.cancel_builder();
                self.phase = Phase::PlaceFigure;
                Done::AsPosted
            }
            (Phase::AbbeyOrDraw, Action::DrawTile) => {
                self.run(Stage::Draw, sink);
                Done::AsPosted
            }
            (Phase::FinalAbbey, Action::Pass) => {
                self.run(Stage::FinalAbbey, sink);
                Done::Declined(Declined::Abbey)
            }
            (Phase::MoveWagon, Action::MoveWagon { x, y, spot }) => {
                let seg = self.feature_seg_at(Pos::new(*x, *y), spot)?;
                if !self.wagon_target_ok(seg) {
                    return Err(PlayError::WagonOutOfReach);
                }
                self.board.add_figure(player, FigureKind::Wagon, seg);
                self.pop_wagon();
                self.run(Stage::Wagons, sink);
                Done::Spot(seg)
            }
            (Phase::MoveWagon, Action::Pass) => {
                self.players[player as usize].supply[FigureKind::Wagon as usize] += 1;
                self.pop_wagon();
                self.run(Stage::Wagons, sink);
                Done::Declined(Declined::Wagon)
            }
            (Phase::PlaceIngot, Action::PlaceIngot { x, y }) => {
                let next = self.place_ingot(Pos::new(*x, *y), sink)?;
                self.run(next, sink);
                Done::AsPosted
            }
            (Phase::MoveMagic, Action::MoveMagic { figure, x, y, spot }) => {
                let (seg, next) = self.move_magic(*figure, Pos::new(*x, *y), spot)?;
                self.run(next, sink);
                Done::Spot(seg)
            }
            (Phase::MoveMagic, Action::RemoveMagic { figure }) => {
                let next = self.remove_magic(*figure)?;
                self.run(next, sink);
                Done::AsPosted
            }
            (Phase::PlaceFigure, Action::Fly { figure }) => {
                if self.fly(*figure, sink)? {
                    self.phase = Phase::FlierLanding;
                } else {
                    // nowhere to land: the follower stays home and no figure is placed
                    self.run(Stage::Ferries, sink);
                }
                Done::AsPosted
            }
            (Phase::FlierLanding, Action::Pass) if self.landing_optional() => {
                self.skip_landing();
                self.run(Stage::Ferries, sink);
                Done::Declined(Declined::Landing)
            }
            (Phase::FlierLanding, Action::Land { spot }) => {
                let (_, seg) = self.land(spot)?;
                self.run(Stage::Ferries, sink);
                Done::Spot(seg)
            }
            (Phase::CropMode, Action::ChooseCropMode { mode }) => {
                let next = self.choose_crop_mode(*mode);
                self.run(next, sink);
                Done::AsPosted
            }
            (
                Phase::CropAction,
                Action::AddFollower { figure, x, y, spot }
                | Action::RemoveFollower { figure, x, y, spot },
            ) => {
                let add = matches!(action, Action::AddFollower { .. });
                let seg = self.feature_seg_at(Pos::new(*x, *y), spot)?;
                let next = self.crop_act(player, *figure, seg, add, sink)?;
                self.run(next, sink);
                Done::Spot(seg)
            }
            (Phase::PlaceFerry, Action::PlaceFerry { x, y, from, to })
            | (Phase::MoveFerry, Action::MoveFerry { x, y, from, to }) => {
                let pos = Pos::new(*x, *y);
                let parse = |s: &str| {
                    s.parse::<crate::geometry::Dir>()
                        .map_err(|_| PlayError::UnknownSpot(s.to_string()))
                };
                let (f, t) = (parse(from)?, parse(to)?);
                let moved = self.phase == Phase::MoveFerry;
                let next = if moved {
                    self.move_ferry(pos, f, t, sink)?
                } else {
                    self.place_ferry(pos, f, t)?
                };
                self.run(next, sink);
                if (from.as_str(), to.as_str()) == (f.name(), t.name()) {
                    Done::AsPosted
                } else {
                    let (from, to) = (f.name().to_string(), t.name().to_string());
                    Done::As(if moved {
                        Action::MoveFerry {
                            x: *x,
                            y: *y,
                            from,
                            to,
                        }
                    } else {
                        Action::PlaceFerry {
                            x: *x,
                            y: *y,
                            from,
                            to,
                        }
                    })
                }
            }
            (Phase::PlaceRobber, Action::PlaceRobber { space }) => {
                if self.place_robber(player, Some(*space))? {
                    self.run(Stage::Gold, sink);
                }
                Done::AsPosted
            }
            (Phase::PlaceRobber, Action::Pass) => {
                if self.place_robber(player, None)? {
                    self.run(Stage::Gold, sink);
                }
                Done::Declined(Declined::Robber)
            }
            (Phase::ScoringOrder, Action::ScoreNext { x, y, spot }) => {
                let seg = self
                    .seg_at(Pos::new(*x, *y), spot)
                    .ok_or_else(|| PlayError::UnknownSpot(spot.to_string()))?;
                let root = self.board.find(seg);
                let k = self
                    .scoring_order()
                    .iter()
                    .position(|c| {
                        self.seg_at(c.pos, &c.spot)
                            .is_some_and(|s| self.board.find(s) == root || s == seg)
                    })
                    .ok_or(PlayError::NotInScoringOrder)?;
                let (c, complete) = self
                    .choose_next_scored(k)
                    .ok_or(PlayError::NotInScoringOrder)?;
                if complete {
                    self.order_awards();
                    self.run(Stage::Awards, sink);
                }
                Done::As(Action::ScoreNext {
                    x: c.pos.x,
                    y: c.pos.y,
                    spot: c.spot,
                })
            }
            (Phase::ChooseScoreFigure, Action::ChooseScoreFigure { figure }) => {
                if let Some(next) = self.choose_score_figure(*figure as u8, sink) {
                    self.run(next, sink);
                }
                Done::AsPosted
            }
            (Phase::ChooseVictim, Action::ChooseVictim { victim }) => {
                if let Some(next) = self.choose_victim(*victim, sink)? {
                    self.run(next, sink);
                }
                Done::AsPosted
            }
            (
                Phase::ResolveMessage,
                Action::MessageFeature { .. }
                | Action::MessageFollower { .. }
                | Action::MessageTwoPoints,
            ) => {
                let choice = match action {
                    Action::MessageFeature { x, y, spot } => {
                        Some((None, Pos::new(*x, *y), spot.as_str()))
                    }
                    Action::MessageFollower { figure, x, y, spot } => {
                        Some((Some(*figure), Pos::new(*x, *y), spot.as_str()))
                    }
                    _ => None,
                };
                let options = self.message_options();
                let picked = match choice {
                    None => None,
                    Some((figure, pos, spot)) => {
                        let seg = self
                            .seg_at(pos, spot)
                            .ok_or_else(|| PlayError::UnknownSpot(spot.to_string()))?;
                        Some(
                            options
                                .iter()
                                .find(|o| match (o, figure) {
                                    (
                                        MessageChoice::Feature {
                                            pos: p, spot: s, ..
                                        },
                                        None,
                                    ) => self.seg_at(*p, s).is_some_and(|x| {
                                        self.board.find(x) == self.board.find(seg)
                                    }),
                                    (
                                        MessageChoice::Follower {
                                            figure: k,
                                            pos: p,
                                            spot: s,
                                        },
                                        Some(f),
                                    ) => *k == f && self.seg_at(*p, s) == Some(seg),
                                    _ => false,
                                })
                                .cloned()
                                .ok_or(PlayError::MessageNotAllowed)?,
                        )
                    }
                };
                let next = self.resolve_message(picked.as_ref(), sink)?;
                self.run(next, sink);
                match picked {
                    None => Done::As(Action::MessageTwoPoints),
                    Some(MessageChoice::Feature { pos, spot, .. }) => {
                        Done::As(Action::MessageFeature {
                            x: pos.x,
                            y: pos.y,
                            spot,
                        })
                    }
                    Some(MessageChoice::Follower { figure, pos, spot }) => {
                        Done::As(Action::MessageFollower {
                            figure,
                            x: pos.x,
                            y: pos.y,
                            spot,
                        })
                    }
                    Some(_) => Done::As(Action::MessageAction),
                }
            }
            (Phase::ResolveMessage, Action::MessageAction) => {
                let plain = self
                    .message_options()
                    .into_iter()
                    .find(|o| matches!(o, MessageChoice::ExtraTile | MessageChoice::Points(_)))
                    .ok_or(PlayError::MessageNotAllowed)?;
                let next = self.resolve_message(Some(&plain), sink)?;
                self.run(next, sink);
                Done::AsPosted
            }
            (Phase::MoveFerry, Action::Pass) => {
                self.run(Stage::Scoring, sink);
                Done::Declined(Declined::Ferries)
            }
            (Phase::CropAction, Action::Pass) => {
                let next = self.crop_pass()?;
                self.run(next, sink);
                Done::Declined(Declined::Crop)
            }
            (
                Phase::PlaceFigure,
                Action::PlaceFigure {
                    figure: FigureKind::Barn,
                    spot,
                },
            ) => {
                let ti = self.placed.ok_or(PlayError::GameOver)?;
                let c = match Spot::parse_compass(spot) {
                    Some(Spot::Corner(c)) => c,
                    _ => return Err(PlayError::UnknownSpot(spot.to_string())),
                };
                let seg = self.barn_check(ti, c)?;
                self.board.add_figure_at(player, FigureKind::Barn, seg, c);
                self.players[player as usize].supply[FigureKind::Barn as usize] -= 1;
                self.note_barn(seg);
                self.run(Stage::Ferries, sink);
                let corner = crate::geometry::CORNERS[c as usize];
                if spot == corner {
                    Done::AsPosted
                } else {
                    Done::As(Action::PlaceFigure {
                        figure: FigureKind::Barn,
                        spot: corner.to_string(),
                    })
                }
            }
            (Phase::PlaceFigure, Action::PlaceFigure { figure, spot }) => {
                let figure = *figure;
                let seg = self.check_figure(figure, spot)?;
                self.board.add_figure(player, figure, seg);
                self.players[player as usize].supply[figure as usize] -= 1;
                self.run(Stage::Ferries, sink);
                Done::Spot(seg)
            }
            (Phase::PlaceFigure, Action::Pass) => {
                self.run(Stage::Ferries, sink);
                Done::Declined(Declined::Figure)
            }
            (Phase::PlaceFigure, Action::ReturnAbbot) => {
                let next = self.return_abbot(player, sink)?;
                self.run(next, sink);
                Done::AsPosted
            }
            (phase, a) => {
                return Err(PlayError::WrongPhase {
                    got: a.name(),
                    expected: phase.name(),
                })
            }
        };
        self.version += 1;
        Ok(done)
    }

    pub(crate) fn check_tile(
        &self,
        t: TileTypeId,
        pos: Pos,
        r: Rotation,
    ) -> Result<TileTypeId, PlayError> {
        if self.board.is_occupied(pos) {
            return Err(PlayError::CellTaken { x: pos.x, y: pos.y });
        }
        let tt = catalog().get(t);
        let adjacent = crate::geometry::Dir::ALL
            .iter()
            .any(|d| self.board.is_occupied(pos.step(*d)));
        if !adjacent {
            return Err(PlayError::NotAdjacent { x: pos.x, y: pos.y });
        }
        if self.board.fits(tt, pos, r) && river::is_river_tile(tt) {
            if let Err(reason) = river::check(self.river, &self.board, tt, pos, r) {
                return Err(PlayError::TileDoesNotFit {
                    x: pos.x,
                    y: pos.y,
                    rotation: r.degrees(),
                    reason: reason.to_string(),
                });
            }
        }
        if !self.board.fits(tt, pos, r) {
            let mut reason = String::new();
            for d in crate::geometry::Dir::ALL {
                if let Some(o) = self.board.tile_at(pos.step(d)) {
                    let theirs = o.tile_type().edge_at(o.rotation, d.opposite());
                    let mine = tt.edge_at(r, d);
                    if mine != theirs
                        && mine != crate::catalog::EdgeKind::Abbey
                        && theirs != crate::catalog::EdgeKind::Abbey
                    {
                        reason = format!(
                            "its {} side is {} but the neighbour's side is {}",
                            d.name(),
                            mine.name(),
                            theirs.name()
                        );
                        break;
                    }
                }
            }
            return Err(PlayError::TileDoesNotFit {
                x: pos.x,
                y: pos.y,
                rotation: r.degrees(),
                reason,
            });
        }
        Ok(t)
    }

    pub(crate) fn apply_tile(&mut self, t: TileTypeId, pos: Pos, r: Rotation) {
        let tt = catalog().get(t);
        if river::is_river_tile(tt) {
            self.river = river::check(self.river, &self.board, tt, pos, r).unwrap_or(None);
        }
        let idx = self.board.place(t, pos, r);
        self.placed = Some(idx);
        self.part_tile = Some(idx);
        self.phase = Phase::PlaceFigure;
        self.tile_placed(idx);
    }

    pub(crate) fn check_figure(&self, figure: FigureKind, spot: &str) -> Result<u16, PlayError> {
        let ti = self.placed.ok_or(PlayError::GameOver)?;
        let pt = self.board.tiles()[ti];
        let tt = pt.tile_type();
        let s = tt
            .parse_spot(spot)
            .filter(|s| !matches!(s, Spot::Corner(_)))
            .ok_or_else(|| PlayError::UnknownSpot(spot.to_string()))?;
        let fi = tt
            .feature_at(pt.rotation, s)
            .ok_or_else(|| PlayError::UnknownSpot(spot.to_string()))?;
        let seg = self.board.seg(ti, fi);
        self.figure_check(&self.board, seg, figure)?;
        Ok(seg)
    }
}
