//! Undo before anything is revealed: which games allow it, how many decisions one undo
//! takes back, and the undo as a step of the decision service.

use tilepost_engine::{Event, PlayError};

use super::{decode_events, seat_of, DecisionError, Decisions, Loaded, Step};
use crate::store::{DecidedBy, EventRow, GameRow};

impl Decisions<'_> {
    /// The undo of `user_id`'s last decision on the loaded game (which becomes the game
    /// after it): the log is read to take it back.
    pub(super) async fn undo(
        &self,
        loaded: &mut Loaded,
        user_id: &str,
    ) -> Result<Step, DecisionError> {
        let seat = seat_of(&loaded.data.seats, user_id).ok_or(DecisionError::NotAPlayer)?;
        let id = loaded.data.game.id.clone();
        let rows = self
            .store
            .events_upto(id.clone(), loaded.data.game.version)
            .await?;
        let events = decode_events(&rows).map_err(DecisionError::Corrupt)?;
        // never more than the engine lets the player take back (it refuses none then)
        let count = undo_count(&rows, &events)
            .min(loaded.game.undoable(seat))
            .max(1);
        let (game, event) = loaded
            .game
            .undo(&events, seat, count)
            .map_err(|e| match e {
                PlayError::GameOver => DecisionError::GameOver,
                PlayError::LogMismatch(m) => DecisionError::Corrupt(format!("game {id}: {m}")),
                error => DecisionError::UndoRefused(error),
            })?;
        loaded.game = game;
        loaded.log = None;
        Ok((event, Vec::new(), None))
    }
}

/// Whether a game lets its players take decisions back: casual games do; rated games
/// and a tournament's games (`in_tournament`) never do (both are fixed when the game is
/// created).
pub fn undo_allowed(game: &GameRow, in_tournament: bool) -> bool {
    !game.rated && !in_tournament
}

/// How many decisions an undo takes back: the decisions in effect (those earlier undos
/// did not take back), counted back from the last one to the last the player took
/// themselves (the forced ones the server took after it go with it).
fn undo_count(rows: &[EventRow], events: &[Event]) -> u8 {
    let mut effective: Vec<usize> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        match e {
            Event::Undone { count, .. } => {
                effective.truncate(effective.len().saturating_sub(*count as usize))
            }
            _ => effective.push(i),
        }
    }
    let mut count = 0u8;
    for &i in effective.iter().rev() {
        count = count.saturating_add(1);
        let forced =
            rows.get(i).and_then(|r| r.decided_by.as_deref()) == Some(DecidedBy::System.as_str());
        if !forced || !matches!(events.get(i), Some(Event::Decided { .. })) {
            break;
        }
    }
    count.max(1)
}
