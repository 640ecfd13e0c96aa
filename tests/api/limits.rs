//! Abuse limits on logins and sign-ups: counted in the database per account and per
//! client address, so they hold across server processes; `429` with `Retry-After`; the
//! right password works again after the window (driven by the injectable clock).

use serde_json::json;

use crate::common::*;

fn login(c: &Client, name: &str, password: &str) -> Resp {
    c.post(
        "/v1/auth/token",
        json!({"username": name, "password": password}),
    )
}

fn login_from(c: &Client, name: &str, password: &str, from: &str) -> Resp {
    c.post_with(
        "/v1/auth/token",
        json!({"username": name, "password": password}),
        &[("X-Forwarded-For", from)],
    )
}

/// Asserts `429 rate-limited` with a `Retry-After` of at most `max_secs`; returns it.
#[track_caller]
fn limited(r: &Resp, max_secs: i64) -> i64 {
    r.problem(429, "rate-limited");
    let secs: i64 = r
        .header("retry-after")
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no Retry-After: {:?}", r.headers));
    assert!((1..=max_secs).contains(&secs), "Retry-After {secs}");
    secs
}

/// 20 wrong passwords: the first ten are `401`, the rest `429`, and so is the right
/// password while the limit holds; after the window it works again.
fn twenty_wrong_passwords_get_429_until_the_window_passes(app: &TestApp) {
    app.user("ann");
    let anon = app.anon();
    let mut codes = Vec::new();
    for i in 0..20 {
        let r = login(&anon, "ann", &format!("wrong {i}"));
        if r.status == 429 {
            limited(&r, 900);
        } else {
            r.problem(401, "invalid-credentials");
        }
        codes.push(r.status);
    }
    assert_eq!(&codes[..10], &[401; 10]);
    assert_eq!(&codes[10..], &[429; 10]);
    // the right password too, in any case of the username
    let secs = limited(&login(&anon, "ANN", "correct horse"), 900);
    // an unknown account is limited the same way (the answer tells nothing about it)
    for i in 0..10 {
        login(&anon, "nobody", &format!("wrong {i}")).problem(401, "invalid-credentials");
    }
    limited(&login(&anon, "nobody", "wrong"), 900);
    // after the window
    app.clock.advance_ms(secs * 1000);
    let ok = login(&anon, "ann", "correct horse");
    assert_eq!(ok.status, 200, "{}", ok.text);
    // and a success clears the account's failures
    for i in 0..9 {
        login(&anon, "ann", &format!("again {i}")).problem(401, "invalid-credentials");
    }
    assert_eq!(login(&anon, "ann", "correct horse").status, 200);
}

/// The same when the attempts alternate between two server processes on one database.
fn the_login_limit_holds_across_two_servers(app: &TestApp) {
    app.user("ann");
    let other = tilepost::startup::spawn(test_config(&app.db.url), app.clock.clone())
        .expect("second server");
    let one = app.anon();
    let two = Client::new(&other.url(), None);
    let mut codes = Vec::new();
    for i in 0..20 {
        let c = if i % 2 == 0 { &one } else { &two };
        let r = login(c, "ann", &format!("wrong {i}"));
        if r.status == 429 {
            limited(&r, 900);
        }
        codes.push(r.status);
    }
    assert_eq!(&codes[..10], &[401; 10], "{codes:?}");
    assert_eq!(&codes[10..], &[429; 10], "{codes:?}");
    let secs = limited(&login(&two, "ann", "correct horse"), 900);
    app.clock.advance_ms(secs * 1000);
    assert_eq!(login(&two, "ann", "correct horse").status, 200);
    assert_eq!(login(&one, "ann", "correct horse").status, 200);
    drop(other);
}

/// Failed logins are also counted per client address, across accounts; the address comes
/// from `X-Forwarded-For` only when the peer is a configured proxy.
fn failed_logins_per_address_behind_a_trusted_proxy(kind: Db) {
    let app = TestApp::with(kind, |c| {
        c.login_failures_per_address = 5;
        c.trusted_proxies = vec!["127.0.0.1".parse().expect("ip")];
    });
    app.user("ann");
    let anon = app.anon();
    for i in 0..5 {
        login_from(&anon, &format!("user{i}"), "wrong", "198.51.100.7")
            .problem(401, "invalid-credentials");
    }
    limited(&login_from(&anon, "user9", "wrong", "198.51.100.7"), 900);
    limited(
        &login_from(&anon, "ann", "correct horse", "198.51.100.7"),
        900,
    );
    // another client behind the same proxy is not limited
    let ok = login_from(&anon, "ann", "correct horse", "198.51.100.8");
    assert_eq!(ok.status, 200, "{}", ok.text);
    // what the client wrote before the proxy's hop is not believed
    limited(
        &login_from(&anon, "ann", "correct horse", "203.0.113.1, 198.51.100.7"),
        900,
    );

    // without a trusted proxy the header changes nothing: the socket's address counts
    let plain = TestApp::with(kind, |c| c.login_failures_per_address = 3);
    let anon = plain.anon();
    for i in 0..3 {
        login_from(&anon, &format!("user{i}"), "wrong", &format!("192.0.2.{i}"))
            .problem(401, "invalid-credentials");
    }
    limited(&login_from(&anon, "user7", "wrong", "192.0.2.77"), 900);
}

