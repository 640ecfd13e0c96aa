//! The `tilepost` command: `serve` (the default), `migrate`, `openapi`, `replay FILE`,
//! `mail-relay`, `arena` (computer opponents playing each other), `seed` (a database full
//! of realistic data) and `sweep` (one deadline sweep and outbox claim, timed).

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};
use tilepost::clock::SystemClock;
use tilepost::config::Config;

#[derive(Parser)]
#[command(name = "tilepost", version, about = "Play-by-mail Carcassonne server")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP server (the default).
    Serve,
    /// Run the database migrations and exit.
    Migrate,
    /// Print the OpenAPI document.
    Openapi,
    /// Replay an exported game log (JSON array of stored events) and print the final state.
    Replay {
        /// The log file.
        file: std::path::PathBuf,
    },
    /// Run the email relay: signed email webhooks in, SMTP out (settings: TILEPOST_RELAY_*).
    MailRelay {
        /// Only check the settings, print them (secrets redacted) and exit.
        #[arg(long)]
        check: bool,
    },
    /// Run the deadline sweep once (the reminders and time-outs due now) and one claim of
    /// the notification worker (up to 100 pending messages turned into deliveries), and
    /// print what each did and how long it took.
    Sweep,
    /// Fill the database in DATABASE_URL with realistic data (users, games in every
    /// state with full logs, outbox history, chat), for measuring how costs grow
    /// (`scripts/scale.py`). Every seeded user's password is "seeded password".
    Seed {
        /// Games to seed.
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Users besides `busy` (default: a fifth of the games, at least 10).
        #[arg(long)]
        users: Option<usize>,
        /// Running games the user `busy` sits in.
        #[arg(long, default_value_t = 200)]
        busy_games: usize,
        /// Games per transaction.
        #[arg(long, default_value_t = 200)]
        batch: usize,
        /// The seed of the random choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Computer opponents play each other and report win rates and time per decision.
    #[command(
        disable_help_flag = true,
        override_usage = tilepost_bots::arena::USAGE,
        after_help = tilepost_bots::arena::FLAGS
    )]
    Arena {
        /// The flags below.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

fn init_logs() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt().with_env_filter(filter).init();
}

fn config() -> Result<Config, ExitCode> {
    Config::from_env().map_err(|e| {
        eprintln!("configuration error: {e}");
        ExitCode::from(2)
    })
}

/// Writes `text` to standard output. A reader that went away (`tilepost openapi | head`)
/// ends the command quietly, as a closed pipe ends any Unix filter.
fn emit(text: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cannot write the output: {e}");
            ExitCode::from(1)
        }
    }
}

