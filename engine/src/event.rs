//! The persisted vocabulary: events that record decisions, each with a type name and a
//! version, serialised as JSON apart from the engine's internal structs.
//!
//! Only decisions are stored (game created with its seed, tile placed, figure placed,
//! figure skipped). Their consequences (tile drawn, points, figures returned, game over)
//! are derived by replay as [`Effect`]s. An event read with an older version is upcast in
//! [`Event::decode`], so stored games replay after any upgrade.

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use crate::effect::{Effect, RankEntry};
use crate::expansions::crop_circles::CropMode;
use crate::expansions::messages::ScoreFigure;
use crate::figures::{FigureKind, MagicFigure};
use crate::geometry::Rotation;

/// Decision events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// The game was set up: players, expansions, options and the secret seed. Never shown
    /// to clients.
    GameCreated {
        /// Decimal string (JSON numbers lose precision above 2^53).
        seed: String,
        players: u8,
        #[serde(default)]
        expansions: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tile_order: Option<Vec<String>>,
    },
    /// The active player placed the drawn tile.
    TilePlaced {
        player: u8,
        tile: String,
        x: i32,
        y: i32,
        rotation: Rotation,
    },
    /// The active player put a figure on the tile just placed.
    FigurePlaced {
        player: u8,
        figure: FigureKind,
        spot: String,
    },
    /// The active player placed no figure.
    FigureSkipped { player: u8 },
    /// The active player took their abbot back instead of placing a figure (The Abbot).
    AbbotReturned { player: u8 },
    /// The active player placed their abbey into a hole instead of drawing (Abbey & Mayor).
    AbbeyPlaced { player: u8, x: i32, y: i32 },
    /// The active player chose to draw a tile rather than place their abbey.
    DrawChosen { player: u8 },
    /// In the final abbey round, the player kept their abbey.
    AbbeySkipped { player: u8 },
    /// The owner of a freed wagon moved it onto a feature in reach.
    WagonMoved {
        player: u8,
        x: i32,
        y: i32,
        spot: String,
    },
    /// The owner of a freed wagon took it back to the supply.
    WagonReturned { player: u8 },
    /// Gold Mines: the second ingot went on this tile.
    IngotPlaced { player: u8, x: i32, y: i32 },
    /// Mage & Witch: a magic figure was placed or moved.
    MagicMoved {
        player: u8,
        figure: MagicFigure,
        x: i32,
        y: i32,
        spot: String,
    },
    /// Mage & Witch: a magic figure was set aside (no legal move).
    MagicRemoved { player: u8, figure: MagicFigure },
    /// Flying Machines: a follower took off (the die decides where it lands).
    Flew { player: u8, figure: FigureKind },
    /// Flying Machines: the flying follower landed on this spot of the target tile.
    Landed { player: u8, spot: String },
    /// Crop Circles: the active player chose to add or to remove.
    CropModeChosen { player: u8, mode: CropMode },
    /// Crop Circles: a follower added next to an own follower.
    FollowerAdded {
        player: u8,
        figure: FigureKind,
        x: i32,
        y: i32,
        spot: String,
    },
    /// Crop Circles: a follower taken back.
    FollowerRemoved {
        player: u8,
        figure: FigureKind,
        x: i32,
        y: i32,
        spot: String,
    },
    /// Crop Circles: the player added nothing.
    CropSkipped { player: u8 },
    /// Ferries: the ferry of the new lake joins the road ends leaving by `from` and `to`.
    FerryPlaced {
        player: u8,
        x: i32,
        y: i32,
        from: String,
        to: String,
    },
    /// Ferries: a ferry now joins the road ends leaving by `from` and `to`.
    FerryMoved {
        player: u8,
        x: i32,
        y: i32,
        from: String,
        to: String,
    },
    /// Ferries: the player moves no (more) ferries.
    FerriesDone { player: u8 },
    /// Robbers: the player put their robber on this track space.
    RobberPlaced { player: u8, space: u8 },
    /// Robbers: the player placed no robber.
    RobberSkipped { player: u8 },
    /// Robbers / Messages: this completed feature is scored next.
    ScoringOrdered {
        player: u8,
        x: i32,
        y: i32,
        spot: String,
    },
    /// Messages: the figure that moved for an award.
    ScoreFigureChosen { player: u8, figure: ScoreFigure },
    /// Robbers: several players' figures left the robber's space in one award batch; its
    /// owner robs this player.
    VictimChosen { player: u8, victim: u8 },
    /// Messages 1–3: the smallest feature scored.
    MessageFeatureChosen {
        player: u8,
        x: i32,
        y: i32,
        spot: String,
    },
    /// Message 8: the follower scored and taken back.
    MessageFollowerChosen {
        player: u8,
        figure: FigureKind,
        x: i32,
        y: i32,
        spot: String,
    },
    /// Messages 4–7: the message carried out.
    MessageActionTaken { player: u8 },
    /// Messages: 2 points instead of the message.
    MessagePointsTaken { player: u8 },
    /// A player left the game (resigned or forfeited on time): their figures leave the
    /// board, they are ranked last, and the others play on.
    PlayerResigned {
        player: u8,
        /// Why: `resigned` or `timed_out`.
        #[serde(default = "default_reason")]
        reason: String,
    },
}

