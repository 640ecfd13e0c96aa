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
        let start = cat.start_tile_for(set);
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
                // the first stack (the river's: shuffled, its last tile at its bottom) goes
                // on top of the normal pile
                let mut stack = Vec::new();
                let mut last = Vec::new();
                let mut v = Vec::with_capacity(192);
                for (id, t) in cat.iter() {
                    if expansions::tile_in_game(t, set) {
                        // one base start copy is on the table, or back in the box with the River
                        let n = t.count - if id == base_start { t.start_copies } else { 0 };
                        for _ in 0..n {
                            if t.river_last {
                                last.push(id);
                            } else if t.in_first_stack() {
                                stack.push(id);
                            } else {
                                v.push(id);
                            }
                        }
                    }
                }
                rng.shuffle(&mut stack);
                rng.shuffle(&mut v);
                stack.extend(last);
                stack.extend(v);
                stack
            }
        };
        let supply = expansions::starting_supply(set, &rules);
        // room for every tile of the pile, the start tile and the tiles the expansions
        // bring from beside the pile
        let (beside, beside_segments) = Table::tiles_beside_pile(set, *players);
        let segments = pile
            .iter()
            .map(|t| cat.get(*t).features.len())
            .sum::<usize>()
            + cat.get(start).features.len()
            + beside_segments;
        let board = Board::with_capacity(pile.len() + 1 + beside, segments);
        let players: Vec<PlayerState> = (0..*players)
            .map(|_| PlayerState {
                score: 0,
                supply,
                active: true,
                goods: [0; 3],
                abbey: false,
                gold: 0,
            })
            .collect();
        let hands = (rules.tiles_in_hand.count() > 1).then(|| vec![Vec::new(); players.len()]);
        // the expansions in play set up their state (the message stack is shuffled right
        // after the pile), then the start tile is placed
        let mut table = Table::new(set, rules, players, hands, board, pile, rng);
        table.board.place(start, Pos::new(0, 0), Rotation::R0);
        let mut g = Game {
            table,
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
