//! Hand-computed standings: the logs are written out by hand (pairings recorded as
//! data, as the server would record them) and every value below is worked out in the
//! comments.

use tilepost_tournament::*;

fn pts(x: f64) -> Points {
    Points((x * Points::UNIT as f64).round() as i64)
}

struct Log(Vec<Event>);

impl Log {
    fn new(stage: StageConfig, tie_breaks: Vec<TieBreak>, players: &[&str]) -> Log {
        let mut config = Config::single(stage);
        config.tie_breaks = tie_breaks;
        let mut v = vec![Event::TournamentCreated { config }];
        for (i, p) in players.iter().enumerate() {
            v.push(Event::PlayerRegistered {
                player: p.to_string(),
                rating: Some(2000 - i as i32),
            });
        }
        Log(v)
    }

    /// A round of 2-player games: (first seat, second seat, their scores).
    fn round(&mut self, round: u32, games: &[(&str, &str, i64, i64)], byes: &[&str]) {
        self.0.push(Event::RoundPaired {
            stage: 0,
            round,
            tables: games
                .iter()
                .enumerate()
                .map(|(i, (a, b, _, _))| Table {
                    table: i as u32 + 1,
                    seats: vec![a.to_string(), b.to_string()],
                    bracket: None,
                })
                .collect(),
            byes: byes.iter().map(|b| b.to_string()).collect(),
        });
        for (i, (_, _, sa, sb)) in games.iter().enumerate() {
            self.0.push(Event::ResultRecorded {
                stage: 0,
                round,
                table: i as u32 + 1,
                game: 0,
                result: GameResult {
                    scores: vec![*sa, *sb],
                    decision: None,
                },
            });
        }
    }

    fn withdraw(&mut self, p: &str) {
        self.0.push(Event::PlayerWithdrew {
            player: p.to_string(),
        });
    }

    fn state(&self) -> State {
        Tournament::replay(&self.0).expect("replays")
    }
}

fn swiss(rounds: u32) -> StageConfig {
    StageConfig {
        format: Format::Swiss { rounds },
        best_of: 1,
        table_size: 2,
        entry: Entry::Registered,
    }
}

fn order(st: &[Standing]) -> Vec<&str> {
    st.iter().map(|s| s.player.as_str()).collect()
}

/// Six players, three rounds, no draws but one:
///
/// | round | games (scores)                           |
/// |-------|------------------------------------------|
/// | 1     | A–B 100:80, C–D 90:70, E–F 85:75         |
/// | 2     | A–C 95:85, E–B 78:88, D–F 80:80 (drawn)  |
/// | 3     | A–E 70:90, C–F 100:60, B–D 90:85         |
///
/// Points: A 1+1+0 = 2, B 0+1+1 = 2, C 1+0+1 = 2, E 1+0+1 = 2, D 0+½+0 = ½, F ½.
///
/// Buchholz (opponents' points) and cut-1 (without the lowest):
/// - A: B 2, C 2, E 2 = 6, cut-1 4
/// - B: A 2, E 2, D ½ = 4½, cut-1 4
/// - E: F ½, B 2, A 2 = 4½, cut-1 4
/// - C: D ½, A 2, F ½ = 3, cut-1 2½
/// - D: C 2, F ½, B 2 = 4½, cut-1 4;  F: E 2, D ½, C 2 = 4½, cut-1 4
///
/// Sonneborn-Berger (points of those beaten, half of those drawn with):
/// A: B 2 + C 2 = 4; B: E 2 + D ½ = 2½; E: F ½ + A 2 = 2½; C: D ½ + F ½ = 1;
/// D: ½·F ½ = ¼; F: ½·D ½ = ¼.
///
/// Score difference: A +20 +10 −20 = +10; B −20 +10 +5 = −5; E +10 −10 +20 = +20;
/// C +20 −10 +40 = +50; D −20 +0 −5 = −25; F −10 +0 −40 = −50.
fn six_players() -> Log {
    let mut log = Log::new(swiss(3), Vec::new(), &["A", "B", "C", "D", "E", "F"]);
    log.round(
        1,
        &[("A", "B", 100, 80), ("C", "D", 90, 70), ("E", "F", 85, 75)],
        &[],
    );
    log.round(
        2,
        &[("A", "C", 95, 85), ("E", "B", 78, 88), ("D", "F", 80, 80)],
        &[],
    );
    log.round(
        3,
        &[("A", "E", 70, 90), ("C", "F", 100, 60), ("B", "D", 90, 85)],
        &[],
    );
    log
}

