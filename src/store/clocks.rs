//! Game clocks: each running turn's clock row (days per move or a time bank, kept by
//! triggers on `games`), the banks settled in the move's own transaction, the sweep's
//! reads of running turns, and the reminders each player chose.

use std::collections::HashMap;

use super::conn::transaction;
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::schema::{game_clocks, game_seats, games, reminder_settings, users, vacations};
use super::{DbConn, GameRecord, GameRow, GameStatus, OutboxRow, Store, StoreError, TxError};

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_clocks)]
pub struct ClockRow {
    pub game_id: String,
    pub days_per_move: i32,
    /// The turn (its start) of the last reminder sent.
    pub reminded_turn: Option<i64>,
    /// The turn (its start) whose reminders are planned in `remind_at`.
    pub planned_turn: Option<i64>,
    /// When the next reminder of `planned_turn` is due (none: no more).
    pub remind_at: Option<i64>,
    /// The offset before the deadline (ms) of the last reminder sent for `reminded_turn`.
    pub reminded_before: Option<i64>,
    /// A time bank (see [`ClockRule`]): each player's bank at the
    /// start, what each of their turns adds, and the most a bank holds; none with days
    /// per move.
    pub bank_initial_ms: Option<i64>,
    pub bank_increment_ms: Option<i64>,
    pub bank_max_ms: Option<i64>,
    /// With a bank: the bank the current turn's player had when it started (kept by the
    /// triggers on `games`).
    pub turn_bank_ms: Option<i64>,
    /// The game's tournament is paused: the clock stands still since then.
    pub paused_at: Option<i64>,
    /// How long the clock stood still (earlier pauses) during the turn that started at
    /// `paused_turn`.
    pub paused_ms: i64,
    pub paused_turn: Option<i64>,
}

/// A player's vacation: while it is on, the clocks of their turns stand still.
#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = vacations)]
pub struct VacationRow {
    pub id: String,
    pub user_id: String,
    pub started_at: i64,
    /// The planned end (or where the bank runs out).
    pub ends_at: i64,
    pub until_move: i32,
    pub ended_at: Option<i64>,
}

impl VacationRow {
    /// When the vacation ends (or ended).
    pub fn end(&self) -> i64 {
        self.ended_at.map_or(self.ends_at, |e| e.min(self.ends_at))
    }
    /// The vacation is on at `now`.
    pub fn is_on(&self, now: i64) -> bool {
        self.started_at <= now && now < self.end()
    }
}

/// The vacations of `user_ids` that were on at `since` or began after it.
pub(super) fn vacations_q(
    c: &mut DbConn,
    user_ids: &[String],
    since: i64,
) -> Result<Vec<VacationRow>, StoreError> {
    Ok(vacations::table
        .filter(vacations::user_id.eq_any(user_ids))
        .filter(vacations::ends_at.ge(since))
        .filter(
            vacations::ended_at
                .is_null()
                .or(vacations::ended_at.ge(since)),
        )
        .order(vacations::started_at.asc())
        .select(VacationRow::as_select())
        .load(c)?)
}

impl ClockRow {
    /// A new game's clock of this rule.
    pub fn new(game_id: String, rule: ClockRule) -> ClockRow {
        let (days, bank) = match rule {
            ClockRule::PerMove { days } => (days, None),
            ClockRule::Bank {
                initial,
                increment,
                max,
            } => (0, Some((initial, increment, max))),
        };
        ClockRow {
            game_id,
            days_per_move: days,
            reminded_turn: None,
            planned_turn: None,
            remind_at: None,
            reminded_before: None,
            bank_initial_ms: bank.map(|b| b.0),
            bank_increment_ms: bank.map(|b| b.1),
            bank_max_ms: bank.map(|b| b.2),
            turn_bank_ms: None,
            paused_at: None,
            paused_ms: 0,
            paused_turn: None,
        }
    }

    /// How long the clock stood still during the turn that started at `started`, until
    /// `now`, because the game's tournament was paused.
    pub fn held_ms(&self, started: i64, now: i64) -> i64 {
        let before = if self.paused_turn == Some(started) {
            self.paused_ms
        } else {
            0
        };
        let on = self.paused_at.map_or(0, |p| (now - p.max(started)).max(0));
        before + on
    }

    /// The clock's rule.
    pub fn rule(&self) -> ClockRule {
        match (
            self.bank_initial_ms,
            self.bank_increment_ms,
            self.bank_max_ms,
        ) {
            (Some(initial), increment, max) => ClockRule::Bank {
                initial,
                increment: increment.unwrap_or(0),
                max: max.unwrap_or(initial),
            },
            _ => ClockRule::PerMove {
                days: self.days_per_move,
            },
        }
    }
}

