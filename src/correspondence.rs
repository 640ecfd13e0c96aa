//! Correspondence play: deadlines and the deadline sweep.
//!
//! A game created with `options.days_per_move` has a clock: the pending decision is due
//! `days_per_move` days after its turn started (`games.turn_started_at`), plus the time
//! the deciding player spent on vacation since then (their clock stands still). The
//! sweep runs inside every server process: it sends one `game.deadline_near` reminder
//! per turn when the configured time remains, and when a deadline has passed it appends
//! the engine's `player_resigned` event with reason `timed_out`. Several processes on
//! one database are safe: a reminder is claimed by a conditional update, and of several
//! timeout appends for one version the `UNIQUE (game_id, seq)` key (and the version
//! check) lets exactly one land, with its notification in the same transaction.
//!
//! Time enters as data: the server's [`Clock`](crate::clock::Clock) gives `now`, the
//! engine only sees the decision.

use std::time::Duration;

use tilepost_engine::{Effect, Event, Game, PlayError};

use crate::config::Config;
use crate::notify;
use crate::store::{Append, ClockRow, EventRow, GameData, GameRow, Store, StoreError, VacationRow};

/// One day in milliseconds.
pub const DAY_MS: i64 = 86_400_000;

/// How long `user_id`'s clock stood still (vacations) between `since` and `now`.
pub fn paused_ms(vacations: &[VacationRow], user_id: &str, since: i64, now: i64) -> i64 {
    vacations
        .iter()
        .filter(|v| v.user_id == user_id)
        .map(|v| (v.end().min(now) - v.started_at.max(since)).max(0))
        .sum()
}

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

/// The deadline of a running game's pending decision, if it has a clock.
pub fn deadline(
    game: &GameRow,
    clock: &ClockRow,
    vacations: &[VacationRow],
    now: i64,
) -> Option<Deadline> {
    if game.status != "active" {
        return None;
    }
    let started = game.turn_started_at?;
    let user = game.current_user_id.as_deref()?;
    let base = started + clock.days_per_move as i64 * DAY_MS;
    Some(Deadline {
        at: base + paused_ms(vacations, user, started, now),
        paused: vacation_on(vacations, user, now).is_some(),
    })
}

/// Why a timeout was not recorded.
#[derive(Debug)]
pub enum TimeoutError {
    NotFound,
    NoClock,
    NotRunning,
    /// The deadline has not passed (it is given).
    NotDue(i64),
    NotAPlayer,
    /// The claimer is the player whose decision is pending.
    OwnTimeout,
    /// The claimer has left the game.
    NotInGame,
    /// Someone else moved (or timed the player out) first.
    Moved,
    Store(StoreError),
    Corrupt(String),
}

impl From<StoreError> for TimeoutError {
    fn from(e: StoreError) -> Self {
        TimeoutError::Store(e)
    }
}

/// A recorded timeout.
pub struct TimedOut {
    pub data: GameData,
    pub row: EventRow,
    pub event: Event,
    pub effects: Vec<Effect>,
    pub version: i64,
    pub over: bool,
}

