//! Lists paged in the query: 10,000 games of one player listed page by page, each
//! exactly once and in the documented order, with each filter; the history and the chat
//! each exactly once, in order, while new rows arrive between pages; and on Postgres
//! the my-turn list reads the games through an index, never a sequential scan.

use std::collections::HashSet;

use serde_json::{json, Value};
use tilepost::clock::Clock;

use crate::common::{start_game, Client, Db, TestApp};

const DAY: i64 = 86_400_000;

/// Runs SQL statements on the test's database (seeding rows fast, reading statistics).
pub(crate) fn sql(app: &TestApp, statements: &str) {
    use diesel::connection::SimpleConnection;
    use diesel::Connection;
    match app.db.kind {
        Db::Postgres => diesel::PgConnection::establish(&app.db.url)
            .expect("connect")
            .batch_execute(statements)
            .expect("statements run"),
        Db::Sqlite => {
            let path = app.db.url.trim_start_matches("sqlite://");
            let mut c = diesel::SqliteConnection::establish(path).expect("connect");
            c.batch_execute("PRAGMA busy_timeout = 10000")
                .expect("pragma");
            c.batch_execute(statements).expect("statements run")
        }
    }
}

/// Every page of `path` (which has no `cursor` yet), following `next_cursor`.
fn all_pages(c: &Client, path: &str, field: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    let sep = if path.contains('?') { '&' } else { '?' };
    loop {
        let url = match &cursor {
            Some(k) => format!("{path}{sep}cursor={k}"),
            None => path.to_string(),
        };
        let r = c.get(&url);
        out.extend(r.ok()[field].as_array().expect("a list").iter().cloned());
        match r.json["next_cursor"].as_str() {
            Some(k) => cursor = Some(k.to_string()),
            None => return out,
        }
    }
}

fn ids(list: &[Value]) -> Vec<String> {
    list.iter()
        .map(|g| g["id"].as_str().expect("id").to_string())
        .collect()
}

fn assert_each_once(got: &[String], want: &[String], what: &str) {
    let unique: HashSet<&String> = got.iter().collect();
    assert_eq!(unique.len(), got.len(), "{what}: an item came twice");
    assert_eq!(got.len(), want.len(), "{what}: count");
    if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
        panic!(
            "{what}: out of order at {i}: got {:?}, want {:?}",
            &got[i..(i + 3).min(got.len())],
            &want[i..(i + 3).min(want.len())]
        );
    }
}

/// One seeded game (see [`seed`]).
#[derive(Clone, Debug)]
struct Seeded {
    id: String,
    status: &'static str,
    mine: bool,
    updated_at: i64,
    turn_started_at: Option<i64>,
    days: Option<i64>,
}

/// Ann's vacations: `(started_at, ends_at, ended_at)`.
const VACATIONS: [(i64, i64, Option<i64>); 2] =
    [(500_500, 503_000, None), (505_000, 520_000, Some(507_000))];

/// Writes `n` games with seats for ann and ben in batched SQL: a quarter open, a quarter
/// finished, half running (ann's turn in every other one, some of those with a clock);
/// many share an `updated_at` or a `turn_started_at` so that the keys' tie-breaks count.
fn seed(app: &TestApp, ann: &Client, ben: &Client, n: i64) -> Vec<Seeded> {
    let (a, b) = (&ann.user_id, &ben.user_id);
    let series =
        format!("WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < {n})");
    let id = "'seed-' || CAST(i AS TEXT)";
    let mut stmts = format!(
        "{series} INSERT INTO games (id, creator_id, status, seats, expansions, tile_order, version, \
           current_user_id, created_at, updated_at, turn_started_at) \
         SELECT {id}, '{a}', \
           CASE i % 4 WHEN 0 THEN 'open' WHEN 3 THEN 'finished' ELSE 'active' END, \
           2, '[]', NULL, 1, \
           CASE i % 4 WHEN 1 THEN '{a}' WHEN 2 THEN '{b}' ELSE NULL END, \
           1000, 1000000 + i % 997, \
           CASE WHEN i % 4 IN (1, 2) THEN 500000 + i % 613 * 17 ELSE NULL END \
         FROM s;\n\
         {series} INSERT INTO game_seats (game_id, seat, user_id, joined_at) SELECT {id}, 0, '{a}', 1000 FROM s;\n\
         {series} INSERT INTO game_seats (game_id, seat, user_id, joined_at) SELECT {id}, 1, '{b}', 1000 FROM s;\n\
         {series} INSERT INTO game_clocks (game_id, days_per_move, reminded_turn) \
           SELECT {id}, 1 + i % 5, NULL FROM s WHERE i % 4 = 1 AND i % 3 = 0;\n"
    );
    for (k, (from, to, ended)) in VACATIONS.iter().enumerate() {
        let ended = ended.map_or("NULL".to_string(), |e| e.to_string());
        stmts.push_str(&format!(
            "INSERT INTO vacations (id, user_id, started_at, ends_at, until_move, ended_at) \
             VALUES ('vac-{k}', '{a}', {from}, {to}, 0, {ended});\n"
        ));
    }
    sql(app, &stmts);
    (1..=n)
        .map(|i| Seeded {
            id: format!("seed-{i}"),
            status: match i % 4 {
                0 => "open",
                3 => "finished",
                _ => "active",
            },
            mine: i % 4 == 1,
            updated_at: 1_000_000 + i % 997,
            turn_started_at: (i % 4 == 1 || i % 4 == 2).then_some(500_000 + i % 613 * 17),
            days: (i % 4 == 1 && i % 3 == 0).then_some(1 + i % 5),
        })
        .collect()
}