/// With a time bank: takes from `user`'s bank what their turn that started at `started`
/// used until `now` (less their vacation time), adds the increment (at most the
/// maximum), and sets the clock of the turn that starts now for `next` (the trigger on
/// `games` ran before this bank changed). Nothing without a bank.
pub(super) fn settle_bank_tx(
    c: &mut DbConn,
    game_id: &str,
    user: &str,
    started: i64,
    now: i64,
    next: Option<&str>,
) -> Result<(), TxError> {
    let clock: Option<ClockRow> = game_clocks::table
        .find(game_id)
        .select(ClockRow::as_select())
        .first(c)
        .optional()?;
    let Some(clock) = clock else {
        return Ok(());
    };
    let rule = clock.rule();
    let ClockRule::Bank { initial, .. } = rule else {
        return Ok(());
    };
    let vacations = vacations_q(c, &[user.to_string()], started).map_err(TxError::Store)?;
    let used =
        now - started - paused_ms(&vacations, user, started, now) - clock.held_ms(started, now);
    let mut banks = banks_q(c, game_id)?;
    let left = settle_bank(rule, banks.get(user).copied().unwrap_or(initial), used);
    diesel::update(
        game_seats::table
            .filter(game_seats::game_id.eq(game_id))
            .filter(game_seats::user_id.eq(user)),
    )
    .set(game_seats::bank_ms.eq(Some(left)))
    .execute(c)?;
    banks.insert(user.to_string(), left);
    if let Some(next) = next {
        let bank = banks.get(next).copied().unwrap_or(initial);
        diesel::update(game_clocks::table.find(game_id))
            .set((
                game_clocks::turn_bank_ms.eq(Some(bank)),
                game_clocks::due_at.eq(Some(now + bank)),
            ))
            .execute(c)?;
    }
    Ok(())
}

/// The time banks of a game's players as their last turns left them (players without a
/// turn yet are missing).
pub(super) fn banks_q(c: &mut DbConn, game_id: &str) -> Result<HashMap<String, i64>, DieselError> {
    let rows: Vec<(String, Option<i64>)> = game_seats::table
        .filter(game_seats::game_id.eq(game_id))
        .select((game_seats::user_id, game_seats::bank_ms))
        .load(c)?;
    Ok(rows
        .into_iter()
        .filter_map(|(u, b)| b.map(|b| (u, b)))
        .collect())
}

/// One day in milliseconds.
pub const DAY_MS: i64 = 86_400_000;

/// One hour in milliseconds.
pub const HOUR_MS: i64 = 3_600_000;

/// A game's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockRule {
    /// Each turn is due `days` after it started.
    PerMove { days: i32 },
    /// Each player has a bank: `initial` ms at the start; a turn is due when the bank it
    /// started with has run out; after each of the player's turns the bank is what was
    /// left, plus `increment`, at most `max` ([`settle_bank`]).
    Bank {
        initial: i64,
        increment: i64,
        max: i64,
    },
}

impl ClockRule {
    /// The time a player has for the game's first turn.
    pub fn first_allowance(self) -> i64 {
        match self {
            ClockRule::PerMove { days } => i64::from(days) * DAY_MS,
            ClockRule::Bank { initial, .. } => initial,
        }
    }
}

/// What is left of a bank of `bank` ms after a turn that used `used` ms (its length less
/// the time its player was on vacation): the rest plus the increment, at most the
/// maximum, never below zero.
pub fn settle_bank(rule: ClockRule, bank: i64, used: i64) -> i64 {
    match rule {
        ClockRule::PerMove { .. } => bank,
        ClockRule::Bank { increment, max, .. } => (bank - used.max(0))
            .max(0)
            .saturating_add(increment)
            .min(max),
    }
}

/// How long `user_id`'s clock stood still (vacations) between `since` and `now`.
pub fn paused_ms(vacations: &[VacationRow], user_id: &str, since: i64, now: i64) -> i64 {
    vacations
        .iter()
        .filter(|v| v.user_id == user_id)
        .map(|v| (v.end().min(now) - v.started_at.max(since)).max(0))
        .sum()
}

/// Which running turns [`Store::clocked_turns`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockRead {
    Unplanned,
    Reminders,
    Due,
}

impl Store {
    pub async fn set_clock(&self, game_id: String, rule: ClockRule) -> Result<(), StoreError> {
        self.run(move |c| {
            diesel::insert_into(game_clocks::table)
                .values(ClockRow::new(game_id, rule))
                .execute(c)?;
            Ok(())
        })
        .await
    }

