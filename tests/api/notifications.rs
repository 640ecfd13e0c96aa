//! Notifications end to end: a real HTTP receiver started here, the server's worker
//! posting signed webhooks to it, signatures checked with an independent Standard
//! Webhooks implementation (hmac + sha2 here, not the server's function), retries
//! through an outage, a restart, `410 Gone`, redelivery, settings and unsubscribe links,
//! and two servers sharing one Postgres.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;
use tilepost::clock::Clock;
use tilepost::config::Config;

use crate::common::*;

const RELAY_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/// One request the receiver got.
#[derive(Clone, Debug)]
pub struct Received {
    pub id: String,
    pub timestamp: String,
    pub signature: String,
    pub body: String,
    pub json: Value,
    /// What the receiver answered.
    pub answered: u16,
    pub at: Instant,
}

/// A tiny HTTP/1.1 server on 127.0.0.1 that records webhook posts and answers with a
/// settable status; it can go away (connection refused) and come back on its port.
pub struct Receiver {
    pub port: u16,
    pub got: Arc<Mutex<Vec<Received>>>,
    pub status: Arc<AtomicU16>,
    /// While set, a request is recorded but its answer waits.
    pub hold: Arc<AtomicBool>,
    /// The `Location` of a `3xx` answer.
    pub location: Arc<Mutex<String>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// What the receiver's threads share: what they got and how they answer.
#[derive(Clone, Default)]
struct Shared {
    got: Arc<Mutex<Vec<Received>>>,
    status: Arc<AtomicU16>,
    hold: Arc<AtomicBool>,
    location: Arc<Mutex<String>>,
}

fn handle(mut s: TcpStream, sh: &Shared) -> std::io::Result<()> {
    let (got, status) = (&sh.got, &sh.status);
    s.set_read_timeout(Some(Duration::from_secs(5)))?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        let n = s.read(&mut chunk)?;
        if n == 0 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let header = |name: &str| {
        head.lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.trim()
                    .eq_ignore_ascii_case(name)
                    .then(|| v.trim().to_string())
            })
            .unwrap_or_default()
    };
    let len: usize = header("content-length").parse().unwrap_or(0);
    while buf.len() < head_end + len {
        let n = s.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let body = String::from_utf8_lossy(&buf[head_end..]).to_string();
    let answer = status.load(Ordering::SeqCst);
    got.lock().unwrap().push(Received {
        id: header("webhook-id"),
        timestamp: header("webhook-timestamp"),
        signature: header("webhook-signature"),
        json: serde_json::from_str(&body).unwrap_or(Value::Null),
        body,
        answered: answer,
        at: Instant::now(),
    });
    while sh.hold.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let extra = match answer {
        429 => "Retry-After: 1\r\n".to_string(),
        300..=399 => format!("Location: {}\r\n", sh.location.lock().unwrap()),
        _ => String::new(),
    };
    write!(
        s,
        "HTTP/1.1 {answer} X\r\n{extra}Content-Length: 2\r\nConnection: close\r\n\r\nok"
    )?;
    s.flush()
}

impl Receiver {
    pub fn start() -> Receiver {
        let sh = Shared::default();
        sh.status.store(200, Ordering::SeqCst);
        Receiver::on(0, sh)
    }

    fn on(port: u16, sh: Shared) -> Receiver {
        let l = TcpListener::bind(("127.0.0.1", port)).expect("receiver binds");
        let port = l.local_addr().unwrap().port();
        l.set_nonblocking(true).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let (sh2, sp) = (sh.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            while !sp.load(Ordering::SeqCst) {
                match l.accept() {
                    Ok((s, _)) => {
                        let sh = sh2.clone();
                        std::thread::spawn(move || {
                            let _ = s.set_nonblocking(false);
                            let _ = handle(s, &sh);
                        });
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(2)),
                }
            }
        });
        Receiver {
            port,
            got: sh.got,
            status: sh.status,
            hold: sh.hold,
            location: sh.location,
            stop,
            thread: Some(thread),
        }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/hook", self.port)
    }

    /// Closes the port: connections are refused until [`Receiver::restart`].
    pub fn shut(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    pub fn restart(self) -> Receiver {
        let sh = Shared {
            got: self.got.clone(),
            status: self.status.clone(),
            hold: self.hold.clone(),
            location: self.location.clone(),
        };
        let port = self.port;
        drop(self);
        Receiver::on(port, sh)
    }

    /// How many game messages arrived (see [`Receiver::all`]).
    pub fn count(&self) -> usize {
        self.all().len()
    }

    /// The game messages received: every test user confirms their address at sign-up,
    /// so the relay also gets an `account.*` message per user; those are kept apart
    /// ([`Receiver::everything`]).
    pub fn all(&self) -> Vec<Received> {
        self.everything()
            .into_iter()
            .filter(|r| {
                !r.json["type"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("account."))
            })
            .collect()
    }

    /// Every request received, account messages included.
    pub fn everything(&self) -> Vec<Received> {
        self.got.lock().unwrap().clone()
    }

    /// Accepted (2xx) game messages.
    pub fn accepted(&self) -> Vec<Received> {
        self.all()
            .into_iter()
            .filter(|r| (200..300).contains(&r.answered))
            .collect()
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.shut();
    }
}

/// Standard Webhooks verification, written here from the specification.
pub fn verify(secret: &str, r: &Received) -> bool {
    let key = STANDARD
        .decode(secret.strip_prefix("whsec_").unwrap())
        .unwrap();
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    mac.update(format!("{}.{}.{}", r.id, r.timestamp, r.body).as_bytes());
    let expected = format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()));
    r.signature.split(' ').any(|s| s == expected)
}

