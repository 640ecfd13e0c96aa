//! The terms of an event's games: the organiser's expansions, house rules, rated or
//! casual and assistance, checked as a new game's are, carried by every game of every
//! round, and a rated event's games rated at their end like any rated game (a forfeit
//! as a resignation).

use serde_json::{json, Value};

use crate::both;
use crate::common::*;
use crate::players::{mark_bot_account, profile, rating_of, resign};
use crate::rated_games::{assert_counted, assert_uncounted, entry, history};
use crate::tournaments::{create, running_games};

/// Registers `players` and starts the event; its first round's games.
fn start(org: &Client, id: &str, players: &[&Client]) -> Vec<(String, Vec<String>)> {
    for p in players {
        p.post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .ok();
    }
    org.post(&format!("/v1/tournaments/{id}/start"), json!({}))
        .ok();
    running_games(org, id)
}

/// The terms an event and its games show: expansions, rules, rated, assistance.
fn terms(v: &Value) -> Value {
    json!([v["expansions"], v["rules"], v["rated"], v["assistance"]])
}

/// A rated event with an expansion, a house rule and no assistance: the event says so,
/// its game carries them (and takes no account marked as a bot), the analysis is off
/// while it runs; the game played to a real end changes ratings in the expansions
/// pool, and a game forfeited by a removal before each player decided twice is
/// `too_short`, exactly as a resignation would be. An event's rating bounds are those
/// of its games' pool.
fn a_rated_event_s_games_carry_its_terms(app: &TestApp) {
    let org = app.user("org");
    let (ann, ben) = (app.user("ann"), app.user("ben"));
    let asked = json!({
        "expansions": ["inns_cathedrals"],
        "rules": {"small_city_points": "2"},
        "rated": true,
        "assistance": "none",
    });
    let id = create(&org, 1, asked.clone());
    let want = json!([["inns_cathedrals"], {"small_city_points": "2"}, true, "none"]);
    let v = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(terms(&v), want);
    // an account marked as a bot does not enter a rated event
    let robo = app.user("robo");
    mark_bot_account(&robo);
    robo.post(&format!("/v1/tournaments/{id}/join"), json!({}))
        .problem(403, "bot-accounts-not-allowed");

    let games = start(&org, &id, &[&ann, &ben]);
    assert_eq!(games.len(), 1);
    let (gid, _) = &games[0];
    let g = ann.get(&format!("/v1/games/{gid}")).ok().clone();
    assert_eq!(terms(&g), want);
    assert_eq!(g["bot_accounts"], false);
    assert_eq!(g["tournament"]["id"], id.as_str());
    for who in [&ann, &ben, &org] {
        who.get(&format!("/v1/games/{gid}/analysis"))
            .problem(403, "assistance-off");
        who.get(&format!("/v1/games/{gid}/timeline"))
            .problem(403, "assistance-off");
    }
    // each decides twice, then one resigns: a real game, rated in its pool
    decide_each(&[&ann, &ben], gid, 2);
    resign(&ben, gid);
    for name in ["ann", "ben"] {
        assert_counted(&entry(&history(app, name, "expansions"), gid));
        assert!(history(app, name, "base").is_empty(), "{name}");
    }
    let pa = profile(&app.anon(), "ann");
    let rating = rating_of(&pa, "expansions").expect("rated in the expansions pool");
    assert_eq!(rating["games"], 1);
    assert!(rating["rating"].as_i64() > Some(1500), "{rating}");
    assert_eq!(rating_of(&pa, "base"), None);
    let over = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(over["status"], "ended");

    // a second rated event: the organiser removes a player at once; the game she
    // leaves is forfeited, and rates as a resignation does: too short to count
    let id = create(&org, 1, asked);
    let games = start(&org, &id, &[&ann, &ben]);
    let (gid, _) = &games[0];
    org.post(
        &format!("/v1/tournaments/{id}/adjustments"),
        json!({"kind": "remove", "player": ann.user_id, "reason": "no-show"}),
    )
    .ok();
    let g = org.get(&format!("/v1/games/{gid}")).ok().clone();
    assert_eq!(g["status"], "finished");
    for name in ["ann", "ben"] {
        assert_uncounted(&entry(&history(app, name, "expansions"), gid), "too_short");
    }
    let pa = profile(&app.anon(), "ann");
    assert_eq!(rating_of(&pa, "expansions").expect("rated")["games"], 1);
    assert_eq!(pa["games_uncounted"], 1);

    // an event's rating bounds and seeding read the pool of its games: ann, above 1500
    // with expansions and unrated (1500) in the base game, enters the one and not the
    // other
    let bounded = json!({"min_rating": 1501});
    let base = create(&org, 1, bounded.clone());
    ann.post(&format!("/v1/tournaments/{base}/join"), json!({}))
        .problem(403, "rating-out-of-bounds");
    let mut with = bounded;
    with["expansions"] = json!(["inns_cathedrals"]);
    let expansions = create(&org, 1, with);
    ann.post(&format!("/v1/tournaments/{expansions}/join"), json!({}))
        .ok();
}

