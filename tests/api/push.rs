//! Web push end to end: a push service written here (plain HTTP on 127.0.0.1, allowed
//! by `TILEPOST_PUSH_ALLOW_LOOPBACK`) receives the server's pushes, checks the VAPID
//! token (audience, expiry, ES256 signature with the key `GET /v1/push/key` gives) and
//! decrypts the payload (RFC 8291 `aes128gcm`) with the subscription's private key, made
//! here with the same RustCrypto crates a browser's keys would match. A `5xx` is
//! retried, a `410` removes the subscription; the subscriptions' API validates its
//! input, pages its list, keeps its limit and wants the `account` scope.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use p256::ecdsa::signature::Verifier as _;
use rand::RngCore;
use serde_json::{json, Value};
use tilepost::clock::Clock;

use crate::common::*;
use crate::notifications::{fast, wait_for};

/// One request the push service got.
#[derive(Clone, Debug)]
struct Pushed {
    path: String,
    headers: HashMap<String, String>,
    body: Vec<u8>,
    answered: u16,
}

/// A tiny push service: records every POST with its raw body and answers with a
/// settable status.
struct PushService {
    port: u16,
    got: Arc<Mutex<Vec<Pushed>>>,
    status: Arc<AtomicU16>,
    stop: Arc<AtomicBool>,
}

impl Drop for PushService {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

fn serve_one(
    mut s: TcpStream,
    got: &Mutex<Vec<Pushed>>,
    status: &AtomicU16,
) -> std::io::Result<()> {
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
    let mut lines = head.lines();
    let path = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or_default()
        .to_string();
    let headers: HashMap<String, String> = lines
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            Some((k.trim().to_ascii_lowercase(), v.trim().to_string()))
        })
        .collect();
    let len: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    while buf.len() < head_end + len {
        let n = s.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let answer = status.load(Ordering::SeqCst);
    got.lock().unwrap().push(Pushed {
        path,
        headers,
        body: buf[head_end..].to_vec(),
        answered: answer,
    });
    write!(
        s,
        "HTTP/1.1 {answer} X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )?;
    s.flush()
}

impl PushService {
    fn start() -> PushService {
        let l = TcpListener::bind(("127.0.0.1", 0)).expect("push service binds");
        let port = l.local_addr().unwrap().port();
        l.set_nonblocking(true).unwrap();
        let got = Arc::new(Mutex::new(Vec::new()));
        let status = Arc::new(AtomicU16::new(201));
        let stop = Arc::new(AtomicBool::new(false));
        let (g, st, sp) = (got.clone(), status.clone(), stop.clone());
        std::thread::spawn(move || {
            while !sp.load(Ordering::SeqCst) {
                match l.accept() {
                    Ok((s, _)) => {
                        let (g, st) = (g.clone(), st.clone());
                        std::thread::spawn(move || {
                            let _ = s.set_nonblocking(false);
                            let _ = serve_one(s, &g, &st);
                        });
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(2)),
                }
            }
        });
        PushService {
            port,
            got,
            status,
            stop,
        }
    }

    fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn to(&self, path: &str) -> Vec<Pushed> {
        self.got
            .lock()
            .unwrap()
            .iter()
            .filter(|p| p.path == path)
            .cloned()
            .collect()
    }
}

/// A browser's side of a subscription: its key pair and auth secret.
struct Browser {
    secret: p256::SecretKey,
    auth: [u8; 16],
}

impl Browser {
    fn new() -> Browser {
        let mut auth = [0u8; 16];
        rand::rngs::OsRng.fill_bytes(&mut auth);
        let secret = loop {
            let mut b = [0u8; 32];
            rand::rngs::OsRng.fill_bytes(&mut b);
            if let Ok(k) = p256::SecretKey::from_slice(&b) {
                break k;
            }
        };
        Browser { secret, auth }
    }

    /// What `PushSubscription.toJSON()` gives, for `endpoint`.
    fn subscription(&self, endpoint: &str) -> Value {
        use p256::elliptic_curve::sec1::ToEncodedPoint;
        let public = self.secret.public_key().to_encoded_point(false);
        json!({
            "endpoint": endpoint,
            "expirationTime": null,
            "keys": {
                "p256dh": URL_SAFE_NO_PAD.encode(public.as_bytes()),
                "auth": URL_SAFE_NO_PAD.encode(self.auth),
            },
        })
    }

    /// The payload of a push, decrypted.
    fn open(&self, p: &Pushed) -> Value {
        assert_eq!(
            p.headers.get("content-encoding").map(String::as_str),
            Some("aes128gcm")
        );
        let auth = web_push_native::Auth::clone_from_slice(&self.auth);
        let plain =
            web_push_native::decrypt(p.body.clone(), &self.secret, &auth).expect("decrypts");
        serde_json::from_slice(&plain).expect("JSON payload")
    }
}

/// Checks the VAPID `Authorization` of a push: an ES256 JWT for the service's origin,
/// expiring within 24 hours, signed by the server's key `k`, which is the one the API
/// gives.
fn check_vapid(p: &Pushed, server_key: &str, origin: &str, now_secs: i64) {
    let h = p.headers.get("authorization").expect("Authorization");
    let (t, k) = h
        .strip_prefix("vapid t=")
        .and_then(|r| r.split_once(", k="))
        .unwrap_or_else(|| panic!("vapid t=…, k=…: {h}"));
    assert_eq!(k, server_key, "the key of GET /v1/push/key");
    let parts: Vec<&str> = t.split('.').collect();
    assert_eq!(parts.len(), 3, "a JWT");
    let part = |i: usize| -> Value {
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[i]).expect("base64url")).expect("JSON")
    };
    assert_eq!(part(0)["alg"], "ES256");
    let claims = part(1);
    assert_eq!(claims["aud"], origin);
    let exp = claims["exp"].as_i64().expect("exp");
    assert!(
        exp > now_secs && exp <= now_secs + 24 * 3600,
        "expires within 24 h: {exp} vs {now_secs}"
    );
    assert!(claims["sub"].as_str().is_some_and(|s| !s.is_empty()));
    let vk = p256::ecdsa::VerifyingKey::from_sec1_bytes(
        &URL_SAFE_NO_PAD.decode(k).expect("base64url key"),
    )
    .expect("a P-256 key");
    let sig = p256::ecdsa::Signature::from_slice(&URL_SAFE_NO_PAD.decode(parts[2]).expect("b64"))
        .expect("r || s");
    vk.verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &sig)
        .expect("the signature verifies with the server's key");
}

