//! The picture of a board: every placed tile, the figures on their spots, the players'
//! bar, the last turn's tiles highlighted and, on request, the legal placements of the
//! drawn tile as numbered ghosts.
//!
//! Only public state is read: the board's tiles and figures, the players' scores, the
//! pending decision (whose turn, the drawn tile) and the legal placements of the drawn
//! tile. Nothing here looks at the draw pile.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use tilepost_engine::expansions::minis::MagicFigure;
use tilepost_engine::{FigureKind, Game, Phase, Pos, Rotation, Spot, TileTypeId};

use crate::art;
use crate::figures::{figure, Shape};
use crate::geom::{p, P};
use crate::glyphs::number;
use crate::layout::layout;
use crate::palette as c;
use crate::svg::num;

/// How to draw a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardOptions {
    /// Pixels per tile side.
    pub tile_px: u32,
    /// Cells to highlight (the tiles placed in the last turn).
    pub highlight: Vec<Pos>,
    /// Show the legal placements of the drawn tile as ghosts numbered in the order of
    /// [`Game::placements`] (1 = the first placement listed).
    pub ghosts: bool,
    /// Show the players' bar (colours, seat numbers, scores, whose turn, drawn tile).
    pub legend: bool,
    /// Label the columns and rows with board coordinates.
    pub coordinates: bool,
}

impl Default for BoardOptions {
    fn default() -> Self {
        BoardOptions {
            tile_px: 96,
            highlight: Vec::new(),
            ghosts: false,
            legend: true,
            coordinates: true,
        }
    }
}

/// Figure scale on the board (1 = a follower 20 units high on a 100-unit tile).
const FIG: f64 = 1.0;

pub fn shape_of(k: FigureKind) -> Shape {
    match k {
        FigureKind::Follower => Shape::Follower,
        FigureKind::BigFollower => Shape::BigFollower,
        FigureKind::Abbot => Shape::Abbot,
        FigureKind::Mayor => Shape::Mayor,
        FigureKind::Wagon => Shape::Wagon,
        FigureKind::Builder => Shape::Builder,
        FigureKind::Pig => Shape::Pig,
        FigureKind::Barn => Shape::Barn,
    }
}

/// Offset of corner `c` (0 = NE, 1 = SE, 2 = SW, 3 = NW) from a tile's top-left corner.
fn corner_offset(c: u8) -> (f64, f64) {
    match c & 3 {
        0 => (100.0, 0.0),
        1 => (100.0, 100.0),
        2 => (0.0, 100.0),
        _ => (0.0, 0.0),
    }
}

fn def_id(t: TileTypeId, r: Rotation) -> String {
    format!("t{}r{}", t.0, r.quarters())
}

pub fn board_svg(game: &Game, opts: &BoardOptions) -> String {
    board_doc(game, opts, None)
}

/// A board picture in three layers, for rasterising with cached tile images: the SVG
/// below the tiles (background, players' bar, coordinates, shadows), the tiles (pixel
/// position of the top-left corner, tile type, rotation), and the SVG above them
/// (highlights, figures, pieces, ghosts) on a transparent background.
pub struct Layers {
    pub under: String,
    pub tiles: Vec<(f64, f64, TileTypeId, Rotation)>,
    pub over: String,
}

pub fn board_layers(game: &Game, opts: &BoardOptions) -> Layers {
    let mut layers = Layers {
        under: String::new(),
        tiles: Vec::new(),
        over: String::new(),
    };
    board_doc(game, opts, Some(&mut layers));
    layers
}

/// The board's extent: the cells it spans (with the ghosts of `placements`) and the
/// picture's size in units of 100 per tile side.
struct Extent {
    min_x: i32,
    max_x: i32,
    min_y: i32,
    max_y: i32,
    cols: f64,
    width: f64,
    height: f64,
    margin: f64,
    header: f64,
}

