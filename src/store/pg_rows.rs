//! Postgres: the rows of several tables written by one statement, so that a write that
//! adds rows to the log, the outbox and the live stream waits for one round trip instead
//! of three. Every part but the last is a data-modifying `WITH` clause, which Postgres runs
//! once and to completion, in the order written. SQLite (in-process, no round trips) keeps
//! a statement per table ([`super::conn::insert_rows`]).

use diesel::pg::Pg;
use diesel::sql_types::{BigInt, Bool, Integer, Nullable, Text};
use diesel::{Column, PgConnection, QueryResult, RunQueryDsl};

use super::rows::{EventRow, IdempotencyRow, OutboxRow};
use super::schema::{game_events, idempotency_keys, outbox};

/// The most parameters one statement binds here (Postgres allows 65,535): a write with
/// more rows is left to the statement-per-table path.
pub(super) const MAX_BINDS: usize = 20_000;

/// A value to bind.
pub(super) enum Value<'a> {
    Text(&'a str),
    OptText(Option<&'a str>),
    Big(i64),
    OptBig(Option<i64>),
    Int(i32),
    Bool(bool),
}

/// A row of a table, as its columns' values in the order of [`Row::COLUMNS`] (the
/// columns named by the schema's definitions, so that a renamed one fails to build).
pub(super) trait Row {
    const TABLE: &'static str;
    const COLUMNS: &'static [&'static str];
    fn values<'a>(&'a self, out: &mut Vec<Value<'a>>);
}

/// The rows of one statement, table by table.
#[derive(Default)]
pub(super) struct Inserts<'a> {
    parts: Vec<String>,
    binds: Vec<Value<'a>>,
    /// Clauses written before the rows (see [`Inserts::guarded`]).
    guard: Option<String>,
}

impl<'a> Inserts<'a> {
    /// A statement whose rows are written only when its first clause, `g`, returns a
    /// row: `clauses` are `WITH` clauses (`g AS (UPDATE … RETURNING 1), …`) that number
    /// their parameters from `$1` in the order of `binds`, and may themselves test
    /// `EXISTS (SELECT 1 FROM g)`. Every sub-statement of a `WITH` sees the same snapshot
    /// and the statement is one transaction: when `g` matches nothing, nothing is
    /// written, and [`Inserts::execute`] reports 0 rows for the last table.
    pub(super) fn guarded(clauses: String, binds: Vec<Value<'a>>) -> Self {
        Inserts {
            parts: Vec::new(),
            binds,
            guard: Some(clauses),
        }
    }

    /// Another `WITH` clause after the guard's (`name AS (…)`), its parameters numbered
    /// from [`Inserts::next_param`].
    pub(super) fn clause(&mut self, clause: String, binds: Vec<Value<'a>>) -> &mut Self {
        if let Some(g) = &mut self.guard {
            g.push_str(", ");
            g.push_str(&clause);
        }
        self.binds.extend(binds);
        self
    }

    /// The number of the next parameter (`$n`) a clause may use.
    pub(super) fn next_param(&self) -> usize {
        self.binds.len() + 1
    }

