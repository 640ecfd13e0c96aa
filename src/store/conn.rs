//! Connections: one diesel `MultiConnection` over Postgres and SQLite, a pool manager
//! that picks the backend from the URL scheme (never guessing), and the embedded
//! migrations.

use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::{self, ManageConnection, R2D2Connection};
use diesel::{PgConnection, SqliteConnection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

use super::StoreError;

pub const PG_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");
pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");

/// A connection to either database.
#[derive(diesel::MultiConnection)]
pub enum DbConn {
    Pg(PgConnection),
    Sqlite(SqliteConnection),
}

/// The database behind a URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    Postgres(String),
    /// A file path.
    Sqlite(String),
}

impl Backend {
    /// Chooses the backend from the URL scheme: `postgres://`/`postgresql://` or
    /// `sqlite://PATH` (`sqlite:PATH` too). Anything else is an error.
    pub fn from_url(url: &str) -> Result<Backend, StoreError> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(Backend::Postgres(url.to_string()));
        }
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"));
        match path {
            Some(p) if !p.is_empty() => Ok(Backend::Sqlite(p.to_string())),
            _ => Err(StoreError::Config(format!(
                "DATABASE_URL must start with postgres://, postgresql:// or sqlite:// (got {:?})",
                redact(url)
            ))),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Backend::Postgres(_) => "postgres",
            Backend::Sqlite(_) => "sqlite",
        }
    }
}

