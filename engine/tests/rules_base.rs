//! The base game as the rulebook states it (`shared/rules/base.md`): every worked example
//! B1–B7 with its exact scores, and the edge cases of §9. The start tile `T0` is `base/D`
//! r0 at (0,0): city cap north, road west–east.

mod common;

use common::{Table, BLUE, GREEN, RED};
use tilepost_engine::rules::SmallCity;
use tilepost_engine::{
    Action, Effect, Event, FeatureKind, FigureKind, Game, GameConfig, HouseRules, Phase, PlayError,
    Rotation,
};

use FeatureKind::{City, Field, Monastery, Road};

// ----- Example B1 — two knights merged into one city: tie, both score ---------------------

fn example_b1(closing_tile: &str) -> Table {
    let mut t = Table::new(3, &["base/D", "base/N", closing_tile]);
    // 1. Red places (1,0) base/D r0; its road joins T0's road. Red puts a knight on its own
    //    city cap, a separate, empty city.
    t.place(1, 0, 0).figure("N");
    assert_eq!(t.edges(1, 0), "CRFR");
    // 2. Blue places (0,1) base/N r2 (city E–S); its S side joins T0's cap, which is empty.
    t.place(0, 1, 180);
    assert_eq!(t.edges(0, 1), "FCCF");
    t.figure("S");
    // 3. Green places (1,1) r3 (city S–W): S joins Red's cap, W joins Blue's city.
    t.place(1, 1, 270);
    assert_eq!(t.edges(1, 1), "FFCC");
    t
}

#[test]
fn b1_two_knights_merged_into_one_city_both_score() {
    let mut t = example_b1("base/N");
    // Green may not put a knight in this city: it is occupied.
    assert_eq!(t.try_figure("S"), Err(PlayError::FeatureOccupied("city")));
    assert_eq!(t.try_figure("W"), Err(PlayError::FeatureOccupied("city")));
    let city_spots: Vec<Action> = t
        .game
        .legal_actions()
        .into_iter()
        .filter(|a| matches!(a, Action::PlaceFigure { spot, .. } if spot == "S" || spot == "W"))
        .collect();
    assert!(city_spots.is_empty(), "{city_spots:?}");
    t.pass();
    // The city {T0 cap, (0,1), (1,1), (1,0) cap} is complete: 4 tiles = 8, a tie.
    assert_eq!(t.scored(), vec![(City, 8, vec![RED, BLUE], false)]);
    assert_eq!(t.scores(), vec![8, 8, 0]);
    // Both knights return.
    assert_eq!((t.supply(RED), t.supply(BLUE), t.supply(GREEN)), (7, 7, 7));
    assert!(t.game.board().figures.is_empty());
    // Tied players share the first place.
    assert!(t.is_over());
    assert_eq!(t.ranks(), vec![1, 1, 3]);
    t.assert_replays();
}

#[test]
fn b1_variant_with_a_pennant_is_worth_ten_to_each() {
    let mut t = example_b1("base/M");
    t.pass();
    // 4 tiles × 2 + 1 pennant × 2
    assert_eq!(t.scored(), vec![(City, 10, vec![RED, BLUE], false)]);
    assert_eq!(t.scores(), vec![10, 10, 0]);
    t.assert_replays();
}

#[test]
fn b1_placements_list_no_knight_for_the_occupied_city() {
    let t = {
        let mut t = Table::new(3, &["base/D", "base/N", "base/N"]);
        t.place(1, 0, 0).figure("N");
        t.place(0, 1, 180).figure("S");
        t
    };
    // Before Green places: the listed placement (1,1) r3 offers a farmer but no knight.
    let p = t
        .game
        .placements()
        .into_iter()
        .find(|p| p.pos == tilepost_engine::Pos::new(1, 1) && p.rotation.degrees() == 270)
        .expect("(1,1) r3 is legal");
    let tt = tilepost_engine::catalog().get(t.game.pending().unwrap().tile.unwrap());
    let kinds: Vec<FeatureKind> = p
        .spots
        .iter()
        .map(|s| tt.features[s.feature as usize].kind)
        .collect();
    assert_eq!(kinds, vec![Field]);
}

// ----- Example B2 — road loop ------------------------------------------------------------

#[test]
fn b2_road_loop_is_complete() {
    let mut t = Table::new(3, &["base/V", "base/V", "base/V", "base/V"]);
    // 1. Red: (0,-1) base/V r3 (road E–S), highwayman on the road.
    t.place(0, -1, 270).figure("E");
    assert_eq!(t.edges(0, -1), "FRRF");
    // 2. Blue: (1,-1) base/V r0 (road S–W). The road is Red's: Blue cannot claim it.
    t.place(1, -1, 0);
    assert_eq!(t.edges(1, -1), "FFRR");
    assert_eq!(t.try_figure("W"), Err(PlayError::FeatureOccupied("road")));
    assert_eq!(t.try_figure("S"), Err(PlayError::FeatureOccupied("road")));
    t.pass();
    // 3. Green: (0,-2) base/V r2 (road N–E).
    t.place(0, -2, 180).pass();
    assert_eq!(t.edges(0, -2), "RRFF");
    assert_eq!(t.scores(), vec![0, 0, 0]);
    // 4. Red: (1,-2) base/V r1 (road N–W) closes the ring: 4 distinct tiles.
    t.place(1, -2, 90);
    assert_eq!(t.edges(1, -2), "RFFR");
    t.pass();
    assert_eq!(t.scored(), vec![(Road, 4, vec![RED], false)]);
    assert_eq!(t.scores(), vec![4, 0, 0]);
    assert_eq!(t.supply(RED), 7);
    t.assert_replays();
}

#[test]
fn b2_field_inside_the_ring_touches_no_city() {
    let mut t = Table::new(
        3,
        &["base/V", "base/V", "base/V", "base/V", "base/E", "base/E"],
    );
    t.place(0, -1, 270).figure("E");
    // Blue puts a farmer in the corner that the ring will enclose.
    t.place(1, -1, 0).figure("SSW");
    // Green puts a farmer outside the ring.
    t.place(0, -2, 180).figure("SSW");
    t.place(1, -2, 90).pass();
    assert_eq!(t.scores(), vec![4, 0, 0]);
    // A city next to the outer field: (2,-1) cap E, closed by (3,-1) cap W (nobody in it).
    t.place(2, -1, 90).pass();
    assert_eq!(t.edges(2, -1), "FCFF");
    t.place(3, -1, 270).pass();
    assert_eq!(
        t.scored(),
        vec![(Field, 0, vec![BLUE], true), (Field, 3, vec![GREEN], true)]
    );
    assert_eq!(t.scores(), vec![4, 0, 3]);
    t.assert_replays();
}

