//! An audit of an event from its log alone: the counts a fair event keeps at zero (or
//! within one), so that a simulation, a test or an organiser can check a log whoever
//! wrote it.

use std::collections::BTreeMap;

use crate::{Error, Event, MatchStatus, State, Tournament};

/// What [`audit`] counts over a whole log.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Audit {
    /// Meetings, within a stage, of two players who had met at a table of it before.
    pub repeats: usize,
    /// The most byes one player had in one stage.
    pub most_byes: usize,
    /// The largest `|games started − games not started|` of any player, over the games
    /// with a result.
    pub start_imbalance: i64,
    /// 2-player tables whose first seat (who starts the match) had started more than
    /// the second when the round was paired: the start goes to who started less.
    pub start_rule_broken: usize,
    /// Tables whose match is not decided, and games waiting for a result.
    pub undecided: usize,
    /// Replaying the whole log at once gives the state, and every stage's standings,
    /// that applying it event by event gives.
    pub replay_agrees: bool,
}

/// Each player's starts minus the games they did not start, by index.
fn balances(state: &State) -> Vec<i64> {
    state
        .starts()
        .iter()
        .map(|(s, g)| 2 * i64::from(*s) - i64::from(*g))
        .collect()
}

/// Audits the log `events` (which starts with the event's creation).
pub fn audit(events: &[Event]) -> Result<Audit, Error> {
    let Some(first) = events.first() else {
        return Err(Error::NotCreated);
    };
    let mut state = Tournament::replay(std::slice::from_ref(first))?;
    let mut out = Audit::default();
    for e in &events[1..] {
        let before = match e {
            Event::RoundPaired { .. } => Some(balances(&state)),
            _ => None,
        };
        state.apply(e)?;
        if let (Some(b), Event::RoundPaired { stage, round, .. }) = (before, e) {
            let paired = state
                .stages()
                .get(*stage as usize)
                .and_then(|s| s.rounds.get((*round as usize).saturating_sub(1)));
            for t in paired.map(|r| r.tables.as_slice()).unwrap_or_default() {
                if let [a, c] = t.seats.as_slice() {
                    if b.get(*a) > b.get(*c) {
                        out.start_rule_broken += 1;
                    }
                }
            }
        }
    }
    for (s, st) in state.stages().iter().enumerate() {
        let mut met: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        let mut byes: BTreeMap<usize, usize> = BTreeMap::new();
        for r in &st.rounds {
            for b in &r.byes {
                *byes.entry(*b).or_default() += 1;
            }
            for t in &r.tables {
                if !matches!(state.table_status(s, t), MatchStatus::Decided { .. }) {
                    out.undecided += 1;
                }
                for (i, a) in t.seats.iter().enumerate() {
                    for c in &t.seats[i + 1..] {
                        let n = met.entry((*a.min(c), *a.max(c))).or_default();
                        if *n > 0 {
                            out.repeats += 1;
                        }
                        *n += 1;
                    }
                }
            }
        }
        out.most_byes = out.most_byes.max(byes.values().copied().max().unwrap_or(0));
    }
    out.undecided += state.pending_games().len();
    out.start_imbalance = balances(&state).iter().map(|b| b.abs()).max().unwrap_or(0);
    let replayed = Tournament::replay(events)?;
    out.replay_agrees = replayed == state
        && (0..state.stages().len()).all(|s| replayed.standings_of(s) == state.standings_of(s));
    Ok(out)
}
