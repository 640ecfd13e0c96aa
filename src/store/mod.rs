//! The store: the only module that names diesel. Users, games and their seats, the event
//! log (`UNIQUE (game_id, seq)` is the optimistic lock), idempotency records and the
//! notification outbox, on Postgres or SQLite through one code path.
//!
//! Every public operation is `async` and runs its diesel calls on the blocking thread
//! pool (`web::block`), never on an actix worker. Write operations run in one
//! transaction; a write that fails leaves nothing behind.

mod accounts;
mod automation;
mod bots;
mod calendar;
mod clocks;
mod conn;
mod corr;
mod digest;
mod error;
mod fixed;
mod limits;
mod lists;
mod page;
mod push;
pub mod reviews;
/// The tables, as `diesel print-schema` writes them from a Postgres database migrated
/// with `migrations/postgres` (see `diesel.toml` and the README); a test checks them
/// against the migrations of both databases.
mod schema;
mod seed;
mod seeks;
mod standing;
mod status;
mod stream;
mod tokens;
mod tournaments;
mod webhooks;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use actix_web::web;
use conn::transaction;
use diesel::prelude::*;
use diesel::r2d2;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

pub use accounts::{AccountExport, AccountToken, ExportedGame, Revoked, TokenPurpose};
pub use automation::{AutomationRows, OrderRow, PlanRow, EVERY_GAME};
pub use bots::{BotTurn, BOT_LEVELS};
pub use clocks::VacationRow;
pub use clocks::{paused_ms, settle_bank, ClockRead, ClockRow, ClockRule, DAY_MS, HOUR_MS};
pub use conn::{redact, Backend};
use conn::{DbConn, Pool};
pub use corr::{ChatRow, InviteInfo, WaitingCounts};
pub use digest::DigestUser;
use error::user_reference;
pub use error::{Conflict, StoreError};
pub use limits::{LimitKey, Reserved, Written};
pub use lists::{ChatOrder, GameFilter, GameKey, GameListPage};
pub use page::Page;
pub use push::{
    is_push_only, push_kind_of, PushSubscriptionRow, PushTarget, CHAT_MESSAGE, PUSH_KINDS,
    PUSH_PREFIX,
};
use schema::{game_events, game_seats, games, idempotency_keys, outbox, settings, users};
pub use seed::SeedBatch;
pub use seeks::{meets, SeekData, SeekRow, Seeker};
pub use standing::{
    BoardKey, BoardRow, Ending, PlayerEnd, ProfileRows, RatingRow, ResultRow, StatsRow,
};
pub use status::{
    Assistance, DecidedBy, DeliveryStatus, GameStatus, InvitationState, InviteStatus, OutboxStatus,
    Outcome, ReviewState, SeekStatus, TournamentStatus, Visibility,
};
pub use stream::{NewStreamEvent, StreamEvent};
pub use tokens::{TokenGrant, TokenRow, PERSONAL, SESSION};
pub use tournaments::*;
pub use webhooks::*;

diesel::define_sql_function!(fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text);

// ----- records ----------------------------------------------------------------------

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = users)]
pub struct UserRow {
    pub id: String,
    pub username: String,
    pub email: String,
    pub password_hash: String,
    pub notify_turn: i32,
    pub notify_finished: i32,
    pub created_at: i64,
    /// `en` or `pt-BR`.
    pub locale: String,
    /// An IANA time zone name.
    pub time_zone: String,
    /// When the current address was confirmed (None: it gets only the confirmation).
    pub email_verified_at: Option<i64>,
    /// When the account was deleted (its row stays, anonymised, for its games' seats).
    pub deleted_at: Option<i64>,
    /// A computer opponent: the level the server plays (`random`, `greedy`, `mcts`), or
    /// [`BOT_ACCOUNT`] for an account its owner marked as a bot (it plays with a token).
    pub bot: Option<String>,
    /// The hour (0–23, in `time_zone`) of the user's daily digest; `None`: no digest,
    /// an email per turn.
    pub digest_hour: Option<i32>,
}

/// Changes to an account (`None`: as it is).
#[derive(Clone, Debug, Default)]
pub struct UserChanges {
    pub notify_turn: Option<bool>,
    pub notify_finished: Option<bool>,
    pub locale: Option<String>,
    pub time_zone: Option<String>,
    pub bot: Option<bool>,
    /// `Some(None)` turns the digest off.
    pub digest_hour: Option<Option<i32>>,
}

/// `users.bot` of an account its owner marked as a bot.
pub const BOT_ACCOUNT: &str = "account";

