//! Webhook endpoints, deliveries, notification settings, unsubscribe links, and the
//! webhook payloads (for the OpenAPI document's `webhooks`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

pub use crate::store::DeliveryStatus;

/// A new webhook endpoint.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateWebhookRequest {
    /// An http(s) URL that does not resolve to a loopback, link-local or private address.
    #[schema(max_length = 2048, example = "https://bot.example.com/tilepost")]
    pub url: String,
    /// The event types to receive (`game.turn_started`, `game.invited`, `game.started`,
    /// `game.finished`, `game.deadline_near`, `game.timed_out`), or `["*"]` for all.
    #[schema(example = json!(["game.turn_started", "game.finished"]))]
    pub event_types: Vec<String>,
}

/// A webhook endpoint. `secret` is present only in the answers of creation and rotation.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct WebhookView {
    pub id: String,
    pub url: String,
    pub event_types: Vec<String>,
    /// False once the endpoint answered `410 Gone`.
    pub enabled: bool,
    pub disabled_reason: Option<String>,
    /// RFC 3339 UTC.
    pub created_at: String,
    /// `whsec_` + base64: the signing key. Shown once; store it now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

/// The caller's endpoints.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct WebhookList {
    pub webhooks: Vec<WebhookView>,
}

/// One attempt to deliver a message.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AttemptView {
    /// RFC 3339 UTC.
    pub at: String,
    /// The HTTP status answered, absent when no answer came (see `error`).
    pub status: Option<i32>,
    pub duration_ms: i64,
    /// Why no answer came (connection refused, time-out).
    pub error: Option<String>,
    /// The first 512 bytes of the answer.
    pub excerpt: Option<String>,
}

/// The delivery of one message to one endpoint.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct DeliveryView {
    pub id: String,
    /// The message id, sent as `webhook-id` (the same on every attempt).
    pub webhook_id: String,
    pub event_type: String,
    pub status: DeliveryStatus,
    pub attempts: i32,
    /// RFC 3339 UTC: when the next attempt is due (pending deliveries).
    pub next_attempt_at: Option<String>,
    pub delivered_at: Option<String>,
    pub last_status: Option<i32>,
    pub created_at: String,
    /// Every attempt, oldest first.
    pub attempt_log: Vec<AttemptView>,
}

/// A page of deliveries, newest first.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct DeliveryList {
    pub deliveries: Vec<DeliveryView>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

/// Paging of the delivery list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct DeliveriesQuery {
    /// Opaque cursor from `next_cursor`.
    pub cursor: Option<String>,
    /// 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// Email switches per event type.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NotificationSettings {
    /// Event type → whether the email relay gets a message for the caller.
    #[schema(
        value_type = EmailSwitches,
        example = json!({"game.turn_started": true, "game.finished": false})
    )]
    pub email: BTreeMap<String, bool>,
    /// Hours before each deadline when a reminder (`game.deadline_near`) goes out, by
    /// every channel the caller allows, largest first: the caller's choice, or the
    /// server's default (`TILEPOST_REMINDER_BEFORE_SECS`).
    #[schema(example = json!([48, 2]))]
    pub reminder_hours: Vec<i64>,
    /// Whether `reminder_hours` is the server's default (the caller chose none).
    pub reminder_default: bool,
}

/// Changes to the notification settings: the email switches named (the others stay as
/// they are) and, when given, the reminder hours.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NotificationChanges {
    /// Event type → whether the email relay gets a message for the caller.
    #[serde(default)]
    #[schema(
        value_type = EmailSwitches,
        example = json!({"game.turn_started": true, "game.finished": false})
    )]
    pub email: BTreeMap<String, bool>,
    /// Hours before each deadline when a reminder goes out: at most 5 distinct whole
    /// hours from 1 to 336 (14 days), in any order; `[]` for no reminders, `null` for the
    /// server's default. Each goes out once per turn, when its time remains (one that
    /// falls before the turn started is skipped).
    #[serde(default, deserialize_with = "crate::api::dto::fields::nullable")]
    #[schema(value_type = Option<Vec<i64>>, nullable, max_items = 5, example = json!([48, 2]))]
    pub reminder_hours: Option<Option<Vec<i64>>>,
}

/// Whether the email relay gets a message for each event type; a change may name any
/// subset of them.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // the document's shape of `NotificationSettings::email`
pub struct EmailSwitches {
    #[serde(default, rename = "game.turn_started")]
    turn_started: bool,
    #[serde(default, rename = "game.invited")]
    invited: bool,
    #[serde(default, rename = "game.started")]
    started: bool,
    #[serde(default, rename = "game.finished")]
    finished: bool,
    #[serde(default, rename = "game.deadline_near")]
    deadline_near: bool,
    #[serde(default, rename = "game.timed_out")]
    timed_out: bool,
    #[serde(default, rename = "game.plan_played")]
    plan_played: bool,
    #[serde(default, rename = "game.digest")]
    digest: bool,
    #[serde(default, rename = "tournament.invited")]
    tournament_invited: bool,
    #[serde(default, rename = "tournament.round_started")]
    round_started: bool,
    #[serde(default, rename = "tournament.eliminated")]
    eliminated: bool,
    #[serde(default, rename = "tournament.stage_ended")]
    stage_ended: bool,
    #[serde(default, rename = "tournament.finished")]
    tournament_finished: bool,
    #[serde(default, rename = "tournament.paused")]
    tournament_paused: bool,
    #[serde(default, rename = "tournament.resumed")]
    tournament_resumed: bool,
}

