//! Players finding each other: profiles, ratings, the leaderboard and the lobby of seeks.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

pub use crate::standing::UnratedReason;
pub use crate::store::SeekStatus;

/// A player's rating in a pool (Glicko-2; docs/players.md).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RatingView {
    /// `base` (games without expansions) or `expansions`.
    pub pool: String,
    /// The rating, rounded.
    pub rating: i32,
    /// The rating deviation, rounded: the uncertainty (350 for a new player).
    pub deviation: i32,
    /// True while the deviation is above 110: the rating is still settling, and it is not
    /// on the leaderboard.
    pub provisional: bool,
    /// Rated games played in the pool that changed the rating.
    pub games: i32,
}

/// A player's result in an ended game.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ResultView {
    pub game_id: String,
    pub ended_at: String,
    /// Players in the game.
    pub seats: i32,
    /// 1 for the winners; players who left rank below those who stayed.
    pub rank: i32,
    pub score: i32,
    /// `completed` (played to the end), `resigned` or `timed_out`.
    pub outcome: String,
    /// The game was created rated.
    pub rated: bool,
    /// A rated game's pool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<String>,
    /// A rated game that changed ratings: the player's rating before and after it
    /// (rounded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_before: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_after: Option<i32>,
    /// A rated game that changed no rating, and why: `too_short` (a player made fewer
    /// than two decisions of their own) or `pair_limit` (two of its players had already
    /// played their day's count of rated games together that change ratings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrated_reason: Option<UnratedReason>,
}

/// A player's public page.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ProfileView {
    pub username: String,
    /// A computer opponent: the level the server plays (`random`, `greedy`, `mcts`, `expert`), or
    /// `account` for an account its owner marked as a bot; absent for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// When the account was made.
    pub joined: String,
    /// Games that ended with the player in them.
    pub games_played: i32,
    /// Of those, the games the player played to the end.
    pub games_finished: i32,
    /// Games won (ranked first, alone or tied, having played to the end).
    pub games_won: i32,
    pub games_resigned: i32,
    pub games_timed_out: i32,
    /// Rated games that changed no rating (too short, or past the daily limit of a pair
    /// of players); each is in the rating history with its `unrated_reason`.
    pub games_uncounted: i32,
    /// Finished over played (the reliability figure seeks filter on); absent before the
    /// first game ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_rate: Option<f64>,
    /// Timed out over played; absent before the first game ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_rate: Option<f64>,
    /// The mean time the player took per move in ended games, in seconds (from the
    /// decision before theirs to their own); absent without moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_move_seconds: Option<f64>,
    /// The player's ratings, one per pool they have played rated games in.
    pub ratings: Vec<RatingView>,
    /// The latest ended public games, newest first (at most 10).
    pub recent_games: Vec<ResultView>,
}

/// A page of a player's rated results in a pool, newest first (the games that changed
/// no rating too, with their `unrated_reason`).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RatingHistory {
    pub pool: String,
    pub entries: Vec<ResultView>,
    pub next_cursor: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RatingHistoryQuery {
    /// `base` (default) or `expansions`.
    pub pool: Option<String>,
    /// Page size, 1 to 200 (default 50).
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// A leaderboard entry.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct LeaderboardEntry {
    pub username: String,
    pub rating: i32,
    pub deviation: i32,
    pub games: i32,
}

/// A page of a pool's leaderboard: established ratings (deviation at most 110), best
/// first.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Leaderboard {
    pub pool: String,
    pub entries: Vec<LeaderboardEntry>,
    pub next_cursor: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LeaderboardQuery {
    /// `base` (default) or `expansions`.
    pub pool: Option<String>,
    /// Page size, 1 to 200 (default 50).
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// A new seek: a game looking for players in the lobby.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateSeekRequest {
    /// Expansion ids (`river`, `abbot`, ...).
    #[serde(default)]
    pub expansions: Vec<String>,
    /// Number of seats, 2 to 6 (6 needs `inns_cathedrals`).
    #[schema(minimum = 2, maximum = 6)]
    pub seats: i64,
    /// Days per move, 1 to 14; without it the game has no clock.
    #[schema(minimum = 1, maximum = 14)]
    pub days_per_move: Option<i64>,
    /// A named set of house rules (`GET /v1/rules`); `rules` applies on top of it.
    #[schema(max_length = 64)]
    pub preset: Option<String>,
    /// House rules: variant name → value.
    pub rules: Option<std::collections::BTreeMap<String, String>>,
    /// The game will be rated (default: casual).
    #[serde(default)]
    pub rated: bool,
    /// Only players rated at least this in the game's pool may join (a player without
    /// a rating there counts as 1500).
    #[schema(minimum = 0, maximum = 4000)]
    pub min_rating: Option<i32>,
    /// Only players rated at most this in the game's pool may join.
    #[schema(minimum = 0, maximum = 4000)]
    pub max_rating: Option<i32>,
    /// Only players whose finish rate is at least this (0 to 1) may join; a player no game
    /// of whom has ended yet does not meet a minimum above 0.
    #[schema(minimum = 0, maximum = 1)]
    pub min_finish_rate: Option<f64>,
}

/// A seek.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeekView {
    pub id: String,
    pub creator: String,
    /// The players who joined, the creator first, in the order they joined (the game's
    /// seat order).
    pub players: Vec<String>,
    pub seats: i32,
    pub expansions: Vec<String>,
    /// The house rules: each variant that differs from the standard rules.
    pub rules: std::collections::BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days_per_move: Option<i32>,
    pub rated: bool,
    /// The rating pool of the game.
    pub pool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rating: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rating: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_finish_rate: Option<f64>,
    pub status: SeekStatus,
    /// The game the seek became once full.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_id: Option<String>,
    pub created_at: String,
    /// An open seek nobody fills by then closes.
    pub expires_at: String,
}

/// A page of seeks.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeekList {
    pub seeks: Vec<SeekView>,
    pub next_cursor: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SeekListQuery {
    /// `true`: the caller's own open seeks (made or joined) instead of those they may
    /// join.
    pub mine: Option<bool>,
    /// Page size, 1 to 200 (default 50).
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
}
