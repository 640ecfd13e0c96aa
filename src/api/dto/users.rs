//! Accounts and tokens: registration, tokens, the caller's account.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::clock::VacationStatus;

/// Registration.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RegisterRequest {
    /// 3 to 32 characters: letters, digits, `_`, `-`, `.`.
    #[schema(min_length = 3, max_length = 32, pattern = "^[A-Za-z0-9_.-]{3,32}$")]
    pub username: String,
    #[schema(
        min_length = 3,
        max_length = 254,
        pattern = r"^[^@\s\x00-\x1f\x7f-\x9f]+@[^@\s\x00-\x1f\x7f-\x9f]+$"
    )]
    pub email: String,
    /// 8 to 256 characters.
    #[schema(min_length = 8, max_length = 256)]
    pub password: String,
    /// The language of the user's emails: `en` or `pt-BR`; default: the best match of the
    /// request's `Accept-Language`, else `en`.
    #[serde(default)]
    #[schema(pattern = "^(en|pt-BR)$", example = "pt-BR")]
    pub locale: Option<String>,
    /// The IANA time zone deadlines are written in; default `UTC`.
    #[serde(default)]
    #[schema(max_length = 64, example = "America/Sao_Paulo")]
    pub time_zone: Option<String>,
}

/// Credentials exchanged for an access token.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    #[schema(max_length = 64)]
    pub username: String,
    #[schema(max_length = 256)]
    pub password: String,
}

/// An access token.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TokenResponse {
    pub access_token: String,
    /// Always `Bearer`.
    pub token_type: String,
    /// Seconds until the token expires.
    pub expires_in: i64,
}

/// Which notifications a user wants.
#[derive(Debug, Serialize, Deserialize, ToSchema, Clone, Copy)]
pub struct NotificationPrefs {
    /// When it is the user's turn.
    pub turn: bool,
    /// When a game of theirs ends.
    pub finished: bool,
}

/// A user (as its owner sees it).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct UserView {
    pub id: String,
    pub username: String,
    pub email: String,
    /// Whether the address is confirmed; until it is, it gets the confirmation email and
    /// no other (`POST /v1/users/me/email/verification` sends a new link).
    pub email_verified: bool,
    /// The account is marked as a bot (`PATCH /v1/users/me` `{"bot": true}`).
    pub bot: bool,
    /// The hour (0–23, in `time_zone`) of the daily digest; absent: an email per turn.
    pub digest_hour: Option<i32>,
    pub notifications: NotificationPrefs,
    /// The language of the user's emails (`en`, `pt-BR`).
    pub locale: String,
    /// The IANA time zone deadlines are written in.
    pub time_zone: String,
    /// RFC 3339 UTC.
    pub created_at: String,
    /// Games and invitations waiting for the caller (in `GET /v1/users/me`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting: Option<WaitingView>,
    /// The vacation bank (in `GET /v1/users/me`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vacation: Option<VacationStatus>,
}

/// Changes to the caller's account; absent fields stay as they are (the email address
/// changes through `POST /v1/users/me/email`, with the password).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateUserRequest {
    #[serde(default, deserialize_with = "crate::api::dto::fields::optional_object")]
    pub notifications: Option<NotificationPatch>,
    /// `en` or `pt-BR`.
    #[schema(pattern = "^(en|pt-BR)$", example = "pt-BR")]
    pub locale: Option<String>,
    /// An IANA time zone name (`UTC`, `America/Sao_Paulo`).
    #[schema(max_length = 64, example = "America/Sao_Paulo")]
    pub time_zone: Option<String>,
    /// Marks the account as a bot (a program that plays with a token): every view shows
    /// its seats as `bot: "account"`.
    pub bot: Option<bool>,
    /// One email a day at this hour (0–23, in `time_zone`) listing every game waiting for
    /// the user, instead of an email per turn (a turn due within 24 hours still gets
    /// its own); `null` turns the digest off.
    #[serde(default, deserialize_with = "crate::api::dto::fields::nullable")]
    #[schema(value_type = Option<i32>, nullable, minimum = 0, maximum = 23)]
    pub digest_hour: Option<Option<i32>>,
}

/// Changes to notification preferences.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NotificationPatch {
    pub turn: Option<bool>,
    pub finished: Option<bool>,
}

/// Games and invitations that wait for the caller.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct WaitingView {
    /// Running games where the caller's decision is pending.
    pub my_turn: i64,
    /// Invitations to open games not answered yet.
    pub invitations: i64,
}
