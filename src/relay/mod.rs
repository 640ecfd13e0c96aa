//! `tilepost mail-relay`: the email relay. It receives the server's signed email
//! webhooks (Standard Webhooks, verified with [`crate::notify::sign::verify`]), refuses
//! forged, expired and replayed requests, and sends each message over SMTP with `lettre`
//! (plain, STARTTLS or implicit TLS). It answers `2xx` only once the SMTP server accepted
//! the message, so the server's outbox retries everything else:
//!
//! | answer | when |
//! |---|---|
//! | `200` `{"status":"sent"}` | the SMTP server accepted the message |
//! | `200` `{"status":"already-sent"}` | a new delivery of an id whose email was already accepted (the server retries with the same `webhook-id` when it did not get the first answer): nothing is sent |
//! | `401` | no or a wrong signature, a timestamp outside the tolerance, or the very same signed request seen before (a replay) |
//! | `409` | the same id is being sent right now (the server retries later) |
//! | `410` | the SMTP server refused the message for good (a `5xx` reply) or the recipient is no address: the server stops retrying it |
//! | `422` | the payload lacks a field the relay needs (kept and retried by the server, so a newer relay can send it) |
//! | `503` | a temporary failure: a `4xx` SMTP reply, no connection, a time-out, a state file that cannot be written |
//!
//! What the relay has seen (the signed requests of the tolerance window, the ids it sent)
//! is kept in memory, and in `TILEPOST_RELAY_STATE_DIR` when that is set, so that a
//! restart forgets nothing: see [`seen`].
//!
//! Message bodies, addresses and secrets are never logged.

pub mod mail;
pub mod seen;

use std::fmt;
use std::net::{SocketAddr, TcpListener};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use actix_web::dev::ServerHandle;
use actix_web::http::StatusCode;
use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use serde_json::json;

use crate::clock::Clock;
use crate::config::ConfigError;
use crate::notify::sign;
use mail::{Email, MailError};
use seen::{Admit, Seen};

/// The relay's settings (environment variables in brackets).
#[derive(Clone)]
pub struct RelayConfig {
    /// `TILEPOST_RELAY_BIND`, default `127.0.0.1:8090`.
    pub bind: String,
    /// `TILEPOST_EMAIL_WEBHOOK_SECRET`: the `whsec_` secret shared with the server
    /// (required). Never printed.
    pub secret: String,
    /// `TILEPOST_RELAY_SMTP_URL`, default `smtp://127.0.0.1:25`: `smtp://host[:port]`
    /// plain (port 25), `smtp://host[:port]?tls=required` STARTTLS (port 587),
    /// `smtps://host[:port]` implicit TLS (port 465). No credentials in the URL.
    pub smtp_url: String,
    /// `TILEPOST_RELAY_SMTP_USERNAME` / `TILEPOST_RELAY_SMTP_PASSWORD`: SMTP AUTH, both or
    /// neither; refused over a plain connection to anything but loopback. The password
    /// is never printed.
    pub smtp_username: Option<String>,
    pub smtp_password: Option<String>,
    /// `TILEPOST_RELAY_FROM`, default `tilepost <tilepost@localhost>`: the sender; its
    /// domain ends every `Message-ID`.
    pub from: String,
    /// `TILEPOST_RELAY_TOLERANCE_SECS`, default 300: how far a `webhook-timestamp` may be
    /// from the relay's clock.
    pub tolerance_secs: i64,
    /// `TILEPOST_RELAY_SEEN_IDS`, default 100000: how many sent ids (and signed requests)
    /// the relay remembers.
    pub seen_capacity: usize,
    /// `TILEPOST_RELAY_SMTP_TIMEOUT_MS`, default 8000: time limit of one SMTP exchange
    /// (keep it below the server's `TILEPOST_WEBHOOK_TIMEOUT_MS`).
    pub smtp_timeout_ms: u64,
    /// `TILEPOST_RELAY_MAX_BODY_BYTES`, default 1048576: larger requests get `413`.
    pub max_body_bytes: usize,
    /// `TILEPOST_RELAY_WORKERS`, default 2: HTTP worker threads.
    pub workers: usize,
    /// `TILEPOST_RELAY_STATE_DIR`, unset by default: the directory of the relay's record
    /// of seen requests and sent ids (`seen.log`), which then survives restarts. Unset,
    /// the record is kept in memory only, and a restart forgets it.
    pub state_dir: Option<std::path::PathBuf>,
}

