//! The Pig Herd (GQ11) as the engine adopts it (`src/expansions/pig_herd.rs`): the
//! winners of a completed city's farmers' points get 1 more for it when a field supplying
//! it, where they have a farmer, holds the herd tile. The module's worked examples, with
//! exact scores.
//!
//! The start tile `base/D` sits at (0,0): a road E-W and a city cap N. `base/E` turned
//! 180° at (0,1) closes that cap into the city C1 (nobody in it), its field wraps C1 to
//! the north.

mod common;

use common::{Table, BLUE, RED};
use tilepost_engine::expansions::tile_in_game;
use tilepost_engine::{Expansion, ExpansionSet, FeatureKind, FigureKind, HouseRules};

use FeatureKind::Field;

const HERD: &str = "ph/01-ffff";

fn herd(expansions: &[&str], players: u8, tiles: &[&str], field_scoring: &str) -> Table {
    let mut rules = HouseRules::default();
    rules.set("field_scoring", field_scoring).unwrap();
    let mut with = vec!["pig_herd"];
    with.extend_from_slice(expansions);
    Table::with_rules(&with, players, tiles, 1, rules)
}

fn field_scorings(t: &Table) -> Vec<(FeatureKind, i32, Vec<u8>, bool)> {
    t.all_scored()
        .into_iter()
        .filter(|s| s.0 == Field)
        .collect()
}

#[test]
fn the_herd_tile_is_all_field_and_in_the_pile_only_with_the_expansion() {
    let cat = tilepost_engine::catalog();
    let (_, tt) = cat
        .iter()
        .find(|(_, t)| t.id == HERD)
        .expect("the herd tile is in the catalog");
    assert_eq!(tt.count, 1);
    assert_eq!(tt.expansion, Some(Expansion::PigHerd));
    assert!(tt.features.iter().all(|f| f.kind == Field));
    assert_eq!(tt.features.len(), 1);
    let herd_only: ExpansionSet = [Expansion::PigHerd].into_iter().collect();
    let others: ExpansionSet = Expansion::ALL
        .into_iter()
        .filter(|&e| e != Expansion::PigHerd)
        .collect();
    assert!(tile_in_game(tt, herd_only));
    assert!(!tile_in_game(tt, others));
    let t = Table::with(&["pig_herd"], 2, &[HERD]);
    assert_eq!(t.drawn(), Some(HERD));
}

/// Example 1: Red's farmer stands in the herd's field, which supplies C1: 3 + 1 = 4.
#[test]
fn example_1_the_herd_field_supplies_one_city() {
    let mut t = herd(&[], 2, &["base/E", HERD], "per_field");
    t.place(0, 1, 180).figure("NNW"); // Red closes C1, farmer in the field north of it
    t.place(0, 2, 0).pass(); // Blue: the herd joins Red's field
    assert!(t.is_over());
    assert_eq!(field_scorings(&t), vec![(Field, 4, vec![RED], true)]);
    assert_eq!(t.scores(), vec![4, 0]);
    t.assert_replays();
}

/// Example 2: the same with Red's pig in the herd's field: 3 + 1 + 1 = 5.
#[test]
fn example_2_the_herd_and_a_pig() {
    let mut t = herd(
        &["traders_builders"],
        2,
        &["base/E", HERD, "base/E"],
        "per_field",
    );
    t.place(0, 1, 180).figure("NNW"); // Red closes C1, farmer north of it
    t.place(0, 2, 0).pass(); // Blue: the herd joins Red's field
    t.place(1, 2, 0); // Red: a cap north, its field joins the herd's
    t.try_figure_kind(FigureKind::Pig, "SSW").expect("pig");
    assert!(t.is_over());
    assert_eq!(field_scorings(&t), vec![(Field, 5, vec![RED], true)]);
    // the open cap at (1,2) belongs to nobody
    assert_eq!(t.scores(), vec![5, 0]);
    t.assert_replays();
}

/// Example 3: the herd lies in another field (south of the start tile's road, supplying
/// no city): Red gets 3 for C1.
#[test]
fn example_3_a_city_not_supplied_by_the_herd_field() {
    let mut t = herd(&[], 2, &["base/E", HERD], "per_field");
    t.place(0, 1, 180).figure("NNW"); // Red closes C1, farmer north of it
    t.place(0, -1, 0).figure("NNW"); // Blue: the herd south of the road, a farmer on it
    assert!(t.is_over());
    // Blue's field supplies no city: 0; Red's: 3, no herd
    assert_eq!(
        field_scorings(&t),
        vec![(Field, 0, vec![BLUE], true), (Field, 3, vec![RED], true)]
    );
    assert_eq!(t.scores(), vec![3, 0]);
    t.assert_replays();
}

