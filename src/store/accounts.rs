//! Accounts: sign-up (names unique in any case, and kept from reuse for a while after a
//! deletion), reading and changing a user's row; single-use email links (address
//! confirmation, password reset) stored as hashes, password and address changes, the
//! export of a user's own data, and deletion (the row stays, anonymised, so that the
//! seats of its games keep a name; everything personal goes).

use super::conn::transaction;
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::schema::{
    access_tokens, account_tokens, calendar_feeds, chat_messages, game_invites, game_seats, games,
    idempotency_keys, limit_attempts, notification_prefs, outbox, reminder_settings,
    retired_usernames, standing_orders, stream_events, turn_plans, users, vacations,
    webhook_attempts, webhook_deliveries, webhook_endpoints,
};
use super::{
    load_seats, lower, ChatRow, Conflict, GameRow, OutboxRow, SeatInfo, Store, StoreError, TxError,
    UserChanges, UserRow, BOT_ACCOUNT,
};

/// What an emailed link is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenPurpose {
    VerifyEmail,
    PasswordReset,
}

impl TokenPurpose {
    fn as_str(self) -> &'static str {
        match self {
            TokenPurpose::VerifyEmail => "verify_email",
            TokenPurpose::PasswordReset => "password_reset",
        }
    }
}

/// A single-use link to store: only the hash of its token.
#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = account_tokens)]
pub struct AccountToken {
    pub id: String,
    pub user_id: String,
    pub purpose: String,
    /// SHA-256 of the token, hex.
    pub token_hash: String,
    /// The address the link was sent to.
    pub email: String,
    pub created_at: i64,
    pub expires_at: i64,
    pub used_at: Option<i64>,
}

impl AccountToken {
    pub fn new(
        user_id: &str,
        purpose: TokenPurpose,
        token_hash: String,
        email: &str,
        now: i64,
        ttl_ms: i64,
    ) -> AccountToken {
        AccountToken {
            id: uuid::Uuid::new_v4().to_string(),
            user_id: user_id.to_string(),
            purpose: purpose.as_str().to_string(),
            token_hash,
            email: email.to_string(),
            created_at: now,
            expires_at: now + ttl_ms,
            used_at: None,
        }
    }
}

/// A game of the exporting user, with every seat.
#[derive(Clone, Debug)]
pub struct ExportedGame {
    pub game: GameRow,
    pub seats: Vec<SeatInfo>,
}

/// Everything the export shows besides the account row and its settings.
#[derive(Clone, Debug)]
pub struct AccountExport {
    pub games: Vec<ExportedGame>,
    pub chat: Vec<ChatRow>,
}

/// Voids the unused links of `purpose` of a user (a new one replaces them).
fn void_links(c: &mut super::DbConn, user_id: &str, purpose: &str, now: i64) -> QueryResult<()> {
    diesel::update(
        account_tokens::table
            .filter(account_tokens::user_id.eq(user_id))
            .filter(account_tokens::purpose.eq(purpose))
            .filter(account_tokens::used_at.is_null()),
    )
    .set(account_tokens::used_at.eq(Some(now)))
    .execute(c)?;
    Ok(())
}

/// Takes the link with this hash once: marks it used and returns it, when it exists, is
/// for `purpose`, is unused, has not expired and its account is not deleted. Of two
/// requests racing with one link, exactly one gets it.
fn take_link(
    c: &mut super::DbConn,
    hash: &str,
    purpose: TokenPurpose,
    now: i64,
) -> Result<Option<AccountToken>, DieselError> {
    let n = diesel::update(
        account_tokens::table
            .filter(account_tokens::token_hash.eq(hash))
            .filter(account_tokens::purpose.eq(purpose.as_str()))
            .filter(account_tokens::used_at.is_null())
            .filter(account_tokens::expires_at.gt(now)),
    )
    .set(account_tokens::used_at.eq(Some(now)))
    .execute(c)?;
    if n != 1 {
        return Ok(None);
    }
    let t: AccountToken = account_tokens::table
        .filter(account_tokens::token_hash.eq(hash))
        .select(AccountToken::as_select())
        .first(c)?;
    let live: Option<String> = users::table
        .find(&t.user_id)
        .filter(users::deleted_at.is_null())
        .filter(users::email.eq(&t.email))
        .select(users::id)
        .first(c)
        .optional()?;
    Ok(live.map(|_| t))
}

