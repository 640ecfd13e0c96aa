//! Trust under concurrency: every database-counted limit judges requests released
//! together exactly as if they came one by one (also split between two server
//! processes), a refused login costs no password hash, credentials die with the
//! password, every operation's scope is enforced as documented, resignations are never
//! stale, and deleted names stay retired.

use std::collections::BTreeMap;
use std::sync::Barrier;

use serde_json::{json, Value};

use crate::common::*;

/// Runs `n` requests released together (each on its own thread, after a barrier) and
/// returns their answers in order.
pub(crate) fn together(n: usize, f: impl Fn(usize) -> Resp + Sync) -> Vec<Resp> {
    let barrier = Barrier::new(n);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|i| {
                let (barrier, f) = (&barrier, &f);
                s.spawn(move || {
                    barrier.wait();
                    f(i)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("request thread"))
            .collect()
    })
}

/// How many answers had each status.
fn statuses(rs: &[Resp]) -> BTreeMap<u16, usize> {
    let mut out = BTreeMap::new();
    for r in rs {
        *out.entry(r.status).or_insert(0) += 1;
    }
    out
}

/// Every answer is `ok` or `429 rate-limited` with a `Retry-After`; returns how many were
/// `ok`.
#[track_caller]
fn judged(rs: &[Resp], ok: u16) -> usize {
    for r in rs {
        if r.status == 429 {
            r.problem(429, "rate-limited");
            assert!(r.header("retry-after").is_some(), "{:?}", r.headers);
        } else {
            assert_eq!(r.status, ok, "{}", r.text);
        }
    }
    rs.iter().filter(|r| r.status == ok).count()
}

fn hashes(servers: &[&tilepost::startup::Running]) -> u64 {
    servers.iter().map(|s| s.state.auth.hashes_computed()).sum()
}

/// A second server process on the same database and clock.
fn second(
    app: &TestApp,
    tweak: impl FnOnce(&mut tilepost::config::Config),
) -> tilepost::startup::Running {
    let mut c = test_config(&app.db.url);
    tweak(&mut c);
    tilepost::startup::spawn(c, app.clock.clone()).expect("second server")
}

/// 150 wrong passwords at one account released together, half of them through a second
/// server: exactly 10 are judged (`401`), the rest get `429`, and only 10 password
/// hashes are computed in both processes together.
fn a_burst_of_wrong_passwords_is_judged_ten_times(kind: Db) {
    let app = TestApp::new(kind);
    app.user("ann");
    let other = second(&app, |_| {});
    let bases = [app.url(), other.url()];
    let before = hashes(&[&app.server, &other]);
    let rs = together(150, |i| {
        Client::new(&bases[i % 2], None).post(
            "/v1/auth/token",
            json!({"username": if i.is_multiple_of(3) { "ANN" } else { "ann" }, "password": format!("wrong {i}")}),
        )
    });
    let counts = statuses(&rs);
    assert_eq!(judged(&rs, 401), 10, "{counts:?}");
    for r in rs.iter().filter(|r| r.status == 401) {
        r.problem(401, "invalid-credentials");
    }
    assert_eq!(hashes(&[&app.server, &other]) - before, 10, "{counts:?}");
    // the right password waits for the window like everyone else
    let r = app.anon().post(
        "/v1/auth/token",
        json!({"username": "ann", "password": "correct horse"}),
    );
    r.problem(429, "rate-limited");
}