fn extent(game: &Game, opts: &BoardOptions, placements: &[tilepost_engine::Placement]) -> Extent {
    let mut cells: Vec<Pos> = game.board().tiles().iter().map(|t| t.pos).collect();
    cells.extend(placements.iter().map(|pl| pl.pos));
    if cells.is_empty() {
        cells.push(Pos::new(0, 0));
    }
    let min_x = cells.iter().map(|q| q.x).min().unwrap_or(0);
    let max_x = cells.iter().map(|q| q.x).max().unwrap_or(0);
    let min_y = cells.iter().map(|q| q.y).min().unwrap_or(0);
    let max_y = cells.iter().map(|q| q.y).max().unwrap_or(0);
    let cols = (max_x - min_x + 1) as f64;
    let rows = (max_y - min_y + 1) as f64;
    let margin = if opts.coordinates { 34.0 } else { 20.0 };
    let header = if opts.legend { 56.0 } else { 0.0 };
    let legend_w = game.players().len() as f64 * 150.0 + 190.0;
    let width = (cols * 100.0 + 2.0 * margin).max(if opts.legend { legend_w } else { 0.0 });
    let height = rows * 100.0 + 2.0 * margin + header;
    Extent {
        min_x,
        max_x,
        min_y,
        max_y,
        cols,
        width,
        height,
        margin,
        header,
    }
}

/// The size in pixels of [`board_svg`]'s and [`crate::board_png`]'s picture (without
/// ghosts): what an email states as the picture's width and height.
pub fn board_size(game: &Game, opts: &BoardOptions) -> (u32, u32) {
    let e = extent(game, opts, &[]);
    let px = opts.tile_px.max(8) as f64 / 100.0;
    (
        (e.width * px).round() as u32,
        (e.height * px).round() as u32,
    )
}

