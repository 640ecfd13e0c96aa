//! Notification settings: the caller's webhook endpoints (create with a secret shown
//! once, list, delete, rotate the secret, recent deliveries, redeliver one), email
//! switches per event type, and the unsubscribe link that works without logging in.
//! Also the `webhooks` section of the OpenAPI document (the payloads' schemas are in
//! [`super::dto::webhooks`]).

use actix_web::{delete, get, patch, post, web, HttpResponse};

use super::dto::*;
use super::error::{ApiError, ProblemCode};
use super::extract::{ApiJson, CurrentUser, DeliveryId, WebhookId};
use super::AppState;
use crate::clock::rfc3339;
use crate::notify::{guard, sign, EVENT_TYPES};
use crate::store::{DeliveryInfo, EndpointRow};

const MAX_ENDPOINTS: usize = 10;

// ----- webhook payloads (documented under `webhooks`) ---------------------------------

// ----- helpers -------------------------------------------------------------------------

pub(crate) fn view(e: &EndpointRow, with_secret: bool) -> Result<WebhookView, ApiError> {
    Ok(WebhookView {
        id: e.id.clone(),
        url: e.url.clone(),
        event_types: e.types()?,
        enabled: e.enabled != 0,
        disabled_reason: e.disabled_reason.clone(),
        created_at: rfc3339(e.created_at),
        secret: with_secret.then(|| e.secret.clone()),
    })
}

fn delivery_view(d: &DeliveryInfo) -> DeliveryView {
    let r = &d.delivery;
    DeliveryView {
        id: r.id.clone(),
        webhook_id: r.outbox_id.clone(),
        event_type: d.kind.clone(),
        status: d.status,
        attempts: r.attempts,
        next_attempt_at: (d.status == DeliveryStatus::Pending).then(|| rfc3339(r.next_attempt_at)),
        delivered_at: r.delivered_at.map(rfc3339),
        last_status: r.last_status,
        created_at: rfc3339(r.created_at),
        attempt_log: d
            .attempts
            .iter()
            .map(|a| AttemptView {
                at: rfc3339(a.attempted_at),
                status: a.http_status,
                duration_ms: a.duration_ms,
                error: a.error.clone(),
                excerpt: a.excerpt.clone(),
            })
            .collect(),
    }
}

fn webhook_not_found() -> ApiError {
    ApiError::new(
        ProblemCode::WebhookNotFound,
        "you have no webhook with this id",
    )
}

fn check_types(types: &[String]) -> Result<(), ApiError> {
    if types.is_empty() || types.len() > 16 {
        return Err(ApiError::validation("event_types", "1 to 16 event types"));
    }
    for (i, t) in types.iter().enumerate() {
        if t != "*" && !EVENT_TYPES.contains(&t.as_str()) {
            return Err(ApiError::validation(
                format!("event_types[{i}]"),
                format!("unknown event type; one of {} or *", EVENT_TYPES.join(", ")),
            ));
        }
    }
    Ok(())
}

async fn my_endpoint(
    st: &AppState,
    me: &CurrentUser,
    id: &WebhookId,
) -> Result<EndpointRow, ApiError> {
    st.store
        .endpoint_of(me.id.clone(), id.as_str().to_string())
        .await?
        .ok_or_else(webhook_not_found)
}

// ----- handlers ------------------------------------------------------------------------

