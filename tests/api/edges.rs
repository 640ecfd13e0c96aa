//! The edges of the API: hardening headers on every answer, `no-store` on personal
//! answers, CORS for configured origins only, NUL and trailing bytes refused, tokens of
//! users that no longer exist refused everywhere, usernames unique regardless of case,
//! and slow request heads and bodies cut off.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tilepost::clock::Clock;

use crate::common::*;

fn assert_hardened(r: &Resp, what: &str) {
    assert_eq!(
        r.header("x-content-type-options"),
        Some("nosniff"),
        "{what}"
    );
    let csp = r.header("content-security-policy").unwrap_or("");
    assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
    assert_eq!(r.header("referrer-policy"), Some("no-referrer"), "{what}");
}

fn headers_on_every_answer(app: &TestApp) {
    let ann = app.user("ann");
    let ben = app.user("ben");
    let id = start_game(&[&ann, &ben], Value::Null);
    let anon = app.anon();
    for path in [
        "/healthz".to_string(),
        "/openapi.json".to_string(),
        "/v1/games".to_string(),
        format!("/v1/games/{id}"),
        format!("/v1/games/{id}/board.svg"),
        format!("/v1/games/{id}/board.png"),
        "/v1/tiles/base/D.svg".to_string(),
        "/v1/nothing-here".to_string(),
        "/docs/".to_string(),
    ] {
        let r = anon.get(&path);
        assert!(r.status < 500, "{path}: {}", r.status);
        assert_hardened(&r, &path);
        assert_ne!(
            r.header("cache-control"),
            Some("no-store"),
            "{path} is public"
        );
    }
    // Swagger UI still loads (the frame policy restricts no script)
    let docs = anon.get("/docs/");
    assert_eq!(docs.status, 200);
    assert!(docs.text.contains("swagger"), "{}", docs.text);
    // the web client keeps its own strict policy
    let play = anon.get("/play");
    assert_eq!(play.status, 200);
    assert_hardened(&play, "/play");
    let csp = play.header("content-security-policy").unwrap_or("");
    assert!(csp.contains("script-src 'self'"), "{csp}");
    // a method not allowed, a problem
    let r = anon.request("PUT", "/v1/games", Some("{}"), &[]);
    r.problem(405, "method-not-allowed");
    assert_hardened(&r, "405");
}

fn personal_answers_are_not_stored(app: &TestApp) {
    let anon = app.anon();
    let r = anon.post(
        "/v1/users",
        json!({"username": "ann", "email": "ann@example.com", "password": "correct horse"}),
    );
    assert_eq!(r.status, 201);
    assert_eq!(r.header("cache-control"), Some("no-store"));
    let t = anon.post(
        "/v1/auth/token",
        json!({"username": "ann", "password": "correct horse"}),
    );
    assert_eq!(t.header("cache-control"), Some("no-store"));
    let ann = anon.with_token(t.json["access_token"].as_str().unwrap_or_default());
    for r in [
        ann.get("/v1/users/me"),
        ann.request("PATCH", "/v1/users/me", Some("{}"), &[]),
        ann.get("/v1/users/me/notifications"),
        ann.get("/v1/users/me/webhooks"),
        anon.get("/v1/users/me"),
    ] {
        assert!(r.status == 200 || r.status == 401, "{}", r.text);
        assert_eq!(r.header("cache-control"), Some("no-store"), "{}", r.text);
        assert_hardened(&r, "personal");
    }
}

fn preflight(c: &Client, origin: &str) -> Resp {
    c.request(
        "OPTIONS",
        "/v1/games",
        None,
        &[
            ("Origin", origin),
            ("Access-Control-Request-Method", "POST"),
            (
                "Access-Control-Request-Headers",
                "authorization, content-type",
            ),
        ],
    )
}