/// Hides a password in a URL for messages and logs.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.find('@')) {
        (Some(s), Some(at)) if at > s => {
            let creds = &url[s + 3..at];
            match creds.find(':') {
                Some(c) => format!("{}{}:***{}", &url[..s + 3], &creds[..c], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// Opens connections for the pool.
pub struct Manager {
    backend: Backend,
}

impl Manager {
    pub fn new(backend: Backend) -> Manager {
        Manager { backend }
    }
}

impl ManageConnection for Manager {
    type Connection = DbConn;
    type Error = r2d2::Error;

    fn connect(&self) -> Result<DbConn, r2d2::Error> {
        match &self.backend {
            Backend::Postgres(url) => {
                let mut c = PgConnection::establish(url).map_err(r2d2::Error::ConnectionError)?;
                c.batch_execute("SET statement_timeout = 10000")
                    .map_err(r2d2::Error::QueryError)?;
                Ok(DbConn::Pg(c))
            }
            Backend::Sqlite(path) => {
                let mut c =
                    SqliteConnection::establish(path).map_err(r2d2::Error::ConnectionError)?;
                c.batch_execute(
                    "PRAGMA busy_timeout = 10000; PRAGMA journal_mode = WAL; \
                     PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
                )
                .map_err(r2d2::Error::QueryError)?;
                Ok(DbConn::Sqlite(c))
            }
        }
    }

    fn is_valid(&self, conn: &mut DbConn) -> Result<(), r2d2::Error> {
        conn.ping().map_err(r2d2::Error::QueryError)
    }

    fn has_broken(&self, conn: &mut DbConn) -> bool {
        conn.is_broken()
    }
}

pub type Pool = r2d2::Pool<Manager>;

/// The most rows one `INSERT` of [`insert_rows!`] writes (a statement's parameters stay
/// well below the database's limit).
pub const BATCH: usize = 64;

/// Inserts the rows of a slice into a table, in order: on Postgres one statement (one
/// round trip) for up to [`BATCH`] rows; on SQLite, in-process, a statement per row
/// (diesel writes no multi-row `INSERT` of rows with optional columns there).
macro_rules! insert_rows {
    ($c:expr, $table:expr, $rows:expr) => {{
        let c: &mut $crate::store::conn::DbConn = $c;
        let rows = $rows;
        if let $crate::store::conn::DbConn::Pg(pg) = c {
            for chunk in rows.chunks($crate::store::conn::BATCH) {
                diesel::insert_into($table).values(chunk).execute(pg)?;
            }
        } else {
            for row in rows {
                diesel::insert_into($table).values(row).execute(c)?;
            }
        }
        diesel::QueryResult::Ok(())
    }};
}
pub(super) use insert_rows;

/// Runs `f` in a transaction that writes. On SQLite it begins `IMMEDIATE`: the
/// database's write lock is taken at the start (waiting up to the busy timeout), so
/// that a transaction that reads and then writes is never refused ("database is
/// locked") because another connection wrote between its read and its write, which
/// a deferred transaction in WAL mode cannot wait out. On Postgres it is a plain
/// transaction. Inside another transaction it is a savepoint, as diesel's.
pub fn transaction<T, E, F>(c: &mut DbConn, f: F) -> Result<T, E>
where
    F: FnOnce(&mut DbConn) -> Result<T, E>,
    E: From<diesel::result::Error>,
{
    use diesel::connection::{AnsiTransactionManager, TransactionManager};
    let outer = <DbConn as TransactionManager<DbConn>>::transaction_manager_status_mut(c)
        .transaction_depth()?
        .is_none();
    match c {
        DbConn::Sqlite(s) if outer => {
            AnsiTransactionManager::begin_transaction_sql(s, "BEGIN IMMEDIATE")?
        }
        _ => return c.transaction(f),
    }
    match f(c) {
        Ok(v) => {
            <DbConn as TransactionManager<DbConn>>::commit_transaction(c)?;
            Ok(v)
        }
        Err(e) => match <DbConn as TransactionManager<DbConn>>::rollback_transaction(c) {
            Ok(()) | Err(diesel::result::Error::BrokenTransactionManager) => Err(e),
            Err(rollback) => Err(rollback.into()),
        },
    }
}

/// Runs `f` in a transaction that only reads (one snapshot for several reads); it
/// takes no write lock on SQLite.
pub fn read_transaction<T, E, F>(c: &mut DbConn, f: F) -> Result<T, E>
where
    F: FnOnce(&mut DbConn) -> Result<T, E>,
    E: From<diesel::result::Error>,
{
    c.transaction(f)
}

/// Marks a connection that failed with a connection error as broken: the pool drops it
/// when it is handed back ([`Manager::has_broken`]). A SQLite connection (a file) does
/// not break that way.
pub fn mark_broken(c: &mut DbConn) {
    if let DbConn::Pg(c) = c {
        use diesel::connection::{AnsiTransactionManager, TransactionManager};
        AnsiTransactionManager::transaction_manager_status_mut(c).set_in_error();
    }
}

/// Builds the pool; fails when the database cannot be reached within `timeout`.
pub fn pool(backend: Backend, size: u32, timeout: Duration) -> Result<Pool, StoreError> {
    r2d2::Pool::builder()
        .max_size(size.max(1))
        // no ping before each use (a round trip on every request): a connection that
        // broke while idle fails its first query with a connection error, which answers
        // `503` like an unreachable database, and `Store::run` marks it broken so that
        // the pool drops it (`has_broken`)
        .test_on_check_out(false)
        .min_idle(Some(1))
        .connection_timeout(timeout)
        .build(Manager::new(backend))
        .map_err(|e| StoreError::Unavailable(e.to_string()))
}

/// Runs the pending migrations of the connection's backend. On Postgres an advisory
/// lock keeps several processes starting together from racing.
pub fn run_migrations(conn: &mut DbConn) -> Result<usize, StoreError> {
    let mig = |e: Box<dyn std::error::Error + Send + Sync>| StoreError::Internal(e.to_string());
    match conn {
        DbConn::Pg(c) => {
            c.batch_execute("SELECT pg_advisory_lock(7254031)")?;
            let r = c.run_pending_migrations(PG_MIGRATIONS).map(|v| v.len());
            c.batch_execute("SELECT pg_advisory_unlock(7254031)")?;
            r.map_err(mig)
        }
        DbConn::Sqlite(c) => c
            .run_pending_migrations(SQLITE_MIGRATIONS)
            .map(|v| v.len())
            .map_err(mig),
    }
}

/// Takes the user's row for the rest of the transaction, with a write (SQLite queues
/// concurrent writers, Postgres locks the row), so that a per-user check made after it
/// holds when requests arrive together. False when there is no such user.
pub(super) fn lock_user(c: &mut DbConn, user_id: &str) -> Result<bool, diesel::result::Error> {
    let n = diesel::update(super::schema::users::table.find(user_id))
        .set(super::schema::users::id.eq(user_id))
        .execute(c)?;
    Ok(n > 0)
}