/// A game's row as stored: status and JSON columns as text. Read only through
/// [`GameRow::try_from`], which parses them once.
#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = games)]
struct GameRecord {
    id: String,
    creator_id: String,
    status: String,
    seats: i32,
    expansions: String,
    tile_order: Option<String>,
    version: i64,
    current_user_id: Option<String>,
    created_at: i64,
    updated_at: i64,
    turn_started_at: Option<i64>,
    rules: Option<String>,
    rated: i32,
    visibility: String,
    bot_accounts: i32,
    assistance: String,
}

/// A game's summary row, typed: its status and its JSON columns parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub creator_id: String,
    pub status: GameStatus,
    pub seats: i32,
    /// Expansion ids, as chosen at creation.
    pub expansions: Vec<String>,
    /// The fixed draw pile of a sandbox game (catalog tile ids).
    pub tile_order: Option<Vec<String>>,
    pub version: i64,
    pub current_user_id: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub turn_started_at: Option<i64>,
    /// The house rules chosen at creation: the variants that differ from the standard
    /// rules, by name (empty: the standard rules).
    pub rules: BTreeMap<String, String>,
    /// A rated game changes its players' ratings when it ends.
    pub rated: bool,
    pub visibility: Visibility,
    /// Accounts marked as bots may take a seat.
    pub bot_accounts: bool,
    /// What the game's analysis shows while it runs.
    pub assistance: Assistance,
}

impl TryFrom<GameRecord> for GameRow {
    type Error = StoreError;

    fn try_from(r: GameRecord) -> Result<GameRow, StoreError> {
        let corrupt = |detail: String| StoreError::Corrupt {
            row: format!("game {}", r.id),
            detail,
        };
        let status = GameStatus::from_column(&r.status)
            .ok_or_else(|| corrupt(format!("unknown status {:?}", r.status)))?;
        let visibility = Visibility::from_column(&r.visibility)
            .ok_or_else(|| corrupt(format!("unknown visibility {:?}", r.visibility)))?;
        let assistance = Assistance::from_column(&r.assistance)
            .ok_or_else(|| corrupt(format!("unknown assistance {:?}", r.assistance)))?;
        let expansions: Vec<String> =
            serde_json::from_str(&r.expansions).map_err(|e| corrupt(format!("expansions: {e}")))?;
        let tile_order = match &r.tile_order {
            Some(t) => Some(
                serde_json::from_str::<Vec<String>>(t)
                    .map_err(|e| corrupt(format!("tile_order: {e}")))?,
            ),
            None => None,
        };
        let rules = match &r.rules {
            Some(t) => serde_json::from_str::<BTreeMap<String, String>>(t)
                .map_err(|e| corrupt(format!("rules: {e}")))?,
            None => BTreeMap::new(),
        };
        Ok(GameRow {
            status,
            expansions,
            tile_order,
            rules,
            id: r.id,
            creator_id: r.creator_id,
            seats: r.seats,
            version: r.version,
            current_user_id: r.current_user_id,
            created_at: r.created_at,
            updated_at: r.updated_at,
            turn_started_at: r.turn_started_at,
            rated: r.rated != 0,
            visibility,
            bot_accounts: r.bot_accounts != 0,
            assistance,
        })
    }
}

impl TryFrom<&GameRow> for GameRecord {
    type Error = StoreError;

    fn try_from(g: &GameRow) -> Result<GameRecord, StoreError> {
        let json = |v: &Vec<String>| {
            serde_json::to_string(v).map_err(|e| StoreError::Internal(e.to_string()))
        };
        Ok(GameRecord {
            id: g.id.clone(),
            creator_id: g.creator_id.clone(),
            status: g.status.as_str().to_string(),
            seats: g.seats,
            expansions: json(&g.expansions)?,
            tile_order: g.tile_order.as_ref().map(json).transpose()?,
            version: g.version,
            current_user_id: g.current_user_id.clone(),
            created_at: g.created_at,
            updated_at: g.updated_at,
            turn_started_at: g.turn_started_at,
            rated: i32::from(g.rated),
            visibility: g.visibility.as_str().to_string(),
            bot_accounts: i32::from(g.bot_accounts),
            assistance: g.assistance.as_str().to_string(),
            rules: if g.rules.is_empty() {
                None
            } else {
                Some(
                    serde_json::to_string(&g.rules)
                        .map_err(|e| StoreError::Internal(e.to_string()))?,
                )
            },
        })
    }
}

/// Reads game rows, parsing each.
fn game_rows(records: Vec<GameRecord>) -> Result<Vec<GameRow>, StoreError> {
    records.into_iter().map(GameRow::try_from).collect()
}