fn subscriptions(c: &Client) -> Vec<Value> {
    c.get("/v1/users/me/push-subscriptions").ok()["subscriptions"]
        .as_array()
        .expect("a list")
        .clone()
}

/// The turn push reaches the player's device through an outage (`500`, retried), and
/// decrypts to the turn notification; a chat line is pushed to the other player; a `410`
/// removes the subscription.
fn turn_chat_and_gone(kind: Db) {
    let ps = PushService::start();
    let app = TestApp::with(kind, |c| {
        fast(c);
        c.push_allow_loopback = true;
    });
    let (ann, ben) = (app.user("ann"), app.user("ben"));
    let key = app.anon().get("/v1/push/key");
    let server_key = key.ok()["public_key"].as_str().expect("a key").to_string();
    assert_eq!(URL_SAFE_NO_PAD.decode(&server_key).expect("b64").len(), 65);
    assert_eq!(
        key.json["kinds"],
        json!([
            "your_turn",
            "deadline_near",
            "chat",
            "invitation",
            "tournament_round"
        ])
    );
    let browsers = [Browser::new(), Browser::new()];
    for (c, b) in [&ann, &ben].iter().zip(&browsers) {
        let mut s = b.subscription(&format!("{}/push/{}", ps.origin(), c.name));
        s["label"] = json!("phone");
        let r = c.post("/v1/users/me/push-subscriptions", s);
        assert_eq!(r.status, 201, "{}", r.text);
        assert_eq!(r.json["label"], "phone");
        assert_eq!(r.json["kinds"].as_array().map(Vec::len), Some(5));
        assert!(r.json.get("keys").is_none(), "keys are not shown again");
    }

    // the push service is down: 500, retried with backoff
    ps.status.store(500, Ordering::SeqCst);
    let id = start_game(&[&ann, &ben], Value::Null);
    let a = ann.get(&format!("/v1/games/{id}/actions"));
    let mover = a.ok()["pending"]["user_id"]
        .as_str()
        .expect("pending")
        .to_string();
    let (first, first_browser, other, other_browser) = if mover == ann.user_id {
        (&ann, &browsers[0], &ben, &browsers[1])
    } else {
        (&ben, &browsers[1], &ann, &browsers[0])
    };
    let path = format!("/push/{}", first.name);
    wait_for(&app, 0, "the first attempt", || !ps.to(&path).is_empty());
    ps.status.store(201, Ordering::SeqCst);
    wait_for(&app, 1_000, "the retry after the 500", || {
        ps.to(&path).iter().any(|p| p.answered == 201)
    });
    let got = ps.to(&path);
    assert_eq!(got[0].answered, 500);
    let p = got.iter().find(|p| p.answered == 201).expect("delivered");
    check_vapid(p, &server_key, &ps.origin(), app.clock.now_ms() / 1000);
    assert!(p
        .headers
        .get("ttl")
        .is_some_and(|t| t.parse::<u64>().is_ok()));
    assert_eq!(p.headers.get("urgency").map(String::as_str), Some("normal"));
    let n = first_browser.open(p);
    let short = &id[..8];
    assert_eq!(n["title"], format!("Your turn in tilepost game {short}"));
    assert_eq!(n["body"], "It is your turn. Tap to play.");
    assert_eq!(n["url"], format!("http://tilepost.test/play/games/{id}"));
    assert_eq!(n["kind"], "your_turn");
    let mut fields: Vec<&String> = n.as_object().expect("an object").keys().collect();
    fields.sort();
    assert_eq!(fields, ["body", "kind", "tag", "title", "url"]);
    // only what the notification shows: no address, no tile, no board
    let text = n.to_string();
    for hidden in [
        "example.com",
        "drew",
        "board",
        "seed",
        "token",
        "unsubscribe",
    ] {
        assert!(!text.contains(hidden), "{hidden} in {text}");
    }
    // the same message went once more only (the retry), not to the other player
    assert_eq!(
        ps.to(&format!("/push/{}", other.name)).len(),
        0,
        "no turn push to the player who waits"
    );

    // a chat line is pushed to the other player, with who wrote it
    let r = first.post(
        &format!("/v1/games/{id}/chat"),
        json!({"text": "good luck"}),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    let opath = format!("/push/{}", other.name);
    wait_for(&app, 0, "the chat push", || !ps.to(&opath).is_empty());
    let c = other_browser.open(&ps.to(&opath)[0]);
    assert_eq!(c["kind"], "chat");
    assert_eq!(c["body"], format!("{}: good luck", first.name));
    assert_eq!(c["url"], format!("http://tilepost.test/play/games/{id}"));
    assert!(ps.to(&path).iter().filter(|p| p.answered == 201).count() == 1);

    // the service forgot the other's subscription: 410 removes it
    assert_eq!(subscriptions(other).len(), 1);
    ps.status.store(410, Ordering::SeqCst);
    first
        .post(
            &format!("/v1/games/{id}/chat"),
            json!({"text": "still there?"}),
        )
        .ok();
    wait_for(&app, 0, "the subscription removed after 410", || {
        subscriptions(other).is_empty()
    });
    assert_eq!(ps.to(&opath).len(), 2);
    // nothing more is pushed to it
    ps.status.store(201, Ordering::SeqCst);
    first
        .post(&format!("/v1/games/{id}/chat"), json!({"text": "hello?"}))
        .ok();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(ps.to(&opath).len(), 2);
    assert_eq!(subscriptions(first).len(), 1);
}

/// The subscriptions' API: https only (http on loopback only with the switch), keys
/// of the right lengths on the curve, known kinds; a page at a time; per-kind switches
/// and deletion; at most 10 a user (`409`); the `account` scope.
fn subscriptions_api(kind: Db) {
    let app = TestApp::with(kind, |c| {
        c.push_subscriptions_per_day = 1000;
    });
    let ann = app.user("ann");
    let b = Browser::new();
    let post = |s: Value| ann.post("/v1/users/me/push-subscriptions", s);
    // plain http is refused (the loopback switch is off here), and so are internal
    // literals over https
    post(b.subscription("http://127.0.0.1:9/push")).problem(400, "validation-failed");
    post(b.subscription("http://push.example.net/x")).problem(400, "validation-failed");
    post(b.subscription("https://10.0.0.1/x")).problem(400, "validation-failed");
    let mut bad = b.subscription("https://push.example.net/a");
    bad["keys"]["auth"] = json!(URL_SAFE_NO_PAD.encode([0u8; 15]));
    post(bad).problem(400, "validation-failed");
    let mut bad = b.subscription("https://push.example.net/a");
    bad["keys"]["p256dh"] = json!(URL_SAFE_NO_PAD.encode([4u8; 65]));
    post(bad).problem(400, "validation-failed");
    let mut bad = b.subscription("https://push.example.net/a");
    bad["kinds"] = json!(["tournament_rounds"]);
    post(bad).problem(400, "validation-failed");
    let mut bad = b.subscription("https://push.example.net/a");
    bad["extra"] = json!(1);
    post(bad).problem(400, "validation-failed");

    let mut ids = Vec::new();
    for i in 0..10 {
        let mut s = b.subscription(&format!("https://push.example.net/{i}"));
        s["kinds"] = json!(["invitation", "your_turn"]);
        let r = post(s);
        assert_eq!(r.status, 201, "{}", r.text);
        assert_eq!(r.json["kinds"], json!(["your_turn", "invitation"]));
        assert_eq!(r.json["label"], "browser");
        ids.push(r.json["id"].as_str().unwrap().to_string());
    }
    post(b.subscription("https://push.example.net/10"))
        .problem(409, "push-subscription-limit-reached");
    // the same endpoint again replaces its subscription (the limit still holds)
    let again = post(b.subscription("https://push.example.net/3"));
    assert_eq!(again.status, 201, "{}", again.text);
    assert_eq!(subscriptions(&ann).len(), 10);

    // paged, newest first
    let p1 = ann.get("/v1/users/me/push-subscriptions?limit=4");
    let cursor = p1.ok()["next_cursor"].as_str().expect("more").to_string();
    assert_eq!(p1.json["subscriptions"].as_array().unwrap().len(), 4);
    let p2 = ann.get(&format!(
        "/v1/users/me/push-subscriptions?limit=200&cursor={cursor}"
    ));
    assert_eq!(p2.ok()["subscriptions"].as_array().unwrap().len(), 6);
    assert!(p2.json["next_cursor"].is_null());
    ann.get("/v1/users/me/push-subscriptions?cursor=bad")
        .problem(400, "validation-failed");

    // per-kind switches and the label
    let id = &ids[0];
    let r = ann.request(
        "PATCH",
        &format!("/v1/users/me/push-subscriptions/{id}"),
        Some(&json!({"kinds": ["chat"], "label": "tablet"}).to_string()),
        &[("content-type", "application/json")],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["kinds"], json!(["chat"]));
    assert_eq!(r.json["label"], "tablet");
    let d = ann.request(
        "DELETE",
        &format!("/v1/users/me/push-subscriptions/{id}"),
        None,
        &[],
    );
    assert_eq!(d.status, 204);
    ann.request(
        "DELETE",
        &format!("/v1/users/me/push-subscriptions/{id}"),
        None,
        &[],
    )
    .problem(404, "push-subscription-not-found");
    // another user cannot see or delete them
    let ben = app.user("ben");
    assert!(subscriptions(&ben).is_empty());
    ben.request(
        "DELETE",
        &format!("/v1/users/me/push-subscriptions/{}", ids[1]),
        None,
        &[],
    )
    .problem(404, "push-subscription-not-found");

    // a personal token without `account` is refused
    let t = ann.post(
        "/v1/users/me/tokens",
        json!({"name": "bot", "scopes": ["game:read"]}),
    );
    assert_eq!(t.status, 201, "{}", t.text);
    let bot = Client::new(
        &app.url(),
        Some(t.json["token"].as_str().expect("secret").to_string()),
    );
    bot.get("/v1/users/me/push-subscriptions")
        .problem(403, "insufficient-scope");
    bot.post(
        "/v1/users/me/push-subscriptions",
        b.subscription("https://push.example.net/x"),
    )
    .problem(403, "insufficient-scope");
    // and the key needs no token at all
    assert_eq!(app.anon().get("/v1/push/key").status, 200);
}

each_db!(turn_chat_and_gone, subscriptions_api);
