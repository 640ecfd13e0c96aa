//! One number for everything the engine shows: 10,000 random games (2 to 6 players, the
//! base game or a random set of expansions, some players resigning or timing out) are
//! played, and a digest is taken of, at every decision, the pending decision and who
//! decides, the listed actions (all of them in every eighth game, with the placements and
//! their spots and figures; their number in the others), then the chosen action's stored
//! event and effects and every player's score; at the end of each game the ranking and
//! the state that replay of the log gives back (in every eighth game also the effects of
//! the replay and the state that replay of the stored rows gives back).
//!
//! The digest is a constant: a change of the engine that changes anything observable
//! changes it. Changing the constant is a change of behaviour and needs a reason.

use tilepost_engine::expansions::max_players;
use tilepost_engine::rng::Rng;
use tilepost_engine::{catalog, Action, Event, Expansion, ExpansionSet, Game, GameConfig};

/// Games played and digested.
const GAMES: u64 = 10_000;

/// Every this many games, every listed action and placement (with spots and figures) of
/// every decision is digested too; the others digest the number of listed actions.
const FULL_EVERY: u64 = 8;

/// The digest of the `GAMES` games.
const DIGEST: u64 = 0x9237_46f5_1b48_a7c1;

/// The expansions the random games draw from: the twelve the digest was first taken
/// over, in that order (an expansion added later has a test of its own and leaves the
/// digest as it is).
const DIGESTED: [Expansion; 12] = [
    Expansion::River,
    Expansion::Abbot,
    Expansion::InnsCathedrals,
    Expansion::TradersBuilders,
    Expansion::AbbeyMayor,
    Expansion::FlyingMachines,
    Expansion::Messages,
    Expansion::Ferries,
    Expansion::GoldMines,
    Expansion::MageWitch,
    Expansion::Robbers,
    Expansion::CropCircles,
];

/// 64-bit FNV-1a: stable across runs, platforms and compiler versions.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= x as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // a separator, so that ("ab", "c") and ("a", "bc") differ
        self.0 ^= 0xff;
        self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
    }
    fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    fn num(&mut self, n: i64) {
        self.bytes(&n.to_le_bytes());
    }
    fn json(&mut self, v: &impl serde::Serialize) {
        self.str(&serde_json::to_string(v).expect("serialises"));
    }
}

fn digest_event(h: &mut Fnv, e: &Event) {
    let (kind, version, payload) = e.encode();
    h.str(kind);
    h.num(version as i64);
    h.str(&payload);
}

fn digest_scores(h: &mut Fnv, game: &Game) {
    for p in game.players() {
        h.num(p.score as i64);
        h.num(p.active as i64);
    }
}

/// Every observable of one decision before it is taken; with `full` also every listed
/// action and placement (otherwise their number).
fn digest_decision(h: &mut Fnv, game: &Game, actions: &[Action], full: bool) {
    let p = game.pending().expect("a decision is pending");
    h.num(p.player as i64);
    h.str(p.phase.name());
    h.str(p.tile.map_or("-", |t| catalog().get(t).id.as_str()));
    h.num(game.decider() as i64);
    h.num(game.current_player() as i64);
    h.num(game.tiles_left() as i64);
    h.num(actions.len() as i64);
    if !full {
        return;
    }
    for a in actions {
        h.json(a);
    }
    let drawn = p.tile.map(|t| catalog().get(t));
    for pl in game.placements() {
        h.num(pl.pos.x as i64);
        h.num(pl.pos.y as i64);
        h.num(pl.rotation.degrees() as i64);
        for s in &pl.spots {
            h.str(&drawn.map_or_else(String::new, |t| t.spot_name(s.spot)));
            h.num(s.feature as i64);
            for f in &s.figures {
                h.json(f);
            }
        }
    }
}

/// Plays one random game and folds it into `h` (with every listed option when `full`).
fn play(seed: u64, full: bool, h: &mut Fnv) {
    let mut rng = Rng::new(seed);
    let expansions: Vec<Expansion> = if rng.below(5) == 0 {
        Vec::new()
    } else {
        DIGESTED.into_iter().filter(|_| rng.below(2) == 0).collect()
    };
    let set: ExpansionSet = expansions.iter().copied().collect();
    let players = 2 + rng.below(max_players(set) as u64 - 1) as u8;
    let config = GameConfig {
        players,
        expansions,
        tile_order: None,
        seed: rng.next_u64(),
        rules: Default::default(),
    };
    let (mut game, created, fx) = Game::new_with_effects(&config).expect("set-up");
    digest_event(h, &created);
    h.json(&fx);
    let mut log = vec![created];
    let resigner_game = rng.below(5) == 0;
    while let Some(p) = game.pending() {
        let actions = game.legal_actions();
        digest_decision(h, &game, &actions, full);
        let outcome = if resigner_game && rng.below(60) == 0 {
            let active: Vec<u8> = (0..players)
                .filter(|i| game.players()[*i as usize].active)
                .collect();
            let who = active[rng.below(active.len() as u64) as usize];
            game.resign(who, rng.below(2) == 0).expect("resign")
        } else {
            let a = &actions[rng.below(actions.len() as u64) as usize];
            game.play(p.player, a).expect("a listed action is accepted")
        };
        digest_event(h, &outcome.event);
        h.json(&outcome.effects);
        digest_scores(h, &game);
        log.push(outcome.event);
    }
    h.json(&game.ranking());
    h.num(game.version() as i64);
    if !full {
        assert_eq!(Game::replay(&log).expect("replays"), game, "seed {seed}");
        return;
    }
    let (replayed, effects) = Game::replay_with_effects(&log).expect("replays");
    assert_eq!(replayed, game, "seed {seed}");
    h.json(&effects);
    let rows: Vec<(&'static str, u32, String)> = log.iter().map(Event::encode).collect();
    let stored = Game::replay_stored(rows.iter().map(|(k, v, p)| (*k, *v, p.as_str())))
        .expect("stored rows replay");
    assert_eq!(stored, game, "seed {seed}");
}

#[test]
fn digest_of_ten_thousand_random_games_is_unchanged() {
    let mut h = Fnv::new();
    for i in 0..GAMES {
        play(
            i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5eed,
            i % FULL_EVERY == 0,
            &mut h,
        );
    }
    assert_eq!(
        h.0, DIGEST,
        "the digest of {GAMES} random games changed: {:#x}",
        h.0
    );
}
