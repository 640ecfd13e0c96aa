//! Combined examples of `shared/rules/interactions.md`.

mod common;

use common::{Table, BLUE, GREEN, RED};
use tilepost_engine::expansions::minis::CropMode;
use tilepost_engine::expansions::minis::MagicFigure;
use tilepost_engine::Phase;
use tilepost_engine::{Action, FeatureKind, FigureKind, Pos};

/// Red's abbot on the garden of (0,-1); Blue's gold tile at (1,-1) puts its second ingot
/// on the garden tile.
fn garden_with_gold(tiles_after: &[&str]) -> Table {
    let mut tiles = vec![
        "base/V-garden",
        "base/U",
        "base/U",
        "gm/01-frrf",
        "base/U",
        "base/U",
    ];
    tiles.extend_from_slice(tiles_after);
    let mut t = Table::with(&["abbot", "gold_mines"], 2, &tiles);
    t.place(0, -1, 0);
    t.try_figure_kind(FigureKind::Abbot, "C").expect("abbot");
    t.place(1, 0, 0).pass(); // Blue
    t.place(-1, 0, 0).pass(); // Red
    t.place(1, -1, 0); // Blue: the gold tile
    t.try_play(Action::PlaceIngot { x: 0, y: -1 })
        .expect("the second ingot on the garden tile");
    t.pass();
    t.place(-1, -1, 0).pass(); // Red
    t.place(2, 0, 0).pass(); // Blue
    assert_eq!(t.game.ingots_at(Pos::new(0, -1)), 1);
    t
}

#[test]
fn x7_the_abbot_returns_without_gold() {
    let mut t = garden_with_gold(&["base/U"]);
    // Red places the 6th neighbour and returns the abbot: 1 + 6, no ingot
    t.place(0, -2, 90);
    t.try_play(Action::ReturnAbbot).expect("return");
    assert_eq!(t.scored()[0], (FeatureKind::Garden, 7, vec![RED], false));
    assert_eq!(t.game.players()[RED as usize].gold, 0);
    assert_eq!(t.game.ingots_at(Pos::new(0, -1)), 1, "the ingot stays");
    assert!(t.is_over());
    assert_eq!(t.scores(), vec![7, 0]);
    t.assert_replays();
}

#[test]
fn x7_a_completed_garden_collects_the_gold_of_its_nine_tiles() {
    let mut t = garden_with_gold(&["base/U", "base/B", "base/U"]);
    t.place(0, -2, 90).pass(); // Red
    t.place(-1, -2, 0).pass(); // Blue
    t.place(1, -2, 90).pass(); // Red: the 8th neighbour
    assert_eq!(t.scored()[0], (FeatureKind::Garden, 9, vec![RED], false));
    // the garden tile's ingot and the gold tile's own
    assert_eq!(t.game.players()[RED as usize].gold, 2);
    assert!(t.is_over());
    assert_eq!(t.scores(), vec![9 + 2, 0]);
    let _ = BLUE;
    t.assert_replays();
}