fn board_doc(game: &Game, opts: &BoardOptions, mut layers: Option<&mut Layers>) -> String {
    let board = game.board();
    let tiles = board.tiles();
    let pending = game.pending();
    let drawn = pending.and_then(|p| p.tile);
    // the drawn tile's placements (none with the house rule `tiles_in_hand`: the hand is
    // its player's alone, and a picture is public)
    let placements = if opts.ghosts && game.phase() == Phase::PlaceTile && drawn.is_some() {
        game.placements()
    } else {
        Vec::new()
    };

    let Extent {
        min_x,
        max_x,
        min_y,
        max_y,
        cols,
        width,
        height,
        margin,
        header,
        ..
    } = extent(game, opts, &placements);
    let left = (width - cols * 100.0) / 2.0;
    let top = header + margin;
    let origin = |q: Pos| -> P {
        p(
            left + (q.x - min_x) as f64 * 100.0,
            top + (max_y - q.y) as f64 * 100.0,
        )
    };
    let px = opts.tile_px.max(8) as f64 / 100.0;

    let mut s = String::with_capacity(64 * 1024 + tiles.len() * 512);
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">",
        (width * px).round() as u32,
        (height * px).round() as u32,
        num(width),
        num(height)
    );
    s.push_str("<title>tilepost board</title><defs>");
    s.push_str(&art::defs());
    // one definition per tile type and rotation in use
    let mut used: BTreeSet<(TileTypeId, Rotation)> = if layers.is_some() {
        BTreeSet::new()
    } else {
        tiles.iter().map(|t| (t.tile, t.rotation)).collect()
    };
    if let Some(t) = drawn {
        for pl in &placements {
            used.insert((t, pl.rotation));
        }
        if opts.legend {
            used.insert((t, Rotation::R0));
        }
    }
    for (t, r) in &used {
        let _ = write!(
            s,
            "<g id=\"{}\">{}</g>",
            def_id(*t, *r),
            art::tile_art(*t, r.quarters())
        );
    }
    s.push_str("</defs>");
    let defs_end = s.len();
    let _ = write!(
        s,
        "<rect width=\"{}\" height=\"{}\" fill=\"{}\"/>",
        num(width),
        num(height),
        c::BOARD_BG
    );

    // players' bar
    if opts.legend {
        legend(&mut s, game, drawn, width);
    }

    // coordinates
    if opts.coordinates {
        for x in min_x..=max_x {
            let o = origin(Pos::new(x, max_y));
            s.push_str(&number(
                x as i64,
                o.x + 50.0,
                top - 15.0,
                11.0,
                "#6B5E4B",
                None,
            ));
        }
        for y in min_y..=max_y {
            let o = origin(Pos::new(min_x, y));
            s.push_str(&number(
                y as i64,
                left - 17.0,
                o.y + 50.0,
                11.0,
                "#6B5E4B",
                None,
            ));
        }
    }

    // tiles, with a soft shadow
    for t in tiles {
        let o = origin(t.pos);
        let _ = write!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"100\" height=\"100\" rx=\"3\" fill=\"#000000\" fill-opacity=\"0.18\"/>",
            num(o.x + 2.0),
            num(o.y + 2.5)
        );
    }
    let split = s.len();
    for t in tiles {
        let o = origin(t.pos);
        if let Some(l) = layers.as_deref_mut() {
            l.tiles.push((o.x * px, o.y * px, t.tile, t.rotation));
            continue;
        }
        let _ = write!(
            s,
            "<use href=\"#{}\" xlink:href=\"#{}\" x=\"{}\" y=\"{}\"/>",
            def_id(t.tile, t.rotation),
            def_id(t.tile, t.rotation),
            num(o.x),
            num(o.y)
        );
    }

    // last turn's tiles
    let mut hl: Vec<Pos> = opts
        .highlight
        .iter()
        .copied()
        .filter(|q| board.is_occupied(*q))
        .collect();
    hl.sort();
    hl.dedup();
    for q in hl {
        let o = origin(q);
        let _ = write!(
            s,
            "<g data-last-turn=\"{},{}\"><rect x=\"{}\" y=\"{}\" width=\"94\" height=\"94\" rx=\"3\" fill=\"none\" stroke=\"{}\" stroke-width=\"7\"/><rect x=\"{}\" y=\"{}\" width=\"94\" height=\"94\" rx=\"3\" fill=\"none\" stroke=\"{}\" stroke-width=\"3.4\"/></g>",
            q.x, q.y,
            num(o.x + 3.0), num(o.y + 3.0), c::OUTLINE,
            num(o.x + 3.0), num(o.y + 3.0), c::HIGHLIGHT
        );
    }

    // figures: grouped by the segment they stand on, spread when several share one;
    // barns stand on the corner where four tiles meet
    let mut groups: BTreeMap<(usize, usize), Vec<(u8, FigureKind)>> = BTreeMap::new();
    for f in &board.figures {
        let ti = board.seg_tile(f.seg);
        let Some(t) = tiles.get(ti) else { continue };
        if let (_, Spot::Corner(corner)) = board.figure_spot(f) {
            let o = origin(t.pos);
            let (cx, cy) = corner_offset(corner);
            let _ = write!(
                s,
                "<g data-piece=\"barn\">{}</g>",
                figure(
                    Shape::Barn,
                    o.x + cx,
                    o.y + cy,
                    FIG,
                    c::player(f.owner),
                    Some((f.owner as i64 + 1, c::player_ink(f.owner))),
                )
            );
            continue;
        }
        let fi = board.seg_feature(f.seg);
        groups.entry((ti, fi)).or_default().push((f.owner, f.kind));
    }
    for ((ti, fi), figs) in &groups {
        let Some(t) = tiles.get(*ti) else { continue };
        let lay = layout(t.tile);
        let o = origin(t.pos);
        let a = art::anchor(lay, *fi, t.rotation.quarters());
        let n = figs.len() as f64;
        for (k, (owner, kind)) in figs.iter().enumerate() {
            let dx = (k as f64 - (n - 1.0) / 2.0) * 13.0;
            s.push_str(&figure(
                shape_of(*kind),
                o.x + a.x + dx,
                o.y + a.y,
                FIG,
                c::player(*owner),
                Some((*owner as i64 + 1, c::player_ink(*owner))),
            ));
        }
    }

    // the neutral pieces the game tracks: ferries, gold ingots, the mage and the witch
    for ferry in game.ferries() {
        let ti = ferry.tile as usize;
        let Some(t) = tiles.get(ti) else { continue };
        let jetties = game.jetties(ti);
        let side = |seg: u16| jetties.iter().find(|(_, j)| *j == seg).map(|(d, _)| *d);
        let (Some(d0), Some(d1)) = (side(ferry.a), side(ferry.b)) else {
            continue;
        };
        let o = origin(t.pos);
        let q = t.rotation.quarters();
        let lake = layout(t.tile)
            .centre
            .iter()
            .find(|ce| ce.kind == crate::layout::CentreKind::Lake)
            .map(|ce| ce.pos.rot(q))
            .unwrap_or(p(50.0, 50.0));
        let e0 = p(50.0, 0.0).rot(d0 as u8);
        let e1 = p(50.0, 0.0).rot(d1 as u8);
        let dir = e1.sub(e0);
        let angle = dir.y.atan2(dir.x).to_degrees();
        let _ = write!(
            s,
            "<g data-piece=\"ferry\"><path d=\"M{},{} L{},{} L{},{}\" fill=\"none\" stroke=\"#8C5A2B\" stroke-width=\"1.4\" stroke-dasharray=\"2.5 2\"/><g transform=\"rotate({} {} {})\">{}</g></g>",
            num(o.x + lake.x + (e0.x - lake.x) * 0.55), num(o.y + lake.y + (e0.y - lake.y) * 0.55),
            num(o.x + lake.x), num(o.y + lake.y),
            num(o.x + lake.x + (e1.x - lake.x) * 0.55), num(o.y + lake.y + (e1.y - lake.y) * 0.55),
            num(if angle.abs() > 90.0 { angle - 180.0 } else { angle }),
            num(o.x + lake.x), num(o.y + lake.y),
            figure(Shape::Ferry, o.x + lake.x, o.y + lake.y, 0.65, "#A8743F", None)
        );
    }
    for t in tiles {
        let count = game.ingots_at(t.pos);
        if count == 0 {
            continue;
        }
        let o = origin(t.pos);
        let _ = write!(
            s,
            "<g data-piece=\"gold\">{}</g>",
            figure(
                Shape::Gold,
                o.x + 82.0,
                o.y + 86.0,
                0.9,
                c::GOLD,
                Some((count as i64, c::OUTLINE)),
            )
        );
    }
    for (mf, shape, fill, name) in [
        (MagicFigure::Mage, Shape::Mage, c::MAGIC, "mage"),
        (MagicFigure::Witch, Shape::Witch, "#4D4D4D", "witch"),
    ] {
        let Some(seg) = game.magic_figure(mf) else {
            continue;
        };
        let ti = board.seg_tile(seg);
        let Some(t) = tiles.get(ti) else { continue };
        let o = origin(t.pos);
        let a = art::anchor(
            layout(t.tile),
            board.seg_feature(seg),
            t.rotation.quarters(),
        );
        let _ = write!(
            s,
            "<g data-piece=\"{name}\">{}</g>",
            figure(shape, o.x + a.x + 8.0, o.y + a.y - 4.0, FIG, fill, None)
        );
    }

    // ghosts of the legal placements of the drawn tile
    if let Some(t) = drawn {
        let mut by_cell: BTreeMap<Pos, Vec<(usize, Rotation)>> = BTreeMap::new();
        for (i, pl) in placements.iter().enumerate() {
            by_cell
                .entry(pl.pos)
                .or_default()
                .push((i + 1, pl.rotation));
        }
        for (pos, opts_here) in &by_cell {
            let o = origin(*pos);
            let _ = write!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"96\" height=\"96\" rx=\"3\" fill=\"#FFFFFF\" fill-opacity=\"0.45\" stroke=\"{}\" stroke-width=\"1.6\" stroke-dasharray=\"5 4\"/>",
                num(o.x + 2.0),
                num(o.y + 2.0),
                c::OUTLINE
            );
            let single = opts_here.len() == 1;
            for (k, (n, r)) in opts_here.iter().enumerate() {
                let (scale, gx, gy) = if single {
                    (0.8, o.x + 10.0, o.y + 10.0)
                } else {
                    (
                        0.44,
                        o.x + 5.0 + (k % 2) as f64 * 46.0,
                        o.y + 5.0 + (k / 2) as f64 * 46.0,
                    )
                };
                let _ = write!(
                    s,
                    "<use href=\"#{}\" xlink:href=\"#{}\" transform=\"translate({} {}) scale({})\" opacity=\"0.72\"/>",
                    def_id(t, *r),
                    def_id(t, *r),
                    num(gx),
                    num(gy),
                    num(scale)
                );
                let (bx, by) = (gx + 50.0 * scale, gy + 50.0 * scale);
                let br = if single { 13.0 } else { 10.0 };
                let _ = write!(
                    s,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#FFFFFF\" stroke=\"{}\" stroke-width=\"1.4\"/>",
                    num(bx),
                    num(by),
                    num(br),
                    c::OUTLINE
                );
                s.push_str(&number(
                    *n as i64,
                    bx,
                    by,
                    if single { 11.0 } else { 9.0 },
                    c::OUTLINE,
                    None,
                ));
            }
        }
    }
    s.push_str("</svg>");
    if let Some(l) = layers {
        l.under = format!("{}</svg>", &s[..split]);
        l.over = format!("{}{}", &s[..defs_end], &s[split..]);
    }
    s
}