fn cors_from_an_allowed_and_a_refused_origin(kind: Db) {
    let app = TestApp::with(kind, |c| {
        c.cors_origins = vec!["https://friend.example".into()]
    });
    let anon = app.anon();
    let ok = preflight(&anon, "https://friend.example");
    assert_eq!(ok.status, 200, "{}", ok.text);
    assert_eq!(
        ok.header("access-control-allow-origin"),
        Some("https://friend.example")
    );
    let methods = ok.header("access-control-allow-methods").unwrap_or("");
    assert!(methods.contains("POST"), "{methods}");
    let allowed_headers = ok
        .header("access-control-allow-headers")
        .unwrap_or("")
        .to_ascii_lowercase();
    assert!(
        allowed_headers.contains("authorization"),
        "{allowed_headers}"
    );
    let no = preflight(&anon, "https://stranger.example");
    no.problem(403, "origin-not-allowed");
    assert_eq!(no.header("access-control-allow-origin"), None);
    // actual requests: the allowed origin may read the answer, another may not
    let r = anon.request(
        "GET",
        "/v1/games",
        None,
        &[("Origin", "https://friend.example")],
    );
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("https://friend.example")
    );
    let r = anon.request(
        "GET",
        "/v1/games",
        None,
        &[("Origin", "https://stranger.example")],
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), None);

    // by default no origin is allowed
    let plain = TestApp::new(kind);
    preflight(&plain.anon(), "https://friend.example").problem(403, "origin-not-allowed");
}

