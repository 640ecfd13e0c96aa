//! The analysis at the start of a game, the costliest position (every tile still to
//! come): with every expansion, and in a base game. Prints the time of each.
//! `cargo run --release -p tilepost-engine --example analysis_worst`

use std::time::Instant;

use tilepost_engine::analysis::{analyze, AnalysisOptions};
use tilepost_engine::{Expansion, Phase};

#[path = "support/random_game.rs"]
mod support;
use support::random_game_with;

fn main() {
    let every: Vec<Expansion> = Expansion::ALL
        .into_iter()
        .filter(|e| e.is_implemented())
        .collect();
    for (name, expansions, placed) in [
        ("base, start", Vec::new(), 1),
        ("base, mid-game", Vec::new(), 35),
        ("every expansion, start", every.clone(), 1),
        ("every expansion, 6 tiles", every.clone(), 6),
        ("every expansion, 14 tiles", every.clone(), 14),
        ("every expansion, mid-game", every, 100),
    ] {
        let (game, _) = random_game_with(5, 2, expansions, |g| {
            g.board().len() >= placed && g.phase() == Phase::PlaceTile
        });
        let view = game.seat_view(game.current_player());
        let started = Instant::now();
        let a = analyze(&view, &AnalysisOptions::default());
        println!(
            "{name}: {} tiles to come, {} features, {} futures: {:.0} ms",
            a.tiles.left,
            a.features.len(),
            a.chances.futures,
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
}
