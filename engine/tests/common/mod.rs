//! A table for scripted games: the draw pile is fixed, and the moves read like the
//! rulebook's worked examples (`place`, `figure`, `pass`, `score`).
#![allow(dead_code)]

use tilepost_engine::catalog::EdgeKind;
use tilepost_engine::{
    catalog, Action, Effect, Event, FeatureKind, FigureKind, Game, GameConfig, HouseRules,
    PlayError, Rotation,
};

/// Seat numbers in the order the rulebook names the colours.
pub const RED: u8 = 0;
pub const BLUE: u8 = 1;
pub const GREEN: u8 = 2;
pub const YELLOW: u8 = 3;
pub const BLACK: u8 = 4;

/// A game in progress with its log and the consequences of every action.
pub struct Table {
    pub game: Game,
    pub log: Vec<Event>,
    /// Effects of the set-up and of every accepted action, in order.
    pub history: Vec<Effect>,
    /// Effects of the last accepted action (or of the set-up).
    pub last: Vec<Effect>,
}

impl Table {
    /// A sandbox game: the start tile at (0,0), then `tiles` drawn in this order.
    pub fn new(players: u8, tiles: &[&str]) -> Table {
        Table::with(&[], players, tiles)
    }

    /// A sandbox game with expansions (ids such as `river`, `abbot`).
    pub fn with(expansions: &[&str], players: u8, tiles: &[&str]) -> Table {
        Table::with_seed(expansions, players, tiles, 1)
    }

    /// A sandbox game with expansions and a chosen seed (the seed drives the flier's die).
    pub fn with_seed(expansions: &[&str], players: u8, tiles: &[&str], seed: u64) -> Table {
        Table::with_rules(expansions, players, tiles, seed, HouseRules::default())
    }

    /// A sandbox game with expansions, a seed and house rules.
    pub fn with_rules(
        expansions: &[&str],
        players: u8,
        tiles: &[&str],
        seed: u64,
        rules: HouseRules,
    ) -> Table {
        let config = GameConfig {
            players,
            expansions: expansions
                .iter()
                .map(|e| tilepost_engine::Expansion::from_id(e).expect("known expansion"))
                .collect(),
            tile_order: Some(tiles.iter().map(|s| s.to_string()).collect()),
            seed,
            rules,
        };
        let (game, created, fx) = Game::new_with_effects(&config).expect("valid set-up");
        Table {
            game,
            log: vec![created],
            history: fx.clone(),
            last: fx,
        }
    }

    /// The player whose decision is pending.
    pub fn current(&self) -> u8 {
        self.game.pending().expect("the game is running").player
    }

