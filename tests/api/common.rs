//! The test harness: the real server on port 0 over HTTP, each test on its own fresh
//! database (an SQLite file in a temporary directory, or a new Postgres database on the
//! server in `DATABASE_URL`, default `postgres://postgres@127.0.0.1:5432/test`; the
//! database the URL names is created when missing and serves only to create and drop the
//! tests' own).

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tilepost::clock::{Clock, ManualClock, SystemClock};
use tilepost::config::Config;
use tilepost::startup::{spawn, Running};

pub const JWT_SECRET: &str = "test-secret-0123456789abcdef0123456789abcdef";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Db {
    Sqlite,
    Postgres,
}

/// Generates one `#[test]` per backend for each scenario `fn name(app: &TestApp)`.
#[macro_export]
macro_rules! both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $( #[test] fn $name() { super::$name(&$crate::common::TestApp::new($crate::common::Db::Sqlite)); } )*
        }
        mod postgres {
            $( #[test] fn $name() { super::$name(&$crate::common::TestApp::new($crate::common::Db::Postgres)); } )*
        }
    };
}

pub fn postgres_base() -> String {
    std::env::var("DATABASE_URL")
        .ok()
        .filter(|u| u.starts_with("postgres://") || u.starts_with("postgresql://"))
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/test".to_string())
}

/// Replaces the database name of a Postgres URL.
pub fn with_db(base: &str, db: &str) -> String {
    let (head, query) = match base.split_once('?') {
        Some((h, q)) => (h, Some(q)),
        None => (base, None),
    };
    let scheme_end = head.find("://").map(|i| i + 3).unwrap_or(0);
    let root = match head[scheme_end..].find('/') {
        Some(i) => &head[..scheme_end + i],
        None => head,
    };
    match query {
        Some(q) => format!("{root}/{db}?{q}"),
        None => format!("{root}/{db}"),
    }
}

/// Creates the database the base URL names when it is missing (a stock Postgres has only
/// `postgres` and the templates), from the server's `postgres` database, once per run.
fn ensure_base_database() {
    use diesel::{Connection, RunQueryDsl};
    static DONE: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    DONE.get_or_init(|| {
        let base = postgres_base();
        if diesel::PgConnection::establish(&base).is_ok() {
            return;
        }
        let head = base.split('?').next().unwrap_or_default();
        let name = head.rsplit('/').next().unwrap_or_default().replace('"', "");
        if name.is_empty() {
            return;
        }
        if let Ok(mut c) = diesel::PgConnection::establish(&with_db(&base, "postgres")) {
            // another test process may create it first: the connection below says
            let _ = diesel::sql_query(format!("CREATE DATABASE \"{name}\"")).execute(&mut c);
        }
    });
}

