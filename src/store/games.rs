//! Games and their log: creating a game, loading it with its seats and events, starting
//! it, and appending a decision's events with everything written with them (the game's
//! new summary, the turn's time, the idempotency record, the outbox and the live
//! stream, the plans dropped, the game's end); the idempotency records and a user's
//! outbox read back.

use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use super::conn::{transaction, DbConn};
use super::error::user_reference;
use super::schema::{game_clocks, game_events, game_seats, games, idempotency_keys, outbox, users};
use super::{automation, clocks, corr, reviews, standing, stream};
use super::{
    AutomationRows, ClockRow, Conflict, Ending, EventRow, GameData, GameRecord, GameRow,
    GameStatus, IdempotencyRow, NewStreamEvent, OutboxRow, SeatInfo, Store, StoreError, TxError,
};

/// What a caller decides when a game starts: the creation event, the decisions the
/// server takes at once (see `crate::moves::auto`), who decides first and the
/// notifications. `events` are numbered from 1.
pub struct StartPlan {
    pub events: Vec<EventRow>,
    pub first_seat: i32,
    pub outbox: Vec<OutboxRow>,
}

/// A game as a decision reads it ([`Store::load_for_decision`]).
pub struct DecisionRead {
    pub data: GameData,
    /// The game's clock (`None`: it has none).
    pub clock: Option<ClockRow>,
    /// The players' standing orders and plans, when asked for.
    pub automation: Option<AutomationRows>,
}

/// Events to append to a game, with the game's new summary, the idempotency record and
/// the outbox rows, written in one transaction.
pub struct Append {
    pub game_id: String,
    pub expected_version: i64,
    pub events: Vec<EventRow>,
    pub status: GameStatus,
    pub current_user_id: Option<String>,
    pub turn_changed: bool,
    /// The turn these events end (its player and start), when the turn changes and the
    /// game's clock is a time bank: what it used is taken from the player's bank.
    pub ended_turn: Option<(String, i64)>,
    pub now: i64,
    pub idempotency: Option<IdempotencyRow>,
    pub outbox: Vec<OutboxRow>,
    /// Events for the live stream only (a move made), besides the outbox's copies.
    pub stream: Vec<NewStreamEvent>,
    /// Players whose turn came: their plans at this game are dropped.
    pub drop_plans_of: Vec<String>,
    /// The game's end (results, figures, ratings), when these events end it.
    pub ending: Option<Ending>,
    /// The player whose move this is: a vacation of theirs that lasts until their next
    /// move ends with it.
    pub mover: Option<String>,
}

impl Store {
    /// Creates a game with its creator in seat 0.
    pub async fn create_game(&self, game: GameRow) -> Result<(), StoreError> {
        self.create_game_at(game, 0).await
    }

    /// Creates a game with its creator in seat `creator_seat`.
    pub async fn create_game_at(&self, game: GameRow, creator_seat: i32) -> Result<(), StoreError> {
        let record = GameRecord::try_from(&game)?;
        self.run(move |c| {
            transaction(c, |c| {
                diesel::insert_into(games::table)
                    .values(&record)
                    .execute(c)?;
                diesel::insert_into(game_seats::table)
                    .values((
                        game_seats::game_id.eq(&game.id),
                        game_seats::seat.eq(creator_seat),
                        game_seats::user_id.eq(&game.creator_id),
                        game_seats::joined_at.eq(game.created_at),
                    ))
                    .execute(c)?;
                Ok::<_, DieselError>(())
            })
            .map_err(user_reference)?;
            Ok(())
        })
        .await
    }

    /// Loads a game as a decision reads it, on one connection: its row with its clock
    /// (`None`: it has none) in one statement, its seats and, when `with_automation`,
    /// its players' standing orders and plans.
    pub async fn load_for_decision(
        &self,
        id: String,
        with_automation: bool,
    ) -> Result<Option<DecisionRead>, StoreError> {
        self.run(move |c| {
            let read = if let DbConn::Pg(pg) = &mut *c {
                // one round trip: the game's row with its clock, once per seat
                game_clock_and_seats(pg, &id)?
            } else {
                let row: Option<(GameRecord, Option<ClockRow>)> = games::table
                    .left_join(game_clocks::table)
                    .filter(games::id.eq(&id))
                    .select((GameRecord::as_select(), Option::<ClockRow>::as_select()))
                    .first(c)
                    .optional()?;
                match row {
                    Some((game, clock)) => Some((with_seats(c, game, false)?, clock)),
                    None => None,
                }
            };
            let Some((data, clock)) = read else {
                return Ok(None);
            };
            let automation = if with_automation {
                let users: Vec<String> = data.seats.iter().map(|s| s.user_id.clone()).collect();
                Some(automation::automation_of(c, &id, &users)?)
            } else {
                None
            };
            Ok(Some(DecisionRead {
                data,
                clock,
                automation,
            }))
        })
        .await
    }

