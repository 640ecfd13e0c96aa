//! The emails' builders, checked: every one carries what an email needs, and every email in
//! every locale is held by a snapshot (`src/notify/snapshots/`).

use super::*;
use crate::store::Revoked;

/// A seat of a test game (its email and locale from its name and `en`).
pub(super) fn seat(n: i32, name: &str) -> SeatInfo {
    SeatInfo {
        seat: n,
        user_id: format!("u{n}"),
        username: name.into(),
        email: format!("{name}@example.com"),
        notify_turn: true,
        notify_finished: true,
        joined_at: 0,
        locale: "en".into(),
        time_zone: "UTC".into(),
        bot: None,
    }
}

/// An email as its snapshot holds it: type, subject, text and HTML.
fn snapshot_of(r: &OutboxRow) -> String {
    let v: Value = serde_json::from_str(&r.payload).unwrap_or(Value::Null);
    let d = &v["data"];
    format!(
        "===== {}\nSubject: {}\n----- text\n{}----- html\n{}\n\n",
        r.kind,
        d["subject"].as_str().unwrap_or_default(),
        d["text"].as_str().unwrap_or_default(),
        d["html"].as_str().unwrap_or_default(),
    )
}

#[test]
fn every_builder_carries_an_email_and_an_unsubscribe_link() {
    let n = Notifier::new(b"k".to_vec(), "http://t.test/");
    let seats = vec![seat(0, "ann"), seat(1, "b<o>b")];
    let mut rows = vec![
        turn_started(
            &n,
            &seats[1],
            &Turn {
                game_id: "g1",
                version: 3,
                tile: Some("base/D"),
                decision: Some("place_tile"),
                deadline: Some(0),
                rules: None,
                scores: &[("ann".into(), 4), ("b<o>b".into(), 0)],
                board_size: Some((900, 300)),
            },
            &Since {
                items: vec![
                    Happening::Placed {
                        player: "ann".into(),
                        tile: "base/E".into(),
                        x: 1,
                        y: 0,
                    },
                    Happening::Completed {
                        by: "ann".into(),
                        feature: "city".into(),
                        tiles: 2,
                        points: 4,
                        scorers: vec!["ann".into()],
                    },
                ],
            },
            0,
        ),
        invited(&n, &seats[1], "g1", "ann", 0),
        deadline_near(&n, &seats[1], "g1", 1000, 0),
    ];
    rows.extend(started(&n, &seats, "g1", "ann", 0));
    rows.extend(finished(
        &n,
        &seats,
        "g1",
        &[("ann".into(), 10, 1)],
        &Since::default(),
        0,
    ));
    rows.extend(timed_out(&n, &seats, "g1", "ann", 0));
    for r in &rows {
        let v: Value = serde_json::from_str(&r.payload).unwrap_or(Value::Null);
        assert_eq!(v["type"], r.kind.as_str());
        let d = &v["data"];
        assert!(d["subject"].as_str().is_some_and(|s| !s.is_empty()));
        assert!(d["recipient"]["email"]
            .as_str()
            .is_some_and(|s| s.contains('@')));
        let unsub = d["links"]["unsubscribe"].as_str().unwrap_or_default();
        assert!(unsub.starts_with("http://t.test/v1/unsubscribe?token="));
        assert!(d["text"].as_str().unwrap_or_default().contains(unsub));
        assert!(!d["html"].as_str().unwrap_or_default().contains("b<o>b"));
        // the one button opens the game in the web client; the API links stay
        let play = d["links"]["play"].as_str().unwrap_or_default();
        assert_eq!(play, "http://t.test/play/games/g1");
        assert_eq!(d["links"]["game"], "http://t.test/v1/games/g1");
        let (text, html) = (
            d["text"].as_str().unwrap_or_default(),
            d["html"].as_str().unwrap_or_default(),
        );
        assert!(text.contains(&format!(": {play}\n")), "{text}");
        assert_eq!(html.matches("class=\"tp-btn\" style").count(), 1, "{html}");
        assert!(html.contains(&format!("<a href=\"{play}\" class=\"tp-btn\"")));
        // a whole document, no script, every picture with its words and size
        assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>"));
        assert!(!html.contains("<script") && !html.contains("<SCRIPT"));
        for img in html.split("<img ").skip(1) {
            let tag = &img[..img.find('>').unwrap_or(img.len())];
            for attr in ["alt=\"", "width=\"", "height=\""] {
                assert!(tag.contains(attr), "{attr} missing: <img {tag}>");
            }
        }
    }
    let t: Value = serde_json::from_str(&rows[0].payload).unwrap_or(Value::Null);
    let text = t["data"]["text"].as_str().unwrap_or_default();
    let html = t["data"]["html"].as_str().unwrap_or_default();
    assert!(text.contains("You drew a city cap with a straight road."));
    assert!(!text.contains("drew base/D"));
    // no coordinates: what happened, in a player's words
    assert!(text.contains("- ann placed a city cap.\n"), "{text}");
    assert!(
        text.contains("- ann completed a 2-tile city and scored 4.\n"),
        "{text}"
    );
    assert!(text.contains("Play your turn: http://t.test/play/games/g1\n"));
    assert!(text.contains("- b<o>b: 0 (you)\n"), "{text}");
    // the board shown at the column's width, its height in proportion
    assert!(html.contains("width=\"560\" height=\"186\""), "{html}");
}

