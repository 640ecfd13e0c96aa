//! A game's chat.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

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

/// A game's chat, oldest first.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ChatPage {
    pub game_id: String,
    pub messages: Vec<ChatMessage>,
}