#[test]
fn buchholz_cut_1_then_sonneborn_berger_decide() {
    let mut log = six_players();
    if let Event::TournamentCreated { config } = &mut log.0[0] {
        config.tie_breaks = vec![
            TieBreak::BuchholzCut1,
            TieBreak::SonnebornBerger,
            TieBreak::ScoreDifference,
        ];
    }
    let st = log.state().standings();
    // on 2 points: cut-1 puts A, B, E (4) above C (2½); Sonneborn-Berger puts A (4)
    // above B and E (2½ each); score difference puts E (+20) above B (−5). On ½: cut-1
    // and SB tie D and F, score difference puts D (−25) above F (−50).
    assert_eq!(order(&st), ["A", "E", "B", "C", "D", "F"]);
    let values: Vec<Vec<Points>> = st
        .iter()
        .map(|s| s.tie_breaks.iter().map(|(_, v)| *v).collect())
        .collect();
    assert_eq!(values[0], [pts(4.0), pts(4.0), pts(10.0)]);
    assert_eq!(values[1], [pts(4.0), pts(2.5), pts(20.0)]);
    assert_eq!(values[2], [pts(4.0), pts(2.5), pts(-5.0)]);
    assert_eq!(values[3], [pts(2.5), pts(1.0), pts(50.0)]);
    assert_eq!(values[4], [pts(4.0), pts(0.25), pts(-25.0)]);
    assert_eq!(values[5], [pts(4.0), pts(0.25), pts(-50.0)]);
    assert_eq!(
        st.iter().map(|s| s.points).collect::<Vec<_>>(),
        [pts(2.0), pts(2.0), pts(2.0), pts(2.0), pts(0.5), pts(0.5)]
    );
}

#[test]
fn the_world_championship_order_is_the_default() {
    // cut-1 (A, B, E on 4; C 2½), then score difference: E +20, A +10, B −5
    let st = six_players().state().standings();
    assert_eq!(order(&st), ["E", "A", "B", "C", "D", "F"]);
    assert_eq!(
        st[0].tie_breaks,
        [
            (TieBreak::BuchholzCut1, pts(4.0)),
            (TieBreak::ScoreDifference, pts(20.0))
        ]
    );
}

#[test]
fn head_to_head_among_the_tied_players() {
    let mut log = six_players();
    if let Event::TournamentCreated { config } = &mut log.0[0] {
        config.tie_breaks = vec![
            TieBreak::SonnebornBerger,
            TieBreak::HeadToHead,
            TieBreak::Buchholz,
        ];
    }
    // SB: A 4, then B and E on 2½: B beat E in round 2, so B first (head-to-head 1 to
    // 0); C 1; D and F on ¼ drew each other (½ each), Buchholz 4½ each: the seeded draw
    let st = log.state().standings();
    assert_eq!(order(&st)[..4], ["A", "B", "E", "C"]);
    assert_eq!(st[1].tie_breaks[1], (TieBreak::HeadToHead, pts(1.0)));
    assert_eq!(st[2].tie_breaks[1], (TieBreak::HeadToHead, pts(0.0)));
    assert_eq!(st[4].tie_breaks[1], (TieBreak::HeadToHead, pts(0.5)));
    assert_eq!(st[4].tie_breaks[2], (TieBreak::Buchholz, pts(4.5)));
    assert_eq!(st[5].tie_breaks[2], (TieBreak::Buchholz, pts(4.5)));
}

