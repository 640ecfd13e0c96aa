//! The store: the only module that names diesel. Users, games and their seats, the event
//! log (`UNIQUE (game_id, seq)` is the optimistic lock), idempotency records and the
//! notification outbox, on Postgres or SQLite through one code path.
//!
//! Every public operation is `async` and runs its diesel calls on the blocking thread
//! pool (`web::block`), never on an actix worker. Write operations run in one
//! transaction; a write that fails leaves nothing behind.
//!
//! This file holds the handle ([`Store`]): connecting, migrating and running an
//! operation on a pooled connection. The rows of the core tables are in `rows`, the
//! errors in `error`, games with their seats and log (creating, loading, starting and
//! appending) in `games`, and each other group of tables in a module of its own.

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
mod games;
mod limits;
mod lists;
mod page;
mod pg_rows;
mod push;
pub mod reviews;
mod rows;
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

use std::sync::Arc;
use std::time::Duration;

use actix_web::web;
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
use error::{user_reference, TxError};
pub use error::{Conflict, StoreError};
use games::{load_game, load_seats, lock_open_game, start_game_tx};
pub use games::{Append, DecisionRead, StartPlan};
pub use limits::{LimitKey, Reserved, Written};
pub use lists::{ChatOrder, GameFilter, GameKey, GameListPage};
pub use page::Page;
pub use push::{
    is_push_only, push_kind_of, PushSubscriptionRow, PushTarget, CHAT_MESSAGE, PUSH_KINDS,
    PUSH_PREFIX,
};
use rows::{game_rows, GameRecord};
pub use rows::{
    EventRow, GameData, GameRow, IdempotencyRow, OutboxRow, SeatInfo, UserChanges, UserRow,
    BOT_ACCOUNT,
};
use schema::settings;
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
}