fn sweep_command(c: &Config) -> ExitCode {
    // one connection, used in turn: a pool that opens no other in the background while
    // the process exits (a connection being opened then can crash the exit)
    let mut c = c.clone();
    c.db_pool_size = 1;
    let st = match tilepost::startup::prepare(&c, Arc::new(SystemClock)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    let now = tilepost::clock::Clock::now_ms(&SystemClock);
    let relay = c.email_webhook_url.is_some();
    let result = actix_web::rt::System::new().block_on(async {
        let t = std::time::Instant::now();
        let swept =
            tilepost::sweep::sweep(&st.store, &st.config, &st.notifier, &st.replays, now).await?;
        let sweep_ms = t.elapsed().as_secs_f64() * 1000.0;
        let t = std::time::Instant::now();
        let claimed = st.store.fan_out(100, now, relay).await?;
        let claim_ms = t.elapsed().as_secs_f64() * 1000.0;
        Ok::<_, tilepost::store::StoreError>((swept, sweep_ms, claimed, claim_ms))
    });
    match result {
        Ok((s, sweep_ms, claimed, claim_ms)) => emit(&format!(
            "sweep: {} reminders, {} time-outs in {sweep_ms:.1} ms\noutbox claim: {claimed} messages in {claim_ms:.1} ms\n",
            s.reminders, s.timeouts
        )),
        Err(e) => {
            eprintln!("sweep failed: {e}");
            ExitCode::from(1)
        }
    }
}

/// The store of a command that is not the server: a pool of `size`, a patient timeout.
fn connect(c: &Config, size: u32) -> Result<tilepost::store::Store, ExitCode> {
    tilepost::store::Store::connect(
        &c.database_url,
        size,
        std::time::Duration::from_millis(c.db_timeout_ms.max(5000)),
    )
    .map_err(|e| {
        eprintln!("database: {e}");
        ExitCode::from(1)
    })
}

fn seed_command(c: &Config, o: tilepost::seed::Options) -> ExitCode {
    let store = match connect(c, 2) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Err(e) = store.migrate() {
        eprintln!("migration failed: {e}");
        return ExitCode::from(1);
    }
    // one hash for every user, made as the server makes them
    let hash = match tilepost::api::auth::Auth::new(
        b"seed",
        c.token_ttl_secs,
        c.argon2_memory_kib,
        c.argon2_iterations,
        c.argon2_parallelism,
        1,
    )
    .map(Arc::new)
    .and_then(|a| {
        actix_web::rt::System::new().block_on(a.hash_password(tilepost::seed::PASSWORD.to_string()))
    }) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("password hash: {e}");
            return ExitCode::from(1);
        }
    };
    let every = (o.games / 10).max(1);
    let step = std::cell::Cell::new(0usize);
    let result = tilepost::seed::run(&store, &o, &hash, |r| {
        if r.games / every > step.get() || r.games == o.games {
            step.set(r.games / every);
            eprintln!(
                "{} games, {} events in {:.1} s",
                r.games, r.events, r.seconds
            );
        }
    });
    match result {
        Ok(r) => emit(&format!(
            "seeded {} users and {} games ({} finished, {} running, {} open): {} events, {} outbox messages, {} chat messages in {:.1} s\n",
            r.users, r.games, r.finished, r.active, r.open, r.events, r.outbox, r.chat, r.seconds
        )),
        Err(e) => {
            eprintln!("seeding failed: {e}");
            ExitCode::from(1)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Openapi => emit(&tilepost::api::openapi_json()),
        Command::Arena { args } if args.iter().any(|a| a == "-h" || a == "--help") => {
            emit(&tilepost_bots::arena::help())
        }
        Command::Arena { args } => match tilepost_bots::arena::main_with(&args) {
            Ok(report) => emit(&report),
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(2)
            }
        },
        Command::Replay { file } => {
            let text = match std::fs::read_to_string(&file) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("cannot read {}: {e}", file.display());
                    return ExitCode::from(1);
                }
            };
            match tilepost::replay::replay_text(&text) {
                Ok(v) => emit(&format!(
                    "{}\n",
                    serde_json::to_string_pretty(&v).unwrap_or_default()
                )),
                Err(e) => {
                    eprintln!("cannot replay {}: {e}", file.display());
                    ExitCode::from(1)
                }
            }
        }
        Command::MailRelay { check } => {
            init_logs();
            let c = match tilepost::relay::RelayConfig::from_env() {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("configuration error: {e}");
                    return ExitCode::from(2);
                }
            };
            if check {
                println!("{c:?}");
                return ExitCode::SUCCESS;
            }
            match tilepost::relay::run(c, Arc::new(SystemClock)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("mail relay: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Command::Seed {
            games,
            users,
            busy_games,
            batch,
            seed,
        } => {
            init_logs();
            let c = match config() {
                Ok(c) => c,
                Err(code) => return code,
            };
            seed_command(
                &c,
                tilepost::seed::Options {
                    games,
                    users: users.unwrap_or((games / 5).max(10)),
                    busy_games,
                    batch,
                    seed,
                    now: tilepost::clock::Clock::now_ms(&SystemClock),
                    threads: std::thread::available_parallelism()
                        .map(|n| n.get())
                        .unwrap_or(2),
                },
            )
        }
        Command::Sweep => {
            init_logs();
            let c = match config() {
                Ok(c) => c,
                Err(code) => return code,
            };
            sweep_command(&c)
        }
        Command::Migrate => {
            init_logs();
            let c = match config() {
                Ok(c) => c,
                Err(code) => return code,
            };
            let store = match connect(&c, 1) {
                Ok(s) => s,
                Err(code) => return code,
            };
            match store.migrate() {
                Ok(n) => emit(&format!("{n} migration(s) applied\n")),
                Err(e) => {
                    eprintln!("migration failed: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Command::Serve => {
            init_logs();
            let c = match config() {
                Ok(c) => c,
                Err(code) => return code,
            };
            tracing::info!(config = ?c, "starting");
            let state = match tilepost::startup::prepare(&c, Arc::new(SystemClock)) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("cannot start: {e}");
                    return ExitCode::from(1);
                }
            };
            let listener = match std::net::TcpListener::bind(&c.bind) {
                Ok(l) => l,
                Err(e) => {
                    eprintln!("cannot listen on {}: {e}", c.bind);
                    return ExitCode::from(1);
                }
            };
            tracing::info!(
                bind = %c.bind,
                database = state.store.backend(),
                client = %format!("http://{}/play", c.bind),
                docs = %format!("http://{}/docs/", c.bind),
                "listening: the web client is at /play, the API documentation at /docs/"
            );
            let result = actix_web::rt::System::new().block_on(async move {
                tilepost::startup::start_worker(&state);
                tilepost::startup::server(state, listener, c.workers)?.await
            });
            match result {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("server error: {e}");
                    ExitCode::from(1)
                }
            }
        }
    }
}
