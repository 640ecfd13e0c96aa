//! Twin games for the no-peeking tests (the engine's and the bots'): a game and a twin
//! that agree on everything seen so far (the same tiles drawn and discarded, the same
//! rolls, the same messages) and differ in the hidden future (the rest of the pile in
//! another order, another die and message stream where a seed can be found that repeats
//! the past).
#![allow(dead_code)]

use tilepost_engine::expansions::track::MESSAGES;
use tilepost_engine::rng::Rng;
use tilepost_engine::{catalog, Effect, Expansion, Game, GameConfig, TileTypeId};

/// What a player sees of the hidden sources so far.
#[derive(Default)]
pub struct Seen {
    pub tiles: Vec<String>,
    pub rolls: Vec<u64>,
    pub messages: Vec<u8>,
}

impl Seen {
    pub fn note(&mut self, effects: &[Effect]) {
        for e in effects {
            match e {
                Effect::TileDrawn { tile, .. }
                | Effect::TileDiscarded { tile }
                | Effect::TileReturned { tile } => self.tiles.push(tile.clone()),
                Effect::DieRolled { value, .. } => self.rolls.push(*value as u64),
                Effect::MessageDrawn { message, .. } => self.messages.push(*message),
                _ => {}
            }
        }
    }
}

pub fn expand(counts: &[(TileTypeId, u32)]) -> Vec<TileTypeId> {
    counts
        .iter()
        .flat_map(|(t, n)| std::iter::repeat_n(*t, *n as usize))
        .collect()
}

pub fn ids(tiles: &[TileTypeId]) -> Vec<String> {
    tiles.iter().map(|t| catalog().get(*t).id.clone()).collect()
}

/// Whether a game with `seed` (and a fixed tile order) repeats the seen rolls and messages.
pub fn repeats_the_past(seed: u64, messages: bool, seen: &Seen) -> bool {
    let mut r = Rng::new(seed);
    if messages {
        let mut stack = MESSAGES.to_vec();
        r.shuffle(&mut stack);
        if !stack.starts_with(&seen.messages) {
            return false;
        }
    }
    seen.rolls.iter().all(|d| 1 + r.below(3) == *d)
}

/// The tiles of a normal game of this set, in a random order, the river first.
pub fn shuffled_pile(players: u8, expansions: &[Expansion], rng: &mut Rng) -> Vec<TileTypeId> {
    let normal = GameConfig {
        players,
        expansions: expansions.to_vec(),
        tile_order: None,
        seed: rng.next_u64(),
        rules: Default::default(),
    };
    let (g0, _) = Game::new(&normal).expect("set-up");
    let mut pile = expand(&g0.tiles_left_by_type());
    pile.extend(g0.pending().and_then(|p| p.tile));
    rng.shuffle(&mut pile);
    pile.sort_by_key(|t| {
        let tt = catalog().get(*t);
        match (tt.expansion == Some(Expansion::River), tt.river_last) {
            (true, false) => 0,
            (true, true) => 1,
            _ => 2,
        }
    });
    pile
}

/// The twin's tile order and seed: the seen tiles, then the tiles left of `a` in a random
/// order; a seed other than `seed_a` that repeats the seen rolls and messages when one is
/// found among candidates derived from `seed`, else `seed_a`.
pub fn twin_future(
    a: &Game,
    seen: &Seen,
    seed: u64,
    seed_a: u64,
    messages: bool,
    rng: &mut Rng,
) -> (Vec<String>, u64) {
    let mut suffix = expand(&a.tiles_left_by_type());
    rng.shuffle(&mut suffix);
    let mut order = seen.tiles.clone();
    order.extend(ids(&suffix));
    let seed_b = if seen.messages.len() <= MESSAGES.len() {
        (1..20_000u64)
            .map(|c| Rng::new(seed ^ c.wrapping_mul(0x9E37)).next_u64())
            .find(|s| *s != seed_a && repeats_the_past(*s, messages, seen))
            .unwrap_or(seed_a)
    } else {
        seed_a
    };
    (order, seed_b)
}

/// A sandbox game of `players` and `expansions` drawing `order`.
pub fn config(players: u8, expansions: &[Expansion], order: Vec<String>, seed: u64) -> GameConfig {
    GameConfig {
        players,
        expansions: expansions.to_vec(),
        tile_order: Some(order),
        seed,
        rules: Default::default(),
    }
}

/// The first of two twins: a sandbox game with the pile of a normal game in a random order
/// (see [`shuffled_pile`]) and a random seed; returns it with its seed, the effects of its
/// set-up and what they showed.
pub fn first_twin(
    players: u8,
    expansions: &[Expansion],
    rng: &mut Rng,
) -> (Game, u64, Vec<Effect>, Seen) {
    let pile = shuffled_pile(players, expansions, rng);
    let seed_a = rng.next_u64();
    let (a, _, fx) =
        Game::new_with_effects(&config(players, expansions, ids(&pile), seed_a)).expect("set-up");
    let mut seen = Seen::default();
    seen.note(&fx);
    (a, seed_a, fx, seen)
}