/// The unsubscribe token of a link.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct UnsubscribeQuery {
    /// The signed token from the email's link.
    pub token: String,
}

/// What an unsubscribe link did.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct UnsubscribeResult {
    /// The event types whose email is now off.
    pub unsubscribed: Vec<String>,
    /// Where to change this back.
    pub settings: String,
}

/// The recipient of a message.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct WebhookRecipient {
    pub user_id: String,
    pub email: String,
    pub name: String,
}

/// Links of a message.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct WebhookLinks {
    /// The game's page in the web client (`/play/games/{id}`): the link the email's
    /// "The game" points to.
    pub play: String,
    /// The game's state in the API.
    pub game: String,
    pub actions: String,
    pub placements: String,
    pub moves: String,
    pub events: String,
    pub notification_settings: String,
    /// Turns off email of this type, without logging in.
    pub unsubscribe: String,
    /// Turns off all email, without logging in.
    pub unsubscribe_all: String,
}

/// The data of every message: a ready-to-send email, plus the fields of its type
/// (`version`, `tile`, `decision`, `deadline`, `since_last_turn` for
/// `game.turn_started`; `ranking` for `game.finished`; `players`, `first_player` for
/// `game.started`; `invited_by`, `join` for `game.invited`; `deadline` for
/// `game.deadline_near`; `player` for `game.timed_out`).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct WebhookData {
    pub game_id: String,
    pub recipient: WebhookRecipient,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// Value for a `List-Unsubscribe` header.
    pub list_unsubscribe: String,
    pub links: WebhookLinks,
    #[schema(value_type = Object)]
    #[serde(flatten)]
    pub extra: serde_json::Value,
}

/// The body of every webhook (Standard Webhooks). Headers: `webhook-id` (stable across
/// retries), `webhook-timestamp` (Unix seconds), `webhook-signature` (`v1,` + base64
/// HMAC-SHA256 of `id.timestamp.body` with the key of the endpoint's `whsec_` secret).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct WebhookMessage {
    /// `game.turn_started`, `game.invited`, `game.started`, `game.finished`,
    /// `game.deadline_near`, `game.timed_out`, `game.plan_played` or `game.digest`
    /// (tournament messages: [`TournamentWebhookMessage`]).
    #[serde(rename = "type")]
    pub type_: String,
    /// RFC 3339 UTC: when the event happened.
    pub timestamp: String,
    pub data: WebhookData,
}

/// Links of a tournament message.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TournamentWebhookLinks {
    /// The event's page in the web client (`/play/tournaments/{id}`).
    pub play: String,
    /// The event in the API.
    pub tournament: String,
    pub standings: String,
    pub rounds: String,
    pub notification_settings: String,
    /// Turns off email of this type, without logging in.
    pub unsubscribe: String,
    /// Turns off all email, without logging in.
    pub unsubscribe_all: String,
}

/// The data of a tournament message: a ready-to-send email, plus the fields of its
/// type: `tournament_name`, `invited_by`, `starts_at` (null without a start date),
/// `invitation_only`, `join` for `tournament.invited`; `tournament_name`, `stage`
/// (0-based), `round`, `table` (null for a bye), `opponents` (names), `games` (ids, in
/// the match's order), `bye`, `bye_points` (null in a knockout) for
/// `tournament.round_started`; `tournament_name`, `stage`, `round`, `match` (the
/// bracket's name), `beaten_by`, `last_stage`, `qualifying` (how many go on to the next
/// stage; null in the last) for `tournament.eliminated`; `tournament_name`, `stage`,
/// `rank`, `players`, `qualified` for `tournament.stage_ended`; `tournament_name`,
/// `held`, `winner`, `place`, `players` for `tournament.finished` (`held` false, `winner`
/// and `place` null: the event reached its start date with fewer than 2 players and
/// ended without a round); `tournament_name`, `reason` for `tournament.paused`;
/// `tournament_name` for `tournament.resumed`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TournamentWebhookData {
    pub tournament_id: String,
    pub recipient: WebhookRecipient,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// Value for a `List-Unsubscribe` header.
    pub list_unsubscribe: String,
    pub links: TournamentWebhookLinks,
    #[schema(value_type = Object)]
    #[serde(flatten)]
    pub extra: serde_json::Value,
}

/// The body of a tournament webhook (`tournament.invited`, `tournament.round_started`,
/// `tournament.eliminated`, `tournament.stage_ended`, `tournament.finished`,
/// `tournament.paused`, `tournament.resumed`), signed as
/// every webhook.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TournamentWebhookMessage {
    #[serde(rename = "type")]
    pub type_: String,
    /// RFC 3339 UTC: when the event happened.
    pub timestamp: String,
    pub data: TournamentWebhookData,
}

/// One event of the live stream (`GET /v1/stream`), as its Server-Sent Events fields.
/// Comment lines (`: heartbeat`) and the `retry` field carry no event.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct StreamFrame {
    /// The event's number: send the last one received back as `Last-Event-ID`. Absent
    /// on `stream.reset`.
    pub id: Option<String>,
    /// The event type (`game.move_made`, `game.turn_started`, …, `stream.reset`).
    pub event: Option<String>,
    /// One line of JSON: `{type, timestamp, data}`, the webhook's body without the
    /// email's parts.
    pub data: String,
}
