//! Whole games through the API: a base game to the final ranking, worked examples of
//! the rules as sandbox games, generic random clients, the history feed.

use serde_json::{json, Value};

use crate::common::*;

/// A complete 2-player base game, played only through the API: the pending player asks
/// for the placements, places a follower where one may go, and the game runs to its
/// final ranking.
fn complete_two_player_game(app: &TestApp) {
    let alice = app.user("alice");
    let bob = app.user("bob");
    let players = [&alice, &bob];
    let g = alice.post("/v1/games", json!({"seats": 2, "expansions": []}));
    assert_eq!(g.status, 201, "{}", g.text);
    assert_eq!(g.json["status"], "open");
    let id = g.json["id"].as_str().unwrap().to_string();
    assert_eq!(
        g.header("location"),
        Some(format!("/v1/games/{id}").as_str())
    );
    let j = bob.post(&format!("/v1/games/{id}/join"), json!({}));
    assert_eq!(j.json["status"], "active", "{}", j.text);
    assert_eq!(j.json["version"], 1);
    assert_eq!(j.json["players"][0]["colour"], "orange");
    assert_eq!(j.json["players"][1]["colour"], "sky_blue");
    assert_eq!(j.json["board"][0]["tile"], "base/D");
    let mut turns = 0;
    let mut rng = TestRng::new(3);
    loop {
        let p = alice.get(&format!("/v1/games/{id}/placements"));
        let p = p.ok().clone();
        if p["pending"].is_null() {
            break;
        }
        assert_eq!(p["pending"]["kind"], "place_tile");
        let who = client_for(&players, &p["pending"]);
        let placements = p["placements"].as_array().unwrap();
        assert!(!placements.is_empty());
        let pl = &placements[rng.below(placements.len())];
        let mut actions = vec![
            json!({"type": "place_tile", "x": pl["x"], "y": pl["y"], "rotation": pl["rotation"]}),
        ];
        let spots = pl["spots"].as_array().unwrap();
        match spots
            .iter()
            .find(|s| !s["figures"].as_array().unwrap().is_empty())
        {
            Some(s) if rng.below(2) == 0 => actions.push(
                json!({"type": "place_figure", "figure": s["figures"][0], "spot": s["spot"]}),
            ),
            _ => actions.push(json!({"type": "pass"})),
        }
        let r = who.post(
            &format!("/v1/games/{id}/moves"),
            json!({"expected_version": p["version"], "actions": actions}),
        );
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.json["version"], p["version"].as_i64().unwrap() + 2);
        turns += 1;
        assert!(turns <= 72);
    }
    assert!(turns >= 60, "a base game has about 71 turns, got {turns}");
    let v = alice.get(&format!("/v1/games/{id}"));
    let v = v.ok();
    assert_eq!(v["status"], "finished");
    assert_eq!(v["tiles_left"], 0);
    assert!(v["pending"].is_null());
    let ranking = v["ranking"].as_array().expect("final ranking");
    assert_eq!(ranking.len(), 2);
    for r in ranking {
        let seat = r["seat"].as_u64().unwrap() as usize;
        assert_eq!(r["score"], v["players"][seat]["score"]);
    }
    let (a, b) = (
        ranking[0]["score"].as_i64().unwrap(),
        ranking[1]["score"].as_i64().unwrap(),
    );
    assert!(a >= b);
    assert_eq!(ranking[0]["rank"], 1);
    assert_eq!(ranking[1]["rank"], if a == b { 1 } else { 2 });
    // the history ends with the game over, and its points add up to the scores
    let mut all = Vec::new();
    let mut after = 0;
    loop {
        let e = alice.get(&format!("/v1/games/{id}/events?after={after}&limit=200"));
        let e = e.ok().clone();
        all.extend(e["events"].as_array().unwrap().iter().cloned());
        match e["next_after"].as_i64() {
            Some(n) => after = n,
            None => break,
        }
    }
    assert_eq!(all.len() as i64, v["version"].as_i64().unwrap());
    for (i, e) in all.iter().enumerate() {
        assert_eq!(e["seq"], i as i64 + 1);
    }
    let last = all.last().unwrap();
    let over = last["consequences"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "game_over")
        .expect("game_over consequence");
    assert_eq!(over["ranking"].as_array().unwrap().len(), 2);
    let mut points = [0i64; 2];
    for e in &all {
        for c in e["consequences"].as_array().unwrap() {
            if c["type"] == "feature_scored" {
                for s in c["seats"].as_array().unwrap() {
                    points[s.as_u64().unwrap() as usize] += c["points"].as_i64().unwrap();
                }
            }
        }
    }
    for (seat, p) in points.iter().enumerate() {
        assert_eq!(*p, v["players"][seat]["score"].as_i64().unwrap());
    }
    // a finished game takes no more moves
    alice
        .post(
            &format!("/v1/games/{id}/moves"),
            json!({"expected_version": v["version"], "actions": [{"type": "pass"}]}),
        )
        .problem(409, "game-over");
    // both players got notified that it is over (outbox rows written with the move)
    let rt = actix_web::rt::System::new();
    let outbox = rt
        .block_on(app.server.state.store.outbox_for_user(bob.user_id.clone()))
        .unwrap();
    assert!(outbox.iter().any(|m| m.kind == "game.finished"));
    assert!(outbox.iter().any(|m| m.kind == "game.turn_started"));
    let turn: Value = serde_json::from_str(
        &outbox
            .iter()
            .find(|m| m.kind == "game.turn_started")
            .unwrap()
            .payload,
    )
    .unwrap();
    assert_eq!(turn["type"], "game.turn_started");
    assert_eq!(turn["data"]["recipient"]["email"], "bob@example.com");
    assert!(turn["data"]["subject"].is_string() && turn["data"]["html"].is_string());
}

