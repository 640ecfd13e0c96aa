//! The River as the rulebook states it (`shared/rules/river.md`): examples R1–R5. The
//! spring `S` is the start tile at (0,0) r0, the river leaving east.

mod common;

use common::{Table, BLUE, GREEN, RED};
use tilepost_engine::{Effect, FeatureKind, Phase, PlayError, Pos};

fn river(players: u8, tiles: &[&str]) -> Table {
    let t = Table::with(&["river"], players, tiles);
    assert_eq!(t.edges(0, 0), "FIFF", "the spring is the start tile");
    t
}

fn placements(t: &Table) -> Vec<(i32, i32, u16)> {
    let mut v = Vec::new();
    t.game.placements_into(&mut v);
    let mut out: Vec<(i32, i32, u16)> = v
        .into_iter()
        .map(|(p, r)| (p.x, p.y, r.degrees()))
        .collect();
    out.sort();
    out
}

#[test]
fn the_spring_replaces_the_start_tile_and_the_lake_comes_last() {
    // a shuffled game: 11 river tiles first, the lake the 11th
    let config = tilepost_engine::GameConfig {
        players: 2,
        expansions: vec![tilepost_engine::Expansion::River],
        tile_order: None,
        seed: 99,
        rules: Default::default(),
    };
    let (g, _) = tilepost_engine::Game::new(&config).expect("set-up");
    assert_eq!(
        g.tiles_left() + 1,
        71 + 11,
        "71 base tiles and 11 river tiles"
    );
    let start = g.board().tile_at(Pos::new(0, 0)).expect("start tile");
    assert_eq!(start.tile_type().id, "river/01-spring");
    let drawn = g.pending().and_then(|p| p.tile).expect("a tile is drawn");
    assert!(tilepost_engine::catalog()
        .get(drawn)
        .id
        .starts_with("river/"));
    let base_d = g
        .tiles_left_by_type()
        .into_iter()
        .find(|(t, _)| tilepost_engine::catalog().get(*t).id == "base/D")
        .map(|(_, n)| n);
    assert_eq!(base_d, Some(3), "the base start copy stays in the box");
}

// ----- Example R1 — curve legality (no immediate U-turn) -----------------------------------

#[test]
fn r1_a_curve_may_not_turn_the_same_way_twice() {
    let mut t = river(2, &["river/10-ffii", "river/11-ffii-garden"]);
    // 1. Red's curve at (1,0): r0 turns right (flowing E -> S), r1 turns left (E -> N).
    assert_eq!(placements(&t), vec![(1, 0, 0), (1, 0, 90)]);
    t.place(1, 0, 0).pass();
    assert_eq!(t.edges(1, 0), "FFII");
    // 2. Blue's curve at (1,-1): r1 would turn right again — illegal; r2 turns left.
    assert_eq!(placements(&t), vec![(1, -1, 180)]);
    let err = t.try_place(1, -1, 90).unwrap_err();
    assert_eq!(err.code(), "tile-does-not-fit", "{err}");
    assert!(err.to_string().contains("same way"), "{err}");
    t.place(1, -1, 180);
    assert_eq!(t.edges(1, -1), "IIFF");
    t.pass();
    t.assert_replays();
}

#[test]
fn r1_a_straight_piece_resets_the_turn_rule() {
    let mut t = river(
        3,
        &["river/10-ffii", "river/07-fifi", "river/11-ffii-garden"],
    );
    t.place(1, 0, 0).pass(); // right turn, flowing S
    t.place(1, -1, 90).pass(); // straight N-S
    assert_eq!(t.edges(1, -1), "IFIF");
    // the next curve may turn right again
    assert!(placements(&t).contains(&(1, -2, 90)));
    t.place(1, -2, 90).pass();
    assert_eq!(t.edges(1, -2), "IFFI");
    t.assert_replays();
}

// ----- Example R2 — the river separates fields; the spring field wraps round ---------------

#[test]
fn r2_the_river_separates_fields() {
    let mut t = river(3, &["river/04-ciri", "river/07-fifi", "base/E"]);
    // 1. Red: (1,0) CIRI with a farmer on the south-east field [Er Sl].
    t.place(1, 0, 0);
    assert_eq!(t.edges(1, 0), "CIRI");
    t.figure("ESE");
    // 2. Blue: (2,0) FIFI with a farmer on its north field, which joins (1,0)[El].
    t.place(2, 0, 0);
    assert_eq!(t.edges(2, 0), "FIFI");
    t.figure("NNW");
    // no follower may stand on the water
    // 3. Green closes the city {(1,0) cap, (1,1) cap}; nobody is in it.
    t.place(1, 1, 180).pass();
    assert!(t.is_over());
    // 4. Blue's field touches the completed city: +3. Red's field south of the river: 0.
    assert_eq!(t.score(BLUE), 3);
    assert_eq!(t.score(RED), 0);
    assert_eq!(t.score(GREEN), 0);
    t.assert_replays();

    // The spring's single field joins (1,0)[Wr] and (1,0)[Wl Sr] round the source, so it
    // touches the city although part of it lies south of the river.
    let b = t.game.board();
    let spring = b.tile_index_at(Pos::new(0, 0)).expect("spring");
    let ciri = b.tile_at(Pos::new(1, 0)).expect("(1,0)");
    let ciri_i = b.tile_index_at(Pos::new(1, 0)).expect("(1,0)");
    let tt = ciri.tile_type();
    let half = |h: tilepost_engine::Half| tt.half_feature[0][h.index()] as usize;
    let north_of_river = b.find(b.seg(ciri_i, half(tilepost_engine::Half::Wr)));
    let south_of_river = b.find(b.seg(ciri_i, half(tilepost_engine::Half::Wl)));
    let spring_field = b.find(b.seg(spring, 1));
    assert_eq!(b.seg_kind(spring_field), FeatureKind::Field);
    assert_eq!(north_of_river, spring_field);
    assert_eq!(south_of_river, spring_field);
    let mut cities = Vec::new();
    b.field_cities(spring_field, &mut cities);
    assert_eq!(cities.len(), 1);
    assert_eq!(
        b.open_sides(cities[0]),
        0,
        "the city is complete: a farmer there would score 3"
    );
}

