//! Counted attempts for the abuse limits (failed logins, sign-ups), kept in the database
//! so that the limits hold across server processes.

use diesel::prelude::*;

use super::schema::limit_attempts;
use super::{Store, StoreError};

impl Store {
    /// The times of the attempts of `kind` by `subject` since `since`, oldest first (at
    /// most `max`).
    pub async fn recent_limit_attempts(
        &self,
        kind: &'static str,
        subject: String,
        since: i64,
        max: i64,
    ) -> Result<Vec<i64>, StoreError> {
        self.run(move |c| {
            Ok(limit_attempts::table
                .filter(limit_attempts::kind.eq(kind))
                .filter(limit_attempts::subject.eq(subject))
                .filter(limit_attempts::at.gt(since))
                .order(limit_attempts::at.asc())
                .select(limit_attempts::at)
                .limit(max)
                .load(c)?)
        })
        .await
    }

    /// Records attempts (`(kind, subject)` pairs) at `at`, and forgets every attempt
    /// older than `forget_before`.
    pub async fn record_limit_attempts(
        &self,
        rows: Vec<(&'static str, String)>,
        at: i64,
        forget_before: i64,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            c.transaction(|c| {
                diesel::delete(limit_attempts::table.filter(limit_attempts::at.lt(forget_before)))
                    .execute(c)?;
                for (kind, subject) in rows {
                    diesel::insert_into(limit_attempts::table)
                        .values((
                            limit_attempts::id.eq(uuid::Uuid::new_v4().to_string()),
                            limit_attempts::kind.eq(kind),
                            limit_attempts::subject.eq(subject),
                            limit_attempts::at.eq(at),
                        ))
                        .execute(c)?;
                }
                Ok(())
            })
        })
        .await
    }

    /// Forgets the attempts of `kind` by `subject` (a successful login clears its
    /// account's failures).
    pub async fn clear_limit_attempts(
        &self,
        kind: &'static str,
        subject: String,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            diesel::delete(
                limit_attempts::table
                    .filter(limit_attempts::kind.eq(kind))
                    .filter(limit_attempts::subject.eq(subject)),
            )
            .execute(c)?;
            Ok(())
        })
        .await
    }
}

/// What a user wrote of one kind within a window: how many rows, and when the oldest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Written {
    pub count: i64,
    pub oldest: Option<i64>,
}

impl Store {
    /// The games `user_id` created after `since`.
    pub async fn games_created_since(
        &self,
        user_id: String,
        since: i64,
    ) -> Result<Written, StoreError> {
        use super::schema::games;
        self.run(move |c| {
            let (count, oldest) = games::table
                .filter(games::creator_id.eq(user_id))
                .filter(games::created_at.gt(since))
                .select((
                    diesel::dsl::count_star(),
                    diesel::dsl::min(games::created_at),
                ))
                .first::<(i64, Option<i64>)>(c)?;
            Ok(Written { count, oldest })
        })
        .await
    }

    /// The chat messages `user_id` wrote (in any game) after `since`.
    pub async fn chat_written_since(
        &self,
        user_id: String,
        since: i64,
    ) -> Result<Written, StoreError> {
        use super::schema::chat_messages;
        self.run(move |c| {
            let (count, oldest) = chat_messages::table
                .filter(chat_messages::user_id.eq(user_id))
                .filter(chat_messages::created_at.gt(since))
                .select((
                    diesel::dsl::count_star(),
                    diesel::dsl::min(chat_messages::created_at),
                ))
                .first::<(i64, Option<i64>)>(c)?;
            Ok(Written { count, oldest })
        })
        .await
    }
}
