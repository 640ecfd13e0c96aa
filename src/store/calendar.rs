//! Deadline calendars: each user's one secret feed, kept as the SHA-256 of its token.
//! A new feed replaces the old one in one statement pair under the user's row, so two
//! requests that arrive together leave exactly one feed and the other URL dead.

use super::conn::lock_user;
use super::conn::transaction;
use diesel::prelude::*;

use super::schema::{calendar_feeds, users};
use super::{Store, StoreError, UserRow};

impl Store {
    /// Makes `token_hash` the user's calendar feed (the old one stops working); when it
    /// was made.
    pub async fn replace_calendar(
        &self,
        user_id: String,
        token_hash: String,
        now: i64,
    ) -> Result<i64, StoreError> {
        self.run(move |c| {
            Ok(transaction(c, |c| {
                // the user's row first: replacements of one user are serialised
                lock_user(c, &user_id)?;
                diesel::delete(calendar_feeds::table.find(&user_id)).execute(c)?;
                diesel::insert_into(calendar_feeds::table)
                    .values((
                        calendar_feeds::user_id.eq(&user_id),
                        calendar_feeds::token_hash.eq(&token_hash),
                        calendar_feeds::created_at.eq(now),
                    ))
                    .execute(c)?;
                Ok::<_, diesel::result::Error>(now)
            })?)
        })
        .await
    }

    /// When the user's calendar feed was made, if they have one.
    pub async fn calendar_of(&self, user_id: String) -> Result<Option<i64>, StoreError> {
        self.run(move |c| {
            Ok(calendar_feeds::table
                .find(&user_id)
                .select(calendar_feeds::created_at)
                .first(c)
                .optional()?)
        })
        .await
    }

    /// Revokes the user's calendar feed; whether there was one.
    pub async fn delete_calendar(&self, user_id: String) -> Result<bool, StoreError> {
        self.run(move |c| Ok(diesel::delete(calendar_feeds::table.find(&user_id)).execute(c)? > 0))
            .await
    }

    /// The user whose calendar feed has this token hash (not a deleted account).
    pub async fn calendar_user(&self, token_hash: String) -> Result<Option<UserRow>, StoreError> {
        self.run(move |c| {
            Ok(calendar_feeds::table
                .inner_join(users::table)
                .filter(calendar_feeds::token_hash.eq(&token_hash))
                .filter(users::deleted_at.is_null())
                .select(UserRow::as_select())
                .first(c)
                .optional()?)
        })
        .await
    }
}
