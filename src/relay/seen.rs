//! The relay's bounded memory of what it has seen: the exact signed requests of the
//! tolerance window (a request seen twice is a replay), the ids whose email the SMTP
//! server accepted (a later delivery of one of them sends nothing), and the ids being
//! sent right now.

use std::collections::{HashSet, VecDeque};

/// What to do with a verified request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admit {
    /// Send it (the id is now in flight until [`Seen::finish`]).
    Send,
    /// This exact signed request (id and timestamp) was seen before: a replay.
    Replayed,
    /// The email of this id was already accepted by the SMTP server.
    AlreadySent,
    /// Another request with this id is being sent right now.
    InFlight,
}

/// A bounded record: at most `capacity` requests and `capacity` sent ids, the oldest
/// forgotten first.
#[derive(Debug)]
pub struct Seen {
    capacity: usize,
    requests: VecDeque<(String, i64)>,
    request_set: HashSet<(String, i64)>,
    sent: VecDeque<String>,
    sent_set: HashSet<String>,
    in_flight: HashSet<String>,
}

impl Seen {
    pub fn new(capacity: usize) -> Seen {
        Seen {
            capacity: capacity.max(1),
            requests: VecDeque::new(),
            request_set: HashSet::new(),
            sent: VecDeque::new(),
            sent_set: HashSet::new(),
            in_flight: HashSet::new(),
        }
    }

    /// Decides about a request whose signature and timestamp were checked; `oldest` is
    /// the oldest timestamp still inside the tolerance window (older requests are
    /// refused before they get here, so their record can go).
    pub fn admit(&mut self, id: &str, timestamp: i64, oldest: i64) -> Admit {
        while self.requests.front().is_some_and(|(_, t)| *t < oldest) {
            if let Some(k) = self.requests.pop_front() {
                self.request_set.remove(&k);
            }
        }
        let key = (id.to_string(), timestamp);
        if self.request_set.contains(&key) {
            return Admit::Replayed;
        }
        if self.requests.len() >= self.capacity {
            if let Some(k) = self.requests.pop_front() {
                self.request_set.remove(&k);
            }
        }
        self.request_set.insert(key.clone());
        self.requests.push_back(key);
        if self.sent_set.contains(id) {
            Admit::AlreadySent
        } else if !self.in_flight.insert(id.to_string()) {
            Admit::InFlight
        } else {
            Admit::Send
        }
    }

    /// Ends the sending of `id`; `sent` when the SMTP server accepted it.
    pub fn finish(&mut self, id: &str, sent: bool) {
        self.in_flight.remove(id);
        if sent && self.sent_set.insert(id.to_string()) {
            self.sent.push_back(id.to_string());
            if self.sent.len() > self.capacity {
                if let Some(old) = self.sent.pop_front() {
                    self.sent_set.remove(&old);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_duplicates_and_retries() {
        let mut s = Seen::new(3);
        assert_eq!(s.admit("a", 100, 0), Admit::Send);
        // a second delivery while the first is being sent
        assert_eq!(s.admit("a", 101, 0), Admit::InFlight);
        // the SMTP server refused it for now: a retry (new timestamp) is sent again
        s.finish("a", false);
        assert_eq!(s.admit("a", 130, 0), Admit::Send);
        s.finish("a", true);
        // the same signed request again is a replay; a new delivery of a sent id is not
        // sent again
        assert_eq!(s.admit("a", 130, 0), Admit::Replayed);
        assert_eq!(s.admit("a", 200, 0), Admit::AlreadySent);
    }

    #[test]
    fn bounded() {
        let mut s = Seen::new(2);
        for (i, id) in ["a", "b", "c"].iter().enumerate() {
            assert_eq!(s.admit(id, i as i64, 0), Admit::Send);
            s.finish(id, true);
        }
        assert!(s.requests.len() <= 2 && s.sent.len() <= 2);
        // "a" was forgotten, the newer ones are not
        assert_eq!(s.admit("a", 10, 0), Admit::Send);
        assert_eq!(s.admit("c", 11, 0), Admit::AlreadySent);
        // requests older than the window are forgotten
        let mut s = Seen::new(10);
        assert_eq!(s.admit("x", 5, 0), Admit::Send);
        s.finish("x", false);
        assert_eq!(s.admit("y", 400, 100), Admit::Send);
        assert_eq!(s.requests.len(), 1);
    }
}
