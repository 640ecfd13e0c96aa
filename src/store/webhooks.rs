//! Webhook endpoints, deliveries and attempts, and email preferences: what the notify
//! worker and the webhook API need from the database.
//!
//! An outbox row is one message to one user. The worker fans each pending message out
//! into deliveries (one per endpoint: the email relay from configuration, named
//! `relay`, and every enabled endpoint of the user that subscribed to the message's
//! type), then claims due deliveries (`FOR UPDATE SKIP LOCKED` on Postgres; a
//! single-statement claim on SQLite, whose writers are serialised), posts them and
//! records each attempt.

use super::conn::lock_user;
use super::conn::transaction;
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::conn::DbConn;
use super::schema::{
    notification_prefs, outbox, users, webhook_attempts, webhook_deliveries, webhook_endpoints,
};
use super::{Conflict, DeliveryStatus, OutboxRow, OutboxStatus, Store, StoreError, TxError};

/// The endpoint id of the server-wide email relay.
pub const RELAY: &str = "relay";

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = webhook_endpoints)]
pub struct EndpointRow {
    pub id: String,
    pub user_id: String,
    pub url: String,
    pub secret: String,
    /// JSON array of event types.
    pub event_types: String,
    pub enabled: i32,
    pub disabled_reason: Option<String>,
    pub created_at: i64,
}

impl EndpointRow {
    /// The event types the endpoint subscribed to (its JSON column parsed).
    pub fn types(&self) -> Result<Vec<String>, StoreError> {
        serde_json::from_str(&self.event_types).map_err(|e| StoreError::Corrupt {
            row: format!("webhook endpoint {}", self.id),
            detail: format!("event_types: {e}"),
        })
    }
}

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = webhook_deliveries)]
pub struct DeliveryRow {
    pub id: String,
    pub outbox_id: String,
    pub endpoint_id: String,
    pub user_id: String,
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: i64,
    pub claim_token: Option<String>,
    pub claimed_until: Option<i64>,
    pub last_status: Option<i32>,
    pub delivered_at: Option<i64>,
    pub created_at: i64,
}

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = webhook_attempts)]
pub struct AttemptRow {
    pub id: String,
    pub delivery_id: String,
    pub attempted_at: i64,
    pub http_status: Option<i32>,
    pub duration_ms: i64,
    pub error: Option<String>,
    pub excerpt: Option<String>,
}

/// A delivery with its message and attempts, as the API lists it.
#[derive(Clone, Debug)]
pub struct DeliveryInfo {
    pub delivery: DeliveryRow,
    /// The delivery's status, parsed from its row.
    pub status: DeliveryStatus,
    pub kind: String,
    pub attempts: Vec<AttemptRow>,
}

/// A claimed delivery, ready to post.
#[derive(Clone, Debug)]
pub struct Claimed {
    pub delivery: DeliveryRow,
    /// The message (outbox row id is the `webhook-id`).
    pub message: OutboxRow,
    /// The user endpoint (None for the relay and push subscriptions).
    pub endpoint: Option<EndpointRow>,
    /// The push subscription (deliveries whose endpoint id starts with
    /// [`super::PUSH_PREFIX`]; None when it is gone).
    pub push: Option<super::PushTarget>,
}

/// What an attempt decided for its delivery.
#[derive(Clone, Debug)]
pub enum Next {
    Delivered,
    /// Try again at this time.
    Retry(i64),
    /// Give up (too old, or the relay answered 410).
    Failed,
    /// Give up and disable the endpoint, for this reason (it answered 410 Gone, or its
    /// URL's address is not allowed).
    DisableEndpoint(String),
}

/// Event types with their email switch (absent: on).
pub type EmailPrefs = Vec<(String, bool)>;

