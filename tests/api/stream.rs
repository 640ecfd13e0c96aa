//! The live stream (`GET /v1/stream`): a client of one server process hears, within a
//! second, a move posted through another process on the same database; a reconnection
//! with `Last-Event-ID` (to either process) misses nothing; the stream carries only the
//! caller's events; heartbeats, limits and refusals.

use std::io::{BufRead, BufReader};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tilepost::clock::Clock;

use crate::common::{client_for, start_game, test_config, Client, Db, TestApp};

/// One SSE frame: an event (with its id), or a comment line (`event` = `comment`).
#[derive(Clone, Debug)]
pub struct Frame {
    pub id: Option<i64>,
    pub event: String,
    pub data: Value,
}

/// An open stream read on a thread of its own.
pub struct Sse {
    rx: mpsc::Receiver<Frame>,
}

impl Sse {
    /// Opens the caller's stream on `base` (optionally resuming) and waits for the
    /// server's `: ready` comment.
    pub fn open(c: &Client, base: &str, last: Option<i64>) -> Sse {
        let agent = ureq::AgentBuilder::new()
            .timeout_connect(Duration::from_secs(5))
            .build();
        let mut req = agent.get(&format!("{base}/v1/stream"));
        if let Some(t) = &c.token {
            req = req.set("Authorization", &format!("Bearer {t}"));
        }
        if let Some(n) = last {
            req = req.set("Last-Event-ID", &n.to_string());
        }
        let resp = req.call().expect("the stream opens");
        assert_eq!(resp.status(), 200);
        assert_eq!(resp.content_type(), "text/event-stream");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let reader = BufReader::new(resp.into_reader());
            let (mut id, mut event, mut data) = (None, String::new(), String::new());
            for line in reader.lines() {
                let Ok(line) = line else { return };
                if line.is_empty() {
                    if !event.is_empty() || !data.is_empty() {
                        let f = Frame {
                            id: id.take(),
                            event: std::mem::take(&mut event),
                            data: serde_json::from_str(&std::mem::take(&mut data))
                                .unwrap_or(Value::Null),
                        };
                        if tx.send(f).is_err() {
                            return;
                        }
                    }
                } else if let Some(c) = line.strip_prefix(':') {
                    let f = Frame {
                        id: None,
                        event: "comment".into(),
                        data: json!(c.trim()),
                    };
                    if tx.send(f).is_err() {
                        return;
                    }
                } else if let Some(v) = line.strip_prefix("id: ") {
                    id = v.parse().ok();
                } else if let Some(v) = line.strip_prefix("event: ") {
                    event = v.to_string();
                } else if let Some(v) = line.strip_prefix("data: ") {
                    data.push_str(v);
                }
            }
        });
        let s = Sse { rx };
        s.until(Duration::from_secs(5), |f| {
            f.event == "comment" && f.data == "ready"
        })
        .expect("the stream says it is ready");
        s
    }

    /// The next frame within `wait`.
    fn next(&self, wait: Duration) -> Option<Frame> {
        self.rx.recv_timeout(wait).ok()
    }

    /// Reads until a frame matches (returned) or `wait` passes.
    fn until(&self, wait: Duration, want: impl Fn(&Frame) -> bool) -> Option<Frame> {
        let end = Instant::now() + wait;
        loop {
            let left = end.checked_duration_since(Instant::now())?;
            let f = self.next(left)?;
            if want(&f) {
                return Some(f);
            }
        }
    }

    /// Every event (not comments) that arrives within `quiet` of the previous one.
    pub fn drain(&self, quiet: Duration) -> Vec<Frame> {
        let mut out = Vec::new();
        while let Some(f) = self.next(quiet) {
            if f.event != "comment" {
                out.push(f);
            }
        }
        out
    }
}

/// The pending player posts the first option `…/actions` lists, through `base`; returns
/// the game's new version.
fn play_first(players: &[&Client], id: &str, base: &str) -> i64 {
    let a = players[0].get(&format!("/v1/games/{id}/actions"));
    let a = a.ok().clone();
    let who = client_for(players, &a["pending"]).on(base);
    let r = who.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": a["version"], "actions": [a["actions"][0]]}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    r.json["version"].as_i64().expect("version")
}

