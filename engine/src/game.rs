//! The game: set-up, the turn as a state machine with exactly one pending decision, the
//! legal actions, `play` (one gate for every action), scoring, the end of the game and
//! replay from the event log.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::board::Board;
use crate::catalog::{catalog, EdgeKind, FeatureKind, TileTypeId};
use crate::event::{Effect, Event, EventError, RankEntry};
use crate::expansions::minis::{CropMode, MagicFigure};
use crate::expansions::river::{self, RiverEnd};
use crate::expansions::track::{Award, AwardStage, MessageChoice, OrderChoice};
use crate::expansions::{self, Expansion, ExpansionSet};
use crate::figures::FigureKind;
use crate::geometry::{Pos, Rotation, Spot};
use crate::rng::Rng;

/// How a game is set up. Validated by [`Game::new`].
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameConfig {
    /// Number of seats, 2 to 5 (6 with Inns & Cathedrals).
    pub players: u8,
    pub expansions: Vec<Expansion>,
    /// Catalog ids that replace the shuffled draw pile (sandbox games).
    pub tile_order: Option<Vec<String>>,
    /// The game's secret seed.
    pub seed: u64,
}

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
    /// (see [`Game::play_move`]).
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

/// An action a player may take. The JSON form is what clients post.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    deny_unknown_fields,
    from = "ActionWire"
)]
pub enum Action {
    PlaceTile {
        x: i32,
        y: i32,
        rotation: Rotation,
    },
    PlaceFigure {
        figure: FigureKind,
        spot: String,
    },
    /// The Abbot: take the abbot back from an incomplete monastery or garden instead of
    /// placing a figure, scoring it at once.
    ReturnAbbot,
    /// Abbey & Mayor: place the abbey into a hole instead of drawing a tile (also in the
    /// final abbey round).
    PlaceAbbey {
        x: i32,
        y: i32,
    },
    /// Abbey & Mayor: draw a tile instead of placing the abbey.
    DrawTile,
    /// Abbey & Mayor: move a freed wagon onto a feature in reach.
    MoveWagon {
        x: i32,
        y: i32,
        spot: String,
    },
    /// Gold Mines: put the second ingot on a tile around the gold tile.
    PlaceIngot {
        x: i32,
        y: i32,
    },
    /// Mage & Witch: place or move the mage or the witch onto a road or city.
    MoveMagic {
        figure: MagicFigure,
        x: i32,
        y: i32,
        spot: String,
    },
    /// Mage & Witch: set a figure aside (only when no move is possible).
    RemoveMagic {
        figure: MagicFigure,
    },
    /// Flying Machines: send a follower flying instead of placing a figure.
    Fly {
        figure: FigureKind,
    },
    /// Flying Machines: land the flying follower on a spot of the target tile.
    Land {
        spot: String,
    },
    /// Crop Circles: add or remove.
    ChooseCropMode {
        mode: CropMode,
    },
    /// Crop Circles: add a follower next to one of your followers of the circle's role.
    AddFollower {
        figure: FigureKind,
        x: i32,
        y: i32,
        spot: String,
    },
    /// Crop Circles: take back one of your followers of the circle's role.
    RemoveFollower {
        figure: FigureKind,
        x: i32,
        y: i32,
        spot: String,
    },
    /// Ferries: the ferry on the lake at (x,y) joins the road ends leaving by sides
    /// `from` and `to`.
    PlaceFerry {
        x: i32,
        y: i32,
        from: String,
        to: String,
    },
    /// Ferries: move the ferry on the lake at (x,y) to join `from` and `to`.
    MoveFerry {
        x: i32,
        y: i32,
        from: String,
        to: String,
    },
    /// Robbers: put your robber on this track space (0–49).
    PlaceRobber {
        space: u8,
    },
    /// Robbers / Messages: score this completed feature next (named by a spot on one of
    /// its tiles).
    ScoreNext {
        x: i32,
        y: i32,
        spot: String,
    },
    /// Messages: the figure that moves for these points.
    ChooseScoreFigure {
        figure: ScoreFigure,
    },
    /// Robbers: rob this player (a seat) when several players' figures leave your
    /// robber's space in one award batch.
    ChooseVictim {
        victim: u8,
    },
    /// Messages 1–3: score this smallest road, city or monastery of yours.
    MessageFeature {
        x: i32,
        y: i32,
        spot: String,
    },
    /// Message 8: score this follower's feature and take the follower back.
    MessageFollower {
        figure: FigureKind,
        x: i32,
        y: i32,
        spot: String,
    },
    /// Messages 4–7: carry out the message (an extra tile, or its points).
    MessageAction,
    /// Messages: 2 points instead of the message.
    MessageTwoPoints,
    Pass,
}

/// The Messages' score figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreFigure {
    Meeple,
    Messenger,
}

/// How an [`Action`] is read. serde ignores `deny_unknown_fields` on the unit variant of
/// an internally tagged enum, so `pass` is read as an empty struct variant here.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ActionWire {
    PlaceTile {
        x: i32,
        y: i32,
        rotation: Rotation,
    },
    PlaceFigure {
        figure: FigureKind,
        spot: String,
    },
    ReturnAbbot {},
    PlaceAbbey {
        x: i32,
        y: i32,
    },
    DrawTile {},
    MoveWagon {
        x: i32,
        y: i32,
        spot: String,
    },
    PlaceIngot {
        x: i32,
        y: i32,
    },
    MoveMagic {
        figure: MagicFigure,
        x: i32,
        y: i32,
        spot: String,
    },
    RemoveMagic {
        figure: MagicFigure,
    },
    Fly {
        figure: FigureKind,
    },
    Land {
        spot: String,
    },
    ChooseCropMode {
        mode: CropMode,
    },
    AddFollower {
        figure: FigureKind,
        x: i32,
        y: i32,
        spot: String,
    },
    RemoveFollower {
        figure: FigureKind,
        x: i32,
        y: i32,
        spot: String,
    },
    PlaceFerry {
        x: i32,
        y: i32,
        from: String,
        to: String,
    },
    MoveFerry {
        x: i32,
        y: i32,
        from: String,
        to: String,
    },
    PlaceRobber {
        space: u8,
    },
    ScoreNext {
        x: i32,
        y: i32,
        spot: String,
    },
    ChooseScoreFigure {
        figure: ScoreFigure,
    },
    ChooseVictim {
        victim: u8,
    },
    MessageFeature {
        x: i32,
        y: i32,
        spot: String,
    },
    MessageFollower {
        figure: FigureKind,
        x: i32,
        y: i32,
        spot: String,
    },
    MessageAction {},
    MessageTwoPoints {},
    Pass {},
}

impl From<ActionWire> for Action {
    fn from(w: ActionWire) -> Action {
        match w {
            ActionWire::PlaceTile { x, y, rotation } => Action::PlaceTile { x, y, rotation },
            ActionWire::PlaceFigure { figure, spot } => Action::PlaceFigure { figure, spot },
            ActionWire::ReturnAbbot {} => Action::ReturnAbbot,
            ActionWire::PlaceAbbey { x, y } => Action::PlaceAbbey { x, y },
            ActionWire::DrawTile {} => Action::DrawTile,
            ActionWire::MoveWagon { x, y, spot } => Action::MoveWagon { x, y, spot },
            ActionWire::PlaceIngot { x, y } => Action::PlaceIngot { x, y },
            ActionWire::MoveMagic { figure, x, y, spot } => {
                Action::MoveMagic { figure, x, y, spot }
            }
            ActionWire::RemoveMagic { figure } => Action::RemoveMagic { figure },
            ActionWire::Fly { figure } => Action::Fly { figure },
            ActionWire::Land { spot } => Action::Land { spot },
            ActionWire::ChooseCropMode { mode } => Action::ChooseCropMode { mode },
            ActionWire::AddFollower { figure, x, y, spot } => {
                Action::AddFollower { figure, x, y, spot }
            }
            ActionWire::RemoveFollower { figure, x, y, spot } => {
                Action::RemoveFollower { figure, x, y, spot }
            }
            ActionWire::PlaceFerry { x, y, from, to } => Action::PlaceFerry { x, y, from, to },
            ActionWire::MoveFerry { x, y, from, to } => Action::MoveFerry { x, y, from, to },
            ActionWire::PlaceRobber { space } => Action::PlaceRobber { space },
            ActionWire::ScoreNext { x, y, spot } => Action::ScoreNext { x, y, spot },
            ActionWire::ChooseScoreFigure { figure } => Action::ChooseScoreFigure { figure },
            ActionWire::ChooseVictim { victim } => Action::ChooseVictim { victim },
            ActionWire::MessageFeature { x, y, spot } => Action::MessageFeature { x, y, spot },
            ActionWire::MessageFollower { figure, x, y, spot } => {
                Action::MessageFollower { figure, x, y, spot }
            }
            ActionWire::MessageAction {} => Action::MessageAction,
            ActionWire::MessageTwoPoints {} => Action::MessageTwoPoints,
            ActionWire::Pass {} => Action::Pass,
        }
    }
}

impl Action {
    pub fn name(&self) -> &'static str {
        match self {
            Action::PlaceTile { .. } => "place_tile",
            Action::PlaceFigure { .. } => "place_figure",
            Action::ReturnAbbot => "return_abbot",
            Action::PlaceAbbey { .. } => "place_abbey",
            Action::DrawTile => "draw_tile",
            Action::MoveWagon { .. } => "move_wagon",
            Action::PlaceIngot { .. } => "place_ingot",
            Action::MoveMagic { .. } => "move_magic",
            Action::RemoveMagic { .. } => "remove_magic",
            Action::Fly { .. } => "fly",
            Action::Land { .. } => "land",
            Action::ChooseCropMode { .. } => "choose_crop_mode",
            Action::AddFollower { .. } => "add_follower",
            Action::RemoveFollower { .. } => "remove_follower",
            Action::PlaceFerry { .. } => "place_ferry",
            Action::MoveFerry { .. } => "move_ferry",
            Action::PlaceRobber { .. } => "place_robber",
            Action::ScoreNext { .. } => "score_next",
            Action::ChooseScoreFigure { .. } => "choose_score_figure",
            Action::ChooseVictim { .. } => "choose_victim",
            Action::MessageFeature { .. } => "message_feature",
            Action::MessageFollower { .. } => "message_follower",
            Action::MessageAction => "message_action",
            Action::MessageTwoPoints => "message_two_points",
            Action::Pass => "pass",
        }
    }
}

/// The kind of decision pending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    pub fn name(self) -> &'static str {
        match self {
            Phase::PlaceTile => "place_tile",
            Phase::PlaceFigure => "place_figure",
            Phase::AbbeyOrDraw => "abbey_or_draw",
            Phase::FinalAbbey => "final_abbey",
            Phase::MoveWagon => "move_wagon",
            Phase::PlaceIngot => "place_ingot",
            Phase::MoveMagic => "move_magic",
            Phase::FlierLanding => "flier_landing",
            Phase::CropMode => "crop_mode",
            Phase::CropAction => "crop_action",
            Phase::PlaceFerry => "place_ferry",
            Phase::MoveFerry => "move_ferry",
            Phase::PlaceRobber => "place_robber",
            Phase::ScoringOrder => "scoring_order",
            Phase::ChooseScoreFigure => "choose_score_figure",
            Phase::ChooseVictim => "choose_victim",
            Phase::ResolveMessage => "resolve_message",
            Phase::GameOver => "game_over",
        }
    }
}

/// The pending decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pending {
    pub player: u8,
    pub phase: Phase,
    /// The drawn tile (during both phases of a turn).
    pub tile: Option<TileTypeId>,
}