fn mv(c: &Client, id: &str, version: i64, actions: Value) -> Resp {
    c.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": version, "actions": actions}),
    )
}

fn scores(c: &Client, id: &str) -> Vec<i64> {
    let v = c.get(&format!("/v1/games/{id}"));
    v.ok()["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["score"].as_i64().unwrap())
        .collect()
}

/// base.md Example B1: two knights merged into one city: a tie, both score 8.
fn worked_example_b1_tie(app: &TestApp) {
    let (red, blue, green) = (app.user("red"), app.user("blue"), app.user("green"));
    let id = start_game(
        &[&red, &blue, &green],
        json!({"tile_order": ["base/D", "base/N", "base/N"]}),
    );
    let v = red.get(&format!("/v1/games/{id}"));
    assert_eq!(v.json["sandbox"], true);
    assert_eq!(v.json["pending"]["tile"], "base/D");
    mv(
        &red,
        &id,
        1,
        json!([{"type": "place_tile", "x": 1, "y": 0, "rotation": 0},
        {"type": "place_figure", "figure": "follower", "spot": "N"}]),
    )
    .ok();
    mv(
        &blue,
        &id,
        3,
        json!([{"type": "place_tile", "x": 0, "y": 1, "rotation": 180},
        {"type": "place_figure", "figure": "follower", "spot": "S"}]),
    )
    .ok();
    // Green may not put a knight in the occupied city
    let a = green.get(&format!("/v1/games/{id}/placements"));
    let pl = a.json["placements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["x"] == 1 && p["y"] == 1 && p["rotation"] == 270)
        .expect("(1,1) r3 is legal")
        .clone();
    assert!(pl["spots"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["spot"] != "S" && s["spot"] != "W"));
    let r = mv(
        &green,
        &id,
        5,
        json!([{"type": "place_tile", "x": 1, "y": 1, "rotation": 270},
        {"type": "pass"}]),
    );
    let scored: Vec<&Value> = r.ok()["events"][1]["consequences"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["type"] == "feature_scored")
        .collect();
    assert_eq!(scored[0]["feature"], "city");
    assert_eq!(scored[0]["points"], 8);
    assert_eq!(scored[0]["seats"], json!([0, 1]));
    assert_eq!(scores(&red, &id), vec![8, 8, 0]);
    let v = red.get(&format!("/v1/games/{id}"));
    assert_eq!(v.json["status"], "finished");
    assert_eq!(v.json["ranking"][0]["rank"], 1);
    assert_eq!(v.json["ranking"][1]["rank"], 1);
    assert_eq!(v.json["ranking"][2]["rank"], 3);
}

/// base.md Example B5: incomplete features at the end: Red +4 (city, 3 tiles + 1
/// pennant), Blue +2 (road).
fn worked_example_b5_final_scoring(app: &TestApp) {
    let (red, blue, green) = (app.user("red"), app.user("blue"), app.user("green"));
    let id = start_game(
        &[&red, &blue, &green],
        json!({"tile_order": ["base/F", "base/U", "base/R"]}),
    );
    mv(
        &red,
        &id,
        1,
        json!([{"type": "place_tile", "x": 0, "y": 1, "rotation": 90},
        {"type": "place_figure", "figure": "follower", "spot": "S"}]),
    )
    .ok();
    mv(
        &blue,
        &id,
        3,
        json!([{"type": "place_tile", "x": 1, "y": 0, "rotation": 0},
        {"type": "place_figure", "figure": "follower", "spot": "E"}]),
    )
    .ok();
    mv(
        &green,
        &id,
        5,
        json!([{"type": "place_tile", "x": 0, "y": 2, "rotation": 180},
        {"type": "pass"}]),
    )
    .ok();
    assert_eq!(scores(&red, &id), vec![4, 2, 0]);
    let v = red.get(&format!("/v1/games/{id}"));
    assert_eq!(v.json["status"], "finished");
    assert_eq!(v.json["ranking"][0]["username"], "red");
}

/// A generic client plays random games to the end with only what `…/actions` lists.
fn generic_random_client(app: &TestApp) {
    let (a, b, c) = (app.user("ann"), app.user("ben"), app.user("cat"));
    for (seed, players) in [(1u64, vec![&a, &b]), (2, vec![&a, &b, &c])] {
        let id = start_game(&players, Value::Null);
        let moves = play_random(&players, &id, seed);
        let v = a.get(&format!("/v1/games/{id}"));
        // decisions with one option play themselves: fewer moves than decisions
        let decisions = v.json["version"].as_i64().unwrap_or_default();
        assert!(
            moves > 40 && decisions > 100,
            "{moves} moves, {decisions} events"
        );
        assert_eq!(v.json["status"], "finished");
        assert_eq!(v.json["ranking"].as_array().unwrap().len(), players.len());
    }
}

/// The generic client needs no rules: games with the implemented expansions play out the
/// same way, whoever's decision is pending (freed wagons and crop circles ask players
/// other than the active one).
fn generic_client_with_expansions(app: &TestApp) {
    let (a, b, c) = (app.user("ann"), app.user("ben"), app.user("cat"));
    let sets = [
        (
            vec!["river", "abbot", "inns_cathedrals", "traders_builders"],
            11u64,
        ),
        (vec!["abbey_mayor", "traders_builders"], 12),
        (
            vec![
                "flying_machines",
                "gold_mines",
                "mage_witch",
                "crop_circles",
                "ferries",
            ],
            13,
        ),
        (
            vec![
                "river",
                "abbot",
                "inns_cathedrals",
                "traders_builders",
                "abbey_mayor",
                "flying_machines",
                "gold_mines",
                "mage_witch",
                "crop_circles",
                "ferries",
            ],
            14,
        ),
        (vec!["robbers", "messages", "traders_builders"], 15),
        (
            vec![
                "river",
                "abbot",
                "inns_cathedrals",
                "traders_builders",
                "abbey_mayor",
                "flying_machines",
                "messages",
                "ferries",
                "gold_mines",
                "mage_witch",
                "robbers",
                "crop_circles",
            ],
            16,
        ),
        (vec!["pig_herd", "traders_builders", "abbey_mayor"], 17),
    ];
    for (expansions, seed) in sets {
        let g = a.post("/v1/games", json!({"seats": 3, "expansions": expansions}));
        assert_eq!(g.status, 201, "{}", g.text);
        let id = g.json["id"].as_str().unwrap().to_string();
        b.post(&format!("/v1/games/{id}/join"), json!({})).ok();
        c.post(&format!("/v1/games/{id}/join"), json!({})).ok();
        let moves = play_random(&[&a, &b, &c], &id, seed);
        assert!(moves > 100, "{moves} moves with {expansions:?}");
        let v = a.get(&format!("/v1/games/{id}"));
        assert_eq!(v.json["status"], "finished", "{expansions:?}");
        // the expansions' pieces show in the view
        let p0 = &v.json["players"][0];
        let has = |e: &str| expansions.contains(&e);
        assert_eq!(p0["goods"].is_object(), has("traders_builders"), "{p0}");
        assert_eq!(p0["gold"].is_number(), has("gold_mines"), "{p0}");
        assert_eq!(p0["abbey"].is_boolean(), has("abbey_mayor"), "{p0}");
        assert_eq!(
            p0["track"].is_array(),
            has("robbers") || has("messages"),
            "{p0}"
        );
        if has("ferries") {
            let ferries = v.json["board"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t["ferry"].is_object())
                .count();
            let lakes = v.json["board"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t["tile"].as_str().unwrap().starts_with("fe/"))
                .count();
            assert_eq!(ferries, lakes, "every lake on the board has its ferry");
        }
        let h = a.get(&format!("/v1/games/{id}/events"));
        assert_eq!(h.status, 200, "{}", h.text);
    }
}

/// Three players; the creator starts early with two; resigning players rank last and the
/// others play on.
fn start_early_and_resign(app: &TestApp) {
    let (a, b, c) = (app.user("ann"), app.user("ben"), app.user("cat"));
    let g = a.post("/v1/games", json!({"seats": 4}));
    let id = g.json["id"].as_str().unwrap().to_string();
    a.post(&format!("/v1/games/{id}/start"), json!({}))
        .problem(409, "not-enough-players");
    b.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    c.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    b.post(&format!("/v1/games/{id}/start"), json!({}))
        .problem(403, "not-creator");
    let s = a.post(&format!("/v1/games/{id}/start"), json!({}));
    assert_eq!(s.ok()["status"], "active");
    assert_eq!(s.json["seats"], 3);
    a.post(&format!("/v1/games/{id}/start"), json!({}))
        .problem(409, "game-already-started");
    let r = b.post(&format!("/v1/games/{id}/resign"), json!({}));
    assert_eq!(r.ok()["status"], "active");
    assert_eq!(r.json["events"][0]["decision"]["type"], "player_resigned");
    b.post(&format!("/v1/games/{id}/resign"), json!({}))
        .problem(409, "not-in-game");
    let r = c.post(&format!("/v1/games/{id}/resign"), json!({}));
    assert_eq!(r.ok()["status"], "finished");
    let v = a.get(&format!("/v1/games/{id}"));
    assert_eq!(v.json["ranking"][0]["username"], "ann");
    assert_eq!(v.json["ranking"][0]["rank"], 1);
}

/// Listing: the caller's turns first, filters and cursor pagination.
fn list_games_filters_and_pages(app: &TestApp) {
    let (a, b) = (app.user("ann"), app.user("ben"));
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(start_game(&[&a, &b], Value::Null));
    }
    let open = a.post("/v1/games", json!({"seats": 3}));
    let open_id = open.json["id"].as_str().unwrap().to_string();
    // ann moves in the first game: it becomes ben's turn there
    let acts = a.get(&format!("/v1/games/{}/actions", ids[0]));
    mv(
        &a,
        &ids[0],
        1,
        json!([acts.json["actions"][0], {"type": "pass"}]),
    )
    .ok();
    let mine = a.get("/v1/games?player=me&status=active&my_turn=true");
    let list: Vec<&str> = mine.ok()["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(list.len(), 2);
    assert!(!list.contains(&ids[0].as_str()));
    let bens = b.get("/v1/games?player=me&my_turn=true");
    assert_eq!(bens.json["games"][0]["id"], ids[0].as_str());
    assert_eq!(bens.json["games"][0]["my_turn"], true);
    // urgent first: ann's turns come before the game waiting for ben and the open one
    let all = a.get("/v1/games?player=me");
    let order: Vec<&str> = all.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(order.len(), 4);
    assert!(all.json["games"][0]["my_turn"] == true && all.json["games"][1]["my_turn"] == true);
    assert_eq!(order[2], ids[0]);
    assert_eq!(order[3], open_id);
    let open_list = a.get("/v1/games?status=open");
    assert_eq!(open_list.json["games"].as_array().unwrap().len(), 1);
    let by_name = b.get("/v1/games?player=ann&status=active");
    assert_eq!(by_name.json["games"].as_array().unwrap().len(), 3);
    // pages of 3 then 1
    let p1 = a.get("/v1/games?player=me&limit=3");
    assert_eq!(p1.json["games"].as_array().unwrap().len(), 3);
    let cursor = p1.json["next_cursor"].as_str().expect("more").to_string();
    let p2 = a.get(&format!("/v1/games?player=me&limit=3&cursor={cursor}"));
    assert_eq!(p2.json["games"].as_array().unwrap().len(), 1);
    assert!(p2.json["next_cursor"].is_null());
    a.get("/v1/games?limit=0").problem(400, "validation-failed");
    a.get("/v1/games?cursor=zzz")
        .problem(400, "validation-failed");
    app.anon()
        .get("/v1/games?player=me")
        .problem(401, "unauthorized");
}

/// `ETag` and `If-None-Match`.
fn etag_and_not_modified(app: &TestApp) {
    let (a, b) = (app.user("ann"), app.user("ben"));
    let g = a.post("/v1/games", json!({"seats": 2}));
    let id = g.json["id"].as_str().unwrap().to_string();
    let open_tag = g.header("etag").unwrap().to_string();
    b.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    let v = a.get(&format!("/v1/games/{id}"));
    let tag = v.header("etag").unwrap().to_string();
    assert_eq!(tag, "\"1\"");
    assert_ne!(tag, open_tag);
    let nm = a.request(
        "GET",
        &format!("/v1/games/{id}"),
        None,
        &[("If-None-Match", &tag)],
    );
    assert_eq!(nm.status, 304);
    assert_eq!(nm.text, "");
    assert_eq!(nm.header("etag"), Some(tag.as_str()));
    let acts = a.get(&format!("/v1/games/{id}/actions"));
    mv(&a, &id, 1, json!([acts.json["actions"][0]])).ok();
    let again = a.request(
        "GET",
        &format!("/v1/games/{id}"),
        None,
        &[("If-None-Match", &tag)],
    );
    assert_eq!(again.status, 200);
    assert_eq!(again.header("etag"), Some("\"2\""));
}

crate::both!(
    complete_two_player_game,
    worked_example_b1_tie,
    worked_example_b5_final_scoring,
    generic_random_client,
    generic_client_with_expansions,
    start_early_and_resign,
    list_games_filters_and_pages,
    etag_and_not_modified,
);
