//! The expansions of the box as a closed enum with stable string ids, and sets of them.
//! The catalog tags tiles with them; their rules live in [`crate::expansions`].

use serde::{Deserialize, Serialize};

/// The expansions of the box, by stable id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expansion {
    River,
    Abbot,
    InnsCathedrals,
    TradersBuilders,
    AbbeyMayor,
    FlyingMachines,
    Messages,
    Ferries,
    GoldMines,
    MageWitch,
    Robbers,
    CropCircles,
    PigHerd,
}

impl Expansion {
    pub const ALL: [Expansion; 13] = [
        Expansion::River,
        Expansion::Abbot,
        Expansion::InnsCathedrals,
        Expansion::TradersBuilders,
        Expansion::AbbeyMayor,
        Expansion::FlyingMachines,
        Expansion::Messages,
        Expansion::Ferries,
        Expansion::GoldMines,
        Expansion::MageWitch,
        Expansion::Robbers,
        Expansion::CropCircles,
        Expansion::PigHerd,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Expansion::River => "river",
            Expansion::Abbot => "abbot",
            Expansion::InnsCathedrals => "inns_cathedrals",
            Expansion::TradersBuilders => "traders_builders",
            Expansion::AbbeyMayor => "abbey_mayor",
            Expansion::FlyingMachines => "flying_machines",
            Expansion::Messages => "messages",
            Expansion::Ferries => "ferries",
            Expansion::GoldMines => "gold_mines",
            Expansion::MageWitch => "mage_witch",
            Expansion::Robbers => "robbers",
            Expansion::CropCircles => "crop_circles",
            Expansion::PigHerd => "pig_herd",
        }
    }

    pub fn from_id(s: &str) -> Option<Expansion> {
        Expansion::ALL.into_iter().find(|e| e.id() == s)
    }

    /// Whether the engine implements this expansion's rules yet. A game can only be set
    /// up with implemented expansions.
    pub fn is_implemented(self) -> bool {
        matches!(
            self,
            Expansion::River
                | Expansion::Abbot
                | Expansion::InnsCathedrals
                | Expansion::TradersBuilders
                | Expansion::AbbeyMayor
                | Expansion::FlyingMachines
                | Expansion::GoldMines
                | Expansion::MageWitch
                | Expansion::CropCircles
                | Expansion::Ferries
                | Expansion::Robbers
                | Expansion::Messages
                | Expansion::PigHerd
        )
    }
}

/// A set of expansions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ExpansionSet(u16);

impl ExpansionSet {
    pub fn contains(self, e: Expansion) -> bool {
        self.0 & (1 << e as u16) != 0
    }
    pub fn insert(&mut self, e: Expansion) {
        self.0 |= 1 << e as u16;
    }
    pub fn iter(self) -> impl Iterator<Item = Expansion> {
        Expansion::ALL
            .into_iter()
            .filter(move |e| self.contains(*e))
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl FromIterator<Expansion> for ExpansionSet {
    fn from_iter<I: IntoIterator<Item = Expansion>>(iter: I) -> Self {
        let mut s = ExpansionSet::default();
        for e in iter {
            s.insert(e);
        }
        s
    }
}