/// A taken seat with its user's public and contact data.
#[derive(Clone, Debug)]
pub struct SeatInfo {
    pub seat: i32,
    pub user_id: String,
    pub username: String,
    pub email: String,
    pub notify_turn: bool,
    pub notify_finished: bool,
    pub joined_at: i64,
    /// The user's locale (`en`, `pt-BR`) and IANA time zone: how emails are written.
    pub locale: String,
    pub time_zone: String,
    /// The level of a computer opponent the server plays (`random`, `greedy`, `mcts`);
    /// `None`: a person.
    pub bot: Option<String>,
}

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_events)]
pub struct EventRow {
    pub game_id: String,
    pub seq: i64,
    pub event_type: String,
    pub event_version: i32,
    pub payload: String,
    pub actor_id: Option<String>,
    pub created_at: i64,
    /// Who took the decision when it was not its player by a request
    /// ([`DecidedBy`]'s name); `None`: its player.
    pub decided_by: Option<String>,
}

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = idempotency_keys)]
pub struct IdempotencyRow {
    pub user_id: String,
    pub idem_key: String,
    pub request_hash: String,
    pub status: i32,
    pub body: String,
    pub created_at: i64,
}

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = outbox)]
pub struct OutboxRow {
    pub id: String,
    pub kind: String,
    pub user_id: String,
    pub game_id: Option<String>,
    pub payload: String,
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: i64,
    pub delivered_at: Option<i64>,
    pub created_at: i64,
}

/// A game with its seats and (optionally) its whole log.
#[derive(Clone, Debug)]
pub struct GameData {
    pub game: GameRow,
    pub seats: Vec<SeatInfo>,
    pub events: Vec<EventRow>,
}

/// What a caller decides when a game starts: the creation event, the decisions the
/// server takes at once (see `crate::moves::auto`), who decides first and the
/// notifications. `events` are numbered from 1.
pub struct StartPlan {
    pub events: Vec<EventRow>,
    pub first_seat: i32,
    pub outbox: Vec<OutboxRow>,
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
    /// The turn these events end (its player and start), when the turn changes: with a
    /// time bank, what it used is taken from the player's bank.
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
}

/// Internal error type of transactions.
enum TxError {
    Db(DieselError),
    Store(StoreError),
}

impl From<DieselError> for TxError {
    fn from(e: DieselError) -> Self {
        TxError::Db(e)
    }
}

impl From<TxError> for StoreError {
    fn from(e: TxError) -> Self {
        match e {
            TxError::Db(d) => d.into(),
            TxError::Store(s) => s,
        }
    }
}

/// Rated games of one pair of players per day that change ratings, unless configured.
pub const DEFAULT_RATED_PAIR_LIMIT: i64 = 3;

/// A handle on the database (cheap to clone).
#[derive(Clone)]
pub struct Store {
    pool: Arc<Pool>,
    backend: &'static str,
    /// Rated games one pair of players may play together per day that change ratings
    /// (`TILEPOST_RATED_GAMES_PER_PAIR_PER_DAY`; [`Store::with_rated_pair_limit`]).
    rated_pair_limit: i64,
}

impl Store {
    /// Connects (synchronously; used at start-up) without running migrations.
    pub fn connect(url: &str, pool_size: u32, timeout: Duration) -> Result<Store, StoreError> {
        let backend = Backend::from_url(url)?;
        let name = backend.name();
        let pool = conn::pool(backend, pool_size, timeout)?;
        Ok(Store {
            pool: Arc::new(pool),
            backend: name,
            rated_pair_limit: DEFAULT_RATED_PAIR_LIMIT,
        })
    }

    /// The store with a limit on the rated games one pair of players may play together
    /// per day that change ratings (enforced where a game's end is written).
    pub fn with_rated_pair_limit(mut self, limit: i64) -> Store {
        self.rated_pair_limit = limit;
        self
    }

