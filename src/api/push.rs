//! Web push: the server's application key (VAPID, RFC 8292) and the caller's push
//! subscriptions, one per browser or device, each with the kinds of notification it
//! wants. The notify worker pushes the messages (see [`crate::notify::push`]).

use actix_web::{delete, get, patch, post, web, HttpResponse};

use super::dto::*;
use super::error::{ApiError, ProblemCode};
use super::extract::{ApiJson, CurrentUser, PushSubscriptionId};
use super::AppState;
use crate::clock::rfc3339;
use crate::notify::guard;
use crate::store::{PushSubscriptionRow, PUSH_KINDS};

/// Subscriptions one user may have at once.
const MAX_SUBSCRIPTIONS: i64 = 10;

fn all_kinds() -> Vec<String> {
    PUSH_KINDS.iter().map(|(k, _)| k.to_string()).collect()
}

fn view(r: &PushSubscriptionRow) -> Result<PushSubscriptionView, ApiError> {
    Ok(PushSubscriptionView {
        id: r.id.clone(),
        endpoint: r.endpoint.clone(),
        label: r.label.clone(),
        kinds: r.kind_list()?,
        created_at: rfc3339(r.created_at),
    })
}

fn not_found() -> ApiError {
    ApiError::new(
        ProblemCode::PushSubscriptionNotFound,
        "you have no push subscription with this id",
    )
}

/// The kinds, checked, sorted and without repeats, as stored.
fn check_kinds(kinds: Vec<String>) -> Result<String, ApiError> {
    if kinds.len() > 16 {
        return Err(ApiError::validation("kinds", "at most 16 kinds"));
    }
    for (i, k) in kinds.iter().enumerate() {
        if !PUSH_KINDS.iter().any(|(p, _)| p == k) {
            return Err(ApiError::validation(
                format!("kinds[{i}]"),
                format!("unknown kind; one of {}", all_kinds().join(", ")),
            ));
        }
    }
    // in the documents' order
    let kinds: Vec<&str> = PUSH_KINDS
        .iter()
        .map(|(p, _)| *p)
        .filter(|p| kinds.iter().any(|k| k == p))
        .collect();
    serde_json::to_string(&kinds).map_err(ApiError::internal)
}

fn check_label(label: &str) -> Result<String, ApiError> {
    let l = label.trim();
    let n = l.chars().count();
    if n == 0 || n > 64 || l.chars().any(char::is_control) {
        return Err(ApiError::validation(
            "label",
            "1 to 64 characters, no control characters",
        ));
    }
    Ok(l.to_string())
}

/// The endpoint, checked: an https URL whose host is not an internal IP literal; plain
/// http only on a loopback literal, and only where `TILEPOST_PUSH_ALLOW_LOOPBACK` is on.
fn check_endpoint(st: &AppState, endpoint: &str) -> Result<String, ApiError> {
    let url = guard::parse_url(endpoint.trim()).map_err(|m| ApiError::validation("endpoint", m))?;
    let loopback_ok = st.config.push_allow_loopback && guard::is_loopback_host(&url);
    if url.scheme() != "https" && !loopback_ok {
        return Err(ApiError::validation("endpoint", "must be an https URL"));
    }
    if !loopback_ok && !st.config.webhook_allow_private {
        if let Some(why) = guard::host_ip(&url).and_then(guard::internal) {
            return Err(ApiError::validation(
                "endpoint",
                format!("the address is not allowed: {why}"),
            ));
        }
    }
    Ok(url.to_string())
}

/// The server's public key for `pushManager.subscribe`.
///
/// The application server key (VAPID, RFC 8292) that a browser needs to subscribe to
/// pushes from this server, and the kinds a subscription may ask for. The same for every
/// caller; it changes only when the operator replaces the key (every subscription must
/// then be made again).
#[utoipa::path(
    operation_id = "get_push_key",
    tag = "notifications",
    security(()),
    responses(
        (status = 200, description = "The key", body = PushKey),
    )
)]
#[get("/push/key")]
pub async fn get_push_key(st: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let vapid = st
        .notifier
        .vapid()
        .ok_or_else(|| ApiError::internal("web push has no VAPID key"))?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "public, max-age=3600"))
        .json(PushKey {
            public_key: vapid.public_key().to_string(),
            kinds: all_kinds(),
        }))
}

