//! Computer opponents' accounts and the turns waiting for them. A bot is an account the
//! server plays itself (`users.bot` names its level); a game seats one account per bot
//! seat (`bot-greedy-1`, `bot-greedy-2`, ...), so seats, views and the decision service
//! treat it as any player.

use diesel::prelude::*;

use super::schema::{games, users};
use super::{GameStatus, Store, StoreError, UserRow};

/// The levels of the server's own bots (`users.bot`).
pub const BOT_LEVELS: &[&str] = &["random", "greedy", "mcts"];

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
    /// needed. Its password cannot be used and its address receives nothing.
    pub async fn bot_user(&self, level: String, k: u8, now: i64) -> Result<String, StoreError> {
        self.run(move |c| {
            let name = format!("bot-{level}-{k}");
            c.transaction(|c| {
                let found: Option<(String, Option<String>)> = users::table
                    .filter(users::username.eq(&name))
                    .select((users::id, users::bot))
                    .first(c)
                    .optional()?;
                if let Some((id, bot)) = found {
                    if bot.as_deref() != Some(level.as_str()) {
                        return Err(diesel::result::Error::RollbackTransaction);
                    }
                    return Ok(id);
                }
                let id = uuid::Uuid::new_v4().to_string();
                diesel::insert_into(users::table)
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
                    .execute(c)?;
                Ok(id)
            })
            .map_err(|e| match e {
                diesel::result::Error::RollbackTransaction => {
                    StoreError::Conflict(super::Conflict::UsernameTaken)
                }
                other => other.into(),
            })
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
