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

    /// The audit of the log so far.
    pub fn audit(&self) -> audit::Audit {
        audit::audit(&self.events).expect("the log audits")
    }

    /// Replay from scratch equals the incrementally maintained state.
    pub fn check_replay(&self) {
        let replayed = Tournament::replay(&self.events).expect("replays");
        assert_eq!(replayed, self.state);
        assert!(self.audit().replay_agrees);
    }

    /// Every game finished or decided, every table's match over.
    pub fn check_all_decided(&self) {
        assert!(self.state.pending_games().is_empty());
        assert_eq!(self.audit().undecided, 0);
    }

    /// Nobody has more than one bye in a stage.
    pub fn check_byes(&self) {
        assert!(self.audit().most_byes <= 1, "{:?}", self.audit());
    }

    /// Repeat meetings per stage.
    pub fn repeats(&self) -> usize {
        self.audit().repeats
    }

    /// At every 2-player pairing the start went to the player who had started less
    /// (or as much).
    pub fn check_start_rule(&self) {
        assert_eq!(
            self.audit().start_rule_broken,
            0,
            "the first seat had started more"
        );
    }

    pub fn max_imbalance(&self) -> i64 {
        self.audit().start_imbalance
    }
}
