//! Accounts beyond sign-up: address confirmation, password reset and change, address
//! change, deletion and the export of one's own data.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{NotificationPrefs, WebhookView};

/// A token from an emailed link.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkTokenRequest {
    /// The `token` of the link.
    #[schema(min_length = 1, max_length = 128)]
    pub token: String,
}

/// A request for a password reset link.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordResetRequest {
    /// The account's (confirmed) email address.
    #[schema(max_length = 254)]
    pub email: String,
}

/// A new password chosen with a reset link.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordResetConfirm {
    #[schema(min_length = 1, max_length = 128)]
    pub token: String,
    /// 8 to 256 characters.
    #[schema(min_length = 8, max_length = 256)]
    pub password: String,
}

/// A new password, with the current one.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangePasswordRequest {
    #[schema(max_length = 256)]
    pub current_password: String,
    /// 8 to 256 characters.
    #[schema(min_length = 8, max_length = 256)]
    pub new_password: String,
}

/// A new email address, with the current password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangeEmailRequest {
    #[schema(
        min_length = 3,
        max_length = 254,
        pattern = r"^[^@\s\x00-\x1f\x7f-\x9f]+@[^@\s\x00-\x1f\x7f-\x9f]+$"
    )]
    pub email: String,
    #[schema(max_length = 256)]
    pub password: String,
}

/// The password that confirms a deletion.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteAccountRequest {
    #[schema(max_length = 256)]
    pub password: String,
}

/// The status of an accepted request: always `accepted`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum AcceptedStatus {
    Accepted,
}

/// An accepted request whose outcome is told by email (or not at all).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Accepted {
    pub status: AcceptedStatus,
    /// What happens next.
    pub detail: String,
}

/// The result of using a link.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct LinkResult {
    /// `email_verified` or `password_reset`.
    pub status: String,
}

/// The caller's profile in an export.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ExportProfile {
    pub id: String,
    pub username: String,
    pub email: String,
    /// Whether the address is confirmed.
    pub email_verified: bool,
    pub locale: String,
    pub time_zone: String,
    /// RFC 3339 UTC.
    pub created_at: String,
}

/// A seat of an exported game.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ExportSeat {
    pub seat: i32,
    pub username: String,
    /// Whether the seat is the caller's.
    pub me: bool,
    /// RFC 3339 UTC.
    pub joined_at: String,
}

/// A game the caller has a seat at.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ExportGame {
    pub id: String,
    pub status: crate::store::GameStatus,
    pub expansions: Vec<String>,
    pub seats: Vec<ExportSeat>,
    /// RFC 3339 UTC.
    pub created_at: String,
    pub updated_at: String,
}

/// Everything the server keeps about the caller, for download.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AccountExportView {
    /// RFC 3339 UTC: when the export was made.
    pub exported_at: String,
    pub profile: ExportProfile,
    /// The email switches (`notifications` of the account, and one per event type).
    pub notifications: NotificationPrefs,
    pub email_settings: BTreeMap<String, bool>,
    /// The caller's webhook endpoints, without their secrets.
    pub webhooks: Vec<WebhookView>,
    /// The games with a seat of the caller, newest first, with every seat.
    pub games: Vec<ExportGame>,
    /// The chat lines the caller wrote, oldest first.
    pub chat: Vec<ExportChatLine>,
}

/// A chat line the caller wrote.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ExportChatLine {
    pub game_id: String,
    pub text: String,
    /// The game's version when it was written.
    pub after_seq: i64,
    /// RFC 3339 UTC.
    pub at: String,
}
