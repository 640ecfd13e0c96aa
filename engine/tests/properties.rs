//! Invariants over thousands of random games (2 to 5 players, random seeds, the base game
//! alone or with a random set of the implemented expansions, some players resigning): what
//! `legal_actions` lists is exactly what `play` accepts, refused actions change nothing,
//! replay gives the live game back, events survive their stored and JSON forms, figures are
//! conserved, scores never go down, and every game ends with the pile empty and a ranking.
//! Games that start with a scripted tie under a robber reach the robber owner's choice of
//! victim every time, then go on at random.

use std::collections::BTreeSet;

use proptest::prelude::*;
use tilepost_engine::expansions::minis::{CropMode, MagicFigure};
use tilepost_engine::rng::Rng;
use tilepost_engine::{
    rule_catalog, Action, Declined, Effect, Event, Expansion, FigureKind, Game, GameConfig,
    HouseRules, Phase, PlayError, Pos, Rotation, TileType, TileTypeId,
};

/// Games per run; `TILEPOST_PROPERTY_GAMES` raises it for a longer soak.
fn games() -> u64 {
    std::env::var("TILEPOST_PROPERTY_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000)
}

/// Spot names a client might send: every compass name, the tile's feature ids and some
/// that name nothing.
fn spot_names(tt: &TileType) -> Vec<String> {
    let mut v: Vec<String> = [
        "N", "E", "S", "W", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW", "NNW", "C",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend(tt.features.iter().map(|f| f.id.clone()));
    v.extend(["NE", "SE", "SW", "NW"].map(String::from));
    v.extend(["", "c9", "f0", "n", "CC"].map(String::from));
    v
}

/// The feature a spot name designates on a tile placed with `r`.
fn feature_of(tt: &TileType, r: Rotation, name: &str) -> Option<usize> {
    tt.parse_spot(name).and_then(|s| tt.feature_at(r, s))
}

fn tile_action(p: Pos, r: Rotation) -> Action {
    Action::PlaceTile {
        x: p.x,
        y: p.y,
        rotation: r,
        tile: None,
    }
}

/// A tile action naming `tile` when the game plays with tiles in hand (as listed).
fn tile_action_of(game: &Game, tile: TileTypeId, p: Pos, r: Rotation) -> Action {
    Action::PlaceTile {
        x: p.x,
        y: p.y,
        rotation: r,
        tile: (game.house_rules().tiles_in_hand.count() > 1)
            .then(|| tilepost_engine::catalog().get(tile).id.clone()),
    }
}

/// Listed figure options of the pending figure phase as (feature, figure).
fn listed_figures(game: &Game, actions: &[Action]) -> BTreeSet<(usize, FigureKind)> {
    let pt = game.placed_tile().expect("a tile was placed");
    let tt = pt.tile_type();
    actions
        .iter()
        .filter_map(|a| match a {
            Action::PlaceFigure { figure, spot } => Some((
                feature_of(tt, pt.rotation, spot).expect("a listed spot names a feature"),
                *figure,
            )),
            _ => None,
        })
        .collect()
}

fn assert_event_round_trips(e: &Event) {
    let (kind, version, payload) = e.encode();
    assert_eq!(kind, e.type_name());
    assert_eq!(version, e.version());
    assert_eq!(&Event::decode(kind, version, &payload).expect("decodes"), e);
    let json = serde_json::to_string(e).expect("serialises");
    assert_eq!(&serde_json::from_str::<Event>(&json).expect("parses"), e);
}

/// Bounding box of the board, one cell wider on every side.
fn around_board(game: &Game) -> (i32, i32, i32, i32) {
    let tiles = game.board().tiles();
    let x0 = tiles.iter().map(|t| t.pos.x).min().unwrap() - 1;
    let x1 = tiles.iter().map(|t| t.pos.x).max().unwrap() + 1;
    let y0 = tiles.iter().map(|t| t.pos.y).min().unwrap() - 1;
    let y1 = tiles.iter().map(|t| t.pos.y).max().unwrap() + 1;
    (x0, x1, y0, y1)
}

/// At a tile decision: `play` accepts exactly the listed (x, y, rotation) over every cell
/// around the board, and after each accepted placement it accepts exactly the figures
/// `placements()` listed for it.
fn check_placements_exhaustively(game: &Game) {
    for tile in game.tiles_to_place() {
        check_tile_placements_exhaustively(game, tile);
    }
}

/// [`check_placements_exhaustively`] for one tile that may be placed (the drawn tile or a
/// tile of the hand).
fn check_tile_placements_exhaustively(game: &Game, tile: TileTypeId) {
    let p = game.pending().unwrap();
    let id = &tilepost_engine::catalog().get(tile).id;
    let listed: BTreeSet<(Pos, Rotation)> = game
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::PlaceTile {
                x,
                y,
                rotation,
                tile: named,
            } => (named.is_none() || named.as_ref() == Some(id))
                .then_some((Pos::new(x, y), rotation)),
            other => panic!("{other:?} listed in the tile phase"),
        })
        .collect();
    let placements: Vec<_> = game
        .placements()
        .into_iter()
        .filter(|pl| pl.tile == tile)
        .collect();
    assert_eq!(
        placements
            .iter()
            .map(|p| (p.pos, p.rotation))
            .collect::<BTreeSet<_>>(),
        listed
    );
    let tt = tilepost_engine::catalog().get(tile);
    let names = spot_names(tt);
    let (x0, x1, y0, y1) = around_board(game);
    let mut accepted = BTreeSet::new();
    let mut probe = game.clone();
    for x in x0..=x1 {
        for y in y0..=y1 {
            for r in Rotation::ALL {
                let pos = Pos::new(x, y);
                let Ok(_) = probe.play(p.player, &tile_action_of(game, tile, pos, r)) else {
                    continue;
                };
                accepted.insert((pos, r));
                // figures after this placement
                // gold and magic decisions come first; they change no figure option
                while matches!(
                    probe.phase(),
                    Phase::PlaceIngot | Phase::MoveMagic | Phase::PlaceRobber
                ) {
                    let a = probe.legal_actions()[0].clone();
                    let who = probe.pending().expect("pending").player;
                    probe.play(who, &a).expect("a listed action");
                }
                let after_tile = probe.clone();
                let offered: BTreeSet<(usize, FigureKind)> = placements
                    .iter()
                    .find(|pl| pl.pos == pos && pl.rotation == r)
                    .map(|pl| {
                        pl.spots
                            .iter()
                            .flat_map(|s| {
                                assert_eq!(
                                    feature_of(tt, r, &tt.spot_name(s.spot)),
                                    Some(s.feature as usize)
                                );
                                s.figures.iter().map(|f| (s.feature as usize, *f))
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                assert_eq!(
                    listed_figures(&after_tile, &after_tile.legal_actions()),
                    offered,
                    "{} at {pos} r{}",
                    tt.id,
                    r.degrees()
                );
                let mut taken = BTreeSet::new();
                for name in &names {
                    for kind in FigureKind::ALL {
                        let a = Action::PlaceFigure {
                            figure: kind,
                            spot: name.clone(),
                        };
                        if probe.play(p.player, &a).is_ok() {
                            let f = feature_of(tt, r, name).expect("accepted spot names a feature");
                            taken.insert((f, kind));
                            probe = after_tile.clone();
                        }
                    }
                }
                assert_eq!(taken, offered, "{} at {pos} r{}", tt.id, r.degrees());
                probe = game.clone();
            }
        }
    }
    assert_eq!(accepted, listed, "{}", tt.id);
    assert_eq!(&probe, game);
}

/// A random action that is not among the listed options (or comes from the wrong seat)
/// is refused and leaves the game as it was.
fn check_unlisted_refused(game: &mut Game, actions: &[Action], rng: &mut Rng) {
    let p = game.pending().unwrap();
    let n = game.player_count() as u64;
    let (x0, x1, y0, y1) = around_board(game);
    let mut player = p.player;
    if rng.below(4) == 0 {
        player = rng.below(n + 2) as u8;
        if player == p.player {
            player = p.player + 1;
        }
    }
    let rx = x0 - 1 + rng.below((x1 - x0 + 3) as u64) as i32;
    let ry = y0 - 1 + rng.below((y1 - y0 + 3) as u64) as i32;
    let rspot =
        ["N", "E", "S", "W", "C", "NNE", "SSW", "f1", "r1"][rng.below(9) as usize].to_string();
    let rfig = FigureKind::ALL[rng.below(8) as usize];
    let rmagic = if rng.below(2) == 0 {
        MagicFigure::Mage
    } else {
        MagicFigure::Witch
    };
    let action = match rng.below(15) {
        14 => Action::ChooseVictim {
            victim: rng.below(n + 2) as u8,
        },
        7 => Action::PlaceIngot { x: rx, y: ry },
        8 => Action::MoveMagic {
            figure: rmagic,
            x: rx,
            y: ry,
            spot: rspot,
        },
        9 => Action::RemoveMagic { figure: rmagic },
        10 => Action::Fly { figure: rfig },
        11 => Action::Land { spot: rspot },
        12 => Action::ChooseCropMode {
            mode: if rng.below(2) == 0 {
                CropMode::Add
            } else {
                CropMode::Remove
            },
        },
        13 if rng.below(2) == 0 => Action::AddFollower {
            figure: rfig,
            x: rx,
            y: ry,
            spot: rspot,
        },
        13 => Action::RemoveFollower {
            figure: rfig,
            x: rx,
            y: ry,
            spot: rspot,
        },
        3 => Action::ReturnAbbot,
        4 => Action::PlaceAbbey {
            x: x0 - 1 + rng.below((x1 - x0 + 3) as u64) as i32,
            y: y0 - 1 + rng.below((y1 - y0 + 3) as u64) as i32,
        },
        5 => Action::DrawTile,
        6 => Action::MoveWagon {
            x: x0 - 1 + rng.below((x1 - x0 + 3) as u64) as i32,
            y: y0 - 1 + rng.below((y1 - y0 + 3) as u64) as i32,
            spot: ["N", "E", "S", "W", "C", "NNE", "f1"][rng.below(7) as usize].to_string(),
        },
        0 => {
            let x = x0 - 1 + rng.below((x1 - x0 + 3) as u64) as i32;
            let y = y0 - 1 + rng.below((y1 - y0 + 3) as u64) as i32;
            let (pos, r) = (Pos::new(x, y), Rotation::ALL[rng.below(4) as usize]);
            let in_hand = game.tiles_to_place();
            if !in_hand.is_empty() && rng.below(2) == 0 {
                tile_action_of(
                    game,
                    in_hand[rng.below(in_hand.len() as u64) as usize],
                    pos,
                    r,
                )
            } else if rng.below(4) == 0 {
                // a tile nobody holds, named
                let any = tilepost_engine::catalog().tiles.len() as u64;
                let t = TileTypeId(rng.below(any) as u16);
                Action::PlaceTile {
                    x,
                    y,
                    rotation: r,
                    tile: Some(tilepost_engine::catalog().get(t).id.clone()),
                }
            } else {
                tile_action(pos, r)
            }
        }
        1 => {
            let names = match game.placed_tile() {
                Some(pt) => spot_names(pt.tile_type()),
                None => spot_names(
                    tilepost_engine::catalog()
                        .get(p.tile.unwrap_or(tilepost_engine::catalog().start_tile())),
                ),
            };
            Action::PlaceFigure {
                figure: FigureKind::ALL[rng.below(8) as usize],
                spot: names[rng.below(names.len() as u64) as usize].clone(),
            }
        }
        _ => Action::Pass,
    };
    let listed = player == p.player
        && match (&action, p.phase) {
            (Action::PlaceFigure { figure, spot }, Phase::PlaceFigure) => {
                let pt = game.placed_tile().unwrap();
                feature_of(pt.tile_type(), pt.rotation, spot)
                    .is_some_and(|f| listed_figures(game, actions).contains(&(f, *figure)))
            }
            _ => {
                actions.contains(&action)
                    || actions.iter().any(|a| names_same_target(game, a, &action))
            }
        };
    if listed {
        return;
    }
    let before = game.clone();
    let err = game
        .play(player, &action)
        .expect_err("an unlisted action was accepted");
    if player != p.player {
        assert_eq!(
            err,
            PlayError::NotYourTurn {
                player,
                expected: p.player
            }
        );
    }
    assert_ne!(err.code(), "log-mismatch");
    assert_eq!(*game, before, "refused {action:?} ({err}) changed the game");
}

/// Two actions that differ only in the spot name they use for the same feature of the
/// same tile (any spot of a feature names it).
fn names_same_target(game: &Game, a: &Action, b: &Action) -> bool {
    let feature = |x: i32, y: i32, spot: &str| {
        game.board()
            .tile_at(Pos::new(x, y))
            .and_then(|pt| feature_of(pt.tile_type(), pt.rotation, spot))
    };
    let same = |x: i32, y: i32, s1: &str, bx: i32, by: i32, s2: &str| {
        (x, y) == (bx, by)
            && feature(x, y, s1).is_some()
            && feature(x, y, s1) == feature(bx, by, s2)
    };
    match (a, b) {
        (
            Action::MoveWagon { x, y, spot },
            Action::MoveWagon {
                x: bx,
                y: by,
                spot: bs,
            },
        ) => same(*x, *y, spot, *bx, *by, bs),
        (
            Action::MoveMagic { figure, x, y, spot },
            Action::MoveMagic {
                figure: bf,
                x: bx,
                y: by,
                spot: bs,
            },
        ) => figure == bf && same(*x, *y, spot, *bx, *by, bs),
        (
            Action::AddFollower { figure, x, y, spot },
            Action::AddFollower {
                figure: bf,
                x: bx,
                y: by,
                spot: bs,
            },
        )
        | (
            Action::RemoveFollower { figure, x, y, spot },
            Action::RemoveFollower {
                figure: bf,
                x: bx,
                y: by,
                spot: bs,
            },
        ) => figure == bf && same(*x, *y, spot, *bx, *by, bs),
        (Action::Land { spot }, Action::Land { spot: bs }) => game
            .flight_target()
            .is_some_and(|t| same(t.x, t.y, spot, t.x, t.y, bs)),
        _ => false,
    }
}

/// Every figure a player started with is in their supply, on the board, or (a freed
/// wagon) waiting for its owner's decision.
fn check_conservation(game: &Game, start: &[u8; FigureKind::COUNT]) {
    for (i, pl) in game.players().iter().enumerate() {
        for k in FigureKind::ALL {
            let on_board = game
                .board()
                .figures
                .iter()
                .filter(|f| f.owner as usize == i && f.kind == k)
                .count() as u8;
            let waiting = if k == FigureKind::Wagon {
                game.freed_wagons()
                    .iter()
                    .filter(|w| w.0 as usize == i)
                    .count() as u8
            } else {
                0
            };
            assert_eq!(
                pl.supply[k as usize] + on_board + waiting,
                start[k as usize],
                "player {i}, {k:?}"
            );
        }
        if !pl.active {
            assert!(
                game.board().figures.iter().all(|f| f.owner as usize != i),
                "a player who left keeps no figure on the board"
            );
        }
    }
}

struct Summary {
    resigned: bool,
    exhaustive_checks: usize,
    base_only: bool,
    actions: usize,
    victim_choices: usize,
}

/// Plays one random game; `with_expansions` adds a random non-empty set of the
/// implemented expansions (the base game alone when none is implemented).
fn play_random_game(seed: u64, with_expansions: bool) -> Summary {
    play_game(seed, with_expansions, None, HouseRules::default())
}

/// A game set up as given whose first decisions follow `script` (each must be listed),
/// then random ones.
struct Scripted {
    config: GameConfig,
    script: Vec<Action>,
}

/// Red and Blue tie for a road while both stand on space 0, where Green put his robber
/// (`rules_robbers.rs`); with Messages in odd games; random tiles follow.
fn robber_tie(seed: u64) -> Scripted {
    let mut rng = Rng::new(seed);
    let mut expansions = vec![Expansion::Robbers];
    if seed % 2 == 1 {
        expansions.push(Expansion::Messages);
    }
    let mut tiles: Vec<String> = ["base/W", "rb/03-frrr", "base/E", "base/V", "base/V"]
        .map(String::from)
        .to_vec();
    let more: Vec<String> = tilepost_engine::catalog()
        .iter()
        .map(|(_, t)| t.id.clone())
        .filter(|id| id.starts_with("base/") || id.starts_with("rb/"))
        .collect();
    for _ in 0..30 {
        tiles.push(more[rng.below(more.len() as u64) as usize].clone());
    }
    let tile = |x, y, q| Action::PlaceTile {
        x,
        y,
        rotation: Rotation::quarter_turns(q),
        tile: None,
    };
    let follower = |spot: &str| Action::PlaceFigure {
        figure: FigureKind::Follower,
        spot: spot.to_string(),
    };
    Scripted {
        config: GameConfig {
            players: 3,
            expansions,
            tile_order: Some(tiles),
            seed,
            rules: Default::default(),
        },
        script: vec![
            tile(-1, 0, 0),
            follower("E"),
            tile(0, -1, 0),
            Action::Pass,
            Action::PlaceRobber { space: 0 },
            follower("E"),
            tile(0, 1, 2),
            Action::Pass,
            tile(1, 0, 0),
            Action::Pass,
            tile(1, -1, 1),
            Action::Pass,
        ],
    }
}

fn play_game(
    seed: u64,
    with_expansions: bool,
    scripted: Option<Scripted>,
    rules: HouseRules,
) -> Summary {
    let mut rng = Rng::new(seed);
    let players = 2 + rng.below(4) as u8;
    let implemented: Vec<Expansion> = Expansion::ALL
        .into_iter()
        .filter(|e| e.is_implemented())
        .collect();
    let mut expansions = Vec::new();
    if with_expansions && !implemented.is_empty() {
        while expansions.is_empty() {
            expansions = implemented
                .iter()
                .copied()
                .filter(|_| rng.below(2) == 0)
                .collect();
        }
    }
    let config = GameConfig {
        players,
        expansions,
        tile_order: None,
        seed: rng.next_u64(),
        rules,
    };
    // a scripted game's first decision is its point: no resignation before it
    let scripted_tie = scripted.is_some();
    let (config, mut script) = match scripted {
        Some(s) => (s.config, s.script),
        None => (config, Vec::new()),
    };
    script.reverse();
    let (players, base_only) = (config.players, config.expansions.is_empty());
    let (mut game, created, fx) = Game::new_with_effects(&config).expect("set-up");
    assert_event_round_trips(&created);
    let start_supply = game.players()[0].supply;
    assert!(game.players().iter().all(|p| p.supply == start_supply));
    // the start tile, the drawn tile and the pile
    let hands = game.hand_sizes();
    let tiles_in_game = game.board().len()
        + game.tiles_left()
        + if hands.is_empty() {
            1
        } else {
            hands.iter().sum()
        };
    if base_only {
        assert_eq!(tiles_in_game, 72);
        assert_eq!(start_supply[FigureKind::Follower as usize], 7);
        assert_eq!(start_supply.iter().sum::<u8>(), 7);
    }
    let mut log = vec![created];
    let mut live_fx = fx;
    let resigner_game = rng.below(6) == 0;
    // every other game checks one tile decision exhaustively
    let exhaustive_at = if rng.below(2) == 0 {
        rng.below(140) as usize
    } else {
        usize::MAX - 2
    };
    let snapshot_at = 1 + rng.below(150) as usize;
    let mut snapshot: Option<(usize, Game)> = None;
    let mut scores: Vec<i32> = vec![0; players as usize];
    let mut resigned = false;
    let mut discarded = 0usize;
    let mut abbeys = 0usize;
    let mut step = 0usize;
    let mut exhaustive_checks = 0usize;
    let mut victim_choices = 0usize;

    while let Some(p) = game.pending() {
        step += 1;
        assert!(
            game.players()[p.player as usize].active,
            "the pending {:?} belongs to player {} who left; last events {:#?} expansions {:?} current {}",
            p.phase,
            p.player,
            &log[log.len().saturating_sub(8)..],
            game.expansions(),
            game.current_player()
        );
        assert_eq!(p.phase, game.phase());
        if !matches!(
            p.phase,
            Phase::MoveWagon
                | Phase::CropAction
                | Phase::ChooseScoreFigure
                | Phase::PlaceRobber
                | Phase::ChooseVictim
        ) {
            assert_eq!(p.player, game.current_player());
        }
        if step == snapshot_at {
            snapshot = Some((log.len(), game.clone()));
        }
        if resigner_game
            && script.is_empty()
            && !(scripted_tie && victim_choices == 0)
            && rng.below(50) == 0
        {
            let active: Vec<u8> = (0..players)
                .filter(|i| game.players()[*i as usize].active)
                .collect();
            let who = active[rng.below(active.len() as u64) as usize];
            let outcome = game.resign(who, rng.below(2) == 0).expect("resign");
            assert_event_round_trips(&outcome.event);
            assert!(!game.players()[who as usize].active);
            assert_eq!(game.resign(who, false).unwrap_err(), {
                if game.is_over() {
                    PlayError::GameOver
                } else {
                    PlayError::NotInGame(who)
                }
            });
            log.push(outcome.event);
            live_fx.extend(outcome.effects);
            resigned = true;
            check_conservation(&game, &start_supply);
            continue;
        }
        let actions = game.legal_actions();
        assert!(!actions.is_empty());
        match p.phase {
            Phase::PlaceTile => {
                if game.house_rules().tiles_in_hand.count() == 1 {
                    let mut pr = Vec::new();
                    game.placements_into(&mut pr);
                    assert_eq!(
                        actions,
                        pr.iter()
                            .map(|(pos, r)| tile_action(*pos, *r))
                            .collect::<Vec<_>>()
                    );
                } else {
                    let hand = game.hand(p.player);
                    assert!(!hand.is_empty());
                    assert!(hand.len() <= game.house_rules().tiles_in_hand.count());
                    assert_eq!(
                        p.tile, None,
                        "the hand is not shown in the pending decision"
                    );
                    assert!(game.tiles_to_place().iter().all(|t| hand.contains(t)));
                }
                assert_eq!(
                    actions,
                    game.placements()
                        .iter()
                        .map(|pl| tile_action_of(&game, pl.tile, pl.pos, pl.rotation))
                        .collect::<Vec<_>>()
                );
                if step >= exhaustive_at && step < exhaustive_at + 2 {
                    check_placements_exhaustively(&game);
                    exhaustive_checks += 1;
                }
            }
            Phase::PlaceFigure => {
                assert_eq!(actions.last(), Some(&Action::Pass));
                assert!(actions[..actions.len() - 1].iter().all(|a| matches!(
                    a,
                    Action::PlaceFigure { .. } | Action::ReturnAbbot | Action::Fly { .. }
                )));
                assert!(game.placements().is_empty());
            }
            Phase::AbbeyOrDraw | Phase::FinalAbbey => {
                let last = if p.phase == Phase::AbbeyOrDraw {
                    Action::DrawTile
                } else {
                    Action::Pass
                };
                assert_eq!(actions.last(), Some(&last));
                let holes: Vec<Action> = game
                    .holes()
                    .into_iter()
                    .map(|h| Action::PlaceAbbey { x: h.x, y: h.y })
                    .collect();
                assert!(!holes.is_empty());
                assert_eq!(&actions[..actions.len() - 1], &holes[..]);
                assert!(game.players()[p.player as usize].abbey);
                assert_eq!(p.tile, None, "nothing is drawn before the choice");
            }
            Phase::MoveWagon => {
                assert_eq!(actions.last(), Some(&Action::Pass));
                assert!(
                    actions.len() > 1,
                    "a wagon with no target returns by itself"
                );
                assert!(actions[..actions.len() - 1]
                    .iter()
                    .all(|a| matches!(a, Action::MoveWagon { .. })));
                assert_eq!(game.freed_wagons().first().map(|w| w.0), Some(p.player));
            }
            Phase::PlaceIngot => {
                assert!(actions.len() >= 2, "one target is chosen automatically");
                assert!(actions
                    .iter()
                    .all(|a| matches!(a, Action::PlaceIngot { .. })));
            }
            Phase::MoveMagic => {
                assert!(actions
                    .iter()
                    .all(|a| matches!(a, Action::MoveMagic { .. } | Action::RemoveMagic { .. })));
                // removal only when nothing can move
                let moves = actions
                    .iter()
                    .any(|a| matches!(a, Action::MoveMagic { .. }));
                let removals = actions
                    .iter()
                    .any(|a| matches!(a, Action::RemoveMagic { .. }));
                assert!(moves != removals, "{actions:?}");
            }
            Phase::FlierLanding => {
                // with the house rule `flier_landing = optional`, a pass comes last
                let lands = if game.landing_optional() {
                    assert_eq!(actions.last(), Some(&Action::Pass));
                    &actions[..actions.len() - 1]
                } else {
                    &actions[..]
                };
                assert!(!lands.is_empty());
                assert!(lands.iter().all(|a| matches!(a, Action::Land { .. })));
                assert!(game.flight_target().is_some());
            }
            Phase::CropMode => assert_eq!(actions.len(), 2),
            Phase::PlaceRobber => {
                assert_eq!(actions.last(), Some(&Action::Pass));
                assert!(actions[..actions.len() - 1]
                    .iter()
                    .all(|a| matches!(a, Action::PlaceRobber { space } if *space < 50)));
            }
            Phase::ScoringOrder => {
                assert!(actions.len() >= 2);
                assert!(actions
                    .iter()
                    .all(|a| matches!(a, Action::ScoreNext { .. })));
            }
            Phase::ChooseScoreFigure => assert_eq!(actions.len(), 2),
            Phase::ChooseVictim => {
                victim_choices += 1;
                assert!(actions.len() >= 2, "only a real choice is asked");
                assert!(actions.iter().all(|a| matches!(
                    a,
                    Action::ChooseVictim { victim }
                        if *victim != p.player && game.players()[*victim as usize].active
                )));
            }
            Phase::ResolveMessage => {
                assert_eq!(actions.last(), Some(&Action::MessageTwoPoints));
                assert!(game.message_drawn().is_some());
            }
            Phase::PlaceFerry => {
                assert!(!actions.is_empty());
                assert!(actions
                    .iter()
                    .all(|a| matches!(a, Action::PlaceFerry { .. })));
            }
            Phase::MoveFerry => {
                assert_eq!(actions.last(), Some(&Action::Pass));
                assert!(actions[..actions.len() - 1]
                    .iter()
                    .all(|a| matches!(a, Action::MoveFerry { .. })));
            }
            Phase::CropAction => {
                assert!(actions.iter().all(|a| matches!(
                    a,
                    Action::AddFollower { .. } | Action::RemoveFollower { .. } | Action::Pass
                )));
                assert!(actions.iter().any(|a| !matches!(a, Action::Pass)));
            }
            Phase::GameOver => unreachable!(),
        }
        if rng.below(3) == 0 {
            check_unlisted_refused(&mut game, &actions, &mut rng);
        }
        let action = match script.pop() {
            Some(a) => {
                assert!(
                    actions.contains(&a),
                    "scripted {a:?} not listed: {actions:?}"
                );
                a
            }
            None => actions[rng.below(actions.len() as u64) as usize].clone(),
        };
        let action = &action;
        let outcome = game
            .play(p.player, action)
            .unwrap_or_else(|e| panic!("listed {action:?} refused: {e}"));
        assert_eq!(outcome.event.player(), Some(p.player));
        // the event carries the action as listed (listed spots are already canonical), a
        // placed tile names the tile drawn, and a pass what it declined
        let Event::Decided {
            action: recorded,
            tile,
            declined,
            ..
        } = &outcome.event
        else {
            panic!("{action:?} produced {:?}", outcome.event)
        };
        match action {
            Action::MessageFeature { .. } | Action::MessageFollower { .. } => {
                assert_eq!(recorded.name(), action.name())
            }
            // a placement is recorded without its tile: the event names it
            Action::PlaceTile {
                x,
                y,
                rotation,
                tile: named,
            } => {
                let Action::PlaceTile {
                    x: rx,
                    y: ry,
                    rotation: rr,
                    tile: rt,
                } = recorded
                else {
                    panic!("{action:?} recorded as {recorded:?}")
                };
                assert_eq!((rx, ry, rr), (x, y, rotation));
                assert_eq!(*rt, None, "the event's tile names the tile placed");
                if named.is_some() {
                    assert_eq!(tile, named);
                }
            }
            _ => assert_eq!(recorded, action),
        }
        let expected_decline = match (action, p.phase) {
            (Action::Pass, Phase::PlaceFigure) => Some(Declined::Figure),
            (Action::Pass, Phase::FinalAbbey) => Some(Declined::Abbey),
            (Action::Pass, Phase::MoveWagon) => Some(Declined::Wagon),
            (Action::Pass, Phase::CropAction) => Some(Declined::Crop),
            (Action::Pass, Phase::MoveFerry) => Some(Declined::Ferries),
            (Action::Pass, Phase::PlaceRobber) => Some(Declined::Robber),
            (Action::Pass, Phase::FlierLanding) => Some(Declined::Landing),
            (Action::Pass, phase) => panic!("a pass listed in {phase:?}"),
            _ => None,
        };
        assert_eq!(*declined, expected_decline);
        if let Action::PlaceTile { tile: named, .. } = action {
            let expected = match named {
                Some(id) => id.clone(),
                None => tilepost_engine::catalog().get(p.tile.unwrap()).id.clone(),
            };
            assert_eq!(tile.as_deref(), Some(expected.as_str()));
        } else {
            assert_eq!(*tile, None);
        }
        if let Action::PlaceAbbey { .. } = action {
            abbeys += 1;
        }
        // a sample of the events (all kinds occur thousands of times per run)
        if rng.below(4) == 0 {
            assert_event_round_trips(&outcome.event);
        }
        discarded += outcome
            .effects
            .iter()
            .filter(|e| matches!(e, Effect::TileDiscarded { .. }))
            .count();
        log.push(outcome.event);
        live_fx.extend(outcome.effects);
        check_conservation(&game, &start_supply);
        for (i, pl) in game.players().iter().enumerate() {
            assert!(pl.score >= scores[i], "a score went down");
            scores[i] = pl.score;
            // the score figures add up to the score (the award queue is applied as it goes)
            let t = game.track(i as u8);
            let track_on = game.expansions().contains(Expansion::Robbers)
                || game.expansions().contains(Expansion::Messages);
            if track_on
                && game.phase() != Phase::ChooseScoreFigure
                && game.phase() != Phase::ChooseVictim
                && game.phase() != Phase::ScoringOrder
            {
                assert_eq!(t[0] + t[1], pl.score, "score figures of player {i}");
            }
        }
        assert_eq!(game.version() as usize, log.len());
    }

    // the end
    assert!(game.is_over());
    assert!(game.legal_actions().is_empty());
    assert!(game.placements().is_empty());
    assert_eq!(
        game.play(0, &Action::Pass).unwrap_err(),
        PlayError::GameOver
    );
    assert_eq!(game.version() as usize, log.len());
    if !resigned {
        assert_eq!(game.tiles_left(), 0);
        assert!(game.hand_sizes().iter().all(|n| *n == 0), "a hand left");
        assert_eq!(game.board().len() - abbeys + discarded, tiles_in_game);
    }
    let ranking = game.ranking();
    assert_eq!(ranking.len(), players as usize);
    let key = |i: u8| {
        let pl = &game.players()[i as usize];
        (pl.active, pl.score)
    };
    for e in ranking {
        assert_eq!(e.score, game.players()[e.player as usize].score);
        let better = (0..players).filter(|q| key(*q) > key(e.player)).count();
        assert_eq!(e.rank as usize, better + 1);
    }
    assert!(ranking.windows(2).all(|w| w[0].rank <= w[1].rank));
    assert!(matches!(live_fx.last(), Some(Effect::GameOver { ranking: r }) if r == ranking));

    // replay gives the live game back, with the same consequences
    assert_eq!(Game::replay(&log).expect("replays"), game);
    let (again, fx) = Game::replay_with_effects(&log).expect("replays");
    assert_eq!(again, game);
    assert_eq!(fx.len(), log.len());
    assert_eq!(fx.into_iter().flatten().collect::<Vec<_>>(), live_fx);
    if let Some((k, mid)) = snapshot {
        assert_eq!(Game::replay(&log[..k]).expect("a prefix replays"), mid);
    }
    Summary {
        resigned,
        exhaustive_checks,
        base_only,
        actions: log.len(),
        victim_choices,
    }
}

fn play_random_games(first_seed: u64, with_expansions: bool) -> Vec<Summary> {
    (0..games() / 2)
        .map(|i| {
            let seed = first_seed.wrapping_mul(1_000_003).wrapping_add(i);
            std::panic::catch_unwind(|| play_random_game(seed, with_expansions)).unwrap_or_else(
                |_| panic!("random game with seed {seed} (expansions: {with_expansions}) failed"),
            )
        })
        .collect()
}

fn check_coverage(s: &[Summary]) {
    let resigned = s.iter().filter(|s| s.resigned).count();
    assert!(
        resigned * 10 > s.len(),
        "too few games with a resignation: {resigned}"
    );
    let exhaustive: usize = s.iter().map(|s| s.exhaustive_checks).sum();
    assert!(
        exhaustive * 3 > s.len(),
        "too few exhaustive checks: {exhaustive}"
    );
    assert!(s.iter().map(|s| s.actions).sum::<usize>() > s.len() * 100);
}

#[test]
fn random_base_games_keep_every_invariant() {
    let s = play_random_games(0x7157, false);
    assert!(s.iter().all(|s| s.base_only));
    check_coverage(&s);
}

#[test]
fn random_games_with_expansions_keep_every_invariant() {
    let s = play_random_games(0x7158, true);
    let implemented = Expansion::ALL.iter().any(|e| e.is_implemented());
    assert!(s.iter().all(|s| s.base_only != implemented));
    check_coverage(&s);
}

/// The Pig Herd with every other expansion: games with the herd and one other expansion
/// (each in turn, under random house rules on odd seeds), and games with all of them,
/// keep every invariant (legal moves only, scores never go down, a consistent ranking).
#[test]
fn random_games_with_the_pig_herd_and_every_other_expansion_keep_every_invariant() {
    let others: Vec<Expansion> = Expansion::ALL
        .into_iter()
        .filter(|&e| e != Expansion::PigHerd)
        .collect();
    let per_set = (games() / 100).max(8);
    let mut played = 0usize;
    let mut actions = 0usize;
    for (k, with) in others.iter().map(Some).chain([None]).enumerate() {
        let expansions: Vec<Expansion> = match with {
            Some(&e) => vec![e, Expansion::PigHerd],
            None => Expansion::ALL.to_vec(),
        };
        for i in 0..per_set {
            let seed = 0x7160u64
                .wrapping_mul(1_000_003)
                .wrapping_add(k as u64 * 10_000 + i);
            let mut rng = Rng::new(seed);
            let rules = if i % 2 == 1 {
                random_rules(seed)
            } else {
                HouseRules::default()
            };
            let config = GameConfig {
                players: 2 + rng.below(4) as u8,
                expansions: expansions.clone(),
                tile_order: None,
                seed: rng.next_u64(),
                rules,
            };
            let s = std::panic::catch_unwind(|| {
                play_game(
                    seed,
                    true,
                    Some(Scripted {
                        config,
                        script: Vec::new(),
                    }),
                    rules,
                )
            })
            .unwrap_or_else(|_| panic!("pig herd game with {expansions:?}, seed {seed} failed"));
            assert!(!s.base_only);
            played += 1;
            actions += s.actions;
        }
    }
    assert_eq!(played, 13 * per_set as usize);
    assert!(actions > played * 50, "too few actions: {actions}");
}

/// Random house rules: each variant at one of its values, drawn from `seed`.
fn random_rules(seed: u64) -> HouseRules {
    let mut rng = Rng::new(seed ^ 0x4855_4c45);
    let mut r = HouseRules::default();
    for v in rule_catalog().variants {
        let value = &v.values[rng.below(v.values.len() as u64) as usize];
        r.set(&v.name, value).expect("a listed value is accepted");
    }
    r
}

#[test]
fn random_games_under_random_house_rules_keep_every_invariant() {
    let n = (games() / 4).max(50);
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    let s: Vec<Summary> = (0..n)
        .map(|i| {
            let seed = 0x715Au64.wrapping_mul(1_000_003).wrapping_add(i);
            let rules = random_rules(seed);
            seen.extend(rules.to_values());
            std::panic::catch_unwind(|| play_game(seed, i % 5 != 0, None, rules))
                .unwrap_or_else(|_| panic!("game with seed {seed} under {rules:?} failed"))
        })
        .collect();
    assert!(s.iter().map(|s| s.actions).sum::<usize>() > s.len() * 100);
    // every value that is not a default was played
    let others: usize = rule_catalog()
        .variants
        .iter()
        .map(|v| v.values.len() - 1)
        .sum();
    assert_eq!(seen.len(), others, "{seen:?}");
}

#[test]
fn robbers_choose_their_victims_in_random_games() {
    let n = (games() / 20).max(20);
    let s: Vec<Summary> = (0..n)
        .map(|i| {
            let seed = 0x7159u64.wrapping_mul(1_000_003).wrapping_add(i);
            std::panic::catch_unwind(|| {
                play_game(seed, true, Some(robber_tie(seed)), HouseRules::default())
            })
            .unwrap_or_else(|_| panic!("robber tie game with seed {seed} failed"))
        })
        .collect();
    assert!(
        s.iter().all(|s| s.victim_choices >= 1),
        "every scripted tie asks the robber's owner"
    );
}

#[test]
fn stored_rows_replay_to_the_same_game() {
    for seed in 0..20u64 {
        let (mut game, created) = Game::new(&GameConfig {
            players: 2 + (seed % 4) as u8,
            seed,
            ..Default::default()
        })
        .unwrap();
        let mut rows = vec![created.encode()];
        let mut rng = Rng::new(seed);
        while let Some(p) = game.pending() {
            let actions = game.legal_actions();
            let a = &actions[rng.below(actions.len() as u64) as usize];
            rows.push(game.play(p.player, a).unwrap().event.encode());
        }
        let replayed =
            Game::replay_stored(rows.iter().map(|(k, v, p)| (*k, *v, p.as_str()))).unwrap();
        assert_eq!(replayed, game);
    }
}

// ----- events with arbitrary content --------------------------------------------------------

fn arb_event() -> impl Strategy<Value = Event> {
    let text = "\\PC{0,12}";
    prop_oneof![
        (
            any::<u64>(),
            any::<u8>(),
            proptest::collection::vec(text, 0..3),
            proptest::option::of(proptest::collection::vec(text, 0..4)),
            proptest::collection::btree_map(text, text, 0..3),
        )
            .prop_map(|(seed, players, expansions, tile_order, rules)| {
                Event::GameCreated {
                    seed: seed.to_string(),
                    players,
                    expansions,
                    tile_order,
                    rules,
                }
            }),
        (any::<u8>(), arb_action(), text).prop_map(|(player, mut action, tile)| {
            // a stored placement names its tile once, as the event's: the action none
            let tile = match &mut action {
                Action::PlaceTile { tile: named, .. } => {
                    *named = None;
                    Some(tile)
                }
                _ => None,
            };
            Event::Decided {
                player,
                tile,
                declined: None,
                action,
            }
        }),
        (any::<u8>(), 0usize..Declined::ALL.len()).prop_map(|(player, k)| Event::Decided {
            player,
            action: Action::Pass,
            tile: None,
            declined: Some(Declined::ALL[k]),
        }),
        (
            any::<u8>(),
            prop_oneof![Just("resigned"), Just("timed_out")]
        )
            .prop_map(|(player, reason)| Event::PlayerResigned {
                player,
                reason: reason.to_string(),
            }),
    ]
}

fn arb_action() -> impl Strategy<Value = Action> {
    prop_oneof![
        (
            any::<i32>(),
            any::<i32>(),
            0u8..4,
            proptest::option::of("[a-z]{1,4}/[A-Z0-9-]{1,8}")
        )
            .prop_map(|(x, y, q, tile)| Action::PlaceTile {
                x,
                y,
                rotation: Rotation::quarter_turns(q),
                tile,
            }),
        (0usize..8, "\\PC{0,8}").prop_map(|(k, spot)| Action::PlaceFigure {
            figure: FigureKind::ALL[k],
            spot,
        }),
        Just(Action::ReturnAbbot),
        any::<u8>().prop_map(|victim| Action::ChooseVictim { victim }),
        (any::<i32>(), any::<i32>(), "\\PC{0,2}", "\\PC{0,2}")
            .prop_map(|(x, y, from, to)| { Action::MoveFerry { x, y, from, to } }),
        (any::<i32>(), any::<i32>(), "\\PC{0,8}").prop_map(|(x, y, spot)| Action::ScoreNext {
            x,
            y,
            spot
        }),
        prop_oneof![Just(CropMode::Add), Just(CropMode::Remove)]
            .prop_map(|mode| Action::ChooseCropMode { mode }),
        Just(Action::MessageTwoPoints),
        Just(Action::Pass),
    ]
}

proptest! {
    #[test]
    fn any_event_survives_its_stored_and_json_forms(e in arb_event()) {
        assert_event_round_trips(&e);
    }

    #[test]
    fn any_action_survives_json(a in arb_action()) {
        let json = serde_json::to_string(&a).unwrap();
        prop_assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), a);
    }

    #[test]
    fn garbage_rows_are_refused_not_panicked_on(kind in "\\PC{0,16}", version in 0u32..4, payload in "\\PC{0,40}") {
        let _ = Event::decode(&kind, version, &payload);
    }
}
