//! Abbey & Mayor as the rulebook states it (`shared/rules/abbey-mayor.md`): examples
//! AM1–AM7, the final abbey round and the wagon's reach.

mod common;

use common::{Table, BLUE, GREEN, RED};
use tilepost_engine::{Action, Effect, FeatureKind, FigureKind, Phase, PlayError};

use FeatureKind::{City, Field, Monastery, Road};

fn am(players: u8, tiles: &[&str]) -> Table {
    Table::with(&["abbey_mayor"], players, tiles)
}

fn supply(t: &Table, player: u8, kind: FigureKind) -> u8 {
    t.game.players()[player as usize].supply[kind as usize]
}

fn figure(t: &mut Table, kind: FigureKind, spot: &str) {
    if let Err(e) = t.try_figure_kind(kind, spot) {
        panic!("{kind:?} on {spot} refused: {e}");
    }
}

// ----- AM1 — mayor beats two knights ------------------------------------------------------------

#[test]
fn am1_mayor_with_three_pennants_beats_two_knights() {
    // A city on column x = 0 from T0's cap up to a cap at (0,6): 7 tiles, pennants on
    // (0,1), (0,3), (0,5). Monasteries on column x = 1 let the pieces start apart.
    let mut t = am(
        2,
        &[
            "base/U", "base/F", "base/B", "base/B", "base/B", "base/F", "base/B", "base/B",
            "base/F", "base/G", "base/G", "base/E",
        ],
    );
    t.place(1, 0, 0).pass(); // Red
    t.place(0, 1, 90).figure("N"); // Blue: knight on the city joined to T0's cap
    t.place(1, 1, 0).pass();
    t.place(1, 2, 0).pass();
    t.place(1, 3, 0).pass();
    t.place(0, 3, 90).figure("N"); // Blue: second knight on a separate piece
    t.place(1, 4, 0).pass();
    t.place(1, 5, 0).pass();
    t.place(0, 5, 90); // Red: the mayor on a third piece
    figure(&mut t, FigureKind::Mayor, "N");
    t.place(0, 2, 90).pass(); // joins Blue's pieces
    t.place(0, 4, 90).pass(); // joins the mayor's piece
    t.place(0, 6, 180).pass(); // closes the city
    assert_eq!(t.scored()[0], (City, 20, vec![RED], false));
    assert_eq!(t.scores(), vec![20, 0]);
    assert_eq!(supply(&t, RED, FigureKind::Mayor), 1, "the mayor returns");
    assert_eq!(t.supply(BLUE), 7, "the knights return");
    t.assert_replays();
}

// ----- AM2 — mayor without pennants -------------------------------------------------------------

fn pennantless_city(blue_knight: bool) -> Table {
    // City (-1,-1) cap E, (0,-1) city E–W, (1,-1) cap W: 3 tiles, no pennant.
    let mut t = am(2, &["base/U", "base/U", "base/E", "base/E", "base/G"]);
    t.place(-1, 0, 0).pass();
    t.place(1, 0, 0).pass();
    t.place(1, -1, 270);
    figure(&mut t, FigureKind::Mayor, "W"); // Red's mayor
    t.place(-1, -1, 90);
    if blue_knight {
        t.figure("E");
    } else {
        t.pass();
    }
    t.place(0, -1, 0).pass(); // Red closes the city
    t
}

#[test]
fn am2_a_mayor_alone_in_a_city_without_pennants_scores_nothing() {
    let t = pennantless_city(false);
    assert_eq!(t.all_scored(), vec![]);
    assert_eq!(t.scores(), vec![0, 0]);
    assert_eq!(supply(&t, RED, FigureKind::Mayor), 1, "the mayor returns");
    t.assert_replays();
}

#[test]
fn am2_a_knight_beats_a_mayor_without_pennants() {
    let t = pennantless_city(true);
    assert_eq!(t.all_scored()[0], (City, 6, vec![BLUE], false));
    assert_eq!(t.scores(), vec![0, 6]);
    assert_eq!(supply(&t, RED, FigureKind::Mayor), 1);
}

#[test]
fn the_mayor_goes_only_into_an_empty_city() {
    let mut t = am(2, &["base/E", "base/U"]);
    t.place(0, 1, 180); // closes T0's cap with a cap: the city is on the tile
    assert!(
        t.try_figure_kind(FigureKind::Mayor, "NNW").is_err(),
        "not in a field"
    );
    figure(&mut t, FigureKind::Mayor, "S");
    // complete and pennantless: nobody scores
    assert_eq!(t.scored(), vec![]);
    t.place(1, 0, 0);
    assert!(
        t.try_figure_kind(FigureKind::Mayor, "E").is_err(),
        "not on a road"
    );
}

// ----- AM3 — abbey closing a road ---------------------------------------------------------------