/// Records that the pending decision's player missed the deadline: the engine's
/// `player_resigned` with reason `timed_out`, the `game.timed_out` notification and the
/// next turn's (or the end's) notifications, in one transaction. `claimer` is the player
/// who claims it (the sweep claims as nobody).
pub async fn time_out(
    store: &Store,
    notifier: &notify::Notifier,
    game_id: &str,
    claimer: Option<&str>,
    now: i64,
) -> Result<TimedOut, TimeoutError> {
    let data = store
        .load_game(game_id.to_string(), true)
        .await?
        .ok_or(TimeoutError::NotFound)?;
    if let Some(c) = claimer {
        if !data.seats.iter().any(|s| s.user_id == c) {
            return Err(TimeoutError::NotAPlayer);
        }
    }
    let clock = store
        .clocks_of(vec![data.game.id.clone()])
        .await?
        .remove(&data.game.id)
        .ok_or(TimeoutError::NoClock)?;
    if data.game.status != "active" {
        return Err(TimeoutError::NotRunning);
    }
    let (Some(user), Some(started)) =
        (data.game.current_user_id.clone(), data.game.turn_started_at)
    else {
        return Err(TimeoutError::NotRunning);
    };
    let vacations = store.vacations_of(vec![user.clone()], started).await?;
    let due = deadline(&data.game, &clock, &vacations, now).ok_or(TimeoutError::NotRunning)?;
    let events = data
        .events
        .iter()
        .map(|r| Event::decode(&r.event_type, r.event_version.max(0) as u32, &r.payload))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| TimeoutError::Corrupt(e.to_string()))?;
    let mut game = Game::replay(&events).map_err(|e| TimeoutError::Corrupt(e.to_string()))?;
    let pending = game.pending().ok_or(TimeoutError::NotRunning)?;
    let late = data
        .seats
        .iter()
        .find(|s| s.seat == pending.player as i32)
        .cloned()
        .ok_or_else(|| TimeoutError::Corrupt("pending seat is empty".into()))?;
    if late.user_id != user {
        // the summary row is behind the log: someone just moved
        return Err(TimeoutError::Moved);
    }
    if let Some(c) = claimer {
        if c == late.user_id {
            return Err(TimeoutError::OwnTimeout);
        }
        let seat = data
            .seats
            .iter()
            .find(|s| s.user_id == c)
            .map(|s| s.seat as usize);
        if !seat
            .and_then(|s| game.players().get(s))
            .is_some_and(|p| p.active)
        {
            return Err(TimeoutError::NotInGame);
        }
    }
    if due.paused || due.at > now {
        return Err(TimeoutError::NotDue(due.at));
    }
    let expected = data.game.version;
    let o = game.resign(pending.player, true).map_err(|e| match e {
        PlayError::GameOver => TimeoutError::NotRunning,
        other => TimeoutError::Corrupt(other.to_string()),
    })?;
    let (kind, version, payload) = o.event.encode();
    let row = EventRow {
        game_id: data.game.id.clone(),
        seq: expected + 1,
        event_type: kind.to_string(),
        event_version: version as i32,
        payload,
        actor_id: claimer.map(|c| c.to_string()),
        created_at: now,
    };
    let over = game.is_over();
    let next = game.pending();
    let current_user_id = next.and_then(|p| {
        data.seats
            .iter()
            .find(|s| s.seat == p.player as i32)
            .map(|s| s.user_id.clone())
    });
    let gid = data.game.id.clone();
    // always sent to the player who missed the deadline: it changes their standing
    let mut outbox = notify::timed_out(
        notifier,
        std::slice::from_ref(&late),
        &gid,
        &late.username,
        now,
    );
    if over {
        let ranking: Vec<(String, i32, u8)> = game
            .ranking()
            .iter()
            .map(|r| {
                let name = data
                    .seats
                    .iter()
                    .find(|s| s.seat == r.player as i32)
                    .map(|s| s.username.clone())
                    .unwrap_or_default();
                (name, r.score, r.rank)
            })
            .collect();
        outbox.extend(notify::finished(notifier, &data.seats, &gid, &ranking, now));
    } else if let Some(p) = next {
        if let Some(s) = data.seats.iter().find(|s| s.seat == p.player as i32) {
            let tile = p.tile.map(|t| tilepost_engine::catalog().get(t).id.clone());
            if s.notify_turn {
                outbox.push(notify::turn_started(
                    notifier,
                    s,
                    &notify::Turn {
                        game_id: &gid,
                        version: expected + 1,
                        tile: tile.as_deref(),
                        decision: Some(p.phase.name()),
                        deadline: None,
                    },
                    &notify::Since::default(),
                    now,
                ));
            }
        }
    }
    let append = Append {
        game_id: gid,
        expected_version: expected,
        events: vec![row.clone()],
        status: if over { "finished" } else { "active" }.to_string(),
        current_user_id,
        turn_changed: true,
        now,
        idempotency: None,
        outbox,
    };
    match store.append(append).await {
        Ok(()) => Ok(TimedOut {
            data,
            row,
            event: o.event,
            effects: o.effects,
            version: expected + 1,
            over,
        }),
        Err(StoreError::Conflict(_)) => Err(TimeoutError::Moved),
        Err(e) => Err(e.into()),
    }
}

