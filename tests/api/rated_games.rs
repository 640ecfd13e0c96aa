//! Only real games rate, over HTTP on both databases: a rated game in which a player made
//! fewer than two decisions of their own changes no rating (the farming loop of two
//! accounts), a pair's rated games count at most `TILEPOST_RATED_GAMES_PER_PAIR_PER_DAY`
//! times within a day (every pair of a bigger game too), the profile and the rating
//! history show the games that did not count and why, and two servers ending two games
//! of one pair at once count no more than the limit.

use serde_json::{json, Value};

use crate::common::*;
use crate::players::{game, join, long_tokens, profile, rating_of, resign};

const DAY: i64 = 86_400_000;

/// A rated game of `players` (the first creates it) in which each makes two decisions of
/// their own before the last one resigns: the quickest game that counts.
fn real_game(players: &[&Client], body: Value) -> String {
    let id = game(players[0], body);
    for p in &players[1..] {
        join(p, &id);
    }
    decide_each(players, &id, 2);
    // the last players resign until one is left
    for p in players[1..].iter().rev() {
        resign(p, &id);
    }
    id
}

fn rated() -> Value {
    json!({"seats": 2, "rated": true})
}

/// The entries of a player's rating history in a pool, by game id.
pub(crate) fn history(app: &TestApp, name: &str, pool: &str) -> Vec<Value> {
    let h = app
        .anon()
        .get(&format!("/v1/users/{name}/ratings?pool={pool}&limit=200"));
    h.ok()["entries"].as_array().cloned().unwrap_or_default()
}

pub(crate) fn entry(entries: &[Value], game: &str) -> Value {
    entries
        .iter()
        .find(|e| e["game_id"] == game)
        .cloned()
        .unwrap_or_else(|| panic!("no history entry for {game}"))
}

/// A history entry of a rated game that changed no rating, for `reason`.
pub(crate) fn assert_uncounted(e: &Value, reason: &str) {
    assert_eq!(e["rated"], true, "{e}");
    assert_eq!(e["unrated_reason"], reason, "{e}");
    assert!(
        e["rating_before"].is_null() && e["rating_after"].is_null(),
        "{e}"
    );
}

/// A history entry of a rated game that changed ratings.
pub(crate) fn assert_counted(e: &Value) {
    assert_eq!(e["rated"], true, "{e}");
    assert!(e["unrated_reason"].is_null(), "{e}");
    assert!(
        e["rating_before"].is_i64() && e["rating_after"].is_i64(),
        "{e}"
    );
}

/// The security test's loop: a second account joins rated 2-seat games and resigns at
/// once, six times. No rating moves; the games are in both records, each with its
/// reason. A game counts only once every player made two decisions of their own.
fn farming_two_accounts_changes_no_rating(kind: Db) {
    let app = TestApp::new(kind);
    let ann = app.user("ann");
    let ben = app.user("ben");
    let mut farmed = Vec::new();
    for _ in 0..6 {
        let id = game(&ann, rated());
        join(&ben, &id);
        resign(&ben, &id);
        farmed.push(id);
    }
    for name in ["ann", "ben"] {
        let p = profile(&app.anon(), name);
        assert_eq!(p["ratings"], json!([]), "{name}: no rating moved");
        assert_eq!(p["games_played"], 6, "{name}");
        assert_eq!(p["games_uncounted"], 6, "{name}");
        let h = history(&app, name, "base");
        assert_eq!(h.len(), 6, "{name}");
        for id in &farmed {
            assert_uncounted(&entry(&h, id), "too_short");
        }
        let recent = &p["recent_games"][0];
        assert_eq!(recent["unrated_reason"], "too_short");
    }
    // the rest of the results stand: ann won them, ben resigned them
    let (pa, pb) = (profile(&app.anon(), "ann"), profile(&app.anon(), "ben"));
    assert_eq!(pa["games_won"], 6);
    assert_eq!(pb["games_resigned"], 6);
    assert!(app.anon().get("/v1/leaderboard").ok()["entries"] == json!([]));

    // every player must have decided twice: ann's two decisions are not enough, nor
    // ann's two and ben's one
    let id = game(&ann, rated());
    join(&ben, &id);
    decide_each(&[&ann], &id, 2);
    resign(&ben, &id);
    assert_uncounted(&entry(&history(&app, "ann", "base"), &id), "too_short");
    let id = game(&ann, rated());
    join(&ben, &id);
    decide_each(&[&ann, &ben], &id, 1);
    resign(&ann, &id);
    assert_uncounted(&entry(&history(&app, "ben", "base"), &id), "too_short");
    assert_eq!(profile(&app.anon(), "ann")["ratings"], json!([]));
    // two each: it counts (the pair has no counted game yet)
    let id = real_game(&[&ann, &ben], rated());
    assert_counted(&entry(&history(&app, "ann", "base"), &id));
    let pa = profile(&app.anon(), "ann");
    assert_eq!(rating_of(&pa, "base").expect("rated")["games"], 1);
    assert!(rating_of(&pa, "base").expect("rated")["rating"].as_i64() > Some(1500));
    assert_eq!(pa["games_uncounted"], 8);
    assert_eq!(pa["games_played"], 9);
}

