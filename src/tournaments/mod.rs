//! Recording tournament decisions: the one application service that writes to a
//! tournament, as [`crate::moves`] is for games.
//!
//! Every write (creation, a registration, a withdrawal, the organiser's start, and the
//! progress the server makes on its own: results of ended games, the round cap's
//! decisions, stage ends, the next round's pairing and its games) runs inside one
//! transaction of [`Store::tournament_write`], under the tournament's row lock: the log
//! is read and replayed there with the pure tournament crate, which validates the
//! decision and computes what follows; the new events, the games of a new round
//! (created and started with the games' own machinery, seated in the start order the
//! pairing chose) and the summary row are written in the same transaction. A pairing is
//! therefore computed once, by the one writer holding the lock, from the log as it is;
//! a second process arriving at the same moment waits for the lock, replays the log with
//! the pairing in it and has nothing left to do.
//!
//! Results flow back from games by [`Tournaments::advance`]: it is called after a decision that
//! ended a game (the move and resignation handlers, the bot worker, the deadline
//! sweep) and by the sweep for every tournament that has an ended game without a
//! recorded result, a round past its cap or a round whose calendar date came, so no
//! event waits for nobody even when a process stopped between a game's end and its
//! result.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tilepost_tournament::{
    Adjustment, CapDecision, Decision as TDecision, Event, Format, GameResult, State, Tournament,
};

mod advance;
mod notices;
mod organiser;

pub use advance::{game_ended, sweep};

use notices::Happened;

use crate::cache::ReplayCache;
use crate::moves::{Decision, Decisions, Request};
use crate::notify::Notifier;
use crate::store::{
    Assistance, GameRow, GameStatus, LinkedGame, NewTournamentGame, Outcome, Store, StoreError,
    TournamentCtx, TournamentEventRow, TournamentRow, TournamentStatus, TournamentWrite,
    Visibility,
};

/// A day in milliseconds.
const DAY_MS: i64 = 86_400_000;

/// The most rounds one call advances through (rounds without a game to play, such as a
/// round of byes, follow each other at once).
const MAX_STEPS: usize = 64;

/// Everything fixed when a tournament is created: the crate's config (stages, formats,
/// match length, table size, rank points, tie-breaks, bye value, withdrawal rule,
/// round cap) and the server's own settings for its games.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub config: tilepost_tournament::Config,
    /// The clock of each game: days per move (`None`: no clock).
    #[serde(default)]
    pub days_per_move: Option<u32>,
    /// Whether the organiser may enter the server's computer opponents.
    #[serde(default)]
    pub computer_opponents: bool,
    /// Expansion ids of every game (empty: the base game).
    #[serde(default)]
    pub expansions: Vec<String>,
    /// House rules of every game: the variants that differ from the standard rules.
    #[serde(default)]
    pub rules: BTreeMap<String, String>,
    /// Every game is rated (in the pool of `expansions`).
    #[serde(default)]
    pub rated: bool,
    /// What every game's analysis shows while it runs. An event stored before it was
    /// chosen keeps what its games had then: `scores`.
    #[serde(default = "assistance_before")]
    pub assistance: Assistance,
    /// The earliest start of each round, counted over the whole event (ms since the
    /// epoch; a round without a date starts when the one before ends).
    #[serde(default)]
    pub round_starts: Vec<i64>,
    /// The most players who may register.
    pub max_players: u32,
    /// The event starts by itself once `max_players` are registered.
    #[serde(default)]
    pub start_when_full: bool,
    /// When the sweep starts the event by itself (ms since the epoch): with at least 2
    /// players it starts, with fewer it ends without a round. The organiser may start
    /// it earlier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starts_at: Option<i64>,
    /// Bounds on the rating of a player who registers, in the pool of the games (a player without a
    /// rating counts as [`UNRATED`]); computer opponents the organiser enters are not
    /// bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rating: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rating: Option<i32>,
    /// Only the players the organiser invited (`player_invited`) may register.
    #[serde(default)]
    pub invitation_only: bool,
}

/// The assistance of the games of an event stored before the organiser chose it.
fn assistance_before() -> Assistance {
    Assistance::Scores
}