/// A player's public state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerState {
    pub score: i32,
    pub supply: [u8; FigureKind::COUNT],
    /// False once the player resigned or timed out.
    pub active: bool,
    /// Goods tokens: wine, grain, cloth (Traders & Builders).
    pub goods: [u8; 3],
    /// Still holds an abbey tile (Abbey & Mayor).
    pub abbey: bool,
    /// Gold ingots taken (Gold Mines).
    pub gold: u8,
}

/// A spot of a candidate placement and the figures the current player may put there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpotOption {
    pub spot: Spot,
    /// Catalog feature index on the tile.
    pub feature: u8,
    pub figures: Vec<FigureKind>,
}

/// A legal placement of the drawn tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub pos: Pos,
    pub rotation: Rotation,
    pub spots: Vec<SpotOption>,
}

/// Where effects go. Replay uses a sink that keeps nothing, so it builds none.
pub trait EffectSink {
    fn enabled(&self) -> bool;
    fn push(&mut self, e: Effect);
}

impl EffectSink for Vec<Effect> {
    fn enabled(&self) -> bool {
        true
    }
    fn push(&mut self, e: Effect) {
        Vec::push(self, e)
    }
}

/// A sink that discards effects.
pub struct NoEffects;

impl EffectSink for NoEffects {
    fn enabled(&self) -> bool {
        false
    }
    fn push(&mut self, _e: Effect) {}
}

/// The result of an accepted action: the decision event to store and its consequences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub event: Event,
    pub effects: Vec<Effect>,
}