/// Five players, three rounds, a bye worth a win (1 point); D withdraws after round 2.
///
/// | round | games                           | bye |
/// |-------|---------------------------------|-----|
/// | 1     | A beats B, C beats D            | E   |
/// | 2     | A–C drawn, E beats B            | D   |
/// | 3     | A beats E, C beats B            | (D has withdrawn: 4 players, no bye) |
///
/// Points: A 1+½+1 = 2½, C 1+½+1 = 2½, E 1(bye)+1+0 = 2, D 0+1(bye) = 1, B 0.
///
/// A bye counts as a game against a virtual opponent with the player's own final
/// points; a withdrawn player counts with the points they finished with.
///
/// Buchholz / cut-1:
/// - A: B 0, C 2½, E 2 = 4½; cut-1 drops B's 0: 4½
/// - C: D 1, A 2½, B 0 = 3½; cut-1 drops 0: 3½
/// - E: virtual 2, B 0, A 2½ = 4½; cut-1 4½
/// - D: C 2½, virtual 1 = 3½; cut-1 drops 1: 2½
/// - B: A 2½, E 2, C 2½ = 7; cut-1 drops 2: 5
///
/// Sonneborn-Berger (a bye is a win against the virtual opponent):
/// A: B 0 + ½·C 2½ + E 2 = 3¼; C: D 1 + ½·A 2½ + B 0 = 2¼; E: virtual 2 + B 0 = 2;
/// D: virtual 1 = 1; B: 0.
#[test]
fn byes_and_a_withdrawal_in_buchholz() {
    let mut log = Log::new(
        swiss(3),
        vec![
            TieBreak::Buchholz,
            TieBreak::BuchholzCut1,
            TieBreak::SonnebornBerger,
        ],
        &["A", "B", "C", "D", "E"],
    );
    log.round(1, &[("A", "B", 90, 80), ("C", "D", 90, 80)], &["E"]);
    log.round(2, &[("A", "C", 85, 85), ("E", "B", 90, 80)], &["D"]);
    log.withdraw("D");
    log.round(3, &[("A", "E", 90, 80), ("C", "B", 90, 80)], &[]);
    let state = log.state();
    assert!(state.stage_complete());
    let st = state.standings();
    // A and C on 2½: Buchholz 4½ against 3½
    assert_eq!(order(&st), ["A", "C", "E", "D", "B"]);
    let line = |p: &str| st.iter().find(|s| s.player == p).expect(p);
    let tb = |p: &str| -> Vec<Points> { line(p).tie_breaks.iter().map(|(_, v)| *v).collect() };
    assert_eq!(tb("A"), [pts(4.5), pts(4.5), pts(3.25)]);
    assert_eq!(tb("C"), [pts(3.5), pts(3.5), pts(2.25)]);
    assert_eq!(tb("E"), [pts(4.5), pts(4.5), pts(2.0)]);
    assert_eq!(tb("D"), [pts(3.5), pts(2.5), pts(1.0)]);
    assert_eq!(tb("B"), [pts(7.0), pts(5.0), pts(0.0)]);
    assert!(line("D").withdrawn);
    assert_eq!(line("D").byes, 1);
    assert_eq!(line("E").points, pts(2.0));
    // a withdrawn player is never paired again
    let next = state.next_pairing(1);
    assert_eq!(next, Err(Error::StageComplete));
}