fn nul_bytes_are_refused(app: &TestApp) {
    let anon = app.anon();
    let r = anon.request(
        "POST",
        "/v1/users",
        Some(r#"{"username":"a\u0000b","email":"a@example.com","password":"correct horse"}"#),
        &[],
    );
    r.problem(400, "validation-failed");
    let r = anon.request(
        "POST",
        "/v1/auth/token",
        Some(r#"{"username":"ann\u0000","password":"correct horse"}"#),
        &[],
    );
    r.problem(400, "validation-failed");
    let ann = app.user("ann");
    let ben = app.user("ben");
    let id = start_game(&[&ann, &ben], Value::Null);
    for path in [
        "/v1/games/a%00b".to_string(),
        "/v1/games/a%00b/events".to_string(),
        "/v1/games?player=ann%00".to_string(),
        format!("/v1/games/{id}/events?after=%00"),
        "/v1/users/me/webhooks/x%00/deliveries".to_string(),
    ] {
        ann.get(&path).problem(400, "validation-failed");
    }
    ann.request("DELETE", "/v1/users/me/webhooks/x%00", None, &[])
        .problem(400, "validation-failed");
    let open = ann.post("/v1/games", json!({"seats": 3}));
    let open_id = open.json["id"].as_str().unwrap_or_default().to_string();
    ann.request(
        "POST",
        &format!("/v1/games/{open_id}/invitations"),
        Some(r#"{"username":"ben\u0000"}"#),
        &[],
    )
    .problem(400, "validation-failed");
    ann.request(
        "POST",
        &format!("/v1/games/{id}/chat"),
        Some(r#"{"text":"hi \u0000 there"}"#),
        &[],
    )
    .problem(400, "validation-failed");
    // an escaped backslash followed by `u0000` is no NUL
    let r = ann.request(
        "POST",
        &format!("/v1/games/{id}/chat"),
        Some(r#"{"text":"C:\\u0000"}"#),
        &[],
    );
    assert_eq!(r.status, 201, "{}", r.text);
}

fn trailing_bytes_are_refused(app: &TestApp) {
    let anon = app.anon();
    let body = r#"{"username":"ann","email":"ann@example.com","password":"correct horse"}"#;
    for extra in [" x", "{}", "}", " 1", ",", "\u{0}"] {
        let r = anon.request("POST", "/v1/users", Some(&format!("{body}{extra}")), &[]);
        r.problem(400, "validation-failed");
    }
    let r = anon.request("POST", "/v1/users", Some(&format!("{body} \n\t")), &[]);
    assert_eq!(r.status, 201, "trailing white space is fine: {}", r.text);
}

fn token_of_a_missing_user_is_401_everywhere(app: &TestApp) {
    let ann = app.user("ann");
    let ben = app.user("ben");
    let id = start_game(&[&ann, &ben], Value::Null);
    let auth =
        tilepost::api::auth::Auth::new(JWT_SECRET.as_bytes(), 3600, 64, 1, 1, 1).expect("auth");
    // a validly signed token of a user that does not exist, naming a live session (ann's)
    let sid = {
        use base64::Engine as _;
        let payload = ann.token.as_deref().and_then(|t| t.split('.').nth(1));
        let claims: Value = serde_json::from_slice(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(payload.expect("a JWT"))
                .expect("base64url"),
        )
        .expect("claims");
        claims["sid"].as_str().expect("a session id").to_string()
    };
    let ghost = ann.with_token(
        &auth
            .issue(
                "00000000-0000-0000-0000-000000000000",
                &sid,
                app.clock.now_ms(),
            )
            .expect("token"),
    );
    let bodies: &[(&str, Value)] = &[
        ("create_game", json!({"seats": 2})),
        ("create_seek", json!({"seats": 2})),
        ("update_me", json!({"locale": "en"})),
        (
            "change_password",
            json!({"current_password": "correct horse", "new_password": "a new password"}),
        ),
        (
            "change_email",
            json!({"email": "ghost@example.com", "password": "correct horse"}),
        ),
        ("delete_me", json!({"password": "correct horse"})),
        ("start_vacation", json!({})),
        ("update_my_orders", json!({"freed_wagon": "supply"})),
        ("update_game_orders", json!({"freed_wagon": "supply"})),
        ("set_plans", json!({"plans": []})),
        ("update_notification_settings", json!({"email": {}})),
        (
            "create_webhook",
            json!({"url": "https://example.com/hook", "event_types": ["game.finished"]}),
        ),
        ("post_chat", json!({"text": "boo"})),
        (
            "submit_move",
            json!({"expected_version": 1, "actions": [{"type": "pass"}]}),
        ),
        ("create_invitation", json!({"username": "ben"})),
        ("create_unsubscribe", json!({"token": "x"})),
        (
            "create_personal_token",
            json!({"name": "bot", "scopes": ["game:read"]}),
        ),
        (
            "create_push_subscription",
            json!({"endpoint": "https://push.example/x", "keys": {"p256dh": "x", "auth": "x"}}),
        ),
        ("update_push_subscription", json!({"label": "phone"})),
        ("undo_decision", json!({})),
        (
            "create_tournament",
            json!({"name": "open", "stages": [{"format": "swiss", "rounds": 3}]}),
        ),
        ("add_tournament_bot", json!({"level": "random"})),
        ("invite_to_tournament", json!({"username": "x"})),
        ("pause_tournament", json!({"reason": "x"})),
        (
            "adjust_tournament",
            json!({"kind": "points", "player": "x", "points": 1, "reason": "x"}),
        ),
    ];
    let doc = tilepost::api::openapi_value();
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for (method, op) in item.as_object().into_iter().flatten() {
            // the operations that need a token (the public reads ignore one, except
            // the list, checked below)
            let secured = op["security"]
                .as_array()
                .is_some_and(|s| s.iter().all(|r| r.get("bearer").is_some()));
            if !secured {
                continue;
            }
            let url = path
                .replace("{id}", &id)
                .replace("{delivery_id}", "00000000-0000-0000-0000-000000000000")
                .replace("{set}", "base")
                .replace("{name}", "D");
            let name = op["operationId"].as_str().unwrap_or_default();
            let body = if op.get("requestBody").is_some() {
                let b = bodies
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, b)| b.to_string())
                    .unwrap_or_else(|| panic!("no sample body for {name}"));
                Some(b)
            } else {
                None
            };
            let r = ghost.request(&method.to_ascii_uppercase(), &url, body.as_deref(), &[]);
            assert_eq!(r.status, 401, "{method} {url}: {}", r.text);
            r.problem(401, "unauthorized");
            checked += 1;
        }
    }
    assert!(checked >= 24, "only {checked} operations need a token?");
    ghost
        .get("/v1/games?player=me")
        .problem(401, "unauthorized");
    ghost.get("/v1/games").problem(401, "unauthorized");
}

fn usernames_are_unique_regardless_of_case(app: &TestApp) {
    let ann = app.user("ann");
    let _ben = app.user("ben");
    let anon = app.anon();
    for name in ["ANN", "Ann", "aNn"] {
        anon.post(
            "/v1/users",
            json!({"username": name, "email": "x@example.com", "password": "correct horse"}),
        )
        .problem(409, "username-taken");
    }
    // log in with any case: the one account
    let t = anon.post(
        "/v1/auth/token",
        json!({"username": "ANN", "password": "correct horse"}),
    );
    assert_eq!(t.status, 200, "{}", t.text);
    let me = anon
        .with_token(t.json["access_token"].as_str().unwrap_or_default())
        .get("/v1/users/me");
    assert_eq!(me.json["id"].as_str(), Some(ann.user_id.as_str()));
    assert_eq!(me.json["username"], "ann");
    // invitations and the player filter find the user whatever the case
    let g = ann.post("/v1/games", json!({"seats": 3, "invite": ["BEN"]}));
    assert_eq!(g.status, 201, "{}", g.text);
    let list = anon.get("/v1/games?player=ANN");
    assert_eq!(list.ok()["games"].as_array().map(|g| g.len()), Some(1));
}

/// Sends `head`, then `trickle` one byte at a time every 200 ms; returns the answer (when
/// one came before the server closed) and when it started to come.
fn trickle(url: &str, head: &str, trickle: &str) -> (Option<Resp>, Duration) {
    let addr = url.trim_start_matches("http://");
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_millis(200))).ok();
    let started = Instant::now();
    s.write_all(head.as_bytes()).expect("head");
    let mut got = Vec::new();
    let mut bytes = trickle.bytes();
    while started.elapsed() < Duration::from_secs(20) {
        let mut buf = [0u8; 1024];
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                got.extend_from_slice(&buf[..n]);
                break;
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => break,
        }
        let b = bytes.next().unwrap_or(b' ');
        if s.write_all(&[b]).is_err() {
            break;
        }
    }
    let took = started.elapsed();
    if got.is_empty() {
        return (None, took);
    }
    // the rest of the answer
    s.set_read_timeout(Some(Duration::from_secs(2))).ok();
    let mut rest = Vec::new();
    let _ = s.read_to_end(&mut rest);
    got.extend_from_slice(&rest);
    let text = String::from_utf8_lossy(&got).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let resp = Resp {
        status,
        headers,
        text: body.to_string(),
        json: serde_json::from_str(body).unwrap_or(Value::Null),
    };
    (Some(resp), took)
}