// ----- Example B3 — monastery, completed vs. incomplete at the end ---------------------------

const B3_SURROUNDINGS: [(&str, i32, i32, i64); 7] = [
    ("base/E", 0, 1, 180),
    ("base/B", 0, -1, 0),
    ("base/B", -1, 1, 0),
    ("base/B", -1, -1, 0),
    ("base/B", -2, 1, 0),
    ("base/E", -2, 0, 270),
    ("base/E", -2, -1, 180),
];

#[test]
fn b3_completed_monastery_scores_nine_at_once() {
    let mut order = vec!["base/A"];
    order.extend(B3_SURROUNDINGS.iter().map(|s| s.0));
    let mut t = Table::new(3, &order);
    // Red places (-1,0) base/A r3: monastery, short road leaving E into T0's road.
    t.place(-1, 0, 270);
    assert_eq!(t.edges(-1, 0), "FRFF");
    t.figure("C");
    for (i, (tile, x, y, r)) in B3_SURROUNDINGS.iter().enumerate() {
        assert_eq!(t.drawn(), Some(*tile));
        t.place(*x, *y, *r).pass();
        if i + 1 < B3_SURROUNDINGS.len() {
            assert_eq!(t.score(RED), 0, "the monastery is not complete yet");
            assert_eq!(t.supply(RED), 6);
        }
    }
    // All 8 cells around (-1,0) hold tiles: Red +9 at that moment, the monk returns.
    assert_eq!(t.scored(), vec![(Monastery, 9, vec![RED], false)]);
    assert_eq!(t.scores(), vec![9, 0, 0]);
    assert_eq!(t.supply(RED), 7);
    t.assert_replays();
}

#[test]
fn b3_incomplete_monastery_scores_one_per_tile_at_the_end() {
    let mut t = Table::new(3, &["base/A", "base/E", "base/B", "base/B", "base/B"]);
    t.place(-1, 0, 270).figure("C");
    // Around (-1,0) only (0,0), (0,1), (0,-1), (-1,1), (-1,-1) hold tiles.
    t.place(0, 1, 180).pass();
    t.place(0, -1, 0).pass();
    t.place(-1, 1, 0).pass();
    t.place(-1, -1, 0).pass();
    assert!(t.is_over());
    assert_eq!(t.scored(), vec![(Monastery, 6, vec![RED], true)]);
    assert_eq!(t.scores(), vec![6, 0, 0]);
    t.assert_replays();
}

// ----- Example B4 — knight on the completing tile; two fields bordering the same cities ---

/// Steps 1–3 of B4; `extra` tiles follow in the pile.
fn example_b4(extra: &[&str]) -> Table {
    example_b4_with(extra, HouseRules::default())
}

/// Steps 1–3 of B4 under house rules; `extra` tiles follow in the pile.
fn example_b4_with(extra: &[&str], rules: HouseRules) -> Table {
    let mut order = vec!["base/D", "base/E", "base/E"];
    order.extend_from_slice(extra);
    let mut t = Table::with_rules(&[], 3, &order, 1, rules);
    // a completed city of two tiles: 4, or 2 by the first edition's house rule
    let small = if rules.small_city == SmallCity::Two {
        2
    } else {
        4
    };
    // 1. Red places (1,0) base/D r0 and a farmer on its north strip [El Wr]: field F1 =
    //    both strips, touching C1 (T0's cap) and C2 ((1,0)'s cap).
    t.place(1, 0, 0).figure("ENE");
    // 2. Blue places (0,1) base/E r2 (cap S), closing C1, and puts a knight on it at once.
    t.place(0, 1, 180);
    assert_eq!(t.edges(0, 1), "FFCF");
    t.figure("S");
    assert_eq!(t.scored(), vec![(City, small, vec![BLUE], false)]);
    assert_eq!(t.scores(), vec![0, small, 0]);
    assert_eq!(t.supply(BLUE), 7, "the knight returns");
    // 3. Green places (1,1) base/E r2 closing C2 (nobody in it, nobody scores) and puts a
    //    farmer on its field, which joins (0,1)'s field: F2 touches C1 and C2.
    t.place(1, 1, 180);
    t.figure("NNW");
    assert!(
        t.scored().iter().all(|s| s.3),
        "C2 is closed but empty: nobody scores it"
    );
    t
}

#[test]
fn b4_each_field_pays_for_the_same_two_cities() {
    let t = example_b4(&[]);
    // 4. The game ends. F1: Red, cities C1 and C2 → +6. F2: Green, same cities → +6.
    assert!(t.is_over());
    assert_eq!(
        t.scored(),
        vec![(Field, 6, vec![RED], true), (Field, 6, vec![GREEN], true)]
    );
    assert_eq!(t.scores(), vec![6, 4, 6]);
    assert_eq!(t.ranks(), vec![1, 3, 1]);
    t.assert_replays();
}

#[test]
fn b4_variant_joined_fields_tie_pays_each_city_once() {
    // (2,0) base/V r0: its road joins, its field north of the road joins F1 and reaches
    // its N side; (2,1) base/B then joins that field with F2 through its W and S sides.
    let mut t = example_b4(&["base/V", "base/B"]);
    t.place(2, 0, 0).pass();
    t.place(2, 1, 0);
    // the joined field is occupied
    assert_eq!(
        t.try_figure("NNW"),
        Err(PlayError::FeatureOccupied("field"))
    );
    t.pass();
    assert!(t.is_over());
    // one field, Red 1 and Green 1 farmer, 2 cities each counted once
    assert_eq!(t.scored(), vec![(Field, 6, vec![RED, GREEN], true)]);
    assert_eq!(t.scores(), vec![6, 4, 6]);
    t.assert_replays();
}

