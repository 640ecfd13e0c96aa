//! Recording decisions: the one application service that writes to a running game.
//!
//! Every decision (a player's actions, a resignation, a missed deadline; later standing
//! orders and computer opponents) goes through [`Decisions::record`]: it loads the game
//! and replays its log once (or takes the replay from the cache), lets the engine
//! validate the decision, builds the event rows, the game's new status and next
//! decider, the notifications (with the final ranking when the game ends) and the
//! idempotency record, and appends all of it in one transaction. `UNIQUE (game_id, seq)`
//! and the version-checked update of the game row make a race a clean
//! [`DecisionError::Stale`]: exactly one writer wins.
//!
//! The log is read at most once and replayed at most once per write: a cached replay
//! saves both unless the next decider's notification needs what happened since their
//! last turn, and then one read of the log with one replay gives both the state and the
//! effects.
//!
//! Beside it: `start`, the plan that starts a game (the creation event with a fresh
//! secret seed and the first notifications), which the store runs inside the
//! transaction that takes the last seat; and `undo`, taking decisions back before a
//! reveal.

mod append;
pub mod auto;
mod start;
mod undo;

pub use start::start_plan;
pub use undo::undo_allowed;

use std::collections::HashMap;
use std::sync::Arc;

use tilepost_engine::{Action, Effect, Event, Game, PlayError};

use self::auto::Automation;

use crate::cache::{RecentLog, ReplayCache};
use crate::correspondence::{self, Deadline};
use crate::notify::{self, Notifier};
use crate::standing;
use crate::store::{
    AutomationRows, ClockRow, DecidedBy, DecisionRead, Ending, EventRow, GameData, GameStatus,
    Outcome, PlayerEnd, SeatInfo, Store, StoreError, Visibility,
};

/// An event to append with its effects and who took the decision (`None`: the
/// decider of the request).
type Step = (Event, Vec<Effect>, Option<DecidedBy>);

/// Who decides, and what.
#[derive(Clone, Debug)]
pub enum Decision {
    /// A seated player's actions, applied in order and atomically (all or none).
    Play {
        user_id: String,
        actions: Vec<Action>,
    },
    /// A seated player leaves the running game.
    Resign { user_id: String },
    /// The pending decision's player missed the deadline: they leave the game. `claimer`
    /// is the player who claims it; the deadline sweep claims as nobody.
    TimeOut { claimer: Option<String> },
    /// No decision of its own: the server takes what a player's new standing orders or
    /// plans decide now (nothing is written when they decide nothing).
    Settle { user_id: String },
    /// A seated player takes back their last decision (with the forced ones the server
    /// took for them after it), before anything hidden was revealed; see
    /// [`undo_allowed`] and `Game::undo`.
    Undo { user_id: String },
}

impl Decision {
    /// The user the decision is recorded for (the event row's actor).
    fn actor(&self) -> Option<&str> {
        match self {
            Decision::Play { user_id, .. }
            | Decision::Resign { user_id }
            | Decision::Settle { user_id }
            | Decision::Undo { user_id } => Some(user_id),
            Decision::TimeOut { claimer } => claimer.as_deref(),
        }
    }
}

/// An `Idempotency-Key` of the caller with the hash of its request: the answer is stored
/// with the decision, in the same transaction.
#[derive(Clone, Debug)]
pub struct IdempotencyKey {
    pub user_id: String,
    pub key: String,
    pub hash: String,
}

/// How often a resignation is tried again on the game's newer version when another
/// writer won the race.
const RESIGN_RETRIES: usize = 16;

/// A decision to record.
#[derive(Clone, Debug)]
pub struct Request {
    pub game_id: String,
    pub decision: Decision,
    /// The version the decider saw; `None`: the current one.
    pub expected_version: Option<i64>,
    pub idempotency: Option<IdempotencyKey>,
    pub now: i64,
}

/// A recorded decision.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub game_id: String,
    /// The game's version after the decision.
    pub version: i64,
    pub status: GameStatus,
    pub seats: Vec<SeatInfo>,
    /// The stored rows with the events and the effects the engine derived, in order.
    pub events: Vec<(EventRow, Event, Vec<Effect>)>,
    /// The answer the caller built (stored with the idempotency key when there is one).
    pub answer: String,
}

