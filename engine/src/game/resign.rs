//! A player leaves the game (resigns or times out) at any moment.

use super::*;

impl Game {
    /// A player leaves the game (resigns or times out), at any moment: their figures
    /// leave the board without scoring, they are ranked last, and the others play on.
    /// The game ends when one player is left.
    pub fn resign(&mut self, player: u8, timed_out: bool) -> Result<Outcome, PlayError> {
        let mut fx = Vec::new();
        self.resign_into(player, &mut fx)?;
        Ok(Outcome {
            event: Event::PlayerResigned {
                player,
                reason: if timed_out { "timed_out" } else { "resigned" }.to_string(),
            },
            effects: fx,
        })
    }

    pub(crate) fn resign_into(
        &mut self,
        player: u8,
        sink: &mut impl EffectSink,
    ) -> Result<(), PlayError> {
        if self.phase == Phase::GameOver {
            return Err(PlayError::GameOver);
        }
        if !self.players.get(player as usize).is_some_and(|p| p.active) {
            return Err(PlayError::NotInGame(player));
        }
        self.players[player as usize].active = false;
        self.end_trail();
        if sink.enabled() {
            sink.push(Effect::PlayerLeft { player });
        }
        self.discard_hand(player, sink);
        let mut i = 0;
        while i < self.board.figures.len() {
            if self.board.figures[i].owner == player {
                let f = self.board.remove_figure(i);
                self.players[player as usize].supply[f.kind as usize] += 1;
            } else {
                i += 1;
            }
        }
        // freed wagons of the leaving player go home
        let was_deciding = self.phase == Phase::MoveWagon && self.decider() == player;
        let was_cropping = self.phase == Phase::CropAction && self.decider() == player;
        let was_choosing_figure =
            self.phase == Phase::ChooseScoreFigure && self.decider() == player;
        let was_placing_robber = self.phase == Phase::PlaceRobber && self.decider() == player;
        // whoever leaves, the robbers' choice is looked at again
        let was_choosing_victim = self.phase == Phase::ChooseVictim;
        self.robber_leaves(player);
        self.crop_player_leaves(player);
        self.abbey_player_leaves(player);
        let left = self.players.iter().filter(|p| p.active).count();
        if left <= 1 {
            // the turn in progress ends with the game: what its tile completed scores first
            if let Some(ti) = self.placed.take() {
                self.score_completed(ti, sink);
            }
            self.wagons_home();
            self.run(Stage::End, sink);
        } else if was_deciding {
            self.run(Stage::Wagons, sink);
        } else if was_cropping {
            self.run(Stage::Crop, sink);
        } else if was_choosing_figure {
            self.run(Stage::Awards, sink);
        } else if was_choosing_victim {
            if let Some(next) = self.continue_award(sink) {
                self.run(next, sink);
            }
        } else if was_placing_robber && player != self.current {
            if self.place_robber(player, None).unwrap_or(true) {
                self.run(Stage::Gold, sink);
            }
        } else if was_placing_robber {
            self.drop_robber_placement();
            self.cancel_builder();
            self.run(Stage::Scoring, sink);
        } else if player == self.current {
            match self.phase {
                Phase::PlaceTile => {
                    // the drawn tile goes back on top of the pile for the next player
                    // (a hand went back into the box)
                    if self.hands.is_none() {
                        self.drawn = None;
                        self.next_draw -= 1;
                    }
                    self.reset_builder();
                    self.advance_player();
                    self.run(Stage::Start, sink);
                }
                Phase::AbbeyOrDraw => {
                    self.reset_builder();
                    self.advance_player();
                    self.run(Stage::Start, sink);
                }
                Phase::PlaceFigure => {
                    self.cancel_builder();
                    self.run(Stage::Scoring, sink);
                }
                Phase::FinalAbbey => self.run(Stage::FinalAbbey, sink),
                Phase::PlaceIngot | Phase::MoveMagic | Phase::FlierLanding => {
                    self.after_magic = Stage::Figure;
                    self.drop_flight();
                    self.drop_magic_symbol();
                    self.cancel_builder();
                    self.run(Stage::Scoring, sink);
                }
                Phase::CropMode => {
                    self.drop_crop();
                    self.run(Stage::CropCircle, sink);
                }
                Phase::CropAction => {}
                Phase::ScoringOrder => {
                    self.listed_scoring_order();
                    self.run(Stage::Awards, sink);
                }
                Phase::ResolveMessage => {
                    self.put_message_back();
                    self.run(Stage::Messages, sink);
                }
                Phase::ChooseScoreFigure | Phase::PlaceRobber | Phase::ChooseVictim => {}
                Phase::PlaceFerry | Phase::MoveFerry => {
                    self.cancel_builder();
                    self.after_magic = Stage::Figure;
                    self.run(Stage::Scoring, sink);
                }
                // another player decides a wagon move; the turn ends after it
                Phase::MoveWagon | Phase::GameOver => {}
            }
        }
        self.version += 1;
        Ok(())
    }
}