fn road_to_a_hole(extra: &[&str]) -> Table {
    let mut tiles = vec![
        "base/U", "base/U", "base/U", "base/W", "base/B", "base/U", "base/B", "base/B",
    ];
    tiles.extend_from_slice(extra);
    let mut t = am(2, &tiles);
    t.place(1, 0, 0).pass(); // Red
    t.place(0, -1, 0).figure("E"); // Blue's highwayman
    t.place(-1, -1, 0).pass();
    t.place(-2, -1, 0).pass(); // junction: the road's west end
    t.place(0, -2, 0).pass();
    t.place(2, 0, 0).pass();
    t.place(1, -2, 0).pass();
    t.place(2, -1, 0).pass(); // (1,-1) is now a hole
    t
}

#[test]
fn am3_an_abbey_closes_the_road_and_is_a_monastery() {
    let mut t = road_to_a_hole(&["base/B"]);
    // Red, instead of drawing, places the abbey
    assert_eq!(t.game.phase(), Phase::AbbeyOrDraw);
    assert_eq!(t.current(), RED);
    assert_eq!(t.drawn(), None, "nothing is drawn before the choice");
    let listed = t.game.legal_actions();
    assert_eq!(
        listed,
        vec![Action::PlaceAbbey { x: 1, y: -1 }, Action::DrawTile]
    );
    assert_eq!(
        t.try_play(Action::PlaceAbbey { x: 3, y: 0 }),
        Err(PlayError::NotAHole { x: 3, y: 0 })
    );
    t.try_play(Action::PlaceAbbey { x: 1, y: -1 })
        .expect("the abbey fits the hole");
    t.figure("C"); // a monk on the abbey
                   // the road {(-2,-1), (-1,-1), (0,-1)} is closed at both ends
    assert_eq!(t.scored()[0], (Road, 3, vec![BLUE], false));
    assert!(!t.game.players()[RED as usize].abbey);
    // Blue has an abbey but no hole: draws at once
    assert_eq!(t.game.phase(), Phase::PlaceTile);
    t.place(-1, -2, 0).pass();
    assert!(t.is_over());
    // the abbey has 7 of 8 neighbours at the end: 1 + 7
    assert_eq!(
        t.all_scored().last().cloned(),
        Some((Monastery, 8, vec![RED], true))
    );
    assert_eq!(t.scores(), vec![8, 3]);
    t.assert_replays();
}

#[test]
fn am3_draw_instead_of_placing_the_abbey() {
    let mut t = road_to_a_hole(&["base/B"]);
    t.try_play(Action::DrawTile)
        .expect("drawing is always possible");
    assert_eq!(t.drawn(), Some("base/B"));
    assert!(t.game.players()[RED as usize].abbey);
    t.place(-1, -2, 0).pass();
    // the last tile is placed: the final abbey round starts left of Red, with Blue
    assert_eq!(t.game.phase(), Phase::FinalAbbey);
    assert_eq!(t.current(), BLUE);
    t.try_play(Action::Pass).expect("Blue keeps the abbey");
    assert_eq!(t.current(), RED);
    assert_eq!(
        t.game.legal_actions(),
        vec![Action::PlaceAbbey { x: 1, y: -1 }, Action::Pass]
    );
    t.try_play(Action::PlaceAbbey { x: 1, y: -1 })
        .expect("abbey");
    t.figure("C");
    assert_eq!(t.scored()[0], (Road, 3, vec![BLUE], false));
    assert!(t.is_over());
    assert_eq!(t.scores(), vec![8, 3]);
    t.assert_replays();
}

// ----- AM4 — wagon moves after scoring -----------------------------------------------------------

