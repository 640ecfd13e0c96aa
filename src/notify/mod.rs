//! Notifications: what to tell whom when a game moves on. This module builds the outbox
//! rows (Standard Webhooks body `{type, timestamp, data}`, with everything an email
//! needs: recipient, subject, plain-text and HTML bodies, links and an unsubscribe
//! link); the store writes them in the move's transaction. The [`worker`] delivers them
//! as signed webhooks ([`sign`]) to the email relay and to the users' own endpoints
//! ([`guard`] keeps those away from internal addresses).

mod account;
pub mod guard;
mod layout;
pub mod push;
pub mod sign;
mod story;
pub mod tournament;
pub mod worker;

pub use account::{password_changed, password_reset, verify_email, PasswordChange, Recipient};
pub use story::{Happening, Since};

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::clock::rfc3339;
use crate::i18n;
use crate::store::{GameStatus, NewStreamEvent, OutboxRow, OutboxStatus, SeatInfo};

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
    "tournament.invited",
    "tournament.round_started",
    "tournament.eliminated",
    "tournament.stage_ended",
    "tournament.finished",
    "tournament.paused",
    "tournament.resumed",
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
    /// The VAPID key of web push (None: pushes are not sent).
    vapid: Option<push::Vapid>,
}

impl Notifier {
    pub fn new(unsubscribe_key: Vec<u8>, public_url: &str) -> Notifier {
        Notifier {
            wake: tokio::sync::Notify::new(),
            stream_wake: tokio::sync::Notify::new(),
            unsubscribe_key,
            public_url: public_url.trim_end_matches('/').to_string(),
            vapid: None,
        }
    }

    /// The same, sending web pushes signed with `vapid`.
    pub fn with_vapid(mut self, vapid: push::Vapid) -> Notifier {
        self.vapid = Some(vapid);
        self
    }

    pub fn vapid(&self) -> Option<&push::Vapid> {
        self.vapid.as_ref()
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

impl Notifier {
    /// Links to a tournament for a message to `to`: `play` is the event's page in the
    /// web client; the others are API resources.
    fn tournament_links(&self, id: &str, to: &SeatInfo, kind: &str) -> Value {
        let base = &self.public_url;
        json!({
            "play": format!("{base}/play/tournaments/{id}"),
            "tournament": format!("{base}/v1/tournaments/{id}"),
            "standings": format!("{base}/v1/tournaments/{id}/standings"),
            "rounds": format!("{base}/v1/tournaments/{id}/rounds"),
            "notification_settings": format!("{base}/v1/users/me/notifications"),
            "unsubscribe": self.unsubscribe_url(&to.user_id, kind),
            "unsubscribe_all": self.unsubscribe_url(&to.user_id, "*"),
        })
    }
}

/// One message: an introduction (`text`, and `html` in [`layout`] blocks), the one
/// thing to do (`action`: its words, from the catalog, and its URL; the game's page by
/// default), then the details (`text_after`, `html_after`). [`row`] adds the greeting
/// and the footer and frames the HTML.
struct Message<'a> {
    kind: &'a str,
    to: &'a SeatInfo,
    /// The game the message is about; a tournament's id for `tournament.*` messages.
    game_id: &'a str,
    subject: String,
    /// The hidden first line of the HTML part (what a mail list shows after the subject).
    text: String,
    html: String,
    action: Option<(&'static str, String)>,
    text_after: String,
    html_after: String,
    extra: Value,
}

impl<'a> Message<'a> {
    /// A message of one paragraph: the subject is the catalog's `{key}-subject`, the
    /// body its `{key}-body`, in the reader's locale; the action opens the game.
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
            html: layout::para(&i18n::html(loc, &body, args)),
            action: None,
            text_after: String::new(),
            html_after: String::new(),
            extra,
        }
    }
}

