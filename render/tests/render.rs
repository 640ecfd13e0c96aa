//! Pictures: every tile type in every rotation is valid SVG and rasterises to a PNG of
//! the expected size; a finished game renders to the same bytes twice; a running game's
//! picture does not depend on the hidden pile.

use tilepost_engine::catalog::catalog;
use tilepost_engine::rng::Rng;
use tilepost_engine::{Action, Expansion, Game, GameConfig, Phase, Rotation, TileTypeId};
use tilepost_render::{
    board_png, board_svg, figures_svg, tile_svg, to_png, BoardOptions, RenderError,
};

/// Parses `svg` as XML and returns the root's pixel size.
fn parse_svg(svg: &str) -> (u32, u32) {
    let doc = roxmltree::Document::parse(svg).expect("SVG parses as XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let num = |a: &str| -> u32 {
        root.attribute(a)
            .unwrap_or_else(|| panic!("svg has no {a}"))
            .parse()
            .unwrap_or_else(|_| panic!("svg {a} is a whole number"))
    };
    (num("width"), num("height"))
}

/// Decodes a PNG and returns its size.
fn decode_png(bytes: &[u8]) -> (u32, u32) {
    let decoder = png::Decoder::new(bytes);
    let mut reader = decoder.read_info().expect("PNG header decodes");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("PNG image decodes");
    (info.width, info.height)
}

#[test]
fn every_tile_type_renders_in_every_rotation() {
    let mut n = 0;
    for (id, t) in catalog().iter() {
        for r in Rotation::ALL {
            let size = 48 + (id.0 as u32 % 3) * 16;
            let svg = tile_svg(id, r, size);
            assert_eq!(parse_svg(&svg), (size, size), "{} r{}", t.id, r.degrees());
            assert!(!svg.contains("NaN") && !svg.contains("inf"), "{}", t.id);
            let png = to_png(&svg).unwrap_or_else(|e| panic!("{}: {e}", t.id));
            assert_eq!(decode_png(&png), (size, size), "{} r{}", t.id, r.degrees());
            n += 1;
        }
    }
    assert_eq!(n, catalog().tiles.len() * 4);
}

#[test]
fn rotations_differ_and_a_tile_is_stable() {
    let d = catalog().id("base/D").expect("base/D");
    let a = tile_svg(d, Rotation::R0, 100);
    assert_eq!(a, tile_svg(d, Rotation::R0, 100));
    assert_ne!(a, tile_svg(d, Rotation::quarter_turns(1), 100));
}

#[test]
fn unknown_tile_type_gives_a_blank_tile() {
    let svg = tile_svg(TileTypeId(u16::MAX), Rotation::R0, 32);
    assert_eq!(parse_svg(&svg), (32, 32));
}

#[test]
fn the_figure_key_renders() {
    let svg = figures_svg(240);
    let (w, h) = parse_svg(&svg);
    assert_eq!(w, 240);
    assert_eq!(decode_png(&to_png(&svg).expect("png")), (w, h));
}

#[test]
fn broken_svg_is_an_error_not_a_panic() {
    assert!(matches!(to_png("<svg"), Err(RenderError::Svg(_))));
    let huge = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100000\" height=\"100000\"/>";
    assert!(matches!(to_png(huge), Err(RenderError::TooLarge { .. })));
}

fn implemented() -> Vec<Expansion> {
    Expansion::ALL
        .into_iter()
        .filter(|e| e.is_implemented())
        .collect()
}

/// Plays a whole game with random legal actions.
fn finished_game(seed: u64) -> Game {
    let config = GameConfig {
        players: 5,
        expansions: implemented(),
        tile_order: None,
        seed,
        rules: Default::default(),
    };
    let (mut game, _) = Game::new(&config).expect("set-up");
    let mut rng = Rng::new(seed);
    while let Some(p) = game.pending() {
        let options = game.legal_actions();
        let a = options[rng.below(options.len() as u64) as usize].clone();
        game.play(p.player, &a).expect("listed action");
    }
    game
}

#[test]
fn a_finished_game_renders_to_the_same_bytes_twice() {
    let game = finished_game(11);
    assert!(game.is_over());
    let in_box: usize = catalog()
        .tiles
        .iter()
        .filter(|t| t.expansion.is_none_or(|e| implemented().contains(&e)))
        .map(|t| t.count as usize)
        .sum();
    // every tile of the box was drawn (some may have been set aside as unplaceable)
    assert!(
        game.board().len() > in_box / 2,
        "{} tiles",
        game.board().len()
    );
    assert!(!game.board().figures.is_empty());
    let last = game
        .board()
        .tiles()
        .last()
        .map(|t| t.pos)
        .into_iter()
        .collect();
    let opts = BoardOptions {
        highlight: last,
        ..Default::default()
    };
    let a = board_svg(&game, &opts);
    let b = board_svg(&game.clone(), &opts);
    assert_eq!(a, b);
    let (w, h) = parse_svg(&a);
    let pa = to_png(&a).expect("png");
    let pb = to_png(&b).expect("png");
    assert_eq!(pa, pb);
    assert_eq!(decode_png(&pa), (w, h));
    // a game replayed from scratch gives the same picture as well
    assert_eq!(board_svg(&finished_game(11), &opts), a);
    // the PNG from cached tile pictures: same size, same bytes twice (cache cold, warm)
    let fast = board_png(&game, &opts).expect("png");
    assert_eq!(decode_png(&fast), (w, h));
    assert_eq!(board_png(&game, &opts).expect("png"), fast);
}

