//! The computer opponents' worker: in every server process, it looks for running games
//! whose pending decision is a bot's, lets the bot choose on a bounded pool of its own
//! (never on a request's path), and records the choice through the decision service, as
//! any player's move. A bot sees only its seat's view of the game (`Game::seat_view`:
//! the visible past with a canonical hidden future), never the pile or the seed. When
//! two processes decide for the same turn, the version check lets one of them record it.

use std::sync::Arc;
use std::time::Duration;

use tilepost_bots::{Budget, Level};
use tokio::sync::Semaphore;

use crate::cache::ReplayCache;
use crate::clock::Clock;
use crate::config::Config;
use crate::moves::{Decision, DecisionError, Decisions, Request};
use crate::notify::Notifier;
use crate::store::{BotTurn, Store};

/// The levels a game may seat.
pub const LEVELS: &[&str] = crate::store::BOT_LEVELS;

/// A seed for one decision: the same game, version and seat always think alike.
fn seed_of(turn: &BotTurn) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in turn.game_id.bytes().chain(turn.version.to_le_bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A level's budget in the server: `mcts` and `expert` with their playouts and the time
/// limit (the others do not search).
pub fn budget_of(level: Level, config: &Config) -> Budget {
    Budget {
        playouts: match level {
            Level::Expert => config.expert_playouts,
            _ => config.bot_playouts,
        },
        time: Some(Duration::from_millis(config.bot_ms.max(1))),
    }
}

/// Decides and records one bot turn; `Ok(false)` when the turn was no longer pending.
pub async fn play_turn(
    decisions: &Decisions<'_>,
    pool: &Semaphore,
    turn: &BotTurn,
    config: &Config,
    now: i64,
    tournament_notifier: Option<&Arc<Notifier>>,
) -> Result<bool, DecisionError> {
    let Some(level) = Level::from_name(&turn.level) else {
        return Ok(false);
    };
    let (data, game) = decisions.current(&turn.game_id).await?;
    let Some(seat) = data
        .seats
        .iter()
        .find(|s| s.user_id == turn.user_id)
        .map(|s| s.seat as u8)
    else {
        return Ok(false);
    };
    if game.pending().is_none_or(|p| p.player != seat) {
        return Ok(false);
    }
    let view = game.seat_view(seat);
    let seed = seed_of(turn);
    let budget = budget_of(level, config);
    let permit = pool
        .acquire()
        .await
        .map_err(|e| DecisionError::Corrupt(e.to_string()))?;
    let action = tokio::task::spawn_blocking(move || level.bot(seed, budget).decide(&view))
        .await
        .map_err(|e| DecisionError::Corrupt(format!("a bot failed: {e}")))?;
    drop(permit);
    let Some(action) = action else {
        return Ok(false);
    };
    let req = Request {
        game_id: turn.game_id.clone(),
        decision: Decision::Play {
            user_id: turn.user_id.clone(),
            actions: vec![action],
        },
        expected_version: Some(data.game.version),
        idempotency: None,
        now,
    };
    match decisions.record(req, |_| Ok(String::new())).await {
        Ok(r) => {
            if r.status == crate::store::GameStatus::Finished {
                if let Some(n) = tournament_notifier {
                    crate::tournaments::game_ended(
                        decisions.store,
                        n,
                        decisions.replays,
                        &r.game_id,
                        now,
                    )
                    .await;
                }
            }
            Ok(true)
        }
        Err(DecisionError::Stale(_)) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Runs the worker every `config.bot_poll_ms` until the server stops (spawned on the
/// server's runtime). `pool` (of `config.bot_threads` permits, shared with the reviews)
/// bounds how many searches run at once.
pub async fn run_bots(
    store: Store,
    config: Arc<Config>,
    clock: Arc<dyn Clock>,
    notifier: Arc<Notifier>,
    replays: Arc<ReplayCache>,
    pool: Arc<Semaphore>,
) {
    if config.bot_poll_ms == 0 {
        return;
    }
    let mut tick = actix_web::rt::time::interval(Duration::from_millis(config.bot_poll_ms));
    loop {
        tick.tick().await;
        let turns = match store.bot_turns(50).await {
            Ok(t) => t,
            Err(e) => {
                tracing::warn!(cause = %e, "bot turns unreadable");
                continue;
            }
        };
        let decisions = Decisions {
            store: &store,
            notifier: &notifier,
            replays: &replays,
        };
        for turn in turns {
            if let Err(e) = play_turn(
                &decisions,
                &pool,
                &turn,
                &config,
                clock.now_ms(),
                Some(&notifier),
            )
            .await
            {
                tracing::warn!(game = %turn.game_id, cause = ?e, "a bot could not play");
            }
        }
    }
}
