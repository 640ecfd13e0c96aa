//! Tournament messages: a round started (with the reader's table, opponents and games,
//! or their bye), a knockout match put the reader out (who beat them, and what
//! follows), a stage ended (qualified for the next stage, or out), the event finished
//! (the winner and the reader's place; or it reached its start date with too few
//! players and was not held), the organiser invited the reader. Each is one message per
//! player, sent like the games' messages (email, endpoints, the live stream; push for a
//! round).

use serde_json::json;

use super::{escape, layout, row, short, Message, Notifier};
use crate::clock::rfc3339;
use crate::i18n;
use crate::store::{OutboxRow, SeatInfo};

/// The event a message is about.
pub struct Event<'a> {
    pub id: &'a str,
    pub name: &'a str,
}

/// The reader's part of a round.
pub enum Seat<'a> {
    /// At a table: its number, the opponents' names, the games' ids (one per game of
    /// the match, in order).
    Table {
        table: u32,
        opponents: Vec<&'a str>,
        games: Vec<&'a str>,
    },
    /// A bye: the points it is worth (`None`: a knockout's bye, straight through).
    Bye { points: Option<f64> },
}

fn points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p}")
    }
}

/// `tournament.round_started` for one player: `stage` and `round` as the event numbers
/// them (0-based stage, 1-based round; the message says stage + 1).
pub fn round_started(
    n: &Notifier,
    to: &SeatInfo,
    ev: &Event<'_>,
    (stage, round): (u32, u32),
    seat: &Seat<'_>,
    now: i64,
) -> OutboxRow {
    let loc = to.locale.as_str();
    let base = [
        ("event", ev.name.into()),
        ("stage", i64::from(stage + 1).into()),
        ("round", i64::from(round).into()),
    ];
    let subject = i18n::text(loc, "tround-subject", &base);
    let (mut text, mut html, action, extra) = match seat {
        Seat::Table {
            table,
            opponents,
            games,
        } => {
            let names = super::story::list(
                loc,
                &opponents.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            );
            let mut args = base.to_vec();
            args.push(("opponents", names.as_str().into()));
            args.push(("games", (games.len() as i64).into()));
            let mut text = format!("{}\n", i18n::text(loc, "tround-body", &args));
            let mut lines = Vec::new();
            for (i, g) in games.iter().enumerate() {
                let play = format!("{}/play/games/{g}", n.public_url);
                let line = [("number", (i as i64 + 1).into()), ("game", short(g).into())];
                text.push_str(&format!(
                    "- {}: {play}\n",
                    i18n::text(loc, "tround-game", &line)
                ));
                lines.push(format!(
                    "<a href=\"{}\" class=\"tp-link\" style=\"color:#1d6b45;\">{}</a>",
                    escape(&play),
                    i18n::html(loc, "tround-game", &line),
                ));
            }
            let mut html = layout::para(&i18n::html(loc, "tround-body", &args));
            html.push_str(&layout::list("", &lines));
            let action = games
                .first()
                .map(|g| ("tround-action", format!("{}/play/games/{g}", n.public_url)));
            let extra = json!({
                "table": table,
                "opponents": opponents,
                "games": games,
                "bye": false,
            });
            (text, html, action, extra)
        }
        Seat::Bye { points: p } => {
            let mut args = base.to_vec();
            let shown = p.map(points).unwrap_or_default();
            args.push(("points", shown.as_str().into()));
            let key = if p.is_some() {
                "tround-bye"
            } else {
                "tround-bye-through"
            };
            let text = format!("{}\n", i18n::text(loc, key, &args));
            let html = layout::para(&i18n::html(loc, key, &args));
            let extra =
                json!({"table": null, "opponents": [], "games": [], "bye": true, "bye_points": p});
            (text, html, None, extra)
        }
    };
    text.push('\n');
    html.push_str(&layout::note(&i18n::html(loc, "tround-note", &base)));
    text.push_str(&format!("{}\n", i18n::text(loc, "tround-note", &base)));
    let mut extra = extra;
    extra["tournament_name"] = json!(ev.name);
    extra["stage"] = json!(stage);
    extra["round"] = json!(round);
    row(
        n,
        Message {
            kind: "tournament.round_started",
            to,
            game_id: ev.id,
            subject,
            text,
            html,
            action,
            text_after: String::new(),
            html_after: String::new(),
            extra,
        },
        now,
    )
}

