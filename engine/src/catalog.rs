//! The tile catalog: every tile type of every expansion, parsed once from
//! `engine/data/catalog.toml` (same ids and facts as the shared catalog) and validated.
//!
//! Besides the raw facts, each tile type carries precomputed per-rotation tables (edge
//! signature, which feature sits on each board side and half) so that placement checks
//! and feature joins are table look-ups.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::Deserialize;
use thiserror::Error;

use crate::expansion::Expansion;
use crate::geometry::{Dir, Half, Rotation, Spot};

/// The catalog source, embedded in the crate.
pub const CATALOG_TOML: &str = include_str!("../data/catalog.toml");

/// Index of a tile type in the catalog (stable for one build; persisted data uses the
/// string id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TileTypeId(pub u16);

/// Terrain of a tile side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum EdgeKind {
    Field = 1,
    Road = 2,
    City = 3,
    River = 4,
    /// Matches anything and closes it (Abbey & Mayor abbey tile).
    Abbey = 5,
}

impl EdgeKind {
    fn parse(s: &str) -> Option<EdgeKind> {
        Some(match s {
            "field" => EdgeKind::Field,
            "road" => EdgeKind::Road,
            "city" => EdgeKind::City,
            "river" => EdgeKind::River,
            "abbey" => EdgeKind::Abbey,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            EdgeKind::Field => "field",
            EdgeKind::Road => "road",
            EdgeKind::City => "city",
            EdgeKind::River => "river",
            EdgeKind::Abbey => "abbey",
        }
    }
}

/// What a feature segment is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FeatureKind {
    Road,
    City,
    Field,
    Monastery,
    Garden,
    River,
    Lake,
    FlyingMachine,
    CropCircle,
}

impl FeatureKind {
    pub fn name(self) -> &'static str {
        match self {
            FeatureKind::Road => "road",
            FeatureKind::City => "city",
            FeatureKind::Field => "field",
            FeatureKind::Monastery => "monastery",
            FeatureKind::Garden => "garden",
            FeatureKind::River => "river",
            FeatureKind::Lake => "lake",
            FeatureKind::FlyingMachine => "flying_machine",
            FeatureKind::CropCircle => "crop_circle",
        }
    }
    fn parse(s: &str) -> Option<FeatureKind> {
        Some(match s {
            "road" => FeatureKind::Road,
            "city" => FeatureKind::City,
            "field" => FeatureKind::Field,
            "monastery" => FeatureKind::Monastery,
            "garden" => FeatureKind::Garden,
            "river" => FeatureKind::River,
            "lake" => FeatureKind::Lake,
            "flying_machine" => FeatureKind::FlyingMachine,
            "crop_circle" => FeatureKind::CropCircle,
            _ => return None,
        })
    }
    /// Features that join across seams (tracked with union-find over several tiles).
    pub fn is_edge_feature(self) -> bool {
        matches!(
            self,
            FeatureKind::Road | FeatureKind::City | FeatureKind::River
        )
    }
    /// Features that sit in the centre of a tile and score with the 8 surrounding cells.
    pub fn is_cloister(self) -> bool {
        matches!(self, FeatureKind::Monastery | FeatureKind::Garden)
    }
}

/// Trade goods printed in a city (Traders & Builders).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goods {
    Wine,
    Grain,
    Cloth,
}

/// One feature segment of a tile type, in the reference orientation.
#[derive(Clone, Debug, PartialEq)]
pub struct Feature {
    /// Catalog id, unique within the tile (`c1`, `r2`, `f1`, `m1`, ...).
    pub id: String,
    pub kind: FeatureKind,
    /// Bit `d` set when the feature touches side `d` (roads, rivers, cities).
    pub edges: u8,
    /// Bit `h` set when the field holds half-edge `h`.
    pub halves: u8,
    /// Coats of arms (cities).
    pub pennants: u8,
    pub cathedral: bool,
    pub inn: bool,
    pub goods: Option<Goods>,
    /// Bit `i` set when this field touches the city that is feature `i` of this tile.
    pub borders: u32,
    /// A field that touches no side.
    pub inner: bool,
    /// The A&M abbey monastery.
    pub abbey: bool,
    pub passes_under_city: bool,
    /// Flying machine direction in eighths of a turn clockwise from north (0 = N, 1 = NE, ...).
    pub direction: Option<u8>,
    pub crop_symbol: Option<String>,
    pub crop_affects: Option<FeatureKind>,
}