fn default_reason() -> String {
    "resigned".to_string()
}

/// Why a stored event could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum EventError {
    #[error("unknown event type {0}")]
    UnknownType(String),
    #[error("event {kind} has unknown version {version}")]
    UnknownVersion { kind: String, version: u32 },
    #[error("event {kind} has a malformed payload: {reason}")]
    Malformed { kind: String, reason: String },
}

impl Event {
    /// The stable type name stored beside the payload.
    pub fn type_name(&self) -> &'static str {
        match self {
            Event::GameCreated { .. } => "game_created",
            Event::TilePlaced { .. } => "tile_placed",
            Event::FigurePlaced { .. } => "figure_placed",
            Event::FigureSkipped { .. } => "figure_skipped",
            Event::AbbotReturned { .. } => "abbot_returned",
            Event::AbbeyPlaced { .. } => "abbey_placed",
            Event::DrawChosen { .. } => "draw_chosen",
            Event::AbbeySkipped { .. } => "abbey_skipped",
            Event::WagonMoved { .. } => "wagon_moved",
            Event::WagonReturned { .. } => "wagon_returned",
            Event::IngotPlaced { .. } => "ingot_placed",
            Event::MagicMoved { .. } => "magic_moved",
            Event::MagicRemoved { .. } => "magic_removed",
            Event::Flew { .. } => "flew",
            Event::Landed { .. } => "landed",
            Event::CropModeChosen { .. } => "crop_mode_chosen",
            Event::FollowerAdded { .. } => "follower_added",
            Event::FollowerRemoved { .. } => "follower_removed",
            Event::CropSkipped { .. } => "crop_skipped",
            Event::FerryPlaced { .. } => "ferry_placed",
            Event::FerryMoved { .. } => "ferry_moved",
            Event::FerriesDone { .. } => "ferries_done",
            Event::RobberPlaced { .. } => "robber_placed",
            Event::RobberSkipped { .. } => "robber_skipped",
            Event::ScoringOrdered { .. } => "scoring_ordered",
            Event::ScoreFigureChosen { .. } => "score_figure_chosen",
            Event::VictimChosen { .. } => "victim_chosen",
            Event::MessageFeatureChosen { .. } => "message_feature_chosen",
            Event::MessageFollowerChosen { .. } => "message_follower_chosen",
            Event::MessageActionTaken { .. } => "message_action_taken",
            Event::MessagePointsTaken { .. } => "message_points_taken",
            Event::PlayerResigned { .. } => "player_resigned",
        }
    }

    /// Current version of this event type's payload.
    pub fn version(&self) -> u32 {
        1
    }

    /// The player who decided, if any.
    pub fn player(&self) -> Option<u8> {
        match self {
            Event::GameCreated { .. } => None,
            Event::TilePlaced { player, .. }
            | Event::FigurePlaced { player, .. }
            | Event::FigureSkipped { player }
            | Event::AbbotReturned { player }
            | Event::AbbeyPlaced { player, .. }
            | Event::DrawChosen { player }
            | Event::AbbeySkipped { player }
            | Event::WagonMoved { player, .. }
            | Event::WagonReturned { player }
            | Event::IngotPlaced { player, .. }
            | Event::MagicMoved { player, .. }
            | Event::MagicRemoved { player, .. }
            | Event::Flew { player, .. }
            | Event::Landed { player, .. }
            | Event::CropModeChosen { player, .. }
            | Event::FollowerAdded { player, .. }
            | Event::FollowerRemoved { player, .. }
            | Event::CropSkipped { player }
            | Event::FerryPlaced { player, .. }
            | Event::FerryMoved { player, .. }
            | Event::FerriesDone { player }
            | Event::RobberPlaced { player, .. }
            | Event::RobberSkipped { player }
            | Event::ScoringOrdered { player, .. }
            | Event::ScoreFigureChosen { player, .. }
            | Event::VictimChosen { player, .. }
            | Event::MessageFeatureChosen { player, .. }
            | Event::MessageFollowerChosen { player, .. }
            | Event::MessageActionTaken { player }
            | Event::MessagePointsTaken { player }
            | Event::PlayerResigned { player, .. } => Some(*player),
        }
    }

    /// Serialises to the stored form: (type, version, payload JSON without the type).
    pub fn encode(&self) -> (&'static str, u32, String) {
        let mut v = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        if let Some(m) = v.as_object_mut() {
            m.remove("type");
        }
        (self.type_name(), self.version(), v.to_string())
    }

    /// Reads the stored form, upcasting older versions.
    pub fn decode(kind: &str, version: u32, payload: &str) -> Result<Event, EventError> {
        const KNOWN: [&str; 32] = [
            "robber_placed",
            "robber_skipped",
            "scoring_ordered",
            "score_figure_chosen",
            "victim_chosen",
            "message_feature_chosen",
            "message_follower_chosen",
            "message_action_taken",
            "message_points_taken",
            "ferry_placed",
            "ferry_moved",
            "ferries_done",
            "ingot_placed",
            "magic_moved",
            "magic_removed",
            "flew",
            "landed",
            "crop_mode_chosen",
            "follower_added",
            "follower_removed",
            "crop_skipped",
            "abbot_returned",
            "abbey_placed",
            "draw_chosen",
            "abbey_skipped",
            "wagon_moved",
            "wagon_returned",
            "game_created",
            "tile_placed",
            "figure_placed",
            "figure_skipped",
            "player_resigned",
        ];
        if !KNOWN.contains(&kind) {
            return Err(EventError::UnknownType(kind.to_string()));
        }
        if version != 1 {
            return Err(EventError::UnknownVersion {
                kind: kind.to_string(),
                version,
            });
        }
        let mut v: serde_json::Value =
            serde_json::from_str(payload).map_err(|e| EventError::Malformed {
                kind: kind.to_string(),
                reason: e.to_string(),
            })?;
        match v.as_object_mut() {
            Some(m) => {
                m.insert("type".into(), serde_json::Value::String(kind.to_string()));
            }
            None => {
                return Err(EventError::Malformed {
                    kind: kind.to_string(),
                    reason: "payload is not an object".into(),
                })
            }
        }
        serde_json::from_value(v).map_err(|e| EventError::Malformed {
            kind: kind.to_string(),
            reason: e.to_string(),
        })
    }
}