/// Subscribe a browser to pushes.
///
/// Takes what `pushManager.subscribe` gave (`PushSubscription.toJSON()`: the endpoint and
/// the keys), a label for the device and the kinds it wants. The server then pushes a
/// notification (title, text and the game's link, encrypted for the browser) for each
/// message of those kinds. An endpoint belongs to one subscription: subscribing it again
/// (the same browser, maybe for another account) replaces the earlier one. A user has
/// at most 10 subscriptions, and creations are limited per day
/// (`TILEPOST_PUSH_SUBSCRIPTIONS_PER_DAY`).
#[utoipa::path(
    operation_id = "create_push_subscription",
    tag = "notifications",
    request_body = CreatePushSubscriptionRequest,
    security(("bearer" = ["account"])),
    responses(
        (status = 201, description = "The subscription; `RateLimit-*` headers say how many more may be created today", body = PushSubscriptionView),
    )
)]
#[post("/users/me/push-subscriptions")]
pub async fn create_push_subscription(
    st: web::Data<AppState>,
    me: CurrentUser,
    body: ApiJson<CreatePushSubscriptionRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    let endpoint = check_endpoint(&st, &r.endpoint)?;
    if r.keys.p256dh.len() > 128 || r.keys.auth.len() > 64 {
        return Err(ApiError::validation("keys", "too long"));
    }
    crate::notify::push::check_keys(&r.keys.p256dh, &r.keys.auth).map_err(|e| match e {
        crate::notify::push::PushError::Keys("auth") => {
            ApiError::validation("keys.auth", "base64url of 16 bytes")
        }
        _ => ApiError::validation(
            "keys.p256dh",
            "base64url of an uncompressed P-256 public key (65 bytes)",
        ),
    })?;
    let label = check_label(r.label.as_deref().unwrap_or("browser"))?;
    let kinds = check_kinds(r.kinds.unwrap_or_else(all_kinds))?;
    let reservation = super::limits::reserve(
        &st,
        super::limits::per_user(&st, super::limits::UserQuota::PushSubscriptions, &me.id),
    )
    .await?;
    let row = PushSubscriptionRow {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: me.id.clone(),
        endpoint,
        p256dh: r.keys.p256dh.trim().trim_end_matches('=').to_string(),
        auth: r.keys.auth.trim().trim_end_matches('=').to_string(),
        label,
        kinds,
        created_at: st.clock.now_ms(),
    };
    if let Err(e) = st
        .store
        .create_push_subscription(row.clone(), MAX_SUBSCRIPTIONS)
        .await
    {
        reservation.release(&st).await;
        return Err(e.into());
    }
    let quota = reservation.keep();
    let mut resp = HttpResponse::Created()
        .insert_header((
            "Location",
            format!("/v1/users/me/push-subscriptions/{}", row.id),
        ))
        .insert_header(("Cache-Control", "no-store"))
        .json(view(&row)?);
    quota.apply(&mut resp);
    Ok(resp)
}

/// The caller's push subscriptions, newest first.
///
/// Each device's endpoint, label, kinds and creation time, paged with `cursor`. A
/// subscription the push service has forgotten (it answered `404` or `410`) is gone from
/// the list.
#[utoipa::path(
    operation_id = "list_push_subscriptions",
    tag = "notifications",
    params(PushSubscriptionsQuery),
    security(("bearer" = ["account"])),
    responses(
        (status = 200, description = "A page of subscriptions", body = PushSubscriptionList),
    )
)]
#[get("/users/me/push-subscriptions")]
pub async fn list_push_subscriptions(
    st: web::Data<AppState>,
    me: CurrentUser,
    q: web::Query<PushSubscriptionsQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = super::paging::limit(q.limit)?;
    let after = q
        .cursor
        .as_deref()
        .map(super::paging::parse_push_cursor)
        .transpose()?;
    let page = st.store.push_subscriptions_of(me.id, after, limit).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(PushSubscriptionList {
            subscriptions: page.rows.iter().map(view).collect::<Result<_, _>>()?,
            next_cursor: page.next.as_ref().map(super::paging::push_cursor),
        }))
}

/// Change a push subscription's kinds or label.
///
/// What the settings page's switches per device and kind do; an empty list of kinds
/// keeps the subscription but pushes nothing to it.
#[utoipa::path(
    operation_id = "update_push_subscription",
    tag = "notifications",
    params(("id" = String, Path, description = "Push subscription id")),
    request_body = UpdatePushSubscriptionRequest,
    security(("bearer" = ["account"])),
    responses(
        (status = 200, description = "The subscription after the change", body = PushSubscriptionView),
    )
)]
#[patch("/users/me/push-subscriptions/{id}")]
pub async fn update_push_subscription(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: PushSubscriptionId,
    body: ApiJson<UpdatePushSubscriptionRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    let label = r.label.as_deref().map(check_label).transpose()?;
    let kinds = r.kinds.map(check_kinds).transpose()?;
    let row = st
        .store
        .update_push_subscription(me.id, id.into_inner(), kinds, label)
        .await?
        .ok_or_else(not_found)?;
    Ok(HttpResponse::Ok().json(view(&row)?))
}

/// Unsubscribe a device.
///
/// Nothing more is pushed to it, including retries of earlier notifications. The
/// browser's own subscription stays until the page calls `unsubscribe()`.
#[utoipa::path(
    operation_id = "delete_push_subscription",
    tag = "notifications",
    params(("id" = String, Path, description = "Push subscription id")),
    security(("bearer" = ["account"])),
    responses(
        (status = 204, description = "The subscription is gone"),
    )
)]
#[delete("/users/me/push-subscriptions/{id}")]
pub async fn delete_push_subscription(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: PushSubscriptionId,
) -> Result<HttpResponse, ApiError> {
    if !st
        .store
        .delete_push_subscription(me.id, id.into_inner())
        .await?
    {
        return Err(not_found());
    }
    Ok(HttpResponse::NoContent().finish())
}

crate::api::problem::problems! {
    "create_push_subscription" {
        400 => ("Invalid fields (" [ValidationFailed] "): an endpoint that is not https, keys of the wrong length or not on the curve, an unknown kind"),
        409 => ("The caller has the maximum number of subscriptions (" [PushSubscriptionLimitReached] ")"),
        429 => ("Too many subscriptions created today (" [RateLimited] ", `TILEPOST_PUSH_SUBSCRIPTIONS_PER_DAY`); `Retry-After` says when to retry"),
    }
    "list_push_subscriptions" {
        400 => ("Invalid paging (" [ValidationFailed] ")"),
    }
    "update_push_subscription" {
        400 => ("Invalid fields (" [ValidationFailed] ")"),
        404 => ("The caller has no such subscription (" [PushSubscriptionNotFound] ")"),
    }
    "delete_push_subscription" {
        404 => ("The caller has no such subscription (" [PushSubscriptionNotFound] ")"),
    }
}