    /// The catalog id of the drawn tile.
    pub fn drawn(&self) -> Option<&'static str> {
        self.game
            .pending()
            .and_then(|p| p.tile)
            .map(|t| catalog().get(t).id.as_str())
    }

    fn record(&mut self, outcome: tilepost_engine::Outcome) {
        self.log.push(outcome.event);
        self.history.extend(outcome.effects.iter().cloned());
        self.last = outcome.effects;
    }

    /// Plays `action` for the pending player; on refusal, checks the game is untouched.
    pub fn try_play(&mut self, action: Action) -> Result<(), PlayError> {
        let player = self.game.pending().map(|p| p.player).unwrap_or(0);
        self.try_play_as(player, action)
    }

    /// Plays `action` for `player`; on refusal, checks the game is untouched.
    pub fn try_play_as(&mut self, player: u8, action: Action) -> Result<(), PlayError> {
        let before = self.game.clone();
        match self.game.play(player, &action) {
            Ok(outcome) => {
                self.record(outcome);
                Ok(())
            }
            Err(e) => {
                assert_eq!(self.game, before, "a refused {action:?} changed the game");
                Err(e)
            }
        }
    }

    pub fn try_place(&mut self, x: i32, y: i32, degrees: i64) -> Result<(), PlayError> {
        let rotation = Rotation::from_degrees(degrees).expect("0, 90, 180 or 270");
        self.try_play(Action::PlaceTile {
            x,
            y,
            rotation,
            tile: None,
        })
    }

    /// House rule `tiles_in_hand`: the pending player's hand, as catalog ids.
    pub fn hand(&self) -> Vec<&'static str> {
        self.game
            .hand(self.current())
            .iter()
            .map(|t| catalog().get(*t).id.as_str())
            .collect()
    }

    /// Places the tile `tile` of the pending player's hand (or the drawn tile it names).
    pub fn try_place_tile(
        &mut self,
        tile: &str,
        x: i32,
        y: i32,
        degrees: i64,
    ) -> Result<(), PlayError> {
        let rotation = Rotation::from_degrees(degrees).expect("0, 90, 180 or 270");
        self.try_play(Action::PlaceTile {
            x,
            y,
            rotation,
            tile: Some(tile.to_string()),
        })
    }

    /// The pending player places `tile` from the hand at (x,y) turned by `degrees`.
    pub fn place_tile(&mut self, tile: &str, x: i32, y: i32, degrees: i64) -> &mut Table {
        if let Err(e) = self.try_place_tile(tile, x, y, degrees) {
            panic!("placing {tile} at ({x},{y}) r{degrees} was refused: {e}");
        }
        self
    }

    /// The pending player places the drawn tile at (x,y) turned by `degrees` clockwise.
    pub fn place(&mut self, x: i32, y: i32, degrees: i64) -> &mut Table {
        let tile = self.drawn();
        if let Err(e) = self.try_place(x, y, degrees) {
            panic!("placing {tile:?} at ({x},{y}) r{degrees} was refused: {e}");
        }
        self
    }

    pub fn try_figure(&mut self, spot: &str) -> Result<(), PlayError> {
        self.try_figure_kind(FigureKind::Follower, spot)
    }

    pub fn try_figure_kind(&mut self, figure: FigureKind, spot: &str) -> Result<(), PlayError> {
        self.try_play(Action::PlaceFigure {
            figure,
            spot: spot.to_string(),
        })
    }

    /// The pending player puts a follower on `spot` of the tile just placed.
    pub fn figure(&mut self, spot: &str) -> &mut Table {
        if let Err(e) = self.try_figure(spot) {
            panic!("a follower on {spot} was refused: {e}");
        }
        self
    }

    /// The pending player places no figure.
    pub fn pass(&mut self) -> &mut Table {
        if let Err(e) = self.try_play(Action::Pass) {
            panic!("passing was refused: {e}");
        }
        self
    }

    /// A player leaves the game.
    pub fn resign(&mut self, player: u8) -> &mut Table {
        let outcome = self
            .game
            .resign(player, false)
            .unwrap_or_else(|e| panic!("player {player} could not resign: {e}"));
        self.record(outcome);
        self
    }

    pub fn score(&self, player: u8) -> i32 {
        self.game.players()[player as usize].score
    }

    pub fn scores(&self) -> Vec<i32> {
        self.game.players().iter().map(|p| p.score).collect()
    }

    /// Normal followers in the player's supply.
    pub fn supply(&self, player: u8) -> u8 {
        self.game.players()[player as usize].supply[FigureKind::Follower as usize]
    }

    /// The placed tile's sides in board orientation, as the rulebook writes them
    /// (`NESW=CRFR`).
    pub fn edges(&self, x: i32, y: i32) -> String {
        let pt = self
            .game
            .board()
            .tile_at(tilepost_engine::Pos::new(x, y))
            .unwrap_or_else(|| panic!("no tile at ({x},{y})"));
        let tt = pt.tile_type();
        tilepost_engine::Dir::ALL
            .iter()
            .map(|d| match tt.edge_at(pt.rotation, *d) {
                EdgeKind::City => 'C',
                EdgeKind::Road => 'R',
                EdgeKind::Field => 'F',
                EdgeKind::River => 'I',
                EdgeKind::Abbey => 'A',
            })
            .collect()
    }

    /// Scorings of the last action: (feature, points, players, at the end of the game).
    pub fn scored(&self) -> Vec<(FeatureKind, i32, Vec<u8>, bool)> {
        scorings(&self.last)
    }

    /// Every scoring so far.
    pub fn all_scored(&self) -> Vec<(FeatureKind, i32, Vec<u8>, bool)> {
        scorings(&self.history)
    }

    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// Ranks by seat (1 = winner).
    pub fn ranks(&self) -> Vec<u8> {
        let mut v = vec![0u8; self.game.players().len()];
        for e in self.game.ranking() {
            v[e.player as usize] = e.rank;
        }
        v
    }

    /// The log replays to the same game, with the same consequences.
    pub fn assert_replays(&self) {
        let replayed = Game::replay(&self.log).expect("the log replays");
        assert_eq!(replayed, self.game, "replay differs from the live game");
        let (again, fx) = Game::replay_with_effects(&self.log).expect("the log replays");
        assert_eq!(again, self.game);
        let flat: Vec<Effect> = fx.into_iter().flatten().collect();
        assert_eq!(flat, self.history, "replayed consequences differ");
    }
}

fn scorings(fx: &[Effect]) -> Vec<(FeatureKind, i32, Vec<u8>, bool)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::FeatureScored {
                feature,
                points,
                players,
                final_scoring,
                ..
            } => Some((*feature, *points, players.clone(), *final_scoring)),
            _ => None,
        })
        .collect()
}
