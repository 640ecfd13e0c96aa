//! Short human descriptions of tile types, derived from their features: what a player
//! would call the tile ("a city cap with a straight road", "a river bend").
//!
//! The engine gives the description as message keys, not words: a main shape and the
//! extras that go with it, in order. The server's Fluent catalogs (`tile-<key>`) and the
//! web client's catalogs (`tile.<key>`) hold the wording; each key is a noun phrase with
//! its indefinite article, and a description reads as "main with extra, extra and extra".
//! The core names cities, roads and monasteries; each expansion names its own features
//! (see the `describe_tile` function of its file).

use crate::catalog::{FeatureKind, TileType};
use crate::expansions;
pub use crate::tile_words::TileDescription;
use crate::tile_words::{of_kind, opposite, Words};

/// The description of `tile`, derived from its features.
pub fn describe(tile: &TileType) -> TileDescription {
    let mut w = Words::default();
    expansions::river::describe_tile(tile, &mut w);
    let monastery = of_kind(tile, FeatureKind::Monastery).next();
    match monastery {
        Some(m) if m.abbey => expansions::abbey_mayor::describe_abbey(&mut w),
        Some(_) => w.shape("monastery"),
        None => {}
    }
    cities(tile, &mut w);
    expansions::inns_cathedrals::describe_cities(tile, &mut w);
    expansions::traders_builders::describe_tile(tile, &mut w);
    expansions::ferries::describe_tile(tile, &mut w);
    let centre = monastery.is_some() || of_kind(tile, FeatureKind::Lake).next().is_some();
    roads(tile, centre, &mut w);
    expansions::inns_cathedrals::describe_roads(tile, &mut w);
    expansions::abbey_mayor::describe_tile(tile, &mut w);
    expansions::abbot::describe_tile(tile, &mut w);
    expansions::flier::describe_tile(tile, &mut w);
    expansions::crop_circles::describe_tile(tile, &mut w);
    expansions::gold_mines::describe_tile(tile, &mut w);
    expansions::mage_witch::describe_tile(tile, &mut w);
    expansions::robbers::describe_tile(tile, &mut w);
    let main = w.parts.iter().position(|(_, shape)| *shape);
    let main = match main {
        Some(i) => w.parts.remove(i).0,
        None => "field",
    };
    TileDescription {
        main,
        extras: w.parts.into_iter().map(|(k, _)| k).collect(),
    }
}

fn city_shape(edges: u8) -> &'static str {
    match edges.count_ones() {
        0 | 1 => "city-cap",
        2 if opposite(edges) => "city-across",
        2 => "city-corner",
        3 => "city-three-sides",
        _ => "city-four-sides",
    }
}

/// The cities: all caps by their number, or the biggest city then the others; then
/// the coats of arms.
fn cities(tile: &TileType, w: &mut Words) {
    let mut cities: Vec<u8> = of_kind(tile, FeatureKind::City).map(|f| f.edges).collect();
    cities.sort_by_key(|e| std::cmp::Reverse(e.count_ones()));
    let caps = cities.iter().filter(|e| e.count_ones() == 1).count();
    if caps == cities.len() && caps >= 2 {
        let all = cities.iter().fold(0, |a, e| a | e);
        w.shape(match caps {
            2 if opposite(all) => "city-caps-opposite",
            2 => "city-caps-adjacent",
            3 => "city-caps-three",
            _ => "city-caps-four",
        });
    } else if let Some((first, rest)) = cities.split_first() {
        w.shape(city_shape(*first));
        for e in rest.iter().filter(|e| e.count_ones() > 1) {
            w.shape(match city_shape(*e) {
                "city-across" => "city-across-another",
                _ => "city-corner-another",
            });
        }
        match rest.iter().filter(|e| e.count_ones() == 1).count() {
            0 => {}
            1 => w.shape("city-cap-separate"),
            _ => w.shape("city-caps-separate-two"),
        }
    }
    let pennants: u32 = of_kind(tile, FeatureKind::City)
        .map(|f| u32::from(f.pennants))
        .sum();
    match pennants {
        0 => {}
        1 => w.extra("shield"),
        _ => w.extra("shields-two"),
    }
}

