//! Traders & Builders as the rulebook states it (`shared/rules/traders-builders.md`):
//! examples TB1–TB4.

mod common;

use common::{Table, BLUE, GREEN, RED};
use tilepost_engine::expansions::goods_majorities;
use tilepost_engine::{Effect, FeatureKind, FigureKind, HouseRules, PlayError};

use FeatureKind::{City, Field, Road};

fn tb(players: u8, tiles: &[&str]) -> Table {
    Table::with(&["traders_builders"], players, tiles)
}

fn goods(t: &Table, player: u8) -> [u8; 3] {
    t.game.players()[player as usize].goods
}

fn special(t: &Table, player: u8, kind: FigureKind) -> u8 {
    t.game.players()[player as usize].supply[kind as usize]
}

// ----- TB1 — goods go to the completing player ------------------------------------------------

#[test]
fn tb1_goods_go_to_the_player_who_completes_the_city() {
    let mut t = tb(3, &["tb/15-fcfc", "tb/01-cffc", "base/E"]);
    t.place(0, 1, 90).figure("N"); // Red: city N–S with wine, a knight
    assert_eq!(t.edges(0, 1), "CFCF");
    t.place(0, 2, 180).pass(); // Blue: city E–S with grain
    assert_eq!(t.edges(0, 2), "FCCF");
    t.place(1, 2, 270).pass(); // Green closes {(0,0),(0,1),(0,2),(1,2)}
    assert_eq!(t.edges(1, 2), "FFFC");
    assert_eq!(t.scored()[0], (City, 8, vec![RED], false));
    assert!(t.last.contains(&Effect::GoodsTaken {
        player: GREEN,
        wine: 1,
        grain: 1,
        cloth: 0
    }));
    assert_eq!(goods(&t, GREEN), [1, 1, 0]);
    assert_eq!(goods(&t, RED), [0, 0, 0]);
    // the game ends: Green holds the only wine and grain: 10 + 10
    assert!(t.is_over());
    assert_eq!(t.scores(), vec![8, 0, 20]);
    t.assert_replays();
}

#[test]
fn incomplete_cities_give_no_goods() {
    let t = {
        let mut t = tb(2, &["tb/15-fcfc"]);
        t.place(0, 1, 90).figure("N");
        t
    };
    assert_eq!(goods(&t, RED), [0, 0, 0]);
    assert_eq!(goods(&t, BLUE), [0, 0, 0]);
    // only the incomplete city scores at the end: 2 tiles
    assert_eq!(t.scores(), vec![2, 0]);
}

// ----- TB2 — final goods majorities -----------------------------------------------------------

#[test]
fn tb2_final_goods_majorities() {
    // Red wine 4, grain 2, cloth 0; Blue 4, 1, 3; Green 1, 3, 2.
    let w = goods_majorities(&[Some([4, 2, 0]), Some([4, 1, 3]), Some([1, 3, 2])]);
    assert_eq!(w[0], vec![RED, BLUE], "wine: Red and Blue tied at 4");
    assert_eq!(w[1], vec![GREEN], "grain: Green with 3");
    assert_eq!(w[2], vec![BLUE], "cloth: Blue with 3");
    let mut totals = [0; 3];
    for winners in &w {
        for p in winners {
            totals[*p as usize] += 10;
        }
    }
    assert_eq!(totals, [10, 20, 10]);
    // nobody scores a good nobody holds; players who left take no part
    let w = goods_majorities(&[Some([0, 0, 0]), None, Some([0, 1, 0])]);
    assert_eq!(w, [vec![], vec![GREEN], vec![]]);
    let w = goods_majorities(&[Some([1, 0, 0]), None]);
    assert_eq!(w[0], vec![RED]);
}

// ----- TB3 — builder double turn (and no chain) ------------------------------------------------

