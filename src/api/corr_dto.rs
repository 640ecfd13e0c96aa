//! Request and response bodies of correspondence play: clocks, vacations, invitations,
//! chat and the export.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

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

/// An invitation to a seat.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct InvitationView {
    pub username: String,
    /// `pending` (the seat is reserved), `accepted`, `declined`, or `lapsed` (not
    /// answered before the game started).
    pub status: String,
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

/// Games and invitations that wait for the caller.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct WaitingView {
    /// Running games where the caller's decision is pending.
    pub my_turn: i64,
    /// Invitations to open games not answered yet.
    pub invitations: i64,
}

/// The caller's vacation bank and current vacation.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VacationStatus {
    /// Vacation days per calendar year.
    pub days_per_year: i64,
    /// Days left this year.
    pub days_left: i64,
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

/// A chat message to post.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    /// Plain text, 1 to 1000 characters, not only white space; no control characters but
    /// line breaks and tabs.
    #[schema(
        min_length = 1,
        max_length = 1000,
        pattern = r"^[^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*[^\s\u0000-\u0008\u000B-\u001F\u007F-\u009F][^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*$"
    )]
    pub text: String,
}

/// A chat message.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ChatMessage {
    pub id: String,
    pub seat: Option<u8>,
    pub username: String,
    /// Plain text (never markup).
    pub text: String,
    /// The game's version when it was written: the message comes after the event with
    /// this `seq` in the events feed.
    pub after_seq: i64,
    /// RFC 3339 UTC.
    pub at: String,
}

/// A page of a game's chat.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ChatPage {
    pub game_id: String,
    /// In the order asked for (oldest first unless `order=newest`).
    pub messages: Vec<ChatMessage>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

/// Which end of the chat a page starts from.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ChatOrderDto {
    /// The first message first (the default).
    Oldest,
    /// The latest message first.
    Newest,
}

/// Paging of the chat.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ChatQuery {
    /// `oldest` (default) or `newest` first. A cursor keeps the order it was made in.
    #[param(inline)]
    pub order: Option<ChatOrderDto>,
    /// Opaque cursor from `next_cursor`.
    pub cursor: Option<String>,
    /// Page size, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// A game's chat by reference (the history and the export do not carry it).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ChatLink {
    /// How many messages the chat holds.
    pub count: i64,
    /// Where to read it, paged: `/v1/games/{id}/chat`.
    pub href: String,
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
    pub status: super::dto::GameStatus,
    /// The log is complete (the seed included): the game is over. While it runs the
    /// hidden parts are left out and the log cannot be replayed.
    pub complete: bool,
    /// Seat, username and colour of each player, in seat order.
    pub players: Vec<super::dto::SeatView>,
    pub events: Vec<ExportedEvent>,
    /// The game's chat by reference.
    pub chat: ChatLink,
}