fn row(n: &Notifier, m: Message<'_>, now: i64) -> OutboxRow {
    let id = format!("msg_{}", uuid::Uuid::new_v4().simple());
    let about_event = m.kind.starts_with("tournament.");
    let links = if about_event {
        n.tournament_links(m.game_id, m.to, m.kind)
    } else {
        n.links(m.game_id, m.to, m.kind)
    };
    let s = |k: &str| links[k].as_str().unwrap_or_default().to_string();
    let (page, settings, unsub) = (s("play"), s("notification_settings"), s("unsubscribe"));
    let loc = m.to.locale.as_str();
    let page_words = if about_event {
        "link-tournament"
    } else {
        "link-game"
    };
    let (action_key, action_url) = m.action.unwrap_or((page_words, page));
    let greeting = [("name", (&m.to.username).into())];
    let text = format!(
        "{}\n\n{}\n{}: {action_url}\n{}{}\n--\n{}: {settings}\n{}: {unsub}\n",
        i18n::text(loc, "greeting", &greeting),
        m.text,
        i18n::text(loc, action_key, &[]),
        if m.text_after.is_empty() { "" } else { "\n" },
        m.text_after,
        i18n::text(loc, "footer-settings", &[]),
        i18n::text(loc, "footer-unsubscribe", &[]),
    );
    let blocks = format!(
        "{}{}{}{}",
        layout::para(&i18n::html(loc, "greeting", &greeting)),
        m.html,
        layout::button(&action_url, &i18n::html(loc, action_key, &[])),
        m.html_after,
    );
    let html = layout::page(&layout::Page {
        lang: loc,
        title: &escape(&m.subject),
        blocks: &blocks,
        footer: &[
            (&settings, i18n::html(loc, "footer-settings", &[])),
            (&unsub, i18n::html(loc, "footer-unsubscribe", &[])),
        ],
    });
    let mut data = json!({
        (if about_event { "tournament_id" } else { "game_id" }): m.game_id,
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
        game_id: (!about_event).then(|| m.game_id.to_string()),
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
    /// Every player's score now `(username, points)`, in seat order.
    pub scores: &'a [(String, i32)],
    /// The size in pixels of the board's picture at this version (`tilepost_render::
    /// board_size`), so that the email states it.
    pub board_size: Option<(u32, u32)>,
}

/// The widest a picture is shown in an email (the column is 600 px with 20 px margins).
const PICTURE_MAX: u32 = 560;

/// `(width, height)` of a picture of `size` shown at most [`PICTURE_MAX`] wide.
fn shown(size: (u32, u32)) -> (u32, u32) {
    let (w, h) = (size.0.max(1), size.1.max(1));
    if w <= PICTURE_MAX {
        (w, h)
    } else {
        (
            PICTURE_MAX,
            (u64::from(h) * u64::from(PICTURE_MAX) / u64::from(w)) as u32,
        )
    }
}

/// The scores as rows `(name, points, is the reader)`.
fn score_rows(scores: &[(String, i32)], me: &str, html: bool) -> Vec<(String, String, bool)> {
    scores
        .iter()
        .map(|(name, pts)| {
            let shown = if html { escape(name) } else { name.clone() };
            (shown, pts.to_string(), name == me)
        })
        .collect()
}

/// `game.turn_started` for the player whose decision is now pending: what they drew
/// (picture and words), the deadline, one button to the game, then what happened since
/// their last turn, the scores, the board and the house rules.
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
    let what = |msg: fn(&str, &str, &[(&str, i18n::Arg<'_>)]) -> String| match &drawn {
        Some(t) => msg(loc, "turn-drew", &[("tile", t.into())]),
        None => msg(loc, "turn-decision", &[]),
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
    let base = &n.public_url;
    let play = format!("{base}/play/games/{gid}");
    // pictures: the board at the recipient's moment, the same with the drawn tile's
    // places, and the drawn tile
    let board_png = format!("{base}/v1/games/{gid}/board.png?version={}", turn.version);
    let where_png = format!("{board_png}&placements=true");
    let tile_svg = turn.tile.map(|t| format!("{base}/v1/tiles/{t}.svg"));
    let mut extra = json!({
        "board_png": board_png,
        "tile_svg": tile_svg,
        "version": turn.version,
        "tile": turn.tile,
        "decision": turn.decision,
        "deadline": turn.deadline.map(rfc3339),
        "since_last_turn": since.json(loc),
        "scores": turn.scores.iter().map(|(u, p)| json!({"username": u, "score": p})).collect::<Vec<_>>(),
    });
    if let Some(r) = turn.rules.filter(|r| !r.is_empty()) {
        extra["rules"] = json!(r);
    }
    // the introduction: what was drawn, by when
    let mut text = format!(
        "{} {}\n",
        i18n::text(loc, "turn-intro", &[]),
        what(i18n::text)
    );
    let mut html = layout::headline(&i18n::html(loc, "turn-intro", &[]));
    match (&tile_svg, &drawn) {
        (Some(svg), Some(t)) => html.push_str(&layout::beside(
            svg,
            &i18n::html(loc, "alt-tile", &[("tile", t.into())]),
            96,
            &what(i18n::html),
        )),
        _ => html.push_str(&layout::para(&what(i18n::html))),
    }
    if let (Some(t), Some(h)) = (deadline_line(i18n::text), deadline_line(i18n::html)) {
        text.push_str(&format!("{t}\n"));
        html.push_str(&layout::prominent(&h));
    }
    // the details: since the last turn, the scores, the board, the house rules
    let mut after = String::new();
    let mut html_after = String::new();
    if !since.is_empty() {
        after.push_str(&format!("{}\n", i18n::text(loc, "since-title", &[])));
        for l in since.lines(loc, false) {
            after.push_str(&format!("- {l}\n"));
        }
        after.push('\n');
        html_after.push_str(&layout::list(
            &i18n::html(loc, "since-title", &[]),
            &since.lines(loc, true),
        ));
    }
    if !turn.scores.is_empty() {
        after.push_str(&format!("{}:\n", i18n::text(loc, "turn-scores", &[])));
        for (name, pts, me) in score_rows(turn.scores, &to.username, false) {
            let you = if me {
                format!(" ({})", i18n::text(loc, "turn-you", &[]))
            } else {
                String::new()
            };
            after.push_str(&format!("- {name}: {pts}{you}\n"));
        }
        after.push('\n');
        html_after.push_str(&layout::table(
            &i18n::html(loc, "turn-scores", &[]),
            &score_rows(turn.scores, &to.username, true),
        ));
    }
    let (w, h) = shown(
        turn.board_size
            .unwrap_or((PICTURE_MAX, PICTURE_MAX * 3 / 4)),
    );
    html_after.push_str(&layout::picture(
        &board_png,
        &i18n::html(loc, "alt-board", &[]),
        w,
        h,
    ));
    if let (Some(t), Some(h)) = (rules_line(i18n::text), rules_line(i18n::html)) {
        after.push_str(&format!("{t}\n"));
        html_after.push_str(&layout::note(&h));
    }
    after.push_str(&format!(
        "{}: {board_png}\n",
        i18n::text(loc, "turn-board", &[])
    ));
    // where the drawn tile fits: the board with its places numbered
    if turn.tile.is_some() {
        after.push_str(&format!(
            "{}: {where_png}\n",
            i18n::text(loc, "turn-where", &[])
        ));
        html_after.push_str(&layout::link(
            &where_png,
            &i18n::html(loc, "turn-where", &[]),
        ));
    }
    row(
        n,
        Message {
            kind: "game.turn_started",
            to,
            game_id: gid,
            subject: i18n::text(loc, "turn-subject", &[("game", short(gid).into())]),
            text,
            html,
            action: Some(("turn-action", play)),
            text_after: after,
            html_after,
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

/// `game.chat_posted` for every other player (people only), pushed to their devices
/// only (never emailed, never sent to webhook endpoints): who wrote, the start of the
/// line (what the notification shows) and the game's link.
pub fn chat_posted(
    n: &Notifier,
    seats: &[SeatInfo],
    game_id: &str,
    author_id: &str,
    author: &str,
    text: &str,
    now: i64,
) -> Vec<OutboxRow> {
    let start: String = text.chars().take(200).collect();
    let body = json!({
        "type": crate::store::CHAT_MESSAGE,
        "timestamp": rfc3339(now),
        "data": {
            "game_id": game_id,
            "author": author,
            "text": start,
            "links": {"play": format!("{}/play/games/{game_id}", n.public_url)},
        },
    })
    .to_string();
    seats
        .iter()
        .filter(|s| s.user_id != author_id && s.bot.is_none())
        .map(|s| OutboxRow {
            id: format!("msg_{}", uuid::Uuid::new_v4().simple()),
            kind: crate::store::CHAT_MESSAGE.to_string(),
            user_id: s.user_id.clone(),
            game_id: Some(game_id.to_string()),
            payload: body.clone(),
            status: OutboxStatus::Pending.as_str().into(),
            attempts: 0,
            next_attempt_at: now,
            delivered_at: None,
            created_at: now,
        })
        .collect()
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

/// `game.invited`: someone asks `to` to take a seat (the button opens the game's page,
/// where the seat is taken; the text part also gives the API's request).
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
            text: format!("{}\n", i18n::text(loc, "invited-body", &args)),
            html: layout::para(&i18n::html(loc, "invited-body", &args)),
            action: Some((
                "invited-action",
                format!("{}/play/games/{game_id}", n.public_url),
            )),
            text_after: format!("{}: POST {join}\n", i18n::text(loc, "invited-join", &[])),
            html_after: String::new(),
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

/// `game.finished` for every player, with the final ranking `(username, score, rank)`
/// and how the end scored (`at_end`: the fields, unfinished features, goods...).
pub fn finished(
    n: &Notifier,
    seats: &[SeatInfo],
    game_id: &str,
    ranking: &[(String, i32, u8)],
    at_end: &Since,
    now: i64,
) -> Vec<OutboxRow> {
    let args = [("game", short(game_id).into())];
    seats
        .iter()
        .map(|to| {
            let loc = to.locale.as_str();
            let rows = |html: bool| -> Vec<(String, String, bool)> {
                ranking
                    .iter()
                    .map(|(name, score, rank)| {
                        let shown = if html { escape(name) } else { name.clone() };
                        (format!("{rank}. {shown}"), score.to_string(), *name == to.username)
                    })
                    .collect()
            };
            let mut text = format!("{}\n", i18n::text(loc, "finished-body", &args));
            for (name, score, _) in rows(false) {
                text.push_str(&format!("{name}: {score}\n"));
            }
            let mut html = layout::headline(&i18n::html(loc, "finished-body", &args));
            html.push_str(&layout::table(
                &i18n::html(loc, "finished-ranking", &[]),
                &rows(true),
            ));
            let mut text_after = String::new();
            if !at_end.is_empty() {
                text_after.push_str(&format!("{}\n", i18n::text(loc, "end-title", &[])));
                for l in at_end.lines(loc, false) {
                    text_after.push_str(&format!("- {l}\n"));
                }
            }
            let html_after = layout::list(&i18n::html(loc, "end-title", &[]), &at_end.lines(loc, true));
            row(
                n,
                Message {
                    kind: "game.finished",
                    to,
                    game_id,
                    subject: i18n::text(loc, "finished-subject", &args),
                    text,
                    html,
                    action: Some(("finished-action", format!("{}/play/games/{game_id}", n.public_url))),
                    text_after,
                    html_after,
                    extra: json!({
                        "ranking": ranking.iter().map(|(n, s, r)| json!({"username": n, "score": s, "rank": r})).collect::<Vec<_>>(),
                        "end_scoring": at_end.lines(loc, false),
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

/// `game.digest`: the games waiting for `to`, each with its deadline and its link (the
/// board pictures are in `games` for programs; a digest of many games stays light).
pub fn digest(n: &Notifier, to: &SeatInfo, games: &[Waiting<'_>], now: i64) -> OutboxRow {
    let loc = to.locale.as_str();
    let count = games.len() as i64;
    let intro = [("count", count.into())];
    let mut text = format!("{}\n", i18n::text(loc, "digest-intro", &intro));
    let mut lines = Vec::new();
    let mut list = Vec::new();
    for g in games {
        let board = format!(
            "{}/v1/games/{}/board.png?version={}",
            n.public_url, g.game_id, g.version
        );
        let play = format!("{}/play/games/{}", n.public_url, g.game_id);
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
        lines.push(format!(
            "<a href=\"{}\" class=\"tp-link\" style=\"color:#1d6b45;\">{}</a>",
            escape(&play),
            i18n::html(loc, key, &args),
        ));
        list.push(json!({
            "game_id": g.game_id,
            "version": g.version,
            "deadline": g.deadline.map(rfc3339),
            "board_png": board,
            "play": play,
        }));
    }
    let mut html = layout::para(&i18n::html(loc, "digest-intro", &intro));
    html.push_str(&layout::list("", &lines));
    row(
        n,
        Message {
            kind: "game.digest",
            to,
            game_id: "",
            subject: i18n::text(loc, "digest-subject", &intro),
            text,
            html,
            action: Some(("digest-action", format!("{}/play/games", n.public_url))),
            text_after: String::new(),
            html_after: String::new(),
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

#[cfg(test)]
mod tests;
