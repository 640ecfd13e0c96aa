//! Replays one of the benchmark's complete games `N` times (for profiling the replay, e.g.
//! under `valgrind --tool=callgrind`): `all` (6 players, every expansion, the default),
//! `four` (5 players, River, Abbot, I&C, T&B) or `base` (2 players).
//!
//! `cargo run --release -p tilepost-engine --example replay_profile -- 100 all`

use std::hint::black_box;
use std::time::Instant;

use tilepost_engine::{Event, Expansion, Game};

#[path = "support/random_game.rs"]
mod support;
use support::random_game_with;

/// A complete game of `benches/engine.rs` (seed 3).
fn game_log(seed: u64, players: u8, expansions: Vec<Expansion>) -> Vec<Event> {
    random_game_with(seed, players, expansions, |_| false).1
}

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    use Expansion::*;
    let log = match std::env::args().nth(2).as_deref() {
        Some("base") => game_log(3, 2, Vec::new()),
        Some("four") => game_log(3, 5, vec![River, Abbot, InnsCathedrals, TradersBuilders]),
        _ => game_log(3, 6, Expansion::ALL.to_vec()),
    };
    let start = Instant::now();
    for _ in 0..n {
        black_box(Game::replay(black_box(&log)).expect("replays"));
    }
    let el = start.elapsed();
    println!(
        "{} events, {n} replays, {:.1} µs per replay",
        log.len(),
        el.as_secs_f64() * 1e6 / n.max(1) as f64
    );
}