/// Whether message `m` goes to the email relay: the user still has the address the
/// message was written to (a changed address does not get mail queued for the old one),
/// and either the message is an account message (`account.*`: a confirmation goes to an
/// unconfirmed address, a reset is only ever queued for a confirmed one) or the address
/// is confirmed and its switch for the type is on. An unconfirmed address gets the
/// confirmation email and nothing else.
///
/// A user who takes the daily digest gets no turn email unless the turn's deadline is
/// at most 24 hours after the message (the digest lists the game instead).
fn email_on(c: &mut DbConn, m: &OutboxRow) -> Result<bool, DieselError> {
    type Contact = (String, Option<i64>, Option<i64>, Option<i32>);
    let u: Option<Contact> = users::table
        .find(&m.user_id)
        .select((
            users::email,
            users::email_verified_at,
            users::deleted_at,
            users::digest_hour,
        ))
        .first(c)
        .optional()?;
    let Some((email, verified, deleted, digest)) = u else {
        return Ok(false);
    };
    if digest.is_some() && m.kind == "game.turn_started" && !due_within_a_day(m) {
        return Ok(false);
    }
    if deleted.is_some() || email.trim().is_empty() {
        return Ok(false);
    }
    let to = serde_json::from_str::<serde_json::Value>(&m.payload)
        .ok()
        .and_then(|v| v["data"]["recipient"]["email"].as_str().map(str::to_string));
    if to.as_deref() != Some(email.as_str()) {
        return Ok(false);
    }
    if is_account_message(&m.kind) {
        return Ok(true);
    }
    if super::push::is_push_only(&m.kind) {
        return Ok(false);
    }
    if verified.is_none() {
        return Ok(false);
    }
    email_on_raw(c, &m.user_id, &m.kind)
}

/// Whether a turn message's deadline is at most 24 hours after it was written (a
/// 1-day clock is never left to the next digest).
fn due_within_a_day(m: &OutboxRow) -> bool {
    let deadline = serde_json::from_str::<serde_json::Value>(&m.payload)
        .ok()
        .and_then(|v| v["data"]["deadline"].as_str().map(str::to_string))
        .and_then(|d| {
            time::OffsetDateTime::parse(&d, &time::format_description::well_known::Rfc3339).ok()
        })
        .map(|t| (t.unix_timestamp_nanos() / 1_000_000) as i64);
    deadline.is_some_and(|d| d - m.created_at <= 24 * 3_600_000)
}

/// Account messages (`account.*`) carry single-use links: they go to the email relay
/// only, never to a user's own endpoints.
pub fn is_account_message(kind: &str) -> bool {
    kind.starts_with("account.")
}

/// Fans claimed outbox rows out into deliveries and marks them dispatched.
fn fan_out_rows(
    c: &mut DbConn,
    rows: &[OutboxRow],
    relay: bool,
    now: i64,
) -> Result<(), DieselError> {
    for m in rows {
        let mut targets = Vec::new();
        if relay && email_on(c, m)? {
            targets.push(RELAY.to_string());
        }
        let eps: Vec<EndpointRow> =
            if is_account_message(&m.kind) || super::push::is_push_only(&m.kind) {
                Vec::new()
            } else {
                webhook_endpoints::table
                    .filter(webhook_endpoints::user_id.eq(&m.user_id))
                    .filter(webhook_endpoints::enabled.eq(1))
                    .select(EndpointRow::as_select())
                    .load(c)?
            };
        for e in eps {
            match e.types() {
                Ok(types) if types.iter().any(|t| t == &m.kind || t == "*") => targets.push(e.id),
                Ok(_) => {}
                // one broken endpoint must not stop the messages to everyone else
                Err(err) => tracing::error!(cause = %err, "webhook endpoint skipped"),
            }
        }
        if !is_account_message(&m.kind) {
            targets.extend(super::push::push_targets(c, &m.user_id, &m.kind)?);
        }
        for t in targets {
            diesel::insert_into(webhook_deliveries::table)
                .values(DeliveryRow {
                    id: uuid::Uuid::new_v4().to_string(),
                    outbox_id: m.id.clone(),
                    endpoint_id: t,
                    user_id: m.user_id.clone(),
                    status: DeliveryStatus::Pending.as_str().into(),
                    attempts: 0,
                    next_attempt_at: now.max(m.next_attempt_at),
                    claim_token: None,
                    claimed_until: None,
                    last_status: None,
                    delivered_at: None,
                    created_at: m.created_at,
                })
                .execute(c)?;
        }
        diesel::update(outbox::table.find(&m.id))
            .set(outbox::status.eq(OutboxStatus::Dispatched.as_str()))
            .execute(c)?;
    }
    Ok(())
}

