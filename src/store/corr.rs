//! The store's part of correspondence play (the clocks are in [`super::clocks`]):
//! vacations, what a game's view shows besides the game, invitations and reserved
//! seats, leaving and aborting open games, chat, and the counts of games waiting for a
//! user.

use super::conn::lock_user;
use std::collections::HashMap;

use super::conn::transaction;
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::accounts::usernames;
use super::clocks::{banks_q, clocks_q, vacations_q, ClockRow, VacationRow};
use super::schema::{chat_messages, game_clocks, game_invites, vacations};
use super::schema::{game_events, game_seats, games, outbox};
use super::{
    load_game, lock_open_game, AutomationRows, Conflict, DbConn, GameData, GameRow, GameStatus,
    InviteStatus, OutboxRow, OutboxStatus, SeatInfo, StartPlan, Store, StoreError, TxError,
};

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

/// What a user is waited for.
#[derive(Clone, Debug, Default)]
pub struct WaitingCounts {
    pub my_turn: i64,
    pub invitations: i64,
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
            transaction(c, |c| {
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
        self.run(move |c| Ok(end_vacation(c, &user_id, now, only_until_move)? > 0))
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
            transaction(c, |c| {
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
            transaction(c, |c| {
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
            transaction(c, |c| {
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
            transaction(c, |c| {
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
            transaction(c, |c| {
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
                let written = transaction(c, |c| {
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

/// Ends the user's vacation running at `now` (only one that lasts until their next move,
/// when `only_until_move`); how many ended.
pub(super) fn end_vacation(
    c: &mut DbConn,
    user_id: &str,
    now: i64,
    only_until_move: bool,
) -> QueryResult<usize> {
    let mut q = diesel::update(
        vacations::table
            .filter(vacations::user_id.eq(user_id))
            .filter(vacations::ended_at.is_null())
            .filter(vacations::started_at.le(now))
            .filter(vacations::ends_at.gt(now)),
    )
    .into_boxed();
    if only_until_move {
        q = q.filter(vacations::until_move.eq(1));
    }
    q.set(vacations::ended_at.eq(Some(now))).execute(c)
}
