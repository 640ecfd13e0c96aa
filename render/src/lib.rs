//! # tilepost-render
//!
//! Pictures of tilepost games: game state in, bytes out. Pure: no files, no network, no
//! clock, no fonts; the same input gives the same bytes.
//!
//! * [`tile_svg`] draws one tile type of the catalog in a rotation;
//! * [`board_svg`] draws a game's board with its figures, the players' bar, the last
//!   turn's tiles highlighted and, optionally, the numbered legal placements of the drawn
//!   tile;
//! * [`figures_svg`] draws every figure shape in every player colour (a key);
//! * [`to_png`] rasterises any of these SVG documents in-process (resvg, pure Rust);
//! * [`board_png`] makes the board's PNG faster, from cached pictures of the tiles.
//!
//! Every tile is drawn from the catalog geometry (cities with walls and pennants,
//! roads, rivers, fields parted by hedges where no road parts them, monasteries,
//! gardens, lakes, inns, cathedrals, goods, tile symbols, flying machines, crop circles,
//! abbeys), never from bitmaps, so every expansion's tiles have pictures.
//!
//! ## Colours
//!
//! Player colours are the Okabe-Ito palette, which stays distinguishable for the common
//! forms of colour blindness: seat 1 orange `#E69F00`, seat 2 sky blue `#56B4E9`, seat 3
//! bluish green `#009E73`, seat 4 yellow `#F0E442`, seat 5 blue `#0072B2`, seat 6
//! vermillion `#D55E00`. Colour is never the only cue: every figure has a dark outline, a
//! white halo against the tile, and its seat number written on it; each figure kind has
//! its own silhouette (follower, big follower, abbot with a hood, mayor with a hat, wagon,
//! builder with a hammer, pig, barn, and the neutral mage, witch, ferry and gold ingot).
//!
//! ## Hidden information
//!
//! The board picture reads only public state: placed tiles, figures, scores, whose turn
//! it is, the drawn tile and its legal placements. It never reads the draw pile, not even
//! the number of tiles left.
//!
//! ```
//! use tilepost_engine::{Game, GameConfig};
//! use tilepost_render::{board_svg, to_png, BoardOptions};
//! let (game, _) = Game::new(&GameConfig { players: 2, seed: 7, ..Default::default() }).unwrap();
//! let svg = board_svg(&game, &BoardOptions { ghosts: true, ..Default::default() });
//! assert!(svg.starts_with("<svg"));
//! let png = to_png(&svg).unwrap();
//! assert_eq!(&png[1..4], b"PNG");
//! ```

mod art;
mod board;
mod figures;
mod geom;
mod glyphs;
mod layout;
pub mod palette;
mod svg;

use std::fmt::Write;

use resvg::{tiny_skia, usvg};
use thiserror::Error;
use tilepost_engine::catalog::catalog;
use tilepost_engine::{FigureKind, Game, Rotation, TileTypeId};

pub use board::{board_size, BoardOptions};

/// Pixels per tile side of the board pictures the server serves when asked for no size
/// (`GET …/board.png`), and so of the ones its emails show.
pub const SERVED_TILE_PX: u32 = 56;
pub use figures::Shape;

/// Why a picture could not be made.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RenderError {
    #[error("the SVG document cannot be read: {0}")]
    Svg(String),
    #[error("the picture would be {width}x{height} pixels, more than allowed")]
    TooLarge { width: u32, height: u32 },
    #[error("the PNG could not be encoded: {0}")]
    Png(String),
}

/// Largest picture [`to_png`] makes, in pixels (width times height).
pub const MAX_PIXELS: u64 = 64 * 1024 * 1024;

/// One tile type in rotation `rotation`, as an SVG document `size_px` pixels square.
/// An unknown id gives a blank tile.
pub fn tile_svg(tile: TileTypeId, rotation: Rotation, size_px: u32) -> String {
    let mut s = String::with_capacity(12 * 1024);
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size_px}\" height=\"{size_px}\" viewBox=\"0 0 100 100\">"
    );
    let title = catalog()
        .tiles
        .get(tile.0 as usize)
        .map(|t| format!("{} ({})", t.id, t.name))
        .unwrap_or_default();
    let _ = write!(s, "<title>{}</title>", svg::esc(&title));
    s.push_str("<defs>");
    s.push_str(&art::defs());
    s.push_str("</defs>");
    if (tile.0 as usize) < catalog().tiles.len() {
        s.push_str(&art::tile_art(tile, rotation.quarters()));
    } else {
        let _ = write!(
            s,
            "<rect width=\"100\" height=\"100\" fill=\"{}\"/>",
            palette::BOARD_BG
        );
    }
    s.push_str("</svg>");
    s
}

/// The board of `game`, as an SVG document. See [`BoardOptions`].
pub fn board_svg(game: &Game, opts: &BoardOptions) -> String {
    board::board_svg(game, opts)
}

