//! House rule `tiles_in_hand` (docs/house-rules.md): each player holds 2 or 3 drawn tiles,
//! hidden from the others, and places one of them per turn. Scripted games with a fixed
//! tile order and exact scores, the refusals, and the hidden information.

mod common;

use common::{Table, BLUE, RED};
use tilepost_engine::rng::Rng;
use tilepost_engine::{
    catalog, Action, Effect, FeatureKind, Game, HouseRules, MoveError, Phase, PlayError, Rotation,
    TileTypeId,
};

fn hand_of(n: &str) -> HouseRules {
    let mut r = HouseRules::default();
    r.set("tiles_in_hand", n).expect("a hand size");
    r
}

fn game(n: &str, tiles: &[&str]) -> Table {
    Table::with_rules(&[], 2, tiles, 1, hand_of(n))
}

fn tile(id: &str) -> TileTypeId {
    catalog().id(id).expect("a catalog tile")
}

#[test]
fn the_variant_is_in_the_catalog_and_one_tile_changes_nothing() {
    let v = tilepost_engine::rule_catalog()
        .variants
        .into_iter()
        .find(|v| v.name == "tiles_in_hand")
        .expect("listed");
    assert_eq!(v.values, ["1", "2", "3"]);
    assert_eq!(v.default, "1");
    assert_eq!(v.expansion, None);
    // one tile in hand: no hands, the drawn tile is pending as always
    let t = Table::new(2, &["base/E", "base/U"]);
    assert_eq!(t.game.hand_sizes(), Vec::<usize>::new());
    assert_eq!(t.game.hand(RED), &[] as &[TileTypeId]);
    assert_eq!(t.drawn(), Some("base/E"));
    assert_eq!(t.game.tiles_to_place(), vec![tile("base/E")]);
    // naming the drawn tile is accepted, naming another is refused
    let mut t = Table::new(2, &["base/E", "base/U"]);
    assert_eq!(
        t.try_place_tile("base/U", 0, 1, 180),
        Err(PlayError::TileNotInHand("base/U".into()))
    );
    t.place_tile("base/E", 0, 1, 180).pass();
    t.assert_replays();
}

/// Two tiles in hand. Red holds E and U, Blue E and B; the pile is then empty but for V,
/// and the players play their hands out.
#[test]
fn two_tiles_in_hand_scenario_with_exact_scores() {
    let mut t = game("2", &["base/E", "base/U", "base/E", "base/B", "base/V"]);
    assert_eq!(t.current(), RED);
    assert_eq!(t.hand(), vec!["base/E", "base/U"]);
    assert_eq!(t.game.hand_sizes(), vec![2, 0]);
    assert_eq!(t.game.pending().expect("pending").tile, None);
    // both tiles are listed, each action naming its tile
    let listed = t.game.legal_actions();
    for id in ["base/E", "base/U"] {
        assert!(listed
            .iter()
            .any(|a| matches!(a, Action::PlaceTile { tile: Some(x), .. } if x == id)));
    }
    assert!(listed
        .iter()
        .all(|a| matches!(a, Action::PlaceTile { tile: Some(_), .. })));
    let placements = t.game.placements();
    assert!(placements.iter().any(|p| p.tile == tile("base/E")));
    assert!(placements.iter().any(|p| p.tile == tile("base/U")));
    // two kinds of tile: the action must name one, and one of the hand
    assert_eq!(t.try_place(0, 1, 180), Err(PlayError::TileNotNamed));
    assert_eq!(
        t.try_place_tile("base/B", 0, 1, 180),
        Err(PlayError::TileNotInHand("base/B".into()))
    );
    assert_eq!(
        t.try_place_tile("no/such", 0, 1, 180),
        Err(PlayError::TileNotInHand("no/such".into()))
    );
    // 1. Red: E closes T0's city; a knight on it scores 4 at once
    t.place_tile("base/E", 0, 1, 180).figure("S");
    assert_eq!(t.scored(), vec![(FeatureKind::City, 4, vec![RED], false)]);
    assert_eq!(t.game.hand(RED), &[tile("base/U")]);
    // Blue fills the hand: E and B
    assert_eq!(t.current(), BLUE);
    assert_eq!(t.hand(), vec!["base/E", "base/B"]);
    assert_eq!(t.game.hand_sizes(), vec![1, 2]);
    assert!(t.last.iter().any(|e| matches!(
        e,
        Effect::TileToHand { player: BLUE, tile } if tile == "base/E"
    )));
    // 2. Blue: the monastery south of T0, a monk on it
    t.place_tile("base/B", 0, -1, 0).figure("C");
    // 3. Red draws V (the last tile of the pile): U and V in hand; U extends T0's road
    assert_eq!(t.hand(), vec!["base/U", "base/V"]);
    assert_eq!(t.game.tiles_left(), 0);
    t.place_tile("base/U", 1, 0, 0).figure("E");
    // 4. Blue plays out the hand: E, a single tile, needs no name
    assert_eq!(t.hand(), vec!["base/E"]);
    t.place(1, 1, 0).pass();
    // 5. Red: V turns the road south
    assert_eq!(t.hand(), vec!["base/V"]);
    t.place(2, 0, 0).pass();
    // every hand and the pile are empty: the game ends
    assert!(t.is_over());
    assert_eq!(t.game.hand_sizes(), vec![0, 0]);
    // Red: the city 4, the road T0-U-V 3; Blue: the monastery with T0 and U around it, 3
    assert_eq!(
        t.scored(),
        vec![
            (FeatureKind::Road, 3, vec![RED], true),
            (FeatureKind::Monastery, 3, vec![BLUE], true),
        ]
    );
    assert_eq!(t.scores(), vec![7, 3]);
    t.assert_replays();
}