#[test]
fn b4_variant_joined_fields_majority_takes_all() {
    let t = b4_joined_fields_red_two_farmers(HouseRules::default());
    // Red 2 farmers against Green's 1: only Red +6
    assert_eq!(t.all_scored().last(), Some(&(Field, 6, vec![RED], true)));
    assert_eq!(t.scores(), vec![6, 4, 0]);
    t.assert_replays();
}

/// B4's variant where Red's second farmer joins the fields: Red 2 farmers, Green 1, in
/// one field touching both cities.
fn b4_joined_fields_red_two_farmers(rules: HouseRules) -> Table {
    // Red's second farmer stands in the field south of the road; (2,1) base/B joins F2 to
    // nothing yet, then (2,0) base/A r1 (road ends at its monastery) joins the strip F1,
    // the south field and (2,1)'s field into one.
    let mut t = example_b4_with(&["base/B", "base/B", "base/B", "base/A"], rules);
    // Red: (0,-1) base/B, a farmer on the field south of the road
    t.place(0, -1, 0).figure("NNW");
    // Blue: (2,1) base/B joins F2 (occupied by Green)
    t.place(2, 1, 0);
    assert_eq!(
        t.try_figure("WSW"),
        Err(PlayError::FeatureOccupied("field"))
    );
    t.pass();
    // Green: (1,-1) base/B joins the south field (occupied by Red)
    t.place(1, -1, 0).pass();
    // Red: (2,0) base/A r1, road end W joins the road; its field joins everything
    t.place(2, 0, 90);
    assert_eq!(t.edges(2, 0), "FFFR");
    t.pass();
    assert!(t.is_over());
    t
}

// ----- Example B5 — incomplete features at the end --------------------------------------

#[test]
fn b5_incomplete_city_and_road_at_the_end() {
    let mut t = Table::new(3, &["base/F", "base/U", "base/R"]);
    // 1. Red: (0,1) base/F r1 (city N–S with pennant) and a knight.
    t.place(0, 1, 90).figure("N");
    assert_eq!(t.edges(0, 1), "CFCF");
    // 2. Blue: (1,0) base/U r0 (straight road) and a highwayman; it joins T0's road.
    t.place(1, 0, 0).figure("E");
    assert_eq!(t.edges(1, 0), "FRFR");
    // 3. Green: (0,2) base/R r2 (city E–S–W) joins Red's city; E and W stay open.
    t.place(0, 2, 180).pass();
    assert_eq!(t.edges(0, 2), "FCCC");
    // 4. Final scoring: city of 3 tiles + 1 pennant → Red +4; road of 2 tiles → Blue +2.
    assert!(t.is_over());
    assert_eq!(
        t.scored(),
        vec![(Road, 2, vec![BLUE], true), (City, 4, vec![RED], true)]
    );
    assert_eq!(t.scores(), vec![4, 2, 0]);
    assert_eq!(t.ranks(), vec![1, 2, 3]);
    t.assert_replays();
}

// ----- Example B6 — city with several pennants ---------------------------------------------

#[test]
fn b6_city_with_two_pennants() {
    let mut t = Table::new(2, &["base/F", "base/M", "base/E"]);
    // 1. Red: (0,1) base/F r1 (pennant) with a knight.
    t.place(0, 1, 90).figure("S");
    // 2. Blue: (0,2) base/M r2 (city E–S, pennant).
    t.place(0, 2, 180).pass();
    assert_eq!(t.edges(0, 2), "FCCF");
    // 3. Red: (1,2) base/E r3 (cap W) closes {(0,0),(0,1),(0,2),(1,2)}: 4×2 + 2×2.
    t.place(1, 2, 270);
    assert_eq!(t.edges(1, 2), "FFFC");
    t.pass();
    assert_eq!(t.scored(), vec![(City, 12, vec![RED], false)]);
    assert_eq!(t.scores(), vec![12, 0]);
    t.assert_replays();
}

// ----- Example B7 — placement legality -----------------------------------------------------

#[test]
fn b7_a_field_side_cannot_face_a_city() {
    let mut t = Table::new(2, &["base/E"]);
    // base/E r0 has its S side field: it would face T0's city.
    match t.try_place(0, 1, 0) {
        Err(PlayError::TileDoesNotFit {
            x: 0,
            y: 1,
            rotation: 0,
            reason,
        }) => {
            assert!(reason.contains("S side is field"), "{reason}");
            assert!(reason.contains("city"), "{reason}");
        }
        other => panic!("expected tile-does-not-fit, got {other:?}"),
    }
    // r180 turns the cap to the south: it fits.
    t.place(0, 1, 180);
}

#[test]
fn b7_road_occupied_two_tiles_away_but_the_field_is_free() {
    let mut t = Table::new(2, &["base/U", "base/U"]);
    // Red places (1,0) base/U r0 with a highwayman.
    t.place(1, 0, 0).figure("W");
    // Blue places (-1,0) base/U r0: its road joins the same road.
    t.place(-1, 0, 0);
    assert_eq!(t.edges(-1, 0), "FRFR");
    assert_eq!(t.try_figure("E"), Err(PlayError::FeatureOccupied("road")));
    // T0's cap is not on the tile just placed: no spot of this tile names it.
    assert_eq!(t.try_figure("N"), Err(PlayError::UnknownSpot("N".into())));
    assert_eq!(t.try_figure("c1"), Err(PlayError::UnknownSpot("c1".into())));
    // the north field [Wr Nl Nr El] joins T0's strip, which is empty
    t.figure("NNW");
    assert_eq!(t.supply(BLUE), 6);
    t.assert_replays();
}

// ----- §9 edge cases ---------------------------------------------------------------------

#[test]
fn road_ending_twice_at_the_same_junction_is_complete() {
    // (0,-1) base/W r0: road ends E, S, W at a junction. Its E end runs round through
    // three curves back into its S end.
    let mut t = Table::new(2, &["base/W", "base/V", "base/V", "base/V"]);
    t.place(0, -1, 0).pass();
    assert_eq!(t.edges(0, -1), "FRRR");
    t.place(1, -1, 0).figure("W");
    t.place(1, -2, 90).pass();
    assert_eq!(t.scores(), vec![0, 0]);
    t.place(0, -2, 180).pass();
    // 4 distinct tiles: the junction, three curves
    assert_eq!(t.scored(), vec![(Road, 4, vec![BLUE], false)]);
    assert_eq!(t.scores(), vec![0, 4]);
    t.assert_replays();
}

