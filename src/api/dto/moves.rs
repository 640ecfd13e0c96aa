//! Moves and their results.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::games::GameStatus;
use super::history::HistoryEntry;
use tilepost_engine::Action;

/// One or more actions of the caller, applied in order and atomically.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The game version the actions were decided on (or send `If-Match`).
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
    #[schema(min_items = 1, max_items = 16)]
    #[serde(deserialize_with = "crate::api::dto::fields::objects")]
    pub actions: Vec<Action>,
}

/// An undo: the caller's last decision taken back.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    /// The game version the undo was decided on (or send `If-Match`).
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
}

/// The result of a move, an undo or a resignation.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MoveResult {
    pub game_id: String,
    /// The game's version after the move.
    pub version: i64,
    pub status: GameStatus,
    /// The decisions recorded, with their consequences.
    pub events: Vec<HistoryEntry>,
}