    pub fn backend(&self) -> &'static str {
        self.backend
    }

    fn conn(&self) -> Result<r2d2::PooledConnection<conn::Manager>, StoreError> {
        self.pool
            .get()
            .map_err(|e| StoreError::Unavailable(e.to_string()))
    }

    /// Runs pending migrations (synchronously; start-up and `tilepost migrate`).
    pub fn migrate(&self) -> Result<usize, StoreError> {
        let mut c = self.conn()?;
        conn::run_migrations(&mut c)
    }

    /// Returns the setting `name`, storing `default` first when it is missing (the first
    /// writer wins; synchronous, for start-up).
    pub fn setting_or_insert(&self, name: &str, default: &str) -> Result<String, StoreError> {
        let mut c = self.conn()?;
        let existing: Option<String> = settings::table
            .find(name)
            .select(settings::value)
            .first(&mut c)
            .optional()?;
        if let Some(v) = existing {
            return Ok(v);
        }
        match diesel::insert_into(settings::table)
            .values((settings::name.eq(name), settings::value.eq(default)))
            .execute(&mut c)
        {
            Ok(_) | Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {}
            Err(e) => return Err(e.into()),
        }
        Ok(settings::table
            .find(name)
            .select(settings::value)
            .first(&mut c)?)
    }

    async fn run<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConn) -> Result<T, StoreError> + Send + 'static,
    {
        let pool = self.pool.clone();
        web::block(move || {
            let mut c = pool
                .get()
                .map_err(|e| StoreError::Unavailable(e.to_string()))?;
            let out = f(&mut c);
            if matches!(out, Err(StoreError::Unavailable(_))) {
                // the pool does not ping a connection before handing it out: one that
                // lost its server is dropped when it comes back, not handed out again
                conn::mark_broken(&mut c);
            }
            out
        })
        .await
        .map_err(|e| StoreError::Internal(e.to_string()))?
    }

    /// Checks that the database answers.
    pub async fn ping(&self) -> Result<(), StoreError> {
        self.run(|c| {
            diesel::sql_query("SELECT 1").execute(c)?;
            Ok(())
        })
        .await
    }

    // ----- games --------------------------------------------------------------------

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
            transaction(c, |c| {
                let new_version = a.expected_version + a.events.len() as i64;
                // The first statement writes, so SQLite takes its write lock at once and
                // concurrent writers queue instead of failing on a stale snapshot.
                let base = games::table
                    .filter(games::id.eq(&a.game_id))
                    .filter(games::version.eq(a.expected_version));
                let n = if a.turn_changed {
                    diesel::update(base)
                        .set((
                            games::version.eq(new_version),
                            games::status.eq(a.status.as_str()),
                            games::current_user_id.eq(&a.current_user_id),
                            games::updated_at.eq(a.now),
                            games::turn_started_at.eq(Some(a.now)),
                        ))
                        .execute(c)?
                } else {
                    diesel::update(base)
                        .set((
                            games::version.eq(new_version),
                            games::status.eq(a.status.as_str()),
                            games::current_user_id.eq(&a.current_user_id),
                            games::updated_at.eq(a.now),
                        ))
                        .execute(c)?
                };
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
                for ev in &a.events {
                    diesel::insert_into(game_events::table)
                        .values(ev)
                        .execute(c)
                        .map_err(|e| match e {
                            DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => {
                                TxError::Store(StoreError::Conflict(Conflict::StaleVersion))
                            }
                            other => TxError::Db(other),
                        })?;
                }
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
                stream::queue(c, &a.outbox, &a.stream)?;
                automation::drop_plans(c, &a.game_id, &a.drop_plans_of)?;
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

/// Takes the game's row lock with a write (so SQLite queues writers) and checks it is
/// still open.
fn lock_open_game(c: &mut DbConn, game_id: &str, now: i64) -> Result<(), TxError> {
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

fn start_game_tx<F>(c: &mut DbConn, data: &GameData, now: i64, start: F) -> Result<(), TxError>
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
    for ev in &plan.events {
        diesel::insert_into(game_events::table)
            .values(ev)
            .execute(c)?;
    }
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
    stream::queue(c, &plan.outbox, &[])?;
    Ok(())
}

fn load_game(c: &mut DbConn, id: &str, with_events: bool) -> Result<Option<GameData>, StoreError> {
    let game: Option<GameRecord> = games::table
        .find(id)
        .select(GameRecord::as_select())
        .first(c)
        .optional()?;
    let Some(game) = game else {
        return Ok(None);
    };
    let game = GameRow::try_from(game)?;
    let mut seats = load_seats(c, std::slice::from_ref(&game.id))?;
    let events = if with_events {
        game_events::table
            .filter(game_events::game_id.eq(id))
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
    Ok(Some(GameData {
        seats: seats.remove(&game.id).unwrap_or_default(),
        game,
        events,
    }))
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

fn load_seats(
    c: &mut DbConn,
    ids: &[String],
) -> Result<std::collections::HashMap<String, Vec<SeatInfo>>, StoreError> {
    let mut out: std::collections::HashMap<String, Vec<SeatInfo>> = Default::default();
    for chunk in ids.chunks(500) {
        let rows: Vec<SeatTuple> = game_seats::table
            .inner_join(users::table)
            .filter(game_seats::game_id.eq_any(chunk))
            .order((game_seats::game_id.asc(), game_seats::seat.asc()))
            .select((
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
            ))
            .load(c)?;
        for (gid, seat, joined_at, user_id, username, email, nt, nf, locale, time_zone, bot) in rows
        {
            out.entry(gid).or_default().push(SeatInfo {
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
            });
        }
    }
    Ok(out)
}
