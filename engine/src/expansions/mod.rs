//! Expansions: a closed enum with stable string ids, and the hooks through which they
//! change the base game.
//!
//! The turn machine in [`crate::game`] calls the hooks below at fixed points (placement
//! allowed, tile placed, figure allowed, before and after scoring, final scoring). The base
//! game is their first user; each expansion gets its own module here and is dispatched
//! from these functions, never from special cases in the core.
//!
//! The hooks work on the [`table::Table`] the game owns (they are `impl Table` blocks and
//! never name the game). Each expansion's state is a struct of its own file (e.g.
//! [`gold_mines::GoldState`]), an optional field of the table created at set-up only when
//! the expansion is in play, and read or written only by that file; the core asks through
//! the file's hooks. An expansion's decisions (its phases' options, and a chosen one
//! applied) are its `Decisions`, reached through the registry in `decisions`; a
//! decision's handler returns the stage where the turn goes on.

pub mod abbey_mayor;
pub mod abbot;
pub mod crop_circles;
pub(crate) mod decisions;
pub mod ferries;
pub mod flier;
pub mod gold_mines;
pub mod inns_cathedrals;
pub mod mage_witch;
pub mod messages;
pub mod pig_herd;
pub mod river;
pub mod robbers;
pub mod score_track;
pub(crate) mod stages;
pub mod table;
pub mod traders_builders;

pub use crate::expansion::{Expansion, ExpansionSet};
pub use abbey_mayor::BARN_POINTS_PER_CITY;
pub use traders_builders::{goods_majorities, GOODS_MAJORITY_POINTS};

/// The types of Gold Mines, Mage & Witch, Flying Machines and Crop Circles under the path
/// they were first published at.
pub mod minis {
    pub use super::crop_circles::{Crop, CropMode};
    pub use super::gold_mines::{gold_points, gold_round_robin, GoldPile};
    pub use super::mage_witch::{magic_adjusted, MagicFigure};
}

/// The score track's types (Robbers, Messages) under the path they were first published
/// at.
pub mod track {
    pub use super::messages::{MessageChoice, MESSAGES, MESSAGE_POINTS};
    pub use super::robbers::robbery;
    pub use super::score_track::{space, Award, OrderChoice, TRACK_SPACES};
}

/// What the expansion files share.
mod prelude {
    pub(crate) use crate::action::Action;
    pub(crate) use crate::board::Board;
    pub(crate) use crate::catalog::FeatureKind;
    pub(crate) use crate::decision::{Phase, PlayError};
    pub(crate) use crate::effect::Effect;
    pub(crate) use crate::effect::EffectSink;
    pub(crate) use crate::event::Declined;
    pub(crate) use crate::expansions::decisions::{Decided, Decisions, Done};
    pub(crate) use crate::expansions::stages::{Hooks, Stage};
    pub(crate) use crate::expansions::table::Table;
    pub(crate) use crate::expansions::{self, Expansion, ExpansionSet};
    pub(crate) use crate::figures::FigureKind;
    pub(crate) use crate::geometry::{Pos, Spot};
    pub(crate) use crate::rules::HouseRules;
}

use crate::catalog::{FeatureKind, TileType};
use crate::effect::EffectSink;
use crate::figures::FigureKind;
use crate::rules::HouseRules;
use table::Table;

/// Whether tiles of this catalog origin go into the draw pile of a game with `set`
/// (the River's spring is the start tile, not drawn).
pub fn tile_in_game(tile: &TileType, set: ExpansionSet) -> bool {
    !tile.not_in_draw_pile
        && !tile.start_with_river
        && tile.expansion.is_none_or(|e| set.contains(e))
}

/// Figures each player starts with, by kind. The house rules may leave an expansion's
/// figures in the box while its tiles are played (`big_follower`, `builder`, `pig`,
/// `mayor`, `wagon`, `barn`).
pub fn starting_supply(set: ExpansionSet, rules: &HouseRules) -> [u8; FigureKind::COUNT] {
    let mut s = [0u8; FigureKind::COUNT];
    s[FigureKind::Follower as usize] = 7;
    // each expansion in play gives its own figures
    Table::expansions_figures(set, rules, &mut s);
    s
}

/// Most players a game with `set` seats (the sixth colour comes with Inns & Cathedrals).
pub fn max_players(set: ExpansionSet) -> u8 {
    Table::expansions_max_players(set).unwrap_or(5)
}

/// Hook *figure allowed*: may a figure of `kind` stand on a segment of `feature`?
/// (Occupancy and supply are checked by the core.)
pub fn figure_allowed(_set: ExpansionSet, kind: FigureKind, feature: FeatureKind) -> bool {
    match kind {
        FigureKind::Follower | FigureKind::BigFollower => matches!(
            feature,
            FeatureKind::Road | FeatureKind::City | FeatureKind::Monastery | FeatureKind::Field
        ),
        FigureKind::Abbot => matches!(feature, FeatureKind::Monastery | FeatureKind::Garden),
        FigureKind::Mayor => feature == FeatureKind::City,
        FigureKind::Wagon => matches!(
            feature,
            FeatureKind::Road | FeatureKind::City | FeatureKind::Monastery
        ),
        // placed by their own rules (next to an own follower, on a corner)
        FigureKind::Builder | FigureKind::Pig | FigureKind::Barn => false,
    }
}

