//! The audit counts what a log does wrong, whoever wrote it: a hand-written Swiss that
//! pairs the same two players twice and gives the second start to the player who had
//! started already.

mod common;

use common::swiss;
use tilepost_tournament::*;

fn paired(round: u32, seats: [&str; 2]) -> Event {
    Event::RoundPaired {
        stage: 0,
        round,
        tables: vec![Table {
            table: 1,
            seats: seats.iter().map(|s| s.to_string()).collect(),
            bracket: None,
        }],
        byes: Vec::new(),
    }
}

fn result(round: u32) -> Event {
    Event::ResultRecorded {
        stage: 0,
        round,
        table: 1,
        game: 0,
        result: GameResult {
            scores: vec![80, 60],
            decision: None,
        },
    }
}

#[test]
fn a_repeat_and_a_second_start_are_counted() {
    let mut log = vec![Event::TournamentCreated {
        config: Config::single(swiss(2, 1, 2)),
    }];
    for p in ["ann", "ben"] {
        log.push(Event::PlayerRegistered {
            player: p.into(),
            rating: None,
        });
    }
    log.push(paired(1, ["ann", "ben"]));
    log.push(result(1));
    let fair = audit(&log).expect("audits");
    assert_eq!(
        (fair.repeats, fair.start_rule_broken, fair.start_imbalance),
        (0, 0, 1)
    );
    assert_eq!(fair.undecided, 0);
    assert!(fair.replay_agrees);
    // ann starts again, against ben again
    log.push(paired(2, ["ann", "ben"]));
    let unfair = audit(&log).expect("audits");
    assert_eq!(unfair.repeats, 1);
    assert_eq!(unfair.start_rule_broken, 1);
    assert_eq!(unfair.undecided, 2, "the table and its game");
    assert!(unfair.replay_agrees);
    log.push(result(2));
    let played = audit(&log).expect("audits");
    assert_eq!((played.start_imbalance, played.undecided), (2, 0));
    assert_eq!(audit(&[]), Err(Error::NotCreated));
}
