//! The live stream's table: one row per event and recipient, numbered by the database in
//! the order of insertion. Every message of the outbox about a game is written here too,
//! in the same transaction (so the stream carries every webhook event type), with the
//! events that only a connected client wants (a move made, a chat message).
//!
//! The numbers are the SSE event ids. On Postgres a number is taken when a row is
//! inserted but becomes visible when its transaction commits, so a reader can see 12
//! before 11: [`Store::stream_after`] reads in number order and the caller (see
//! `crate::live`) waits a moment for a gap to fill before it moves past it.

use diesel::prelude::*;

use super::conn::{insert_rows, DbConn};
use super::pg_rows;
use super::schema::{game_events, outbox, stream_events};
use super::{EventRow, OutboxRow, Store, StoreError};

/// An event of the stream as stored.
#[derive(Clone, Debug, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = stream_events)]
pub struct StreamEvent {
    pub id: i64,
    pub user_id: String,
    pub kind: String,
    pub game_id: Option<String>,
    /// The JSON body `{type, timestamp, data}`.
    pub payload: String,
    pub created_at: i64,
}

/// An event to write (the database numbers it).
#[derive(Clone, Debug, PartialEq, Eq, Insertable)]
#[diesel(table_name = stream_events)]
pub struct NewStreamEvent {
    pub user_id: String,
    pub kind: String,
    pub game_id: Option<String>,
    pub payload: String,
    pub created_at: i64,
}

impl pg_rows::Row for NewStreamEvent {
    const TABLE: &'static str = "stream_events";
    const COLUMNS: &'static [&'static str] = &[
        <stream_events::user_id as Column>::NAME,
        <stream_events::kind as Column>::NAME,
        <stream_events::game_id as Column>::NAME,
        <stream_events::payload as Column>::NAME,
        <stream_events::created_at as Column>::NAME,
    ];
    fn values<'a>(&'a self, out: &mut Vec<pg_rows::Value<'a>>) {
        out.extend([
            pg_rows::Value::Text(&self.user_id),
            pg_rows::Value::Text(&self.kind),
            pg_rows::Value::OptText(self.game_id.as_deref()),
            pg_rows::Value::Text(&self.payload),
            pg_rows::Value::Big(self.created_at),
        ]);
    }
}

impl NewStreamEvent {
    /// The stream's copy of an outbox message: the same type and body without what only
    /// an email needs (subject, bodies, recipient address, unsubscribe links). Account
    /// messages (single-use links for their owner's inbox) are not streamed.
    pub fn of_outbox(m: &OutboxRow) -> Option<NewStreamEvent> {
        // game and tournament messages; not a chat line's push copy (the stream has the
        // line itself, `game.chat`)
        let streamed = m.kind.starts_with("game.") || m.kind.starts_with("tournament.");
        if !streamed || super::push::is_push_only(&m.kind) {
            return None;
        }
        let mut body: serde_json::Value = serde_json::from_str(&m.payload).ok()?;
        if let Some(d) = body.get_mut("data").and_then(|d| d.as_object_mut()) {
            for k in ["subject", "text", "html", "recipient", "list_unsubscribe"] {
                d.remove(k);
            }
            if let Some(l) = d.get_mut("links").and_then(|l| l.as_object_mut()) {
                l.remove("unsubscribe");
                l.remove("unsubscribe_all");
            }
        }
        Some(NewStreamEvent {
            user_id: m.user_id.clone(),
            kind: m.kind.clone(),
            game_id: m.game_id.clone(),
            payload: body.to_string(),
            created_at: m.created_at,
        })
    }
}

/// Writes outbox messages with their stream copies, and `extra` stream-only events (call
/// inside the transaction that makes them true), in order (the stream's numbers follow
/// it), several rows a statement where the database allows it.
pub(super) fn queue(
    c: &mut DbConn,
    messages: &[OutboxRow],
    extra: &[NewStreamEvent],
) -> QueryResult<()> {
    queue_after_events(c, &[], messages, extra)
}

/// A decision's events in the log, then [`queue`]: on Postgres in one statement
/// ([`pg_rows`]) when they fit in one, else (and on SQLite) a statement per table.
pub(super) fn queue_after_events(
    c: &mut DbConn,
    events: &[EventRow],
    messages: &[OutboxRow],
    extra: &[NewStreamEvent],
) -> QueryResult<()> {
    let copies: Vec<NewStreamEvent> = messages
        .iter()
        .filter_map(NewStreamEvent::of_outbox)
        .chain(extra.iter().cloned())
        .collect();
    if let DbConn::Pg(pg) = c {
        let mut rows = pg_rows::Inserts::default();
        rows.rows(events).rows(messages).rows(&copies);
        if rows.fits() {
            return rows.execute(pg).map(|_| ());
        }
    }
    insert_rows!(c, game_events::table, events)?;
    insert_rows!(c, outbox::table, messages)?;
    insert_rows!(c, stream_events::table, &copies)
}

fn head(c: &mut DbConn) -> Result<i64, StoreError> {
    let max: Option<i64> = stream_events::table
        .select(diesel::dsl::max(stream_events::id))
        .first(c)?;
    Ok(max.unwrap_or(0))
}

impl Store {
    /// [`Store::stream_head`], on the calling thread (at start-up).
    pub fn stream_head_now(&self) -> Result<i64, StoreError> {
        let mut pooled = self.conn()?;
        head(&mut pooled)
    }

    /// The highest event number so far (0 when there is none).
    pub async fn stream_head(&self) -> Result<i64, StoreError> {
        self.run(head).await
    }

    /// The lowest event number still kept (`None` when there is none).
    pub async fn stream_oldest(&self) -> Result<Option<i64>, StoreError> {
        self.run(|c| {
            Ok(stream_events::table
                .select(diesel::dsl::min(stream_events::id))
                .first(c)?)
        })
        .await
    }

    /// Up to `limit` events numbered above `after`, of every user, in number order.
    pub async fn stream_after(
        &self,
        after: i64,
        limit: i64,
    ) -> Result<Vec<StreamEvent>, StoreError> {
        self.run(move |c| {
            Ok(stream_events::table
                .filter(stream_events::id.gt(after))
                .order(stream_events::id.asc())
                .limit(limit)
                .select(StreamEvent::as_select())
                .load(c)?)
        })
        .await
    }

    /// Up to `limit` of a user's events numbered in `(after, upto]`, in number order.
    pub async fn stream_of_user(
        &self,
        user_id: String,
        after: i64,
        upto: i64,
        limit: i64,
    ) -> Result<Vec<StreamEvent>, StoreError> {
        self.run(move |c| {
            Ok(stream_events::table
                .filter(stream_events::user_id.eq(user_id))
                .filter(stream_events::id.gt(after))
                .filter(stream_events::id.le(upto))
                .order(stream_events::id.asc())
                .limit(limit)
                .select(StreamEvent::as_select())
                .load(c)?)
        })
        .await
    }

    /// Deletes up to `limit` events created before `before`; returns how many.
    pub async fn prune_stream(&self, before: i64, limit: i64) -> Result<usize, StoreError> {
        self.run(move |c| {
            let ids: Vec<i64> = stream_events::table
                .filter(stream_events::created_at.lt(before))
                .order(stream_events::id.asc())
                .limit(limit)
                .select(stream_events::id)
                .load(c)?;
            if ids.is_empty() {
                return Ok(0);
            }
            Ok(
                diesel::delete(stream_events::table.filter(stream_events::id.eq_any(ids)))
                    .execute(c)?,
            )
        })
        .await
    }
}