    /// Loads a game, its seats and, when `with_events`, its log ordered by `seq`.
    pub async fn load_game(
        &self,
        id: String,
        with_events: bool,
    ) -> Result<Option<GameData>, StoreError> {
        self.run(move |c| load_game(c, &id, with_events)).await
    }

    /// The log of a game up to `version` (the events with `seq <= version`), so that it
    /// describes the same moment as a summary row read before at that version.
    pub async fn events_upto(&self, id: String, version: i64) -> Result<Vec<EventRow>, StoreError> {
        self.run(move |c| {
            Ok(game_events::table
                .filter(game_events::game_id.eq(id))
                .filter(game_events::seq.le(version))
                .order(game_events::seq.asc())
                .select(EventRow::as_select())
                .load(c)?)
        })
        .await
    }

    /// Starts an open game early (the caller checks who may).
    pub async fn start_game<F>(&self, game_id: String, now: i64, start: F) -> Result<(), StoreError>
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
                start_game_tx(c, &data, now, start)
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// Appends events at `expected_version + 1 ...`. Exactly one of several concurrent
    /// writers for one version wins; the others get `Conflict::StaleVersion`.
    pub async fn append(&self, a: Append) -> Result<(), StoreError> {
        let pair_limit = self.rated_pair_limit;
        self.run(move |c| {
            if let DbConn::Pg(pg) = &mut *c {
                if let Some(done) = append_in_one_statement(pg, &a) {
                    return done;
                }
            }
            transaction(c, |c| {
                let new_version = a.expected_version + a.events.len() as i64;
                // The first statement writes, so SQLite takes its write lock at once and
                // concurrent writers queue instead of failing on a stale snapshot.
                let n = update_game_row(c, &a, new_version)?;
                if n == 0 {
                    return Err(TxError::Store(StoreError::Conflict(Conflict::StaleVersion)));
                }
                if let Some((user, started)) = &a.ended_turn {
                    clocks::settle_bank_tx(
                        c,
                        &a.game_id,
                        user,
                        *started,
                        a.now,
                        a.current_user_id
                            .as_deref()
                            .filter(|_| a.status == GameStatus::Active),
                    )?;
                }
                // the events, the outbox and the stream (one statement on Postgres); a
                // unique key broken is the log's: another writer took the version
                stream::queue_after_events(c, &a.events, &a.outbox, &a.stream).map_err(
                    |e| match e {
                        DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => {
                            TxError::Store(StoreError::Conflict(Conflict::StaleVersion))
                        }
                        other => TxError::Db(other),
                    },
                )?;
                if let Some(idem) = &a.idempotency {
                    diesel::insert_into(idempotency_keys::table)
                        .values(idem)
                        .execute(c)
                        .map_err(|e| match e {
                            DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => {
                                TxError::Store(StoreError::Conflict(Conflict::IdempotencyKeyInUse))
                            }
                            other => TxError::Db(other),
                        })?;
                }
                automation::drop_plans(c, &a.game_id, &a.drop_plans_of)?;
                if let (Some(user), DbConn::Sqlite(_)) = (&a.mover, &*c) {
                    // on Postgres the game's row update ended it
                    corr::end_vacation(c, user, a.now, true)?;
                }
                if let Some(e) = &a.ending {
                    standing::record_ending(c, e, pair_limit)?;
                    // a rated game gets the strongest bot's review of its decisions
                    if e.pool.is_some() {
                        reviews::queue(c, &e.game_id, a.now)?;
                    }
                }
                Ok(())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    pub async fn idempotency_record(
        &self,
        user_id: String,
        key: String,
    ) -> Result<Option<IdempotencyRow>, StoreError> {
        self.run(move |c| {
            Ok(idempotency_keys::table
                .find((user_id, key))
                .select(IdempotencyRow::as_select())
                .first(c)
                .optional()?)
        })
        .await
    }

    /// Outbox rows of a user (oldest first), for inspection and tests.
    pub async fn outbox_for_user(&self, user_id: String) -> Result<Vec<OutboxRow>, StoreError> {
        self.run(move |c| {
            Ok(outbox::table
                .filter(outbox::user_id.eq(user_id))
                .order(outbox::created_at.asc())
                .select(OutboxRow::as_select())
                .load(c)?)
        })
        .await
    }
}

/// Moves the game's row to its new version (the first statement of an append: it takes
/// the row's lock, and on SQLite the write lock), if it is still at the expected one; how
/// many rows it changed (0: another writer was first). On Postgres the same statement
/// ends the mover's vacation that lasts until their next move (one round trip for both);
/// on SQLite the append ends it with a statement of its own.
/// Postgres: a move's whole write as one statement (one round trip, its own
/// transaction), when it writes only the game's row, the mover's vacation that lasts until
/// their move, the plans dropped and new rows (the log's events, the outbox, the live
/// stream, the idempotency record): the usual move. `None` when the append needs more
/// (a time bank to settle, the game's end) or does not fit in one statement: the caller
/// writes it in a transaction, statement by statement.
///
/// The game's row is updated first (`g`, only at the expected version); every other part
/// writes only when it did, so a stale version writes nothing and the events' insert
/// reports no row.
fn append_in_one_statement(
    pg: &mut diesel::PgConnection,
    a: &Append,
) -> Option<Result<(), StoreError>> {
    use super::pg_rows::{Inserts, Row, Value};
    if a.ended_turn.is_some() || a.ending.is_some() || a.events.is_empty() {
        return None;
    }
    let new_version = a.expected_version + a.events.len() as i64;
    let mut rows = Inserts::guarded(
        "g AS (UPDATE games SET version = $1, status = $2, current_user_id = $3, \
           updated_at = $4, turn_started_at = CASE WHEN $5 THEN $4 ELSE turn_started_at END \
           WHERE id = $6 AND version = $7 RETURNING 1)"
            .to_string(),
        vec![
            Value::Big(new_version),
            Value::Text(a.status.as_str()),
            Value::OptText(a.current_user_id.as_deref()),
            Value::Big(a.now),
            Value::Bool(a.turn_changed),
            Value::Text(&a.game_id),
            Value::Big(a.expected_version),
        ],
    );
    if let Some(mover) = &a.mover {
        let (now, user) = (rows.next_param(), rows.next_param() + 1);
        rows.clause(
            format!(
                "ended AS (UPDATE vacations SET ended_at = ${now} WHERE user_id = ${user} \
                 AND ended_at IS NULL AND started_at <= ${now} AND ends_at > ${now} \
                 AND until_move = 1 AND EXISTS (SELECT 1 FROM g))"
            ),
            vec![Value::Big(a.now), Value::Text(mover)],
        );
    }
    if !a.drop_plans_of.is_empty() {
        let game = rows.next_param();
        let users: Vec<String> = (0..a.drop_plans_of.len())
            .map(|i| format!("${}", game + 1 + i))
            .collect();
        let mut binds = vec![Value::Text(&a.game_id)];
        binds.extend(a.drop_plans_of.iter().map(|u| Value::Text(u)));
        rows.clause(
            format!(
                "dropped AS (DELETE FROM turn_plans WHERE game_id = ${game} \
                 AND user_id IN ({}) AND EXISTS (SELECT 1 FROM g))",
                users.join(", ")
            ),
            binds,
        );
    }
    let copies: Vec<NewStreamEvent> = a
        .outbox
        .iter()
        .filter_map(NewStreamEvent::of_outbox)
        .chain(a.stream.iter().cloned())
        .collect();
    let idem: Vec<&IdempotencyRow> = a.idempotency.iter().collect();
    // the events last: the statement's count is theirs
    rows.rows(&a.outbox)
        .rows(&copies)
        .rows(&idem)
        .rows(&a.events);
    if !rows.fits() {
        return None;
    }
    Some(match rows.execute(pg) {
        Ok(0) => Err(StoreError::Conflict(Conflict::StaleVersion)),
        Ok(_) => Ok(()),
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, info)) => {
            Err(StoreError::Conflict(
                if info.table_name() == Some(<&IdempotencyRow as Row>::TABLE) {
                    Conflict::IdempotencyKeyInUse
                } else {
                    // the log's key: another writer took the version
                    Conflict::StaleVersion
                },
            ))
        }
        Err(e) => Err(e.into()),
    })
}

fn update_game_row(c: &mut DbConn, a: &Append, new_version: i64) -> QueryResult<usize> {
    if let (Some(mover), DbConn::Pg(pg)) = (&a.mover, &mut *c) {
        use diesel::sql_types::{BigInt, Bool, Nullable, Text};
        return diesel::sql_query(
            "WITH ended AS (UPDATE vacations SET ended_at = $1 \
               WHERE user_id = $2 AND ended_at IS NULL AND started_at <= $1 \
               AND ends_at > $1 AND until_move = 1) \
             UPDATE games SET version = $3, status = $4, current_user_id = $5, \
               updated_at = $1, \
               turn_started_at = CASE WHEN $6 THEN $1 ELSE turn_started_at END \
             WHERE id = $7 AND version = $8",
        )
        .bind::<BigInt, _>(a.now)
        .bind::<Text, _>(mover)
        .bind::<BigInt, _>(new_version)
        .bind::<Text, _>(a.status.as_str())
        .bind::<Nullable<Text>, _>(a.current_user_id.as_deref())
        .bind::<Bool, _>(a.turn_changed)
        .bind::<Text, _>(&a.game_id)
        .bind::<BigInt, _>(a.expected_version)
        .execute(pg);
    }
    let base = games::table
        .filter(games::id.eq(&a.game_id))
        .filter(games::version.eq(a.expected_version));
    if a.turn_changed {
        diesel::update(base)
            .set((
                games::version.eq(new_version),
                games::status.eq(a.status.as_str()),
                games::current_user_id.eq(&a.current_user_id),
                games::updated_at.eq(a.now),
                games::turn_started_at.eq(Some(a.now)),
            ))
            .execute(c)
    } else {
        diesel::update(base)
            .set((
                games::version.eq(new_version),
                games::status.eq(a.status.as_str()),
                games::current_user_id.eq(&a.current_user_id),
                games::updated_at.eq(a.now),
            ))
            .execute(c)
    }
}

/// Takes the game's row lock with a write (so SQLite queues writers) and checks it is
/// still open.
pub(super) fn lock_open_game(c: &mut DbConn, game_id: &str, now: i64) -> Result<(), TxError> {
    let n = diesel::update(
        games::table
            .filter(games::id.eq(game_id))
            .filter(games::status.eq(GameStatus::Open.as_str())),
    )
    .set(games::updated_at.eq(now))
    .execute(c)?;
    if n == 0 {
        let exists: Option<String> = games::table
            .find(game_id)
            .select(games::id)
            .first(c)
            .optional()?;
        return Err(TxError::Store(match exists {
            Some(_) => StoreError::Conflict(Conflict::GameAlreadyStarted),
            None => StoreError::NotFound,
        }));
    }
    Ok(())
}

pub(super) fn start_game_tx<F>(
    c: &mut DbConn,
    data: &GameData,
    now: i64,
    start: F,
) -> Result<(), TxError>
where
    F: FnOnce(&GameRow, &[SeatInfo], &AutomationRows) -> Result<StartPlan, String>,
{
    let users: Vec<String> = data.seats.iter().map(|s| s.user_id.clone()).collect();
    let automation = automation::automation_of(c, &data.game.id, &users).map_err(TxError::Store)?;
    let plan = start(&data.game, &data.seats, &automation)
        .map_err(|e| TxError::Store(StoreError::Rejected(e)))?;
    let first = data
        .seats
        .iter()
        .find(|s| s.seat == plan.first_seat)
        .map(|s| s.user_id.clone());
    diesel::update(games::table.find(&data.game.id))
        .set((
            games::status.eq(GameStatus::Active.as_str()),
            games::version.eq(plan.events.len() as i64),
            games::seats.eq(data.seats.len() as i32),
            games::current_user_id.eq(first),
            games::updated_at.eq(now),
            games::turn_started_at.eq(Some(now)),
        ))
        .execute(c)?;
    stream::queue_after_events(c, &plan.events, &plan.outbox, &[])?;
    Ok(())
}

pub(super) fn load_game(
    c: &mut DbConn,
    id: &str,
    with_events: bool,
) -> Result<Option<GameData>, StoreError> {
    let game: Option<GameRecord> = games::table
        .find(id)
        .select(GameRecord::as_select())
        .first(c)
        .optional()?;
    match game {
        Some(game) => Ok(Some(with_seats(c, game, with_events)?)),
        None => Ok(None),
    }
}

/// A game's row with its seats and, when `with_events`, its log.
fn with_seats(c: &mut DbConn, game: GameRecord, with_events: bool) -> Result<GameData, StoreError> {
    let game = GameRow::try_from(game)?;
    let id = game.id.clone();
    let mut seats = load_seats(c, std::slice::from_ref(&game.id))?;
    let events = if with_events {
        game_events::table
            .filter(game_events::game_id.eq(&id))
            .order(game_events::seq.asc())
            .select(EventRow::as_select())
            .load(c)?
    } else {
        Vec::new()
    };
    let mut game = game;
    if let Some(last) = events.last() {
        // the log is the truth: statements outside one snapshot may see a newer log
        // than the summary row read just before
        game.version = last.seq;
    }
    Ok(GameData {
        seats: seats.remove(&game.id).unwrap_or_default(),
        game,
        events,
    })
}

/// A seat with its user's columns, as [`SeatTuple`] reads them.
macro_rules! seat_columns {
    () => {
        (
            game_seats::game_id,
            game_seats::seat,
            game_seats::joined_at,
            users::id,
            users::username,
            users::email,
            users::notify_turn,
            users::notify_finished,
            users::locale,
            users::time_zone,
            users::bot,
        )
    };
}

/// A game's row, its clock and its seats (with their users) in one statement: the
/// game's columns come once per seat (a game has at most six).
fn game_clock_and_seats(
    pg: &mut diesel::PgConnection,
    id: &str,
) -> Result<Option<(GameData, Option<ClockRow>)>, StoreError> {
    let rows: Vec<(GameRecord, Option<ClockRow>, Option<SeatTuple>)> = games::table
        .left_join(game_clocks::table)
        .left_join(game_seats::table.inner_join(users::table))
        .filter(games::id.eq(id))
        .order(game_seats::seat.asc())
        .select((
            GameRecord::as_select(),
            Option::<ClockRow>::as_select(),
            seat_columns!().nullable(),
        ))
        .load(pg)?;
    let mut seats = Vec::with_capacity(rows.len());
    let mut first = None;
    for (game, clock, seat) in rows {
        seats.extend(seat.map(seat_info));
        first.get_or_insert((game, clock));
    }
    let Some((game, clock)) = first else {
        return Ok(None);
    };
    Ok(Some((
        GameData {
            game: GameRow::try_from(game)?,
            seats,
            events: Vec::new(),
        },
        clock,
    )))
}

fn seat_info(t: SeatTuple) -> SeatInfo {
    let (_, seat, joined_at, user_id, username, email, nt, nf, locale, time_zone, bot) = t;
    SeatInfo {
        seat,
        user_id,
        username,
        email,
        notify_turn: nt != 0,
        notify_finished: nf != 0,
        joined_at,
        locale,
        time_zone,
        bot,
    }
}

type SeatTuple = (
    String,
    i32,
    i64,
    String,
    String,
    String,
    i32,
    i32,
    String,
    String,
    Option<String>,
);

pub(super) fn load_seats(
    c: &mut DbConn,
    ids: &[String],
) -> Result<std::collections::HashMap<String, Vec<SeatInfo>>, StoreError> {
    let mut out: std::collections::HashMap<String, Vec<SeatInfo>> = Default::default();
    for chunk in ids.chunks(500) {
        let rows: Vec<SeatTuple> = game_seats::table
            .inner_join(users::table)
            .filter(game_seats::game_id.eq_any(chunk))
            .order((game_seats::game_id.asc(), game_seats::seat.asc()))
            .select(seat_columns!())
            .load(c)?;
        for row in rows {
            out.entry(row.0.clone()).or_default().push(seat_info(row));
        }
    }
    Ok(out)
}