/// The rating a player without one counts as for an event's bounds (a first rating).
pub const UNRATED: i32 = 1500;

/// Why a tournament decision was not recorded.
#[derive(Debug)]
pub enum TournamentError {
    NotFound,
    /// Only the organiser may do this.
    NotOrganiser,
    /// The tournament crate refused the decision.
    Refused(tilepost_tournament::Error),
    /// The tournament has started (a start asked twice, …).
    AlreadyStarted,
    /// The tournament has ended.
    Ended,
    /// The tournament is not running (a pause before the start).
    NotRunning,
    /// The most players allowed are registered.
    Full,
    /// The organiser did not allow computer opponents.
    ComputerOpponentsNotAllowed,
    /// A rated event takes no account marked as a bot.
    BotAccountsNotAllowed,
    /// The player's rating is outside the event's bounds.
    RatingOutOfBounds,
    /// The event is by invitation only, and the player was not invited.
    NotInvited,
    Store(StoreError),
    /// The log cannot be replayed or a stored row cannot be read.
    Corrupt(String),
}

impl From<StoreError> for TournamentError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound => TournamentError::NotFound,
            other => TournamentError::Store(other),
        }
    }
}

/// Decodes a tournament's stored rows.
pub fn decode(rows: &[TournamentEventRow]) -> Result<Vec<Event>, String> {
    rows.iter()
        .map(|r| {
            Event::decode(&r.event_type, r.event_version.max(0) as u32, &r.payload)
                .map_err(|e| format!("tournament {} event {}: {e}", r.tournament_id, r.seq))
        })
        .collect()
}

/// The settings of a stored row.
pub fn settings_of(row: &TournamentRow) -> Result<Settings, String> {
    serde_json::from_str(&row.config).map_err(|e| format!("tournament {}: {e}", row.id))
}

/// The earliest start of an event's next round, when it has a calendar date still to
/// come: while registering, the later of its start date (`starts_at`) and the first
/// round's date (either alone when only one is set); while running, the date of the
/// round after those paired (`round_starts` counts over the whole event). A round
/// starts then if the round before it is over, else as soon as it is; a round without
/// a date, or an event that ended, has none.
pub fn next_round_date(row: &TournamentRow, settings: &Settings, now: i64) -> Option<i64> {
    let at = match row.status()? {
        TournamentStatus::Registering => {
            match (settings.starts_at, settings.round_starts.first().copied()) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            }
        }
        TournamentStatus::Running => {
            let k = usize::try_from(row.rounds_paired).unwrap_or(0);
            settings.round_starts.get(k).copied()
        }
        _ => None,
    }?;
    (at > now).then_some(at)
}

/// Replays a log into its state.
pub fn replay(rows: &[TournamentEventRow]) -> Result<State, String> {
    let events = decode(rows)?;
    Tournament::replay(&events).map_err(|e| format!("replay: {e}"))
}

/// The service (cheap to build per request).
pub struct Tournaments<'a> {
    pub store: &'a Store,
    pub notifier: &'a Arc<Notifier>,
    pub replays: &'a ReplayCache,
}

/// Appends `event` to the write (applied to `state` first: a refused event changes
/// nothing and refuses the write).
fn push(
    state: &mut State,
    w: &mut TournamentWrite,
    ctx: &TournamentCtx,
    event: Event,
    actor: Option<&str>,
    now: i64,
) -> Result<i64, TournamentError> {
    state.apply(&event).map_err(TournamentError::Refused)?;
    // the players and the count of rounds kept beside the log
    match &event {
        Event::PlayerRegistered { player, .. } => w.entrants.push((player.clone(), false)),
        Event::PlayerWithdrew { player }
        | Event::OrganiserAdjusted {
            adjustment: Adjustment::PlayerRemoved { player },
            ..
        } => w.entrants.push((player.clone(), true)),
        Event::RoundPaired { .. } => w.rounds_paired += 1,
        _ => {}
    }
    let seq = ctx.row.version + w.events.len() as i64 + 1;
    let (kind, version, payload) = event.encode();
    w.events.push(TournamentEventRow {
        tournament_id: ctx.row.id.clone(),
        seq,
        event_type: kind.to_string(),
        event_version: version as i32,
        payload,
        actor_id: actor.map(str::to_string),
        created_at: now,
    });
    Ok(seq)
}

