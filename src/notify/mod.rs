//! Notifications: what to tell whom when a game moves on. This module builds the outbox
//! rows (Standard Webhooks body `{type, timestamp, data}`, with everything an email
//! needs: recipient, subject, plain-text and HTML bodies, links and an unsubscribe
//! link); the store writes them in the move's transaction. The [`worker`] delivers them
//! as signed webhooks ([`sign`]) to the email relay and to the users' own endpoints
//! ([`guard`] keeps those away from internal addresses).

pub mod guard;
pub mod sign;
pub mod worker;

use std::collections::BTreeMap;

use serde_json::{json, Value};
use tilepost_engine::{Action, Effect, Event};

use crate::clock::rfc3339;
use crate::i18n;
use crate::store::{GameStatus, NewStreamEvent, OutboxRow, OutboxStatus, Revoked, SeatInfo};

/// Every event type, in the order documents list them.
pub const EVENT_TYPES: &[&str] = &[
    "game.turn_started",
    "game.invited",
    "game.started",
    "game.finished",
    "game.deadline_near",
    "game.timed_out",
    "game.plan_played",
    "game.digest",
];

/// Account messages: single-use links for the account's owner. They go to the email
/// relay only (never to a user's own endpoints), carry no unsubscribe link (they are
/// answers to the owner's own requests) and no game.
pub const ACCOUNT_EVENT_TYPES: &[&str] = &[
    "account.verify_email",
    "account.password_reset",
    "account.password_changed",
];

/// Shared by the API and the worker: the wake-up signal (a committed write wakes the
/// worker at once instead of at its next poll), the key of unsubscribe tokens and the
/// base of links.
pub struct Notifier {
    pub wake: tokio::sync::Notify,
    /// Wakes this process's reader of the live stream (`crate::live`).
    pub stream_wake: tokio::sync::Notify,
    unsubscribe_key: Vec<u8>,
    pub public_url: String,
}

impl Notifier {
    pub fn new(unsubscribe_key: Vec<u8>, public_url: &str) -> Notifier {
        Notifier {
            wake: tokio::sync::Notify::new(),
            stream_wake: tokio::sync::Notify::new(),
            unsubscribe_key,
            public_url: public_url.trim_end_matches('/').to_string(),
        }
    }

    /// Wakes the worker and the live stream's reader (after a write that queued
    /// messages or stream events).
    pub fn wake(&self) {
        self.wake.notify_one();
        self.stream_wake.notify_one();
    }

    pub fn unsubscribe_key(&self) -> &[u8] {
        &self.unsubscribe_key
    }

    fn unsubscribe_url(&self, user_id: &str, kind: &str) -> String {
        format!(
            "{}/v1/unsubscribe?token={}",
            self.public_url,
            sign::unsubscribe_token(&self.unsubscribe_key, user_id, kind)
        )
    }

    /// Links to a game for a message to `to`: `play` is the game's page in the web client
    /// (what the email's "The game" link opens); the others are API resources.
    fn links(&self, game_id: &str, to: &SeatInfo, kind: &str) -> Value {
        let base = &self.public_url;
        json!({
            "play": format!("{base}/play/games/{game_id}"),
            "game": format!("{base}/v1/games/{game_id}"),
            "actions": format!("{base}/v1/games/{game_id}/actions"),
            "placements": format!("{base}/v1/games/{game_id}/placements"),
            "moves": format!("{base}/v1/games/{game_id}/moves"),
            "events": format!("{base}/v1/games/{game_id}/events"),
            "notification_settings": format!("{base}/v1/users/me/notifications"),
            "unsubscribe": self.unsubscribe_url(&to.user_id, kind),
            "unsubscribe_all": self.unsubscribe_url(&to.user_id, "*"),
        })
    }
}

/// One message: `text` and `html` get the common greeting and footer here.
struct Message<'a> {
    kind: &'a str,
    to: &'a SeatInfo,
    game_id: &'a str,
    subject: String,
    text: String,
    html: String,
    extra: Value,
}

