//! The time of the analysis of the benchmark's mid-game position (`benches/analysis.rs`),
//! its futures cut in parts run on threads as the server runs them (4 parts per thread):
//! for each budget, number of threads and of parts, the median and the 95th percentile of
//! `runs` analyses.
//! `cargo run --release -p tilepost-engine --example analysis_latency -- 100 3000,12000`

use std::sync::Mutex;
use std::time::Instant;

use tilepost_engine::analysis::{analyze_split, AnalysisOptions, Job, Split};
use tilepost_engine::{Expansion, Phase};

#[path = "support/random_game.rs"]
mod support;
use support::random_game_with;

/// `ways` parts taken in turn by `threads` threads, the first of them the caller's.
struct Threads {
    threads: usize,
    ways: usize,
}

impl Split for Threads {
    fn ways(&self) -> usize {
        self.ways
    }

    fn run<'a>(&self, jobs: Vec<Job<'a>>) {
        let n = jobs.len();
        let left = Mutex::new(jobs.into_iter());
        let work = || loop {
            let next = left.lock().ok().and_then(|mut l| l.next());
            let Some(job) = next else { break };
            job();
        };
        std::thread::scope(|s| {
            for _ in 1..self.threads.min(n) {
                s.spawn(work);
            }
            work();
        });
    }
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let budgets: Vec<u32> = std::env::args()
        .nth(2)
        .map(|s| s.split(',').filter_map(|b| b.parse().ok()).collect())
        .unwrap_or_else(|| vec![3000, 6000, 10_000]);
    let expansions = vec![Expansion::InnsCathedrals, Expansion::TradersBuilders];
    let (game, _) = random_game_with(5, 2, expansions, |g| {
        g.board().len() >= 55 && g.phase() == Phase::PlaceTile
    });
    let view = game.seat_view(game.current_player());
    for samples in budgets {
        for (threads, ways) in [(1, 1), (2, 2), (2, 8)] {
            let options = AnalysisOptions {
                samples,
                seed: None,
            };
            let mut ms: Vec<f64> = (0..runs)
                .map(|_| {
                    let t = Instant::now();
                    std::hint::black_box(analyze_split(
                        &view,
                        &options,
                        &Threads { threads, ways },
                    ));
                    t.elapsed().as_secs_f64() * 1000.0
                })
                .collect();
            ms.sort_by(f64::total_cmp);
            let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
            println!(
                "{samples:>6} futures, {threads} thread(s), {ways} parts: p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms",
                at(0.5),
                at(0.95),
                at(1.0)
            );
        }
    }
}