#[test]
fn tb3_builder_double_turn_without_chain() {
    let mut t = tb(
        2,
        &[
            "base/U", "base/B", "base/U", "base/B", "base/U", "base/W", "base/B", "base/W",
            "base/B",
        ],
    );
    // 1. Red: (1,0) straight road, a highwayman (the road joins T0).
    t.place(1, 0, 0).figure("E");
    t.place(0, -1, 0).pass(); // Blue, elsewhere
                              // 2. Red: (2,0) and the builder on its road — no double turn now.
    t.place(2, 0, 0);
    t.try_figure_kind(FigureKind::Builder, "E")
        .expect("builder on a road with Red's highwayman");
    assert_eq!(t.current(), BLUE);
    t.place(1, -1, 0).pass(); // Blue
                              // 3. Red: (3,0) extends the builder's road: after scoring, a second part.
    t.place(3, 0, 0).pass();
    assert_eq!(t.current(), RED, "the builder grants a second turn part");
    t.place(-1, 0, 0).pass(); // junction closing the west end; extends the road too
    assert_eq!(t.edges(-1, 0), "FRRR");
    assert_eq!(t.current(), BLUE, "no third part");
    t.place(2, -1, 0).pass(); // Blue
                              // 4. Red: (4,0) junction completes {(-1,0)..(4,0)}: 6 tiles.
    t.place(4, 0, 0).pass();
    assert_eq!(t.scored()[0], (Road, 6, vec![RED], false));
    assert_eq!(t.score(RED), 6);
    assert_eq!(
        special(&t, RED, FigureKind::Builder),
        1,
        "the builder returns"
    );
    assert_eq!(t.supply(RED), 7, "the highwayman returns");
    // the completing tile extended the builder's road: Red still gets the second part
    assert_eq!(t.current(), RED);
    t.place(3, -1, 0).pass();
    assert!(t.is_over());
    t.assert_replays();
}

#[test]
fn the_builder_needs_an_own_follower_in_an_incomplete_road_or_city() {
    let mut t = tb(2, &["base/U", "base/W", "base/W"]);
    t.place(1, 0, 0);
    assert_eq!(
        t.try_figure_kind(FigureKind::Builder, "E"),
        Err(PlayError::NeedsOwnFollower("builder"))
    );
    assert_eq!(
        t.try_figure_kind(FigureKind::Builder, "NNW"),
        Err(PlayError::FigureNotAllowed {
            figure: "builder",
            feature: "field"
        })
    );
    t.figure("E"); // Red highwayman
    t.place(-1, 0, 0); // Blue: a junction closes the west end
                       // Blue has no follower on Red's road
    assert_eq!(
        t.try_figure_kind(FigureKind::Builder, "E"),
        Err(PlayError::NeedsOwnFollower("builder"))
    );
    t.pass();
    t.place(2, 0, 0); // Red closes the road with a junction: complete
    assert!(
        t.try_figure_kind(FigureKind::Builder, "W").is_err(),
        "no builder on a completed road"
    );
}

// ----- TB4 — pig ------------------------------------------------------------------------------

#[test]
fn tb4_field_of_three_cities_farmer_and_pig_against_a_farmer() {
    // F (north of T0's and (1,0)'s caps) and F1 (T0's strip) joined by (2,1); F touches
    // the completed cities C1, C2 and C3. Blue: farmer + pig; Green: farmer. (The
    // rulebook's Red and Blue.)
    let mut t = tb(
        3,
        &[
            "base/D", "base/E", "base/U", "base/E", "base/B", "base/B", "base/E", "base/E",
            "base/U",
        ],
    );
    t.place(1, 0, 0).pass(); // Red
    t.place(0, 1, 180).figure("NNW"); // Blue: farmer in F, closes C1
    t.place(2, 0, 0).figure("NNW"); // Green: farmer in F1
    t.place(1, 1, 180).pass(); // Red closes C2
    t.place(0, 2, 0); // Blue: the pig beside its farmer
    t.try_figure_kind(FigureKind::Pig, "NNW").expect("pig");
    t.place(2, 1, 0).pass(); // Green joins F and F1
    t.place(-1, 2, 270).pass(); // Red
    t.place(-2, 2, 90).pass(); // Blue closes C3
    t.place(3, 0, 0).pass(); // Green
    assert!(t.is_over());
    // a tie: the pig's owner 3 × 4, the other 3 × 3
    let fields: Vec<_> = t
        .all_scored()
        .into_iter()
        .filter(|s| s.0 == Field)
        .collect();
    assert_eq!(
        fields,
        vec![(Field, 9, vec![GREEN], true), (Field, 12, vec![BLUE], true)]
    );
    assert_eq!(t.scores(), vec![0, 12, 9]);
    t.assert_replays();
}

