//! The deadline sweep, inside every server process: it plans each turn's reminders when
//! it first sees the turn, sends each `game.deadline_near` reminder once when its time
//! before the deadline remains (the hours each player chose, or the server's default),
//! and when a deadline has passed it
//! records the timeout through the decision service ([`crate::moves`]): the engine's
//! `player_resigned` event with reason `timed_out`. Several processes on one database
//! are safe: a reminder is claimed by a conditional update, and of several timeout
//! appends for one version the `UNIQUE (game_id, seq)` key (and the version check) lets
//! exactly one land, with its notification in the same transaction.

use std::time::Duration;

use crate::cache::ReplayCache;
use crate::config::Config;
use crate::correspondence::{
    deadline, due_reminder, next_reminder, reminder_offsets, turn_allowance,
};
use crate::moves::{Decision, DecisionError, Decisions, Request};
use crate::notify;
use crate::store::{ClockRead, ClockRow, GameRow, GameStatus, Store, StoreError};

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
    notifier: &std::sync::Arc<notify::Notifier>,
    replays: &ReplayCache,
    now: i64,
) -> Result<Swept, StoreError> {
    let mut out = Swept::default();
    plan_reminders(store, config, now).await?;
    out.reminders = send_reminders(store, config, notifier, now).await?;
    let candidates: Vec<(GameRow, ClockRow)> =
        store.clocked_turns(ClockRead::Due, now, 1000).await?;
    if candidates.is_empty() {
        return Ok(out);
    }
    let vacations = vacations_of_turns(store, &candidates, now).await?;
    for (game, clock) in candidates {
        let Some(d) = deadline(&game, &clock, &vacations, now) else {
            continue;
        };
        if d.paused || d.at > now {
            continue;
        }
        let decisions = Decisions {
            store,
            notifier,
            replays,
        };
        let req = Request {
            game_id: game.id.clone(),
            decision: Decision::TimeOut { claimer: None },
            expected_version: None,
            idempotency: None,
            now,
        };
        match decisions.record(req, |_| Ok(String::new())).await {
            Ok(r) => {
                out.timeouts += 1;
                if r.status == GameStatus::Finished {
                    crate::tournaments::game_ended(store, notifier, replays, &r.game_id, now).await;
                }
            }
            Err(DecisionError::Store(e)) => return Err(e),
            Err(DecisionError::Corrupt(m)) => {
                tracing::error!(game = %game.id, cause = %m, "cannot time out")
            }
            Err(_) => {}
        }
    }
    Ok(out)
}

/// The players these turns wait for, each once.
fn waiting_users(turns: &[(GameRow, ClockRow)]) -> Vec<String> {
    let mut users: Vec<String> = turns
        .iter()
        .filter_map(|(g, _)| g.current_user_id.clone())
        .collect();
    users.sort();
    users.dedup();
    users
}

/// The vacations of the players these turns wait for, since the earliest turn start.
async fn vacations_of_turns(
    store: &Store,
    turns: &[(GameRow, ClockRow)],
    now: i64,
) -> Result<Vec<crate::store::VacationRow>, StoreError> {
    let since = turns
        .iter()
        .filter_map(|(g, _)| g.turn_started_at)
        .min()
        .unwrap_or(now);
    store.vacations_of(waiting_users(turns), since).await
}

/// The reminder offsets of the players these turns wait for.
async fn offsets_of_turns(
    store: &Store,
    config: &Config,
    turns: &[(GameRow, ClockRow)],
) -> Result<std::collections::HashMap<String, Vec<i64>>, StoreError> {
    let users = waiting_users(turns);
    let chosen = store.reminder_hours(users.clone()).await?;
    let default_ms = config.reminder_before_secs.saturating_mul(1000);
    Ok(users
        .into_iter()
        .map(|u| {
            let o = reminder_offsets(chosen.get(&u), default_ms);
            (u, o)
        })
        .collect())
}

