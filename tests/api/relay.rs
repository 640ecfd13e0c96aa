//! The mail relay end to end: the real server's outbox posts signed webhooks to a real
//! `tilepost mail-relay` (in-process, sharing the server's manual clock), which speaks
//! SMTP to a sink written here. A move becomes an email with the right recipient,
//! subject, text and HTML parts and unsubscribe headers; through an SMTP outage and a
//! relay restart every email arrives exactly once; forged, expired and replayed
//! webhooks get `401` and send nothing; SMTP failures map to `503` (temporary) and `410`
//! (permanent).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;
use tilepost::clock::{Clock, ManualClock, SystemClock};
use tilepost::relay::{self, RelayConfig};

use crate::common::*;
use crate::notifications::wait_for;

const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const FROM_DOMAIN: &str = "tilepost.test";

// ----- an SMTP sink -------------------------------------------------------------------

/// One message the sink accepted.
#[derive(Clone, Debug)]
pub struct Mail {
    pub from: String,
    pub rcpt: Vec<String>,
    pub data: Vec<u8>,
}

impl Mail {
    fn parsed(&self) -> mailparse::ParsedMail<'_> {
        mailparse::parse_mail(&self.data).expect("a parsable message")
    }

    fn header(&self, name: &str) -> Option<String> {
        use mailparse::MailHeaderMap;
        self.parsed().headers.get_first_value(name)
    }

    fn message_id(&self) -> String {
        self.header("Message-ID").unwrap_or_default()
    }

    /// The decoded body of the part of this MIME type.
    fn part(&self, mime: &str) -> Option<String> {
        let p = self.parsed();
        let found = p
            .subparts
            .iter()
            .find(|s| s.ctype.mimetype == mime)
            .and_then(|s| s.get_body().ok());
        found
    }
}

/// A small SMTP server on 127.0.0.1 (EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT) that
/// keeps what it accepts; `reply_rcpt` sets the answer to `RCPT` (250, or 451/550 to
/// refuse for now or for good); it can go away (connection refused) and come back.
pub struct SmtpSink {
    pub port: u16,
    pub got: Arc<Mutex<Vec<Mail>>>,
    pub reply_rcpt: Arc<AtomicU16>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

fn session(s: TcpStream, got: &Mutex<Vec<Mail>>, reply_rcpt: &AtomicU16) -> std::io::Result<()> {
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut w = s.try_clone()?;
    let mut r = BufReader::new(s);
    w.write_all(b"220 sink.test ESMTP\r\n")?;
    let (mut from, mut rcpt) = (String::new(), Vec::new());
    let mut line = String::new();
    loop {
        line.clear();
        if r.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let cmd = line.trim_end().to_string();
        let upper = cmd.to_ascii_uppercase();
        let path = || {
            cmd.split_once(':')
                .map(|(_, a)| {
                    a.trim()
                        .trim_start_matches('<')
                        .split('>')
                        .next()
                        .unwrap_or("")
                        .to_string()
                })
                .unwrap_or_default()
        };
        if upper.starts_with("EHLO") {
            w.write_all(b"250-sink.test\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n")?;
        } else if upper.starts_with("HELO") || upper.starts_with("NOOP") {
            w.write_all(b"250 ok\r\n")?;
        } else if upper.starts_with("RSET") {
            from.clear();
            rcpt.clear();
            w.write_all(b"250 ok\r\n")?;
        } else if upper.starts_with("MAIL FROM:") {
            from = path();
            w.write_all(b"250 ok\r\n")?;
        } else if upper.starts_with("RCPT TO:") {
            match reply_rcpt.load(Ordering::SeqCst) {
                250 => {
                    rcpt.push(path());
                    w.write_all(b"250 ok\r\n")?;
                }
                451 => w.write_all(b"451 4.3.0 try again later\r\n")?,
                _ => w.write_all(b"550 5.1.1 no such mailbox\r\n")?,
            }
        } else if upper == "DATA" {
            if rcpt.is_empty() {
                w.write_all(b"503 5.5.1 no recipients\r\n")?;
                continue;
            }
            w.write_all(b"354 go ahead\r\n")?;
            let mut data = Vec::new();
            loop {
                let mut l = Vec::new();
                if r.read_until(b'\n', &mut l)? == 0 {
                    return Ok(());
                }
                if l == b".\r\n" {
                    break;
                }
                // dot-unstuffing
                let l = if l.starts_with(b"..") {
                    &l[1..]
                } else {
                    &l[..]
                };
                data.extend_from_slice(l);
            }
            got.lock().unwrap().push(Mail {
                from: std::mem::take(&mut from),
                rcpt: std::mem::take(&mut rcpt),
                data,
            });
            w.write_all(b"250 2.0.0 queued\r\n")?;
        } else if upper.starts_with("QUIT") {
            w.write_all(b"221 bye\r\n")?;
            return Ok(());
        } else {
            w.write_all(b"502 5.5.2 not implemented\r\n")?;
        }
    }
}

impl SmtpSink {
    pub fn start() -> SmtpSink {
        SmtpSink::on(0, Arc::default(), Arc::new(AtomicU16::new(250)))
    }

