//! Pictures: the board of a game at any version (SVG, or PNG rasterised in-process),
//! a single tile type (SVG) and the tile catalog listing with links to the pictures.
//!
//! A board picture is made by replaying the first `version` events of the log and
//! drawing the public state with `tilepost-render`; it never reads the draw pile. The
//! replay and the drawing run inside `web::block` (CPU work off the actix worker). A
//! version of the history never changes, so the picture of an explicit `?version=N` is
//! cached for good; the ETag names the version and the variant.
//!
//! Tile ids contain a slash (`base/D`): a tile's picture is at
//! `/v1/tiles/{set}/{name}.svg`, where `{set}/{name}` is the tile id.

use actix_web::http::header;
use actix_web::{get, web, HttpRequest, HttpResponse};
use tilepost_engine::{catalog, Action, Event, Expansion, Game, Pos, Rotation};
use tilepost_render::{board_png, board_svg, tile_svg, BoardOptions};

use super::dto::*;
use super::error::{ApiError, ProblemCode};
use super::extract::{GameId, MaybeUser};
use super::load::load_data;
use super::views;
use super::AppState;

/// Pixels per tile side of a board picture when `tile_px` is not given.
pub const DEFAULT_TILE_PX: u32 = tilepost_render::SERVED_TILE_PX;
/// Pixels of a tile picture when `size` is not given.
pub const DEFAULT_TILE_SIZE: u32 = 200;
/// Changes when the drawing changes, so that cached pictures are not reused.
const STYLE: &str = "s1";

/// The `If-None-Match` header lists `tag` (or `*`).
fn not_modified(req: &HttpRequest, tag: &str) -> bool {
    req.headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|inm| {
            inm.split(',')
                .map(|t| t.trim().trim_start_matches("W/"))
                .any(|t| t == tag || t == "*")
        })
}

/// The cells where the most recent turn placed tiles: the trailing tile (or abbey)
/// placements of the last player who placed one, at most two (a Traders & Builders
/// double turn), and only one without that expansion.
pub fn last_turn_tiles(events: &[Event]) -> Vec<Pos> {
    let builders = events.iter().any(|e| {
        matches!(e, Event::GameCreated { expansions, .. }
            if expansions.iter().any(|x| x == Expansion::TradersBuilders.id()))
    });
    let max = if builders { 2 } else { 1 };
    let mut out = Vec::new();
    let mut who = None;
    for e in events.iter().rev() {
        let (player, x, y) = match e {
            Event::Decided {
                player,
                action: Action::PlaceTile { x, y, .. } | Action::PlaceAbbey { x, y },
                ..
            } => (*player, *x, *y),
            _ => continue,
        };
        if who.is_some_and(|w| w != player) {
            break;
        }
        who = Some(player);
        out.push(Pos::new(x, y));
        if out.len() == max {
            break;
        }
    }
    out
}

/// A picture's bytes with its headers.
fn picture(content_type: &str, tag: String, cache: &str, body: Vec<u8>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((header::ETAG, tag))
        .insert_header((header::CACHE_CONTROL, cache.to_string()))
        .body(body)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Svg,
    Png,
}

async fn board(
    st: web::Data<AppState>,
    req: HttpRequest,
    viewer: Option<&str>,
    id: GameId,
    q: BoardQuery,
    format: Format,
) -> Result<HttpResponse, ApiError> {
    if let Some(v) = q.version {
        if v < 1 {
            return Err(ApiError::validation("version", "must be at least 1"));
        }
    }
    let tile_px = q.tile_px.unwrap_or(DEFAULT_TILE_PX);
    if !(16..=128).contains(&tile_px) {
        return Err(ApiError::validation("tile_px", "16 to 128"));
    }
    let ghosts = q.placements.unwrap_or(false);
    let head = load_data(&st, &id, viewer, false).await?;
    if head.game.status == GameStatus::Open {
        return Err(ApiError::new(
            ProblemCode::GameNotStarted,
            "the game is waiting for players: there is no board yet",
        ));
    }
    let current = head.game.version;
    let version = q.version.unwrap_or(current);
    if version > current {
        return Err(version_not_found(version, current));
    }
    let tag = format!(
        "\"{version}-{tile_px}{}-{STYLE}\"",
        if ghosts { "-placements" } else { "" }
    );
    // an explicit version never changes; "now" must be revalidated
    // a private game's pictures are for its players alone: no shared cache keeps them
    let cache = match (q.version.is_some(), head.game.visibility) {
        (true, Visibility::Public) => "public, max-age=31536000, immutable",
        (false, Visibility::Public) => "public, no-cache",
        (true, Visibility::Private) => "private, max-age=31536000, immutable",
        (false, Visibility::Private) => "private, no-cache",
    };
    if not_modified(&req, &tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag))
            .insert_header((header::CACHE_CONTROL, cache))
            .finish());
    }
    // the log up to the picture's version, no further
    let rows = st.store.events_upto(head.game.id.clone(), version).await?;
    if usize::try_from(version).map_or(true, |n| n > rows.len()) {
        return Err(version_not_found(version, current));
    }
    let events = views::decode_events(&rows)?;
    let game_id = head.game.id.clone();
    let body = web::block(move || -> Result<Vec<u8>, String> {
        let game = Game::replay(&events).map_err(|e| format!("game {game_id}: {e}"))?;
        let opts = BoardOptions {
            tile_px,
            highlight: last_turn_tiles(&events),
            ghosts,
            ..Default::default()
        };
        match format {
            Format::Svg => Ok(board_svg(&game, &opts).into_bytes()),
            Format::Png => board_png(&game, &opts).map_err(|e| format!("game {game_id}: {e}")),
        }
    })
    .await
    .map_err(ApiError::internal)?
    .map_err(ApiError::internal)?;
    let content_type = match format {
        Format::Svg => "image/svg+xml",
        Format::Png => "image/png",
    };
    Ok(picture(content_type, tag, cache, body))
}