#[test]
fn two_caps_of_one_tile_in_one_city_count_the_tile_once() {
    // A ring of city around (2,1) whose two ends are the two caps of base/H at (1,1).
    let mut t = Table::new(
        2,
        &[
            "base/P",
            "base/H",
            "base/N",
            "base/G",
            "base/N-garden",
            "base/N",
        ],
    );
    t.place(1, 0, 90); // city N–E, road W–S
    assert_eq!(t.edges(1, 0), "CCRR");
    t.figure("N");
    t.place(1, 1, 0).pass(); // caps N and S
    t.place(2, 0, 0).pass(); // city N–W
    t.place(2, 1, 90).pass(); // city N–S
    t.place(2, 2, 270).pass(); // city W–S
    assert_eq!(t.scores(), vec![0, 0]);
    t.place(1, 2, 180); // city S–E: closes the ring onto H's north cap
    t.pass();
    // 6 distinct tiles (H holds two segments of this city) × 2
    assert_eq!(t.scored(), vec![(City, 12, vec![RED], false)]);
    assert_eq!(t.scores(), vec![12, 0]);
    t.assert_replays();
}

#[test]
fn two_caps_of_one_tile_are_different_cities_until_joined() {
    let mut t = Table::new(2, &["base/H", "base/E"]);
    // (0,1) base/H r0: its S cap closes T0's cap at once; its N cap is another city.
    t.place(0, 1, 0).figure("N");
    assert_eq!(t.scored(), vec![]);
    assert_eq!(t.supply(RED), 6);
    // Blue closes the north cap: 2 tiles, Red's knight scores 4.
    t.place(0, 2, 180).pass();
    assert_eq!(t.scored(), vec![(City, 4, vec![RED], false)]);
}

#[test]
fn several_features_complete_with_one_tile() {
    let mut t = Table::new(2, &["base/W", "base/E", "base/E", "base/L"]);
    // Red: a junction at (1,0); a highwayman on its W road end, which is T0's road.
    t.place(1, 0, 0);
    assert_eq!(t.edges(1, 0), "FRRR");
    t.figure("W");
    // Blue: (0,1) base/E r2 closes T0's cap with a knight on it: +4 at once.
    t.place(0, 1, 180).figure("S");
    assert_eq!(t.scores(), vec![0, 4]);
    // Red: (-1,1) base/E r2, a knight on its cap, open to the south.
    t.place(-1, 1, 180).figure("S");
    // Blue: (-1,0) base/L r0. Its E road end closes Red's road {(-1,0),(0,0),(1,0)} and its
    // N cap closes Red's city {(-1,1),(-1,0)}: both score with this one tile.
    t.place(-1, 0, 0);
    assert_eq!(t.edges(-1, 0), "CRRR");
    t.pass();
    assert_eq!(
        t.scored(),
        vec![(Road, 3, vec![RED], false), (City, 4, vec![RED], false)]
    );
    assert_eq!(t.scores(), vec![7, 4]);
    assert_eq!(t.supply(RED), 7);
    t.assert_replays();
}

#[test]
fn joining_features_recomputes_majority_and_returns_every_knight() {
    let mut t = Table::new(
        2,
        &["base/D", "base/N", "base/U", "base/B", "base/E", "base/R"],
    );
    // Red's knight on (1,0)'s cap; Blue's knight in T0's city through (0,1).
    t.place(1, 0, 0).figure("N");
    t.place(0, 1, 180).figure("S");
    t.place(2, 0, 0).pass();
    t.place(0, -1, 0).pass();
    // Red's second knight on a third city, (2,1) cap W.
    t.place(2, 1, 270).figure("W");
    assert_eq!(t.edges(2, 1), "FFFC");
    assert_eq!(t.supply(RED), 5);
    // Blue: (1,1) base/R r2 (city E–S–W) joins all three cities and closes them.
    t.place(1, 1, 180);
    assert_eq!(t.edges(1, 1), "FCCC");
    t.pass();
    // 5 tiles: Red 2 knights against Blue's 1: only Red +10.
    assert_eq!(t.scored(), vec![(City, 10, vec![RED], false)]);
    assert_eq!(t.scores(), vec![10, 0]);
    // the outvoted knight returns too
    assert_eq!((t.supply(RED), t.supply(BLUE)), (7, 7));
    t.assert_replays();
}

#[test]
fn a_field_joined_through_another_field_of_the_tile_is_occupied() {
    // (0,-2) base/W r180 is a junction with road ends N, E, W. Its two northern corner
    // fields both touch the field around the monastery at (0,-1); the north-west one also
    // touches Red's farmer at (-1,-2). Once placed, all of them are one occupied field,
    // so the north-east corner offers no farmer even though its own neighbour is empty.
    let mut t = Table::new(2, &["base/A", "base/E", "base/J", "base/W"]);
    t.place(0, -1, 0).pass();
    t.place(-1, -1, 180).pass();
    t.place(-1, -2, 0).figure("ENE");
    assert_eq!(t.edges(-1, -2), "CRRF");
    let listed: Vec<_> = t
        .game
        .placements()
        .into_iter()
        .filter(|p| p.pos == tilepost_engine::Pos::new(0, -2) && p.rotation.degrees() == 180)
        .flat_map(|p| p.spots.into_iter().map(|s| s.spot.compass_name().unwrap()))
        .collect();
    assert_eq!(listed, vec!["W", "N", "E", "ESE"]);
    t.place(0, -2, 180);
    assert_eq!(t.edges(0, -2), "RRFR");
    assert_eq!(
        t.try_figure("NNE"),
        Err(PlayError::FeatureOccupied("field"))
    );
    assert_eq!(
        t.try_figure("NNW"),
        Err(PlayError::FeatureOccupied("field"))
    );
    let offered: Vec<Action> = t.game.legal_actions();
    assert_eq!(
        offered,
        ["W", "N", "E", "ESE"]
            .iter()
            .map(|s| Action::PlaceFigure {
                figure: FigureKind::Follower,
                spot: s.to_string()
            })
            .chain([Action::Pass])
            .collect::<Vec<_>>()
    );
    t.figure("SSE");
    assert_eq!(t.supply(BLUE), 6);
    t.assert_replays();
}