    fn on(port: u16, got: Arc<Mutex<Vec<Mail>>>, reply_rcpt: Arc<AtomicU16>) -> SmtpSink {
        let l = TcpListener::bind(("127.0.0.1", port)).expect("the sink binds");
        let port = l.local_addr().unwrap().port();
        l.set_nonblocking(true).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let (g, rr, sp) = (got.clone(), reply_rcpt.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            while !sp.load(Ordering::SeqCst) {
                match l.accept() {
                    Ok((s, _)) => {
                        let (g, rr) = (g.clone(), rr.clone());
                        std::thread::spawn(move || {
                            let _ = s.set_nonblocking(false);
                            let _ = session(s, &g, &rr);
                        });
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(2)),
                }
            }
        });
        SmtpSink {
            port,
            got,
            reply_rcpt,
            stop,
            thread: Some(thread),
        }
    }

    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Closes the port: connections are refused until [`SmtpSink::restart`].
    pub fn shut(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    pub fn restart(self) -> SmtpSink {
        let (port, got, rr) = (self.port, self.got.clone(), self.reply_rcpt.clone());
        drop(self);
        SmtpSink::on(port, got, rr)
    }

    pub fn all(&self) -> Vec<Mail> {
        self.got.lock().unwrap().clone()
    }

    /// How many accepted messages carry each Message-ID.
    pub fn by_message_id(&self) -> HashMap<String, usize> {
        let mut m = HashMap::new();
        for mail in self.all() {
            *m.entry(mail.message_id()).or_default() += 1;
        }
        m
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.shut();
    }
}

// ----- helpers ------------------------------------------------------------------------

/// A clock that follows another one once it is known (the relay starts before the
/// server whose manual clock it must share).
#[derive(Default)]
struct Follow(OnceLock<Arc<ManualClock>>);

impl Clock for Follow {
    fn now_ms(&self) -> i64 {
        match self.0.get() {
            Some(c) => c.now_ms(),
            None => SystemClock.now_ms(),
        }
    }
}

fn relay_config(sink: &SmtpSink, port: u16) -> RelayConfig {
    RelayConfig {
        bind: format!("127.0.0.1:{port}"),
        secret: SECRET.into(),
        smtp_url: sink.url(),
        from: format!("tilepost <games@{FROM_DOMAIN}>"),
        smtp_timeout_ms: 1500,
        ..RelayConfig::default()
    }
}

/// The server (fast retries) wired to a relay wired to `sink`.
fn wired(kind: Db, sink: &SmtpSink) -> (TestApp, relay::Running, Arc<Follow>) {
    let clock = Arc::new(Follow::default());
    let r = relay::spawn(relay_config(sink, 0), clock.clone()).expect("the relay starts");
    let url = r.url();
    let app = TestApp::with(kind, |c| {
        c.notify_poll_ms = 10;
        c.notify_backoff_base_ms = 1000;
        c.webhook_timeout_ms = 3000;
        c.email_webhook_url = Some(url);
        c.email_webhook_secret = Some(SECRET.into());
    });
    let _ = clock.0.set(app.clock.clone());
    (app, r, clock)
}

fn block<T>(f: impl std::future::Future<Output = T>) -> T {
    actix_web::rt::System::new().block_on(f)
}

/// Every outbox message of these users: `(id, payload)`.
fn outbox(app: &TestApp, users: &[&Client]) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for u in users {
        for m in block(app.server.state.store.outbox_for_user(u.user_id.clone())).unwrap() {
            out.push((m.id, serde_json::from_str(&m.payload).unwrap()));
        }
    }
    out
}

