//! What a turn waits for and why a decision is refused: the kind of decision pending
//! ([`Phase`]) and the refusals ([`PlayError`]). The expansions' hooks and the game share
//! them, so they sit below both. (The stages of a turn part are the registry's, in
//! `crate::expansions::stages`.)

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The kind of decision pending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Phase {
    /// Place the drawn tile.
    PlaceTile,
    /// Place a figure on the tile just placed, or pass.
    PlaceFigure,
    /// Abbey & Mayor: place the abbey into a hole, or draw a tile.
    AbbeyOrDraw,
    /// Abbey & Mayor, after the last tile: place the abbey into a hole, or pass.
    FinalAbbey,
    /// Abbey & Mayor: the owner of a freed wagon moves it, or takes it back (pass).
    MoveWagon,
    /// Gold Mines: put the second ingot on a tile around the gold tile.
    PlaceIngot,
    /// Mage & Witch: place or move the mage or the witch (or set one aside).
    MoveMagic,
    /// Flying Machines: the flying figure lands on a feature of the target tile.
    FlierLanding,
    /// Crop Circles: the active player chooses to add or to remove.
    CropMode,
    /// Crop Circles: a player adds a follower (or passes) or removes one.
    CropAction,
    /// Ferries: place the ferry of the lake tile just placed.
    PlaceFerry,
    /// Ferries: move a ferry the placed tile reached, or stop (pass).
    MoveFerry,
    /// Robbers: place or move a robber onto a track space, or pass.
    PlaceRobber,
    /// Robbers / Messages: the active player picks the next completed feature to score.
    ScoringOrder,
    /// Messages: the player receiving points picks the figure that moves.
    ChooseScoreFigure,
    /// Robbers: figures of several players leave a robber's space in one award batch; the
    /// robber's owner picks whom to rob.
    ChooseVictim,
    /// Messages: the active player carries out the drawn message or takes 2 points.
    ResolveMessage,
    /// Nothing pending.
    GameOver,
}

impl Phase {
    /// The phase's name (as serialized).
    pub fn name(self) -> &'static str {
        self.into()
    }
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
    /// House rule `tiles_in_hand`: the named tile is not the drawn tile nor in the hand.
    #[error("tile {0} is not in your hand")]
    TileNotInHand(String),
    /// House rule `tiles_in_hand`: the hand holds tiles of several types and the action
    /// names none.
    #[error("your hand holds several kinds of tile: name the one to place (tile)")]
    TileNotNamed,
    /// A move went on after an action that drew a tile, rolled the die or drew a message
    /// (see `Game::play_move`).
    #[error("a move ends with the action that draws a tile, rolls the die or draws a message: send the actions after it as a new move")]
    MovePastHiddenInformation,
    /// An undo by a player whose decision is not pending, or of another player's decision.
    #[error("only the player whose decision is pending may take back their own decisions")]
    UndoNotYours,
    /// An undo of a decision taken before hidden information entered the game.
    #[error("a decision may not be taken back once a tile was drawn, the die rolled or a message drawn after it")]
    UndoPastReveal,
    /// An undo with no decision of the player to take back.
    #[error("there is no decision of yours to take back")]
    NothingToUndo,
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
        "tile-not-in-hand",
        "tile-not-named",
        "undo-not-yours",
        "undo-past-reveal",
        "nothing-to-undo",
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
            PlayError::TileNotInHand(_) => "tile-not-in-hand",
            PlayError::TileNotNamed => "tile-not-named",
            PlayError::UndoNotYours => "undo-not-yours",
            PlayError::UndoPastReveal => "undo-past-reveal",
            PlayError::NothingToUndo => "nothing-to-undo",
        }
    }
}
