//! Simulated events: results drawn from a seeded RNG instead of played games. Each
//! checks no avoidable repeat, balanced starts, at most one bye per player, every game
//! finished or decided, and that replaying the log from scratch gives the state (and
//! standings) maintained event by event.

mod common;

use common::{swiss, Sim};
use tilepost_tournament::*;

fn stage(format: Format, best_of: u8, entry: Entry) -> StageConfig {
    StageConfig {
        format,
        best_of,
        table_size: 2,
        entry,
    }
}

#[test]
fn swiss_64_players_6_rounds_best_of_1() {
    for seed in [1, 2, 3] {
        let mut sim = Sim::new(Config::single(swiss(6, 1, 2)), seed);
        sim.register(64);
        sim.run_stage();
        assert!(sim.state.is_finished());
        assert_eq!(sim.repeats(), 0, "seed {seed}");
        assert!(sim.max_imbalance() <= 1, "seed {seed}: {:?}", sim.balance());
        sim.check_start_rule();
        sim.check_byes();
        sim.check_all_decided();
        sim.check_replay();
        let st = sim.state.standings();
        assert_eq!(st.len(), 64);
        assert!(st.windows(2).all(|w| w[0].points >= w[1].points));
    }
}

#[test]
fn swiss_with_late_entries_withdrawals_and_byes() {
    let mut sim = Sim::new(Config::single(swiss(7, 1, 2)), 9);
    sim.register(21);
    for round in 1..=7 {
        if round == 2 {
            sim.register(2); // late entries, with no points
        }
        if round == 4 {
            sim.push(Event::PlayerWithdrew {
                player: "p005".into(),
            });
        }
        let p = sim.pair();
        assert!(
            !p.tables
                .iter()
                .any(|t| t.seats.contains(&"p005".to_string()))
                || round < 4
        );
        sim.play_out();
    }
    assert!(sim.state.stage_complete());
    let fin = sim.state.finish_stage().expect("finish");
    sim.push(fin);
    assert_eq!(sim.repeats(), 0);
    assert!(sim.max_imbalance() <= 1, "{:?}", sim.balance());
    sim.check_byes();
    sim.check_all_decided();
    sim.check_replay();
    let byes: usize = sim.state.stages()[0]
        .rounds
        .iter()
        .map(|r| r.byes.len())
        .sum();
    // 21 players in round 1, 23 in rounds 2 and 3, 22 from round 4
    assert_eq!(byes, 3);
}

#[test]
fn double_round_robin_8_players() {
    let mut config = Config::single(stage(
        Format::RoundRobin {
            double: true,
            groups: 1,
        },
        1,
        Entry::Registered,
    ));
    config.tie_breaks = vec![TieBreak::SonnebornBerger, TieBreak::HeadToHead];
    let mut sim = Sim::new(config, 4);
    sim.register(8);
    sim.run_stage();
    assert_eq!(sim.state.stages()[0].rounds.len(), 14);
    // every pair met exactly twice, once with each start
    let mut met = std::collections::BTreeMap::new();
    for r in &sim.state.stages()[0].rounds {
        assert_eq!(r.tables.len(), 4);
        for t in &r.tables {
            *met.entry((t.seats[0], t.seats[1])).or_insert(0) += 1;
        }
    }
    assert_eq!(met.len(), 56);
    assert!(met.values().all(|c| *c == 1));
    assert!(sim.max_imbalance() <= 1, "{:?}", sim.balance());
    sim.check_byes();
    sim.check_all_decided();
    sim.check_replay();
    assert!(sim.state.is_finished());
}

#[test]
fn double_elimination_16_players_best_of_3() {
    let mut sim = Sim::new(
        Config::single(stage(
            Format::Knockout { double: true },
            3,
            Entry::Registered,
        )),
        5,
    );
    sim.register(16);
    sim.run_stage();
    assert!(sim.state.is_finished());
    let bracket = sim.state.bracket(0).expect("bracket");
    // 15 winners' matches, 14 losers', the final and maybe its second match
    assert_eq!(bracket.len(), 31);
    let played = bracket.iter().filter(|m| m.status == "decided").count();
    assert!(played == 30 || played == 31, "{played}");
    // everyone but the champion lost twice
    let st = sim.state.standings();
    let champion = &st[0].player;
    for s in &st {
        let losses = bracket
            .iter()
            .filter(|m| m.status == "decided" && m.winner.as_ref() != Some(&s.player))
            .filter(|m| m.players.iter().any(|p| p.as_ref() == Some(&s.player)))
            .count();
        if &s.player == champion {
            assert!(losses <= 1);
        } else {
            assert_eq!(losses, 2, "{}", s.player);
        }
    }
    sim.check_start_rule();
    sim.check_all_decided();
    sim.check_replay();
    for st in sim.state.stages() {
        for r in &st.rounds {
            for t in &r.tables {
                assert!((2..=3).contains(&t.games.len()));
            }
        }
    }
}