fn slow_heads_and_bodies_are_cut_off(kind: Db) {
    let app = TestApp::with(kind, |c| {
        c.header_timeout_ms = 1000;
        c.body_timeout_ms = 1000;
    });
    // a body that trickles in gets 408 at its deadline
    let (resp, took) = trickle(
        &app.url(),
        "POST /v1/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\nConnection: close\r\n\r\n{",
        &" ".repeat(500),
    );
    resp.expect("an answer").problem(408, "request-timeout");
    assert!(took < Duration::from_secs(5), "{took:?}");
    // a head that trickles in is cut off too (actix answers 408 or closes)
    let (resp, took) = trickle(
        &app.url(),
        "GET /healthz HTTP/1.1\r\nHost: x\r\n",
        &"X-Slow: a\r\n".repeat(100),
    );
    assert!(resp.as_ref().is_none_or(|r| r.status == 408), "{resp:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");
    // the server still answers
    assert_eq!(app.anon().get("/healthz").status, 200);
}

mod per_db {
    use super::*;
    #[test]
    fn cors_sqlite() {
        cors_from_an_allowed_and_a_refused_origin(Db::Sqlite);
    }
    #[test]
    fn cors_postgres() {
        cors_from_an_allowed_and_a_refused_origin(Db::Postgres);
    }
    #[test]
    fn slow_requests_sqlite() {
        slow_heads_and_bodies_are_cut_off(Db::Sqlite);
    }
    #[test]
    fn slow_requests_postgres() {
        slow_heads_and_bodies_are_cut_off(Db::Postgres);
    }
}

crate::both!(
    headers_on_every_answer,
    personal_answers_are_not_stored,
    nul_bytes_are_refused,
    trailing_bytes_are_refused,
    token_of_a_missing_user_is_401_everywhere,
    usernames_are_unique_regardless_of_case,
);