#[test]
fn no_figure_may_stand_on_the_river() {
    let mut t = river(2, &["river/07-fifi"]);
    t.place(1, 0, 0);
    assert_eq!(
        t.try_figure("E"),
        Err(PlayError::FigureNotAllowed {
            figure: "follower",
            feature: "river"
        })
    );
    let listed = t.game.legal_actions();
    assert!(listed
        .iter()
        .all(|a| !matches!(a, tilepost_engine::Action::PlaceFigure { spot, .. } if spot == "E" || spot == "W")));
}

// ----- Example R3 — road over a bridge, completed after the river phase ---------------------

#[test]
fn r3_road_over_a_bridge() {
    // Seats shift by one: the highwayman on the bridge is Blue's here.
    let mut t = river(3, &["river/10-ffii", "river/06-irir", "base/W", "base/A"]);
    t.place(1, 0, 90).pass();
    assert_eq!(t.edges(1, 0), "IFFI");
    t.place(1, 1, 0);
    assert_eq!(t.edges(1, 1), "IRIR");
    t.figure("W");
    t.place(0, 1, 180).pass();
    assert_eq!(t.edges(0, 1), "RRFR");
    t.place(2, 1, 90);
    assert_eq!(t.edges(2, 1), "FFFR");
    t.pass();
    // road {(0,1),(1,1),(2,1)} closed at both ends: 3 tiles
    assert_eq!(
        t.all_scored().first().cloned(),
        Some((FeatureKind::Road, 3, vec![BLUE], false))
    );
    assert_eq!(t.scores(), vec![0, 3, 0]);
    // the 4 field quarters of the bridge tile are separate segments: road and river
    // both cut them
    let bridge = t.game.board().tile_at(Pos::new(1, 1)).expect("bridge");
    let quarters: Vec<u32> = bridge
        .tile_type()
        .features
        .iter()
        .filter(|f| f.kind == FeatureKind::Field)
        .map(|f| f.halves.count_ones())
        .collect();
    assert_eq!(quarters, vec![2, 2, 2, 2]);
    t.assert_replays();
}

// ----- Example R4 — two cities on one river tile ---------------------------------------------

#[test]
fn r4_two_cities_on_one_river_tile() {
    let mut t = river(2, &["river/03-cici", "base/E"]);
    t.place(1, 0, 0);
    assert_eq!(t.edges(1, 0), "CICI");
    t.figure("N");
    t.place(1, 1, 180).pass();
    assert_eq!(t.scored()[0], (FeatureKind::City, 4, vec![RED], false));
    assert_eq!(t.scores(), vec![4, 0]);
    // the south cap is another city
    let b = t.game.board();
    let i = b.tile_index_at(Pos::new(1, 0)).expect("(1,0)");
    let tt = b.tiles()[i].tile_type();
    let n = tt.edge_feature[0][0] as usize;
    let s = tt.edge_feature[0][2] as usize;
    assert_ne!(b.find(b.seg(i, n)), b.find(b.seg(i, s)));
    assert!(!b.is_complete(b.seg(i, s)));
}

// ----- Example R5 — a river tile that must be discarded --------------------------------------

#[test]
fn r5_a_river_tile_with_no_legal_placement_is_discarded() {
    let mut t = river(
        2,
        &[
            "river/10-ffii",
            "base/B",
            "base/B",
            "river/11-ffii-garden",
            "river/02-lake",
        ],
    );
    t.place(1, 0, 0).pass(); // right turn, open end (1,-1)
    t.place(2, 0, 0).pass(); // monasteries beside the river
    t.place(2, -1, 0).pass();
    // The garden curve: r1 would repeat the right turn, r2 would point the river at (2,-1).
    let discarded: Vec<&Effect> = t
        .last
        .iter()
        .filter(|e| matches!(e, Effect::TileDiscarded { tile } if tile == "river/11-ffii-garden"))
        .collect();
    assert_eq!(discarded.len(), 1, "{:?}", t.last);
    assert_eq!(t.drawn(), Some("river/02-lake"));
    assert_eq!(t.game.phase(), Phase::PlaceTile);
    t.place(1, -1, 90).pass();
    assert_eq!(t.edges(1, -1), "IFFF");
    assert!(t.is_over());
    t.assert_replays();
}

#[test]
fn a_river_tile_must_continue_the_open_end() {
    let mut t = river(2, &["river/07-fifi", "river/07-fifi"]);
    t.place(1, 0, 0).pass();
    // (0,1) has no river: not adjacent to the open end
    let err = t.try_place(-1, 0, 0).unwrap_err();
    assert_eq!(err.code(), "tile-does-not-fit");
    assert_eq!(placements(&t), vec![(2, 0, 0), (2, 0, 180)]);
}
