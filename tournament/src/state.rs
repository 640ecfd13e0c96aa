//! The derived state of a tournament: [`Tournament::replay`] folds the log into a
//! [`State`], checking each event against what came before ([`State::apply`]); the
//! pure questions (next pairing, standings, pending games, brackets, the stage's end)
//! are answered from it. A recorded pairing or list of qualifiers is trusted as data
//! (checked for consistency, never recomputed), so a log replays the same after the
//! pairing or tie-break code changes.

use std::collections::{BTreeMap, BTreeSet};

use crate::config::{Config, Entry, Format, StageConfig};
use crate::error::Error;
use crate::event::{Adjustment, Decision, Event, GameResult, Table};
use crate::knockout::Bracket;
use crate::points::Points;

/// Replays a log.
pub struct Tournament;

impl Tournament {
    /// Folds the events, in order, into the state they lead to.
    pub fn replay(events: &[Event]) -> Result<State, Error> {
        let mut it = events.iter();
        let mut state = match it.next() {
            Some(Event::TournamentCreated { config }) => State::new(config.clone())?,
            _ => return Err(Error::NotCreated),
        };
        for e in it {
            state.apply(e)?;
        }
        Ok(state)
    }
}

/// A registered player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: String,
    pub rating: Option<i32>,
    pub withdrawn: bool,
}

/// A table of a round as replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableState {
    pub table: u32,
    /// Player indices in start order of game 0.
    pub seats: Vec<usize>,
    pub bracket: Option<String>,
    pub games: Vec<GameResult>,
}

/// A round as replayed.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RoundState {
    pub tables: Vec<TableState>,
    pub byes: Vec<usize>,
}

/// A stage as replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageState {
    pub config: StageConfig,
    /// Entrants in seed order (a Swiss first stage: fixed at each pairing, late
    /// entries appended).
    pub entrants: Vec<usize>,
    pub rounds: Vec<RoundState>,
    /// Organiser point adjustments in this stage, per player index.
    pub adjustments: BTreeMap<usize, Points>,
    /// Set when the stage finished.
    pub qualified: Option<Vec<usize>>,
}

/// How a table's match stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchStatus {
    /// The next game to play (its index) and the seats in its start order.
    Playing { game: u32, start_order: Vec<usize> },
    /// The match is over: the place of each seat (0 = first; equal places are tied).
    Decided { places: Vec<u32> },
}

/// A game waiting for its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingGame {
    pub stage: u32,
    pub round: u32,
    pub table: u32,
    pub game: u32,
    /// Player ids in start order.
    pub start_order: Vec<String>,
    pub bracket: Option<String>,
}

/// A pairing computed by [`State::next_pairing`], to be recorded as
/// [`Event::RoundPaired`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub stage: u32,
    pub round: u32,
    pub tables: Vec<Table>,
    pub byes: Vec<String>,
}

impl Pairing {
    pub fn into_event(self) -> Event {
        Event::RoundPaired {
            stage: self.stage,
            round: self.round,
            tables: self.tables,
            byes: self.byes,
        }
    }
}

/// The state of a tournament, derived from its log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub(crate) config: Config,
    pub(crate) players: Vec<Player>,
    pub(crate) ids: BTreeMap<String, usize>,
    pub(crate) stages: Vec<StageState>,
    /// Players the organiser invited.
    pub(crate) invited: BTreeSet<String>,
    /// The organiser paused the event (`tournament_paused`, until `tournament_resumed`),
    /// with this reason.
    pub(crate) paused: Option<String>,
}

/// The largest score a game may record (in absolute value).
const MAX_SCORE: i64 = 100_000;

/// The most players an event holds: a Swiss round of 1,024 players at 2-player tables
/// pairs in well under a second, with a dense matching of about 150 MB.
pub const MAX_PLAYERS: usize = 1024;