/// A key to the figures: every shape, in every player colour with its seat number.
pub fn figures_svg(size_px: u32) -> String {
    let kinds = Shape::ALL;
    let players = palette::PLAYERS.len();
    let w = 40.0 + players as f64 * 40.0;
    let h = 20.0 + kinds.len() as f64 * 40.0;
    let k = size_px as f64 / w;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\"><title>tilepost figures</title><rect width=\"{}\" height=\"{}\" fill=\"{}\"/>",
        size_px,
        (h * k).round() as u32,
        svg::num(w),
        svg::num(h),
        svg::num(w),
        svg::num(h),
        palette::GRASS
    );
    for (row, shape) in kinds.iter().enumerate() {
        let y = 30.0 + row as f64 * 40.0;
        let neutral = matches!(
            shape,
            Shape::Mage | Shape::Witch | Shape::Ferry | Shape::Gold
        );
        for seat in 0..players {
            let x = 40.0 + seat as f64 * 40.0;
            if neutral {
                if seat == 0 {
                    let fill = match shape {
                        Shape::Mage => palette::MAGIC,
                        Shape::Witch => "#4D4D4D",
                        Shape::Ferry => "#A8743F",
                        _ => palette::GOLD,
                    };
                    s.push_str(&figures::figure(*shape, x, y, 1.2, fill, None));
                }
                continue;
            }
            let seat = seat as u8;
            s.push_str(&figures::figure(
                *shape,
                x,
                y,
                1.2,
                palette::player(seat),
                Some((seat as i64 + 1, palette::player_ink(seat))),
            ));
        }
    }
    s.push_str("</svg>");
    s
}

/// The shape drawn for a figure kind.
pub fn figure_shape(kind: FigureKind) -> Shape {
    board::shape_of(kind)
}

/// The board of `game` as PNG bytes: the same picture as rasterising [`board_svg`], made
/// faster by drawing each tile from a cached image of its type and rotation (the cache
/// holds pictures of the catalog only, so the output stays a function of the input).
pub fn board_png(game: &Game, opts: &BoardOptions) -> Result<Vec<u8>, RenderError> {
    let layers = board::board_layers(game, opts);
    let mut pixmap = rasterise(&layers.under, None)?;
    let size = opts.tile_px.max(8);
    for (x, y, tile, rotation) in &layers.tiles {
        let img = cached_tile(*tile, *rotation, size)?;
        pixmap.draw_pixmap(
            x.round() as i32,
            y.round() as i32,
            img.as_ref().as_ref(),
            &tiny_skia::PixmapPaint::default(),
            tiny_skia::Transform::identity(),
            None,
        );
    }
    let pixmap = rasterise(&layers.over, Some(pixmap))?;
    encode_png(&pixmap)
}

type TileKey = (u16, u8, u32);

/// A tile type's picture at `size` pixels, rasterised once per process.
fn cached_tile(
    tile: TileTypeId,
    rotation: Rotation,
    size: u32,
) -> Result<std::sync::Arc<tiny_skia::Pixmap>, RenderError> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<TileKey, Arc<tiny_skia::Pixmap>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let key = (tile.0, rotation.quarters(), size);
    if let Ok(c) = cache.lock() {
        if let Some(p) = c.get(&key) {
            return Ok(p.clone());
        }
    }
    let img = Arc::new(rasterise(&tile_svg(tile, rotation, size), None)?);
    if let Ok(mut c) = cache.lock() {
        // bounded: a few sizes of every tile type in every rotation
        if c.len() > 8 * 1024 {
            c.clear();
        }
        c.insert(key, img.clone());
    }
    Ok(img)
}

fn svg_options() -> usvg::Options<'static> {
    usvg::Options {
        resources_dir: None,
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    }
}

/// Draws an SVG document onto `onto` (or a new transparent pixmap of its size).
fn rasterise(svg: &str, onto: Option<tiny_skia::Pixmap>) -> Result<tiny_skia::Pixmap, RenderError> {
    let tree =
        usvg::Tree::from_str(svg, &svg_options()).map_err(|e| RenderError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (w, h) = (size.width(), size.height());
    if w as u64 * h as u64 > MAX_PIXELS {
        return Err(RenderError::TooLarge {
            width: w,
            height: h,
        });
    }
    let mut pixmap = match onto {
        Some(p) => p,
        None => tiny_skia::Pixmap::new(w, h).ok_or(RenderError::TooLarge {
            width: w,
            height: h,
        })?,
    };
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// Rasterises an SVG document to PNG bytes at the document's own pixel size, in-process.
/// External files and images referenced by the document are not loaded.
pub fn to_png(svg: &str) -> Result<Vec<u8>, RenderError> {
    encode_png(&rasterise(svg, None)?)
}

/// PNG bytes of a pixmap: straight (not premultiplied) RGBA, fast compression (most of
/// a board is flat colour, which compresses well anyway).
fn encode_png(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, RenderError> {
    let mut rgba = Vec::with_capacity(pixmap.data().len());
    for px in pixmap.pixels() {
        let c = px.demultiply();
        rgba.extend_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
    }
    let mut out = Vec::with_capacity(rgba.len() / 4);
    {
        let mut enc = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        enc.set_filter(png::FilterType::Sub);
        let mut w = enc
            .write_header()
            .map_err(|e| RenderError::Png(e.to_string()))?;
        w.write_image_data(&rgba)
            .map_err(|e| RenderError::Png(e.to_string()))?;
        w.finish().map_err(|e| RenderError::Png(e.to_string()))?;
    }
    Ok(out)
}

/// Checks that the drawing of every tile type parts its fields exactly as the catalog
/// does (used by the tests; returns the first mismatch).
#[doc(hidden)]
pub fn check_tile_fields(tile: TileTypeId) -> Result<(), String> {
    layout::check_fields(tile)
}