fn version_not_found(version: i64, current: i64) -> ApiError {
    ApiError::new(
        ProblemCode::VersionNotFound,
        format!("the game has no version {version}; its current version is {current}"),
    )
}

/// The board of a game as SVG.
///
/// The board as it was after the first `version` events (default: now), drawn from the
/// public state alone: the placed tiles, figures and neutral pieces, the players' bar
/// with scores and the drawn tile, the last turn's tiles highlighted; with
/// `placements=true`, the drawn tile's legal placements as numbered ghosts. Who may
/// read the game may see its board. A picture of an explicit version never changes and
/// may be cached for good; with `If-None-Match` an unchanged picture answers `304`.
#[utoipa::path(
    operation_id = "get_board_svg",
    tag = "pictures",
    params(
        ("id" = String, Path, description = "Game id"),
        BoardQuery,
        ("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier answer"),
    ),
    security((), ("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "The board: placed tiles, figures and neutral pieces, the players' bar with scores and the drawn tile, the last turn's tiles highlighted", body = String, content_type = "image/svg+xml",
            headers(("ETag" = String, description = "The version and variant of the picture"), ("Cache-Control" = String, description = "Immutable for an explicit version, revalidate otherwise"))),
        (status = 304, description = "Not modified since the given ETag"),
    )
)]
#[get("/games/{id}/board.svg")]
pub async fn get_board_svg(
    st: web::Data<AppState>,
    req: HttpRequest,
    viewer: Result<MaybeUser, ApiError>,
    id: GameId,
    q: web::Query<BoardQuery>,
) -> Result<HttpResponse, ApiError> {
    let viewer = super::load::signed_in(viewer);
    let viewer = viewer.as_ref().map(|u| u.id.as_str());
    board(st, req, viewer, id, q.into_inner(), Format::Svg).await
}

/// The board of a game as PNG.
///
/// The SVG picture of `GET /v1/games/{id}/board.svg` rasterised, with the same query,
/// caching and access rules.
#[utoipa::path(
    operation_id = "get_board_png",
    tag = "pictures",
    params(
        ("id" = String, Path, description = "Game id"),
        BoardQuery,
        ("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier answer"),
    ),
    security((), ("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "The board as a PNG image (the SVG picture rasterised)", body = String, content_type = "image/png",
            headers(("ETag" = String, description = "The version and variant of the picture"), ("Cache-Control" = String, description = "Immutable for an explicit version, revalidate otherwise"))),
        (status = 304, description = "Not modified since the given ETag"),
    )
)]
#[get("/games/{id}/board.png")]
pub async fn get_board_png(
    st: web::Data<AppState>,
    req: HttpRequest,
    viewer: Result<MaybeUser, ApiError>,
    id: GameId,
    q: web::Query<BoardQuery>,
) -> Result<HttpResponse, ApiError> {
    let viewer = super::load::signed_in(viewer);
    let viewer = viewer.as_ref().map(|u| u.id.as_str());
    board(st, req, viewer, id, q.into_inner(), Format::Png).await
}

/// Where the picture of tile type `id` is served.
pub fn tile_svg_path(id: &str) -> String {
    format!("/v1/tiles/{id}.svg")
}

/// The tile catalog.
///
/// Every tile type of the base game and the expansions: its id, name, expansion, count
/// in the game, its four sides and its description (message keys a client words in its
/// language), with a link to its picture. The catalog changes only
/// with the server's version.
#[utoipa::path(
    operation_id = "list_tiles",
    tag = "pictures",
    security(()),
    responses(
        (status = 200, description = "Every tile type of the catalog", body = TileCatalog),
    )
)]
#[get("/tiles")]
pub async fn list_tiles() -> HttpResponse {
    let tiles = catalog()
        .tiles
        .iter()
        .map(|t| TileInfo {
            id: t.id.clone(),
            name: t.name.clone(),
            expansion: t.expansion.map_or("base", |e| e.id()).to_string(),
            count: t.count as u32,
            edges: t.edges.iter().map(|e| e.name().to_string()).collect(),
            description: {
                let d = tilepost_engine::describe(t);
                TileDescription {
                    main: d.main.to_string(),
                    extras: d.extras.iter().map(|k| k.to_string()).collect(),
                }
            },
            links: TileLinks {
                svg: tile_svg_path(&t.id),
            },
        })
        .collect();
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .json(TileCatalog { tiles })
}

