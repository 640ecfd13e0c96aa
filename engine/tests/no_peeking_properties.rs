//! No peeking over random games with random expansion sets. At a random decision of each
//! game, a twin game is built that agrees on everything seen so far (the same tiles drawn
//! and discarded, the same rolls, the same messages) and differs in the hidden future (the
//! rest of the pile in another order, another die and message stream where a seed can be
//! found that repeats the past). Two-action moves are then sent to both: the answers agree,
//! a move that goes on after a reveal gets the fixed refusal, and a move that does not
//! behaves exactly as its actions played one by one.

use tilepost_engine::rng::Rng;
use tilepost_engine::{
    Action, Effect, Expansion, FigureKind, Game, MoveError, PlayError, Rotation,
};

#[path = "support/twins.rs"]
mod twins;
use twins::{config, first_twin, twin_future};

/// Games per run; `TILEPOST_PROPERTY_GAMES` raises it for a longer soak (the same variable
/// as `properties.rs`).
fn games() -> u64 {
    std::env::var("TILEPOST_PROPERTY_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000)
}

/// Whether `effects` show a hidden outcome (the test's own account, independent of how
/// the engine detects it).
fn reveals(effects: &[Effect]) -> bool {
    effects.iter().any(|e| {
        matches!(
            e,
            Effect::TileDrawn { .. }
                | Effect::TileDiscarded { .. }
                | Effect::TileReturned { .. }
                | Effect::DieRolled { .. }
                | Effect::MessageDrawn { .. }
        )
    })
}

/// Any action, listed or not: what a probing client might send.
fn random_action(rng: &mut Rng) -> Action {
    let xy = |rng: &mut Rng| (rng.below(13) as i32 - 6, rng.below(13) as i32 - 6);
    let spot = |rng: &mut Rng| {
        ["N", "E", "S", "W", "C", "NNE", "SSW", "f1", "r1", "nowhere"][rng.below(10) as usize]
            .to_string()
    };
    let figure = |rng: &mut Rng| FigureKind::ALL[rng.below(FigureKind::ALL.len() as u64) as usize];
    match rng.below(8) {
        0 | 1 => {
            let (x, y) = xy(rng);
            Action::PlaceTile {
                x,
                y,
                rotation: Rotation::from_degrees(90 * rng.below(4) as i64).expect("right angle"),
                tile: None,
            }
        }
        2 => Action::PlaceFigure {
            figure: figure(rng),
            spot: spot(rng),
        },
        3 => Action::Pass,
        4 => Action::DrawTile,
        5 => Action::Fly {
            figure: figure(rng),
        },
        6 => Action::Land { spot: spot(rng) },
        _ => {
            let (x, y) = xy(rng);
            Action::PlaceAbbey { x, y }
        }
    }
}

fn pick(rng: &mut Rng, listed: &[Action]) -> Option<Action> {
    if listed.is_empty() {
        return None;
    }
    Some(listed[rng.below(listed.len() as u64) as usize].clone())
}

/// The batch played one action after the other on a copy of `game`.
fn one_by_one(game: &Game, player: u8, batch: &[Action]) -> Result<Game, MoveError> {
    let mut g = game.clone();
    for (index, a) in batch.iter().enumerate() {
        g.play(player, a)
            .map_err(|error| MoveError { index, error })?;
    }
    Ok(g)
}

#[derive(Default)]
struct Counts {
    past_reveal: u64,
    not_past: u64,
    twins_with_other_dice: u64,
}

fn check_game(seed: u64, counts: &mut Counts) {
    let mut rng = Rng::new(seed);
    let players = 2 + rng.below(4) as u8;
    let implemented: Vec<Expansion> = Expansion::ALL
        .into_iter()
        .filter(|e| e.is_implemented())
        .collect();
    let mut expansions = Vec::new();
    while expansions.is_empty() && !implemented.is_empty() {
        expansions = implemented
            .iter()
            .copied()
            .filter(|_| rng.below(2) == 0)
            .collect();
    }
    let has_messages = expansions.contains(&Expansion::Messages);
    // the tiles of a normal game of this set, in a random order, the river first
    let (mut a, seed_a, fx, mut seen) = first_twin(players, &expansions, &mut rng);
    let mut visible = vec![fx];
    let mut played: Vec<(u8, Action)> = Vec::new();
    // play on at random up to the chosen decision
    let stop = rng.below(60);
    for _ in 0..stop {
        let Some(p) = a.pending() else { return };
        let Some(action) = pick(&mut rng, &a.legal_actions()) else {
            return;
        };
        let o = a.play(p.player, &action).expect("a listed action is legal");
        seen.note(&o.effects);
        visible.push(o.effects);
        played.push((p.player, action));
    }
    let Some(p) = a.pending() else { return };
    // the twin: the same past, another hidden future
    let (order, seed_b) = twin_future(&a, &seen, seed, seed_a, has_messages, &mut rng);
    if seed_b != seed_a {
        counts.twins_with_other_dice += 1;
    }
    let (mut b, _, fx) =
        Game::new_with_effects(&config(players, &expansions, order, seed_b)).expect("twin set-up");
    assert_eq!(
        fx, visible[0],
        "game {seed}: the twin starts as the game did"
    );
    for (i, (player, action)) in played.iter().enumerate() {
        let o = b
            .play(*player, action)
            .expect("the twin accepts the same actions");
        assert_eq!(
            o.effects,
            visible[i + 1],
            "game {seed}: the twin saw the same"
        );
    }
    // moves of two actions, the first one listed
    for _ in 0..4 {
        let Some(first) = pick(&mut rng, &a.legal_actions()) else {
            return;
        };
        let mut after = a.clone();
        let o = after.play(p.player, &first).expect("listed");
        let second = match pick(&mut rng, &after.legal_actions()) {
            Some(listed) if rng.below(2) == 0 => listed,
            _ => random_action(&mut rng),
        };
        let batch = [first, second];
        let (before_a, before_b) = (a.clone(), b.clone());
        let ra = a.played_move(p.player, &batch);
        let rb = b.played_move(p.player, &batch);
        assert_eq!(a, before_a, "played_move leaves the game as it is");
        assert_eq!(b, before_b, "played_move leaves the game as it is");
        match (&ra, &rb) {
            (Err(x), Err(y)) => assert_eq!(x, y, "game {seed}: {batch:?}"),
            (Ok(_), Ok(_)) => {}
            _ => panic!("game {seed}: {batch:?} answered {ra:?} and {rb:?}"),
        }
        if reveals(&o.effects) {
            counts.past_reveal += 1;
            assert_eq!(
                ra.as_ref().err(),
                Some(&MoveError {
                    index: 1,
                    error: PlayError::MovePastHiddenInformation,
                }),
                "game {seed}: {batch:?} goes on after a reveal"
            );
        } else {
            counts.not_past += 1;
            let expected = one_by_one(&a, p.player, &batch);
            match (ra, expected) {
                (Ok((g, outcomes)), Ok(h)) => {
                    assert_eq!(g, h, "game {seed}: {batch:?}");
                    let mut by_hand = a.clone();
                    for (o, act) in outcomes.iter().zip(&batch) {
                        assert_eq!(
                            Some(o),
                            by_hand.play(p.player, act).ok().as_ref(),
                            "game {seed}: {batch:?}"
                        );
                    }
                }
                (Err(x), Err(y)) => assert_eq!(x, y, "game {seed}: {batch:?}"),
                (x, y) => panic!("game {seed}: {batch:?}: move {x:?}, one by one {y:?}"),
            }
        }
    }
}

#[test]
fn moves_past_a_reveal_get_the_same_answer_whatever_the_hidden_future() {
    let mut counts = Counts::default();
    for i in 0..games() {
        let seed = 0x9eec_u64.wrapping_mul(1_000_003).wrapping_add(i);
        check_game(seed, &mut counts);
    }
    // the runs exercise both kinds of move, and twins whose die and messages differ
    assert!(counts.past_reveal > 0 && counts.not_past > 0, "coverage");
    assert!(counts.twins_with_other_dice > 0, "coverage");
    eprintln!(
        "moves past a reveal: {}, not past: {}, twins with another seed: {}",
        counts.past_reveal, counts.not_past, counts.twins_with_other_dice
    );
}
