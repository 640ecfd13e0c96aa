//! Web push: the server's application key and the caller's push subscriptions (one per
//! browser or device).

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// The key a browser needs to subscribe.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PushKey {
    /// The server's VAPID public key (RFC 8292): base64url (no padding) of the
    /// uncompressed P-256 point, 65 bytes. Pass it as `applicationServerKey` to
    /// `pushManager.subscribe`.
    #[schema(
        example = "BOr4h0BVgqmTTq8C1LqLgTUJ6o7SNJ-9cWmQ3yuHi5-rRbOX7f1oNfUKQj1Z6XJ6OjGWfSktGh4RkHvtIBuT4Dk"
    )]
    pub public_key: String,
    /// The push kinds a subscription may ask for.
    pub kinds: Vec<String>,
}

/// The browser's keys of a subscription, as `PushSubscription.toJSON()` gives them.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PushKeys {
    /// base64url of the browser's uncompressed P-256 public key (65 bytes).
    #[schema(max_length = 128)]
    pub p256dh: String,
    /// base64url of the browser's 16-byte authentication secret.
    #[schema(max_length = 64)]
    pub auth: String,
}

/// A new push subscription: what `pushManager.subscribe` returned, a label, and the kinds
/// of notification the device wants.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreatePushSubscriptionRequest {
    /// The push service's URL for this browser (https).
    #[schema(
        max_length = 2048,
        example = "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91b"
    )]
    pub endpoint: String,
    /// Ignored when given: the server picks how long each notification lives.
    #[serde(default, rename = "expirationTime")]
    #[schema(value_type = Option<f64>)]
    pub expiration_time: Option<serde_json::Value>,
    pub keys: PushKeys,
    /// A name for the device, shown in the list (1 to 64 characters; default `browser`).
    #[schema(min_length = 1, max_length = 64, example = "phone")]
    pub label: Option<String>,
    /// The kinds to push (`your_turn`, `deadline_near`, `chat`, `invitation`, `tournament_round`); default all.
    #[schema(example = json!(["your_turn", "deadline_near"]))]
    pub kinds: Option<Vec<String>>,
}

/// Changes to a push subscription; fields not given stay as they are.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdatePushSubscriptionRequest {
    /// A new name for the device (1 to 64 characters, no control characters).
    #[schema(min_length = 1, max_length = 64)]
    pub label: Option<String>,
    /// The kinds to push; an empty list pauses the device.
    pub kinds: Option<Vec<String>>,
}

/// A push subscription. The browser's keys are not shown again.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PushSubscriptionView {
    pub id: String,
    pub endpoint: String,
    pub label: String,
    pub kinds: Vec<String>,
    /// RFC 3339 UTC.
    pub created_at: String,
}

/// A page of push subscriptions, newest first.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PushSubscriptionList {
    pub subscriptions: Vec<PushSubscriptionView>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

/// Paging of the subscription list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PushSubscriptionsQuery {
    /// Opaque cursor from `next_cursor`.
    pub cursor: Option<String>,
    /// 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}
