//! Writing a decision: from the game before it and what the engine (and the players'
//! orders and plans) decided, the steps below build what is written, each named after
//! what it writes — the event rows, the game's new status and next decider, the
//! notifications, the plans dropped, the live stream, the game's end, the caller's
//! answer with its idempotency record — and [`Decisions::append`] writes them in one
//! transaction.

use std::sync::Arc;

use tilepost_engine::{Action, Effect, Event, Game, Pending};

use super::{
    board_size, recent_of, scores_of, seat_at, Decision, DecisionError, Decisions, Loaded, Recorded,
};
use super::{IdempotencyKey, Request, Step};
use crate::cache::RecentLog;
use crate::correspondence;
use crate::notify;
use crate::store::{
    Append, ClockRow, Conflict, DecidedBy, EventRow, GameData, GameStatus, IdempotencyRow,
    OutboxRow, SeatInfo, StoreError,
};

/// What the steps read: the game before the decision, the game after it and what was
/// decided.
struct Draft<'a> {
    decision: &'a Decision,
    /// The game's rows before the decision.
    data: &'a GameData,
    /// The game after the decision.
    game: &'a Game,
    outcomes: &'a [Step],
    /// The game's clock, read with its row (`None`: it has none).
    clock: Option<&'a ClockRow>,
    /// The user the decision is recorded for.
    actor: Option<&'a str>,
    now: i64,
}

/// The game's summary after the decision.
struct After {
    version: i64,
    over: bool,
    status: GameStatus,
    /// Who decides next.
    current_user_id: Option<String>,
    /// A new turn starts (and a new deadline).
    turn_changed: bool,
}

/// What the decision does to the players' plans.
struct Plans {
    /// Players whose turn came: their plans at this game are dropped.
    dropped: Vec<String>,
    /// The tiles placed by a plan, with their players (each hears of it).
    played: Vec<(u8, String)>,
}