pub fn pg_admin(sql: &str) {
    use diesel::{Connection, RunQueryDsl};
    ensure_base_database();
    let mut c = diesel::PgConnection::establish(&postgres_base())
        .unwrap_or_else(|e| panic!("cannot reach Postgres at {}: {e}", postgres_base()));
    diesel::sql_query(sql)
        .execute(&mut c)
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

/// A fresh database.
pub struct TestDb {
    pub kind: Db,
    pub url: String,
    pg_name: Option<String>,
    _dir: Option<tempfile::TempDir>,
}

impl TestDb {
    pub fn new(kind: Db) -> TestDb {
        match kind {
            Db::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let url = format!("sqlite://{}", dir.path().join("test.db").display());
                TestDb {
                    kind,
                    url,
                    pg_name: None,
                    _dir: Some(dir),
                }
            }
            Db::Postgres => {
                let name = format!("tp_test_{}", uuid::Uuid::new_v4().simple());
                pg_admin(&format!("CREATE DATABASE {name}"));
                TestDb {
                    kind,
                    url: with_db(&postgres_base(), &name),
                    pg_name: Some(name),
                    _dir: None,
                }
            }
        }
    }

    /// Drops a Postgres database now (to simulate an outage).
    pub fn drop_now(&self) {
        if let Some(n) = &self.pg_name {
            pg_admin(&format!("DROP DATABASE IF EXISTS {n} WITH (FORCE)"));
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some(n) = &self.pg_name {
            use diesel::{Connection, RunQueryDsl};
            if let Ok(mut c) = diesel::PgConnection::establish(&postgres_base()) {
                let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {n} WITH (FORCE)"))
                    .execute(&mut c);
            }
        }
    }
}

pub fn test_config(url: &str) -> Config {
    Config {
        bind: "127.0.0.1:0".into(),
        database_url: url.to_string(),
        jwt_secret: Some(JWT_SECRET.into()),
        token_ttl_secs: 3600,
        public_url: "http://tilepost.test".into(),
        argon2_memory_kib: 64,
        argon2_iterations: 1,
        argon2_parallelism: 1,
        db_pool_size: 4,
        db_timeout_ms: 1500,
        workers: 2,
        max_body_bytes: 64 * 1024,
        reminder_before_secs: 86_400,
        deadline_sweep_ms: 0,
        // the bot worker runs only where a test turns it on
        bot_poll_ms: 0,
        vacation_days_per_year: 14,
        // every test user signs up from 127.0.0.1
        signups_per_address: 100_000,
        games_per_hour: 100_000,
        chat_per_minute: 100_000,
        invitations_per_game: 100_000,
        invitations_per_day: 100_000,
        webhooks_per_day: 100_000,
        moves_per_minute: 100_000,
        tournaments_per_day: 100_000,
        tournament_entries_per_hour: 100_000,
        ..Config::default()
    }
}

/// A running server on its own database. Fields drop in order: server, then database.
pub struct TestApp {
    pub server: Running,
    pub clock: Arc<ManualClock>,
    pub db: TestDb,
}

impl TestApp {
    pub fn new(kind: Db) -> TestApp {
        TestApp::with(kind, |_| {})
    }

    pub fn with(kind: Db, tweak: impl FnOnce(&mut Config)) -> TestApp {
        let db = TestDb::new(kind);
        let mut config = test_config(&db.url);
        tweak(&mut config);
        let clock = Arc::new(ManualClock::new(SystemClock.now_ms()));
        let server = spawn(config, clock.clone()).expect("server starts");
        TestApp { server, clock, db }
    }

    pub fn url(&self) -> String {
        self.server.url()
    }

    pub fn anon(&self) -> Client {
        Client::new(&self.url(), None)
    }

    /// Registers a user, confirms their address with the link of their confirmation
    /// email (read from the server's outbox, where the relay would take it from) and
    /// returns a client holding their token. Since sign-up addresses are unconfirmed
    /// until then and get no other email, this is what a player who wants game emails
    /// does; [`TestApp::unverified_user`] stops before it.
    pub fn user(&self, name: &str) -> Client {
        let c = self.unverified_user(name);
        let token = self.link_token(&c.user_id, "account.verify_email", "token");
        let v = self
            .anon()
            .post("/v1/auth/verify-email", json!({"token": token}));
        assert_eq!(v.status, 200, "verify {name}: {}", v.text);
        c
    }

    /// Registers a user (their address unconfirmed) and returns a client with their
    /// token.
    pub fn unverified_user(&self, name: &str) -> Client {
        let c = self.anon();
        let r = c.post(
            "/v1/users",
            json!({"username": name, "email": format!("{name}@example.com"), "password": "correct horse"}),
        );
        assert_eq!(r.status, 201, "register {name}: {}", r.text);
        let t = c.post(
            "/v1/auth/token",
            json!({"username": name, "password": "correct horse"}),
        );
        assert_eq!(t.status, 200, "token {name}: {}", t.text);
        let token = t.json["access_token"].as_str().expect("token").to_string();
        let mut c = Client::new(&self.url(), Some(token));
        c.user_id = r.json["id"].as_str().unwrap_or_default().to_string();
        c.name = name.to_string();
        c
    }

    /// The messages of `kind` queued for a user, oldest first (the payloads the relay
    /// gets).
    pub fn messages(&self, user_id: &str, kind: &str) -> Vec<Value> {
        let rows = actix_web::rt::System::new()
            .block_on(self.server.state.store.outbox_for_user(user_id.to_string()))
            .expect("outbox");
        rows.into_iter()
            .filter(|m| m.kind == kind)
            .map(|m| serde_json::from_str(&m.payload).expect("payload"))
            .collect()
    }

    /// The `token` query parameter of the link in the newest message of `kind` to a user.
    pub fn link_token(&self, user_id: &str, kind: &str, param: &str) -> String {
        let m = self
            .messages(user_id, kind)
            .pop()
            .unwrap_or_else(|| panic!("no {kind} message for {user_id}"));
        link_param(&m, param)
    }
}

/// A query parameter of the (only) link of an account message.
pub fn link_param(message: &Value, param: &str) -> String {
    let links = message["data"]["links"].as_object().expect("links");
    let url = links
        .values()
        .next()
        .and_then(|v| v.as_str())
        .expect("a link");
    let query = url.split_once('?').map(|(_, q)| q).unwrap_or_default();
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix(&format!("{param}=")))
        .unwrap_or_else(|| panic!("no {param} in {url}"))
        .to_string()
}

/// An HTTP answer.
#[derive(Debug, Clone)]
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub text: String,
    pub json: Value,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Asserts a problem answer with this status and code.
    #[track_caller]
    pub fn problem(&self, status: u16, code: &str) -> &Resp {
        assert_eq!(
            (self.status, self.json["code"].as_str().unwrap_or("")),
            (status, code),
            "body: {}",
            self.text
        );
        assert_eq!(
            self.header("content-type"),
            Some("application/problem+json"),
            "problem content type"
        );
        assert_eq!(self.json["status"].as_u64(), Some(status as u64));
        assert!(self.json["type"].is_string() && self.json["title"].is_string());
        assert!(self.json["detail"].is_string());
        self
    }

    #[track_caller]
    pub fn ok(&self) -> &Value {
        assert!(
            (200..300).contains(&self.status),
            "expected success, got {}: {}",
            self.status,
            self.text
        );
        &self.json
    }
}