/// `tournament.stage_ended` for one player of the stage: their rank in it of `count`,
/// and whether they go on to the next stage.
pub fn stage_ended(
    n: &Notifier,
    to: &SeatInfo,
    ev: &Event<'_>,
    stage: u32,
    (rank, count): (u32, u32),
    qualified: bool,
    now: i64,
) -> OutboxRow {
    let args = [
        ("event", ev.name.into()),
        ("stage", i64::from(stage + 1).into()),
        ("rank", i64::from(rank).into()),
        ("count", i64::from(count).into()),
    ];
    let key = if qualified {
        "tstage-qualified"
    } else {
        "tstage-out"
    };
    one_paragraph(
        n,
        ("tournament.stage_ended", to, ev),
        ("tstage-subject", &[key], &args),
        None,
        json!({
            "tournament_name": ev.name,
            "stage": stage,
            "rank": rank,
            "players": count,
            "qualified": qualified,
        }),
        now,
    )
}

/// `tournament.finished` for one player: the winner and the reader's final place of
/// `count` (the last stage's order, then those out earlier, later stages first).
pub fn finished(
    n: &Notifier,
    to: &SeatInfo,
    ev: &Event<'_>,
    winner: &str,
    (place, count): (u32, u32),
    now: i64,
) -> OutboxRow {
    let args = [
        ("event", ev.name.into()),
        ("winner", winner.into()),
        ("place", i64::from(place).into()),
        ("count", i64::from(count).into()),
    ];
    let key = if place == 1 {
        "tfinished-won"
    } else {
        "tfinished-body"
    };
    one_paragraph(
        n,
        ("tournament.finished", to, ev),
        ("tfinished-subject", &[key], &args),
        Some((
            "tfinished-action",
            format!("{}/play/tournaments/{}", n.public_url, ev.id),
        )),
        json!({
            "tournament_name": ev.name,
            "held": true,
            "winner": winner,
            "place": place,
            "players": count,
        }),
        now,
    )
}

/// `tournament.finished` for a player of an event that reached its start date with
/// fewer than 2 players: it ended without a round (`held: false`, no winner, no
/// place; `count` players were registered).
pub fn not_held(n: &Notifier, to: &SeatInfo, ev: &Event<'_>, count: u32, now: i64) -> OutboxRow {
    let args = [
        ("event", ev.name.into()),
        ("count", i64::from(count).into()),
    ];
    one_paragraph(
        n,
        ("tournament.finished", to, ev),
        ("tfinished-not-held-subject", &["tfinished-not-held"], &args),
        None,
        json!({
            "tournament_name": ev.name,
            "held": false,
            "winner": null,
            "place": null,
            "players": count,
        }),
        now,
    )
}

/// `tournament.paused` for a player of the event the organiser paused, with their
/// `reason`; `tournament.resumed` (`None`) when it goes on.
pub fn paused(
    n: &Notifier,
    to: &SeatInfo,
    ev: &Event<'_>,
    reason: Option<&str>,
    now: i64,
) -> OutboxRow {
    let args = [
        ("event", ev.name.into()),
        ("reason", reason.unwrap_or_default().into()),
    ];
    let (kind, subject, body) = match reason {
        Some(_) => ("tournament.paused", "tpaused-subject", "tpaused-body"),
        None => ("tournament.resumed", "tresumed-subject", "tresumed-body"),
    };
    let extra = match reason {
        Some(r) => json!({"tournament_name": ev.name, "reason": r}),
        None => json!({"tournament_name": ev.name}),
    };
    one_paragraph(
        n,
        (kind, to, ev),
        (subject, &[body], &args),
        None,
        extra,
        now,
    )
}

/// How a knockout match put the reader out.
pub struct KnockedOut<'a> {
    /// 0-based stage, 1-based round of the stage.
    pub stage: u32,
    pub round: u32,
    /// The bracket's name for the match (`W1.2`, `L3.1`, `GF`, …).
    pub bracket: &'a str,
    /// Who won it.
    pub by: &'a str,
    /// When the stage is not the event's last: how many of it go on to the next.
    pub qualifying: Option<u32>,
}

