//! Replay: a game rebuilt from its event log.

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
        after_each(0, sink);
        for (i, e) in events.iter().enumerate().skip(1) {
            g.apply(e, sink)
                .map_err(|source| ReplayError::Play { index: i, source })?;
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

    /// Applies one stored decision event (validated like a live action).
    pub fn apply(&mut self, e: &Event, sink: &mut impl EffectSink) -> Result<(), PlayError> {
        let step = match e {
            Event::GameCreated { .. } => {
                return Err(PlayError::LogMismatch("a second game_created".into()))
            }
            Event::TilePlaced {
                tile,
                x,
                y,
                rotation,
                ..
            } => {
                if let Some(d) = self.drawn {
                    if catalog().get(d).id != *tile {
                        return Err(PlayError::LogMismatch(format!(
                            "logged tile {tile} but {} was drawn",
                            catalog().get(d).id
                        )));
                    }
                }
                Step::Tile(Pos::new(*x, *y), *rotation)
            }
            Event::FigurePlaced { figure, spot, .. } => Step::Figure(*figure, spot),
            Event::FigureSkipped { .. } => Step::Pass,
            Event::AbbotReturned { .. } => Step::ReturnAbbot,
            Event::AbbeyPlaced { x, y, .. } => Step::Abbey(Pos::new(*x, *y)),
            Event::DrawChosen { .. } => Step::Draw,
            Event::AbbeySkipped { .. } => Step::Pass,
            Event::WagonMoved { x, y, spot, .. } => Step::Wagon(Pos::new(*x, *y), spot),
            Event::WagonReturned { .. } => Step::Pass,
            Event::IngotPlaced { x, y, .. } => Step::Ingot(Pos::new(*x, *y)),
            Event::MagicMoved {
                figure, x, y, spot, ..
            } => Step::Magic(*figure, Pos::new(*x, *y), spot),
            Event::MagicRemoved { figure, .. } => Step::RemoveMagic(*figure),
            Event::Flew { figure, .. } => Step::Fly(*figure),
            Event::Landed { spot, .. } => Step::Land(spot),
            Event::CropModeChosen { mode, .. } => Step::CropMode(*mode),
            Event::FollowerAdded {
                figure, x, y, spot, ..
            } => Step::Crop(true, *figure, Pos::new(*x, *y), spot),
            Event::FollowerRemoved {
                figure, x, y, spot, ..
            } => Step::Crop(false, *figure, Pos::new(*x, *y), spot),
            Event::CropSkipped { .. } => Step::Pass,
            Event::FerryPlaced { x, y, from, to, .. } => {
                Step::Ferry(false, Pos::new(*x, *y), from, to)
            }
            Event::FerryMoved { x, y, from, to, .. } => {
                Step::Ferry(true, Pos::new(*x, *y), from, to)
            }
            Event::FerriesDone { .. } => Step::Pass,
            Event::RobberPlaced { space, .. } => Step::Robber(*space),
            Event::RobberSkipped { .. } => Step::Pass,
            Event::ScoringOrdered { x, y, spot, .. } => Step::ScoreNext(Pos::new(*x, *y), spot),
            Event::ScoreFigureChosen { figure, .. } => Step::ScoreFigure(*figure),
            Event::VictimChosen { victim, .. } => Step::Victim(*victim),
            Event::MessageFeatureChosen { x, y, spot, .. } => {
                Step::Message(Some((None, Pos::new(*x, *y), spot)))
            }
            Event::MessageFollowerChosen {
                figure, x, y, spot, ..
            } => Step::Message(Some((Some(*figure), Pos::new(*x, *y), spot))),
            Event::MessageActionTaken { .. } => Step::MessagePlain,
            Event::MessagePointsTaken { .. } => Step::Message(None),
            Event::PlayerResigned { player, .. } => return self.resign_into(*player, sink),
        };
        let player = e.player().unwrap_or(u8::MAX);
        self.step(player, step, sink).map(|_| ())
    }
}
