//! Knockout brackets played with chosen winners: byes for the best seeds, the grand
//! final's second match, a withdrawal's walkover, the players each match puts out.

mod common;

use common::Sim;
use tilepost_tournament::*;

fn ko(double: bool, best_of: u8) -> Config {
    Config::single(StageConfig {
        format: Format::Knockout { double },
        best_of,
        table_size: 2,
        entry: Entry::Registered,
    })
}

/// Plays every pending game, the winner chosen by `wins(bracket, seats)` (true: the
/// first seat wins).
fn play(sim: &mut Sim, wins: &dyn Fn(&str, &[String]) -> bool) {
    loop {
        let pending = sim.state.pending_games();
        if pending.is_empty() {
            return;
        }
        for g in pending {
            let seats = &sim.state.stages()[g.stage as usize].rounds[g.round as usize - 1].tables
                [g.table as usize - 1]
                .seats;
            let ids: Vec<String> = seats
                .iter()
                .map(|p| sim.state.players()[*p].id.clone())
                .collect();
            let first = wins(g.bracket.as_deref().unwrap_or(""), &ids);
            sim.push(Event::ResultRecorded {
                stage: g.stage,
                round: g.round,
                table: g.table,
                game: g.game,
                result: GameResult {
                    scores: if first { vec![90, 80] } else { vec![80, 90] },
                    decision: None,
                },
            });
        }
    }
}

/// The better seed (the lower number: ratings fall with registration) wins.
fn better_seed(_: &str, seats: &[String]) -> bool {
    seats[0] < seats[1]
}

fn names(p: &Pairing) -> Vec<(String, Vec<String>)> {
    p.tables
        .iter()
        .map(|t| (t.bracket.clone().unwrap_or_default(), t.seats.clone()))
        .collect()
}

#[test]
fn single_elimination_gives_the_best_seeds_byes() {
    let mut sim = Sim::new(ko(false, 1), 1);
    sim.register(6);
    // 8 places: seeds 1 and 2 meet the missing 8 and 7
    let r1 = sim.pair();
    let mut got: Vec<_> = names(&r1)
        .into_iter()
        .map(|(n, mut s)| {
            s.sort();
            (n, s)
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            (
                "W1.2".to_string(),
                vec!["p004".to_string(), "p005".to_string()]
            ),
            (
                "W1.4".to_string(),
                vec!["p003".to_string(), "p006".to_string()]
            ),
        ]
    );
    play(&mut sim, &better_seed);
    let r2 = sim.pair();
    assert_eq!(r2.tables.len(), 2);
    play(&mut sim, &better_seed);
    let r3 = sim.pair();
    assert_eq!(names(&r3)[0].0, "W3.1");
    play(&mut sim, &better_seed);
    assert!(sim.state.stage_complete());
    let order: Vec<String> = sim
        .state
        .standings()
        .iter()
        .map(|s| s.player.clone())
        .collect();
    assert_eq!(order, ["p001", "p002", "p003", "p004", "p005", "p006"]);
    let b = sim.state.bracket(0).expect("bracket");
    let status = |n: &str| b.iter().find(|m| m.name == n).map(|m| m.status);
    assert_eq!(status("W1.1"), Some("walkover"));
    assert_eq!(status("W1.2"), Some("decided"));
    sim.check_replay();
}

#[test]
fn the_grand_final_is_replayed_only_when_the_losers_champion_wins_it() {
    for upset in [false, true] {
        let mut sim = Sim::new(ko(true, 1), 2);
        sim.register(4);
        let wins = move |bracket: &str, seats: &[String]| {
            if upset && bracket == "GF" {
                // the losers' champion (p002) wins the first final
                seats[0] == "p002"
            } else {
                better_seed(bracket, seats)
            }
        };
        while !sim.state.stage_complete() {
            sim.pair();
            play(&mut sim, &wins);
        }
        let b = sim.state.bracket(0).expect("bracket");
        let gf2 = b.iter().find(|m| m.name == "GF2").expect("GF2");
        assert_eq!(gf2.status, if upset { "decided" } else { "not_needed" });
        let st = sim.state.standings();
        assert_eq!(st[0].player, "p001");
        assert_eq!(st[1].player, "p002");
        sim.check_replay();
    }
}