/// The roads: the ones that cross the tile by shape, then the ones that end on it (at
/// the monastery or lake when there is one, else at a junction or crossroads).
fn roads(tile: &TileType, centre: bool, w: &mut Words) {
    let (mut straight, mut curves, mut ends) = (0, 0, 0);
    for r in of_kind(tile, FeatureKind::Road) {
        match r.edges.count_ones() {
            0 | 1 => ends += 1,
            2 if opposite(r.edges) => straight += 1,
            2 => curves += 1,
            _ => w.shape("road-three-way"),
        }
    }
    match straight {
        0 => {}
        1 => w.shape("road-straight"),
        _ => w.shape("roads-straight-two"),
    }
    match curves {
        0 => {}
        1 => w.shape("road-curve"),
        _ => w.shape("road-curves-two"),
    }
    let through = straight + curves > 0;
    let key = match ends {
        0 => return,
        1 if centre || !through => "road",
        2 if centre => "roads-two",
        3 if centre => "roads-three",
        _ if centre => "roads-four",
        1 => "road-end",
        2 => "road-ends-two",
        3 if !through => "junction",
        _ if !through => "crossroads",
        _ => "road-ends-more",
    };
    w.shape(key);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    fn keys(id: &str) -> Vec<&'static str> {
        let c = catalog();
        let t = c.get(c.id(id).unwrap_or_else(|| panic!("{id}")));
        describe(t).keys().collect()
    }

    #[test]
    fn derived_from_the_features() {
        assert_eq!(keys("base/D"), ["city-cap", "road-straight"]);
        assert_eq!(keys("base/A"), ["monastery", "road"]);
        assert_eq!(keys("base/B"), ["monastery"]);
        assert_eq!(keys("base/X"), ["crossroads"]);
        assert_eq!(keys("base/W"), ["junction"]);
        assert_eq!(keys("base/M"), ["city-corner", "shield"]);
        assert_eq!(keys("base/H"), ["city-caps-opposite"]);
        assert_eq!(keys("base/C"), ["city-four-sides", "shield"]);
        assert_eq!(keys("base/V-garden"), ["road-curve", "garden"]);
        assert_eq!(keys("river/01-spring"), ["river-spring"]);
        assert_eq!(keys("river/10-ffii"), ["river-bend"]);
        assert_eq!(keys("ic/01-cccc"), ["city-four-sides", "cathedral"]);
        assert_eq!(
            keys("ic/13-crrc"),
            ["city-corner", "shield", "road-curve", "inn"]
        );
        assert_eq!(
            keys("tb/03-fccc"),
            ["city-across", "city-cap-separate", "cloth"]
        );
        assert_eq!(keys("am/abbey"), ["abbey"]);
        assert_eq!(
            keys("am/12-rcrc"),
            ["city-across", "shield", "road-straight", "tunnel"]
        );
        assert_eq!(keys("fm/02-ffff"), ["field", "flying-machine"]);
        assert_eq!(keys("fe/02-frrr"), ["ferry-lake", "roads-three"]);
        assert_eq!(keys("gm/01-frrf"), ["monastery", "road-curve", "gold"]);
        assert_eq!(
            keys("mw/07-crrr"),
            ["city-cap", "road-curve", "road-end", "magic-portal"]
        );
        assert_eq!(keys("rb/02-rfrf"), ["road-straight", "robber"]);
        assert_eq!(
            keys("cc/06-cccc"),
            ["city-corner", "city-corner-another", "crop-circle"]
        );
    }

    /// Every tile type gets a description, and the catalog's types that differ in what
    /// the description names do not all collapse into a few names.
    #[test]
    fn every_tile_described() {
        let c = catalog();
        let mut names = std::collections::BTreeSet::new();
        for (_, t) in c.iter() {
            let d = describe(t);
            assert!(!d.main.is_empty(), "{}", t.id);
            names.insert(d.keys().collect::<Vec<_>>());
        }
        assert!(names.len() > 80, "{}", names.len());
    }
}