fn mid(id: &str) -> String {
    format!("<{id}@{FROM_DOMAIN}>")
}

/// Plays `n` moves of the game with the first listed action.
fn play(players: &[&Client], id: &str, n: usize) {
    for _ in 0..n {
        let a = players[0]
            .get(&format!("/v1/games/{id}/actions"))
            .ok()
            .clone();
        if a["pending"].is_null() {
            return;
        }
        client_for(players, &a["pending"])
            .post(
                &format!("/v1/games/{id}/moves"),
                json!({"expected_version": a["version"], "actions": [a["actions"][0].clone()]}),
            )
            .ok();
    }
}

const ORDER: &[&str] = &[
    "base/D", "base/E", "base/U", "base/V", "base/B", "base/K", "base/L",
];

// ----- scenarios ----------------------------------------------------------------------

/// A move → outbox → signed webhook → relay → SMTP: every message becomes exactly one
/// email; the turn email has the recipient, subject, both parts and the unsubscribe
/// headers of its payload.
fn turn_email(kind: Db) {
    let sink = SmtpSink::start();
    let (app, _relay, _) = wired(kind, &sink);
    let (ann, ben) = (app.user("ann"), app.user("ben"));
    let id = start_game(&[&ann, &ben], json!({ "tile_order": ORDER }));
    play(&[&ann, &ben], &id, 2);
    let msgs = outbox(&app, &[&ann, &ben]);
    assert!(
        msgs.len() >= 4,
        "started ×2 and a turn each: {}",
        msgs.len()
    );
    wait_for(&app, 0, "every email", || {
        let got = sink.by_message_id();
        msgs.iter().all(|(id, _)| got.contains_key(&mid(id)))
    });
    std::thread::sleep(Duration::from_millis(300));
    let got = sink.by_message_id();
    assert_eq!(got.len(), msgs.len(), "no other email: {got:?}");
    assert!(got.values().all(|n| *n == 1), "each email once: {got:?}");
    // the latest turn email: it says what happened since the player's last turn
    let (turn_id, payload) = msgs
        .iter()
        .filter(|(_, p)| p["type"] == "game.turn_started")
        .max_by_key(|(_, p)| p["data"]["version"].as_i64())
        .unwrap()
        .clone();
    let d = &payload["data"];
    let mail = sink
        .all()
        .into_iter()
        .find(|m| m.message_id() == mid(&turn_id))
        .unwrap();
    let to = d["recipient"]["email"].as_str().unwrap();
    assert_eq!(mail.rcpt, vec![to.to_string()], "envelope recipient");
    assert_eq!(mail.from, format!("games@{FROM_DOMAIN}"));
    assert_eq!(
        mail.header("To").unwrap(),
        format!("{} <{to}>", d["recipient"]["name"].as_str().unwrap())
    );
    assert_eq!(
        mail.header("Subject").unwrap(),
        d["subject"].as_str().unwrap()
    );
    assert!(mail.header("Subject").unwrap().starts_with("Your turn"));
    let text = mail.part("text/plain").expect("a text part");
    let html = mail.part("text/html").expect("an HTML part");
    assert_eq!(
        text.replace("\r\n", "\n").trim_end(),
        d["text"].as_str().unwrap().trim_end()
    );
    assert_eq!(
        html.replace("\r\n", "\n").trim_end(),
        d["html"].as_str().unwrap().trim_end()
    );
    assert!(text.contains("Since your last turn"), "{text}");
    assert!(html.contains("alt=\"the board\""));
    assert!(mail
        .header("Content-Type")
        .unwrap()
        .starts_with("multipart/alternative"));
    let unsub = d["links"]["unsubscribe"].as_str().unwrap();
    assert_eq!(
        mail.header("List-Unsubscribe").unwrap(),
        format!("<{unsub}>")
    );
    assert_eq!(
        mail.header("List-Unsubscribe-Post").unwrap(),
        "List-Unsubscribe=One-Click"
    );
    assert_eq!(mail.header("Auto-Submitted").unwrap(), "auto-generated");
    // the relay's answers are recorded by the server: every delivery delivered
    let ds = block(
        app.server
            .state
            .store
            .deliveries_of("relay".into(), None, 200),
    )
    .unwrap()
    .rows;
    assert_eq!(ds.len(), msgs.len());
    assert!(ds.iter().all(|d| d.delivery.status == "delivered"));
    // the unsubscribe link of the header works (RFC 8058 one-click POST)
    let path = unsub.trim_start_matches("http://tilepost.test");
    let r = app.anon().request(
        "POST",
        path,
        Some("List-Unsubscribe=One-Click"),
        &[("Content-Type", "application/x-www-form-urlencoded")],
    );
    assert!((200..300).contains(&r.status), "{}: {}", r.status, r.text);
    if let Ok(png) = std::env::var("TILEPOST_TURN_EMAIL_PNG") {
        picture(&html, &app, &png);
    }
}

