//! What a player decides: the typed [`Action`] (the JSON clients post, read strictly),
//! and how the gate sees it (`Step`, borrowing) and what it did (`Done`).

use serde::{Deserialize, Serialize};

use super::*;

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

/// An action as the gate sees it (borrowing, so replay allocates nothing).
#[derive(Clone, Copy)]
pub(crate) enum Step<'a> {
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
    pub(crate) fn name(&self) -> &'static str {
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
pub(crate) enum Done {
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