/// What a password change revoked: how many login sessions, and the personal access
/// tokens by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Revoked {
    pub sessions: usize,
    pub personal_tokens: Vec<String>,
    /// The deadline calendar's secret URL (it shows the account's games).
    pub calendar: bool,
}

/// Sets the password hash (the user's row is written first, so that a concurrent token
/// creation, which locks the same row, comes wholly before or after), voids the reset
/// links, and deletes every session but `keep` and every personal access token.
fn change_password(
    c: &mut super::DbConn,
    user_id: &str,
    password_hash: &str,
    keep: Option<&str>,
    now: i64,
) -> QueryResult<Revoked> {
    diesel::update(users::table.find(user_id))
        .set(users::password_hash.eq(password_hash))
        .execute(c)?;
    void_links(c, user_id, TokenPurpose::PasswordReset.as_str(), now)?;
    let sessions = access_tokens::table
        .filter(access_tokens::user_id.eq(user_id))
        .filter(access_tokens::kind.eq(super::SESSION));
    let sessions = match keep {
        Some(k) => diesel::delete(sessions.filter(access_tokens::id.ne(k))).execute(c)?,
        None => diesel::delete(sessions).execute(c)?,
    };
    let personal = access_tokens::table
        .filter(access_tokens::user_id.eq(user_id))
        .filter(access_tokens::kind.eq(super::PERSONAL));
    let personal_tokens: Vec<String> = personal
        .select(access_tokens::name)
        .order((access_tokens::created_at.asc(), access_tokens::name.asc()))
        .load::<Option<String>>(c)?
        .into_iter()
        .flatten()
        .collect();
    diesel::delete(personal).execute(c)?;
    let calendar =
        diesel::delete(calendar_feeds::table.filter(calendar_feeds::user_id.eq(user_id)))
            .execute(c)?
            > 0;
    Ok(Revoked {
        sessions,
        personal_tokens,
        calendar,
    })
}

/// Queues the message `message` builds for user `user_id` (none: nothing).
fn queue_for<M>(
    c: &mut super::DbConn,
    user_id: &str,
    revoked: &Revoked,
    message: M,
) -> QueryResult<()>
where
    M: FnOnce(&UserRow, &Revoked) -> Option<OutboxRow>,
{
    let u: UserRow = users::table
        .find(user_id)
        .select(UserRow::as_select())
        .first(c)?;
    if let Some(row) = message(&u, revoked) {
        super::stream::queue(c, &[row], &[])?;
    }
    Ok(())
}

impl Store {
    // ----- users --------------------------------------------------------------------

