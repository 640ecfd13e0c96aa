//! The actions of a move as the API reads and writes them (`ActionDto`), and their
//! conversion to and from the engine's `Action`. Kept in one file: the engine's own
//! action type may replace it.

use serde::{Deserialize, Serialize};
use tilepost_engine::{Action, Rotation};
use utoipa::ToSchema;

use super::error::ApiError;

/// A kind of figure.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Figure {
    Follower,
    BigFollower,
    Abbot,
    Mayor,
    Wagon,
    Builder,
    Pig,
    Barn,
}

/// The neutral figures of Mage & Witch.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum MagicFigure {
    Mage,
    Witch,
}

/// Crop Circles: what every player with a follower of the circle's role does.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CropMode {
    Add,
    Remove,
}

/// The Messages' score figures.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ScoreFigure {
    Meeple,
    Messenger,
}

/// An action; the options listed by `…/actions` are complete and can be posted as they are.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "snake_case", from = "ActionWire")]
pub enum ActionDto {
    /// Place the drawn tile.
    PlaceTile {
        x: i32,
        y: i32,
        /// Degrees clockwise: 0, 90, 180 or 270.
        #[schema(minimum = 0, maximum = 270, multiple_of = 90)]
        rotation: u16,
    },
    /// Put a figure on the tile just placed.
    PlaceFigure {
        figure: Figure,
        #[schema(max_length = 16)]
        spot: String,
    },
    /// The Abbot: take the abbot back from an incomplete monastery or garden instead of
    /// placing a figure.
    ReturnAbbot,
    /// Abbey & Mayor: place the abbey into a hole (an empty cell with tiles on all four
    /// sides) instead of drawing a tile, or in the final abbey round.
    PlaceAbbey { x: i32, y: i32 },
    /// Abbey & Mayor: draw a tile rather than place the abbey.
    DrawTile,
    /// Abbey & Mayor: move a freed wagon onto a road, city or monastery in reach.
    MoveWagon {
        x: i32,
        y: i32,
        #[schema(max_length = 16)]
        spot: String,
    },
    /// Gold Mines: put the second ingot on a tile around the gold tile.
    PlaceIngot { x: i32, y: i32 },
    /// Mage & Witch: place or move the mage or the witch onto an incomplete road or city.
    MoveMagic {
        figure: MagicFigure,
        x: i32,
        y: i32,
        #[schema(max_length = 16)]
        spot: String,
    },
    /// Mage & Witch: set a figure aside (offered only when no move is possible).
    RemoveMagic { figure: MagicFigure },
    /// Flying Machines: send a follower flying instead of placing a figure; the die
    /// decides the target tile.
    Fly { figure: Figure },
    /// Flying Machines: land the flying follower on a spot of the target tile.
    Land {
        #[schema(max_length = 16)]
        spot: String,
    },
    /// Crop Circles: add or remove.
    ChooseCropMode { mode: CropMode },
    /// Crop Circles: add a follower next to one of your followers of the circle's role.
    AddFollower {
        figure: Figure,
        x: i32,
        y: i32,
        #[schema(max_length = 16)]
        spot: String,
    },
    /// Crop Circles: take back one of your followers of the circle's role.
    RemoveFollower {
        figure: Figure,
        x: i32,
        y: i32,
        #[schema(max_length = 16)]
        spot: String,
    },
    /// Ferries: the ferry of the lake at (x,y) joins the road ends leaving by sides
    /// `from` and `to` (`N`, `E`, `S`, `W`).
    PlaceFerry {
        x: i32,
        y: i32,
        #[schema(max_length = 1)]
        from: String,
        #[schema(max_length = 1)]
        to: String,
    },
    /// Ferries: move the ferry of the lake at (x,y) to join `from` and `to`.
    MoveFerry {
        x: i32,
        y: i32,
        #[schema(max_length = 1)]
        from: String,
        #[schema(max_length = 1)]
        to: String,
    },
    /// Robbers: put your robber on this track space (0–49), one holding another player's
    /// score figure.
    PlaceRobber {
        #[schema(maximum = 49)]
        space: u8,
    },
    /// Robbers / Messages: score this completed feature next (named by a spot on one of
    /// its tiles).
    ScoreNext {
        x: i32,
        y: i32,
        #[schema(max_length = 16)]
        spot: String,
    },
    /// Messages: the score figure that moves for the points being awarded.
    ChooseScoreFigure { figure: ScoreFigure },
    /// Robbers: rob this player (a seat) when the score figures of several players leave
    /// your robber's space in one award batch (a tie in one feature).
    ChooseVictim {
        #[schema(maximum = 5)]
        victim: u8,
    },
    /// Messages 1–3: score this smallest road, city or monastery of yours.
    MessageFeature {
        x: i32,
        y: i32,
        #[schema(max_length = 16)]
        spot: String,
    },
    /// Message 8: score this follower's feature and take the follower back.
    MessageFollower {
        figure: Figure,
        x: i32,
        y: i32,
        #[schema(max_length = 16)]
        spot: String,
    },
    /// Messages 4–7: carry out the drawn message (an extra tile, or its points).
    MessageAction,
    /// Messages: 2 points instead of the drawn message.
    MessageTwoPoints,
    /// Place no figure (or: keep the abbey in the final round, take a freed wagon back,
    /// add no follower at a crop circle, move no more ferries, place no robber).
    Pass,
}

