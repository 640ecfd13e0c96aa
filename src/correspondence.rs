//! Correspondence play: the deadline of a pending decision.
//!
//! A game created with `options.days_per_move` has a clock: the pending decision is due
//! `days_per_move` days after its turn started (`games.turn_started_at`); with
//! `options.time_bank`, when the bank the player started the turn with runs out
//! ([`ClockRule`]); plus, either way, the time
//! the deciding player spent on vacation since then (their clock stands still), and the
//! time the game's tournament was paused during the turn (every clock of its games
//! stands still). The
//! deadline sweep ([`crate::sweep`]) reminds and times out; the decision service
//! ([`crate::moves`]) checks a claimed timeout against the same deadline.
//!
//! Time enters as data: the server's [`Clock`](crate::clock::Clock) gives `now`.

use crate::store::{ClockRow, GameRow, GameStatus, VacationRow};

pub use crate::store::{paused_ms, settle_bank, ClockRule, DAY_MS, HOUR_MS};

/// The vacation of `user_id` that is on at `now`, if any.
pub fn vacation_on<'a>(
    vacations: &'a [VacationRow],
    user_id: &str,
    now: i64,
) -> Option<&'a VacationRow> {
    vacations
        .iter()
        .find(|v| v.user_id == user_id && v.is_on(now))
}

/// The deadline of a pending decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    /// When the decision is due (as of `now`: while the player is on vacation it moves
    /// out with the time).
    pub at: i64,
    /// The deciding player is on vacation: the clock stands still.
    pub paused: bool,
}

/// The time the current turn's player had when it started: the days per move, or the
/// bank they started it with.
pub fn turn_allowance(clock: &ClockRow) -> i64 {
    match clock.rule() {
        ClockRule::PerMove { days } => i64::from(days) * DAY_MS,
        ClockRule::Bank { initial, .. } => clock.turn_bank_ms.unwrap_or(initial),
    }
}

/// The deadline of a running game's pending decision, if it has a clock.
pub fn deadline(
    game: &GameRow,
    clock: &ClockRow,
    vacations: &[VacationRow],
    now: i64,
) -> Option<Deadline> {
    if game.status != GameStatus::Active {
        return None;
    }
    let started = game.turn_started_at?;
    let user = game.current_user_id.as_deref()?;
    let base = started + turn_allowance(clock);
    Some(Deadline {
        at: base + paused_ms(vacations, user, started, now) + clock.held_ms(started, now),
        paused: vacation_on(vacations, user, now).is_some() || clock.paused_at.is_some(),
    })
}

/// A user's reminder offsets (ms before a deadline): the hours they chose, or the
/// server's default (one reminder `default_ms` before).
pub fn reminder_offsets(hours: Option<&Vec<i64>>, default_ms: i64) -> Vec<i64> {
    match hours {
        Some(h) => h.iter().map(|h| h.saturating_mul(3_600_000)).collect(),
        None if default_ms > 0 => vec![default_ms],
        None => Vec::new(),
    }
}

/// The offset of the next reminder of a turn that started at `started` and is due at
/// `deadline`: the largest offset below `sent` (the last one sent for this turn, if any)
/// whose moment falls after the turn started (a reminder as the turn starts would say
/// nothing the turn's own notification does not).
pub fn next_reminder(
    offsets: &[i64],
    started: i64,
    deadline: i64,
    sent: Option<i64>,
) -> Option<i64> {
    offsets
        .iter()
        .copied()
        .filter(|o| *o > 0 && sent.is_none_or(|s| *o < s) && deadline - o > started)
        .max()
}