impl Store {
    // ----- worker -------------------------------------------------------------------

    /// Turns up to `limit` pending outbox messages into deliveries; returns how many.
    pub async fn fan_out(&self, limit: i64, now: i64, relay: bool) -> Result<usize, StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                let rows: Vec<OutboxRow> = match c {
                    DbConn::Pg(pg) => outbox::table
                        .filter(outbox::status.eq(OutboxStatus::Pending.as_str()))
                        .order(outbox::created_at.asc())
                        .limit(limit)
                        .select(OutboxRow::as_select())
                        .for_update()
                        .skip_locked()
                        .load(pg)?,
                    DbConn::Sqlite(sq) => {
                        // one writing statement first: SQLite queues other writers
                        let token = format!("fanning:{}", uuid::Uuid::new_v4().simple());
                        diesel::sql_query(
                            "UPDATE outbox SET status = ? WHERE id IN (SELECT id FROM outbox \
                             WHERE status = ? ORDER BY created_at LIMIT ?)",
                        )
                        .bind::<diesel::sql_types::Text, _>(&token)
                        .bind::<diesel::sql_types::Text, _>(OutboxStatus::Pending.as_str())
                        .bind::<diesel::sql_types::BigInt, _>(limit)
                        .execute(sq)?;
                        outbox::table
                            .filter(outbox::status.eq(&token))
                            .select(OutboxRow::as_select())
                            .load(sq)?
                    }
                };
                fan_out_rows(c, &rows, relay, now)?;
                Ok::<_, DieselError>(rows.len())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// Claims up to `limit` due deliveries (pending and due, or sending with an expired
    /// lease) for `lease_ms`, with their messages and endpoints.
    pub async fn claim_deliveries(
        &self,
        limit: i64,
        now: i64,
        lease_ms: i64,
        token: String,
    ) -> Result<Vec<Claimed>, StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                let due = webhook_deliveries::status
                    .eq(DeliveryStatus::Pending.as_str())
                    .and(webhook_deliveries::next_attempt_at.le(now))
                    .or(webhook_deliveries::status
                        .eq(DeliveryStatus::Sending.as_str())
                        .and(webhook_deliveries::claimed_until.lt(now)));
                let claim = (
                    webhook_deliveries::status.eq(DeliveryStatus::Sending.as_str()),
                    webhook_deliveries::claim_token.eq(Some(token.clone())),
                    webhook_deliveries::claimed_until.eq(Some(now + lease_ms)),
                );
                match c {
                    DbConn::Pg(pg) => {
                        let ids: Vec<String> = webhook_deliveries::table
                            .filter(due)
                            .order(webhook_deliveries::next_attempt_at.asc())
                            .limit(limit)
                            .select(webhook_deliveries::id)
                            .for_update()
                            .skip_locked()
                            .load(pg)?;
                        diesel::update(
                            webhook_deliveries::table.filter(webhook_deliveries::id.eq_any(&ids)),
                        )
                        .set(claim)
                        .execute(pg)?;
                    }
                    DbConn::Sqlite(sq) => {
                        diesel::sql_query(
                            "UPDATE webhook_deliveries SET status = ?, claim_token = ?, \
                             claimed_until = ? WHERE id IN (SELECT id FROM webhook_deliveries \
                             WHERE (status = ? AND next_attempt_at <= ?) \
                             OR (status = ? AND claimed_until < ?) \
                             ORDER BY next_attempt_at LIMIT ?)",
                        )
                        .bind::<diesel::sql_types::Text, _>(DeliveryStatus::Sending.as_str())
                        .bind::<diesel::sql_types::Text, _>(&token)
                        .bind::<diesel::sql_types::BigInt, _>(now + lease_ms)
                        .bind::<diesel::sql_types::Text, _>(DeliveryStatus::Pending.as_str())
                        .bind::<diesel::sql_types::BigInt, _>(now)
                        .bind::<diesel::sql_types::Text, _>(DeliveryStatus::Sending.as_str())
                        .bind::<diesel::sql_types::BigInt, _>(now)
                        .bind::<diesel::sql_types::BigInt, _>(limit)
                        .execute(sq)?;
                    }
                }
                let rows: Vec<(DeliveryRow, OutboxRow)> = webhook_deliveries::table
                    .inner_join(outbox::table)
                    .filter(webhook_deliveries::claim_token.eq(Some(token.clone())))
                    .filter(webhook_deliveries::status.eq(DeliveryStatus::Sending.as_str()))
                    .select((DeliveryRow::as_select(), OutboxRow::as_select()))
                    .load(c)?;
                let ep_ids: Vec<String> = rows
                    .iter()
                    .map(|(d, _)| d.endpoint_id.clone())
                    .filter(|e| e != RELAY)
                    .collect();
                let eps: Vec<EndpointRow> = webhook_endpoints::table
                    .filter(webhook_endpoints::id.eq_any(&ep_ids))
                    .select(EndpointRow::as_select())
                    .load(c)?;
                let pushes = super::push::targets_of(c, &ep_ids)?;
                Ok::<_, DieselError>(
                    rows.into_iter()
                        .map(|(d, m)| {
                            let endpoint = eps.iter().find(|e| e.id == d.endpoint_id).cloned();
                            let push = pushes
                                .iter()
                                .find(|p| p.subscription.delivery_endpoint() == d.endpoint_id)
                                .cloned();
                            Claimed {
                                delivery: d,
                                message: m,
                                endpoint,
                                push,
                            }
                        })
                        .collect(),
                )
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// Records attempts (one transaction for a round of the worker) and what follows
    /// from each. A delivery whose claim was taken over by another worker (expired
    /// lease) keeps that worker's state. A delivery deleted meanwhile (with its account
    /// or endpoint) gets no attempt: there is nothing left to record it against.
    pub async fn record_attempts(&self, mut outcomes: Vec<Recorded>) -> Result<(), StoreError> {
        // deliveries are locked in the order of their ids, as an account's deletion
        // locks them, so that the two never wait for each other in a circle
        outcomes.sort_by(|a, b| a.attempt.delivery_id.cmp(&b.attempt.delivery_id));
        self.run(move |c| {
            transaction(c, |c| {
                for o in outcomes {
                    record_one(c, o)?;
                }
                Ok::<_, DieselError>(())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// Releases a claim without an attempt (the endpoint vanished or the worker stops).
    pub async fn drop_delivery(
        &self,
        id: String,
        status: DeliveryStatus,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            diesel::update(webhook_deliveries::table.find(id))
                .set((
                    webhook_deliveries::status.eq(status.as_str()),
                    webhook_deliveries::claim_token.eq(None::<String>),
                    webhook_deliveries::claimed_until.eq(None::<i64>),
                ))
                .execute(c)?;
            Ok(())
        })
        .await
    }

    // ----- endpoints ----------------------------------------------------------------

    /// Stores a new endpoint, unless its user has `max` already (counted under the
    /// user's row lock, so that endpoints created together cannot pass the limit).
    pub async fn create_endpoint(&self, row: EndpointRow, max: i64) -> Result<(), StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                if !lock_user(c, &row.user_id)? {
                    return Err(TxError::Store(StoreError::UnknownUser));
                }
                let have: i64 = webhook_endpoints::table
                    .filter(webhook_endpoints::user_id.eq(&row.user_id))
                    .count()
                    .get_result(c)?;
                if have >= max {
                    return Err(TxError::Store(StoreError::Conflict(
                        Conflict::EndpointLimitReached,
                    )));
                }
                diesel::insert_into(webhook_endpoints::table)
                    .values(&row)
                    .execute(c)?;
                Ok(())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    pub async fn endpoints_of(&self, user_id: String) -> Result<Vec<EndpointRow>, StoreError> {
        self.run(move |c| {
            Ok(webhook_endpoints::table
                .filter(webhook_endpoints::user_id.eq(user_id))
                .order(webhook_endpoints::created_at.asc())
                .select(EndpointRow::as_select())
                .load(c)?)
        })
        .await
    }

    pub async fn endpoint_of(
        &self,
        user_id: String,
        id: String,
    ) -> Result<Option<EndpointRow>, StoreError> {
        self.run(move |c| {
            Ok(webhook_endpoints::table
                .filter(webhook_endpoints::user_id.eq(user_id))
                .filter(webhook_endpoints::id.eq(id))
                .select(EndpointRow::as_select())
                .first(c)
                .optional()?)
        })
        .await
    }

    /// Deletes an endpoint with its deliveries and their attempts; false when the user
    /// has no such endpoint.
    pub async fn delete_endpoint(&self, user_id: String, id: String) -> Result<bool, StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                // a write first, so that SQLite takes its lock before reading
                let n = diesel::delete(
                    webhook_endpoints::table
                        .filter(webhook_endpoints::user_id.eq(&user_id))
                        .filter(webhook_endpoints::id.eq(&id)),
                )
                .execute(c)?;
                if n == 0 {
                    return Ok(false);
                }
                // Postgres: lock the deliveries first (in the order the worker records
                // attempts), so that an attempt being recorded commits before they are
                // read below, or finds them gone
                if let DbConn::Pg(pg) = c {
                    webhook_deliveries::table
                        .filter(webhook_deliveries::endpoint_id.eq(&id))
                        .order(webhook_deliveries::id)
                        .select(webhook_deliveries::id)
                        .for_update()
                        .load::<String>(pg)?;
                }
                let ds = webhook_deliveries::table
                    .filter(webhook_deliveries::endpoint_id.eq(&id))
                    .select(webhook_deliveries::id);
                diesel::delete(
                    webhook_attempts::table.filter(webhook_attempts::delivery_id.eq_any(ds)),
                )
                .execute(c)?;
                diesel::delete(
                    webhook_deliveries::table.filter(webhook_deliveries::endpoint_id.eq(&id)),
                )
                .execute(c)?;
                Ok::<_, DieselError>(true)
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// Sets a new secret (and re-enables the endpoint); None when not found.
    pub async fn rotate_endpoint_secret(
        &self,
        user_id: String,
        id: String,
        secret: String,
    ) -> Result<Option<EndpointRow>, StoreError> {
        self.run(move |c| {
            let n = diesel::update(
                webhook_endpoints::table
                    .filter(webhook_endpoints::user_id.eq(&user_id))
                    .filter(webhook_endpoints::id.eq(&id)),
            )
            .set(webhook_endpoints::secret.eq(secret))
            .execute(c)?;
            if n == 0 {
                return Ok(None);
            }
            Ok(webhook_endpoints::table
                .find(&id)
                .select(EndpointRow::as_select())
                .first(c)
                .optional()?)
        })
        .await
    }

    /// A page of the deliveries to an endpoint, newest first (after the key
    /// `(created_at, id)` of the last one seen), with their attempts.
    pub async fn deliveries_of(
        &self,
        endpoint_id: String,
        after: Option<(i64, String)>,
        limit: i64,
    ) -> Result<super::Page<DeliveryInfo, (i64, String)>, StoreError> {
        self.run(move |c| {
            let mut q = webhook_deliveries::table
                .inner_join(outbox::table)
                .filter(webhook_deliveries::endpoint_id.eq(&endpoint_id))
                .into_boxed();
            if let Some((at, id)) = after {
                q = q.filter(
                    diesel::dsl::sql::<diesel::sql_types::Bool>(
                        "(webhook_deliveries.created_at, webhook_deliveries.id) < (",
                    )
                    .bind::<diesel::sql_types::BigInt, _>(at)
                    .sql(", ")
                    .bind::<diesel::sql_types::Text, _>(id)
                    .sql(")"),
                );
            }
            let rows: Vec<(DeliveryRow, String)> = q
                .order((
                    webhook_deliveries::created_at.desc(),
                    webhook_deliveries::id.desc(),
                ))
                .limit(limit + 1)
                .select((DeliveryRow::as_select(), outbox::kind))
                .load(c)?;
            let page = super::page::page_of(rows, limit, |(d, _)| (d.created_at, d.id.clone()));
            Ok(super::Page {
                rows: with_attempts(c, page.rows)?,
                next: page.next,
            })
        })
        .await
    }

    /// One delivery to an endpoint, with its attempts.
    pub async fn delivery_info(
        &self,
        endpoint_id: String,
        delivery_id: String,
    ) -> Result<Option<DeliveryInfo>, StoreError> {
        self.run(move |c| {
            let rows: Vec<(DeliveryRow, String)> = webhook_deliveries::table
                .inner_join(outbox::table)
                .filter(webhook_deliveries::endpoint_id.eq(&endpoint_id))
                .filter(webhook_deliveries::id.eq(&delivery_id))
                .select((DeliveryRow::as_select(), outbox::kind))
                .load(c)?;
            Ok(with_attempts(c, rows)?.into_iter().next())
        })
        .await
    }

    /// Every delivery of a message (all endpoints), for inspection and tests.
    pub async fn deliveries_of_message(
        &self,
        outbox_id: String,
    ) -> Result<Vec<DeliveryRow>, StoreError> {
        self.run(move |c| {
            Ok(webhook_deliveries::table
                .filter(webhook_deliveries::outbox_id.eq(outbox_id))
                .select(DeliveryRow::as_select())
                .load(c)?)
        })
        .await
    }

    /// Queues a delivery again now (keeping its history); None when not found.
    pub async fn redeliver(
        &self,
        endpoint_id: String,
        delivery_id: String,
        now: i64,
    ) -> Result<Option<DeliveryRow>, StoreError> {
        self.run(move |c| {
            let n = diesel::update(
                webhook_deliveries::table
                    .filter(webhook_deliveries::id.eq(&delivery_id))
                    .filter(webhook_deliveries::endpoint_id.eq(&endpoint_id))
                    .filter(webhook_deliveries::status.ne(DeliveryStatus::Sending.as_str())),
            )
            .set((
                webhook_deliveries::status.eq(DeliveryStatus::Pending.as_str()),
                webhook_deliveries::next_attempt_at.eq(now),
            ))
            .execute(c)?;
            let row = webhook_deliveries::table
                .filter(webhook_deliveries::id.eq(&delivery_id))
                .filter(webhook_deliveries::endpoint_id.eq(&endpoint_id))
                .select(DeliveryRow::as_select())
                .first(c)
                .optional()?;
            let _ = n;
            Ok(row)
        })
        .await
    }

    /// Deletes up to `limit` messages created before `before` that were handed on
    /// (dispatched), with their deliveries and attempts; returns how many messages.
    pub async fn prune_outbox(&self, before: i64, limit: i64) -> Result<usize, StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                let ids: Vec<String> = outbox::table
                    .filter(outbox::status.eq(OutboxStatus::Dispatched.as_str()))
                    .filter(outbox::created_at.lt(before))
                    .order(outbox::created_at.asc())
                    .limit(limit)
                    .select(outbox::id)
                    .load(c)?;
                if ids.is_empty() {
                    return Ok(0);
                }
                let deliveries = webhook_deliveries::table
                    .filter(webhook_deliveries::outbox_id.eq_any(&ids))
                    .select(webhook_deliveries::id);
                diesel::delete(
                    webhook_attempts::table
                        .filter(webhook_attempts::delivery_id.eq_any(deliveries)),
                )
                .execute(c)?;
                diesel::delete(
                    webhook_deliveries::table.filter(webhook_deliveries::outbox_id.eq_any(&ids)),
                )
                .execute(c)?;
                diesel::delete(outbox::table.filter(outbox::id.eq_any(&ids))).execute(c)
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// Inserts messages outside a game move (invitations, deadlines).
    pub async fn enqueue(&self, rows: Vec<OutboxRow>) -> Result<(), StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                super::stream::queue(c, &rows, &[])?;
                Ok::<_, DieselError>(())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    // ----- preferences --------------------------------------------------------------

    /// The email switch of each listed event type for a user.
    pub async fn email_prefs(
        &self,
        user_id: String,
        kinds: Vec<String>,
    ) -> Result<EmailPrefs, StoreError> {
        self.run(move |c| {
            let mut out = Vec::new();
            for k in kinds {
                let on = email_on_raw(c, &user_id, &k)?;
                out.push((k, on));
            }
            Ok(out)
        })
        .await
    }

    /// Sets email switches (the turn and finished switches are the user's columns).
    pub async fn set_email_prefs(
        &self,
        user_id: String,
        prefs: EmailPrefs,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                for (k, on) in &prefs {
                    let v = *on as i32;
                    match k.as_str() {
                        "game.turn_started" => {
                            diesel::update(users::table.find(&user_id))
                                .set(users::notify_turn.eq(v))
                                .execute(c)?;
                        }
                        "game.finished" => {
                            diesel::update(users::table.find(&user_id))
                                .set(users::notify_finished.eq(v))
                                .execute(c)?;
                        }
                        _ => {
                            diesel::delete(notification_prefs::table.find((&user_id, k)))
                                .execute(c)?;
                            diesel::insert_into(notification_prefs::table)
                                .values((
                                    notification_prefs::user_id.eq(&user_id),
                                    notification_prefs::event_type.eq(k),
                                    notification_prefs::email.eq(v),
                                ))
                                .execute(c)?;
                        }
                    }
                }
                Ok::<_, DieselError>(())
            })
            .map_err(StoreError::from)
        })
        .await
    }
}

