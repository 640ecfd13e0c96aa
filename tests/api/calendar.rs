//! The deadline calendar: a secret feed per user, read by an independent iCalendar parser
//! (the `ical` crate), listing exactly the deadlines of the user's pending decisions, and
//! following the games as they move, and the dated rounds and round caps of the
//! tournaments they play in; a new address kills the old one; a revoked or unknown one
//! answers `404 calendar-not-found`; a password change revokes it.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use tilepost::clock::{rfc3339, Clock};

use crate::common::*;

const MINUTE: i64 = 60_000;

/// A started game of these players with a clock of `days` per move (or none).
fn clocked_game(players: &[&Client], days: Option<i64>) -> String {
    let opts = match days {
        Some(d) => json!({"days_per_move": d}),
        None => Value::Null,
    };
    start_game(players, opts)
}

/// The events of a feed: (UID, SUMMARY, DTEND, URL) each.
fn parse(text: &str) -> Vec<(String, String, String, String)> {
    properties(text)
        .into_iter()
        .map(|e| {
            let p = |k: &str| e.get(k).cloned().unwrap_or_default();
            (p("UID"), p("SUMMARY"), p("DTEND"), p("URL"))
        })
        .collect()
}

/// The events of a feed, each as its properties by name.
fn properties(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut reader = ical::IcalParser::new(std::io::BufReader::new(text.as_bytes()));
    let cal = reader
        .next()
        .expect("one calendar")
        .expect("the feed parses");
    assert!(reader.next().is_none(), "exactly one calendar");
    let prop = |props: &[ical::property::Property], name: &str| -> String {
        props
            .iter()
            .find(|p| p.name == name)
            .and_then(|p| p.value.clone())
            .unwrap_or_default()
    };
    assert_eq!(prop(&cal.properties, "VERSION"), "2.0");
    assert_eq!(
        prop(&cal.properties, "PRODID"),
        "-//tilepost//deadlines//EN"
    );
    cal.events
        .iter()
        .map(|e| {
            e.properties
                .iter()
                .map(|p| (p.name.clone(), prop(&e.properties, &p.name)))
                .collect()
        })
        .collect()
}

/// An RFC 3339 instant as iCalendar's UTC form (`20261203T120000Z`).
fn ical_utc(rfc: &str) -> String {
    let digits: String = rfc
        .chars()
        .take_while(|c| *c != '.' && *c != 'Z' && *c != '+')
        .filter(|c| c.is_ascii_digit() || *c == 'T')
        .collect();
    format!("{digits}Z")
}

/// The deadline the game view shows for the pending decision, when it is `who`'s.
fn my_deadline(who: &Client, other: &Client, id: &str) -> Option<String> {
    let v = who.get(&format!("/v1/games/{id}"));
    let v = v.ok();
    if v["pending"].is_null() || client_for(&[who, other], &v["pending"]).user_id != who.user_id {
        return None;
    }
    v["clock"]["deadline"].as_str().map(str::to_string)
}

/// Whoever's decision is pending makes one (the first option listed).
fn step(players: &[&Client], id: &str) {
    let a = players[0].get(&format!("/v1/games/{id}/actions"));
    let a = a.ok().clone();
    let who = client_for(players, &a["pending"]);
    let r = who.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": a["version"], "actions": [a["actions"][0]]}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
}

fn feed_path(url: &str) -> String {
    let i = url.find("/v1/calendar/").expect("a feed path");
    url[i..].to_string()
}

