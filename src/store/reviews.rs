//! Reviews of finished games by the strongest bot: the queue (a rated game's ending or a
//! player's request puts a game in it once), the claim of the next one by one worker of
//! one process, its progress, and the result.

use super::conn::transaction;
use diesel::prelude::*;

use super::schema::reviews;
use super::{DbConn, ReviewState, Store, StoreError, TxError};

/// A review as stored: `judged` is JSON (the bots' `review::Judged` list).
#[derive(Clone, Debug, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = reviews)]
pub struct ReviewRow {
    pub game_id: String,
    pub status: String,
    pub total: i32,
    pub judged: String,
    pub error: Option<String>,
    pub requested_at: i64,
    pub updated_at: i64,
}

/// Queues a review of `game_id` unless it has one (in the caller's transaction). Two
/// callers racing on one game: the second insert fails on the key (see
/// [`Store::request_review`]).
pub(super) fn queue(c: &mut DbConn, game_id: &str, now: i64) -> Result<bool, TxError> {
    let exists: i64 = reviews::table
        .filter(reviews::game_id.eq(game_id))
        .count()
        .get_result(c)?;
    if exists > 0 {
        return Ok(false);
    }
    diesel::insert_into(reviews::table)
        .values(ReviewRow {
            game_id: game_id.to_string(),
            status: ReviewState::Queued.as_str().into(),
            total: 0,
            judged: "[]".into(),
            error: None,
            requested_at: now,
            updated_at: now,
        })
        .execute(c)?;
    Ok(true)
}

impl Store {
    /// Queues a review of `game_id` (`true`), or says it has one already (`false`).
    pub async fn request_review(&self, game_id: String, now: i64) -> Result<bool, StoreError> {
        let out = self
            .run(move |c| transaction(c, |c| queue(c, &game_id, now)).map_err(StoreError::from))
            .await;
        match out {
            // another request queued it meanwhile
            Err(StoreError::Conflict(_)) => Ok(false),
            other => other,
        }
    }

    /// The review of `game_id`, if it has one.
    pub async fn review_of(&self, game_id: String) -> Result<Option<ReviewRow>, StoreError> {
        self.run(move |c| {
            Ok(reviews::table
                .find(game_id)
                .select(ReviewRow::as_select())
                .first(c)
                .optional()?)
        })
        .await
    }

    /// Claims the oldest queued review (or one left running by a worker that stopped
    /// before `stale_before`): its status becomes `running`, for this caller alone (the
    /// update is conditional on the status it read, so two processes never take the same
    /// one).
    pub async fn claim_review(
        &self,
        now: i64,
        stale_before: i64,
    ) -> Result<Option<ReviewRow>, StoreError> {
        self.run(move |c| {
            for _ in 0..8 {
                let next: Option<ReviewRow> = reviews::table
                    .filter(
                        reviews::status
                            .eq(ReviewState::Queued.as_str())
                            .or(reviews::status
                                .eq(ReviewState::Running.as_str())
                                .and(reviews::updated_at.lt(stale_before))),
                    )
                    .order((reviews::requested_at.asc(), reviews::game_id.asc()))
                    .select(ReviewRow::as_select())
                    .first(c)
                    .optional()?;
                let Some(row) = next else { return Ok(None) };
                let taken = diesel::update(
                    reviews::table
                        .filter(reviews::game_id.eq(&row.game_id))
                        .filter(reviews::status.eq(&row.status))
                        .filter(reviews::updated_at.eq(row.updated_at)),
                )
                .set((
                    reviews::status.eq(ReviewState::Running.as_str()),
                    reviews::updated_at.eq(now),
                    reviews::judged.eq("[]"),
                ))
                .execute(c)?;
                if taken == 1 {
                    return Ok(Some(ReviewRow {
                        status: ReviewState::Running.as_str().into(),
                        updated_at: now,
                        judged: "[]".into(),
                        ..row
                    }));
                }
            }
            Ok(None)
        })
        .await
    }

    /// Records a running review's progress, or its end (`status` `done` or `failed`).
    pub async fn save_review(
        &self,
        game_id: String,
        state: ReviewState,
        total: i32,
        judged: String,
        error: Option<String>,
        now: i64,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            diesel::update(reviews::table.find(&game_id))
                .set((
                    reviews::status.eq(state.as_str()),
                    reviews::total.eq(total),
                    reviews::judged.eq(judged),
                    reviews::error.eq(error),
                    reviews::updated_at.eq(now),
                ))
                .execute(c)?;
            Ok(())
        })
        .await
    }
}
