//! Tournaments: the summary row of each event, its append-only decision log
//! (`tournament_events`, `UNIQUE (tournament_id, seq)`), the link from each game to
//! its stage, round, table and game of the match (`tournament_games`), and its players
//! as the log has them (`tournament_players`: registered, withdrawn or removed).
//!
//! Every write to a tournament goes through [`Store::tournament_write`]: it takes the
//! tournament's row lock with a write (so concurrent writers, in this process or
//! another, queue on it; SQLite's first write takes the database's lock), reads the log
//! and the state of the event's games inside the transaction, lets the caller decide
//! (the service replays the log and asks the tournament crate), and appends the new
//! events, creates and starts the round's games and updates the summary in the same
//! transaction. The version check on the row and the log's unique key make a writer that
//! slipped past the lock fail cleanly instead of writing a second pairing.

use std::collections::HashMap;

use super::conn::transaction;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use super::conn::DbConn;
use super::schema::{
    game_clocks, game_results, game_seats, games, tournament_events, tournament_games,
    tournament_players, tournaments, users,
};
use super::{
    load_game, start_game_tx, AutomationRows, Conflict, GameRecord, GameRow, GameStatus, OutboxRow,
    SeatInfo, StartPlan, Store, StoreError, TournamentStatus, TxError,
};

/// A tournament's summary row.
#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = tournaments)]
pub struct TournamentRow {
    pub id: String,
    pub name: String,
    pub organiser_id: String,
    pub status: String,
    /// The settings as created (JSON).
    pub config: String,
    /// Events in the log.
    pub version: i64,
    pub players: i32,
    pub current_stage: i32,
    pub current_round: i32,
    pub round_started_at: Option<i64>,
    pub round_deadline: Option<i64>,
    pub next_round_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    /// When the organiser paused the event (none: it is not paused).
    pub paused_at: Option<i64>,
    /// Rounds paired over all the stages (the next round's place in the settings'
    /// `round_starts`).
    pub rounds_paired: i32,
}

impl TournamentRow {
    pub fn status(&self) -> Option<TournamentStatus> {
        TournamentStatus::from_column(&self.status)
    }
}

/// One stored decision of a tournament.
#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = tournament_events)]
pub struct TournamentEventRow {
    pub tournament_id: String,
    pub seq: i64,
    pub event_type: String,
    pub event_version: i32,
    pub payload: String,
    pub actor_id: Option<String>,
    pub created_at: i64,
}

/// A game of a tournament with its place in the event and, once it ended, each
/// player's score and how their part ended.
#[derive(Clone, Debug)]
pub struct LinkedGame {
    pub game_id: String,
    pub stage: i32,
    pub round: i32,
    pub table_no: i32,
    pub game_no: i32,
    pub result_seq: Option<i64>,
    pub status: GameStatus,
    /// `(user_id, score, outcome)` of a finished game (from `game_results`).
    pub results: Vec<(String, i32, String)>,
}

/// What a tournament write sees: the row, the whole log, and the games whose result is
/// not recorded yet.
#[derive(Clone, Debug)]
pub struct TournamentCtx {
    pub row: TournamentRow,
    pub events: Vec<TournamentEventRow>,
    pub open_games: Vec<LinkedGame>,
}

/// How a game of a round starts (the plan of `crate::moves::start_plan`).
pub type StartFn =
    Box<dyn FnOnce(&GameRow, &[SeatInfo], &AutomationRows) -> Result<StartPlan, String> + Send>;

/// A game to create and start for a round: its players in seat order (seat 0 starts).
pub struct NewTournamentGame {
    pub game: GameRow,
    pub players: Vec<String>,
    pub days_per_move: Option<i32>,
    pub stage: i32,
    pub round: i32,
    pub table_no: i32,
    pub game_no: i32,
    pub start: StartFn,
}