fn second_server(app: &TestApp) -> tilepost::startup::Running {
    tilepost::startup::spawn(test_config(&app.db.url), app.clock.clone()).expect("second server")
}

/// A client connected to one process receives, within a second, the move another
/// player posts through a second process.
fn a_move_through_another_process_arrives_within_a_second(app: &TestApp) {
    let other = second_server(app);
    let ann = app.user("ann");
    let ben = app.user("ben");
    let id = start_game(&[&ann, &ben], Value::Null);
    for _ in 0..3 {
        // whoever is to move posts through the second process; both watch on the first
        let ann_sse = Sse::open(&ann, &app.url(), None);
        let ben_sse = Sse::open(&ben, &app.url(), None);
        let t = Instant::now();
        let version = play_first(&[&ann, &ben], &id, &other.url());
        for s in [&ann_sse, &ben_sse] {
            let f = s
                .until(Duration::from_secs(5), |f| f.event == "game.move_made")
                .expect("the move arrives");
            let took = t.elapsed();
            assert!(took < Duration::from_secs(1), "the move took {took:?}");
            assert_eq!(f.data["type"], "game.move_made");
            assert_eq!(f.data["data"]["game_id"], json!(id));
            assert!(f.data["data"]["version"].as_i64() <= Some(version));
            assert!(f.id.is_some());
        }
    }
}

/// Events seen live, events read again after a reconnection with `Last-Event-ID` (to
/// the other process), and the whole stream read from the start are the same, in the
/// same order: nothing is missed, nothing comes twice.
fn a_reconnection_misses_nothing(app: &TestApp) {
    let other = second_server(app);
    let ann = app.user("ann");
    let ben = app.user("ben");
    let id = start_game(&[&ann, &ben], Value::Null);
    let live = Sse::open(&ann, &app.url(), None);
    play_first(&[&ann, &ben], &id, &app.url());
    play_first(&[&ann, &ben], &id, &other.url());
    let first = live.drain(Duration::from_millis(800));
    assert!(!first.is_empty());
    let cut = first.last().and_then(|f| f.id).expect("an id");
    drop(live);
    // while ann is away: moves through both processes, and chat
    for i in 0..6 {
        let base = if i % 2 == 0 { app.url() } else { other.url() };
        play_first(&[&ann, &ben], &id, &base);
    }
    let said = ben.post(&format!("/v1/games/{id}/chat"), json!({"text": "hello"}));
    assert_eq!(said.status, 201, "{}", said.text);
    let back = Sse::open(&ann, &other.url(), Some(cut));
    let resumed = back.drain(Duration::from_millis(800));
    // everything of ann's, from the start
    let all = Sse::open(&ann, &app.url(), Some(0)).drain(Duration::from_millis(800));
    let ids = |v: &[Frame]| v.iter().filter_map(|f| f.id).collect::<Vec<_>>();
    let after_cut: Vec<i64> = ids(&all).into_iter().filter(|n| *n > cut).collect();
    assert_eq!(ids(&resumed), after_cut);
    let before_cut: Vec<i64> = ids(&all).into_iter().filter(|n| *n <= cut).collect();
    // what ann saw live is what the log held up to then (the game's start came before
    // she connected)
    assert!(
        before_cut.ends_with(&ids(&first)),
        "{before_cut:?} {first:?}"
    );
    // the six moves and the chat are among them
    let moves = resumed
        .iter()
        .filter(|f| f.event == "game.move_made")
        .count();
    assert!(moves >= 6, "{moves} moves in {resumed:?}");
    let chat = resumed
        .iter()
        .find(|f| f.event == "game.chat")
        .expect("the chat message");
    assert_eq!(chat.data["data"]["text"], "hello");
    assert_eq!(chat.data["data"]["username"], "ben");
    // the stream's copy of a webhook message has no email parts
    for f in &resumed {
        assert_eq!(f.data["type"], json!(f.event));
        if f.event == "game.chat" {
            continue;
        }
        for k in ["html", "text", "recipient", "subject"] {
            assert!(f.data["data"].get(k).is_none(), "{k} in {f:?}");
        }
    }
    // a turn started for ann is among them too, as for her webhooks
    assert!(all.iter().any(|f| f.event == "game.turn_started"));
}

