//! The daily digest: who takes one, their waiting games, and the once-a-day mark.

use super::conn::transaction;
use diesel::prelude::*;

use super::schema::{games, users};
use super::{game_rows, GameRecord, GameRow, GameStatus, OutboxRow, SeatInfo, Store, StoreError};

/// A user who takes the daily digest.
#[derive(Clone, Debug)]
pub struct DigestUser {
    pub to: SeatInfo,
    /// The hour (0–23) in `to.time_zone`.
    pub hour: i32,
    /// The local date of the last digest.
    pub sent_on: Option<String>,
}

type DigestTuple = (
    String,
    String,
    String,
    i32,
    i32,
    String,
    String,
    Option<i32>,
    Option<String>,
    i64,
);

impl Store {
    /// Up to `limit` users with a digest hour, by id after `after` (a page of them).
    pub async fn digest_users(
        &self,
        after: String,
        limit: i64,
    ) -> Result<Vec<DigestUser>, StoreError> {
        self.run(move |c| {
            let rows: Vec<DigestTuple> = users::table
                .filter(users::digest_hour.is_not_null())
                .filter(users::deleted_at.is_null())
                .filter(users::email_verified_at.is_not_null())
                .filter(users::id.gt(&after))
                .order(users::id.asc())
                .limit(limit)
                .select((
                    users::id,
                    users::username,
                    users::email,
                    users::notify_turn,
                    users::notify_finished,
                    users::locale,
                    users::time_zone,
                    users::digest_hour,
                    users::digest_sent_on,
                    users::created_at,
                ))
                .load(c)?;
            Ok(rows
                .into_iter()
                .filter_map(
                    |(id, username, email, nt, nf, locale, tz, hour, sent_on, at)| {
                        Some(DigestUser {
                            to: SeatInfo {
                                seat: 0,
                                user_id: id,
                                username,
                                email,
                                notify_turn: nt != 0,
                                notify_finished: nf != 0,
                                joined_at: at,
                                locale,
                                time_zone: tz,
                                bot: None,
                            },
                            hour: hour?,
                            sent_on,
                        })
                    },
                )
                .collect())
        })
        .await
    }

    /// The running games waiting for `user_id`'s decision, the longest waiting first (at
    /// most `limit`).
    pub async fn waiting_games(
        &self,
        user_id: String,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        self.run(move |c| {
            let records: Vec<GameRecord> = games::table
                .filter(games::status.eq(GameStatus::Active.as_str()))
                .filter(games::current_user_id.eq(&user_id))
                .order(games::turn_started_at.asc())
                .limit(limit)
                .select(GameRecord::as_select())
                .load(c)?;
            game_rows(records)
        })
        .await
    }

    /// Marks `user_id`'s digest of local date `day` sent and queues `message` with it, in
    /// one transaction; `false` when that day's digest was already marked (by another
    /// process).
    pub async fn mark_digest(
        &self,
        user_id: String,
        day: String,
        message: Option<OutboxRow>,
    ) -> Result<bool, StoreError> {
        self.run(move |c| {
            Ok(transaction(c, |c| {
                let n = diesel::update(
                    users::table.find(&user_id).filter(
                        users::digest_sent_on
                            .is_null()
                            .or(users::digest_sent_on.ne(&day)),
                    ),
                )
                .set(users::digest_sent_on.eq(Some(&day)))
                .execute(c)?;
                if n == 0 {
                    return Ok::<bool, diesel::result::Error>(false);
                }
                if let Some(m) = &message {
                    super::stream::queue(c, std::slice::from_ref(m), &[])?;
                }
                Ok(true)
            })?)
        })
        .await
    }
}