/// What a tournament write appends and changes, in one transaction.
#[derive(Default)]
pub struct TournamentWrite {
    /// Numbered from the row's version + 1.
    pub events: Vec<TournamentEventRow>,
    pub status: Option<TournamentStatus>,
    pub players: Option<i32>,
    pub current: Option<(i32, i32)>,
    pub round_started_at: Option<Option<i64>>,
    pub round_deadline: Option<Option<i64>>,
    pub next_round_at: Option<Option<i64>>,
    pub games: Vec<NewTournamentGame>,
    /// Players the new events register (`false`) or withdraw or remove (`true`).
    pub entrants: Vec<(String, bool)>,
    /// Rounds the new events pair.
    pub rounds_paired: i32,
    /// Games whose result the new events record, with the event's seq.
    pub results: Vec<(String, i64)>,
    pub outbox: Vec<OutboxRow>,
    /// Messages to the players, built from their accounts as this transaction reads
    /// them.
    pub notices: Option<Notices>,
    /// The organiser paused (`Some(Some(at))`) or resumed (`Some(None)`) the event: the
    /// row's `paused_at` is set, and the clocks of the event's running games stop, or
    /// run again with the time they stood still counted out of the turn.
    pub paused_at: Option<Option<i64>>,
}

/// The messages of a tournament write: `build` gets the accounts of `users` (those
/// that exist and are not deleted, by id; computer opponents included, so that their
/// names can be shown) and returns the rows to queue.
pub struct Notices {
    pub users: Vec<String>,
    pub build: NoticeFn,
}

pub type NoticeFn = Box<dyn FnOnce(&HashMap<String, SeatInfo>) -> Vec<OutboxRow> + Send>;

/// The accounts of `ids` as message recipients (seat -1).
fn recipients(c: &mut DbConn, ids: &[String]) -> Result<HashMap<String, SeatInfo>, DieselError> {
    use super::schema::users;
    let mut out = HashMap::new();
    for chunk in ids.chunks(500) {
        let rows: Vec<super::UserRow> = users::table
            .filter(users::id.eq_any(chunk))
            .filter(users::deleted_at.is_null())
            .select(super::UserRow::as_select())
            .load(c)?;
        for u in rows {
            out.insert(
                u.id.clone(),
                SeatInfo {
                    seat: -1,
                    user_id: u.id,
                    username: u.username,
                    email: u.email,
                    notify_turn: u.notify_turn != 0,
                    notify_finished: u.notify_finished != 0,
                    joined_at: u.created_at,
                    locale: u.locale,
                    time_zone: u.time_zone,
                    bot: u.bot,
                },
            );
        }
    }
    Ok(out)
}

impl TournamentWrite {
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
            && self.status.is_none()
            && self.games.is_empty()
            && self.next_round_at.is_none()
            && self.round_deadline.is_none()
            && self.paused_at.is_none()
    }
}

/// A page of a player's games in a tournament: `(game_id, stage, round, table, game,
/// status)`.
pub type PlayerGame = (String, i32, i32, i32, i32, GameStatus);

/// The keyset of the player's-games list: `(stage, round, table, game)`.
pub type PlayerGameKey = (i32, i32, i32, i32);

/// A link row with its game's status: `(game_id, stage, round, table, game, result_seq,
/// status)`.
type LinkRow = (String, i32, i32, i32, i32, Option<i64>, String);

fn open_games(c: &mut DbConn, id: &str) -> Result<Vec<LinkedGame>, StoreError> {
    let rows: Vec<LinkRow> = tournament_games::table
        .inner_join(games::table)
        .filter(tournament_games::tournament_id.eq(id))
        .filter(tournament_games::result_seq.is_null())
        .order((
            tournament_games::stage.asc(),
            tournament_games::round.asc(),
            tournament_games::table_no.asc(),
            tournament_games::game_no.asc(),
        ))
        .select((
            tournament_games::game_id,
            tournament_games::stage,
            tournament_games::round,
            tournament_games::table_no,
            tournament_games::game_no,
            tournament_games::result_seq,
            games::status,
        ))
        .load(c)?;
    let finished: Vec<String> = rows
        .iter()
        .filter(|r| r.6 == GameStatus::Finished.as_str())
        .map(|r| r.0.clone())
        .collect();
    let mut results: HashMap<String, Vec<(String, i32, String)>> = HashMap::new();
    for chunk in finished.chunks(500) {
        let rs: Vec<(String, String, i32, String)> = game_results::table
            .filter(game_results::game_id.eq_any(chunk))
            .select((
                game_results::game_id,
                game_results::user_id,
                game_results::score,
                game_results::outcome,
            ))
            .load(c)?;
        for (g, u, s, o) in rs {
            results.entry(g).or_default().push((u, s, o));
        }
    }
    rows.into_iter()
        .map(
            |(game_id, stage, round, table_no, game_no, result_seq, status)| {
                let status =
                    GameStatus::from_column(&status).ok_or_else(|| StoreError::Corrupt {
                        row: format!("game {game_id}"),
                        detail: format!("unknown status {status:?}"),
                    })?;
                Ok(LinkedGame {
                    results: results.remove(&game_id).unwrap_or_default(),
                    game_id,
                    stage,
                    round,
                    table_no,
                    game_no,
                    result_seq,
                    status,
                })
            },
        )
        .collect()
}