/// Sign-ups are limited per client address.
fn sign_ups_per_address(kind: Db) {
    let app = TestApp::with(kind, |c| {
        c.signups_per_address = 3;
        c.signup_window_secs = 3600;
    });
    let anon = app.anon();
    let sign_up = |name: &str| {
        anon.post(
            "/v1/users",
            json!({"username": name, "email": format!("{name}@example.com"), "password": "correct horse"}),
        )
    };
    for name in ["ann", "ben", "cat"] {
        assert_eq!(sign_up(name).status, 201);
    }
    let secs = limited(&sign_up("dan"), 3600);
    app.clock.advance_ms(secs * 1000);
    assert_eq!(sign_up("dan").status, 201);
}

/// Per-user write quotas, counted from the rows written (so they hold across processes):
/// `RateLimit-*` on every answer, `429` when none is left, free again after the window.
fn games_and_chat_per_user(kind: Db) {
    let app = TestApp::with(kind, |c| {
        c.games_per_hour = 3;
        c.chat_per_minute = 2;
        // the tokens outlive the hour the test waits
        c.token_ttl_secs = 86_400;
    });
    let ann = app.user("ann");
    let ben = app.user("ben");
    let other = tilepost::startup::spawn(
        {
            let mut c = test_config(&app.db.url);
            c.games_per_hour = 3;
            c.chat_per_minute = 2;
            c.token_ttl_secs = 86_400;
            c
        },
        app.clock.clone(),
    )
    .expect("second server");
    let ann2 = Client::new(&other.url(), ann.token.clone());
    let mut ids = Vec::new();
    for (i, c) in [&ann, &ann2, &ann].into_iter().enumerate() {
        let g = c.post("/v1/games", json!({"seats": 2}));
        assert_eq!(g.status, 201, "{}", g.text);
        assert_eq!(g.header("ratelimit-limit"), Some("3"));
        assert_eq!(
            g.header("ratelimit-remaining"),
            Some((2 - i).to_string().as_str())
        );
        ids.push(g.json["id"].as_str().unwrap_or_default().to_string());
    }
    let r = ann2.post("/v1/games", json!({"seats": 2}));
    let secs = limited(&r, 3600);
    assert_eq!(r.header("ratelimit-remaining"), Some("0"));
    assert_eq!(r.header("ratelimit-limit"), Some("3"));
    // another user is not limited by ann's games
    assert_eq!(ben.post("/v1/games", json!({"seats": 2})).status, 201);
    app.clock.advance_ms(secs * 1000);
    assert_eq!(ann.post("/v1/games", json!({"seats": 2})).status, 201);

    // chat: two a minute over all games
    let id = &ids[0];
    ben.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    for c in [&ann, &ann2] {
        let r = c.post(&format!("/v1/games/{id}/chat"), json!({"text": "hi"}));
        assert_eq!(r.status, 201, "{}", r.text);
        assert!(r.header("ratelimit-reset").is_some());
    }
    let r = ann.post(&format!("/v1/games/{id}/chat"), json!({"text": "hi"}));
    let secs = limited(&r, 60);
    assert_eq!(
        ben.post(&format!("/v1/games/{id}/chat"), json!({"text": "hi"}))
            .status,
        201
    );
    app.clock.advance_ms(secs * 1000);
    assert_eq!(
        ann.post(&format!("/v1/games/{id}/chat"), json!({"text": "hi"}))
            .status,
        201
    );
    drop(other);
}

/// Invitations (each an email) per game and per inviter, per day.
fn invitations_per_game_and_day(kind: Db) {
    let app = TestApp::with(kind, |c| {
        c.invitations_per_game = 2;
        c.invitations_per_day = 3;
        c.token_ttl_secs = 3 * 86_400;
    });
    let ann = app.user("ann");
    app.user("ben");
    let open = |seats: u32| {
        let g = ann.post("/v1/games", json!({"seats": seats}));
        g.json["id"].as_str().unwrap_or_default().to_string()
    };
    let invite = |id: &str| {
        ann.post(
            &format!("/v1/games/{id}/invitations"),
            json!({"username": "ben"}),
        )
    };
    let one = open(3);
    let r = invite(&one);
    assert_eq!(r.status, 202, "{}", r.text);
    assert_eq!(r.header("ratelimit-remaining"), Some("1"));
    assert_eq!(invite(&one).status, 202);
    let r = invite(&one);
    limited(&r, 86_400);
    assert_eq!(r.header("ratelimit-limit"), Some("2"));
    let two = open(3);
    assert_eq!(invite(&two).status, 202);
    let r = invite(&two);
    let secs = limited(&r, 86_400);
    assert_eq!(r.header("ratelimit-limit"), Some("3"));
    app.clock.advance_ms(secs * 1000);
    assert_eq!(invite(&two).status, 202);
}

mod per_db {
    use super::*;
    #[test]
    fn failed_logins_per_address_sqlite() {
        failed_logins_per_address_behind_a_trusted_proxy(Db::Sqlite);
    }
    #[test]
    fn failed_logins_per_address_postgres() {
        failed_logins_per_address_behind_a_trusted_proxy(Db::Postgres);
    }
    #[test]
    fn games_and_chat_per_user_sqlite() {
        games_and_chat_per_user(Db::Sqlite);
    }
    #[test]
    fn games_and_chat_per_user_postgres() {
        games_and_chat_per_user(Db::Postgres);
    }
    #[test]
    fn invitations_sqlite() {
        invitations_per_game_and_day(Db::Sqlite);
    }
    #[test]
    fn invitations_postgres() {
        invitations_per_game_and_day(Db::Postgres);
    }
    #[test]
    fn sign_ups_per_address_sqlite() {
        sign_ups_per_address(Db::Sqlite);
    }
    #[test]
    fn sign_ups_per_address_postgres() {
        sign_ups_per_address(Db::Postgres);
    }
}

crate::both!(
    twenty_wrong_passwords_get_429_until_the_window_passes,
    the_login_limit_holds_across_two_servers,
);
