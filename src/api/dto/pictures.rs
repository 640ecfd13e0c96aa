//! Pictures of boards and tiles, and the tile catalog.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// Which board picture.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct BoardQuery {
    /// Draw the game as it was after its first `version` events (default: now). 1 is
    /// the start of the game.
    #[param(minimum = 1)]
    pub version: Option<i64>,
    /// Show the legal placements of the drawn tile as numbered ghosts, in the order of
    /// `GET /v1/games/{id}/placements` (default false).
    pub placements: Option<bool>,
    /// Pixels per tile side, 16 to 128 (default 56).
    #[param(minimum = 16, maximum = 128)]
    pub tile_px: Option<u32>,
}

/// Which tile picture.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TileQuery {
    /// Clockwise rotation in degrees: 0, 90, 180 or 270 (default 0).
    #[param(minimum = 0, maximum = 270, multiple_of = 90)]
    pub rotation: Option<i64>,
    /// Side of the picture in pixels, 16 to 1024 (default 200).
    #[param(minimum = 16, maximum = 1024)]
    pub size: Option<u32>,
}

/// Links to the pictures of a tile type.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TileLinks {
    /// The tile's picture (`/v1/tiles/{set}/{name}.svg`); add `?rotation=` and `?size=`.
    pub svg: String,
}

/// One tile type of the catalog.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TileInfo {
    /// Catalog id, `set/name` (`base/D`), as used in games and moves.
    pub id: String,
    pub name: String,
    /// The expansion's id, or `base`.
    pub expansion: String,
    /// Copies in the box (the start tile included).
    pub count: u32,
    /// Terrain of the sides in the catalog orientation, N, E, S, W (`field`, `road`,
    /// `city`, `river`, `abbey`).
    pub edges: Vec<String>,
    pub description: TileDescription,
    pub links: TileLinks,
}

/// What a player calls a tile type, as message keys derived from its features: a main
/// shape (`city-cap`) and the extras that go with it (`road-straight`, `shield`). A
/// client words them in its language (the web client's catalogs hold them as
/// `tile.<key>`) and reads them as "main with extra, extra and extra": "a city cap with
/// a straight road".
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TileDescription {
    /// The main shape (`city-cap`, `monastery`, `river-bend`, `field`, ...).
    pub main: String,
    /// What else the tile holds, in reading order (`road-straight`, `shield`, `inn`).
    pub extras: Vec<String>,
}

/// The tile catalog.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TileCatalog {
    /// Every tile type, in catalog order (a fixed list of about 150: not paginated).
    pub tiles: Vec<TileInfo>,
}