/// Renders an email's HTML part as a mail client shows it, with headless Chromium; the
/// email's links (to `http://tilepost.test`) reach this test's server, so the pictures
/// load. `scripts/turn-email-picture.sh` renews `docs/turn-email.png` with it.
fn picture(html: &str, app: &TestApp, png: &str) {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("email.html");
    // the part's charset is UTF-8 (its MIME header); a byte-order mark tells the browser
    std::fs::write(&page, format!("\u{feff}{html}")).unwrap();
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium".into());
    let out = std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--window-size=640,1000",
            "--virtual-time-budget=5000",
            &format!(
                "--host-resolver-rules=MAP tilepost.test {}",
                app.server.addr
            ),
            &format!("--user-data-dir={}", dir.path().join("profile").display()),
            &format!("--screenshot={png}"),
            &format!("file://{}", page.display()),
        ])
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn turn_email_sqlite() {
    turn_email(Db::Sqlite)
}

#[test]
fn turn_email_postgres() {
    turn_email(Db::Postgres)
}

/// The SMTP server is down for a while (the relay answers 503, the outbox retries), the
/// relay restarts in the middle (forgetting what it saw), then SMTP comes back: every
/// email arrives exactly once.
fn outage_and_restart(kind: Db) {
    let mut sink = SmtpSink::start();
    sink.shut();
    let (app, relay, clock) = wired(kind, &sink);
    let port = relay.addr.port();
    let (ann, ben) = (app.user("ann"), app.user("ben"));
    let id = start_game(&[&ann, &ben], json!({ "tile_order": ORDER }));
    play(&[&ann, &ben], &id, 3);
    let msgs = outbox(&app, &[&ann, &ben]);
    assert!(msgs.len() >= 4, "{}", msgs.len());
    let relay_attempts = |status: Option<i32>| {
        block(
            app.server
                .state
                .store
                .deliveries_of("relay".into(), None, 200),
        )
        .unwrap()
        .rows
        .iter()
        .map(|d| {
            d.attempts
                .iter()
                .filter(|a| a.http_status == status)
                .count()
        })
        .min()
        .unwrap_or(0)
    };
    wait_for(&app, 100, "two 503s for every message", || {
        relay_attempts(Some(503)) >= 2
    });
    // the relay stops (gracefully) and the outbox meets a closed port
    relay.stop();
    wait_for(&app, 100, "a refused attempt for every message", || {
        relay_attempts(None) >= 1
    });
    let _relay = relay::spawn(relay_config(&sink, port), clock).expect("the relay restarts");
    let sink = sink.restart();
    wait_for(&app, 100, "every email after the outage", || {
        let got = sink.by_message_id();
        msgs.iter().all(|(id, _)| got.contains_key(&mid(id)))
    });
    wait_for(&app, 100, "every delivery recorded as delivered", || {
        block(
            app.server
                .state
                .store
                .deliveries_of("relay".into(), None, 200),
        )
        .unwrap()
        .rows
        .iter()
        .all(|d| d.delivery.status == "delivered")
    });
    // later retries (there should be none) would show up as duplicates
    for _ in 0..30 {
        app.clock.advance_ms(1000);
        std::thread::sleep(Duration::from_millis(10));
    }
    let got = sink.by_message_id();
    assert_eq!(got.len(), msgs.len(), "{got:?}");
    assert!(
        got.values().all(|n| *n == 1),
        "each email exactly once: {got:?}"
    );
}