/// A stream carries the caller's events only: someone who is not at the game hears
/// nothing of it.
fn only_the_callers_events(app: &TestApp) {
    let ann = app.user("ann");
    let ben = app.user("ben");
    let cat = app.user("cat");
    let cat_sse = Sse::open(&cat, &app.url(), None);
    let id = start_game(&[&ann, &ben], Value::Null);
    play_first(&[&ann, &ben], &id, &app.url());
    ben.post(&format!("/v1/games/{id}/chat"), json!({"text": "hi"}))
        .ok();
    assert!(cat_sse.drain(Duration::from_millis(700)).is_empty());
    let all = Sse::open(&cat, &app.url(), Some(0)).drain(Duration::from_millis(500));
    assert!(all.is_empty(), "{all:?}");
}

crate::both!(
    a_move_through_another_process_arrives_within_a_second,
    a_reconnection_misses_nothing,
    only_the_callers_events,
);

/// Refusals: no token, a token without `game:read`, a `Last-Event-ID` that is no
/// number, too many streams of one user.
#[test]
fn refusals() {
    let app = TestApp::with(Db::Sqlite, |c| c.streams_per_user = 1);
    let ann = app.user("ann");
    app.anon().get("/v1/stream").problem(401, "unauthorized");
    let t = ann.post(
        "/v1/users/me/tokens",
        json!({"name": "mail only", "scopes": ["webhooks"]}),
    );
    assert_eq!(t.status, 201, "{}", t.text);
    let narrow = ann.with_token(t.json["token"].as_str().expect("token"));
    narrow.get("/v1/stream").problem(403, "insufficient-scope");
    ann.request("GET", "/v1/stream", None, &[("Last-Event-ID", "x")])
        .problem(400, "validation-failed");
    let _open = Sse::open(&ann, &app.url(), None);
    let again = ann.get("/v1/stream");
    again.problem(429, "rate-limited");
    assert!(again.header("retry-after").is_some());
}

/// An idle stream sends heartbeats, ends after its time, and a resumption from before
/// the oldest kept event says so.
#[test]
fn heartbeats_end_and_reset() {
    let app = TestApp::with(Db::Sqlite, |c| {
        c.stream_heartbeat_ms = 100;
        c.stream_max_secs = 1;
        // the clock moves past the retention
        c.token_ttl_secs = 400 * 86_400;
    });
    let ann = app.user("ann");
    let s = Sse::open(&ann, &app.url(), None);
    let f = s
        .until(Duration::from_secs(2), |f| f.event == "comment")
        .expect("a heartbeat");
    assert_eq!(f.data, "heartbeat");
    // the server ends the stream after a second: the reader's channel closes
    let t = Instant::now();
    while s.next(Duration::from_secs(3)).is_some() {
        assert!(t.elapsed() < Duration::from_secs(3), "the stream goes on");
    }
    // events pruned: a resumption from before them hears `stream.reset`
    let ben = app.user("ben");
    let id = start_game(&[&ann, &ben], Value::Null);
    play_first(&[&ann, &ben], &id, &app.url());
    let all = Sse::open(&ann, &app.url(), Some(0)).drain(Duration::from_millis(300));
    let bens = Sse::open(&ben, &app.url(), Some(0)).drain(Duration::from_millis(300));
    // the newest event of all (ann and ben are the only users with any)
    let newest = all
        .iter()
        .chain(&bens)
        .filter_map(|f| f.id)
        .max()
        .expect("events");
    app.clock.advance_ms(200 * 3_600_000);
    let runtime = actix_web::rt::System::new();
    let pruned = runtime
        .block_on(
            app.server
                .state
                .store
                .prune_stream(app.clock.now_ms(), 10_000),
        )
        .expect("prune");
    assert_eq!(pruned, all.len() + bens.len());
    let r = Sse::open(&ann, &app.url(), Some(0));
    let f = r
        .until(Duration::from_secs(1), |f| f.event == "stream.reset")
        .expect("a reset");
    assert_eq!(f.id, None);
    // a client that had seen everything there was has nothing to reload
    let r = Sse::open(&ann, &app.url(), Some(newest));
    assert!(r
        .until(Duration::from_millis(500), |f| f.event == "stream.reset")
        .is_none());
}