/// Why a decision was not recorded.
#[derive(Debug)]
pub enum DecisionError {
    GameNotFound,
    /// The decider has no seat at this game.
    NotAPlayer,
    /// The game waits for players.
    NotStarted,
    /// The game is not running (a timeout of a game that is over or has no decision).
    NotRunning,
    GameOver,
    /// The decider has left the game.
    NotInGame,
    /// The game moved on from the expected version; its current version when known.
    Stale(Option<i64>),
    /// The engine refused action `index`.
    Refused {
        index: usize,
        error: PlayError,
    },
    /// The game allows no undo (rated; see [`undo_allowed`]).
    UndoNotAllowed,
    /// The engine refused the undo (`undo-not-yours`, `undo-past-reveal`,
    /// `nothing-to-undo`).
    UndoRefused(PlayError),
    /// A timeout of a game without a clock.
    NoClock,
    /// A timeout claimed before the deadline (given).
    NotDue(i64),
    /// A timeout claimed by the player whose decision is pending.
    OwnTimeout,
    /// Another request with the same idempotency key is being recorded.
    IdempotencyKeyInUse,
    Store(StoreError),
    /// The log cannot be replayed or contradicts the game's row.
    Corrupt(String),
}

impl From<StoreError> for DecisionError {
    fn from(e: StoreError) -> Self {
        DecisionError::Store(e)
    }
}

/// The service (cheap to build per request).
pub struct Decisions<'a> {
    pub store: &'a Store,
    pub notifier: &'a Notifier,
    pub replays: &'a ReplayCache,
}

/// The replayed game before the decision, with the log and its effects when they were
/// read or cached.
struct Loaded {
    data: GameData,
    game: Game,
    /// The log (or its end, from the cache) with its effects, when known.
    log: Option<RecentLog>,
    /// The game was replayed from the log (not taken from the cache).
    replayed: bool,
}

fn seat_of(seats: &[SeatInfo], user_id: &str) -> Option<u8> {
    seats
        .iter()
        .find(|s| s.user_id == user_id)
        .map(|s| s.seat as u8)
}

/// The refusal of a decider without a seat: a private game is not there for them.
fn not_a_player(data: &GameData) -> DecisionError {
    match data.game.visibility {
        Visibility::Public => DecisionError::NotAPlayer,
        Visibility::Private => DecisionError::GameNotFound,
    }
}

fn seat_at(seats: &[SeatInfo], seat: u8) -> Option<&SeatInfo> {
    seats.iter().find(|s| s.seat == seat as i32)
}

/// Decodes stored rows into engine events; a row that does not decode names its game.
pub fn decode_events(rows: &[EventRow]) -> Result<Vec<Event>, String> {
    rows.iter()
        .map(|r| {
            Event::decode(&r.event_type, r.event_version.max(0) as u32, &r.payload)
                .map_err(|e| format!("game {} event {}: {e}", r.game_id, r.seq))
        })
        .collect()
}