/// Waits (advancing the app's manual clock by `step_ms` each round) until `done`.
pub fn wait_for(app: &TestApp, step_ms: i64, what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        app.clock.advance_ms(step_ms);
        std::thread::sleep(Duration::from_millis(10));
    }
}

pub fn fast(c: &mut Config) {
    c.notify_poll_ms = 10;
    c.notify_backoff_base_ms = 1000;
    c.webhook_timeout_ms = 2000;
}

pub fn with_relay(kind: Db, rx: &Receiver) -> TestApp {
    let url = rx.url();
    TestApp::with(kind, |c| {
        fast(c);
        c.email_webhook_url = Some(url);
        c.email_webhook_secret = Some(RELAY_SECRET.into());
    })
}

fn private_ok(kind: Db) -> TestApp {
    TestApp::with(kind, |c| {
        fast(c);
        c.webhook_allow_private = true;
    })
}

fn of_type(rs: &[Received], t: &str) -> Vec<Received> {
    rs.iter().filter(|r| r.json["type"] == t).cloned().collect()
}

pub fn block<T>(f: impl std::future::Future<Output = T>) -> T {
    actix_web::rt::System::new().block_on(f)
}

// ----- scenarios -----------------------------------------------------------------------

/// Each turn the player whose decision is pending gets exactly one signed
/// `game.turn_started` through the email relay, with the drawn tile, what happened since
/// their last turn, links and an unsubscribe link; everyone gets `game.started` and
/// `game.finished` with the ranking.
fn one_signed_message_per_turn(app: &TestApp, rx: &Receiver) {
    let (ann, ben) = (app.user("ann"), app.user("ben"));
    let id = start_game(
        &[&ann, &ben],
        json!({"tile_order": ["base/D", "base/E", "base/U", "base/V", "base/B", "base/K"]}),
    );
    let players = [&ann, &ben];
    let mut expected: Vec<(i64, String, Option<String>)> = Vec::new();
    let mut rng = TestRng::new(11);
    let mut actor = String::new();
    loop {
        let a = ann.get(&format!("/v1/games/{id}/actions")).ok().clone();
        let p = &a["pending"];
        if p.is_null() {
            break;
        }
        let user = p["user_id"].as_str().unwrap().to_string();
        if a["version"] == 1 || p["kind"] == "place_tile" || user != actor {
            expected.push((
                a["version"].as_i64().unwrap(),
                user.clone(),
                p["tile"].as_str().map(str::to_string),
            ));
        }
        let opts = a["actions"].as_array().unwrap();
        let pick = opts[rng.below(opts.len())].clone();
        client_for(&players, p)
            .post(
                &format!("/v1/games/{id}/moves"),
                json!({"expected_version": a["version"], "actions": [pick]}),
            )
            .ok();
        actor = user;
    }
    wait_for(app, 0, "every message", || {
        of_type(&rx.accepted(), "game.finished").len() == 2
            && of_type(&rx.accepted(), "game.turn_started").len() >= expected.len()
    });
    std::thread::sleep(Duration::from_millis(200));
    let all = rx.all();
    assert!(
        all.iter().all(|r| verify(RELAY_SECRET, r)),
        "signatures verify"
    );
    assert!(all.iter().all(|r| r.id.starts_with("msg_")));
    let turns = of_type(&all, "game.turn_started");
    let got: Vec<(i64, String, Option<String>)> = turns
        .iter()
        .map(|r| {
            let d = &r.json["data"];
            (
                d["version"].as_i64().unwrap(),
                d["recipient"]["user_id"].as_str().unwrap().to_string(),
                d["tile"].as_str().map(str::to_string),
            )
        })
        .collect();
    let mut sorted = got.clone();
    sorted.sort();
    expected.sort();
    assert_eq!(sorted, expected, "exactly one turn message per turn");
    // distinct ids, every field an email needs
    let mut ids: Vec<&str> = all.iter().map(|r| r.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), all.len());
    let later = turns
        .iter()
        .find(|r| r.json["data"]["version"].as_i64() > Some(1))
        .unwrap();
    let d = &later.json["data"];
    let name = d["recipient"]["name"].as_str().unwrap();
    assert_eq!(d["recipient"]["email"], format!("{name}@example.com"));
    assert!(d["subject"].as_str().unwrap().contains("Your turn"));
    assert!(d["text"].as_str().unwrap().contains("Since your last turn"));
    // tiles by their description, not their catalog id
    let text = d["text"].as_str().unwrap();
    // (a description may begin without an article: "two city caps on opposite sides")
    for word in [" placed ", "You drew "] {
        assert!(text.contains(word), "{text}");
        for (at, _) in text.match_indices(word) {
            let next = text[at + word.len()..]
                .split_whitespace()
                .next()
                .unwrap_or("");
            assert!(
                next.starts_with(|c: char| c.is_ascii_lowercase()) && !next.contains('/'),
                "a tile named by its id: {text}"
            );
        }
    }
    assert!(d["html"].as_str().unwrap().starts_with("<!DOCTYPE html>"));
    assert!(d["html"].as_str().unwrap().contains("Hello "));
    // no coordinates in what happened: "ann placed a city cap.", then the scores
    assert!(!d["since_last_turn"]["lines"].as_array().unwrap().is_empty());
    for line in d["since_last_turn"]["lines"].as_array().unwrap() {
        let line = line.as_str().unwrap();
        assert!(text.contains(&format!("- {line}\n")), "{text}");
        assert!(!line.contains(" at ("), "{line}");
    }
    assert_eq!(d["scores"].as_array().map(Vec::len), Some(2), "{d}");
    assert_eq!(
        d["links"]["placements"],
        format!("http://tilepost.test/v1/games/{id}/placements")
    );
    // the email's one button opens the game in the web client
    let play = format!("http://tilepost.test/play/games/{id}");
    assert_eq!(d["links"]["play"], play);
    assert_eq!(
        d["links"]["game"],
        format!("http://tilepost.test/v1/games/{id}")
    );
    assert!(d["text"]
        .as_str()
        .unwrap()
        .contains(&format!("Play your turn: {play}\n")));
    assert!(d["html"]
        .as_str()
        .unwrap()
        .contains(&format!("<a href=\"{play}\" class=\"tp-btn\"")));
    assert!(d["list_unsubscribe"]
        .as_str()
        .unwrap()
        .contains("/v1/unsubscribe?token="));
    assert!(!d["since_last_turn"]["tiles_placed"]
        .as_array()
        .unwrap()
        .is_empty());
    assert_eq!(of_type(&all, "game.started").len(), 2);
    let fin = &of_type(&all, "game.finished")[0].json["data"];
    assert_eq!(fin["ranking"].as_array().unwrap().len(), 2);
    // the webhook timestamp is the clock's, in seconds
    let ts: i64 = later.timestamp.parse().unwrap();
    assert!((ts - app.clock.now_ms() / 1000).abs() < 3600);
}

