//! The analysis of a position from a seat's view (criterion): a mid-game position of a
//! 2-player game with Inns & Cathedrals and Traders & Builders, at the default sample
//! budget, and its parts.
//!
//! `cargo bench -p tilepost-engine --bench analysis -- --warm-up-time 1 --measurement-time 5`
//!
//! Target (release, 2 cores): the whole analysis p95 ≤ 50 ms, on the two threads the
//! server gives it (`examples/analysis_latency.rs` measures that). Here on one thread, at
//! the default 12,000 samples: about 6.5 µs per future on a quiet machine (≈ 78 ms); with
//! one future ≈ 0.16 ms.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use tilepost_engine::analysis::{analyze, AnalysisOptions};
use tilepost_engine::{Expansion, Game, Phase};

#[path = "../examples/support/random_game.rs"]
mod support;
use support::random_game_with;

/// A 2-player game with Inns & Cathedrals and Traders & Builders, about half of its
/// tiles placed, a tile drawn.
fn mid_game() -> Game {
    let expansions = vec![Expansion::InnsCathedrals, Expansion::TradersBuilders];
    let (game, _) = random_game_with(5, 2, expansions, |g| {
        g.board().len() >= 55 && g.phase() == Phase::PlaceTile
    });
    assert!(game.tiles_left() > 40, "{} tiles left", game.tiles_left());
    game
}

fn analysis(c: &mut Criterion) {
    let game = mid_game();
    let view = game.seat_view(game.current_player());
    let a = analyze(&view, &AnalysisOptions::default());
    eprintln!(
        "mid-game: {} tiles on the board, {} to come, {} open features, {} fields",
        game.board().len(),
        a.tiles.left,
        a.features.len(),
        a.fields.len()
    );
    c.bench_function(
        "analysis of a mid-game position (2 players, I&C, T&B)",
        |b| b.iter(|| analyze(black_box(&view), &AnalysisOptions::default())),
    );
    let few = AnalysisOptions {
        samples: 1,
        seed: Some(1),
    };
    c.bench_function("analysis without the samples (one future)", |b| {
        b.iter(|| analyze(black_box(&view), &few))
    });
}

criterion_group!(benches, analysis);
criterion_main!(benches);