/// The documented order, computed here from the seeded facts: ann's turns by deadline
/// (vacations stop the clock; no clock last), then longest waiting, then id; then
/// running, open and finished games, most recently updated first, then id descending.
fn expected(games: &[Seeded], me_is_ann: bool, now: i64) -> Vec<String> {
    let paused = |since: i64| -> i64 {
        VACATIONS
            .iter()
            .map(|(from, to, ended)| {
                let end = ended.map_or(*to, |e| e.min(*to));
                (end.min(now) - from.max(&since)).max(0)
            })
            .sum()
    };
    let mut keyed: Vec<((u8, i64, i64), &Seeded)> = games
        .iter()
        .map(|g| {
            let key = if me_is_ann && g.mine {
                let started = g.turn_started_at.expect("running");
                let deadline = g
                    .days
                    .map_or(i64::MAX, |d| started + d * DAY + paused(started));
                (0, deadline, started)
            } else {
                let group = match g.status {
                    "active" => 1,
                    "open" => 2,
                    _ => 3,
                };
                (group, -g.updated_at, 0)
            };
            (key, g)
        })
        .collect();
    keyed.sort_by(|(ka, a), (kb, b)| {
        ka.cmp(kb).then_with(|| {
            if ka.0 == 0 {
                a.id.cmp(&b.id)
            } else {
                b.id.cmp(&a.id)
            }
        })
    });
    keyed.into_iter().map(|(_, g)| g.id.clone()).collect()
}

/// 10,000 games of one player, listed through the paged list: each exactly once, in
/// order, for the whole list and for each filter; bad cursors are refused.
fn ten_thousand_games_each_once_in_order(kind: Db) {
    let app = TestApp::new(kind);
    let ann = app.user("ann");
    let ben = app.user("ben");
    let games = seed(&app, &ann, &ben, 10_000);
    let now = app.clock.now_ms();
    let pick = |f: &dyn Fn(&Seeded) -> bool| -> Vec<Seeded> {
        games.iter().filter(|g| f(g)).cloned().collect()
    };

    let t = std::time::Instant::now();
    let all = all_pages(&ann, "/v1/games?player=me&limit=200", "games");
    eprintln!("{kind:?}: 10,000 games in 50 pages in {:?}", t.elapsed());
    assert_each_once(&ids(&all), &expected(&games, true, now), "player=me");
    // the list says which are ann's turns, and the clocked ones carry their deadline
    let mine = all.iter().take_while(|g| g["my_turn"] == true).count();
    assert_eq!(mine, 2500);
    assert!(all[0]["deadline"].is_string());

    let turns = all_pages(
        &ann,
        "/v1/games?player=me&status=active&my_turn=true&limit=37",
        "games",
    );
    assert_each_once(
        &ids(&turns),
        &expected(&pick(&|g| g.mine), true, now),
        "my_turn=true",
    );
    let others = all_pages(&ann, "/v1/games?my_turn=false&limit=200", "games");
    assert_each_once(
        &ids(&others),
        &expected(&pick(&|g| !g.mine), true, now),
        "my_turn=false",
    );
    let finished = all_pages(&ann, "/v1/games?status=finished&limit=200", "games");
    assert_each_once(
        &ids(&finished),
        &expected(&pick(&|g| g.status == "finished"), true, now),
        "status=finished",
    );
    // without a token nobody's turn comes first
    let running = all_pages(
        &app.anon(),
        "/v1/games?player=ben&status=active&limit=200",
        "games",
    );
    assert_each_once(
        &ids(&running),
        &expected(&pick(&|g| g.status == "active"), false, now),
        "player=ben, anonymous",
    );

    for bad in ["zzz", "ZzE6MToxOngK", "ZTE6NQ"] {
        ann.get(&format!("/v1/games?cursor={bad}"))
            .problem(400, "validation-failed");
    }
    ann.get("/v1/games?limit=201")
        .problem(400, "validation-failed");
}

