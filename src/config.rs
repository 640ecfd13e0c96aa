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
    /// `TILEPOST_PASSWORD_WORKERS`: password hashes computed at once (each holds the
    /// argon2 memory and a core); default: the number of cores.
    pub password_workers: usize,
    /// `TILEPOST_DB_POOL_SIZE`, default 10.
    pub db_pool_size: u32,
    /// `TILEPOST_DB_TIMEOUT_MS`: how long a request waits for a database connection
    /// before it gets `503`; default 2000.
    pub db_timeout_ms: u64,
    /// `TILEPOST_REPLAY_CACHE`: how many replayed games each process keeps in memory
    /// (keyed by game and version; it saves work, never changes an answer); 0 turns it
    /// off; default 256.
    pub replay_cache: usize,
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
    /// `TILEPOST_BOT_POLL_MS`: how often each process looks for computer opponents'
    /// turns; 0 turns the bots off; default 500.
    pub bot_poll_ms: u64,
    /// `TILEPOST_BOT_THREADS`: how many bots may think at once in a process; default 1.
    pub bot_threads: usize,
    /// `TILEPOST_BOT_PLAYOUTS`: sampled futures per decision of an `mcts` bot; default 50.
    pub bot_playouts: u32,
    /// `TILEPOST_EXPERT_PLAYOUTS`: playouts per decision of an `expert` bot; default 300.
    pub expert_playouts: u32,
    /// `TILEPOST_BOT_MS`: the time limit of one decision of an `mcts` or `expert` bot, kept
    /// strictly (the playouts usually end the search long before); default 3000.
    pub bot_ms: u64,
    /// `TILEPOST_REVIEW_PLAYOUTS`: sampled futures per decision judged by a finished
    /// game's review (the strongest bot's search); default 400.
    pub review_playouts: u32,
    /// `TILEPOST_ANALYSIS_THREADS`: the threads of a process for the analyses of
    /// positions (`GET /v1/games/{id}/analysis`): at most as many analyses run at once
    /// (the others wait), each sharing its futures among the threads; default 2.
    pub analysis_threads: usize,
    /// `TILEPOST_STREAM_POLL_MS`: how often each process reads new events of the live
    /// stream from the database (a write in the same process wakes it at once); 10 to
    /// 5000; default 250.
    pub stream_poll_ms: u64,
    /// `TILEPOST_STREAM_GAP_MS`: how long the stream waits for an event numbered before
    /// one it has read (a transaction still committing) before it moves past it; 100 to
    /// 60000; default 2000.
    pub stream_gap_ms: u64,
    /// `TILEPOST_STREAM_HEARTBEAT_MS`: how often an idle stream sends a comment line, so
    /// that proxies keep it open and clients notice a dead connection; 100 to 120000;
    /// default 15000.
    pub stream_heartbeat_ms: u64,
    /// `TILEPOST_STREAM_MAX_SECS`: how long one stream lasts before the server ends it
    /// (the client reconnects with `Last-Event-ID`, and its token is checked again);
    /// 1 to 86400; default 3600.
    pub stream_max_secs: u64,
    /// `TILEPOST_STREAMS_PER_USER`: open streams one user may hold in a process; default 5.
    pub streams_per_user: usize,
    /// `TILEPOST_STREAMS`: open streams a process holds at most; default 10000.
    pub streams_total: usize,
    /// `TILEPOST_STREAM_RETENTION_HOURS`: how long events stay resumable; default 168.
    pub stream_retention_hours: i64,
    /// `TILEPOST_VACATION_DAYS`: vacation days per user and calendar year; default 14.
    pub vacation_days_per_year: i64,
    /// `TILEPOST_EMAIL_WEBHOOK_URL`: the email relay (trusted); unset: no email.
    pub email_webhook_url: Option<String>,
    /// `TILEPOST_EMAIL_WEBHOOK_SECRET`: the relay's `whsec_` secret. Never printed.
    pub email_webhook_secret: Option<String>,
    /// `TILEPOST_WEBHOOK_ALLOW_PRIVATE`: let user webhook URLs reach loopback, link-local
    /// and private addresses (self-hosting, tests); default false.
    pub webhook_allow_private: bool,
    /// `TILEPOST_WEBHOOK_TIMEOUT_MS`: time limit of one delivery attempt; default 10000.
    pub webhook_timeout_ms: u64,
    /// `TILEPOST_VAPID_PRIVATE_KEY`: the web push (VAPID) private key, base64url of the
    /// 32-byte P-256 scalar; when unset, one is generated once and kept in the database.
    /// Never printed.
    pub vapid_private_key: Option<String>,
    /// `TILEPOST_VAPID_SUBJECT`: the contact VAPID tokens name (`mailto:` or `https:`);
    /// default: `TILEPOST_PUBLIC_URL`.
    pub vapid_subject: Option<String>,
    /// `TILEPOST_PUSH_ALLOW_LOOPBACK`: accept plain-http push endpoints on loopback
    /// addresses (a push service in a test); default false.
    pub push_allow_loopback: bool,
    /// `TILEPOST_PUSH_SUBSCRIPTIONS_PER_DAY`: push subscriptions one user may create a
    /// day; default 20.
    pub push_subscriptions_per_day: i64,
    /// `TILEPOST_NOTIFY_WORKER`: run the delivery worker in this process; default true.
    pub notify_worker: bool,
    /// `TILEPOST_NOTIFY_POLL_MS`: how often the worker looks for due deliveries when it
    /// is not woken by a write; default 1000.
    pub notify_poll_ms: u64,
    /// `TILEPOST_NOTIFY_BACKOFF_BASE_MS`: first retry delay, doubled (with jitter) after
    /// each failure up to six hours; default 30000.
    pub notify_backoff_base_ms: i64,
    /// `TILEPOST_NOTIFY_MAX_AGE_MS`: a delivery is given up after this long; default
    /// three days.
    pub notify_max_age_ms: i64,
    /// `TILEPOST_OUTBOX_RETENTION_DAYS`: sent messages, their deliveries and attempts are
    /// deleted after this many days (the sweep does it in batches); at least the
    /// delivery age above; default 30.
    pub outbox_retention_days: i64,
    /// `TILEPOST_CORS_ORIGINS`: comma-separated origins (`https://example.com`) whose
    /// pages may call the API from a browser; default none.
    pub cors_origins: Vec<String>,
    /// `TILEPOST_HEADER_TIMEOUT_MS`: time a client has to send a request's head; default
    /// 5000.
    pub header_timeout_ms: u64,
    /// `TILEPOST_BODY_TIMEOUT_MS`: time a client has to send a JSON request body (`408`
    /// after it); default 10000.
    pub body_timeout_ms: u64,
    /// `TILEPOST_LOGIN_FAILURES_PER_ACCOUNT`: failed logins of one username within the
    /// login window before its logins get `429`; default 10.
    pub login_failures_per_account: i64,
    /// `TILEPOST_LOGIN_FAILURES_PER_ADDRESS`: failed logins from one client address
    /// within the login window before its logins get `429`; default 50.
    pub login_failures_per_address: i64,
    /// `TILEPOST_LOGIN_WINDOW_SECS`: the window of the login limits; default 900.
    pub login_window_secs: i64,
    /// `TILEPOST_SIGNUPS_PER_ADDRESS`: accounts one client address may create within the
    /// sign-up window; default 10.
    pub signups_per_address: i64,
    /// `TILEPOST_SIGNUP_WINDOW_SECS`: the window of the sign-up limit; default 3600.
    pub signup_window_secs: i64,
    /// `TILEPOST_TRUSTED_PROXIES`: comma-separated IP addresses of reverse proxies whose
    /// `X-Forwarded-For` names the client; default none (the socket's peer is the client).
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// `TILEPOST_GAMES_PER_HOUR`: games one user may create per hour; default 30.
    pub games_per_hour: i64,
    /// `TILEPOST_OPEN_SEEKS`: open seeks one user may have in the lobby; default 5.
    pub open_seeks: i64,
    /// `TILEPOST_TOURNAMENTS_PER_DAY`: tournaments one user may create per day;
    /// default 5.
    pub tournaments_per_day: i64,
    /// `TILEPOST_TOURNAMENT_ENTRIES_PER_HOUR`: tournament registrations and
    /// withdrawals one user may make per hour (an organiser's computer opponents
    /// included); default 60.
    pub tournament_entries_per_hour: i64,
    /// `TILEPOST_SEEK_HOURS`: an open seek nobody fills closes after this many hours;
    /// default 168 (a week).
    pub seek_hours: i64,
    /// `TILEPOST_RATED_GAMES_PER_PAIR_PER_DAY`: rated games one pair of players may play
    /// together within a day that change ratings (the pair limit, docs/players.md);
    /// default 3.
    pub rated_games_per_pair_per_day: i64,
    /// `TILEPOST_CHAT_PER_MINUTE`: chat messages one user may write per minute (over
    /// all games); default 20.
    pub chat_per_minute: i64,
    /// `TILEPOST_INVITATIONS_PER_GAME`: invitations (emails) sent for one game per day;
    /// default 10.
    pub invitations_per_game: i64,
    /// `TILEPOST_INVITATIONS_PER_DAY`: invitations one user may send per day; default 50.
    pub invitations_per_day: i64,
    /// `TILEPOST_TOKEN_CACHE_MS`: how long a process keeps what the database said about a
    /// token (so another process's revocation takes effect within it); 0 to 10000, 0
    /// turns it off; default 2000.
    pub token_cache_ms: u64,
    /// `TILEPOST_PERSONAL_TOKENS_PER_DAY`: personal access tokens one user may create
    /// per day; default 20.
    pub personal_tokens_per_day: i64,
    /// `TILEPOST_CALENDARS_PER_DAY`: deadline calendar addresses one user may make per
    /// day; default 10.
    pub calendars_per_day: i64,
    /// `TILEPOST_MOVES_PER_MINUTE`: moves one user may post per minute (also the burst),
    /// counted in each process; default 120.
    pub moves_per_minute: i64,
    /// `TILEPOST_WEBHOOKS_PER_DAY`: webhook endpoints one user may create per day;
    /// default 20.
    pub webhooks_per_day: i64,
    /// `TILEPOST_ACCOUNT_EMAILS_PER_ADDRESS`: account emails (password reset links, new
    /// confirmation links, address changes) asked for from one client address per hour;
    /// default 10.
    pub account_emails_per_address: i64,
    /// `TILEPOST_ACCOUNT_EMAILS_PER_TARGET`: account emails per hour for one account (or,
    /// for reset requests, one email address, whether an account has it or not);
    /// default 3.
    pub account_emails_per_target: i64,
    /// `TILEPOST_EXPORTS_PER_HOUR`: downloads of one's own data per user and hour;
    /// default 5.
    pub exports_per_hour: i64,
    /// `TILEPOST_RETIRED_NAME_DAYS`: how many days a deleted account's username (in any
    /// case) stays reserved, so that nobody else takes over the name that links,
    /// profiles and other players knew; 0 (the default): forever.
    pub retired_name_days: i64,
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
            password_workers: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2),
            db_pool_size: 10,
            db_timeout_ms: 2_000,
            replay_cache: 256,
            workers: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2),
            max_body_bytes: 64 * 1024,
            reminder_before_secs: 86_400,
            deadline_sweep_ms: 60_000,
            bot_poll_ms: 500,
            bot_threads: 1,
            bot_playouts: 50,
            expert_playouts: 300,
            bot_ms: 3000,
            review_playouts: 400,
            analysis_threads: 2,
            stream_poll_ms: 250,
            stream_gap_ms: 2_000,
            stream_heartbeat_ms: 15_000,
            stream_max_secs: 3_600,
            streams_per_user: 5,
            streams_total: 10_000,
            stream_retention_hours: 168,
            vacation_days_per_year: 14,
            email_webhook_url: None,
            email_webhook_secret: None,
            webhook_allow_private: false,
            webhook_timeout_ms: 10_000,
            vapid_private_key: None,
            vapid_subject: None,
            push_allow_loopback: false,
            push_subscriptions_per_day: 20,
            notify_worker: true,
            notify_poll_ms: 1_000,
            notify_backoff_base_ms: 30_000,
            notify_max_age_ms: 3 * 24 * 3600 * 1000,
            outbox_retention_days: 30,
            cors_origins: Vec::new(),
            header_timeout_ms: 5_000,
            body_timeout_ms: 10_000,
            login_failures_per_account: 10,
            login_failures_per_address: 50,
            login_window_secs: 900,
            signups_per_address: 10,
            signup_window_secs: 3600,
            trusted_proxies: Vec::new(),
            games_per_hour: 30,
            open_seeks: 5,
            tournaments_per_day: 5,
            tournament_entries_per_hour: 60,
            seek_hours: 168,
            rated_games_per_pair_per_day: crate::store::DEFAULT_RATED_PAIR_LIMIT,
            chat_per_minute: 20,
            invitations_per_game: 10,
            invitations_per_day: 50,
            token_cache_ms: 2_000,
            personal_tokens_per_day: 20,
            calendars_per_day: 10,
            moves_per_minute: 120,
            webhooks_per_day: 20,
            account_emails_per_address: 10,
            account_emails_per_target: 3,
            exports_per_hour: 5,
            retired_name_days: 0,
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
            .field("password_workers", &self.password_workers)
            .field("db_pool_size", &self.db_pool_size)
            .field("db_timeout_ms", &self.db_timeout_ms)
            .field("replay_cache", &self.replay_cache)
            .field("workers", &self.workers)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("reminder_before_secs", &self.reminder_before_secs)
            .field("deadline_sweep_ms", &self.deadline_sweep_ms)
            .field("bot_poll_ms", &self.bot_poll_ms)
            .field("bot_threads", &self.bot_threads)
            .field("bot_playouts", &self.bot_playouts)
            .field("expert_playouts", &self.expert_playouts)
            .field("bot_ms", &self.bot_ms)
            .field("review_playouts", &self.review_playouts)
            .field("analysis_threads", &self.analysis_threads)
            .field("stream_poll_ms", &self.stream_poll_ms)
            .field("stream_gap_ms", &self.stream_gap_ms)
            .field("stream_heartbeat_ms", &self.stream_heartbeat_ms)
            .field("stream_max_secs", &self.stream_max_secs)
            .field("streams_per_user", &self.streams_per_user)
            .field("streams_total", &self.streams_total)
            .field("stream_retention_hours", &self.stream_retention_hours)
            .field("vacation_days_per_year", &self.vacation_days_per_year)
            .field("email_webhook_url", &self.email_webhook_url)
            .field(
                "email_webhook_secret",
                &self.email_webhook_secret.as_ref().map(|_| "***"),
            )
            .field("webhook_allow_private", &self.webhook_allow_private)
            .field("webhook_timeout_ms", &self.webhook_timeout_ms)
            .field(
                "vapid_private_key",
                &self.vapid_private_key.as_ref().map(|_| "***"),
            )
            .field("vapid_subject", &self.vapid_subject)
            .field("push_allow_loopback", &self.push_allow_loopback)
            .field(
                "push_subscriptions_per_day",
                &self.push_subscriptions_per_day,
            )
            .field("notify_worker", &self.notify_worker)
            .field("notify_poll_ms", &self.notify_poll_ms)
            .field("notify_backoff_base_ms", &self.notify_backoff_base_ms)
            .field("notify_max_age_ms", &self.notify_max_age_ms)
            .field("outbox_retention_days", &self.outbox_retention_days)
            .field("cors_origins", &self.cors_origins)
            .field("header_timeout_ms", &self.header_timeout_ms)
            .field("body_timeout_ms", &self.body_timeout_ms)
            .field(
                "login_failures_per_account",
                &self.login_failures_per_account,
            )
            .field(
                "login_failures_per_address",
                &self.login_failures_per_address,
            )
            .field("login_window_secs", &self.login_window_secs)
            .field("signups_per_address", &self.signups_per_address)
            .field("signup_window_secs", &self.signup_window_secs)
            .field("trusted_proxies", &self.trusted_proxies)
            .field("games_per_hour", &self.games_per_hour)
            .field("open_seeks", &self.open_seeks)
            .field("tournaments_per_day", &self.tournaments_per_day)
            .field(
                "tournament_entries_per_hour",
                &self.tournament_entries_per_hour,
            )
            .field("seek_hours", &self.seek_hours)
            .field(
                "rated_games_per_pair_per_day",
                &self.rated_games_per_pair_per_day,
            )
            .field("chat_per_minute", &self.chat_per_minute)
            .field("invitations_per_game", &self.invitations_per_game)
            .field("invitations_per_day", &self.invitations_per_day)
            .field("token_cache_ms", &self.token_cache_ms)
            .field("personal_tokens_per_day", &self.personal_tokens_per_day)
            .field("calendars_per_day", &self.calendars_per_day)
            .field("moves_per_minute", &self.moves_per_minute)
            .field("webhooks_per_day", &self.webhooks_per_day)
            .field(
                "account_emails_per_address",
                &self.account_emails_per_address,
            )
            .field("account_emails_per_target", &self.account_emails_per_target)
            .field("exports_per_hour", &self.exports_per_hour)
            .field("retired_name_days", &self.retired_name_days)
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
        num(
            "TILEPOST_TOKEN_CACHE_MS",
            get("TILEPOST_TOKEN_CACHE_MS"),
            &mut c.token_cache_ms,
        )?;
        if c.token_cache_ms > 10_000 {
            return Err(ConfigError {
                name: "TILEPOST_TOKEN_CACHE_MS",
                problem: "at most 10000 (a revocation must take effect within seconds)".into(),
            });
        }
        num(
            "TILEPOST_REPLAY_CACHE",
            get("TILEPOST_REPLAY_CACHE"),
            &mut c.replay_cache,
        )?;
        num("TILEPOST_WORKERS", get("TILEPOST_WORKERS"), &mut c.workers)?;
        num(
            "TILEPOST_PASSWORD_WORKERS",
            get("TILEPOST_PASSWORD_WORKERS"),
            &mut c.password_workers,
        )?;
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
            "TILEPOST_BOT_POLL_MS",
            get("TILEPOST_BOT_POLL_MS"),
            &mut c.bot_poll_ms,
        )?;
        num(
            "TILEPOST_BOT_THREADS",
            get("TILEPOST_BOT_THREADS"),
            &mut c.bot_threads,
        )?;
        num(
            "TILEPOST_BOT_PLAYOUTS",
            get("TILEPOST_BOT_PLAYOUTS"),
            &mut c.bot_playouts,
        )?;
        num(
            "TILEPOST_EXPERT_PLAYOUTS",
            get("TILEPOST_EXPERT_PLAYOUTS"),
            &mut c.expert_playouts,
        )?;
        num("TILEPOST_BOT_MS", get("TILEPOST_BOT_MS"), &mut c.bot_ms)?;
        num(
            "TILEPOST_ANALYSIS_THREADS",
            get("TILEPOST_ANALYSIS_THREADS"),
            &mut c.analysis_threads,
        )?;
        num(
            "TILEPOST_REVIEW_PLAYOUTS",
            get("TILEPOST_REVIEW_PLAYOUTS"),
            &mut c.review_playouts,
        )?;
        for (name, into, range) in [
            ("TILEPOST_STREAM_POLL_MS", &mut c.stream_poll_ms, 10..=5_000),
            ("TILEPOST_STREAM_GAP_MS", &mut c.stream_gap_ms, 100..=60_000),
            (
                "TILEPOST_STREAM_HEARTBEAT_MS",
                &mut c.stream_heartbeat_ms,
                100..=120_000,
            ),
            (
                "TILEPOST_STREAM_MAX_SECS",
                &mut c.stream_max_secs,
                1..=86_400,
            ),
        ] {
            num(name, get(name), into)?;
            if !range.contains(into) {
                return Err(ConfigError {
                    name,
                    problem: format!("out of range ({}..={})", range.start(), range.end()),
                });
            }
        }
        num(
            "TILEPOST_STREAMS_PER_USER",
            get("TILEPOST_STREAMS_PER_USER"),
            &mut c.streams_per_user,
        )?;
        num(
            "TILEPOST_STREAMS",
            get("TILEPOST_STREAMS"),
            &mut c.streams_total,
        )?;
        num(
            "TILEPOST_STREAM_RETENTION_HOURS",
            get("TILEPOST_STREAM_RETENTION_HOURS"),
            &mut c.stream_retention_hours,
        )?;
        if c.stream_retention_hours < 1 {
            return Err(ConfigError {
                name: "TILEPOST_STREAM_RETENTION_HOURS",
                problem: "at least 1".into(),
            });
        }
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
        c.vapid_private_key = get("TILEPOST_VAPID_PRIVATE_KEY");
        c.vapid_subject = get("TILEPOST_VAPID_SUBJECT");
        if let Some(k) = &c.vapid_private_key {
            if let Err(problem) = crate::notify::push::Vapid::from_private_key(k, "") {
                return Err(ConfigError {
                    name: "TILEPOST_VAPID_PRIVATE_KEY",
                    problem,
                });
            }
        }
        c.email_webhook_url = get("TILEPOST_EMAIL_WEBHOOK_URL");
        c.email_webhook_secret = get("TILEPOST_EMAIL_WEBHOOK_SECRET");
        fn flag(name: &'static str, v: Option<String>, into: &mut bool) -> Result<(), ConfigError> {
            if let Some(v) = v {
                *into = match v.trim().to_ascii_lowercase().as_str() {
                    "1" | "true" | "yes" | "on" => true,
                    "0" | "false" | "no" | "off" => false,
                    _ => {
                        return Err(ConfigError {
                            name,
                            problem: format!("not a boolean: {v:?}"),
                        })
                    }
                };
            }
            Ok(())
        }
        flag(
            "TILEPOST_WEBHOOK_ALLOW_PRIVATE",
            get("TILEPOST_WEBHOOK_ALLOW_PRIVATE"),
            &mut c.webhook_allow_private,
        )?;
        flag(
            "TILEPOST_PUSH_ALLOW_LOOPBACK",
            get("TILEPOST_PUSH_ALLOW_LOOPBACK"),
            &mut c.push_allow_loopback,
        )?;
        flag(
            "TILEPOST_NOTIFY_WORKER",
            get("TILEPOST_NOTIFY_WORKER"),
            &mut c.notify_worker,
        )?;
        num(
            "TILEPOST_WEBHOOK_TIMEOUT_MS",
            get("TILEPOST_WEBHOOK_TIMEOUT_MS"),
            &mut c.webhook_timeout_ms,
        )?;
        num(
            "TILEPOST_NOTIFY_POLL_MS",
            get("TILEPOST_NOTIFY_POLL_MS"),
            &mut c.notify_poll_ms,
        )?;
        num(
            "TILEPOST_NOTIFY_BACKOFF_BASE_MS",
            get("TILEPOST_NOTIFY_BACKOFF_BASE_MS"),
            &mut c.notify_backoff_base_ms,
        )?;
        num(
            "TILEPOST_NOTIFY_MAX_AGE_MS",
            get("TILEPOST_NOTIFY_MAX_AGE_MS"),
            &mut c.notify_max_age_ms,
        )?;
        num(
            "TILEPOST_OUTBOX_RETENTION_DAYS",
            get("TILEPOST_OUTBOX_RETENTION_DAYS"),
            &mut c.outbox_retention_days,
        )?;
        if c.outbox_retention_days.saturating_mul(86_400_000) <= c.notify_max_age_ms {
            return Err(ConfigError {
                name: "TILEPOST_OUTBOX_RETENTION_DAYS",
                problem: "must be longer than TILEPOST_NOTIFY_MAX_AGE_MS (messages still being delivered are kept)".into(),
            });
        }
        num(
            "TILEPOST_HEADER_TIMEOUT_MS",
            get("TILEPOST_HEADER_TIMEOUT_MS"),
            &mut c.header_timeout_ms,
        )?;
        num(
            "TILEPOST_BODY_TIMEOUT_MS",
            get("TILEPOST_BODY_TIMEOUT_MS"),
            &mut c.body_timeout_ms,
        )?;
        if c.header_timeout_ms == 0 || c.body_timeout_ms == 0 {
            return Err(ConfigError {
                name: "TILEPOST_HEADER_TIMEOUT_MS/TILEPOST_BODY_TIMEOUT_MS",
                problem: "must be positive".into(),
            });
        }
        for (name, into) in [
            (
                "TILEPOST_LOGIN_FAILURES_PER_ACCOUNT",
                &mut c.login_failures_per_account,
            ),
            (
                "TILEPOST_LOGIN_FAILURES_PER_ADDRESS",
                &mut c.login_failures_per_address,
            ),
            ("TILEPOST_LOGIN_WINDOW_SECS", &mut c.login_window_secs),
            ("TILEPOST_SIGNUPS_PER_ADDRESS", &mut c.signups_per_address),
            ("TILEPOST_SIGNUP_WINDOW_SECS", &mut c.signup_window_secs),
            ("TILEPOST_GAMES_PER_HOUR", &mut c.games_per_hour),
            ("TILEPOST_OPEN_SEEKS", &mut c.open_seeks),
            ("TILEPOST_TOURNAMENTS_PER_DAY", &mut c.tournaments_per_day),
            (
                "TILEPOST_TOURNAMENT_ENTRIES_PER_HOUR",
                &mut c.tournament_entries_per_hour,
            ),
            ("TILEPOST_SEEK_HOURS", &mut c.seek_hours),
            (
                "TILEPOST_RATED_GAMES_PER_PAIR_PER_DAY",
                &mut c.rated_games_per_pair_per_day,
            ),
            ("TILEPOST_CHAT_PER_MINUTE", &mut c.chat_per_minute),
            ("TILEPOST_INVITATIONS_PER_GAME", &mut c.invitations_per_game),
            ("TILEPOST_INVITATIONS_PER_DAY", &mut c.invitations_per_day),
            (
                "TILEPOST_PERSONAL_TOKENS_PER_DAY",
                &mut c.personal_tokens_per_day,
            ),
            ("TILEPOST_CALENDARS_PER_DAY", &mut c.calendars_per_day),
            ("TILEPOST_MOVES_PER_MINUTE", &mut c.moves_per_minute),
            ("TILEPOST_WEBHOOKS_PER_DAY", &mut c.webhooks_per_day),
            (
                "TILEPOST_PUSH_SUBSCRIPTIONS_PER_DAY",
                &mut c.push_subscriptions_per_day,
            ),
            (
                "TILEPOST_ACCOUNT_EMAILS_PER_ADDRESS",
                &mut c.account_emails_per_address,
            ),
            (
                "TILEPOST_ACCOUNT_EMAILS_PER_TARGET",
                &mut c.account_emails_per_target,
            ),
            ("TILEPOST_EXPORTS_PER_HOUR", &mut c.exports_per_hour),
        ] {
            num(name, get(name), into)?;
            if *into <= 0 {
                return Err(ConfigError {
                    name,
                    problem: "must be positive".into(),
                });
            }
        }
        num(
            "TILEPOST_RETIRED_NAME_DAYS",
            get("TILEPOST_RETIRED_NAME_DAYS"),
            &mut c.retired_name_days,
        )?;
        if c.retired_name_days < 0 {
            return Err(ConfigError {
                name: "TILEPOST_RETIRED_NAME_DAYS",
                problem: "must be 0 (forever) or a number of days".into(),
            });
        }
        if let Some(v) = get("TILEPOST_TRUSTED_PROXIES") {
            for p in v.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                c.trusted_proxies.push(p.parse().map_err(|_| ConfigError {
                    name: "TILEPOST_TRUSTED_PROXIES",
                    problem: format!("not an IP address: {p:?}"),
                })?);
            }
        }
        if let Some(v) = get("TILEPOST_CORS_ORIGINS") {
            for o in v.split(',').map(str::trim).filter(|o| !o.is_empty()) {
                if !valid_origin(o) {
                    return Err(ConfigError {
                        name: "TILEPOST_CORS_ORIGINS",
                        problem: format!("not an origin (scheme://host[:port]): {o:?}"),
                    });
                }
                c.cors_origins.push(o.to_string());
            }
        }
        if let Some(s) = &c.email_webhook_secret {
            if crate::notify::sign::secret_key(s).is_none() {
                return Err(ConfigError {
                    name: "TILEPOST_EMAIL_WEBHOOK_SECRET",
                    problem: "must be whsec_ followed by base64".into(),
                });
            }
        }
        if c.email_webhook_url.is_some() && c.email_webhook_secret.is_none() {
            return Err(ConfigError {
                name: "TILEPOST_EMAIL_WEBHOOK_SECRET",
                problem: "required with TILEPOST_EMAIL_WEBHOOK_URL".into(),
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

/// `http(s)://host[:port]`, nothing after it.
fn valid_origin(o: &str) -> bool {
    let Some((scheme, rest)) = o.split_once("://") else {
        return false;
    };
    matches!(scheme, "http" | "https")
        && !rest.is_empty()
        && rest
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
}

impl Config {
    /// The contact of VAPID tokens: `TILEPOST_VAPID_SUBJECT`, else the public URL.
    pub fn vapid_subject(&self) -> String {
        self.vapid_subject
            .clone()
            .unwrap_or_else(|| self.public_url.clone())
    }

    /// The delivery worker's part of the configuration.
    pub fn worker(&self) -> crate::notify::worker::WorkerConfig {
        crate::notify::worker::WorkerConfig {
            email_webhook_url: self.email_webhook_url.clone(),
            email_webhook_secret: self.email_webhook_secret.clone(),
            webhook_allow_private: self.webhook_allow_private,
            webhook_timeout_ms: self.webhook_timeout_ms,
            push_allow_loopback: self.push_allow_loopback,
            notify_poll_ms: self.notify_poll_ms,
            notify_backoff_base_ms: self.notify_backoff_base_ms,
            notify_max_age_ms: self.notify_max_age_ms,
        }
    }
}
