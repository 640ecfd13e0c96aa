//! Web push subscriptions: one row per browser (device) of a user, what the push API
//! and the notify worker need from the database.
//!
//! A message goes to a subscription when its kind maps to a push kind the subscription
//! wants ([`push_kind_of`]); the worker's fan-out writes one delivery per subscription,
//! a row of `webhook_deliveries` whose endpoint id is [`PUSH_PREFIX`] + the
//! subscription's id, so that pushes share the webhooks' claims, retries, backoff,
//! attempt records and pruning. A push service that answers `404` or `410` has forgotten
//! the subscription: it is deleted ([`delete_gone`]).

use super::conn::lock_user;
use super::conn::transaction;
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::conn::DbConn;
use super::schema::{push_subscriptions, users, webhook_attempts, webhook_deliveries};
use super::{Conflict, DeliveryStatus, Store, StoreError, TxError};

/// The endpoint id of deliveries to a push subscription: this prefix and its id.
pub const PUSH_PREFIX: &str = "push:";

/// The notification kinds a device may want, in the order documents list them, each
/// with the message type it is pushed for.
pub const PUSH_KINDS: &[(&str, &str)] = &[
    ("your_turn", "game.turn_started"),
    ("deadline_near", "game.deadline_near"),
    ("chat", CHAT_MESSAGE),
    ("invitation", "game.invited"),
    ("tournament_round", "tournament.round_started"),
];

/// The message type of a chat line for the other players of a game. It is pushed only:
/// never emailed, never sent to webhook endpoints (not an event type of the API).
pub const CHAT_MESSAGE: &str = "game.chat_posted";

/// Whether a message of this type goes to push subscriptions only.
pub fn is_push_only(kind: &str) -> bool {
    kind == CHAT_MESSAGE
}

/// The push kind a message type is pushed as (None: not pushed).
pub fn push_kind_of(message_kind: &str) -> Option<&'static str> {
    PUSH_KINDS
        .iter()
        .find(|(_, m)| *m == message_kind)
        .map(|(k, _)| *k)
}

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = push_subscriptions)]
pub struct PushSubscriptionRow {
    pub id: String,
    pub user_id: String,
    pub endpoint: String,
    /// base64url of the browser's uncompressed P-256 public key (65 bytes).
    pub p256dh: String,
    /// base64url of the browser's 16-byte authentication secret.
    pub auth: String,
    pub label: String,
    /// JSON array of push kinds.
    pub kinds: String,
    pub created_at: i64,
}

impl PushSubscriptionRow {
    /// The push kinds the device wants (its JSON column parsed).
    pub fn kind_list(&self) -> Result<Vec<String>, StoreError> {
        serde_json::from_str(&self.kinds).map_err(|e| StoreError::Corrupt {
            row: format!("push subscription {}", self.id),
            detail: format!("kinds: {e}"),
        })
    }

    /// The endpoint id of its deliveries.
    pub fn delivery_endpoint(&self) -> String {
        format!("{PUSH_PREFIX}{}", self.id)
    }
}

/// A claimed push delivery's subscription and the language of its user.
#[derive(Clone, Debug)]
pub struct PushTarget {
    pub subscription: PushSubscriptionRow,
    pub locale: String,
}

/// The subscriptions of `user_id` that want messages of `message_kind`, as delivery
/// endpoint ids.
pub(super) fn push_targets(
    c: &mut DbConn,
    user_id: &str,
    message_kind: &str,
) -> Result<Vec<String>, DieselError> {
    let Some(kind) = push_kind_of(message_kind) else {
        return Ok(Vec::new());
    };
    let subs: Vec<PushSubscriptionRow> = push_subscriptions::table
        .filter(push_subscriptions::user_id.eq(user_id))
        .select(PushSubscriptionRow::as_select())
        .load(c)?;
    let mut out = Vec::new();
    for s in subs {
        match s.kind_list() {
            Ok(kinds) if kinds.iter().any(|k| k == kind) => out.push(s.delivery_endpoint()),
            Ok(_) => {}
            // one broken row must not stop the messages to everyone else
            Err(err) => tracing::error!(cause = %err, "push subscription skipped"),
        }
    }
    Ok(out)
}

/// The subscriptions (with their users' locales) of claimed push deliveries.
pub(super) fn targets_of(
    c: &mut DbConn,
    endpoint_ids: &[String],
) -> Result<Vec<PushTarget>, DieselError> {
    let ids: Vec<&str> = endpoint_ids
        .iter()
        .filter_map(|e| e.strip_prefix(PUSH_PREFIX))
        .collect();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<(PushSubscriptionRow, String)> = push_subscriptions::table
        .inner_join(users::table)
        .filter(push_subscriptions::id.eq_any(&ids))
        .select((PushSubscriptionRow::as_select(), users::locale))
        .load(c)?;
    Ok(rows
        .into_iter()
        .map(|(subscription, locale)| PushTarget {
            subscription,
            locale,
        })
        .collect())
}

/// Deletes the deliveries (and their attempts) of a delivery endpoint id.
fn delete_deliveries(c: &mut DbConn, endpoint_id: &str) -> Result<(), DieselError> {
    // Postgres: lock the deliveries first (in the order the worker records attempts), so
    // that an attempt being recorded commits before they are read below, or finds them
    // gone
    if let DbConn::Pg(pg) = c {
        webhook_deliveries::table
            .filter(webhook_deliveries::endpoint_id.eq(endpoint_id))
            .order(webhook_deliveries::id)
            .select(webhook_deliveries::id)
            .for_update()
            .load::<String>(pg)?;
    }
    let ds = webhook_deliveries::table
        .filter(webhook_deliveries::endpoint_id.eq(endpoint_id))
        .select(webhook_deliveries::id);
    diesel::delete(webhook_attempts::table.filter(webhook_attempts::delivery_id.eq_any(ds)))
        .execute(c)?;
    diesel::delete(
        webhook_deliveries::table.filter(webhook_deliveries::endpoint_id.eq(endpoint_id)),
    )
    .execute(c)?;
    Ok(())
}