/// Without the terms, an event's games are casual base games with full assistance, as
/// a casual game's are; an unrated game's end changes no rating.
fn an_event_without_terms_plays_casual_base_games(app: &TestApp) {
    let org = app.user("org");
    let (ann, ben) = (app.user("ann"), app.user("ben"));
    let id = create(&org, 1, json!({}));
    let want = json!([[], {}, false, "full"]);
    let v = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(terms(&v), want);
    let games = start(&org, &id, &[&ann, &ben]);
    let (gid, _) = &games[0];
    let g = ann.get(&format!("/v1/games/{gid}")).ok().clone();
    assert_eq!(terms(&g), want);
    assert_eq!(g["bot_accounts"], true);
    assert_eq!(
        ann.get(&format!("/v1/games/{gid}/analysis")).ok()["assistance"],
        "full"
    );
    decide_each(&[&ann, &ben], gid, 2);
    resign(&ben, gid);
    assert_eq!(profile(&app.anon(), "ann")["ratings"], json!([]));
    // a rated event without its own assistance gets a rated game's: scores
    let id = create(&org, 1, json!({"rated": true}));
    let v = org.get(&format!("/v1/tournaments/{id}")).ok().clone();
    assert_eq!(terms(&v), json!([[], {}, true, "scores"]));
}

/// The terms are refused as a new game's (or a seek's, whose house rules are named as
/// an event's) are, with the same codes and fields: unknown or repeated expansions,
/// unknown presets and rule values, an assistance that is not one; a rated event with
/// the server's computer opponents; a table size the expansions do not allow.
fn terms_are_refused_as_a_game_s(app: &TestApp) {
    let org = app.user("org");
    let fields = |r: &Resp| -> Vec<String> {
        r.problem(400, "validation-failed");
        r.json["errors"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .filter_map(|e| e["field"].as_str().map(str::to_string))
            .collect()
    };
    let event = |extra: Value| {
        let mut body = json!({"name": "Cup", "stages": [{"format": "swiss", "rounds": 1}]});
        if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
            b.extend(e.clone());
        }
        org.post("/v1/tournaments", body)
    };
    for (bad, field) in [
        (json!(["nope"]), "expansions[0]"),
        (json!(["river", "river"]), "expansions[1]"),
    ] {
        let game = org.post("/v1/games", json!({"seats": 2, "expansions": bad}));
        let t = event(json!({"expansions": bad}));
        assert_eq!(fields(&t), fields(&game), "{bad}");
        assert_eq!(fields(&t), vec![field]);
    }
    for (bad, field) in [
        (json!({"preset": "nope"}), "preset"),
        (json!({"rules": {"small_city_points": "3"}}), "rules"),
        (json!({"rules": {"no_such_rule": "on"}}), "rules"),
    ] {
        let mut seek = json!({"seats": 2});
        if let (Some(b), Some(e)) = (seek.as_object_mut(), bad.as_object()) {
            b.extend(e.clone());
        }
        let seek = org.post("/v1/seeks", seek);
        let t = event(bad.clone());
        assert_eq!(fields(&t), fields(&seek), "{bad}");
        assert_eq!(fields(&t), vec![field]);
    }
    let r = event(json!({"assistance": "some"}));
    assert_eq!(r.status, 400, "{}", r.text);
    // rated games take none of the server's computer opponents: nor does a rated event
    let game = org.post(
        "/v1/games",
        json!({"seats": 2, "rated": true, "bots": ["random"]}),
    );
    let t = event(json!({"rated": true, "computer_opponents": true}));
    assert_eq!(fields(&t), fields(&game));
    assert_eq!(fields(&t), vec!["rated"]);
    // six seats need Inns & Cathedrals, in an event's stage as in a game
    let six = json!([{"format": "swiss", "rounds": 1, "table_size": 6}]);
    let t = event(json!({"stages": six}));
    assert_eq!(fields(&t), vec!["stages[0].table_size"]);
    let t = event(json!({"stages": six, "expansions": ["inns_cathedrals"]}));
    assert_eq!(t.status, 201, "{}", t.text);
    // nothing refused was created
    let list = org.get("/v1/tournaments").ok().clone();
    assert_eq!(list["tournaments"].as_array().map(Vec::len), Some(1));
}

both!(
    a_rated_event_s_games_carry_its_terms,
    an_event_without_terms_plays_casual_base_games,
    terms_are_refused_as_a_game_s,
);