/// Four players in a single round robin (Berger rounds A–D, B–C; C–A, D–B; A–B, C–D).
/// D beats A in round 1 and withdraws; B beats C; then A beats C and A beats B.
///
/// - forfeit_unplayed: D's unplayed games (against B in round 2, C in round 3) are
///   lost by forfeit. A 0+1+1 = 2, B 1+1(forfeit)+0 = 2, C 0+0+1(forfeit) = 1,
///   D 1+0+0 = 1.
/// - remove_under_half: D played 1 of 3 (fewer than 1½): all D's results go. A 1+1 = 2,
///   B 1+0 = 1, C 0, D nothing.
#[test]
fn round_robin_withdrawal_rules() {
    for (rule, want) in [
        (WithdrawalRule::ForfeitUnplayed, [2.0, 2.0, 1.0, 1.0]),
        (WithdrawalRule::RemoveUnderHalf, [2.0, 1.0, 0.0, 0.0]),
    ] {
        let stage = StageConfig {
            format: Format::RoundRobin {
                double: false,
                groups: 1,
            },
            best_of: 1,
            table_size: 2,
            entry: Entry::Registered,
        };
        let mut log = Log::new(stage, Vec::new(), &["A", "B", "C", "D"]);
        if let Event::TournamentCreated { config } = &mut log.0[0] {
            config.withdrawal = rule;
        }
        log.round(1, &[("A", "D", 70, 80), ("B", "C", 90, 80)], &[]);
        log.withdraw("D");
        let state = log.state();
        let p = state.next_pairing(0).expect("round 2");
        assert_eq!(p.tables.len(), 1, "D–B is not paired");
        assert_eq!(p.tables[0].seats, ["C", "A"]);
        log.round(2, &[("C", "A", 80, 90)], &[]);
        let p = log.state().next_pairing(0).expect("round 3");
        assert_eq!(p.tables.len(), 1);
        let seats = p.tables[0].seats.clone();
        let (a, b) = (seats[0].as_str(), seats[1].as_str());
        let score = |x: &str| if x == "A" { 90 } else { 80 };
        log.round(3, &[(a, b, score(a), score(b))], &[]);
        let state = log.state();
        assert!(state.stage_complete());
        let st = state.standings();
        let points = |p: &str| st.iter().find(|s| s.player == p).expect(p).points;
        assert_eq!(
            [points("A"), points("B"), points("C"), points("D")],
            want.map(pts),
            "{rule:?}"
        );
    }
}

/// At a 4-player table with rank points 3/2/1/0, scores 100, 80, 80, 50: places 1, 2=,
/// 2=, 4; the tied players share 2 and 1: 1½ each. Sonneborn-Berger weights each
/// opponent by the share won against them (1 above, ½ tied, 0 below).
#[test]
fn shared_places_at_a_multi_player_table() {
    let mut log = Log::new(
        StageConfig {
            format: Format::Swiss { rounds: 1 },
            best_of: 1,
            table_size: 4,
            entry: Entry::Registered,
        },
        vec![TieBreak::SonnebornBerger, TieBreak::ScoreDifference],
        &["A", "B", "C", "D"],
    );
    log.0.push(Event::RoundPaired {
        stage: 0,
        round: 1,
        tables: vec![Table {
            table: 1,
            seats: ["A", "B", "C", "D"].map(String::from).to_vec(),
            bracket: None,
        }],
        byes: Vec::new(),
    });
    log.0.push(Event::ResultRecorded {
        stage: 0,
        round: 1,
        table: 1,
        game: 0,
        result: GameResult {
            scores: vec![100, 80, 80, 50],
            decision: None,
        },
    });
    let st = log.state().standings();
    assert_eq!(order(&st)[0], "A");
    assert_eq!(order(&st)[3], "D");
    let line = |p: &str| st.iter().find(|s| s.player == p).expect(p).clone();
    assert_eq!(line("A").points, pts(3.0));
    assert_eq!(line("B").points, pts(1.5));
    assert_eq!(line("C").points, pts(1.5));
    assert_eq!(line("D").points, pts(0.0));
    // A: B 1½ + C 1½ + D 0 = 3; B: ½·C 1½ + D 0 = ¾
    assert_eq!(line("A").tie_breaks[0].1, pts(3.0));
    assert_eq!(line("B").tie_breaks[0].1, pts(0.75));
    // score difference: own score minus the others' mean: A 100 − 70 = 30,
    // B 80 − 230/3 = 3⅓, D 50 − 260/3 = −36⅔
    assert_eq!(line("A").tie_breaks[1].1, pts(30.0));
    assert_eq!(line("B").tie_breaks[1].1, Points(400));
    assert_eq!(line("D").tie_breaks[1].1, Points(-4400));
    // game points: the share of opponents beaten: A 1, B (1 + ½)/3 = ½, D 0
    assert_eq!(line("B").game_points, pts(0.5));
}