fn calendar_lists_exactly_the_pending_deadlines(app: &TestApp) {
    let ann = app.user("ann");
    let ben = app.user("ben");
    let cal = ann.get("/v1/users/me/calendar");
    assert_eq!(cal.ok()["active"], false);
    assert!(cal.json.get("url").is_none());
    let made = ann.post("/v1/users/me/calendar", json!({}));
    assert_eq!(made.status, 201, "{}", made.text);
    assert_eq!(made.header("cache-control"), Some("no-store"));
    let url = made.json["url"].as_str().expect("url").to_string();
    assert!(url.ends_with(".ics"), "{url}");
    assert_eq!(ann.get("/v1/users/me/calendar").ok()["active"], true);
    let path = feed_path(&url);
    let anon = app.anon();
    let empty = anon.get(&path);
    assert_eq!(empty.status, 200, "{}", empty.text);
    assert!(empty
        .header("content-type")
        .is_some_and(|t| t.starts_with("text/calendar")));
    assert!(parse(&empty.text).is_empty(), "no game yet");

    // games with a clock (2 and 3 days), one without
    let g2 = clocked_game(&[&ann, &ben], Some(2));
    let g3 = clocked_game(&[&ben, &ann], Some(3));
    let free = clocked_game(&[&ann, &ben], None);
    let expected = |app: &TestApp| -> Vec<(String, String)> {
        let _ = app;
        let mut out: Vec<(String, String)> = [&g2, &g3, &free]
            .iter()
            .filter_map(|id| my_deadline(&ann, &ben, id).map(|d| (id.to_string(), ical_utc(&d))))
            .collect();
        out.sort();
        out
    };
    let listed = |text: &str| -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = parse(text)
            .into_iter()
            .map(|(uid, summary, end, link)| {
                let id = link.rsplit('/').next().unwrap_or_default().to_string();
                assert!(uid.starts_with(&id), "{uid} names its game");
                assert!(summary.contains("ben"), "{summary} names the opponent");
                (id, end)
            })
            .collect();
        out.sort();
        out
    };
    let want = expected(app);
    assert_eq!(listed(&anon.get(&path).text), want);
    assert!(want.iter().all(|(id, _)| id != &free), "no clock, no event");

    // the games move: after ann's decisions the feed follows
    for id in [&g2, &g3] {
        while my_deadline(&ann, &ben, id).is_some() {
            step(&[&ann, &ben], id);
        }
    }
    let want = expected(app);
    assert!(want.is_empty(), "nothing waits for ann");
    assert!(listed(&anon.get(&path).text).is_empty());
    app.clock.advance_ms(10 * MINUTE);
    for id in [&g2, &g3] {
        while my_deadline(&ann, &ben, id).is_none() {
            step(&[&ann, &ben], id);
        }
    }
    let want = expected(app);
    assert_eq!(want.len(), 2, "both clocked games wait for ann");
    assert_eq!(listed(&anon.get(&path).text), want);

    // a new address: the old one stops working
    let again = ann.post("/v1/users/me/calendar", json!({}));
    assert_eq!(again.status, 201);
    let new_path = feed_path(again.json["url"].as_str().expect("url"));
    assert_ne!(new_path, path);
    anon.get(&path).problem(404, "calendar-not-found");
    assert_eq!(listed(&anon.get(&new_path).text), want);
    // a bearer token changes nothing: the address is the credential
    assert_eq!(ben.get(&new_path).status, 200);
    // malformed and unknown addresses answer alike
    anon.get("/v1/calendar/nope.ics")
        .problem(404, "calendar-not-found");
    let fake = format!("/v1/calendar/tpc_{}.ics", "A".repeat(43));
    anon.get(&fake).problem(404, "calendar-not-found");

    // revoked
    let d = ann.request("DELETE", "/v1/users/me/calendar", None, &[]);
    assert_eq!(d.status, 204);
    anon.get(&new_path).problem(404, "calendar-not-found");
    assert_eq!(ann.get("/v1/users/me/calendar").ok()["active"], false);
    // calendar scope: a token without `account` may not manage it
    let t = ann.post(
        "/v1/users/me/tokens",
        json!({"name": "reader", "scopes": ["game:read"]}),
    );
    let reader = ann.with_token(t.ok()["token"].as_str().expect("token"));
    reader
        .post("/v1/users/me/calendar", json!({}))
        .problem(403, "insufficient-scope");
}