/// Plays the first listed option of the pending decision.
fn one_move(players: &[&Client], id: &str) {
    let v = players[0].get(&format!("/v1/games/{id}"));
    let who = crate::common::client_for(players, &v.ok()["pending"]);
    let a = who.get(&format!("/v1/games/{id}/actions"));
    who.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": a.ok()["version"], "actions": [a.json["actions"][0]]}),
    )
    .ok();
}

/// The history, paged by cursor while moves keep coming: each event exactly once, in
/// `seq` order, and all of them; `after` still works and bad cursors are refused.
fn history_each_once_while_moves_arrive(kind: Db) {
    let app = TestApp::new(kind);
    let ann = app.user("ann");
    let ben = app.user("ben");
    let players = [&ann, &ben];
    let id = start_game(&players, Value::Null);
    for _ in 0..6 {
        one_move(&players, &id);
    }
    let path = format!("/v1/games/{id}/events?limit=2");
    let mut seen: Vec<i64> = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let url = match &cursor {
            Some(k) => format!("{path}&cursor={k}"),
            None => path.clone(),
        };
        let r = app.anon().get(&url);
        seen.extend(
            r.ok()["events"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["seq"].as_i64().unwrap()),
        );
        pages += 1;
        if pages <= 4 {
            one_move(&players, &id);
        }
        match r.json["next_cursor"].as_str() {
            Some(k) => {
                assert_eq!(r.json["next_after"], *seen.last().unwrap());
                cursor = Some(k.to_string())
            }
            None => break,
        }
    }
    let version = app.anon().get(&format!("/v1/games/{id}")).ok()["version"]
        .as_i64()
        .unwrap();
    assert_eq!(seen, (1..=version).collect::<Vec<_>>());
    // `after` is the same place as the cursor
    let r = app
        .anon()
        .get(&format!("/v1/games/{id}/events?after=3&limit=2"));
    assert_eq!(r.ok()["events"][0]["seq"], 4);
    app.anon()
        .get(&format!("/v1/games/{id}/events?after=3&cursor=ZTE6Mw"))
        .problem(400, "validation-failed");
    for bad in ["zzz", "YzE6Mw", "ZTE6eA"] {
        app.anon()
            .get(&format!("/v1/games/{id}/events?cursor={bad}"))
            .problem(400, "validation-failed");
    }
}

/// The chat, paged by cursor while messages keep coming: each exactly once, in the
/// order written, from either end.
fn chat_each_once_while_messages_arrive(kind: Db) {
    let app = TestApp::new(kind);
    let ann = app.user("ann");
    let ben = app.user("ben");
    let id = start_game(&[&ann, &ben], Value::Null);
    let path = format!("/v1/games/{id}/chat");
    let mut written = Vec::new();
    let mut write = |c: &Client, n: usize| {
        let r = c.post(&path, json!({"text": format!("message {n}")}));
        assert_eq!(r.status, 201, "{}", r.text);
        written.push(r.json["id"].as_str().unwrap().to_string());
    };
    for n in 0..7 {
        write(if n % 2 == 0 { &ann } else { &ben }, n);
    }
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let url = match &cursor {
            Some(k) => format!("{path}?limit=3&cursor={k}"),
            None => format!("{path}?limit=3"),
        };
        let r = app.anon().get(&url);
        seen.extend(ids(r.ok()["messages"].as_array().unwrap()));
        pages += 1;
        if pages <= 3 {
            write(&ben, 100 + pages);
            write(&ann, 200 + pages);
        }
        match r.json["next_cursor"].as_str() {
            Some(k) => cursor = Some(k.to_string()),
            None => break,
        }
    }
    assert_each_once(&seen, &written, "chat, oldest first");
    let newest = all_pages(
        &app.anon(),
        &format!("{path}?order=newest&limit=4"),
        "messages",
    );
    let mut back = written.clone();
    back.reverse();
    assert_each_once(&ids(&newest), &back, "chat, newest first");
}

