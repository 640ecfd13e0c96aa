//! Writes under pressure: racing submissions, retried requests, hidden information.

use std::sync::{Arc, Barrier};

use serde_json::{json, Value};

use crate::common::*;

/// Two submissions for the same version: exactly one wins, the other gets 409, and the
/// log stays a gap-free sequence.
fn concurrent_submissions(app: &TestApp) {
    let (a, b) = (app.user("ann"), app.user("ben"));
    let id = start_game(&[&a, &b], straight_roads());
    for round in 0..6 {
        let acts = a.get(&format!("/v1/games/{id}/actions"));
        let version = acts.json["version"].as_i64().unwrap();
        let who = client_for(&[&a, &b], &acts.json["pending"]).clone();
        let options = acts.json["actions"].as_array().unwrap().clone();
        let barrier = Arc::new(Barrier::new(2));
        let handles: Vec<_> = (0..2)
            .map(|i| {
                let c = who.clone();
                let barrier = barrier.clone();
                let action = options[i.min(options.len() - 1)].clone();
                let id = id.clone();
                std::thread::spawn(move || {
                    barrier.wait();
                    c.post(
                        &format!("/v1/games/{id}/moves"),
                        json!({"expected_version": version, "actions": [action]}),
                    )
                })
            })
            .collect();
        let results: Vec<Resp> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        let ok = results.iter().filter(|r| r.status == 200).count();
        assert_eq!(
            ok,
            1,
            "round {round}: {:?}",
            results.iter().map(|r| &r.text).collect::<Vec<_>>()
        );
        let lost = results.iter().find(|r| r.status != 200).unwrap();
        lost.problem(409, "stale-version");
        assert_eq!(lost.json["current_version"], version + 1);
    }
    let ev = a.get(&format!("/v1/games/{id}/events?limit=200"));
    let seqs: Vec<i64> = ev.json["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_i64().unwrap())
        .collect();
    assert_eq!(seqs, (1..=7).collect::<Vec<_>>());
    assert_eq!(a.get(&format!("/v1/games/{id}")).json["version"], 7);
}

/// A pile of straight roads: every turn has several placements, so no decision of these
/// tests plays itself and the versions they expect are the same whatever the seed.
fn straight_roads() -> Value {
    json!({"tile_order": vec!["base/U"; 8]})
}

/// A retried POST with the same Idempotency-Key gets the first answer and acts once.
fn idempotent_retry(app: &TestApp) {
    let (a, b) = (app.user("ann"), app.user("ben"));
    let id = start_game(&[&a, &b], straight_roads());
    let acts = a.get(&format!("/v1/games/{id}/actions"));
    let body =
        json!({"expected_version": 1, "actions": [acts.json["actions"][0], {"type": "pass"}]});
    let path = format!("/v1/games/{id}/moves");
    let first = a.post_with(&path, body.clone(), &[("Idempotency-Key", "move-1")]);
    first.ok();
    let again = a.post_with(&path, body.clone(), &[("Idempotency-Key", "move-1")]);
    assert_eq!(again.status, 200);
    assert_eq!(again.text, first.text);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(a.get(&format!("/v1/games/{id}")).json["version"], 3);
    let ev = a.get(&format!("/v1/games/{id}/events"));
    assert_eq!(ev.json["events"].as_array().unwrap().len(), 3);
    // the same key with another request
    let other = json!({"expected_version": 3, "actions": [{"type": "pass"}]});
    a.post_with(&path, other, &[("Idempotency-Key", "move-1")])
        .problem(422, "idempotency-key-reused");
    // keys belong to their user: ben's "move-1" is his own
    let acts = b.get(&format!("/v1/games/{id}/actions"));
    let bens =
        json!({"expected_version": 3, "actions": [acts.json["actions"][0], {"type": "pass"}]});
    b.post_with(&path, bens, &[("Idempotency-Key", "move-1")])
        .ok();
    // two retries racing: both get the same answer, one set of events
    let acts = a.get(&format!("/v1/games/{id}/actions"));
    let body =
        json!({"expected_version": 5, "actions": [acts.json["actions"][0], {"type": "pass"}]});
    let barrier = Arc::new(Barrier::new(2));
    let hs: Vec<_> = (0..2)
        .map(|_| {
            let (c, body, path, barrier) = (a.clone(), body.clone(), path.clone(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                c.post_with(&path, body, &[("Idempotency-Key", "move-3")])
            })
        })
        .collect();
    let rs: Vec<Resp> = hs.into_iter().map(|h| h.join().unwrap()).collect();
    assert!(
        rs.iter().all(|r| r.status == 200),
        "{:?}",
        rs.iter().map(|r| &r.text).collect::<Vec<_>>()
    );
    assert_eq!(rs[0].text, rs[1].text);
    assert_eq!(a.get(&format!("/v1/games/{id}")).json["version"], 7);
    a.post_with(
        &path,
        json!({"expected_version": 7, "actions": [{"type": "pass"}]}),
        &[("Idempotency-Key", "")],
    )
    .problem(400, "validation-failed");
}

fn keys(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.push(k.clone());
                keys(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
        _ => {}
    }
}

#[derive(diesel::QueryableByName)]
struct Payload {
    #[diesel(sql_type = diesel::sql_types::Text)]
    payload: String,
}

fn stored_creation(app: &TestApp, id: &str) -> Value {
    use diesel::{Connection, RunQueryDsl};
    let q = format!("SELECT payload FROM game_events WHERE game_id = '{id}' AND seq = 1");
    let rows: Vec<Payload> = match app.db.kind {
        Db::Sqlite => {
            let path = app.db.url.trim_start_matches("sqlite://");
            let mut c = diesel::SqliteConnection::establish(path).unwrap();
            diesel::sql_query(q).load(&mut c).unwrap()
        }
        Db::Postgres => {
            let mut c = diesel::PgConnection::establish(&app.db.url).unwrap();
            diesel::sql_query(q).load(&mut c).unwrap()
        }
    };
    serde_json::from_str(&rows[0].payload).unwrap()
}

/// Views and the events feed of a running game never contain the seed or the future pile
/// (nor, with the house rule `tiles_in_hand`, another player's hand).
fn no_hidden_information_leaks(app: &TestApp) {
    let (a, b) = (app.user("ann"), app.user("ben"));
    let order = ["base/V", "base/U", "base/R", "base/N", "base/F", "base/E"];
    for options in [
        Value::Null,
        json!({"tile_order": order}),
        json!({"tile_order": order, "rules": {"tiles_in_hand": "2"}}),
    ] {
        let id = start_game(&[&a, &b], options.clone());
        let seed = stored_creation(app, &id)["seed"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(seed.len() > 3);
        // ben's plans and orders are his alone
        let plan = json!({"plans": [{"tile": "base/A", "actions": [{"type": "place_tile", "x": 4242, "y": 0, "rotation": 0}]}]});
        let r = b.request(
            "PUT",
            &format!("/v1/games/{id}/plans"),
            Some(&plan.to_string()),
            &[],
        );
        assert_eq!(r.status, 200, "{}", r.text);
        // (a base game has no robbers: ben's order is a default for every game)
        let orders = json!({"robber_victim": "leader"});
        let r = b.request(
            "PATCH",
            "/v1/users/me/orders",
            Some(&orders.to_string()),
            &[],
        );
        assert_eq!(r.status, 200, "{}", r.text);
        let mut bodies = Vec::new();
        for turn in 0..3 {
            for path in [
                "",
                "/actions",
                "/placements",
                "/events",
                "/orders",
                "/plans",
            ] {
                bodies.push((0, a.get(&format!("/v1/games/{id}{path}"))));
            }
            bodies.push((0, a.get("/v1/games?player=me")));
            let acts = a.get(&format!("/v1/games/{id}/actions"));
            let who = client_for(&[&a, &b], &acts.json["pending"]);
            // the options are the decider's (with tiles in hand, theirs alone)
            let acts = who.get(&format!("/v1/games/{id}/actions"));
            let seat = if who.user_id == a.user_id { 0 } else { 1 };
            bodies.push((seat, who.post(
                &format!("/v1/games/{id}/moves"),
                json!({"expected_version": acts.json["version"], "actions": [acts.json["actions"][0], {"type": "pass"}]}),
            )));
            let _ = turn;
        }
        // ann's live stream, everything of hers from the start
        let frames = crate::stream::Sse::open(&a, &app.url(), Some(0))
            .drain(std::time::Duration::from_millis(500));
        assert!(!frames.is_empty());
        for f in frames {
            let text = f.data.to_string();
            bodies.push((
                0,
                crate::common::Resp {
                    status: 200,
                    headers: Vec::new(),
                    text,
                    json: f.data,
                },
            ));
        }
        let (mut named, mut hidden) = (0, 0);
        for (seat, r) in &bodies {
            assert!((200..300).contains(&r.status), "{}", r.text);
            assert!(!r.text.contains(&seed), "the seed leaked: {}", r.text);
            assert!(
                // (the plan's own JSON: ids are random and may hold the digits)
                !r.text.contains("\"x\":4242"),
                "another player's plan: {}",
                r.text
            );
            assert!(
                !r.text.contains("leader"),
                "another player's order: {}",
                r.text
            );
            let mut ks = Vec::new();
            keys(&r.json, &mut ks);
            for bad in ["seed", "tile_order", "pile", "draw_pile"] {
                assert!(!ks.iter().any(|k| k == bad), "key {bad} in {}", r.text);
            }
            // a draw into a hand names its tile to its player alone
            let mut fx = Vec::new();
            tile_to_hand(&r.json, &mut fx);
            assert!(
                fx.iter()
                    .all(|c| c["seat"] == *seat || c.get("tile").is_none()),
                "another player's draw into the hand: {}",
                r.text
            );
            named += fx.iter().filter(|c| c.get("tile").is_some()).count();
            hidden += fx.iter().filter(|c| c.get("tile").is_none()).count();
            if !options.is_null() {
                // the order of the tiles still to come is not revealed
                let rest = order[4..]
                    .iter()
                    .map(|t| format!("\"{t}\""))
                    .collect::<Vec<_>>()
                    .join(",");
                assert!(!r.text.contains(&rest), "future pile in {}", r.text);
            }
        }
        if options.get("rules").is_some() {
            // the scan saw both: draws named to their player, and hidden from the other
            assert!(named > 0 && hidden > 0, "{named} named, {hidden} hidden");
        }
    }
}

/// The `tile_to_hand` consequences anywhere in `v`.
fn tile_to_hand(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Object(m) => {
            if m.get("type").and_then(Value::as_str) == Some("tile_to_hand") {
                out.push(v.clone());
            }
            m.values().for_each(|x| tile_to_hand(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| tile_to_hand(x, out)),
        _ => {}
    }
}

crate::both!(
    concurrent_submissions,
    idempotent_retry,
    no_hidden_information_leaks
);