/// Three tiles in hand: Red holds E, U and B, Blue V, E and A; nothing is left in the pile
/// after the first two turns.
#[test]
fn three_tiles_in_hand_scenario_with_exact_scores() {
    let mut t = game(
        "3",
        &["base/E", "base/U", "base/B", "base/V", "base/E", "base/A"],
    );
    assert_eq!(t.hand(), vec!["base/E", "base/U", "base/B"]);
    // the public count: every tile not placed, the hands included
    let left: u32 = t.game.tiles_left_by_type().iter().map(|(_, n)| n).sum();
    assert_eq!(left, 6);
    let mine: u32 = t.game.tiles_unseen_by(RED).iter().map(|(_, n)| n).sum();
    assert_eq!(mine, 3, "Red has seen the own hand");
    // 1. Red: the monastery south of T0, a monk on it
    t.place_tile("base/B", 0, -1, 0).figure("C");
    assert_eq!(t.hand(), vec!["base/V", "base/E", "base/A"]);
    assert_eq!(t.game.hand_sizes(), vec![2, 3]);
    assert_eq!(t.game.tiles_left(), 0);
    // 2. Blue: E closes T0's city, a knight on it: 4
    t.place_tile("base/E", 0, 1, 180).figure("S");
    assert_eq!(t.scored(), vec![(FeatureKind::City, 4, vec![BLUE], false)]);
    // 3. Red: U extends T0's road east, a thief on it
    assert_eq!(t.hand(), vec!["base/E", "base/U"]);
    t.place_tile("base/U", 1, 0, 0).figure("E");
    // 4. Blue: A west of T0 ends the road there; a monk on its monastery
    assert_eq!(t.hand(), vec!["base/V", "base/A"]);
    t.place_tile("base/A", -1, 0, 270).figure("C");
    // 5. Red: E south-east of T0, next to Red's monastery
    assert_eq!(t.hand(), vec!["base/E"]);
    t.place(1, -1, 180).pass();
    // 6. Blue: V continues the road east and turns it south
    assert_eq!(t.hand(), vec!["base/V"]);
    t.place(2, 0, 0).pass();
    assert!(t.is_over());
    // Red: the road A-T0-U-V 4, the monastery (0,-1) with 4 tiles around 5;
    // Blue: the city 4, the monastery (-1,0) with 3 tiles around 4
    assert_eq!(
        t.scored(),
        vec![
            (FeatureKind::Road, 4, vec![RED], true),
            (FeatureKind::Monastery, 4, vec![BLUE], true),
            (FeatureKind::Monastery, 5, vec![RED], true),
        ]
    );
    assert_eq!(t.scores(), vec![9, 8]);
    assert_eq!(t.ranks(), vec![1, 2]);
    t.assert_replays();
}

