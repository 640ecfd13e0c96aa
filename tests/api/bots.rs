//! Computer opponents: bot seats the server plays through the decision service.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::*;

/// A 3-player game with two bot seats and one person plays to the end with only the
/// person's moves posted; the history shows every bot decision, made by the bots.
fn a_person_plays_two_bots_to_the_end(app: &TestApp) {
    let a = app.user("ann");
    let g = a.post(
        "/v1/games",
        json!({"seats": 3, "bots": ["random", "greedy"]}),
    );
    let v = g.ok().clone();
    let id = v["id"].as_str().expect("id").to_string();
    assert_eq!(v["status"], "active", "the bots' seats start the game");
    let bots: Vec<&Value> = v["players"]
        .as_array()
        .expect("players")
        .iter()
        .filter(|p| p.get("bot").is_some())
        .collect();
    assert_eq!(bots.len(), 2);
    assert_eq!(bots[0]["bot"], "random");
    assert_eq!(bots[1]["bot"], "greedy");
    let bot_ids: Vec<String> = bots
        .iter()
        .filter_map(|p| p["user_id"].as_str().map(String::from))
        .collect();
    let mine = play_my_turns(&a, &id, 5, usize::MAX, Duration::from_secs(240));
    let v = a.get(&format!("/v1/games/{id}")).ok().clone();
    assert_eq!(v["status"], "finished");
    assert_eq!(v["ranking"].as_array().map(Vec::len), Some(3));
    // the history: every bot's placements, by the bots
    let mut after = 0;
    let mut by_bot = 0;
    loop {
        let page = a
            .get(&format!("/v1/games/{id}/events?after={after}&limit=200"))
            .ok()
            .clone();
        for e in page["events"].as_array().cloned().unwrap_or_default() {
            if e["actor"]["user_id"]
                .as_str()
                .is_some_and(|u| bot_ids.iter().any(|b| b == u))
                && e["decision"]["type"] == "tile_placed"
            {
                by_bot += 1;
            }
        }
        match page["next_after"].as_i64() {
            Some(n) => after = n,
            None => break,
        }
    }
    assert!(
        mine > 10 && by_bot > 20,
        "{mine} moves of mine, {by_bot} bot placements"
    );
}