#[test]
fn x3_builder_double_turn_with_a_crop_circle_in_the_first_part() {
    let mut t = Table::with(
        &["traders_builders", "crop_circles"],
        2,
        &[
            "base/U",
            "base/W",
            "base/U",
            "base/U",
            "base/U",
            "base/U",
            "cc/01-frrr",
            "base/U",
        ],
    );
    t.place(1, 0, 0).figure("E"); // Red: highwayman on T0's road (R1)
    t.place(0, -1, 0).pass(); // Blue: a junction with three road ends
    t.place(2, 0, 0); // Red: the builder on R1
    t.try_figure_kind(FigureKind::Builder, "E")
        .expect("builder");
    t.place(1, -1, 0).figure("E"); // Blue: highwayman on the junction's east road
    t.place(-1, -1, 0).figure("E"); // Red: highwayman on the junction's west road (R3)
    t.place(0, -2, 90).pass(); // Blue
                               // Red's club circle extends R1 (builder and highwayman); nothing completes
    t.place(3, 0, 0).pass();
    assert_eq!(t.scored(), vec![]);
    assert_eq!(t.game.phase(), Phase::CropMode);
    t.try_play(Action::ChooseCropMode {
        mode: CropMode::Remove,
    })
    .expect("remove");
    // Blue (left of Red) must remove her highwayman
    assert_eq!(t.game.pending().map(|p| p.player), Some(BLUE));
    let blue = t.game.legal_actions();
    assert_eq!(blue.len(), 1);
    t.try_play_as(BLUE, blue[0].clone()).expect("Blue removes");
    // Red removes the highwayman on the other road; the builder's road keeps one
    assert_eq!(t.game.legal_actions().len(), 2);
    t.try_play_as(
        RED,
        Action::RemoveFollower {
            figure: FigureKind::Follower,
            x: -1,
            y: -1,
            spot: "E".into(),
        },
    )
    .expect("Red removes R3's highwayman");
    let red = &t.game.players()[RED as usize];
    assert_eq!(
        red.supply[FigureKind::Builder as usize],
        0,
        "the builder stays"
    );
    assert_eq!(red.supply[FigureKind::Follower as usize], 6);
    // then Red plays the builder's second part
    assert_eq!(t.game.phase(), Phase::PlaceTile);
    assert_eq!(t.current(), RED);
    t.place(4, 0, 0).pass();
    assert!(t.is_over());
    t.assert_replays();
}

#[test]
fn x6_a_flying_mayor_must_take_the_city() {
    let seed = (0..)
        .find(|s| 1 + tilepost_engine::rng::Rng::new(*s).below(3) == 2)
        .unwrap_or(0);
    let mut t = Table::with_seed(
        &["flying_machines", "abbey_mayor"],
        2,
        &[
            "base/U",
            "base/F",
            "fm/05-frfr",
            "base/F",
            "base/G",
            "base/G",
            "base/E",
        ],
        seed,
    );
    t.place(1, 0, 0).pass(); // Red
    t.place(0, 1, 90).figure("N"); // Blue's knight: the city from T0's cap north
    t.place(2, 0, 0); // Red: the flying machine points west
    t.try_play(Action::Fly {
        figure: FigureKind::Mayor,
    })
    .expect("the mayor flies");
    // roll 2: T0, with an incomplete road and Blue's city; a mayor only takes cities
    assert_eq!(t.game.flight_target(), Some(Pos::new(0, 0)));
    assert_eq!(
        t.game.legal_actions(),
        vec![Action::Land { spot: "N".into() }]
    );
    t.try_play(Action::Land { spot: "N".into() }).expect("land");
    t.place(0, 2, 90).pass(); // Blue: the second pennant
    t.place(0, 3, 90).pass();
    t.place(0, 4, 90).pass();
    t.place(0, 5, 180).pass(); // Red closes the city: 6 tiles, 2 pennants
                               // the mayor counts 2 (pennants) against Blue's knight
    assert_eq!(t.scored()[0], (FeatureKind::City, 16, vec![RED], false));
    t.assert_replays();
}

#[test]
fn x1_mayor_cathedral_witch_and_big_follower() {
    let mut t = Table::with(
        &["inns_cathedrals", "abbey_mayor", "mage_witch"],
        3,
        &[
            "base/U",
            "base/U",
            "mw/01-crrr",
            "am/09-fffc",
            "am/09-fffc",
            "ic/01-cccc",
            "base/E",
        ],
    );
    t.place(-1, 0, 0).pass(); // Red
    t.place(1, 0, 0).pass(); // Blue
                             // Green: a magic tile; the witch goes into T0's city
    t.place(2, 0, 0);
    t.try_play(Action::MoveMagic {
        figure: MagicFigure::Witch,
        x: 0,
        y: 0,
        spot: "N".into(),
    })
    .expect("witch");
    t.pass();
    // Red: a cap with a pennant and the mayor; Blue: a cap with a pennant and the big follower
    t.place(-1, 1, 180);
    assert_eq!(t.edges(-1, 1), "FCFF");
    t.try_figure_kind(FigureKind::Mayor, "E").expect("mayor");
    t.place(1, 1, 0);
    t.try_figure_kind(FigureKind::BigFollower, "W")
        .expect("big follower");
    // Green: the cathedral joins the three; Red closes the city
    t.place(0, 1, 0).pass();
    t.place(0, 2, 180).pass();
    // 5 tiles, 2 pennants, cathedral: (5 + 2) × 3 = 21; the witch halves it: 11
    assert_eq!(
        t.scored()[0],
        (FeatureKind::City, 11, vec![RED, BLUE], false)
    );
    assert_eq!(t.game.magic_figure(MagicFigure::Witch), None, "set aside");
    let _ = GREEN;
    t.assert_replays();
}