/// Add a webhook endpoint; the answer shows its signing secret, once.
///
/// The server POSTs each message of the chosen event types (or `*`: all) to the URL,
/// signed per Standard Webhooks with the endpoint's secret (the `webhooks` section of
/// this document describes the messages). The URL must reach a public address:
/// loopback, link-local and private addresses are refused. A user has at most 10
/// endpoints, and creations are limited per day (`TILEPOST_WEBHOOKS_PER_DAY`).
#[utoipa::path(
    operation_id = "create_webhook",
    tag = "notifications",
    request_body = CreateWebhookRequest,
    security(("bearer" = ["webhooks"])),
    responses(
        (status = 201, description = "The endpoint, with its secret (shown only now); `RateLimit-*` headers say how many more may be created today", body = WebhookView),
    )
)]
#[post("/users/me/webhooks")]
pub async fn create_webhook(
    st: web::Data<AppState>,
    me: CurrentUser,
    body: ApiJson<CreateWebhookRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    let url = guard::parse_url(r.url.trim()).map_err(|m| ApiError::validation("url", m))?;
    check_types(&r.event_types)?;
    guard::check_url(&url, st.config.webhook_allow_private)
        .await
        .map_err(|m| {
            ApiError::new(ProblemCode::WebhookUrlNotAllowed, m).with_field("url", "not allowed")
        })?;
    let reservation = super::limits::reserve(
        &st,
        super::limits::per_user(&st, super::limits::UserQuota::Webhooks, &me.id),
    )
    .await?;
    let mut types = r.event_types;
    types.sort();
    types.dedup();
    let row = EndpointRow {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: me.id.clone(),
        url: url.to_string(),
        secret: sign::new_secret(),
        event_types: serde_json::to_string(&types).map_err(ApiError::internal)?,
        enabled: 1,
        disabled_reason: None,
        created_at: st.clock.now_ms(),
    };
    // a token whose user no longer exists gets `401` (`StoreError::UnknownUser`); at
    // most MAX_ENDPOINTS at once, counted in the transaction that adds one
    if let Err(e) = st
        .store
        .create_endpoint(row.clone(), MAX_ENDPOINTS as i64)
        .await
    {
        reservation.release(&st).await;
        return Err(e.into());
    }
    let quota = reservation.keep();
    let mut resp = HttpResponse::Created()
        .insert_header(("Location", format!("/v1/users/me/webhooks/{}", row.id)))
        .insert_header(("Cache-Control", "no-store"))
        .json(view(&row, true)?);
    quota.apply(&mut resp);
    Ok(resp)
}

/// The caller's webhook endpoints (without secrets).
///
/// Each endpoint's URL, event types, creation time, and whether it is enabled (an
/// endpoint that answered `410 Gone` is disabled, with the reason, until its secret is
/// rotated).
#[utoipa::path(
    operation_id = "list_webhooks",
    tag = "notifications",
    security(("bearer" = ["webhooks"])),
    responses(
        (status = 200, description = "The endpoints", body = WebhookList),
    )
)]
#[get("/users/me/webhooks")]
pub async fn list_webhooks(
    st: web::Data<AppState>,
    me: CurrentUser,
) -> Result<HttpResponse, ApiError> {
    let rows = st.store.endpoints_of(me.id).await?;
    Ok(HttpResponse::Ok().json(WebhookList {
        webhooks: rows
            .iter()
            .map(|e| view(e, false))
            .collect::<Result<Vec<_>, _>>()?,
    }))
}

/// Remove a webhook endpoint with its delivery history.
///
/// No message is sent to it any more, including retries of earlier ones; its deliveries
/// and their attempts are deleted.
#[utoipa::path(
    operation_id = "delete_webhook",
    tag = "notifications",
    params(("id" = String, Path, description = "Webhook id")),
    security(("bearer" = ["webhooks"])),
    responses(
        (status = 204, description = "The endpoint is gone"),
    )
)]
#[delete("/users/me/webhooks/{id}")]
pub async fn delete_webhook(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: WebhookId,
) -> Result<HttpResponse, ApiError> {
    if !st.store.delete_endpoint(me.id, id.into_inner()).await? {
        return Err(webhook_not_found());
    }
    Ok(HttpResponse::NoContent().finish())
}

/// Replace an endpoint's signing secret and enable it again.
///
/// The old secret stops signing at once; the new one is in this answer only. An
/// endpoint disabled by a `410 Gone` answer is enabled again.
#[utoipa::path(
    operation_id = "rotate_webhook_secret",
    tag = "notifications",
    params(("id" = String, Path, description = "Webhook id")),
    security(("bearer" = ["webhooks"])),
    responses(
        (status = 200, description = "The endpoint with its new secret (shown only now)", body = WebhookView),
    )
)]
#[post("/users/me/webhooks/{id}/rotate-secret")]
pub async fn rotate_webhook_secret(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: WebhookId,
) -> Result<HttpResponse, ApiError> {
    my_endpoint(&st, &me, &id).await?;
    let row = st
        .store
        .rotate_endpoint_secret(me.id, id.into_inner(), sign::new_secret())
        .await?
        .ok_or_else(webhook_not_found)?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(view(&row, true)?))
}