    /// Adds the rows of one table (none: nothing).
    pub(super) fn rows<R: Row>(&mut self, rows: &'a [R]) -> &mut Self {
        if rows.is_empty() {
            return self;
        }
        let mut sql = format!("INSERT INTO {} ({}) ", R::TABLE, R::COLUMNS.join(", "));
        // guarded: the rows are selected from their values only when `g` returned one
        sql.push_str(if self.guard.is_some() {
            "SELECT * FROM (VALUES "
        } else {
            "VALUES "
        });
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                sql.push_str(", ");
            }
            sql.push('(');
            for j in 0..R::COLUMNS.len() {
                if j > 0 {
                    sql.push_str(", ");
                }
                sql.push_str(&format!("${}", self.binds.len() + j + 1));
            }
            sql.push(')');
            let before = self.binds.len();
            row.values(&mut self.binds);
            debug_assert_eq!(self.binds.len() - before, R::COLUMNS.len());
        }
        if self.guard.is_some() {
            sql.push_str(") AS v WHERE EXISTS (SELECT 1 FROM g)");
        }
        self.parts.push(sql);
        self
    }

    /// Whether the statement stays within [`MAX_BINDS`] parameters.
    pub(super) fn fits(&self) -> bool {
        self.binds.len() <= MAX_BINDS
    }

    /// Writes every row, in one statement; the number of rows the last table got.
    pub(super) fn execute(self, pg: &mut PgConnection) -> QueryResult<usize> {
        let Some((last, first)) = self.parts.split_last() else {
            return Ok(0);
        };
        let mut sql = String::new();
        if let Some(g) = &self.guard {
            sql.push_str("WITH ");
            sql.push_str(g);
        }
        for (i, part) in first.iter().enumerate() {
            sql.push_str(if i == 0 && self.guard.is_none() {
                "WITH "
            } else {
                ", "
            });
            sql.push_str(&format!("w{i} AS ({part})"));
        }
        if !first.is_empty() {
            sql.push(' ');
        }
        sql.push_str(last);
        let mut q = diesel::sql_query(sql).into_boxed::<Pg>();
        for b in self.binds {
            q = match b {
                Value::Text(v) => q.bind::<Text, _>(v),
                Value::OptText(v) => q.bind::<Nullable<Text>, _>(v),
                Value::Big(v) => q.bind::<BigInt, _>(v),
                Value::OptBig(v) => q.bind::<Nullable<BigInt>, _>(v),
                Value::Int(v) => q.bind::<Integer, _>(v),
                Value::Bool(v) => q.bind::<Bool, _>(v),
            };
        }
        q.execute(pg)
    }
}

impl Row for EventRow {
    const TABLE: &'static str = "game_events";
    const COLUMNS: &'static [&'static str] = &[
        <game_events::game_id as Column>::NAME,
        <game_events::seq as Column>::NAME,
        <game_events::event_type as Column>::NAME,
        <game_events::event_version as Column>::NAME,
        <game_events::payload as Column>::NAME,
        <game_events::actor_id as Column>::NAME,
        <game_events::created_at as Column>::NAME,
        <game_events::decided_by as Column>::NAME,
    ];
    fn values<'a>(&'a self, out: &mut Vec<Value<'a>>) {
        out.extend([
            Value::Text(&self.game_id),
            Value::Big(self.seq),
            Value::Text(&self.event_type),
            Value::Int(self.event_version),
            Value::Text(&self.payload),
            Value::OptText(self.actor_id.as_deref()),
            Value::Big(self.created_at),
            Value::OptText(self.decided_by.as_deref()),
        ]);
    }
}

impl Row for OutboxRow {
    const TABLE: &'static str = "outbox";
    const COLUMNS: &'static [&'static str] = &[
        <outbox::id as Column>::NAME,
        <outbox::kind as Column>::NAME,
        <outbox::user_id as Column>::NAME,
        <outbox::game_id as Column>::NAME,
        <outbox::payload as Column>::NAME,
        <outbox::status as Column>::NAME,
        <outbox::attempts as Column>::NAME,
        <outbox::next_attempt_at as Column>::NAME,
        <outbox::delivered_at as Column>::NAME,
        <outbox::created_at as Column>::NAME,
    ];
    fn values<'a>(&'a self, out: &mut Vec<Value<'a>>) {
        out.extend([
            Value::Text(&self.id),
            Value::Text(&self.kind),
            Value::Text(&self.user_id),
            Value::OptText(self.game_id.as_deref()),
            Value::Text(&self.payload),
            Value::Text(&self.status),
            Value::Int(self.attempts),
            Value::Big(self.next_attempt_at),
            Value::OptBig(self.delivered_at),
            Value::Big(self.created_at),
        ]);
    }
}

impl Row for &IdempotencyRow {
    const TABLE: &'static str = "idempotency_keys";
    const COLUMNS: &'static [&'static str] = &[
        <idempotency_keys::user_id as Column>::NAME,
        <idempotency_keys::idem_key as Column>::NAME,
        <idempotency_keys::request_hash as Column>::NAME,
        <idempotency_keys::status as Column>::NAME,
        <idempotency_keys::body as Column>::NAME,
        <idempotency_keys::created_at as Column>::NAME,
    ];
    fn values<'a>(&'a self, out: &mut Vec<Value<'a>>) {
        out.extend([
            Value::Text(&self.user_id),
            Value::Text(&self.idem_key),
            Value::Text(&self.request_hash),
            Value::Int(self.status),
            Value::Text(&self.body),
            Value::Big(self.created_at),
        ]);
    }
}
