//! Refusals: every event or request that does not fit the tournament is refused with a
//! typed error, never a panic, and a refused event leaves the state untouched.

mod common;

use common::{swiss, Sim};
use tilepost_tournament::rng::Rng;
use tilepost_tournament::*;

fn ko(double: bool) -> StageConfig {
    StageConfig {
        format: Format::Knockout { double },
        best_of: 3,
        table_size: 2,
        entry: Entry::Registered,
    }
}

#[test]
fn configs_outside_the_rules_are_refused() {
    let bad = [
        StageConfig {
            best_of: 2,
            ..swiss(3, 1, 2)
        },
        swiss(3, 1, 7),
        swiss(3, 3, 4),
        swiss(0, 1, 2),
        StageConfig {
            table_size: 4,
            ..ko(false)
        },
        StageConfig {
            entry: Entry::Top { count: 8 },
            ..swiss(3, 1, 2)
        },
    ];
    for stage in bad {
        let config = Config::single(stage.clone());
        assert!(
            matches!(
                Tournament::replay(&[Event::TournamentCreated { config }]),
                Err(Error::InvalidConfig(_))
            ),
            "{stage:?}"
        );
    }
    let mut config = Config::single(swiss(3, 1, 2));
    config.rank_points = vec![vec![0, 1]];
    assert!(config.validate().is_err());
    config.rank_points = vec![vec![1, 0, 0]];
    assert!(config.validate().is_err());
    config.rank_points = Vec::new();
    config.tie_breaks = vec![TieBreak::Buchholz, TieBreak::Buchholz];
    assert!(config.validate().is_err());
    config.tie_breaks = Vec::new();
    config.seed = "x".into();
    assert!(config.validate().is_err());
    // later stages take qualifiers
    let mut config = Config::single(swiss(3, 1, 2));
    config.stages.push(ko(false));
    assert!(config.validate().is_err());
}

#[test]
fn the_log_must_start_with_the_creation() {
    assert_eq!(Tournament::replay(&[]), Err(Error::NotCreated));
    let reg = Event::PlayerRegistered {
        player: "a".into(),
        rating: None,
    };
    assert_eq!(Tournament::replay(&[reg]), Err(Error::NotCreated));
    let created = Event::TournamentCreated {
        config: Config::single(swiss(3, 1, 2)),
    };
    assert_eq!(
        Tournament::replay(&[created.clone(), created]),
        Err(Error::AlreadyCreated)
    );
}

#[test]
fn typed_refusals() {
    let mut sim = Sim::new(Config::single(ko(false)), 1);
    assert!(matches!(
        sim.state.next_pairing(1),
        Err(Error::NotEnoughPlayers(_))
    ));
    sim.register(4);
    let again = Event::PlayerRegistered {
        player: "p001".into(),
        rating: None,
    };
    assert_eq!(
        sim.state.clone().apply(&again),
        Err(Error::AlreadyRegistered("p001".into()))
    );
    let p = sim.pair();
    assert_eq!(sim.state.next_pairing(2), Err(Error::RoundInProgress));
    assert!(matches!(
        sim.state.clone().apply(&Event::PlayerRegistered {
            player: "late".into(),
            rating: None
        }),
        Err(Error::RegistrationClosed(_))
    ));
    let seat = p.tables[0].seats[0].clone();
    assert_eq!(
        sim.state.clone().apply(&Event::PlayerWithdrew {
            player: seat.clone()
        }),
        Err(Error::GameInProgress(seat))
    );
    let result = |game: u32, scores: Vec<i64>| Event::ResultRecorded {
        stage: 0,
        round: 1,
        table: 1,
        game,
        result: GameResult {
            scores,
            decision: None,
        },
    };
    assert!(matches!(
        sim.state.clone().apply(&result(0, vec![1, 2, 3])),
        Err(Error::InvalidResult(_))
    ));
    assert!(matches!(
        sim.state.clone().apply(&result(1, vec![1, 2])),
        Err(Error::NoSuchGame { .. })
    ));
    assert!(matches!(
        sim.state.clone().apply(&result(0, vec![1, 1_000_000])),
        Err(Error::InvalidResult(_))
    ));
    sim.push(result(0, vec![90, 80]));
    sim.push(result(1, vec![80, 95]));
    sim.push(result(2, vec![90, 80]));
    // seat 0 won 2 of 3: the match is over
    assert_eq!(
        sim.state.clone().apply(&result(3, vec![1, 2])),
        Err(Error::ResultExists)
    );
    // a correction that would end the match before a recorded game is refused
    let correct = |game: u32, scores: Vec<i64>| Event::OrganiserAdjusted {
        adjustment: Adjustment::ResultCorrected {
            stage: 0,
            round: 1,
            table: 1,
            game,
            result: GameResult {
                scores,
                decision: None,
            },
        },
        reason: "misreported".into(),
    };
    assert!(matches!(
        sim.state.clone().apply(&correct(1, vec![95, 80])),
        Err(Error::InvalidResult(_))
    ));
    // one that keeps the match's shape is taken
    sim.push(correct(2, vec![70, 80]));
    assert!(sim.state.pending_games().iter().all(|g| g.table != 1));
    assert!(!sim.state.stage_complete());
    assert_eq!(sim.state.finish_stage(), Err(Error::StageNotComplete));
    let twice = Event::RoundPaired {
        stage: 0,
        round: 2,
        tables: vec![Table {
            table: 1,
            seats: vec!["p001".into(), "p001".into()],
            bracket: None,
        }],
        byes: Vec::new(),
    };
    sim.play_out();
    assert!(matches!(
        sim.state.clone().apply(&twice),
        Err(Error::PairingMismatch(_))
    ));
}

