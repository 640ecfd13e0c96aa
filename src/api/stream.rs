//! `GET /v1/stream`: the signed-in user's events as Server-Sent Events, live.
//!
//! Each event is one row of the stream table (see `crate::store`): its number is the SSE
//! `id`, its type the SSE `event`, its JSON body (`{type, timestamp, data}`, the
//! webhook's body without the email's parts) the `data`. A client that reconnects with
//! `Last-Event-ID: n` first gets, from the database, every event of theirs numbered
//! above `n` up to the process's horizon, then the live ones (see `crate::live`); so it
//! misses nothing, whichever process it reconnects to. A comment line every
//! `TILEPOST_STREAM_HEARTBEAT_MS` keeps an idle connection open; the server ends a
//! stream after `TILEPOST_STREAM_MAX_SECS` (the client reconnects, and its token is
//! checked again).

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use actix_web::web::Bytes;
use actix_web::{get, web, HttpRequest, HttpResponse};
use tokio::sync::broadcast::error::RecvError;

use super::dto::StreamFrame;
use super::error::ApiError;
use super::extract::CurrentUser;
use super::AppState;
use crate::live::{Batch, Full, Live, Slot};
use crate::store::{Store, StreamEvent};

/// Events of one user read from the database per query.
const PAGE: i64 = 200;
/// What a client waits before it reconnects (the SSE `retry` field).
const RETRY_MS: u64 = 3_000;

/// The `Last-Event-ID` header: a number the stream gave, or absent.
fn last_event_id(req: &HttpRequest) -> Result<Option<i64>, ApiError> {
    let Some(v) = req.headers().get("last-event-id") else {
        return Ok(None);
    };
    let s = v.to_str().unwrap_or_default().trim();
    match s.parse::<i64>() {
        Ok(n) if n >= 0 && s.len() <= 18 => Ok(Some(n)),
        _ => Err(ApiError::validation(
            "Last-Event-ID",
            "must be the id of an event of this stream (a number)",
        )),
    }
}

