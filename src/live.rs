//! The live stream's fan-out in one process. The database is the only source: every
//! process reads the numbered events of `stream_events` (see `crate::store`) and hands
//! them to its own connected clients, so a move recorded by any process reaches a client
//! of any other.
//!
//! One reader per process ([`run_reader`]) follows the table in number order: every
//! `TILEPOST_STREAM_POLL_MS`, or at once when a write of this process wakes it
//! ([`Notifier::wake`]). It
//! publishes batches with the number they reach (the *horizon*: every event up to it has
//! been published). On Postgres a number is taken at insert and seen at commit, so 12
//! may be visible before 11; the reader then holds back until 11 appears, or until
//! `TILEPOST_STREAM_GAP_MS` has passed (a number a rolled-back transaction took never
//! appears). So events are published in number order, and a client that read up to `n`
//! has missed nothing numbered up to `n` (see `crate::api::stream`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::broadcast;

use crate::config::Config;
use crate::notify::Notifier;
use crate::store::{Store, StreamEvent};

/// Events read per query.
const PAGE: i64 = 500;
/// How often the reader looks again while it waits for a gap to fill.
const GAP_POLL: Duration = Duration::from_millis(20);

/// Events published together, and the horizon they reach.
#[derive(Debug)]
pub struct Batch {
    pub upto: i64,
    pub events: Vec<StreamEvent>,
}

/// Why a stream cannot open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// The user holds `TILEPOST_STREAMS_PER_USER` streams in this process.
    User,
    /// The process holds `TILEPOST_STREAMS` streams.
    Process,
}

/// The hub: the published horizon, the channel of batches and the open streams.
pub struct Live {
    horizon: AtomicI64,
    tx: broadcast::Sender<Arc<Batch>>,
    open: Mutex<HashMap<String, usize>>,
    per_user: usize,
    total: usize,
}

impl Live {
    /// A hub whose horizon starts at `head` (the newest event when the process starts:
    /// a client resuming from before it reads the older ones from the database).
    pub fn new(head: i64, config: &Config) -> Live {
        let (tx, _) = broadcast::channel(256);
        Live {
            horizon: AtomicI64::new(head),
            tx,
            open: Mutex::new(HashMap::new()),
            per_user: config.streams_per_user.max(1),
            total: config.streams_total.max(1),
        }
    }

    /// Every event numbered up to this has been published.
    pub fn horizon(&self) -> i64 {
        self.horizon.load(Ordering::Acquire)
    }

    /// Batches published from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Batch>> {
        self.tx.subscribe()
    }

    /// Takes a stream's place for `user_id`; the place is given back when the slot drops.
    pub fn open(self: &Arc<Live>, user_id: &str) -> Result<Slot, Full> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let all: usize = open.values().sum();
        if all >= self.total {
            return Err(Full::Process);
        }
        let n = open.entry(user_id.to_string()).or_insert(0);
        if *n >= self.per_user {
            return Err(Full::User);
        }
        *n += 1;
        Ok(Slot {
            live: self.clone(),
            user_id: user_id.to_string(),
        })
    }

    /// Open streams in this process.
    pub fn open_streams(&self) -> usize {
        self.open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .sum()
    }

    fn publish(&self, batch: Batch) {
        self.horizon.store(batch.upto, Ordering::Release);
        // no receiver is not an error: nobody is connected
        let _ = self.tx.send(Arc::new(batch));
    }
}

/// One open stream's place (see [`Live::open`]).
pub struct Slot {
    live: Arc<Live>,
    user_id: String,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.live.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.user_id) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.user_id);
            }
        }
    }
}

/// Where the reader stands: the horizon, and the first missing number it is waiting for
/// with the moment it noticed it.
#[derive(Debug, Default)]
struct Follow {
    cursor: i64,
    gap: Option<(i64, Instant)>,
}

impl Follow {
    /// Takes the events (in number order, all above the cursor) that can be published
    /// now: up to the first gap younger than `wait`. Returns them; the cursor moves to
    /// the last one.
    fn take(&mut self, rows: Vec<StreamEvent>, now: Instant, wait: Duration) -> Vec<StreamEvent> {
        let mut out = Vec::new();
        for e in rows {
            let expected = self.cursor + 1;
            if e.id != expected {
                match self.gap {
                    Some((g, since)) if g == expected => {
                        if now.duration_since(since) < wait {
                            break;
                        }
                        // given up: the numbers up to this one never appeared
                    }
                    _ => {
                        self.gap = Some((expected, now));
                        break;
                    }
                }
            }
            self.gap = None;
            self.cursor = e.id;
            out.push(e);
        }
        out
    }
}

