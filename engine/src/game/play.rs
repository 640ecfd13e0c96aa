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
        // an expansion's decision (its own phases, and what it adds to the figure phase),
        // else one of the base game's
        let done = if let Some(decided) = self.apply_expansion_decision(player, action, sink) {
            let (done, next) = decided?;
            if let Some(next) = next {
                self.run(next, sink);
            }
            done
        } else {
            self.base_decision(player, action, sink)?
        };
        self.version += 1;
        Ok(done)
    }

    /// The base game's decisions: the tile, and a figure on it (or none).
    fn base_decision(
        &mut self,
        player: u8,
        action: &Action,
        sink: &mut impl EffectSink,
    ) -> Result<Done, PlayError> {
        Ok(match (self.phase, action) {
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
            (Phase::PlaceFigure, Action::PlaceFigure { figure, spot }) => {
                let figure = *figure;
                let seg = self.check_figure(figure, spot)?;
                self.board.add_figure(player, figure, seg);
                self.players[player as usize].supply[figure as usize] -= 1;
                self.run(Stage::AFTER_FIGURE, sink);
                Done::Spot(seg)
            }
            (Phase::PlaceFigure, Action::Pass) => {
                self.run(Stage::AFTER_FIGURE, sink);
                Done::Declined(Declined::Figure)
            }
            (phase, a) => {
                return Err(PlayError::WrongPhase {
                    got: a.name(),
                    expected: phase.name(),
                })
            }
        })
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
        if self.board.fits(tt, pos, r) {
            // the rules of an expansion for its own tiles (a river tile's course)
            if let Err(reason) = self.expansion_tile_check(tt, pos, r) {
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
        self.tile_placing(tt, pos, r);
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