impl<'a> Message<'a> {
    /// A message of one paragraph: the subject is the catalog's `{key}-subject`, the
    /// body its `{key}-body`, in the reader's locale.
    fn paragraph(
        kind: &'a str,
        to: &'a SeatInfo,
        game_id: &'a str,
        key: &str,
        args: &[(&str, i18n::Arg<'_>)],
        extra: Value,
    ) -> Message<'a> {
        let loc = to.locale.as_str();
        let (subject, body) = (format!("{key}-subject"), format!("{key}-body"));
        Message {
            kind,
            to,
            game_id,
            subject: i18n::text(loc, &subject, args),
            text: format!("{}\n", i18n::text(loc, &body, args)),
            html: format!("<p>{}</p>", i18n::html(loc, &body, args)),
            extra,
        }
    }
}

fn row(n: &Notifier, m: Message<'_>, now: i64) -> OutboxRow {
    let id = format!("msg_{}", uuid::Uuid::new_v4().simple());
    let links = n.links(m.game_id, m.to, m.kind);
    let s = |k: &str| links[k].as_str().unwrap_or_default().to_string();
    let (game, settings, unsub) = (s("play"), s("notification_settings"), s("unsubscribe"));
    let loc = m.to.locale.as_str();
    let text = format!(
        "{}\n\n{}\n{}: {game}\n\n--\n{}: {settings}\n{}: {unsub}\n",
        i18n::text(loc, "greeting", &[("name", (&m.to.username).into())]),
        m.text,
        i18n::text(loc, "link-game", &[]),
        i18n::text(loc, "footer-settings", &[]),
        i18n::text(loc, "footer-unsubscribe", &[]),
    );
    let html = format!(
        "<p>{}</p>{}<p><a href=\"{}\">{}</a></p><hr><p><small><a href=\"{}\">{}</a> · <a href=\"{}\">{}</a></small></p>",
        i18n::html(loc, "greeting", &[("name", (&m.to.username).into())]),
        m.html,
        escape(&game),
        i18n::html(loc, "link-game", &[]),
        escape(&settings),
        i18n::html(loc, "footer-settings", &[]),
        escape(&unsub),
        i18n::html(loc, "footer-unsubscribe", &[]),
    );
    let mut data = json!({
        "game_id": m.game_id,
        "recipient": {"user_id": m.to.user_id, "email": m.to.email, "name": m.to.username},
        "subject": m.subject,
        "text": text,
        "html": html,
        "list_unsubscribe": format!("<{unsub}>"),
        "links": links,
    });
    if let (Some(d), Some(e)) = (data.as_object_mut(), m.extra.as_object()) {
        for (k, v) in e {
            d.insert(k.clone(), v.clone());
        }
    }
    // the pictures are links too
    for k in ["board_png", "tile_svg"] {
        if let Some(v) = m.extra.get(k) {
            data["links"][k] = v.clone();
        }
    }
    let body = json!({
        "type": m.kind,
        "timestamp": rfc3339(now),
        "data": data,
    });
    OutboxRow {
        id,
        kind: m.kind.to_string(),
        user_id: m.to.user_id.clone(),
        game_id: Some(m.game_id.to_string()),
        payload: body.to_string(),
        status: OutboxStatus::Pending.as_str().into(),
        attempts: 0,
        next_attempt_at: now,
        delivered_at: None,
        created_at: now,
    }
}

fn escape(s: &str) -> String {
    i18n::escape(s)
}

fn short(id: &str) -> &str {
    id.get(..8).unwrap_or(id)
}

fn name_of(seats: &[SeatInfo], seat: u8) -> String {
    seats
        .iter()
        .find(|s| s.seat == seat as i32)
        .map(|s| s.username.clone())
        .unwrap_or_else(|| format!("seat {seat}"))
}

/// What happened in a game since a player's last turn, from the log and the effects the
/// engine derived for each event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Since {
    /// `(player, tile, x, y)` of each tile placed.
    pub tiles: Vec<(String, String, i32, i32)>,
    /// `(player, points, feature)` of each score.
    pub scores: Vec<(String, i32, String)>,
}

impl Since {
    /// Everything after the last tile `seat` placed (the whole game when none).
    pub fn compute(
        events: &[Event],
        effects: &[Vec<Effect>],
        seat: u8,
        seats: &[SeatInfo],
    ) -> Since {
        let start = events
            .iter()
            .rposition(|e| {
                matches!(e, Event::Decided { player, action: Action::PlaceTile { .. }, .. }
                    if *player == seat)
            })
            .map(|i| i + 1)
            .unwrap_or(0);
        let mut out = Since::default();
        for (i, e) in events.iter().enumerate().skip(start) {
            if let Event::Decided {
                player,
                action: Action::PlaceTile { x, y, .. },
                tile: Some(tile),
                ..
            } = e
            {
                out.tiles
                    .push((name_of(seats, *player), tile.clone(), *x, *y));
            }
            for fx in effects.get(i).map(|v| v.as_slice()).unwrap_or_default() {
                if let Effect::FeatureScored {
                    feature,
                    points,
                    players,
                    ..
                } = fx
                {
                    for p in players {
                        out.scores
                            .push((name_of(seats, *p), *points, feature.name().to_string()));
                    }
                }
            }
        }
        out
    }