impl State {
    /// The state right after `tournament_created`.
    pub fn new(config: Config) -> Result<State, Error> {
        config.validate()?;
        let first = StageState {
            config: config.stages[0].clone(),
            entrants: Vec::new(),
            rounds: Vec::new(),
            adjustments: BTreeMap::new(),
            qualified: None,
        };
        Ok(State {
            config,
            players: Vec::new(),
            ids: BTreeMap::new(),
            invited: BTreeSet::new(),
            paused: None,
            stages: vec![first],
        })
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Whether the organiser invited this player.
    pub fn is_invited(&self, id: &str) -> bool {
        self.invited.contains(id)
    }

    /// Whether the organiser paused the event: no round is paired until it resumes.
    pub fn is_paused(&self) -> bool {
        self.paused.is_some()
    }

    /// The reason the organiser gave for the pause, while the event is paused.
    pub fn pause_reason(&self) -> Option<&str> {
        self.paused.as_deref()
    }

    /// The players invited, by id.
    pub fn invited(&self) -> impl Iterator<Item = &str> {
        self.invited.iter().map(String::as_str)
    }

    pub fn players(&self) -> &[Player] {
        &self.players
    }

    pub fn stages(&self) -> &[StageState] {
        &self.stages
    }

    /// The index of the stage being played (or the last one, once finished).
    pub fn current_stage(&self) -> usize {
        self.stages.len() - 1
    }

    pub(crate) fn stage(&self) -> &StageState {
        &self.stages[self.current_stage()]
    }

    /// A stage's entrants in seed order; before the first stage's first round, the
    /// players registered so far.
    pub fn entrants_of(&self, stage: usize) -> Vec<usize> {
        match self.stages.get(stage) {
            Some(st) if stage == 0 && st.rounds.is_empty() => self.registered_in_seed_order(),
            Some(st) => st.entrants.clone(),
            None => Vec::new(),
        }
    }

    pub(crate) fn player_index(&self, id: &str) -> Result<usize, Error> {
        self.ids
            .get(id)
            .copied()
            .ok_or_else(|| Error::UnknownPlayer(id.to_string()))
    }

    pub(crate) fn id(&self, p: usize) -> String {
        self.players[p].id.clone()
    }

    /// Applies one event (every event but the first, which [`State::new`] takes).
    pub fn apply(&mut self, event: &Event) -> Result<(), Error> {
        match event {
            Event::TournamentCreated { .. } => Err(Error::AlreadyCreated),
            Event::PlayerRegistered { player, rating } => self.register(player, *rating),
            Event::PlayerWithdrew { player } => self.withdraw(player),
            Event::PlayerInvited { player } => {
                if player.is_empty() || player.len() > 200 {
                    return Err(Error::UnknownPlayer(player.clone()));
                }
                if self.ids.contains_key(player) {
                    return Err(Error::AlreadyRegistered(player.clone()));
                }
                if !self.invited.insert(player.clone()) {
                    return Err(Error::AlreadyInvited(player.clone()));
                }
                Ok(())
            }
            Event::RoundPaired {
                stage,
                round,
                tables,
                byes,
            } => self.record_pairing(*stage, *round, tables, byes),
            Event::ResultRecorded {
                stage,
                round,
                table,
                game,
                result,
            } => self.record_result(*stage, *round, *table, *game, result, false),
            Event::OrganiserAdjusted { adjustment, .. } => match adjustment {
                Adjustment::Points {
                    player,
                    half_points,
                } => {
                    let p = self.player_index(player)?;
                    let cur = self.current_stage();
                    let stage = &mut self.stages[cur];
                    if stage.qualified.is_some() {
                        return Err(Error::Finished);
                    }
                    *stage.adjustments.entry(p).or_default() +=
                        Points::from_halves(i64::from(*half_points));
                    Ok(())
                }
                Adjustment::ResultCorrected {
                    stage,
                    round,
                    table,
                    game,
                    result,
                } => self.record_result(*stage, *round, *table, *game, result, true),
                Adjustment::PlayerRemoved { player } => self.withdraw(player),
            },
            Event::StageFinished { stage, qualified } => self.record_finish(*stage, qualified),
            Event::TournamentPaused { reason } => {
                if self.is_finished() {
                    return Err(Error::Finished);
                }
                if self.paused.is_some() {
                    return Err(Error::Paused);
                }
                if reason.trim().is_empty() || reason.chars().count() > 500 {
                    return Err(Error::NoReason);
                }
                self.paused = Some(reason.clone());
                Ok(())
            }
            Event::TournamentResumed {} => {
                if self.paused.is_none() {
                    return Err(Error::NotPaused);
                }
                self.paused = None;
                Ok(())
            }
        }
    }

    fn register(&mut self, id: &str, rating: Option<i32>) -> Result<(), Error> {
        if self.ids.contains_key(id) {
            return Err(Error::AlreadyRegistered(id.to_string()));
        }
        if id.is_empty() || id.len() > 200 {
            return Err(Error::UnknownPlayer(id.to_string()));
        }
        if self.current_stage() > 0 {
            return Err(Error::RegistrationClosed("the first stage is over".into()));
        }
        if self.players.len() >= MAX_PLAYERS {
            return Err(Error::RegistrationClosed(format!(
                "the event is full ({MAX_PLAYERS} players)"
            )));
        }
        let stage = self.stage();
        if !stage.rounds.is_empty() {
            match stage.config.format {
                Format::Swiss { rounds } if (stage.rounds.len() as u32) < rounds => {}
                Format::Swiss { .. } => {
                    return Err(Error::RegistrationClosed("every round is paired".into()))
                }
                _ => {
                    return Err(Error::RegistrationClosed(
                        "late entries join only a Swiss".into(),
                    ))
                }
            }
        }
        self.ids.insert(id.to_string(), self.players.len());
        self.players.push(Player {
            id: id.to_string(),
            rating,
            withdrawn: false,
        });
        Ok(())
    }

    fn withdraw(&mut self, id: &str) -> Result<(), Error> {
        let p = self.player_index(id)?;
        if self.players[p].withdrawn {
            return Err(Error::Withdrawn(id.to_string()));
        }
        if self
            .pending_in(self.current_stage())
            .iter()
            .any(|(_, t)| t.seats.contains(&p))
        {
            return Err(Error::GameInProgress(id.to_string()));
        }
        self.players[p].withdrawn = true;
        Ok(())
    }

    /// The players who may be paired in the first stage now, in seed order: rating
    /// (highest first, none last), then registration.
    pub(crate) fn registered_in_seed_order(&self) -> Vec<usize> {
        let mut v: Vec<usize> = (0..self.players.len())
            .filter(|p| !self.players[*p].withdrawn)
            .collect();
        v.sort_by_key(|p| (self.players[*p].rating.map(|r| -i64::from(r)), *p));
        v
    }

    fn record_pairing(
        &mut self,
        stage: u32,
        round: u32,
        tables: &[Table],
        byes: &[String],
    ) -> Result<(), Error> {
        if self.paused.is_some() {
            return Err(Error::Paused);
        }
        let mismatch = |why: String| Err(Error::PairingMismatch(why));
        let cur = self.current_stage();
        if stage as usize != cur {
            return mismatch(format!("stage {stage} is not the current stage {cur}"));
        }
        let st = &self.stages[cur];
        if st.qualified.is_some() {
            return Err(Error::Finished);
        }
        if round as usize != st.rounds.len() + 1 {
            return mismatch(format!("round {round} is not the next round"));
        }
        if !self.pending_in(cur).is_empty() {
            return Err(Error::RoundInProgress);
        }
        if let Format::Swiss { rounds } = st.config.format {
            if round > rounds {
                return Err(Error::StageComplete);
            }
        }
        let size = usize::from(st.config.table_size);
        let mut seen = vec![false; self.players.len()];
        let mut out = RoundState::default();
        let mark = |id: &str, seen: &mut Vec<bool>| -> Result<usize, Error> {
            let p = self.player_index(id)?;
            if self.players[p].withdrawn {
                return Err(Error::Withdrawn(id.to_string()));
            }
            if seen[p] {
                return Err(Error::PairingMismatch(format!("{id} is paired twice")));
            }
            seen[p] = true;
            Ok(p)
        };
        for (i, t) in tables.iter().enumerate() {
            if t.table as usize != i + 1 {
                return mismatch("tables are numbered 1, 2, …".into());
            }
            let ok = if size == 2 {
                t.seats.len() == 2
            } else {
                (2..=size).contains(&t.seats.len())
            };
            if !ok {
                return mismatch(format!("table {} has {} seats", t.table, t.seats.len()));
            }
            let mut seats = Vec::new();
            for s in &t.seats {
                seats.push(mark(s, &mut seen)?);
            }
            out.tables.push(TableState {
                table: t.table,
                seats,
                bracket: t.bracket.clone(),
                games: Vec::new(),
            });
        }
        for b in byes {
            let p = mark(b, &mut seen)?;
            out.byes.push(p);
        }
        // the first stage's entrants: who was registered (and not withdrawn) when paired
        let entrants = if cur == 0 {
            let mut e = self.stages[0].entrants.clone();
            for p in self.registered_in_seed_order() {
                if !e.contains(&p) {
                    e.push(p);
                }
            }
            e
        } else {
            self.stages[cur].entrants.clone()
        };
        for (p, s) in seen.iter().enumerate() {
            if *s && !entrants.contains(&p) {
                return mismatch(format!("{} is not in this stage", self.players[p].id));
            }
        }
        let st = &mut self.stages[cur];
        st.entrants = entrants;
        st.rounds.push(out);
        Ok(())
    }

    fn record_result(
        &mut self,
        stage: u32,
        round: u32,
        table: u32,
        game: u32,
        result: &GameResult,
        correction: bool,
    ) -> Result<(), Error> {
        let no_such = Error::NoSuchGame {
            stage,
            round,
            table,
            game,
        };
        let cur = self.current_stage();
        let knockout = matches!(
            self.stages.get(stage as usize).map(|s| &s.config.format),
            Some(Format::Knockout { .. })
        );
        let st = self.stages.get(stage as usize).ok_or(no_such.clone())?;
        if st.qualified.is_some() {
            return Err(Error::Finished);
        }
        if correction && knockout && round as usize != st.rounds.len() {
            return Err(Error::InvalidResult(
                "a knockout result is corrected only before the next round is paired".into(),
            ));
        }
        let best_of = st.config.best_of;
        let seeds = st.entrants.clone();
        let r = st
            .rounds
            .get((round as usize).wrapping_sub(1))
            .ok_or(no_such.clone())?;
        let t = r
            .tables
            .iter()
            .position(|t| t.table == table)
            .ok_or(no_such.clone())?;
        let tab = &r.tables[t];
        if result.scores.len() != tab.seats.len() {
            return Err(Error::InvalidResult(format!(
                "{} scores for {} seats",
                result.scores.len(),
                tab.seats.len()
            )));
        }
        if result.scores.iter().any(|s| s.abs() > MAX_SCORE) {
            return Err(Error::InvalidResult("a score is out of range".into()));
        }
        if let Some(Decision::Forfeit { seats }) = &result.decision {
            if seats.is_empty() || seats.iter().any(|s| usize::from(*s) >= tab.seats.len()) {
                return Err(Error::InvalidResult(
                    "forfeited seats are out of range".into(),
                ));
            }
        }
        let mut games = tab.games.clone();
        if correction {
            let g = games.get_mut(game as usize).ok_or(no_such)?;
            *g = result.clone();
            // no recorded game may follow the end of the match
            for n in 1..games.len() {
                if let MatchStatus::Decided { .. } =
                    match_status(&tab.seats, &games[..n], best_of, knockout, &seeds)
                {
                    return Err(Error::InvalidResult(
                        "the correction ends the match before a game already recorded".into(),
                    ));
                }
            }
        } else {
            match match_status(&tab.seats, &games, best_of, knockout, &seeds) {
                MatchStatus::Playing { game: next, .. } if next == game => {}
                MatchStatus::Playing { .. } => return Err(no_such),
                MatchStatus::Decided { .. } => return Err(Error::ResultExists),
            }
            games.push(result.clone());
        }
        let _ = cur;
        self.stages[stage as usize].rounds[round as usize - 1].tables[t].games = games;
        Ok(())
    }

    fn record_finish(&mut self, stage: u32, qualified: &[String]) -> Result<(), Error> {
        let cur = self.current_stage();
        if stage as usize != cur || self.stages[cur].qualified.is_some() {
            return Err(Error::QualifiersMismatch(format!(
                "stage {stage} is not the stage being played"
            )));
        }
        if !self.stage_complete() {
            return Err(Error::StageNotComplete);
        }
        let next = self.config.stages.get(cur + 1).cloned();
        let want = match next.as_ref().map(|s| &s.entry) {
            Some(Entry::Top { count }) => *count as usize,
            _ => 0,
        };
        let mut q = Vec::new();
        for id in qualified {
            let p = self.player_index(id)?;
            if q.contains(&p) || !self.stages[cur].entrants.contains(&p) {
                return Err(Error::QualifiersMismatch(format!("{id} cannot qualify")));
            }
            if self.players[p].withdrawn {
                return Err(Error::Withdrawn(id.clone()));
            }
            q.push(p);
        }
        if q.len() > want || (next.is_some() && q.len() < 2) {
            return Err(Error::QualifiersMismatch(format!(
                "{} qualifiers for {want} places",
                q.len()
            )));
        }
        self.stages[cur].qualified = Some(q.clone());
        if let Some(config) = next {
            self.stages.push(StageState {
                config,
                entrants: q,
                rounds: Vec::new(),
                adjustments: BTreeMap::new(),
                qualified: None,
            });
        }
        Ok(())
    }

    /// Tables of a stage whose match is still being played.
    pub(crate) fn pending_in(&self, stage: usize) -> Vec<(u32, &TableState)> {
        let Some(st) = self.stages.get(stage) else {
            return Vec::new();
        };
        let knockout = matches!(st.config.format, Format::Knockout { .. });
        let mut out = Vec::new();
        for (r, round) in st.rounds.iter().enumerate() {
            for t in &round.tables {
                if let MatchStatus::Playing { .. } = match_status(
                    &t.seats,
                    &t.games,
                    st.config.best_of,
                    knockout,
                    &st.entrants,
                ) {
                    out.push((r as u32 + 1, t));
                }
            }
        }
        out
    }

    /// How a table's match stands.
    pub fn table_status(&self, stage: usize, t: &TableState) -> MatchStatus {
        match self.stages.get(stage) {
            Some(st) => match_status(
                &t.seats,
                &t.games,
                st.config.best_of,
                matches!(st.config.format, Format::Knockout { .. }),
                &st.entrants,
            ),
            None => MatchStatus::Decided { places: Vec::new() },
        }
    }

    /// Every game waiting for a result, in the stage being played.
    /// The organiser's removal of `player`, as the events to record: a forfeit of each
    /// game they have left in the round (every game of their undecided matches, in
    /// order, each scored 0 for every seat, theirs forfeited), then the removal with
    /// its reason.
    pub fn removal(&self, player: &str, reason: &str) -> Result<Vec<Event>, Error> {
        let p = self.player_index(player)?;
        if self.players[p].withdrawn {
            return Err(Error::Withdrawn(player.to_string()));
        }
        let mut sim = self.clone();
        let mut out = Vec::new();
        // a match of best of 5 has at most 5 games; the bound only guards the loop
        for _ in 0..(self.players.len() * 8 + 8) {
            let cur = sim.current_stage();
            let next = sim.pending_in(cur).into_iter().find_map(|(round, t)| {
                let seat = t.seats.iter().position(|s| *s == p)?;
                match sim.table_status(cur, t) {
                    MatchStatus::Playing { game, .. } => {
                        Some((round, t.table, game, seat, t.seats.len()))
                    }
                    MatchStatus::Decided { .. } => None,
                }
            });
            let Some((round, table, game, seat, seats)) = next else {
                break;
            };
            let e = Event::ResultRecorded {
                stage: cur as u32,
                round,
                table,
                game,
                result: GameResult {
                    scores: vec![0; seats],
                    decision: Some(Decision::Forfeit {
                        seats: vec![seat as u8],
                    }),
                },
            };
            sim.apply(&e)?;
            out.push(e);
        }
        let e = Event::OrganiserAdjusted {
            adjustment: Adjustment::PlayerRemoved {
                player: player.to_string(),
            },
            reason: reason.to_string(),
        };
        sim.apply(&e)?;
        out.push(e);
        Ok(out)
    }

    pub fn pending_games(&self) -> Vec<PendingGame> {
        let cur = self.current_stage();
        self.pending_in(cur)
            .into_iter()
            .filter_map(|(round, t)| match self.table_status(cur, t) {
                MatchStatus::Playing { game, start_order } => Some(PendingGame {
                    stage: cur as u32,
                    round,
                    table: t.table,
                    game,
                    start_order: start_order.iter().map(|p| self.id(*p)).collect(),
                    bracket: t.bracket.clone(),
                }),
                MatchStatus::Decided { .. } => None,
            })
            .collect()
    }

    /// The stage being played has played all it can: its rounds are all paired and
    /// finished (Swiss, round robin) or its bracket has a champion (knockout), or fewer
    /// than two of its players are left.
    pub fn stage_complete(&self) -> bool {
        let cur = self.current_stage();
        let st = self.stage();
        if st.qualified.is_some() {
            return true;
        }
        if !self.pending_in(cur).is_empty() {
            return false;
        }
        let active = if cur == 0 {
            self.registered_in_seed_order().len()
        } else {
            st.entrants
                .iter()
                .filter(|p| !self.players[**p].withdrawn)
                .count()
        };
        match &st.config.format {
            Format::Swiss { rounds } => {
                st.rounds.len() as u32 >= *rounds || (active < 2 && !st.rounds.is_empty())
            }
            Format::RoundRobin { .. } => {
                !st.rounds.is_empty() && crate::roundrobin::remaining_rounds(self, cur) == 0
            }
            Format::Knockout { double } => {
                !st.rounds.is_empty() && {
                    let b = Bracket::new(self.entrants_of(cur).len(), *double);
                    b.resolve(self, cur).complete
                }
            }
        }
    }

    /// The tournament is over: its last stage has finished.
    pub fn is_finished(&self) -> bool {
        self.stages.len() == self.config.stages.len() && self.stage().qualified.is_some()
    }

    /// The next round of the stage being played, to be recorded as it is.
    pub fn next_pairing(&self, seed: u64) -> Result<Pairing, Error> {
        if self.is_finished() {
            return Err(Error::Finished);
        }
        if self.paused.is_some() {
            return Err(Error::Paused);
        }
        let cur = self.current_stage();
        if !self.pending_in(cur).is_empty() {
            return Err(Error::RoundInProgress);
        }
        if self.stage_complete() {
            return Err(Error::StageComplete);
        }
        let st = self.stage();
        let round = st.rounds.len() as u32 + 1;
        let (tables, byes) = match &st.config.format {
            Format::Swiss { .. } => crate::swiss::pair(self, seed)?,
            Format::RoundRobin { .. } => crate::roundrobin::pair(self)?,
            Format::Knockout { double } => {
                let b = Bracket::new(self.entrants_of(cur).len(), *double);
                b.pair(self)?
            }
        };
        Ok(Pairing {
            stage: cur as u32,
            round,
            tables: tables
                .into_iter()
                .enumerate()
                .map(|(i, (seats, bracket))| Table {
                    table: i as u32 + 1,
                    seats: seats.iter().map(|p| self.id(*p)).collect(),
                    bracket,
                })
                .collect(),
            byes: byes.iter().map(|p| self.id(*p)).collect(),
        })
    }

    /// The event ending the stage being played, with its qualifiers for the next.
    pub fn finish_stage(&self) -> Result<Event, Error> {
        if self.is_finished() || self.stage().qualified.is_some() {
            return Err(Error::Finished);
        }
        if !self.stage_complete() {
            return Err(Error::StageNotComplete);
        }
        let cur = self.current_stage();
        let count = match self.config.stages.get(cur + 1).map(|s| &s.entry) {
            Some(Entry::Top { count }) => *count as usize,
            _ => 0,
        };
        let qualified = crate::standings::qualifiers(self, cur, count);
        if self.config.stages.len() > cur + 1 && qualified.len() < 2 {
            return Err(Error::NotEnoughPlayers(
                "fewer than 2 players qualify for the next stage".into(),
            ));
        }
        Ok(Event::StageFinished {
            stage: cur as u32,
            qualified: qualified.iter().map(|p| self.id(*p)).collect(),
        })
    }

    /// Games started by each player over the whole event, and games played.
    pub fn starts(&self) -> Vec<(u32, u32)> {
        let mut out = vec![(0u32, 0u32); self.players.len()];
        for (s, st) in self.stages.iter().enumerate() {
            for r in &st.rounds {
                for t in &r.tables {
                    let _ = s;
                    for g in 0..t.games.len() {
                        let order = start_order(&t.seats, g);
                        for (i, p) in order.iter().enumerate() {
                            out[*p].1 += 1;
                            if i == 0 {
                                out[*p].0 += 1;
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

/// The seats of game `g` in start order: at a 2-player table the start alternates
/// A-B-A; a multi-player table plays one game in seat order.
pub fn start_order(seats: &[usize], g: usize) -> Vec<usize> {
    if seats.len() == 2 && g % 2 == 1 {
        vec![seats[1], seats[0]]
    } else {
        seats.to_vec()
    }
}

/// The places of a game's seats (in the table's seat order): forfeited seats below
/// everyone else, then by score; equal scores share a place.
pub fn game_places(result: &GameResult, seats: usize) -> Vec<u32> {
    let forfeited = |i: usize| match &result.decision {
        Some(Decision::Forfeit { seats }) => seats.iter().any(|s| usize::from(*s) == i),
        _ => false,
    };
    let key = |i: usize| (!forfeited(i), result.scores.get(i).copied().unwrap_or(0));
    (0..seats)
        .map(|i| (0..seats).filter(|j| key(*j) > key(i)).count() as u32)
        .collect()
}

/// How a match stands, from its recorded games. A 2-player match of best of N ends
/// when a player has won more than N/2 games, or after N games; a tied knockout match
/// goes to the greater total score over its games, then to the better seed (earlier
/// in `seeds`).
pub fn match_status(
    seats: &[usize],
    games: &[GameResult],
    best_of: u8,
    knockout: bool,
    seeds: &[usize],
) -> MatchStatus {
    let n = seats.len();
    if n != 2 {
        return match games.first() {
            Some(g) => MatchStatus::Decided {
                places: game_places(g, n),
            },
            None => MatchStatus::Playing {
                game: 0,
                start_order: seats.to_vec(),
            },
        };
    }
    let mut wins = [0u32; 2];
    let mut total = [0i64; 2];
    for g in games {
        let places = game_places(g, 2);
        for i in 0..2 {
            if places[i] == 0 && places[1 - i] == 1 {
                wins[i] += 1;
            }
            total[i] += g.scores.get(i).copied().unwrap_or(0);
        }
    }
    let need = u32::from(best_of) / 2 + 1;
    let over = wins[0] >= need || wins[1] >= need || games.len() >= usize::from(best_of);
    if !over {
        return MatchStatus::Playing {
            game: games.len() as u32,
            start_order: start_order(seats, games.len()),
        };
    }
    let first = if wins[0] != wins[1] {
        Some(if wins[0] > wins[1] { 0 } else { 1 })
    } else if knockout {
        if total[0] != total[1] {
            Some(if total[0] > total[1] { 0 } else { 1 })
        } else {
            let seed = |p: usize| seeds.iter().position(|s| *s == p).unwrap_or(usize::MAX);
            Some(if seed(seats[0]) <= seed(seats[1]) {
                0
            } else {
                1
            })
        }
    } else {
        None
    };
    MatchStatus::Decided {
        places: match first {
            Some(0) => vec![0, 1],
            Some(_) => vec![1, 0],
            None => vec![0, 0],
        },
    }
}
