//! Configuration from the environment (`DATABASE_URL`, `TILEPOST_*`), with documented
//! defaults. Secrets are never printed: `Debug` redacts them.

use std::fmt;

/// Server settings.
#[derive(Clone)]
pub struct Config {
    /// `TILEPOST_BIND`, default `127.0.0.1:8080`.
    pub bind: String,
    /// `DATABASE_URL`, default `sqlite://tilepost.db`.
    pub database_url: String,
    /// `TILEPOST_JWT_SECRET`; when unset, one is generated once and kept in the database.
    pub jwt_secret: Option<String>,
    /// `TILEPOST_TOKEN_TTL_SECS`, default 86400.
    pub token_ttl_secs: i64,
    /// `TILEPOST_PUBLIC_URL`, the base of links in notifications; default
    /// `http://<bind>`.
    pub public_url: String,
    /// `TILEPOST_ARGON2_MEMORY_KIB` (19456), `TILEPOST_ARGON2_ITERATIONS` (2),
    /// `TILEPOST_ARGON2_PARALLELISM` (1): argon2id cost; the defaults meet OWASP.
    pub argon2_memory_kib: u32,
    pub argon2_iterations: u32,
    pub argon2_parallelism: u32,
    /// `TILEPOST_DB_POOL_SIZE`, default 10.
    pub db_pool_size: u32,
    /// `TILEPOST_DB_TIMEOUT_MS`: how long a request waits for a database connection
    /// before it gets `503`; default 2000.
    pub db_timeout_ms: u64,
    /// `TILEPOST_WORKERS`: HTTP worker threads; default: the number of cores.
    pub workers: usize,
    /// `TILEPOST_MAX_BODY_BYTES`: larger request bodies get `413`; default 65536.
    pub max_body_bytes: usize,
    /// `TILEPOST_REMINDER_BEFORE_SECS`: a `game.deadline_near` reminder goes out when
    /// this much time remains before a deadline; default 86400 (24 h).
    pub reminder_before_secs: i64,
    /// `TILEPOST_DEADLINE_SWEEP_MS`: how often the deadline sweep runs (reminders and
    /// timeouts); 0 turns it off; default 60000.
    pub deadline_sweep_ms: u64,
    /// `TILEPOST_VACATION_DAYS`: vacation days per user and calendar year; default 14.
    pub vacation_days_per_year: i64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bind: "127.0.0.1:8080".into(),
            database_url: "sqlite://tilepost.db".into(),
            jwt_secret: None,
            token_ttl_secs: 86_400,
            public_url: String::new(),
            argon2_memory_kib: 19_456,
            argon2_iterations: 2,
            argon2_parallelism: 1,
            db_pool_size: 10,
            db_timeout_ms: 2_000,
            workers: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2),
            max_body_bytes: 64 * 1024,
            reminder_before_secs: 86_400,
            deadline_sweep_ms: 60_000,
            vacation_days_per_year: 14,
        }
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("bind", &self.bind)
            .field("database_url", &crate::store::redact(&self.database_url))
            .field("jwt_secret", &self.jwt_secret.as_ref().map(|_| "***"))
            .field("token_ttl_secs", &self.token_ttl_secs)
            .field("public_url", &self.public_url)
            .field("argon2_memory_kib", &self.argon2_memory_kib)
            .field("argon2_iterations", &self.argon2_iterations)
            .field("argon2_parallelism", &self.argon2_parallelism)
            .field("db_pool_size", &self.db_pool_size)
            .field("db_timeout_ms", &self.db_timeout_ms)
            .field("workers", &self.workers)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("reminder_before_secs", &self.reminder_before_secs)
            .field("deadline_sweep_ms", &self.deadline_sweep_ms)
            .field("vacation_days_per_year", &self.vacation_days_per_year)
            .finish()
    }
}

/// A setting that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{name}: {problem}")]
pub struct ConfigError {
    pub name: &'static str,
    pub problem: String,
}

impl Config {
    /// Reads the environment over the defaults.
    pub fn from_env() -> Result<Config, ConfigError> {
        Config::from_lookup(|k| std::env::var(k).ok())
    }

    /// Reads settings through `get` (the environment, or a map in tests).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let mut c = Config::default();
        let get = |k: &str| get(k).filter(|v| !v.trim().is_empty());
        if let Some(v) = get("TILEPOST_BIND") {
            c.bind = v;
        }
        if let Some(v) = get("DATABASE_URL") {
            c.database_url = v;
        }
        c.jwt_secret = get("TILEPOST_JWT_SECRET");
        fn num<T: std::str::FromStr>(
            name: &'static str,
            v: Option<String>,
            into: &mut T,
        ) -> Result<(), ConfigError> {
            if let Some(v) = v {
                *into = v.trim().parse().map_err(|_| ConfigError {
                    name,
                    problem: format!("not a valid number: {v:?}"),
                })?;
            }
            Ok(())
        }
        num(
            "TILEPOST_TOKEN_TTL_SECS",
            get("TILEPOST_TOKEN_TTL_SECS"),
            &mut c.token_ttl_secs,
        )?;
        num(
            "TILEPOST_ARGON2_MEMORY_KIB",
            get("TILEPOST_ARGON2_MEMORY_KIB"),
            &mut c.argon2_memory_kib,
        )?;
        num(
            "TILEPOST_ARGON2_ITERATIONS",
            get("TILEPOST_ARGON2_ITERATIONS"),
            &mut c.argon2_iterations,
        )?;
        num(
            "TILEPOST_ARGON2_PARALLELISM",
            get("TILEPOST_ARGON2_PARALLELISM"),
            &mut c.argon2_parallelism,
        )?;
        num(
            "TILEPOST_DB_POOL_SIZE",
            get("TILEPOST_DB_POOL_SIZE"),
            &mut c.db_pool_size,
        )?;
        num(
            "TILEPOST_DB_TIMEOUT_MS",
            get("TILEPOST_DB_TIMEOUT_MS"),
            &mut c.db_timeout_ms,
        )?;
        num("TILEPOST_WORKERS", get("TILEPOST_WORKERS"), &mut c.workers)?;
        num(
            "TILEPOST_MAX_BODY_BYTES",
            get("TILEPOST_MAX_BODY_BYTES"),
            &mut c.max_body_bytes,
        )?;
        num(
            "TILEPOST_REMINDER_BEFORE_SECS",
            get("TILEPOST_REMINDER_BEFORE_SECS"),
            &mut c.reminder_before_secs,
        )?;
        num(
            "TILEPOST_DEADLINE_SWEEP_MS",
            get("TILEPOST_DEADLINE_SWEEP_MS"),
            &mut c.deadline_sweep_ms,
        )?;
        num(
            "TILEPOST_VACATION_DAYS",
            get("TILEPOST_VACATION_DAYS"),
            &mut c.vacation_days_per_year,
        )?;
        if c.reminder_before_secs < 0 || !(0..=366).contains(&c.vacation_days_per_year) {
            return Err(ConfigError {
                name: "TILEPOST_REMINDER_BEFORE_SECS/TILEPOST_VACATION_DAYS",
                problem: "out of range".into(),
            });
        }
        c.public_url = get("TILEPOST_PUBLIC_URL").unwrap_or_else(|| format!("http://{}", c.bind));
        if c.token_ttl_secs <= 0 {
            return Err(ConfigError {
                name: "TILEPOST_TOKEN_TTL_SECS",
                problem: "must be positive".into(),
            });
        }
        Ok(c)
    }
}
