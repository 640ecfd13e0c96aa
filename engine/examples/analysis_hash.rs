//! A digest of the completion chances of the analysis over random positions (the base
//! game, Inns & Cathedrals with Traders & Builders, every expansion, with and without the
//! house rule `tiles_in_hand`; budgets 1, 37, 300 and 3,000, each cut in 1 and in 3
//! parts): a change to how the
//! futures are played must leave it unchanged.
//! `cargo run --release -p tilepost-engine --example analysis_hash`

use tilepost_engine::analysis::{analyze, analyze_split, AnalysisOptions, Job, Split};
use tilepost_engine::rng::Rng;
use tilepost_engine::{Expansion, Game, GameConfig, HouseRules};

fn position(seed: u64) -> Option<Game> {
    let mut rng = Rng::new(seed);
    let every: Vec<Expansion> = Expansion::ALL
        .into_iter()
        .filter(|e| e.is_implemented())
        .collect();
    let expansions = match seed % 3 {
        0 => Vec::new(),
        1 => vec![Expansion::InnsCathedrals, Expansion::TradersBuilders],
        _ => every,
    };
    let mut rules = HouseRules::default();
    if seed % 5 == 4 {
        rules.set("tiles_in_hand", "2").ok()?;
    }
    let (mut game, _) = Game::new(&GameConfig {
        players: 2 + (seed % 4) as u8 / 2,
        expansions,
        tile_order: None,
        seed,
        rules,
    })
    .ok()?;
    let stop = 1 + rng.below(90) as usize;
    while game.board().len() < stop {
        let p = game.pending()?;
        let options = game.legal_actions();
        let action = &options[rng.below(options.len() as u64) as usize];
        game.play(p.player, action).ok()?;
    }
    Some(game)
}

/// Three parts, the last run first.
struct Thirds;

impl Split for Thirds {
    fn ways(&self) -> usize {
        3
    }

    fn run<'a>(&self, jobs: Vec<Job<'a>>) {
        for job in jobs.into_iter().rev() {
            job();
        }
    }
}

fn main() {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut features = 0;
    let mut positions = 0;
    for seed in 0..64u64 {
        let Some(game) = position(seed) else {
            continue;
        };
        positions += 1;
        let seat = game.current_player();
        let view = game.seat_view(seat);
        for samples in [1, 37, 300, 3000] {
            let options = AnalysisOptions {
                samples,
                seed: None,
            };
            let a = analyze(&view, &options);
            assert_eq!(a, analyze_split(&view, &options, &Thirds), "cut in parts");
            for f in &a.features {
                features += 1;
                for b in f.chance.to_bits().to_le_bytes() {
                    h ^= b as u64;
                    h = h.wrapping_mul(0x0000_0100_0000_01b3);
                }
            }
            for b in a.chances.futures.to_le_bytes() {
                h ^= b as u64;
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    }
    println!("{positions} positions, {features} chances, digest {h:016x}");
}