impl Decisions<'_> {
    /// Records `req.decision`; see the module documentation. `answer` builds the
    /// caller's answer from what is about to be recorded (stored with the idempotency
    /// key, in the same transaction).
    pub async fn record(
        &self,
        req: Request,
        answer: impl Fn(&Recorded) -> Result<String, String>,
    ) -> Result<Recorded, DecisionError> {
        // a resignation that names no version has nothing to be stale about: when another
        // writer moved the game on meanwhile, it is recorded on the new version
        let retries = match (&req.decision, req.expected_version) {
            (Decision::Resign { .. }, None) => RESIGN_RETRIES,
            _ => 0,
        };
        let mut tried = 0;
        loop {
            match self.record_once(req.clone(), &answer).await {
                Err(DecisionError::Stale(_)) if tried < retries => tried += 1,
                other => return other,
            }
        }
    }

    async fn record_once(
        &self,
        req: Request,
        answer: impl FnOnce(&Recorded) -> Result<String, String>,
    ) -> Result<Recorded, DecisionError> {
        // the players' orders and plans are read with the game, for the decisions the
        // server takes after this one (none after an undo)
        let undo = matches!(req.decision, Decision::Undo { .. });
        let DecisionRead {
            data,
            clock,
            automation,
        } = self
            .store
            .load_for_decision(req.game_id.clone(), !undo)
            .await?
            .ok_or(DecisionError::GameNotFound)?;
        let deadline = match &req.decision {
            Decision::TimeOut { claimer } => Some(
                self.check_timeout(&data, clock.as_ref(), claimer, req.now)
                    .await?,
            ),
            Decision::Play { user_id, .. }
            | Decision::Resign { user_id }
            | Decision::Settle { user_id }
            | Decision::Undo { user_id } => {
                seat_of(&data.seats, user_id).ok_or_else(|| not_a_player(&data))?;
                if data.game.status == GameStatus::Open || data.game.version < 1 {
                    return Err(DecisionError::NotStarted);
                }
                if matches!(
                    req.decision,
                    Decision::Play { .. } | Decision::Settle { .. } | Decision::Undo { .. }
                ) && data.game.status == GameStatus::Finished
                {
                    return Err(DecisionError::GameOver);
                }
                if matches!(req.decision, Decision::Undo { .. }) {
                    let in_tournament = self
                        .store
                        .tournament_of_game(data.game.id.clone())
                        .await?
                        .is_some();
                    if !undo_allowed(&data.game, in_tournament) {
                        return Err(DecisionError::UndoNotAllowed);
                    }
                }
                None
            }
        };
        let expected = data.game.version;
        if req.expected_version.is_some_and(|v| v != expected) {
            return Err(DecisionError::Stale(Some(expected)));
        }
        let mut loaded = self.load(data).await?;
        let mut outcomes: Vec<Step> = Vec::new();
        if let Decision::Undo { user_id } = &req.decision {
            // nothing is settled after an undo: the decisions the server took for the
            // player after their own were taken back with it
            outcomes.push(self.undo(&mut loaded, user_id).await?);
        } else {
            outcomes.extend(
                decide(&mut loaded, &req.decision, deadline, req.now)?
                    .into_iter()
                    .map(|(e, fx)| (e, fx, None)),
            );
            let rows = automation.unwrap_or_default();
            settle(&mut loaded, &rows, &mut outcomes)?;
        }
        if outcomes.is_empty() {
            // nothing to record (a settling that decided nothing)
            let mut recorded = Recorded {
                game_id: loaded.data.game.id.clone(),
                version: loaded.data.game.version,
                status: loaded.data.game.status,
                seats: loaded.data.seats,
                events: Vec::new(),
                answer: String::new(),
            };
            recorded.answer = answer(&recorded).map_err(DecisionError::Corrupt)?;
            return Ok(recorded);
        }
        self.append(req, loaded, clock, outcomes, answer).await
    }

    /// The game as it is now: its rows and its replayed state (from the cache when it
    /// holds this version). For deciders that need the state before they decide (the
    /// computer opponents); a replay is kept in the cache, so recording their decision
    /// does not replay the log again.
    pub async fn current(&self, game_id: &str) -> Result<(GameData, Game), DecisionError> {
        let data = self
            .store
            .load_game(game_id.to_string(), false)
            .await?
            .ok_or(DecisionError::GameNotFound)?;
        let loaded = self.load(data).await?;
        if loaded.replayed {
            let (id, version) = (&loaded.data.game.id, loaded.data.game.version);
            let recent = loaded.log.clone().map(|l| recent_of(l, &loaded.game));
            self.replays
                .put_with_recent(id, version, Arc::new(loaded.game.clone()), recent);
        }
        Ok((loaded.data, loaded.game))
    }

    /// The checks of a timeout that need no replay: the claimer's seat, the clock and
    /// the deadline.
    async fn check_timeout(
        &self,
        data: &GameData,
        clock: Option<&ClockRow>,
        claimer: &Option<String>,
        now: i64,
    ) -> Result<Deadline, DecisionError> {
        if let Some(c) = claimer {
            seat_of(&data.seats, c).ok_or_else(|| not_a_player(data))?;
        }
        let clock = clock.ok_or(DecisionError::NoClock)?;
        if data.game.status != GameStatus::Active {
            return Err(DecisionError::NotRunning);
        }
        let (Some(user), Some(started)) =
            (data.game.current_user_id.clone(), data.game.turn_started_at)
        else {
            return Err(DecisionError::NotRunning);
        };
        let vacations = self.store.vacations_of(vec![user], started).await?;
        correspondence::deadline(&data.game, clock, &vacations, now)
            .ok_or(DecisionError::NotRunning)
    }

    /// The game at the summary row's version: from the cache, or the log read and
    /// replayed once (with its effects, kept for the notifications).
    async fn load(&self, data: GameData) -> Result<Loaded, DecisionError> {
        let (id, version) = (data.game.id.clone(), data.game.version);
        if let Some((g, recent)) = self.replays.get_with_recent(&id, version) {
            return Ok(Loaded {
                data,
                game: Game::clone(&g),
                log: recent.map(|r| RecentLog::clone(&r)),
                replayed: false,
            });
        }
        let (game, events, effects) = self.replay(&id, version).await?;
        Ok(Loaded {
            data,
            game,
            log: Some(RecentLog { events, effects }),
            replayed: true,
        })
    }

    async fn replay(
        &self,
        id: &str,
        version: i64,
    ) -> Result<(Game, Vec<Event>, Vec<Vec<Effect>>), DecisionError> {
        let rows = self.store.events_upto(id.to_string(), version).await?;
        let events = decode_events(&rows).map_err(DecisionError::Corrupt)?;
        let (game, effects) = Game::replay_with_effects(&events)
            .map_err(|e| DecisionError::Corrupt(format!("game {id}: {e}")))?;
        Ok((game, events, effects))
    }
}