/// The tournaments the user plays in (registered, not withdrawn or removed, not over):
/// each one's next round when it has a calendar date to come (the event's first round
/// while it takes entries: the later of its start date and the first round's date), and
/// the running round's cap. Events of others, events left or removed from, and rounds
/// without a date are not listed.
fn calendar_lists_the_rounds_of_my_tournaments(app: &TestApp) {
    let (org, ann, ben, cat) = (
        app.user("org"),
        app.user("ann"),
        app.user("ben"),
        app.user("cat"),
    );
    let made = ann.post("/v1/users/me/calendar", json!({}));
    let path = feed_path(made.ok()["url"].as_str().expect("url"));
    let now = app.clock.now_ms();
    let (day, half_hour) = (86_400_000, 30 * MINUTE);
    let at = |ms: i64| rfc3339(ms);
    let event = |name: &str, extra: Value| -> String {
        let mut body = json!({"name": name, "stages": [{"format": "swiss", "rounds": 3}]});
        for (k, v) in extra.as_object().cloned().unwrap_or_default() {
            body[k] = v;
        }
        let r = org.post("/v1/tournaments", body);
        r.ok()["id"].as_str().expect("id").to_string()
    };
    let join = |c: &Client, id: &str| {
        c.post(&format!("/v1/tournaments/{id}/join"), json!({}))
            .ok();
    };
    // taking entries: starts in 2 days, its first round dated in 3
    let open = event(
        "Open",
        json!({"starts_at": at(now + 2 * day), "round_starts": [at(now + 3 * day)]}),
    );
    join(&ann, &open);
    join(&ben, &open);
    // running: round 1 at once (its date passed), round 2 dated in 7 days, a 4-day cap
    let running = event(
        "Running",
        json!({
            "round_starts": [at(now - day), at(now + 7 * day)],
            "round_cap": {"days": 4, "decision": "score_if_ended_now"},
        }),
    );
    join(&ann, &running);
    join(&ben, &running);
    org.post(&format!("/v1/tournaments/{running}/start"), json!({}))
        .ok();
    // not listed: left, removed, someone else's, no dates
    let left = event("Left", json!({"round_starts": [at(now + day)]}));
    join(&ann, &left);
    join(&ben, &left);
    ann.post(&format!("/v1/tournaments/{left}/leave"), json!({}))
        .ok();
    let removed = event("Removed", json!({"round_starts": [at(now + day)]}));
    join(&ann, &removed);
    org.post(
        &format!("/v1/tournaments/{removed}/adjustments"),
        json!({"kind": "remove", "player": ann.user_id, "reason": "double entry"}),
    )
    .ok();
    let others = event("Others", json!({"round_starts": [at(now + day)]}));
    join(&cat, &others);
    let undated = event("Undated", json!({}));
    join(&ann, &undated);

    let rounds = |text: &str| -> Vec<(String, String, String, String)> {
        let mut out: Vec<(String, String, String, String)> = properties(text)
            .into_iter()
            .filter(|e| {
                e.get("URL")
                    .is_some_and(|u| u.contains("/play/tournaments/"))
            })
            .map(|e| {
                let p = |k: &str| e.get(k).cloned().unwrap_or_default();
                (p("UID"), p("SUMMARY"), p("DTSTART"), p("DTEND"))
            })
            .collect();
        out.sort();
        out
    };
    let utc = |ms: i64| ical_utc(&at(ms));
    let mut want = vec![
        (
            format!("{open}-round-1@tilepost"),
            "Open: the first round starts".to_string(),
            utc(now + 3 * day),
            utc(now + 3 * day + half_hour),
        ),
        (
            format!("{running}-round-2@tilepost"),
            "Running: the next round starts".to_string(),
            utc(now + 7 * day),
            utc(now + 7 * day + half_hour),
        ),
        (
            format!("{running}-cap-0-1@tilepost"),
            "Running: round 1 of stage 1 ends".to_string(),
            utc(now + 4 * day - half_hour),
            utc(now + 4 * day),
        ),
    ];
    want.sort();
    let feed = app.anon().get(&path);
    assert_eq!(rounds(&feed.text), want);
    // each links its event's page
    let linked: Vec<BTreeMap<String, String>> = properties(&feed.text)
        .into_iter()
        .filter(|e| e["URL"].contains("/play/tournaments/"))
        .collect();
    assert_eq!(linked.len(), 3);
    for e in linked {
        let (uid, url) = (&e["UID"], &e["URL"]);
        let id = url.rsplit('/').next().unwrap_or_default();
        assert!(uid.starts_with(id), "{uid} is of {url}");
        assert!(e["DESCRIPTION"].contains(url.as_str()), "{e:?}");
    }
    // ann leaves the open event: it goes from her calendar
    ann.post(&format!("/v1/tournaments/{open}/leave"), json!({}))
        .ok();
    want.retain(|e| !e.0.starts_with(&open));
    assert_eq!(want.len(), 2);
    assert_eq!(rounds(&app.anon().get(&path).text), want);
    // paused, the running round's cap has no date (it moves out when the event resumes)
    org.post(
        &format!("/v1/tournaments/{running}/pause"),
        json!({"reason": "a break"}),
    )
    .ok();
    let capped = want
        .iter()
        .position(|e| e.0.contains("-cap-"))
        .expect("a cap");
    let cap = want.remove(capped);
    assert_eq!(rounds(&app.anon().get(&path).text), want);
    org.post(&format!("/v1/tournaments/{running}/resume"), json!({}))
        .ok();
    want.push(cap);
    want.sort();
    assert_eq!(rounds(&app.anon().get(&path).text), want);
}

/// A password change revokes the calendar address (it shows the account's games).
fn password_change_revokes_the_calendar(app: &TestApp) {
    let ann = app.user("ann");
    let made = ann.post("/v1/users/me/calendar", json!({}));
    let path = feed_path(made.ok()["url"].as_str().expect("url"));
    assert_eq!(app.anon().get(&path).status, 200);
    let r = ann.post(
        "/v1/users/me/password",
        json!({"current_password": "correct horse", "new_password": "a brand new one"}),
    );
    assert!(r.status < 300, "{}", r.text);
    app.anon().get(&path).problem(404, "calendar-not-found");
}

crate::both!(
    calendar_lists_exactly_the_pending_deadlines,
    calendar_lists_the_rounds_of_my_tournaments,
    password_change_revokes_the_calendar
);