/// Every email type in every locale, subject, text and HTML (snapshots in
/// `src/notify/snapshots/`; `INSTA_UPDATE=always` or `cargo insta review` after a
/// deliberate change).
#[test]
fn every_email_in_every_locale() {
    let n = Notifier::new(b"k".to_vec(), "https://tilepost.example");
    for locale in crate::i18n::SUPPORTED {
        let mut seats = vec![seat(0, "ann"), seat(1, "b<o>b")];
        for s in &mut seats {
            s.locale = locale.to_string();
            s.time_zone = "America/Sao_Paulo".into();
        }
        let scores = [("ann".to_string(), 23), ("b<o>b".to_string(), 17)];
        let rules: BTreeMap<String, String> =
            [("field_scoring".to_string(), "per_city".to_string())].into();
        let turn = |tile: Option<&'static str>, deadline: Option<i64>| Turn {
            game_id: "5b1d6a2e-8c0e-4f3a-9a51-3f2f4b1c7d10",
            version: 7,
            tile,
            decision: Some("place_tile"),
            deadline,
            rules: None,
            scores: &scores,
            board_size: Some((448, 336)),
        };
        let placed = |tile: &str| Happening::Placed {
            player: "ann".into(),
            tile: tile.into(),
            x: 0,
            y: 1,
        };
        // a base turn: a tile, a city completed for its owner, a road completed for
        // both, a road completed with nobody on it
        let base = Since {
            items: vec![
                placed("base/E"),
                Happening::Completed {
                    by: "ann".into(),
                    feature: "city".into(),
                    tiles: 3,
                    points: 4,
                    scorers: vec!["ann".into()],
                },
                Happening::Completed {
                    by: "ann".into(),
                    feature: "road".into(),
                    tiles: 2,
                    points: 2,
                    scorers: vec!["ann".into(), "b<o>b".into()],
                },
                Happening::Completed {
                    by: "ann".into(),
                    feature: "monastery".into(),
                    tiles: 9,
                    points: 9,
                    scorers: vec![],
                },
            ],
        };
        // a turn with expansions: a ferry moved, a message drawn and scored, a robber
        let expansions = Since {
            items: vec![
                placed("fe/02-frrr"),
                Happening::Ferry {
                    player: "ann".into(),
                    moved: true,
                },
                Happening::Completed {
                    by: "ann".into(),
                    feature: "road".into(),
                    tiles: 4,
                    points: 5,
                    scorers: vec!["ann".into()],
                },
                Happening::Message {
                    player: "ann".into(),
                    message: 2,
                },
                Happening::Scored {
                    players: vec!["ann".into()],
                    points: 6,
                    feature: "city".into(),
                    count: 1,
                    at_end: false,
                },
                Happening::Robbed {
                    player: "b<o>b".into(),
                    victim: "ann".into(),
                    points: 2,
                },
                Happening::Ferry {
                    player: "b<o>b".into(),
                    moved: false,
                },
            ],
        };
        // the end: fields scored, an unfinished city
        let at_end = Since {
            items: vec![
                Happening::Scored {
                    players: vec!["ann".into()],
                    points: 12,
                    feature: "field".into(),
                    count: 2,
                    at_end: true,
                },
                Happening::Scored {
                    players: vec!["b<o>b".into()],
                    points: 3,
                    feature: "city".into(),
                    count: 1,
                    at_end: true,
                },
            ],
        };
        let gid = "5b1d6a2e-8c0e-4f3a-9a51-3f2f4b1c7d10";
        // 2026-12-03T17:00:00Z
        let deadline = 1_796_317_200_000;
        let mut with_rules = turn(Some("fe/02-frrr"), Some(deadline));
        with_rules.rules = Some(&rules);
        let rows = vec![
            turn_started(
                &n,
                &seats[1],
                &turn(Some("base/U"), Some(deadline)),
                &base,
                0,
            ),
            turn_started(&n, &seats[1], &with_rules, &expansions, 0),
            turn_started(&n, &seats[1], &turn(None, None), &Since::default(), 0),
            invited(&n, &seats[1], gid, "ann", 0),
            started(&n, &seats, gid, "ann", 0).remove(1),
            finished(
                &n,
                &seats,
                gid,
                &[("ann".into(), 87, 1), ("b<o>b".into(), 74, 2)],
                &at_end,
                0,
            )
            .remove(1),
            deadline_near(&n, &seats[1], gid, deadline, 0),
            timed_out(&n, &seats, gid, "ann", 0).remove(1),
            plan_played(&n, &seats[1], gid, "ic/13-crrc", 9, 0),
            digest(
                &n,
                &seats[1],
                &[
                    Waiting {
                        game_id: gid,
                        version: 7,
                        deadline: Some(deadline),
                    },
                    Waiting {
                        game_id: "0c4d5e6f-1a2b-4c3d-8e9f-a0b1c2d3e4f5",
                        version: 30,
                        deadline: None,
                    },
                ],
                0,
            ),
        ];
        let ev = super::tournament::Event {
            id: "7e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b",
            name: "Worlds <2026>",
        };
        use super::tournament::Seat;
        let mut rows = rows;
        rows.extend([
            super::tournament::round_started(
                &n,
                &seats[1],
                &ev,
                (0, 2),
                &Seat::Table {
                    table: 3,
                    opponents: vec!["ann"],
                    games: vec![gid, "0c4d5e6f-1a2b-4c3d-8e9f-a0b1c2d3e4f5"],
                },
                0,
            ),
            super::tournament::round_started(
                &n,
                &seats[1],
                &ev,
                (0, 3),
                &Seat::Bye { points: Some(1.0) },
                0,
            ),
            super::tournament::round_started(
                &n,
                &seats[1],
                &ev,
                (1, 1),
                &Seat::Bye { points: None },
                0,
            ),
            super::tournament::stage_ended(&n, &seats[1], &ev, 0, (5, 16), true, 0),
            super::tournament::stage_ended(&n, &seats[1], &ev, 0, (12, 16), false, 0),
            super::tournament::finished(&n, &seats[1], &ev, "ann", (2, 16), 0),
            super::tournament::finished(&n, &seats[0], &ev, "ann", (1, 16), 0),
            super::tournament::not_held(&n, &seats[1], &ev, 1, 0),
            super::tournament::paused(&n, &seats[1], &ev, Some("the club moves"), 0),
            super::tournament::paused(&n, &seats[1], &ev, None, 0),
            super::tournament::eliminated(
                &n,
                &seats[1],
                &ev,
                &super::tournament::KnockedOut {
                    stage: 1,
                    round: 2,
                    bracket: "W2.3",
                    by: "ann",
                    qualifying: None,
                },
                0,
            ),
            super::tournament::eliminated(
                &n,
                &seats[1],
                &ev,
                &super::tournament::KnockedOut {
                    stage: 0,
                    round: 3,
                    bracket: "L3.1",
                    by: "ann",
                    qualifying: Some(4),
                },
                0,
            ),
        ]);
        // invitations: with a start date, without, to an event under way
        for (starts_at, under_way) in [(Some(deadline), false), (None, false), (None, true)] {
            let inv = super::tournament::Invitation {
                by: "ann",
                starts_at,
                invitation_only: starts_at.is_some(),
                under_way,
            };
            rows.push(super::tournament::invited(&n, &seats[1], &ev, &inv, 0));
        }
        let mut out = String::new();
        for r in &rows {
            out.push_str(&snapshot_of(r));
        }
        assert!(!out.contains("Unknown localization"), "{out}");
        insta::assert_snapshot!(format!("emails_{locale}"), out);
    }
}

