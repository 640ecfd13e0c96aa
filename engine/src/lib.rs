//! # tilepost-engine
//!
//! A pure rules engine for Carcassonne: the tile catalog, the board with its features
//! (union-find), legal moves, scoring, and replay from an event log.
//!
//! The crate does no IO: no files, network, clock or global random numbers. Time and
//! randomness enter as data (the game's seed is in its creation event), so the same log
//! gives the same state on every machine.
//!
//! ```
//! use tilepost_engine::{Game, GameConfig, Action};
//! let (mut game, created) = Game::new(&GameConfig { players: 2, seed: 7, ..Default::default() }).unwrap();
//! let mut log = vec![created];
//! while let Some(p) = game.pending() {
//!     let action = game.legal_actions().into_iter().next().unwrap();
//!     log.push(game.play(p.player, &action).unwrap().event);
//! }
//! assert_eq!(Game::replay(&log).unwrap(), game);
//! ```

pub mod action;
pub mod analysis;
pub mod board;
pub mod catalog;
pub mod decision;
pub mod describe;
pub mod effect;
pub mod event;
pub mod expansion;
pub mod expansions;
pub mod figures;
pub mod game;
pub mod geometry;
pub mod rng;
pub mod rules;
mod tile_words;

pub use action::Action;
pub use analysis::{analyze, Analysis, AnalysisOptions};
pub use board::{Board, BoardFigure, PlacedTile};
pub use catalog::{catalog, try_catalog, Catalog, FeatureKind, TileType, TileTypeId};
pub use describe::{describe, TileDescription};
pub use event::{Declined, Effect, Event, EventError, RankEntry};
pub use expansions::{Expansion, ExpansionSet};
pub use figures::FigureKind;
pub use game::{
    moves, EffectSink, Game, GameConfig, MoveError, NoEffects, Outcome, Pending, Phase, Placement,
    PlayError, PlayerState, ReplayError, SeatView, SetupError, SpotOption,
};
pub use geometry::{Dir, Half, Pos, Rotation, Spot};
pub use rules::{
    rule_catalog, HouseRules, RuleCatalog, RuleError, RulePreset, RuleValues, RuleVariant,
};
