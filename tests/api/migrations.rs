//! Migrations over existing data: the case-insensitive usernames migration
//! (`2024-04-03-000000_usernames_case_insensitive`) meets accounts whose names differ
//! only in case (`ann`, `ANN`, `Ann`). As it says, the oldest holder keeps the name (then
//! the smallest id), each later one gets a suffix of its id, the unique index goes on,
//! and every account can still log in under the name it now has. The tournament
//! players migration (`2024-06-24-000000_tournament_players`) fills each event's
//! players and its count of rounds from the logs that exist.

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::sql_types::Text;
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};
use serde_json::json;

use crate::common::*;

const PG: EmbeddedMigrations = embed_migrations!("migrations/postgres");
const SQLITE: EmbeddedMigrations = embed_migrations!("migrations/sqlite");

/// The migration under test.
const CASE_INSENSITIVE: &str = "2024-04-03-000000_usernames_case_insensitive";

/// Runs the migrations before `stop` (by name, in order), then `between`, then the rest.
fn migrate_around<C>(c: &mut C, all: EmbeddedMigrations, stop: &str, between: impl FnOnce(&mut C))
where
    C: MigrationHarness<C::Backend> + diesel::Connection,
{
    let pending = c.pending_migrations(all).expect("pending migrations");
    let names: Vec<String> = pending.iter().map(|m| m.name().to_string()).collect();
    let at = names
        .iter()
        .position(|n| n == stop)
        .unwrap_or_else(|| panic!("no migration {stop} among {names:?}"));
    for m in &pending[..at] {
        c.run_migration(&**m).expect("an earlier migration");
    }
    between(c);
    for m in &pending[at..] {
        c.run_migration(&**m)
            .unwrap_or_else(|e| panic!("{}: {e}", m.name()));
    }
}

#[derive(QueryableByName, Debug, PartialEq, Eq)]
struct Named {
    #[diesel(sql_type = Text)]
    id: String,
    #[diesel(sql_type = Text)]
    username: String,
}

/// `ann` (oldest), `ANN` and `Ann` (same time, ids ordered), and `bob`.
fn users_sql(hash: &str) -> String {
    let row = |id: &str, name: &str, at: i64| {
        format!(
            "INSERT INTO users (id, username, email, password_hash, notify_turn, notify_finished, created_at) \
             VALUES ('{id}', '{name}', '{name}@example.com', '{hash}', 1, 1, {at});"
        )
    };
    [
        row("cccccccc-0000-0000-0000-000000000001", "ANN", 2_000),
        row("aaaaaaaa-0000-0000-0000-000000000002", "ann", 1_000),
        row("bbbbbbbb-0000-0000-0000-000000000003", "Ann", 2_000),
        row("dddddddd-0000-0000-0000-000000000004", "bob", 3_000),
    ]
    .concat()
}

fn names(rows: Vec<Named>) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = rows.into_iter().map(|n| (n.id, n.username)).collect();
    v.sort();
    v
}

