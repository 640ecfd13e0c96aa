//! Times the pictures of a finished base game (72 tiles) and of a game with every
//! implemented expansion: SVG, and PNG at several tile sizes (medians).
//!
//! `cargo run --release -p tilepost-render --example bench` (`EXPERIMENT=1` adds the
//! same pictures without the roof and paving patterns, and where the PNG time goes).

use std::time::Instant;

use tilepost_engine::rng::Rng;
use tilepost_engine::{Expansion, Game, GameConfig};
use tilepost_render::{board_png, board_svg, to_png, BoardOptions};

fn play(expansions: Vec<Expansion>, seed: u64) -> Game {
    let config = GameConfig {
        players: 3,
        expansions,
        tile_order: None,
        seed,
        rules: Default::default(),
    };
    let Ok((mut game, _)) = Game::new(&config) else {
        eprintln!("set-up failed");
        std::process::exit(1);
    };
    let mut rng = Rng::new(seed);
    while let Some(p) = game.pending() {
        let options = game.legal_actions();
        let a = options[rng.below(options.len() as u64) as usize].clone();
        if game.play(p.player, &a).is_err() {
            eprintln!("a listed action was refused");
            std::process::exit(1);
        }
    }
    game
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Median and best time in ms (the best is the least disturbed by other processes).
fn time(runs: usize, mut f: impl FnMut()) -> (f64, f64) {
    f();
    let v: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    let best = v.iter().copied().fold(f64::INFINITY, f64::min);
    (median(v), best)
}

fn main() {
    let all: Vec<Expansion> = Expansion::ALL
        .into_iter()
        .filter(|e| e.is_implemented())
        .collect();
    for (name, game) in [
        ("base", play(Vec::new(), 3)),
        ("every expansion", play(all, 3)),
    ] {
        let tiles = game.board().len();
        let last: Vec<_> = game
            .board()
            .tiles()
            .last()
            .map(|t| t.pos)
            .into_iter()
            .collect();
        for px in [96, 64, 56, 48] {
            let opts = BoardOptions {
                tile_px: px,
                highlight: last.clone(),
                ..Default::default()
            };
            let svg = board_svg(&game, &opts);
            let svg_ms = time(50, || {
                std::hint::black_box(board_svg(&game, &opts));
            });
            let png_ms = time(15, || {
                std::hint::black_box(to_png(&svg).ok());
            });
            let png = to_png(&svg).map(|p| p.len()).unwrap_or(0);
            let cold = Instant::now();
            let _ = board_png(&game, &opts);
            let cold = cold.elapsed().as_secs_f64() * 1000.0;
            let cached = time(15, || {
                std::hint::black_box(board_png(&game, &opts).ok());
            });
            let cached_line = format!(
                "  board_png with tile images cached: {:.1} ms (best {:.1}; first call {cold:.1} ms)",
                cached.0, cached.1
            );
            if std::env::var("EXPERIMENT").is_ok() {
                let plain = svg
                    .replace("url(#roofs)", "#B05A3A")
                    .replace("url(#paving)", "#B05A3A");
                let ms = time(15, || {
                    std::hint::black_box(to_png(&plain).ok());
                });
                println!("  without patterns: PNG {:.1} ms (best {:.1})", ms.0, ms.1);
                breakdown(&svg);
            }
            println!(
                "{name}: {tiles} tiles, {px} px/tile: SVG {:.2} ms (best {:.2}, {} kB), PNG {:.1} ms (best {:.1}, {} kB)",
                svg_ms.0,
                svg_ms.1,
                svg.len() / 1024,
                png_ms.0,
                png_ms.1,
                png / 1024
            );
            println!("{cached_line}");
        }
    }
}

/// Where the PNG time goes: parsing the SVG into a tree, rasterising, encoding.
fn breakdown(svg: &str) {
    use resvg::{tiny_skia, usvg};
    let opt = usvg::Options::default();
    let t = Instant::now();
    let Ok(tree) = usvg::Tree::from_str(svg, &opt) else {
        return;
    };
    let parse = t.elapsed().as_secs_f64() * 1000.0;
    let size = tree.size().to_int_size();
    let Some(mut pixmap) = tiny_skia::Pixmap::new(size.width(), size.height()) else {
        return;
    };
    let t = Instant::now();
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    let render = t.elapsed().as_secs_f64() * 1000.0;
    let t = Instant::now();
    let _ = to_png(svg);
    let encode = t.elapsed().as_secs_f64() * 1000.0;
    println!("  parse {parse:.1} ms, rasterise {render:.1} ms, all {encode:.1} ms");
}
