//! The relay's bounded memory of what it has seen: the exact signed requests of the
//! tolerance window (a request seen twice is a replay), the ids whose email the SMTP
//! server accepted (a later delivery of one of them sends nothing), and the ids being
//! sent right now.
//!
//! With a state directory (`TILEPOST_RELAY_STATE_DIR`) the record survives restarts: every
//! request admitted and every id sent is appended to `seen.log` there (and synced) before
//! the relay answers, read back at start-up, and the file is rewritten with only what is
//! still remembered (requests inside the tolerance window, the newest sent ids) when it
//! grows past twice that. The file is locked: one relay per directory.

use std::collections::{HashSet, VecDeque};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

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
    /// The request could not be written to the state file: refused for now (a later
    /// retry is admitted once the file can be written).
    Unrecorded,
}

/// The file of a persistent record.
pub const FILE_NAME: &str = "seen.log";

/// The append-only file of a persistent record: lines `r <timestamp> <id>` (a request
/// seen) and `s <id>` (an id sent). Ids are checked to hold no spaces before they get here.
#[derive(Debug)]
struct Journal {
    path: PathBuf,
    file: File,
    lines: usize,
}

impl Journal {
    fn append(&mut self, line: &str) -> std::io::Result<()> {
        self.file.write_all(format!("{line}\n").as_bytes())?;
        self.file.sync_data()?;
        self.lines += 1;
        Ok(())
    }
}

fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 200 && !id.contains(char::is_whitespace)
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
    journal: Option<Journal>,
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
            journal: None,
        }
    }

    /// A record kept in `dir/seen.log` (the directory is created if need be): what the
    /// file remembers is read back (requests older than `oldest` are dropped), the file is
    /// rewritten with only that, and locked for this process.
    pub fn open(dir: &Path, capacity: usize, oldest: i64) -> std::io::Result<Seen> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join(FILE_NAME);
        let mut s = Seen::new(capacity);
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)?;
        file.try_lock().map_err(|e| {
            std::io::Error::other(format!(
                "{} is in use by another relay ({e})",
                path.display()
            ))
        })?;
        let mut text = String::new();
        (&file).read_to_string(&mut text)?;
        // only whole lines: a last line without its end was cut short by a crash
        for line in text
            .split_inclusive('\n')
            .filter_map(|l| l.strip_suffix('\n'))
        {
            let mut parts = line.splitn(3, ' ');
            match (parts.next(), parts.next(), parts.next()) {
                (Some("r"), Some(ts), Some(id)) if valid_id(id) => {
                    if let Ok(ts) = ts.parse::<i64>() {
                        if ts >= oldest {
                            s.remember_request(id.to_string(), ts);
                        }
                    }
                }
                (Some("s"), Some(id), None) if valid_id(id) => s.remember_sent(id),
                // garbage: skipped
                _ => {}
            }
        }
        s.journal = Some(Journal {
            path,
            file,
            lines: 0,
        });
        s.compact()?;
        Ok(s)
    }

    /// Rewrites the state file with what is remembered now (a new file renamed over the
    /// old one, so a crash leaves one or the other whole).
    fn compact(&mut self) -> std::io::Result<()> {
        let Some(j) = &self.journal else {
            return Ok(());
        };
        let tmp = j.path.with_extension("log.new");
        let mut out = String::new();
        for (id, ts) in &self.requests {
            out.push_str(&format!("r {ts} {id}\n"));
        }
        for id in &self.sent {
            out.push_str(&format!("s {id}\n"));
        }
        let mut f = File::create(&tmp)?;
        f.write_all(out.as_bytes())?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, &j.path)?;
        if let Some(dir) = j.path.parent() {
            // the rename itself survives a crash
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        let file = OpenOptions::new().read(true).append(true).open(&j.path)?;
        file.try_lock()
            .map_err(|e| std::io::Error::other(format!("{}: {e}", j.path.display())))?;
        let lines = self.requests.len() + self.sent.len();
        self.journal = Some(Journal {
            path: j.path.clone(),
            file,
            lines,
        });
        Ok(())
    }

    /// Appends a line to the state file (if any); compacts it when it has grown.
    fn write(&mut self, line: &str) -> std::io::Result<()> {
        let live = self.requests.len() + self.sent.len();
        let Some(j) = &mut self.journal else {
            return Ok(());
        };
        j.append(line)?;
        if j.lines > 2 * live + 1024 {
            self.compact()?;
        }
        Ok(())
    }

    fn remember_request(&mut self, id: String, timestamp: i64) {
        let key = (id, timestamp);
        if self.request_set.contains(&key) {
            return;
        }
        if self.requests.len() >= self.capacity {
            if let Some(k) = self.requests.pop_front() {
                self.request_set.remove(&k);
            }
        }
        self.request_set.insert(key.clone());
        self.requests.push_back(key);
    }

    fn remember_sent(&mut self, id: &str) {
        if self.sent_set.insert(id.to_string()) {
            self.sent.push_back(id.to_string());
            if self.sent.len() > self.capacity {
                if let Some(old) = self.sent.pop_front() {
                    self.sent_set.remove(&old);
                }
            }
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
        if !valid_id(id) {
            return Admit::Unrecorded;
        }
        self.remember_request(key.0.clone(), timestamp);
        if let Err(e) = self.write(&format!("r {timestamp} {id}")) {
            tracing::error!(error = %e, "mail relay: cannot write its state file");
            if self.requests.back() == Some(&key) {
                self.requests.pop_back();
            }
            self.request_set.remove(&key);
            return Admit::Unrecorded;
        }
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
        if sent && !self.sent_set.contains(id) {
            self.remember_sent(id);
            if let Err(e) = self.write(&format!("s {id}")) {
                // the email is out; after a restart a retry of this id would be sent again
                tracing::error!(error = %e, "mail relay: cannot write its state file");
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

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "tilepost-seen-{name}-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        ));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn survives_a_restart_bounded_and_locked() {
        let d = dir("restart");
        {
            let mut s = Seen::open(&d, 100, 0).unwrap();
            assert_eq!(s.admit("a", 100, 0), Admit::Send);
            s.finish("a", true);
            assert_eq!(s.admit("b", 150, 0), Admit::Send);
            // "b" was not accepted by SMTP; "c" is in flight when the relay stops
            s.finish("b", false);
            assert_eq!(s.admit("c", 160, 0), Admit::Send);
            // one relay per directory
            assert!(Seen::open(&d, 100, 0).is_err());
        }
        // a half-written last line (a crash) is skipped
        let path = d.join(FILE_NAME);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"s ha").unwrap();
        drop(f);
        let mut s = Seen::open(&d, 100, 120).unwrap();
        // the request of "a" is older than the window now: forgotten; its sending is not
        assert_eq!(s.admit("a", 100, 120), Admit::AlreadySent);
        assert_eq!(s.admit("b", 150, 120), Admit::Replayed);
        assert_eq!(s.admit("c", 160, 120), Admit::Replayed);
        // retries of what was not sent are sent
        assert_eq!(s.admit("b", 170, 120), Admit::Send);
        assert_eq!(s.admit("c", 171, 120), Admit::Send);
        assert!(!s.sent_set.contains("ha"));
        // the file holds what is remembered, not the history: many requests later it
        // stays bounded
        for i in 0..3000 {
            let id = format!("m{i}");
            assert_eq!(s.admit(&id, 200 + i, 200 + i - 10), Admit::Send);
            s.finish(&id, true);
        }
        drop(s);
        let lines = std::fs::read_to_string(&path).unwrap().lines().count();
        assert!(lines <= 2 * (11 + 100) + 1025, "{lines} lines");
        let mut s = Seen::open(&d, 100, 3190).unwrap();
        assert_eq!(s.admit("m2999", 3199, 3190), Admit::Replayed);
        assert_eq!(s.admit("m2999", 3200, 3190), Admit::AlreadySent);
        // beyond the capacity of 100 sent ids, the oldest are forgotten
        assert_eq!(s.admit("m0", 3200, 3190), Admit::Send);
        let _ = std::fs::remove_dir_all(&d);
    }
}