/// Tile-level symbols.
pub mod symbol {
    pub const GOLD: u8 = 1;
    pub const MAGIC: u8 = 2;
    pub const ROBBER: u8 = 4;
}

/// A tile type with its rotation tables.
#[derive(Clone, Debug)]
pub struct TileType {
    pub id: String,
    pub name: String,
    /// `None` for the base game.
    pub expansion: Option<Expansion>,
    pub count: u8,
    pub start_copies: u8,
    pub edges: [EdgeKind; 4],
    pub features: Vec<Feature>,
    pub symbols: u8,
    pub not_in_draw_pile: bool,
    pub start_with_river: bool,
    pub river_last: bool,
    pub uncertain: bool,
    /// Per rotation: packed edge kinds, 3 bits per board side (N at bit 0).
    pub signature: [u16; 4],
    /// Per rotation and board side: index of the road/river/city feature there, or `NONE`.
    pub edge_feature: [[u8; 4]; 4],
    /// Per rotation and board half: index of the field there, or `NONE`.
    pub half_feature: [[u8; 8]; 4],
    /// Index of the centre feature (monastery, garden, lake), or `NONE`.
    pub center_feature: u8,
}

pub const NONE: u8 = u8::MAX;

impl TileType {
    /// Whether the tile belongs to a stack drawn before the shuffled pile (the River's:
    /// shuffled apart with its last tile at its bottom, and never reshuffled into the
    /// pile).
    pub fn in_first_stack(&self) -> bool {
        self.expansion == Some(Expansion::River)
    }

    /// Edge kind at board side `d` when placed with rotation `r`.
    pub fn edge_at(&self, r: Rotation, d: Dir) -> EdgeKind {
        self.edges[d.unrotate(r).index()]
    }

    /// The feature a spot names on this tile placed with rotation `r`.
    pub fn feature_at(&self, r: Rotation, spot: Spot) -> Option<usize> {
        let i = match spot {
            Spot::Edge(d) => self.edge_feature[r.index()][d.index()],
            Spot::Half(h) => self.half_feature[r.index()][h.index()],
            Spot::Center => self.center_feature,
            Spot::Feature(i) => {
                if (i as usize) < self.features.len() {
                    i
                } else {
                    NONE
                }
            }
            // the field at the corner, when both halves there belong to it
            Spot::Corner(c) => {
                let [a, b] = crate::geometry::corner_halves(c);
                let fa = self.half_feature[r.index()][a.index()];
                if fa == self.half_feature[r.index()][b.index()] {
                    fa
                } else {
                    NONE
                }
            }
        };
        (i != NONE).then_some(i as usize)
    }

    /// Parses a spot name given by a client: a compass spot or a catalog feature id.
    pub fn parse_spot(&self, s: &str) -> Option<Spot> {
        Spot::parse_compass(s).or_else(|| {
            self.features
                .iter()
                .position(|f| f.id == s)
                .map(|i| Spot::Feature(i as u8))
        })
    }

    /// The canonical spot of feature `i` in board orientation: its first side (roads,
    /// cities, rivers), its first half (fields), `C` (centre features), or its catalog id
    /// when it has no compass spot.
    pub fn canonical_spot(&self, r: Rotation, i: usize) -> Spot {
        let f = &self.features[i];
        if f.edges != 0 {
            for d in Dir::ALL {
                if self.edge_feature[r.index()][d.index()] as usize == i {
                    return Spot::Edge(d);
                }
            }
        }
        if f.halves != 0 {
            for h in Half::ALL {
                if self.half_feature[r.index()][h.index()] as usize == i {
                    return Spot::Half(h);
                }
            }
        }
        if self.center_feature as usize == i {
            return Spot::Center;
        }
        Spot::Feature(i as u8)
    }