/// Follows the table and publishes what it reads, until the runtime stops.
pub async fn run_reader(
    store: Store,
    live: Arc<Live>,
    config: Arc<Config>,
    notifier: Arc<Notifier>,
) {
    let poll = Duration::from_millis(config.stream_poll_ms.max(1));
    let wait = Duration::from_millis(config.stream_gap_ms);
    let mut follow = Follow {
        cursor: live.horizon(),
        gap: None,
    };
    loop {
        let rows = match store.stream_after(follow.cursor, PAGE).await {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(error = %e, "live stream: reading events failed");
                tokio::time::sleep(poll).await;
                continue;
            }
        };
        let full = rows.len() as i64 == PAGE;
        let events = follow.take(rows, Instant::now(), wait);
        if !events.is_empty() {
            live.publish(Batch {
                upto: follow.cursor,
                events,
            });
        }
        if follow.gap.is_some() {
            tokio::time::sleep(GAP_POLL).await;
        } else if !full {
            tokio::select! {
                _ = notifier.stream_wake.notified() => {}
                _ = tokio::time::sleep(poll) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(id: i64) -> StreamEvent {
        StreamEvent {
            id,
            user_id: "u".into(),
            kind: "game.move_made".into(),
            game_id: None,
            payload: "{}".into(),
            created_at: 0,
        }
    }

    fn ids(v: &[StreamEvent]) -> Vec<i64> {
        v.iter().map(|e| e.id).collect()
    }

    #[test]
    fn events_in_order_pass_at_once() {
        let mut f = Follow::default();
        let t = Instant::now();
        let out = f.take(vec![ev(1), ev(2), ev(3)], t, Duration::from_secs(1));
        assert_eq!(ids(&out), [1, 2, 3]);
        assert_eq!(f.cursor, 3);
        assert!(f.gap.is_none());
    }

    #[test]
    fn a_gap_holds_back_until_it_fills() {
        let mut f = Follow::default();
        let t = Instant::now();
        let wait = Duration::from_secs(1);
        let out = f.take(vec![ev(1), ev(3)], t, wait);
        assert_eq!(ids(&out), [1]);
        assert_eq!(f.gap.map(|g| g.0), Some(2));
        // still missing, not long enough
        let out = f.take(vec![ev(3)], t + Duration::from_millis(500), wait);
        assert!(out.is_empty());
        // 2 committed meanwhile
        let out = f.take(vec![ev(2), ev(3)], t + Duration::from_millis(600), wait);
        assert_eq!(ids(&out), [2, 3]);
        assert!(f.gap.is_none());
    }

    #[test]
    fn a_gap_that_never_fills_is_passed_after_the_wait() {
        let mut f = Follow {
            cursor: 10,
            gap: None,
        };
        let t = Instant::now();
        let wait = Duration::from_secs(1);
        assert!(f.take(vec![ev(12), ev(13)], t, wait).is_empty());
        let out = f.take(vec![ev(12), ev(13), ev(15)], t + wait, wait);
        // 11 is given up; 14 is a new gap, noticed now
        assert_eq!(ids(&out), [12, 13]);
        assert_eq!(f.gap.map(|g| g.0), Some(14));
    }

    #[test]
    fn slots_are_counted_per_user_and_given_back() {
        let c = Config {
            streams_per_user: 2,
            streams_total: 3,
            ..Config::default()
        };
        let live = Arc::new(Live::new(0, &c));
        let a1 = live.open("a");
        let a2 = live.open("a");
        assert!(a1.is_ok() && a2.is_ok());
        assert_eq!(live.open("a").err(), Some(Full::User));
        let b = live.open("b");
        assert!(b.is_ok());
        assert_eq!(live.open("c").err(), Some(Full::Process));
        drop(a1);
        assert!(live.open("c").is_ok());
        assert_eq!(live.open_streams(), 2);
    }
}