    /// Stores a new account, unless its name (in any case) is taken or was the name of
    /// an account deleted within the last `retired_days` days (0: ever).
    pub async fn create_user(&self, row: UserRow, retired_days: i64) -> Result<(), StoreError> {
        use super::schema::retired_usernames;
        self.run(move |c| {
            transaction(c, |c| {
                diesel::insert_into(users::table)
                    .values(&row)
                    .execute(c)
                    .map_err(|e| {
                        TxError::Store(match StoreError::from(e) {
                            StoreError::Conflict(_) => {
                                StoreError::Conflict(Conflict::UsernameTaken)
                            }
                            other => other,
                        })
                    })?;
                // checked after the insert: a deletion of the name's account that commits
                // meanwhile held the name's unique key until then, so its retirement is
                // seen here
                let mut retired = retired_usernames::table
                    .filter(retired_usernames::name.eq(row.username.to_lowercase()))
                    .into_boxed();
                if retired_days > 0 {
                    retired = retired.filter(
                        retired_usernames::retired_at
                            .gt(row.created_at - retired_days.saturating_mul(86_400_000)),
                    );
                }
                let taken: i64 = retired.count().get_result(c)?;
                if taken > 0 {
                    return Err(TxError::Store(StoreError::Conflict(
                        Conflict::UsernameTaken,
                    )));
                }
                Ok(())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    pub async fn user_by_username(&self, name: String) -> Result<Option<UserRow>, StoreError> {
        self.run(move |c| {
            Ok(users::table
                .filter(lower(users::username).eq(name.to_lowercase()))
                .filter(users::deleted_at.is_null())
                .select(UserRow::as_select())
                .first(c)
                .optional()?)
        })
        .await
    }

    /// The user of an id, unless the account was deleted.
    pub async fn user_by_id(&self, id: String) -> Result<Option<UserRow>, StoreError> {
        self.run(move |c| {
            Ok(users::table
                .find(id)
                .filter(users::deleted_at.is_null())
                .select(UserRow::as_select())
                .first(c)
                .optional()?)
        })
        .await
    }

    /// Applies `changes` to a user's account; the account as it is then.
    pub async fn update_user(
        &self,
        id: String,
        changes: UserChanges,
    ) -> Result<Option<UserRow>, StoreError> {
        let UserChanges {
            notify_turn,
            notify_finished,
            locale,
            time_zone,
            bot,
            digest_hour,
        } = changes;
        self.run(move |c| {
            transaction(c, |c| {
                if let Some(h) = digest_hour {
                    diesel::update(users::table.find(&id))
                        .set(users::digest_hour.eq(h))
                        .execute(c)?;
                }
                if let Some(b) = bot {
                    // only a person's account and a marked one change; the server's own
                    // bots stay what they are
                    diesel::update(
                        users::table
                            .find(&id)
                            .filter(users::bot.is_null().or(users::bot.eq(BOT_ACCOUNT))),
                    )
                    .set(users::bot.eq(b.then_some(BOT_ACCOUNT)))
                    .execute(c)?;
                }
                if let Some(l) = locale {
                    diesel::update(users::table.find(&id))
                        .set(users::locale.eq(l))
                        .execute(c)?;
                }
                if let Some(z) = time_zone {
                    diesel::update(users::table.find(&id))
                        .set(users::time_zone.eq(z))
                        .execute(c)?;
                }
                if let Some(t) = notify_turn {
                    diesel::update(users::table.find(&id))
                        .set(users::notify_turn.eq(t as i32))
                        .execute(c)?;
                }
                if let Some(f) = notify_finished {
                    diesel::update(users::table.find(&id))
                        .set(users::notify_finished.eq(f as i32))
                        .execute(c)?;
                }
                users::table
                    .find(&id)
                    .select(UserRow::as_select())
                    .first(c)
                    .optional()
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// The live accounts with this address (in any case) that had confirmed it at
    /// `confirmed_by` (ms).
    pub async fn verified_users_by_email(
        &self,
        email: String,
        confirmed_by: i64,
    ) -> Result<Vec<super::UserRow>, StoreError> {
        self.run(move |c| {
            Ok(users::table
                .filter(super::lower(users::email).eq(email.to_lowercase()))
                .filter(users::deleted_at.is_null())
                .filter(users::email_verified_at.le(confirmed_by))
                .order(users::created_at.asc())
                .limit(10)
                .select(super::UserRow::as_select())
                .load(c)?)
        })
        .await
    }

    /// Stores a link (voiding the earlier unused links of its purpose) with the message
    /// that carries it, in one transaction.
    pub async fn add_link(&self, link: AccountToken, message: OutboxRow) -> Result<(), StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                void_links(c, &link.user_id, &link.purpose, link.created_at)?;
                diesel::insert_into(account_tokens::table)
                    .values(&link)
                    .execute(c)?;
                diesel::insert_into(outbox::table)
                    .values(&message)
                    .execute(c)?;
                Ok::<_, DieselError>(())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// Confirms an address with a link; the user id when it worked.
    pub async fn confirm_email(
        &self,
        hash: String,
        now: i64,
    ) -> Result<Option<String>, StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                let Some(t) = take_link(c, &hash, TokenPurpose::VerifyEmail, now)? else {
                    return Ok(None);
                };
                diesel::update(users::table.find(&t.user_id))
                    .set(users::email_verified_at.eq(Some(now)))
                    .execute(c)?;
                Ok::<_, DieselError>(Some(t.user_id))
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// Sets the password of the account whose live reset link hashes to `hash`, voids
    /// its other reset links and revokes every credential that the old password could
    /// have made (all login sessions, all personal access tokens), with the message
    /// `message` builds from the account and what was revoked, in one transaction.
    /// `None` when the link is not live.
    pub async fn reset_password<M>(
        &self,
        hash: String,
        password_hash: String,
        now: i64,
        message: M,
    ) -> Result<Option<(String, Revoked)>, StoreError>
    where
        M: FnOnce(&UserRow, &Revoked) -> Option<OutboxRow> + Send + 'static,
    {
        self.run(move |c| {
            transaction(c, |c| {
                let Some(t) = take_link(c, &hash, TokenPurpose::PasswordReset, now)? else {
                    return Ok(None);
                };
                let revoked = change_password(c, &t.user_id, &password_hash, None, now)?;
                queue_for(c, &t.user_id, &revoked, message)?;
                Ok::<_, DieselError>(Some((t.user_id, revoked)))
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// Whether the link with this hash would be taken now (without taking it).
    pub async fn link_is_live(
        &self,
        hash: String,
        purpose: TokenPurpose,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.run(move |c| {
            let t: Option<AccountToken> = account_tokens::table
                .filter(account_tokens::token_hash.eq(&hash))
                .filter(account_tokens::purpose.eq(purpose.as_str()))
                .filter(account_tokens::used_at.is_null())
                .filter(account_tokens::expires_at.gt(now))
                .select(AccountToken::as_select())
                .first(c)
                .optional()?;
            let Some(t) = t else {
                return Ok(false);
            };
            let live: Option<String> = users::table
                .find(&t.user_id)
                .filter(users::deleted_at.is_null())
                .filter(users::email.eq(&t.email))
                .select(users::id)
                .first(c)
                .optional()?;
            Ok(live.is_some())
        })
        .await
    }

    /// Sets a user's password hash, voids its reset links and revokes every login
    /// session but `keep` (the session that made the change) and every personal access
    /// token, with the message `message` builds, in one transaction.
    pub async fn set_password<M>(
        &self,
        user_id: String,
        password_hash: String,
        keep: String,
        now: i64,
        message: M,
    ) -> Result<Revoked, StoreError>
    where
        M: FnOnce(&UserRow, &Revoked) -> Option<OutboxRow> + Send + 'static,
    {
        self.run(move |c| {
            transaction(c, |c| {
                let revoked = change_password(c, &user_id, &password_hash, Some(&keep), now)?;
                queue_for(c, &user_id, &revoked, message)?;
                Ok::<_, DieselError>(revoked)
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// Changes a user's address: it is unconfirmed until the link of `message` is used;
    /// the links sent to the old address are void.
    pub async fn change_email(
        &self,
        user_id: String,
        email: String,
        link: AccountToken,
        message: OutboxRow,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                diesel::update(users::table.find(&user_id))
                    .set((
                        users::email.eq(&email),
                        users::email_verified_at.eq(None::<i64>),
                    ))
                    .execute(c)?;
                void_links(
                    c,
                    &user_id,
                    TokenPurpose::PasswordReset.as_str(),
                    link.created_at,
                )?;
                void_links(c, &user_id, &link.purpose, link.created_at)?;
                diesel::insert_into(account_tokens::table)
                    .values(&link)
                    .execute(c)?;
                diesel::insert_into(outbox::table)
                    .values(&message)
                    .execute(c)?;
                Ok::<_, DieselError>(())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// The games a user has a seat at (with every seat, newest first) and the chat lines
    /// they wrote (oldest first).
    pub async fn export_of(&self, user_id: String) -> Result<AccountExport, StoreError> {
        self.run(move |c| {
            let records: Vec<super::GameRecord> = games::table
                .filter(
                    games::id.eq_any(
                        game_seats::table
                            .filter(game_seats::user_id.eq(&user_id))
                            .select(game_seats::game_id),
                    ),
                )
                .order((games::created_at.desc(), games::id.desc()))
                .select(super::GameRecord::as_select())
                .load(c)?;
            let rows = super::game_rows(records)?;
            let ids: Vec<String> = rows.iter().map(|g| g.id.clone()).collect();
            let mut seats = load_seats(c, &ids)?;
            let games = rows
                .into_iter()
                .map(|g| ExportedGame {
                    seats: seats.remove(&g.id).unwrap_or_default(),
                    game: g,
                })
                .collect();
            let chat: Vec<ChatRow> = chat_messages::table
                .filter(chat_messages::user_id.eq(&user_id))
                .order((chat_messages::created_at.asc(), chat_messages::id.asc()))
                .select(ChatRow::as_select())
                .load(c)?;
            Ok(AccountExport { games, chat })
        })
        .await
    }

    /// Deletes an account's personal data: its address, password hash, settings,
    /// webhooks and their deliveries, messages, links, vacations, invitations, chat lines
    /// and counted attempts; the row stays under `anonymous_name` (for the seats of its
    /// games), marked deleted, so no token or login reaches it again. The caller has
    /// taken the user out of their open and running games first.
    pub async fn delete_account(
        &self,
        user_id: String,
        anonymous_name: String,
        now: i64,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                // the first statement writes, so SQLite takes its write lock at once
                let n = diesel::update(
                    users::table
                        .find(&user_id)
                        .filter(users::deleted_at.is_null()),
                )
                .set(users::deleted_at.eq(Some(now)))
                .execute(c)?;
                if n == 0 {
                    return Err(TxError::Store(StoreError::UnknownUser));
                }
                let old: String = users::table
                    .find(&user_id)
                    .select(users::username)
                    .first(c)?;
                // the name stays reserved (in any case) for nobody else to take
                diesel::delete(
                    retired_usernames::table.filter(retired_usernames::name.eq(old.to_lowercase())),
                )
                .execute(c)?;
                diesel::insert_into(retired_usernames::table)
                    .values((
                        retired_usernames::name.eq(old.to_lowercase()),
                        retired_usernames::retired_at.eq(now),
                    ))
                    .execute(c)?;
                lock_messages(c, &user_id)?;
                let endpoint_ids = webhook_endpoints::table
                    .filter(webhook_endpoints::user_id.eq(&user_id))
                    .select(webhook_endpoints::id);
                let delivery_ids = webhook_deliveries::table
                    .filter(
                        webhook_deliveries::user_id
                            .eq(&user_id)
                            .or(webhook_deliveries::endpoint_id.eq_any(endpoint_ids)),
                    )
                    .select(webhook_deliveries::id);
                diesel::delete(
                    webhook_attempts::table
                        .filter(webhook_attempts::delivery_id.eq_any(delivery_ids)),
                )
                .execute(c)?;
                diesel::delete(
                    webhook_deliveries::table.filter(
                        webhook_deliveries::user_id.eq(&user_id).or(
                            webhook_deliveries::endpoint_id.eq_any(
                                webhook_endpoints::table
                                    .filter(webhook_endpoints::user_id.eq(&user_id))
                                    .select(webhook_endpoints::id),
                            ),
                        ),
                    ),
                )
                .execute(c)?;
                diesel::delete(calendar_feeds::table.filter(calendar_feeds::user_id.eq(&user_id)))
                    .execute(c)?;
                diesel::delete(
                    reminder_settings::table.filter(reminder_settings::user_id.eq(&user_id)),
                )
                .execute(c)?;
                // every session and personal access token of the user
                diesel::delete(access_tokens::table.filter(access_tokens::user_id.eq(&user_id)))
                    .execute(c)?;
                // deliveries of the user's messages to anyone (the relay) went above
                let outbox_ids = outbox::table
                    .filter(outbox::user_id.eq(&user_id))
                    .select(outbox::id);
                diesel::delete(
                    webhook_attempts::table.filter(
                        webhook_attempts::delivery_id.eq_any(
                            webhook_deliveries::table
                                .filter(webhook_deliveries::outbox_id.eq_any(outbox_ids))
                                .select(webhook_deliveries::id),
                        ),
                    ),
                )
                .execute(c)?;
                diesel::delete(
                    webhook_deliveries::table.filter(
                        webhook_deliveries::outbox_id.eq_any(
                            outbox::table
                                .filter(outbox::user_id.eq(&user_id))
                                .select(outbox::id),
                        ),
                    ),
                )
                .execute(c)?;
                diesel::delete(outbox::table.filter(outbox::user_id.eq(&user_id))).execute(c)?;
                diesel::delete(
                    webhook_endpoints::table.filter(webhook_endpoints::user_id.eq(&user_id)),
                )
                .execute(c)?;
                super::push::delete_all_of(c, &user_id)?;
                diesel::delete(
                    notification_prefs::table.filter(notification_prefs::user_id.eq(&user_id)),
                )
                .execute(c)?;
                diesel::delete(account_tokens::table.filter(account_tokens::user_id.eq(&user_id)))
                    .execute(c)?;
                diesel::delete(
                    standing_orders::table.filter(standing_orders::user_id.eq(&user_id)),
                )
                .execute(c)?;
                diesel::delete(turn_plans::table.filter(turn_plans::user_id.eq(&user_id)))
                    .execute(c)?;
                diesel::delete(vacations::table.filter(vacations::user_id.eq(&user_id)))
                    .execute(c)?;
                diesel::delete(game_invites::table.filter(game_invites::user_id.eq(&user_id)))
                    .execute(c)?;
                diesel::delete(
                    idempotency_keys::table.filter(idempotency_keys::user_id.eq(&user_id)),
                )
                .execute(c)?;
                diesel::delete(chat_messages::table.filter(chat_messages::user_id.eq(&user_id)))
                    .execute(c)?;
                diesel::delete(stream_events::table.filter(stream_events::user_id.eq(&user_id)))
                    .execute(c)?;
                diesel::delete(
                    limit_attempts::table.filter(
                        limit_attempts::subject
                            .eq(old.to_lowercase())
                            .or(limit_attempts::subject.eq(&user_id)),
                    ),
                )
                .execute(c)?;
                diesel::update(users::table.find(&user_id))
                    .set((
                        users::username.eq(&anonymous_name),
                        users::email.eq(""),
                        users::password_hash.eq(""),
                        users::notify_turn.eq(0),
                        users::notify_finished.eq(0),
                        users::locale.eq(crate::i18n::DEFAULT_LOCALE),
                        users::time_zone.eq(crate::i18n::DEFAULT_TIME_ZONE),
                        users::email_verified_at.eq(None::<i64>),
                        users::deleted_at.eq(Some(now)),
                    ))
                    .execute(c)?;
                Ok(())
            })
            .map_err(StoreError::from)
        })
        .await
    }
}

/// Postgres: locks the user's messages and their deliveries (in the order of their ids,
/// as the notify worker records attempts) before they are deleted, so that the worker
/// fanning a message out or recording an attempt either commits first (and what it
/// wrote is deleted with the rest) or waits for the deletion (and finds the rows gone).
/// SQLite serialises writers: nothing to lock.
fn lock_messages(c: &mut super::conn::DbConn, user_id: &str) -> Result<(), DieselError> {
    if let super::conn::DbConn::Pg(pg) = c {
        outbox::table
            .filter(outbox::user_id.eq(user_id))
            .order(outbox::id)
            .select(outbox::id)
            .for_update()
            .load::<String>(pg)?;
        webhook_deliveries::table
            .filter(webhook_deliveries::user_id.eq(user_id))
            .order(webhook_deliveries::id)
            .select(webhook_deliveries::id)
            .for_update()
            .load::<String>(pg)?;
    }
    Ok(())
}

/// The usernames of `ids` (those that exist), by id.
pub(super) fn usernames(
    c: &mut super::DbConn,
    ids: &[String],
) -> Result<std::collections::HashMap<String, String>, DieselError> {
    let rows: Vec<(String, String)> = users::table
        .filter(users::id.eq_any(ids))
        .select((users::id, users::username))
        .load(c)?;
    Ok(rows.into_iter().collect())
}
