//! Computer opponents' accounts and the turns waiting for them. A bot is an account the
//! server plays itself (`users.bot` names its level); a game seats one account per bot
//! seat (`bot-greedy-1`, `bot-greedy-2`, ...), so seats, views and the decision service
//! treat it as any player.

use diesel::prelude::*;

use super::schema::{games, users};
use super::{GameStatus, Store, StoreError, UserRow};

/// The levels of the server's own bots (`users.bot`).
pub const BOT_LEVELS: &[&str] = &["random", "greedy", "mcts", "expert"];

/// A pending decision of a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotTurn {
    pub game_id: String,
    pub user_id: String,
    /// The bot's level.
    pub level: String,
    /// The game's version when the turn was read.
    pub version: i64,
}

impl Store {
    /// The account of bot number `k` (1 to 6) of `level`, made the first time it is
    /// needed. Its password cannot be used and its address receives nothing. Two first
    /// uses at once make one account: the one whose insert loses reads the winner's.
    pub async fn bot_user(&self, level: String, k: u8, now: i64) -> Result<String, StoreError> {
        self.run(move |c| {
            let name = format!("bot-{level}-{k}");
            let find = |c: &mut super::conn::DbConn| {
                let found: Option<(String, Option<String>)> = users::table
                    .filter(users::username.eq(&name))
                    .select((users::id, users::bot))
                    .first(c)
                    .optional()?;
                match found {
                    Some((id, bot)) if bot.as_deref() == Some(level.as_str()) => Ok(Some(id)),
                    Some(_) => Err(StoreError::Conflict(super::Conflict::UsernameTaken)),
                    None => Ok(None),
                }
            };
            if let Some(id) = find(c)? {
                return Ok(id);
            }
            let id = uuid::Uuid::new_v4().to_string();
            let made = diesel::insert_into(users::table)
                .values(UserRow {
                    id: id.clone(),
                    username: name.clone(),
                    email: format!("{name}@bots.invalid"),
                    password_hash: "!".to_string(),
                    notify_turn: 0,
                    notify_finished: 0,
                    created_at: now,
                    locale: "en".to_string(),
                    time_zone: "UTC".to_string(),
                    email_verified_at: None,
                    deleted_at: None,
                    bot: Some(level.clone()),
                    digest_hour: None,
                })
                .execute(c);
            match made.map_err(StoreError::from) {
                Ok(_) => Ok(id),
                // made by another request since the read above
                Err(StoreError::Conflict(_)) => {
                    find(c)?.ok_or(StoreError::Conflict(super::Conflict::UsernameTaken))
                }
                Err(e) => Err(e),
            }
        })
        .await
    }

    /// Running games whose pending decision is a bot's, oldest turn first.
    pub async fn bot_turns(&self, limit: i64) -> Result<Vec<BotTurn>, StoreError> {
        self.run(move |c| {
            let rows: Vec<(String, String, Option<String>, i64)> = games::table
                .inner_join(users::table.on(users::id.nullable().eq(games::current_user_id)))
                .filter(games::status.eq(GameStatus::Active.as_str()))
                .filter(users::bot.eq_any(BOT_LEVELS))
                .order(games::turn_started_at.asc())
                .limit(limit)
                .select((games::id, users::id, users::bot, games::version))
                .load(c)?;
            Ok(rows
                .into_iter()
                .filter_map(|(game_id, user_id, level, version)| {
                    level.map(|level| BotTurn {
                        game_id,
                        user_id,
                        level,
                        version,
                    })
                })
                .collect())
        })
        .await
    }
}