    /// Spot name for output: the compass name or the catalog feature id.
    pub fn spot_name(&self, spot: Spot) -> String {
        match spot.compass_name() {
            Some(n) => n.to_string(),
            None => match spot {
                Spot::Feature(i) => self
                    .features
                    .get(i as usize)
                    .map(|f| f.id.clone())
                    .unwrap_or_default(),
                _ => String::new(),
            },
        }
    }
}

/// Why the catalog could not be loaded.
#[derive(Debug, Error)]
pub enum CatalogError {
    #[error("catalog is not valid TOML: {0}")]
    Parse(String),
    #[error("catalog tile {tile}: {problem}")]
    Tile { tile: String, problem: String },
}

/// All tile types.
#[derive(Debug)]
pub struct Catalog {
    pub tiles: Vec<TileType>,
    by_id: HashMap<String, TileTypeId>,
}

impl Catalog {
    pub fn get(&self, id: TileTypeId) -> &TileType {
        &self.tiles[id.0 as usize]
    }

    pub fn id(&self, name: &str) -> Option<TileTypeId> {
        self.by_id.get(name).copied()
    }

    pub fn iter(&self) -> impl Iterator<Item = (TileTypeId, &TileType)> {
        self.tiles
            .iter()
            .enumerate()
            .map(|(i, t)| (TileTypeId(i as u16), t))
    }

    /// The base start tile type (`base/D`).
    pub fn start_tile(&self) -> TileTypeId {
        self.iter()
            .find(|(_, t)| t.start_copies > 0)
            .map(|(i, _)| i)
            .unwrap_or(TileTypeId(0))
    }

    /// The start tile of a game with `set`: the base start tile, unless an expansion in
    /// play brings its own (the River's spring).
    pub fn start_tile_for(&self, set: crate::expansion::ExpansionSet) -> TileTypeId {
        self.iter()
            .find(|(_, t)| t.start_with_river && t.expansion.is_some_and(|e| set.contains(e)))
            .map_or_else(|| self.start_tile(), |(i, _)| i)
    }

    /// Parses and validates a catalog.
    pub fn parse(src: &str) -> Result<Catalog, CatalogError> {
        let raw: RawCatalog =
            toml::from_str(src).map_err(|e| CatalogError::Parse(e.to_string()))?;
        let mut tiles = Vec::with_capacity(raw.tile.len());
        let mut by_id = HashMap::new();
        for t in raw.tile {
            let tt = build_tile(t)?;
            if by_id
                .insert(tt.id.clone(), TileTypeId(tiles.len() as u16))
                .is_some()
            {
                return Err(CatalogError::Tile {
                    tile: tt.id,
                    problem: "duplicate id".into(),
                });
            }
            tiles.push(tt);
        }
        Ok(Catalog { tiles, by_id })
    }
}

static CATALOG: OnceLock<Result<Catalog, String>> = OnceLock::new();

/// Loads the embedded catalog (once); call at start-up to surface a broken build early.
pub fn try_catalog() -> Result<&'static Catalog, &'static str> {
    CATALOG
        .get_or_init(|| Catalog::parse(CATALOG_TOML).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| e.as_str())
}

/// The embedded catalog. Its validity is checked by the crate's tests; a failure here
/// means the binary was built from a broken data file.
pub fn catalog() -> &'static Catalog {
    match try_catalog() {
        Ok(c) => c,
        Err(e) => panic!("embedded tile catalog is invalid: {e}"),
    }
}

#[derive(Deserialize)]
struct RawCatalog {
    tile: Vec<RawTile>,
}

#[derive(Deserialize)]
struct RawEdges {
    #[serde(rename = "N")]
    n: String,
    #[serde(rename = "E")]
    e: String,
    #[serde(rename = "S")]
    s: String,
    #[serde(rename = "W")]
    w: String,
}