/// The offset of the last reminder sent for the turn the clock's game is in.
fn sent_for_turn(clock: &ClockRow, started: i64, default_ms: i64) -> Option<i64> {
    if clock.reminded_turn != Some(started) {
        return None;
    }
    // a turn reminded before reminders had offsets got the default one
    Some(clock.reminded_before.unwrap_or(default_ms))
}

/// Plans the reminders of the turns that started since the last sweep (and of those
/// whose player changed their reminders): when the next one is due, from the base
/// deadline (a vacation only moves a deadline out; the sending step checks).
async fn plan_reminders(store: &Store, config: &Config, now: i64) -> Result<(), StoreError> {
    let turns = store.clocked_turns(ClockRead::Unplanned, now, 1000).await?;
    if turns.is_empty() {
        return Ok(());
    }
    let offsets = offsets_of_turns(store, config, &turns).await?;
    let default_ms = config.reminder_before_secs.saturating_mul(1000);
    for (game, clock) in &turns {
        let (Some(user), Some(started)) = (&game.current_user_id, game.turn_started_at) else {
            continue;
        };
        let base = started + turn_allowance(clock);
        let sent = sent_for_turn(clock, started, default_ms);
        let offs = offsets.get(user).map(Vec::as_slice).unwrap_or_default();
        let next = next_reminder(offs, started, base, sent).map(|o| base - o);
        store
            .plan_reminders(game.id.clone(), started, next, sent)
            .await?;
    }
    Ok(())
}

/// Sends the reminders due at `now`, each once: the smallest offset whose moment has
/// come (see [`due_reminder`]), then plans the next. Returns how many went out.
async fn send_reminders(
    store: &Store,
    config: &Config,
    notifier: &notify::Notifier,
    now: i64,
) -> Result<usize, StoreError> {
    let turns = store.clocked_turns(ClockRead::Reminders, now, 1000).await?;
    if turns.is_empty() {
        return Ok(0);
    }
    let vacations = vacations_of_turns(store, &turns, now).await?;
    let offsets = offsets_of_turns(store, config, &turns).await?;
    let default_ms = config.reminder_before_secs.saturating_mul(1000);
    let mut sent_count = 0;
    for (game, clock) in &turns {
        let (Some(user), Some(started), Some(planned)) =
            (&game.current_user_id, game.turn_started_at, clock.remind_at)
        else {
            continue;
        };
        let Some(d) = deadline(game, clock, &vacations, now) else {
            continue;
        };
        let offs = offsets.get(user).map(Vec::as_slice).unwrap_or_default();
        let sent = sent_for_turn(clock, started, default_ms);
        let due = if d.paused {
            None
        } else {
            due_reminder(offs, started, d.at, sent, now)
        };
        let Some(o) = due else {
            // not yet (a vacation moved the deadline out): plan it anew
            let next = next_reminder(offs, started, d.at, sent).map(|o| (d.at - o).max(now + 1));
            store
                .claim_reminder(
                    game.id.clone(),
                    user.clone(),
                    started,
                    planned,
                    None,
                    next,
                    None,
                )
                .await?;
            continue;
        };
        let next = next_reminder(offs, started, d.at, Some(o)).map(|n| d.at - n);
        let Some(data) = store.load_game(game.id.clone(), false).await? else {
            continue;
        };
        let Some(seat) = data.seats.iter().find(|s| &s.user_id == user) else {
            continue;
        };
        // only for players who want turn notifications (for the others the reminder is
        // marked as handled, so that the next sweeps skip it)
        let row = seat
            .notify_turn
            .then(|| notify::deadline_near(notifier, seat, &game.id, d.at, now));
        let queued = row.is_some();
        if store
            .claim_reminder(
                game.id.clone(),
                user.clone(),
                started,
                planned,
                Some(o),
                next,
                row,
            )
            .await?
            && queued
        {
            sent_count += 1;
        }
    }
    Ok(sent_count)
}

