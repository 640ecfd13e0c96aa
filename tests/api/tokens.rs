//! Revocable tokens: logout and "log out everywhere" refuse a login token at once; a
//! personal access token carries scopes (a `game:read` token reads but cannot move),
//! shows its secret once, is listed by pages without it, and is refused at once after
//! revocation; a second server process refuses a revoked token within the token cache's
//! time.

use std::time::Duration;

use serde_json::{json, Value};

use crate::common::*;

fn login(app: &TestApp, name: &str) -> Client {
    let t = app.anon().post(
        "/v1/auth/token",
        json!({"username": name, "password": "correct horse"}),
    );
    let token = t.ok()["access_token"].as_str().expect("token").to_string();
    Client::new(&app.url(), Some(token))
}

fn personal(c: &Client, name: &str, scopes: Value) -> Resp {
    c.post(
        "/v1/users/me/tokens",
        json!({"name": name, "scopes": scopes}),
    )
}

fn delete(c: &Client, path: &str) -> Resp {
    c.request("DELETE", path, None, &[])
}

fn logout_refuses_the_token_at_once(app: &TestApp) {
    let ann = app.user("ann");
    let other = login(app, "ann");
    assert_eq!(ann.get("/v1/users/me").status, 200);
    assert_eq!(ann.get("/v1/games").status, 200);
    let r = ann.post("/v1/auth/logout", json!({}));
    assert_eq!(r.status, 204, "{}", r.text);
    ann.get("/v1/users/me").problem(401, "unauthorized");
    // refused where a token is optional too, and for writes
    ann.get("/v1/games").problem(401, "unauthorized");
    ann.post("/v1/games", json!({"seats": 2}))
        .problem(401, "unauthorized");
    ann.post("/v1/auth/logout", json!({}))
        .problem(401, "unauthorized");
    // the other session of the same user goes on
    assert_eq!(other.get("/v1/users/me").status, 200);
}

fn log_out_everywhere_ends_every_session(app: &TestApp) {
    let ann = app.user("ann");
    let second = login(app, "ann");
    let bob = app.user("bob");
    let pat = personal(&ann, "bot", json!(["game:read"]));
    let pat = ann.with_token(pat.ok()["token"].as_str().unwrap());
    assert_eq!(second.get("/v1/users/me").status, 200);
    let r = delete(&ann, "/v1/users/me/sessions");
    assert_eq!(r.status, 204, "{}", r.text);
    ann.get("/v1/users/me").problem(401, "unauthorized");
    second.get("/v1/users/me").problem(401, "unauthorized");
    // personal access tokens are revoked one by one; other users are untouched
    assert_eq!(pat.get("/v1/games").status, 200);
    assert_eq!(bob.get("/v1/users/me").status, 200);
    // logging in again works
    assert_eq!(login(app, "ann").get("/v1/users/me").status, 200);
}