/// The switch alone (ignoring whether the user has an address).
fn email_on_raw(c: &mut DbConn, user_id: &str, kind: &str) -> Result<bool, DieselError> {
    let u: Option<(i32, i32)> = users::table
        .find(user_id)
        .select((users::notify_turn, users::notify_finished))
        .first(c)
        .optional()?;
    let Some((turn, finished)) = u else {
        return Ok(false);
    };
    match kind {
        "game.turn_started" => Ok(turn != 0),
        "game.finished" => Ok(finished != 0),
        _ => Ok(notification_prefs::table
            .find((user_id, kind))
            .select(notification_prefs::email)
            .first::<i32>(c)
            .optional()?
            != Some(0)),
    }
}

/// One attempt to record.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub attempt: AttemptRow,
    pub token: String,
    pub endpoint_id: String,
    pub next: Next,
    pub now: i64,
}

fn record_one(c: &mut DbConn, o: Recorded) -> Result<(), DieselError> {
    let Recorded {
        attempt,
        token,
        endpoint_id,
        next,
        now,
    } = o;
    let did = attempt.delivery_id.clone();
    let status = attempt.http_status;
    let mine = webhook_deliveries::table
        .filter(webhook_deliveries::id.eq(&did))
        .filter(webhook_deliveries::claim_token.eq(Some(token)));
    let (st, next_at, delivered) = match next {
        Next::Delivered => (DeliveryStatus::Delivered, now, Some(now)),
        Next::Retry(at) => (DeliveryStatus::Pending, at, None),
        Next::Failed | Next::DisableEndpoint(_) => (DeliveryStatus::Failed, now, None),
    };
    // The delivery row first: the update locks it (SQLite: takes the write lock), so an
    // account's or endpoint's deletion either went before (the row is gone) or waits
    // for this transaction and deletes the attempt with the delivery.
    let n = diesel::update(mine)
        .set((
            webhook_deliveries::status.eq(st.as_str()),
            webhook_deliveries::next_attempt_at.eq(next_at),
            webhook_deliveries::delivered_at.eq(delivered),
            webhook_deliveries::last_status.eq(status),
            webhook_deliveries::attempts.eq(webhook_deliveries::attempts + 1),
            webhook_deliveries::claim_token.eq(None::<String>),
            webhook_deliveries::claimed_until.eq(None::<i64>),
        ))
        .execute(c)?;
    if n == 0 {
        // not ours any more: another worker took the claim over, or the delivery is gone
        let find = webhook_deliveries::table
            .find(&did)
            .select(webhook_deliveries::id);
        let still: Option<String> = match c {
            DbConn::Pg(pg) => find.for_key_share().first(pg).optional()?,
            DbConn::Sqlite(sq) => find.first(sq).optional()?,
        };
        if still.is_none() {
            tracing::debug!(delivery = %did, "delivery deleted while it was sent: no attempt recorded");
            return Ok(());
        }
    }
    diesel::insert_into(webhook_attempts::table)
        .values(&attempt)
        .execute(c)?;
    if let (Next::DisableEndpoint(_), true) = (&next, endpoint_id.starts_with(super::PUSH_PREFIX)) {
        super::push::delete_gone(c, &endpoint_id)?;
        return Ok(());
    }
    if let (Next::DisableEndpoint(why), false) = (&next, endpoint_id == RELAY) {
        diesel::update(webhook_endpoints::table.find(&endpoint_id))
            .set((
                webhook_endpoints::enabled.eq(0),
                webhook_endpoints::disabled_reason.eq(Some(why)),
            ))
            .execute(c)?;
        diesel::update(
            webhook_deliveries::table
                .filter(webhook_deliveries::endpoint_id.eq(&endpoint_id))
                .filter(webhook_deliveries::status.eq(DeliveryStatus::Pending.as_str())),
        )
        .set(webhook_deliveries::status.eq(DeliveryStatus::Failed.as_str()))
        .execute(c)?;
    }
    Ok(())
}

/// The deliveries with their attempts, oldest attempt first.
fn with_attempts(
    c: &mut DbConn,
    rows: Vec<(DeliveryRow, String)>,
) -> Result<Vec<DeliveryInfo>, StoreError> {
    let ids: Vec<String> = rows.iter().map(|(d, _)| d.id.clone()).collect();
    let attempts: Vec<AttemptRow> = webhook_attempts::table
        .filter(webhook_attempts::delivery_id.eq_any(&ids))
        .order((
            webhook_attempts::attempted_at.asc(),
            webhook_attempts::id.asc(),
        ))
        .select(AttemptRow::as_select())
        .load(c)?;
    rows.into_iter()
        .map(|(d, kind)| {
            let status =
                DeliveryStatus::from_column(&d.status).ok_or_else(|| StoreError::Corrupt {
                    row: format!("delivery {}", d.id),
                    detail: format!("unknown status {:?}", d.status),
                })?;
            Ok(DeliveryInfo {
                attempts: attempts
                    .iter()
                    .filter(|a| a.delivery_id == d.id)
                    .cloned()
                    .collect(),
                delivery: d,
                status,
                kind,
            })
        })
        .collect()
}