/// A game in progress (or finished).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub(crate) expansions: ExpansionSet,
    pub(crate) players: Vec<PlayerState>,
    pub(crate) board: Board,
    pub(crate) pile: Vec<TileTypeId>,
    pub(crate) next_draw: usize,
    pub(crate) drawn: Option<TileTypeId>,
    pub(crate) current: u8,
    pub(crate) phase: Phase,
    /// Index of the tile placed this turn.
    pub(crate) placed: Option<usize>,
    /// Number of events applied (the game's version).
    pub(crate) version: u32,
    pub(crate) sandbox: bool,
    pub(crate) ranking: Vec<RankEntry>,
    /// The River's open end while the river is being built.
    pub(crate) river: Option<RiverEnd>,
    /// Traders & Builders: the tile placed in this part extended a road or city holding
    /// the active player's builder.
    pub(crate) builder_trigger: bool,
    /// Traders & Builders: the extra turn part of this turn was already played.
    pub(crate) extra_part_used: bool,
    /// Abbey & Mayor: freed wagons waiting for their owners' decisions, in order, with
    /// the cell they stood on.
    pub(crate) wagons: Vec<(u8, Pos)>,
    /// Abbey & Mayor: the segment of the barn placed in this turn part.
    pub(crate) barn_placed: Option<u16>,
    /// Abbey & Mayor: players still to be asked in the final abbey round.
    pub(crate) final_queue: Vec<u8>,
    /// The final abbey round is under way.
    pub(crate) in_final: bool,
    /// The game's random numbers after the set-up (die rolls), from its seed.
    pub(crate) rng: Rng,
    /// Index of the tile placed in this turn part (kept through scoring).
    pub(crate) part_tile: Option<usize>,
    /// Gold Mines: ingots lying on each placed tile (by tile index).
    pub(crate) gold_on: Vec<u8>,
    /// Mage & Witch: the segment each stands on (mage, witch), `None` when set aside.
    pub(crate) magic: [Option<u16>; 2],
    /// Mage & Witch: the placed tile's magic symbol still asks for a move.
    pub(crate) magic_symbol_pending: bool,
    /// Crop Circles: the action under way.
    pub(crate) crop: Option<crate::expansions::minis::Crop>,
    /// Flying Machines: the figure in flight and the tile it must land on.
    pub(crate) flight: Option<(FigureKind, usize)>,
    /// Ferries: the ferry of every lake on the board.
    pub(crate) ferries: Vec<crate::expansions::ferries::Ferry>,
    /// Ferries: lake tiles whose ferry moved in this turn part.
    pub(crate) ferries_moved: Vec<usize>,
    /// Ferries: lake tiles whose ferry was placed or moved in this turn part.
    pub(crate) ferry_touched: Vec<usize>,
    /// Ferries: a ferry brought the mage and the witch together; after they part, the
    /// turn goes on with the ferries.
    pub(crate) magic_after_ferry: bool,
    /// Robbers / Messages: each player's score figures (meeple, messenger) by total.
    pub(crate) track: Vec<[i32; 2]>,
    /// Robbers: each player's robber's track space, `None` in the supply.
    pub(crate) robbers: Vec<Option<u8>>,
    /// Robbers: the player after the active one who may place a robber now.
    pub(crate) robber_second: Option<u8>,
    /// Robbers / Messages: awards waiting to move score figures.
    pub(crate) awards: Vec<Award>,
    /// What follows once the award queue is empty.
    pub(crate) award_stage: AwardStage,
    /// Robbers: victims chosen for the award batch under way (robber's owner, victim,
    /// batch).
    pub(crate) victims: Vec<(u8, u8, u16)>,
    /// Robbers: the score figure the head award moves once the victim is chosen.
    pub(crate) victim_figure: Option<u8>,
    /// Robbers / Messages: features completed together, waiting for their order.
    pub(crate) scoring_order: Vec<OrderChoice>,
    /// The order chosen so far (batches).
    pub(crate) scoring_chosen: Vec<u16>,
    /// Messages: the face-down stack (top first).
    pub(crate) message_stack: Vec<u8>,
    /// Messages: the message drawn and waiting for the active player.
    pub(crate) message_drawn: Option<u8>,
    /// Messages: earned and not yet drawn.
    pub(crate) messages_earned: u8,
    /// Messages: this scoring round already earned its message.
    pub(crate) message_round_earned: bool,
    /// Messages: extra turn parts earned (message 4).
    pub(crate) extra_tiles: u8,
}

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

    fn from_creation(ev: &Event, sink: &mut impl EffectSink) -> Result<Game, SetupError> {
        let Event::GameCreated {
            seed,
            players,
            expansions: exp_ids,
            tile_order,
        } = ev
        else {
            return Err(SetupError::BadSeed(String::new()));
        };
        let seed: u64 = seed
            .parse()
            .map_err(|_| SetupError::BadSeed(seed.clone()))?;
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
        let supply = expansions::starting_supply(set);
        let mut message_stack = Vec::new();
        if set.contains(Expansion::Messages) {
            message_stack = crate::expansions::track::MESSAGES.to_vec();
            rng.shuffle(&mut message_stack);
        }
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
            expansions: set,
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
            board,
            pile,
            next_draw: 0,
            drawn: None,
            current: 0,
            phase: Phase::PlaceTile,
            placed: None,
            version: 1,
            sandbox: tile_order.is_some(),
            ranking: Vec::new(),
            river,
            builder_trigger: false,
            extra_part_used: false,
            wagons: Vec::new(),
            barn_placed: None,
            final_queue: Vec::new(),
            in_final: false,
            rng,
            part_tile: None,
            gold_on: Vec::new(),
            magic: [None, None],
            magic_symbol_pending: false,
            crop: None,
            flight: None,
            ferries: Vec::new(),
            ferries_moved: Vec::new(),
            ferry_touched: Vec::new(),
            magic_after_ferry: false,
            track: vec![[0, 0]; *players as usize],
            robbers: vec![None; *players as usize],
            robber_second: None,
            awards: Vec::new(),
            award_stage: AwardStage::Scoring,
            victims: Vec::new(),
            victim_figure: None,
            scoring_order: Vec::new(),
            scoring_chosen: Vec::new(),
            message_stack,
            message_drawn: None,
            messages_earned: 0,
            message_round_earned: false,
            extra_tiles: 0,
        };
        g.start_turn(sink);
        Ok(g)
    }

    // ----- read access -------------------------------------------------------------

    pub fn expansions(&self) -> ExpansionSet {
        self.expansions
    }
    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn players(&self) -> &[PlayerState] {
        &self.players
    }
    pub fn player_count(&self) -> u8 {
        self.players.len() as u8
    }
    /// Number of events applied so far, the creation included.
    pub fn version(&self) -> u32 {
        self.version
    }
    pub fn is_sandbox(&self) -> bool {
        self.sandbox
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }
    /// The final ranking (empty while the game runs).
    pub fn ranking(&self) -> &[RankEntry] {
        &self.ranking
    }
    /// The active player.
    pub fn current_player(&self) -> u8 {
        self.current
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The tile placed this turn (during the figure phase).
    pub fn placed_tile(&self) -> Option<&crate::board::PlacedTile> {
        self.placed.map(|i| &self.board.tiles()[i])
    }

    /// The pending decision, `None` when the game is over.
    pub fn pending(&self) -> Option<Pending> {
        (self.phase != Phase::GameOver).then_some(Pending {
            player: self.decider(),
            phase: self.phase,
            tile: self.drawn,
        })
    }

    /// The player whose decision is pending (not always the active player: a freed
    /// wagon's owner decides during someone else's turn).
    pub fn decider(&self) -> u8 {
        match (self.phase, self.wagons.first()) {
            (Phase::MoveWagon, Some((owner, _))) => *owner,
            _ => match (self.phase, &self.crop) {
                (Phase::CropAction, Some(c)) => c.queue.first().copied().unwrap_or(self.current),
                (Phase::ChooseScoreFigure, _) => self
                    .awards
                    .first()
                    .map(|a| a.player)
                    .unwrap_or(self.current),
                (Phase::PlaceRobber, _) => self.robber_decider(),
                (Phase::ChooseVictim, _) => self
                    .victim_choice(self.victim_figure.unwrap_or(0))
                    .map_or(self.current, |(owner, _)| owner),
                _ => self.current,
            },
        }
    }

    /// Wagons freed by a scoring and waiting for their owners' decisions, with the cell
    /// each stood on (Abbey & Mayor). They are neither on the board nor in a supply.
    pub fn freed_wagons(&self) -> &[(u8, Pos)] {
        &self.wagons
    }

    /// Is there an empty cell with tiles on all four sides?
    pub fn has_hole(&self) -> bool {
        debug_assert_eq!(self.board.has_hole(), !self.holes().is_empty());
        self.board.has_hole()
    }

    /// Empty cells with tiles on all four sides (where an abbey may go).
    pub fn holes(&self) -> Vec<Pos> {
        let mut v: Vec<Pos> = self
            .board
            .frontier()
            .iter()
            .map(|f| f.pos)
            .filter(|p| {
                crate::geometry::Dir::ALL
                    .iter()
                    .all(|d| self.board.is_occupied(p.step(*d)))
            })
            .collect();
        v.sort();
        v
    }

    /// May the pending wagon move onto segment `seg`?
    fn wagon_target_ok(&self, seg: u16) -> bool {
        let Some(&(_, from)) = self.wagons.first() else {
            return false;
        };
        let at = self.board.tiles()[self.board.seg_tile(seg)].pos;
        (at.x - from.x).abs() <= 1
            && (at.y - from.y).abs() <= 1
            && expansions::figure_allowed(
                self.expansions,
                FigureKind::Wagon,
                self.board.seg_kind(seg),
            )
            && !self.board.is_complete(seg)
            && self.board.figures_in(seg) == 0
    }

    /// Has the pending wagon anywhere to go?
    fn has_wagon_target(&self) -> bool {
        let Some(&(_, from)) = self.wagons.first() else {
            return false;
        };
        let mut cells = [from; 9];
        cells[1..].copy_from_slice(&from.surrounding());
        cells.iter().any(|p| {
            self.board.tile_index_at(*p).is_some_and(|j| {
                (0..self.board.tiles()[j].tile_type().features.len())
                    .any(|i| self.wagon_target_ok(self.board.seg(j, i)))
            })
        })
    }

    /// Where the pending wagon may move: (cell, spot name, segment), the features on the
    /// wagon's tile and the 8 around it that are roads, cities or monasteries, incomplete
    /// and unoccupied.
    pub fn wagon_targets(&self) -> Vec<(Pos, String, u16)> {
        let mut out = Vec::new();
        let Some(&(owner, from)) = self.wagons.first() else {
            return out;
        };
        let _ = owner;
        let mut cells = [from; 9];
        cells[1..].copy_from_slice(&from.surrounding());
        cells.sort();
        for p in cells {
            let Some(j) = self.board.tile_index_at(p) else {
                continue;
            };
            let pt = self.board.tiles()[j];
            let tt = pt.tile_type();
            for (i, f) in tt.features.iter().enumerate() {
                if !expansions::figure_allowed(self.expansions, FigureKind::Wagon, f.kind) {
                    continue;
                }
                let seg = self.board.seg(j, i);
                if self.board.is_complete(seg) || self.board.figures_in(seg) > 0 {
                    continue;
                }
                out.push((p, tt.spot_name(tt.canonical_spot(pt.rotation, i)), seg));
            }
        }
        out
    }

    /// Tiles still in the pile (not counting the drawn one).
    pub fn tiles_left(&self) -> usize {
        self.pile.len() - self.next_draw
    }

    /// Remaining tiles by type, in catalog order (public: players can count them).
    pub fn tiles_left_by_type(&self) -> Vec<(TileTypeId, u32)> {
        let mut counts = vec![0u32; catalog().tiles.len()];
        for t in &self.pile[self.next_draw..] {
            counts[t.0 as usize] += 1;
        }
        counts
            .into_iter()
            .enumerate()
            .filter(|(_, c)| *c > 0)
            .map(|(i, c)| (TileTypeId(i as u16), c))
            .collect()
    }

    /// Approximate memory held by the game (struct plus heap).
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Game>()
            + self.board.heap_bytes()
            + self.players.capacity() * std::mem::size_of::<PlayerState>()
            + self.pile.capacity() * std::mem::size_of::<TileTypeId>()
            + self.ranking.capacity() * std::mem::size_of::<RankEntry>()
            + self.wagons.capacity() * std::mem::size_of::<(u8, Pos)>()
            + self.final_queue.capacity()
            + self.gold_on.capacity()
            + self.crop.as_ref().map_or(0, |c| c.queue.capacity())
            + self.track.capacity() * std::mem::size_of::<[i32; 2]>()
            + self.robbers.capacity() * std::mem::size_of::<Option<u8>>()
            + self.awards.capacity() * std::mem::size_of::<Award>()
            + self.victims.capacity() * std::mem::size_of::<(u8, u8, u16)>()
            + self.scoring_order.capacity() * std::mem::size_of::<OrderChoice>()
            + self.scoring_chosen.capacity() * 2
            + self.message_stack.capacity()
            + self.ferries.capacity() * std::mem::size_of::<crate::expansions::ferries::Ferry>()
            + self.ferries_moved.capacity() * std::mem::size_of::<usize>()
            + self.ferry_touched.capacity() * std::mem::size_of::<usize>()
    }

    // ----- legal moves -------------------------------------------------------------

    /// Legal (position, rotation) pairs for the drawn tile, appended to `out`.
    pub fn placements_into(&self, out: &mut Vec<(Pos, Rotation)>) {
        if self.phase != Phase::PlaceTile {
            return;
        }
        if let Some(t) = self.drawn {
            self.tile_placements(t, out);
        }
    }

    fn tile_placements(&self, t: TileTypeId, out: &mut Vec<(Pos, Rotation)>) {
        let tt = catalog().get(t);
        if river::is_river_tile(tt) {
            // a river tile can only continue the open end
            if let Some(end) = self.river {
                for r in Rotation::ALL {
                    if self.board.fits(tt, end.cell, r)
                        && river::check(self.river, &self.board, tt, end.cell, r).is_ok()
                    {
                        out.push((end.cell, r));
                    }
                }
            }
            return;
        }
        for f in self.board.frontier() {
            for r in Rotation::ALL {
                if tt.signature[r.index()] & f.mask == f.required {
                    out.push((f.pos, r));
                }
            }
        }
    }

    fn has_placement(&self, t: TileTypeId) -> bool {
        let tt = catalog().get(t);
        if river::is_river_tile(tt) {
            let mut v = Vec::new();
            self.tile_placements(t, &mut v);
            return !v.is_empty();
        }
        self.board.frontier().iter().any(|f| {
            Rotation::ALL
                .iter()
                .any(|r| tt.signature[r.index()] & f.mask == f.required)
        })
    }

    /// Legal placements of the drawn tile, each with the spots where the current player
    /// may put a figure and which figures.
    pub fn placements(&self) -> Vec<Placement> {
        let mut pr = Vec::with_capacity(64);
        self.placements_into(&mut pr);
        let Some(t) = self.drawn else {
            return Vec::new();
        };
        let tt = catalog().get(t);
        let me = &self.players[self.current as usize];
        // builders and pigs depend on the joined feature's contents: try the placement
        let needs_trial = FigureKind::ALL
            .iter()
            .any(|k| !k.is_follower() && me.supply[*k as usize] > 0);
        pr.into_iter()
            .map(|(pos, rotation)| {
                let mut spots = Vec::with_capacity(tt.features.len());
                let trial = needs_trial.then(|| {
                    let mut b = self.board.clone();
                    let ti = b.place(t, pos, rotation);
                    (b, ti)
                });
                for i in 0..tt.features.len() {
                    let figs: Vec<FigureKind> = match &trial {
                        Some((b, ti)) => {
                            let seg = b.seg(*ti, i);
                            FigureKind::ALL
                                .into_iter()
                                .filter(|k| self.figure_check(b, seg, *k).is_ok())
                                .collect()
                        }
                        None => {
                            let occupied = self.board.occupied_after(tt, pos, rotation, i);
                            let kind = tt.features[i].kind;
                            FigureKind::ALL
                                .into_iter()
                                .filter(|k| {
                                    !occupied
                                        && me.supply[*k as usize] > 0
                                        && expansions::figure_allowed(self.expansions, *k, kind)
                                })
                                .collect()
                        }
                    };
                    if !figs.is_empty() {
                        spots.push(SpotOption {
                            spot: tt.canonical_spot(rotation, i),
                            feature: i as u8,
                            figures: figs,
                        });
                    }
                }
                if let Some((b, ti)) = &trial {
                    for c in 0..4u8 {
                        if barn_check_on(self, b, *ti, c).is_ok() {
                            let feature =
                                tt.feature_at(rotation, Spot::Corner(c)).unwrap_or_default() as u8;
                            spots.push(SpotOption {
                                spot: Spot::Corner(c),
                                feature,
                                figures: vec![FigureKind::Barn],
                            });
                        }
                    }
                }
                Placement {
                    pos,
                    rotation,
                    spots,
                }
            })
            .collect()
    }

    /// May the current player put a figure of kind `k` on segment `seg` of `board` (with
    /// the tile just placed)?
    fn figure_check(&self, board: &Board, seg: u16, k: FigureKind) -> Result<(), PlayError> {
        let me = self.current;
        let kind = board.seg_kind(seg);
        let refuse = || PlayError::FigureNotAllowed {
            figure: k.id(),
            feature: kind.name(),
        };
        if matches!(k, FigureKind::Builder | FigureKind::Pig)
            && !self.expansions.contains(Expansion::TradersBuilders)
        {
            return Err(refuse());
        }
        match k {
            FigureKind::Builder => {
                if !matches!(kind, FeatureKind::Road | FeatureKind::City) {
                    return Err(refuse());
                }
                if board.open_sides(seg) == 0 {
                    return Err(PlayError::FigureNotAllowed {
                        figure: k.id(),
                        feature: "completed feature",
                    });
                }
                if !has_own_follower(board, seg, me) {
                    return Err(PlayError::NeedsOwnFollower(k.id()));
                }
            }
            FigureKind::Pig => {
                if kind != FeatureKind::Field {
                    return Err(refuse());
                }
                if !has_own_follower(board, seg, me) {
                    return Err(PlayError::NeedsOwnFollower(k.id()));
                }
            }
            _ => {
                if !k.is_follower() || !expansions::figure_allowed(self.expansions, k, kind) {
                    return Err(refuse());
                }
                if board.figures_in(seg) > 0 {
                    return Err(PlayError::FeatureOccupied(kind.name()));
                }
            }
        }
        if self.players[me as usize].supply[k as usize] == 0 {
            return Err(PlayError::NoFigureLeft(k.id()));
        }
        Ok(())
    }

    /// The player's abbot on an incomplete monastery or garden, if any (index into the
    /// board's figures).
    fn returnable_abbot(&self, player: u8) -> Option<usize> {
        self.board.figures.iter().position(|f| {
            f.owner == player && f.kind == FigureKind::Abbot && !self.board.is_complete(f.seg)
        })
    }

    /// Every option of the pending decision, as complete actions.
    pub fn legal_actions(&self) -> Vec<Action> {
        match self.phase {
            Phase::GameOver => Vec::new(),
            Phase::PlaceTile => {
                let mut pr = Vec::with_capacity(64);
                self.placements_into(&mut pr);
                pr.into_iter()
                    .map(|(p, r)| Action::PlaceTile {
                        x: p.x,
                        y: p.y,
                        rotation: r,
                    })
                    .collect()
            }
            Phase::PlaceFigure => {
                let mut v = Vec::new();
                if let Some(ti) = self.placed {
                    let pt = self.board.tiles()[ti];
                    let tt = pt.tile_type();
                    for i in 0..tt.features.len() {
                        let seg = self.board.seg(ti, i);
                        for k in FigureKind::ALL {
                            if self.figure_check(&self.board, seg, k).is_ok() {
                                v.push(Action::PlaceFigure {
                                    figure: k,
                                    spot: tt.spot_name(tt.canonical_spot(pt.rotation, i)),
                                });
                            }
                        }
                    }
                }
                if let Some(ti) = self.placed {
                    for c in 0..4u8 {
                        if self.barn_check(ti, c).is_ok() {
                            v.push(Action::PlaceFigure {
                                figure: FigureKind::Barn,
                                spot: crate::geometry::CORNERS[c as usize].to_string(),
                            });
                        }
                    }
                }
                if self.returnable_abbot(self.current).is_some() {
                    v.push(Action::ReturnAbbot);
                }
                for figure in self.flyable() {
                    v.push(Action::Fly { figure });
                }
                v.push(Action::Pass);
                v
            }
            Phase::PlaceIngot => self
                .ingot_targets()
                .into_iter()
                .map(|p| Action::PlaceIngot { x: p.x, y: p.y })
                .collect(),
            Phase::MoveMagic => {
                let mut v: Vec<Action> = self
                    .magic_moves()
                    .into_iter()
                    .map(|(figure, p, spot, _)| Action::MoveMagic {
                        figure,
                        x: p.x,
                        y: p.y,
                        spot,
                    })
                    .collect();
                v.extend(
                    self.magic_removals()
                        .into_iter()
                        .map(|figure| Action::RemoveMagic { figure }),
                );
                v
            }
            Phase::FlierLanding => self
                .landings()
                .into_iter()
                .map(|(spot, _)| Action::Land { spot })
                .collect(),
            Phase::PlaceFerry | Phase::MoveFerry => {
                let moved = self.phase == Phase::MoveFerry;
                let mut v: Vec<Action> = self
                    .ferry_choices()
                    .into_iter()
                    .map(|(p, a, b)| {
                        let (from, to) = (a.name().to_string(), b.name().to_string());
                        if moved {
                            Action::MoveFerry {
                                x: p.x,
                                y: p.y,
                                from,
                                to,
                            }
                        } else {
                            Action::PlaceFerry {
                                x: p.x,
                                y: p.y,
                                from,
                                to,
                            }
                        }
                    })
                    .collect();
                if moved {
                    v.push(Action::Pass);
                }
                v
            }
            Phase::PlaceRobber => {
                let mut v: Vec<Action> = self
                    .robber_spaces(self.robber_decider())
                    .into_iter()
                    .map(|space| Action::PlaceRobber { space })
                    .collect();
                v.push(Action::Pass);
                v
            }
            Phase::ScoringOrder => self
                .scoring_order
                .iter()
                .map(|c| Action::ScoreNext {
                    x: c.pos.x,
                    y: c.pos.y,
                    spot: c.spot.clone(),
                })
                .collect(),
            Phase::ChooseVictim => self
                .victim_choice(self.victim_figure.unwrap_or(0))
                .map_or_else(Vec::new, |(_, victims)| {
                    (0..8u8)
                        .filter(|v| victims & (1 << v) != 0)
                        .map(|victim| Action::ChooseVictim { victim })
                        .collect()
                }),
            Phase::ChooseScoreFigure => vec![
                Action::ChooseScoreFigure {
                    figure: ScoreFigure::Meeple,
                },
                Action::ChooseScoreFigure {
                    figure: ScoreFigure::Messenger,
                },
            ],
            Phase::ResolveMessage => {
                let mut v: Vec<Action> = Vec::new();
                for o in self.message_options() {
                    v.push(match o {
                        MessageChoice::Feature { pos, spot, .. } => Action::MessageFeature {
                            x: pos.x,
                            y: pos.y,
                            spot,
                        },
                        MessageChoice::Follower { figure, pos, spot } => Action::MessageFollower {
                            figure,
                            x: pos.x,
                            y: pos.y,
                            spot,
                        },
                        MessageChoice::ExtraTile | MessageChoice::Points(_) => {
                            Action::MessageAction
                        }
                    });
                }
                v.push(Action::MessageTwoPoints);
                v
            }
            Phase::CropMode => vec![
                Action::ChooseCropMode {
                    mode: CropMode::Add,
                },
                Action::ChooseCropMode {
                    mode: CropMode::Remove,
                },
            ],
            Phase::CropAction => {
                let p = self.decider();
                let add = self.crop.as_ref().and_then(|c| c.mode) == Some(CropMode::Add);
                let mut v: Vec<Action> = self
                    .crop_options(p)
                    .into_iter()
                    .map(|(figure, seg)| {
                        let ti = self.board.seg_tile(seg);
                        let pos = self.board.tiles()[ti].pos;
                        let spot = self.spot_name_of(seg);
                        if add {
                            Action::AddFollower {
                                figure,
                                x: pos.x,
                                y: pos.y,
                                spot,
                            }
                        } else {
                            Action::RemoveFollower {
                                figure,
                                x: pos.x,
                                y: pos.y,
                                spot,
                            }
                        }
                    })
                    .collect();
                if add {
                    v.push(Action::Pass);
                }
                v
            }
            Phase::AbbeyOrDraw | Phase::FinalAbbey => {
                let mut v: Vec<Action> = self
                    .holes()
                    .into_iter()
                    .map(|p| Action::PlaceAbbey { x: p.x, y: p.y })
                    .collect();
                v.push(if self.phase == Phase::AbbeyOrDraw {
                    Action::DrawTile
                } else {
                    Action::Pass
                });
                v
            }
            Phase::MoveWagon => {
                let mut v: Vec<Action> = self
                    .wagon_targets()
                    .into_iter()
                    .map(|(p, spot, _)| Action::MoveWagon {
                        x: p.x,
                        y: p.y,
                        spot,
                    })
                    .collect();
                v.push(Action::Pass);
                v
            }
        }
    }

    // ----- playing -----------------------------------------------------------------

    /// Checks `action` by `player` against the pending decision and applies it. Returns the
    /// event to store and its consequences, or an error with the game untouched.
    pub fn play(&mut self, player: u8, action: &Action) -> Result<Outcome, PlayError> {
        let mut fx = Vec::new();
        let event = self.play_into(player, action, &mut fx)?;
        Ok(Outcome { event, effects: fx })
    }

    /// [`Game::play`] with a caller-chosen effect sink.
    pub fn play_into(
        &mut self,
        player: u8,
        action: &Action,
        sink: &mut impl EffectSink,
    ) -> Result<Event, PlayError> {
        let step = match action {
            Action::PlaceTile { x, y, rotation } => Step::Tile(Pos::new(*x, *y), *rotation),
            Action::PlaceFigure { figure, spot } => Step::Figure(*figure, spot),
            Action::ReturnAbbot => Step::ReturnAbbot,
            Action::PlaceAbbey { x, y } => Step::Abbey(Pos::new(*x, *y)),
            Action::DrawTile => Step::Draw,
            Action::MoveWagon { x, y, spot } => Step::Wagon(Pos::new(*x, *y), spot),
            Action::PlaceIngot { x, y } => Step::Ingot(Pos::new(*x, *y)),
            Action::MoveMagic { figure, x, y, spot } => {
                Step::Magic(*figure, Pos::new(*x, *y), spot)
            }
            Action::RemoveMagic { figure } => Step::RemoveMagic(*figure),
            Action::Fly { figure } => Step::Fly(*figure),
            Action::Land { spot } => Step::Land(spot),
            Action::ChooseCropMode { mode } => Step::CropMode(*mode),
            Action::AddFollower { figure, x, y, spot } => {
                Step::Crop(true, *figure, Pos::new(*x, *y), spot)
            }
            Action::RemoveFollower { figure, x, y, spot } => {
                Step::Crop(false, *figure, Pos::new(*x, *y), spot)
            }
            Action::PlaceFerry { x, y, from, to } => Step::Ferry(false, Pos::new(*x, *y), from, to),
            Action::MoveFerry { x, y, from, to } => Step::Ferry(true, Pos::new(*x, *y), from, to),
            Action::PlaceRobber { space } => Step::Robber(*space),
            Action::ScoreNext { x, y, spot } => Step::ScoreNext(Pos::new(*x, *y), spot),
            Action::ChooseScoreFigure { figure } => Step::ScoreFigure(*figure),
            Action::ChooseVictim { victim } => Step::Victim(*victim),
            Action::MessageFeature { x, y, spot } => {
                Step::Message(Some((None, Pos::new(*x, *y), spot)))
            }
            Action::MessageFollower { figure, x, y, spot } => {
                Step::Message(Some((Some(*figure), Pos::new(*x, *y), spot)))
            }
            Action::MessageAction => Step::MessagePlain,
            Action::MessageTwoPoints => Step::Message(None),
            Action::Pass => Step::Pass,
        };
        Ok(match self.step(player, step, sink)? {
            Done::Tile(t, pos, rotation) => Event::TilePlaced {
                player,
                tile: catalog().get(t).id.clone(),
                x: pos.x,
                y: pos.y,
                rotation,
            },
            Done::Figure(figure, seg) => Event::FigurePlaced {
                player,
                figure,
                spot: self.spot_name_of(seg),
            },
            Done::Pass => Event::FigureSkipped { player },
            Done::AbbotReturned => Event::AbbotReturned { player },
            Done::AbbeyPlaced(p) => Event::AbbeyPlaced {
                player,
                x: p.x,
                y: p.y,
            },
            Done::Drew => Event::DrawChosen { player },
            Done::AbbeySkipped => Event::AbbeySkipped { player },
            Done::WagonMoved(p, seg) => Event::WagonMoved {
                player,
                x: p.x,
                y: p.y,
                spot: self.spot_name_of(seg),
            },
            Done::WagonReturned => Event::WagonReturned { player },
            Done::Ingot(p) => Event::IngotPlaced {
                player,
                x: p.x,
                y: p.y,
            },
            Done::Magic(figure, p, seg) => Event::MagicMoved {
                player,
                figure,
                x: p.x,
                y: p.y,
                spot: self.spot_name_of(seg),
            },
            Done::MagicRemoved(figure) => Event::MagicRemoved { player, figure },
            Done::Flew(figure) => Event::Flew { player, figure },
            Done::Landed(seg) => Event::Landed {
                player,
                spot: self.spot_name_of(seg),
            },
            Done::CropMode(mode) => Event::CropModeChosen { player, mode },
            Done::Crop(add, figure, p, seg) => {
                let spot = self.spot_name_of(seg);
                if add {
                    Event::FollowerAdded {
                        player,
                        figure,
                        x: p.x,
                        y: p.y,
                        spot,
                    }
                } else {
                    Event::FollowerRemoved {
                        player,
                        figure,
                        x: p.x,
                        y: p.y,
                        spot,
                    }
                }
            }
            Done::CropSkipped => Event::CropSkipped { player },
            Done::Ferry(moved, p, from, to) => {
                let (from, to) = (from.name().to_string(), to.name().to_string());
                if moved {
                    Event::FerryMoved {
                        player,
                        x: p.x,
                        y: p.y,
                        from,
                        to,
                    }
                } else {
                    Event::FerryPlaced {
                        player,
                        x: p.x,
                        y: p.y,
                        from,
                        to,
                    }
                }
            }
            Done::NoMoreFerries => Event::FerriesDone { player },
            Done::Robber(space) => Event::RobberPlaced { player, space },
            Done::RobberSkipped => Event::RobberSkipped { player },
            Done::ScoreNext(p, spot) => Event::ScoringOrdered {
                player,
                x: p.x,
                y: p.y,
                spot,
            },
            Done::ScoreFigure(figure) => Event::ScoreFigureChosen { player, figure },
            Done::Victim(victim) => Event::VictimChosen { player, victim },
            Done::MessageFeature(p, spot) => Event::MessageFeatureChosen {
                player,
                x: p.x,
                y: p.y,
                spot,
            },
            Done::MessageFollower(figure, p, spot) => Event::MessageFollowerChosen {
                player,
                figure,
                x: p.x,
                y: p.y,
                spot,
            },
            Done::MessageAction => Event::MessageActionTaken { player },
            Done::MessageTwoPoints => Event::MessagePointsTaken { player },
            Done::Barn(c) => Event::FigurePlaced {
                player,
                figure: FigureKind::Barn,
                spot: crate::geometry::CORNERS[c as usize].to_string(),
            },
        })
    }

    /// The one gate: checks a step against the pending decision and applies it.
    fn step(
        &mut self,
        player: u8,
        step: Step<'_>,
        sink: &mut impl EffectSink,
    ) -> Result<Done, PlayError> {
        if self.phase == Phase::GameOver {
            return Err(PlayError::GameOver);
        }
        if player != self.decider() {
            return Err(PlayError::NotYourTurn {
                player,
                expected: self.decider(),
            });
        }
        let done = match (self.phase, step) {
            (Phase::PlaceTile, Step::Tile(pos, rotation)) => {
                let t = self.check_tile(pos, rotation)?;
                self.apply_tile(t, pos, rotation);
                self.after_tile(sink);
                Done::Tile(t, pos, rotation)
            }
            (Phase::AbbeyOrDraw | Phase::FinalAbbey, Step::Abbey(pos)) => {
                if !self.players[player as usize].abbey {
                    return Err(PlayError::NoFigureLeft("abbey"));
                }
                let hole = !self.board.is_occupied(pos)
                    && crate::geometry::Dir::ALL
                        .iter()
                        .all(|d| self.board.is_occupied(pos.step(*d)));
                if !hole {
                    return Err(PlayError::NotAHole { x: pos.x, y: pos.y });
                }
                let abbey = catalog()
                    .iter()
                    .find(|(_, t)| t.not_in_draw_pile && t.edges[0] == EdgeKind::Abbey)
                    .map(|(i, _)| i)
                    .ok_or(PlayError::NoFigureLeft("abbey"))?;
                self.players[player as usize].abbey = false;
                let idx = self.board.place(abbey, pos, Rotation::R0);
                self.placed = Some(idx);
                self.part_tile = Some(idx);
                self.magic_symbol_pending = false;
                self.drawn = None;
                self.builder_trigger = false;
                self.phase = Phase::PlaceFigure;
                Done::AbbeyPlaced(pos)
            }
            (Phase::AbbeyOrDraw, Step::Draw) => {
                self.draw_tile(sink);
                Done::Drew
            }
            (Phase::FinalAbbey, Step::Pass) => {
                self.next_final(sink);
                Done::AbbeySkipped
            }
            (Phase::MoveWagon, Step::Wagon(pos, spot)) => {
                let seg = self
                    .board
                    .tile_index_at(pos)
                    .and_then(|j| {
                        let pt = self.board.tiles()[j];
                        let tt = pt.tile_type();
                        let s = tt.parse_spot(spot)?;
                        if matches!(s, Spot::Corner(_)) {
                            return None;
                        }
                        tt.feature_at(pt.rotation, s).map(|i| self.board.seg(j, i))
                    })
                    .ok_or_else(|| PlayError::UnknownSpot(spot.to_string()))?;
                if !self.wagon_target_ok(seg) {
                    return Err(PlayError::WagonOutOfReach);
                }
                self.board.add_figure(player, FigureKind::Wagon, seg);
                self.wagons.remove(0);
                self.continue_wagons(sink);
                Done::WagonMoved(pos, seg)
            }
            (Phase::MoveWagon, Step::Pass) => {
                self.players[player as usize].supply[FigureKind::Wagon as usize] += 1;
                self.wagons.remove(0);
                self.continue_wagons(sink);
                Done::WagonReturned
            }
            (Phase::PlaceIngot, Step::Ingot(pos)) => {
                self.place_ingot(pos, sink)?;
                Done::Ingot(pos)
            }
            (Phase::MoveMagic, Step::Magic(f, pos, spot)) => {
                let seg = self.move_magic(f, pos, spot, sink)?;
                self.resume_after_magic(sink);
                Done::Magic(f, pos, seg)
            }
            (Phase::MoveMagic, Step::RemoveMagic(f)) => {
                self.remove_magic(f, sink)?;
                self.resume_after_magic(sink);
                Done::MagicRemoved(f)
            }
            (Phase::PlaceFigure, Step::Fly(k)) => {
                if self.fly(k, sink)? {
                    self.phase = Phase::FlierLanding;
                } else {
                    // nowhere to land: the follower stays home and no figure is placed
                    self.after_figure(sink);
                }
                Done::Flew(k)
            }
            (Phase::FlierLanding, Step::Land(spot)) => {
                let (_, seg) = self.land(spot)?;
                self.after_figure(sink);
                Done::Landed(seg)
            }
            (Phase::CropMode, Step::CropMode(mode)) => {
                self.choose_crop_mode(mode, sink);
                Done::CropMode(mode)
            }
            (Phase::CropAction, Step::Crop(add, k, pos, spot)) => {
                let seg = self
                    .board
                    .tile_index_at(pos)
                    .and_then(|j| {
                        let pt = self.board.tiles()[j];
                        let tt = pt.tile_type();
                        let s = tt.parse_spot(spot)?;
                        if matches!(s, Spot::Corner(_)) {
                            return None;
                        }
                        tt.feature_at(pt.rotation, s).map(|i| self.board.seg(j, i))
                    })
                    .ok_or_else(|| PlayError::UnknownSpot(spot.to_string()))?;
                self.crop_act(player, k, seg, add, sink)?;
                Done::Crop(add, k, pos, seg)
            }
            (Phase::PlaceFerry, Step::Ferry(false, pos, from, to))
            | (Phase::MoveFerry, Step::Ferry(true, pos, from, to)) => {
                let parse = |s: &str| {
                    s.parse::<crate::geometry::Dir>()
                        .map_err(|_| PlayError::UnknownSpot(s.to_string()))
                };
                let (f, t) = (parse(from)?, parse(to)?);
                let moved = self.phase == Phase::MoveFerry;
                if moved {
                    self.move_ferry(pos, f, t, sink)?;
                } else {
                    self.place_ferry(pos, f, t, sink)?;
                }
                Done::Ferry(moved, pos, f, t)
            }
            (Phase::PlaceRobber, Step::Robber(space)) => {
                if self.place_robber(player, Some(space))? {
                    self.after_robbers(sink);
                }
                Done::Robber(space)
            }
            (Phase::PlaceRobber, Step::Pass) => {
                if self.place_robber(player, None)? {
                    self.after_robbers(sink);
                }
                Done::RobberSkipped
            }
            (Phase::ScoringOrder, Step::ScoreNext(pos, spot)) => {
                let seg = self
                    .seg_at(pos, spot)
                    .ok_or_else(|| PlayError::UnknownSpot(spot.to_string()))?;
                let root = self.board.find(seg);
                let k = self
                    .scoring_order
                    .iter()
                    .position(|c| {
                        self.seg_at(c.pos, &c.spot)
                            .is_some_and(|s| self.board.find(s) == root || s == seg)
                    })
                    .ok_or(PlayError::NotInScoringOrder)?;
                let c = self.scoring_order.remove(k);
                self.scoring_chosen.push(c.batch);
                if self.scoring_order.len() <= 1 {
                    if let Some(last) = self.scoring_order.pop() {
                        self.scoring_chosen.push(last.batch);
                    }
                    self.order_awards();
                    self.drain_awards(sink);
                }
                Done::ScoreNext(c.pos, c.spot)
            }
            (Phase::ChooseScoreFigure, Step::ScoreFigure(f)) => {
                self.choose_score_figure(f as u8, sink);
                Done::ScoreFigure(f)
            }
            (Phase::ChooseVictim, Step::Victim(v)) => {
                self.choose_victim(v, sink)?;
                Done::Victim(v)
            }
            (Phase::ResolveMessage, Step::Message(choice)) => {
                let options = self.message_options();
                let picked = match choice {
                    None => None,
                    Some((figure, pos, spot)) => {
                        let seg = self
                            .seg_at(pos, spot)
                            .ok_or_else(|| PlayError::UnknownSpot(spot.to_string()))?;
                        Some(
                            options
                                .iter()
                                .find(|o| match (o, figure) {
                                    (
                                        MessageChoice::Feature {
                                            pos: p, spot: s, ..
                                        },
                                        None,
                                    ) => self.seg_at(*p, s).is_some_and(|x| {
                                        self.board.find(x) == self.board.find(seg)
                                    }),
                                    (
                                        MessageChoice::Follower {
                                            figure: k,
                                            pos: p,
                                            spot: s,
                                        },
                                        Some(f),
                                    ) => *k == f && self.seg_at(*p, s) == Some(seg),
                                    _ => false,
                                })
                                .cloned()
                                .ok_or(PlayError::MessageNotAllowed)?,
                        )
                    }
                };
                self.resolve_message(picked.as_ref(), sink)?;
                match picked {
                    None => Done::MessageTwoPoints,
                    Some(MessageChoice::Feature { pos, spot, .. }) => {
                        Done::MessageFeature(pos, spot)
                    }
                    Some(MessageChoice::Follower { figure, pos, spot }) => {
                        Done::MessageFollower(figure, pos, spot)
                    }
                    Some(_) => Done::MessageAction,
                }
            }
            (Phase::ResolveMessage, Step::MessagePlain) => {
                let plain = self
                    .message_options()
                    .into_iter()
                    .find(|o| matches!(o, MessageChoice::ExtraTile | MessageChoice::Points(_)))
                    .ok_or(PlayError::MessageNotAllowed)?;
                self.resolve_message(Some(&plain), sink)?;
                Done::MessageAction
            }
            (Phase::MoveFerry, Step::Pass) => {
                self.finish_turn(sink);
                Done::NoMoreFerries
            }
            (Phase::CropAction, Step::Pass) => {
                self.crop_pass(sink)?;
                Done::CropSkipped
            }
            (Phase::PlaceFigure, Step::Figure(FigureKind::Barn, spot)) => {
                let ti = self.placed.ok_or(PlayError::GameOver)?;
                let c = match Spot::parse_compass(spot) {
                    Some(Spot::Corner(c)) => c,
                    _ => return Err(PlayError::UnknownSpot(spot.to_string())),
                };
                let seg = self.barn_check(ti, c)?;
                self.board.add_figure_at(player, FigureKind::Barn, seg, c);
                self.players[player as usize].supply[FigureKind::Barn as usize] -= 1;
                self.barn_placed = Some(seg);
                self.after_figure(sink);
                Done::Barn(c)
            }
            (Phase::PlaceFigure, Step::Figure(figure, spot)) => {
                let seg = self.check_figure(figure, spot)?;
                self.board.add_figure(player, figure, seg);
                self.players[player as usize].supply[figure as usize] -= 1;
                self.after_figure(sink);
                Done::Figure(figure, seg)
            }
            (Phase::PlaceFigure, Step::Pass) => {
                self.after_figure(sink);
                Done::Pass
            }
            (Phase::PlaceFigure, Step::ReturnAbbot) => {
                let i = self
                    .returnable_abbot(player)
                    .ok_or(PlayError::NoAbbotToReturn)?;
                let f = self.board.figures[i];
                let p = self.board.tiles()[self.board.seg_tile(f.seg)].pos;
                let kind = self.board.seg_kind(f.seg);
                let value =
                    expansions::final_value(kind, 1 + self.board.surrounding_tiles(p), 0, 0, 0);
                self.message_round_earned = false;
                self.award_stage = AwardStage::Abbot;
                let _ = self.award(f.seg, kind, value, 0, false, 3000, sink);
                self.return_figures(f.seg, sink);
                self.drain_awards(sink);
                Done::AbbotReturned
            }
            (phase, s) => {
                return Err(PlayError::WrongPhase {
                    got: s.name(),
                    expected: phase.name(),
                })
            }
        };
        self.version += 1;
        Ok(done)
    }

    /// May the active player put their barn on corner `c` of placed tile `ti`? Returns
    /// the field segment it would stand in.
    fn barn_check(&self, ti: usize, c: u8) -> Result<u16, PlayError> {
        barn_check_on(self, &self.board, ti, c)
    }

    pub(crate) fn spot_name_of(&self, seg: u16) -> String {
        let ti = self.board.seg_tile(seg);
        let pt = self.board.tiles()[ti];
        let tt = pt.tile_type();
        tt.spot_name(tt.canonical_spot(pt.rotation, self.board.seg_feature(seg)))
    }

    fn check_tile(&self, pos: Pos, r: Rotation) -> Result<TileTypeId, PlayError> {
        let t = self.drawn.ok_or(PlayError::GameOver)?;
        if self.board.is_occupied(pos) {
            return Err(PlayError::CellTaken { x: pos.x, y: pos.y });
        }
        let tt = catalog().get(t);
        let adjacent = crate::geometry::Dir::ALL
            .iter()
            .any(|d| self.board.is_occupied(pos.step(*d)));
        if !adjacent {
            return Err(PlayError::NotAdjacent { x: pos.x, y: pos.y });
        }
        if self.board.fits(tt, pos, r) && river::is_river_tile(tt) {
            if let Err(reason) = river::check(self.river, &self.board, tt, pos, r) {
                return Err(PlayError::TileDoesNotFit {
                    x: pos.x,
                    y: pos.y,
                    rotation: r.degrees(),
                    reason: reason.to_string(),
                });
            }
        }
        if !self.board.fits(tt, pos, r) {
            let mut reason = String::new();
            for d in crate::geometry::Dir::ALL {
                if let Some(o) = self.board.tile_at(pos.step(d)) {
                    let theirs = o.tile_type().edge_at(o.rotation, d.opposite());
                    let mine = tt.edge_at(r, d);
                    if mine != theirs
                        && mine != crate::catalog::EdgeKind::Abbey
                        && theirs != crate::catalog::EdgeKind::Abbey
                    {
                        reason = format!(
                            "its {} side is {} but the neighbour's side is {}",
                            d.name(),
                            mine.name(),
                            theirs.name()
                        );
                        break;
                    }
                }
            }
            return Err(PlayError::TileDoesNotFit {
                x: pos.x,
                y: pos.y,
                rotation: r.degrees(),
                reason,
            });
        }
        Ok(t)
    }

    fn apply_tile(&mut self, t: TileTypeId, pos: Pos, r: Rotation) {
        let tt = catalog().get(t);
        if river::is_river_tile(tt) {
            self.river = river::check(self.river, &self.board, tt, pos, r).unwrap_or(None);
        }
        let idx = self.board.place(t, pos, r);
        self.placed = Some(idx);
        self.part_tile = Some(idx);
        self.phase = Phase::PlaceFigure;
        // hook *tile placed*: Traders & Builders' builder trigger
        self.builder_trigger = false;
        if !self.extra_part_used {
            let me = self.current;
            // the roots of the features holding the active player's builders (one each)
            let mut builders = [0u16; 4];
            let mut nb = 0;
            for f in &self.board.figures {
                if f.owner == me && f.kind == FigureKind::Builder && nb < builders.len() {
                    builders[nb] = self.board.find(f.seg);
                    nb += 1;
                }
            }
            if nb > 0 {
                for i in 0..tt.features.len() {
                    if !matches!(tt.features[i].kind, FeatureKind::Road | FeatureKind::City) {
                        continue;
                    }
                    let root = self.board.find(self.board.seg(idx, i));
                    if builders[..nb].contains(&root) {
                        self.builder_trigger = true;
                    }
                }
            }
        }
    }

    fn check_figure(&self, figure: FigureKind, spot: &str) -> Result<u16, PlayError> {
        let ti = self.placed.ok_or(PlayError::GameOver)?;
        let pt = self.board.tiles()[ti];
        let tt = pt.tile_type();
        let s = tt
            .parse_spot(spot)
            .filter(|s| !matches!(s, Spot::Corner(_)))
            .ok_or_else(|| PlayError::UnknownSpot(spot.to_string()))?;
        let fi = tt
            .feature_at(pt.rotation, s)
            .ok_or_else(|| PlayError::UnknownSpot(spot.to_string()))?;
        let seg = self.board.seg(ti, fi);
        self.figure_check(&self.board, seg, figure)?;
        Ok(seg)
    }

    /// Scoring after the figure phase, then the next turn (or the end).
    pub(crate) fn finish_turn(&mut self, sink: &mut impl EffectSink) {
        // the scoring step is one scoring round (Messages)
        self.message_round_earned = false;
        self.award_stage = AwardStage::Scoring;
        if let Some(ti) = self.placed.take() {
            self.score_completed(ti, sink);
        }
        self.barn_placed = None;
        if self.scoring_order.len() >= 2 {
            if self.players[self.current as usize].active {
                self.phase = Phase::ScoringOrder;
                return;
            }
            // the active player left during the turn
            self.listed_scoring_order();
        }
        self.scoring_order.clear();
        self.drain_awards(sink);
    }

    /// Nobody is left to choose the scoring order: the features not chosen yet score in
    /// the listed order.
    fn listed_scoring_order(&mut self) {
        let rest: Vec<u16> = self.scoring_order.drain(..).map(|c| c.batch).collect();
        self.scoring_chosen.extend(rest);
        self.order_awards();
    }

    /// Puts the queued feature awards in the chosen order (other awards stay after them).
    fn order_awards(&mut self) {
        let chosen = std::mem::take(&mut self.scoring_chosen);
        let key = |a: &Award| {
            chosen
                .iter()
                .position(|b| *b == a.batch)
                .unwrap_or(chosen.len() + a.batch as usize)
        };
        self.awards.sort_by_key(key);
    }

    /// Freed wagons move one by one (a wagon with nowhere to go returns at once); then the
    /// turn part ends.
    pub(crate) fn continue_wagons(&mut self, sink: &mut impl EffectSink) {
        while let Some(&(owner, from)) = self.wagons.first() {
            if self.has_wagon_target() {
                self.phase = Phase::MoveWagon;
                return;
            }
            self.wagons.remove(0);
            self.players[owner as usize].supply[FigureKind::Wagon as usize] += 1;
            if sink.enabled() {
                sink.push(Effect::FigureReturned {
                    player: owner,
                    figure: FigureKind::Wagon,
                    x: from.x,
                    y: from.y,
                    spot: String::new(),
                });
            }
        }
        self.continue_messages(sink);
    }

    /// After a turn part: the final abbey round, the builder's second part, or the next
    /// player.
    pub(crate) fn end_turn_part(&mut self, sink: &mut impl EffectSink) {
        if let Some(ti) = self.part_tile.take() {
            if self.start_crop_circle(ti, sink) {
                return;
            }
        }
        if self.in_final {
            self.next_final(sink);
            return;
        }
        if self.tiles_left() == 0 {
            self.begin_final(sink);
            return;
        }
        if self.extra_tiles > 0 && self.players[self.current as usize].active {
            // Messages: an extra tile for the same player
            self.extra_tiles -= 1;
        } else if self.builder_trigger
            && !self.extra_part_used
            && self.players[self.current as usize].active
        {
            // Traders & Builders: a second turn part for the same player
            self.builder_trigger = false;
            self.extra_part_used = true;
        } else {
            self.builder_trigger = false;
            self.extra_part_used = false;
            self.extra_tiles = 0;
            self.advance_player();
        }
        self.start_turn(sink);
    }

    /// Abbey & Mayor: after the last tile, each player holding an abbey may place it,
    /// starting left of the last active player and ending with them.
    fn begin_final(&mut self, sink: &mut impl EffectSink) {
        self.drawn = None;
        self.placed = None;
        if !self.expansions.contains(Expansion::AbbeyMayor) {
            self.end_game(sink);
            return;
        }
        let n = self.players.len() as u8;
        self.final_queue = (1..=n).map(|k| (self.current + k) % n).collect();
        self.in_final = true;
        self.builder_trigger = false;
        self.next_final(sink);
    }

    fn next_final(&mut self, sink: &mut impl EffectSink) {
        self.placed = None;
        while !self.final_queue.is_empty() {
            let p = self.final_queue.remove(0);
            let pl = &self.players[p as usize];
            if pl.active && pl.abbey && self.has_hole() {
                self.current = p;
                self.phase = Phase::FinalAbbey;
                return;
            }
        }
        self.in_final = false;
        self.end_game(sink);
    }

    /// The next active player clockwise.
    fn advance_player(&mut self) {
        let n = self.players.len() as u8;
        for k in 1..=n {
            let p = (self.current + k) % n;
            if self.players[p as usize].active {
                self.current = p;
                return;
            }
        }
    }

    /// A player leaves the game (resigns or times out), at any moment: their figures
    /// leave the board without scoring, they are ranked last, and the others play on.
    /// The game ends when one player is left.
    pub fn resign(&mut self, player: u8, timed_out: bool) -> Result<Outcome, PlayError> {
        let mut fx = Vec::new();
        self.resign_into(player, &mut fx)?;
        Ok(Outcome {
            event: Event::PlayerResigned {
                player,
                reason: if timed_out { "timed_out" } else { "resigned" }.to_string(),
            },
            effects: fx,
        })
    }

    fn resign_into(&mut self, player: u8, sink: &mut impl EffectSink) -> Result<(), PlayError> {
        if self.phase == Phase::GameOver {
            return Err(PlayError::GameOver);
        }
        if !self.players.get(player as usize).is_some_and(|p| p.active) {
            return Err(PlayError::NotInGame(player));
        }
        self.players[player as usize].active = false;
        if sink.enabled() {
            sink.push(Effect::PlayerLeft { player });
        }
        let mut i = 0;
        while i < self.board.figures.len() {
            if self.board.figures[i].owner == player {
                let f = self.board.remove_figure(i);
                self.players[player as usize].supply[f.kind as usize] += 1;
            } else {
                i += 1;
            }
        }
        // freed wagons of the leaving player go home
        let was_deciding = self.phase == Phase::MoveWagon && self.decider() == player;
        let was_cropping = self.phase == Phase::CropAction && self.decider() == player;
        let was_choosing_figure =
            self.phase == Phase::ChooseScoreFigure && self.decider() == player;
        let was_placing_robber = self.phase == Phase::PlaceRobber && self.decider() == player;
        // whoever leaves, the robbers' choice is looked at again
        let was_choosing_victim = self.phase == Phase::ChooseVictim;
        if let Some(r) = self.robbers.get_mut(player as usize) {
            *r = None;
        }
        if let Some(c) = self.crop.as_mut() {
            c.queue.retain(|p| *p != player);
        }
        let before = self.wagons.len();
        self.wagons.retain(|w| w.0 != player);
        let dropped = (before - self.wagons.len()) as u8;
        self.players[player as usize].supply[FigureKind::Wagon as usize] += dropped;
        self.final_queue.retain(|p| *p != player);
        let left = self.players.iter().filter(|p| p.active).count();
        if left <= 1 {
            // the turn in progress ends with the game: what its tile completed scores first
            if let Some(ti) = self.placed.take() {
                self.score_completed(ti, sink);
            }
            for (owner, _) in std::mem::take(&mut self.wagons) {
                self.players[owner as usize].supply[FigureKind::Wagon as usize] += 1;
            }
            self.end_game(sink);
        } else if was_deciding {
            self.continue_wagons(sink);
        } else if was_cropping {
            self.continue_crop(sink);
        } else if was_choosing_figure {
            self.drain_awards(sink);
        } else if was_choosing_victim {
            self.continue_victim(sink);
        } else if was_placing_robber && player != self.current {
            if self.place_robber(player, None).unwrap_or(true) {
                self.after_robbers(sink);
            }
        } else if was_placing_robber {
            self.robber_second = None;
            self.builder_trigger = false;
            self.finish_turn(sink);
        } else if player == self.current {
            match self.phase {
                Phase::PlaceTile => {
                    // the drawn tile goes back on top of the pile for the next player
                    self.drawn = None;
                    self.next_draw -= 1;
                    self.builder_trigger = false;
                    self.extra_part_used = false;
                    self.advance_player();
                    self.start_turn(sink);
                }
                Phase::AbbeyOrDraw => {
                    self.builder_trigger = false;
                    self.extra_part_used = false;
                    self.advance_player();
                    self.start_turn(sink);
                }
                Phase::PlaceFigure => {
                    self.builder_trigger = false;
                    self.finish_turn(sink);
                }
                Phase::FinalAbbey => self.next_final(sink),
                Phase::PlaceIngot | Phase::MoveMagic | Phase::FlierLanding => {
                    self.magic_after_ferry = false;
                    self.flight = None;
                    self.magic_symbol_pending = false;
                    self.builder_trigger = false;
                    self.finish_turn(sink);
                }
                Phase::CropMode => {
                    self.crop = None;
                    self.end_turn_part(sink);
                }
                Phase::CropAction => {}
                Phase::ScoringOrder => {
                    self.listed_scoring_order();
                    self.drain_awards(sink);
                }
                Phase::ResolveMessage => {
                    if let Some(m) = self.message_drawn.take() {
                        self.message_stack.push(m);
                    }
                    self.continue_messages(sink);
                }
                Phase::ChooseScoreFigure | Phase::PlaceRobber | Phase::ChooseVictim => {}
                Phase::PlaceFerry | Phase::MoveFerry => {
                    self.builder_trigger = false;
                    self.magic_after_ferry = false;
                    self.finish_turn(sink);
                }
                // another player decides a wagon move; the turn ends after it
                Phase::MoveWagon | Phase::GameOver => {}
            }
        }
        self.version += 1;
        Ok(())
    }

    /// Draws the next placeable tile (discarding those that fit nowhere).
    fn start_turn(&mut self, sink: &mut impl EffectSink) {
        self.drawn = None;
        self.placed = None;
        if self.players[self.current as usize].abbey && self.has_hole() {
            self.phase = Phase::AbbeyOrDraw;
            return;
        }
        self.draw_tile(sink);
    }

    /// Draws the next placeable tile (discarding those that fit nowhere).
    fn draw_tile(&mut self, sink: &mut impl EffectSink) {
        self.drawn = None;
        while self.next_draw < self.pile.len() {
            let t = self.pile[self.next_draw];
            self.next_draw += 1;
            if self.has_placement(t) {
                self.drawn = Some(t);
                self.phase = Phase::PlaceTile;
                if sink.enabled() {
                    sink.push(Effect::TileDrawn {
                        player: self.current,
                        tile: catalog().get(t).id.clone(),
                    });
                }
                return;
            }
            if sink.enabled() {
                sink.push(Effect::TileDiscarded {
                    tile: catalog().get(t).id.clone(),
                });
            }
        }
        self.begin_final(sink);
    }

    /// Scores every completed feature that the tile at `ti` completed, hands out goods,
    /// then returns the figures standing in the scored features.
    fn score_completed(&mut self, ti: usize, sink: &mut impl EffectSink) {
        let pt = self.board.tiles()[ti];
        let tt = pt.tile_type();
        // candidates: (order key, smallest position, root)
        let mut cands: [(u8, Pos, u16); 24] = [(0, Pos::new(0, 0), 0); 24];
        let mut n = 0;
        let mut add = |key: u8, pos: Pos, root: u16, n: &mut usize| {
            if *n < cands.len() && !cands[..*n].iter().any(|c| c.2 == root) {
                cands[*n] = (key, pos, root);
                *n += 1;
            }
        };
        let mut completed_cities = [0u16; 8];
        let mut nc = 0;
        // roads and cities of the placed tile, and those of its neighbours that face it
        // (an abbey closes them without joining them)
        let mut segs = [0u16; 24];
        let mut ns = 0;
        for (i, f) in tt.features.iter().enumerate() {
            if matches!(f.kind, FeatureKind::Road | FeatureKind::City) && ns < segs.len() {
                segs[ns] = self.board.seg(ti, i);
                ns += 1;
            }
        }
        // Ferries: every road end of a lake whose ferry was placed or moved this part
        for k in 0..self.ferry_touched.len() {
            let lake = self.ferry_touched[k];
            for (_, seg) in self.jetties(lake) {
                if ns < segs.len() {
                    segs[ns] = seg;
                    ns += 1;
                }
            }
        }
        self.ferry_touched.clear();
        self.ferries_moved.clear();
        for d in crate::geometry::Dir::ALL {
            if let Some(j) = self.board.tile_index_at(pt.pos.step(d)) {
                let o = self.board.tiles()[j];
                let f = o.tile_type().edge_feature[o.rotation.index()][d.opposite().index()];
                if f != crate::catalog::NONE && ns < segs.len() {
                    let seg = self.board.seg(j, f as usize);
                    if matches!(
                        self.board.seg_kind(seg),
                        FeatureKind::Road | FeatureKind::City
                    ) {
                        segs[ns] = seg;
                        ns += 1;
                    }
                }
            }
        }
        for &seg in &segs[..ns] {
            let kind = self.board.seg_kind(seg);
            {
                if self.board.open_sides(seg) != 0 {
                    continue;
                }
                let root = self.board.find(seg);
                if kind == FeatureKind::City
                    && nc < completed_cities.len()
                    && !completed_cities[..nc].contains(&root)
                {
                    completed_cities[nc] = root;
                    nc += 1;
                }
                if self.board.figures_in(seg) > 0 {
                    let key = if kind == FeatureKind::Road { 0 } else { 1 };
                    add(key, self.board.smallest_pos(seg), root, &mut n);
                }
            }
        }
        let mut around = [pt.pos; 9];
        around[1..].copy_from_slice(&pt.pos.surrounding());
        for p in around {
            if let Some(j) = self.board.tile_index_at(p) {
                let o = self.board.tiles()[j];
                let ot = o.tile_type();
                for (c, f) in ot.features.iter().enumerate() {
                    if f.kind.is_cloister() {
                        let seg = self.board.seg(j, c);
                        if self.board.figures_in(seg) > 0 && self.board.is_complete(seg) {
                            add(2, p, seg, &mut n);
                        }
                    }
                }
            }
        }
        let cands = &mut cands[..n];
        cands.sort_by_key(|c| (c.0, c.1));
        let mut scored = [(0u16, 0u8); 24];
        for (k, &(_, _, root)) in cands.iter().enumerate() {
            let kind = self.board.seg_kind(root);
            let tiles = self.board.distinct_tiles(root);
            let mut value = expansions::completed_value(
                kind,
                tiles,
                self.board.pennants(root),
                self.board.flags(root),
            );
            if matches!(kind, FeatureKind::Road | FeatureKind::City) {
                value = self.magic_value(root, value, tiles);
            }
            scored[k] = (
                root,
                self.award(root, kind, value, 0, false, k as u16, sink),
            );
        }
        // Robbers / Messages: with several features, the active player orders them
        self.scoring_order.clear();
        self.scoring_chosen.clear();
        if self.track_mode() && cands.len() >= 2 {
            for (k, &(_, pos, root)) in cands.iter().enumerate() {
                // name the feature by a segment on its smallest tile
                let seg = self
                    .board
                    .members(self.board.find(root))
                    .find(|m| self.board.tiles()[self.board.seg_tile(*m)].pos == pos)
                    .unwrap_or(root);
                self.scoring_order.push(OrderChoice {
                    batch: k as u16,
                    pos,
                    spot: self.spot_name_of(seg),
                });
            }
        }
        // Mage & Witch: scored features set their magic figure aside
        for &(_, _, root) in cands.iter() {
            self.set_magic_aside(root, sink);
        }
        // Traders & Builders: the active player takes the goods of every completed city
        if self.expansions.contains(Expansion::TradersBuilders) {
            let mut got = [0u8; 3];
            for &root in &completed_cities[..nc] {
                for (a, b) in got.iter_mut().zip(self.board.goods(root)) {
                    *a += b;
                }
            }
            if got != [0; 3] {
                let me = &mut self.players[self.current as usize];
                for (a, b) in me.goods.iter_mut().zip(got) {
                    *a += b;
                }
                if sink.enabled() {
                    sink.push(Effect::GoodsTaken {
                        player: self.current,
                        wine: got[0],
                        grain: got[1],
                        cloth: got[2],
                    });
                }
            }
        }
        // Abbey & Mayor: farmers of a field that got a barn this part score 3 per city;
        // farmers joined to a barn field by this tile score 1 per city; then they go home
        if self.expansions.contains(Expansion::AbbeyMayor) {
            let mut fields = [0u16; 12];
            let mut nf = 0;
            if let Some(b) = self.barn_placed {
                fields[0] = self.board.find(b);
                nf = 1;
            }
            for (i, f) in tt.features.iter().enumerate() {
                if f.kind == FeatureKind::Field && nf < fields.len() {
                    let root = self.board.find(self.board.seg(ti, i));
                    if !fields[..nf].contains(&root) {
                        fields[nf] = root;
                        nf += 1;
                    }
                }
            }
            // the fields holding barns (one barn per player), when a field here has figures
            let mut barns = [0u16; 8];
            let mut nb = 0;
            if fields[..nf].iter().any(|r| self.board.figures_in(*r) > 0) {
                for f in &self.board.figures {
                    if f.kind == FigureKind::Barn && nb < barns.len() {
                        barns[nb] = self.board.find(f.seg);
                        nb += 1;
                    }
                }
            }
            if nb == 0 {
                nf = 0;
            }
            let mut cities = Vec::new();
            for (k, &root) in fields[..nf].iter().enumerate() {
                let barn_here = barns[..nb].contains(&root);
                let farmers = self
                    .board
                    .figures
                    .iter()
                    .any(|f| f.kind.is_follower() && self.board.find(f.seg) == root);
                if !barn_here || !farmers {
                    continue;
                }
                let done = self.board.completed_cities(root, &mut cities) as i32;
                let placed_now = k == 0 && self.barn_placed.is_some();
                let per_city = if placed_now { 3 } else { 1 };
                self.award(
                    root,
                    FeatureKind::Field,
                    per_city * done,
                    expansions::PIG_BONUS_PER_CITY * done,
                    false,
                    1000 + k as u16,
                    sink,
                );
                let mut i = 0;
                while i < self.board.figures.len() {
                    let f = self.board.figures[i];
                    if (f.kind.is_follower() || f.kind == FigureKind::Pig)
                        && self.board.find(f.seg) == root
                    {
                        self.return_figure(i, sink);
                    } else {
                        i += 1;
                    }
                }
            }
        }
        // Gold Mines: the owners of scored features share the ingots on their tiles
        self.distribute_gold(&scored[..cands.len()], sink);
        // every figure of every scored feature goes home; freed wagons wait for their
        // owners' decisions, in turn order from the active player
        let n_players = self.players.len() as u8;
        let mut freed: Vec<(u8, Pos)> = Vec::new();
        for &(_, _, root) in cands.iter() {
            let root = self.board.find(root);
            let mut i = 0;
            while i < self.board.figures.len() {
                let f = self.board.figures[i];
                if self.board.find(f.seg) != root {
                    i += 1;
                    continue;
                }
                if f.kind == FigureKind::Wagon && self.players[f.owner as usize].active {
                    let pos = self.board.tiles()[self.board.seg_tile(f.seg)].pos;
                    if sink.enabled() {
                        sink.push(Effect::WagonFreed {
                            player: f.owner,
                            x: pos.x,
                            y: pos.y,
                        });
                    }
                    self.board.remove_figure(i);
                    freed.push((f.owner, pos));
                } else {
                    self.return_figure(i, sink);
                }
            }
        }
        let cur = self.current;
        freed.sort_by_key(|(o, _)| (o + n_players - cur) % n_players);
        self.wagons.extend(freed);
        self.return_lonely_specials(sink);
    }

    /// Gives `value` to each majority holder of the feature containing `seg`; a holder
    /// with a pig in it gets `pig_bonus` more.
    #[allow(clippy::too_many_arguments)]
    fn award(
        &mut self,
        seg: u16,
        kind: FeatureKind,
        value: i32,
        pig_bonus: i32,
        final_scoring: bool,
        batch: u16,
        sink: &mut impl EffectSink,
    ) -> u8 {
        let root = self.board.find(seg);
        let mut strength = [0u32; 8];
        let mut pig = [false; 8];
        for f in &self.board.figures {
            if self.board.find(f.seg) == root {
                if f.kind == FigureKind::Mayor {
                    strength[f.owner as usize] += self.board.pennants(root);
                } else if f.kind.is_follower() {
                    strength[f.owner as usize] += f.kind.base_strength();
                } else if f.kind == FigureKind::Pig {
                    pig[f.owner as usize] = true;
                }
            }
        }
        let max = strength.iter().copied().max().unwrap_or(0);
        if max == 0 {
            return 0;
        }
        let mut owners = 0u8;
        // one scoring per distinct award: the plain owners, then owners with a pig
        for with_pig in [false, true] {
            let points = value + if with_pig { pig_bonus } else { 0 };
            let mut winners = Vec::new();
            for p in 0..self.players.len() {
                if strength[p] == max && pig[p] == with_pig {
                    owners |= 1 << p;
                    self.grant(p as u8, points, batch, sink);
                    if sink.enabled() {
                        winners.push(p as u8);
                    }
                }
            }
            if sink.enabled() && !winners.is_empty() {
                let tiles = if kind.is_cloister() {
                    vec![self.board.tiles()[self.board.seg_tile(seg)].pos]
                } else {
                    self.board.feature_positions(seg)
                };
                sink.push(Effect::FeatureScored {
                    feature: kind,
                    points,
                    players: winners,
                    tiles,
                    final_scoring,
                });
            }
        }
        owners
    }

    fn return_figures(&mut self, root: u16, sink: &mut impl EffectSink) {
        let root = self.board.find(root);
        let mut i = 0;
        while i < self.board.figures.len() {
            if self.board.find(self.board.figures[i].seg) == root {
                self.return_figure(i, sink);
            } else {
                i += 1;
            }
        }
    }

    pub(crate) fn return_figure(&mut self, i: usize, sink: &mut impl EffectSink) {
        let f = self.board.figures[i];
        if sink.enabled() {
            let (pos, spot) = self.board.figure_spot(&f);
            let pt = self.board.tile_at(pos).map(|t| t.tile_type());
            sink.push(Effect::FigureReturned {
                player: f.owner,
                figure: f.kind,
                x: pos.x,
                y: pos.y,
                spot: pt.map(|t| t.spot_name(spot)).unwrap_or_default(),
            });
        }
        self.board.remove_figure(i);
        self.players[f.owner as usize].supply[f.kind as usize] += 1;
    }

    /// Builders and pigs go home when their feature holds none of their owner's followers.
    pub(crate) fn return_lonely_specials(&mut self, sink: &mut impl EffectSink) {
        // only a follower leaving, a road splitting or a new builder or pig can leave one
        // alone
        if !self.board.take_lonely_check() {
            return;
        }
        let mut i = 0;
        while i < self.board.figures.len() {
            let f = self.board.figures[i];
            if matches!(f.kind, FigureKind::Builder | FigureKind::Pig)
                && !has_own_follower(&self.board, f.seg, f.owner)
            {
                self.return_figure(i, sink);
            } else {
                i += 1;
            }
        }
    }

    /// Final scoring and ranking.
    fn end_game(&mut self, sink: &mut impl EffectSink) {
        self.drawn = None;
        self.placed = None;
        self.phase = Phase::GameOver;
        // awards still queued (a resignation ended the game) are applied as they are, and
        // robbers rob the first figure leaving their space
        self.victims.clear();
        self.victim_figure = None;
        for a in std::mem::take(&mut self.awards) {
            if a.points > 0 {
                self.move_figure(a, 0, sink);
            }
        }
        self.merge_score_figures();
        // features with followers, ordered: roads, cities, cloisters, fields; each by the
        // smallest position among their tiles
        let mut feats: Vec<(u8, Pos, u16)> = Vec::with_capacity(self.board.figures.len());
        for f in &self.board.figures {
            if !f.kind.is_follower() {
                continue;
            }
            let kind = self.board.seg_kind(f.seg);
            // cloisters are single segments: keep the segment itself
            let id = if kind.is_cloister() {
                f.seg
            } else {
                self.board.find(f.seg)
            };
            if feats.iter().any(|x| x.2 == id) {
                continue;
            }
            let key = match kind {
                FeatureKind::Road => 0,
                FeatureKind::City => 1,
                FeatureKind::Monastery | FeatureKind::Garden => 2,
                FeatureKind::Field => 3,
                _ => 4,
            };
            let pos = if kind.is_cloister() {
                self.board.tiles()[self.board.seg_tile(f.seg)].pos
            } else {
                self.board.smallest_pos(id)
            };
            feats.push((key, pos, id));
        }
        feats.sort_by_key(|x| (x.0, x.1));
        let mut cities = Vec::new();
        for &(_, _, seg) in &feats {
            let kind = self.board.seg_kind(seg);
            let mut pig_bonus = 0;
            let value = match kind {
                FeatureKind::Field => {
                    // the pig's bonus goes to its owner only: see `award`
                    let done = self.board.completed_cities(seg, &mut cities);
                    pig_bonus = expansions::PIG_BONUS_PER_CITY * done as i32;
                    expansions::final_value(kind, 0, 0, 0, done)
                }
                _ => self.final_feature_value(seg, 0),
            };
            let _ = self.award(seg, kind, value, pig_bonus, true, 0, sink);
        }
        // Abbey & Mayor: every barn scores 4 per completed city of its field
        let barns: Vec<(u8, u16)> = self
            .board
            .figures
            .iter()
            .filter(|f| f.kind == FigureKind::Barn)
            .map(|f| (f.owner, f.seg))
            .collect();
        for (owner, seg) in barns {
            let done = self.board.completed_cities(seg, &mut cities) as i32;
            let points = expansions::BARN_POINTS_PER_CITY * done;
            self.grant(owner, points, 0, sink);
            if sink.enabled() {
                sink.push(Effect::BarnScored {
                    player: owner,
                    points,
                    tiles: self.board.feature_positions(seg),
                });
            }
        }
        if self.expansions.contains(Expansion::TradersBuilders) {
            self.score_goods(sink);
        }
        if self.expansions.contains(Expansion::GoldMines) {
            self.score_gold(sink);
        }
        self.ranking = rank(&self.players);
        if sink.enabled() {
            sink.push(Effect::GameOver {
                ranking: self.ranking.clone(),
            });
        }
    }

    /// Traders & Builders: 10 points to every player with the most tokens of each good
    /// (at least one). Players who left the game take no part.
    fn score_goods(&mut self, sink: &mut impl EffectSink) {
        let tokens: Vec<Option<[u8; 3]>> = self
            .players
            .iter()
            .map(|p| p.active.then_some(p.goods))
            .collect();
        let winners = expansions::goods_majorities(&tokens);
        for (k, good) in ["wine", "grain", "cloth"].into_iter().enumerate() {
            for &p in &winners[k] {
                self.grant(p, expansions::GOODS_MAJORITY_POINTS, 0, sink);
                if sink.enabled() {
                    sink.push(Effect::GoodsScored {
                        player: p,
                        good: good.to_string(),
                        points: expansions::GOODS_MAJORITY_POINTS,
                    });
                }
            }
        }
    }

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

    fn replay_into<S: EffectSink>(
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

/// An action as the gate sees it (borrowing, so replay allocates nothing).
#[derive(Clone, Copy)]
enum Step<'a> {
    Tile(Pos, Rotation),
    Figure(FigureKind, &'a str),
    ReturnAbbot,
    Abbey(Pos),
    Draw,
    Wagon(Pos, &'a str),
    Ingot(Pos),
    Magic(MagicFigure, Pos, &'a str),
    RemoveMagic(MagicFigure),
    Fly(FigureKind),
    Land(&'a str),
    CropMode(CropMode),
    Crop(bool, FigureKind, Pos, &'a str),
    Ferry(bool, Pos, &'a str, &'a str),
    Robber(u8),
    ScoreNext(Pos, &'a str),
    ScoreFigure(ScoreFigure),
    Victim(u8),
    /// A message: `None` for the 2 points; a feature (no figure) or a follower.
    Message(Option<(Option<FigureKind>, Pos, &'a str)>),
    MessagePlain,
    Pass,
}

impl Step<'_> {
    fn name(&self) -> &'static str {
        match self {
            Step::Tile(..) => "place_tile",
            Step::Figure(..) => "place_figure",
            Step::ReturnAbbot => "return_abbot",
            Step::Abbey(_) => "place_abbey",
            Step::Draw => "draw_tile",
            Step::Wagon(..) => "move_wagon",
            Step::Ingot(_) => "place_ingot",
            Step::Magic(..) => "move_magic",
            Step::RemoveMagic(_) => "remove_magic",
            Step::Fly(_) => "fly",
            Step::Land(_) => "land",
            Step::CropMode(_) => "choose_crop_mode",
            Step::Crop(true, ..) => "add_follower",
            Step::Crop(false, ..) => "remove_follower",
            Step::Ferry(false, ..) => "place_ferry",
            Step::Ferry(true, ..) => "move_ferry",
            Step::Robber(_) => "place_robber",
            Step::ScoreNext(..) => "score_next",
            Step::ScoreFigure(_) => "choose_score_figure",
            Step::Victim(_) => "choose_victim",
            Step::Message(None) => "message_two_points",
            Step::Message(Some((None, ..))) => "message_feature",
            Step::Message(Some((Some(_), ..))) => "message_follower",
            Step::MessagePlain => "message_action",
            Step::Pass => "pass",
        }
    }
}

/// What an accepted step did.
enum Done {
    Tile(TileTypeId, Pos, Rotation),
    Figure(FigureKind, u16),
    AbbotReturned,
    AbbeyPlaced(Pos),
    Drew,
    AbbeySkipped,
    WagonMoved(Pos, u16),
    WagonReturned,
    Barn(u8),
    Ingot(Pos),
    Magic(MagicFigure, Pos, u16),
    MagicRemoved(MagicFigure),
    Flew(FigureKind),
    Landed(u16),
    CropMode(CropMode),
    Crop(bool, FigureKind, Pos, u16),
    CropSkipped,
    Ferry(bool, Pos, crate::geometry::Dir, crate::geometry::Dir),
    NoMoreFerries,
    Robber(u8),
    RobberSkipped,
    ScoreNext(Pos, String),
    ScoreFigure(ScoreFigure),
    Victim(u8),
    MessageFeature(Pos, String),
    MessageFollower(FigureKind, Pos, String),
    MessageAction,
    MessageTwoPoints,
    Pass,
}

/// Barn placement (Abbey & Mayor): on corner `c` of the placed tile `ti` of `board`, where
/// four tiles meet with fields only, in a field without a barn.
fn barn_check_on(g: &Game, board: &Board, ti: usize, c: u8) -> Result<u16, PlayError> {
    if !g.expansions.contains(Expansion::AbbeyMayor) {
        return Err(PlayError::FigureNotAllowed {
            figure: "barn",
            feature: "field",
        });
    }
    let pt = board.tiles()[ti];
    for (q, qc) in crate::geometry::corner_cells(pt.pos, c) {
        let o = board.tile_at(q).ok_or(PlayError::BarnNotAllowed(
            "four tiles must meet at the corner",
        ))?;
        let f = o
            .tile_type()
            .feature_at(o.rotation, Spot::Corner(qc))
            .filter(|f| o.tile_type().features[*f].kind == FeatureKind::Field);
        if f.is_none() {
            return Err(PlayError::BarnNotAllowed(
                "all four corner areas must be field",
            ));
        }
    }
    let fi = pt
        .tile_type()
        .feature_at(pt.rotation, Spot::Corner(c))
        .ok_or(PlayError::BarnNotAllowed(
            "all four corner areas must be field",
        ))?;
    let seg = board.seg(ti, fi);
    let root = board.find(seg);
    if board
        .figures
        .iter()
        .any(|f| f.kind == FigureKind::Barn && board.find(f.seg) == root)
    {
        return Err(PlayError::BarnNotAllowed("the field already has a barn"));
    }
    if g.players[g.current as usize].supply[FigureKind::Barn as usize] == 0 {
        return Err(PlayError::NoFigureLeft("barn"));
    }
    Ok(seg)
}

/// Does `player` have a follower in the feature containing `seg`?
fn has_own_follower(board: &Board, seg: u16, player: u8) -> bool {
    let root = board.find(seg);
    board
        .figures
        .iter()
        .any(|f| f.owner == player && f.kind.is_follower() && board.find(f.seg) == root)
}

/// Competition ranking: higher scores first, ties share a place.
/// Players who left the game rank below every player who did not.
fn rank(players: &[PlayerState]) -> Vec<RankEntry> {
    let key = |p: &PlayerState| (p.active, p.score);
    let mut v: Vec<RankEntry> = players
        .iter()
        .enumerate()
        .map(|(i, p)| RankEntry {
            player: i as u8,
            score: p.score,
            rank: 1 + players.iter().filter(|q| key(q) > key(p)).count() as u8,
        })
        .collect();
    v.sort_by_key(|e| (e.rank, e.player));
    v
}