/// The account emails in every locale (snapshots `account_emails_*`).
#[test]
fn account_emails_in_every_locale() {
    let n = Notifier::new(b"k".to_vec(), "https://tilepost.example");
    for locale in crate::i18n::SUPPORTED {
        let to = Recipient {
            user_id: "u1",
            name: "b<o>b",
            email: "bob@example.com",
            locale,
            time_zone: "America/Sao_Paulo",
        };
        // 2026-12-03T17:00:00Z
        let at = 1_796_317_200_000;
        let rows = [
            verify_email(&n, &to, "tok-verify", at, 0),
            password_reset(&n, &to, "tok-reset", at, 0),
            password_changed(&n, &to, PasswordChange::Reset, &Revoked::default(), at),
            password_changed(
                &n,
                &to,
                PasswordChange::Change,
                &Revoked {
                    sessions: 2,
                    personal_tokens: vec!["ci bot".into(), "phone".into()],
                    calendar: true,
                },
                at,
            ),
        ];
        let mut out = String::new();
        for r in &rows {
            let v: Value = serde_json::from_str(&r.payload).unwrap_or(Value::Null);
            let d = &v["data"];
            assert_eq!(v["type"], r.kind.as_str());
            assert_eq!(d["recipient"]["email"], "bob@example.com");
            assert!(d["links"].get("unsubscribe").is_none());
            assert!(!d["html"].as_str().unwrap_or_default().contains("b<o>b"));
            out.push_str(&snapshot_of(r));
        }
        assert!(!out.contains("Unknown localization"), "{out}");
        assert!(out.contains("https://tilepost.example/play/verify-email?token=tok-verify"));
        assert!(out.contains("https://tilepost.example/play/reset-password?token=tok-reset"));
        insta::assert_snapshot!(format!("account_emails_{locale}"), out);
    }
}

