//! Replay: a game rebuilt from its event log.

use super::undo::Checkpoint;
use super::*;

impl Game {
    // ----- replay --------------------------------------------------------------------

    /// Rebuilds a game from its log.
    pub fn replay(events: &[Event]) -> Result<Game, ReplayError> {
        Game::replay_into(events, &mut |_, _: &mut NoEffects| {}, &mut NoEffects)
    }

    /// Rebuilds a game and lists, per event, the consequences it had (for a history view).
    pub fn replay_with_effects(events: &[Event]) -> Result<(Game, Vec<Vec<Effect>>), ReplayError> {
        let mut all: Vec<Vec<Effect>> = Vec::with_capacity(events.len());
        let mut cur: Vec<Effect> = Vec::new();
        let g = Game::replay_into(
            events,
            &mut |_, fx: &mut Vec<Effect>| all.push(std::mem::take(fx)),
            &mut cur,
        )?;
        Ok((g, all))
    }

    pub(crate) fn replay_into<S: EffectSink>(
        events: &[Event],
        after_each: &mut impl FnMut(usize, &mut S),
        sink: &mut S,
    ) -> Result<Game, ReplayError> {
        let first = events.first().ok_or(ReplayError::NoCreation)?;
        if !matches!(first, Event::GameCreated { .. }) {
            return Err(ReplayError::NoCreation);
        }
        let mut g = Game::from_creation(first, sink)
            .map_err(|source| ReplayError::Setup { index: 0, source })?;
        // an undo rebuilds the game from its last reveal point: kept while one lies ahead
        let last_undo = events
            .iter()
            .rposition(|e| matches!(e, Event::Undone { .. }));
        let kept = |i: usize| last_undo.is_some_and(|u| i < u);
        let mut checkpoint = Checkpoint::new();
        if kept(0) {
            checkpoint.note(&g, 0);
        }
        after_each(0, sink);
        for (i, e) in events.iter().enumerate().skip(1) {
            if let Event::Undone { player, count } = e {
                g = checkpoint
                    .undo(&g, events, *player, *count)
                    .map_err(|source| ReplayError::Play { index: i, source })?;
            } else {
                g.apply(e, sink)
                    .map_err(|source| ReplayError::Play { index: i, source })?;
                if kept(i) {
                    checkpoint.note(&g, i);
                }
            }
            after_each(i, sink);
        }
        Ok(g)
    }

    /// Rebuilds a game from stored rows `(type, version, payload)`.
    pub fn replay_stored<'a>(
        rows: impl IntoIterator<Item = (&'a str, u32, &'a str)>,
    ) -> Result<Game, ReplayError> {
        let mut events = Vec::new();
        for (i, (k, v, p)) in rows.into_iter().enumerate() {
            events.push(
                Event::decode(k, v, p)
                    .map_err(|source| ReplayError::Decode { index: i, source })?,
            );
        }
        Game::replay(&events)
    }

    /// Applies event `index` of `log` to the game replayed from the events before it:
    /// like [`Game::apply`], and an undo too (which needs the log: the game is replayed
    /// up to it).
    pub fn apply_at(
        &mut self,
        log: &[Event],
        index: usize,
        sink: &mut impl EffectSink,
    ) -> Result<(), PlayError> {
        match log.get(index) {
            Some(Event::Undone { .. }) => {
                *self = Game::replay(&log[..=index])
                    .map_err(|e| PlayError::LogMismatch(e.to_string()))?;
                Ok(())
            }
            Some(e) => self.apply(e, sink),
            None => Err(PlayError::LogMismatch(format!(
                "the log has no event {index}"
            ))),
        }
    }

    /// Applies one stored decision event (validated like a live action). An undo needs
    /// the log: see [`Game::apply_at`].
    pub fn apply(&mut self, e: &Event, sink: &mut impl EffectSink) -> Result<(), PlayError> {
        match e {
            Event::GameCreated { .. } => {
                Err(PlayError::LogMismatch("a second game_created".into()))
            }
            Event::PlayerResigned { player, .. } => self.resign_into(*player, sink),
            Event::Undone { .. } => Err(PlayError::LogMismatch(
                "an undo is applied with its log (Game::apply_at)".into(),
            )),
            Event::Decided {
                player,
                action,
                tile,
                ..
            } => {
                if let (Some(d), Some(tile)) = (self.drawn, tile) {
                    if catalog().get(d).id != *tile {
                        return Err(PlayError::LogMismatch(format!(
                            "logged tile {tile} but {} was drawn",
                            catalog().get(d).id
                        )));
                    }
                }
                if let (Some(_), Some(tile), Action::PlaceTile { .. }) = (&self.hands, tile, action)
                {
                    let held = self.hand(self.current);
                    if self.phase == Phase::PlaceTile
                        && !held.iter().any(|t| catalog().get(*t).id == *tile)
                    {
                        return Err(PlayError::LogMismatch(format!(
                            "logged tile {tile} is not in the hand"
                        )));
                    }
                }
                // with tiles in hand the placement is of the logged tile
                if let (
                    Some(_),
                    Some(t),
                    Action::PlaceTile {
                        x,
                        y,
                        rotation,
                        tile: None,
                    },
                ) = (&self.hands, tile, action)
                {
                    let named = Action::PlaceTile {
                        x: *x,
                        y: *y,
                        rotation: *rotation,
                        tile: Some(t.clone()),
                    };
                    return self.step(*player, &named, sink).map(|_| ());
                }
                self.step(*player, action, sink).map(|_| ())
            }
        }
    }
}