/// Sends the daily digests due at `now`: each user whose digest hour has come in their
/// time zone and who has had no digest this local day gets one listing the games
/// waiting for them (none when nothing waits); the day is marked in the same
/// transaction, so two processes send it once. Returns how many were sent.
pub async fn digests(
    store: &Store,
    notifier: &notify::Notifier,
    now: i64,
) -> Result<usize, StoreError> {
    let mut sent = 0;
    let mut after = String::new();
    loop {
        let page = store.digest_users(after.clone(), 500).await?;
        let Some(last) = page.last() else { break };
        after = last.to.user_id.clone();
        for u in page {
            let (day, hour) = crate::i18n::local_day_hour(now, &u.to.time_zone);
            if hour < u.hour || u.sent_on.as_deref() == Some(day.as_str()) {
                continue;
            }
            let games = store.waiting_games(u.to.user_id.clone(), 100).await?;
            let message = if games.is_empty() {
                None
            } else {
                let ids: Vec<String> = games.iter().map(|g| g.id.clone()).collect();
                let clocks = store.clocks_of(ids).await?;
                let since = games
                    .iter()
                    .filter_map(|g| g.turn_started_at)
                    .min()
                    .unwrap_or(now);
                let vacations = store
                    .vacations_of(vec![u.to.user_id.clone()], since)
                    .await?;
                let waiting: Vec<notify::Waiting<'_>> = games
                    .iter()
                    .map(|g| notify::Waiting {
                        game_id: &g.id,
                        version: g.version,
                        deadline: clocks
                            .get(&g.id)
                            .and_then(|c| deadline(g, c, &vacations, now))
                            .map(|d| d.at),
                    })
                    .collect();
                Some(notify::digest(notifier, &u.to, &waiting, now))
            };
            let queued = message.is_some();
            if store
                .mark_digest(u.to.user_id.clone(), day, message)
                .await?
                && queued
            {
                sent += 1;
            }
        }
    }
    if sent > 0 {
        notifier.wake();
    }
    Ok(sent)
}

/// Runs the sweep every `config.deadline_sweep_ms` until the server stops (spawned on
/// the server's runtime).
pub async fn run_sweeper(
    store: Store,
    config: std::sync::Arc<Config>,
    clock: std::sync::Arc<dyn crate::clock::Clock>,
    notifier: std::sync::Arc<notify::Notifier>,
    replays: std::sync::Arc<ReplayCache>,
) {
    if config.deadline_sweep_ms == 0 {
        return;
    }
    let mut tick = actix_web::rt::time::interval(Duration::from_millis(config.deadline_sweep_ms));
    loop {
        tick.tick().await;
        match sweep(&store, &config, &notifier, &replays, clock.now_ms()).await {
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
        // tournaments: results of ended games, round caps, rounds whose date came
        match crate::tournaments::sweep(&store, &notifier, &replays, clock.now_ms()).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(tournaments = n, "tournaments advanced"),
            Err(e) => tracing::warn!(cause = %e, "tournament sweep failed"),
        }
        match digests(&store, &notifier, clock.now_ms()).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(digests = n, "daily digests"),
            Err(e) => tracing::warn!(cause = %e, "daily digests failed"),
        }
        // sent messages are kept for the outbox retention (the users' delivery history)
        let before = clock.now_ms() - config.outbox_retention_days * 86_400_000;
        match store.prune_outbox(before, 5_000).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(messages = n, "outbox pruned"),
            Err(e) => tracing::warn!(cause = %e, "pruning the outbox failed"),
        }
        // the live stream keeps its events for the retention, deleted a bounded batch at
        // a time
        let before = clock.now_ms() - config.stream_retention_hours * 3_600_000;
        match store.prune_stream(before, 5_000).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(events = n, "live stream pruned"),
            Err(e) => tracing::warn!(cause = %e, "pruning the live stream failed"),
        }
    }
}
