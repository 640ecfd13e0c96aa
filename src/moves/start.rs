//! The plan that starts a game: the creation event with a fresh secret seed, the
//! decisions the server takes at once, and the first notifications; the store runs it
//! inside the transaction that takes the last seat.

use std::sync::Arc;

use tilepost_engine::{Expansion, Game, GameConfig, SetupError};

use super::auto::{self, Automation};
use super::{board_size, scores_of, seat_at, seat_of};
use crate::notify::{self, Notifier};
use crate::store::{AutomationRows, DecidedBy, EventRow, GameRow, SeatInfo, StartPlan};

fn config_of(row: &GameRow, players: u8, seed: u64) -> Result<GameConfig, SetupError> {
    let mut expansions = Vec::new();
    for id in &row.expansions {
        expansions.push(Expansion::from_id(id).ok_or(SetupError::UnknownExpansion(id.clone()))?);
    }
    Ok(GameConfig {
        players,
        expansions,
        tile_order: row.tile_order.clone(),
        seed,
        rules: tilepost_engine::HouseRules::from_values(&row.rules).map_err(SetupError::Rules)?,
    })
}

/// What the store runs when a game starts: the creation event (with a fresh secret seed)
/// and the decisions the server takes at once (forced ones and standing orders; plans
/// can only be left in a running game), `game.started` for every player and the first
/// real decision's notification (with its deadline when the game has a clock: `first_turn`,
/// the time the first turn has, see [`crate::correspondence::ClockRule::first_allowance`]).
pub fn start_plan(
    notifier: Arc<Notifier>,
    now: i64,
    first_turn: Option<i64>,
) -> impl FnOnce(&GameRow, &[SeatInfo], &AutomationRows) -> Result<StartPlan, String> + Send + 'static
{
    move |row, seats, rows| {
        let config =
            config_of(row, seats.len() as u8, rand::random::<u64>()).map_err(|e| e.to_string())?;
        let (mut game, event) = Game::new(&config).map_err(|e| e.to_string())?;
        let mut automation = Automation::from_rows(rows, &row.id, |u| seat_of(seats, u));
        automation.plans.clear();
        let taken = auto::settle(&mut game, &automation).map_err(|b| b.0)?;
        let mut events = vec![(event, None)];
        events.extend(taken.into_iter().map(|t| (t.outcome.event, Some(t.by))));
        let events: Vec<EventRow> = events
            .into_iter()
            .enumerate()
            .map(|(i, (e, by))| {
                let (kind, version, payload) = e.encode();
                EventRow {
                    game_id: row.id.clone(),
                    seq: i as i64 + 1,
                    event_type: kind.to_string(),
                    event_version: version as i32,
                    payload,
                    actor_id: None,
                    created_at: now,
                    decided_by: by.map(|b: DecidedBy| b.as_str().to_string()),
                }
            })
            .collect();
        let version = events.len() as i64;
        let pending = game.pending();
        let first_seat = pending.map(|p| p.player).unwrap_or(0);
        let tile = pending
            .and_then(|p| p.tile)
            .map(|t| tilepost_engine::catalog().get(t).id.clone());
        let first = seat_at(seats, first_seat);
        let mut outbox = notify::started(
            &notifier,
            seats,
            &row.id,
            first.map(|s| s.username.as_str()).unwrap_or_default(),
            now,
        );
        if let Some(s) = first.filter(|_| !game.is_over()) {
            outbox.push(notify::turn_started(
                &notifier,
                s,
                &notify::Turn {
                    game_id: &row.id,
                    version,
                    tile: tile.as_deref(),
                    decision: pending.map(|p| p.phase.name()),
                    deadline: first_turn.map(|f| now + f),
                    rules: Some(&row.rules),
                    scores: &scores_of(&game, seats),
                    board_size: Some(board_size(&game)),
                },
                &notify::Since::default(),
                now,
            ));
        }
        Ok(StartPlan {
            events,
            first_seat: first_seat as i32,
            outbox,
        })
    }
}
