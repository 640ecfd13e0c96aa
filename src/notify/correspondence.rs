//! Notifications of correspondence play: `game.deadline_near` (a reminder before a
//! deadline), `game.timed_out` (a player missed a deadline and left the game) and
//! `game.invited` (a seat is reserved for the recipient), built with the notification
//! module's messages (everything an email needs).

use super::Notifier;
use crate::store::{OutboxRow, SeatInfo};

/// `game.deadline_near` for the player whose decision is pending (if they want turn
/// notifications).
pub fn deadline_near(
    n: &Notifier,
    to: &SeatInfo,
    game_id: &str,
    deadline: i64,
    now: i64,
) -> Option<OutboxRow> {
    to.notify_turn
        .then(|| super::deadline_near(n, to, game_id, deadline, now))
}

/// `game.timed_out` for the player who missed the deadline (always sent: it changes
/// their standing).
pub fn timed_out(n: &Notifier, to: &SeatInfo, game_id: &str, now: i64) -> Vec<OutboxRow> {
    super::timed_out(n, std::slice::from_ref(to), game_id, &to.username, now)
}

/// `game.invited` for a user whose seat is reserved.
pub fn invited(n: &Notifier, to: &SeatInfo, game_id: &str, by: &str, now: i64) -> OutboxRow {
    super::invited(n, to, game_id, by, now)
}