/// The picture of one tile type, as SVG.
///
/// The tile type `{set}/{name}` (a catalog id such as `base/D`) drawn from the
/// catalog's geometry, at `size` pixels and turned by `rotation`. It may be cached for
/// a day; with `If-None-Match` an unchanged picture answers `304`.
#[utoipa::path(
    operation_id = "get_tile_svg",
    tag = "pictures",
    params(
        ("set" = String, Path, description = "The part of the tile id before the slash (`base` in `base/D`)"),
        ("name" = String, Path, description = "The part of the tile id after the slash (`D` in `base/D`)"),
        TileQuery,
    ),
    security(()),
    responses(
        (status = 200, description = "The tile, drawn from the catalog geometry", body = String, content_type = "image/svg+xml",
            headers(("ETag" = String, description = "The tile, rotation, size and style"))),
        (status = 304, description = "Not modified since the given ETag"),
    )
)]
#[get("/tiles/{set}/{name}.svg")]
pub async fn get_tile_svg(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    q: web::Query<TileQuery>,
) -> Result<HttpResponse, ApiError> {
    let (set, name) = path.into_inner();
    let degrees = q.rotation.unwrap_or(0);
    let rotation = Rotation::from_degrees(degrees)
        .ok_or_else(|| ApiError::validation("rotation", "must be 0, 90, 180 or 270"))?;
    let size = q.size.unwrap_or(DEFAULT_TILE_SIZE);
    if !(16..=1024).contains(&size) {
        return Err(ApiError::validation("size", "16 to 1024"));
    }
    let id = format!("{set}/{name}");
    let tile = catalog()
        .id(&id)
        .ok_or_else(|| ApiError::new(ProblemCode::TileNotFound, "no tile type with this id"))?;
    let tag = format!("\"{}-{}-{size}-{STYLE}\"", tile.0, rotation.degrees());
    let cache = "public, max-age=86400";
    if not_modified(&req, &tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag))
            .insert_header((header::CACHE_CONTROL, cache))
            .finish());
    }
    Ok(picture(
        "image/svg+xml",
        tag,
        cache,
        tile_svg(tile, rotation, size).into_bytes(),
    ))
}

crate::api::problem::problems! {
    "get_board_svg" {
        400 => ("Invalid query (" [ValidationFailed] ")"),
        404 => ("No such game, or no such version yet (" [GameNotFound, VersionNotFound] ")"),
        409 => ("The game has not started (" [GameNotStarted] ")"),
    }
    "get_board_png" {
        400 => ("Invalid query (" [ValidationFailed] ")"),
        404 => ("No such game, or no such version yet (" [GameNotFound, VersionNotFound] ")"),
        409 => ("The game has not started (" [GameNotStarted] ")"),
    }
    "get_tile_svg" {
        400 => ("Invalid query (" [ValidationFailed] ")"),
        404 => ("No such tile type (" [TileNotFound] ")"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn created(expansions: &[&str]) -> Event {
        Event::GameCreated {
            seed: "1".into(),
            players: 2,
            expansions: expansions.iter().map(|s| s.to_string()).collect(),
            tile_order: None,
            rules: Default::default(),
        }
    }

    fn placed(player: u8, x: i32) -> Event {
        Event::Decided {
            player,
            action: Action::PlaceTile {
                x,
                y: 0,
                rotation: Rotation::R0,
                tile: Some("base/D".into()),
            },
            tile: Some("base/D".into()),
            declined: None,
        }
    }

    fn skipped(player: u8) -> Event {
        Event::Decided {
            player,
            action: Action::Pass,
            tile: None,
            declined: Some(tilepost_engine::Declined::Figure),
        }
    }

    #[test]
    fn the_last_turn_is_the_last_players_trailing_placements() {
        assert!(last_turn_tiles(&[created(&[])]).is_empty());
        let log = [
            created(&[]),
            placed(0, 1),
            skipped(0),
            placed(1, 2),
            skipped(1),
        ];
        assert_eq!(last_turn_tiles(&log), vec![Pos::new(2, 0)]);
        // mid-turn: the tile just placed
        assert_eq!(last_turn_tiles(&log[..2]), vec![Pos::new(1, 0)]);
        // a builder's double turn places two tiles
        let log = [
            created(&["traders_builders"]),
            placed(0, 1),
            placed(1, 2),
            placed(1, 3),
        ];
        assert_eq!(last_turn_tiles(&log), vec![Pos::new(3, 0), Pos::new(2, 0)]);
    }
}
