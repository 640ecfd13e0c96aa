//! The random games of the benchmarks (`benches/engine.rs`) and of the replay profile
//! (`examples/replay_profile.rs`): random legal actions from a seed, so both measure the
//! same games.

use tilepost_engine::rng::Rng;
use tilepost_engine::{Event, Expansion, Game, GameConfig};

/// Plays random legal actions until `stop` says so (or the game ends); returns the game
/// and its log.
pub fn random_game_with(
    seed: u64,
    players: u8,
    expansions: Vec<Expansion>,
    stop: impl Fn(&Game) -> bool,
) -> (Game, Vec<Event>) {
    let (mut game, created) = Game::new(&GameConfig {
        players,
        seed,
        expansions,
        ..Default::default()
    })
    .expect("set-up");
    let mut log = vec![created];
    let mut rng = Rng::new(seed ^ 0xb0a7d);
    while let Some(p) = game.pending() {
        if stop(&game) {
            break;
        }
        let actions = game.legal_actions();
        let a = &actions[rng.below(actions.len() as u64) as usize];
        log.push(game.play(p.player, a).expect("listed").event);
    }
    (game, log)
}