impl Decisions<'_> {
    /// A game's end as its players' standing sees it: each player's rank, score, how
    /// their part ended and their moves' times (from the whole log, read once), and the
    /// pool of a rated game.
    async fn ending(
        &self,
        data: &GameData,
        game: &Game,
        new: &[(EventRow, Event, Vec<Effect>)],
        expected: i64,
        now: i64,
    ) -> Result<Ending, DecisionError> {
        let mut rows = self
            .store
            .events_upto(data.game.id.clone(), expected)
            .await?;
        let mut events = decode_events(&rows).map_err(DecisionError::Corrupt)?;
        for (r, e, _) in new {
            rows.push(r.clone());
            events.push(e.clone());
        }
        let mut left: HashMap<u8, Outcome> = HashMap::new();
        let steps: Vec<standing::Step> = rows
            .iter()
            .zip(&events)
            .map(|(r, e)| {
                let (actor, decider) = match e {
                    // leaving (or being timed out) is neither a move nor a decision
                    Event::PlayerResigned { player, reason } => {
                        let how = if reason == "timed_out" {
                            Outcome::TimedOut
                        } else {
                            Outcome::Resigned
                        };
                        left.insert(*player, how);
                        (None, None)
                    }
                    Event::Decided { player, .. } => {
                        // the decisions the server took for a player are not their moves;
                        // those their standing orders and conditional turns took are
                        // still their own decisions, a forced one is not
                        let actor = if r.decided_by.is_none() {
                            r.actor_id.clone()
                        } else {
                            None
                        };
                        let own = match r.decided_by.as_deref() {
                            None => true,
                            Some(by) => {
                                DecidedBy::from_column(by).is_some_and(DecidedBy::players_own)
                            }
                        };
                        let decider = if own {
                            seat_at(&data.seats, *player).map(|s| s.user_id.clone())
                        } else {
                            None
                        };
                        (actor, decider)
                    }
                    // neither is a move
                    Event::GameCreated { .. } | Event::Undone { .. } => (None, None),
                };
                standing::Step {
                    actor,
                    decider,
                    at: r.created_at,
                }
            })
            .collect();
        let times = standing::move_times(&steps);
        let decisions = standing::decisions(&steps);
        let players = game
            .ranking()
            .iter()
            .filter_map(|r| {
                let seat = seat_at(&data.seats, r.player)?;
                let (moves, move_ms) = times.get(&seat.user_id).copied().unwrap_or((0, 0));
                Some(PlayerEnd {
                    user_id: seat.user_id.clone(),
                    rank: r.rank,
                    score: r.score,
                    outcome: left.get(&r.player).copied().unwrap_or(Outcome::Finished),
                    moves,
                    move_ms,
                    decisions: decisions.get(&seat.user_id).copied().unwrap_or(0),
                })
            })
            .collect();
        Ok(Ending {
            game_id: data.game.id.clone(),
            ended_at: now,
            seats: data.seats.len() as i32,
            public: data.game.visibility == Visibility::Public,
            pool: data
                .game
                .rated
                .then(|| standing::Pool::of(&data.game.expansions)),
            players,
        })
    }
}

