//! An in-process cache of replayed games, keyed by (game id, version).
//!
//! The event log is append-only and the version is the seq of its last event, so the
//! game replayed from the first `version` events of a game never changes: an entry can
//! only save work, never change an answer. Nothing is shared between processes; a
//! replica that misses replays the log like any other read. One entry per game (the
//! newest version seen), at most `capacity` games, the least recently used goes first.
//!
//! An entry the decision service wrote also keeps the end of the log with its effects
//! ([`RecentLog`]), as much as the next decider's notification reads ("since your last
//! turn"), so that the next decision reads no log.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tilepost_engine::{Effect, Event, Game};

/// See the module documentation.
pub struct ReplayCache {
    capacity: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    map: HashMap<String, Entry>,
    tick: u64,
    hits: u64,
    misses: u64,
}

struct Entry {
    version: i64,
    game: Arc<Game>,
    recent: Option<Arc<RecentLog>>,
    used: u64,
}

/// The last events of a game's log up to an entry's version, each with the effects the
/// engine derived for it (`effects[i]` belongs to `events[i]`).
#[derive(Clone, Debug, Default)]
pub struct RecentLog {
    pub events: Vec<Event>,
    pub effects: Vec<Vec<Effect>>,
}

impl ReplayCache {
    /// A cache of at most `capacity` games; 0 turns it off.
    pub fn new(capacity: usize) -> ReplayCache {
        ReplayCache {
            capacity,
            inner: Mutex::new(Inner::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // a panic while holding the lock cannot leave an entry half-written (every
        // update is a single insert or remove), so a poisoned lock is still usable
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The game `id` replayed up to `version`, when it is cached.
    pub fn get(&self, id: &str, version: i64) -> Option<Arc<Game>> {
        self.get_with_recent(id, version).map(|(g, _)| g)
    }

    /// [`ReplayCache::get`], with the end of the log when the entry keeps it.
    pub fn get_with_recent(
        &self,
        id: &str,
        version: i64,
    ) -> Option<(Arc<Game>, Option<Arc<RecentLog>>)> {
        if self.capacity == 0 {
            return None;
        }
        let mut inner = self.lock();
        inner.tick += 1;
        let tick = inner.tick;
        let found = match inner.map.get_mut(id) {
            Some(e) if e.version == version => {
                e.used = tick;
                Some((e.game.clone(), e.recent.clone()))
            }
            _ => None,
        };
        if found.is_some() {
            inner.hits += 1;
        } else {
            inner.misses += 1;
        }
        found
    }

    /// Keeps `game`, the game `id` replayed up to `version` (an older version of the
    /// same game is replaced; a newer one is kept).
    pub fn put(&self, id: &str, version: i64, game: Arc<Game>) {
        self.put_with_recent(id, version, game, None)
    }

    /// [`ReplayCache::put`] with the end of the log up to `version` (`None`: the entry
    /// keeps what it had for this version).
    pub fn put_with_recent(
        &self,
        id: &str,
        version: i64,
        game: Arc<Game>,
        recent: Option<Arc<RecentLog>>,
    ) {
        if self.capacity == 0 {
            return;
        }
        let mut inner = self.lock();
        inner.tick += 1;
        let tick = inner.tick;
        if let Some(e) = inner.map.get_mut(id) {
            if e.version <= version {
                let recent = match recent {
                    None if e.version == version => e.recent.take(),
                    other => other,
                };
                *e = Entry {
                    version,
                    game,
                    recent,
                    used: tick,
                };
            }
            return;
        }
        if inner.map.len() >= self.capacity {
            let oldest = inner
                .map
                .iter()
                .min_by_key(|(_, e)| e.used)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                inner.map.remove(&k);
            }
        }
        inner.map.insert(
            id.to_string(),
            Entry {
                version,
                game,
                recent,
                used: tick,
            },
        );
    }

    /// (hits, misses, entries) since start.
    pub fn stats(&self) -> (u64, u64, usize) {
        let inner = self.lock();
        (inner.hits, inner.misses, inner.map.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tilepost_engine::GameConfig;

    fn game() -> Arc<Game> {
        let cfg = GameConfig {
            players: 2,
            expansions: Vec::new(),
            tile_order: None,
            seed: 7,
            rules: Default::default(),
        };
        Arc::new(Game::new(&cfg).expect("a valid set-up").0)
    }

    #[test]
    fn a_hit_needs_the_same_version() {
        let c = ReplayCache::new(4);
        c.put("g", 3, game());
        assert!(c.get("g", 3).is_some());
        assert!(c.get("g", 4).is_none());
        assert!(c.get("h", 3).is_none());
        c.put("g", 5, game());
        assert!(c.get("g", 3).is_none());
        assert!(c.get("g", 5).is_some());
        // an older version never replaces a newer one
        c.put("g", 4, game());
        assert!(c.get("g", 5).is_some());
        assert_eq!(c.stats(), (3, 3, 1));
    }

    #[test]
    fn the_end_of_the_log_stays_with_its_version() {
        let c = ReplayCache::new(4);
        let recent = Arc::new(RecentLog::default());
        c.put_with_recent("g", 3, game(), Some(recent));
        assert!(c.get_with_recent("g", 3).is_some_and(|(_, r)| r.is_some()));
        // a read that replayed the same version keeps it
        c.put("g", 3, game());
        assert!(c.get_with_recent("g", 3).is_some_and(|(_, r)| r.is_some()));
        // a newer version without one has none
        c.put("g", 4, game());
        assert!(c.get_with_recent("g", 4).is_some_and(|(_, r)| r.is_none()));
    }

    #[test]
    fn the_least_recently_used_goes_first() {
        let c = ReplayCache::new(2);
        c.put("a", 1, game());
        c.put("b", 1, game());
        assert!(c.get("a", 1).is_some());
        c.put("c", 1, game());
        assert!(c.get("a", 1).is_some());
        assert!(c.get("b", 1).is_none());
        assert!(c.get("c", 1).is_some());
    }

    #[test]
    fn capacity_zero_turns_it_off() {
        let c = ReplayCache::new(0);
        c.put("a", 1, game());
        assert!(c.get("a", 1).is_none());
    }
}