#[test]
fn a_road_ends_at_a_monastery_which_is_a_feature_of_its_own() {
    let mut t = Table::new(2, &["base/A", "base/W"]);
    // base/A r3 at (-1,0): road, monastery and field are three features with three spots
    let p = t
        .game
        .placements()
        .into_iter()
        .find(|p| p.pos == tilepost_engine::Pos::new(-1, 0) && p.rotation.degrees() == 270)
        .expect("legal");
    let spots: Vec<&str> = p
        .spots
        .iter()
        .map(|s| s.spot.compass_name().unwrap())
        .collect();
    assert_eq!(spots, vec!["E", "C", "NNW"]);
    // Red's highwayman on the road from the monastery into T0's road
    t.place(-1, 0, 270).figure("E");
    // Blue's junction ends the road on the east: it is complete, the monastery is not
    t.place(1, 0, 0).pass();
    assert_eq!(t.scored(), vec![(Road, 3, vec![RED], false)]);
    assert_eq!(t.scores(), vec![3, 0]);
    t.assert_replays();
}

#[test]
fn the_board_grows_without_limit_in_every_direction() {
    let tiles = vec!["base/U"; 200];
    let mut t = Table::new(2, &tiles);
    for i in 1..=100 {
        t.place(-i, 0, 0).pass();
        t.place(i, 0, 0).pass();
    }
    assert!(t.is_over());
    assert_eq!(t.game.board().len(), 201);
    let xs: Vec<i32> = t.game.board().tiles().iter().map(|p| p.pos.x).collect();
    assert_eq!(
        (xs.iter().min(), xs.iter().max()),
        (Some(&-100), Some(&100))
    );
    assert!(t.game.board().frontier().len() >= 400);
    t.assert_replays();
}

#[test]
fn a_tile_that_fits_nowhere_is_discarded_and_the_next_is_drawn() {
    let mut t = Table::new(2, &["base/E", "base/C", "base/U"]);
    // Red closes T0's cap: no empty cell now asks for a city alone.
    t.place(0, 1, 180).pass();
    // base/C (city on all four sides) fits nowhere: it leaves the game, base/U is drawn.
    assert_eq!(t.drawn(), Some("base/U"));
    assert_eq!(t.current(), BLUE);
    assert_eq!(t.game.tiles_left(), 0);
    assert!(t.last.contains(&Effect::TileDiscarded {
        tile: "base/C".into()
    }));
    let discarded_at = t
        .last
        .iter()
        .position(|e| matches!(e, Effect::TileDiscarded { .. }))
        .unwrap();
    let drawn_at = t
        .last
        .iter()
        .position(|e| matches!(e, Effect::TileDrawn { tile, .. } if tile == "base/U"))
        .unwrap();
    assert!(discarded_at < drawn_at);
    t.place(1, 0, 0).pass();
    assert!(t.is_over());
    assert_eq!(t.game.board().len(), 3);
    t.assert_replays();
}

#[test]
fn a_last_tile_that_fits_nowhere_ends_the_game() {
    let mut t = Table::new(2, &["base/E", "base/C"]);
    t.place(0, 1, 180).figure("NNW");
    assert!(t.is_over());
    assert_eq!(t.game.pending(), None);
    assert!(t.game.legal_actions().is_empty());
    assert_eq!(t.game.tiles_left(), 0);
    assert_eq!(t.game.board().len(), 2);
    // Red's farmer: one completed city touches the field
    assert_eq!(t.scores(), vec![3, 0]);
    assert!(matches!(t.last.last(), Some(Effect::GameOver { .. })));
    t.assert_replays();
}

#[test]
fn a_player_without_followers_can_only_pass() {
    let tiles = vec!["base/B"; 16];
    let mut t = Table::new(2, &tiles);
    for i in 0..7 {
        // Red: a monk on each monastery of a row south of T0; Blue passes.
        t.place(i, -1, 0).figure("C");
        t.place(-1 - i, -1, 0).pass();
    }
    assert_eq!(t.supply(RED), 0);
    t.place(7, -1, 0);
    assert_eq!(t.game.legal_actions(), vec![Action::Pass]);
    assert_eq!(t.try_figure("C"), Err(PlayError::NoFigureLeft("follower")));
    t.pass();
    // Blue still has all seven.
    t.place(-8, -1, 0).figure("C");
    assert_eq!(t.supply(BLUE), 6);
}

// ----- refused actions leave the game untouched ------------------------------------------

