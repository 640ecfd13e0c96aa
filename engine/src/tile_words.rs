//! The parts of a tile type's description (see `describe`): the keys an expansion adds for
//! its own features, below the expansions so that each can name what it adds.

use crate::catalog::{Feature, FeatureKind, TileType};

/// A tile type's description as message keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileDescription {
    /// The tile's main shape (`city-cap`, `monastery`, `river-bend`, `field`, ...).
    pub main: &'static str,
    /// What else the tile holds, in reading order (`road-straight`, `shield`, `inn`).
    pub extras: Vec<&'static str>,
}

impl TileDescription {
    /// Every key of the description, the main shape first.
    pub fn keys(&self) -> impl Iterator<Item = &'static str> + '_ {
        std::iter::once(self.main).chain(self.extras.iter().copied())
    }
}

/// The words of a description being built: shapes (which may be the main one) and
/// extras, in reading order.
#[derive(Default)]
pub(crate) struct Words {
    pub(crate) parts: Vec<(&'static str, bool)>,
}

impl Words {
    /// A shape of the tile: the first one is the main shape.
    pub(crate) fn shape(&mut self, key: &'static str) {
        self.parts.push((key, true));
    }
    /// Something that goes with the shapes (a shield, an inn, a garden).
    pub(crate) fn extra(&mut self, key: &'static str) {
        self.parts.push((key, false));
    }
    /// The extra `key` when `tile` has a feature of `kind`.
    pub(crate) fn extra_if(&mut self, tile: &TileType, kind: FeatureKind, key: &'static str) {
        if of_kind(tile, kind).next().is_some() {
            self.extra(key);
        }
    }
}

/// Whether a two-side feature runs between opposite sides (`edges` bits N, E, S, W).
pub(crate) fn opposite(edges: u8) -> bool {
    edges == 0b0101 || edges == 0b1010
}

pub(crate) fn of_kind(tile: &TileType, kind: FeatureKind) -> impl Iterator<Item = &Feature> {
    tile.features.iter().filter(move |f| f.kind == kind)
}
