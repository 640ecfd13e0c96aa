//! Personal access tokens and their scopes.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// What a token may do. A login token has every scope; a personal access token the
/// ones chosen when it was created. Each operation of the API requires one (the
/// document lists it in the operation's security requirement).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
pub enum Scope {
    /// Read games, their history, chat and pictures.
    #[serde(rename = "game:read")]
    GameRead,
    /// Create, join and play games (moves, resignations, chat, invitations, vacations).
    #[serde(rename = "game:play")]
    GamePlay,
    /// The account: profile, notification settings, tokens and sessions.
    #[serde(rename = "account")]
    Account,
    /// Webhook endpoints and their deliveries.
    #[serde(rename = "webhooks")]
    Webhooks,
}

/// A new personal access token.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreatePersonalTokenRequest {
    /// A name to recognise it by (1 to 64 characters).
    #[schema(min_length = 1, max_length = 64)]
    pub name: String,
    /// 1 to 4 scopes (a scope named twice counts once), each one the calling token holds.
    #[schema(min_items = 1, max_items = 4)]
    pub scopes: Vec<Scope>,
    /// Days until it expires (1 to 3650); absent: it never expires.
    #[schema(minimum = 1, maximum = 3650)]
    pub expires_in_days: Option<i64>,
}

/// A personal access token. Its secret (`token`) is shown only in the answer that
/// created it; the server keeps only a hash of it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PersonalTokenView {
    pub id: String,
    pub name: String,
    pub scopes: Vec<Scope>,
    pub created_at: String,
    /// When it stops working; absent: never.
    pub expires_at: Option<String>,
    /// The bearer token (`tpp_…`): only when it was just created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
}

/// A page of personal access tokens, newest first.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PersonalTokenList {
    pub tokens: Vec<PersonalTokenView>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

/// Paging of the token list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PersonalTokensQuery {
    /// Opaque cursor from `next_cursor`.
    pub cursor: Option<String>,
    /// 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}