/// Recent deliveries to an endpoint, newest first, with every attempt.
///
/// Each delivery's message id and type, its state (pending with the next attempt's
/// time, delivered or failed) and every attempt with its time, HTTP status, duration,
/// error and the start of the answer; paged with `cursor`.
#[utoipa::path(
    operation_id = "list_webhook_deliveries",
    tag = "notifications",
    params(("id" = String, Path, description = "Webhook id"), DeliveriesQuery),
    security(("bearer" = ["webhooks"])),
    responses(
        (status = 200, description = "The deliveries", body = DeliveryList),
    )
)]
#[get("/users/me/webhooks/{id}/deliveries")]
pub async fn list_webhook_deliveries(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: WebhookId,
    q: web::Query<DeliveriesQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = super::paging::limit(q.limit)?;
    let after = q
        .cursor
        .as_deref()
        .map(super::paging::parse_delivery_cursor)
        .transpose()?;
    let e = my_endpoint(&st, &me, &id).await?;
    let page = st.store.deliveries_of(e.id, after, limit).await?;
    Ok(HttpResponse::Ok().json(DeliveryList {
        deliveries: page.rows.iter().map(delivery_view).collect(),
        next_cursor: page.next.as_ref().map(super::paging::delivery_cursor),
    }))
}

/// Deliver a message again now, whatever its state.
///
/// The delivery becomes pending and is attempted at once, with the same `webhook-id`
/// (so a receiver that keeps ids can drop it as a duplicate) and a fresh timestamp and
/// signature.
#[utoipa::path(
    operation_id = "redeliver_webhook_delivery",
    tag = "notifications",
    params(
        ("id" = String, Path, description = "Webhook id"),
        ("delivery_id" = String, Path, description = "Delivery id"),
    ),
    security(("bearer" = ["webhooks"])),
    responses(
        (status = 202, description = "The delivery is queued", body = DeliveryView),
    )
)]
#[post("/users/me/webhooks/{id}/deliveries/{delivery_id}/redeliver")]
pub async fn redeliver_webhook_delivery(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: WebhookId,
    delivery_id: DeliveryId,
) -> Result<HttpResponse, ApiError> {
    let e = my_endpoint(&st, &me, &id).await?;
    let not_found = || {
        ApiError::new(
            ProblemCode::DeliveryNotFound,
            "this endpoint has no such delivery",
        )
    };
    let d = st
        .store
        .redeliver(e.id, delivery_id.into_inner(), st.clock.now_ms())
        .await?
        .ok_or_else(not_found)?;
    st.notifier.wake();
    let info = DeliveryInfo {
        delivery: d,
        // `redeliver` has just made it pending again
        status: DeliveryStatus::Pending,
        kind: String::new(),
        attempts: Vec::new(),
    };
    let mut v = delivery_view(&info);
    if let Some(found) = st
        .store
        .delivery_info(info.delivery.endpoint_id.clone(), info.delivery.id.clone())
        .await?
    {
        v = delivery_view(&found);
    }
    Ok(HttpResponse::Accepted().json(v))
}

async fn settings_of(st: &AppState, user_id: &str) -> Result<NotificationSettings, ApiError> {
    let prefs = st
        .store
        .email_prefs(
            user_id.to_string(),
            EVENT_TYPES.iter().map(|s| s.to_string()).collect(),
        )
        .await?;
    let chosen = st
        .store
        .reminder_hours(vec![user_id.to_string()])
        .await?
        .remove(user_id);
    let reminder_default = chosen.is_none();
    let reminder_hours = chosen.unwrap_or_else(|| {
        let secs = st.config.reminder_before_secs;
        if secs > 0 {
            // the default in whole hours (at least one)
            vec![(secs / 3600).max(1)]
        } else {
            Vec::new()
        }
    });
    Ok(NotificationSettings {
        email: prefs.into_iter().collect(),
        reminder_hours,
        reminder_default,
    })
}

/// The caller's email switches per event type.
///
/// Whether each event type (`game.turn_started`, `game.invited`, …) is sent to the
/// caller by email. Webhook endpoints choose their event types apart from these.
#[utoipa::path(
    operation_id = "get_notification_settings",
    tag = "notifications",
    security(("bearer" = ["account"])),
    responses(
        (status = 200, description = "The switches", body = NotificationSettings),
    )
)]
#[get("/users/me/notifications")]
pub async fn get_notification_settings(
    st: web::Data<AppState>,
    me: CurrentUser,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(settings_of(&st, &me.id).await?))
}

