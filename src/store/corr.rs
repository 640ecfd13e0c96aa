//! The store's part of correspondence play: game clocks and deadline reminders,
//! vacations, invitations and reserved seats, leaving and aborting open games, chat, and
//! the counts of games waiting for a user.

use super::accounts::lock_user;
use std::collections::HashMap;

use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::schema::{chat_messages, game_clocks, game_invites, reminder_settings, vacations};
use super::schema::{game_events, game_seats, games, outbox, users};
use super::{
    load_game, lock_open_game, AutomationRows, Conflict, DbConn, GameData, GameRecord, GameRow,
    GameStatus, InviteStatus, OutboxRow, OutboxStatus, SeatInfo, StartPlan, Store, StoreError,
    TxError,
};

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
        }
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

#[derive(Clone, Debug)]
pub struct InviteInfo {
    pub user_id: String,
    pub username: String,
    pub status: InviteStatus,
    pub created_at: i64,
}

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = chat_messages)]
pub struct ChatRow {
    pub id: String,
    pub game_id: String,
    /// The message's number in its game, from 1 (set by [`Store::add_chat`]).
    pub n: i64,
    pub user_id: String,
    pub body: String,
    pub after_seq: i64,
    pub created_at: i64,
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
    let used = now - started - paused_ms(&vacations, user, started, now);
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
fn banks_q(c: &mut DbConn, game_id: &str) -> Result<HashMap<String, i64>, DieselError> {
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

/// What a user is waited for.
#[derive(Clone, Debug, Default)]
pub struct WaitingCounts {
    pub my_turn: i64,
    pub invitations: i64,
}

pub(super) fn usernames(
    c: &mut DbConn,
    ids: &[String],
) -> Result<HashMap<String, String>, DieselError> {
    let rows: Vec<(String, String)> = users::table
        .filter(users::id.eq_any(ids))
        .select((users::id, users::username))
        .load(c)?;
    Ok(rows.into_iter().collect())
}

/// The pending invitations of a game: the invited user and the seat reserved for them
/// (`None`: any free seat).
fn pending_invites(
    c: &mut DbConn,
    game_id: &str,
) -> Result<Vec<(String, Option<i32>)>, DieselError> {
    game_invites::table
        .filter(game_invites::game_id.eq(game_id))
        .filter(game_invites::status.eq(InviteStatus::Pending.as_str()))
        .select((game_invites::user_id, game_invites::seat))
        .load(c)
}

impl Store {
    // ----- clocks -------------------------------------------------------------------

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

    /// What a game's view shows besides the game: the vacations of `users` that are on
    /// or later than `now`, the clock, the vacations of the player to move since their
    /// turn started (`turn`: user id, turn start), and the invitations. One round trip.
    pub async fn game_extras(
        &self,
        game_id: String,
        users: Vec<String>,
        now: i64,
        turn: Option<(String, i64)>,
    ) -> Result<GameExtras, StoreError> {
        self.run(move |c| {
            let vacations = vacations_q(c, &users, now)?;
            let clock = clocks_q(c, std::slice::from_ref(&game_id))?.remove(&game_id);
            let turn_vacations = match (&clock, turn) {
                (Some(_), Some((user, started))) => vacations_q(c, &[user], started)?,
                _ => Vec::new(),
            };
            let invites = invites_q(c, &game_id)?;
            let banks = match &clock {
                Some(k) if k.bank_initial_ms.is_some() => banks_q(c, &game_id)?,
                _ => HashMap::new(),
            };
            Ok(GameExtras {
                vacations,
                clock,
                turn_vacations,
                invites,
                banks,
            })
        })
        .await
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
            c.transaction(|c| {
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
            Ok(c.transaction(|c| {
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

    // ----- vacations ----------------------------------------------------------------

    /// The vacations of these users that overlap `[since, ∞)`.
    pub async fn vacations_of(
        &self,
        user_ids: Vec<String>,
        since: i64,
    ) -> Result<Vec<VacationRow>, StoreError> {
        self.run(move |c| vacations_q(c, &user_ids, since)).await
    }

    /// Starts a vacation unless one is on; the caller checks the bank.
    pub async fn start_vacation(&self, row: VacationRow) -> Result<(), StoreError> {
        self.run(move |c| {
            c.transaction(|c| {
                lock_user(c, &row.user_id)?;
                let on: Vec<VacationRow> = vacations::table
                    .filter(vacations::user_id.eq(&row.user_id))
                    .filter(vacations::ended_at.is_null())
                    .filter(vacations::ends_at.gt(row.started_at))
                    .select(VacationRow::as_select())
                    .load(c)?;
                if on.iter().any(|v| v.is_on(row.started_at)) {
                    return Err(TxError::Store(StoreError::Conflict(
                        Conflict::AlreadyOnVacation,
                    )));
                }
                diesel::insert_into(vacations::table)
                    .values(&row)
                    .execute(c)?;
                Ok(())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// Ends the user's current vacation at `now` (only one that ends on the next move
    /// when `only_until_move`). Returns whether one was on.
    pub async fn end_vacation(
        &self,
        user_id: String,
        now: i64,
        only_until_move: bool,
    ) -> Result<bool, StoreError> {
        self.run(move |c| {
            let mut q = diesel::update(
                vacations::table
                    .filter(vacations::user_id.eq(&user_id))
                    .filter(vacations::ended_at.is_null())
                    .filter(vacations::started_at.le(now))
                    .filter(vacations::ends_at.gt(now)),
            )
            .into_boxed();
            if only_until_move {
                q = q.filter(vacations::until_move.eq(1));
            }
            let n = q.set(vacations::ended_at.eq(Some(now))).execute(c)?;
            Ok(n > 0)
        })
        .await
    }

    /// The user's vacations that started at or after `since` (for the yearly bank).
    pub async fn vacations_since(
        &self,
        user_id: String,
        since: i64,
    ) -> Result<Vec<VacationRow>, StoreError> {
        self.run(move |c| {
            Ok(vacations::table
                .filter(vacations::user_id.eq(user_id))
                .filter(vacations::started_at.ge(since))
                .select(VacationRow::as_select())
                .load(c)?)
        })
        .await
    }

    // ----- invitations and seats ----------------------------------------------------

    /// Records invitations (seats reserved: a given seat, or any free one) with their
    /// outbox rows.
    pub async fn invite(
        &self,
        game_id: String,
        invited: Vec<(String, Option<i32>)>,
        now: i64,
        rows: Vec<OutboxRow>,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            c.transaction(|c| {
                for (u, seat) in &invited {
                    diesel::insert_into(game_invites::table)
                        .values((
                            game_invites::game_id.eq(&game_id),
                            game_invites::user_id.eq(u),
                            game_invites::status.eq(InviteStatus::Pending.as_str()),
                            game_invites::created_at.eq(now),
                            game_invites::seat.eq(seat),
                        ))
                        .execute(c)?;
                }
                super::stream::queue(c, &rows, &[])?;
                Ok::<_, DieselError>(())
            })?;
            Ok(())
        })
        .await
    }

    /// The invitations of a game with the invitees' names.
    pub async fn invites_of(&self, game_id: String) -> Result<Vec<InviteInfo>, StoreError> {
        self.run(move |c| invites_q(c, &game_id)).await
    }

    /// Takes a seat of an open game: the invited user takes their reserved seat (the
    /// invitation is accepted), anyone else only a seat no invitation reserves. The game
    /// starts with the plan of `start` when the last seat is taken.
    pub async fn take_seat<F>(
        &self,
        game_id: String,
        user_id: String,
        now: i64,
        invited_only: bool,
        start: F,
    ) -> Result<(), StoreError>
    where
        F: FnOnce(&GameRow, &[SeatInfo], &AutomationRows) -> Result<StartPlan, String>
            + Send
            + 'static,
    {
        self.run(move |c| {
            c.transaction(|c| {
                lock_open_game(c, &game_id, now)?;
                let data = load_game(c, &game_id, false)
                    .map_err(TxError::Store)?
                    .ok_or(TxError::Store(StoreError::NotFound))?;
                if data.seats.iter().any(|s| s.user_id == user_id) {
                    return Err(TxError::Store(StoreError::Conflict(
                        Conflict::AlreadySeated,
                    )));
                }
                let invited = pending_invites(c, &game_id)?;
                let mine = invited.iter().find(|(u, _)| *u == user_id).map(|(_, s)| *s);
                if invited_only && mine.is_none() {
                    return Err(TxError::Store(StoreError::Conflict(Conflict::NotInvited)));
                }
                let free = data.game.seats as usize - data.seats.len();
                let reserved = invited.len() - usize::from(mine.is_some());
                if free <= reserved {
                    return Err(TxError::Store(StoreError::Conflict(Conflict::NoOpenSeat)));
                }
                let taken = |i: i32| data.seats.iter().any(|s| s.seat == i);
                // the seat an invitation reserves for the caller (a rematch's rotated
                // seat), else the first free seat no other invitation reserves
                let seat = mine
                    .flatten()
                    .filter(|s| *s < data.game.seats && !taken(*s))
                    .or_else(|| {
                        (0..data.game.seats).find(|i| {
                            !taken(*i)
                                && !invited.iter().any(|(u, s)| *u != user_id && *s == Some(*i))
                        })
                    })
                    .or_else(|| (0..data.game.seats).find(|i| !taken(*i)))
                    .ok_or(TxError::Store(StoreError::Conflict(Conflict::NoOpenSeat)))?;
                diesel::insert_into(game_seats::table)
                    .values((
                        game_seats::game_id.eq(&game_id),
                        game_seats::seat.eq(seat),
                        game_seats::user_id.eq(&user_id),
                        game_seats::joined_at.eq(now),
                    ))
                    .execute(c)
                    .map_err(|e| TxError::Store(super::user_reference(e)))?;
                if mine.is_some() {
                    diesel::update(
                        game_invites::table
                            .filter(game_invites::game_id.eq(&game_id))
                            .filter(game_invites::user_id.eq(&user_id)),
                    )
                    .set(game_invites::status.eq(InviteStatus::Accepted.as_str()))
                    .execute(c)?;
                }
                if data.seats.len() as i32 + 1 >= data.game.seats {
                    let data = load_game(c, &game_id, false)
                        .map_err(TxError::Store)?
                        .ok_or(TxError::Store(StoreError::NotFound))?;
                    super::start_game_tx(c, &data, now, start)?;
                }
                Ok(())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// Declines a pending invitation: the seat it reserved opens to anyone.
    pub async fn decline_invite(
        &self,
        game_id: String,
        user_id: String,
        now: i64,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            c.transaction(|c| {
                lock_open_game(c, &game_id, now)?;
                let n = diesel::update(
                    game_invites::table
                        .filter(game_invites::game_id.eq(&game_id))
                        .filter(game_invites::user_id.eq(&user_id))
                        .filter(game_invites::status.eq(InviteStatus::Pending.as_str())),
                )
                .set(game_invites::status.eq(InviteStatus::Declined.as_str()))
                .execute(c)?;
                if n == 0 {
                    return Err(TxError::Store(StoreError::Conflict(Conflict::NotInvited)));
                }
                Ok(())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// Gives up a seat of an open game; the seats after it move up so that seats stay
    /// numbered from 0.
    pub async fn leave_open_game(
        &self,
        game_id: String,
        user_id: String,
        now: i64,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            c.transaction(|c| {
                lock_open_game(c, &game_id, now)?;
                let data = load_game(c, &game_id, false)
                    .map_err(TxError::Store)?
                    .ok_or(TxError::Store(StoreError::NotFound))?;
                let Some(mine) = data.seats.iter().find(|s| s.user_id == user_id) else {
                    return Err(TxError::Store(StoreError::Conflict(Conflict::NotSeated)));
                };
                let seat = mine.seat;
                diesel::delete(
                    game_seats::table
                        .filter(game_seats::game_id.eq(&game_id))
                        .filter(game_seats::seat.eq(seat)),
                )
                .execute(c)?;
                let mut after: Vec<i32> = data
                    .seats
                    .iter()
                    .map(|s| s.seat)
                    .filter(|s| *s > seat)
                    .collect();
                after.sort_unstable();
                for s in after {
                    diesel::update(
                        game_seats::table
                            .filter(game_seats::game_id.eq(&game_id))
                            .filter(game_seats::seat.eq(s)),
                    )
                    .set(game_seats::seat.eq(s - 1))
                    .execute(c)?;
                }
                Ok(())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// Deletes a game that has no move yet (open, or started with only its creation in
    /// the log), with everything that belongs to it. `Conflict::GameHasMoves` once a
    /// move was made.
    pub async fn abort_game(&self, game_id: String, now: i64) -> Result<(), StoreError> {
        self.run(move |c| {
            c.transaction(|c| {
                let n = diesel::update(
                    games::table
                        .filter(games::id.eq(&game_id))
                        .filter(games::version.le(1i64))
                        .filter(games::status.ne(GameStatus::Finished.as_str())),
                )
                .set(games::updated_at.eq(now))
                .execute(c)?;
                if n == 0 {
                    let exists: Option<String> = games::table
                        .find(&game_id)
                        .select(games::id)
                        .first(c)
                        .optional()?;
                    return Err(TxError::Store(match exists {
                        Some(_) => StoreError::Conflict(Conflict::GameHasMoves),
                        None => StoreError::NotFound,
                    }));
                }
                diesel::delete(chat_messages::table.filter(chat_messages::game_id.eq(&game_id)))
                    .execute(c)?;
                // notifications about the game that were not sent yet are void
                diesel::delete(
                    outbox::table
                        .filter(outbox::game_id.eq(&game_id))
                        .filter(outbox::status.eq(OutboxStatus::Pending.as_str())),
                )
                .execute(c)?;
                diesel::delete(game_invites::table.filter(game_invites::game_id.eq(&game_id)))
                    .execute(c)?;
                diesel::delete(game_clocks::table.filter(game_clocks::game_id.eq(&game_id)))
                    .execute(c)?;
                diesel::delete(game_events::table.filter(game_events::game_id.eq(&game_id)))
                    .execute(c)?;
                diesel::delete(game_seats::table.filter(game_seats::game_id.eq(&game_id)))
                    .execute(c)?;
                diesel::delete(games::table.filter(games::id.eq(&game_id))).execute(c)?;
                Ok(())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// How many running games wait for the user's decision, and how many invitations to
    /// open games wait for an answer.
    pub async fn waiting_counts(&self, user_id: String) -> Result<WaitingCounts, StoreError> {
        self.run(move |c| {
            let my_turn: i64 = games::table
                .filter(super::lists::running())
                .filter(games::current_user_id.eq(&user_id))
                .count()
                .get_result(c)?;
            let invitations: i64 = game_invites::table
                .filter(game_invites::user_id.eq(&user_id))
                .filter(game_invites::status.eq(InviteStatus::Pending.as_str()))
                .filter(
                    game_invites::game_id.eq_any(
                        games::table
                            .filter(games::status.eq(GameStatus::Open.as_str()))
                            .select(games::id),
                    ),
                )
                .count()
                .get_result(c)?;
            Ok(WaitingCounts {
                my_turn,
                invitations,
            })
        })
        .await
    }

    // ----- chat ---------------------------------------------------------------------

    /// Appends a message to its game's chat with its live stream events; returns its
    /// number.
    pub async fn add_chat(
        &self,
        mut row: ChatRow,
        stream: Vec<super::NewStreamEvent>,
        outbox: Vec<super::OutboxRow>,
    ) -> Result<i64, StoreError> {
        self.run(move |c| {
            // two writers may pick the same number: the unique key refuses one, which
            // tries the next
            for _ in 0..5 {
                let last: Option<i64> = chat_messages::table
                    .filter(chat_messages::game_id.eq(&row.game_id))
                    .select(diesel::dsl::max(chat_messages::n))
                    .first(c)?;
                row.n = last.unwrap_or(0) + 1;
                let written = c.transaction(|c| {
                    diesel::insert_into(chat_messages::table)
                        .values(&row)
                        .execute(c)?;
                    super::stream::queue(c, &outbox, &stream)
                });
                match written {
                    Ok(()) => return Ok(row.n),
                    Err(e) => match StoreError::from(e) {
                        StoreError::Conflict(_) => continue,
                        other => return Err(other),
                    },
                }
            }
            Err(StoreError::Conflict(Conflict::Duplicate))
        })
        .await
    }

    /// A game with its log, for the export.
    pub async fn game_for_export(&self, id: String) -> Result<Option<GameData>, StoreError> {
        self.run(move |c| load_game(c, &id, true)).await
    }
}

/// See [`Store::game_extras`].
pub struct GameExtras {
    pub vacations: Vec<VacationRow>,
    pub clock: Option<ClockRow>,
    pub turn_vacations: Vec<VacationRow>,
    pub invites: Vec<InviteInfo>,
    /// With a time bank: each player's bank as their last turn left it.
    pub banks: HashMap<String, i64>,
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

fn invites_q(c: &mut DbConn, game_id: &str) -> Result<Vec<InviteInfo>, StoreError> {
    let rows: Vec<(String, String, i64)> = game_invites::table
        .filter(game_invites::game_id.eq(game_id))
        .order(game_invites::created_at.asc())
        .select((
            game_invites::user_id,
            game_invites::status,
            game_invites::created_at,
        ))
        .load(c)?;
    let ids: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let names = usernames(c, &ids)?;
    rows.into_iter()
        .map(|(user_id, status, created_at)| {
            let status = InviteStatus::from_column(&status).ok_or_else(|| StoreError::Corrupt {
                row: format!("invitation of {user_id} to game {game_id}"),
                detail: format!("unknown status {status:?}"),
            })?;
            Ok(InviteInfo {
                username: names.get(&user_id).cloned().unwrap_or_default(),
                user_id,
                status,
                created_at,
            })
        })
        .collect()
}
