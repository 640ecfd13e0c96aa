//! The reviews' worker: in every server process, it claims the next queued review (a
//! rated game that ended, or a player's request), and judges the game's decisions one
//! by one on the bots' bounded pool (so that the computer opponents' turns go between
//! them), saving its progress as it goes; the review is kept once done. Each decision is
//! judged from its player's view at that moment (`Game::seat_view`), never from the
//! pile or the other hands.

use std::sync::Arc;
use std::time::Duration;

use tilepost_bots::review::{judge, Judged};
use tilepost_bots::Budget;
use tilepost_engine::{Event, Game, NoEffects};
use tokio::sync::Semaphore;

use crate::clock::Clock;
use crate::config::Config;
use crate::moves::decode_events;
use crate::store::reviews::ReviewRow;
use crate::store::{ReviewState, Store};

/// A running review not saved for this long is taken to have lost its worker.
pub const STALE_MS: i64 = 10 * 60 * 1000;

/// Progress is saved after this many judged decisions.
const SAVE_EVERY: usize = 8;

/// Runs the worker until the server stops (spawned on the server's runtime).
pub async fn run_reviews(
    store: Store,
    config: Arc<Config>,
    clock: Arc<dyn Clock>,
    pool: Arc<Semaphore>,
) {
    if config.bot_poll_ms == 0 {
        return;
    }
    let mut tick =
        actix_web::rt::time::interval(Duration::from_millis(config.bot_poll_ms.max(500)));
    loop {
        tick.tick().await;
        loop {
            let now = clock.now_ms();
            match store.claim_review(now, now - STALE_MS).await {
                Ok(Some(row)) => {
                    let id = row.game_id.clone();
                    if let Err(e) = review_one(&store, &config, &*clock, &pool, row).await {
                        tracing::warn!(game = %id, cause = %e, "a review failed");
                        let _ = store
                            .save_review(
                                id,
                                ReviewState::Failed,
                                0,
                                "[]".into(),
                                Some(e),
                                clock.now_ms(),
                            )
                            .await;
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    tracing::warn!(cause = %e, "reviews unreadable");
                    break;
                }
            }
        }
    }
}

/// Judges one game's decisions and keeps the review.
async fn review_one(
    store: &Store,
    config: &Config,
    clock: &dyn Clock,
    pool: &Semaphore,
    row: ReviewRow,
) -> Result<(), String> {
    let data = store
        .load_game(row.game_id.clone(), true)
        .await
        .map_err(|e| e.to_string())?
        .ok_or("the game is gone")?;
    let events = decode_events(&data.events)?;
    let total = tilepost_bots::review::decisions_to_judge(&events).map_err(|e| e.to_string())?;
    let budget = Budget {
        playouts: config.review_playouts,
        time: None,
    };
    let seed = seed_of(&row.game_id);
    let mut game = Game::replay(events.get(..1).unwrap_or_default()).map_err(|e| e.to_string())?;
    let mut judged: Vec<Judged> = Vec::new();
    for (i, e) in events.iter().enumerate().skip(1) {
        if let Event::Decided { player, action, .. } = e {
            if game.legal_actions().len() > 1 {
                let view = game.seat_view(*player);
                let action = action.clone();
                let permit = pool.acquire().await.map_err(|e| e.to_string())?;
                let j = tokio::task::spawn_blocking(move || judge(&view, i, &action, budget, seed))
                    .await
                    .map_err(|e| format!("the search failed: {e}"))?;
                drop(permit);
                let one = j.is_some();
                judged.extend(j);
                if one && judged.len().is_multiple_of(SAVE_EVERY) {
                    save(
                        store,
                        &row.game_id,
                        ReviewState::Running,
                        total,
                        &judged,
                        clock.now_ms(),
                    )
                    .await?;
                }
            }
        }
        game.apply_at(&events, i, &mut NoEffects)
            .map_err(|e| e.to_string())?;
    }
    save(
        store,
        &row.game_id,
        ReviewState::Done,
        total,
        &judged,
        clock.now_ms(),
    )
    .await
}

async fn save(
    store: &Store,
    game_id: &str,
    state: ReviewState,
    total: usize,
    judged: &[Judged],
    now: i64,
) -> Result<(), String> {
    let json = serde_json::to_string(judged).map_err(|e| e.to_string())?;
    store
        .save_review(game_id.to_string(), state, total as i32, json, None, now)
        .await
        .map_err(|e| e.to_string())
}

/// The review of a game always searches alike.
fn seed_of(game_id: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in game_id.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
