//! A game's chat.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

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