/// Turn email of some event types on or off, and choose the reminders.
///
/// Types not listed stay as they are. This is what an unsubscribe link changes too;
/// webhook endpoints are not affected. `reminder_hours`, when given, replaces the hours
/// before each deadline when a reminder goes out.
#[utoipa::path(
    operation_id = "update_notification_settings",
    tag = "notifications",
    request_body = NotificationChanges,
    security(("bearer" = ["account"])),
    responses(
        (status = 200, description = "The switches after the change", body = NotificationSettings),
    )
)]
#[patch("/users/me/notifications")]
pub async fn update_notification_settings(
    st: web::Data<AppState>,
    me: CurrentUser,
    body: ApiJson<NotificationChanges>,
) -> Result<HttpResponse, ApiError> {
    if let Some(Some(hours)) = &body.0.reminder_hours {
        let mut sorted = hours.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if hours.len() > 5
            || sorted.len() != hours.len()
            || hours.iter().any(|h| !(1..=336).contains(h))
        {
            return Err(ApiError::validation(
                "reminder_hours",
                "at most 5 distinct whole hours from 1 to 336",
            ));
        }
    }
    for k in body.0.email.keys() {
        if !EVENT_TYPES.contains(&k.as_str()) {
            return Err(ApiError::validation(
                format!("email.{k}"),
                format!("unknown event type; one of {}", EVENT_TYPES.join(", ")),
            ));
        }
    }
    let NotificationChanges {
        email,
        reminder_hours,
    } = body.0;
    if !email.is_empty() {
        st.store
            .set_email_prefs(me.id.clone(), email.into_iter().collect())
            .await?;
    }
    if let Some(hours) = reminder_hours {
        let hours = hours.map(|mut h| {
            h.sort_unstable_by(|a, b| b.cmp(a));
            h
        });
        st.store.set_reminder_hours(me.id.clone(), hours).await?;
    }
    Ok(HttpResponse::Ok().json(settings_of(&st, &me.id).await?))
}

async fn unsubscribe(st: &AppState, token: &str) -> Result<HttpResponse, ApiError> {
    let bad = || {
        ApiError::new(
            ProblemCode::InvalidUnsubscribeToken,
            "the unsubscribe link is not valid",
        )
    };
    if token.len() > 512 {
        return Err(bad());
    }
    let u = sign::verify_unsubscribe(st.notifier.unsubscribe_key(), token).ok_or_else(bad)?;
    let types: Vec<String> = if u.event_type == "*" {
        EVENT_TYPES.iter().map(|s| s.to_string()).collect()
    } else if EVENT_TYPES.contains(&u.event_type.as_str()) {
        vec![u.event_type.clone()]
    } else {
        return Err(bad());
    };
    if st.store.user_by_id(u.user_id.clone()).await?.is_none() {
        return Err(bad());
    }
    st.store
        .set_email_prefs(
            u.user_id,
            types.iter().map(|t| (t.clone(), false)).collect(),
        )
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(UnsubscribeResult {
            unsubscribed: types,
            settings: format!("{}/v1/users/me/notifications", st.notifier.public_url),
        }))
}

/// Turn off email of one type (or all) with a signed link; no login.
///
/// Each email carries a link with a signed token naming the user and the event type (or
/// `*`). Opening it turns that email off; the answer lists the types turned off and
/// where the settings are.
#[utoipa::path(
    operation_id = "get_unsubscribe",
    tag = "notifications",
    params(UnsubscribeQuery),
    security(()),
    responses(
        (status = 200, description = "Email of the link's type is off", body = UnsubscribeResult),
    )
)]
#[get("/unsubscribe")]
pub async fn get_unsubscribe(
    st: web::Data<AppState>,
    q: web::Query<UnsubscribeQuery>,
) -> Result<HttpResponse, ApiError> {
    unsubscribe(&st, &q.token).await
}

