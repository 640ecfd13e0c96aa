//! Runs the analysis of the benchmark's mid-game position (`benches/analysis.rs`) a number
//! of times, for profilers and instruction counts that do not depend on the machine's load:
//! `cargo run --release -p tilepost-engine --example analysis_profile -- 20`

use tilepost_engine::analysis::{analyze, AnalysisOptions};
use tilepost_engine::{Expansion, Phase};

#[path = "support/random_game.rs"]
mod support;
use support::random_game_with;

fn main() {
    let runs: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let expansions = vec![Expansion::InnsCathedrals, Expansion::TradersBuilders];
    let (game, _) = random_game_with(5, 2, expansions, |g| {
        g.board().len() >= 55 && g.phase() == Phase::PlaceTile
    });
    let view = game.seat_view(game.current_player());
    let mut total = 0.0;
    for _ in 0..runs {
        let a = analyze(&view, &AnalysisOptions::default());
        total += a.features.iter().map(|f| f.chance).sum::<f64>();
    }
    println!("{runs} analyses, sum of chances {total:.3}");
}