/// Failed logins per client address (through a trusted proxy), over many accounts: 150
/// released together, at most the address's limit judged and hashed.
fn a_burst_from_one_address_is_judged_to_its_limit(kind: Db) {
    let tweak = |c: &mut tilepost::config::Config| {
        c.login_failures_per_address = 10;
        c.trusted_proxies = vec!["127.0.0.1".parse().expect("ip")];
    };
    let app = TestApp::with(kind, tweak);
    let other = second(&app, tweak);
    let bases = [app.url(), other.url()];
    let before = hashes(&[&app.server, &other]);
    let rs = together(150, |i| {
        Client::new(&bases[i % 2], None).post_with(
            "/v1/auth/token",
            json!({"username": format!("user{i}"), "password": "wrong"}),
            &[("X-Forwarded-For", "198.51.100.7")],
        )
    });
    assert_eq!(judged(&rs, 401), 10, "{:?}", statuses(&rs));
    assert_eq!(hashes(&[&app.server, &other]) - before, 10);
    // another client behind the proxy is not held up
    let r = Client::new(&bases[1], None).post_with(
        "/v1/auth/token",
        json!({"username": "user1", "password": "wrong"}),
        &[("X-Forwarded-For", "198.51.100.8")],
    );
    r.problem(401, "invalid-credentials");
}

/// Each current-password check (password, email, deletion) counts as a login: 150 wrong
/// passwords released together over two servers, 10 judged (`403 wrong-password`), 10
/// hashes; the account is still there, with its password and address.
fn current_password_checks_hold_under_a_burst(kind: Db) {
    let app = TestApp::new(kind);
    let other = second(&app, |_| {});
    type Body = fn(usize) -> Value;
    let checks: [(&str, &str, Body); 3] = [
        (
            "POST",
            "/v1/users/me/password",
            |i| json!({"current_password": format!("wrong {i}"), "new_password": "new password 1"}),
        ),
        (
            "POST",
            "/v1/users/me/email",
            |i| json!({"password": format!("wrong {i}"), "email": "new@example.com"}),
        ),
        (
            "DELETE",
            "/v1/users/me",
            |i| json!({"password": format!("wrong {i}")}),
        ),
    ];
    for (n, (method, path, body)) in checks.iter().enumerate() {
        let name = format!("user{n}");
        let me = app.user(&name);
        let there = me.on(&other.url());
        let before = hashes(&[&app.server, &other]);
        let rs = together(150, |i| {
            let c = if i.is_multiple_of(2) { &me } else { &there };
            c.request(method, path, Some(&body(i).to_string()), &[])
        });
        assert_eq!(judged(&rs, 403), 10, "{method} {path}: {:?}", statuses(&rs));
        for r in rs.iter().filter(|r| r.status == 403) {
            r.problem(403, "wrong-password");
        }
        assert_eq!(
            hashes(&[&app.server, &other]) - before,
            10,
            "{method} {path}"
        );
        let u = me.get("/v1/users/me");
        assert_eq!(u.ok()["email"], format!("{name}@example.com"));
    }
}