fn legend(s: &mut String, game: &Game, drawn: Option<TileTypeId>, width: f64) {
    let _ = write!(
        s,
        "<rect x=\"0\" y=\"0\" width=\"{}\" height=\"56\" fill=\"#D9CCB0\"/><path d=\"M0,56 L{},56\" stroke=\"#A8977A\" stroke-width=\"1.5\"/>",
        num(width),
        num(width)
    );
    let current = game.pending().map(|p| p.player);
    let ranking = game.ranking();
    for (i, pl) in game.players().iter().enumerate() {
        let seat = i as u8;
        let x = 20.0 + i as f64 * 150.0;
        if current == Some(seat) {
            let _ = write!(
                s,
                "<rect x=\"{}\" y=\"6\" width=\"140\" height=\"44\" rx=\"8\" fill=\"#FFFFFF\" stroke=\"{}\" stroke-width=\"2\"/>",
                num(x - 6.0),
                c::OUTLINE
            );
        }
        s.push_str(&figure(
            Shape::Follower,
            x + 16.0,
            28.0,
            1.5,
            c::player(seat),
            Some((seat as i64 + 1, c::player_ink(seat))),
        ));
        if !pl.active {
            let _ = write!(
                s,
                "<path d=\"M{},14 L{},42\" stroke=\"{}\" stroke-width=\"3\"/>",
                num(x + 2.0),
                num(x + 30.0),
                c::OUTLINE
            );
        }
        s.push_str(&number(
            pl.score as i64,
            x + 72.0,
            28.0,
            20.0,
            c::OUTLINE,
            None,
        ));
        if ranking.iter().any(|r| r.player == seat && r.rank == 1) {
            // a crown for the winners
            let _ = write!(
                s,
                "<path d=\"M{},36 L{},20 L{},29 L{},16 L{},29 L{},20 L{},36 Z\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1.2\" stroke-linejoin=\"round\"/>",
                num(x + 108.0), num(x + 106.0), num(x + 114.0), num(x + 120.0),
                num(x + 126.0), num(x + 134.0), num(x + 132.0),
                c::GOLD, c::OUTLINE
            );
        }
    }
    // the drawn tile (public), upright
    if let Some(t) = drawn {
        let x = 20.0 + game.players().len() as f64 * 150.0 + 10.0;
        let _ = write!(
            s,
            "<use href=\"#{}\" xlink:href=\"#{}\" transform=\"translate({} 6) scale(0.44)\"/>",
            def_id(t, Rotation::R0),
            def_id(t, Rotation::R0),
            num(x)
        );
    }
}