#[test]
fn outage_and_restart_sqlite() {
    outage_and_restart(Db::Sqlite)
}

#[test]
fn outage_and_restart_postgres() {
    outage_and_restart(Db::Postgres)
}

/// Standard Webhooks signing, written here from the specification.
fn sign(secret: &str, id: &str, ts: i64, body: &str) -> String {
    let key = STANDARD
        .decode(secret.strip_prefix("whsec_").unwrap())
        .unwrap();
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    mac.update(format!("{id}.{ts}.{body}").as_bytes());
    format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
}

fn post(url: &str, headers: &[(&str, String)], body: &str) -> (u16, Value) {
    let mut req = ureq::post(url).set("content-type", "application/json");
    for (k, v) in headers {
        req = req.set(k, v);
    }
    let r = match req.send_string(body) {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("relay: {e}"),
    };
    let status = r.status();
    (
        status,
        serde_json::from_str(&r.into_string().unwrap_or_default()).unwrap_or(Value::Null),
    )
}

fn signed(id: &str, ts: i64, body: &str, secret: &str) -> Vec<(&'static str, String)> {
    vec![
        ("webhook-id", id.to_string()),
        ("webhook-timestamp", ts.to_string()),
        ("webhook-signature", sign(secret, id, ts, body)),
    ]
}

fn payload(to: &str) -> String {
    json!({
        "type": "game.turn_started",
        "timestamp": "2026-12-01T08:00:00Z",
        "data": {
            "recipient": {"user_id": "u1", "email": to, "name": "ann"},
            "subject": "Your turn in tilepost game 1234abcd",
            "text": "Hello ann,\n\nIt is your turn.\n",
            "html": "<p>Hello ann,</p><p>It is your turn.</p>",
            "links": {"unsubscribe": "https://tilepost.test/v1/unsubscribe?token=abc.def"}
        }
    })
    .to_string()
}