#[test]
fn x4_barn_pig_and_big_follower() {
    // F (north of the caps C1 and C2): Red's big farmer and pig; F1 (T0's strip): Blue's
    // farmer, doubled by a crop circle; F and F1 joined; Green's barn. (A crop circle
    // gives Blue his second farmer in one field, as two separate pieces cannot be built
    // on this small board.)
    let mut t = Table::with(
        &[
            "abbey_mayor",
            "traders_builders",
            "inns_cathedrals",
            "crop_circles",
        ],
        3,
        &[
            "base/D",
            "base/U",
            "base/E",
            "base/E",
            "cc/03-cfrf",
            "base/B",
            "base/B",
            "base/U",
            "base/B",
            "base/U",
            "base/U",
            "base/B",
            "base/E",
            "base/E",
        ],
    );
    t.place(1, 0, 0).pass(); // Red
    t.place(2, 0, 0).figure("NNW"); // Blue: farmer in F1
    t.place(0, 1, 180).pass(); // Green closes C1
    t.place(1, 1, 180); // Red closes C2; big farmer in F
    t.try_figure_kind(FigureKind::BigFollower, "NNW")
        .expect("big farmer");
    // Blue: a pitchfork circle; Add: Green has no farmer, Red passes, Blue adds one
    t.place(0, -1, 90).pass();
    t.try_play(Action::ChooseCropMode {
        mode: CropMode::Add,
    })
    .expect("add");
    assert_eq!(t.game.pending().map(|p| p.player), Some(RED));
    t.try_play_as(RED, Action::Pass).expect("Red adds nothing");
    t.try_play_as(
        BLUE,
        Action::AddFollower {
            figure: FigureKind::Follower,
            x: 2,
            y: 0,
            spot: "NNW".into(),
        },
    )
    .expect("Blue adds a farmer");
    t.place(0, 2, 0).pass(); // Green
    t.place(-1, 1, 0); // Red: the pig in F
    t.try_figure_kind(FigureKind::Pig, "NNW").expect("pig");
    t.place(3, 0, 0).pass(); // Blue
    t.place(2, 1, 0).pass(); // Green joins F and F1
    t.place(-1, 0, 0).pass(); // Red
    t.place(4, 0, 0).pass(); // Blue
                             // Green: the barn where (0,1), (1,1), (0,2) and (1,2) meet
    t.place(1, 2, 0);
    t.try_figure_kind(FigureKind::Barn, "SW").expect("barn");
    // Red 2 (big) + pig against Blue 2: a tie; 2 completed cities
    assert_eq!(
        t.scored(),
        vec![
            (FeatureKind::Field, 6, vec![BLUE], false),
            (FeatureKind::Field, 8, vec![RED], false)
        ]
    );
    let red = &t.game.players()[RED as usize];
    assert_eq!(red.supply[FigureKind::BigFollower as usize], 1);
    assert_eq!(red.supply[FigureKind::Pig as usize], 1);
    assert_eq!(t.supply(BLUE), 7);
    // a third completed city joins F before the end: the barn scores 3 × 4
    t.place(-1, 2, 270).pass(); // Red
    t.place(-2, 2, 90).pass(); // Blue closes C3
    assert!(t.is_over());
    assert_eq!(t.score(GREEN), 12);
    t.assert_replays();
}