#[derive(Deserialize)]
struct RawTile {
    id: String,
    expansion: String,
    count: u8,
    #[serde(default)]
    start_copies: u8,
    name: String,
    edges: RawEdges,
    #[serde(default)]
    symbols: Vec<String>,
    features: Vec<RawFeature>,
    #[serde(default)]
    not_in_draw_pile: bool,
    #[serde(default)]
    start_with_river: bool,
    #[serde(default)]
    river_last: bool,
    #[serde(default)]
    uncertain: bool,
}

#[derive(Deserialize)]
struct RawFeature {
    id: String,
    kind: String,
    #[serde(default)]
    edges: Vec<String>,
    #[serde(default)]
    halves: Vec<String>,
    #[serde(default)]
    borders: Vec<String>,
    #[serde(default)]
    pennants: u8,
    #[serde(default)]
    cathedral: bool,
    #[serde(default)]
    inn: bool,
    #[serde(default)]
    goods: Option<String>,
    #[serde(default)]
    inner: bool,
    #[serde(default)]
    abbey: bool,
    #[serde(default)]
    passes_under_city: bool,
    #[serde(default)]
    direction: Option<String>,
    #[serde(default)]
    symbol: Option<String>,
    #[serde(default)]
    affects: Option<String>,
}

fn build_tile(t: RawTile) -> Result<TileType, CatalogError> {
    let err = |p: String| CatalogError::Tile {
        tile: t.id.clone(),
        problem: p,
    };
    let expansion = if t.expansion == "base" {
        None
    } else {
        Some(
            Expansion::from_id(&t.expansion)
                .ok_or_else(|| err(format!("unknown expansion {}", t.expansion)))?,
        )
    };
    let mut edges = [EdgeKind::Field; 4];
    for (i, s) in [&t.edges.n, &t.edges.e, &t.edges.s, &t.edges.w]
        .into_iter()
        .enumerate()
    {
        edges[i] = EdgeKind::parse(s).ok_or_else(|| err(format!("bad edge type {s}")))?;
    }
    let mut symbols = 0u8;
    for s in &t.symbols {
        symbols |= match s.as_str() {
            "gold" => symbol::GOLD,
            "magic" => symbol::MAGIC,
            "robber" => symbol::ROBBER,
            _ => return Err(err(format!("unknown symbol {s}"))),
        };
    }
    if t.features.len() > 32 {
        return Err(err("too many features".into()));
    }
    let mut features = Vec::with_capacity(t.features.len());
    for f in &t.features {
        let kind =
            FeatureKind::parse(&f.kind).ok_or_else(|| err(format!("bad kind {}", f.kind)))?;
        let mut e = 0u8;
        for s in &f.edges {
            let d: Dir = s.parse().map_err(|_| err(format!("bad edge {s}")))?;
            e |= 1 << d.index();
        }
        let mut h = 0u8;
        for s in &f.halves {
            let hh: Half = s.parse().map_err(|_| err(format!("bad half {s}")))?;
            h |= 1 << hh.index();
        }
        let goods = match f.goods.as_deref() {
            None => None,
            Some("wine") => Some(Goods::Wine),
            Some("grain") => Some(Goods::Grain),
            Some("cloth") => Some(Goods::Cloth),
            Some(g) => return Err(err(format!("bad goods {g}"))),
        };
        let direction = match f.direction.as_deref() {
            None => None,
            Some(d) => Some(
                ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
                    .iter()
                    .position(|x| *x == d)
                    .ok_or_else(|| err(format!("bad direction {d}")))? as u8,
            ),
        };
        let crop_affects = match f.affects.as_deref() {
            None => None,
            Some(a) => Some(FeatureKind::parse(a).ok_or_else(|| err(format!("bad affects {a}")))?),
        };
        features.push(Feature {
            id: f.id.clone(),
            kind,
            edges: e,
            halves: h,
            pennants: f.pennants,
            cathedral: f.cathedral,
            inn: f.inn,
            goods,
            borders: 0,
            inner: f.inner,
            abbey: f.abbey,
            passes_under_city: f.passes_under_city,
            direction,
            crop_symbol: f.symbol.clone(),
            crop_affects,
        });
    }
    // borders name city features of the same tile
    for (i, f) in t.features.iter().enumerate() {
        let mut b = 0u32;
        for id in &f.borders {
            let j = features
                .iter()
                .position(|g| &g.id == id && g.kind == FeatureKind::City)
                .ok_or_else(|| err(format!("field {} borders unknown city {id}", f.id)))?;
            b |= 1 << j;
        }
        features[i].borders = b;
        if features[i].kind == FeatureKind::Field && features[i].halves == 0 && !f.inner {
            return Err(err(format!(
                "field {} touches no side but is not inner",
                f.id
            )));
        }
    }
    if t.features
        .iter()
        .map(|f| &f.id)
        .collect::<std::collections::HashSet<_>>()
        .len()
        != t.features.len()
    {
        return Err(err("duplicate feature ids".into()));
    }

    // every side / half belongs to exactly one feature of the right kind
    let mut edge_owner = [NONE; 4];
    let mut half_owner = [NONE; 8];
    for (i, f) in features.iter().enumerate() {
        for d in Dir::ALL {
            if f.edges & (1 << d.index()) != 0 {
                if edge_owner[d.index()] != NONE {
                    return Err(err(format!("side {} in two features", d.name())));
                }
                let want = match f.kind {
                    FeatureKind::Road => EdgeKind::Road,
                    FeatureKind::City => EdgeKind::City,
                    FeatureKind::River => EdgeKind::River,
                    _ => {
                        return Err(err(format!(
                            "feature {} of kind {} has sides",
                            f.id,
                            f.kind.name()
                        )))
                    }
                };
                if edges[d.index()] != want {
                    return Err(err(format!(
                        "feature {} on side {} of other terrain",
                        f.id,
                        d.name()
                    )));
                }
                edge_owner[d.index()] = i as u8;
            }
        }
        for h in Half::ALL {
            if f.halves & (1 << h.index()) != 0 {
                if f.kind != FeatureKind::Field {
                    return Err(err(format!("non-field {} holds a half", f.id)));
                }
                if half_owner[h.index()] != NONE {
                    return Err(err(format!("half {} in two fields", h.name())));
                }
                half_owner[h.index()] = i as u8;
            }
        }
    }
    for d in Dir::ALL {
        let k = edges[d.index()];
        let needs_centre = matches!(k, EdgeKind::Road | EdgeKind::City | EdgeKind::River);
        if needs_centre != (edge_owner[d.index()] != NONE) {
            return Err(err(format!(
                "side {} has no feature of its terrain",
                d.name()
            )));
        }
        let needs_halves = matches!(k, EdgeKind::Road | EdgeKind::Field | EdgeKind::River);
        for h in d.halves() {
            if needs_halves != (half_owner[h.index()] != NONE) {
                return Err(err(format!(
                    "half {} ownership does not fit side terrain",
                    h.name()
                )));
            }
        }
    }
    let center_feature = features
        .iter()
        .position(|f| {
            matches!(
                f.kind,
                FeatureKind::Monastery | FeatureKind::Garden | FeatureKind::Lake
            )
        })
        .map(|i| i as u8)
        .unwrap_or(NONE);

    let mut signature = [0u16; 4];
    let mut edge_feature = [[NONE; 4]; 4];
    let mut half_feature = [[NONE; 8]; 4];
    for r in Rotation::ALL {
        for d in Dir::ALL {
            let board = d.rotate(r);
            signature[r.index()] |= (edges[d.index()] as u16) << (3 * board.index());
            edge_feature[r.index()][board.index()] = edge_owner[d.index()];
        }
        for h in Half::ALL {
            half_feature[r.index()][h.rotate(r).index()] = half_owner[h.index()];
        }
    }

    Ok(TileType {
        id: t.id,
        name: t.name,
        expansion,
        count: t.count,
        start_copies: t.start_copies,
        edges,
        features,
        symbols,
        not_in_draw_pile: t.not_in_draw_pile,
        start_with_river: t.start_with_river,
        river_last: t.river_last,
        uncertain: t.uncertain,
        signature,
        edge_feature,
        half_feature,
        center_feature,
    })
}
