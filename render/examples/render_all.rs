//! Writes a picture of every tile type, a sheet of all tiles, the figure key and a random
//! finished game (with the expansions the engine implements) to a folder, to look at.
//!
//! `cargo run --release -p tilepost-render --example render_all -- [OUT_DIR] [SEED]`
//! (default `render-out`, seed 1).

use std::fs;
use std::path::Path;
use std::time::Instant;

use tilepost_engine::catalog::catalog;
use tilepost_engine::rng::Rng;
use tilepost_engine::{Expansion, Game, GameConfig, Pos, Rotation};
use tilepost_render::{board_svg, figures_svg, tile_svg, to_png, BoardOptions};

fn write(dir: &Path, name: &str, svg: &str) {
    if let Err(e) = fs::write(dir.join(format!("{name}.svg")), svg) {
        eprintln!("cannot write {name}.svg: {e}");
        std::process::exit(1);
    }
    match to_png(svg) {
        Ok(png) => {
            if let Err(e) = fs::write(dir.join(format!("{name}.png")), png) {
                eprintln!("cannot write {name}.png: {e}");
                std::process::exit(1);
            }
        }
        Err(e) => {
            eprintln!("cannot rasterise {name}: {e}");
            std::process::exit(1);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = args.first().cloned().unwrap_or_else(|| "render-out".into());
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let dir = Path::new(&out);
    let tiles_dir = dir.join("tiles");
    if let Err(e) = fs::create_dir_all(&tiles_dir) {
        eprintln!("cannot create {}: {e}", tiles_dir.display());
        std::process::exit(1);
    }

    // every tile type (the first pass also lays out every tile type)
    let t0 = Instant::now();
    let all: usize = catalog()
        .iter()
        .map(|(id, _)| tile_svg(id, Rotation::R0, 200).len())
        .sum();
    println!(
        "{} tile types drawn in {:.1} ms ({all} bytes of SVG)",
        catalog().tiles.len(),
        t0.elapsed().as_secs_f64() * 1000.0
    );
    for (id, t) in catalog().iter() {
        let name = t.id.replace('/', "_");
        write(&tiles_dir, &name, &tile_svg(id, Rotation::R0, 200));
    }

    // all tiles on one sheet, in catalog order, 12 a row
    let n = catalog().tiles.len();
    let per_row = 12;
    let rows = n.div_ceil(per_row);
    let mut sheet = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\"><rect width=\"100%\" height=\"100%\" fill=\"#EDE6D6\"/>",
        per_row * 110,
        rows * 110,
        per_row * 110,
        rows * 110
    );
    for (i, (id, _)) in catalog().iter().enumerate() {
        let svg = tile_svg(id, Rotation::R0, 100);
        let inner = svg
            .split_once('>')
            .map(|(_, rest)| rest.trim_end_matches("</svg>"))
            .unwrap_or("")
            .replace("id=\"roofs\"", &format!("id=\"roofs{i}\""))
            .replace("url(#roofs)", &format!("url(#roofs{i})"))
            .replace("id=\"paving\"", &format!("id=\"paving{i}\""))
            .replace("url(#paving)", &format!("url(#paving{i})"));
        sheet.push_str(&format!(
            "<svg x=\"{}\" y=\"{}\" width=\"100\" height=\"100\" viewBox=\"0 0 100 100\">{inner}</svg>",
            (i % per_row) * 110 + 5,
            (i / per_row) * 110 + 5
        ));
    }
    sheet.push_str("</svg>");
    write(dir, "sheet", &sheet);
    write(dir, "figures", &figures_svg(480));

    // a base game half-way, with the numbered placements of the drawn tile
    let base = midway_base_game(seed);
    let opts = BoardOptions {
        highlight: base
            .board()
            .tiles()
            .last()
            .map(|t| t.pos)
            .into_iter()
            .collect(),
        ..midway_options()
    };
    write(dir, "base-midway", &board_svg(&base, &opts));
    match tilepost_render::board_png(&base, &opts) {
        Ok(png) => {
            if let Err(e) = fs::write(dir.join("base-midway-cached.png"), png) {
                eprintln!("cannot write base-midway-cached.png: {e}");
                std::process::exit(1);
            }
        }
        Err(e) => {
            eprintln!("cannot rasterise the base game: {e}");
            std::process::exit(1);
        }
    }

    // a random finished game with every implemented expansion
    let expansions: Vec<Expansion> = Expansion::ALL
        .into_iter()
        .filter(|e| e.is_implemented())
        .collect();
    let config = GameConfig {
        players: 4,
        expansions,
        tile_order: None,
        seed,
        rules: Default::default(),
    };
    let (mut game, _) = match Game::new(&config) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("cannot set up a game: {e}");
            std::process::exit(1);
        }
    };
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut last_turn: Vec<Pos> = Vec::new();
    let mut mid_written = false;
    while let Some(p) = game.pending() {
        if !mid_written
            && game.board().len() >= 40
            && game.phase() == tilepost_engine::Phase::PlaceTile
        {
            let opts = BoardOptions {
                ghosts: true,
                highlight: last_turn.clone(),
                tile_px: 56,
                ..Default::default()
            };
            write(dir, "game-running", &board_svg(&game, &opts));
            mid_written = true;
        }
        let options = game.legal_actions();
        // prefer placing figures now and then so that the picture shows some
        let a = &options[rng.below(options.len() as u64) as usize];
        if let tilepost_engine::Action::PlaceTile { x, y, .. } = a {
            if game.current_player() != p.player || last_turn.len() > 1 {
                last_turn.clear();
            }
            last_turn = vec![Pos::new(*x, *y)];
        }
        if let Err(e) = game.play(p.player, a) {
            eprintln!("listed action refused: {e}");
            std::process::exit(1);
        }
    }
    let opts = BoardOptions {
        highlight: last_turn,
        tile_px: 56,
        ..Default::default()
    };
    let t0 = Instant::now();
    let svg = board_svg(&game, &opts);
    let t_svg = t0.elapsed();
    let t1 = Instant::now();
    let png = to_png(&svg);
    let t_png = t1.elapsed();
    write(dir, "game-finished", &svg);
    println!(
        "finished game: {} tiles, SVG {} bytes in {:.1} ms, PNG {} bytes in {:.1} ms",
        game.board().len(),
        svg.len(),
        t_svg.as_secs_f64() * 1000.0,
        png.map(|p| p.len()).unwrap_or(0),
        t_png.as_secs_f64() * 1000.0
    );
    println!("wrote {}", dir.display());
}