#[test]
fn refused_placements_say_why_and_change_nothing() {
    // `Table::try_play` compares the game before and after every refused action.
    let mut t = Table::new(2, &["base/E-garden", "base/U"]);
    let tile = |x, y, r| Action::PlaceTile {
        x,
        y,
        rotation: Rotation::from_degrees(r).unwrap(),
        tile: None,
    };
    assert_eq!(
        t.try_play_as(BLUE, tile(0, 1, 180)),
        Err(PlayError::NotYourTurn {
            player: BLUE,
            expected: RED
        })
    );
    assert_eq!(
        t.try_play_as(7, tile(0, 1, 180)),
        Err(PlayError::NotYourTurn {
            player: 7,
            expected: RED
        })
    );
    assert_eq!(
        t.try_place(0, 0, 180),
        Err(PlayError::CellTaken { x: 0, y: 0 })
    );
    // diagonal contact is not enough
    assert_eq!(
        t.try_place(1, 1, 0),
        Err(PlayError::NotAdjacent { x: 1, y: 1 })
    );
    assert_eq!(
        t.try_place(40, -7, 0),
        Err(PlayError::NotAdjacent { x: 40, y: -7 })
    );
    let e = t.try_place(1, 0, 0).unwrap_err();
    assert!(
        matches!(
            e,
            PlayError::TileDoesNotFit {
                x: 1,
                y: 0,
                rotation: 0,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(e.code(), "tile-does-not-fit");
    assert_eq!(
        t.try_play(Action::Pass),
        Err(PlayError::WrongPhase {
            got: "pass",
            expected: "place_tile"
        })
    );
    assert_eq!(
        t.try_figure("C"),
        Err(PlayError::WrongPhase {
            got: "place_figure",
            expected: "place_tile"
        })
    );
    t.place(0, 1, 180);
    assert_eq!(
        t.try_place(0, -1, 0),
        Err(PlayError::WrongPhase {
            got: "place_tile",
            expected: "place_figure"
        })
    );
    assert_eq!(
        t.try_figure("XYZ"),
        Err(PlayError::UnknownSpot("XYZ".into()))
    );
    assert_eq!(t.try_figure("f9"), Err(PlayError::UnknownSpot("f9".into())));
    // base/E-garden r2: no road at E, nothing at W
    assert_eq!(t.try_figure("E"), Err(PlayError::UnknownSpot("E".into())));
    // the garden belongs to the abbot (The Abbot); a follower may not stand there
    let e = t.try_figure("C").unwrap_err();
    assert_eq!(
        e,
        PlayError::FigureNotAllowed {
            figure: "follower",
            feature: "garden"
        }
    );
    assert_eq!(e.code(), "figure-not-allowed");
    assert_eq!(t.try_figure("g1"), Err(e));
    assert_eq!(
        t.try_figure_kind(FigureKind::Mayor, "NNW"),
        Err(PlayError::FigureNotAllowed {
            figure: "mayor",
            feature: "field"
        })
    );
    assert_eq!(
        t.try_figure_kind(FigureKind::Builder, "S"),
        Err(PlayError::FigureNotAllowed {
            figure: "builder",
            feature: "city"
        })
    );
    // no expansion gives big followers or abbots here
    assert_eq!(
        t.try_figure_kind(FigureKind::BigFollower, "S"),
        Err(PlayError::NoFigureLeft("big_follower"))
    );
    assert_eq!(
        t.try_figure_kind(FigureKind::Abbot, "C"),
        Err(PlayError::NoFigureLeft("abbot"))
    );
    // the city is complete and empty: a knight may go there and scores at once
    t.figure("S");
    assert_eq!(t.scores(), vec![4, 0]);
    t.place(1, 0, 0).pass();
    assert!(t.is_over());
    assert_eq!(t.try_play(Action::Pass), Err(PlayError::GameOver));
    assert_eq!(t.try_place(2, 0, 0), Err(PlayError::GameOver));
    let before = t.game.clone();
    assert_eq!(t.game.resign(BLUE, false), Err(PlayError::GameOver));
    assert_eq!(t.game, before);
}

#[test]
fn actions_are_read_strictly_from_json() {
    let ok: Action =
        serde_json::from_str(r#"{"type":"place_tile","x":-3,"y":2,"rotation":270}"#).unwrap();
    assert_eq!(
        ok,
        Action::PlaceTile {
            x: -3,
            y: 2,
            rotation: Rotation::from_degrees(270).unwrap(),
            tile: None,
        }
    );
    let fig: Action =
        serde_json::from_str(r#"{"type":"place_figure","figure":"follower","spot":"NNE"}"#)
            .unwrap();
    assert_eq!(
        fig,
        Action::PlaceFigure {
            figure: FigureKind::Follower,
            spot: "NNE".into()
        }
    );
    for bad in [
        r#"{"type":"place_tile","x":0,"y":1,"rotation":45}"#,
        r#"{"type":"place_tile","x":0,"y":1,"rotation":360}"#,
        r#"{"type":"place_tile","x":0,"y":1}"#,
        r#"{"type":"place_tile","x":0,"y":1,"rotation":0,"extra":1}"#,
        r#"{"type":"place_figure","figure":"dragon","spot":"N"}"#,
        r#"{"type":"teleport"}"#,
        r#"{"type":"pass","x":1}"#,
    ] {
        assert!(serde_json::from_str::<Action>(bad).is_err(), "{bad}");
    }
}

// ----- resigning ---------------------------------------------------------------------------

#[test]
fn resigning_in_turn_passes_the_drawn_tile_on_and_ranks_last() {
    let mut t = Table::new(
        3,
        &["base/E", "base/U", "base/U", "base/V", "base/V", "base/B"],
    );
    t.place(0, 1, 180).figure("S"); // Red +4
    t.place(1, 0, 0).figure("E"); // Blue's highwayman
    t.place(-1, 0, 0).pass(); // Green
    assert_eq!(t.scores(), vec![4, 0, 0]);
    // Red resigns while holding the drawn base/V.
    assert_eq!((t.current(), t.drawn()), (RED, Some("base/V")));
    t.resign(RED);
    assert_eq!(
        t.last,
        vec![
            Effect::PlayerLeft { player: RED },
            Effect::TileDrawn {
                player: BLUE,
                tile: "base/V".into()
            }
        ]
    );
    // the drawn tile went back on top of the pile and Blue drew it
    assert_eq!((t.current(), t.drawn()), (BLUE, Some("base/V")));
    assert_eq!(t.game.tiles_left(), 2);
    assert!(!t.game.players()[RED as usize].active);
    assert_eq!(
        t.try_play_as(RED, Action::Pass),
        Err(PlayError::NotYourTurn {
            player: RED,
            expected: BLUE
        })
    );
    assert_eq!(t.game.resign(RED, false), Err(PlayError::NotInGame(RED)));
    assert_eq!(t.game.resign(9, true), Err(PlayError::NotInGame(9)));
    t.place(0, -1, 0).pass(); // Blue
    t.place(0, 2, 90).pass(); // Green
                              // Red is skipped from now on
    assert_eq!(t.current(), BLUE);
    t.place(-1, 1, 0).pass();
    assert!(t.is_over());
    // Blue's road {(-1,0),(0,0),(1,0)} scores 3 at the end; Red keeps 4 but ranks last
    assert_eq!(t.scores(), vec![4, 3, 0]);
    assert_eq!(t.ranks(), vec![3, 1, 2]);
    assert_eq!(t.game.ranking()[2].player, RED);
    t.assert_replays();
}

#[test]
fn a_resigning_players_figures_leave_without_scoring() {
    let mut t = Table::new(3, &["base/D", "base/U", "base/E", "base/E"]);
    t.place(1, 0, 0).figure("N"); // Red's knight on (1,0)'s cap
    t.place(2, 0, 0).figure("E"); // Blue's highwayman on the long road
                                  // Red leaves during Green's turn (not in turn): the knight goes home.
    assert_eq!(t.current(), GREEN);
    t.resign(RED);
    assert_eq!(t.supply(RED), 7);
    assert_eq!(t.game.board().figures.len(), 1);
    assert_eq!(t.current(), GREEN, "Green's turn goes on");
    // Green closes Red's former city with a knight of its own: the city is empty now
    t.place(1, 1, 180).figure("S");
    assert_eq!(t.scored(), vec![(City, 4, vec![GREEN], false)]);
    t.place(0, 1, 180).pass(); // Blue (Red skipped)
    assert!(t.is_over());
    assert_eq!(t.scores(), vec![0, 3, 4]);
    assert_eq!(t.ranks(), vec![3, 2, 1]);
    t.assert_replays();
}

#[test]
fn the_game_ends_when_one_player_is_left() {
    let mut t = Table::new(2, &["base/U", "base/U", "base/U", "base/U"]);
    t.place(1, 0, 0).figure("E"); // Red's highwayman
    t.place(-1, 0, 0).figure("NNW"); // Blue's farmer
    t.resign(BLUE);
    assert!(t.is_over());
    // final scoring for the player left: road of 3 tiles
    assert_eq!(t.scored(), vec![(Road, 3, vec![RED], true)]);
    assert_eq!(t.scores(), vec![3, 0]);
    assert_eq!(t.ranks(), vec![1, 2]);
    assert!(matches!(t.last.last(), Some(Effect::GameOver { .. })));
    t.assert_replays();
}

#[test]
fn a_tile_that_completed_a_city_scores_in_full_when_the_game_ends_by_resignation() {
    // Red's knight in T0's city through (0,1); Red closes it, and before Red decides on a
    // figure the game ends by resignation: the completed city scores as completed.
    for resigning in [RED, BLUE] {
        let mut t = Table::new(2, &["base/N", "base/U", "base/E", "base/U"]);
        t.place(0, 1, 180).figure("S"); // Red: city E–S joined to T0's cap, knight
        t.place(0, -1, 0).pass(); // Blue
        t.place(1, 1, 270); // Red closes the city with a cap W
        assert_eq!(t.edges(1, 1), "FFFC");
        assert_eq!(t.game.phase(), Phase::PlaceFigure);
        if resigning == BLUE {
            // Blue leaves out of turn: Red is the only player left
            t.resign(BLUE);
            assert_eq!(t.scored(), vec![(City, 6, vec![RED], false)]);
            assert_eq!(t.scores(), vec![6, 0]);
        } else {
            // Red leaves in turn: Red's knight goes home without scoring
            t.resign(RED);
            assert_eq!(t.scored(), vec![]);
            assert_eq!(t.scores(), vec![0, 0]);
        }
        assert!(t.is_over());
        t.assert_replays();
    }
}

#[test]
fn a_sandbox_pile_is_validated() {
    use tilepost_engine::SetupError;
    let cfg = |order: Option<Vec<&str>>, players: u8| GameConfig {
        players,
        expansions: Vec::new(),
        tile_order: order.map(|v| v.into_iter().map(String::from).collect()),
        seed: 3,
        rules: Default::default(),
    };
    assert_eq!(
        Game::new(&cfg(Some(vec!["base/Z"]), 2)).unwrap_err(),
        SetupError::UnknownTile("base/Z".into())
    );
    // a river tile without The River
    assert_eq!(
        Game::new(&cfg(Some(vec!["base/U", "river/07-fifi"]), 2)).unwrap_err(),
        SetupError::TileNotInGame("river/07-fifi".into())
    );
    assert_eq!(
        Game::new(&cfg(Some(vec![]), 2)).unwrap_err(),
        SetupError::EmptyTileOrder
    );
    assert_eq!(
        Game::new(&cfg(None, 1)).unwrap_err(),
        SetupError::PlayerCount { got: 1, max: 5 }
    );
    assert_eq!(
        Game::new(&cfg(None, 6)).unwrap_err(),
        SetupError::PlayerCount { got: 6, max: 5 }
    );
    let (g, created) = Game::new(&cfg(Some(vec!["base/U"]), 2)).unwrap();
    assert!(g.is_sandbox());
    assert!(matches!(
        created,
        Event::GameCreated {
            tile_order: Some(_),
            ..
        }
    ));
    let (g, _) = Game::new(&cfg(None, 5)).unwrap();
    assert!(!g.is_sandbox());
    assert_eq!(g.tiles_left(), 70, "71 tiles in the pile, one drawn");
}

#[test]
fn every_error_code_is_listed() {
    use tilepost_engine::PlayError as E;
    let all = [
        E::GameOver,
        E::NotYourTurn {
            player: 1,
            expected: 0,
        },
        E::WrongPhase {
            got: "pass",
            expected: "place_tile",
        },
        E::CellTaken { x: 0, y: 0 },
        E::NotAdjacent { x: 5, y: 5 },
        E::TileDoesNotFit {
            x: 1,
            y: 0,
            rotation: 0,
            reason: String::new(),
        },
        E::UnknownSpot("X".into()),
        E::FigureNotAllowed {
            figure: "pig",
            feature: "road",
        },
        E::FeatureOccupied("road"),
        E::NoFigureLeft("follower"),
        E::NotAHole { x: 0, y: 0 },
        E::WagonOutOfReach,
        E::NotAround { x: 0, y: 0 },
        E::MagicNotAllowed,
        E::CannotFly("follower"),
        E::CannotLand("N".into()),
        E::CropNotAllowed,
        E::FerryNotAllowed,
        E::RobberNotAllowed,
        E::NotInScoringOrder,
        E::VictimNotAllowed,
        E::MessageNotAllowed,
        E::BarnNotAllowed("corner"),
        E::NeedsOwnFollower("builder"),
        E::NoAbbotToReturn,
        E::NotInGame(3),
        E::LogMismatch(String::new()),
        E::MovePastHiddenInformation,
        E::TileNotInHand("base/D".into()),
        E::TileNotNamed,
        E::UndoNotYours,
        E::UndoPastReveal,
        E::NothingToUndo,
    ];
    let mut seen = std::collections::BTreeSet::new();
    for e in &all {
        assert!(E::CODES.contains(&e.code()), "{} is not listed", e.code());
        seen.insert(e.code());
    }
    assert_eq!(seen.len(), E::CODES.len(), "every listed code is given");
}

// ----- House rules of the base game (docs/house-rules.md) -------------------------------

fn rules(set: &[(&str, &str)]) -> HouseRules {
    let mut r = HouseRules::default();
    for (k, v) in set {
        r.set(k, v).expect("a known variant and value");
    }
    r
}

#[test]
fn house_rule_small_city_points_2_pays_a_two_tile_city_2() {
    // B4 under the first edition's small city: Blue's C1 (T0's cap and (0,1)) pays 2
    let t = example_b4_with(&[], rules(&[("small_city_points", "2")]));
    assert_eq!(
        t.all_scored()[0],
        (City, 2, vec![BLUE], false),
        "2 tiles, no pennant"
    );
    assert_eq!(t.scores(), vec![6, 2, 6]);
    t.assert_replays();
}

#[test]
fn house_rule_small_city_points_leaves_larger_cities_alone() {
    for value in ["4", "2"] {
        let r = rules(&[("small_city_points", value)]);
        let mut t = Table::with_rules(&[], 2, &["base/F", "base/E"], 1, r);
        t.place(0, 1, 90).figure("N"); // Red: city N–S with a pennant, joining T0's cap
        t.place(0, 2, 180).pass(); // Blue closes it: 3 tiles and 1 pennant
        assert_eq!(t.scored(), vec![(City, 8, vec![RED], false)], "{value}");
        t.assert_replays();
    }
}

#[test]
fn house_rule_field_scoring_per_city_pays_each_city_4_to_its_farmers() {
    // B4: F1 (Red) and F2 (Green) both touch C1 and C2. City by city: each city has Red 1
    // and Green 1 farmer beside it, a tie, so both get 4 for each city.
    let t = example_b4_with(&[], rules(&[("field_scoring", "per_city")]));
    assert!(t.is_over());
    assert_eq!(
        t.scored(),
        vec![
            (Field, 4, vec![RED, GREEN], true),
            (Field, 4, vec![RED, GREEN], true)
        ]
    );
    assert_eq!(t.scores(), vec![8, 4, 8]);
    t.assert_replays();
}

#[test]
fn house_rule_field_scoring_per_city_majority_takes_each_city() {
    let t = b4_joined_fields_red_two_farmers(rules(&[("field_scoring", "per_city")]));
    let fields: Vec<_> = t
        .all_scored()
        .into_iter()
        .filter(|s| s.0 == Field)
        .collect();
    assert_eq!(
        fields,
        vec![(Field, 4, vec![RED], true), (Field, 4, vec![RED], true)]
    );
    assert_eq!(t.scores(), vec![8, 4, 0]);
    t.assert_replays();
}

#[test]
fn house_rule_field_scoring_one_player_in_two_fields_of_a_city() {
    // Red farms F1 and F2, both touching C1 and C2: per field Red is paid twice for each
    // city (12), per city once (8).
    for (value, red) in [("per_field", 12), ("per_city", 8)] {
        let r = rules(&[("field_scoring", value)]);
        let mut t = Table::with_rules(&[], 2, &["base/D", "base/E", "base/E"], 1, r);
        t.place(1, 0, 0).figure("ENE"); // Red: F1
        t.place(0, 1, 180).figure("S"); // Blue closes C1 with a knight: 4
        t.place(1, 1, 180).figure("NNW"); // Red closes C2, farmer in F2
        assert!(t.is_over());
        assert_eq!(t.scores(), vec![red, 4], "{value}");
        t.assert_replays();
    }
}

#[test]
fn house_rule_first_edition_preset_on_b4() {
    let t = example_b4_with(&[], HouseRules::preset("first_edition").unwrap());
    assert_eq!(t.scores(), vec![8, 2, 8]);
    t.assert_replays();
}

/// Red closes T0's cap, so base/C (city on all sides) fits nowhere when Blue draws it;
/// base/D then opens a city side where it fits.
fn unplaceable_then_placeable(rule: &str, seed: u64) -> Table {
    let r = rules(&[("unplaceable_tile", rule)]);
    let mut t = Table::with_rules(&[], 2, &["base/E", "base/C", "base/D"], seed, r);
    t.place(0, 1, 180).pass();
    t
}

#[test]
fn house_rule_unplaceable_tile_removed_by_default() {
    let t = unplaceable_then_placeable("removed", 1);
    assert_eq!(t.drawn(), Some("base/D"));
    assert_eq!(t.game.tiles_left(), 0);
    assert!(t.last.contains(&Effect::TileDiscarded {
        tile: "base/C".into()
    }));
}

#[test]
fn house_rule_unplaceable_tile_reshuffled_goes_back_and_is_played_later() {
    // a seed whose reshuffle puts base/D on top
    let seed = (1..64)
        .find(|s| {
            unplaceable_then_placeable("reshuffled", *s)
                .game
                .tiles_left()
                == 1
        })
        .expect("some seed draws base/D after the reshuffle");
    let mut t = unplaceable_then_placeable("reshuffled", seed);
    assert!(t.last.contains(&Effect::TileReturned {
        tile: "base/C".into()
    }));
    assert!(!t
        .last
        .iter()
        .any(|e| matches!(e, Effect::TileDiscarded { .. })));
    assert_eq!(t.game.tiles_left(), 1, "base/C is back in the pile");
    assert_eq!(t.current(), BLUE);
    // Blue: base/D south of T0, a knight on its cap, open to the south
    t.place(0, -1, 180).figure("S");
    // base/C (with a pennant) now fits on (0,-2); Blue's city stays open: at the end
    // 2 tiles and 1 pennant
    assert_eq!(t.drawn(), Some("base/C"));
    t.place(0, -2, 0).pass();
    assert_eq!(t.scored(), vec![(City, 3, vec![BLUE], true)]);
    assert!(t.is_over());
    assert_eq!(t.game.board().len(), 4);
    t.assert_replays();
}

#[test]
fn house_rule_unplaceable_tile_reshuffled_still_ends_when_nothing_fits() {
    // three tiles that never fit: each goes back at most as often as tiles remain, then
    // leaves the game; the game ends with an empty pile
    for seed in 1..8 {
        let r = rules(&[("unplaceable_tile", "reshuffled")]);
        let mut t = Table::with_rules(&[], 2, &["base/E", "base/C", "base/C", "base/C"], seed, r);
        t.place(0, 1, 180).pass();
        assert!(t.is_over());
        assert_eq!(t.game.tiles_left(), 0);
        let discarded = t
            .last
            .iter()
            .filter(|e| matches!(e, Effect::TileDiscarded { .. }))
            .count();
        assert_eq!(discarded, 3);
        t.assert_replays();
    }
}