impl Default for RelayConfig {
    fn default() -> Self {
        RelayConfig {
            bind: "127.0.0.1:8090".into(),
            secret: String::new(),
            smtp_url: "smtp://127.0.0.1:25".into(),
            smtp_username: None,
            smtp_password: None,
            from: "tilepost <tilepost@localhost>".into(),
            tolerance_secs: 300,
            seen_capacity: 100_000,
            smtp_timeout_ms: 8_000,
            max_body_bytes: 1 << 20,
            workers: 2,
            state_dir: None,
        }
    }
}

impl fmt::Debug for RelayConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RelayConfig")
            .field("bind", &self.bind)
            .field("secret", &"***")
            .field("smtp_url", &self.smtp_url)
            .field("smtp_username", &self.smtp_username)
            .field("smtp_password", &self.smtp_password.as_ref().map(|_| "***"))
            .field("from", &self.from)
            .field("tolerance_secs", &self.tolerance_secs)
            .field("seen_capacity", &self.seen_capacity)
            .field("smtp_timeout_ms", &self.smtp_timeout_ms)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("workers", &self.workers)
            .field("state_dir", &self.state_dir)
            .finish()
    }
}

fn bad(name: &'static str, problem: impl Into<String>) -> ConfigError {
    ConfigError {
        name,
        problem: problem.into(),
    }
}

impl RelayConfig {
    /// Reads the environment over the defaults and checks the result.
    pub fn from_env() -> Result<RelayConfig, ConfigError> {
        RelayConfig::from_lookup(|k| std::env::var(k).ok())
    }