/// Example 4: a tie of farmers in the herd's field: both get 4.
#[test]
fn example_4_a_tie_of_farmers_in_the_herd_field() {
    let mut t = herd(&[], 2, &["base/E", "base/U", HERD], "per_field");
    t.place(0, 1, 180).figure("NNW"); // Red closes C1, farmer north of it
    t.place(1, 0, 0).figure("NNW"); // Blue: the road goes on, a farmer north of it
    t.place(1, 1, 0).pass(); // Red: the herd joins both fields
    assert!(t.is_over());
    assert_eq!(field_scorings(&t), vec![(Field, 4, vec![RED, BLUE], true)]);
    assert_eq!(t.scores(), vec![4, 4]);
    t.assert_replays();
}

/// Example 5: the herd's field supplies two completed cities: 2 × (3 + 1) = 8.
#[test]
fn example_5_the_herd_field_supplies_two_cities() {
    let mut t = herd(&[], 2, &["base/E", HERD, "base/E", "base/E"], "per_field");
    t.place(0, 1, 180).figure("NNW"); // Red closes C1, farmer north of it
    t.place(0, 2, 0).pass(); // Blue: the herd
    t.place(0, 3, 0).pass(); // Red: a cap facing north, its field joins the herd's
    t.place(0, 4, 180).pass(); // Blue closes it: C3
    assert!(t.is_over());
    assert_eq!(field_scorings(&t), vec![(Field, 8, vec![RED], true)]);
    assert_eq!(t.scores(), vec![8, 0]);
    t.assert_replays();
}

/// House rule `field_scoring = per_city`: each city pays 4 once, the herd 1 more to a
/// winner who farms a field supplying it that holds the herd.
#[test]
fn house_rule_per_city_the_herd_adds_one_per_city() {
    // example 1: 4 + 1
    let mut t = herd(&[], 2, &["base/E", HERD], "per_city");
    t.place(0, 1, 180).figure("NNW");
    t.place(0, 2, 0).pass();
    assert!(t.is_over());
    assert_eq!(t.scores(), vec![5, 0]);
    t.assert_replays();

    // example 2: 4 + 1 (pig) + 1 (herd)
    let mut t = herd(
        &["traders_builders"],
        2,
        &["base/E", HERD, "base/E"],
        "per_city",
    );
    t.place(0, 1, 180).figure("NNW");
    t.place(0, 2, 0).pass();
    t.place(1, 2, 0);
    t.try_figure_kind(FigureKind::Pig, "SSW").expect("pig");
    assert!(t.is_over());
    assert_eq!(field_scorings(&t), vec![(Field, 6, vec![RED], true)]);
    t.assert_replays();

    // example 3: the herd elsewhere, 4
    let mut t = herd(&[], 2, &["base/E", HERD], "per_city");
    t.place(0, 1, 180).figure("NNW");
    t.place(0, -1, 0).figure("NNW");
    assert!(t.is_over());
    assert_eq!(t.scores(), vec![4, 0]);

    // example 4: a tie, both 4 + 1
    let mut t = herd(&[], 2, &["base/E", "base/U", HERD], "per_city");
    t.place(0, 1, 180).figure("NNW");
    t.place(1, 0, 0).figure("NNW");
    t.place(1, 1, 0).pass();
    assert!(t.is_over());
    assert_eq!(field_scorings(&t), vec![(Field, 5, vec![RED, BLUE], true)]);
    assert_eq!(t.scores(), vec![5, 5]);

    // example 5: two cities, 2 × (4 + 1)
    let mut t = herd(&[], 2, &["base/E", HERD, "base/E", "base/E"], "per_city");
    t.place(0, 1, 180).figure("NNW");
    t.place(0, 2, 0).pass();
    t.place(0, 3, 0).pass();
    t.place(0, 4, 180).pass();
    assert!(t.is_over());
    assert_eq!(t.scores(), vec![10, 0]);
    t.assert_replays();
}

/// Per city: a winner farming only a field without the herd gets no herd bonus, even
/// when another field supplying the same city holds it.
#[test]
fn house_rule_per_city_the_herd_counts_only_where_the_winner_farms() {
    // Red farms the field north of C1 (and wins C1 alone: 1 farmer against none); the
    // herd lies south of the road in a field that supplies no city
    let mut t = herd(&[], 2, &["base/E", HERD], "per_city");
    t.place(0, 1, 180).figure("NNW");
    t.place(0, -1, 0).pass();
    assert!(t.is_over());
    assert_eq!(t.scores(), vec![4, 0]);
}

/// The herd's field at the end of a game that a score estimate reads mid-game: the
/// estimate counts the herd too.
#[test]
fn the_score_estimate_counts_the_herd() {
    let mut t = herd(&[], 2, &["base/E", HERD, "base/U"], "per_field");
    t.place(0, 1, 180).figure("NNW");
    t.place(0, 2, 0).pass();
    assert!(!t.is_over());
    assert_eq!(t.game.final_scores_now(), vec![4, 0]);
}
