//! Heap use of the engine: allocations per replay of a complete base game (counted by a
//! global allocator that counts per thread) and the memory a finished game holds.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use tilepost_engine::rng::Rng;
use tilepost_engine::{Event, Game, GameConfig};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    /// Bytes allocated minus bytes freed on this thread.
    static LIVE: Cell<i64> = const { Cell::new(0) };
}

fn count() {
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

fn live(delta: i64) {
    let _ = LIVE.try_with(|c| c.set(c.get() + delta));
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only
// a const-initialised thread-local cell, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        live(layout.size() as i64);
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        live(layout.size() as i64);
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        live(new_size as i64 - layout.size() as i64);
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        live(-(layout.size() as i64));
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made on this thread while `f` runs.
fn allocations<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    (out, ALLOCATIONS.with(Cell::get) - before)
}

fn complete_game(seed: u64, players: u8) -> (Game, Vec<Event>) {
    let (mut game, created) = Game::new(&GameConfig {
        players,
        seed,
        ..Default::default()
    })
    .unwrap();
    let mut log = vec![created];
    let mut rng = Rng::new(seed);
    while let Some(p) = game.pending() {
        let actions = game.legal_actions();
        let a = &actions[rng.below(actions.len() as u64) as usize];
        log.push(game.play(p.player, a).unwrap().event);
    }
    (game, log)
}

const MAX_ALLOCATIONS_PER_REPLAY: u64 = 500;
const MAX_FINISHED_GAME_BYTES: usize = 64 * 1024;

#[test]
fn the_counter_counts() {
    let (v, n) = allocations(|| vec![1u8; 10]);
    assert_eq!((v.len(), n), (10, 1));
    let (_, n) = allocations(|| 1 + 1);
    assert_eq!(n, 0);
    let before = LIVE.with(Cell::get);
    let v = vec![0u64; 100];
    assert_eq!(LIVE.with(Cell::get) - before, 800);
    drop(v);
    assert_eq!(LIVE.with(Cell::get), before);
}

#[test]
fn replaying_a_base_game_allocates_little() {
    let mut worst = 0;
    for seed in 0..20u64 {
        let players = 2 + (seed % 4) as u8;
        let (game, log) = complete_game(seed, players);
        assert!(game.is_over());
        // the catalog is loaded once per process; warm it before counting
        let _ = Game::replay(&log).unwrap();
        let (replayed, n) = allocations(|| Game::replay(&log).unwrap());
        assert_eq!(replayed, game);
        worst = worst.max(n);
        if seed < 4 {
            eprintln!(
                "replay of a {players}-player base game ({} events): {n} allocations",
                log.len()
            );
        }
    }
    eprintln!("most allocations in one replay: {worst}");
    assert!(
        worst <= MAX_ALLOCATIONS_PER_REPLAY,
        "{worst} allocations in one replay"
    );
}

#[test]
fn a_finished_base_game_is_small() {
    let mut largest = 0;
    for seed in 0..20u64 {
        let (game, log) = complete_game(seed, 2 + (seed % 4) as u8);
        let _ = Game::replay(&log).unwrap();
        // the heap a replayed game keeps: what memory_bytes reports, and no more
        let before = LIVE.with(Cell::get);
        let replayed = Game::replay(&log).unwrap();
        let held = (LIVE.with(Cell::get) - before) as usize;
        assert!(
            replayed.memory_bytes() >= held + std::mem::size_of::<Game>(),
            "memory_bytes {} under-reports {held} heap bytes",
            replayed.memory_bytes()
        );
        largest = largest.max(game.memory_bytes());
        largest = largest.max(replayed.memory_bytes());
    }
    eprintln!("largest finished base game: {largest} bytes");
    assert!(largest <= MAX_FINISHED_GAME_BYTES, "{largest} bytes");
    assert!(largest >= std::mem::size_of::<Game>());
}
