//! Accounts that can be recovered, secured and deleted: address confirmation (an
//! unconfirmed address gets the confirmation email and nothing else), password reset by
//! email (single use, an hour, the same answer for every address), password and address
//! changes, the export of one's own data, and deletion (the other players play on, and
//! nothing names the deleted user any more).

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{link_param, play_random, start_game, Client, Db, TestApp};
use crate::notifications::{wait_for, Receiver};

const RELAY_SECRET: &str = "whsec_dGVzdC1yZWxheS1zZWNyZXQtMDEyMzQ1Njc4OQ==";

fn with_relay(kind: Db, rx: &Receiver) -> TestApp {
    let url = rx.url();
    TestApp::with(kind, move |c| {
        c.email_webhook_url = Some(url);
        c.email_webhook_secret = Some(RELAY_SECRET.into());
        c.notify_poll_ms = 20;
        c.webhook_allow_private = true;
    })
}

/// Waits (real time) for a message of `kind` to `user_id` in the outbox.
fn wait_message(app: &TestApp, user_id: &str, kind: &str, n: usize) -> Value {
    let start = Instant::now();
    loop {
        let ms = app.messages(user_id, kind);
        if ms.len() >= n {
            return ms[n - 1].clone();
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no {kind} message for {user_id}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn login(app: &TestApp, name: &str, password: &str) -> u16 {
    app.anon()
        .post(
            "/v1/auth/token",
            json!({"username": name, "password": password}),
        )
        .status
}

// ----- address confirmation -------------------------------------------------------------

/// Until an address is confirmed it gets the confirmation email and nothing else: no
/// game emails, no invitations. Once confirmed, the game emails flow.
fn unverified_gets_only_the_confirmation(kind: Db) {
    let rx = Receiver::start();
    let app = with_relay(kind, &rx);
    let ann = app.unverified_user("ann");
    let ben = app.unverified_user("ben");
    let cat = app.unverified_user("cat");
    assert_eq!(ann.get("/v1/users/me").ok()["email_verified"], false);
    let id = start_game(&[&ann, &ben], Value::Null);
    // an invitation to an unconfirmed address
    let open = ann.post("/v1/games", json!({"seats": 3}));
    let open_id = open.ok()["id"].as_str().unwrap().to_string();
    ann.post(
        &format!("/v1/games/{open_id}/invitations"),
        json!({"username": "cat"}),
    )
    .ok();
    // ben confirms his address with the link of the email the relay received
    wait_for(&app, 0, "the confirmation emails", || {
        rx.everything()
            .iter()
            .filter(|r| r.json["type"] == "account.verify_email")
            .count()
            == 3
    });
    let to_ben = rx
        .everything()
        .into_iter()
        .find(|r| {
            r.json["type"] == "account.verify_email"
                && r.json["data"]["recipient"]["email"] == "ben@example.com"
        })
        .expect("ben's confirmation");
    assert!(to_ben.json["data"]["links"].get("unsubscribe").is_none());
    let token = link_param(&to_ben.json, "token");
    let anon = app.anon();
    let ok = anon.post("/v1/auth/verify-email", json!({"token": token}));
    assert_eq!(ok.ok()["status"], "email_verified");
    // a link works once
    anon.post("/v1/auth/verify-email", json!({"token": token}))
        .problem(400, "invalid-link");
    anon.post("/v1/auth/verify-email", json!({"token": "made-up"}))
        .problem(400, "invalid-link");
    assert_eq!(ben.get("/v1/users/me").ok()["email_verified"], true);
    ben.post("/v1/users/me/email/verification", json!({}))
        .problem(409, "already-verified");
    // play until ben's turn email arrives: ann's earlier messages were handled before it
    let players = [&ann, &ben];
    let mut turns = 0;
    while rx
        .accepted()
        .iter()
        .all(|r| r.json["type"] != "game.turn_started")
    {
        let a = ann.get(&format!("/v1/games/{id}/actions")).ok().clone();
        let pick = a["actions"][0].clone();
        let who = crate::common::client_for(&players, &a["pending"]);
        who.post(
            &format!("/v1/games/{id}/moves"),
            json!({"expected_version": a["version"], "actions": [pick]}),
        )
        .ok();
        turns += 1;
        assert!(turns < 40, "no turn email for ben");
        std::thread::sleep(Duration::from_millis(100));
    }
    // one more message to ben after everything above: the queue has been worked through
    let invite = ben.post("/v1/games", json!({"seats": 3}));
    let g2 = invite.ok()["id"].as_str().unwrap().to_string();
    let dan = app.user("dan");
    ben.post(
        &format!("/v1/games/{g2}/invitations"),
        json!({"username": "dan"}),
    )
    .ok();
    wait_for(&app, 0, "dan's invitation", || {
        rx.accepted().iter().any(|r| {
            r.json["type"] == "game.invited"
                && r.json["data"]["recipient"]["user_id"] == dan.user_id
        })
    });
    for r in rx.everything() {
        let to = r.json["data"]["recipient"]["email"].as_str().unwrap_or("");
        if to == "ann@example.com" || to == "cat@example.com" {
            assert_eq!(r.json["type"], "account.verify_email", "{}", r.body);
        }
    }
    assert!(rx.accepted().iter().any(|r| {
        r.json["type"] == "game.turn_started"
            && r.json["data"]["recipient"]["email"] == "ben@example.com"
    }));
    // a new link voids the old one; only the newest works
    let first = app.link_token(&ann.user_id, "account.verify_email", "token");
    let again = ann.post("/v1/users/me/email/verification", json!({}));
    assert_eq!(again.status, 202, "{}", again.text);
    let second = app.link_token(&ann.user_id, "account.verify_email", "token");
    assert_ne!(first, second);
    anon.post("/v1/auth/verify-email", json!({"token": first}))
        .problem(400, "invalid-link");
    anon.post("/v1/auth/verify-email", json!({"token": second}))
        .ok();
    // resending is limited (3 an hour per account by default)
    let cat_again = |n: usize| {
        let r = cat.post("/v1/users/me/email/verification", json!({}));
        assert_eq!(r.status, if n < 3 { 202 } else { 429 }, "{n}: {}", r.text);
    };
    (0..4).for_each(cat_again);
}

/// A confirmation link expires after a day.
fn confirmation_expires(app: &TestApp) {
    let ann = app.unverified_user("ann");
    let token = app.link_token(&ann.user_id, "account.verify_email", "token");
    app.clock.advance_ms(24 * 3600 * 1000 + 1000);
    app.anon()
        .post("/v1/auth/verify-email", json!({"token": token}))
        .problem(400, "invalid-link");
    // (the day also outlived ann's access token)
    let t = app.anon().post(
        "/v1/auth/token",
        json!({"username": "ann", "password": "correct horse"}),
    );
    let ann = ann.with_token(t.ok()["access_token"].as_str().unwrap());
    assert_eq!(ann.get("/v1/users/me").ok()["email_verified"], false);
}

// ----- password reset -------------------------------------------------------------------

fn request_reset(app: &TestApp, email: &str) -> crate::common::Resp {
    app.anon()
        .post("/v1/auth/password-reset", json!({"email": email}))
}

/// The reset link works once, within the hour; the old password stops working.
fn reset_link_works_once_and_expires(app: &TestApp) {
    let ann = app.user("ann");
    let r = request_reset(app, "ANN@example.com");
    assert_eq!(r.status, 202, "{}", r.text);
    let m = wait_message(app, &ann.user_id, "account.password_reset", 1);
    assert_eq!(m["data"]["recipient"]["email"], "ann@example.com");
    let token = link_param(&m, "token");
    let anon = app.anon();
    // a short password is refused without using the link
    anon.post(
        "/v1/auth/password-reset/confirm",
        json!({"token": token, "password": "short"}),
    )
    .problem(400, "validation-failed");
    let ok = anon.post(
        "/v1/auth/password-reset/confirm",
        json!({"token": token, "password": "a brand new one"}),
    );
    assert_eq!(ok.ok()["status"], "password_reset");
    // whoever knew the old password is logged out: every session of ann's ended
    assert_eq!(ann.get("/v1/users/me").status, 401);
    assert_eq!(login(app, "ann", "a brand new one"), 200);
    assert_eq!(login(app, "ann", "correct horse"), 401);
    // once
    anon.post(
        "/v1/auth/password-reset/confirm",
        json!({"token": token, "password": "yet another one"}),
    )
    .problem(400, "invalid-link");
    assert_eq!(login(app, "ann", "yet another one"), 401);
    // within the hour
    assert_eq!(request_reset(app, "ann@example.com").status, 202);
    let late = link_param(
        &wait_message(app, &ann.user_id, "account.password_reset", 2),
        "token",
    );
    app.clock.advance_ms(3600 * 1000 + 1000);
    anon.post(
        "/v1/auth/password-reset/confirm",
        json!({"token": late, "password": "yet another one"}),
    )
    .problem(400, "invalid-link");
    assert_eq!(login(app, "ann", "a brand new one"), 200);
    // an unconfirmed address gets no reset link (only its confirmation)
    let ben = app.unverified_user("ben");
    assert_eq!(request_reset(app, "ben@example.com").status, 202);
    assert_eq!(request_reset(app, "ann@example.com").status, 202);
    wait_message(app, &ann.user_id, "account.password_reset", 3);
    std::thread::sleep(Duration::from_millis(200));
    assert!(app
        .messages(&ben.user_id, "account.password_reset")
        .is_empty());
}

/// What a client can compare between two answers: status, body, and every header but
/// the request id and the date.
fn comparable(r: &crate::common::Resp) -> (u16, String, Vec<(String, String)>) {
    let mut h: Vec<(String, String)> = r
        .headers
        .iter()
        .filter(|(k, _)| !k.eq_ignore_ascii_case("x-request-id") && !k.eq_ignore_ascii_case("date"))
        .map(|(k, v)| {
            let k = k.to_ascii_lowercase();
            // the CORS layer lists the exposed headers in the order of a hash set
            // (per worker, on every answer alike): compared as a set
            if k == "access-control-expose-headers" {
                let mut parts: Vec<&str> = v.split(',').map(str::trim).collect();
                parts.sort_unstable();
                return (k, parts.join(", "));
            }
            (k, v.clone())
        })
        .collect();
    h.sort();
    (r.status, r.text.clone(), h)
}

/// A reset for an unknown address answers exactly like one for a known address, also
/// once the limits hold.
fn reset_answers_alike(app: &TestApp) {
    let _ann = app.user("ann");
    let _ben = app.unverified_user("ben");
    for round in 0..4 {
        let known = request_reset(app, "ann@example.com");
        let unknown = request_reset(app, "nobody@example.com");
        let unconfirmed = request_reset(app, "ben@example.com");
        assert_eq!(comparable(&known), comparable(&unknown), "round {round}");
        assert_eq!(
            comparable(&known),
            comparable(&unconfirmed),
            "round {round}"
        );
        let expected = if round < 3 { 202 } else { 429 };
        assert_eq!(known.status, expected, "round {round}: {}", known.text);
    }
    // timing: both answer before any account is looked up; the medians are close
    let mut t_known = Vec::new();
    let mut t_unknown = Vec::new();
    for i in 0..7 {
        let a = format!("ann{i}@example.com");
        let b = format!("zed{i}@example.com");
        let s = Instant::now();
        request_reset(app, &a);
        t_known.push(s.elapsed());
        let s = Instant::now();
        request_reset(app, &b);
        t_unknown.push(s.elapsed());
    }
    t_known.sort();
    t_unknown.sort();
    let (k, u) = (t_known[3], t_unknown[3]);
    assert!(
        k < u * 3 + Duration::from_millis(20) && u < k * 3 + Duration::from_millis(20),
        "medians {k:?} and {u:?}"
    );
}

// ----- password and address changes ------------------------------------------------------

fn change_password_and_email(app: &TestApp) {
    let ann = app.user("ann");
    ann.post(
        "/v1/users/me/password",
        json!({"current_password": "wrong horse", "new_password": "a brand new one"}),
    )
    .problem(403, "wrong-password");
    ann.post(
        "/v1/users/me/password",
        json!({"current_password": "correct horse", "new_password": "short"}),
    )
    .problem(400, "validation-failed");
    // a second session of ann's, say on another device
    let other = app.anon().post(
        "/v1/auth/token",
        json!({"username": "ann", "password": "correct horse"}),
    );
    assert_eq!(other.status, 200, "{}", other.text);
    let other = Client::new(
        &app.url(),
        Some(
            other.json["access_token"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        ),
    );
    assert_eq!(other.get("/v1/users/me").status, 200);
    let r = ann.post(
        "/v1/users/me/password",
        json!({"current_password": "correct horse", "new_password": "a brand new one"}),
    );
    assert_eq!(r.status, 204, "{}", r.text);
    // the change ends every other session at once; the one that changed it goes on
    assert_eq!(other.get("/v1/users/me").status, 401);
    assert_eq!(ann.get("/v1/users/me").status, 200);
    assert_eq!(login(app, "ann", "correct horse"), 401);
    assert_eq!(login(app, "ann", "a brand new one"), 200);
    // the address: only with the password, through its own operation
    ann.request(
        "PATCH",
        "/v1/users/me",
        Some(r#"{"email": "ann@example.org"}"#),
        &[],
    )
    .problem(400, "validation-failed");
    ann.post(
        "/v1/users/me/email",
        json!({"email": "ann@example.org", "password": "correct horse"}),
    )
    .problem(403, "wrong-password");
    ann.post(
        "/v1/users/me/email",
        json!({"email": "nope", "password": "a brand new one"}),
    )
    .problem(400, "validation-failed");
    let old_link = app.link_token(&ann.user_id, "account.verify_email", "token");
    let c = ann.post(
        "/v1/users/me/email",
        json!({"email": "ann@example.org", "password": "a brand new one"}),
    );
    assert_eq!(c.ok()["email"], "ann@example.org");
    assert_eq!(c.json["email_verified"], false);
    let m = wait_message(app, &ann.user_id, "account.verify_email", 2);
    assert_eq!(m["data"]["recipient"]["email"], "ann@example.org");
    // a reset to the new, unconfirmed address sends nothing, even when the address is
    // confirmed before the request's accounts are looked up
    assert_eq!(request_reset(app, "ann@example.org").status, 202);
    app.clock.advance_ms(1000);
    let anon = app.anon();
    anon.post("/v1/auth/verify-email", json!({"token": old_link}))
        .problem(400, "invalid-link");
    anon.post(
        "/v1/auth/verify-email",
        json!({"token": link_param(&m, "token")}),
    )
    .ok();
    assert_eq!(ann.get("/v1/users/me").ok()["email_verified"], true);
    assert!(app
        .messages(&ann.user_id, "account.password_reset")
        .is_empty());
}

// ----- export -------------------------------------------------------------------------------

fn export_has_mine_and_no_secrets(app: &TestApp) {
    let ann = app.user("ann");
    let ben = app.user("ben");
    let hook = |c: &Client| {
        let r = c.post(
            "/v1/users/me/webhooks",
            json!({"url": "http://127.0.0.1:9/hook", "event_types": ["game.finished"]}),
        );
        r.ok()["secret"].as_str().expect("secret").to_string()
    };
    let ann_secret = hook(&ann);
    let ben_secret = hook(&ben);
    let id = start_game(&[&ann, &ben], Value::Null);
    ann.post(
        &format!("/v1/games/{id}/chat"),
        json!({"text": "good luck, ben"}),
    )
    .ok();
    ben.post(&format!("/v1/games/{id}/chat"), json!({"text": "thanks!"}))
        .ok();
    let e = ann.get("/v1/users/me/export");
    let v = e.ok().clone();
    assert_eq!(e.header("cache-control"), Some("no-store"));
    assert!(e.header("ratelimit-remaining").is_some());
    assert_eq!(v["profile"]["username"], "ann");
    assert_eq!(v["profile"]["email"], "ann@example.com");
    assert_eq!(v["profile"]["email_verified"], true);
    assert_eq!(v["games"][0]["id"], id.as_str());
    let seats = v["games"][0]["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2);
    assert!(seats
        .iter()
        .any(|s| s["username"] == "ben" && s["me"] == false));
    assert_eq!(v["chat"].as_array().unwrap().len(), 1);
    assert_eq!(v["chat"][0]["text"], "good luck, ben");
    assert_eq!(v["webhooks"][0]["url"], "http://127.0.0.1:9/hook");
    assert!(v["webhooks"][0]["secret"].is_null());
    for secret in [&ann_secret, &ben_secret] {
        assert!(!e.text.contains(secret.as_str()));
    }
    assert!(!e.text.contains("ben@example.com"));
    assert!(!e.text.contains("password"));
    assert!(!e.text.contains("thanks!"));
    // limited: five an hour
    for _ in 0..4 {
        ann.get("/v1/users/me/export").ok();
    }
    ann.get("/v1/users/me/export").problem(429, "rate-limited");
    app.anon()
        .get("/v1/users/me/export")
        .problem(401, "unauthorized");
}

// ----- deletion -----------------------------------------------------------------------------

/// After a deletion the other players' games play on, finished games still replay, the
/// deleted user's token is 401, and no answer names them.
fn deletion_keeps_games_and_forgets_the_user(app: &TestApp) {
    let q = app.user("quokka77");
    let ben = app.user("ben");
    let cat = app.user("cat");
    // a running game of three, a finished game of two, an open game q created and one
    // q joined
    let running = start_game(&[&q, &ben, &cat], Value::Null);
    let done = start_game(&[&ben, &q], Value::Null);
    play_random(&[&ben, &q], &done, 7);
    let mine_open = q.post("/v1/games", json!({"seats": 3})).ok()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let bens_open = ben.post("/v1/games", json!({"seats": 3})).ok()["id"]
        .as_str()
        .unwrap()
        .to_string();
    q.post(&format!("/v1/games/{bens_open}/join"), json!({}))
        .ok();
    q.post(
        &format!("/v1/games/{running}/chat"),
        json!({"text": "I am quokka77, write to quokka77@example.com"}),
    )
    .ok();
    cat.post(
        &format!("/v1/games/{running}/chat"),
        json!({"text": "hi all"}),
    )
    .ok();
    // the password is required
    q.request(
        "DELETE",
        "/v1/users/me",
        Some(&json!({"password": "wrong horse"}).to_string()),
        &[],
    )
    .problem(403, "wrong-password");
    let d = q.request(
        "DELETE",
        "/v1/users/me",
        Some(&json!({"password": "correct horse"}).to_string()),
        &[],
    );
    assert_eq!(d.status, 204, "{}", d.text);
    // the token is dead, and so is the login
    q.get("/v1/users/me").problem(401, "unauthorized");
    q.get("/v1/users/me/export").problem(401, "unauthorized");
    assert_eq!(login(app, "quokka77", "correct horse"), 401);
    // the open game q created is gone; q left ben's
    ben.get(&format!("/v1/games/{mine_open}"))
        .problem(404, "game-not-found");
    let open = ben.get(&format!("/v1/games/{bens_open}")).ok().clone();
    assert_eq!(open["players"].as_array().unwrap().len(), 1);
    // the running game plays on between ben and cat, to its end
    let v = ben.get(&format!("/v1/games/{running}")).ok().clone();
    assert_eq!(v["status"], "active");
    play_random(&[&ben, &cat], &running, 11);
    assert_eq!(
        ben.get(&format!("/v1/games/{running}")).ok()["status"],
        "finished"
    );
    // nobody can invite the name any more
    let g = ben.post("/v1/games", json!({"seats": 2})).ok()["id"]
        .as_str()
        .unwrap()
        .to_string();
    ben.post(
        &format!("/v1/games/{g}/invitations"),
        json!({"username": "quokka77"}),
    )
    .problem(404, "user-not-found");
    // no answer names q
    let mut answers = Vec::new();
    for who in [&ben, &cat] {
        for game in [&running, &done] {
            for path in [
                format!("/v1/games/{game}"),
                format!("/v1/games/{game}/events?limit=200"),
                format!("/v1/games/{game}/chat"),
                format!("/v1/games/{game}/export"),
                format!("/v1/games/{game}/board.svg"),
            ] {
                let r = who.get(&path);
                assert!(r.status == 200 || r.status == 404, "{path}: {}", r.text);
                answers.push((path, r));
            }
        }
        for path in [
            "/v1/games?player=me&limit=200",
            "/v1/games?limit=200",
            "/v1/users/me",
            "/v1/users/me/export",
        ] {
            answers.push((path.to_string(), who.get(path)));
        }
    }
    answers.push((
        "anonymous view".into(),
        app.anon().get(&format!("/v1/games/{done}")),
    ));
    for (path, r) in &answers {
        assert!(
            !r.text.contains("quokka77"),
            "{path} names the user: {}",
            r.text
        );
    }
    // the finished game still replays, with the seat under its anonymous name
    let fin = ben.get(&format!("/v1/games/{done}")).ok().clone();
    assert_eq!(fin["status"], "finished");
    let names: Vec<&str> = fin["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["username"].as_str())
        .collect();
    assert!(names.contains(&"ben"));
    assert!(
        names.iter().any(|n| n.starts_with("deleted-user-")),
        "{names:?}"
    );
    // the chat keeps the others' lines only
    let chat = ben.get(&format!("/v1/games/{running}/chat")).ok().clone();
    let lines: Vec<&str> = chat["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["text"].as_str())
        .collect();
    assert_eq!(lines, vec!["hi all"]);
    // the name of a deleted account cannot be taken to pose as one
    app.anon()
        .post(
            "/v1/users",
            json!({"username": "Deleted-User-1234abcd", "email": "x@example.com", "password": "correct horse"}),
        )
        .problem(400, "validation-failed");
}

/// The reset requests of one test come from one address: more than the default allows.
fn many_resets(kind: Db) -> TestApp {
    TestApp::with(kind, |c| c.account_emails_per_address = 1000)
}

/// Webhook endpoints on loopback.
fn private_ok(kind: Db) -> TestApp {
    TestApp::with(kind, |c| c.webhook_allow_private = true)
}

mod configured {
    use super::*;

    #[test]
    fn unverified_gets_only_the_confirmation_sqlite() {
        unverified_gets_only_the_confirmation(Db::Sqlite)
    }
    #[test]
    fn unverified_gets_only_the_confirmation_postgres() {
        unverified_gets_only_the_confirmation(Db::Postgres)
    }
    #[test]
    fn reset_answers_alike_sqlite() {
        reset_answers_alike(&many_resets(Db::Sqlite))
    }
    #[test]
    fn reset_answers_alike_postgres() {
        reset_answers_alike(&many_resets(Db::Postgres))
    }
    #[test]
    fn export_has_mine_and_no_secrets_sqlite() {
        export_has_mine_and_no_secrets(&private_ok(Db::Sqlite))
    }
    #[test]
    fn export_has_mine_and_no_secrets_postgres() {
        export_has_mine_and_no_secrets(&private_ok(Db::Postgres))
    }
}

crate::both!(
    confirmation_expires,
    reset_link_works_once_and_expires,
    change_password_and_email,
    deletion_keeps_games_and_forgets_the_user,
);