impl Decisions<'_> {
    /// Builds the rows, status, next decider, notifications and idempotency record of
    /// `outcomes` and appends them in one transaction.
    pub(super) async fn append(
        &self,
        req: Request,
        loaded: Loaded,
        clock: Option<ClockRow>,
        outcomes: Vec<Step>,
        answer: impl FnOnce(&Recorded) -> Result<String, String>,
    ) -> Result<Recorded, DecisionError> {
        let Loaded {
            data, game, log, ..
        } = loaded;
        let d = Draft {
            decision: &req.decision,
            data: &data,
            game: &game,
            outcomes: &outcomes,
            clock: clock.as_ref(),
            actor: req.decision.actor(),
            now: req.now,
        };
        let events = d.events_of();
        let after = d.status_after();
        let plans = d.plans_after();
        let log = self.log_after(&d, log, &after).await?;
        let mut outbox = self.notices_for(&d, log.as_ref(), &after).await?;
        outbox.extend(d.plan_notices(self.notifier, &plans.played, after.version));
        let stream = d.stream_after(&after);
        let ending = if after.over {
            Some(
                self.ending(&data, &game, &events, data.game.version, req.now)
                    .await?,
            )
        } else {
            None
        };
        let ended_turn = d.ended_turn(&after);
        let GameData {
            game: row, seats, ..
        } = data;
        let recorded = recorded_with(&row.id, seats, &after, events, answer)?;
        let append = Append {
            game_id: row.id.clone(),
            expected_version: row.version,
            events: recorded.events.iter().map(|(r, _, _)| r.clone()).collect(),
            status: after.status,
            ended_turn,
            current_user_id: after.current_user_id,
            turn_changed: after.turn_changed,
            now: req.now,
            idempotency: idempotency_of(req.idempotency.clone(), &recorded, req.now),
            outbox,
            stream,
            drop_plans_of: plans.dropped,
            ending,
            // a vacation that lasts until the player's next move ends with it
            mover: match &req.decision {
                Decision::Play { user_id, .. } => Some(user_id.clone()),
                _ => None,
            },
        };
        self.write(append).await?;
        self.written(&req, &row.id, after.version, game, log);
        Ok(recorded)
    }

    /// The notifications of the decision: the player who missed a deadline, the final
    /// ranking when the game ends, else the turn of whoever decides now.
    async fn notices_for(
        &self,
        d: &Draft<'_>,
        log: Option<&RecentLog>,
        after: &After,
    ) -> Result<Vec<OutboxRow>, DecisionError> {
        let mut outbox = d.timeout_notices(self.notifier);
        if after.over {
            outbox.extend(d.finished_notices(self.notifier));
        } else if let Some(turn) = self.turn_notice(d, log, after).await? {
            outbox.push(turn);
        }
        Ok(outbox)
    }

    /// The log with the decision's events, when it is known: from the replay or the
    /// cache, or read now (once) when the turn's notification needs it.
    async fn log_after(
        &self,
        d: &Draft<'_>,
        log: Option<RecentLog>,
        after: &After,
    ) -> Result<Option<RecentLog>, DecisionError> {
        let mut log = match log {
            Some(log) => log,
            None if !after.over && d.turn_notified(after).is_some() => {
                // the replay came from the cache without the log's end: read the log now
                let (_, events, effects) =
                    self.replay(&d.data.game.id, d.data.game.version).await?;
                RecentLog { events, effects }
            }
            None => return Ok(None),
        };
        for (e, fx, _) in d.outcomes {
            log.events.push(e.clone());
            log.effects.push(fx.clone());
        }
        Ok(Some(log))
    }

    /// A new turn (tile drawn), or a decision that passed to someone else (a wagon
    /// owner, ...): the notification of whoever has to decide now, with what happened
    /// since their last turn (from `log`, which [`Decisions::log_after`] reads whenever
    /// it is needed).
    async fn turn_notice(
        &self,
        d: &Draft<'_>,
        log: Option<&RecentLog>,
        after: &After,
    ) -> Result<Option<OutboxRow>, DecisionError> {
        let (Some((p, s)), Some(log)) = (d.turn_notified(after), log) else {
            return Ok(None);
        };
        let since = notify::Since::compute(&log.events, &log.effects, p.player, &d.data.seats);
        let tile = p.tile.map(|t| tilepost_engine::catalog().get(t).id.clone());
        let deadline = self.deadline_of(d, s, after.turn_changed).await?;
        let rules = d.game.house_rules().to_values();
        let scores = scores_of(d.game, &d.data.seats);
        Ok(Some(notify::turn_started(
            self.notifier,
            s,
            &notify::Turn {
                game_id: &d.data.game.id,
                version: after.version,
                tile: tile.as_deref(),
                decision: Some(p.phase.name()),
                deadline,
                rules: Some(&rules),
                scores: &scores,
                board_size: Some(board_size(d.game)),
            },
            &since,
            d.now,
        )))
    }

    /// A game with a clock: when the decision of `to` is due, as the turn's email says
    /// it (the base deadline; a vacation only moves it out).
    async fn deadline_of(
        &self,
        d: &Draft<'_>,
        to: &SeatInfo,
        turn_changed: bool,
    ) -> Result<Option<i64>, DecisionError> {
        let gid = &d.data.game.id;
        let started = if turn_changed {
            d.now
        } else {
            d.data.game.turn_started_at.unwrap_or(d.now)
        };
        Ok(match d.clock {
            // the tournament's pause holds the clock: no deadline to tell
            Some(c) if c.paused_at.is_some() => None,
            Some(c) => {
                let allowance = match c.rule() {
                    correspondence::ClockRule::Bank { initial, .. } if turn_changed => self
                        .store
                        .seat_bank(gid.clone(), to.user_id.clone())
                        .await?
                        .unwrap_or(initial),
                    _ => correspondence::turn_allowance(c),
                };
                Some(started + allowance)
            }
            None => None,
        })
    }

    /// Appends; a race lost to another writer is [`DecisionError::Stale`] with the
    /// game's current version.
    async fn write(&self, append: Append) -> Result<(), DecisionError> {
        let gid = append.game_id.clone();
        match self.store.append(append).await {
            Ok(()) => Ok(()),
            Err(StoreError::Conflict(Conflict::IdempotencyKeyInUse)) => {
                Err(DecisionError::IdempotencyKeyInUse)
            }
            Err(StoreError::Conflict(_)) => {
                // another writer won
                let current = self
                    .store
                    .load_game(gid, false)
                    .await
                    .ok()
                    .flatten()
                    .map(|d| d.game.version);
                Err(DecisionError::Stale(current))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// After the write: the worker and the live stream wake, and the cache keeps the
    /// game.
    fn written(
        &self,
        req: &Request,
        game_id: &str,
        version: i64,
        game: Game,
        log: Option<RecentLog>,
    ) {
        // the worker (messages) and the live stream (at least the move itself)
        self.notifier.wake();
        // the next read of this version needs no replay, nor the next notification a
        // read of the log (an undo's event is kept only as the log replays it)
        let recent = match req.decision {
            Decision::Undo { .. } => None,
            _ => log.map(|l| recent_of(l, &game)),
        };
        self.replays
            .put_with_recent(game_id, version, Arc::new(game), recent);
    }
}

impl<'a> Draft<'a> {
    /// The event rows, numbered after the game's version, with their events and effects.
    fn events_of(&self) -> Vec<(EventRow, Event, Vec<Effect>)> {
        let gid = &self.data.game.id;
        let expected = self.data.game.version;
        self.outcomes
            .iter()
            .enumerate()
            .map(|(i, (ev, fx, by))| {
                let (kind, version, payload) = ev.encode();
                let row = EventRow {
                    game_id: gid.clone(),
                    seq: expected + 1 + i as i64,
                    event_type: kind.to_string(),
                    event_version: version as i32,
                    payload,
                    actor_id: self.actor.map(str::to_string),
                    created_at: self.now,
                    decided_by: by.map(|b| b.as_str().to_string()),
                };
                (row, ev.clone(), fx.clone())
            })
            .collect()
    }

    /// The game's version, status and next decider after the decision, and whether a
    /// new turn starts: a timeout, a tile drawn or a new decider starts one.
    fn status_after(&self) -> After {
        let over = self.game.is_over();
        let current_user_id = self
            .game
            .pending()
            .and_then(|p| seat_at(&self.data.seats, p.player))
            .map(|s| s.user_id.clone());
        let drawn = self.outcomes.iter().any(|(_, fx, _)| {
            fx.iter()
                .any(|e| matches!(e, Effect::TileDrawn { .. } | Effect::TileToHand { .. }))
        });
        let turn_changed = matches!(self.decision, Decision::TimeOut { .. })
            || drawn
            || (!over && current_user_id != self.data.game.current_user_id);
        After {
            version: self.data.game.version + self.outcomes.len() as i64,
            over,
            status: if over {
                GameStatus::Finished
            } else {
                GameStatus::Active
            },
            current_user_id,
            turn_changed,
        }
    }

    /// The plans dropped (a player's turn came: a tile placed) and the tiles plans
    /// placed.
    fn plans_after(&self) -> Plans {
        let mut plans = Plans {
            dropped: Vec::new(),
            played: Vec::new(),
        };
        for (ev, _, by) in self.outcomes {
            if let Event::Decided {
                player,
                action: Action::PlaceTile { .. },
                tile,
                ..
            } = ev
            {
                if let Some(s) = seat_at(&self.data.seats, *player) {
                    plans.dropped.push(s.user_id.clone());
                }
                if *by == Some(DecidedBy::Plan) {
                    plans
                        .played
                        .push((*player, tile.clone().unwrap_or_default()));
                }
            }
        }
        plans
    }

    /// Whoever decides now, with their pending decision, when they hear of it: a new
    /// turn, or a decision that passed to someone other than the decider.
    fn turn_notified(&self, after: &After) -> Option<(Pending, &'a SeatInfo)> {
        let p = self.game.pending()?;
        let s = seat_at(&self.data.seats, p.player)?;
        (after.turn_changed || self.actor != Some(s.user_id.as_str())).then_some((p, s))
    }

    /// The player who missed the deadline always hears of it: it changes their
    /// standing.
    fn timeout_notices(&self, n: &notify::Notifier) -> Vec<OutboxRow> {
        if !matches!(self.decision, Decision::TimeOut { .. }) {
            return Vec::new();
        }
        let data = self.data;
        let Some(late) = data
            .game
            .current_user_id
            .as_deref()
            .and_then(|u| data.seats.iter().find(|s| s.user_id == u))
        else {
            return Vec::new();
        };
        notify::timed_out(
            n,
            std::slice::from_ref(late),
            &data.game.id,
            &late.username,
            self.now,
        )
    }

    /// Every player hears the final ranking and how the end scored.
    fn finished_notices(&self, n: &notify::Notifier) -> Vec<OutboxRow> {
        let seats = &self.data.seats;
        let ranking: Vec<(String, i32, u8)> = self
            .game
            .ranking()
            .iter()
            .map(|r| {
                let name = seat_at(seats, r.player)
                    .map(|s| s.username.clone())
                    .unwrap_or_default();
                (name, r.score, r.rank)
            })
            .collect();
        // how the end scored: the final scorings come with the game's last event
        let at_end = self
            .outcomes
            .last()
            .map(|(_, fx, _)| notify::Since::at_end(fx, seats))
            .unwrap_or_default();
        notify::finished(n, seats, &self.data.game.id, &ranking, &at_end, self.now)
    }

    /// Each player whose plan placed a tile hears of it.
    fn plan_notices(
        &self,
        n: &notify::Notifier,
        played: &[(u8, String)],
        version: i64,
    ) -> Vec<OutboxRow> {
        played
            .iter()
            .filter_map(|(player, tile)| {
                let s = seat_at(&self.data.seats, *player)?;
                Some(notify::plan_played(
                    n,
                    s,
                    &self.data.game.id,
                    tile,
                    version,
                    self.now,
                ))
            })
            .collect()
    }

    /// Every player's live stream hears that the game moved on.
    fn stream_after(&self, after: &After) -> Vec<crate::store::NewStreamEvent> {
        let seats = &self.data.seats;
        let mover = self
            .actor
            .and_then(|a| seats.iter().find(|s| s.user_id == a))
            .map(|s| s.username.clone());
        notify::move_made(
            seats,
            &self.data.game.id,
            after.version,
            after.status,
            mover.as_deref(),
            self.now,
        )
    }

    /// The turn the decision ends (its player and start), when a new one starts and the
    /// game's clock is a time bank (which the store takes the turn's time from; a
    /// game's kind of clock never changes once it runs).
    fn ended_turn(&self, after: &After) -> Option<(String, i64)> {
        let g = &self.data.game;
        let bank = self
            .clock
            .is_some_and(|c| matches!(c.rule(), correspondence::ClockRule::Bank { .. }));
        if after.turn_changed && bank {
            g.current_user_id.clone().zip(g.turn_started_at)
        } else {
            None
        }
    }
}

/// The recorded decision with the caller's answer.
fn recorded_with(
    game_id: &str,
    seats: Vec<SeatInfo>,
    after: &After,
    events: Vec<(EventRow, Event, Vec<Effect>)>,
    answer: impl FnOnce(&Recorded) -> Result<String, String>,
) -> Result<Recorded, DecisionError> {
    let mut recorded = Recorded {
        game_id: game_id.to_string(),
        version: after.version,
        status: after.status,
        seats,
        events,
        answer: String::new(),
    };
    recorded.answer = answer(&recorded).map_err(DecisionError::Corrupt)?;
    Ok(recorded)
}

/// The caller's answer, stored with their idempotency key.
fn idempotency_of(
    key: Option<IdempotencyKey>,
    recorded: &Recorded,
    now: i64,
) -> Option<IdempotencyRow> {
    key.map(|k| IdempotencyRow {
        user_id: k.user_id,
        idem_key: k.key,
        request_hash: k.hash,
        status: 200,
        body: recorded.answer.clone(),
        created_at: now,
    })
}