/// The reminder to send now for a turn that started at `started`, due at `deadline`:
/// of the offsets below `sent` whose moment has come by `now`, the smallest (the
/// larger ones are stale: a sweep that was down, or a vacation that ended, sends one
/// reminder, not a burst).
pub fn due_reminder(
    offsets: &[i64],
    started: i64,
    deadline: i64,
    sent: Option<i64>,
    now: i64,
) -> Option<i64> {
    offsets
        .iter()
        .copied()
        .filter(|o| *o > 0 && sent.is_none_or(|s| *o < s) && deadline - o > started)
        .filter(|o| deadline - o <= now)
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vac(user: &str, start: i64, ends: i64, ended: Option<i64>) -> VacationRow {
        VacationRow {
            id: format!("{user}{start}"),
            user_id: user.into(),
            started_at: start,
            ends_at: ends,
            until_move: 0,
            ended_at: ended,
        }
    }

    fn game(started: i64) -> GameRow {
        GameRow {
            id: "g".into(),
            creator_id: "a".into(),
            status: GameStatus::Active,
            seats: 2,
            expansions: Vec::new(),
            tile_order: None,
            version: 1,
            current_user_id: Some("a".into()),
            created_at: 0,
            updated_at: 0,
            turn_started_at: Some(started),
            rules: Default::default(),
            rated: false,
            visibility: crate::store::Visibility::Public,
            bot_accounts: true,
            assistance: crate::store::Assistance::Full,
        }
    }

    #[test]
    fn vacations_move_the_deadline_by_the_time_they_overlap_the_turn() {
        let clock = ClockRow::new("g".into(), ClockRule::PerMove { days: 2 });
        let g = game(10 * DAY_MS);
        let vs = vec![
            // before the turn: no effect
            vac("a", 0, 5 * DAY_MS, None),
            // started before the turn, ended one day into it
            vac("a", 9 * DAY_MS, 20 * DAY_MS, Some(11 * DAY_MS)),
            // someone else's
            vac("b", 10 * DAY_MS, 30 * DAY_MS, None),
        ];
        let d = deadline(&g, &clock, &vs, 11 * DAY_MS + 1).unwrap();
        assert_eq!(
            d,
            Deadline {
                at: 13 * DAY_MS,
                paused: false
            }
        );
        // on vacation now: the deadline moves with the time
        let mut vs = vs;
        vs.push(vac("a", 12 * DAY_MS, 15 * DAY_MS, None));
        let d = deadline(&g, &clock, &vs, 14 * DAY_MS).unwrap();
        assert_eq!(
            d,
            Deadline {
                at: 15 * DAY_MS,
                paused: true
            }
        );
        // the vacation's planned end passed: 3 days paused in all, the clock runs again
        let d = deadline(&g, &clock, &vs, 16 * DAY_MS).unwrap();
        assert_eq!(
            d,
            Deadline {
                at: 16 * DAY_MS,
                paused: false
            }
        );
        let mut done = g.clone();
        done.status = GameStatus::Finished;
        assert!(deadline(&done, &clock, &vs, 0).is_none());
    }

    #[test]
    fn a_tournament_pause_holds_the_clock_of_the_turn_it_overlaps() {
        let mut clock = ClockRow::new("g".into(), ClockRule::PerMove { days: 2 });
        let g = game(10 * DAY_MS);
        // paused a day into the turn: the deadline moves with the time
        clock.paused_at = Some(11 * DAY_MS);
        let d = deadline(&g, &clock, &[], 14 * DAY_MS).unwrap();
        assert_eq!(
            d,
            Deadline {
                at: 15 * DAY_MS,
                paused: true
            }
        );
        // resumed at day 14: 3 days held for this turn, the clock runs again
        clock.paused_at = None;
        clock.paused_turn = Some(10 * DAY_MS);
        clock.paused_ms = 3 * DAY_MS;
        assert_eq!(clock.held_ms(10 * DAY_MS, 20 * DAY_MS), 3 * DAY_MS);
        let d = deadline(&g, &clock, &[], 14 * DAY_MS + 1).unwrap();
        assert_eq!(
            d,
            Deadline {
                at: 15 * DAY_MS,
                paused: false
            }
        );
        // the next turn owes nothing to the last one's pause
        assert_eq!(clock.held_ms(16 * DAY_MS, 17 * DAY_MS), 0);
        // a pause that began before the turn counts from the turn's start
        clock.paused_at = Some(5 * DAY_MS);
        assert_eq!(clock.held_ms(16 * DAY_MS, 17 * DAY_MS), DAY_MS);
        // with a vacation as well, both count
        let vs = vec![vac("a", 10 * DAY_MS, 12 * DAY_MS, Some(12 * DAY_MS))];
        let d = deadline(&g, &clock, &vs, 13 * DAY_MS).unwrap();
        assert_eq!(d.at, 12 * DAY_MS + 2 * DAY_MS + 3 * DAY_MS + 3 * DAY_MS);
    }

    #[test]
    fn reminders_go_out_largest_offset_first_each_once() {
        const H: i64 = 3_600_000;
        let offs = reminder_offsets(Some(&vec![48, 2]), 24 * H);
        assert_eq!(offs, vec![48 * H, 2 * H]);
        assert_eq!(reminder_offsets(None, 24 * H), vec![24 * H]);
        assert!(reminder_offsets(None, 0).is_empty());
        // a 3-day turn from 0: 48 h first, then 2 h, then none
        let dl = 72 * H;
        assert_eq!(next_reminder(&offs, 0, dl, None), Some(48 * H));
        assert_eq!(next_reminder(&offs, 0, dl, Some(48 * H)), Some(2 * H));
        assert_eq!(next_reminder(&offs, 0, dl, Some(2 * H)), None);
        assert_eq!(due_reminder(&offs, 0, dl, None, 24 * H - 1), None);
        assert_eq!(due_reminder(&offs, 0, dl, None, 24 * H), Some(48 * H));
        // both due at once (the sweep was down): only the most urgent
        assert_eq!(due_reminder(&offs, 0, dl, None, 71 * H), Some(2 * H));
        assert_eq!(due_reminder(&offs, 0, dl, Some(2 * H), 71 * H), None);
        // a 1-day turn: 48 h before is before the turn started
        assert_eq!(next_reminder(&offs, 0, 24 * H, None), Some(2 * H));
        assert_eq!(due_reminder(&offs, 0, 24 * H, None, 1), None);
    }
}