/// Forged, expired and replayed webhooks get `401` and send nothing; a new delivery of
/// a sent id sends nothing either; SMTP answers map to 503 (temporary, not remembered as
/// sent) and 410 (permanent); an unusable payload gets 422.
#[test]
fn forged_expired_replayed() {
    let mut sink = SmtpSink::start();
    let clock = Arc::new(ManualClock::new(SystemClock.now_ms()));
    let r = relay::spawn(relay_config(&sink, 0), clock.clone()).unwrap();
    let url = r.url();
    let now = || clock.now_ms() / 1000;
    let body = payload("ann@example.com");
    let count = |s: &SmtpSink| s.all().len();

    // a valid delivery: sent once
    let h = signed("msg_1", now(), &body, SECRET);
    let (st, v) = post(&url, &h, &body);
    assert_eq!((st, v["status"].as_str()), (200, Some("sent")), "{v}");
    assert_eq!(v["message_id"], mid("msg_1"));
    assert_eq!(count(&sink), 1);
    // the very same request again: a replay
    assert_eq!(post(&url, &h, &body).0, 401);
    // the server's retry of an id already sent (new timestamp, new signature): nothing
    // is sent, and the server is told it is delivered
    clock.advance_ms(2000);
    let (st, v) = post(&url, &signed("msg_1", now(), &body, SECRET), &body);
    assert_eq!(
        (st, v["status"].as_str()),
        (200, Some("already-sent")),
        "{v}"
    );
    // forged: another key, a changed body, a changed id, no signature, garbage
    let other = "whsec_dGhpcyBpcyBub3QgdGhlIHNlY3JldCBrZXk=";
    assert_eq!(
        post(&url, &signed("msg_2", now(), &body, other), &body).0,
        401
    );
    let h2 = signed("msg_2", now(), &body, SECRET);
    assert_eq!(post(&url, &h2, &body.replace("ann@", "eve@")).0, 401);
    let mut h3 = h2.clone();
    h3[0].1 = "msg_3".into();
    assert_eq!(post(&url, &h3, &body).0, 401);
    assert_eq!(post(&url, &h2[..2], &body).0, 401);
    let mut h4 = h2.clone();
    h4[2].1 = "v1,bm90IGEgc2lnbmF0dXJl".into();
    assert_eq!(post(&url, &h4, &body).0, 401);
    // expired, or from the future, beyond the 300 s tolerance
    assert_eq!(
        post(&url, &signed("msg_4", now() - 301, &body, SECRET), &body).0,
        401
    );
    assert_eq!(
        post(&url, &signed("msg_4", now() + 301, &body, SECRET), &body).0,
        401
    );
    assert_eq!(count(&sink), 1, "nothing else was sent");
    // a timestamp inside the tolerance is fine
    let (st, _) = post(&url, &signed("msg_4", now() - 290, &body, SECRET), &body);
    assert_eq!(st, 200);
    assert_eq!(count(&sink), 2);

    // SMTP refuses for now: 503, and the retry is sent once SMTP accepts
    sink.reply_rcpt.store(451, Ordering::SeqCst);
    assert_eq!(
        post(&url, &signed("msg_5", now(), &body, SECRET), &body).0,
        503
    );
    sink.reply_rcpt.store(250, Ordering::SeqCst);
    clock.advance_ms(1000);
    assert_eq!(
        post(&url, &signed("msg_5", now(), &body, SECRET), &body).0,
        200
    );
    // SMTP refuses for good: 410 (the server stops retrying)
    sink.reply_rcpt.store(550, Ordering::SeqCst);
    assert_eq!(
        post(&url, &signed("msg_6", now(), &body, SECRET), &body).0,
        410
    );
    sink.reply_rcpt.store(250, Ordering::SeqCst);
    // no SMTP server at all: 503
    sink.shut();
    assert_eq!(
        post(&url, &signed("msg_7", now(), &body, SECRET), &body).0,
        503
    );
    let sink = sink.restart();
    // a payload without what an email needs: 422; an address that is none: 410
    let thin = json!({"type": "x", "data": {"subject": "s"}}).to_string();
    assert_eq!(
        post(&url, &signed("msg_8", now(), &thin, SECRET), &thin).0,
        422
    );
    let bad_to = payload("not an address");
    assert_eq!(
        post(&url, &signed("msg_9", now(), &bad_to, SECRET), &bad_to).0,
        410
    );
    let ids: Vec<String> = sink.all().iter().map(Mail::message_id).collect();
    assert_eq!(ids, vec![mid("msg_1"), mid("msg_4"), mid("msg_5")]);
    // the health check
    let health = ureq::get(&format!("{url}healthz")).call();
    assert_eq!(health.map(|r| r.status()).unwrap_or(0), 200);
}

