//! A move: several actions of one player, applied in order and all or nothing.
//!
//! No peeking: a move ends with the first action that brings hidden information into the
//! game (a tile drawn from the pile, also into a hand with the house rule
//! `tiles_in_hand`, tiles discarded from it, the flier's die rolled, a message drawn). If more actions follow such an action, the whole move is refused with
//! [`PlayError::MovePastHiddenInformation`] and the game is left as it was, so no answer
//! depends on the hidden outcome: the actions up to the revealing one are judged against
//! what the player could see, and the ones after it are not judged at all.
//!
//! Detection does not list the rules that reveal something. It compares the game's
//! *hidden cursor* (how far the pile has been drawn, the state of the random stream, the
//! unread message stack) before and after each action: whatever rule consumes hidden
//! information moves it. Whether an action moves it depends only on visible state (a
//! draw happens when the pile is not empty, the die is rolled on every flight, a message
//! is drawn when one is earned), so the decision to refuse cannot leak the outcome.

use crate::game::{Action, Game, Outcome, PlayError, Table, REGISTERED};
use crate::rng::Rng;

/// Why a move was refused: the index of the action at fault and its error. For
/// [`PlayError::MovePastHiddenInformation`] the index is that of the first action after
/// the one that revealed something.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("action {index}: {error}")]
pub struct MoveError {
    pub index: usize,
    pub error: PlayError,
}

/// Everything in a game that its players cannot see and that an action may consume.
#[derive(Clone, Debug, PartialEq, Eq)]
struct HiddenCursor {
    /// Tiles drawn (or discarded) from the pile so far.
    next_draw: usize,
    /// The random stream (the flier's die).
    rng: Rng,
    /// What the expansions keep face down (the message stack, top first).
    expansions: [Vec<u8>; REGISTERED],
}

impl HiddenCursor {
    fn of(game: &Game) -> HiddenCursor {
        HiddenCursor {
            next_draw: game.next_draw,
            rng: game.rng.clone(),
            expansions: game.hidden_snapshot(),
        }
    }

    /// Whether going from `self` to `after` read something hidden (each expansion says
    /// whether what it keeps face down was read).
    fn revealed(&self, after: &HiddenCursor) -> bool {
        self.next_draw != after.next_draw
            || self.rng != after.rng
            || Table::hidden_read(&self.expansions, &after.expansions)
    }
}

impl Game {
    /// Plays the actions of one move by `player` in order. On success the game has moved
    /// on and the outcomes are returned in order; on refusal the game is untouched. A move
    /// may not go on after an action that brought hidden information into the game: see
    /// the [module documentation](crate::game::moves).
    pub fn play_move(&mut self, player: u8, actions: &[Action]) -> Result<Vec<Outcome>, MoveError> {
        let (game, outcomes) = self.played_move(player, actions)?;
        *self = game;
        Ok(outcomes)
    }

    /// [`Game::play_move`] on a copy: the game after the move and the outcomes, leaving
    /// `self` as it is (one copy of the game, for callers that hold it shared).
    pub fn played_move(
        &self,
        player: u8,
        actions: &[Action],
    ) -> Result<(Game, Vec<Outcome>), MoveError> {
        let mut game = self.clone();
        let mut outcomes = Vec::with_capacity(actions.len());
        for (index, action) in actions.iter().enumerate() {
            let before = HiddenCursor::of(&game);
            let outcome = game
                .play(player, action)
                .map_err(|error| MoveError { index, error })?;
            outcomes.push(outcome);
            if index + 1 < actions.len() && before.revealed(&HiddenCursor::of(&game)) {
                return Err(MoveError {
                    index: index + 1,
                    error: PlayError::MovePastHiddenInformation,
                });
            }
        }
        Ok((game, outcomes))
    }
}