/// A tile kept in hand can stop fitting: Red's all-city C fits when drawn, but Blue
/// closes the only open city; with the pile empty Red's hand holds C alone, which is
/// shown and removed (`unplaceable_tile = removed`), and Red is passed over.
#[test]
fn a_hand_that_no_longer_fits_is_shown_and_emptied() {
    let mut t = game(
        "2",
        &["base/C", "base/U", "base/E", "base/B", "base/B", "base/B"],
    );
    assert_eq!(t.hand(), vec!["base/C", "base/U"]);
    t.place_tile("base/U", 1, 0, 0).pass();
    assert_eq!(t.hand(), vec!["base/E", "base/B"]);
    t.place_tile("base/E", 0, 1, 180).pass();
    // Red: C fits nowhere now, B does: C stays in hand
    assert_eq!(t.hand(), vec!["base/C", "base/B"]);
    assert_eq!(
        t.game.tiles_to_place(),
        vec![tile("base/C"), tile("base/B")]
    );
    assert!(t.game.placements().iter().all(|p| p.tile == tile("base/B")));
    assert!(matches!(
        t.try_place_tile("base/C", 0, -1, 0),
        Err(PlayError::TileDoesNotFit { .. })
    ));
    t.place_tile("base/B", 0, -1, 0).pass();
    assert_eq!(t.hand(), vec!["base/B", "base/B"]);
    t.place(1, -1, 0).pass();
    // Red's hand (C alone) fits nowhere: shown, removed, and Blue plays on
    assert!(t
        .last
        .iter()
        .any(|e| matches!(e, Effect::TileDiscarded { tile } if tile == "base/C")));
    assert_eq!(t.current(), BLUE);
    assert_eq!(t.game.hand_sizes(), vec![0, 1]);
    t.place(-1, -1, 0).pass();
    assert!(t.is_over());
    t.assert_replays();
}

#[test]
fn a_player_who_leaves_puts_the_hand_back_in_the_box() {
    let mut t = Table::with_rules(
        &[],
        3,
        &[
            "base/E", "base/U", "base/B", "base/V", "base/E", "base/A", "base/B",
        ],
        1,
        hand_of("2"),
    );
    t.place_tile("base/E", 0, 1, 180).pass();
    assert_eq!(t.current(), BLUE);
    assert_eq!(t.game.hand_sizes(), vec![1, 2, 0]);
    // Blue leaves while choosing: the hand is shown as discarded, Green plays on
    t.resign(BLUE);
    assert_eq!(
        t.last
            .iter()
            .filter(|e| matches!(e, Effect::TileDiscarded { .. }))
            .count(),
        2
    );
    assert_eq!(t.current(), 2);
    assert_eq!(t.game.hand_sizes(), vec![1, 0, 2]);
    t.assert_replays();
}

// ----- hidden information ---------------------------------------------------------------

/// Two games with the same visible past in which Blue holds different tiles: Red sees
/// the same game in both, and Blue's hand appears nowhere in what Red is shown.
#[test]
fn another_seats_hand_is_not_in_the_view() {
    let order_a = ["base/E", "base/U", "base/B", "base/V", "base/E", "base/A"];
    let order_b = ["base/E", "base/U", "base/A", "base/E", "base/V", "base/B"];
    let mut a = game("2", &order_a);
    let mut b = game("2", &order_b);
    for t in [&mut a, &mut b] {
        t.place_tile("base/E", 0, 1, 180).pass();
        assert_eq!(t.current(), BLUE);
    }
    assert_ne!(a.game.hand(BLUE), b.game.hand(BLUE));
    assert_eq!(a.game.hand(RED), b.game.hand(RED));
    // what Red is shown is the same
    assert_eq!(a.game.seat_view(RED), b.game.seat_view(RED));
    assert_eq!(a.game.pending(), b.game.pending());
    assert_eq!(a.game.pending().expect("pending").tile, None);
    assert_eq!(a.game.hand_sizes(), b.game.hand_sizes());
    assert_eq!(a.game.tiles_left_by_type(), b.game.tiles_left_by_type());
    assert_eq!(a.game.tiles_unseen_by(RED), b.game.tiles_unseen_by(RED));
    // Red's answers do not depend on Blue's hand
    let probe = Action::PlaceTile {
        x: 1,
        y: 0,
        rotation: Rotation::R0,
        tile: Some("base/B".into()),
    };
    let ra = a.game.clone().play(RED, &probe);
    let rb = b.game.clone().play(RED, &probe);
    assert_eq!(ra, rb);
    assert!(matches!(ra, Err(PlayError::NotYourTurn { .. })));
    // the draws into Blue's hand name the tiles to Blue only: the effects say so
    assert!(a
        .last
        .iter()
        .all(|e| !matches!(e, Effect::TileToHand { player, .. } if *player != BLUE)));
    // Blue's own view differs: Blue knows the own hand
    assert_ne!(a.game.seat_view(BLUE), b.game.seat_view(BLUE));
    assert_eq!(a.game.seat_view(BLUE).game().hand(BLUE), a.game.hand(BLUE));
}

