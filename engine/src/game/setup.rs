//! Setting up a game: the validated configuration, the pile, the start tile.

use super::*;

impl Game {
    /// Sets up a game: start tile at (0,0), the pile shuffled from the seed (or the given
    /// tile order), the first tile drawn. Returns the game and its creation event.
    pub fn new(config: &GameConfig) -> Result<(Game, Event), SetupError> {
        let event = Event::GameCreated {
            seed: config.seed.to_string(),
            players: config.players,
            expansions: config
                .expansions
                .iter()
                .map(|e| e.id().to_string())
                .collect(),
            tile_order: config.tile_order.clone(),
            rules: config.rules.to_values(),
        };
        let game = Game::from_creation(&event, &mut NoEffects)?;
        Ok((game, event))
    }

    /// Like [`Game::new`], also returning the effects of the set-up (the first draw).
    pub fn new_with_effects(config: &GameConfig) -> Result<(Game, Event, Vec<Effect>), SetupError> {
        let (_, event) = Game::new(config)?;
        let mut fx = Vec::new();
        let game = Game::from_creation(&event, &mut fx)?;
        Ok((game, event, fx))
    }

    pub(crate) fn from_creation(
        ev: &Event,
        sink: &mut impl EffectSink,
    ) -> Result<Game, SetupError> {
        let Event::GameCreated {
            seed,
            players,
            expansions: exp_ids,
            tile_order,
            rules,
        } = ev
        else {
            return Err(SetupError::BadSeed(String::new()));
        };
        let seed: u64 = seed
            .parse()
            .map_err(|_| SetupError::BadSeed(seed.clone()))?;
        let rules = HouseRules::from_values(rules)?;
        let mut set = ExpansionSet::default();
        for id in exp_ids {
            let e =
                Expansion::from_id(id).ok_or_else(|| SetupError::UnknownExpansion(id.clone()))?;
            if !e.is_implemented() {
                return Err(SetupError::UnsupportedExpansion(id.clone()));
            }
            set.insert(e);
        }
        let max = expansions::max_players(set);
        if *players < 2 || *players > max {
            return Err(SetupError::PlayerCount { got: *players, max });
        }
        let cat = catalog();
        let with_river = set.contains(Expansion::River);
        let start = if with_river {
            cat.iter()
                .find(|(_, t)| t.start_with_river)
                .map(|(i, _)| i)
                .unwrap_or(cat.start_tile())
        } else {
            cat.start_tile()
        };
        let base_start = cat.start_tile();
        let mut rng = Rng::new(seed);
        let pile: Vec<TileTypeId> = match tile_order {
            Some(order) => {
                if order.is_empty() {
                    return Err(SetupError::EmptyTileOrder);
                }
                let mut v = Vec::with_capacity(order.len());
                for id in order {
                    let t = cat
                        .id(id)
                        .ok_or_else(|| SetupError::UnknownTile(id.clone()))?;
                    if !expansions::tile_in_game(cat.get(t), set) {
                        return Err(SetupError::TileNotInGame(id.clone()));
                    }
                    v.push(t);
                }
                v
            }
            None => {
                // the river stack (shuffled, lake last) goes on top of the normal pile
                let mut rivers = Vec::new();
                let mut lakes = Vec::new();
                let mut v = Vec::with_capacity(192);
                for (id, t) in cat.iter() {
                    if expansions::tile_in_game(t, set) {
                        // one base start copy is on the table, or back in the box with the River
                        let n = t.count - if id == base_start { t.start_copies } else { 0 };
                        for _ in 0..n {
                            if t.river_last {
                                lakes.push(id);
                            } else if t.expansion == Some(Expansion::River) {
                                rivers.push(id);
                            } else {
                                v.push(id);
                            }
                        }
                    }
                }
                rng.shuffle(&mut rivers);
                rng.shuffle(&mut v);
                rivers.extend(lakes);
                rivers.extend(v);
                rivers
            }
        };
        let supply = expansions::starting_supply(set, &rules);
        // the message stack is shuffled right after the pile
        let messages = set
            .contains(Expansion::Messages)
            .then(|| Box::new(MessageState::new(&mut rng)));
        // room for every tile of the pile, the start tile and the abbeys
        let abbeys = if set.contains(Expansion::AbbeyMayor) {
            *players as usize
        } else {
            0
        };
        let abbey_features = cat
            .iter()
            .find(|(_, t)| t.not_in_draw_pile && t.edges[0] == EdgeKind::Abbey)
            .map_or(0, |(_, t)| t.features.len());
        let segments = pile
            .iter()
            .map(|t| cat.get(*t).features.len())
            .sum::<usize>()
            + cat.get(start).features.len()
            + abbeys * abbey_features;
        let mut board = Board::with_capacity(pile.len() + 1 + abbeys, segments);
        if set.contains(Expansion::Ferries) {
            // a ferry move rebuilds the roads from their joins
            board.record_roads();
        }
        board.place(start, Pos::new(0, 0), Rotation::R0);
        let river = if with_river {
            river::spring_end(cat.get(start), Rotation::R0)
        } else {
            None
        };
        let mut g = Game {
            table: Table {
                expansions: set,
                rules,
                returned: 0,
                players: (0..*players)
                    .map(|_| PlayerState {
                        score: 0,
                        supply,
                        active: true,
                        goods: [0; 3],
                        abbey: set.contains(Expansion::AbbeyMayor),
                        gold: 0,
                    })
                    .collect(),
                hands: (rules.tiles_in_hand.count() > 1)
                    .then(|| vec![Vec::new(); *players as usize]),
                board,
                pile,
                next_draw: 0,
                current: 0,
                phase: Phase::PlaceTile,
                placed: None,
                after_part: Stage::Start,
                rng,
                part_tile: None,
                after_magic: Stage::Figure,
                after_awards: Stage::Wagons,
                river,
                builder: set
                    .contains(Expansion::TradersBuilders)
                    .then_some(BuilderPart::Plain),
                abbey_mayor: set
                    .contains(Expansion::AbbeyMayor)
                    .then(Box::<AbbeyState>::default),
                gold_mines: set
                    .contains(Expansion::GoldMines)
                    .then(Box::<GoldState>::default),
                mage_witch: set.contains(Expansion::MageWitch).then(MagicState::default),
                crop: None,
                flight: None,
                ferry: set
                    .contains(Expansion::Ferries)
                    .then(Box::<FerryState>::default),
                score_track: (set.contains(Expansion::Robbers)
                    || set.contains(Expansion::Messages))
                .then(|| Box::new(ScoreTrack::new(*players))),
                robbers: set
                    .contains(Expansion::Robbers)
                    .then(|| Box::new(RobberState::new(*players))),
                messages,
            },
            drawn: None,
            version: 1,
            sandbox: tile_order.is_some(),
            ranking: Vec::new(),
            trail: Default::default(),
        };
        g.run(Stage::Start, sink);
        Ok(g)
    }
}
