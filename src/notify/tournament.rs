//! Tournament messages: a round started (with the reader's table, opponents and games,
//! or their bye), a stage ended (qualified for the next stage, or out), the event
//! finished (the winner and the reader's place). Each is one message per player, sent
//! like the games' messages (email, endpoints, the live stream, push).

use serde_json::json;

use super::{escape, layout, row, short, Message, Notifier};
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
        ("tstage-subject", key, &args),
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
        ("tfinished-subject", key, &args),
        Some((
            "tfinished-action",
            format!("{}/play/tournaments/{}", n.public_url, ev.id),
        )),
        json!({
            "tournament_name": ev.name,
            "winner": winner,
            "place": place,
            "players": count,
        }),
        now,
    )
}

/// A message of one paragraph about an event: `(kind, reader, event)`, `(subject key,
/// body key, their arguments)`, the action (default: the event's page), the fields.
fn one_paragraph(
    n: &Notifier,
    (kind, to, ev): (&str, &SeatInfo, &Event<'_>),
    (subject, body, args): (&str, &str, &[(&str, i18n::Arg<'_>)]),
    action: Option<(&'static str, String)>,
    extra: serde_json::Value,
    now: i64,
) -> OutboxRow {
    let loc = to.locale.as_str();
    row(
        n,
        Message {
            kind,
            to,
            game_id: ev.id,
            subject: i18n::text(loc, subject, args),
            text: format!("{}\n", i18n::text(loc, body, args)),
            html: layout::para(&i18n::html(loc, body, args)),
            action,
            text_after: String::new(),
            html_after: String::new(),
            extra,
        },
        now,
    )
}