#[test]
fn a_determinized_game_deals_the_other_hands_from_the_unseen_tiles() {
    let mut t = game(
        "3",
        &[
            "base/E", "base/U", "base/B", "base/V", "base/E", "base/A", "base/B", "base/U",
            "base/K", "base/W",
        ],
    );
    t.place_tile("base/B", 0, -1, 0).pass();
    assert_eq!(t.current(), BLUE);
    let view = t.game.seat_view(RED);
    let unseen = t.game.tiles_unseen_by(RED);
    let mut rng = Rng::new(7);
    let mut hands = std::collections::BTreeSet::new();
    for _ in 0..20 {
        let d = view.determinize(&mut rng);
        assert_eq!(d.hand(RED), t.game.hand(RED), "Red's own hand is kept");
        assert_eq!(d.hand_sizes(), t.game.hand_sizes());
        assert_eq!(d.tiles_unseen_by(RED), unseen);
        assert_eq!(d.tiles_left_by_type(), t.game.tiles_left_by_type());
        assert_eq!(d.board(), t.game.board());
        let mut blue = d.hand(BLUE).to_vec();
        blue.sort();
        hands.insert(blue);
        // a sampled game plays on
        let a = d.legal_actions().into_iter().next().expect("options");
        let mut d = d;
        d.play(BLUE, &a).expect("a listed action");
    }
    assert!(hands.len() > 1, "Blue's hand is sampled anew");
}

#[test]
fn a_move_ends_with_the_draw_into_a_hand() {
    let mut t = game("2", &["base/E", "base/U", "base/E", "base/B", "base/V"]);
    let place = Action::PlaceTile {
        x: 0,
        y: 1,
        rotation: Rotation::from_degrees(180).expect("angle"),
        tile: Some("base/E".into()),
    };
    // the pass ends Red's turn and fills Blue's hand: nothing may follow it
    let before = t.game.clone();
    let r = t
        .game
        .play_move(RED, &[place.clone(), Action::Pass, Action::Pass]);
    assert_eq!(
        r.map(|_| ()),
        Err(MoveError {
            index: 2,
            error: PlayError::MovePastHiddenInformation,
        })
    );
    assert_eq!(t.game, before);
    // the two actions up to the draw are one move
    t.game
        .play_move(RED, &[place, Action::Pass])
        .expect("a move");
    assert_eq!(t.game.phase(), Phase::PlaceTile);
    assert_eq!(t.game.current_player(), BLUE);
}

/// Random games with 2 or 3 tiles in hand: at random decisions, a game sampled from a
/// seat's view looks the same to that seat (the view holds nothing of the other hands but
/// their sizes), and every game ends with the pile and the hands empty.
#[test]
fn random_games_keep_the_hands_hidden_and_end() {
    for i in 0..60u64 {
        let mut rng = Rng::new(0x4a4e_u64.wrapping_mul(1_000_003).wrapping_add(i));
        let players = 2 + rng.below(4) as u8;
        let rules = hand_of(if i % 2 == 0 { "2" } else { "3" });
        let config = tilepost_engine::GameConfig {
            players,
            expansions: Vec::new(),
            tile_order: None,
            seed: rng.next_u64(),
            rules,
        };
        let (mut g, created) = Game::new(&config).expect("set-up");
        let mut log = vec![created];
        let mut steps = 0;
        while let Some(p) = g.pending() {
            steps += 1;
            assert!(steps < 2_000, "game {i} does not end");
            if rng.below(5) == 0 {
                let seat = rng.below(players as u64) as u8;
                let view = g.seat_view(seat);
                let sample = view.determinize(&mut rng);
                assert_eq!(sample.seat_view(seat), view, "game {i} step {steps}");
                assert_eq!(sample.hand(seat), g.hand(seat));
                assert_eq!(sample.pending(), g.pending());
            }
            let actions = g.legal_actions();
            let a = actions[rng.below(actions.len() as u64) as usize].clone();
            let o = g.play(p.player, &a).expect("a listed action");
            log.push(o.event);
        }
        assert_eq!(g.tiles_left(), 0);
        assert!(g.hand_sizes().iter().all(|n| *n == 0));
        assert_eq!(Game::replay(&log).expect("replays"), g);
    }
}