/// With `TILEPOST_RELAY_STATE_DIR` a restart in the middle forgets nothing: after it, the
/// very same signed requests are still replays, a sent id's retry sends nothing, and what
/// was not sent before the restart is sent once after it.
#[test]
fn restart_keeps_what_was_seen() {
    let sink = SmtpSink::start();
    let clock = Arc::new(ManualClock::new(SystemClock.now_ms()));
    let dir = std::env::temp_dir().join(format!(
        "tilepost-relay-state-{}-{}",
        std::process::id(),
        clock.now_ms()
    ));
    let config = RelayConfig {
        state_dir: Some(dir.clone()),
        ..relay_config(&sink, 0)
    };
    let now = || clock.now_ms() / 1000;
    let body = payload("ann@example.com");
    let first = relay::spawn(config.clone(), clock.clone()).unwrap();
    let url = first.url();
    let sent: Vec<_> = (1..=3)
        .map(|i| {
            let h = signed(&format!("msg_{i}"), now(), &body, SECRET);
            let (st, v) = post(&url, &h, &body);
            assert_eq!((st, v["status"].as_str()), (200, Some("sent")), "{v}");
            h
        })
        .collect();
    // refused by SMTP for now: not sent, to be retried
    sink.reply_rcpt.store(451, Ordering::SeqCst);
    let refused = signed("msg_4", now(), &body, SECRET);
    assert_eq!(post(&url, &refused, &body).0, 503);
    sink.reply_rcpt.store(250, Ordering::SeqCst);
    // a second relay on the same directory does not start
    assert!(relay::spawn(config.clone(), clock.clone()).is_err());
    first.stop();

    clock.advance_ms(30_000);
    let second = relay::spawn(config.clone(), clock.clone()).expect("the relay restarts");
    let url = second.url();
    for h in sent.iter().chain([&refused]) {
        assert_eq!(post(&url, h, &body).0, 401, "a replay after the restart");
    }
    for i in 1..=3 {
        let (st, v) = post(
            &url,
            &signed(&format!("msg_{i}"), now(), &body, SECRET),
            &body,
        );
        assert_eq!(
            (st, v["status"].as_str()),
            (200, Some("already-sent")),
            "{v}"
        );
    }
    let (st, v) = post(&url, &signed("msg_4", now(), &body, SECRET), &body);
    assert_eq!((st, v["status"].as_str()), (200, Some("sent")), "{v}");
    let (st, _) = post(&url, &signed("msg_5", now(), &body, SECRET), &body);
    assert_eq!(st, 200);
    second.stop();
    let counts = sink.by_message_id();
    for i in 1..=5 {
        assert_eq!(
            counts.get(&mid(&format!("msg_{i}"))),
            Some(&1),
            "{counts:?}"
        );
    }
    assert_eq!(sink.all().len(), 5);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The locale and time zone are settings (from `Accept-Language` at sign-up, changeable
/// with `PATCH /v1/users/me`); a `pt-BR` player's turn email arrives in Portuguese, an
/// `en` player's in English.
fn portuguese_turn_email(kind: Db) {
    let sink = SmtpSink::start();
    let (app, _relay, _) = wired(kind, &sink);
    let anon = app.anon();
    let r = anon.request(
        "POST",
        "/v1/users",
        Some(
            &json!({"username": "bia", "email": "bia@example.com", "password": "correct horse"})
                .to_string(),
        ),
        &[("Accept-Language", "pt-BR,pt;q=0.9,en;q=0.5")],
    );
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(
        (r.json["locale"].as_str(), r.json["time_zone"].as_str()),
        (Some("pt-BR"), Some("UTC"))
    );
    let t = anon.post(
        "/v1/auth/token",
        json!({"username": "bia", "password": "correct horse"}),
    );
    let mut bia = Client::new(
        &app.url(),
        Some(t.ok()["access_token"].as_str().unwrap().to_string()),
    );
    bia.user_id = r.json["id"].as_str().unwrap().to_string();
    bia.name = "bia".into();
    // her address gets game emails once confirmed (the confirmation is in Portuguese too)
    let confirm = app.messages(&bia.user_id, "account.verify_email");
    assert!(confirm[0]["data"]["subject"]
        .as_str()
        .unwrap()
        .starts_with("Confirme"));
    let token = app.link_token(&bia.user_id, "account.verify_email", "token");
    anon.post("/v1/auth/verify-email", json!({"token": token}))
        .ok();
    let ann = app.user("ann");
    assert_eq!(ann.get("/v1/users/me").ok()["locale"], "en");
    // settings: validated, then changed
    let patch =
        |c: &Client, body: Value| c.request("PATCH", "/v1/users/me", Some(&body.to_string()), &[]);
    patch(&bia, json!({"time_zone": "Mars/Olympus_Mons"})).problem(400, "validation-failed");
    patch(&bia, json!({"locale": "fr"})).problem(400, "validation-failed");
    let me = patch(&bia, json!({"time_zone": "America/Sao_Paulo"}));
    assert_eq!(me.ok()["time_zone"], "America/Sao_Paulo");
    assert_eq!(me.json["locale"], "pt-BR");
    let id = start_game(
        &[&ann, &bia],
        json!({ "tile_order": ORDER, "days_per_move": 3 }),
    );
    play(&[&ann, &bia], &id, 2);
    let msgs = outbox(&app, &[&ann, &bia]);
    wait_for(&app, 0, "every email", || {
        let got = sink.by_message_id();
        msgs.iter().all(|(id, _)| got.contains_key(&mid(id)))
    });
    let all = sink.all();
    let to = |who: &str| -> Vec<Mail> {
        all.iter()
            .filter(|m| m.rcpt == vec![format!("{who}@example.com")])
            .cloned()
            .collect()
    };
    let turn = |ms: &[Mail], prefix: &str| {
        ms.iter()
            .find(|m| m.header("Subject").unwrap().starts_with(prefix))
            .cloned()
    };
    let pt = turn(&to("bia"), "Sua vez na partida").expect("bia's turn email, in Portuguese");
    let text = pt.part("text/plain").unwrap();
    assert!(
        text.contains("Olá, bia!") && text.contains("É a sua vez."),
        "{text}"
    );
    assert!(pt
        .part("text/html")
        .unwrap()
        .contains("Desde a sua última jogada"));
    assert!(to("bia")
        .iter()
        .all(|m| !m.header("Subject").unwrap().contains("Your turn")));
    assert!(
        turn(&to("ann"), "Your turn").is_some(),
        "ann's turn email, in English"
    );
    // the deadline reminder: the date in the reader's language and time zone
    let a = ann.get(&format!("/v1/games/{id}/actions")).ok().clone();
    let late = client_for(&[&ann, &bia], &a["pending"]).name.clone();
    app.clock.advance_ms(2 * 86_400_000 + 3_600_000);
    let st = &app.server.state;
    let swept = block(tilepost::sweep::sweep(
        &st.store,
        &st.config,
        &st.notifier,
        &st.replays,
        app.clock.now_ms(),
    ))
    .unwrap();
    assert_eq!(swept.reminders, 1);
    // bia got the last turn email: the pending decision, and so the reminder, is hers
    assert_eq!(late, "bia");
    let reminder_of = |m: &Mail| {
        m.rcpt == vec!["bia@example.com".to_string()]
            && m.header("Subject").unwrap()
                == format!(
                    "Sua vez na partida {} do tilepost está quase acabando",
                    &id[..8]
                )
    };
    wait_for(&app, 0, "the reminder", || {
        sink.all().iter().any(reminder_of)
    });
    let reminder = sink.all().into_iter().find(reminder_of).unwrap();
    let text = reminder.part("text/plain").unwrap();
    assert!(
        text.contains(" (America/Sao_Paulo); se você não jogar"),
        "{text}"
    );
}

#[test]
fn portuguese_turn_email_sqlite() {
    portuguese_turn_email(Db::Sqlite)
}

#[test]
fn portuguese_turn_email_postgres() {
    portuguese_turn_email(Db::Postgres)
}
