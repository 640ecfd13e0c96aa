//! Engine benchmarks (criterion): legal placements on a nearly full board, placements with
//! spots, replay of a complete game, and a whole random game.
//!
//! `cargo bench -p tilepost-engine -- --warm-up-time 1 --measurement-time 3`
//!
//! Targets (release, 2 cores): placements_into ≤ 3 µs, placements ≤ 20 µs, replay of a
//! 2-player base game ≤ 50 µs, a random game ≤ 1 ms; replay of a 5-player game with the
//! four big expansions ≤ 150 µs, of a 6-player game with every expansion ≤ 300 µs.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use tilepost_engine::{Event, Expansion, Game, Phase, Pos, Rotation};

#[path = "../examples/support/random_game.rs"]
mod support;
use support::random_game_with;

/// Plays random legal actions until `stop` says so; returns the game and its log.
fn random_game(seed: u64, players: u8, stop: impl Fn(&Game) -> bool) -> (Game, Vec<Event>) {
    random_game_with(seed, players, Vec::new(), stop)
}

/// A base game with 70 tiles on the board and the next tile drawn.
fn late_position() -> Game {
    let (game, _) = random_game(11, 2, |g| {
        g.board().len() >= 70 && g.phase() == Phase::PlaceTile
    });
    assert_eq!(game.board().len(), 70);
    game
}

fn placements(c: &mut Criterion) {
    let game = late_position();
    let mut out: Vec<(Pos, Rotation)> = Vec::with_capacity(128);
    game.placements_into(&mut out);
    assert!(!out.is_empty());
    c.bench_function("placements_into (70 tiles on the board)", |b| {
        b.iter(|| {
            out.clear();
            black_box(&game).placements_into(&mut out);
            black_box(out.len())
        })
    });
    c.bench_function("placements with spots (70 tiles on the board)", |b| {
        b.iter(|| black_box(&game).placements())
    });
}

fn replay(c: &mut Criterion) {
    let (game, log) = random_game(3, 2, |_| false);
    assert!(game.is_over());
    c.bench_function("replay of a complete 2-player base game", |b| {
        b.iter(|| Game::replay(black_box(&log)).expect("replays"))
    });
}

fn replay_with_expansions(c: &mut Criterion) {
    use Expansion::*;
    let four = vec![River, Abbot, InnsCathedrals, TradersBuilders];
    let (game, log) = random_game_with(3, 5, four, |_| false);
    assert!(game.is_over());
    c.bench_function(
        "replay of a complete 5-player game with River, Abbot, I&C, T&B",
        |b| b.iter(|| Game::replay(black_box(&log)).expect("replays")),
    );
    let (game, log) = random_game_with(3, 6, Expansion::ALL.to_vec(), |_| false);
    assert!(game.is_over());
    assert!(game.board().len() >= 180, "{} tiles", game.board().len());
    c.bench_function(
        "replay of a complete 6-player game with every expansion",
        |b| b.iter(|| Game::replay(black_box(&log)).expect("replays")),
    );
}

fn whole_game(c: &mut Criterion) {
    let mut seed = 0u64;
    c.bench_function("random complete 2-player base game", |b| {
        b.iter(|| {
            seed += 1;
            let (g, _) = random_game(seed, 2, |_| false);
            black_box(g.players()[0].score)
        })
    });
}

criterion_group!(
    benches,
    placements,
    replay,
    replay_with_expansions,
    whole_game
);
criterion_main!(benches);