#[test]
fn swiss_30_players_at_4_player_tables() {
    let mut sim = Sim::new(Config::single(swiss(5, 1, 4)), 6);
    sim.register(30);
    sim.run_stage();
    for r in &sim.state.stages()[0].rounds {
        let mut sizes: Vec<usize> = r.tables.iter().map(|t| t.seats.len()).collect();
        sizes.sort();
        assert_eq!(sizes, vec![3, 3, 4, 4, 4, 4, 4, 4]);
        assert!(r.byes.is_empty());
    }
    // 5 rounds of 3 opponents: repeats are avoidable for 30 players
    assert_eq!(sim.repeats(), 0);
    // starts: nobody starts twice before everyone at their tables has started once
    let starts = sim.state.starts();
    let max = starts.iter().map(|s| s.0).max().unwrap_or(0);
    assert!(max <= 2, "{starts:?}");
    sim.check_byes();
    sim.check_all_decided();
    sim.check_replay();
}

#[test]
fn swiss_then_top_8_knockout() {
    let mut config = Config::single(swiss(5, 1, 2));
    config.stages.push(stage(
        Format::Knockout { double: false },
        3,
        Entry::Top { count: 8 },
    ));
    let mut sim = Sim::new(config, 7);
    sim.register(40);
    sim.run_stage();
    let top8: Vec<String> = sim.state.standings_of(0)[..8]
        .iter()
        .map(|s| s.player.clone())
        .collect();
    assert_eq!(sim.state.current_stage(), 1);
    sim.run_stage();
    assert!(sim.state.is_finished());
    let ko = sim.state.standings();
    assert_eq!(ko.len(), 8);
    let mut in_ko: Vec<String> = ko.iter().map(|s| s.player.clone()).collect();
    in_ko.sort();
    let mut want = top8.clone();
    want.sort();
    assert_eq!(in_ko, want);
    // round 1 of the knockout: seed 1 v 8, 4 v 5, 2 v 7, 3 v 6
    let first = &sim.state.stages()[1].rounds[0].tables;
    assert_eq!(first.len(), 4);
    let pair = |a: usize, b: usize| {
        first.iter().any(|t| {
            let mut s: Vec<String> = t
                .seats
                .iter()
                .map(|p| sim.state.players()[*p].id.clone())
                .collect();
            s.sort();
            let mut w = vec![top8[a].clone(), top8[b].clone()];
            w.sort();
            s == w
        })
    };
    assert!(pair(0, 7) && pair(3, 4) && pair(1, 6) && pair(2, 5));
    assert_eq!(sim.state.stages()[1].rounds.len(), 3);
    assert_eq!(sim.repeats(), 0);
    sim.check_start_rule();
    sim.check_byes();
    sim.check_all_decided();
    sim.check_replay();
}

#[test]
fn groups_then_playoffs() {
    let mut config = Config::single(stage(
        Format::RoundRobin {
            double: false,
            groups: 4,
        },
        1,
        Entry::Registered,
    ));
    config.stages.push(stage(
        Format::Knockout { double: false },
        1,
        Entry::Top { count: 8 },
    ));
    let mut sim = Sim::new(config, 8);
    sim.register(18);
    sim.run_stage();
    let st = sim.state.standings_of(0);
    let winners: Vec<&Standing> = st.iter().filter(|s| s.group.is_some()).collect();
    assert_eq!(winners.len(), 18);
    // the qualifiers: the 4 group winners first, then the 4 runners-up
    let q = &sim.state.stages()[1].entrants;
    assert_eq!(q.len(), 8);
    sim.run_stage();
    assert!(sim.state.is_finished());
    sim.check_byes();
    sim.check_all_decided();
    sim.check_replay();
}
