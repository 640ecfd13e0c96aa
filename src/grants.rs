//! An in-process cache of token lookups (what the database said about a token: whose it
//! is, what it may do), kept for a short time so that a busy client does not cost a
//! database read per request.
//!
//! Correctness across processes: the database is the truth. A process that revokes a
//! token forgets it here at once (and every token of a user when it revokes them all);
//! another process keeps accepting a token it read before the revocation for at most the
//! cache's time to live (`TILEPOST_TOKEN_CACHE_MS`, default 2 s; 0 turns it off).
//! Only found tokens are kept: an unknown or revoked token is asked of the database
//! every time. A lookup that raced a revocation in this process is not kept (a
//! generation counter tells).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// See the module documentation.
pub struct GrantCache<V> {
    ttl: Duration,
    capacity: usize,
    inner: Mutex<Inner<V>>,
}

struct Inner<V> {
    map: HashMap<String, Entry<V>>,
    /// Bumped by every revocation: a lookup started before one is not kept.
    generation: u64,
}

struct Entry<V> {
    token_id: String,
    user_id: String,
    value: V,
    at: Instant,
}

/// Where a lookup started (see [`GrantCache::put`]).
#[derive(Clone, Copy, Debug)]
pub struct Generation(u64);

impl<V: Clone> GrantCache<V> {
    /// Entries live `ttl`; at most `capacity` of them.
    pub fn new(ttl: Duration, capacity: usize) -> GrantCache<V> {
        GrantCache {
            ttl,
            capacity,
            inner: Mutex::new(Inner {
                map: HashMap::new(),
                generation: 0,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner<V>> {
        // every update is a single insert, remove or retain: a poisoned lock is usable
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The value kept for `key`, when it is younger than the time to live.
    pub fn get(&self, key: &str) -> Option<V> {
        if self.ttl.is_zero() {
            return None;
        }
        let inner = self.lock();
        inner
            .map
            .get(key)
            .filter(|e| e.at.elapsed() < self.ttl)
            .map(|e| e.value.clone())
    }

    /// The generation to pass to [`GrantCache::put`] with the result of a lookup that
    /// starts now.
    pub fn generation(&self) -> Generation {
        Generation(self.lock().generation)
    }

    /// Keeps what a lookup started at `since` found, unless a revocation came between.
    pub fn put(&self, since: Generation, key: &str, token_id: &str, user_id: &str, value: V) {
        if self.ttl.is_zero() || self.capacity == 0 {
            return;
        }
        let mut inner = self.lock();
        if inner.generation != since.0 {
            return;
        }
        if inner.map.len() >= self.capacity {
            let ttl = self.ttl;
            inner.map.retain(|_, e| e.at.elapsed() < ttl);
            if inner.map.len() >= self.capacity {
                inner.map.clear();
            }
        }
        inner.map.insert(
            key.to_string(),
            Entry {
                token_id: token_id.to_string(),
                user_id: user_id.to_string(),
                value,
                at: Instant::now(),
            },
        );
    }

    /// Forgets token `token_id` (revoked in this process).
    pub fn forget_token(&self, token_id: &str) {
        let mut inner = self.lock();
        inner.generation += 1;
        inner.map.retain(|_, e| e.token_id != token_id);
    }

    /// Forgets every token of `user_id` (all or many of them were revoked).
    pub fn forget_user(&self, user_id: &str) {
        let mut inner = self.lock();
        inner.generation += 1;
        inner.map.retain(|_, e| e.user_id != user_id);
    }

    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_expire_and_revocations_forget_them() {
        let c = GrantCache::new(Duration::from_millis(200), 10);
        let g = c.generation();
        c.put(g, "k1", "t1", "u1", 1);
        c.put(g, "k2", "t2", "u1", 2);
        c.put(g, "k3", "t3", "u2", 3);
        assert_eq!(c.get("k1"), Some(1));
        c.forget_token("t1");
        assert_eq!(c.get("k1"), None);
        assert_eq!(c.get("k2"), Some(2));
        c.forget_user("u1");
        assert_eq!(c.get("k2"), None);
        assert_eq!(c.get("k3"), Some(3));
        std::thread::sleep(Duration::from_millis(250));
        assert_eq!(c.get("k3"), None);
    }

    #[test]
    fn a_lookup_that_raced_a_revocation_is_not_kept() {
        let c = GrantCache::new(Duration::from_secs(5), 10);
        let before = c.generation();
        c.forget_token("t1");
        c.put(before, "k1", "t1", "u1", 1);
        assert_eq!(c.get("k1"), None);
        let now = c.generation();
        c.put(now, "k1", "t1", "u1", 1);
        assert_eq!(c.get("k1"), Some(1));
    }

    #[test]
    fn the_capacity_bounds_it_and_zero_ttl_turns_it_off() {
        let c = GrantCache::new(Duration::from_secs(5), 2);
        let g = c.generation();
        for i in 0..5 {
            c.put(g, &format!("k{i}"), "t", "u", i);
        }
        assert!(c.len() <= 2);
        let off = GrantCache::new(Duration::ZERO, 2);
        off.put(off.generation(), "k", "t", "u", 1);
        assert_eq!(off.get("k"), None);
    }
}