/// Base tiles, one id per copy, in catalog order (without the start copy).
fn base_pile() -> Vec<String> {
    let cat = catalog();
    let start = cat.start_tile();
    let mut v = Vec::new();
    for (id, t) in cat.iter() {
        if t.expansion.is_none() {
            let n = t.count - if id == start { t.start_copies } else { 0 };
            for _ in 0..n {
                v.push(t.id.clone());
            }
        }
    }
    v
}

/// Plays `turns` tile placements of a sandbox game, taking the first option of every
/// decision (so that figures get placed), and stops when the next tile is to be placed.
fn sandbox(order: Vec<String>, turns: usize) -> Game {
    let config = GameConfig {
        players: 3,
        expansions: vec![],
        tile_order: Some(order),
        seed: 5,
        rules: Default::default(),
    };
    let (mut game, _) = Game::new(&config).expect("set-up");
    let mut placed = 0;
    while let Some(p) = game.pending() {
        if p.phase == Phase::PlaceTile && placed == turns {
            break;
        }
        let options = game.legal_actions();
        let a = options
            .iter()
            .find(|a| matches!(a, Action::PlaceFigure { .. }))
            .unwrap_or(&options[0])
            .clone();
        if matches!(a, Action::PlaceTile { .. }) {
            placed += 1;
        }
        game.play(p.player, &a).expect("listed action");
    }
    game
}

#[test]
fn a_running_game_does_not_show_the_hidden_pile() {
    let mut rng = Rng::new(3);
    let mut a = base_pile();
    rng.shuffle(&mut a);
    let n = 20;
    // b shares the first n tiles with a, then differs, and is shorter
    let mut b: Vec<String> = a[..n].to_vec();
    let mut rest: Vec<String> = a[n..].iter().rev().cloned().collect();
    rest.truncate(30);
    b.extend(rest);
    assert_ne!(a[n], b[n], "the drawn tiles must differ for this test");
    let ga = sandbox(a.clone(), n);
    let gb = sandbox(b, n);
    assert_eq!(ga.board(), gb.board());
    assert!(!ga.board().figures.is_empty());
    let hide_drawn = BoardOptions {
        ghosts: false,
        legend: false,
        ..Default::default()
    };
    assert_eq!(board_svg(&ga, &hide_drawn), board_svg(&gb, &hide_drawn));
    // with the players' bar (scores, whose turn) but not the drawn tile
    assert_ne!(board_svg(&ga, &BoardOptions::default()), "");

    // c shares the first n + 1 tiles with a (the same drawn tile), then differs
    let mut c: Vec<String> = a[..n + 1].to_vec();
    c.extend(a[n + 1..].iter().rev().take(25).cloned());
    assert_ne!(a[n + 1..], c[n + 1..]);
    let gc = sandbox(c, n);
    let ghosts = BoardOptions {
        ghosts: true,
        ..Default::default()
    };
    let sa = board_svg(&ga, &ghosts);
    let sc = board_svg(&gc, &ghosts);
    assert_eq!(sa, sc);
    assert_eq!(to_png(&sa).expect("png"), to_png(&sc).expect("png"));
    // the ghosts are there: one numbered option per legal placement
    assert!(!ga.placements().is_empty());
    assert!(sa.len() > board_svg(&ga, &BoardOptions::default()).len());
}

#[test]
fn the_start_of_a_game_renders_with_ghosts() {
    for seed in 0..4 {
        let (game, _) = Game::new(&GameConfig {
            players: 2 + seed as u8,
            expansions: implemented(),
            tile_order: None,
            seed,
            rules: Default::default(),
        })
        .expect("set-up");
        let svg = board_svg(
            &game,
            &BoardOptions {
                ghosts: true,
                tile_px: 64,
                ..Default::default()
            },
        );
        let (w, h) = parse_svg(&svg);
        assert_eq!(decode_png(&to_png(&svg).expect("png")), (w, h));
    }
}

#[test]
fn pieces_the_game_tracks_are_drawn_from_the_game() {
    // finished random games with the expansions that add barns, ferries, gold and magic
    // figures, until every kind of piece has been seen on a final board
    let mut seen = [false; 5];
    let names = ["barn", "ferry", "gold", "mage", "witch"];
    for seed in 1..40u64 {
        let config = GameConfig {
            players: 3,
            expansions: implemented(),
            tile_order: None,
            seed,
            rules: Default::default(),
        };
        let (mut game, _) = Game::new(&config).expect("set-up");
        let mut rng = Rng::new(seed);
        while let Some(p) = game.pending() {
            let options = game.legal_actions();
            let a = options[rng.below(options.len() as u64) as usize].clone();
            game.play(p.player, &a).expect("listed action");
        }
        let svg = board_svg(&game, &BoardOptions::default());
        parse_svg(&svg);
        let b = game.board();
        let barns = b
            .figures
            .iter()
            .filter(|f| f.kind == tilepost_engine::FigureKind::Barn)
            .count();
        assert_eq!(svg.matches("data-piece=\"barn\"").count(), barns);
        assert_eq!(
            svg.matches("data-piece=\"ferry\"").count(),
            game.ferries().len()
        );
        let gold = b
            .tiles()
            .iter()
            .filter(|t| game.ingots_at(t.pos) > 0)
            .count();
        assert_eq!(svg.matches("data-piece=\"gold\"").count(), gold);
        use tilepost_engine::expansions::minis::MagicFigure;
        for (k, m) in [(3, MagicFigure::Mage), (4, MagicFigure::Witch)] {
            let on = game.magic_figure(m).is_some();
            assert_eq!(svg.contains(&format!("data-piece=\"{}\"", names[k])), on);
        }
        for (k, n) in names.iter().enumerate() {
            seen[k] |= svg.contains(&format!("data-piece=\"{n}\""));
        }
        if seen.iter().all(|s| *s) {
            break;
        }
    }
    assert_eq!(seen, [true; 5], "pieces seen: {names:?}");
}
