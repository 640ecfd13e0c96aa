//! The history (events feed) and the export.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::chat::ChatLink;
use super::games::{GameStatus, SeatView};

/// Who decided.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ActorView {
    pub seat: u8,
    pub user_id: String,
    pub username: String,
}

/// One entry of a game's history.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct HistoryEntry {
    pub seq: i64,
    /// RFC 3339 UTC.
    pub at: String,
    pub actor: Option<ActorView>,
    /// Who took the decision when the actor did not by a request: `system` (it had one
    /// legal option), `standing_order` (the actor's standing order), `plan` (the actor's
    /// conditional turn: shown to the actor alone, plans being private). Absent: the
    /// actor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<crate::store::DecidedBy>,
    /// The decision, `{"type": "tile_placed", "seat": 0, "tile": "base/U", "x": 1, "y": 0,
    /// "rotation": 90}` and so on: `game_created` (players, expansions, sandbox),
    /// `tile_placed`, `figure_placed`, `figure_skipped`, `abbot_returned`,
    /// `player_resigned`, `undone` (seat, count: the player took back their last `count`
    /// decisions, see `POST /v1/games/{id}/undo`), ... (never the seed or the pile).
    #[schema(value_type = Object)]
    pub decision: serde_json::Value,
    /// What the engine derived: `tile_drawn` (seat, tile), `tile_to_hand` (seat, and the
    /// tile for that seat's player alone: house rule `tiles_in_hand`), `tile_discarded`,
    /// `feature_scored` (feature, points, seats, tiles, final), `figure_returned`,
    /// `player_left`, `goods_taken`, `goods_scored`, `game_over` (ranking), ...
    #[schema(value_type = Vec<Object>)]
    pub consequences: Vec<serde_json::Value>,
}

/// A page of history.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct EventsPage {
    pub game_id: String,
    pub version: i64,
    pub events: Vec<HistoryEntry>,
    /// Pass as `after` for the next page; absent on the last page.
    pub next_after: Option<i64>,
    /// Pass as `cursor` for the next page (the same place as `next_after`); absent on
    /// the last page.
    pub next_cursor: Option<String>,
    /// The game's chat, by reference: read it, paged, from `href`. Each message's
    /// `after_seq` places it after the event with that `seq`.
    pub chat: ChatLink,
}

/// Paging of the history.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Only events with `seq` greater than this (default 0). Not together with
    /// `cursor`.
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// Opaque cursor from `next_cursor`.
    pub cursor: Option<String>,
    /// Page size, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// One stored event of an export.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ExportedEvent {
    pub seq: i64,
    /// The stored event type (`game_created`, `tile_placed`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    pub version: u32,
    /// The stored payload. While the game runs the creation's seed and pile are left
    /// out.
    #[schema(value_type = Object)]
    pub payload: serde_json::Value,
    /// RFC 3339 UTC.
    pub at: String,
}

/// A game's complete log, for offline verification with `tilepost replay FILE`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GameExport {
    pub game_id: String,
    pub status: GameStatus,
    /// The log is complete (the seed included): the game is over. While it runs the
    /// hidden parts are left out and the log cannot be replayed.
    pub complete: bool,
    /// Seat, username and colour of each player, in seat order.
    pub players: Vec<SeatView>,
    pub events: Vec<ExportedEvent>,
    /// The game's chat by reference.
    pub chat: ChatLink,
}

/// The form of an export.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    /// `GameExport` as JSON.
    #[default]
    Json,
    /// The game notation: a line per event, `text/plain` (docs/analysis.md).
    Text,
}

/// How to export a game.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// `json` (default) or `text` (the game notation, which `tilepost replay` reads too).
    #[param(inline)]
    pub format: Option<ExportFormat>,
}