/// The per-user quotas counted in the database hold exactly when 20 requests arrive
/// together, half of them at a second server: personal access tokens, webhook endpoints
/// (the daily quota and the most a user may have), invitations to one game, games an
/// hour, sign-ups per address.
fn quotas_are_exact_under_twenty_concurrent_requests(kind: Db) {
    let tweak = |c: &mut tilepost::config::Config| {
        c.personal_tokens_per_day = 5;
        c.webhooks_per_day = 6;
        c.invitations_per_game = 4;
        c.games_per_hour = 7;
        c.webhook_allow_private = true;
    };
    let app = TestApp::with(kind, tweak);
    let other = second(&app, tweak);
    let ann = app.user("ann");
    let there = ann.on(&other.url());
    let side = |i: usize| if i.is_multiple_of(2) { &ann } else { &there };

    let rs = together(20, |i| {
        side(i).post(
            "/v1/users/me/tokens",
            json!({"name": format!("t{i}"), "scopes": ["game:read"]}),
        )
    });
    assert_eq!(judged(&rs, 201), 5, "personal tokens: {:?}", statuses(&rs));
    let listed = ann.get("/v1/users/me/tokens?limit=100");
    assert_eq!(listed.ok()["tokens"].as_array().map(|a| a.len()), Some(5));

    let rs = together(20, |i| {
        side(i).post(
            "/v1/users/me/webhooks",
            json!({"url": format!("http://127.0.0.1:9/hook{i}"), "event_types": ["*"]}),
        )
    });
    assert_eq!(judged(&rs, 201), 6, "webhooks a day: {:?}", statuses(&rs));

    let rs = together(20, |i| side(i).post("/v1/games", json!({"seats": 2})));
    assert_eq!(judged(&rs, 201), 7, "games an hour: {:?}", statuses(&rs));
    let game = rs
        .iter()
        .find(|r| r.status == 201)
        .and_then(|r| r.json["id"].as_str())
        .expect("a game")
        .to_string();

    for i in 0..20 {
        app.unverified_user(&format!("guest{i}"));
    }
    let rs = together(20, |i| {
        side(i).post(
            &format!("/v1/games/{game}/invitations"),
            json!({"username": format!("guest{i}")}),
        )
    });
    assert_eq!(judged(&rs, 202), 4, "invitations: {:?}", statuses(&rs));

    // sign-ups per address: the users above signed up from 127.0.0.1 already, so a
    // trusted proxy names fresh addresses
    drop(other);
    let signups = |c: &mut tilepost::config::Config| {
        c.signups_per_address = 3;
        c.trusted_proxies = vec!["127.0.0.1".parse().expect("ip")];
    };
    let app = TestApp::with(kind, signups);
    let other = second(&app, signups);
    let bases = [app.url(), other.url()];
    let rs = together(20, |i| {
        Client::new(&bases[i % 2], None).post_with(
            "/v1/users",
            json!({"username": format!("new{i}"), "email": format!("new{i}@example.com"), "password": "correct horse"}),
            &[("X-Forwarded-For", "203.0.113.9")],
        )
    });
    assert_eq!(judged(&rs, 201), 3, "sign-ups: {:?}", statuses(&rs));
}

/// The most webhook endpoints a user may have (10) holds when 20 creations arrive
/// together.
fn the_most_webhook_endpoints_hold_under_concurrency(kind: Db) {
    let app = TestApp::with(kind, |c| c.webhook_allow_private = true);
    let ann = app.user("ann");
    let rs = together(20, |i| {
        ann.post(
            "/v1/users/me/webhooks",
            json!({"url": format!("http://127.0.0.1:9/hook{i}"), "event_types": ["*"]}),
        )
    });
    assert_eq!(rs.iter().filter(|r| r.status == 201).count(), 10);
    for r in rs.iter().filter(|r| r.status != 201) {
        r.problem(409, "webhook-limit-reached");
    }
}

/// A write refused after its place was taken hands the place back: creations refused
/// because the user has the most endpoints do not use the daily quota.
fn a_refused_write_does_not_use_the_quota(kind: Db) {
    let app = TestApp::with(kind, |c| {
        c.webhooks_per_day = 12;
        c.webhook_allow_private = true;
    });
    let ann = app.user("ann");
    let create = |i: usize| {
        ann.post(
            "/v1/users/me/webhooks",
            json!({"url": format!("http://127.0.0.1:9/hook{i}"), "event_types": ["*"]}),
        )
    };
    let mut first = String::new();
    for i in 0..10 {
        let r = create(i);
        assert_eq!(r.status, 201, "{}", r.text);
        assert_eq!(
            r.header("ratelimit-remaining"),
            Some((11 - i).to_string().as_str())
        );
        if i == 0 {
            first = r.json["id"].as_str().unwrap_or_default().to_string();
        }
    }
    for i in 10..15 {
        create(i).problem(409, "webhook-limit-reached");
    }
    let r = ann.request(
        "DELETE",
        &format!("/v1/users/me/webhooks/{first}"),
        None,
        &[],
    );
    assert_eq!(r.status, 204, "{}", r.text);
    let r = create(20);
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.header("ratelimit-remaining"), Some("1"));
}