/// The live events of the signed-in user (Server-Sent Events)
///
/// Every event type of the webhooks (`game.turn_started`, `game.invited`,
/// `game.started`, `game.finished`, `game.deadline_near`, `game.timed_out`,
/// `game.plan_played`, `game.digest`, `tournament.invited`, `tournament.round_started`,
/// `tournament.eliminated`, `tournament.stage_ended`, `tournament.finished`,
/// `tournament.paused`, `tournament.resumed`) with the
/// webhook's body without the email's parts,
/// and two that only a connected client wants: `game.move_made` (any player's decision
/// in one of the caller's games: `data` has `game_id`, `version`, `player`, `status`)
/// and `game.chat` (a chat message in one of the caller's games). Each event carries its
/// number as the SSE `id`; send it back as `Last-Event-ID` when reconnecting to get
/// every event since, from any server process. A comment line (`: heartbeat`) comes
/// every 15 s by default; the server ends a stream after an hour by default, and the
/// client reconnects. `stream.reset` (no `id`) says that events after `Last-Event-ID`
/// are no longer kept (a week by default): reload what you show.
#[utoipa::path(
    operation_id = "get_stream",
    tag = "notifications",
    security(("bearer" = ["game:read"])),
    params(
        ("Last-Event-ID" = Option<String>, Header, pattern = "^[0-9]{1,18}$",
         description = "The `id` of the last event received: the stream starts after it"),
    ),
    responses(
        (status = 200, description = "The stream (`text/event-stream`): `id`, `event` and `data` lines per event, comment lines as heartbeats", body = StreamFrame, content_type = "text/event-stream"),
    )
)]
#[get("/stream")]
pub async fn get_stream(
    st: web::Data<AppState>,
    me: CurrentUser,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let last = last_event_id(&req)?;
    let live = st.live.clone();
    let slot = live.open(&me.id).map_err(|f| match f {
        Full::User => ApiError::rate_limited(
            format!(
                "at most {} open streams per user; close one first",
                st.config.streams_per_user
            ),
            (RETRY_MS / 1000) as i64,
        ),
        Full::Process => ApiError::unavailable("this server holds as many streams as it can"),
    })?;
    // subscribe before reading the horizon: every batch past it reaches the receiver
    let rx = live.subscribe();
    let horizon = live.horizon();
    let mut first = format!("retry: {RETRY_MS}\n\n: ready\n\n");
    let (cursor, backlog_upto) = match last {
        None => (horizon, horizon),
        Some(n) => {
            let oldest = st.store.stream_oldest().await?;
            if n < oldest.unwrap_or(horizon + 1) - 1 {
                first.push_str(&reset_frame(st.clock.now_ms()));
            }
            // a number past the newest event (a database restored from a backup) starts
            // from the newest
            let n = n.min(st.store.stream_head().await?);
            (n, horizon)
        }
    };
    let heartbeat = Duration::from_millis(st.config.stream_heartbeat_ms);
    let conn = Conn {
        store: st.store.clone(),
        live,
        user_id: me.id,
        rx,
        last: cursor,
        backlog_upto,
        queue: VecDeque::from([Bytes::from(first)]),
        heartbeat: tokio::time::interval_at(tokio::time::Instant::now() + heartbeat, heartbeat),
        ends: tokio::time::Instant::now() + Duration::from_secs(st.config.stream_max_secs),
        done: false,
        _slot: slot,
    };
    let body = futures_util::stream::unfold(conn, |mut c| async move {
        c.next().await.map(|b| (Ok::<_, actix_web::Error>(b), c))
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(("cache-control", "no-cache"))
        .insert_header(("x-accel-buffering", "no"))
        .streaming(body))
}

fn reset_frame(now: i64) -> String {
    let body = serde_json::json!({
        "type": "stream.reset",
        "timestamp": crate::clock::rfc3339(now),
        "data": {},
    });
    format!("event: stream.reset\ndata: {body}\n\n")
}

fn frame(e: &StreamEvent) -> Bytes {
    // the payload is one line of JSON; a line break inside would end the field
    let data = e.payload.replace(['\r', '\n'], " ");
    Bytes::from(format!("id: {}\nevent: {}\ndata: {data}\n\n", e.id, e.kind))
}

/// One open stream.
struct Conn {
    store: Store,
    live: Arc<Live>,
    user_id: String,
    rx: tokio::sync::broadcast::Receiver<Arc<Batch>>,
    /// Every event of the user numbered up to this has been queued.
    last: i64,
    /// The database holds events up to this that were not queued yet (a resumption, or
    /// batches missed while the client was slow).
    backlog_upto: i64,
    queue: VecDeque<Bytes>,
    heartbeat: tokio::time::Interval,
    ends: tokio::time::Instant,
    done: bool,
    _slot: Slot,
}

impl Conn {
    async fn next(&mut self) -> Option<Bytes> {
        loop {
            if let Some(b) = self.queue.pop_front() {
                return Some(b);
            }
            if self.done || tokio::time::Instant::now() >= self.ends {
                return None;
            }
            if self.last < self.backlog_upto {
                match self
                    .store
                    .stream_of_user(self.user_id.clone(), self.last, self.backlog_upto, PAGE)
                    .await
                {
                    Ok(rows) => {
                        if (rows.len() as i64) < PAGE {
                            self.last = self.backlog_upto;
                        }
                        for r in &rows {
                            self.queue.push_back(frame(r));
                            self.last = self.last.max(r.id);
                        }
                    }
                    Err(e) => {
                        // the client reconnects from what it got
                        tracing::warn!(error = %e, "live stream: reading a backlog failed");
                        self.done = true;
                    }
                }
                continue;
            }
            tokio::select! {
                r = self.rx.recv() => match r {
                    Ok(batch) => {
                        for e in batch.events.iter() {
                            if e.id > self.last && e.user_id == self.user_id {
                                self.queue.push_back(frame(e));
                            }
                        }
                        self.last = self.last.max(batch.upto);
                    }
                    // the client fell behind the channel: read what it missed from the
                    // database
                    Err(RecvError::Lagged(_)) => self.backlog_upto = self.live.horizon(),
                    Err(RecvError::Closed) => self.done = true,
                },
                _ = self.heartbeat.tick() => {
                    self.queue.push_back(Bytes::from_static(b": heartbeat\n\n"));
                }
                _ = tokio::time::sleep_until(self.ends) => self.done = true,
            }
        }
    }
}

crate::api::problem::problems! {
    "get_stream" {
        400 => ("`Last-Event-ID` is not an event id (" [ValidationFailed] ")"),
        403 => ("The token lacks `game:read` (" [InsufficientScope] ")"),
        429 => ("The caller has as many open streams as allowed (" [RateLimited] ")"),
        503 => ("The server holds as many streams as it can (" [ServiceUnavailable] ")"),
    }
}
