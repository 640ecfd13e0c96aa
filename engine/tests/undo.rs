//! Undo before anything is revealed: a player takes back their own decisions since the
//! last reveal of hidden information, while the pending decision is theirs.
//!
//! The property: over many random games (the base game and random sets of expansions,
//! some players leaving), whenever the deciding player may undo, an undo of any number of
//! their decisions they may take back leaves the game exactly as it was before the first
//! of them (the same state, so the same view for every seat, the same options and the
//! same next draws), at a later version; a log with undos replays to the live game, also
//! from its stored rows and event by event; and every refusal is the one the rules name.

mod common;

use common::{Table, BLUE, RED};
use tilepost_engine::expansions::max_players;
use tilepost_engine::rng::Rng;
use tilepost_engine::PlayError;
use tilepost_engine::{Event, Expansion, ExpansionSet, Game, GameConfig, NoEffects};

/// Random games played with undos.
const GAMES: u64 = 300;

fn random_config(rng: &mut Rng) -> GameConfig {
    let expansions: Vec<Expansion> = if rng.below(5) == 0 {
        Vec::new()
    } else {
        Expansion::ALL
            .into_iter()
            .filter(|_| rng.below(2) == 0)
            .collect()
    };
    let set: ExpansionSet = expansions.iter().copied().collect();
    GameConfig {
        players: 2 + rng.below(max_players(set) as u64 - 1) as u8,
        expansions,
        tile_order: None,
        seed: rng.next_u64(),
        rules: Default::default(),
    }
}

/// What the random games exercised.
#[derive(Default)]
struct Stats {
    undos: usize,
    past_reveal: usize,
}