fn personal_token(c: &Client, name: &str, scopes: Value) -> Client {
    let r = c.post(
        "/v1/users/me/tokens",
        json!({"name": name, "scopes": scopes}),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    c.with_token(r.json["token"].as_str().expect("secret"))
}

fn login(app: &TestApp, name: &str, password: &str) -> Client {
    let r = app.anon().post(
        "/v1/auth/token",
        json!({"username": name, "password": password}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let mut c = app
        .anon()
        .with_token(r.json["access_token"].as_str().expect("token"));
    c.name = name.to_string();
    c
}

/// A password reset revokes every login session and every personal access token; the
/// confirmation email says what was revoked.
fn a_reset_revokes_every_credential(app: &TestApp) {
    let ann = app.user("ann");
    let all = personal_token(
        &ann,
        "everything",
        json!(["game:read", "game:play", "account", "webhooks"]),
    );
    app.clock.advance_ms(1000);
    let bot = personal_token(&ann, "bot", json!(["game:play"]));
    assert_eq!(all.get("/v1/users/me").status, 200);
    app.anon()
        .post(
            "/v1/auth/password-reset",
            json!({"email": "ann@example.com"}),
        )
        .ok();
    let token = wait_for_message(app, &ann.user_id, "account.password_reset");
    let token = link_param(&token, "token");
    let r = app.anon().post(
        "/v1/auth/password-reset/confirm",
        json!({"token": token, "password": "a new password"}),
    );
    r.ok();
    ann.get("/v1/users/me").problem(401, "unauthorized");
    all.get("/v1/users/me").problem(401, "unauthorized");
    bot.get("/v1/games").problem(401, "unauthorized");
    // nor can the stolen token make another
    all.post(
        "/v1/users/me/tokens",
        json!({"name": "again", "scopes": ["account"]}),
    )
    .problem(401, "unauthorized");
    let m = wait_for_message(app, &ann.user_id, "account.password_changed");
    assert_eq!(m["data"]["revoked"]["sessions"], 1);
    assert_eq!(
        m["data"]["revoked"]["personal_tokens"],
        json!(["everything", "bot"])
    );
    let text = m["data"]["text"].as_str().unwrap_or_default();
    assert!(text.contains("everything, bot"), "{text}");
    assert!(text.contains("/play/forgot-password"), "{text}");
    // the new password works
    login(app, "ann", "a new password");
}

/// A password change keeps the session that made it and revokes every other session and
/// every personal access token.
fn a_change_revokes_every_other_credential(app: &TestApp) {
    let ann = app.user("ann");
    let phone = login(app, "ann", "correct horse");
    let all = personal_token(
        &ann,
        "everything",
        json!(["game:read", "game:play", "account", "webhooks"]),
    );
    let r = ann.post(
        "/v1/users/me/password",
        json!({"current_password": "correct horse", "new_password": "another one 1"}),
    );
    assert_eq!(r.status, 204, "{}", r.text);
    assert_eq!(ann.get("/v1/users/me").status, 200);
    phone.get("/v1/users/me").problem(401, "unauthorized");
    all.get("/v1/users/me").problem(401, "unauthorized");
    let m = wait_for_message(app, &ann.user_id, "account.password_changed");
    assert_eq!(m["data"]["revoked"]["sessions"], 1);
    assert_eq!(
        m["data"]["revoked"]["personal_tokens"],
        json!(["everything"])
    );
}

/// Operations on the account's credentials and identity need a login session: a personal
/// token gets `403 insufficient-scope`, whatever its scopes.
fn personal_tokens_never_reach_the_credentials(app: &TestApp) {
    let ann = app.user("ann");
    for scopes in [
        json!(["game:read"]),
        json!(["account"]),
        json!(["game:read", "game:play", "account", "webhooks"]),
    ] {
        let t = personal_token(&ann, "t", scopes.clone());
        let calls = [
            (
                "POST",
                "/v1/users/me/password",
                json!({"current_password": "correct horse", "new_password": "hijacked 123"}),
            ),
            (
                "POST",
                "/v1/users/me/email",
                json!({"password": "correct horse", "email": "thief@example.com"}),
            ),
            (
                "DELETE",
                "/v1/users/me",
                json!({"password": "correct horse"}),
            ),
            ("GET", "/v1/users/me/export", Value::Null),
            (
                "POST",
                "/v1/users/me/tokens",
                json!({"name": "more", "scopes": ["game:read"]}),
            ),
        ];
        for (method, path, body) in calls {
            let body = (!body.is_null()).then(|| body.to_string());
            let r = t.request(method, path, body.as_deref(), &[]);
            r.problem(403, "insufficient-scope");
            assert!(
                r.header("www-authenticate")
                    .is_some_and(|h| h.contains("scope=\"session\"")),
                "{method} {path} with {scopes}: {:?}",
                r.headers
            );
        }
    }
    // the account is as it was
    let me = ann.get("/v1/users/me");
    assert_eq!(me.ok()["email"], "ann@example.com");
    login(app, "ann", "correct horse");
}

/// Every path template of the document with its parameters filled in.
fn concrete(path: &str) -> String {
    path.split('/')
        .map(|s| {
            if s.starts_with('{') {
                "00000000-0000-4000-8000-000000000000"
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Generated from the document: for every operation that takes a token and every set of
/// scopes a personal token can hold, a token without the operation's scope (or, for the
/// `session` operations, any personal token) gets `403 insufficient-scope`, before
/// anything else about the request is judged; a token with it never does. A new
/// operation is covered the day it is documented.
fn every_operation_refuses_a_token_without_its_scope(app: &TestApp) {
    use tilepost::api::access::{needs_of, Needs, Scopes};
    use tilepost::api::dto::Scope;
    let ann = app.user("ann");
    let mut tokens = Vec::new();
    for bits in 1u8..16 {
        let scopes: Vec<Scope> = Scope::ALL
            .into_iter()
            .enumerate()
            .filter(|(i, _)| bits & (1 << i) != 0)
            .map(|(_, s)| s)
            .collect();
        let names: Vec<&str> = scopes.iter().map(|s| s.as_str()).collect();
        tokens.push((
            Scopes::of(&scopes),
            personal_token(&ann, &format!("set {bits}"), json!(names)),
        ));
    }
    let doc = tilepost::api::openapi_value();
    let mut refused = 0;
    let mut operations = 0;
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("item") {
            let needs = needs_of(op);
            if needs == Needs::Nothing || op.get("responses").is_none() {
                continue;
            }
            operations += 1;
            let method = method.to_ascii_uppercase();
            let url = concrete(path);
            let body = op.get("requestBody").map(|_| "{}");
            // reads are asked with a sufficient token too (not the live stream, which
            // stays open)
            let safe = method == "GET"
                && op
                    .pointer("/responses/200/content/text~1event-stream")
                    .is_none();
            for (have, client) in &tokens {
                let lacks = match &needs {
                    Needs::Session => true,
                    Needs::AnyOf(s) => !s.iter().any(|s| have.contains(*s)),
                    Needs::Nothing => false,
                };
                if lacks {
                    let r = client.request(&method, &url, body, &[]);
                    assert_eq!(
                        (r.status, r.json["code"].as_str()),
                        (403, Some("insufficient-scope")),
                        "{method} {path} with {have:?}: {}",
                        r.text
                    );
                    refused += 1;
                } else if safe {
                    let r = client.request(&method, &url, body, &[]);
                    assert_ne!(
                        r.json["code"].as_str(),
                        Some("insufficient-scope"),
                        "{method} {path} with {have:?}: {}",
                        r.text
                    );
                }
            }
            // a login session has every scope
            if safe {
                let r = ann.request(&method, &url, body, &[]);
                assert_ne!(
                    r.json["code"].as_str(),
                    Some("insufficient-scope"),
                    "{method} {path}"
                );
            }
        }
    }
    assert!(operations > 50, "{operations} operations take a token");
    assert!(refused > 300, "{refused} refusals checked");
    // every token still works (no refused request did anything)
    for (_, c) in &tokens {
        assert_ne!(c.get("/v1/users/me").status, 401);
    }
}

/// `POST …/resign` without a version, released together with the other player's move,
/// half of the time at a second server: the resignation is always recorded.
fn a_resignation_is_never_stale(kind: Db) {
    let app = TestApp::new(kind);
    let other = second(&app, |_| {});
    let ann = app.user("ann");
    let ben = app.user("ben");
    let cat = app.user("cat");
    for round in 0..6usize {
        let id = start_game(&[&ann, &ben, &cat], Value::Null);
        let a = ann.get(&format!("/v1/games/{id}/actions"));
        let a = a.ok().clone();
        let mover = client_for(&[&ann, &ben, &cat], &a["pending"]).clone();
        let quitter = [&ann, &ben, &cat]
            .into_iter()
            .find(|c| c.user_id != mover.user_id)
            .expect("someone else")
            .clone();
        let quitter = if round.is_multiple_of(2) {
            quitter.on(&other.url())
        } else {
            quitter
        };
        let pick = a["actions"][0].clone();
        let rs = together(2, |i| {
            if i == 0 {
                quitter.post(&format!("/v1/games/{id}/resign"), json!({}))
            } else {
                mover.post(
                    &format!("/v1/games/{id}/moves"),
                    json!({"expected_version": a["version"], "actions": [pick]}),
                )
            }
        });
        assert_eq!(rs[0].status, 200, "round {round}: {}", rs[0].text);
        assert!(
            rs[1].status == 200 || rs[1].json["code"] == "stale-version",
            "{}",
            rs[1].text
        );
    }
}

/// A deleted account's name stays reserved, in any case (here for a configured 30
/// days).
fn deleted_names_stay_retired(kind: Db) {
    let app = TestApp::with(kind, |c| c.retired_name_days = 30);
    let ann = app.user("ann");
    let r = ann.request(
        "DELETE",
        "/v1/users/me",
        Some(&json!({"password": "correct horse"}).to_string()),
        &[],
    );
    assert_eq!(r.status, 204, "{}", r.text);
    for name in ["ann", "ANN", "Ann"] {
        app.anon()
            .post(
                "/v1/users",
                json!({"username": name, "email": "other@example.com", "password": "correct horse"}),
            )
            .problem(409, "username-taken");
    }
    app.clock.advance_ms(31 * 86_400_000);
    let r = app.anon().post(
        "/v1/users",
        json!({"username": "Ann", "email": "other@example.com", "password": "correct horse"}),
    );
    assert_eq!(r.status, 201, "{}", r.text);
}

/// By default, forever.
fn deleted_names_are_retired_forever_by_default(app: &TestApp) {
    let ben = app.user("ben");
    let r = ben.request(
        "DELETE",
        "/v1/users/me",
        Some(&json!({"password": "correct horse"}).to_string()),
        &[],
    );
    assert_eq!(r.status, 204, "{}", r.text);
    app.clock.advance_ms(3650 * 86_400_000);
    app.anon()
        .post(
            "/v1/users",
            json!({"username": "Ben", "email": "other@example.com", "password": "correct horse"}),
        )
        .problem(409, "username-taken");
}

/// The newest message of `kind` to a user (waiting for a background one a little).
fn wait_for_message(app: &TestApp, user_id: &str, kind: &str) -> Value {
    for _ in 0..100 {
        if let Some(m) = app.messages(user_id, kind).pop() {
            return m;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("no {kind} message for {user_id}");
}

each_db!(
    a_burst_of_wrong_passwords_is_judged_ten_times,
    a_burst_from_one_address_is_judged_to_its_limit,
    current_password_checks_hold_under_a_burst,
    quotas_are_exact_under_twenty_concurrent_requests,
    the_most_webhook_endpoints_hold_under_concurrency,
    a_refused_write_does_not_use_the_quota,
    a_resignation_is_never_stale,
    deleted_names_stay_retired,
);

mod each {
    use super::*;
    crate::both!(
        a_reset_revokes_every_credential,
        a_change_revokes_every_other_credential,
        personal_tokens_never_reach_the_credentials,
        every_operation_refuses_a_token_without_its_scope,
        deleted_names_are_retired_forever_by_default,
    );
}