#[test]
fn a_withdrawn_players_next_match_is_a_walkover() {
    let mut sim = Sim::new(ko(false, 3), 3);
    sim.register(8);
    sim.pair();
    play(&mut sim, &better_seed);
    sim.push(Event::PlayerWithdrew {
        player: "p002".into(),
    });
    // semi-finals: p001 v p004 is played, p002's is a walkover for p003
    let r2 = sim.pair();
    assert_eq!(r2.tables.len(), 1);
    play(&mut sim, &better_seed);
    let r3 = sim.pair();
    let mut finalists = r3.tables[0].seats.clone();
    finalists.sort();
    assert_eq!(finalists, ["p001", "p003"]);
    play(&mut sim, &better_seed);
    assert!(sim.state.stage_complete());
    let st = sim.state.standings();
    let order: Vec<&str> = st.iter().map(|s| s.player.as_str()).collect();
    // p002 went out in the semi-finals' round (behind p004 by seed)
    assert_eq!(&order[..4], ["p001", "p003", "p002", "p004"]);
    assert!(st[2].withdrawn);
    sim.check_replay();
}

/// The players put out of a knockout as it goes: (player, round, bracket, by).
fn out(sim: &Sim) -> Vec<(String, u32, String, String)> {
    sim.state
        .knocked_out(0)
        .into_iter()
        .map(|k| (k.player, k.round, k.bracket, k.by))
        .collect()
}

fn k(player: &str, round: u32, bracket: &str, by: &str) -> (String, u32, String, String) {
    (player.into(), round, bracket.into(), by.into())
}

#[test]
fn single_elimination_puts_out_each_loser_with_the_round_and_the_winner() {
    let mut sim = Sim::new(ko(false, 1), 4);
    sim.register(4);
    assert!(out(&sim).is_empty());
    sim.pair();
    // one semi-final decided: its loser is out at once, the other match goes on
    let first = sim.state.pending_games()[0].clone();
    sim.push(Event::ResultRecorded {
        stage: 0,
        round: 1,
        table: first.table,
        game: 0,
        result: GameResult {
            scores: vec![70, 90],
            decision: None,
        },
    });
    let (a, b) = (first.start_order[0].clone(), first.start_order[1].clone());
    assert_eq!(out(&sim), [k(&a, 1, "W1.1", &b)]);
    play(&mut sim, &better_seed);
    assert_eq!(out(&sim).len(), 2);
    sim.pair();
    play(&mut sim, &better_seed);
    let all = out(&sim);
    assert_eq!(all.len(), 3, "{all:?}");
    assert_eq!(all[2].1, 2);
    assert_eq!(all[2].2, "W2.1");
    assert!(sim.state.stage_complete());
    // a withdrawn player is not listed: their walkover is not a match lost
    let mut sim = Sim::new(ko(false, 1), 5);
    sim.register(8);
    sim.pair();
    play(&mut sim, &better_seed);
    sim.push(Event::PlayerWithdrew {
        player: "p002".into(),
    });
    let listed: Vec<String> = out(&sim).into_iter().map(|o| o.0).collect();
    // in bracket order: 1 v 8, 4 v 5, 2 v 7, 3 v 6
    assert_eq!(listed, ["p008", "p005", "p007", "p006"]);
}

#[test]
fn double_elimination_puts_out_at_the_second_loss() {
    for upset in [false, true] {
        let mut sim = Sim::new(ko(true, 1), 6);
        sim.register(4);
        let wins = move |bracket: &str, seats: &[String]| {
            if upset && bracket == "GF" {
                seats[0] == "p002"
            } else {
                better_seed(bracket, seats)
            }
        };
        // winners' round 1: two first losses, nobody out
        sim.pair();
        play(&mut sim, &wins);
        assert!(out(&sim).is_empty());
        // losers' round 1 and the winners' final: the losers' match puts out p004
        sim.pair();
        play(&mut sim, &wins);
        assert_eq!(out(&sim), [k("p004", 2, "L1.1", "p003")]);
        // losers' final: p003 out by p002 (who lost the winners' final)
        sim.pair();
        play(&mut sim, &wins);
        assert_eq!(out(&sim)[1], k("p003", 3, "L2.1", "p002"));
        // the grand final: without the upset it ends the stage and puts out p002;
        // with it, the second final puts out p001
        sim.pair();
        play(&mut sim, &wins);
        if upset {
            assert_eq!(out(&sim).len(), 2);
            assert!(!sim.state.stage_complete());
            sim.pair();
            play(&mut sim, &|_: &str, seats: &[String]| seats[0] == "p002");
            assert_eq!(out(&sim)[2], k("p001", 5, "GF2", "p002"));
        } else {
            assert_eq!(out(&sim)[2], k("p002", 4, "GF", "p001"));
        }
        assert!(sim.state.stage_complete());
        sim.check_replay();
    }
}