fn midway_options() -> BoardOptions {
    BoardOptions {
        ghosts: true,
        tile_px: 64,
        ..Default::default()
    }
}

/// A base game of three players after 36 tiles, playing random legal moves that place a
/// figure whenever one may.
fn midway_base_game(seed: u64) -> Game {
    let config = GameConfig {
        players: 3,
        expansions: Vec::new(),
        tile_order: None,
        seed,
        rules: Default::default(),
    };
    let (mut game, _) = match Game::new(&config) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("cannot set up a game: {e}");
            std::process::exit(1);
        }
    };
    let mut rng = Rng::new(seed ^ 0xba5e);
    while let Some(p) = game.pending() {
        if game.board().len() >= 37 && game.phase() == tilepost_engine::Phase::PlaceTile {
            break;
        }
        let options = game.legal_actions();
        let figures: Vec<_> = options
            .iter()
            .filter(|a| matches!(a, tilepost_engine::Action::PlaceFigure { .. }))
            .collect();
        let a = if !figures.is_empty() && rng.below(3) > 0 {
            figures[rng.below(figures.len() as u64) as usize].clone()
        } else {
            options[rng.below(options.len() as u64) as usize].clone()
        };
        if let Err(e) = game.play(p.player, &a) {
            eprintln!("listed action refused: {e}");
            std::process::exit(1);
        }
    }
    game
}
