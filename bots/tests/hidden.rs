//! A bot's input holds nothing its seat could not see.
//!
//! Twin games are built as in the engine's no-peeking properties: they agree on
//! everything seen so far (the same tiles drawn and discarded, the same die rolls, the
//! same messages) and differ in the hidden future (the rest of the pile in another order,
//! another die and message stream where a seed can be found that repeats the past). Their
//! seat views are equal, byte for byte in their debug form, and every level decides the
//! same for the same seed. Full games then check that every level picks listed options
//! with every expansion, and decides the same way twice from the same seed.

use tilepost_bots::expert::{ExpertBot, ExpertSettings};
use tilepost_bots::mcts::{MctsBot, Search, Settings};
use tilepost_bots::{Bot, Budget, Level};
use tilepost_engine::rng::Rng;
use tilepost_engine::{Expansion, Game, GameConfig};

#[path = "../../engine/tests/support/twins.rs"]
mod twins;
use twins::{config, first_twin, twin_future};

fn all_expansions() -> Vec<Expansion> {
    Expansion::ALL
        .into_iter()
        .filter(|e| e.is_implemented())
        .collect()
}

/// Two games with the same visible past and different hidden futures, at a decision.
fn twins(seed: u64, expansions: Vec<Expansion>, players: u8) -> Option<(Game, Game, bool)> {
    let mut rng = Rng::new(seed);
    let has_messages = expansions.contains(&Expansion::Messages);
    let (mut a, seed_a, _, mut seen) = first_twin(players, &expansions, &mut rng);
    let mut played = Vec::new();
    let stop = 10 + rng.below(80);
    for _ in 0..stop {
        let p = a.pending()?;
        let options = a.legal_actions();
        let action = options[rng.below(options.len() as u64) as usize].clone();
        let o = a.play(p.player, &action).expect("a listed action is legal");
        seen.note(&o.effects);
        played.push((p.player, action));
    }
    a.pending()?;
    let (order, seed_b) = twin_future(&a, &seen, seed, seed_a, has_messages, &mut rng);
    let (mut b, _) = Game::new(&config(players, &expansions, order, seed_b)).expect("twin set-up");
    for (player, action) in &played {
        b.play(*player, action)
            .expect("the twin accepts the same actions");
    }
    Some((a, b, seed_b != seed_a))
}

fn budget() -> Budget {
    Budget {
        playouts: 40,
        time: None,
    }
}

#[test]
fn twins_give_the_same_bot_input_and_the_same_decisions() {
    let mut checked = 0;
    let mut other_pile = 0;
    let mut other_seed = 0;
    for i in 0..40u64 {
        let seed = 0xb075_u64.wrapping_mul(1_000_003).wrapping_add(i);
        let expansions = if i % 4 == 0 {
            Vec::new()
        } else {
            all_expansions()
        };
        let players = 2 + (i % 3) as u8;
        let Some((a, b, reseeded)) = twins(seed, expansions, players) else {
            continue;
        };
        let Some(p) = a.pending() else { continue };
        let (va, vb) = (a.seat_view(p.player), b.seat_view(p.player));
        assert_eq!(va, vb, "twins {seed}: the views differ");
        assert_eq!(
            format!("{va:?}"),
            format!("{vb:?}"),
            "twins {seed}: the views differ"
        );
        // the views hide the future: sampled from them, the twins' futures are the same
        assert_eq!(
            va.determinize(&mut Rng::new(1)),
            vb.determinize(&mut Rng::new(1))
        );
        if a != b {
            other_pile += 1;
        }
        if reseeded {
            other_seed += 1;
        }
        for level in Level::ALL {
            let da = level.bot(seed, budget()).decide(&va);
            let db = level.bot(seed, budget()).decide(&vb);
            assert!(
                da.is_some(),
                "twins {seed}: {} decided nothing",
                level.name()
            );
            assert_eq!(da, db, "twins {seed}: {} decides otherwise", level.name());
            let action = da.expect("a decision");
            assert!(a.legal_actions().contains(&action), "{action:?} is listed");
        }
        // the expert searching on two threads
        let settings = ExpertSettings {
            threads: 2,
            ..ExpertSettings::new(budget())
        };
        let da = ExpertBot::with_settings(seed, settings).decide(&va);
        let db = ExpertBot::with_settings(seed, settings).decide(&vb);
        assert!(da.is_some(), "twins {seed}: the expert decided nothing");
        assert_eq!(
            da, db,
            "twins {seed}: the expert on two threads decides otherwise"
        );
        checked += 1;
    }
    assert!(checked >= 20, "coverage: {checked} twins");
    assert!(other_pile >= 20, "coverage: {other_pile} twins differ");
    assert!(
        other_seed > 0,
        "coverage: no twin with another die or messages"
    );
}

