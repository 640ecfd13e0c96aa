//! The deadline sweep, inside every server process: it sends one `game.deadline_near`
//! reminder per turn when the configured time remains, and when a deadline has passed it
//! records the timeout through the decision service ([`crate::moves`]): the engine's
//! `player_resigned` event with reason `timed_out`. Several processes on one database
//! are safe: a reminder is claimed by a conditional update, and of several timeout
//! appends for one version the `UNIQUE (game_id, seq)` key (and the version check) lets
//! exactly one land, with its notification in the same transaction.

use std::time::Duration;

use crate::cache::ReplayCache;
use crate::config::Config;
use crate::correspondence::deadline;
use crate::moves::{Decision, DecisionError, Decisions, Request};
use crate::notify;
use crate::store::{ClockRow, GameRow, Store, StoreError};

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
    replays: &ReplayCache,
    now: i64,
) -> Result<Swept, StoreError> {
    let remind_ms = config.reminder_before_secs.saturating_mul(1000);
    let mut out = Swept::default();
    // a turn can be due for a reminder only when its base deadline minus the reminder
    // time has passed; vacations only move deadlines out
    let mut candidates: Vec<(GameRow, ClockRow)> =
        store.clocked_turns(now, remind_ms, 1000).await?;
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
                Ok(_) => out.timeouts += 1,
                Err(DecisionError::Store(e)) => return Err(e),
                Err(DecisionError::Corrupt(m)) => {
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
            // only for players who want turn notifications (for the others the turn is
            // marked as handled, so that the next sweeps skip it)
            let row = seat
                .notify_turn
                .then(|| notify::deadline_near(notifier, seat, &game.id, d.at, now));
            let sent = row.is_some();
            if store
                .claim_reminder(game.id.clone(), user.clone(), started, row)
                .await?
                && sent
            {
                out.reminders += 1;
            }
        }
    }
    Ok(out)
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
