//! Accounts and tokens: wrong, expired, forged and `alg: none` tokens get 401.

use base64::Engine as _;
use jsonwebtoken::{encode, Algorithm, EncodingKey, Header};
use serde_json::json;

use crate::common::*;
use tilepost::clock::Clock;

fn b64(v: &serde_json::Value) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string())
}

fn claims(sub: &str, iat: i64, exp: i64) -> serde_json::Value {
    json!({"sub": sub, "iss": "tilepost", "aud": "tilepost-api", "iat": iat, "exp": exp})
}

/// The session id (`sid`) of a login token.
fn sid_of(token: &str) -> serde_json::Value {
    let payload = token.split('.').nth(1).expect("a JWT");
    let payload: serde_json::Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .expect("base64url"),
    )
    .expect("JSON claims");
    assert!(payload["sid"].is_string(), "{payload}");
    payload["sid"].clone()
}

fn sign(alg: Algorithm, secret: &str, c: &serde_json::Value) -> String {
    encode(
        &Header::new(alg),
        c,
        &EncodingKey::from_secret(secret.as_bytes()),
    )
    .unwrap()
}

fn credentials(app: &TestApp) {
    let ann = app.user("ann");
    let anon = app.anon();
    let wrong = anon.post(
        "/v1/auth/token",
        json!({"username": "ann", "password": "wrong password"}),
    );
    wrong.problem(401, "invalid-credentials");
    let unknown = anon.post(
        "/v1/auth/token",
        json!({"username": "nobody", "password": "wrong password"}),
    );
    unknown.problem(401, "invalid-credentials");
    assert_eq!(wrong.text, unknown.text, "same answer for unknown users");
    let me = ann.get("/v1/users/me");
    assert_eq!(me.ok()["username"], "ann");
    assert_eq!(me.json["notifications"]["turn"], true);
    let p = ann.request(
        "PATCH",
        "/v1/users/me",
        Some(&json!({"notifications": {"turn": false}}).to_string()),
        &[],
    );
    assert_eq!(p.ok()["email"], "ann@example.com");
    assert_eq!(p.json["notifications"]["turn"], false);
    assert_eq!(p.json["notifications"]["finished"], true);
    // the address changes only with the password (POST /v1/users/me/email)
    ann.request(
        "PATCH",
        "/v1/users/me",
        Some(r#"{"email": "ann@example.org"}"#),
        &[],
    )
    .problem(400, "validation-failed");
    ann.request("PATCH", "/v1/users/me", Some(r#"{"nickname": "a"}"#), &[])
        .problem(400, "validation-failed");
}

fn bad_tokens_get_401(app: &TestApp) {
    let ann = app.user("ann");
    let now = app.clock.now_ms() / 1000;
    let sub = ann.user_id.clone();
    let sid = sid_of(ann.token.as_deref().unwrap());
    // every case below names ann's live session: each is refused for its own flaw
    let claims = |sub: &str, iat: i64, exp: i64| {
        let mut c = claims(sub, iat, exp);
        c["sid"] = sid.clone();
        c
    };
    let none = format!(
        "{}.{}.",
        b64(&json!({"alg": "none", "typ": "JWT"})),
        b64(&claims(&sub, now, now + 600))
    );
    let mut no_aud = claims(&sub, now, now + 600);
    no_aud.as_object_mut().unwrap().remove("aud");
    let mut wrong_iss = claims(&sub, now, now + 600);
    wrong_iss["iss"] = json!("someone-else");
    let cases = [
        ("garbage", "not-a-token".to_string()),
        (
            "expired",
            sign(
                Algorithm::HS256,
                JWT_SECRET,
                &claims(&sub, now - 7200, now - 3600),
            ),
        ),
        (
            "forged",
            sign(
                Algorithm::HS256,
                "another-secret-entirely-000000000",
                &claims(&sub, now, now + 600),
            ),
        ),
        ("alg none", none),
        (
            "other algorithm",
            sign(Algorithm::HS512, JWT_SECRET, &claims(&sub, now, now + 600)),
        ),
        ("no aud", sign(Algorithm::HS256, JWT_SECRET, &no_aud)),
        ("wrong iss", sign(Algorithm::HS256, JWT_SECRET, &wrong_iss)),
    ];
    for (what, token) in cases {
        let r = ann.with_token(&token).get("/v1/users/me");
        assert_eq!(r.status, 401, "{what}: {}", r.text);
        r.problem(401, "unauthorized");
        assert_eq!(r.header("www-authenticate"), Some("Bearer"), "{what}");
        // and a bad token is refused even where a token is optional
        assert_eq!(
            ann.with_token(&token).get("/v1/games").status,
            401,
            "{what}"
        );
    }
    // a well-formed token of the right key works when it names a live session of its
    // user, and only then
    let good = sign(Algorithm::HS256, JWT_SECRET, &claims(&sub, now, now + 600));
    assert_eq!(ann.with_token(&good).get("/v1/users/me").status, 200);
    let mut no_session = claims(&sub, now, now + 600);
    no_session["sid"] = json!(uuid::Uuid::new_v4().to_string());
    let no_session = sign(Algorithm::HS256, JWT_SECRET, &no_session);
    ann.with_token(&no_session)
        .get("/v1/users/me")
        .problem(401, "unauthorized");
    // another user's session under ann's name
    let bob = app.user("bob");
    let mut stolen = claims(&sub, now, now + 600);
    stolen["sid"] = sid_of(bob.token.as_deref().unwrap());
    let stolen = sign(Algorithm::HS256, JWT_SECRET, &stolen);
    ann.with_token(&stolen)
        .get("/v1/users/me")
        .problem(401, "unauthorized");
    // a token without a session id
    let mut no_sid = claims(&sub, now, now + 600);
    no_sid.as_object_mut().unwrap().remove("sid");
    let no_sid = sign(Algorithm::HS256, JWT_SECRET, &no_sid);
    ann.with_token(&no_sid)
        .get("/v1/users/me")
        .problem(401, "unauthorized");
    // no token, or another scheme
    app.anon().get("/v1/users/me").problem(401, "unauthorized");
    app.anon()
        .request(
            "GET",
            "/v1/users/me",
            None,
            &[("Authorization", "Basic YW5uOng=")],
        )
        .problem(401, "unauthorized");
    app.anon()
        .post("/v1/games", json!({"seats": 2}))
        .problem(401, "unauthorized");
}

/// Tokens expire by the server's clock (injected, so time can be moved by hand).
fn tokens_expire_with_the_clock(app: &TestApp) {
    let ann = app.user("ann");
    assert_eq!(ann.get("/v1/users/me").status, 200);
    app.clock.advance_ms(3_601_000);
    ann.get("/v1/users/me").problem(401, "unauthorized");
}

crate::both!(
    credentials,
    bad_tokens_get_401,
    tokens_expire_with_the_clock
);
