//! Bulk writes for `tilepost seed` (a database filled with realistic data, to measure how
//! costs grow with it): many rows per statement, one transaction per batch. Nothing on a
//! request's path uses this.

use super::conn::transaction;
use diesel::prelude::*;

use super::conn::DbConn;
use super::schema::{chat_messages, game_clocks, game_events, game_seats, games, outbox, users};
use super::{
    ChatRow, ClockRow, EventRow, GameRecord, GameRow, OutboxRow, Store, StoreError, UserRow,
};

/// Rows per statement (Postgres takes at most 65,535 parameters in one statement).
const ROWS: usize = 1_000;

/// One batch of rows, written in one transaction.
#[derive(Default)]
pub struct SeedBatch {
    pub users: Vec<UserRow>,
    pub games: Vec<GameRow>,
    /// `(game_id, seat, user_id, joined_at)`.
    pub seats: Vec<(String, i32, String, i64)>,
    pub clocks: Vec<ClockRow>,
    pub events: Vec<EventRow>,
    pub outbox: Vec<OutboxRow>,
    pub chat: Vec<ChatRow>,
}

#[derive(Insertable)]
#[diesel(table_name = game_seats)]
struct SeatRow<'a> {
    game_id: &'a str,
    seat: i32,
    user_id: &'a str,
    joined_at: i64,
}

/// Inserts rows: many per statement on Postgres, one by one on SQLite (whose batch
/// inserts diesel offers only on its own connection type).
macro_rules! insert_all {
    ($c:expr, $table:expr, $rows:expr) => {
        match &mut *$c {
            DbConn::Pg(pg) => {
                for chunk in $rows.chunks(ROWS) {
                    diesel::insert_into($table).values(chunk).execute(pg)?;
                }
            }
            DbConn::Sqlite(lite) => {
                for r in $rows.iter() {
                    diesel::insert_into($table).values(r).execute(lite)?;
                }
            }
        }
    };
}

/// An event as COPY takes it (every column given, `NULL` included).
#[derive(Insertable)]
#[diesel(table_name = game_events, treat_none_as_default_value = false)]
struct EventCopy<'a> {
    game_id: &'a str,
    seq: i64,
    event_type: &'a str,
    event_version: i32,
    payload: &'a str,
    actor_id: Option<&'a str>,
    created_at: i64,
    decided_by: Option<&'a str>,
}

/// An outbox message as COPY takes it.
#[derive(Insertable)]
#[diesel(table_name = outbox, treat_none_as_default_value = false)]
struct OutboxCopy<'a> {
    id: &'a str,
    kind: &'a str,
    user_id: &'a str,
    game_id: Option<&'a str>,
    payload: &'a str,
    status: &'a str,
    attempts: i32,
    next_attempt_at: i64,
    delivered_at: Option<i64>,
    created_at: i64,
}

impl Store {
    /// Writes a batch (on the calling thread).
    pub fn seed(&self, b: &SeedBatch) -> Result<(), StoreError> {
        let games: Vec<GameRecord> = b
            .games
            .iter()
            .map(GameRecord::try_from)
            .collect::<Result<_, _>>()?;
        let seats: Vec<SeatRow<'_>> = b
            .seats
            .iter()
            .map(|(g, s, u, at)| SeatRow {
                game_id: g,
                seat: *s,
                user_id: u,
                joined_at: *at,
            })
            .collect();
        let mut pooled = self.conn()?;
        let c: &mut DbConn = &mut pooled;
        transaction(c, |c| {
            insert_all!(c, users::table, b.users);
            insert_all!(c, games::table, games);
            insert_all!(c, game_seats::table, seats);
            insert_all!(c, game_clocks::table, b.clocks);
            // the bulk: COPY on Postgres
            match &mut *c {
                DbConn::Pg(pg) => {
                    let events: Vec<EventCopy<'_>> = b
                        .events
                        .iter()
                        .map(|e| EventCopy {
                            game_id: &e.game_id,
                            seq: e.seq,
                            event_type: &e.event_type,
                            event_version: e.event_version,
                            payload: &e.payload,
                            actor_id: e.actor_id.as_deref(),
                            created_at: e.created_at,
                            decided_by: e.decided_by.as_deref(),
                        })
                        .collect();
                    diesel::copy_from(game_events::table)
                        .from_insertable(&events)
                        .execute(pg)?;
                    let messages: Vec<OutboxCopy<'_>> = b
                        .outbox
                        .iter()
                        .map(|m| OutboxCopy {
                            id: &m.id,
                            kind: &m.kind,
                            user_id: &m.user_id,
                            game_id: m.game_id.as_deref(),
                            payload: &m.payload,
                            status: &m.status,
                            attempts: m.attempts,
                            next_attempt_at: m.next_attempt_at,
                            delivered_at: m.delivered_at,
                            created_at: m.created_at,
                        })
                        .collect();
                    diesel::copy_from(outbox::table)
                        .from_insertable(&messages)
                        .execute(pg)?;
                }
                DbConn::Sqlite(_) => {
                    insert_all!(c, game_events::table, b.events);
                    insert_all!(c, outbox::table, b.outbox);
                }
            }
            insert_all!(c, chat_messages::table, b.chat);
            Ok::<_, diesel::result::Error>(())
        })?;
        Ok(())
    }

    /// Refreshes the planner's statistics (after a bulk load).
    pub fn analyze(&self) -> Result<(), StoreError> {
        let mut c = self.conn()?;
        diesel::sql_query("ANALYZE").execute(&mut c)?;
        Ok(())
    }
}