/// A tournament message names the event (never a game as its subject), links the
/// event's page, escapes the event's name, and carries its unsubscribe link.
#[test]
fn tournament_messages_link_the_event() {
    use super::tournament::{self as t, Seat};
    let n = Notifier::new(b"k".to_vec(), "http://t.test/");
    let to = seat(1, "b<o>b");
    let ev = t::Event {
        id: "e1",
        name: "Cup <b>",
    };
    let rows = [
        t::round_started(
            &n,
            &to,
            &ev,
            (0, 1),
            &Seat::Table {
                table: 2,
                opponents: vec!["ann", "cy"],
                games: vec!["g1"],
            },
            0,
        ),
        t::round_started(&n, &to, &ev, (0, 2), &Seat::Bye { points: Some(0.5) }, 0),
        t::stage_ended(&n, &to, &ev, 0, (3, 8), true, 0),
        t::finished(&n, &to, &ev, "ann", (2, 8), 0),
        t::eliminated(
            &n,
            &to,
            &ev,
            &t::KnockedOut {
                stage: 0,
                round: 1,
                bracket: "W1.2",
                by: "a<n>n",
                qualifying: Some(2),
            },
            0,
        ),
        t::not_held(&n, &to, &ev, 1, 0),
        t::paused(&n, &to, &ev, Some("a <b>reason</b>"), 0),
        t::paused(&n, &to, &ev, None, 0),
        t::invited(
            &n,
            &to,
            &ev,
            &t::Invitation {
                by: "o<r>g",
                starts_at: Some(86_400_000),
                invitation_only: true,
                under_way: false,
            },
            0,
        ),
    ];
    for r in &rows {
        assert_eq!(r.game_id, None);
        let v: Value = serde_json::from_str(&r.payload).unwrap_or(Value::Null);
        let d = &v["data"];
        assert_eq!(d["tournament_id"], "e1");
        assert!(d.get("game_id").is_none());
        assert_eq!(d["tournament_name"], "Cup <b>");
        assert_eq!(d["links"]["play"], "http://t.test/play/tournaments/e1");
        let unsub = d["links"]["unsubscribe"].as_str().unwrap_or_default();
        assert!(unsub.starts_with("http://t.test/v1/unsubscribe?token="));
        let html = d["html"].as_str().unwrap_or_default();
        assert!(
            !html.contains("Cup <b>") && !html.contains("b<o>b"),
            "{html}"
        );
        assert_eq!(html.matches("class=\"tp-btn\" style").count(), 1, "{html}");
    }
    let first: Value = serde_json::from_str(&rows[0].payload).unwrap_or(Value::Null);
    let text = first["data"]["text"].as_str().unwrap_or_default();
    assert!(text.contains("you play ann and cy, one game."), "{text}");
    assert!(
        text.contains("Play your first game: http://t.test/play/games/g1\n"),
        "{text}"
    );
    assert_eq!(first["data"]["opponents"], serde_json::json!(["ann", "cy"]));
    let bye: Value = serde_json::from_str(&rows[1].payload).unwrap_or(Value::Null);
    assert!(bye["data"]["text"]
        .as_str()
        .unwrap_or_default()
        .contains("it adds 0.5 to your points"));
    assert_eq!(bye["data"]["bye"], true);
    let data = |i: usize| -> Value {
        let v: Value = serde_json::from_str(&rows[i].payload).unwrap_or(Value::Null);
        v["data"].clone()
    };
    // a player put out: who beat them, the match, what follows
    let out = data(4);
    assert_eq!(
        (&out["beaten_by"], &out["match"], &out["round"]),
        (&json!("a<n>n"), &json!("W1.2"), &json!(1))
    );
    assert_eq!(
        (&out["last_stage"], &out["qualifying"]),
        (&json!(false), &json!(2))
    );
    let text = out["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("a<n>n beat you in round 1 of stage 1"),
        "{text}"
    );
    assert!(
        text.contains("The best 2 of this stage go on to stage 2"),
        "{text}"
    );
    // an event not held: no winner, no place
    let not_held = data(5);
    assert_eq!(
        (&not_held["held"], &not_held["winner"], &not_held["place"]),
        (&json!(false), &Value::Null, &Value::Null)
    );
    assert_eq!(data(3)["held"], true);
    // a pause: the reason, escaped in the HTML; then the resumption
    let paused = data(6);
    assert_eq!(paused["reason"], "a <b>reason</b>");
    assert!(paused["text"]
        .as_str()
        .unwrap_or_default()
        .contains("The organiser paused Cup <b>: a <b>reason</b>."));
    assert!(!paused["html"]
        .as_str()
        .unwrap_or_default()
        .contains("<b>reason"));
    let resumed = data(7);
    assert!(resumed.get("reason").is_none());
    let kind = |i: usize| -> Value {
        let v: Value = serde_json::from_str(&rows[i].payload).unwrap_or(Value::Null);
        v["type"].clone()
    };
    assert_eq!(
        (kind(6), kind(7)),
        (json!("tournament.paused"), json!("tournament.resumed"))
    );
    // an invitation: who, the start in the reader's zone, how to register
    let inv = data(8);
    assert_eq!(inv["invited_by"], "o<r>g");
    assert_eq!(inv["starts_at"], "1970-01-02T00:00:00Z");
    assert_eq!(inv["join"], "http://t.test/v1/tournaments/e1/join");
    let text = inv["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("It starts on 1970-01-02 00:00 (UTC)"),
        "{text}"
    );
    assert!(
        text.contains("POST http://t.test/v1/tournaments/e1/join"),
        "{text}"
    );
    assert!(!inv["html"].as_str().unwrap_or_default().contains("o<r>g"));
}