    /// Reads settings through `get` (the environment, or a map in tests).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<RelayConfig, ConfigError> {
        let get = |k: &str| get(k).filter(|v| !v.trim().is_empty());
        let mut c = RelayConfig::default();
        if let Some(v) = get("TILEPOST_RELAY_BIND") {
            c.bind = v;
        }
        c.secret = get("TILEPOST_EMAIL_WEBHOOK_SECRET").ok_or_else(|| {
            bad(
                "TILEPOST_EMAIL_WEBHOOK_SECRET",
                "required (whsec_ + base64, the same as the server's)",
            )
        })?;
        if let Some(v) = get("TILEPOST_RELAY_SMTP_URL") {
            c.smtp_url = v.trim().to_string();
        }
        c.smtp_username = get("TILEPOST_RELAY_SMTP_USERNAME");
        c.smtp_password = get("TILEPOST_RELAY_SMTP_PASSWORD");
        if let Some(v) = get("TILEPOST_RELAY_FROM") {
            c.from = v;
        }
        c.state_dir = get("TILEPOST_RELAY_STATE_DIR").map(|v| v.trim().into());
        fn num<T: std::str::FromStr>(
            name: &'static str,
            v: Option<String>,
            into: &mut T,
        ) -> Result<(), ConfigError> {
            if let Some(v) = v {
                *into = v
                    .trim()
                    .parse()
                    .map_err(|_| bad(name, format!("not a valid number: {v:?}")))?;
            }
            Ok(())
        }
        for (name, into) in [
            ("TILEPOST_RELAY_SEEN_IDS", &mut c.seen_capacity),
            ("TILEPOST_RELAY_MAX_BODY_BYTES", &mut c.max_body_bytes),
            ("TILEPOST_RELAY_WORKERS", &mut c.workers),
        ] {
            num(name, get(name), into)?;
        }
        num(
            "TILEPOST_RELAY_TOLERANCE_SECS",
            get("TILEPOST_RELAY_TOLERANCE_SECS"),
            &mut c.tolerance_secs,
        )?;
        num(
            "TILEPOST_RELAY_SMTP_TIMEOUT_MS",
            get("TILEPOST_RELAY_SMTP_TIMEOUT_MS"),
            &mut c.smtp_timeout_ms,
        )?;
        c.check()?;
        Ok(c)
    }

    /// Checks the settings that can be wrong: the secret, the sender, the SMTP URL and
    /// where credentials may go.
    pub fn check(&self) -> Result<(), ConfigError> {
        if sign::secret_key(&self.secret).is_none() {
            return Err(bad(
                "TILEPOST_EMAIL_WEBHOOK_SECRET",
                "must be whsec_ followed by base64",
            ));
        }
        self.from.parse::<Mailbox>().map_err(|_| {
            bad(
                "TILEPOST_RELAY_FROM",
                "not a mailbox (name <address> or address)",
            )
        })?;
        if !(1..=86_400).contains(&self.tolerance_secs) {
            return Err(bad("TILEPOST_RELAY_TOLERANCE_SECS", "must be 1 to 86400"));
        }
        if self.seen_capacity == 0 || self.smtp_timeout_ms == 0 || self.workers == 0 {
            return Err(bad(
                "TILEPOST_RELAY_SEEN_IDS/SMTP_TIMEOUT_MS/WORKERS",
                "must be positive",
            ));
        }
        let url = reqwest::Url::parse(&self.smtp_url)
            .map_err(|_| bad("TILEPOST_RELAY_SMTP_URL", "not a URL"))?;
        if !url.username().is_empty() || url.password().is_some() {
            return Err(bad(
                "TILEPOST_RELAY_SMTP_URL",
                "put credentials in TILEPOST_RELAY_SMTP_USERNAME and TILEPOST_RELAY_SMTP_PASSWORD, not in the URL",
            ));
        }
        let tls = url
            .query_pairs()
            .find(|(k, _)| k == "tls")
            .map(|(_, v)| v.to_string());
        match (url.scheme(), tls.as_deref()) {
            ("smtp", None | Some("required") | Some("opportunistic")) | ("smtps", None) => {}
            _ => {
                return Err(bad(
                    "TILEPOST_RELAY_SMTP_URL",
                    "use smtp://host:port (plain), smtp://host:port?tls=required (STARTTLS) or smtps://host:port (implicit TLS)",
                ))
            }
        }
        if url.host_str().unwrap_or_default().is_empty() {
            return Err(bad("TILEPOST_RELAY_SMTP_URL", "no host"));
        }
        match (&self.smtp_username, &self.smtp_password) {
            (Some(_), Some(_)) => {
                let plain = url.scheme() == "smtp" && tls.is_none();
                let loopback = url
                    .host_str()
                    .map(|h| h.trim_start_matches('[').trim_end_matches(']'))
                    .is_some_and(|h| {
                        h == "localhost"
                            || h.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
                    });
                if plain && !loopback {
                    return Err(bad(
                        "TILEPOST_RELAY_SMTP_USERNAME",
                        "credentials would cross the network in clear: use ?tls=required or smtps://",
                    ));
                }
            }
            (None, None) => {}
            _ => {
                return Err(bad(
                    "TILEPOST_RELAY_SMTP_PASSWORD",
                    "set both TILEPOST_RELAY_SMTP_USERNAME and TILEPOST_RELAY_SMTP_PASSWORD, or neither",
                ))
            }
        }
        Ok(())
    }

    fn transport(&self) -> Result<AsyncSmtpTransport<Tokio1Executor>, ConfigError> {
        let mut b = AsyncSmtpTransport::<Tokio1Executor>::from_url(&self.smtp_url)
            .map_err(|e| bad("TILEPOST_RELAY_SMTP_URL", e.to_string()))?
            .timeout(Some(Duration::from_millis(self.smtp_timeout_ms)));
        if let (Some(u), Some(p)) = (&self.smtp_username, &self.smtp_password) {
            b = b.credentials(Credentials::new(u.clone(), p.clone()));
        }
        Ok(b.build())
    }
}