/// `tournament.eliminated` for a player a knockout match put out while the stage goes
/// on: who beat them in which round, then what follows (the last stage: their event
/// ends, and their final place comes with its end; otherwise: how many go on to the
/// next stage, which its end tells them).
pub fn eliminated(
    n: &Notifier,
    to: &SeatInfo,
    ev: &Event<'_>,
    k: &KnockedOut<'_>,
    now: i64,
) -> OutboxRow {
    let args = [
        ("event", ev.name.into()),
        ("stage", i64::from(k.stage + 1).into()),
        ("round", i64::from(k.round).into()),
        ("winner", k.by.into()),
        ("count", i64::from(k.qualifying.unwrap_or(0)).into()),
        ("next", i64::from(k.stage + 2).into()),
    ];
    let then = if k.qualifying.is_some() {
        "teliminated-next"
    } else {
        "teliminated-last"
    };
    one_paragraph(
        n,
        ("tournament.eliminated", to, ev),
        ("teliminated-subject", &["teliminated-body", then], &args),
        None,
        json!({
            "tournament_name": ev.name,
            "stage": k.stage,
            "round": k.round,
            "match": k.bracket,
            "beaten_by": k.by,
            "last_stage": k.qualifying.is_none(),
            "qualifying": k.qualifying,
        }),
        now,
    )
}

/// An invitation to an event: who sent it, when the event starts (ms; `None`: when
/// its organiser starts it), whether only those invited may register, and whether it
/// has started.
pub struct Invitation<'a> {
    pub by: &'a str,
    pub starts_at: Option<i64>,
    pub invitation_only: bool,
    /// The event has started (a Swiss first stage takes late entries).
    pub under_way: bool,
}

/// `tournament.invited` for the player the organiser invited: who invites them to
/// which event, its start, the button to its page (where they register), and the
/// API's request.
pub fn invited(
    n: &Notifier,
    to: &SeatInfo,
    ev: &Event<'_>,
    inv: &Invitation<'_>,
    now: i64,
) -> OutboxRow {
    let loc = to.locale.as_str();
    let when = inv
        .starts_at
        .map(|at| i18n::datetime(at, loc, &to.time_zone))
        .unwrap_or_default();
    let args = [
        ("event", ev.name.into()),
        ("by", inv.by.into()),
        ("when", when.as_str().into()),
    ];
    let start = match (inv.under_way, inv.starts_at) {
        (true, _) => "tinvited-under-way",
        (false, Some(_)) => "tinvited-starts",
        (false, None) => "tinvited-no-date",
    };
    let join = format!("{}/v1/tournaments/{}/join", n.public_url, ev.id);
    let (text, html) = paragraphs(loc, &["tinvited-body", start], &args);
    row(
        n,
        Message {
            kind: "tournament.invited",
            to,
            game_id: ev.id,
            subject: i18n::text(loc, "tinvited-subject", &args),
            text,
            html,
            action: Some((
                "tinvited-action",
                format!("{}/play/tournaments/{}", n.public_url, ev.id),
            )),
            text_after: format!("{}: POST {join}\n", i18n::text(loc, "tinvited-join", &[])),
            html_after: String::new(),
            extra: json!({
                "tournament_name": ev.name,
                "invited_by": inv.by,
                "starts_at": inv.starts_at.map(rfc3339),
                "invitation_only": inv.invitation_only,
                "join": join,
            }),
        },
        now,
    )
}

/// A message of a paragraph or more about an event: `(kind, reader, event)`, `(subject
/// key, body keys, their arguments)`, the action (default: the event's page), the
/// fields.
fn one_paragraph(
    n: &Notifier,
    (kind, to, ev): (&str, &SeatInfo, &Event<'_>),
    (subject, bodies, args): (&str, &[&str], &[(&str, i18n::Arg<'_>)]),
    action: Option<(&'static str, String)>,
    extra: serde_json::Value,
    now: i64,
) -> OutboxRow {
    let loc = to.locale.as_str();
    let (text, html) = paragraphs(loc, bodies, args);
    row(
        n,
        Message {
            kind,
            to,
            game_id: ev.id,
            subject: i18n::text(loc, subject, args),
            text,
            html,
            action,
            text_after: String::new(),
            html_after: String::new(),
            extra,
        },
        now,
    )
}

/// The paragraphs of `bodies` (catalog keys) in `loc`: as text (a blank line between
/// them) and as HTML blocks.
fn paragraphs(loc: &str, bodies: &[&str], args: &[(&str, i18n::Arg<'_>)]) -> (String, String) {
    let text: Vec<String> = bodies.iter().map(|b| i18n::text(loc, b, args)).collect();
    let html = bodies
        .iter()
        .map(|b| layout::para(&i18n::html(loc, b, args)))
        .collect();
    (format!("{}\n", text.join("\n\n")), html)
}