/// Plays one random game with undos.
fn play(seed: u64, stats: &mut Stats) {
    let mut rng = Rng::new(seed);
    let config = random_config(&mut rng);
    let (mut game, created) = Game::new(&config).expect("set-up");
    let mut log = vec![created];
    // the decisions in effect (not taken back): their index in the log and the game
    // before each
    let mut effective: Vec<(usize, Game)> = Vec::new();
    let mut undos = 0;
    while let Some(p) = game.pending() {
        let may = game.undoable(p.player);
        // every other seat is refused, whatever it asks
        for other in 0..config.players {
            if other != p.player {
                assert_eq!(game.check_undo(other, 1), Err(PlayError::UndoNotYours));
                assert_eq!(game.undoable(other), 0);
            }
        }
        assert!(game.check_undo(p.player, may.saturating_add(1)).is_err());
        // the player's own last decision revealed something: past a reveal
        if may == 0
            && matches!(log.last(), Some(Event::Decided { player, .. }) if *player == p.player)
        {
            assert_eq!(game.check_undo(p.player, 1), Err(PlayError::UndoPastReveal));
            stats.past_reveal += 1;
        }
        if may > 0 && undos < 40 && rng.below(3) == 0 {
            let count = 1 + rng.below(may as u64) as u8;
            assert_eq!(game.check_undo(p.player, count), Ok(()));
            let (after, event) = game.undo(&log, p.player, count).expect("undo");
            // the decisions taken back are the last `count` in effect, all the player's
            let back = effective.split_off(effective.len() - count as usize);
            for (i, _) in &back {
                assert!(matches!(&log[*i], Event::Decided { player, .. } if *player == p.player));
            }
            let was = &back[0].1;
            assert!(after.same_state(was), "seed {seed}: undo of {count}");
            assert_eq!(after.version() as usize, log.len() + 1);
            assert_eq!(after.legal_actions(), was.legal_actions());
            assert_eq!(after.pending(), was.pending());
            for seat in 0..config.players {
                assert!(after
                    .seat_view(seat)
                    .game()
                    .same_state(was.seat_view(seat).game()));
            }
            undos += 1;
            stats.undos += 1;
            log.push(event);
            game = after;
            continue;
        }
        let prior = game.clone();
        let outcome = if rng.below(80) == 0 {
            let active: Vec<u8> = (0..config.players)
                .filter(|i| game.players()[*i as usize].active)
                .collect();
            let who = active[rng.below(active.len() as u64) as usize];
            game.resign(who, false).expect("resign")
        } else {
            let actions = game.legal_actions();
            let a = &actions[rng.below(actions.len() as u64) as usize];
            game.play(p.player, a).expect("a listed action is accepted")
        };
        effective.push((log.len(), prior));
        log.push(outcome.event);
    }
    // the log with its undos replays to the live game: at once, from its stored rows,
    // and event by event
    assert_eq!(Game::replay(&log).expect("replays"), game, "seed {seed}");
    let rows: Vec<(&'static str, u32, String)> = log.iter().map(Event::encode).collect();
    let stored = Game::replay_stored(rows.iter().map(|(k, v, p)| (*k, *v, p.as_str())))
        .expect("stored rows replay");
    assert_eq!(stored, game, "seed {seed}");
    let mut stepwise = Game::replay(&log[..1]).expect("created");
    for i in 1..log.len() {
        stepwise.apply_at(&log, i, &mut NoEffects).expect("applies");
    }
    assert_eq!(stepwise, game, "seed {seed}");
}

#[test]
fn an_undo_leaves_the_game_as_it_was_before_the_decisions_it_takes_back() {
    let mut stats = Stats::default();
    for i in 0..GAMES {
        play(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x0d0, &mut stats);
    }
    // the property was exercised, not skipped
    assert!(stats.undos > GAMES as usize, "{} undos", stats.undos);
    assert!(stats.past_reveal > 0, "no undo past a reveal of one's own");
}

#[test]
fn a_tile_placed_alone_is_taken_back_and_the_next_draw_is_the_same() {
    let tiles = ["base/D", "base/E", "base/U", "base/V", "base/B"];
    let mut t = Table::new(2, &tiles);
    assert_eq!(t.game.check_undo(RED, 1), Err(PlayError::NothingToUndo));
    let fresh = t.game.clone();
    t.place(1, 0, 0);
    assert_eq!(t.game.undoable(RED), 1);
    assert_eq!(t.game.check_undo(BLUE, 1), Err(PlayError::UndoNotYours));
    assert_eq!(t.game.check_undo(RED, 2), Err(PlayError::UndoPastReveal));
    let (g, e) = t.game.undo(&t.log, RED, 1).expect("undo");
    assert_eq!(
        e,
        Event::Undone {
            player: RED,
            count: 1
        }
    );
    assert!(g.same_state(&fresh));
    assert_eq!(g.version(), 3);
    t.game = g;
    t.log.push(e);
    // another placement, then the figure: the turn ends and the same next tile is drawn
    t.place(0, 1, 180).pass();
    assert_eq!(t.drawn(), Some("base/E"));
    // the draw revealed a tile: the mover may not take anything back, the next player has
    // nothing to take back
    assert_eq!(t.game.check_undo(RED, 1), Err(PlayError::UndoNotYours));
    assert_eq!(t.game.check_undo(BLUE, 1), Err(PlayError::NothingToUndo));
    t.assert_replays();
}

#[test]
fn an_undo_is_refused_when_the_game_is_over_and_in_a_log_that_does_not_allow_it() {
    let mut t = Table::new(2, &["base/D"]);
    t.place(1, 0, 0).pass();
    assert!(t.is_over());
    assert_eq!(t.game.check_undo(RED, 1), Err(PlayError::GameOver));
    // a stored undo that the rules refuse does not replay
    let mut log = t.log.clone();
    log.push(Event::Undone {
        player: RED,
        count: 1,
    });
    assert!(Game::replay(&log).is_err());
    // nor does one applied without its log
    let mut g = t.game.clone();
    assert!(matches!(
        g.apply(&log[log.len() - 1], &mut NoEffects),
        Err(PlayError::LogMismatch(_))
    ));
}