/// Why the relay could not start.
#[derive(Debug, thiserror::Error)]
pub enum RelayError {
    #[error("{0}")]
    Config(#[from] ConfigError),
    #[error("listening: {0}")]
    Io(#[from] std::io::Error),
    #[error("the state file (TILEPOST_RELAY_STATE_DIR): {0}")]
    State(String),
}

/// What every request handler shares.
pub struct Relay {
    key: Vec<u8>,
    from: Mailbox,
    tolerance_secs: i64,
    smtp_timeout: Duration,
    seen: Mutex<Seen>,
    clock: Arc<dyn Clock>,
    transport: AsyncSmtpTransport<Tokio1Executor>,
}

impl Relay {
    pub fn new(c: &RelayConfig, clock: Arc<dyn Clock>) -> Result<Relay, RelayError> {
        c.check()?;
        let seen = match &c.state_dir {
            Some(dir) => {
                let oldest = clock.now_ms().div_euclid(1000) - c.tolerance_secs;
                Seen::open(dir, c.seen_capacity, oldest).map_err(|e| {
                    RelayError::State(format!("{}: {e}", dir.join(seen::FILE_NAME).display()))
                })?
            }
            None => Seen::new(c.seen_capacity),
        };
        Ok(Relay {
            key: sign::secret_key(&c.secret).unwrap_or_default(),
            from: c
                .from
                .parse()
                .map_err(|_| bad("TILEPOST_RELAY_FROM", "not a mailbox"))?,
            tolerance_secs: c.tolerance_secs,
            smtp_timeout: Duration::from_millis(c.smtp_timeout_ms),
            seen: Mutex::new(seen),
            clock,
            transport: c.transport()?,
        })
    }

    fn seen(&self) -> std::sync::MutexGuard<'_, Seen> {
        // a panic while holding the lock cannot leave the record half-changed in a way
        // that matters: keep going with it
        self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Marks an id as no longer in flight, also when the request is dropped half-way.
struct InFlight<'a> {
    relay: &'a Relay,
    id: &'a str,
    sent: bool,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.relay.seen().finish(self.id, self.sent);
    }
}

fn answer(status: StatusCode, body: serde_json::Value) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("application/json")
        .body(body.to_string())
}

fn refuse(status: StatusCode, why: &str) -> HttpResponse {
    answer(status, json!({ "error": why }))
}

/// `POST /`: one webhook.
async fn receive(req: HttpRequest, body: web::Bytes, relay: web::Data<Relay>) -> HttpResponse {
    let header = |n: &str| req.headers().get(n).and_then(|v| v.to_str().ok());
    let (Some(id), Some(ts), Some(sig)) = (
        header("webhook-id"),
        header("webhook-timestamp"),
        header("webhook-signature"),
    ) else {
        return refuse(StatusCode::UNAUTHORIZED, "missing webhook headers");
    };
    let Ok(ts) = ts.trim().parse::<i64>() else {
        return refuse(StatusCode::UNAUTHORIZED, "bad webhook-timestamp");
    };
    let Ok(body) = std::str::from_utf8(&body) else {
        return refuse(StatusCode::UNAUTHORIZED, "bad signature");
    };
    if !sign::verify(&relay.key, id, ts, body, sig) {
        tracing::warn!("mail relay: a request with a bad signature");
        return refuse(StatusCode::UNAUTHORIZED, "bad signature");
    }
    let now = relay.clock.now_ms().div_euclid(1000);
    if (now - ts).abs() > relay.tolerance_secs {
        tracing::warn!(
            id,
            skew_secs = now - ts,
            "mail relay: a request outside the tolerance"
        );
        return refuse(StatusCode::UNAUTHORIZED, "timestamp outside the tolerance");
    }
    if !mail::valid_id(id) {
        return refuse(StatusCode::GONE, "webhook-id unusable in a Message-ID");
    }
    match relay.seen().admit(id, ts, now - relay.tolerance_secs) {
        Admit::Send => {}
        Admit::Replayed => {
            tracing::warn!(id, "mail relay: a replayed request");
            return refuse(StatusCode::UNAUTHORIZED, "replayed request");
        }
        Admit::AlreadySent => {
            tracing::info!(id, "mail relay: already sent, nothing to do");
            return answer(
                StatusCode::OK,
                json!({"status": "already-sent", "message_id": mail::message_id(id, &relay.from)}),
            );
        }
        Admit::InFlight => return refuse(StatusCode::CONFLICT, "this message is being sent"),
        Admit::Unrecorded => {
            return refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                "the relay cannot record the request",
            )
        }
    }
    let mut guard = InFlight {
        relay: &relay,
        id,
        sent: false,
    };
    let message = match Email::from_payload(body).and_then(|e| e.message(&relay.from, id)) {
        Ok(m) => m,
        Err(e) => {
            tracing::warn!(id, error = %e, "mail relay: cannot make an email");
            let status = match e {
                MailError::Unreadable(_) => StatusCode::UNPROCESSABLE_ENTITY,
                MailError::Invalid(_) => StatusCode::GONE,
            };
            return refuse(status, &e.to_string());
        }
    };
    let sent = tokio::time::timeout(relay.smtp_timeout, relay.transport.send(message)).await;
    match sent {
        Ok(Ok(r)) => {
            guard.sent = true;
            tracing::info!(id, smtp = %r.code(), "mail relay: sent");
            answer(
                StatusCode::OK,
                json!({"status": "sent", "message_id": mail::message_id(id, &relay.from)}),
            )
        }
        Ok(Err(e)) if e.is_permanent() => {
            let code = e.status().map(|c| c.to_string()).unwrap_or_default();
            tracing::warn!(id, smtp = %code, "mail relay: refused for good by the SMTP server");
            refuse(
                StatusCode::GONE,
                &format!("the SMTP server refused the message ({code})"),
            )
        }
        Ok(Err(e)) => {
            let code = e.status().map(|c| c.to_string());
            let kind = if e.is_transient() {
                "a temporary SMTP failure"
            } else if e.is_timeout() {
                "SMTP time-out"
            } else {
                "no SMTP connection"
            };
            tracing::warn!(id, smtp = ?code, kind, "mail relay: not sent, to be retried");
            refuse(StatusCode::SERVICE_UNAVAILABLE, kind)
        }
        Err(_) => {
            tracing::warn!(id, "mail relay: SMTP time-out, to be retried");
            refuse(StatusCode::SERVICE_UNAVAILABLE, "SMTP time-out")
        }
    }
}