fn relay_turns(kind: Db) {
    let rx = Receiver::start();
    let app = with_relay(kind, &rx);
    one_signed_message_per_turn(&app, &rx);
}

#[test]
fn relay_turns_sqlite() {
    relay_turns(Db::Sqlite)
}

#[test]
fn relay_turns_postgres() {
    relay_turns(Db::Postgres)
}

pub fn endpoint(c: &Client, url: &str, types: Value) -> Value {
    let r = c.post(
        "/v1/users/me/webhooks",
        json!({"url": url, "event_types": types}),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    r.json.clone()
}

pub fn attempts_of(app: &TestApp, endpoint_id: &str) -> Vec<tilepost::store::DeliveryInfo> {
    block(
        app.server
            .state
            .store
            .deliveries_of(endpoint_id.to_string(), None, 200),
    )
    .unwrap()
    .rows
}

/// The receiver answers 500, then refuses connections: the worker retries with growing
/// delays (by the server's clock) and, once the receiver is back, everything arrives.
fn outage_then_recovery(kind: Db) {
    let mut rx = Receiver::start();
    // a base delay well above the noise of a clock that moves 100 ms per 10 ms
    let app = TestApp::with(kind, |c| {
        fast(c);
        c.notify_backoff_base_ms = 2000;
        c.webhook_allow_private = true;
    });
    let (ann, ben) = (app.user("ann"), app.user("ben"));
    let ep = endpoint(&ann, &rx.url(), json!(["*"]));
    let secret = ep["secret"].as_str().unwrap().to_string();
    rx.status.store(500, Ordering::SeqCst);
    start_game(&[&ann, &ben], Value::Null);
    // ann gets game.started (and game.turn_started if she plays first)
    wait_for(&app, 100, "three failed attempts each", || {
        let mut by: HashMap<String, usize> = HashMap::new();
        for r in rx.all() {
            *by.entry(r.id).or_default() += 1;
        }
        !by.is_empty() && by.values().all(|n| *n >= 3)
    });
    rx.shut();
    let ep_id = ep["id"].as_str().unwrap();
    wait_for(&app, 100, "two refused attempts", || {
        attempts_of(&app, ep_id).iter().all(|d| {
            d.attempts
                .iter()
                .filter(|a| a.http_status.is_none())
                .count()
                >= 2
        })
    });
    let rx = rx.restart();
    rx.status.store(200, Ordering::SeqCst);
    wait_for(&app, 100, "delivery after the outage", || {
        attempts_of(&app, ep_id)
            .iter()
            .all(|d| d.delivery.status == "delivered")
    });
    let ds = attempts_of(&app, ep_id);
    assert!(!ds.is_empty());
    let ids: Vec<String> = ds.iter().map(|d| d.delivery.outbox_id.clone()).collect();
    let accepted = rx.accepted();
    for id in &ids {
        assert_eq!(
            accepted.iter().filter(|r| &r.id == id).count(),
            1,
            "{id} arrives once"
        );
    }
    assert!(rx.all().iter().all(|r| verify(&secret, r)));
    for d in &ds {
        let a = &d.attempts;
        assert!(a.len() >= 6, "{} attempts", a.len());
        assert!(a[..3].iter().all(|x| x.http_status == Some(500)));
        assert!(a
            .iter()
            .any(|x| x.http_status.is_none() && x.error.is_some()));
        assert_eq!(a.last().unwrap().http_status, Some(200));
        let gaps: Vec<i64> = a
            .windows(2)
            .map(|w| w[1].attempted_at - w[0].attempted_at)
            .collect();
        for g in gaps.windows(2).take(3) {
            assert!(g[1] > g[0], "delays grow: {gaps:?}");
        }
        assert!(gaps[0] >= 1600, "first delay about the base: {gaps:?}");
    }
    // the API lists the same history
    let l = ann.get(&format!("/v1/users/me/webhooks/{ep_id}/deliveries"));
    let first = &l.ok()["deliveries"][0];
    assert_eq!(first["status"], "delivered");
    assert!(first["attempt_log"].as_array().unwrap().len() >= 6);
    assert_eq!(first["attempt_log"][0]["status"], 500);
    assert_eq!(first["attempt_log"][0]["excerpt"], "ok");
}

#[test]
fn outage_then_recovery_sqlite() {
    outage_then_recovery(Db::Sqlite)
}

#[test]
fn outage_then_recovery_postgres() {
    outage_then_recovery(Db::Postgres)
}

/// Messages still pending when the server stops are delivered by the next server.
fn restart_keeps_pending(kind: Db) {
    let rx = Receiver::start();
    let app = with_relay(kind, &rx);
    let (ann, ben) = (app.user("ann"), app.user("ben"));
    rx.status.store(503, Ordering::SeqCst);
    let id = start_game(&[&ann, &ben], Value::Null);
    wait_for(&app, 0, "a first failed attempt", || !rx.all().is_empty());
    app.server.stop();
    std::thread::sleep(Duration::from_millis(300));
    // a move while no worker runs: its message waits in the outbox
    let mut config = crate::common::test_config(&app.db.url);
    fast(&mut config);
    config.email_webhook_url = Some(rx.url());
    config.email_webhook_secret = Some(RELAY_SECRET.into());
    config.notify_worker = false;
    let quiet = tilepost::startup::spawn(config.clone(), app.clock.clone()).unwrap();
    let who = |c: &Client| Client::new(&quiet.url(), c.token.clone());
    let a = who(&ann)
        .get(&format!("/v1/games/{id}/actions"))
        .ok()
        .clone();
    let first = if a["pending"]["user_id"] == ann.user_id.as_str() {
        &ann
    } else {
        &ben
    };
    who(first)
        .post(
            &format!("/v1/games/{id}/moves"),
            json!({"expected_version": a["version"], "actions": [a["actions"][0].clone()]}),
        )
        .ok();
    quiet.stop();
    drop(quiet);
    rx.status.store(200, Ordering::SeqCst);
    config.notify_worker = true;
    let _again = tilepost::startup::spawn(config, app.clock.clone()).unwrap();
    let mut all_ids = Vec::new();
    for u in [&ann, &ben] {
        for m in block(app.server.state.store.outbox_for_user(u.user_id.clone())).unwrap() {
            all_ids.push(m.id);
        }
    }
    assert!(all_ids.len() >= 3);
    wait_for(&app, 2000, "every message after the restart", || {
        // every message, the account messages of the outbox included
        let acc: Vec<Received> = rx
            .everything()
            .into_iter()
            .filter(|r| (200..300).contains(&r.answered))
            .collect();
        all_ids.iter().all(|id| acc.iter().any(|r| &r.id == id))
    });
    assert!(rx.all().iter().all(|r| verify(RELAY_SECRET, r)));
}

#[test]
fn restart_keeps_pending_sqlite() {
    restart_keeps_pending(Db::Sqlite)
}

#[test]
fn restart_keeps_pending_postgres() {
    restart_keeps_pending(Db::Postgres)
}

/// `410 Gone` disables the endpoint: later messages are not sent to it.
fn gone_disables(app: &TestApp) {
    let rx = Receiver::start();
    rx.status.store(410, Ordering::SeqCst);
    let (ann, ben) = (app.user("ann"), app.user("ben"));
    let ep = endpoint(&ann, &rx.url(), json!(["game.started", "game.finished"]));
    let id = start_game(&[&ann, &ben], Value::Null);
    wait_for(app, 100, "the 410", || !rx.all().is_empty());
    wait_for(app, 100, "the endpoint disabled", || {
        let l = ann.get("/v1/users/me/webhooks");
        l.json["webhooks"][0]["enabled"] == false
    });
    let l = ann.get("/v1/users/me/webhooks");
    assert!(l.json["webhooks"][0]["disabled_reason"]
        .as_str()
        .unwrap()
        .contains("410"));
    assert!(
        l.json["webhooks"][0].get("secret").is_none(),
        "secrets are shown once"
    );
    let before = rx.all().len();
    rx.status.store(200, Ordering::SeqCst);
    ben.post(&format!("/v1/games/{id}/resign"), json!({})).ok();
    std::thread::sleep(Duration::from_millis(300));
    for _ in 0..20 {
        app.clock.advance_ms(10_000);
        std::thread::sleep(Duration::from_millis(15));
    }
    assert_eq!(
        rx.all().len(),
        before,
        "nothing more to a disabled endpoint"
    );
    let ds = ann.get(&format!(
        "/v1/users/me/webhooks/{}/deliveries",
        ep["id"].as_str().unwrap()
    ));
    assert!(ds.ok()["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .all(|d| d["status"] == "failed"));
}

/// Redelivery through the API sends the same message (same webhook-id) again; secrets
/// rotate; the endpoint API refuses bad input.
fn redeliver_and_manage(app: &TestApp) {
    let rx = Receiver::start();
    let (ann, ben) = (app.user("ann"), app.user("ben"));
    let ep = endpoint(&ann, &rx.url(), json!(["game.started"]));
    let ep_id = ep["id"].as_str().unwrap().to_string();
    let secret = ep["secret"].as_str().unwrap().to_string();
    assert!(secret.starts_with("whsec_"));
    start_game(&[&ann, &ben], Value::Null);
    wait_for(app, 100, "game.started", || rx.accepted().len() == 1);
    let first = rx.accepted()[0].clone();
    assert!(verify(&secret, &first));
    let listed = || ann.get(&format!("/v1/users/me/webhooks/{ep_id}/deliveries"));
    wait_for(app, 0, "the attempt recorded", || {
        listed().json["deliveries"][0]["status"] == "delivered"
    });
    let d = listed().json["deliveries"][0].clone();
    assert_eq!(d["webhook_id"], first.id.as_str());
    assert_eq!(d["status"], "delivered");
    assert_eq!(d["event_type"], "game.started");
    // rotate, then redeliver: same id, new signature key
    let r = ann.post(
        &format!("/v1/users/me/webhooks/{ep_id}/rotate-secret"),
        json!({}),
    );
    let new_secret = r.ok()["secret"].as_str().unwrap().to_string();
    assert_ne!(new_secret, secret);
    let did = d["id"].as_str().unwrap();
    let r = ann.post(
        &format!("/v1/users/me/webhooks/{ep_id}/deliveries/{did}/redeliver"),
        json!({}),
    );
    assert_eq!(r.status, 202, "{}", r.text);
    wait_for(app, 100, "the redelivery", || rx.accepted().len() == 2);
    let again = rx.accepted()[1].clone();
    assert_eq!(again.id, first.id);
    assert_eq!(again.body, first.body);
    assert!(verify(&new_secret, &again));
    assert!(!verify(&secret, &again));
    wait_for(app, 0, "the second attempt recorded", || {
        listed().json["deliveries"][0]["attempts"] == 2
    });
    assert_eq!(listed().json["deliveries"][0]["status"], "delivered");
    // problems
    ann.post(
        &format!("/v1/users/me/webhooks/{ep_id}/deliveries/nope/redeliver"),
        json!({}),
    )
    .problem(404, "delivery-not-found");
    ben.post(
        &format!("/v1/users/me/webhooks/{ep_id}/deliveries/{did}/redeliver"),
        json!({}),
    )
    .problem(404, "webhook-not-found");
    ben.get(&format!("/v1/users/me/webhooks/{ep_id}/deliveries"))
        .problem(404, "webhook-not-found");
    ann.get(&format!("/v1/users/me/webhooks/{ep_id}/deliveries?limit=0"))
        .problem(400, "validation-failed");
    for bad in [
        json!({"url": "ftp://example.com/x", "event_types": ["*"]}),
        json!({"url": "https://example.com/x", "event_types": ["game.nope"]}),
        json!({"url": "https://example.com/x", "event_types": []}),
        json!({"url": "https://example.com/x", "event_types": ["*"], "extra": 1}),
        json!({"url": 5, "event_types": ["*"]}),
    ] {
        ann.post("/v1/users/me/webhooks", bad)
            .problem(400, "validation-failed");
    }
    anon_refused(app);
    let r = ben.request(
        "DELETE",
        &format!("/v1/users/me/webhooks/{ep_id}"),
        None,
        &[],
    );
    r.problem(404, "webhook-not-found");
    let r = ann.request(
        "DELETE",
        &format!("/v1/users/me/webhooks/{ep_id}"),
        None,
        &[],
    );
    assert_eq!(r.status, 204);
    assert_eq!(ann.get("/v1/users/me/webhooks").json["webhooks"], json!([]));
    for i in 0..10 {
        endpoint(&ben, &format!("{}/{i}", rx.url()), json!(["*"]));
    }
    ben.post(
        "/v1/users/me/webhooks",
        json!({"url": rx.url(), "event_types": ["*"]}),
    )
    .problem(409, "webhook-limit-reached");
}

fn anon_refused(app: &TestApp) {
    app.anon()
        .get("/v1/users/me/webhooks")
        .problem(401, "unauthorized");
}

/// By default, user URLs may not point inside: loopback, private, link-local.
fn private_addresses_refused(app: &TestApp) {
    let ann = app.user("ann");
    for url in [
        "http://127.0.0.1:9/x",
        "http://localhost/x",
        "http://10.0.0.1/x",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/x",
        // IPv6 forms of internal IPv4 addresses, and special-purpose IPv6 ranges
        "http://[::127.0.0.1]/",
        "http://[::ffff:127.0.0.1]/x",
        "http://[::ffff:0:10.0.0.1]/x",
        "http://[64:ff9b::169.254.169.254]/x",
        "http://[2002:a9fe:a9fe::1]/x",
        "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x",
        "http://[2001:db8::1]/x",
        "http://[fec0::1]/x",
        "http://[100::1]/x",
        "http://2130706433/x",
    ] {
        let r = ann.post(
            "/v1/users/me/webhooks",
            json!({"url": url, "event_types": ["*"]}),
        );
        r.problem(422, "webhook-url-not-allowed");
    }
    assert_eq!(ann.get("/v1/users/me/webhooks").json["webhooks"], json!([]));
}

/// Email switches per event type, and the unsubscribe link of a message, which works
/// without logging in and stops the relay's messages of that type.
fn settings_and_unsubscribe(app: &TestApp, rx: &Receiver) {
    let (ann, ben) = (app.user("ann"), app.user("ben"));
    let s = ann.get("/v1/users/me/notifications");
    assert_eq!(s.ok()["email"]["game.turn_started"], true);
    assert_eq!(s.json["email"]["game.invited"], true);
    let r = ann.request(
        "PATCH",
        "/v1/users/me/notifications",
        Some(&json!({"email": {"game.invited": false}}).to_string()),
        &[],
    );
    assert_eq!(r.ok()["email"]["game.invited"], false);
    assert_eq!(r.json["email"]["game.finished"], true);
    ann.request(
        "PATCH",
        "/v1/users/me/notifications",
        Some(&json!({"email": {"game.nope": false}}).to_string()),
        &[],
    )
    .problem(400, "validation-failed");
    start_game(&[&ann, &ben], Value::Null);
    wait_for(app, 0, "game.started", || {
        of_type(&rx.accepted(), "game.started").len() == 2
    });
    let mine = of_type(&rx.accepted(), "game.started")
        .into_iter()
        .find(|r| r.json["data"]["recipient"]["user_id"] == ann.user_id.as_str())
        .unwrap();
    let link = mine.json["data"]["links"]["unsubscribe"]
        .as_str()
        .unwrap()
        .to_string();
    let path = link.strip_prefix("http://tilepost.test").unwrap();
    let r = app.anon().get(path);
    assert_eq!(r.ok()["unsubscribed"], json!(["game.started"]));
    assert_eq!(
        ann.get("/v1/users/me/notifications").json["email"]["game.started"],
        false
    );
    app.anon()
        .get("/v1/unsubscribe?token=forged.token")
        .problem(400, "invalid-unsubscribe-token");
    app.anon()
        .get("/v1/unsubscribe")
        .problem(400, "validation-failed");
    // the switch is read when a message is sent: ann gets no more game.started email
    let before = of_type(&rx.accepted(), "game.started").len();
    let (cat, dan) = (app.user("cat"), app.user("dan"));
    let _ = (&cat, &dan);
    start_game(&[&ann, &cat], Value::Null);
    wait_for(app, 0, "cat's game.started", || {
        of_type(&rx.accepted(), "game.started").len() == before + 1
    });
    std::thread::sleep(Duration::from_millis(200));
    let last = of_type(&rx.accepted(), "game.started");
    assert_eq!(last.len(), before + 1);
    assert_eq!(
        last[before].json["data"]["recipient"]["user_id"],
        cat.user_id.as_str()
    );
    // one-click (RFC 8058) POST of the "all" link
    let all = mine.json["data"]["links"]["unsubscribe_all"]
        .as_str()
        .unwrap();
    let r = app.anon().request(
        "POST",
        all.strip_prefix("http://tilepost.test").unwrap(),
        None,
        &[],
    );
    assert_eq!(
        r.ok()["unsubscribed"].as_array().unwrap().len(),
        tilepost::notify::EVENT_TYPES.len()
    );
    let s = ann.get("/v1/users/me/notifications");
    assert!(s.json["email"]
        .as_object()
        .unwrap()
        .values()
        .all(|v| v == false));
    assert_eq!(ann.get("/v1/users/me").json["notifications"]["turn"], false);
}

fn settings_relay(kind: Db) {
    let rx = Receiver::start();
    let app = with_relay(kind, &rx);
    settings_and_unsubscribe(&app, &rx);
}

#[test]
fn settings_and_unsubscribe_sqlite() {
    settings_relay(Db::Sqlite)
}

#[test]
fn settings_and_unsubscribe_postgres() {
    settings_relay(Db::Postgres)
}

/// Two writers race on one move: the loser's transaction fails and leaves no outbox row;
/// every outbox row belongs to a stored move.
fn failed_move_leaves_no_message(app: &TestApp) {
    let (ann, ben) = (app.user("ann"), app.user("ben"));
    let id = start_game(
        &[&ann, &ben],
        json!({"tile_order": ["base/D", "base/E", "base/U"]}),
    );
    let a = ann.get(&format!("/v1/games/{id}/actions")).ok().clone();
    let who = if a["pending"]["user_id"] == ann.user_id.as_str() {
        ann.clone()
    } else {
        ben.clone()
    };
    // finish the first player's turn with a tile and a pass, racing two copies of it
    let tile = a["actions"][0].clone();
    let body = json!({"expected_version": 1, "actions": [tile, {"type": "pass"}]});
    let (c1, c2) = (who.clone(), who.clone());
    let (b1, b2) = (body.clone(), body.clone());
    let p = format!("/v1/games/{id}/moves");
    let p2 = p.clone();
    let t1 = std::thread::spawn(move || c1.post(&p, b1).status);
    let t2 = std::thread::spawn(move || c2.post(&p2, b2).status);
    let mut st = [t1.join().unwrap(), t2.join().unwrap()];
    st.sort();
    assert_eq!(st, [200, 409]);
    let version = ann.get(&format!("/v1/games/{id}")).json["version"]
        .as_i64()
        .unwrap();
    let mut turns = Vec::new();
    for u in [&ann, &ben] {
        for m in block(app.server.state.store.outbox_for_user(u.user_id.clone())).unwrap() {
            if m.kind == "game.turn_started" {
                let v: Value = serde_json::from_str(&m.payload).unwrap();
                turns.push(v["data"]["version"].as_i64().unwrap());
            }
        }
    }
    turns.sort();
    assert_eq!(
        turns,
        vec![1, version],
        "one message per stored turn, none for the loser"
    );
    let ev = ann.get(&format!("/v1/games/{id}/events?limit=200"));
    let seqs: Vec<i64> = ev.ok()["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_i64().unwrap())
        .collect();
    for v in turns {
        assert!(seqs.contains(&v), "message of version {v} has its move");
    }
}

/// A seated player invites a user to an open game: the user gets `game.invited` with
/// the join link.
fn invitations(app: &TestApp) {
    let rx = Receiver::start();
    let (ann, ben, cat) = (app.user("ann"), app.user("ben"), app.user("cat"));
    let ep = endpoint(&ben, &rx.url(), json!(["game.invited"]));
    let g = ann.post("/v1/games", json!({"seats": 3}));
    let id = g.json["id"].as_str().unwrap().to_string();
    let p = format!("/v1/games/{id}/invitations");
    let r = ann.post(&p, json!({"username": "ben"}));
    assert_eq!(r.status, 202, "{}", r.text);
    wait_for(app, 0, "game.invited", || rx.accepted().len() == 1);
    let m = &rx.accepted()[0];
    assert!(verify(ep["secret"].as_str().unwrap(), m));
    assert_eq!(m.json["type"], "game.invited");
    assert_eq!(m.json["data"]["invited_by"], "ann");
    assert_eq!(m.json["data"]["recipient"]["email"], "ben@example.com");
    assert!(m.json["data"]["join"]
        .as_str()
        .unwrap()
        .ends_with(&format!("{id}/join")));
    ann.post(&p, json!({"username": "nobody"}))
        .problem(404, "user-not-found");
    ann.post(&p, json!({"username": "ann"}))
        .problem(409, "already-seated");
    cat.post(&p, json!({"username": "ben"}))
        .problem(403, "not-a-player");
    ann.post(&p, json!({"user": "ben"}))
        .problem(400, "validation-failed");
    ann.post("/v1/games/nope/invitations", json!({"username": "ben"}))
        .problem(404, "game-not-found");
    ben.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    cat.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    ann.post(&p, json!({"username": "ben"}))
        .problem(409, "game-already-started");
}

#[test]
fn invitations_sqlite() {
    invitations(&private_ok(Db::Sqlite))
}

#[test]
fn invitations_postgres() {
    invitations(&private_ok(Db::Postgres))
}

crate::both!(private_addresses_refused, failed_move_leaves_no_message);

#[test]
fn gone_disables_sqlite() {
    gone_disables(&private_ok(Db::Sqlite))
}

#[test]
fn gone_disables_postgres() {
    gone_disables(&private_ok(Db::Postgres))
}

#[test]
fn redeliver_and_manage_sqlite() {
    redeliver_and_manage(&private_ok(Db::Sqlite))
}

#[test]
fn redeliver_and_manage_postgres() {
    redeliver_and_manage(&private_ok(Db::Postgres))
}

/// Two servers on one Postgres share a burst: no webhook-id is delivered twice (every
/// attempt succeeds, so no retry is due).
#[test]
fn two_servers_share_a_burst() {
    let rx = Receiver::start();
    let app = with_relay(Db::Postgres, &rx);
    let mut config = crate::common::test_config(&app.db.url);
    fast(&mut config);
    config.email_webhook_url = Some(rx.url());
    config.email_webhook_secret = Some(RELAY_SECRET.into());
    let other = tilepost::startup::spawn(config, app.clock.clone()).unwrap();
    let users: Vec<Client> = (0..4).map(|i| app.user(&format!("player{i}"))).collect();
    let seats: Vec<tilepost::store::SeatInfo> = users
        .iter()
        .map(|u| tilepost::store::SeatInfo {
            seat: 0,
            user_id: u.user_id.clone(),
            username: u.name.clone(),
            email: format!("{}@example.com", u.name),
            notify_turn: true,
            notify_finished: true,
            joined_at: 0,
            locale: "en".into(),
            time_zone: "UTC".into(),
            bot: None,
        })
        .collect();
    let n = &app.server.state.notifier;
    let now = app.clock.now_ms();
    let mut rows = Vec::new();
    for i in 0..100 {
        rows.push(tilepost::notify::invited(
            n,
            &seats[i % 4],
            &format!("g{i}"),
            "ann",
            now,
        ));
    }
    let total = rows.len() + 6;
    block(app.server.state.store.enqueue(rows)).unwrap();
    other.state.notifier.wake();
    app.server.state.notifier.wake();
    // and games through both servers at once
    let b = Client::new(&other.url(), users[1].token.clone());
    let g = users[0].post("/v1/games", json!({"seats": 2}));
    b.post(
        &format!("/v1/games/{}/join", g.json["id"].as_str().unwrap()),
        json!({}),
    )
    .ok();
    let c = Client::new(&other.url(), users[2].token.clone());
    let g = c.post("/v1/games", json!({"seats": 2}));
    users[3]
        .post(
            &format!("/v1/games/{}/join", g.json["id"].as_str().unwrap()),
            json!({}),
        )
        .ok();
    wait_for(&app, 0, "the burst", || rx.all().len() >= total);
    std::thread::sleep(Duration::from_millis(500));
    let all = rx.all();
    assert!(all.iter().all(|r| r.answered == 200));
    let mut by: HashMap<&str, usize> = HashMap::new();
    for r in &all {
        *by.entry(r.id.as_str()).or_default() += 1;
    }
    assert_eq!(by.len(), total);
    assert!(
        by.values().all(|c| *c == 1),
        "a webhook-id was delivered twice"
    );
    assert!(all.iter().all(|r| verify(RELAY_SECRET, r)));
}

/// Figures for the report: messages per second to a fast local receiver, and the time
/// from a move's answer to the delivery of its turn message. `cargo test --release
/// --test api notifications::measure -- --ignored --nocapture`
#[test]
#[ignore]
fn measure() {
    for kind in [Db::Postgres, Db::Sqlite] {
        let rx = Receiver::start();
        let app = with_relay(kind, &rx);
        let users: Vec<Client> = (0..4).map(|i| app.user(&format!("player{i}"))).collect();
        let seats: Vec<tilepost::store::SeatInfo> = users
            .iter()
            .map(|u| tilepost::store::SeatInfo {
                seat: 0,
                user_id: u.user_id.clone(),
                username: u.name.clone(),
                email: format!("{}@example.com", u.name),
                notify_turn: true,
                notify_finished: true,
                joined_at: 0,
                locale: "en".into(),
                time_zone: "UTC".into(),
                bot: None,
            })
            .collect();
        let n = &app.server.state.notifier;
        let now = app.clock.now_ms();
        let count = 2000;
        let rows: Vec<_> = (0..count)
            .map(|i| tilepost::notify::invited(n, &seats[i % 4], &format!("g{i}"), "ann", now))
            .collect();
        block(app.server.state.store.enqueue(rows)).unwrap();
        let t = Instant::now();
        app.server.state.notifier.wake();
        wait_for(&app, 0, "the batch", || rx.count() >= count);
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{kind:?}: {count} messages in {secs:.2} s: {:.0}/s",
            count as f64 / secs
        );
        // move → delivery latency
        let (a, b) = (&users[0], &users[1]);
        let id = start_game(&[a, b], Value::Null);
        let mut lat = Vec::new();
        let mut rng = TestRng::new(3);
        for _ in 0..120 {
            let acts = a.get(&format!("/v1/games/{id}/actions")).ok().clone();
            if acts["pending"].is_null() {
                break;
            }
            let opts = acts["actions"].as_array().unwrap();
            let pick = opts[rng.below(opts.len())].clone();
            let before = rx.everything().len();
            let sent = Instant::now();
            let r = client_for(&[a, b], &acts["pending"]).post(
                &format!("/v1/games/{id}/moves"),
                json!({"expected_version": acts["version"], "actions": [pick]}),
            );
            r.ok();
            let next = a.get(&format!("/v1/games/{id}/actions"));
            if next.json["pending"]["kind"] != "place_tile" {
                continue;
            }
            let start = Instant::now();
            let at = loop {
                let got = rx.got.lock().unwrap()[before..]
                    .iter()
                    .find(|r| r.json["type"] == "game.turn_started")
                    .map(|r| r.at);
                if let Some(at) = got {
                    break at;
                }
                assert!(start.elapsed() < Duration::from_secs(10));
                std::thread::sleep(Duration::from_micros(200));
            };
            lat.push(at.saturating_duration_since(sent).as_secs_f64() * 1000.0);
        }
        lat.sort_by(|x, y| x.partial_cmp(y).unwrap());
        let p = |q: f64| lat[((lat.len() as f64 - 1.0) * q).round() as usize];
        println!(
            "{kind:?}: move → delivery over {} turns: median {:.1} ms, p99 {:.1} ms",
            lat.len(),
            p(0.5),
            p(0.99)
        );
    }
}

/// The daily digest: once a day at the user's hour, in their time zone, one message
/// listing exactly the games waiting for them; their turn emails are not sent for
/// games the digest covers, unless the deadline is less than 24 hours away.
fn daily_digest(app: &TestApp, rx: &Receiver) {
    const HOUR: i64 = 3_600_000;
    let (ann, ben, cat) = (app.user("ann"), app.user("ben"), app.user("cat"));
    // the clock at the next 08:00 UTC
    let now = app.clock.now_ms();
    let day = now - now.rem_euclid(24 * HOUR);
    app.clock.set_ms(day + 32 * HOUR);
    let r = ann.request(
        "PATCH",
        "/v1/users/me",
        Some(&json!({"digest_hour": 9, "time_zone": "UTC"}).to_string()),
        &[],
    );
    assert_eq!(r.ok()["digest_hour"], 9);
    ann.request(
        "PATCH",
        "/v1/users/me",
        Some(&json!({"digest_hour": 24}).to_string()),
        &[],
    )
    .problem(400, "validation-failed");
    // two games waiting for ann: one without a clock, one due within a day; one of ben's
    let slow = start_game(&[&ann, &ben], Value::Null);
    let due = start_game(&[&ann, &ben], json!({"days_per_move": 1}));
    let bens = start_game(&[&ben, &cat], Value::Null);
    let digest = |all: &[Received]| -> Vec<Received> {
        of_type(all, "game.digest")
            .into_iter()
            .filter(|r| r.json["data"]["recipient"]["user_id"] == ann.user_id.as_str())
            .collect()
    };
    let sweep = || {
        let st = &app.server.state;
        block(tilepost::sweep::digests(
            &st.store,
            &st.notifier,
            app.clock.now_ms(),
        ))
        .expect("digests")
    };
    assert_eq!(sweep(), 0, "not before 09:00");
    app.clock.advance_ms(HOUR + 5 * 60_000);
    assert_eq!(sweep(), 1);
    assert_eq!(sweep(), 0, "one a day");
    wait_for(app, 0, "the digest", || !digest(&rx.accepted()).is_empty());
    let d = digest(&rx.accepted());
    assert_eq!(d.len(), 1);
    let mut listed: Vec<String> = d[0].json["data"]["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g["game_id"].as_str().map(String::from))
        .collect();
    listed.sort();
    let mut waiting = vec![slow.clone(), due.clone()];
    waiting.sort();
    assert_eq!(listed, waiting, "exactly ann's waiting games");
    assert!(!listed.contains(&bens));
    // ann's turn emails: none for the game without a clock, one for the game due soon
    wait_for(app, 0, "ann's email of the game due soon", || {
        of_type(&rx.accepted(), "game.turn_started")
            .iter()
            .any(|r| r.json["data"]["game_id"] == due.as_str())
    });
    let turns: Vec<Received> = of_type(&rx.accepted(), "game.turn_started")
        .into_iter()
        .filter(|r| r.json["data"]["recipient"]["user_id"] == ann.user_id.as_str())
        .collect();
    assert!(turns
        .iter()
        .all(|r| r.json["data"]["game_id"] != slow.as_str()));
    assert!(turns
        .iter()
        .any(|r| r.json["data"]["game_id"] == due.as_str()));
    // ben, without a digest, has his turn emails
    wait_for(app, 0, "ben's turn email", || {
        of_type(&rx.accepted(), "game.turn_started")
            .iter()
            .any(|r| r.json["data"]["recipient"]["user_id"] == ben.user_id.as_str())
    });
    // the next day, the next digest
    app.clock.advance_ms(10 * HOUR);
    assert_eq!(sweep(), 0);
    app.clock.advance_ms(14 * HOUR);
    assert_eq!(sweep(), 1);
    // off
    ann.request(
        "PATCH",
        "/v1/users/me",
        Some(&json!({"digest_hour": null}).to_string()),
        &[],
    )
    .ok();
    app.clock.advance_ms(24 * HOUR);
    assert_eq!(sweep(), 0);
}

fn digest_test(kind: Db) {
    let rx = Receiver::start();
    let url = rx.url();
    // days pass on the clock: tokens that last
    let app = TestApp::with(kind, |c| {
        fast(c);
        c.email_webhook_url = Some(url);
        c.email_webhook_secret = Some(RELAY_SECRET.into());
        c.token_ttl_secs = 30 * 86_400;
    });
    daily_digest(&app, &rx);
}

#[test]
fn daily_digest_sqlite() {
    digest_test(Db::Sqlite)
}

#[test]
fn daily_digest_postgres() {
    digest_test(Db::Postgres)
}
