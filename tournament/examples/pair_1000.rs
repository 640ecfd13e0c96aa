//! Times the pairing of a 1,000-player Swiss round (2-player tables), after earlier
//! rounds with random results so that score groups and earlier meetings count.
//!
//! `cargo run --release -p tilepost-tournament --example pair_1000`
//!
//! Target: ≤ 1 s per round in release.

use std::time::Instant;

use tilepost_tournament::rng::Rng;
use tilepost_tournament::*;

fn main() -> Result<(), Error> {
    let players = 1000;
    let rounds = 6;
    let config = Config::single(StageConfig {
        format: Format::Swiss { rounds },
        best_of: 1,
        table_size: 2,
        entry: Entry::Registered,
    });
    let mut state = Tournament::replay(&[Event::TournamentCreated { config }])?;
    for i in 0..players {
        state.apply(&Event::PlayerRegistered {
            player: format!("p{i:04}"),
            rating: None,
        })?;
    }
    let mut rng = Rng::new(1);
    let mut worst = 0.0f64;
    for round in 1..=rounds {
        let t = Instant::now();
        let pairing = state.next_pairing(rng.next_u64())?;
        let secs = t.elapsed().as_secs_f64();
        worst = worst.max(secs);
        println!(
            "round {round}: {} tables paired in {:.3} s",
            pairing.tables.len(),
            secs
        );
        state.apply(&pairing.into_event())?;
        for g in state.pending_games() {
            let a = 40 + rng.below(80) as i64;
            let b = 40 + rng.below(80) as i64;
            state.apply(&Event::ResultRecorded {
                stage: g.stage,
                round: g.round,
                table: g.table,
                game: g.game,
                result: GameResult {
                    scores: vec![a, b],
                    decision: None,
                },
            })?;
        }
    }
    println!("worst round: {worst:.3} s for {players} players");
    Ok(())
}