/// A pair's 4th rated game within a day changes no rating (the default limit of 3), nor
/// does a 3-player game with that pair in it; another pair is not limited; a day after
/// the pair's counted games, their games count again.
fn pair_limit_per_day(kind: Db) {
    let app = long_tokens(kind);
    let ann = app.user("ann");
    let ben = app.user("ben");
    let cat = app.user("cat");
    let counted: Vec<String> = (0..3).map(|_| real_game(&[&ann, &ben], rated())).collect();
    let before = (profile(&app.anon(), "ann"), profile(&app.anon(), "ben"));
    assert_eq!(rating_of(&before.0, "base").expect("rated")["games"], 3);
    let fourth = real_game(&[&ann, &ben], rated());
    let after = (profile(&app.anon(), "ann"), profile(&app.anon(), "ben"));
    assert_eq!(
        after.0["ratings"], before.0["ratings"],
        "ann's rating is unchanged"
    );
    assert_eq!(
        after.1["ratings"], before.1["ratings"],
        "ben's rating is unchanged"
    );
    assert_eq!(after.0["games_played"], 4);
    assert_eq!(after.0["games_uncounted"], 1);
    assert_uncounted(&entry(&history(&app, "ann", "base"), &fourth), "pair_limit");
    assert_uncounted(&entry(&history(&app, "ben", "base"), &fourth), "pair_limit");
    for id in &counted {
        assert_counted(&entry(&history(&app, "ben", "base"), id));
    }
    // another pair with ann: counts
    let other = real_game(&[&ann, &cat], rated());
    assert_counted(&entry(&history(&app, "cat", "base"), &other));
    // ann, ben and cat together: the pair (ann, ben) is full, so nobody's rating moves
    let cat_before = profile(&app.anon(), "cat")["ratings"].clone();
    let three = real_game(&[&ann, &ben, &cat], json!({"seats": 3, "rated": true}));
    for name in ["ann", "ben", "cat"] {
        assert_uncounted(&entry(&history(&app, name, "base"), &three), "pair_limit");
    }
    assert_eq!(profile(&app.anon(), "cat")["ratings"], cat_before);
    // a day is 24 hours before the game's end: just under it the pair is still full,
    // from it on the counted games have left the window
    app.clock.advance_ms(DAY - 1);
    let late = real_game(&[&ann, &ben], rated());
    assert_uncounted(&entry(&history(&app, "ben", "base"), &late), "pair_limit");
    app.clock.advance_ms(1);
    let next_day = real_game(&[&ann, &ben], rated());
    let h = history(&app, "ben", "base");
    let e = entry(&h, &next_day);
    assert_counted(&e);
    // ben's rating before it is the one the third counted game left: the games that did
    // not count moved nothing
    assert_eq!(e["rating_before"], entry(&h, &counted[2])["rating_after"]);
    let pb = profile(&app.anon(), "ben");
    assert_eq!(rating_of(&pb, "base").expect("rated")["games"], 4);
    assert_eq!(pb["games_uncounted"], 3);
    assert_eq!(pb["games_played"], 7);
}

/// Two servers on one Postgres: the pair has N − 1 counted games of the day, and two of
/// their games end at the same moment, one on each server. Exactly one counts, whether
/// the two are in one pool or in both (the limit counts a pair's games in every pool).
#[test]
fn two_servers_count_a_pair_past_its_limit_once() {
    let app = long_tokens(Db::Postgres);
    let mut config = test_config(&app.db.url);
    config.token_ttl_secs = 400 * 86_400;
    let other = tilepost::startup::spawn(config, app.clock.clone()).expect("second server");
    let ann = app.user("ann");
    let ben = app.user("ben");
    let ben_b = ben.on(&other.url());
    let limit = tilepost::store::DEFAULT_RATED_PAIR_LIMIT;
    let expansions = json!({"seats": 2, "rated": true, "expansions": ["abbot"]});
    for round in 0..3 {
        app.clock.advance_ms(DAY);
        for _ in 0..limit - 1 {
            real_game(&[&ann, &ben], rated());
        }
        let second = if round == 1 {
            expansions.clone()
        } else {
            rated()
        };
        let (a, b) = (game(&ann, rated()), game(&ann, second));
        for id in [&a, &b] {
            join(&ben, id);
            decide_each(&[&ann, &ben], id, 2);
        }
        let barrier = std::sync::Barrier::new(2);
        let (ra, rb) = std::thread::scope(|s| {
            let one = s.spawn(|| {
                barrier.wait();
                ben.post(&format!("/v1/games/{a}/resign"), json!({})).status
            });
            let two = s.spawn(|| {
                barrier.wait();
                ben_b
                    .post(&format!("/v1/games/{b}/resign"), json!({}))
                    .status
            });
            (one.join().unwrap_or(0), two.join().unwrap_or(0))
        });
        assert_eq!((ra, rb), (200, 200), "round {round}");
        let mut h = history(&app, "ann", "base");
        h.extend(history(&app, "ann", "expansions"));
        let (ea, eb) = (entry(&h, &a), entry(&h, &b));
        let counts = [&ea, &eb]
            .iter()
            .filter(|e| e["unrated_reason"].is_null())
            .count();
        assert_eq!(counts, 1, "round {round}: {ea} {eb}");
        for e in [&ea, &eb] {
            if e["unrated_reason"].is_null() {
                assert_counted(e);
            } else {
                assert_uncounted(e, "pair_limit");
            }
        }
    }
    let p = profile(&app.anon(), "ann");
    let games = |pool| {
        rating_of(&p, pool)
            .and_then(|r| r["games"].as_i64())
            .unwrap_or(0)
    };
    assert_eq!(games("base") + games("expansions"), 3 * limit);
    assert_eq!(p["games_uncounted"], 3);
}

each_db!(farming_two_accounts_changes_no_rating, pair_limit_per_day);
