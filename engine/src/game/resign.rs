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
        // whether the pending decision was theirs, asked before the expansions let them go
        let deciding = self.decider() == player;
        self.expansions_player_leaves(player);
        let left = self.players.iter().filter(|p| p.active).count();
        if left <= 1 {
            // the turn in progress ends with the game: what its tile completed scores first
            if let Some(ti) = self.placed.take() {
                self.score_completed(ti, sink);
            }
            self.game_cut_short();
            self.run(Stage::End, sink);
        } else if let Some(resumed) = self.expansion_player_left(player, deciding, sink) {
            // an expansion's phase: that expansion says where the turn goes on
            if let Some(next) = resumed {
                self.run(next, sink);
            }
        } else if player == self.current {
            match self.phase {
                Phase::PlaceTile => {
                    // the drawn tile goes back on top of the pile for the next player
                    // (a hand went back into the box)
                    if self.hands.is_none() {
                        self.drawn = None;
                        self.next_draw -= 1;
                    }
                    self.turn_given_up();
                    self.advance_player();
                    self.run(Stage::Start, sink);
                }
                Phase::PlaceFigure => {
                    self.part_cut_short();
                    self.run(Stage::Scoring, sink);
                }
                // the expansions' phases are theirs (above); the game is not over
                _ => {}
            }
        }
        self.version += 1;
        Ok(())
    }
}
