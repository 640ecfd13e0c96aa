//! Why a set-up, an action or a replay is refused.

use thiserror::Error;

use crate::event::EventError;

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
}

/// Why an action was refused. The game is untouched.
#[derive(Debug, Error, PartialEq, Eq, Clone)]
pub enum PlayError {
    #[error("the game is over")]
    GameOver,
    #[error("it is not player {player}'s decision (waiting for player {expected})")]
    NotYourTurn { player: u8, expected: u8 },
    #[error("a {got} action is not expected now (expected: {expected})")]
    WrongPhase {
        got: &'static str,
        expected: &'static str,
    },
    #[error("cell ({x},{y}) already holds a tile")]
    CellTaken { x: i32, y: i32 },
    #[error("cell ({x},{y}) touches no tile")]
    NotAdjacent { x: i32, y: i32 },
    #[error("the tile does not fit at ({x},{y}) with rotation {rotation}: {reason}")]
    TileDoesNotFit {
        x: i32,
        y: i32,
        rotation: u16,
        reason: String,
    },
    #[error("the tile has no spot {0}")]
    UnknownSpot(String),
    #[error("a {figure} may not stand on a {feature}")]
    FigureNotAllowed {
        figure: &'static str,
        feature: &'static str,
    },
    #[error("the {0} is already occupied")]
    FeatureOccupied(&'static str),
    #[error("no {0} left in the supply")]
    NoFigureLeft(&'static str),
    #[error("({x},{y}) is not an empty cell with tiles on all four sides")]
    NotAHole { x: i32, y: i32 },
    #[error("the wagon cannot reach that feature (it must be a road, city or monastery on the wagon's tile or next to it, incomplete and unoccupied)")]
    WagonOutOfReach,
    #[error("({x},{y}) is not a tile around the gold tile")]
    NotAround { x: i32, y: i32 },
    #[error("the mage or witch may not go there (an incomplete road or city, not the other figure's, and not where it stands)")]
    MagicNotAllowed,
    #[error("a {0} cannot fly now")]
    CannotFly(&'static str),
    #[error("the flying follower cannot land on {0}")]
    CannotLand(String),
    #[error("that crop-circle action is not open to you")]
    CropNotAllowed,
    #[error("the ferry cannot go there")]
    FerryNotAllowed,
    #[error("a robber may only go on a track space holding another player's score figure")]
    RobberNotAllowed,
    #[error("that feature is not waiting to be scored")]
    NotInScoringOrder,
    #[error("your robber may only rob a player whose figure leaves its space in this award")]
    VictimNotAllowed,
    #[error("that is not one of the drawn message's choices")]
    MessageNotAllowed,
    #[error("a barn may not stand there: {0}")]
    BarnNotAllowed(&'static str),
    #[error("a {0} may only join a feature that holds one of your followers")]
    NeedsOwnFollower(&'static str),
    #[error("you have no abbot on an incomplete monastery or garden")]
    NoAbbotToReturn,
    #[error("player {0} is not playing in this game")]
    NotInGame(u8),
    #[error("the log does not match the game: {0}")]
    LogMismatch(String),
    /// A move went on after an action that drew a tile, rolled the die or drew a message
    /// (see [`Game::play_move`](crate::game::Game::play_move)).
    #[error("a move ends with the action that draws a tile, rolls the die or draws a message: send the actions after it as a new move")]
    MovePastHiddenInformation,
}

impl PlayError {
    /// Every code that [`PlayError::code`] gives, base game first.
    pub const CODES: &'static [&'static str] = &[
        "game-over",
        "not-your-turn",
        "unexpected-action",
        "illegal-placement",
        "tile-does-not-fit",
        "unknown-spot",
        "figure-not-allowed",
        "feature-occupied",
        "no-figure-left",
        "not-in-game",
        "log-mismatch",
        "needs-own-follower",
        "no-abbot-to-return",
        "wagon-out-of-reach",
        "barn-not-allowed",
        "magic-not-allowed",
        "cannot-fly",
        "cannot-land",
        "crop-not-allowed",
        "ferry-not-allowed",
        "robber-not-allowed",
        "not-in-scoring-order",
        "victim-not-allowed",
        "message-not-allowed",
        "move-past-hidden-information",
    ];

    /// Stable kebab-case code for clients.
    pub fn code(&self) -> &'static str {
        match self {
            PlayError::GameOver => "game-over",
            PlayError::NotYourTurn { .. } => "not-your-turn",
            PlayError::WrongPhase { .. } => "unexpected-action",
            PlayError::CellTaken { .. } => "illegal-placement",
            PlayError::NotAdjacent { .. } => "illegal-placement",
            PlayError::TileDoesNotFit { .. } => "tile-does-not-fit",
            PlayError::UnknownSpot(_) => "unknown-spot",
            PlayError::FigureNotAllowed { .. } => "figure-not-allowed",
            PlayError::FeatureOccupied(_) => "feature-occupied",
            PlayError::NoFigureLeft(_) => "no-figure-left",
            PlayError::NeedsOwnFollower(_) => "needs-own-follower",
            PlayError::NotAHole { .. } => "illegal-placement",
            PlayError::WagonOutOfReach => "wagon-out-of-reach",
            PlayError::BarnNotAllowed(_) => "barn-not-allowed",
            PlayError::NotAround { .. } => "illegal-placement",
            PlayError::MagicNotAllowed => "magic-not-allowed",
            PlayError::CannotFly(_) => "cannot-fly",
            PlayError::CannotLand(_) => "cannot-land",
            PlayError::CropNotAllowed => "crop-not-allowed",
            PlayError::FerryNotAllowed => "ferry-not-allowed",
            PlayError::RobberNotAllowed => "robber-not-allowed",
            PlayError::NotInScoringOrder => "not-in-scoring-order",
            PlayError::VictimNotAllowed => "victim-not-allowed",
            PlayError::MessageNotAllowed => "message-not-allowed",
            PlayError::NoAbbotToReturn => "no-abbot-to-return",
            PlayError::NotInGame(_) => "not-in-game",
            PlayError::LogMismatch(_) => "log-mismatch",
            PlayError::MovePastHiddenInformation => "move-past-hidden-information",
        }
    }
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