/// How an action is read: unit variants as empty structs, so that unknown fields are
/// refused for every variant.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ActionWire {
    PlaceTile {
        x: i32,
        y: i32,
        rotation: u16,
    },
    PlaceFigure {
        figure: Figure,
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
        figure: Figure,
    },
    Land {
        spot: String,
    },
    ChooseCropMode {
        mode: CropMode,
    },
    AddFollower {
        figure: Figure,
        x: i32,
        y: i32,
        spot: String,
    },
    RemoveFollower {
        figure: Figure,
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
        figure: Figure,
        x: i32,
        y: i32,
        spot: String,
    },
    MessageAction {},
    MessageTwoPoints {},
    Pass {},
}

impl From<ActionWire> for ActionDto {
    fn from(w: ActionWire) -> ActionDto {
        match w {
            ActionWire::PlaceTile { x, y, rotation } => ActionDto::PlaceTile { x, y, rotation },
            ActionWire::PlaceFigure { figure, spot } => ActionDto::PlaceFigure { figure, spot },
            ActionWire::ReturnAbbot {} => ActionDto::ReturnAbbot,
            ActionWire::PlaceAbbey { x, y } => ActionDto::PlaceAbbey { x, y },
            ActionWire::DrawTile {} => ActionDto::DrawTile,
            ActionWire::MoveWagon { x, y, spot } => ActionDto::MoveWagon { x, y, spot },
            ActionWire::PlaceIngot { x, y } => ActionDto::PlaceIngot { x, y },
            ActionWire::MoveMagic { figure, x, y, spot } => {
                ActionDto::MoveMagic { figure, x, y, spot }
            }
            ActionWire::RemoveMagic { figure } => ActionDto::RemoveMagic { figure },
            ActionWire::Fly { figure } => ActionDto::Fly { figure },
            ActionWire::Land { spot } => ActionDto::Land { spot },
            ActionWire::ChooseCropMode { mode } => ActionDto::ChooseCropMode { mode },
            ActionWire::AddFollower { figure, x, y, spot } => {
                ActionDto::AddFollower { figure, x, y, spot }
            }
            ActionWire::RemoveFollower { figure, x, y, spot } => {
                ActionDto::RemoveFollower { figure, x, y, spot }
            }
            ActionWire::PlaceFerry { x, y, from, to } => ActionDto::PlaceFerry { x, y, from, to },
            ActionWire::MoveFerry { x, y, from, to } => ActionDto::MoveFerry { x, y, from, to },
            ActionWire::PlaceRobber { space } => ActionDto::PlaceRobber { space },
            ActionWire::ScoreNext { x, y, spot } => ActionDto::ScoreNext { x, y, spot },
            ActionWire::ChooseScoreFigure { figure } => ActionDto::ChooseScoreFigure { figure },
            ActionWire::ChooseVictim { victim } => ActionDto::ChooseVictim { victim },
            ActionWire::MessageFeature { x, y, spot } => ActionDto::MessageFeature { x, y, spot },
            ActionWire::MessageFollower { figure, x, y, spot } => {
                ActionDto::MessageFollower { figure, x, y, spot }
            }
            ActionWire::MessageAction {} => ActionDto::MessageAction,
            ActionWire::MessageTwoPoints {} => ActionDto::MessageTwoPoints,
            ActionWire::Pass {} => ActionDto::Pass,
        }
    }
}

/// A client's action as the engine's (the wire format is shared: api.md), validating
/// what the schema cannot express.
pub fn action_to_engine(a: &ActionDto, index: usize) -> Result<Action, ApiError> {
    if let ActionDto::PlaceTile { rotation, .. } = a {
        if Rotation::from_degrees(*rotation as i64).is_none() {
            return Err(ApiError::validation(
                format!("actions[{index}].rotation"),
                "rotation must be 0, 90, 180 or 270",
            ));
        }
    }
    serde_json::to_value(a)
        .and_then(serde_json::from_value::<Action>)
        .map_err(|e| ApiError::validation(format!("actions[{index}]"), e.to_string()))
}

/// An engine action as a DTO; an action kind the API does not know yet is a server bug.
pub fn action_dto(a: &Action) -> Result<ActionDto, ApiError> {
    serde_json::to_value(a)
        .and_then(serde_json::from_value::<ActionDto>)
        .map_err(|e| ApiError::internal(format!("engine action {a:?} has no DTO: {e}")))
}
