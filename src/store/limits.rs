//! Counted attempts of the abuse limits (logins, sign-ups, account emails, links, and the
//! per-user write quotas), kept in the database so that the limits hold across server
//! processes.
//!
//! One mechanism for every limit: [`Store::reserve_limits`] takes a place under each of
//! its keys in one transaction that first locks the keys (a transaction-scoped advisory
//! lock per key on Postgres; on SQLite a write as the first statement, which queues every
//! other writer of the database), then counts the key's attempts within its window and
//! inserts one row per key, or none when any key is full. Requests that arrive together
//! are therefore judged exactly as if they came one by one, in every process. The caller
//! keeps the places (the attempt counts) or hands them back ([`Store::release_limits`])
//! according to the outcome: a failed login keeps its place, a successful one releases
//! it; a quota's place is released when the write it guarded fails.

use super::conn::transaction;
use diesel::prelude::*;

use super::conn::DbConn;
use super::schema::limit_attempts;
use super::{Store, StoreError};

/// One limit to reserve a place under: at most `limit` attempts of `kind` by `subject`
/// within the last `window_ms`.
#[derive(Clone, Debug)]
pub struct LimitKey {
    pub kind: &'static str,
    pub subject: String,
    pub limit: i64,
    pub window_ms: i64,
}

/// What a reservation found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reserved {
    /// A place was taken under every key: the rows' ids, and for each key what was
    /// counted before this attempt.
    Taken {
        ids: Vec<String>,
        before: Vec<Written>,
    },
    /// Key `key` is full until `free_at`; nothing was written.
    Refused { key: usize, free_at: i64 },
}

/// What was counted under one key within its window: how many, and when the oldest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Written {
    pub count: i64,
    pub oldest: Option<i64>,
}

diesel::define_sql_function!(fn pg_advisory_xact_lock(key: diesel::sql_types::BigInt));
diesel::define_sql_function!(fn hashtextextended(t: diesel::sql_types::Text, seed: diesel::sql_types::BigInt) -> diesel::sql_types::BigInt);

/// Locks the keys `(kind, subject)` until the transaction ends, in a fixed order (no
/// deadlock between two reservations that share keys).
fn lock_keys(c: &mut DbConn, keys: &[(&str, &str)]) -> Result<(), diesel::result::Error> {
    let mut names: Vec<String> = keys.iter().map(|(k, s)| format!("{k}\u{1f}{s}")).collect();
    names.sort();
    names.dedup();
    match c {
        DbConn::Pg(pg) => {
            for n in names {
                diesel::select(pg_advisory_xact_lock(hashtextextended(n, 7254032))).execute(pg)?;
            }
        }
        DbConn::Sqlite(_) => {
            // a write first: SQLite takes the database's write lock now, so that the
            // count below cannot be overtaken by another writer's insert
            diesel::update(limit_attempts::table.filter(limit_attempts::id.eq("")))
                .set(limit_attempts::at.eq(0))
                .execute(c)?;
        }
    }
    Ok(())
}

impl Store {
    /// Takes one place under each of `keys` at `now`, or none when any is full (see the
    /// module documentation).
    pub async fn reserve_limits(
        &self,
        keys: Vec<LimitKey>,
        now: i64,
    ) -> Result<Reserved, StoreError> {
        let reserved = self
            .run(move |c| {
                transaction(c, |c| {
                    let names: Vec<(&str, &str)> =
                        keys.iter().map(|k| (k.kind, k.subject.as_str())).collect();
                    lock_keys(c, &names)?;
                    let mut before = Vec::with_capacity(keys.len());
                    for (i, k) in keys.iter().enumerate() {
                        let since = now - k.window_ms;
                        let times: Vec<i64> = limit_attempts::table
                            .filter(limit_attempts::kind.eq(k.kind))
                            .filter(limit_attempts::subject.eq(&k.subject))
                            .filter(limit_attempts::at.gt(since))
                            .order(limit_attempts::at.asc())
                            .select(limit_attempts::at)
                            .limit(k.limit.max(1).saturating_mul(4))
                            .load(c)?;
                        let n = times.len() as i64;
                        if n >= k.limit {
                            // the count drops below the limit when the (n - limit + 1)-th
                            // oldest leaves the window
                            let i_free = (n - k.limit.max(0)).clamp(0, n - 1) as usize;
                            let free_at = times.get(i_free).copied().unwrap_or(now) + k.window_ms;
                            return Ok(Reserved::Refused { key: i, free_at });
                        }
                        before.push(Written {
                            count: n,
                            oldest: times.first().copied(),
                        });
                    }
                    let mut ids = Vec::with_capacity(keys.len());
                    for k in &keys {
                        let id = uuid::Uuid::new_v4().to_string();
                        diesel::insert_into(limit_attempts::table)
                            .values((
                                limit_attempts::id.eq(&id),
                                limit_attempts::kind.eq(k.kind),
                                limit_attempts::subject.eq(&k.subject),
                                limit_attempts::at.eq(now),
                            ))
                            .execute(c)?;
                        ids.push(id);
                    }
                    Ok::<_, diesel::result::Error>(Reserved::Taken { ids, before })
                })
                .map_err(StoreError::from)
            })
            .await?;
        Ok(reserved)
    }

    /// Hands back the places of a reservation (the attempt they counted did not happen,
    /// or does not count).
    pub async fn release_limits(&self, ids: Vec<String>) -> Result<(), StoreError> {
        if ids.is_empty() {
            return Ok(());
        }
        self.run(move |c| {
            diesel::delete(limit_attempts::table.filter(limit_attempts::id.eq_any(ids)))
                .execute(c)?;
            Ok(())
        })
        .await
    }

    /// Forgets every attempt of `kind` by `subject` (a successful login clears its
    /// account's failures), under the key's lock.
    pub async fn clear_limit_attempts(
        &self,
        kind: &'static str,
        subject: String,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                lock_keys(c, &[(kind, subject.as_str())])?;
                diesel::delete(
                    limit_attempts::table
                        .filter(limit_attempts::kind.eq(kind))
                        .filter(limit_attempts::subject.eq(&subject)),
                )
                .execute(c)
            })?;
            Ok(())
        })
        .await
    }

    /// Forgets attempts older than `before` (at most 1,000 at a time), skipping rows
    /// that another transaction holds (so that it never waits for, nor deadlocks with, a
    /// reservation).
    pub async fn forget_limit_attempts(&self, before: i64) -> Result<usize, StoreError> {
        self.run(move |c| {
            Ok(match c {
                DbConn::Pg(pg) => diesel::sql_query(
                    "DELETE FROM limit_attempts WHERE id IN (SELECT id FROM limit_attempts \
                     WHERE at < $1 LIMIT 1000 FOR UPDATE SKIP LOCKED)",
                )
                .bind::<diesel::sql_types::BigInt, _>(before)
                .execute(pg)?,
                DbConn::Sqlite(sq) => diesel::sql_query(
                    "DELETE FROM limit_attempts WHERE id IN (SELECT id FROM limit_attempts \
                     WHERE at < ? LIMIT 1000)",
                )
                .bind::<diesel::sql_types::BigInt, _>(before)
                .execute(sq)?,
            })
        })
        .await
    }
}