/// Takes the decisions the server takes for the players after `outcomes` (see
/// [`auto`]), from the players' orders and plans (`rows`, read with the game).
fn settle(
    loaded: &mut Loaded,
    rows: &AutomationRows,
    outcomes: &mut Vec<Step>,
) -> Result<(), DecisionError> {
    if loaded.game.is_over() {
        return Ok(());
    }
    let seats = &loaded.data.seats;
    let automation = Automation::from_rows(rows, &loaded.data.game.id, |u| seat_of(seats, u));
    let taken = auto::settle(&mut loaded.game, &automation)
        .map_err(|b| DecisionError::Corrupt(format!("game {}: {}", loaded.data.game.id, b.0)))?;
    outcomes.extend(
        taken
            .into_iter()
            .map(|t| (t.outcome.event, t.outcome.effects, Some(t.by))),
    );
    Ok(())
}

/// Lets the engine judge the decision on the replayed game; returns what it produced.
fn decide(
    loaded: &mut Loaded,
    decision: &Decision,
    deadline: Option<Deadline>,
    now: i64,
) -> Result<Vec<(Event, Vec<Effect>)>, DecisionError> {
    let game = &mut loaded.game;
    let seats = &loaded.data.seats;
    match decision {
        Decision::Play { user_id, actions } => {
            let seat = seat_of(seats, user_id).ok_or(DecisionError::NotAPlayer)?;
            if game.is_over() {
                return Err(DecisionError::GameOver);
            }
            // the engine's move gate: all or nothing, and never past a tile draw, a die
            // roll or a message drawn (the answer may not depend on what was hidden)
            let outcomes = game
                .play_move(seat, actions)
                .map_err(|e| DecisionError::Refused {
                    index: e.index,
                    error: e.error,
                })?;
            Ok(outcomes.into_iter().map(|o| (o.event, o.effects)).collect())
        }
        Decision::Resign { user_id } => {
            let seat = seat_of(seats, user_id).ok_or(DecisionError::NotAPlayer)?;
            let o = game.resign(seat, false).map_err(|e| match e {
                PlayError::NotInGame(_) => DecisionError::NotInGame,
                error => DecisionError::Refused { index: 0, error },
            })?;
            Ok(vec![(o.event, o.effects)])
        }
        Decision::Settle { .. } | Decision::Undo { .. } => Ok(Vec::new()),
        Decision::TimeOut { claimer } => {
            let pending = game.pending().ok_or(DecisionError::NotRunning)?;
            let late = seat_at(seats, pending.player)
                .ok_or_else(|| DecisionError::Corrupt("pending seat is empty".into()))?;
            if loaded.data.game.current_user_id.as_deref() != Some(late.user_id.as_str()) {
                // the summary row is behind the log: someone just moved
                return Err(DecisionError::Stale(None));
            }
            if let Some(c) = claimer {
                if *c == late.user_id {
                    return Err(DecisionError::OwnTimeout);
                }
                let active = seat_of(seats, c)
                    .and_then(|s| game.players().get(s as usize))
                    .is_some_and(|p| p.active);
                if !active {
                    return Err(DecisionError::NotInGame);
                }
            }
            if let Some(d) = deadline {
                if d.paused || d.at > now {
                    return Err(DecisionError::NotDue(d.at));
                }
            }
            let o = game.resign(pending.player, true).map_err(|e| match e {
                PlayError::GameOver => DecisionError::NotRunning,
                other => DecisionError::Corrupt(other.to_string()),
            })?;
            Ok(vec![(o.event, o.effects)])
        }
    }
}

/// The end of `log` that the next notifications read (see [`notify::Since::needed_from`]),
/// to keep in the cache with `game`.
fn recent_of(mut log: RecentLog, game: &Game) -> Arc<RecentLog> {
    let from = notify::Since::needed_from(&log.events, game.players().len() as u8);
    log.events.drain(..from);
    log.effects.drain(..from);
    Arc::new(log)
}

/// Every player's score `(username, points)`, in seat order (for the turn email).
fn scores_of(game: &Game, seats: &[SeatInfo]) -> Vec<(String, i32)> {
    game.players()
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let name = seat_at(seats, i as u8)
                .map(|s| s.username.clone())
                .unwrap_or_else(|| format!("seat {i}"));
            (name, p.score)
        })
        .collect()
}

/// The size of the board's picture as `GET …/board.png` draws it by default.
fn board_size(game: &Game) -> (u32, u32) {
    tilepost_render::board_size(
        game,
        &tilepost_render::BoardOptions {
            tile_px: tilepost_render::SERVED_TILE_PX,
            ..Default::default()
        },
    )
}