fn a_read_token_reads_but_cannot_move(app: &TestApp) {
    let ann = app.user("ann");
    let bob = app.user("bob");
    let id = start_game(&[&ann, &bob], Value::Null);
    let made = personal(&ann, "viewer", json!(["game:read"]));
    assert_eq!(made.status, 201, "{}", made.text);
    assert_eq!(made.header("cache-control"), Some("no-store"));
    assert_eq!(made.json["scopes"], json!(["game:read"]));
    let secret = made.json["token"].as_str().expect("the secret").to_string();
    assert!(secret.starts_with("tpp_"));
    let reader = ann.with_token(&secret);
    let player = ann.with_token(
        personal(&ann, "player", json!(["game:play", "game:read"])).ok()["token"]
            .as_str()
            .unwrap(),
    );
    // reads
    assert_eq!(reader.get(&format!("/v1/games/{id}")).status, 200);
    assert_eq!(reader.get("/v1/games?player=me").status, 200);
    // make it ann's decision: bob plays listed options until it is
    for _ in 0..10 {
        let a = reader.get(&format!("/v1/games/{id}/actions")).ok().clone();
        if a["pending"]["user_id"] == ann.user_id.as_str() {
            break;
        }
        let r = bob.post(
            &format!("/v1/games/{id}/moves"),
            json!({"expected_version": a["version"], "actions": [a["actions"][0]]}),
        );
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let a = reader.get(&format!("/v1/games/{id}/actions")).ok().clone();
    assert_eq!(a["pending"]["user_id"], ann.user_id.as_str());
    let body = json!({"expected_version": a["version"], "actions": [a["actions"][0]]});
    let r = reader.post(&format!("/v1/games/{id}/moves"), body.clone());
    r.problem(403, "insufficient-scope");
    assert!(
        r.header("www-authenticate")
            .is_some_and(|h| h.contains("insufficient_scope") && h.contains("game:play")),
        "{:?}",
        r.headers
    );
    // nothing was written
    assert_eq!(
        reader.get(&format!("/v1/games/{id}")).json["version"],
        a["version"]
    );
    // other scopes are refused too
    reader
        .get("/v1/users/me")
        .problem(403, "insufficient-scope");
    reader
        .post("/v1/games", json!({"seats": 2}))
        .problem(403, "insufficient-scope");
    reader
        .get("/v1/users/me/webhooks")
        .problem(403, "insufficient-scope");
    personal(&reader, "more", json!(["game:read"])).problem(403, "insufficient-scope");
    // a token with game:play moves
    let r = player.post(&format!("/v1/games/{id}/moves"), body);
    assert_eq!(r.status, 200, "{}", r.text);
    // a personal token never makes tokens, not even with the scope `account` (only a
    // login session does: see tests/api/trust.rs)
    let account = ann.with_token(
        personal(&ann, "account", json!(["account"])).ok()["token"]
            .as_str()
            .unwrap(),
    );
    assert_eq!(account.get("/v1/users/me").status, 200);
    personal(&account, "escalate", json!(["game:play"])).problem(403, "insufficient-scope");
    personal(&account, "same", json!(["account"])).problem(403, "insufficient-scope");
}

fn secrets_are_shown_once_and_lists_are_paged(app: &TestApp) {
    let ann = app.user("ann");
    let bob = app.user("bob");
    let mut secrets = Vec::new();
    for i in 0..3 {
        let r = personal(&ann, &format!("t{i}"), json!(["game:read", "webhooks"]));
        assert_eq!(r.status, 201, "{}", r.text);
        assert!(r.header("ratelimit-remaining").is_some());
        secrets.push(r.json["token"].as_str().unwrap().to_string());
        app.clock.advance_ms(1000);
    }
    let p1 = ann.get("/v1/users/me/tokens?limit=2");
    let p1 = p1.ok().clone();
    let names: Vec<&str> = p1["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["t2", "t1"], "newest first");
    let cursor = p1["next_cursor"].as_str().expect("a next page");
    let p2 = ann.get(&format!("/v1/users/me/tokens?limit=2&cursor={cursor}"));
    assert_eq!(p2.ok()["tokens"][0]["name"], "t0");
    assert!(p2.json["next_cursor"].is_null());
    for page in [&p1, &p2.json] {
        for t in page["tokens"].as_array().unwrap() {
            assert!(
                t.get("token").is_none(),
                "a listed token has no secret: {t}"
            );
            assert_eq!(t["scopes"], json!(["game:read", "webhooks"]));
        }
        for s in &secrets {
            assert!(!page.to_string().contains(s.as_str()));
        }
    }
    // bob sees none of ann's, and cannot revoke them
    assert_eq!(bob.get("/v1/users/me/tokens").ok()["tokens"], json!([]));
    let id = p1["tokens"][0]["id"].as_str().unwrap().to_string();
    delete(&bob, &format!("/v1/users/me/tokens/{id}")).problem(404, "token-not-found");
    // revoked: refused at once, gone from the list, a second revocation is 404
    let t2 = ann.with_token(&secrets[2]);
    assert_eq!(t2.get("/v1/games").status, 200);
    assert_eq!(
        delete(&ann, &format!("/v1/users/me/tokens/{id}")).status,
        204
    );
    t2.get("/v1/games").problem(401, "unauthorized");
    delete(&ann, &format!("/v1/users/me/tokens/{id}")).problem(404, "token-not-found");
    let left = ann.get("/v1/users/me/tokens");
    assert_eq!(left.ok()["tokens"].as_array().unwrap().len(), 2);
    assert_eq!(ann.with_token(&secrets[1]).get("/v1/games").status, 200);
    // a made-up secret, a bad cursor, bad bodies
    ann.with_token("tpp_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
        .get("/v1/games")
        .problem(401, "unauthorized");
    ann.get("/v1/users/me/tokens?cursor=nope")
        .problem(400, "validation-failed");
    for bad in [
        json!({"name": "x", "scopes": []}),
        json!({"name": "x", "scopes": ["admin"]}),
        json!({"name": "x", "scopes": ["account", "account", "account", "account", "account"]}),
        json!({"name": "x".repeat(65), "scopes": ["account"]}),
        json!({"name": "", "scopes": ["account"]}),
        json!({"name": "x", "scopes": ["account"], "expires_in_days": 0}),
        json!({"name": "x", "scopes": ["account"], "extra": 1}),
    ] {
        ann.post("/v1/users/me/tokens", bad.clone())
            .problem(400, "validation-failed");
    }
}

fn personal_tokens_expire_and_are_limited(app: &TestApp) {
    let ann = app.user("ann");
    let r = ann.post(
        "/v1/users/me/tokens",
        json!({"name": "day", "scopes": ["game:read"], "expires_in_days": 1}),
    );
    assert!(r.ok()["expires_at"].is_string());
    let day = ann.with_token(r.json["token"].as_str().unwrap());
    assert_eq!(day.get("/v1/games").status, 200);
    app.clock.advance_ms(86_400_000);
    day.get("/v1/games").problem(401, "unauthorized");
    // TILEPOST_PERSONAL_TOKENS_PER_DAY (3 in this test; the one above is a day old)
    let login = login(app, "ann");
    let first = personal(&login, "a", json!(["account"]));
    assert_eq!(first.status, 201);
    assert_eq!(first.header("ratelimit-limit"), Some("3"));
    assert_eq!(first.header("ratelimit-remaining"), Some("2"));
    assert_eq!(personal(&login, "b", json!(["account"])).status, 201);
    let last = personal(&login, "c", json!(["account"]));
    assert_eq!(last.status, 201);
    assert_eq!(last.header("ratelimit-remaining"), Some("0"));
    let r = personal(&login, "d", json!(["account"]));
    r.problem(429, "rate-limited");
    assert!(r.header("retry-after").is_some());
}

/// Two server processes on one database: a logout (and a revoked personal token) in one
/// is refused by the other within the token cache's time.
fn a_revocation_reaches_another_process_within_the_cache_time(kind: Db) {
    let cache_ms = 400;
    let app = TestApp::with(kind, |c| c.token_cache_ms = cache_ms);
    let mut config = test_config(&app.db.url);
    config.token_cache_ms = cache_ms;
    let other = tilepost::startup::spawn(config, app.clock.clone()).expect("second server");
    let ann = app.user("ann");
    let pat = personal(&ann, "bot", json!(["game:read"]));
    let pat = pat.ok()["token"].as_str().unwrap().to_string();
    let there = Client::new(&other.url(), ann.token.clone());
    let pat_there = Client::new(&other.url(), Some(pat.clone()));
    // the second process knows (and caches) both tokens
    assert_eq!(there.get("/v1/users/me").status, 200);
    assert_eq!(pat_there.get("/v1/games").status, 200);
    assert_eq!(ann.post("/v1/auth/logout", json!({})).status, 204);
    let again = login(&app, "ann");
    let id = only_token_id(&again);
    assert_eq!(
        delete(&again, &format!("/v1/users/me/tokens/{id}")).status,
        204
    );
    // at once here
    ann.get("/v1/users/me").problem(401, "unauthorized");
    ann.with_token(&pat)
        .get("/v1/games")
        .problem(401, "unauthorized");
    // within the cache time there
    std::thread::sleep(Duration::from_millis(cache_ms + 100));
    there.get("/v1/users/me").problem(401, "unauthorized");
    pat_there.get("/v1/games").problem(401, "unauthorized");
    // and log out everywhere too
    let there2 = Client::new(&other.url(), again.token.clone());
    assert_eq!(there2.get("/v1/users/me").status, 200);
    assert_eq!(delete(&again, "/v1/users/me/sessions").status, 204);
    std::thread::sleep(Duration::from_millis(cache_ms + 100));
    there2.get("/v1/users/me").problem(401, "unauthorized");
}

/// The id of the caller's only personal access token.
fn only_token_id(c: &Client) -> String {
    let list = c.get("/v1/users/me/tokens");
    let tokens = list.ok()["tokens"].as_array().unwrap().clone();
    assert_eq!(tokens.len(), 1);
    tokens[0]["id"].as_str().unwrap().to_string()
}

fn limited_app_personal_tokens(kind: Db) {
    let app = TestApp::with(kind, |c| c.personal_tokens_per_day = 3);
    personal_tokens_expire_and_are_limited(&app);
}

mod processes {
    use super::*;

    #[test]
    fn a_revocation_reaches_another_process_sqlite() {
        a_revocation_reaches_another_process_within_the_cache_time(Db::Sqlite);
    }

    #[test]
    fn a_revocation_reaches_another_process_postgres() {
        a_revocation_reaches_another_process_within_the_cache_time(Db::Postgres);
    }

    #[test]
    fn personal_tokens_expire_and_are_limited_sqlite() {
        limited_app_personal_tokens(Db::Sqlite);
    }

    #[test]
    fn personal_tokens_expire_and_are_limited_postgres() {
        limited_app_personal_tokens(Db::Postgres);
    }
}

crate::both!(
    logout_refuses_the_token_at_once,
    log_out_everywhere_ends_every_session,
    a_read_token_reads_but_cannot_move,
    secrets_are_shown_once_and_lists_are_paged,
);