/// A client with an optional bearer token.
#[derive(Clone)]
pub struct Client {
    base: String,
    pub token: Option<String>,
    pub user_id: String,
    pub name: String,
    agent: ureq::Agent,
}

impl Client {
    pub fn new(base: &str, token: Option<String>) -> Client {
        Client {
            base: base.to_string(),
            token,
            user_id: String::new(),
            name: String::new(),
            agent: ureq::AgentBuilder::new()
                .timeout(Duration::from_secs(30))
                .build(),
        }
    }

    pub fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
        headers: &[(&str, &str)],
    ) -> Resp {
        let mut req = self
            .agent
            .request(method, &format!("{}{}", self.base, path));
        if let Some(t) = &self.token {
            req = req.set("Authorization", &format!("Bearer {t}"));
        }
        for (k, v) in headers {
            req = req.set(k, v);
        }
        let result = match body {
            Some(b) => {
                if !headers
                    .iter()
                    .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
                {
                    req = req.set("Content-Type", "application/json");
                }
                req.send_string(b)
            }
            None => req.call(),
        };
        let resp = match result {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{method} {path}: transport error {e}"),
        };
        let status = resp.status();
        let headers = resp
            .headers_names()
            .into_iter()
            .filter_map(|n| resp.header(&n).map(|v| (n.clone(), v.to_string())))
            .collect();
        let text = resp.into_string().unwrap_or_default();
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        Resp {
            status,
            headers,
            text,
            json,
        }
    }

    pub fn get(&self, path: &str) -> Resp {
        self.request("GET", path, None, &[])
    }

    pub fn post(&self, path: &str, body: Value) -> Resp {
        self.request("POST", path, Some(&body.to_string()), &[])
    }

    pub fn post_with(&self, path: &str, body: Value, headers: &[(&str, &str)]) -> Resp {
        self.request("POST", path, Some(&body.to_string()), headers)
    }

    /// The same caller speaking to another server (a second process on the same
    /// database).
    pub fn on(&self, base: &str) -> Client {
        let mut c = self.clone();
        c.base = base.to_string();
        c
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    pub fn with_token(&self, token: &str) -> Client {
        let mut c = self.clone();
        c.token = Some(token.to_string());
        c
    }
}

/// Creates a game of `players.len()` seats by the first player, joined by the others.
pub fn start_game(players: &[&Client], options: Value) -> String {
    let mut body = json!({"seats": players.len()});
    if !options.is_null() {
        body["options"] = options;
    }
    let g = players[0].post("/v1/games", body);
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().expect("id").to_string();
    for p in &players[1..] {
        p.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    }
    id
}

/// A small deterministic random number generator for test clients.
pub struct TestRng(u64);

impl TestRng {
    pub fn new(seed: u64) -> TestRng {
        TestRng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// The client of the seat whose decision is pending.
pub fn client_for<'a>(players: &[&'a Client], pending: &Value) -> &'a Client {
    let uid = pending["user_id"].as_str().unwrap_or_default();
    players
        .iter()
        .find(|c| c.user_id == uid)
        .copied()
        .expect("pending user is one of the players")
}

/// Plays a game to its end with a generic random client: it only ever posts an option
/// that `…/actions` listed, and every one of them must be accepted. Returns the number of
/// moves.
pub fn play_random(players: &[&Client], id: &str, seed: u64) -> usize {
    let mut rng = TestRng::new(seed);
    let mut moves = 0;
    loop {
        let a = players[0].get(&format!("/v1/games/{id}/actions"));
        let a = a.ok().clone();
        let options = a["actions"].as_array().cloned().unwrap_or_default();
        if a["pending"].is_null() {
            assert!(options.is_empty());
            return moves;
        }
        assert!(!options.is_empty(), "a pending decision has options");
        let pick = options[rng.below(options.len())].clone();
        let who = client_for(players, &a["pending"]);
        let r = who.post(
            &format!("/v1/games/{id}/moves"),
            json!({"expected_version": a["version"], "actions": [pick]}),
        );
        assert_eq!(r.status, 200, "listed action {pick} refused: {}", r.text);
        moves += 1;
        assert!(moves < 2000, "the game does not end");
    }
}

/// Each of `players` makes `n` decisions of their own in game `id` (the first option
/// `…/actions` lists, one request each; what the server decides for them is not theirs),
/// the quickest way to a game that counts for the ratings (docs/players.md).
pub fn decide_each(players: &[&Client], id: &str, n: usize) {
    let mut made = vec![0; players.len()];
    while made.iter().any(|m| *m < n) {
        let a = players[0].get(&format!("/v1/games/{id}/actions"));
        let a = a.ok().clone();
        assert!(!a["pending"].is_null(), "the game ended first");
        let who = client_for(players, &a["pending"]);
        let r = who.post(
            &format!("/v1/games/{id}/moves"),
            json!({"expected_version": a["version"], "actions": [a["actions"][0]]}),
        );
        assert_eq!(r.status, 200, "{}", r.text);
        if let Some(i) = players.iter().position(|p| p.user_id == who.user_id) {
            made[i] += 1;
        }
    }
}