/// A push service answered that the subscription of `endpoint_id` is gone: delete it,
/// and give up its other pending deliveries (their history stays until it is pruned).
pub(super) fn delete_gone(c: &mut DbConn, endpoint_id: &str) -> Result<(), DieselError> {
    let Some(id) = endpoint_id.strip_prefix(PUSH_PREFIX) else {
        return Ok(());
    };
    diesel::delete(push_subscriptions::table.find(id)).execute(c)?;
    diesel::update(
        webhook_deliveries::table
            .filter(webhook_deliveries::endpoint_id.eq(endpoint_id))
            .filter(webhook_deliveries::status.eq(DeliveryStatus::Pending.as_str())),
    )
    .set(webhook_deliveries::status.eq(DeliveryStatus::Failed.as_str()))
    .execute(c)?;
    Ok(())
}

/// Deletes every subscription of a user (with the account), their deliveries going
/// with the user's.
pub(super) fn delete_all_of(c: &mut DbConn, user_id: &str) -> Result<(), DieselError> {
    diesel::delete(push_subscriptions::table.filter(push_subscriptions::user_id.eq(user_id)))
        .execute(c)?;
    Ok(())
}

impl Store {
    /// Stores a subscription, unless its user has `max` already (counted under the
    /// user's row lock, so that subscriptions created together cannot pass the limit).
    /// An earlier subscription with the same endpoint (the same browser subscribing
    /// again, maybe for another account) is replaced, with its deliveries.
    pub async fn create_push_subscription(
        &self,
        row: PushSubscriptionRow,
        max: i64,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                // a write first: SQLite queues concurrent creations, Postgres locks the user
                if !lock_user(c, &row.user_id)? {
                    return Err(TxError::Store(StoreError::UnknownUser));
                }
                let earlier: Vec<String> = push_subscriptions::table
                    .filter(push_subscriptions::endpoint.eq(&row.endpoint))
                    .select(push_subscriptions::id)
                    .load(c)?;
                for id in &earlier {
                    delete_deliveries(c, &format!("{PUSH_PREFIX}{id}"))?;
                    diesel::delete(push_subscriptions::table.find(id)).execute(c)?;
                }
                let have: i64 = push_subscriptions::table
                    .filter(push_subscriptions::user_id.eq(&row.user_id))
                    .count()
                    .get_result(c)?;
                if have >= max {
                    return Err(TxError::Store(StoreError::Conflict(
                        Conflict::PushSubscriptionLimitReached,
                    )));
                }
                diesel::insert_into(push_subscriptions::table)
                    .values(&row)
                    .execute(c)?;
                Ok(())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// A page of a user's subscriptions, newest first (after the key `(created_at, id)`
    /// of the last one seen).
    pub async fn push_subscriptions_of(
        &self,
        user_id: String,
        after: Option<(i64, String)>,
        limit: i64,
    ) -> Result<super::Page<PushSubscriptionRow, (i64, String)>, StoreError> {
        self.run(move |c| {
            let mut q = push_subscriptions::table
                .filter(push_subscriptions::user_id.eq(user_id))
                .into_boxed();
            if let Some((t, id)) = after {
                q = q.filter(
                    push_subscriptions::created_at
                        .lt(t)
                        .or(push_subscriptions::created_at
                            .eq(t)
                            .and(push_subscriptions::id.lt(id))),
                );
            }
            let rows: Vec<PushSubscriptionRow> = q
                .order((
                    push_subscriptions::created_at.desc(),
                    push_subscriptions::id.desc(),
                ))
                .limit(limit + 1)
                .select(PushSubscriptionRow::as_select())
                .load(c)?;
            Ok(super::page::page_of(rows, limit, |r| {
                (r.created_at, r.id.clone())
            }))
        })
        .await
    }

    /// Changes a subscription's kinds and label (each when given); None when the user
    /// has no such subscription.
    pub async fn update_push_subscription(
        &self,
        user_id: String,
        id: String,
        kinds: Option<String>,
        label: Option<String>,
    ) -> Result<Option<PushSubscriptionRow>, StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                let mine = push_subscriptions::table
                    .filter(push_subscriptions::user_id.eq(&user_id))
                    .filter(push_subscriptions::id.eq(&id));
                if let Some(k) = kinds {
                    diesel::update(mine)
                        .set(push_subscriptions::kinds.eq(k))
                        .execute(c)?;
                }
                if let Some(l) = label {
                    diesel::update(mine)
                        .set(push_subscriptions::label.eq(l))
                        .execute(c)?;
                }
                mine.select(PushSubscriptionRow::as_select())
                    .first(c)
                    .optional()
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// Deletes a subscription with its deliveries and their attempts; false when the
    /// user has no such subscription.
    pub async fn delete_push_subscription(
        &self,
        user_id: String,
        id: String,
    ) -> Result<bool, StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                // a write first, so that SQLite takes its lock before reading
                let n = diesel::delete(
                    push_subscriptions::table
                        .filter(push_subscriptions::user_id.eq(&user_id))
                        .filter(push_subscriptions::id.eq(&id)),
                )
                .execute(c)?;
                if n == 0 {
                    return Ok(false);
                }
                delete_deliveries(c, &format!("{PUSH_PREFIX}{id}"))?;
                Ok::<_, DieselError>(true)
            })
            .map_err(StoreError::from)
        })
        .await
    }
}