fn duplicate_is_stale(e: DieselError) -> TxError {
    match e {
        DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => {
            TxError::Store(StoreError::Conflict(Conflict::StaleVersion))
        }
        other => TxError::Db(other),
    }
}

/// Stops (`paused`: since when) or restarts (`None`) the clocks of the tournament's
/// running games. A restarted clock keeps how long it stood still during the current
/// turn (`paused_ms` of `paused_turn`), which the turn's deadline and bank count out
/// ([`super::ClockRow::held_ms`]).
fn hold_clocks(
    c: &mut DbConn,
    tournament_id: &str,
    paused: Option<i64>,
    now: i64,
) -> Result<(), DieselError> {
    let running = tournament_games::table
        .inner_join(games::table)
        .filter(tournament_games::tournament_id.eq(tournament_id))
        .filter(games::status.eq(GameStatus::Active.as_str()))
        .select(tournament_games::game_id);
    if let Some(at) = paused {
        diesel::update(
            game_clocks::table
                .filter(game_clocks::game_id.eq_any(running))
                .filter(game_clocks::paused_at.is_null()),
        )
        .set(game_clocks::paused_at.eq(Some(at)))
        .execute(c)?;
        return Ok(());
    }
    let held: Vec<(super::ClockRow, Option<i64>)> = game_clocks::table
        .inner_join(games::table)
        .inner_join(tournament_games::table.on(tournament_games::game_id.eq(game_clocks::game_id)))
        .filter(tournament_games::tournament_id.eq(tournament_id))
        .filter(game_clocks::paused_at.is_not_null())
        .select((super::ClockRow::as_select(), games::turn_started_at))
        .load(c)?;
    for (clock, turn) in held {
        let (ms, turn) = match turn {
            Some(t) => (clock.held_ms(t, now), Some(t)),
            None => (0, None),
        };
        diesel::update(game_clocks::table.find(&clock.game_id))
            .set((
                game_clocks::paused_at.eq(None::<i64>),
                game_clocks::paused_ms.eq(ms),
                game_clocks::paused_turn.eq(turn),
            ))
            .execute(c)?;
    }
    Ok(())
}