/// The tree search with a budget that grows its tree below the root (wide nodes, two
/// rounds of tree and rollout) decides the same on twins: its samples come from the view.
#[test]
fn the_tree_search_decides_the_same_on_twins() {
    let mut checked = 0;
    for i in 0..24u64 {
        let seed = 0x7ee5_u64.wrapping_mul(1_000_003).wrapping_add(i);
        let expansions = if i % 3 == 0 {
            Vec::new()
        } else {
            all_expansions()
        };
        let Some((a, b, _)) = twins(seed, expansions, 2 + (i % 2) as u8) else {
            continue;
        };
        let Some(p) = a.pending() else { continue };
        if a.legal_actions().len() < 2 {
            continue;
        }
        for search in [Search::Tree, Search::Paired] {
            let settings = Settings {
                search,
                widening: 1.0,
                rollout_rounds: 2,
                ..Settings::new(Budget {
                    playouts: 30,
                    time: None,
                })
            };
            let da = MctsBot::with_settings(seed, settings).decide(&a.seat_view(p.player));
            let db = MctsBot::with_settings(seed, settings).decide(&b.seat_view(p.player));
            assert!(da.is_some(), "twins {seed}: {search:?} decided nothing");
            assert_eq!(da, db, "twins {seed}: {search:?} decides otherwise");
        }
        checked += 1;
    }
    assert!(checked >= 10, "coverage: {checked} twins");
}

/// Plays a game with one bot per seat; returns every decision.
fn bot_game(levels: &[Level], expansions: Vec<Expansion>, seed: u64) -> Vec<String> {
    let players = levels.len() as u8;
    let (mut game, _) = Game::new(&GameConfig {
        players,
        expansions,
        tile_order: None,
        seed,
        rules: Default::default(),
    })
    .expect("set-up");
    let mut bots: Vec<Box<dyn Bot>> = levels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            l.bot(
                seed ^ i as u64,
                Budget {
                    playouts: 10,
                    time: None,
                },
            )
        })
        .collect();
    let mut decisions = Vec::new();
    while let Some(p) = game.pending() {
        let view = game.seat_view(p.player);
        let other = (p.player + 1) % players;
        assert_eq!(
            bots[other as usize].decide(&game.seat_view(other)),
            None,
            "not the other seat's decision"
        );
        let action = bots[p.player as usize]
            .decide(&view)
            .expect("a decision is pending");
        assert!(
            game.legal_actions().contains(&action),
            "{action:?} is not listed"
        );
        decisions.push(format!("{}:{action:?}", p.player));
        game.play(p.player, &action).expect("listed");
    }
    assert!(game.is_over());
    decisions
}

#[test]
fn every_level_plays_every_expansion_with_listed_options_and_repeats_itself() {
    let levels = [Level::Mcts, Level::Greedy, Level::Random, Level::Expert];
    let first = bot_game(&levels, all_expansions(), 11);
    assert_eq!(first, bot_game(&levels, all_expansions(), 11));
    for (i, e) in all_expansions().into_iter().enumerate() {
        let pair = if i % 2 == 0 {
            [Level::Greedy, Level::Mcts]
        } else {
            [Level::Expert, Level::Greedy]
        };
        bot_game(&pair, vec![e], 100 + i as u64);
    }
}