    /// What is left of `user_id`'s time bank in a game after their last turn (none: no
    /// turn yet, or no bank).
    pub async fn seat_bank(
        &self,
        game_id: String,
        user_id: String,
    ) -> Result<Option<i64>, StoreError> {
        self.run(move |c| Ok(banks_q(c, &game_id)?.remove(&user_id)))
            .await
    }

    /// The clocks of these games (games without a clock are missing).
    pub async fn clocks_of(
        &self,
        ids: Vec<String>,
    ) -> Result<HashMap<String, ClockRow>, StoreError> {
        self.run(move |c| clocks_q(c, &ids)).await
    }

    /// The running turns the sweep must look at, by `which`, at most `limit` of them,
    /// the earliest first. Each read goes through a partial index of `game_clocks`
    /// (kept by triggers and the sweep), so a sweep reads only the turns that need it,
    /// however many games are running:
    /// - [`ClockRead::Unplanned`]: turns whose reminders are not planned yet;
    /// - [`ClockRead::Reminders`]: turns whose next reminder is due at `now`;
    /// - [`ClockRead::Due`]: turns whose base deadline has passed (a vacation only moves
    ///   a deadline out, so the caller decides with the vacations).
    ///
    /// The server's own bots never time out and get no reminders.
    pub async fn clocked_turns(
        &self,
        which: ClockRead,
        now: i64,
        limit: i64,
    ) -> Result<Vec<(GameRow, ClockRow)>, StoreError> {
        self.run(move |c| {
            let q = game_clocks::table
                .inner_join(games::table)
                .filter(games::status.eq(GameStatus::Active.as_str()))
                .filter(diesel::dsl::not(
                    games::current_user_id.eq_any(
                        users::table
                            .filter(users::bot.eq_any(super::BOT_LEVELS))
                            .select(users::id.nullable()),
                    ),
                ))
                .select((GameRecord::as_select(), ClockRow::as_select()))
                .limit(limit)
                .into_boxed();
            let q = match which {
                // (the conditions are the partial indexes' `clocks_unplanned`,
                // `clocks_remind` and `clocks_due`)
                ClockRead::Unplanned => q
                    .filter(game_clocks::due_at.is_not_null())
                    .filter(diesel::dsl::sql::<diesel::sql_types::Bool>(
                        "game_clocks.planned_turn IS DISTINCT FROM game_clocks.turn_started_at",
                    ))
                    .order(game_clocks::due_at.asc()),
                ClockRead::Reminders => q
                    .filter(game_clocks::remind_at.is_not_null())
                    .filter(game_clocks::remind_at.le(now))
                    .filter(
                        game_clocks::planned_turn
                            .nullable()
                            .eq(games::turn_started_at),
                    )
                    .order(game_clocks::remind_at.asc()),
                ClockRead::Due => q
                    .filter(game_clocks::due_at.is_not_null())
                    .filter(game_clocks::due_at.le(now))
                    .order(game_clocks::due_at.asc()),
            };
            let rows: Vec<(GameRecord, ClockRow)> = q.load(c)?;
            rows.into_iter()
                .map(|(g, k)| Ok((GameRow::try_from(g)?, k)))
                .collect()
        })
        .await
    }

    /// Plans the reminders of the turn that started at `turn_started`: the next one due
    /// at `remind_at` (none: no reminder for this turn), with the offset of the last
    /// one already sent for it (`reminded_before`). Nothing happens when the turn has
    /// moved on; `true` when planned.
    pub async fn plan_reminders(
        &self,
        game_id: String,
        turn_started: i64,
        remind_at: Option<i64>,
        reminded_before: Option<i64>,
    ) -> Result<bool, StoreError> {
        self.run(move |c| {
            let n = diesel::update(
                game_clocks::table
                    .filter(game_clocks::game_id.eq(&game_id))
                    .filter(game_clocks::turn_started_at.eq(turn_started)),
            )
            .set((
                game_clocks::planned_turn.eq(Some(turn_started)),
                game_clocks::remind_at.eq(remind_at),
                game_clocks::reminded_before.eq(reminded_before),
            ))
            .execute(c)?;
            Ok(n > 0)
        })
        .await
    }