    fn lines(&self, locale: &str, html: bool) -> Vec<String> {
        let msg = if html { i18n::html } else { i18n::text };
        let mut out = Vec::new();
        for (p, t, x, y) in &self.tiles {
            let t = i18n::tile_name(locale, t);
            out.push(msg(
                locale,
                "since-placed",
                &[
                    ("player", p.into()),
                    ("tile", (&t).into()),
                    ("x", (*x).into()),
                    ("y", (*y).into()),
                ],
            ));
        }
        for (p, pts, f) in &self.scores {
            let feature = msg(locale, &format!("feature-{f}"), &[]);
            out.push(msg(
                locale,
                "since-scored",
                &[
                    ("player", p.into()),
                    ("points", (*pts).into()),
                    ("feature", (&feature).into()),
                ],
            ));
        }
        out
    }

    fn text(&self, locale: &str) -> String {
        if self.tiles.is_empty() && self.scores.is_empty() {
            return String::new();
        }
        let mut s = format!("{}\n", i18n::text(locale, "since-title", &[]));
        for l in self.lines(locale, false) {
            s.push_str(&format!("- {l}\n"));
        }
        s
    }

    fn html(&self, locale: &str) -> String {
        if self.tiles.is_empty() && self.scores.is_empty() {
            return String::new();
        }
        let mut s = format!("<p>{}</p><ul>", i18n::html(locale, "since-title", &[]));
        for l in self.lines(locale, true) {
            s.push_str(&format!("<li>{l}</li>"));
        }
        s.push_str("</ul>");
        s
    }

    fn json(&self) -> Value {
        json!({
            "tiles_placed": self.tiles.iter().map(|(p, t, x, y)| json!({"player": p, "tile": t, "x": x, "y": y})).collect::<Vec<_>>(),
            "points_scored": self.scores.iter().map(|(p, pts, f)| json!({"player": p, "points": pts, "feature": f})).collect::<Vec<_>>(),
        })
    }
}

/// The turn a message is about.
pub struct Turn<'a> {
    pub game_id: &'a str,
    pub version: i64,
    /// The drawn tile (catalog id), when the decision is a tile placement.
    pub tile: Option<&'a str>,
    /// What is to be decided (`place_tile`, `move_wagon`, ...).
    pub decision: Option<&'a str>,
    /// When the turn times out (ms), if the game has a deadline.
    pub deadline: Option<i64>,
    /// The house rules in force (the variants that differ from the standard rules).
    pub rules: Option<&'a BTreeMap<String, String>>,
}

