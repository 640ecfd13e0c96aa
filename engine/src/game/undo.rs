//! Taking decisions back: a player may undo their own decisions since the last moment
//! hidden information entered the game, while the pending decision is still theirs.
//!
//! The game keeps, from its log alone, the *trail*: who took each decision in effect
//! since the last reveal (a tile drawn, also into a hand, tiles discarded from the pile,
//! a tile of a hand placed, the flier's die rolled, a message drawn; a player leaving
//! ends the trail too). A decision reveals something when it moves the game's hidden
//! mark (how far the pile has been drawn, the random stream, the message stack, the
//! tiles held in hands), the same test as a move's no-peeking rule
//! (`crate::game::moves`): whatever rule consumes hidden information moves it, and
//! whether it moves depends only on what the players can see, so a refusal tells nothing
//! hidden.
//!
//! An undo is itself a decision in the log ([`Event::Undone`]: the player and how many
//! of the last decisions it takes back). Replay rebuilds the game without the decisions
//! taken back: from the state at the last reveal point, the decisions kept are applied
//! again. Nothing hidden was consumed after that point, so the pile, the random stream
//! and the message stack are as they were, and the next draw is the same tile as before
//! the undo. Whether a game allows undo at all (never in rated or tournament games) is
//! the server's rule, not the engine's: the engine says what may be undone now.

use super::*;

/// Who took each decision in effect since the last reveal, and who revealed last.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Trail {
    /// The deciders of the decisions in effect since the last reveal, in order.
    deciders: Vec<u8>,
    /// The player whose decision revealed something last (`None`: the set-up, or a player
    /// left the game).
    revealed_by: Option<u8>,
}

/// Everything hidden that a decision may consume, compared before and after it (see the
/// module documentation).
#[derive(PartialEq, Eq)]
struct HiddenMark {
    next_draw: usize,
    rng: Rng,
    /// How far what the expansions keep face down has been read.
    expansions: [u64; HIDDEN],
    held: usize,
}

impl Trail {
    pub(crate) fn heap_bytes(&self) -> usize {
        self.deciders.capacity()
    }
}

impl Game {
    fn hidden_mark(&self) -> HiddenMark {
        HiddenMark {
            next_draw: self.next_draw,
            rng: self.rng.clone(),
            expansions: self.hidden_marks(),
            held: self
                .hands
                .as_ref()
                .map_or(0, |h| h.iter().map(Vec::len).sum()),
        }
    }

    /// The gate of [`Game::step_inner`] with the trail kept: every decision goes through
    /// here, live and on replay.
    pub(crate) fn step(
        &mut self,
        player: u8,
        action: &Action,
        sink: &mut impl EffectSink,
    ) -> Result<Done, PlayError> {
        let before = self.hidden_mark();
        let done = self.step_inner(player, action, sink)?;
        if before == self.hidden_mark() {
            self.trail.deciders.push(player);
        } else {
            self.trail.deciders.clear();
            self.trail.revealed_by = Some(player);
        }
        Ok(done)
    }

    /// A player left: nothing before it may be taken back.
    pub(crate) fn end_trail(&mut self) {
        self.trail.deciders.clear();
        self.trail.revealed_by = None;
    }

    /// How many of `player`'s last decisions may be taken back now (0: none): their own
    /// decisions since the last reveal, counted back from the last one, while the pending
    /// decision is theirs.
    pub fn undoable(&self, player: u8) -> u8 {
        if self.phase == Phase::GameOver || self.decider() != player {
            return 0;
        }
        let own = self
            .trail
            .deciders
            .iter()
            .rev()
            .take_while(|p| **p == player)
            .count();
        own.min(u8::MAX as usize) as u8
    }

    /// Whether `player` may take back their last `count` decisions now, or why not:
    /// [`PlayError::GameOver`], [`PlayError::UndoNotYours`] (the pending decision, or one
    /// of the decisions to take back, is another player's),
    /// [`PlayError::UndoPastReveal`] (hidden information entered the game since, or
    /// before, the decisions to take back) or [`PlayError::NothingToUndo`]. Every answer
    /// depends only on what every player has seen.
    pub fn check_undo(&self, player: u8, count: u8) -> Result<(), PlayError> {
        if self.phase == Phase::GameOver {
            return Err(PlayError::GameOver);
        }
        if self.decider() != player {
            return Err(PlayError::UndoNotYours);
        }
        let trail = &self.trail.deciders;
        if count == 0 || (trail.is_empty() && self.trail.revealed_by != Some(player)) {
            return Err(PlayError::NothingToUndo);
        }
        let own = self.undoable(player) as usize;
        if count as usize <= own {
            Ok(())
        } else if own < trail.len() {
            Err(PlayError::UndoNotYours)
        } else {
            Err(PlayError::UndoPastReveal)
        }
    }

    /// Whether two games are in the same state whatever their versions: a game after an
    /// undo is the game before the decisions it took back, at a later version.
    pub fn same_state(&self, other: &Game) -> bool {
        self.version == other.version || {
            let mut o = other.clone();
            o.version = self.version;
            *self == o
        }
    }

    /// Takes back the last `count` decisions of `player`. `log` is the game's whole log
    /// and `self` its replay. Returns the game without those decisions (at the version
    /// after the undo) and the event to store, or why the undo is refused (see
    /// [`Game::check_undo`]), with `self` untouched.
    pub fn undo(&self, log: &[Event], player: u8, count: u8) -> Result<(Game, Event), PlayError> {
        self.check_undo(player, count)?;
        if log.len() != self.version as usize {
            return Err(PlayError::LogMismatch(format!(
                "a log of {} events for a game at version {}",
                log.len(),
                self.version
            )));
        }
        let event = Event::Undone { player, count };
        let mut all = log.to_vec();
        all.push(event.clone());
        let game = Game::replay(&all).map_err(|e| PlayError::LogMismatch(e.to_string()))?;
        Ok((game, event))
    }
}

/// What replay keeps to apply an undo: the game at the last reveal point and the log
/// indices of the decisions in effect since (only while an undo lies ahead in the log).
pub(crate) struct Checkpoint {
    game: Option<Game>,
    kept: Vec<usize>,
}

impl Checkpoint {
    pub(crate) fn new() -> Checkpoint {
        Checkpoint {
            game: None,
            kept: Vec::new(),
        }
    }

    /// Notes decision `index`, just applied to `game`: a reveal point becomes the
    /// checkpoint, a decision after it is kept.
    pub(crate) fn note(&mut self, game: &Game, index: usize) {
        if game.trail.deciders.is_empty() {
            self.game = Some(game.clone());
            self.kept.clear();
        } else {
            self.kept.push(index);
        }
    }

    /// Applies the undo at `index` of `events` to `game`: the checkpoint with the kept
    /// decisions applied again.
    pub(crate) fn undo(
        &mut self,
        game: &Game,
        events: &[Event],
        player: u8,
        count: u8,
    ) -> Result<Game, PlayError> {
        game.check_undo(player, count)?;
        let base = self
            .game
            .as_ref()
            .ok_or_else(|| PlayError::LogMismatch("an undo without its reveal point".into()))?;
        let keep = self.kept.len().saturating_sub(count as usize);
        let mut g = base.clone();
        for &j in &self.kept[..keep] {
            if let Some(e) = events.get(j) {
                g.apply(e, &mut NoEffects)?;
            }
        }
        self.kept.truncate(keep);
        g.version = game.version + 1;
        Ok(g)
    }
}
