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
        let step = match action {
            Action::PlaceTile { x, y, rotation } => Step::Tile(Pos::new(*x, *y), *rotation),
            Action::PlaceFigure { figure, spot } => Step::Figure(*figure, spot),
            Action::ReturnAbbot => Step::ReturnAbbot,
            Action::PlaceAbbey { x, y } => Step::Abbey(Pos::new(*x, *y)),
            Action::DrawTile => Step::Draw,
            Action::MoveWagon { x, y, spot } => Step::Wagon(Pos::new(*x, *y), spot),
            Action::PlaceIngot { x, y } => Step::Ingot(Pos::new(*x, *y)),
            Action::MoveMagic { figure, x, y, spot } => {
                Step::Magic(*figure, Pos::new(*x, *y), spot)
            }
            Action::RemoveMagic { figure } => Step::RemoveMagic(*figure),
            Action::Fly { figure } => Step::Fly(*figure),
            Action::Land { spot } => Step::Land(spot),
            Action::ChooseCropMode { mode } => Step::CropMode(*mode),
            Action::AddFollower { figure, x, y, spot } => {
                Step::Crop(true, *figure, Pos::new(*x, *y), spot)
            }
            Action::RemoveFollower { figure, x, y, spot } => {
                Step::Crop(false, *figure, Pos::new(*x, *y), spot)
            }
            Action::PlaceFerry { x, y, from, to } => Step::Ferry(false, Pos::new(*x, *y), from, to),
            Action::MoveFerry { x, y, from, to } => Step::Ferry(true, Pos::new(*x, *y), from, to),
            Action::PlaceRobber { space } => Step::Robber(*space),
            Action::ScoreNext { x, y, spot } => Step::ScoreNext(Pos::new(*x, *y), spot),
            Action::ChooseScoreFigure { figure } => Step::ScoreFigure(*figure),
            Action::ChooseVictim { victim } => Step::Victim(*victim),
            Action::MessageFeature { x, y, spot } => {
                Step::Message(Some((None, Pos::new(*x, *y), spot)))
            }
            Action::MessageFollower { figure, x, y, spot } => {
                Step::Message(Some((Some(*figure), Pos::new(*x, *y), spot)))
            }
            Action::MessageAction => Step::MessagePlain,
            Action::MessageTwoPoints => Step::Message(None),
            Action::Pass => Step::Pass,
        };
        Ok(match self.step(player, step, sink)? {
            Done::Tile(t, pos, rotation) => Event::TilePlaced {
                player,
                tile: catalog().get(t).id.clone(),
                x: pos.x,
                y: pos.y,
                rotation,
            },
            Done::Figure(figure, seg) => Event::FigurePlaced {
                player,
                figure,
                spot: self.spot_name_of(seg),
            },
            Done::Pass => Event::FigureSkipped { player },
            Done::AbbotReturned => Event::AbbotReturned { player },
            Done::AbbeyPlaced(p) => Event::AbbeyPlaced {
                player,
                x: p.x,
                y: p.y,
            },
            Done::Drew => Event::DrawChosen { player },
            Done::AbbeySkipped => Event::AbbeySkipped { player },
            Done::WagonMoved(p, seg) => Event::WagonMoved {
                player,
                x: p.x,
                y: p.y,
                spot: self.spot_name_of(seg),
            },
            Done::WagonReturned => Event::WagonReturned { player },
            Done::Ingot(p) => Event::IngotPlaced {
                player,
                x: p.x,
                y: p.y,
            },
            Done::Magic(figure, p, seg) => Event::MagicMoved {
                player,
                figure,
                x: p.x,
                y: p.y,
                spot: self.spot_name_of(seg),
            },
            Done::MagicRemoved(figure) => Event::MagicRemoved { player, figure },
            Done::Flew(figure) => Event::Flew { player, figure },
            Done::Landed(seg) => Event::Landed {
                player,
                spot: self.spot_name_of(seg),
            },
            Done::CropMode(mode) => Event::CropModeChosen { player, mode },
            Done::Crop(add, figure, p, seg) => {
                let spot = self.spot_name_of(seg);
                if add {
                    Event::FollowerAdded {
                        player,
                        figure,
                        x: p.x,
                        y: p.y,
                        spot,
                    }
                } else {
                    Event::FollowerRemoved {
                        player,
                        figure,
                        x: p.x,
                        y: p.y,
                        spot,
                    }
                }
            }
            Done::CropSkipped => Event::CropSkipped { player },
            Done::Ferry(moved, p, from, to) => {
                let (from, to) = (from.name().to_string(), to.name().to_string());
                if moved {
                    Event::FerryMoved {
                        player,
                        x: p.x,
                        y: p.y,
                        from,
                        to,
                    }
                } else {
                    Event::FerryPlaced {
                        player,
                        x: p.x,
                        y: p.y,
                        from,
                        to,
                    }
                }
            }
            Done::NoMoreFerries => Event::FerriesDone { player },
            Done::Robber(space) => Event::RobberPlaced { player, space },
            Done::RobberSkipped => Event::RobberSkipped { player },
            Done::ScoreNext(p, spot) => Event::ScoringOrdered {
                player,
                x: p.x,
                y: p.y,
                spot,
            },
            Done::ScoreFigure(figure) => Event::ScoreFigureChosen { player, figure },
            Done::Victim(victim) => Event::VictimChosen { player, victim },
            Done::MessageFeature(p, spot) => Event::MessageFeatureChosen {
                player,
                x: p.x,
                y: p.y,
                spot,
            },
            Done::MessageFollower(figure, p, spot) => Event::MessageFollowerChosen {
                player,
                figure,
                x: p.x,
                y: p.y,
                spot,
            },
            Done::MessageAction => Event::MessageActionTaken { player },
            Done::MessageTwoPoints => Event::MessagePointsTaken { player },
            Done::Barn(c) => Event::FigurePlaced {
                player,
                figure: FigureKind::Barn,
                spot: crate::geometry::CORNERS[c as usize].to_string(),
            },
        })
    }

    /// The one gate: checks a step against the pending decision and applies it.
    pub(crate) fn step(
        &mut self,
        player: u8,
        step: Step<'_>,
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
        let done = match (self.phase, step) {
            (Phase::PlaceTile, Step::Tile(pos, rotation)) => {
                let t = self.check_tile(pos, rotation)?;
                self.apply_tile(t, pos, rotation);
                self.run(Stage::Tile, sink);
                Done::Tile(t, pos, rotation)
            }
            (Phase::AbbeyOrDraw | Phase::FinalAbbey, Step::Abbey(pos)) => {
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
                Done::AbbeyPlaced(pos)
            }
            (Phase::AbbeyOrDraw, Step::Draw) => {
                self.run(Stage::Draw, sink);
                Done::Drew
            }
            (Phase::FinalAbbey, Step::Pass) => {
                self.run(Stage::FinalAbbey, sink);
                Done::AbbeySkipped
            }
            (Phase::MoveWagon, Step::Wagon(pos, spot)) => {
                let seg = self.feature_seg_at(pos, spot)?;
                if !self.wagon_target_ok(seg) {
                    return Err(PlayError::WagonOutOfReach);
                }
                self.board.add_figure(player, FigureKind::Wagon, seg);
                self.pop_wagon();
                self.run(Stage::Wagons, sink);
                Done::WagonMoved(pos, seg)
            }
            (Phase::MoveWagon, Step::Pass) => {
                self.players[player as usize].supply[FigureKind::Wagon as usize] += 1;
                self.pop_wagon();
                self.run(Stage::Wagons, sink);
                Done::WagonReturned
            }
            (Phase::PlaceIngot, Step::Ingot(pos)) => {
                let next = self.place_ingot(pos, sink)?;
                self.run(next, sink);
                Done::Ingot(pos)
            }
            (Phase::MoveMagic, Step::Magic(f, pos, spot)) => {
                let (seg, next) = self.move_magic(f, pos, spot)?;
                self.run(next, sink);
                Done::Magic(f, pos, seg)
            }
            (Phase::MoveMagic, Step::RemoveMagic(f)) => {
                let next = self.remove_magic(f)?;
                self.run(next, sink);
                Done::MagicRemoved(f)
            }
            (Phase::PlaceFigure, Step::Fly(k)) => {
                if self.fly(k, sink)? {
                    self.phase = Phase::FlierLanding;
                } else {
                    // nowhere to land: the follower stays home and no figure is placed
                    self.run(Stage::Ferries, sink);
                }
                Done::Flew(k)
            }
            (Phase::FlierLanding, Step::Land(spot)) => {
                let (_, seg) = self.land(spot)?;
                self.run(Stage::Ferries, sink);
                Done::Landed(seg)
            }
            (Phase::CropMode, Step::CropMode(mode)) => {
                let next = self.choose_crop_mode(mode);
                self.run(next, sink);
                Done::CropMode(mode)
            }
            (Phase::CropAction, Step::Crop(add, k, pos, spot)) => {
                let seg = self.feature_seg_at(pos, spot)?;
                let next = self.crop_act(player, k, seg, add, sink)?;
                self.run(next, sink);
                Done::Crop(add, k, pos, seg)
            }
            (Phase::PlaceFerry, Step::Ferry(false, pos, from, to))
            | (Phase::MoveFerry, Step::Ferry(true, pos, from, to)) => {
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
                Done::Ferry(moved, pos, f, t)
            }
            (Phase::PlaceRobber, Step::Robber(space)) => {
                if self.place_robber(player, Some(space))? {
                    self.run(Stage::Gold, sink);
                }
                Done::Robber(space)
            }
            (Phase::PlaceRobber, Step::Pass) => {
                if self.place_robber(player, None)? {
                    self.run(Stage::Gold, sink);
                }
                Done::RobberSkipped
            }
            (Phase::ScoringOrder, Step::ScoreNext(pos, spot)) => {
                let seg = self
                    .seg_at(pos, spot)
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
                Done::ScoreNext(c.pos, c.spot)
            }
            (Phase::ChooseScoreFigure, Step::ScoreFigure(f)) => {
                if let Some(next) = self.choose_score_figure(f as u8, sink) {
                    self.run(next, sink);
                }
                Done::ScoreFigure(f)
            }
            (Phase::ChooseVictim, Step::Victim(v)) => {
                if let Some(next) = self.choose_victim(v, sink)? {
                    self.run(next, sink);
                }
                Done::Victim(v)
            }
            (Phase::ResolveMessage, Step::Message(choice)) => {
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
                    None => Done::MessageTwoPoints,
                    Some(MessageChoice::Feature { pos, spot, .. }) => {
                        Done::MessageFeature(pos, spot)
                    }
                    Some(MessageChoice::Follower { figure, pos, spot }) => {
                        Done::MessageFollower(figure, pos, spot)
                    }
                    Some(_) => Done::MessageAction,
                }
            }
            (Phase::ResolveMessage, Step::MessagePlain) => {
                let plain = self
                    .message_options()
                    .into_iter()
                    .find(|o| matches!(o, MessageChoice::ExtraTile | MessageChoice::Points(_)))
                    .ok_or(PlayError::MessageNotAllowed)?;
                let next = self.resolve_message(Some(&plain), sink)?;
                self.run(next, sink);
                Done::MessageAction
            }
            (Phase::MoveFerry, Step::Pass) => {
                self.run(Stage::Scoring, sink);
                Done::NoMoreFerries
            }
            (Phase::CropAction, Step::Pass) => {
                let next = self.crop_pass()?;
                self.run(next, sink);
                Done::CropSkipped
            }
            (Phase::PlaceFigure, Step::Figure(FigureKind::Barn, spot)) => {
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
                Done::Barn(c)
            }
            (Phase::PlaceFigure, Step::Figure(figure, spot)) => {
                let seg = self.check_figure(figure, spot)?;
                self.board.add_figure(player, figure, seg);
                self.players[player as usize].supply[figure as usize] -= 1;
                self.run(Stage::Ferries, sink);
                Done::Figure(figure, seg)
            }
            (Phase::PlaceFigure, Step::Pass) => {
                self.run(Stage::Ferries, sink);
                Done::Pass
            }
            (Phase::PlaceFigure, Step::ReturnAbbot) => {
                let next = self.return_abbot(player, sink)?;
                self.run(next, sink);
                Done::AbbotReturned
            }
            (phase, s) => {
                return Err(PlayError::WrongPhase {
                    got: s.name(),
                    expected: phase.name(),
                })
            }
        };
        self.version += 1;
        Ok(done)
    }

    pub(crate) fn check_tile(&self, pos: Pos, r: Rotation) -> Result<TileTypeId, PlayError> {
        let t = self.drawn.ok_or(PlayError::GameOver)?;
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
