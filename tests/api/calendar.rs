//! The deadline calendar: a secret feed per user, read by an independent iCalendar parser
//! (the `ical` crate), listing exactly the deadlines of the user's pending decisions, and
//! following the games as they move; a new address kills the old one; a revoked or
//! unknown one answers `404 calendar-not-found`; a password change revokes it.

use serde_json::{json, Value};

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
            (
                prop(&e.properties, "UID"),
                prop(&e.properties, "SUMMARY"),
                prop(&e.properties, "DTEND"),
                prop(&e.properties, "URL"),
            )
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
    password_change_revokes_the_calendar
);