async fn healthz() -> HttpResponse {
    answer(StatusCode::OK, json!({"status": "ok"}))
}

/// The relay's HTTP server on a bound listener (call it inside an actix system).
pub fn server(
    relay: Arc<Relay>,
    listener: TcpListener,
    config: &RelayConfig,
) -> std::io::Result<actix_web::dev::Server> {
    let data = web::Data::from(relay);
    let limit = config.max_body_bytes;
    Ok(HttpServer::new(move || {
        App::new()
            .app_data(data.clone())
            .app_data(web::PayloadConfig::new(limit))
            .route("/", web::post().to(receive))
            .route("/healthz", web::get().to(healthz))
    })
    .workers(config.workers.max(1))
    .shutdown_timeout(10)
    .listen(listener)?
    .run())
}

/// A relay running on its own thread (tests, tools).
pub struct Running {
    pub addr: SocketAddr,
    handle: ServerHandle,
    thread: Option<std::thread::JoinHandle<()>>,
    /// The relay (its state file's lock): released once the server's workers let go.
    relay: Option<std::sync::Weak<Relay>>,
}

impl Running {
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Stops it gracefully: requests being handled finish first. When it returns, the
    /// relay is gone (its state directory's lock released), so another may start on it.
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        let h = self.handle.clone();
        if let Some(t) = self.thread.take() {
            let _ = std::thread::spawn(move || {
                actix_web::rt::System::new().block_on(h.stop(true));
            })
            .join();
            let _ = t.join();
        }
        // the workers' threads drop their handles on the relay as they wind down
        if let Some(w) = self.relay.take() {
            for _ in 0..1000 {
                if w.strong_count() == 0 {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.halt();
    }
}

/// Starts a relay on `config.bind` (port 0 for a free port) on a background thread.
pub fn spawn(config: RelayConfig, clock: Arc<dyn Clock>) -> Result<Running, RelayError> {
    let relay = Arc::new(Relay::new(&config, clock)?);
    let weak = Arc::downgrade(&relay);
    let listener = TcpListener::bind(&config.bind)?;
    let addr = listener.local_addr()?;
    let (tx, rx) = std::sync::mpsc::channel();
    let thread = std::thread::Builder::new()
        .name(format!("mail-relay-{}", addr.port()))
        .spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                match server(relay, listener, &config) {
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
        .map_err(|e| RelayError::Io(std::io::Error::other(e.to_string())))??;
    Ok(Running {
        addr,
        handle,
        thread: Some(thread),
        relay: Some(weak),
    })
}

/// `tilepost mail-relay`: runs in the foreground until stopped.
pub fn run(config: RelayConfig, clock: Arc<dyn Clock>) -> Result<(), RelayError> {
    let relay = Arc::new(Relay::new(&config, clock)?);
    let listener = TcpListener::bind(&config.bind)?;
    tracing::info!(config = ?config, "mail relay listening");
    if config.state_dir.is_none() {
        tracing::warn!(
            "TILEPOST_RELAY_STATE_DIR is unset: a restart forgets the requests seen, and a \
             replay right after one would be sent"
        );
    }
    actix_web::rt::System::new()
        .block_on(async move { server(relay, listener, &config)?.await })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn cfg(pairs: &[(&str, &str)]) -> Result<RelayConfig, ConfigError> {
        let m: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        RelayConfig::from_lookup(|k| m.get(k).cloned())
    }

    const S: (&str, &str) = (
        "TILEPOST_EMAIL_WEBHOOK_SECRET",
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    );

    #[test]
    fn settings_and_their_errors() {
        let c = cfg(&[S]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.smtp_url, "smtp://127.0.0.1:25");
        assert_eq!(c.tolerance_secs, 300);
        assert!(!format!("{c:?}").contains("MfKQ9r8"));
        let err = |p: &[(&str, &str)]| cfg(p).err().map(|e| e.name).unwrap_or("ok");
        assert_eq!(err(&[]), "TILEPOST_EMAIL_WEBHOOK_SECRET");
        assert_eq!(
            err(&[("TILEPOST_EMAIL_WEBHOOK_SECRET", "plain")]),
            "TILEPOST_EMAIL_WEBHOOK_SECRET"
        );
        for url in [
            "http://mail:25",
            "smtp://mail?tls=maybe",
            "smtps://mail?tls=required",
            "nope",
        ] {
            assert_eq!(
                err(&[S, ("TILEPOST_RELAY_SMTP_URL", url)]),
                "TILEPOST_RELAY_SMTP_URL",
                "{url}"
            );
        }
        for url in [
            "smtp://mailpit:1025",
            "smtp://mail:587?tls=required",
            "smtps://mail",
        ] {
            assert_eq!(err(&[S, ("TILEPOST_RELAY_SMTP_URL", url)]), "ok", "{url}");
        }
        assert_eq!(
            err(&[S, ("TILEPOST_RELAY_SMTP_URL", "smtps://u:p@mail")]),
            "TILEPOST_RELAY_SMTP_URL"
        );
        let creds = [
            ("TILEPOST_RELAY_SMTP_USERNAME", "u"),
            ("TILEPOST_RELAY_SMTP_PASSWORD", "p4ss"),
        ];
        assert_eq!(
            err(&[
                S,
                creds[0],
                creds[1],
                ("TILEPOST_RELAY_SMTP_URL", "smtp://mail.example:25")
            ]),
            "TILEPOST_RELAY_SMTP_USERNAME"
        );
        let ok = cfg(&[
            S,
            creds[0],
            creds[1],
            ("TILEPOST_RELAY_SMTP_URL", "smtps://mail.example"),
        ])
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(!format!("{ok:?}").contains("p4ss"));
        assert_eq!(err(&[S, creds[0]]), "TILEPOST_RELAY_SMTP_PASSWORD");
        assert_eq!(
            err(&[S, ("TILEPOST_RELAY_FROM", "nobody")]),
            "TILEPOST_RELAY_FROM"
        );
        assert_eq!(
            err(&[S, ("TILEPOST_RELAY_TOLERANCE_SECS", "soon")]),
            "TILEPOST_RELAY_TOLERANCE_SECS"
        );
    }
}
