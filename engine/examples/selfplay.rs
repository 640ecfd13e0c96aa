//! Plays uniformly random legal games and prints games per second and mean scores.
//!
//! `cargo run --release -p tilepost-engine --example selfplay -- --games N --seed S --players P`

use std::time::Instant;

use tilepost_engine::rng::Rng;
use tilepost_engine::{Expansion, Game, GameConfig};

fn main() {
    let mut games = 1000u64;
    let mut seed = 1u64;
    let mut players = 2u8;
    let mut expansions: Vec<Expansion> = Vec::new();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--games" => games = v.parse().unwrap_or_else(|_| usage("--games")),
            "--seed" => seed = v.parse().unwrap_or_else(|_| usage("--seed")),
            "--players" => players = v.parse().unwrap_or_else(|_| usage("--players")),
            "--expansions" => {
                expansions = v
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(|s| Expansion::from_id(s).unwrap_or_else(|| usage("--expansions")))
                    .collect()
            }
            "-h" | "--help" => usage(""),
            other => usage(other),
        }
        i += 2;
    }
    let mut rng = Rng::new(seed);
    let mut totals = vec![0i64; players as usize];
    let mut tiles = 0u64;
    let mut actions = 0u64;
    let start = Instant::now();
    for g in 0..games {
        let config = GameConfig {
            players,
            expansions: expansions.clone(),
            tile_order: None,
            seed: seed.wrapping_mul(1_000_003).wrapping_add(g),
            rules: Default::default(),
        };
        let (mut game, _) = match Game::new(&config) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("cannot set up a game: {e}");
                std::process::exit(2);
            }
        };
        while let Some(p) = game.pending() {
            let options = game.legal_actions();
            let a = &options[rng.below(options.len() as u64) as usize];
            if let Err(e) = game.play(p.player, a) {
                eprintln!("listed action refused: {e}");
                std::process::exit(1);
            }
            actions += 1;
        }
        tiles += game.board().len() as u64;
        for (t, p) in totals.iter_mut().zip(game.players()) {
            *t += p.score as i64;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {players} players, expansions [{}]: {:.0} games/s ({:.1} µs/game), {:.1} actions and {:.1} tiles per game",
        expansions.iter().map(|e| e.id()).collect::<Vec<_>>().join(","),
        games as f64 / secs,
        secs * 1e6 / games as f64,
        actions as f64 / games as f64,
        tiles as f64 / games as f64
    );
    for (i, t) in totals.iter().enumerate() {
        println!("player {i}: mean score {:.1}", *t as f64 / games as f64);
    }
}

fn usage(bad: &str) -> ! {
    if !bad.is_empty() {
        eprintln!("bad argument: {bad}");
    }
    eprintln!("usage: selfplay [--games N] [--seed S] [--players P] [--expansions a,b]");
    std::process::exit(2)
}