#[test]
fn tb4_the_pig_adds_one_per_city_for_a_field_owner() {
    // F1 = the strip between T0's road and cap, extended east; F2 = the field north of
    // the cities C1 (T0's cap) and C2 ((1,0)'s cap), both completed; (2,1) joins F1 and F2.
    let mut t = Table::with(
        &["traders_builders"],
        3,
        &["base/D", "base/E", "base/E", "base/U", "base/B", "base/U"],
    );
    t.place(1, 0, 0).figure("ENE"); // Red farmer in F1
    t.place(0, 1, 180).pass(); // Blue closes C1
    t.place(1, 1, 180).figure("NNW"); // Green closes C2 and puts a farmer north: F2
    t.place(2, 0, 0); // Red: extends F1, the pig
    t.try_figure_kind(FigureKind::Pig, "NNW").expect("pig");
    t.place(2, 1, 0).pass(); // Blue joins F1 and F2
    t.place(3, 0, 0).pass(); // Green
    assert!(t.is_over());
    // field: Red 1 farmer + pig, Green 1 farmer; 2 completed cities
    let fields: Vec<_> = t
        .all_scored()
        .into_iter()
        .filter(|s| s.0 == Field)
        .collect();
    assert_eq!(
        fields,
        vec![(Field, 6, vec![GREEN], true), (Field, 8, vec![RED], true)]
    );
    assert_eq!(t.score(RED), 8);
    assert_eq!(t.score(GREEN), 6);
    t.assert_replays();
}

#[test]
fn tb4_a_pig_of_a_player_who_does_not_own_the_field_gives_nothing() {
    let mut t = Table::with(
        &["traders_builders", "inns_cathedrals"],
        3,
        &["base/D", "base/E", "base/E", "base/U", "base/B", "base/U"],
    );
    t.place(1, 0, 0).figure("ENE"); // Red farmer in F1
    t.place(0, 1, 180).pass(); // Blue closes C1
    t.place(1, 1, 180); // Green closes C2 and puts a big farmer north: F2
    t.try_figure_kind(FigureKind::BigFollower, "NNW")
        .expect("big farmer");
    t.place(2, 0, 0);
    t.try_figure_kind(FigureKind::Pig, "NNW").expect("pig");
    t.place(2, 1, 0).pass();
    t.place(3, 0, 0).pass();
    // Green's big farmer (2) beats Red's farmer (1): the pig does nothing
    let fields: Vec<_> = t
        .all_scored()
        .into_iter()
        .filter(|s| s.0 == Field)
        .collect();
    assert_eq!(fields, vec![(Field, 6, vec![GREEN], true)]);
    assert_eq!(t.score(RED), 0);
    assert_eq!(
        special(&t, RED, FigureKind::Pig),
        0,
        "the pig stays to the end"
    );
}

#[test]
fn the_pig_needs_an_own_farmer() {
    let mut t = tb(2, &["base/U"]);
    t.place(1, 0, 0);
    assert_eq!(
        t.try_figure_kind(FigureKind::Pig, "NNW"),
        Err(PlayError::NeedsOwnFollower("pig"))
    );
    assert!(t.try_figure_kind(FigureKind::Pig, "E").is_err());
}

#[test]
fn house_rule_field_scoring_per_city_with_a_pig() {
    // Red farms F1 (the strips north of the road, touching C1 and C2) and puts the pig
    // there: per field (3 + 1) × 2 cities = 8, per city (4 + 1) for each city = 10.
    for (value, red) in [("per_field", 8), ("per_city", 10)] {
        let mut rules = HouseRules::default();
        rules.set("field_scoring", value).unwrap();
        let tiles = ["base/D", "base/E", "base/U", "base/E"];
        let mut t = Table::with_rules(&["traders_builders"], 2, &tiles, 1, rules);
        t.place(1, 0, 0).figure("ENE"); // Red: farmer in F1
        t.place(0, 1, 180).figure("S"); // Blue closes C1 with a knight: 4
        t.place(2, 0, 0); // Red: its north field joins F1
        t.try_figure_kind(FigureKind::Pig, "NNE").expect("pig");
        t.place(1, 1, 180).pass(); // Blue closes C2, nobody in it
        assert!(t.is_over());
        assert_eq!(t.scores(), vec![red, 4], "{value}");
        t.assert_replays();
    }
}
