//! Players finding each other, over HTTP on both databases: ratings and profiles after
//! finished, resigned and timed-out games; rated games rated exactly once when two
//! servers race to end them; the leaderboard paged; seeks that become games, with their
//! rating-range and reliability filters; rematches with the seats rotated; and private
//! games that are `404` for everyone else on every endpoint.

use std::collections::HashSet;

use serde_json::{json, Value};
use tilepost::standing::{self, Rating};

use crate::common::*;

const DAY: i64 = 86_400_000;

/// A server whose tokens outlive the days its clock is moved on.
pub(crate) fn long_tokens(kind: Db) -> TestApp {
    TestApp::with(kind, |c| c.token_ttl_secs = 400 * 86_400)
}

pub(crate) fn game(c: &Client, body: Value) -> String {
    let r = c.post("/v1/games", body);
    assert_eq!(r.status, 201, "{}", r.text);
    r.json["id"].as_str().expect("id").to_string()
}

pub(crate) fn join(c: &Client, id: &str) {
    c.post(&format!("/v1/games/{id}/join"), json!({})).ok();
}

pub(crate) fn resign(c: &Client, id: &str) {
    c.post(&format!("/v1/games/{id}/resign"), json!({})).ok();
}

/// The account's owner marks it as a bot (`PATCH /v1/users/me`).
pub(crate) fn mark_bot_account(c: &Client) {
    let r = c.request(
        "PATCH",
        "/v1/users/me",
        Some(r#"{"bot": true}"#),
        &[("content-type", "application/json")],
    );
    assert_eq!(r.status, 200, "{}", r.text);
}

pub(crate) fn profile(c: &Client, name: &str) -> Value {
    c.get(&format!("/v1/users/{name}")).ok().clone()
}

pub(crate) fn rating_of(p: &Value, pool: &str) -> Option<Value> {
    p["ratings"]
        .as_array()
        .and_then(|r| r.iter().find(|x| x["pool"] == pool).cloned())
}

fn rank_of(view: &Value, name: &str) -> i64 {
    view["ranking"]
        .as_array()
        .and_then(|r| r.iter().find(|x| x["username"] == name))
        .and_then(|x| x["rank"].as_i64())
        .expect("ranked")
}

/// Rated and casual games end by playing to the end, by resigning and by timing out:
/// the profiles count them, the ratings follow Glicko-2 game by game (checked against
/// `standing::rate` from the start), the rating histories list each change, and recent
/// games list the public games.
fn ratings_and_profiles(kind: Db) {
    let app = long_tokens(kind);
    let ann = app.user("ann");
    let ben = app.user("ben");
    let cat = app.user("cat");
    // 1. rated, played to the end: ann and ben
    let g1 = game(&ann, json!({"seats": 2, "rated": true}));
    join(&ben, &g1);
    play_random(&[&ann, &ben], &g1, 7);
    let v1 = ann.get(&format!("/v1/games/{g1}")).ok().clone();
    assert_eq!(v1["status"], "finished");
    assert_eq!(v1["rated"], true);
    let (ann1, ben1) = (rank_of(&v1, "ann") as u8, rank_of(&v1, "ben") as u8);
    app.clock.advance_ms(60_000);
    // 2. rated, cat resigns after the two decisions each that make it count: ann wins
    let g2 = game(&ann, json!({"seats": 2, "rated": true}));
    join(&cat, &g2);
    decide_each(&[&ann, &cat], &g2, 2);
    resign(&cat, &g2);
    app.clock.advance_ms(60_000);
    // 3. casual with a clock, cat times out: ben wins
    let g3 = game(&ben, json!({"seats": 2, "options": {"days_per_move": 1}}));
    join(&cat, &g3);
    // ben moves until the decision is cat's
    loop {
        let a = ben.get(&format!("/v1/games/{g3}/actions")).ok().clone();
        if a["pending"]["username"] == "cat" {
            break;
        }
        ben.post(
            &format!("/v1/games/{g3}/moves"),
            json!({"expected_version": a["version"], "actions": [a["actions"][0]]}),
        )
        .ok();
    }
    app.clock.advance_ms(DAY + 1);
    ben.post(&format!("/v1/games/{g3}/claim-timeout"), json!({}))
        .ok();
    let v3 = ben.get(&format!("/v1/games/{g3}")).ok().clone();
    assert_eq!(v3["status"], "finished");
    assert_eq!(rank_of(&v3, "ben"), 1);

    // the ratings, game by game from the first rating
    let after1 = standing::rate(&[(Rating::default(), ann1), (Rating::default(), ben1)]);
    let after2 = standing::rate(&[(after1[0], 1), (Rating::default(), 2)]);
    let round = |r: f64| r.round() as i64;
    let pa = profile(&app.anon(), "ann");
    let pb = profile(&app.anon(), "ben");
    let pc = profile(&app.anon(), "cat");
    let ra = rating_of(&pa, "base").expect("ann is rated");
    assert_eq!(ra["rating"].as_i64(), Some(round(after2[0].rating)));
    assert_eq!(ra["deviation"].as_i64(), Some(round(after2[0].deviation)));
    assert_eq!(ra["games"], 2);
    assert_eq!(ra["provisional"], true);
    let rb = rating_of(&pb, "base").expect("ben is rated");
    assert_eq!(rb["rating"].as_i64(), Some(round(after1[1].rating)));
    assert_eq!(rb["games"], 1, "the casual game does not rate");
    let rc = rating_of(&pc, "base").expect("cat is rated");
    assert_eq!(rc["rating"].as_i64(), Some(round(after2[1].rating)));
    assert!(
        rc["rating"].as_i64() < Some(1500),
        "resigning rates as a loss"
    );
    assert!(rating_of(&pa, "expansions").is_none());

    // the figures
    assert_eq!(pa["games_played"], 2);
    assert_eq!(pa["games_finished"], 2);
    assert_eq!(pa["games_won"], 1 + i64::from(ann1 == 1));
    assert_eq!(pa["games_resigned"], 0);
    assert_eq!(pa["finish_rate"], 1.0);
    assert_eq!(pa["timeout_rate"], 0.0);
    assert!(pa["average_move_seconds"].as_f64().is_some());
    assert_eq!(pb["games_played"], 2);
    assert_eq!(pb["games_won"], 1 + i64::from(ben1 == 1));
    assert_eq!(pc["games_played"], 2);
    assert_eq!(pc["games_finished"], 0);
    assert_eq!(pc["games_won"], 0);
    assert_eq!(pc["games_resigned"], 1);
    assert_eq!(pc["games_timed_out"], 1);
    assert_eq!(pc["finish_rate"], 0.0);
    assert_eq!(pc["timeout_rate"], 0.5);
    // cat's moves (in g2) took no time on the test clock; resigning, and timing out a
    // day after the last move, are not moves
    assert_eq!(pc["average_move_seconds"], 0.0);
    // recent games, newest first
    let recent: Vec<&str> = pc["recent_games"]
        .as_array()
        .expect("recent")
        .iter()
        .map(|r| r["game_id"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(recent, [g3.as_str(), g2.as_str()]);
    let r3 = &pc["recent_games"][0];
    assert_eq!(r3["outcome"], "timed_out");
    assert_eq!(r3["rated"], false);
    assert_eq!(r3["rank"], 2);
    let r2 = &pc["recent_games"][1];
    assert_eq!(r2["outcome"], "resigned");
    assert_eq!(r2["rating_before"], 1500);
    assert_eq!(r2["rating_after"].as_i64(), Some(round(after2[1].rating)));
    // the rating history, paged
    let h = app.anon().get("/v1/users/ann/ratings?pool=base&limit=1");
    let h = h.ok();
    assert_eq!(h["entries"][0]["game_id"], g2.as_str());
    let next = h["next_cursor"]
        .as_str()
        .expect("a second page")
        .to_string();
    let h2 = app.anon().get(&format!(
        "/v1/users/ann/ratings?pool=base&limit=1&cursor={next}"
    ));
    let h2 = h2.ok();
    assert_eq!(h2["entries"][0]["game_id"], g1.as_str());
    assert!(h2["next_cursor"].is_null());
    app.anon()
        .get("/v1/users/ann/ratings?pool=chess")
        .problem(400, "validation-failed");
    app.anon()
        .get("/v1/users/nobody-here/ratings")
        .problem(404, "user-not-found");
    app.anon()
        .get("/v1/users/nobody-here")
        .problem(404, "user-not-found");
    // no leaderboard entry yet: every rating is provisional
    let board = app.anon().get("/v1/leaderboard");
    assert_eq!(board.ok()["entries"], json!([]));
    // rated games refuse what cannot be rated
    ann.post(
        "/v1/games",
        json!({"seats": 2, "rated": true, "options": {"tile_order": ["base/D"]}}),
    )
    .problem(400, "validation-failed");
    ann.post(
        "/v1/games",
        json!({"seats": 2, "rated": true, "bots": ["greedy"]}),
    )
    .problem(400, "validation-failed");
}

/// The leaderboard lists established ratings only, best first (ties by user id), each
/// exactly once over its pages, pool by pool.
fn leaderboard_paging(kind: Db) {
    let app = TestApp::new(kind);
    let names: Vec<String> = (0..7).map(|i| format!("player{i}")).collect();
    let users: Vec<Client> = names.iter().map(|n| app.user(n)).collect();
    let mut statements = String::new();
    for (i, u) in users.iter().enumerate() {
        // two share a rating; one is provisional; one plays the other pool
        let (rating, deviation, pool) = match i {
            0 => (1700.0, 60.0, "base"),
            1 | 2 => (1600.0, 80.0, "base"),
            3 => (1900.0, 200.0, "base"),
            4 => (1550.0, 100.0, "base"),
            5 => (1400.0, 110.0, "base"),
            _ => (1800.0, 70.0, "expansions"),
        };
        statements.push_str(&format!(
            "INSERT INTO ratings (user_id, pool, rating, deviation, volatility, games, \
             updated_at) VALUES ('{}', '{pool}', {rating}, {deviation}, 0.06, 30, 0);",
            u.user_id
        ));
    }
    crate::lists::sql(&app, &statements);
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            Some(c) => format!("/v1/leaderboard?pool=base&limit=2&cursor={c}"),
            None => "/v1/leaderboard?limit=2".to_string(),
        };
        let r = app.anon().get(&path);
        let r = r.ok();
        assert_eq!(r["pool"], "base");
        for e in r["entries"].as_array().expect("entries") {
            seen.push((
                e["username"].as_str().unwrap_or_default().to_string(),
                e["rating"].as_i64().unwrap_or_default(),
            ));
        }
        match r["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    let mut tied = [&users[1], &users[2]];
    tied.sort_by(|a, b| a.user_id.cmp(&b.user_id));
    let want = vec![
        ("player0".to_string(), 1700),
        (tied[0].name.clone(), 1600),
        (tied[1].name.clone(), 1600),
        ("player4".to_string(), 1550),
        ("player5".to_string(), 1400),
    ];
    assert_eq!(seen, want);
    let exp = app.anon().get("/v1/leaderboard?pool=expansions");
    assert_eq!(exp.ok()["entries"][0]["username"], "player6");
    app.anon()
        .get("/v1/leaderboard?pool=nope")
        .problem(400, "validation-failed");
    app.anon()
        .get("/v1/leaderboard?cursor=bad")
        .problem(400, "validation-failed");
}

fn seek_ids(c: &Client, query: &str) -> Vec<String> {
    let r = c.get(&format!("/v1/seeks{query}"));
    r.ok()["seeks"]
        .as_array()
        .expect("seeks")
        .iter()
        .map(|s| s["id"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn seek(c: &Client, body: Value) -> String {
    let r = c.post("/v1/seeks", body);
    assert_eq!(r.status, 201, "{}", r.text);
    r.json["id"].as_str().expect("id").to_string()
}

/// A seek fills up and becomes a game seated in join order; the lobby shows each player
/// the seeks they may join (rating range, minimum finish rate); seeks are withdrawn,
/// expire and are limited per player.
fn seeks_become_games(kind: Db) {
    let app = long_tokens(kind);
    let ann = app.user("ann");
    let ben = app.user("ben");
    let cat = app.user("cat");
    let dan = app.user("dan");
    let s = seek(
        &ann,
        json!({"seats": 3, "rated": true, "days_per_move": 3, "rules": {"small_city_points": "2"}}),
    );
    assert!(seek_ids(&ben, "").contains(&s));
    assert!(!seek_ids(&ann, "").contains(&s), "not one's own");
    assert_eq!(seek_ids(&ann, "?mine=true"), vec![s.clone()]);
    let path = format!("/v1/seeks/{s}/join");
    let r = ben.post(&path, json!({}));
    let r = r.ok();
    assert_eq!(r["status"], "seeking");
    assert_eq!(r["players"], json!(["ann", "ben"]));
    assert!(!seek_ids(&ben, "").contains(&s), "not once joined");
    assert_eq!(seek_ids(&ben, "?mine=true"), vec![s.clone()]);
    ben.post(&path, json!({})).problem(409, "already-seated");
    let r = cat.post(&path, json!({}));
    let r = r.ok().clone();
    assert_eq!(r["status"], "full");
    let id = r["game_id"].as_str().expect("a game").to_string();
    let v = cat.get(&format!("/v1/games/{id}"));
    let v = v.ok();
    assert_eq!(v["status"], "active");
    assert_eq!(v["rated"], true);
    assert_eq!(v["rules"]["small_city_points"], "2");
    assert_eq!(v["clock"]["days_per_move"], 3);
    let seated: Vec<&str> = v["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["username"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(seated, ["ann", "ben", "cat"]);
    dan.post(&path, json!({})).problem(409, "seek-closed");
    assert!(!seek_ids(&dan, "").contains(&s));
    assert_eq!(
        dan.get(&format!("/v1/seeks/{s}")).ok()["game_id"],
        id.as_str()
    );

    // the reliability filter: eve finished a game, fay resigned one, dan has none
    let eve = app.user("eve");
    let fay = app.user("fay");
    let g = game(&eve, json!({"seats": 2}));
    join(&fay, &g);
    resign(&fay, &g);
    let reliable = seek(&ann, json!({"seats": 2, "min_finish_rate": 0.5}));
    assert!(seek_ids(&eve, "").contains(&reliable));
    assert!(!seek_ids(&fay, "").contains(&reliable));
    assert!(!seek_ids(&dan, "").contains(&reliable));
    fay.post(&format!("/v1/seeks/{reliable}/join"), json!({}))
        .problem(403, "seek-requirement-not-met");
    // the rating range (an unrated player counts as 1500)
    let strong = seek(&ann, json!({"seats": 2, "min_rating": 1600}));
    let weak = seek(&ann, json!({"seats": 2, "max_rating": 1400}));
    let middle = seek(
        &ann,
        json!({"seats": 2, "min_rating": 1400, "max_rating": 1600}),
    );
    let seen = seek_ids(&dan, "");
    assert!(!seen.contains(&strong) && !seen.contains(&weak) && seen.contains(&middle));
    dan.post(&format!("/v1/seeks/{strong}/join"), json!({}))
        .problem(403, "seek-requirement-not-met");
    // withdrawn by its creator only
    dan.request("DELETE", &format!("/v1/seeks/{middle}"), None, &[])
        .problem(403, "not-creator");
    let r = ann.request("DELETE", &format!("/v1/seeks/{middle}"), None, &[]);
    assert_eq!(r.status, 204, "{}", r.text);
    dan.get(&format!("/v1/seeks/{middle}"))
        .problem(404, "seek-not-found");
    dan.post(&format!("/v1/seeks/{middle}/join"), json!({}))
        .problem(404, "seek-not-found");
    // at most 5 open seeks (ann has 3 now)
    seek(&ann, json!({"seats": 2}));
    seek(&ann, json!({"seats": 2}));
    ann.post("/v1/seeks", json!({"seats": 2}))
        .problem(409, "seek-limit-reached");
    // a week later the open seeks have expired
    app.clock.advance_ms(7 * DAY + 1);
    assert!(seek_ids(&eve, "").is_empty());
    assert!(seek_ids(&ann, "?mine=true").is_empty());
    assert_eq!(
        eve.get(&format!("/v1/seeks/{reliable}")).ok()["status"],
        "expired"
    );
    eve.post(&format!("/v1/seeks/{reliable}/join"), json!({}))
        .problem(409, "seek-closed");
    seek(&ann, json!({"seats": 2}));
    // refusals
    ann.post("/v1/seeks", json!({"seats": 7}))
        .problem(400, "validation-failed");
    ann.post(
        "/v1/seeks",
        json!({"seats": 2, "min_rating": 1700, "max_rating": 1600}),
    )
    .problem(400, "validation-failed");
    ann.post("/v1/seeks", json!({"seats": 2, "min_finish_rate": 1.5}))
        .problem(400, "validation-failed");
    ann.post("/v1/seeks/nope/join", json!({}))
        .problem(404, "seek-not-found");
    app.anon().get("/v1/seeks").problem(401, "unauthorized");
}

/// A rematch: the same game with the seats rotated by one, the other players invited to
/// their new seats, the server's bots seated at once.
fn rematch_rotates_the_seats(kind: Db) {
    let app = TestApp::new(kind);
    let ann = app.user("ann");
    let ben = app.user("ben");
    let cat = app.user("cat");
    let dan = app.user("dan");
    let id = game(
        &ann,
        json!({"seats": 3, "expansions": ["abbot"], "options": {"days_per_move": 2}}),
    );
    join(&ben, &id);
    join(&cat, &id);
    let path = format!("/v1/games/{id}/rematch");
    ben.post(&path, json!({})).problem(409, "game-not-over");
    resign(&ann, &id);
    resign(&ben, &id);
    dan.post(&path, json!({})).problem(403, "not-a-player");
    let r = ben.post(&path, json!({}));
    assert_eq!(r.status, 201, "{}", r.text);
    let new = r.json["id"].as_str().expect("id").to_string();
    assert_ne!(new, id);
    assert_eq!(r.json["status"], "open");
    assert_eq!(r.json["expansions"], json!(["abbot"]));
    assert_eq!(r.json["clock"]["days_per_move"], 2);
    assert_eq!(r.json["players"][0]["username"], "ben", "seat 1 goes first");
    assert_eq!(r.json["players"][0]["seat"], 0);
    let invited: HashSet<&str> = r.json["invitations"]
        .as_array()
        .expect("invitations")
        .iter()
        .map(|i| i["username"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(invited, HashSet::from(["ann", "cat"]));
    // ann accepts first but keeps the last seat; cat gets seat 1
    ann.post(&format!("/v1/games/{new}/invitation/accept"), json!({}))
        .ok();
    cat.post(&format!("/v1/games/{new}/invitation/accept"), json!({}))
        .ok();
    let v = ann.get(&format!("/v1/games/{new}"));
    let v = v.ok();
    assert_eq!(v["status"], "active");
    let order: Vec<&str> = v["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["username"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(order, ["ben", "cat", "ann"]);
    // with a bot: the bot sits down at once and the game starts
    let b = game(&ann, json!({"seats": 2, "bots": ["random"]}));
    resign(&ann, &b);
    let r = ann.post(&format!("/v1/games/{b}/rematch"), json!({}));
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json["status"], "active");
    assert_eq!(r.json["players"][1]["username"], "ann");
    assert!(r.json["players"][0]["bot"].is_string());
}

/// A private game is `404` (exactly as a game that does not exist) for everyone but its
/// players and invited players, on every endpoint, and it is in nobody else's list.
fn private_games_are_not_there_for_others(kind: Db) {
    let app = TestApp::new(kind);
    let ann = app.user("ann");
    let ben = app.user("ben");
    let dan = app.user("dan");
    let anon = app.anon();
    let id = game(
        &ann,
        json!({"seats": 2, "visibility": "private", "invite": ["ben"], "options": {"days_per_move": 1}}),
    );
    let missing = dan.get("/v1/games/00000000-0000-4000-8000-000000000000");
    let strangers = |when: &str| {
        for c in [&dan, &anon] {
            for p in [
                "",
                "/actions",
                "/placements",
                "/events",
                "/chat",
                "/export",
                "/board.svg",
                "/board.png",
                "/orders",
                "/plans",
            ] {
                let r = c.get(&format!("/v1/games/{id}{p}"));
                if c.token.is_none() && (p == "/orders" || p == "/plans") {
                    assert_eq!(r.status, 401, "{when} {p}");
                    continue;
                }
                r.problem(404, "game-not-found");
                if p.is_empty() {
                    assert_eq!(r.json["detail"], missing.json["detail"], "{when}");
                }
            }
        }
        for p in [
            "join",
            "invitation/accept",
            "invitation/decline",
            "start",
            "leave",
            "abort",
            "resign",
            "claim-timeout",
            "rematch",
            "chat",
            "invitations",
            "moves",
        ] {
            let body = match p {
                "chat" => json!({"text": "hello"}),
                "invitations" => json!({"username": "ann"}),
                "moves" => json!({"expected_version": 1, "actions": [{"type": "pass"}]}),
                _ => json!({}),
            };
            dan.post(&format!("/v1/games/{id}/{p}"), body)
                .problem(404, "game-not-found");
        }
        for list in ["/v1/games", "/v1/games?status=open", "/v1/games?player=ann"] {
            for c in [&dan, &anon] {
                let l = c.get(list);
                assert!(
                    !l.text.contains(&id),
                    "{when}: {list} lists the private game"
                );
            }
        }
    };
    strangers("open");
    // the invited player sees it and takes the seat
    let v = ben.get(&format!("/v1/games/{id}"));
    assert_eq!(v.ok()["visibility"], "private");
    assert!(ann.get("/v1/games?player=me").text.contains(&id));
    ben.post(&format!("/v1/games/{id}/invitation/accept"), json!({}))
        .ok();
    assert_eq!(ben.get(&format!("/v1/games/{id}")).ok()["status"], "active");
    strangers("running");
    let b = ben.get(&format!("/v1/games/{id}/board.svg"));
    assert_eq!(b.status, 200);
    assert!(b
        .header("cache-control")
        .is_some_and(|c| c.starts_with("private")));
    // the players finish it: still not there for others, and not in the profile
    resign(&ben, &id);
    strangers("finished");
    let p = profile(&anon, "ann");
    assert_eq!(p["games_played"], 1);
    assert_eq!(p["recent_games"], json!([]));
}

/// An account marked as a bot joins casual games, and rated games (and rated seeks)
/// only where the game allows it.
fn bot_accounts_join_rated_games_where_allowed(kind: Db) {
    let app = TestApp::new(kind);
    let ann = app.user("ann");
    let robo = app.user("robo");
    mark_bot_account(&robo);
    let rated = game(&ann, json!({"seats": 2, "rated": true}));
    assert_eq!(
        ann.get(&format!("/v1/games/{rated}")).ok()["bot_accounts"],
        false
    );
    robo.post(&format!("/v1/games/{rated}/join"), json!({}))
        .problem(403, "bot-accounts-not-allowed");
    let open = game(
        &ann,
        json!({"seats": 2, "rated": true, "bot_accounts": true}),
    );
    join(&robo, &open);
    let casual = game(&ann, json!({"seats": 2}));
    join(&robo, &casual);
    let s = seek(&ann, json!({"seats": 2, "rated": true}));
    assert!(!seek_ids(&robo, "").contains(&s));
    robo.post(&format!("/v1/seeks/{s}/join"), json!({}))
        .problem(403, "seek-requirement-not-met");
}

/// Two servers on one Postgres each take one player's resignation of a rated game at
/// once, game after game: exactly one ends each game, and every player's rating, history
/// and figures change once per game.
#[test]
fn two_servers_rate_a_rated_game_once() {
    const GAMES: usize = 6;
    // as many rated games of the pair per day as are played here
    let many = |c: &mut tilepost::config::Config| c.rated_games_per_pair_per_day = GAMES as i64;
    let app = TestApp::with(Db::Postgres, many);
    let mut config = test_config(&app.db.url);
    many(&mut config);
    let other = tilepost::startup::spawn(config, app.clock.clone()).expect("second server");
    let ann = app.user("ann");
    let ben = app.user("ben");
    let ann_b = ann.on(&other.url());
    for _ in 0..GAMES {
        let id = game(&ann, json!({"seats": 2, "rated": true}));
        join(&ben, &id);
        decide_each(&[&ann, &ben], &id, 2);
        let path = format!("/v1/games/{id}/resign");
        let (a, b) = std::thread::scope(|s| {
            let a = s.spawn(|| ann_b.post(&path, json!({})).status);
            let b = s.spawn(|| ben.post(&path, json!({})).status);
            (a.join().unwrap_or(0), b.join().unwrap_or(0))
        });
        assert!(
            a == 200 || b == 200,
            "one resignation ends the game: {a} {b}"
        );
        assert_eq!(
            ann.get(&format!("/v1/games/{id}")).ok()["status"],
            "finished"
        );
    }
    for name in ["ann", "ben"] {
        let p = profile(&app.anon(), name);
        assert_eq!(p["games_played"], GAMES as i64, "{name}");
        assert_eq!(rating_of(&p, "base").expect("rated")["games"], GAMES as i64);
        let h = app
            .anon()
            .get(&format!("/v1/users/{name}/ratings?limit=200"));
        assert_eq!(
            h.ok()["entries"].as_array().map(Vec::len),
            Some(GAMES),
            "{name}"
        );
    }
}

each_db!(
    ratings_and_profiles,
    leaderboard_paging,
    seeks_become_games,
    rematch_rotates_the_seats,
    private_games_are_not_there_for_others,
    bot_accounts_join_rated_games_where_allowed,
);
