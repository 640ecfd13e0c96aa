//! Inns & Cathedrals: an inn on a road doubles it when completed and makes it worth
//! nothing left open; a cathedral does the same for a city (3 per tile and pennant). The
//! big follower counts twice in a majority (`FigureKind::base_strength`); the sixth
//! colour seats a sixth player (`max_players`).

use super::prelude::*;
use crate::board::{FLAG_CATHEDRAL, FLAG_INN};

/// Inns & Cathedrals in the registry: it changes values and figures only (no decision, no
/// state of its own).
pub(crate) struct InnsCathedrals;

impl Hooks for InnsCathedrals {
    /// The big follower (house rule `big_follower`).
    fn figures(&self, set: ExpansionSet, rules: &HouseRules, supply: &mut [u8; FigureKind::COUNT]) {
        if set.contains(Expansion::InnsCathedrals) && rules.big_follower.on() {
            supply[FigureKind::BigFollower as usize] = 1;
        }
    }

    /// The sixth colour seats a sixth player.
    fn max_players(&self, set: ExpansionSet) -> Option<u8> {
        set.contains(Expansion::InnsCathedrals).then_some(6)
    }
}

impl Decisions for InnsCathedrals {}

/// Hook *feature value* during the game: the value of a completed road with an inn or
/// city with a cathedral, `None` when neither changes it. `flags` are the board's
/// `FLAG_*` bits of the feature.
#[inline]
pub fn completed_value(kind: FeatureKind, tiles: i32, pennants: i32, flags: u8) -> Option<i32> {
    match kind {
        FeatureKind::Road if flags & FLAG_INN != 0 => Some(2 * tiles),
        FeatureKind::City if flags & FLAG_CATHEDRAL != 0 => Some(3 * tiles + 3 * pennants),
        _ => None,
    }
}

/// Hook *feature value* at the end: an inn road or a cathedral city left open is worth
/// nothing; `None` when neither is there.
#[inline]
pub fn final_value(kind: FeatureKind, flags: u8) -> Option<i32> {
    match kind {
        FeatureKind::Road if flags & FLAG_INN != 0 => Some(0),
        FeatureKind::City if flags & FLAG_CATHEDRAL != 0 => Some(0),
        _ => None,
    }
}

/// A cathedral in a city, for the tile's description.
pub(crate) fn describe_cities(tile: &crate::catalog::TileType, w: &mut crate::tile_words::Words) {
    if tile.features.iter().any(|f| f.cathedral) {
        w.extra("cathedral");
    }
}

/// An inn on a road, for the tile's description.
pub(crate) fn describe_roads(tile: &crate::catalog::TileType, w: &mut crate::tile_words::Words) {
    if tile.features.iter().any(|f| f.inn) {
        w.extra("inn");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inns_and_cathedrals_change_only_their_own_features() {
        assert_eq!(completed_value(FeatureKind::Road, 4, 0, FLAG_INN), Some(8));
        assert_eq!(completed_value(FeatureKind::Road, 4, 0, 0), None);
        assert_eq!(
            completed_value(FeatureKind::City, 4, 2, FLAG_CATHEDRAL),
            Some(18)
        );
        assert_eq!(completed_value(FeatureKind::City, 4, 2, FLAG_INN), None);
        assert_eq!(final_value(FeatureKind::City, FLAG_CATHEDRAL), Some(0));
        assert_eq!(final_value(FeatureKind::Road, FLAG_INN), Some(0));
        assert_eq!(final_value(FeatureKind::Field, FLAG_INN), None);
    }
}
