//! Consequences the engine derives from decisions ([`Effect`]), served in the history and
//! never stored, and the final ranking's lines.

use serde::{Deserialize, Serialize};

use crate::catalog::FeatureKind;
use crate::figures::{FigureKind, MagicFigure};
use crate::geometry::Pos;

/// A consequence the engine derived from a decision; served in the history, never stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Effect {
    /// A player's turn began with this tile drawn.
    TileDrawn { player: u8, tile: String },
    /// House rule `tiles_in_hand`: a tile was drawn into the player's hand. The tile is
    /// hidden information: only that player may be shown it.
    TileToHand { player: u8, tile: String },
    /// A drawn tile fitted nowhere and was removed from the game (with the house rule
    /// `tiles_in_hand` also a tile of a hand that fits nowhere, or the hand of a player
    /// who left, shown as it leaves the game).
    TileDiscarded { tile: String },
    /// House rule `unplaceable_tile = reshuffled`: a drawn tile fitted nowhere and went
    /// back into the pile, which was shuffled again.
    TileReturned { tile: String },
    /// A feature was scored: each listed player received `points`.
    FeatureScored {
        feature: FeatureKind,
        points: i32,
        players: Vec<u8>,
        /// The distinct tiles of the feature (for a monastery, its own tile).
        tiles: Vec<Pos>,
        /// Scored at the end of the game (incomplete feature or field).
        #[serde(rename = "final")]
        final_scoring: bool,
    },
    /// A figure went back to its owner's supply.
    FigureReturned {
        player: u8,
        figure: FigureKind,
        x: i32,
        y: i32,
        spot: String,
    },
    /// A player left the game.
    PlayerLeft { player: u8 },
    /// A wagon's feature was scored: its owner may now move it (Abbey & Mayor).
    WagonFreed { player: u8, x: i32, y: i32 },
    /// Gold Mines: an ingot was laid on a tile.
    IngotLaid { x: i32, y: i32 },
    /// Gold Mines: a player took ingots from the tiles of the scored features.
    GoldTaken { player: u8, ingots: u8 },
    /// Gold Mines: final value of a player's ingots.
    GoldScored { player: u8, ingots: u8, points: i32 },
    /// Mage & Witch: a magic figure went back beside the board.
    MagicSetAside { figure: MagicFigure },
    /// Flying Machines: the die was rolled; the follower flies to this cell.
    DieRolled {
        player: u8,
        value: u8,
        x: i32,
        y: i32,
    },
    /// Messages: a score figure moved (its new total).
    ScoreFigureMoved {
        player: u8,
        figure: String,
        total: i32,
    },
    /// Robbers: a robber stole from an award and went home.
    RobberStole { player: u8, victim: u8, points: i32 },
    /// Robbers, house rule `robbers_end_bonus_3`: a robber still on the track after final
    /// scoring earned its owner points and went home.
    RobberBonus { player: u8, points: i32 },
    /// Messages: the active player earned a message.
    MessageEarned { player: u8 },
    /// Messages: the top message tile was drawn.
    MessageDrawn { player: u8, message: u8 },
    /// A barn scored at the end of the game (Abbey & Mayor).
    BarnScored {
        player: u8,
        points: i32,
        tiles: Vec<Pos>,
    },
    /// The active player took the goods of the cities completed this turn (Traders & Builders).
    GoodsTaken {
        player: u8,
        wine: u8,
        grain: u8,
        cloth: u8,
    },
    /// Final goods majority (Traders & Builders).
    GoodsScored {
        player: u8,
        good: String,
        points: i32,
    },
    /// The game ended; the ranking shares places on ties.
    GameOver { ranking: Vec<RankEntry> },
}

/// One line of the final ranking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankEntry {
    pub player: u8,
    pub score: i32,
    /// 1 for the winners; tied players share a place (1, 1, 3).
    pub rank: u8,
}

impl Serialize for FeatureKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for FeatureKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        [
            FeatureKind::Road,
            FeatureKind::City,
            FeatureKind::Field,
            FeatureKind::Monastery,
            FeatureKind::Garden,
            FeatureKind::River,
            FeatureKind::Lake,
            FeatureKind::FlyingMachine,
            FeatureKind::CropCircle,
        ]
        .into_iter()
        .find(|k| k.name() == s)
        .ok_or_else(|| serde::de::Error::custom(format!("unknown feature kind {s}")))
    }
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
