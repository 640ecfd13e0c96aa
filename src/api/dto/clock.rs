//! Clocks and vacations.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A time bank: each player starts with `initial_hours`; a turn is due when the bank it
/// started with runs out (time on vacation does not count); after each of the player's
/// turns, what was left plus `hours_per_move`, at most `max_hours`, is their bank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TimeBank {
    /// The bank at the start, 1 to 2160 hours (90 days).
    #[schema(minimum = 1, maximum = 2160)]
    pub initial_hours: i64,
    /// Hours added after each turn, 0 to 720.
    #[schema(minimum = 0, maximum = 720)]
    pub hours_per_move: i64,
    /// The most a bank holds, from `initial_hours` to 2160 (default: `initial_hours`).
    #[schema(minimum = 1, maximum = 2160)]
    #[serde(default)]
    pub max_hours: Option<i64>,
}

/// What is left of a player's time bank.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct BankLeft {
    /// The player's seat.
    pub player: u8,
    /// Minutes left: for the player whose turn it is, until their deadline (as of the
    /// answer); for the others, their bank as their last turn left it.
    pub minutes_left: i64,
}

/// A game's clock.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ClockView {
    /// Days each player has for a decision (1 to 14); 0 with a time bank.
    pub days_per_move: u8,
    /// The time bank, when the game has one instead of days per move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_bank: Option<TimeBank>,
    /// With a time bank: what is left of each player's bank.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub banks: Vec<BankLeft>,
    /// When the pending decision is due (RFC 3339 UTC); absent when nothing is pending.
    pub deadline: Option<String>,
    /// The clock stands still (the deciding player is on vacation, or the game's
    /// tournament is paused): the deadline moves out with the time.
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