/// Postgres: the my-turn list reads `games` through the index `games_my_turn` (partial:
/// running games by the player whose decision is pending), not a sequential scan,
/// among 20,000 games of which few wait for the caller (the table's statistics as a
/// planner sees them in production: `ANALYZE` after seeding).
fn my_turn_list_uses_an_index(kind: Db) {
    assert_eq!(kind, Db::Postgres);
    let app = TestApp::new(kind);
    let ann = app.user("ann");
    let ben = app.user("ben");
    let cat = app.user("cat");
    let (a, b, c) = (&ann.user_id, &ben.user_id, &cat.user_id);
    sql(
        &app,
        &format!(
            "INSERT INTO games (id, creator_id, status, seats, expansions, tile_order, version, \
               current_user_id, created_at, updated_at, turn_started_at) \
             SELECT 'g' || i, '{b}', CASE WHEN i % 3 = 0 THEN 'finished' ELSE 'active' END, 2, \
               '[]', NULL, 1, CASE WHEN i % 200 = 0 THEN '{a}' WHEN i % 3 = 0 THEN NULL ELSE '{c}' END, \
               1000, 1000 + i, 1000 + i FROM generate_series(1, 20000) AS i;\n\
             INSERT INTO game_seats (game_id, seat, user_id, joined_at) \
               SELECT 'g' || i, 0, '{b}', 1000 FROM generate_series(1, 20000) AS i;\n\
             INSERT INTO game_seats (game_id, seat, user_id, joined_at) \
               SELECT 'g' || i, 1, CASE WHEN i % 200 = 0 THEN '{a}' ELSE '{c}' END, 1000 \
               FROM generate_series(1, 20000) AS i;\n\
             ANALYZE;"
        ),
    );
    // the statistics of the server's connections reach the shared counters when they
    // end: end them, then read
    let scans = || -> (i64, i64) {
        use diesel::prelude::*;
        use diesel::sql_types::BigInt;
        #[derive(QueryableByName)]
        struct Scans {
            #[diesel(sql_type = BigInt)]
            seq: i64,
            #[diesel(sql_type = BigInt)]
            idx: i64,
        }
        let mut conn = diesel::PgConnection::establish(&app.db.url).expect("connect");
        diesel::sql_query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        .execute(&mut conn)
        .expect("end the server's connections");
        let t = std::time::Instant::now();
        loop {
            let left: i64 = diesel::sql_query(
                "SELECT count(*) AS seq, 0::bigint AS idx FROM pg_stat_activity \
                 WHERE datname = current_database() AND pid <> pg_backend_pid()",
            )
            .get_result::<Scans>(&mut conn)
            .expect("activity")
            .seq;
            if left == 0 || t.elapsed() > std::time::Duration::from_secs(10) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let s: Scans = diesel::sql_query(
            "SELECT COALESCE(t.seq_scan, 0)::bigint AS seq, COALESCE(i.idx_scan, 0)::bigint AS idx \
             FROM pg_stat_user_tables t JOIN pg_stat_user_indexes i ON i.relid = t.relid \
             WHERE t.relname = 'games' AND i.indexrelname = 'games_my_turn'",
        )
        .get_result(&mut conn)
        .expect("the statistics of games and its index games_my_turn");
        (s.seq, s.idx)
    };
    let before = scans();
    // the pool notices the ended connections; let it reconnect
    let mut r = ann.get("/v1/games?player=me&status=active&my_turn=true");
    for _ in 0..20 {
        if r.status == 200 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        r = ann.get("/v1/games?player=me&status=active&my_turn=true");
    }
    assert_eq!(r.ok()["games"].as_array().unwrap().len(), 50);
    let after = scans();
    assert_eq!(
        after.0, before.0,
        "a sequential scan of games: {before:?} → {after:?}"
    );
    assert!(
        after.1 > before.1,
        "the index games_my_turn was not used: {before:?} → {after:?}"
    );
}

mod sqlite {
    #[test]
    fn ten_thousand_games_each_once_in_order() {
        super::ten_thousand_games_each_once_in_order(crate::common::Db::Sqlite)
    }
    #[test]
    fn history_each_once_while_moves_arrive() {
        super::history_each_once_while_moves_arrive(crate::common::Db::Sqlite)
    }
    #[test]
    fn chat_each_once_while_messages_arrive() {
        super::chat_each_once_while_messages_arrive(crate::common::Db::Sqlite)
    }
}

mod postgres {
    #[test]
    fn ten_thousand_games_each_once_in_order() {
        super::ten_thousand_games_each_once_in_order(crate::common::Db::Postgres)
    }
    #[test]
    fn history_each_once_while_moves_arrive() {
        super::history_each_once_while_moves_arrive(crate::common::Db::Postgres)
    }
    #[test]
    fn chat_each_once_while_messages_arrive() {
        super::chat_each_once_while_messages_arrive(crate::common::Db::Postgres)
    }
    #[test]
    fn my_turn_list_uses_an_index() {
        super::my_turn_list_uses_an_index(crate::common::Db::Postgres)
    }
}