/// What one sweep did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Swept {
    pub reminders: usize,
    pub timeouts: usize,
}

/// One pass over the running games with a clock: reminders and timeouts due at `now`.
pub async fn sweep(
    store: &Store,
    config: &Config,
    notifier: &notify::Notifier,
    now: i64,
) -> Result<Swept, StoreError> {
    let remind_ms = config.reminder_before_secs.saturating_mul(1000);
    let mut out = Swept::default();
    // a turn can be due for a reminder only when its base deadline minus the reminder
    // time has passed; vacations only move deadlines out
    let mut candidates: Vec<(GameRow, ClockRow)> = store
        .clocked_turns(now.saturating_add(remind_ms), 1000)
        .await?;
    if candidates.is_empty() {
        return Ok(out);
    }
    let since = candidates
        .iter()
        .filter_map(|(g, _)| g.turn_started_at)
        .min()
        .unwrap_or(now);
    let mut users: Vec<String> = candidates
        .iter()
        .filter_map(|(g, _)| g.current_user_id.clone())
        .collect();
    users.sort();
    users.dedup();
    let vacations = store.vacations_of(users, since).await?;
    for (game, clock) in candidates.drain(..) {
        let Some(d) = deadline(&game, &clock, &vacations, now) else {
            continue;
        };
        if d.paused {
            continue;
        }
        if d.at <= now {
            match time_out(store, notifier, &game.id, None, now).await {
                Ok(_) => out.timeouts += 1,
                Err(TimeoutError::Store(e)) => return Err(e),
                Err(TimeoutError::Corrupt(m)) => {
                    tracing::error!(game = %game.id, cause = %m, "cannot time out")
                }
                Err(_) => {}
            }
        } else if d.at - remind_ms <= now && clock.reminded_turn != game.turn_started_at {
            let (Some(user), Some(started)) = (&game.current_user_id, game.turn_started_at) else {
                continue;
            };
            let Some(data) = store.load_game(game.id.clone(), false).await? else {
                continue;
            };
            let Some(seat) = data.seats.iter().find(|s| &s.user_id == user) else {
                continue;
            };
            // only for players who want turn notifications
            if !seat.notify_turn {
                continue;
            }
            let row = notify::deadline_near(notifier, seat, &game.id, d.at, now);
            if store
                .claim_reminder(game.id.clone(), user.clone(), started, row)
                .await?
            {
                out.reminders += 1;
            }
        }
    }
    Ok(out)
}

/// Runs the sweep every `config.deadline_sweep_ms` until the server stops (spawned on
/// the server's runtime).
pub async fn run_sweeper(
    store: Store,
    config: std::sync::Arc<Config>,
    clock: std::sync::Arc<dyn crate::clock::Clock>,
    notifier: std::sync::Arc<notify::Notifier>,
) {
    if config.deadline_sweep_ms == 0 {
        return;
    }
    let mut tick = actix_web::rt::time::interval(Duration::from_millis(config.deadline_sweep_ms));
    loop {
        tick.tick().await;
        match sweep(&store, &config, &notifier, clock.now_ms()).await {
            Ok(s) if s != Swept::default() => {
                tracing::info!(
                    reminders = s.reminders,
                    timeouts = s.timeouts,
                    "deadline sweep"
                )
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(cause = %e, "deadline sweep failed"),
        }
    }
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
            status: "active".into(),
            seats: 2,
            expansions: "[]".into(),
            tile_order: None,
            version: 1,
            current_user_id: Some("a".into()),
            created_at: 0,
            updated_at: 0,
            turn_started_at: Some(started),
        }
    }

    #[test]
    fn vacations_move_the_deadline_by_the_time_they_overlap_the_turn() {
        let clock = ClockRow {
            game_id: "g".into(),
            days_per_move: 2,
            reminded_turn: None,
        };
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
        done.status = "finished".into();
        assert!(deadline(&done, &clock, &vs, 0).is_none());
    }
}
