//! Why a set-up, an action or a replay is refused.

use thiserror::Error;

use crate::decision::PlayError;
use crate::event::EventError;
use crate::rules::RuleError;

/// Why a set-up is refused.
#[derive(Debug, Error, PartialEq, Eq, Clone)]
pub enum SetupError {
    #[error("a game needs 2 to {max} players, not {got}")]
    PlayerCount { got: u8, max: u8 },
    #[error("unknown expansion {0}")]
    UnknownExpansion(String),
    #[error("expansion {0} is not available yet")]
    UnsupportedExpansion(String),
    #[error("tile_order names unknown tile {0}")]
    UnknownTile(String),
    #[error("tile {0} is not part of this game's expansions or cannot be drawn")]
    TileNotInGame(String),
    #[error("tile_order is empty")]
    EmptyTileOrder,
    #[error("seed {0} is not a decimal 64-bit number")]
    BadSeed(String),
    /// An unknown house rule, a value it does not take, or an unknown preset.
    #[error(transparent)]
    Rules(#[from] RuleError),
}

/// Why a log could not be replayed.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ReplayError {
    #[error("the log is empty or does not start with game_created")]
    NoCreation,
    #[error("event {index}: {source}")]
    Setup { index: usize, source: SetupError },
    #[error("event {index}: {source}")]
    Play { index: usize, source: PlayError },
    #[error("event {index}: {source}")]
    Decode { index: usize, source: EventError },
}
