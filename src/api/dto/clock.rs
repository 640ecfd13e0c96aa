//! Clocks and vacations.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A game's clock.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ClockView {
    /// Days each player has for a decision (1 to 14).
    pub days_per_move: u8,
    /// When the pending decision is due (RFC 3339 UTC); absent when nothing is pending.
    pub deadline: Option<String>,
    /// The deciding player is on vacation: their clock stands still and the deadline
    /// moves out with the time.
    pub paused: bool,
}

/// A player on vacation.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VacationView {
    pub username: String,
    /// The latest end of the vacation (RFC 3339 UTC).
    pub until: String,
    /// The vacation also ends with the player's next move.
    pub until_move: bool,
}

/// The caller's vacation bank and current vacation.
///
/// A vacation takes from the bank, when it starts, every day up to its latest end (every
/// started day counts); one without `until` (until the next move) takes every day left.
/// When it ends earlier (the next move, or `DELETE /v1/users/me/vacation`), the days it
/// did not use go back to `days_left`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VacationStatus {
    /// Vacation days per calendar year.
    pub days_per_year: i64,
    /// Days left this year, not counting the days the current vacation holds.
    pub days_left: i64,
    /// Days the current vacation holds until its latest end (`0` when not on vacation):
    /// the ones it does not use go back to `days_left` when it ends earlier.
    pub days_reserved: i64,
    /// The current vacation's latest end, when on vacation.
    pub until: Option<String>,
    /// The current vacation ends with the next move.
    pub until_move: bool,
}

/// Start a vacation now.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VacationRequest {
    /// When the vacation ends (RFC 3339). Without it the vacation ends with the caller's
    /// next move (or when the year's bank runs out).
    #[schema(format = DateTime)]
    pub until: Option<String>,
}
