//! Bots under the house rule `tiles_in_hand`: every level plays whole games with 2 and 3
//! tiles in hand, picking listed options, and decides the same whatever the other
//! players hold (its input, the seat's view, is the same for a game whose other hands
//! were dealt anew from the tiles the seat has not seen).

use tilepost_bots::{Budget, Level};
use tilepost_engine::rng::Rng;
use tilepost_engine::{Expansion, Game, GameConfig, HouseRules};

fn budget() -> Budget {
    Budget {
        playouts: 20,
        time: None,
    }
}

#[test]
fn every_level_plays_with_tiles_in_hand_and_ignores_the_other_hands() {
    for (i, hand) in ["2", "3"].into_iter().enumerate() {
        let mut rules = HouseRules::default();
        rules.set("tiles_in_hand", hand).expect("a hand size");
        let expansions = if i == 0 {
            Vec::new()
        } else {
            vec![Expansion::InnsCathedrals, Expansion::TradersBuilders]
        };
        let config = GameConfig {
            players: 4,
            expansions,
            tile_order: None,
            seed: 11 + i as u64,
            rules,
        };
        let (mut game, _) = Game::new(&config).expect("set-up");
        let levels = [Level::Random, Level::Greedy, Level::Mcts, Level::Expert];
        let mut bots: Vec<_> = levels
            .iter()
            .enumerate()
            .map(|(s, l)| l.bot(100 + s as u64, budget()))
            .collect();
        let mut rng = Rng::new(5);
        let mut checked = 0;
        while let Some(p) = game.pending() {
            let view = game.seat_view(p.player);
            if rng.below(15) == 0 {
                // another deal of the hands the seat cannot see: the same input, the same
                // decision
                let sample = view.determinize(&mut rng);
                assert_eq!(sample.seat_view(p.player), view);
                let mut twin = levels[p.player as usize].bot(100 + p.player as u64, budget());
                let mut again = levels[p.player as usize].bot(100 + p.player as u64, budget());
                assert_eq!(
                    twin.decide(&sample.seat_view(p.player)),
                    again.decide(&view)
                );
                checked += 1;
            }
            let action = bots[p.player as usize]
                .decide(&view)
                .expect("the seat's decision");
            assert!(game.legal_actions().contains(&action), "{action:?}");
            game.play(p.player, &action).expect("a listed action");
        }
        assert!(game.is_over());
        assert!(game.hand_sizes().iter().all(|n| *n == 0));
        assert!(checked > 0);
    }
}