#[test]
fn am4_the_wagon_moves_to_a_feature_in_reach() {
    let mut t = am(2, &["base/A", "base/W"]);
    t.place(1, 0, 90); // Red: monastery, road W
    assert_eq!(t.edges(1, 0), "FFFR");
    figure(&mut t, FigureKind::Wagon, "W");
    t.place(-1, 0, 0).pass(); // Blue completes the road {(-1,0),(0,0),(1,0)}
    assert_eq!(t.scored()[0], (Road, 3, vec![RED], false));
    assert!(t.last.contains(&Effect::WagonFreed {
        player: RED,
        x: 1,
        y: 0
    }));
    // Red decides during Blue's turn
    assert_eq!(t.game.phase(), Phase::MoveWagon);
    assert_eq!(t.game.pending().map(|p| p.player), Some(RED));
    let targets = t.game.legal_actions();
    assert_eq!(
        targets,
        vec![
            Action::MoveWagon {
                x: 0,
                y: 0,
                spot: "N".into()
            },
            Action::MoveWagon {
                x: 1,
                y: 0,
                spot: "C".into()
            },
            Action::Pass,
        ]
    );
    // not the completed road, not the junction two cells away
    assert_eq!(
        t.try_play_as(
            RED,
            Action::MoveWagon {
                x: 0,
                y: 0,
                spot: "E".into()
            }
        ),
        Err(PlayError::WagonOutOfReach)
    );
    assert_eq!(
        t.try_play_as(
            RED,
            Action::MoveWagon {
                x: -1,
                y: 0,
                spot: "S".into()
            }
        ),
        Err(PlayError::WagonOutOfReach)
    );
    assert!(matches!(
        t.try_play_as(
            BLUE,
            Action::MoveWagon {
                x: 1,
                y: 0,
                spot: "C".into()
            }
        ),
        Err(PlayError::NotYourTurn { .. })
    ));
    t.try_play_as(
        RED,
        Action::MoveWagon {
            x: 1,
            y: 0,
            spot: "C".into(),
        },
    )
    .expect("the wagon moves onto the monastery");
    assert_eq!(supply(&t, RED, FigureKind::Wagon), 0);
    assert!(t.is_over());
    // the wagon now scores the incomplete monastery: 1 + 1 neighbour
    assert_eq!(t.scores(), vec![3 + 2, 0]);
    t.assert_replays();
}

#[test]
fn a_wagon_with_nowhere_to_go_returns() {
    // The wagon on T0's road completed by a junction on both sides: every feature around
    // is complete or a field.
    let mut t = am(2, &["base/W", "base/W"]);
    t.place(1, 0, 0);
    figure(&mut t, FigureKind::Wagon, "W");
    t.place(-1, 0, 0).pass();
    // in reach: T0's city cap is still open
    assert_eq!(t.game.phase(), Phase::MoveWagon);
    t.try_play_as(RED, Action::Pass)
        .expect("take the wagon back");
    assert_eq!(supply(&t, RED, FigureKind::Wagon), 1);
    assert!(t
        .last
        .iter()
        .all(|e| !matches!(e, Effect::FeatureScored { .. })));
    t.assert_replays();
}

// ----- AM5–AM7 — barns ----------------------------------------------------------------------------

/// T0, (1,0) base/D, (0,1) and (1,1) caps closing C1 and C2, monasteries at (0,2), (1,2):
/// one field F north of the cities, touching C1 and C2.
#[test]
fn am5_barn_on_a_field_with_a_farmer_then_barn_scoring_at_the_end() {
    let mut t = am(
        2,
        &[
            "base/D", "base/E", "base/E", "base/B", "base/B", "base/E", "base/E",
        ],
    );
    t.place(1, 0, 0).pass(); // Red
    t.place(0, 1, 180).figure("NNW"); // Blue: farmer in F; closes C1
    t.place(1, 1, 180).pass(); // Red closes C2
    t.place(0, 2, 0).pass(); // Blue
    t.place(1, 2, 0); // Red: the barn on the SW corner, where four fields meet
    assert!(t.game.legal_actions().contains(&Action::PlaceFigure {
        figure: FigureKind::Barn,
        spot: "SW".into()
    }));
    assert_eq!(
        t.try_figure_kind(FigureKind::Barn, "NE"),
        Err(PlayError::BarnNotAllowed(
            "four tiles must meet at the corner"
        ))
    );
    figure(&mut t, FigureKind::Barn, "SW");
    // F's farmers are scored as at the end: 2 completed cities × 3
    assert_eq!(t.scored(), vec![(Field, 6, vec![BLUE], false)]);
    assert_eq!(t.supply(BLUE), 7, "the farmer returns");
    // no follower may enter a field with a barn
    t.place(-1, 2, 270); // Blue: field joins F; its cap W starts C3
    assert_eq!(
        t.try_figure("NNW"),
        Err(PlayError::FeatureOccupied("field"))
    );
    t.pass();
    t.place(-2, 2, 90).pass(); // Red closes C3
    assert!(t.is_over());
    // the barn: F touches 3 completed cities × 4
    assert!(t.history.contains(&Effect::BarnScored {
        player: RED,
        points: 12,
        tiles: t
            .game
            .board()
            .feature_positions(t.game.board().figures[0].seg),
    }));
    assert_eq!(t.scores(), vec![12, 6]);
    t.assert_replays();
}