/// One-click unsubscribe (RFC 8058); no login.
///
/// Mail clients POST to the `List-Unsubscribe` link of an email; the signed token names
/// the user and the event type (or `*`), and that email is turned off, as with
/// `GET /v1/unsubscribe`.
#[utoipa::path(
    operation_id = "create_unsubscribe",
    tag = "notifications",
    params(UnsubscribeQuery),
    security(()),
    responses(
        (status = 200, description = "Email of the link's type is off", body = UnsubscribeResult),
    )
)]
#[post("/unsubscribe")]
pub async fn create_unsubscribe(
    st: web::Data<AppState>,
    q: web::Query<UnsubscribeQuery>,
) -> Result<HttpResponse, ApiError> {
    unsubscribe(&st, &q.token).await
}

/// The `webhooks` section of the OpenAPI document: one entry per event type, each a POST
/// of a [`WebhookMessage`] with the Standard Webhooks headers.
pub fn openapi_webhooks() -> serde_json::Value {
    let mut out = serde_json::Map::new();
    for t in EVENT_TYPES.iter().chain(crate::notify::ACCOUNT_EVENT_TYPES) {
        let to = if crate::notify::ACCOUNT_EVENT_TYPES.contains(t) {
            "Sent to the email relay only (never to a user's own endpoints): a message for the account's owner (a single-use link, or the notice that the password changed and what was revoked), without an unsubscribe link. See docs/notifications.md."
        } else {
            "Sent to the email relay (one message per recipient with a confirmed email address) and to every endpoint of the recipient subscribed to this type. See docs/notifications.md."
        };
        out.insert(
            t.to_string(),
            serde_json::json!({"post": {
                "operationId": format!("webhook_{}", t.replace('.', "_")),
                "summary": format!("`{t}` message"),
                "description": format!("{to} It carries no credential of a security scheme (`security: []`): it is signed per Standard Webhooks, and the receiver checks `webhook-signature` with the endpoint's secret, and that `webhook-timestamp` is recent, before trusting the body."),
                "tags": ["notifications"],
                // the server sends these: no token of a security scheme; the receiver
                // checks the Standard Webhooks signature headers below
                "security": [],
                "parameters": [
                    {"name": "webhook-id", "in": "header", "required": true, "description": "Message id, the same on every retry", "schema": {"type": "string"}},
                    {"name": "webhook-timestamp", "in": "header", "required": true, "description": "Unix seconds of this attempt", "schema": {"type": "string"}},
                    {"name": "webhook-signature", "in": "header", "required": true, "description": "`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the secret's key", "schema": {"type": "string"}},
                ],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": if t.starts_with("tournament.") { "#/components/schemas/TournamentWebhookMessage" } else { "#/components/schemas/WebhookMessage" }}}}},
                "responses": {
                    "2XX": {"description": "Received; not sent again"},
                    "410": {"description": "Gone: the endpoint is disabled"},
                    "429": {"description": "Retried after `Retry-After`"},
                    "default": {"description": "Retried with exponential backoff for about three days"},
                },
            }}),
        );
    }
    serde_json::Value::Object(out)
}

crate::api::problem::problems! {
    "create_webhook" {
        400 => ("Invalid fields (" [ValidationFailed] ")"),
        409 => ("The caller has the maximum number of endpoints (" [WebhookLimitReached] ")"),
        422 => ("The URL points to a loopback, link-local or private address, or does not resolve (" [WebhookUrlNotAllowed] ")"),
        429 => ("Too many endpoints created today (" [RateLimited] ", `TILEPOST_WEBHOOKS_PER_DAY`); `Retry-After` says when to retry"),
    }
    "delete_webhook" {
        404 => ("The caller has no such endpoint (" [WebhookNotFound] ")"),
    }
    "rotate_webhook_secret" {
        404 => ("The caller has no such endpoint (" [WebhookNotFound] ")"),
    }
    "list_webhook_deliveries" {
        400 => ("Invalid query (" [ValidationFailed] ")"),
        404 => ("The caller has no such endpoint (" [WebhookNotFound] ")"),
    }
    "redeliver_webhook_delivery" {
        404 => ("No such endpoint or delivery (" [WebhookNotFound, DeliveryNotFound] ")"),
    }
    "update_notification_settings" {
        400 => ("Invalid fields (" [ValidationFailed] ")"),
    }
    "get_unsubscribe" {
        400 => ("The token is missing or not valid (" [ValidationFailed, InvalidUnsubscribeToken] ")"),
    }
    "create_unsubscribe" {
        400 => ("The token is missing or not valid (" [ValidationFailed, InvalidUnsubscribeToken] ")"),
    }
}