    /// Records the reminder `offset` ms before the deadline of the turn that started at
    /// `turn_started` (planned at `planned`), plans the next at `next`, and writes the
    /// reminder's outbox row (none: the player wants no reminder, the turn is only marked
    /// as handled), once: of several processes racing, exactly one gets `true`. Nothing
    /// happens when the turn has moved on or the plan changed. With `row` none and
    /// `offset` none, only moves the plan to `next` (a vacation moved the deadline).
    #[allow(clippy::too_many_arguments)]
    pub async fn claim_reminder(
        &self,
        game_id: String,
        user_id: String,
        turn_started: i64,
        planned: i64,
        offset: Option<i64>,
        next: Option<i64>,
        row: Option<OutboxRow>,
    ) -> Result<bool, StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                let target = game_clocks::table
                    .filter(game_clocks::game_id.eq(&game_id))
                    .filter(game_clocks::planned_turn.eq(turn_started))
                    .filter(game_clocks::turn_started_at.eq(turn_started))
                    .filter(game_clocks::remind_at.eq(planned));
                let n = match offset {
                    Some(o) => diesel::update(target)
                        .set((
                            game_clocks::reminded_turn.eq(Some(turn_started)),
                            game_clocks::reminded_before.eq(Some(o)),
                            game_clocks::remind_at.eq(next),
                        ))
                        .execute(c)?,
                    None => diesel::update(target)
                        .set(game_clocks::remind_at.eq(next))
                        .execute(c)?,
                };
                if n == 0 {
                    return Ok(false);
                }
                let same_turn: Option<String> = games::table
                    .filter(games::id.eq(&game_id))
                    .filter(games::status.eq(GameStatus::Active.as_str()))
                    .filter(games::turn_started_at.eq(turn_started))
                    .filter(games::current_user_id.eq(&user_id))
                    .select(games::id)
                    .first(c)
                    .optional()?;
                if same_turn.is_none() {
                    // roll back: the reminder belongs to a turn that is over
                    return Err(DieselError::RollbackTransaction);
                }
                if let Some(row) = &row {
                    super::stream::queue(c, std::slice::from_ref(row), &[])?;
                }
                Ok(true)
            })
            .or_else(|e| match e {
                DieselError::RollbackTransaction => Ok(false),
                other => Err(StoreError::from(other)),
            })
        })
        .await
    }

    /// The reminder hours these users chose (largest first); users who chose none are
    /// missing (they get the server's default).
    pub async fn reminder_hours(
        &self,
        user_ids: Vec<String>,
    ) -> Result<HashMap<String, Vec<i64>>, StoreError> {
        self.run(move |c| {
            let rows: Vec<(String, String)> = reminder_settings::table
                .filter(reminder_settings::user_id.eq_any(&user_ids))
                .select((reminder_settings::user_id, reminder_settings::hours))
                .load(c)?;
            Ok(rows
                .into_iter()
                .filter_map(|(u, h)| serde_json::from_str::<Vec<i64>>(&h).ok().map(|h| (u, h)))
                .collect())
        })
        .await
    }

    /// Sets the reminder hours of a user (`None`: back to the server's default) and has
    /// the reminders of the turns waiting for them planned anew by the next sweep (the
    /// ones already sent for a turn stay sent).
    pub async fn set_reminder_hours(
        &self,
        user_id: String,
        hours: Option<Vec<i64>>,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            Ok(transaction(c, |c| {
                diesel::delete(reminder_settings::table.find(&user_id)).execute(c)?;
                if let Some(h) = &hours {
                    diesel::insert_into(reminder_settings::table)
                        .values((
                            reminder_settings::user_id.eq(&user_id),
                            reminder_settings::hours
                                .eq(serde_json::to_string(h).unwrap_or_else(|_| "[]".into())),
                        ))
                        .execute(c)?;
                }
                diesel::update(
                    game_clocks::table.filter(
                        game_clocks::game_id.eq_any(
                            games::table
                                .filter(games::current_user_id.eq(&user_id))
                                .filter(games::status.eq(GameStatus::Active.as_str()))
                                .select(games::id),
                        ),
                    ),
                )
                .set(game_clocks::planned_turn.eq(None::<i64>))
                .execute(c)?;
                Ok::<_, DieselError>(())
            })?)
        })
        .await
    }
}

pub(super) fn clocks_q(
    c: &mut DbConn,
    ids: &[String],
) -> Result<HashMap<String, ClockRow>, StoreError> {
    let mut out = HashMap::new();
    for chunk in ids.chunks(500) {
        let rows: Vec<ClockRow> = game_clocks::table
            .filter(game_clocks::game_id.eq_any(chunk))
            .select(ClockRow::as_select())
            .load(c)?;
        out.extend(rows.into_iter().map(|r| (r.game_id.clone(), r)));
    }
    Ok(out)
}