/// The state of the log as the transaction sees it.
fn state_of(ctx: &TournamentCtx) -> Result<(State, Settings), TournamentError> {
    let state = replay(&ctx.events).map_err(TournamentError::Corrupt)?;
    let settings = settings_of(&ctx.row).map_err(TournamentError::Corrupt)?;
    Ok((state, settings))
}

/// A table's players (ids) in its seat order.
fn table_seats(state: &State, stage: u32, round: u32, table: u32) -> Option<Vec<String>> {
    let st = state.stages().get(stage as usize)?;
    let r = st.rounds.get(round.checked_sub(1)? as usize)?;
    let t = r.tables.iter().find(|t| t.table == table)?;
    Some(
        t.seats
            .iter()
            .filter_map(|p| state.players().get(*p).map(|p| p.id.clone()))
            .collect(),
    )
}

/// An ended game's result in the table's seat order: each player's score; players who
/// resigned or ran out of time forfeit.
fn result_of(seats: &[String], game: &LinkedGame) -> GameResult {
    let mut scores = Vec::with_capacity(seats.len());
    let mut forfeits = Vec::new();
    for (i, id) in seats.iter().enumerate() {
        match game.results.iter().find(|(u, _, _)| u == id) {
            Some((_, score, outcome)) => {
                scores.push(i64::from(*score));
                if outcome != Outcome::Finished.as_str() {
                    forfeits.push(i as u8);
                }
            }
            None => {
                scores.push(0);
                forfeits.push(i as u8);
            }
        }
    }
    GameResult {
        scores,
        decision: (!forfeits.is_empty() && forfeits.len() < seats.len())
            .then_some(TDecision::Forfeit { seats: forfeits }),
    }
}

