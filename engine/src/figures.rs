//! Figures: the kinds of wooden piece a player owns, and how much each counts.

use serde::{Deserialize, Serialize};

/// A kind of figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = Figure))]
#[repr(u8)]
pub enum FigureKind {
    Follower = 0,
    BigFollower = 1,
    Abbot = 2,
    Mayor = 3,
    Wagon = 4,
    Builder = 5,
    Pig = 6,
    Barn = 7,
}

impl FigureKind {
    pub const COUNT: usize = 8;
    pub const ALL: [FigureKind; 8] = [
        FigureKind::Follower,
        FigureKind::BigFollower,
        FigureKind::Abbot,
        FigureKind::Mayor,
        FigureKind::Wagon,
        FigureKind::Builder,
        FigureKind::Pig,
        FigureKind::Barn,
    ];

    pub fn id(self) -> &'static str {
        match self {
            FigureKind::Follower => "follower",
            FigureKind::BigFollower => "big_follower",
            FigureKind::Abbot => "abbot",
            FigureKind::Mayor => "mayor",
            FigureKind::Wagon => "wagon",
            FigureKind::Builder => "builder",
            FigureKind::Pig => "pig",
            FigureKind::Barn => "barn",
        }
    }

    pub fn from_id(s: &str) -> Option<FigureKind> {
        FigureKind::ALL.into_iter().find(|k| k.id() == s)
    }

    /// Whether the figure may only stand in a feature holding one of its owner's followers
    /// (and goes home when none is left there): the builder and the pig.
    #[inline]
    pub fn needs_own_follower(self) -> bool {
        matches!(self, FigureKind::Builder | FigureKind::Pig)
    }

    /// Followers claim features and count for majority; special figures never do.
    pub fn is_follower(self) -> bool {
        matches!(
            self,
            FigureKind::Follower
                | FigureKind::BigFollower
                | FigureKind::Abbot
                | FigureKind::Mayor
                | FigureKind::Wagon
        )
    }

    /// Strength toward majority. The mayor's depends on the city (pennants) and is
    /// computed by the scoring code; here it is 0.
    pub fn base_strength(self) -> u32 {
        match self {
            FigureKind::Follower | FigureKind::Abbot | FigureKind::Wagon => 1,
            FigureKind::BigFollower => 2,
            _ => 0,
        }
    }
}

/// The neutral figures of Mage & Witch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum MagicFigure {
    Mage,
    Witch,
}

impl MagicFigure {
    pub fn index(self) -> usize {
        match self {
            MagicFigure::Mage => 0,
            MagicFigure::Witch => 1,
        }
    }
    pub fn other(self) -> MagicFigure {
        match self {
            MagicFigure::Mage => MagicFigure::Witch,
            MagicFigure::Witch => MagicFigure::Mage,
        }
    }
    pub const BOTH: [MagicFigure; 2] = [MagicFigure::Mage, MagicFigure::Witch];
}
