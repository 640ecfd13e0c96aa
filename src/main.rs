//! The `tilepost` command: `serve` (the default), `migrate`, `openapi`, `replay FILE`,
//! `mail-relay`, `arena` (computer opponents playing each other).

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
    /// Computer opponents play each other and report win rates and time per decision
    /// (arguments: see `tilepost_bots::arena::USAGE`).
    Arena {
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Openapi => emit(&tilepost::api::openapi_json()),
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
        Command::Migrate => {
            init_logs();
            let c = match config() {
                Ok(c) => c,
                Err(code) => return code,
            };
            let store = match tilepost::store::Store::connect(
                &c.database_url,
                1,
                std::time::Duration::from_millis(c.db_timeout_ms.max(5000)),
            ) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("database: {e}");
                    return ExitCode::from(1);
                }
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
            tracing::info!(bind = %c.bind, database = state.store.backend(), "listening");
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