/// Random, mostly wrong events against states along a simulated event: no panic, and a
/// refused event changes nothing.
#[test]
fn random_events_never_panic_and_refusals_change_nothing() {
    let mut rng = Rng::new(3);
    let ids = ["p001", "p002", "p003", "p009", "nobody", ""];
    for config in [
        Config::single(swiss(4, 3, 2)),
        Config::single(swiss(3, 1, 4)),
        Config::single(ko(true)),
        Config::single(StageConfig {
            format: Format::RoundRobin {
                double: false,
                groups: 2,
            },
            best_of: 1,
            table_size: 2,
            entry: Entry::Registered,
        }),
    ] {
        let mut sim = Sim::new(config, 2);
        sim.register(9);
        for step in 0..12 {
            for _ in 0..200 {
                let mut pick = |n: u64| rng.below(n) as u32;
                let id = ids[pick(ids.len() as u64) as usize].to_string();
                let result = GameResult {
                    scores: (0..pick(5)).map(|_| i64::from(pick(200)) - 50).collect(),
                    decision: match pick(3) {
                        0 => None,
                        1 => Some(Decision::ScoreIfEndedNow),
                        _ => Some(Decision::Forfeit {
                            seats: vec![pick(6) as u8],
                        }),
                    },
                };
                let e = match pick(7) {
                    0 => Event::PlayerRegistered {
                        player: id,
                        rating: None,
                    },
                    1 => Event::PlayerWithdrew { player: id },
                    2 => Event::RoundPaired {
                        stage: pick(2),
                        round: pick(4),
                        tables: vec![Table {
                            table: pick(3),
                            seats: vec![id, ids[pick(4) as usize].to_string()],
                            bracket: None,
                        }],
                        byes: Vec::new(),
                    },
                    3 => Event::ResultRecorded {
                        stage: pick(2),
                        round: pick(4),
                        table: pick(6),
                        game: pick(4),
                        result,
                    },
                    4 => Event::OrganiserAdjusted {
                        adjustment: Adjustment::ResultCorrected {
                            stage: pick(2),
                            round: pick(4),
                            table: pick(6),
                            game: pick(4),
                            result,
                        },
                        reason: String::new(),
                    },
                    5 => Event::StageFinished {
                        stage: pick(2),
                        qualified: vec![id],
                    },
                    _ => Event::TournamentCreated {
                        config: Config::single(swiss(1, 1, 2)),
                    },
                };
                let mut s = sim.state.clone();
                if s.apply(&e).is_err() {
                    assert_eq!(s, sim.state, "{e:?}");
                }
            }
            if sim.state.stage_complete() {
                break;
            }
            if step % 2 == 0 {
                sim.pair();
            } else {
                sim.play_out();
            }
        }
    }
}

#[test]
fn invitations_are_recorded_once_and_never_for_a_player_registered() {
    let mut sim = Sim::new(Config::single(swiss(3, 1, 2)), 1);
    sim.register(2);
    let invite = |p: &str| Event::PlayerInvited { player: p.into() };
    assert_eq!(
        sim.state.clone().apply(&invite("p001")),
        Err(Error::AlreadyRegistered("p001".into()))
    );
    assert_eq!(
        sim.state.clone().apply(&invite("")),
        Err(Error::UnknownPlayer(String::new()))
    );
    let mut s = sim.state.clone();
    assert_eq!(s.apply(&invite("guest")), Ok(()));
    assert!(s.is_invited("guest") && !s.is_invited("p001"));
    assert_eq!(
        s.apply(&invite("guest")),
        Err(Error::AlreadyInvited("guest".into()))
    );
    // an invited player registers as any other
    assert_eq!(
        s.apply(&Event::PlayerRegistered {
            player: "guest".into(),
            rating: None
        }),
        Ok(())
    );
    assert_eq!(s.invited().collect::<Vec<_>>(), vec!["guest"]);
}