/// `game.turn_started` for the player whose decision is now pending.
pub fn turn_started(
    n: &Notifier,
    to: &SeatInfo,
    turn: &Turn<'_>,
    since: &Since,
    now: i64,
) -> OutboxRow {
    let gid = turn.game_id;
    let loc = to.locale.as_str();
    let drawn = turn.tile.map(|t| i18n::tile_name(loc, t));
    let intro = |msg: fn(&str, &str, &[(&str, i18n::Arg<'_>)]) -> String| {
        let what = match &drawn {
            Some(t) => msg(loc, "turn-drew", &[("tile", t.into())]),
            None => msg(loc, "turn-decision", &[]),
        };
        format!("{} {what}", msg(loc, "turn-intro", &[]))
    };
    let deadline = turn.deadline.map(|d| i18n::datetime(d, loc, &to.time_zone));
    let deadline_line = |msg: fn(&str, &str, &[(&str, i18n::Arg<'_>)]) -> String| {
        deadline
            .as_ref()
            .map(|d| msg(loc, "turn-deadline", &[("deadline", d.into())]))
    };
    let rules = turn.rules.filter(|r| !r.is_empty()).map(|r| {
        r.iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    });
    let rules_line = |msg: fn(&str, &str, &[(&str, i18n::Arg<'_>)]) -> String| {
        rules
            .as_ref()
            .map(|r| msg(loc, "turn-rules", &[("rules", r.into())]))
    };
    let placements = format!("{}/v1/games/{gid}/placements", n.public_url);
    // pictures: the board at the recipient's moment, and the drawn tile
    let board_png = format!(
        "{}/v1/games/{gid}/board.png?version={}",
        n.public_url, turn.version
    );
    let tile_svg = turn
        .tile
        .map(|t| format!("{}/v1/tiles/{t}.svg", n.public_url));
    let tile_img = tile_svg
        .as_deref()
        .map(|u| {
            format!(
                "<p><img src=\"{}\" alt=\"{}\" width=\"64\" height=\"64\"></p>",
                escape(u),
                i18n::html(
                    loc,
                    "alt-tile",
                    &[("tile", drawn.as_deref().unwrap_or_default().into())]
                )
            )
        })
        .unwrap_or_default();
    let mut extra = json!({
        "board_png": board_png,
        "tile_svg": tile_svg,
        "version": turn.version,
        "tile": turn.tile,
        "decision": turn.decision,
        "deadline": turn.deadline.map(rfc3339),
        "since_last_turn": since.json(),
    });
    if let Some(r) = turn.rules.filter(|r| !r.is_empty()) {
        extra["rules"] = json!(r);
    }
    row(
        n,
        Message {
            kind: "game.turn_started",
            to,
            game_id: gid,
            subject: i18n::text(loc, "turn-subject", &[("game", short(gid).into())]),
            text: format!(
                "{}\n{}{}\n{}\n{}: {board_png}\n{}: {placements}\n",
                intro(i18n::text),
                deadline_line(i18n::text)
                    .map(|l| format!("{l}\n"))
                    .unwrap_or_default(),
                rules_line(i18n::text)
                    .map(|l| format!("{l}\n"))
                    .unwrap_or_default(),
                since.text(loc),
                i18n::text(loc, "turn-board", &[]),
                i18n::text(loc, "turn-where", &[]),
            ),
            html: format!(
                "<p>{}</p>{tile_img}<p><img src=\"{}\" alt=\"{}\" style=\"max-width:100%\"></p>{}{}{}<p><a href=\"{}\">{}</a></p>",
                intro(i18n::html),
                escape(&board_png),
                i18n::html(loc, "alt-board", &[]),
                deadline_line(i18n::html)
                    .map(|l| format!("<p>{l}</p>"))
                    .unwrap_or_default(),
                rules_line(i18n::html)
                    .map(|l| format!("<p>{l}</p>"))
                    .unwrap_or_default(),
                since.html(loc),
                escape(&placements),
                i18n::html(loc, "turn-where", &[]),
            ),
            extra,
        },
        now,
    )
}

/// `game.move_made` for every player's live stream (not a webhook: a connected client
/// wants it, an inbox does not): the game's new version and status, and who moved
/// (`None` when the server decided, as for a time-out).
pub fn move_made(
    seats: &[SeatInfo],
    game_id: &str,
    version: i64,
    status: GameStatus,
    player: Option<&str>,
    now: i64,
) -> Vec<NewStreamEvent> {
    stream_to_all(
        seats,
        game_id,
        "game.move_made",
        json!({"game_id": game_id, "version": version, "status": status.as_str(), "player": player}),
        now,
    )
}

/// `game.chat` for every player's live stream: the message as the chat lists it.
pub fn chat(seats: &[SeatInfo], game_id: &str, message: Value, now: i64) -> Vec<NewStreamEvent> {
    stream_to_all(seats, game_id, "game.chat", message, now)
}

fn stream_to_all(
    seats: &[SeatInfo],
    game_id: &str,
    kind: &str,
    data: Value,
    now: i64,
) -> Vec<NewStreamEvent> {
    let body = json!({"type": kind, "timestamp": rfc3339(now), "data": data}).to_string();
    seats
        .iter()
        // the server's own computer opponents never connect
        .filter(|s| {
            s.bot
                .as_deref()
                .is_none_or(|b| !crate::store::BOT_LEVELS.contains(&b))
        })
        .map(|s| NewStreamEvent {
            user_id: s.user_id.clone(),
            kind: kind.to_string(),
            game_id: Some(game_id.to_string()),
            payload: body.clone(),
            created_at: now,
        })
        .collect()
}

/// `game.invited`: someone asks `to` to take a seat.
pub fn invited(n: &Notifier, to: &SeatInfo, game_id: &str, by: &str, now: i64) -> OutboxRow {
    let join = format!("{}/v1/games/{game_id}/join", n.public_url);
    let loc = to.locale.as_str();
    let args = [("by", by.into()), ("game", short(game_id).into())];
    row(
        n,
        Message {
            kind: "game.invited",
            to,
            game_id,
            subject: i18n::text(loc, "invited-subject", &args),
            text: format!(
                "{}\n{}: POST {join}\n",
                i18n::text(loc, "invited-body", &args),
                i18n::text(loc, "invited-join", &[]),
            ),
            html: format!(
                "<p>{}</p><p>{}: POST <code>{}</code></p>",
                i18n::html(loc, "invited-body", &args),
                i18n::html(loc, "invited-join", &[]),
                escape(&join)
            ),
            extra: json!({"invited_by": by, "inviter": by, "join": join}),
        },
        now,
    )
}

/// `game.started` for every player.
pub fn started(
    n: &Notifier,
    seats: &[SeatInfo],
    game_id: &str,
    first: &str,
    now: i64,
) -> Vec<OutboxRow> {
    let players: Vec<&str> = seats.iter().map(|s| s.username.as_str()).collect();
    let names = players.join(", ");
    let args = [
        ("game", short(game_id).into()),
        ("players", names.as_str().into()),
        ("first", first.into()),
    ];
    seats
        .iter()
        .map(|to| {
            row(
                n,
                Message::paragraph(
                    "game.started",
                    to,
                    game_id,
                    "started",
                    &args,
                    json!({"players": players, "first_player": first}),
                ),
                now,
            )
        })
        .collect()
}

/// `game.finished` for every player, with the final ranking `(username, score, rank)`.
pub fn finished(
    n: &Notifier,
    seats: &[SeatInfo],
    game_id: &str,
    ranking: &[(String, i32, u8)],
    now: i64,
) -> Vec<OutboxRow> {
    let lines: Vec<String> = ranking
        .iter()
        .map(|(name, score, rank)| format!("{rank}. {name}: {score}"))
        .collect();
    let args = [("game", short(game_id).into())];
    seats
        .iter()
        .map(|to| {
            let loc = to.locale.as_str();
            row(
                n,
                Message {
                    kind: "game.finished",
                    to,
                    game_id,
                    subject: i18n::text(loc, "finished-subject", &args),
                    text: format!(
                        "{}\n{}\n",
                        i18n::text(loc, "finished-body", &args),
                        lines.join("\n")
                    ),
                    html: format!(
                        "<p>{}</p><ol>{}</ol>",
                        i18n::html(loc, "finished-body", &args),
                        ranking
                            .iter()
                            .map(|(n, s, _)| format!("<li>{}: {s}</li>", escape(n)))
                            .collect::<String>()
                    ),
                    extra: json!({
                        "ranking": ranking.iter().map(|(n, s, r)| json!({"username": n, "score": s, "rank": r})).collect::<Vec<_>>(),
                    }),
                },
                now,
            )
        })
        .collect()
}

/// `game.deadline_near`: `to` has until `deadline` (ms) to play.
pub fn deadline_near(
    n: &Notifier,
    to: &SeatInfo,
    game_id: &str,
    deadline: i64,
    now: i64,
) -> OutboxRow {
    let at = i18n::datetime(deadline, &to.locale, &to.time_zone);
    let args = [
        ("game", short(game_id).into()),
        ("deadline", at.as_str().into()),
    ];
    row(
        n,
        Message::paragraph(
            "game.deadline_near",
            to,
            game_id,
            "deadline",
            &args,
            json!({"deadline": rfc3339(deadline)}),
        ),
        now,
    )
}

/// `game.plan_played`: the server played `to`'s conditional turn for `tile` at
/// `version`.
pub fn plan_played(
    n: &Notifier,
    to: &SeatInfo,
    game_id: &str,
    tile: &str,
    version: i64,
    now: i64,
) -> OutboxRow {
    let name = i18n::tile_name(to.locale.as_str(), tile);
    let args = [("game", short(game_id).into()), ("tile", (&name).into())];
    row(
        n,
        Message::paragraph(
            "game.plan_played",
            to,
            game_id,
            "plan",
            &args,
            json!({"tile": tile, "version": version}),
        ),
        now,
    )
}

/// A game in a daily digest: its id, its version and its deadline (ms), if it has one.
pub struct Waiting<'a> {
    pub game_id: &'a str,
    pub version: i64,
    pub deadline: Option<i64>,
}

/// `game.digest`: the games waiting for `to`, each with its deadline and board picture.
pub fn digest(n: &Notifier, to: &SeatInfo, games: &[Waiting<'_>], now: i64) -> OutboxRow {
    let loc = to.locale.as_str();
    let count = games.len() as i64;
    let mut text = format!(
        "{}\n",
        i18n::text(loc, "digest-intro", &[("count", count.into())])
    );
    let mut html = format!(
        "<p>{}</p>",
        i18n::html(loc, "digest-intro", &[("count", count.into())])
    );
    let mut list = Vec::new();
    for g in games {
        let board = format!(
            "{}/v1/games/{}/board.png?version={}",
            n.public_url, g.game_id, g.version
        );
        let play = n.links(g.game_id, to, "game.digest")["play"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let due = g.deadline.map(|d| i18n::datetime(d, loc, &to.time_zone));
        let args = [
            ("game", short(g.game_id).into()),
            ("deadline", due.as_deref().unwrap_or_default().into()),
        ];
        let key = if due.is_some() {
            "digest-line"
        } else {
            "digest-line-no-deadline"
        };
        text.push_str(&format!("- {}: {play}\n", i18n::text(loc, key, &args)));
        html.push_str(&format!(
            "<p><a href=\"{}\">{}</a><br><img src=\"{}\" alt=\"{}\" style=\"max-width:100%\"></p>",
            escape(&play),
            i18n::html(loc, key, &args),
            escape(&board),
            i18n::html(loc, "alt-board", &[]),
        ));
        list.push(json!({
            "game_id": g.game_id,
            "version": g.version,
            "deadline": g.deadline.map(rfc3339),
            "board_png": board,
        }));
    }
    row(
        n,
        Message {
            kind: "game.digest",
            to,
            game_id: "",
            subject: i18n::text(loc, "digest-subject", &[("count", count.into())]),
            text,
            html,
            extra: json!({ "games": list }),
        },
        now,
    )
}

/// `game.timed_out` for every player: `who` ran out of time.
pub fn timed_out(
    n: &Notifier,
    seats: &[SeatInfo],
    game_id: &str,
    who: &str,
    now: i64,
) -> Vec<OutboxRow> {
    let args = [("game", short(game_id).into()), ("player", who.into())];
    seats
        .iter()
        .map(|to| {
            row(
                n,
                Message::paragraph(
                    "game.timed_out",
                    to,
                    game_id,
                    "timedout",
                    &args,
                    json!({"player": who}),
                ),
                now,
            )
        })
        .collect()
}

/// Who an account message goes to.
pub struct Recipient<'a> {
    pub user_id: &'a str,
    pub name: &'a str,
    pub email: &'a str,
    /// `en` or `pt-BR`.
    pub locale: &'a str,
    pub time_zone: &'a str,
}

/// An account message: a greeting, `body` (text and HTML), the link, and why it came.
fn account_row(
    kind: &str,
    to: &Recipient<'_>,
    keys: [&str; 4],
    link: (&str, String),
    expires_at: i64,
    now: i64,
) -> OutboxRow {
    let loc = to.locale;
    let [subject, body, action, ignore] = keys;
    let expires = i18n::datetime(expires_at, loc, to.time_zone);
    let args = [
        ("name", to.name.into()),
        ("expires", expires.as_str().into()),
    ];
    let (link_name, url) = link;
    account_message(
        kind,
        to,
        i18n::text(loc, subject, &args),
        vec![(i18n::text(loc, body, &args), i18n::html(loc, body, &args))],
        (
            link_name,
            i18n::text(loc, action, &args),
            i18n::html(loc, action, &args),
            url,
        ),
        (
            i18n::text(loc, ignore, &args),
            i18n::html(loc, ignore, &args),
        ),
        json!({"expires_at": rfc3339(expires_at)}),
        now,
    )
}

/// An account message's parts: the greeting, paragraphs (text, HTML), one link (its
/// name, the action's words as text and HTML, the URL), a closing line, and fields of
/// `data` beside the email's parts.
#[allow(clippy::too_many_arguments)]
fn account_message(
    kind: &str,
    to: &Recipient<'_>,
    subject: String,
    paragraphs: Vec<(String, String)>,
    link: (&str, String, String, String),
    footer: (String, String),
    extra: Value,
    now: i64,
) -> OutboxRow {
    let loc = to.locale;
    let (link_name, action_text, action_html, url) = link;
    let mut text = format!(
        "{}\n\n",
        i18n::text(loc, "greeting", &[("name", to.name.into())])
    );
    let mut html = format!(
        "<p>{}</p>",
        i18n::html(loc, "greeting", &[("name", to.name.into())])
    );
    for (t, h) in &paragraphs {
        text.push_str(t);
        text.push('\n');
        html.push_str(&format!("<p>{h}</p>"));
    }
    text.push_str(&format!("{action_text}: {url}\n\n{}\n", footer.0));
    html.push_str(&format!(
        "<p><a href=\"{}\">{action_html}</a></p><p><small>{}</small></p>",
        escape(&url),
        footer.1
    ));
    let mut data = json!({
        "recipient": {"user_id": to.user_id, "email": to.email, "name": to.name},
        "subject": subject,
        "text": text,
        "html": html,
        "links": {link_name: url},
    });
    if let (Some(d), Some(more)) = (data.as_object_mut(), extra.as_object()) {
        for (k, v) in more {
            d.insert(k.clone(), v.clone());
        }
    }
    let body = json!({
        "type": kind,
        "timestamp": rfc3339(now),
        "data": data,
    });
    OutboxRow {
        id: format!("msg_{}", uuid::Uuid::new_v4().simple()),
        kind: kind.to_string(),
        user_id: to.user_id.to_string(),
        game_id: None,
        payload: body.to_string(),
        status: OutboxStatus::Pending.as_str().into(),
        attempts: 0,
        next_attempt_at: now,
        delivered_at: None,
        created_at: now,
    }
}

/// How a password came to change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PasswordChange {
    /// With the link of a reset email.
    Reset,
    /// From the account, with the current password.
    Change,
}

/// `account.password_changed`: the account's password changed (how and when), what no
/// longer works, and the way back for an owner who did not do it (the reset page).
pub fn password_changed(
    n: &Notifier,
    to: &Recipient<'_>,
    how: PasswordChange,
    revoked: &Revoked,
    now: i64,
) -> OutboxRow {
    let loc = to.locale;
    let when = i18n::datetime(now, loc, to.time_zone);
    let tokens = revoked.personal_tokens.join(", ");
    let args = [
        ("name", to.name.into()),
        ("when", when.as_str().into()),
        ("sessions", (revoked.sessions as i64).into()),
        ("tokens", (revoked.personal_tokens.len() as i64).into()),
        ("names", tokens.as_str().into()),
    ];
    let body = match how {
        PasswordChange::Reset => "changed-body-reset",
        PasswordChange::Change => "changed-body-change",
    };
    let mut paragraphs = vec![
        (i18n::text(loc, body, &args), i18n::html(loc, body, &args)),
        (
            i18n::text(loc, "changed-revoked", &args),
            i18n::html(loc, "changed-revoked", &args),
        ),
    ];
    if !revoked.personal_tokens.is_empty() {
        paragraphs.push((
            i18n::text(loc, "changed-tokens", &args),
            i18n::html(loc, "changed-tokens", &args),
        ));
    }
    account_message(
        "account.password_changed",
        to,
        i18n::text(loc, "changed-subject", &args),
        paragraphs,
        (
            "reset",
            i18n::text(loc, "changed-action", &args),
            i18n::html(loc, "changed-action", &args),
            format!("{}/play/forgot-password", n.public_url),
        ),
        (
            i18n::text(loc, "changed-ignore", &args),
            i18n::html(loc, "changed-ignore", &args),
        ),
        json!({"revoked": {
            "sessions": revoked.sessions,
            "personal_tokens": revoked.personal_tokens,
        }}),
        now,
    )
}

/// `account.verify_email`: the link that confirms `to.email` (the web client's page,
/// which posts the token to `POST /v1/auth/verify-email`).
pub fn verify_email(
    n: &Notifier,
    to: &Recipient<'_>,
    token: &str,
    expires_at: i64,
    now: i64,
) -> OutboxRow {
    let url = format!("{}/play/verify-email?token={token}", n.public_url);
    account_row(
        "account.verify_email",
        to,
        [
            "verify-subject",
            "verify-body",
            "verify-action",
            "verify-ignore",
        ],
        ("verify", url),
        expires_at,
        now,
    )
}

/// `account.password_reset`: the single-use link to choose a new password (the web
/// client's page, which posts it to `POST /v1/auth/password-reset/confirm`).
pub fn password_reset(
    n: &Notifier,
    to: &Recipient<'_>,
    token: &str,
    expires_at: i64,
    now: i64,
) -> OutboxRow {
    let url = format!("{}/play/reset-password?token={token}", n.public_url);
    account_row(
        "account.password_reset",
        to,
        [
            "reset-subject",
            "reset-body",
            "reset-action",
            "reset-ignore",
        ],
        ("reset", url),
        expires_at,
        now,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(n: i32, name: &str) -> SeatInfo {
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
                },
                &Since {
                    tiles: vec![("ann".into(), "base/E".into(), 1, 0)],
                    scores: vec![("ann".into(), 4, "city".into())],
                },
                0,
            ),
            invited(&n, &seats[1], "g1", "ann", 0),
            deadline_near(&n, &seats[1], "g1", 1000, 0),
        ];
        rows.extend(started(&n, &seats, "g1", "ann", 0));
        rows.extend(finished(&n, &seats, "g1", &[("ann".into(), 10, 1)], 0));
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
            // "The game" opens the web client; the API links stay
            let play = d["links"]["play"].as_str().unwrap_or_default();
            assert_eq!(play, "http://t.test/play/games/g1");
            assert_eq!(d["links"]["game"], "http://t.test/v1/games/g1");
            assert!(d["text"]
                .as_str()
                .unwrap_or_default()
                .contains(&format!("The game: {play}\n")));
            assert!(d["html"]
                .as_str()
                .unwrap_or_default()
                .contains(&format!("<a href=\"{play}\">The game</a>")));
        }
        let t: Value = serde_json::from_str(&rows[0].payload).unwrap_or(Value::Null);
        let text = t["data"]["text"].as_str().unwrap_or_default();
        assert!(text.contains("You drew a city cap with a straight road."));
        assert!(!text.contains("drew base/D"));
        assert!(text.contains("ann placed a city cap at (1, 0)"));
        assert!(text.contains("ann scored 4 points for a city"));
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
            let turn = |tile: Option<&'static str>, deadline: Option<i64>| Turn {
                game_id: "5b1d6a2e-8c0e-4f3a-9a51-3f2f4b1c7d10",
                version: 7,
                tile,
                decision: Some("place_tile"),
                deadline,
                rules: None,
            };
            let since = Since {
                tiles: vec![("ann".into(), "base/E".into(), 0, 1)],
                scores: vec![
                    ("ann".into(), 4, "city".into()),
                    ("ann".into(), 1, "road".into()),
                ],
            };
            let gid = "5b1d6a2e-8c0e-4f3a-9a51-3f2f4b1c7d10";
            // 2026-12-03T17:00:00Z
            let deadline = 1_796_317_200_000;
            let rows = vec![
                turn_started(
                    &n,
                    &seats[1],
                    &turn(Some("base/U"), Some(deadline)),
                    &since,
                    0,
                ),
                turn_started(&n, &seats[1], &turn(None, None), &Since::default(), 0),
                invited(&n, &seats[1], gid, "ann", 0),
                started(&n, &seats, gid, "ann", 0).remove(1),
                finished(
                    &n,
                    &seats,
                    gid,
                    &[("ann".into(), 87, 1), ("b<o>b".into(), 74, 2)],
                    0,
                )
                .remove(1),
                deadline_near(&n, &seats[1], gid, deadline, 0),
                timed_out(&n, &seats, gid, "ann", 0).remove(1),
                plan_played(&n, &seats[1], gid, "ic/13-crrc", 9, 0),
            ];
            let mut out = String::new();
            for r in &rows {
                let v: Value = serde_json::from_str(&r.payload).unwrap_or(Value::Null);
                let d = &v["data"];
                out.push_str(&format!(
                    "===== {}\nSubject: {}\n----- text\n{}----- html\n{}\n\n",
                    r.kind,
                    d["subject"].as_str().unwrap_or_default(),
                    d["text"].as_str().unwrap_or_default(),
                    d["html"].as_str().unwrap_or_default(),
                ));
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
                out.push_str(&format!(
                    "===== {}\nSubject: {}\n----- text\n{}----- html\n{}\n\n",
                    r.kind,
                    d["subject"].as_str().unwrap_or_default(),
                    d["text"].as_str().unwrap_or_default(),
                    d["html"].as_str().unwrap_or_default(),
                ));
            }
            assert!(!out.contains("Unknown localization"), "{out}");
            assert!(out.contains("https://tilepost.example/play/verify-email?token=tok-verify"));
            assert!(out.contains("https://tilepost.example/play/reset-password?token=tok-reset"));
            insta::assert_snapshot!(format!("account_emails_{locale}"), out);
        }
    }
}