/// AM5's field F with its barn, then a road on row 3 whose north field gets Red's and
/// Blue's farmers; a monastery with its road ending at (3,3) joins that field to F.
fn barn_connection(red_pig: bool) -> Table {
    let mut t = Table::with(
        &["abbey_mayor", "traders_builders"],
        2,
        &[
            "base/D", "base/E", "base/E", "base/B", "base/B", "base/B", "base/U", "base/U",
            "base/U", "base/A",
        ],
    );
    t.place(1, 0, 0).pass(); // Red
    t.place(0, 1, 180).pass(); // Blue closes C1
    t.place(1, 1, 180).pass(); // Red closes C2
    t.place(0, 2, 0).pass(); // Blue
    t.place(1, 2, 0); // Red: barn in an empty field
    figure(&mut t, FigureKind::Barn, "SW");
    assert_eq!(t.scored(), vec![]);
    t.place(2, 2, 0).pass(); // Blue: F grows east
    t.place(0, 3, 0).figure("NNW"); // Red: farmer north of the road (the south joins F)
    t.place(2, 3, 0).figure("NNW"); // Blue: farmer on a separate north field
    t.place(1, 3, 0); // Red joins the north fields
    if red_pig {
        figure(&mut t, FigureKind::Pig, "NNW");
    } else {
        t.pass();
    }
    assert_eq!(t.scored(), vec![]);
    t.place(3, 3, 90).pass(); // Blue: the field round the monastery joins north and F
    t
}

#[test]
fn am6_farmers_joined_to_a_barn_field_score_one_per_city() {
    let t = barn_connection(false);
    assert_eq!(t.scored(), vec![(Field, 2, vec![RED, BLUE], false)]);
    assert_eq!(
        (t.supply(RED), t.supply(BLUE)),
        (7, 7),
        "both farmers return"
    );
    assert!(t.is_over());
    // at the end the barn scores F's 2 completed cities × 4
    assert_eq!(t.scores(), vec![2 + 8, 2]);
    t.assert_replays();
}

#[test]
fn am6_with_a_pig_the_connection_pays_two_per_city() {
    let t = barn_connection(true);
    assert_eq!(
        t.scored(),
        vec![(Field, 2, vec![BLUE], false), (Field, 4, vec![RED], false)]
    );
    assert_eq!(supply(&t, RED, FigureKind::Pig), 1, "the pig returns too");
    assert_eq!(t.scores(), vec![4 + 8, 2]);
    t.assert_replays();
}

#[test]
fn am7_barn_placed_on_a_field_with_a_farmer_and_a_pig() {
    // Blue: farmer and pig in F; Green: farmer in F1 (T0's strip), joined to F; F touches
    // C1, C2 and C3. Red places the barn.
    let mut t = Table::with(
        &["abbey_mayor", "traders_builders"],
        3,
        &[
            "base/D", "base/E", "base/U", "base/E", "base/B", "base/B", "base/E", "base/E",
            "base/U", "base/B",
        ],
    );
    t.place(1, 0, 0).pass(); // Red
    t.place(0, 1, 180).figure("NNW"); // Blue: farmer in F, closes C1
    t.place(2, 0, 0).figure("NNW"); // Green: farmer in T0's strip F1
    t.place(1, 1, 180).pass(); // Red closes C2
    t.place(0, 2, 0); // Blue: the pig beside its farmer
    figure(&mut t, FigureKind::Pig, "NNW");
    t.place(2, 1, 0).pass(); // Green joins F and F1
    t.place(-1, 2, 270).pass(); // Red
    t.place(-2, 2, 90).pass(); // Blue closes C3
    t.place(3, 0, 0).pass(); // Green
    t.place(1, 2, 0); // Red: the barn
    figure(&mut t, FigureKind::Barn, "SW");
    assert_eq!(
        t.scored(),
        vec![
            (Field, 9, vec![GREEN], false),
            (Field, 12, vec![BLUE], false)
        ]
    );
    assert_eq!(supply(&t, BLUE, FigureKind::Pig), 1);
    assert_eq!((t.supply(BLUE), t.supply(GREEN)), (7, 7));
    assert!(t.is_over());
    // the barn at the end: 3 cities × 4
    assert_eq!(t.scores(), vec![12, 12, 9]);
    t.assert_replays();
}

#[test]
fn a_field_holds_one_barn() {
    let mut t = am(
        2,
        &[
            "base/D", "base/E", "base/E", "base/B", "base/B", "base/B", "base/B",
        ],
    );
    t.place(1, 0, 0).pass();
    t.place(0, 1, 180).pass();
    t.place(1, 1, 180).pass();
    t.place(0, 2, 0).pass();
    t.place(1, 2, 0);
    figure(&mut t, FigureKind::Barn, "SW"); // Red
    t.place(0, 3, 0); // Blue: its SE corner meets (0,2), (1,2), (1,3)? (1,3) is empty
    assert_eq!(
        t.try_figure_kind(FigureKind::Barn, "SE"),
        Err(PlayError::BarnNotAllowed(
            "four tiles must meet at the corner"
        ))
    );
    t.pass();
    t.place(1, 3, 0); // Red: its SW corner is four fields, but F has Red's barn
    assert_eq!(
        t.try_figure_kind(FigureKind::Barn, "SW"),
        Err(PlayError::BarnNotAllowed("the field already has a barn"))
    );
}