/// Value of a completed feature during the game (hook *before scoring*: inns and
/// cathedrals change it). `flags` are the board's `FLAG_*` bits of the feature.
pub fn completed_value(kind: FeatureKind, tiles: u32, pennants: u32, flags: u8) -> i32 {
    let (tiles, pennants) = (tiles as i32, pennants as i32);
    if let Some(v) = inns_cathedrals::completed_value(kind, tiles, pennants, flags) {
        return v;
    }
    match kind {
        FeatureKind::Road => tiles,
        FeatureKind::City => 2 * tiles + 2 * pennants,
        FeatureKind::Monastery | FeatureKind::Garden => 9,
        _ => 0,
    }
}

/// Value of an incomplete feature at the end of the game (hook *final scoring*): an inn
/// road or a cathedral city left open is worth nothing.
pub fn final_value(
    kind: FeatureKind,
    tiles: u32,
    pennants: u32,
    flags: u8,
    completed_cities: u32,
) -> i32 {
    let (tiles, pennants) = (tiles as i32, pennants as i32);
    if let Some(v) = inns_cathedrals::final_value(kind, flags) {
        return v;
    }
    match kind {
        FeatureKind::Road => tiles,
        FeatureKind::City => tiles + pennants,
        // `tiles` is the monastery tile plus its occupied surroundings
        FeatureKind::Monastery | FeatureKind::Garden => tiles,
        FeatureKind::Field => 3 * completed_cities as i32,
        _ => 0,
    }
}

/// Points per completed city that a field owner with a pig in the field earns on top of
/// the farmers' 3 (Traders & Builders).
pub const PIG_BONUS_PER_CITY: i32 = 1;

/// The expansions with a share of final scoring of their own (see [`end_scoring_part`]),
/// in the order of `Expansion::ALL`.
pub const END_SCORING: [Expansion; 5] = [
    Expansion::Abbot,
    Expansion::TradersBuilders,
    Expansion::AbbeyMayor,
    Expansion::GoldMines,
    Expansion::Robbers,
];

/// Each expansion's share of final scoring, read from an effect of the final scoring:
/// the expansion it belongs to and the points each player received (nothing for an
/// effect no expansion claims: the base game's features).
pub fn end_scoring_part(e: &crate::effect::Effect) -> Option<(Expansion, Vec<(u8, i32)>)> {
    let parts = [
        (Expansion::Abbot, abbot::end_scoring_points(e)),
        (Expansion::AbbeyMayor, abbey_mayor::end_scoring_points(e)),
        (
            Expansion::TradersBuilders,
            traders_builders::end_scoring_points(e),
        ),
        (Expansion::GoldMines, gold_mines::end_scoring_points(e)),
        (Expansion::Robbers, robbers::end_scoring_points(e)),
    ];
    parts.into_iter().find(|(_, points)| !points.is_empty())
}

/// The hook points where expansions change the turn. The core (the game's turn) calls these
/// and nothing else of an expansion's scoring; each dispatches to the expansions of the
/// game, in a fixed order.
impl Table {
    /// Hook *tile placed*: the tile at board index `idx` was just placed.
    pub(crate) fn tile_placed(&mut self, idx: usize) {
        self.builder_tile_placed(idx);
    }

    /// Hook *features scored*: the features `scored` (root, owners as a bit per player)
    /// were scored after the tile at `ti`; `completed_cities` are the cities it completed.
    pub(crate) fn features_scored(
        &mut self,
        ti: usize,
        scored: &[(u16, u8)],
        completed_cities: &[u16],
        sink: &mut impl EffectSink,
    ) {
        // Mage & Witch: scored features set their magic figure aside
        for &(root, _) in scored {
            self.set_magic_aside(root, sink);
        }
        if self.expansions.contains(Expansion::TradersBuilders) {
            self.take_goods(completed_cities, sink);
        }
        if self.expansions.contains(Expansion::AbbeyMayor) {
            self.score_barn_fields(ti, sink);
        }
        // Gold Mines: the owners of scored features share the ingots on their tiles
        self.distribute_gold(scored, sink);
    }

    /// Hook *final scoring*, after the features: barns, goods, gold. `cities` is a buffer.
    pub(crate) fn final_scoring(&mut self, cities: &mut Vec<u16>, sink: &mut impl EffectSink) {
        self.score_barns(cities, sink);
        if self.expansions.contains(Expansion::TradersBuilders) {
            self.score_goods(sink);
        }
        if self.expansions.contains(Expansion::GoldMines) {
            self.score_gold(sink);
        }
        self.robbers_end_bonus(sink);
    }
}