fn write_tx(
    c: &mut DbConn,
    ctx: &TournamentCtx,
    w: TournamentWrite,
    now: i64,
) -> Result<(), TxError> {
    let id = &ctx.row.id;
    let version = ctx.row.version + w.events.len() as i64;
    let n = diesel::update(
        tournaments::table
            .filter(tournaments::id.eq(id))
            .filter(tournaments::version.eq(ctx.row.version)),
    )
    .set((
        tournaments::version.eq(version),
        tournaments::updated_at.eq(now),
    ))
    .execute(c)?;
    if n == 0 {
        return Err(TxError::Store(StoreError::Conflict(Conflict::StaleVersion)));
    }
    for e in &w.events {
        diesel::insert_into(tournament_events::table)
            .values(e)
            .execute(c)
            .map_err(duplicate_is_stale)?;
    }
    // a player registers once (the log refuses a second registration)
    for (user, out) in &w.entrants {
        if *out {
            diesel::update(tournament_players::table.find((id, user)))
                .set(tournament_players::withdrawn.eq(1))
                .execute(c)?;
        } else {
            diesel::insert_into(tournament_players::table)
                .values((
                    tournament_players::tournament_id.eq(id),
                    tournament_players::user_id.eq(user),
                    tournament_players::withdrawn.eq(0),
                ))
                .execute(c)?;
        }
    }
    if w.rounds_paired > 0 {
        diesel::update(tournaments::table.find(id))
            .set(tournaments::rounds_paired.eq(tournaments::rounds_paired + w.rounds_paired))
            .execute(c)?;
    }
    if let Some(s) = w.status {
        diesel::update(tournaments::table.find(id))
            .set(tournaments::status.eq(s.as_str()))
            .execute(c)?;
    }
    if let Some(p) = w.players {
        diesel::update(tournaments::table.find(id))
            .set(tournaments::players.eq(p))
            .execute(c)?;
    }
    if let Some((stage, round)) = w.current {
        diesel::update(tournaments::table.find(id))
            .set((
                tournaments::current_stage.eq(stage),
                tournaments::current_round.eq(round),
            ))
            .execute(c)?;
    }
    if let Some(v) = w.round_started_at {
        diesel::update(tournaments::table.find(id))
            .set(tournaments::round_started_at.eq(v))
            .execute(c)?;
    }
    if let Some(v) = w.round_deadline {
        diesel::update(tournaments::table.find(id))
            .set(tournaments::round_deadline.eq(v))
            .execute(c)?;
    }
    if let Some(v) = w.next_round_at {
        diesel::update(tournaments::table.find(id))
            .set(tournaments::next_round_at.eq(v))
            .execute(c)?;
    }
    if let Some(v) = w.paused_at {
        diesel::update(tournaments::table.find(id))
            .set(tournaments::paused_at.eq(v))
            .execute(c)?;
        hold_clocks(c, id, v, now)?;
    }
    for (game_id, seq) in &w.results {
        diesel::update(
            tournament_games::table
                .find(game_id)
                .filter(tournament_games::result_seq.is_null()),
        )
        .set(tournament_games::result_seq.eq(Some(*seq)))
        .execute(c)?;
    }
    for g in w.games {
        let record = GameRecord::try_from(&g.game).map_err(TxError::Store)?;
        diesel::insert_into(games::table)
            .values(&record)
            .execute(c)?;
        for (seat, u) in g.players.iter().enumerate() {
            diesel::insert_into(game_seats::table)
                .values((
                    game_seats::game_id.eq(&g.game.id),
                    game_seats::seat.eq(seat as i32),
                    game_seats::user_id.eq(u),
                    game_seats::joined_at.eq(now),
                ))
                .execute(c)?;
        }
        if let Some(d) = g.days_per_move {
            diesel::insert_into(game_clocks::table)
                .values((
                    game_clocks::game_id.eq(&g.game.id),
                    game_clocks::days_per_move.eq(d),
                ))
                .execute(c)?;
        }
        diesel::insert_into(tournament_games::table)
            .values((
                tournament_games::game_id.eq(&g.game.id),
                tournament_games::tournament_id.eq(id),
                tournament_games::stage.eq(g.stage),
                tournament_games::round.eq(g.round),
                tournament_games::table_no.eq(g.table_no),
                tournament_games::game_no.eq(g.game_no),
            ))
            .execute(c)
            .map_err(duplicate_is_stale)?;
        let data = load_game(c, &g.game.id, false)
            .map_err(TxError::Store)?
            .ok_or(TxError::Store(StoreError::NotFound))?;
        start_game_tx(c, &data, now, g.start)?;
    }
    let mut outbox = w.outbox;
    if let Some(n) = w.notices {
        let to = recipients(c, &n.users)?;
        outbox.extend((n.build)(&to));
    }
    super::stream::queue(c, &outbox, &[])?;
    Ok(())
}