/// Everything the server does on its own once the log says so: the results of ended
/// games (and of games decided at the round cap, `capped`), stage ends, the next
/// round's pairing when its time has come, and the games of the pending matches.
fn progress(
    state: &mut State,
    settings: &Settings,
    ctx: &TournamentCtx,
    w: &mut TournamentWrite,
    capped: &HashMap<String, GameResult>,
    notifier: &Arc<Notifier>,
    now: i64,
) -> Result<(), TournamentError> {
    let key = |g: &LinkedGame| {
        (
            g.stage as u32,
            g.round as u32,
            g.table_no as u32,
            g.game_no as u32,
        )
    };
    let links: HashMap<(u32, u32, u32, u32), &LinkedGame> =
        ctx.open_games.iter().map(|g| (key(g), g)).collect();
    let mut happened = Vec::new();
    // a knockout's players out before this write (the log as the transaction read it)
    let stage = state.current_stage();
    let knockout = state
        .stages()
        .get(stage)
        .is_some_and(|s| matches!(s.config.format, Format::Knockout { .. }));
    let was_out: HashSet<String> = if knockout {
        replay(&ctx.events)
            .map_err(TournamentError::Corrupt)?
            .knocked_out(stage)
            .into_iter()
            .map(|k| k.player)
            .collect()
    } else {
        HashSet::new()
    };
    // the results
    for p in state.pending_games() {
        let Some(g) = links.get(&(p.stage, p.round, p.table, p.game)) else {
            continue;
        };
        let Some(seats) = table_seats(state, p.stage, p.round, p.table) else {
            continue;
        };
        let result = if g.status == GameStatus::Finished && !g.results.is_empty() {
            result_of(&seats, g)
        } else if let Some(r) = capped.get(&g.game_id) {
            r.clone()
        } else {
            continue;
        };
        let e = Event::ResultRecorded {
            stage: p.stage,
            round: p.round,
            table: p.table,
            game: p.game,
            result,
        };
        let seq = push(state, w, ctx, e, None, now)?;
        w.results.push((g.game_id.clone(), seq));
    }
    // the players a match put out, told at once while the stage goes on (a match that
    // ends the stage is told by the stage's own message)
    if knockout && !state.stage_complete() {
        for k in state.knocked_out(stage) {
            if !was_out.contains(&k.player) {
                happened.push(Happened::KnockedOut {
                    stage: stage as u32,
                    out: k,
                });
            }
        }
    }
    // stage ends and new rounds
    let played_rounds = |s: &State| s.stages().iter().map(|st| st.rounds.len()).sum::<usize>();
    for _ in 0..MAX_STEPS {
        if state.is_finished() {
            if ctx.row.status() != Some(TournamentStatus::Ended) {
                happened.push(Happened::Ended);
            }
            w.status = Some(TournamentStatus::Ended);
            w.round_deadline = Some(None);
            w.next_round_at = Some(None);
            if ctx.row.paused_at.is_some() {
                w.paused_at = Some(None);
            }
            break;
        }
        if !state.pending_games().is_empty() {
            break;
        }
        if state.stage_complete() {
            let e = state.finish_stage().map_err(TournamentError::Refused)?;
            if let Event::StageFinished { stage, qualified } = &e {
                happened.push(Happened::StageEnded {
                    stage: *stage,
                    qualified: qualified.clone(),
                });
            }
            push(state, w, ctx, e, None, now)?;
            continue;
        }
        if state.is_paused() {
            // the organiser's pause: the next round waits for the event to resume
            break;
        }
        let k = played_rounds(state);
        if let Some(at) = settings.round_starts.get(k).copied().filter(|at| *at > now) {
            // the round waits for its date; the sweep pairs it then
            if ctx.row.next_round_at != Some(at) {
                w.next_round_at = Some(Some(at));
            }
            if ctx.row.round_deadline.is_some() {
                w.round_deadline = Some(None);
            }
            break;
        }
        let pairing = state
            .next_pairing(rand::random::<u64>())
            .map_err(TournamentError::Refused)?;
        let (stage, round) = (pairing.stage, pairing.round);
        let paired = pairing.into_event();
        happened.push(Happened::Paired(paired.clone()));
        push(state, w, ctx, paired, None, now)?;
        let cap = settings.config.round_cap.days;
        w.current = Some((stage as i32, round as i32));
        w.round_started_at = Some(Some(now));
        w.round_deadline = Some((cap > 0).then(|| now + i64::from(cap) * DAY_MS));
        w.next_round_at = Some(None);
    }
    // the games of the pending matches that have none yet
    let pending = if state.is_paused() {
        // (they start when the event resumes, their clocks with them)
        Vec::new()
    } else {
        state.pending_games()
    };
    for p in pending {
        if links.contains_key(&(p.stage, p.round, p.table, p.game)) {
            continue;
        }
        let days = settings.days_per_move.map(|d| d as i32);
        let game = GameRow {
            id: uuid::Uuid::new_v4().to_string(),
            creator_id: ctx.row.organiser_id.clone(),
            status: GameStatus::Open,
            seats: p.start_order.len() as i32,
            expansions: settings.expansions.clone(),
            tile_order: None,
            version: 0,
            current_user_id: None,
            created_at: now,
            updated_at: now,
            turn_started_at: None,
            rules: settings.rules.clone(),
            rated: settings.rated,
            visibility: Visibility::Public,
            bot_accounts: !settings.rated,
            assistance: settings.assistance,
        };
        w.games.push(NewTournamentGame {
            game,
            players: p.start_order.clone(),
            days_per_move: days,
            stage: p.stage as i32,
            round: p.round as i32,
            table_no: p.table as i32,
            game_no: p.game as i32,
            start: Box::new(crate::moves::start_plan(
                notifier.clone(),
                now,
                days.map(|d| i64::from(d) * crate::correspondence::DAY_MS),
            )),
        });
    }
    let news = notices::notices(state, ctx, &w.games, happened, notifier, now);
    w.notices = notices::and(w.notices.take(), news);
    Ok(())
}

/// The event starts: it is running, and its first round is paired with its games.
fn begin(
    state: &mut State,
    settings: &Settings,
    ctx: &TournamentCtx,
    w: &mut TournamentWrite,
    notifier: &Arc<Notifier>,
    now: i64,
) -> Result<(), TournamentError> {
    w.status = Some(TournamentStatus::Running);
    progress(state, settings, ctx, w, &HashMap::new(), notifier, now)
}