/// The searching levels (`mcts` and `expert`) take their seats and their turns: after a
/// few of the person's turns, the expert has placed tiles too.
fn a_person_plays_the_searching_levels(app: &TestApp) {
    let a = app.user("ann");
    let v = a
        .post("/v1/games", json!({"seats": 3, "bots": ["mcts", "expert"]}))
        .ok()
        .clone();
    let id = v["id"].as_str().expect("id").to_string();
    let bots: Vec<&Value> = v["players"]
        .as_array()
        .expect("players")
        .iter()
        .filter(|p| p.get("bot").is_some())
        .collect();
    assert_eq!(bots.len(), 2);
    assert_eq!(
        (&bots[0]["bot"], &bots[1]["bot"]),
        (&json!("mcts"), &json!("expert"))
    );
    let expert = bots[1]["user_id"].as_str().expect("user id").to_string();
    play_my_turns(&a, &id, 9, 8, Duration::from_secs(120));
    let page = a
        .get(&format!("/v1/games/{id}/events?limit=200"))
        .ok()
        .clone();
    let by_expert = page["events"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter(|e| {
            e["actor"]["user_id"].as_str() == Some(expert.as_str())
                && e["decision"]["type"] == "tile_placed"
        })
        .count();
    assert!(by_expert >= 2, "{by_expert} placements by the expert");
}

/// Plays `player`'s turns in game `id` with random listed options (seeded by `seed`)
/// while the others (the bots) play theirs, until the game ends or `turns` were played,
/// within `within`; the answer is the number of turns played.
fn play_my_turns(player: &Client, id: &str, seed: u64, turns: usize, within: Duration) -> usize {
    let mut rng = TestRng::new(seed);
    let start = Instant::now();
    let mut mine = 0;
    while mine < turns {
        assert!(start.elapsed() < within, "the game moves on");
        let acts = player.get(&format!("/v1/games/{id}/actions")).ok().clone();
        if acts["pending"].is_null() {
            break;
        }
        if acts["pending"]["user_id"] != player.user_id.as_str() {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        let options = acts["actions"].as_array().cloned().unwrap_or_default();
        let pick = options[rng.below(options.len())].clone();
        let r = player.post(
            &format!("/v1/games/{id}/moves"),
            json!({"expected_version": acts["version"], "actions": [pick]}),
        );
        assert!(r.status == 200 || r.status == 409, "{}", r.text);
        mine += 1;
    }
    mine
}

/// Bot names are reserved and levels are checked.
fn bots_are_checked(app: &TestApp) {
    let a = app.user("ann");
    a.post("/v1/games", json!({"seats": 2, "bots": ["genius"]}))
        .problem(400, "validation-failed");
    a.post(
        "/v1/games",
        json!({"seats": 2, "bots": ["random", "random"]}),
    )
    .problem(400, "validation-failed");
    let r = app.anon().post(
        "/v1/users",
        json!({"username": "bot-greedy-1", "email": "x@example.com", "password": "correct horse"}),
    );
    r.problem(400, "validation-failed");
}

/// An account its owner marks as a bot is shown as one in every view of its games, and
/// plays with its token like anyone; the server does not play it.
fn a_bot_account_is_shown_as_one(app: &TestApp) {
    let (a, b) = (app.user("ann"), app.user("robo"));
    let r = b.request(
        "PATCH",
        "/v1/users/me",
        Some(&json!({"bot": true}).to_string()),
        &[],
    );
    assert_eq!(r.ok()["bot"], true);
    let id = start_game(&[&a, &b], Value::Null);
    let v = a.get(&format!("/v1/games/{id}")).ok().clone();
    assert_eq!(v["players"][1]["bot"], "account");
    assert!(v["players"][0].get("bot").is_none());
    // the lists and the export flag it too
    let list = a.get("/v1/games?player=me").ok().clone();
    let listed = list["games"]
        .as_array()
        .and_then(|g| g.iter().find(|g| g["id"] == id.as_str()))
        .expect("listed")
        .clone();
    assert_eq!(listed["players"][1]["bot"], "account");
    assert!(listed["players"][0].get("bot").is_none());
    let export = a.get(&format!("/v1/games/{id}/export")).ok().clone();
    assert_eq!(export["players"][1]["bot"], "account");
    // its turn waits for it (the server's bot worker plays only its own bots)
    let acts = a.get(&format!("/v1/games/{id}/actions")).ok().clone();
    let first = acts["actions"][0].clone();
    a.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": acts["version"], "actions": [first, {"type": "pass"}]}),
    )
    .ok();
    std::thread::sleep(Duration::from_millis(300));
    let acts = b.get(&format!("/v1/games/{id}/actions")).ok().clone();
    assert_eq!(acts["pending"]["user_id"], b.user_id.as_str());
    let r = b.request(
        "PATCH",
        "/v1/users/me",
        Some(&json!({"bot": false}).to_string()),
        &[],
    );
    assert_eq!(r.ok()["bot"], false);
    let v = a.get(&format!("/v1/games/{id}")).ok().clone();
    assert!(v["players"][1].get("bot").is_none());
}

/// A bot never times out: its turn past the deadline stays its own (here with the bot
/// worker off, so the turn waits).
fn a_bot_never_times_out(app: &TestApp) {
    use tilepost::clock::Clock;
    let a = app.user("ann");
    let g = a.post(
        "/v1/games",
        json!({"seats": 2, "bots": ["random"], "options": {"days_per_move": 1}}),
    );
    let id = g.ok()["id"].as_str().expect("id").to_string();
    let acts = a.get(&format!("/v1/games/{id}/actions")).ok().clone();
    assert_eq!(acts["pending"]["user_id"], a.user_id.as_str());
    let first = acts["actions"][0].clone();
    a.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": acts["version"], "actions": [first, {"type": "pass"}]}),
    )
    .ok();
    let pending = a.get(&format!("/v1/games/{id}/actions")).ok()["pending"].clone();
    assert!(pending["user_id"] != a.user_id.as_str());
    app.clock.advance_ms(3 * 86_400_000);
    let st = &app.server.state;
    let swept = actix_web::rt::System::new()
        .block_on(tilepost::sweep::sweep(
            &st.store,
            &st.config,
            &st.notifier,
            &st.replays,
            app.clock.now_ms(),
        ))
        .expect("sweep");
    assert_eq!(swept.timeouts, 0);
    let v = a.get(&format!("/v1/games/{id}")).ok().clone();
    assert_eq!(v["status"], "active");
    assert_eq!(v["pending"]["user_id"], pending["user_id"]);
}

/// A server whose bot worker looks for turns every 50 ms.
fn with_bots(kind: Db) -> TestApp {
    TestApp::with(kind, |c| c.bot_poll_ms = 50)
}

#[test]
fn a_person_plays_two_bots_to_the_end_sqlite() {
    a_person_plays_two_bots_to_the_end(&with_bots(Db::Sqlite));
}

#[test]
fn a_person_plays_two_bots_to_the_end_postgres() {
    a_person_plays_two_bots_to_the_end(&with_bots(Db::Postgres));
}

/// A server with bots and small search budgets.
fn with_searching_bots(kind: Db) -> TestApp {
    TestApp::with(kind, |c| {
        c.bot_poll_ms = 50;
        c.bot_playouts = 10;
        c.expert_playouts = 24;
    })
}

#[test]
fn a_person_plays_the_searching_levels_sqlite() {
    a_person_plays_the_searching_levels(&with_searching_bots(Db::Sqlite));
}

#[test]
fn a_person_plays_the_searching_levels_postgres() {
    a_person_plays_the_searching_levels(&with_searching_bots(Db::Postgres));
}

#[test]
fn a_bot_account_is_shown_as_one_sqlite() {
    a_bot_account_is_shown_as_one(&with_bots(Db::Sqlite));
}

#[test]
fn a_bot_account_is_shown_as_one_postgres() {
    a_bot_account_is_shown_as_one(&with_bots(Db::Postgres));
}

crate::both!(bots_are_checked, a_bot_never_times_out);