fn duplicates_in_case_are_renamed_and_can_log_in(kind: Db) {
    use argon2::password_hash::{PasswordHasher, SaltString};
    let hash = argon2::Argon2::new(
        argon2::Algorithm::Argon2id,
        argon2::Version::V0x13,
        argon2::Params::new(64, 1, 1, None).expect("params"),
    )
    .hash_password(
        b"correct horse",
        &SaltString::encode_b64(b"a fixed salt").expect("salt"),
    )
    .expect("hash")
    .to_string();
    let db = TestDb::new(kind);
    let sql = users_sql(&hash);
    let query = "SELECT id, username FROM users";
    let after = match kind {
        Db::Postgres => {
            let mut c = diesel::PgConnection::establish(&db.url).expect("connect");
            migrate_around(&mut c, PG, CASE_INSENSITIVE, |c| {
                c.batch_execute(&sql).expect("the users")
            });
            let dup = diesel::sql_query(
                "INSERT INTO users (id, username, email, password_hash, created_at) \
                 VALUES ('e', 'BOB', 'b@example.com', 'x', 1)",
            )
            .execute(&mut c);
            assert!(dup.is_err(), "the index refuses a new duplicate in case");
            names(diesel::sql_query(query).load(&mut c).expect("users"))
        }
        Db::Sqlite => {
            let path = db.url.trim_start_matches("sqlite://").to_string();
            let mut c = diesel::SqliteConnection::establish(&path).expect("connect");
            migrate_around(&mut c, SQLITE, CASE_INSENSITIVE, |c| {
                c.batch_execute(&sql).expect("the users")
            });
            let dup = diesel::sql_query(
                "INSERT INTO users (id, username, email, password_hash, created_at) \
                 VALUES ('e', 'BOB', 'b@example.com', 'x', 1)",
            )
            .execute(&mut c);
            assert!(dup.is_err(), "the index refuses a new duplicate in case");
            names(diesel::sql_query(query).load(&mut c).expect("users"))
        }
    };
    let want: Vec<(String, String)> = [
        ("aaaaaaaa-0000-0000-0000-000000000002", "ann"),
        ("bbbbbbbb-0000-0000-0000-000000000003", "Ann-bbbbbbbb"),
        ("cccccccc-0000-0000-0000-000000000001", "ANN-cccccccc"),
        ("dddddddd-0000-0000-0000-000000000004", "bob"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(after, want);
    // the server on that database: every account logs in under its name, `ann` in any
    // case is the oldest account, and the name cannot be taken again in another case
    let server = tilepost::startup::spawn(
        test_config(&db.url),
        std::sync::Arc::new(tilepost::clock::SystemClock),
    )
    .expect("server");
    let anon = Client::new(&server.url(), None);
    for (id, name) in &want {
        let t = anon.post(
            "/v1/auth/token",
            json!({"username": name, "password": "correct horse"}),
        );
        let token = t.ok()["access_token"].as_str().expect("token").to_string();
        let me = anon.with_token(&token).get("/v1/users/me");
        assert_eq!(me.ok()["id"], id.as_str(), "{name}");
    }
    let t = anon.post(
        "/v1/auth/token",
        json!({"username": "ANN", "password": "correct horse"}),
    );
    let me = anon
        .with_token(t.ok()["access_token"].as_str().unwrap())
        .get("/v1/users/me");
    assert_eq!(me.ok()["username"], "ann");
    anon.post(
        "/v1/users",
        json!({"username": "aNN", "email": "x@example.com", "password": "correct horse"}),
    )
    .problem(409, "username-taken");
}

#[test]
fn case_duplicates_before_the_migration_sqlite() {
    duplicates_in_case_are_renamed_and_can_log_in(Db::Sqlite);
}

#[test]
fn case_duplicates_before_the_migration_postgres() {
    duplicates_in_case_are_renamed_and_can_log_in(Db::Postgres);
}

/// The migration that keeps each tournament's players beside its log.
const TOURNAMENT_PLAYERS: &str = "2024-06-24-000000_tournament_players";

#[derive(QueryableByName, Debug, PartialEq, Eq)]
struct Entrant {
    #[diesel(sql_type = Text)]
    user_id: String,
    #[diesel(sql_type = diesel::sql_types::Integer)]
    withdrawn: i32,
}

#[derive(QueryableByName, Debug, PartialEq, Eq)]
struct Paired {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    rounds_paired: i32,
}

/// An event's log before the migration: ann, bob and cat registered, bob withdrew, cat
/// was removed, two rounds paired (payloads as the crate writes them).
fn tournament_sql() -> String {
    let user = |id: &str| {
        format!(
            "INSERT INTO users (id, username, email, password_hash, notify_turn, notify_finished, created_at) \
             VALUES ('{id}', '{id}', '{id}@example.com', 'x', 1, 1, 1);"
        )
    };
    let event = |seq: i32, kind: &str, payload: &str| {
        format!(
            "INSERT INTO tournament_events (tournament_id, seq, event_type, event_version, payload, actor_id, created_at) \
             VALUES ('t1', {seq}, '{kind}', 1, '{payload}', NULL, {seq});"
        )
    };
    let table = r#"{"seats":["ann","bob"],"table":1}"#;
    [
        user("org"),
        user("ann"),
        user("bob"),
        user("cat"),
        "INSERT INTO tournaments (id, name, organiser_id, status, config, version, players, \
         current_stage, current_round, created_at, updated_at) \
         VALUES ('t1', 'Cup', 'org', 'running', '{}', 8, 3, 0, 2, 1, 1);"
            .to_string(),
        event(1, "tournament_created", r#"{"config":{}}"#),
        event(2, "player_registered", r#"{"player":"ann","rating":1600}"#),
        event(3, "player_registered", r#"{"player":"bob"}"#),
        event(4, "player_registered", r#"{"player":"cat"}"#),
        event(
            5,
            "round_paired",
            &format!(r#"{{"round":1,"stage":0,"tables":[{table}]}}"#),
        ),
        event(6, "player_withdrew", r#"{"player":"bob"}"#),
        event(
            7,
            "organiser_adjusted",
            r#"{"adjustment":{"kind":"player_removed","player":"cat"},"reason":"gone"}"#,
        ),
        event(
            8,
            "round_paired",
            &format!(r#"{{"round":2,"stage":0,"tables":[{table}]}}"#),
        ),
    ]
    .concat()
}

fn tournament_players_are_filled_from_the_logs(kind: Db) {
    let db = TestDb::new(kind);
    let sql = tournament_sql();
    let players = "SELECT user_id, withdrawn FROM tournament_players ORDER BY user_id";
    let rounds = "SELECT rounds_paired FROM tournaments";
    let (got, paired): (Vec<Entrant>, Vec<Paired>) = match kind {
        Db::Postgres => {
            let mut c = diesel::PgConnection::establish(&db.url).expect("connect");
            migrate_around(&mut c, PG, TOURNAMENT_PLAYERS, |c| {
                c.batch_execute(&sql).expect("the event")
            });
            (
                diesel::sql_query(players).load(&mut c).expect("players"),
                diesel::sql_query(rounds).load(&mut c).expect("rounds"),
            )
        }
        Db::Sqlite => {
            let path = db.url.trim_start_matches("sqlite://").to_string();
            let mut c = diesel::SqliteConnection::establish(&path).expect("connect");
            migrate_around(&mut c, SQLITE, TOURNAMENT_PLAYERS, |c| {
                c.batch_execute(&sql).expect("the event")
            });
            (
                diesel::sql_query(players).load(&mut c).expect("players"),
                diesel::sql_query(rounds).load(&mut c).expect("rounds"),
            )
        }
    };
    let entrant = |user_id: &str, withdrawn: i32| Entrant {
        user_id: user_id.into(),
        withdrawn,
    };
    assert_eq!(
        got,
        [entrant("ann", 0), entrant("bob", 1), entrant("cat", 1)]
    );
    assert_eq!(paired, [Paired { rounds_paired: 2 }]);
}

#[test]
fn tournament_players_from_the_logs_sqlite() {
    tournament_players_are_filled_from_the_logs(Db::Sqlite);
}

#[test]
fn tournament_players_from_the_logs_postgres() {
    tournament_players_are_filled_from_the_logs(Db::Postgres);
}

/// Every migration has a version of its own (the date and number before its name), and
/// both backends have the same migrations: diesel runs one migration per version, so a
/// second one with the same version would never run.
#[test]
fn migration_versions_are_unique_and_shared_by_both_backends() {
    let list = |backend: &str| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(format!("migrations/{backend}"))
            .expect("migrations folder")
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let pg = list("postgres");
    assert_eq!(pg, list("sqlite"), "the same migrations on both backends");
    let mut versions: Vec<&str> = pg
        .iter()
        .map(|n| n.split('_').next().unwrap_or(n))
        .collect();
    let n = versions.len();
    versions.dedup();
    assert_eq!(versions.len(), n, "two migrations share a version: {pg:?}");
}

/// A migration is written once where the dialects agree: a SQLite file with the same
/// SQL as its Postgres twin is a link to it, and every link leads to that twin.
#[test]
fn sqlite_migrations_equal_to_postgres_ones_are_links_to_them() {
    let mut copies = Vec::new();
    let mut links = 0;
    let dirs = std::fs::read_dir("migrations/sqlite").expect("migrations folder");
    for dir in dirs.filter_map(|e| e.ok()).filter(|e| e.path().is_dir()) {
        let name = dir.file_name().to_string_lossy().into_owned();
        for file in ["up.sql", "down.sql"] {
            let lite = dir.path().join(file);
            let pg = std::path::Path::new("migrations/postgres")
                .join(&name)
                .join(file);
            let meta = std::fs::symlink_metadata(&lite).expect("a migration file");
            if meta.file_type().is_symlink() {
                let target = std::fs::read_link(&lite).expect("a link");
                assert_eq!(
                    target,
                    std::path::Path::new("../../postgres")
                        .join(&name)
                        .join(file),
                    "{name}/{file} links to its Postgres twin"
                );
                assert!(pg.is_file(), "{name}/{file}: the twin exists");
                links += 1;
            } else if std::fs::read(&lite).ok() == std::fs::read(&pg).ok() {
                copies.push(format!("{name}/{file}"));
            }
        }
    }
    assert!(copies.is_empty(), "copies to make links of: {copies:?}");
    assert!(links > 0);
}
