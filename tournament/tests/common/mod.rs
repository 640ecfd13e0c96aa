//! Shared test support: a simulated event whose results come from a seeded RNG, with
//! the checks every simulation makes.
#![allow(dead_code)]

use std::collections::BTreeMap;

use tilepost_tournament::rng::Rng;
use tilepost_tournament::*;

pub struct Sim {
    pub events: Vec<Event>,
    pub state: State,
    pub rng: Rng,
    /// Each pairing with each 2-player table's start balances (first seat, second
    /// seat) just before it was paired.
    pub balances_at_pairing: Vec<Vec<(i64, i64)>>,
}

pub fn swiss(rounds: u32, best_of: u8, table_size: u8) -> StageConfig {
    StageConfig {
        format: Format::Swiss { rounds },
        best_of,
        table_size,
        entry: Entry::Registered,
    }
}

impl Sim {
    pub fn new(config: Config, seed: u64) -> Sim {
        let created = Event::TournamentCreated { config };
        let state = Tournament::replay(std::slice::from_ref(&created)).expect("created");
        Sim {
            events: vec![created],
            state,
            rng: Rng::new(seed),
            balances_at_pairing: Vec::new(),
        }
    }

    pub fn push(&mut self, e: Event) {
        if let Err(err) = self.state.apply(&e) {
            panic!("{e:?} refused: {err}");
        }
        // every event goes through the stored form
        let (kind, version, payload) = e.encode();
        assert_eq!(Event::decode(kind, version, &payload).as_ref(), Ok(&e));
        self.events.push(e);
    }

    pub fn register(&mut self, n: usize) {
        for i in 0..n {
            let id = format!("p{:03}", self.state.players().len() + 1);
            let rating = Some(2000 - (i as i32) * 10);
            self.push(Event::PlayerRegistered { player: id, rating });
        }
    }

    pub fn balance(&self) -> BTreeMap<String, i64> {
        self.state
            .starts()
            .iter()
            .enumerate()
            .map(|(p, (s, g))| {
                (
                    self.state.players()[p].id.clone(),
                    2 * i64::from(*s) - i64::from(*g),
                )
            })
            .collect()
    }

    /// Pairs the next round and records it.
    pub fn pair(&mut self) -> Pairing {
        let seed = self.rng.next_u64();
        let p = self.state.next_pairing(seed).expect("pairing");
        let b = self.balance();
        self.balances_at_pairing.push(
            p.tables
                .iter()
                .filter(|t| t.seats.len() == 2)
                .map(|t| (b[&t.seats[0]], b[&t.seats[1]]))
                .collect(),
        );
        self.push(p.clone().into_event());
        p
    }

    /// A random result for a game at `seats` seats.
    pub fn random_result(&mut self, seats: usize) -> GameResult {
        let scores: Vec<i64> = (0..seats).map(|_| 40 + self.rng.below(80) as i64).collect();
        let roll = self.rng.below(100);
        let decision = if roll < 2 {
            Some(Decision::Forfeit {
                seats: vec![self.rng.below(seats as u64) as u8],
            })
        } else if roll < 7 {
            Some(Decision::ScoreIfEndedNow)
        } else {
            None
        };
        GameResult { scores, decision }
    }

    /// Records results until no game is pending.
    pub fn play_out(&mut self) {
        loop {
            let pending = self.state.pending_games();
            if pending.is_empty() {
                break;
            }
            for g in pending {
                let result = self.random_result(g.start_order.len());
                self.push(Event::ResultRecorded {
                    stage: g.stage,
                    round: g.round,
                    table: g.table,
                    game: g.game,
                    result,
                });
            }
        }
    }

    /// Plays the stage being played to its end and records its end.
    pub fn run_stage(&mut self) {
        while !self.state.stage_complete() {
            self.pair();
            self.play_out();
        }
        let fin = self.state.finish_stage().expect("finish");
        self.push(fin);
    }

    /// Replay from scratch equals the incrementally maintained state.
    pub fn check_replay(&self) {
        let replayed = Tournament::replay(&self.events).expect("replays");
        assert_eq!(replayed, self.state);
        for s in 0..self.state.stages().len() {
            assert_eq!(replayed.standings_of(s), self.state.standings_of(s));
        }
    }

    /// Every game finished or decided, every table's match over.
    pub fn check_all_decided(&self) {
        assert!(self.state.pending_games().is_empty());
        for (s, st) in self.state.stages().iter().enumerate() {
            for r in &st.rounds {
                for t in &r.tables {
                    assert!(
                        matches!(self.state.table_status(s, t), MatchStatus::Decided { .. }),
                        "stage {s} table {} undecided",
                        t.table
                    );
                }
            }
        }
    }

    /// Nobody has more than one bye in a stage.
    pub fn check_byes(&self) {
        for st in self.state.stages() {
            let mut count = BTreeMap::new();
            for r in &st.rounds {
                for b in &r.byes {
                    *count.entry(*b).or_insert(0) += 1;
                }
            }
            assert!(count.values().all(|c| *c <= 1), "{count:?}");
        }
    }

    /// Repeat meetings per stage.
    pub fn repeats(&self) -> usize {
        let mut n = 0;
        for st in self.state.stages() {
            let mut met = BTreeMap::new();
            for r in &st.rounds {
                for t in &r.tables {
                    for (i, a) in t.seats.iter().enumerate() {
                        for b in &t.seats[i + 1..] {
                            let k = (*a.min(b), *a.max(b));
                            let c = met.entry(k).or_insert(0);
                            if *c > 0 {
                                n += 1;
                            }
                            *c += 1;
                        }
                    }
                }
            }
        }
        n
    }

    /// At every 2-player pairing the start went to the player who had started less
    /// (or as much).
    pub fn check_start_rule(&self) {
        for round in &self.balances_at_pairing {
            for (a, b) in round {
                assert!(a <= b, "the first seat had started more: {a} > {b}");
            }
        }
    }

    pub fn max_imbalance(&self) -> i64 {
        self.balance().values().map(|b| b.abs()).max().unwrap_or(0)
    }
}