/// While the event runs, what a decision of a player or the organiser changes follows
/// at once (see [`progress`]): a late entry paired from the next round, a walkover, a
/// stage's end, the next round.
fn follow(
    state: &mut State,
    settings: &Settings,
    ctx: &TournamentCtx,
    w: &mut TournamentWrite,
    notifier: &Arc<Notifier>,
    now: i64,
) -> Result<(), TournamentError> {
    if ctx.row.status() != Some(TournamentStatus::Running) {
        return Ok(());
    }
    progress(state, settings, ctx, w, &HashMap::new(), notifier, now)
}

impl Tournaments<'_> {
    /// Creates a tournament (`tournament_created`, with the validated config).
    pub async fn create(
        &self,
        organiser_id: &str,
        name: String,
        settings: Settings,
        now: i64,
    ) -> Result<TournamentRow, TournamentError> {
        State::new(settings.config.clone()).map_err(TournamentError::Refused)?;
        let id = uuid::Uuid::new_v4().to_string();
        let config = serde_json::to_string(&settings)
            .map_err(|e| TournamentError::Corrupt(e.to_string()))?;
        let row = TournamentRow {
            id: id.clone(),
            name,
            organiser_id: organiser_id.to_string(),
            status: TournamentStatus::Registering.as_str().to_string(),
            config,
            version: 1,
            players: 0,
            current_stage: 0,
            current_round: 0,
            round_started_at: None,
            round_deadline: None,
            next_round_at: settings.starts_at,
            created_at: now,
            updated_at: now,
            paused_at: None,
            rounds_paired: 0,
        };
        let (kind, version, payload) = Event::TournamentCreated {
            config: settings.config,
        }
        .encode();
        let first = TournamentEventRow {
            tournament_id: id,
            seq: 1,
            event_type: kind.to_string(),
            event_version: version as i32,
            payload,
            actor_id: Some(organiser_id.to_string()),
            created_at: now,
        };
        self.store.create_tournament(row.clone(), first).await?;
        Ok(row)
    }

    /// Registers `user_id` (with their rating for the seeding; `bot_account`: an account
    /// its owner marked as a bot, which a rated event does not take).
    pub async fn register(
        &self,
        id: &str,
        user_id: &str,
        rating: Option<i32>,
        bot_account: bool,
        actor: &str,
        now: i64,
    ) -> Result<(), TournamentError> {
        let user = user_id.to_string();
        let own = user_id == actor;
        self.entry(id, actor, now, move |state, settings| {
            if settings.rated && bot_account {
                return Err(TournamentError::BotAccountsNotAllowed);
            }
            if state.players().len() as u32 >= settings.max_players {
                return Err(TournamentError::Full);
            }
            let r = rating.unwrap_or(UNRATED);
            let outside = settings.min_rating.is_some_and(|m| r < m)
                || settings.max_rating.is_some_and(|m| r > m);
            if own && settings.invitation_only && !state.is_invited(&user) {
                return Err(TournamentError::NotInvited);
            }
            if own && outside {
                return Err(TournamentError::RatingOutOfBounds);
            }
            Ok(Event::PlayerRegistered {
                player: user,
                rating,
            })
        })
        .await
    }

    /// Withdraws `user_id` (between their games).
    pub async fn withdraw(&self, id: &str, user_id: &str, now: i64) -> Result<(), TournamentError> {
        let user = user_id.to_string();
        self.entry(id, user_id, now, move |_, _| {
            Ok(Event::PlayerWithdrew { player: user })
        })
        .await
    }

    /// Records an entry or a withdrawal (`make` says which, or refuses it), never once the
    /// event has ended. While the event runs, what it changes follows at once: a late
    /// entry is paired from the next round, a withdrawal can end a stage or give a
    /// walkover.
    async fn entry<F>(
        &self,
        id: &str,
        actor: &str,
        now: i64,
        make: F,
    ) -> Result<(), TournamentError>
    where
        F: FnOnce(&State, &Settings) -> Result<Event, TournamentError> + Send + 'static,
    {
        let actor = actor.to_string();
        let notifier = self.notifier.clone();
        self.store
            .tournament_write(id.to_string(), now, move |ctx| {
                let (mut state, settings) = state_of(ctx)?;
                if ctx.row.status() == Some(TournamentStatus::Ended) {
                    return Err(TournamentError::Ended);
                }
                let e = make(&state, &settings)?;
                let invited = match &e {
                    Event::PlayerInvited { player } => Some(player.clone()),
                    _ => None,
                };
                let mut w = TournamentWrite::default();
                push(&mut state, &mut w, ctx, e, Some(&actor), now)?;
                if let Some(p) = invited {
                    // the invited player hears of it
                    w.notices = Some(notices::invited(ctx, &settings, &p, &notifier, now));
                }
                w.players = Some(state.players().len() as i32);
                follow(&mut state, &settings, ctx, &mut w, &notifier, now)?;
                // an event that starts when full starts with the entry that fills it
                let active = state.players().iter().filter(|p| !p.withdrawn).count();
                if settings.start_when_full
                    && ctx.row.status() == Some(TournamentStatus::Registering)
                    && state.players().len() as u32 >= settings.max_players
                    && active >= 2
                {
                    begin(&mut state, &settings, ctx, &mut w, &notifier, now)?;
                }
                Ok((w, ()))
            })
            .await?
    }

    /// The organiser starts the event: the first round is paired and its games start.
    pub async fn start(&self, id: &str, by: &str, now: i64) -> Result<(), TournamentError> {
        let by = by.to_string();
        let notifier = self.notifier.clone();
        self.store
            .tournament_write(id.to_string(), now, move |ctx| {
                if ctx.row.organiser_id != by {
                    return Err(TournamentError::NotOrganiser);
                }
                match ctx.row.status() {
                    Some(TournamentStatus::Registering) => {}
                    Some(TournamentStatus::Ended) => return Err(TournamentError::Ended),
                    _ => return Err(TournamentError::AlreadyStarted),
                }
                let (mut state, settings) = state_of(ctx)?;
                let active = state.players().iter().filter(|p| !p.withdrawn).count();
                if active < 2 {
                    return Err(TournamentError::Refused(
                        tilepost_tournament::Error::NotEnoughPlayers(
                            "at least 2 players must be registered".into(),
                        ),
                    ));
                }
                let mut w = TournamentWrite::default();
                begin(&mut state, &settings, ctx, &mut w, &notifier, now)?;
                Ok((w, ()))
            })
            .await?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An event stored before its games' terms were chosen reads as it played: casual
    /// base games with `scores` assistance.
    #[test]
    fn settings_stored_without_the_games_terms_read_as_before() {
        let config = tilepost_tournament::Config {
            stages: vec![tilepost_tournament::StageConfig {
                format: tilepost_tournament::Format::Swiss { rounds: 1 },
                best_of: 1,
                table_size: 2,
                entry: tilepost_tournament::Entry::Registered,
            }],
            rank_points: Vec::new(),
            tie_breaks: Vec::new(),
            bye_half_points: 2,
            withdrawal: tilepost_tournament::WithdrawalRule::ForfeitUnplayed,
            round_cap: tilepost_tournament::RoundCap::default(),
            seed: "1".into(),
        };
        let old = serde_json::json!({
            "config": config,
            "days_per_move": 3,
            "computer_opponents": false,
            "expansions": [],
            "round_starts": [],
            "max_players": 8,
        });
        let s: Settings = serde_json::from_value(old).expect("an old config reads");
        assert!(s.rules.is_empty() && !s.rated && s.expansions.is_empty());
        assert_eq!(s.assistance, Assistance::Scores);
        // a new one keeps what it was given
        let mut new = s.clone();
        new.rated = true;
        new.assistance = Assistance::None;
        new.rules.insert("small_city_points".into(), "2".into());
        let back: Settings =
            serde_json::from_str(&serde_json::to_string(&new).expect("writes")).expect("reads");
        assert_eq!(
            (back.rated, back.assistance, back.rules),
            (true, Assistance::None, new.rules)
        );
    }
}
