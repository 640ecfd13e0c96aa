//! Start-up: connect and migrate the store, load or create the token secret, and run the
//! HTTP server (in the foreground, or on a thread for tests and tools).

use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::ServerHandle;
use actix_web::{web, HttpServer};
use base64::Engine as _;
use rand::RngCore;

use crate::api::{self, auth::Auth, AppState};
use crate::clock::Clock;
use crate::config::Config;
use crate::store::Store;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("tile catalog: {0}")]
    Catalog(String),
    #[error("database: {0}")]
    Store(#[from] crate::store::StoreError),
    #[error("{0}")]
    Auth(String),
    #[error("the analyses' threads: {0}")]
    Pool(String),
    #[error("listening: {0}")]
    Io(#[from] std::io::Error),
}

/// Connects the store (running migrations) and builds the shared state.
pub fn prepare(config: &Config, clock: Arc<dyn Clock>) -> Result<web::Data<AppState>, StartError> {
    tilepost_engine::try_catalog().map_err(|e| StartError::Catalog(e.to_string()))?;
    let store = Store::connect(
        &config.database_url,
        config.db_pool_size,
        Duration::from_millis(config.db_timeout_ms),
    )?
    .with_rated_pair_limit(config.rated_games_per_pair_per_day);
    store.migrate()?;
    let store_head = store.stream_head_now()?;
    let secret = match &config.jwt_secret {
        Some(s) => s.clone(),
        None => {
            let mut b = [0u8; 48];
            rand::thread_rng().fill_bytes(&mut b);
            let fresh = base64::engine::general_purpose::STANDARD.encode(b);
            store.setting_or_insert("jwt_secret", &fresh)?
        }
    };
    let auth = Auth::new(
        secret.as_bytes(),
        config.token_ttl_secs,
        config.argon2_memory_kib,
        config.argon2_iterations,
        config.argon2_parallelism,
        config.password_workers,
    )
    .map_err(StartError::Auth)?;
    let vapid_key = match &config.vapid_private_key {
        Some(k) => k.clone(),
        None => store.setting_or_insert(
            "vapid_private_key",
            &crate::notify::push::Vapid::new_private_key(),
        )?,
    };
    let vapid = crate::notify::push::Vapid::from_private_key(&vapid_key, &config.vapid_subject())
        .map_err(|e| StartError::Auth(format!("the stored VAPID key: {e}")))?;
    let unsubscribe_key = {
        use sha2::Digest;
        sha2::Sha256::digest(format!("tilepost-unsubscribe:{secret}").as_bytes()).to_vec()
    };
    let moves = Arc::new(crate::api::limits::MoveLimiter::new(
        config.moves_per_minute,
        clock.clone(),
    ));
    Ok(web::Data::new(AppState {
        store,
        auth: Arc::new(auth),
        clock,
        config: Arc::new(config.clone()),
        notifier: Arc::new(
            crate::notify::Notifier::new(unsubscribe_key, &config.public_url).with_vapid(vapid),
        ),
        replays: Arc::new(crate::cache::ReplayCache::new(config.replay_cache)),
        grants: Arc::new(crate::grants::GrantCache::new(
            Duration::from_millis(config.token_cache_ms),
            100_000,
        )),
        moves,
        analyses: Arc::new(
            crate::api::analysis::AnalysisPool::new(config.analysis_threads)
                .map_err(StartError::Pool)?,
        ),
        live: Arc::new(crate::live::Live::new(store_head, config)),
    }))
}

/// Starts the notification worker on the current actix runtime (when configured); it
/// stops with the runtime.
pub fn start_worker(state: &web::Data<AppState>) {
    if !state.config.notify_worker {
        return;
    }
    let w = crate::notify::worker::Worker::new(
        state.store.clone(),
        state.clock.clone(),
        state.notifier.clone(),
        state.config.worker(),
    );
    actix_web::rt::spawn(w.run());
}

/// Builds the server on a bound listener, and starts the deadline sweep on the current
/// runtime (call it inside the actix system that runs the server).
pub fn server(
    state: web::Data<AppState>,
    listener: TcpListener,
    workers: usize,
) -> std::io::Result<actix_web::dev::Server> {
    actix_web::rt::spawn(crate::sweep::run_sweeper(
        state.store.clone(),
        state.config.clone(),
        state.clock.clone(),
        state.notifier.clone(),
        state.replays.clone(),
    ));
    actix_web::rt::spawn(crate::live::run_reader(
        state.store.clone(),
        state.live.clone(),
        state.config.clone(),
        state.notifier.clone(),
    ));
    // the bots' pool: the computer opponents' turns and the reviews' searches
    let pool = Arc::new(tokio::sync::Semaphore::new(state.config.bot_threads.max(1)));
    actix_web::rt::spawn(crate::bots::run_bots(
        state.store.clone(),
        state.config.clone(),
        state.clock.clone(),
        state.notifier.clone(),
        state.replays.clone(),
        pool.clone(),
    ));
    actix_web::rt::spawn(crate::review::run_reviews(
        state.store.clone(),
        state.config.clone(),
        state.clock.clone(),
        pool,
    ));
    let header_timeout = Duration::from_millis(state.config.header_timeout_ms);
    Ok(HttpServer::new(move || api::app(state.clone()))
        .workers(workers.max(1))
        .client_request_timeout(header_timeout)
        .shutdown_timeout(5)
        .listen(listener)?
        .run())
}

/// A server running on its own thread.
pub struct Running {
    pub addr: SocketAddr,
    pub state: web::Data<AppState>,
    handle: ServerHandle,
}

impl Running {
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops accepting and ends the workers (without waiting).
    pub fn stop(&self) {
        drop(self.handle.stop(false));
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Starts a server on `config.bind` (use port 0 for a free port) on a background thread.
pub fn spawn(config: Config, clock: Arc<dyn Clock>) -> Result<Running, StartError> {
    let state = prepare(&config, clock)?;
    let listener = TcpListener::bind(&config.bind)?;
    let addr = listener.local_addr()?;
    let (tx, rx) = std::sync::mpsc::channel();
    let st = state.clone();
    let workers = config.workers;
    std::thread::Builder::new()
        .name(format!("tilepost-{}", addr.port()))
        .spawn(move || {
            let sys = actix_web::rt::System::new();
            sys.block_on(async move {
                start_worker(&st);
                match server(st, listener, workers) {
                    Ok(srv) => {
                        let _ = tx.send(Ok(srv.handle()));
                        let _ = srv.await;
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                    }
                }
            })
        })?;
    let handle = rx
        .recv()
        .map_err(|e| StartError::Io(std::io::Error::other(e.to_string())))??;
    Ok(Running {
        addr,
        state,
        handle,
    })
}