impl Store {
    /// Creates a tournament with its first event (`tournament_created`).
    pub async fn create_tournament(
        &self,
        row: TournamentRow,
        first: TournamentEventRow,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                diesel::insert_into(tournaments::table)
                    .values(&row)
                    .execute(c)?;
                diesel::insert_into(tournament_events::table)
                    .values(&first)
                    .execute(c)?;
                Ok::<_, DieselError>(())
            })
            .map_err(super::user_reference)
        })
        .await
    }

    pub async fn tournament(&self, id: String) -> Result<Option<TournamentRow>, StoreError> {
        self.run(move |c| {
            Ok(tournaments::table
                .find(id)
                .select(TournamentRow::as_select())
                .first(c)
                .optional()?)
        })
        .await
    }

    /// A tournament's row and its whole log, in one snapshot's order (the log read
    /// after the row, so it is never older than the row's version).
    pub async fn tournament_with_log(
        &self,
        id: String,
    ) -> Result<Option<(TournamentRow, Vec<TournamentEventRow>)>, StoreError> {
        self.run(move |c| {
            super::conn::read_transaction(c, |c| {
                let Some(row) = tournaments::table
                    .find(&id)
                    .select(TournamentRow::as_select())
                    .first(c)
                    .optional()?
                else {
                    return Ok(None);
                };
                let events = tournament_events::table
                    .filter(tournament_events::tournament_id.eq(&id))
                    .order(tournament_events::seq.asc())
                    .select(TournamentEventRow::as_select())
                    .load(c)?;
                Ok(Some((row, events)))
            })
            .map_err(|e: DieselError| e.into())
        })
        .await
    }

    /// Tournaments, newest first, after the keyset `(created_at, id)`; with a status
    /// only those.
    pub async fn list_tournaments(
        &self,
        status: Option<TournamentStatus>,
        after: Option<(i64, String)>,
        limit: i64,
    ) -> Result<(Vec<TournamentRow>, Option<(i64, String)>), StoreError> {
        self.run(move |c| {
            let mut q = tournaments::table
                .select(TournamentRow::as_select())
                .order((tournaments::created_at.desc(), tournaments::id.desc()))
                .limit(limit + 1)
                .into_boxed();
            if let Some(s) = status {
                q = q.filter(tournaments::status.eq(s.as_str()));
            }
            if let Some((t, id)) = after {
                q = q.filter(
                    tournaments::created_at
                        .lt(t)
                        .or(tournaments::created_at.eq(t).and(tournaments::id.lt(id))),
                );
            }
            let mut rows: Vec<TournamentRow> = q.load(c)?;
            let next = if rows.len() as i64 > limit {
                rows.truncate(limit as usize);
                rows.last().map(|r| (r.created_at, r.id.clone()))
            } else {
                None
            };
            Ok((rows, next))
        })
        .await
    }

    /// The log of a tournament after `seq`, a page of `limit`.
    pub async fn tournament_events_page(
        &self,
        id: String,
        after: i64,
        limit: i64,
    ) -> Result<Vec<TournamentEventRow>, StoreError> {
        self.run(move |c| {
            Ok(tournament_events::table
                .filter(tournament_events::tournament_id.eq(id))
                .filter(tournament_events::seq.gt(after))
                .order(tournament_events::seq.asc())
                .limit(limit)
                .select(TournamentEventRow::as_select())
                .load(c)?)
        })
        .await
    }

    /// Runs `decide` on the tournament's current row, log and open games under its row
    /// lock, and writes what it returns in the same transaction (see the module
    /// documentation). `decide`'s own refusal rolls everything back and comes back as
    /// `Ok(Err(e))`; `Err(StoreError::NotFound)`: no such tournament.
    pub async fn tournament_write<F, T, E>(
        &self,
        id: String,
        now: i64,
        decide: F,
    ) -> Result<Result<T, E>, StoreError>
    where
        F: FnOnce(&TournamentCtx) -> Result<(TournamentWrite, T), E> + Send + 'static,
        T: Send + 'static,
        E: Send + 'static,
    {
        self.run(move |c| {
            let mut refusal: Option<E> = None;
            let out = transaction(c, |c| {
                // the row lock first: writers of this tournament queue here
                let n = diesel::update(tournaments::table.find(&id))
                    .set(tournaments::updated_at.eq(now))
                    .execute(c)?;
                if n == 0 {
                    return Err(TxError::Store(StoreError::NotFound));
                }
                let row: TournamentRow = tournaments::table
                    .find(&id)
                    .select(TournamentRow::as_select())
                    .first(c)?;
                let events = tournament_events::table
                    .filter(tournament_events::tournament_id.eq(&id))
                    .order(tournament_events::seq.asc())
                    .select(TournamentEventRow::as_select())
                    .load(c)?;
                let open_games = open_games(c, &id).map_err(TxError::Store)?;
                let ctx = TournamentCtx {
                    row,
                    events,
                    open_games,
                };
                match decide(&ctx) {
                    Ok((w, t)) => {
                        if !w.is_empty() {
                            write_tx(c, &ctx, w, now)?;
                        }
                        Ok(t)
                    }
                    Err(e) => {
                        refusal = Some(e);
                        Err(TxError::Store(StoreError::Rejected(String::new())))
                    }
                }
            });
            match (out, refusal) {
                (_, Some(e)) => Ok(Err(e)),
                (Ok(t), None) => Ok(Ok(t)),
                (Err(e), None) => Err(e.into()),
            }
        })
        .await
    }

    /// Tournaments that need the service now: running ones with a finished game whose
    /// result is not recorded, a round past its cap, or a round whose date has come.
    pub async fn due_tournaments(&self, now: i64, limit: i64) -> Result<Vec<String>, StoreError> {
        self.run(move |c| {
            let running = TournamentStatus::Running.as_str();
            let mut ids: Vec<String> = tournament_games::table
                .inner_join(games::table)
                .inner_join(tournaments::table)
                .filter(tournament_games::result_seq.is_null())
                .filter(games::status.eq(GameStatus::Finished.as_str()))
                .filter(tournaments::status.eq(running))
                .select(tournament_games::tournament_id)
                .distinct()
                .limit(limit)
                .load(c)?;
            // (a paused event applies no cap and pairs no dated round)
            let timed: Vec<String> = tournaments::table
                .filter(tournaments::status.eq(running))
                .filter(tournaments::paused_at.is_null())
                .filter(
                    tournaments::round_deadline
                        .le(now)
                        .or(tournaments::next_round_at.le(now)),
                )
                .select(tournaments::id)
                .limit(limit)
                .load(c)?;
            // events whose start date has come
            let starting: Vec<String> = tournaments::table
                .filter(tournaments::status.eq(TournamentStatus::Registering.as_str()))
                .filter(tournaments::next_round_at.le(now))
                .select(tournaments::id)
                .limit(limit)
                .load(c)?;
            for t in timed.into_iter().chain(starting) {
                if !ids.contains(&t) {
                    ids.push(t);
                }
            }
            Ok(ids)
        })
        .await
    }

    /// The events `user_id` plays in (registered, not withdrawn or removed) that are
    /// open for registration or running, newest first, at most `limit`.
    pub async fn tournaments_of_player(
        &self,
        user_id: String,
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        self.run(move |c| {
            let open = [
                TournamentStatus::Registering.as_str(),
                TournamentStatus::Running.as_str(),
            ];
            Ok(tournament_players::table
                .inner_join(tournaments::table)
                .filter(tournament_players::user_id.eq(&user_id))
                .filter(tournament_players::withdrawn.eq(0))
                .filter(tournaments::status.eq_any(open))
                .order((tournaments::created_at.desc(), tournaments::id.desc()))
                .limit(limit)
                .select(TournamentRow::as_select())
                .load(c)?)
        })
        .await
    }

    /// The tournament a game belongs to, with its place: `(tournament_id, name, stage,
    /// round, table, game)`.
    pub async fn tournament_of_game(
        &self,
        game_id: String,
    ) -> Result<Option<(String, String, i32, i32, i32, i32)>, StoreError> {
        self.run(move |c| {
            Ok(tournament_games::table
                .inner_join(tournaments::table)
                .filter(tournament_games::game_id.eq(game_id))
                .select((
                    tournaments::id,
                    tournaments::name,
                    tournament_games::stage,
                    tournament_games::round,
                    tournament_games::table_no,
                    tournament_games::game_no,
                ))
                .first(c)
                .optional()?)
        })
        .await
    }

    /// The games of a tournament's stage and rounds, `(stage, round, table, game) ->
    /// (game_id, status)`, for the rounds `from..=to` of `stage`.
    pub async fn tournament_games_of(
        &self,
        id: String,
        rounds: Vec<(i32, i32)>,
    ) -> Result<HashMap<PlayerGameKey, (String, GameStatus)>, StoreError> {
        self.run(move |c| {
            let mut out = HashMap::new();
            for (stage, round) in rounds {
                let rows: Vec<(String, i32, i32, i32, i32, String)> = tournament_games::table
                    .inner_join(games::table)
                    .filter(tournament_games::tournament_id.eq(&id))
                    .filter(tournament_games::stage.eq(stage))
                    .filter(tournament_games::round.eq(round))
                    .select((
                        tournament_games::game_id,
                        tournament_games::stage,
                        tournament_games::round,
                        tournament_games::table_no,
                        tournament_games::game_no,
                        games::status,
                    ))
                    .load(c)?;
                for (g, s, r, t, n, status) in rows {
                    let status = GameStatus::from_column(&status).unwrap_or(GameStatus::Active);
                    out.insert((s, r, t, n), (g, status));
                }
            }
            Ok(out)
        })
        .await
    }

    /// A player's games in a tournament, in order of stage, round, table and game,
    /// after the keyset `after`.
    pub async fn player_tournament_games(
        &self,
        id: String,
        user_id: String,
        after: Option<PlayerGameKey>,
        limit: i64,
    ) -> Result<(Vec<PlayerGame>, Option<PlayerGameKey>), StoreError> {
        self.run(move |c| {
            let mut q = tournament_games::table
                .inner_join(games::table)
                .inner_join(game_seats::table.on(game_seats::game_id.eq(tournament_games::game_id)))
                .filter(tournament_games::tournament_id.eq(&id))
                .filter(game_seats::user_id.eq(&user_id))
                .order((
                    tournament_games::stage.asc(),
                    tournament_games::round.asc(),
                    tournament_games::table_no.asc(),
                    tournament_games::game_no.asc(),
                ))
                .select((
                    tournament_games::game_id,
                    tournament_games::stage,
                    tournament_games::round,
                    tournament_games::table_no,
                    tournament_games::game_no,
                    games::status,
                ))
                .limit(limit + 1)
                .into_boxed();
            if let Some((s, r, t, n)) = after {
                q = q.filter(
                    tournament_games::stage
                        .gt(s)
                        .or(tournament_games::stage.eq(s).and(
                            tournament_games::round
                                .gt(r)
                                .or(tournament_games::round.eq(r).and(
                                    tournament_games::table_no
                                        .gt(t)
                                        .or(tournament_games::table_no
                                            .eq(t)
                                            .and(tournament_games::game_no.gt(n))),
                                )),
                        )),
                );
            }
            let rows: Vec<(String, i32, i32, i32, i32, String)> = q.load(c)?;
            let mut out: Vec<PlayerGame> = rows
                .into_iter()
                .map(|(g, s, r, t, n, status)| {
                    let status = GameStatus::from_column(&status).unwrap_or(GameStatus::Active);
                    (g, s, r, t, n, status)
                })
                .collect();
            let next = if out.len() as i64 > limit {
                out.truncate(limit as usize);
                out.last().map(|g| (g.1, g.2, g.3, g.4))
            } else {
                None
            };
            Ok((out, next))
        })
        .await
    }

    /// Usernames (and bot levels) of these users.
    pub async fn usernames_of(
        &self,
        ids: Vec<String>,
    ) -> Result<HashMap<String, (String, Option<String>)>, StoreError> {
        self.run(move |c| {
            let mut out = HashMap::new();
            for chunk in ids.chunks(500) {
                let rows: Vec<(String, String, Option<String>)> = users::table
                    .filter(users::id.eq_any(chunk))
                    .select((users::id, users::username, users::bot))
                    .load(c)?;
                for (id, name, bot) in rows {
                    out.insert(id, (name, bot));
                }
            }
            Ok(out)
        })
        .await
    }
}
