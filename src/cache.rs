//! An in-process cache of replayed games, keyed by (game id, version).
//!
//! The event log is append-only and the version is the seq of its last event, so the
//! game replayed from the first `version` events of a game never changes: an entry can
//! only save work, never change an answer. Nothing is shared between processes; a
//! replica that misses replays the log like any other read. One entry per game (the
//! newest version seen), at most `capacity` games, the least recently used goes first.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tilepost_engine::Game;

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
    used: u64,
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
        if self.capacity == 0 {
            return None;
        }
        let mut inner = self.lock();
        inner.tick += 1;
        let tick = inner.tick;
        let found = match inner.map.get_mut(id) {
            Some(e) if e.version == version => {
                e.used = tick;
                Some(e.game.clone())
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
        if self.capacity == 0 {
            return;
        }
        let mut inner = self.lock();
        inner.tick += 1;
        let tick = inner.tick;
        if let Some(e) = inner.map.get_mut(id) {
            if e.version <= version {
                *e = Entry {
                    version,
                    game,
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
