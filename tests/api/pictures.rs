//! Pictures: the board as SVG and PNG at any version, ETags, the tile catalog and tile
//! pictures, and a running game's picture that does not depend on the hidden pile.

use std::io::Read;

use serde_json::{json, Value};

use crate::common::{start_game, Client, TestApp};

/// A raw answer (pictures are bytes).
struct Raw {
    status: u16,
    content_type: String,
    etag: Option<String>,
    cache: Option<String>,
    body: Vec<u8>,
}

fn raw(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> Raw {
    let mut req = ureq::get(&format!("{}{}", app.url(), path));
    for (k, v) in headers {
        req = req.set(k, v);
    }
    let resp = match req.call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("GET {path}: {e}"),
    };
    let status = resp.status();
    let content_type = resp.header("content-type").unwrap_or("").to_string();
    let etag = resp.header("etag").map(|s| s.to_string());
    let cache = resp.header("cache-control").map(|s| s.to_string());
    let mut body = Vec::new();
    resp.into_reader()
        .read_to_end(&mut body)
        .expect("read body");
    Raw {
        status,
        content_type,
        etag,
        cache,
        body,
    }
}

/// Parses an SVG document as XML and returns its pixel size.
#[track_caller]
fn svg_size(body: &[u8]) -> (u32, u32) {
    let text = std::str::from_utf8(body).expect("SVG is UTF-8");
    let doc = roxmltree::Document::parse(text).expect("SVG parses as XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let dim = |a: &str| -> u32 {
        root.attribute(a)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("svg {a}"))
    };
    (dim("width"), dim("height"))
}

#[track_caller]
fn png_size(body: &[u8]) -> (u32, u32) {
    let decoder = png::Decoder::new(body);
    let mut reader = decoder.read_info().expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("PNG decodes");
    (info.width, info.height)
}

/// Places the drawn tile at its first listed placement and puts no figure.
fn play_first(players: &[&Client], id: &str) {
    let a = players[0].get(&format!("/v1/games/{id}/placements"));
    let a = a.ok().clone();
    let pl = a["placements"][0].clone();
    let who = crate::common::client_for(players, &a["pending"]);
    let r = who.post(
        &format!("/v1/games/{id}/moves"),
        json!({"expected_version": a["version"], "actions": [
            {"type": "place_tile", "x": pl["x"], "y": pl["y"], "rotation": pl["rotation"]},
            {"type": "pass"}
        ]}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
}

fn board_pictures_at_any_version(app: &TestApp) {
    let (red, blue) = (app.user("red"), app.user("blue"));
    let created = red.post("/v1/games", json!({"seats": 2}));
    let id = created.ok()["id"].as_str().unwrap().to_string();
    // no board before the game starts
    red.get(&format!("/v1/games/{id}/board.svg"))
        .problem(409, "game-not-started");
    blue.post(&format!("/v1/games/{id}/join"), json!({})).ok();
    play_first(&[&red, &blue], &id);
    play_first(&[&red, &blue], &id);
    let version = red.get(&format!("/v1/games/{id}")).ok()["version"]
        .as_i64()
        .unwrap();
    assert_eq!(version, 5);

    let svg = raw(app, &format!("/v1/games/{id}/board.svg"), &[]);
    assert_eq!(svg.status, 200);
    assert_eq!(svg.content_type, "image/svg+xml");
    assert_eq!(svg.cache.as_deref(), Some("public, no-cache"));
    let (w, h) = svg_size(&svg.body);
    let text = String::from_utf8(svg.body.clone()).unwrap();
    // the last turn's tile (blue's, the second placed) is highlighted, and only it
    let board = red.get(&format!("/v1/games/{id}")).ok()["board"].clone();
    let last = board
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| !(t["x"] == 0 && t["y"] == 0))
        .map(|t| format!("data-last-turn=\"{},{}\"", t["x"], t["y"]))
        .collect::<Vec<_>>();
    assert_eq!(last.len(), 2);
    assert_eq!(
        text.matches("data-last-turn=").count(),
        1,
        "one tile highlighted"
    );
    assert!(text.contains(&last[1]), "{:?}", last);

    let png = raw(app, &format!("/v1/games/{id}/board.png"), &[]);
    assert_eq!(png.status, 200);
    assert_eq!(png.content_type, "image/png");
    assert_eq!(png_size(&png.body), (w, h));

    // ETag per version: the same picture is not sent twice
    let tag = svg.etag.clone().expect("ETag");
    let again = raw(
        app,
        &format!("/v1/games/{id}/board.svg"),
        &[("If-None-Match", &tag)],
    );
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_eq!(again.etag.as_deref(), Some(tag.as_str()));

    // an earlier version: the start of the game, with another tag, cached for good
    let first = raw(app, &format!("/v1/games/{id}/board.svg?version=1"), &[]);
    assert_eq!(first.status, 200);
    assert_ne!(first.etag, svg.etag);
    assert_ne!(first.body, svg.body);
    assert!(first.cache.as_deref().unwrap_or("").contains("immutable"));
    let first_text = String::from_utf8(first.body.clone()).unwrap();
    assert!(!first_text.contains("data-last-turn"), "nothing placed yet");
    // the explicit current version is the same picture as "now"
    let now = raw(
        app,
        &format!("/v1/games/{id}/board.svg?version={version}"),
        &[],
    );
    assert_eq!(now.body, svg.body);
    assert_eq!(now.etag, svg.etag);
    // after the game moves on, the old tag no longer matches "now"
    play_first(&[&red, &blue], &id);
    let moved = raw(
        app,
        &format!("/v1/games/{id}/board.svg"),
        &[("If-None-Match", &tag)],
    );
    assert_eq!(moved.status, 200);
    assert_ne!(moved.etag.as_deref(), Some(tag.as_str()));

    // ghosts of the legal placements
    let ghosts = raw(
        app,
        &format!("/v1/games/{id}/board.svg?placements=true"),
        &[],
    );
    assert_eq!(ghosts.status, 200);
    assert_ne!(ghosts.etag, moved.etag);
    assert!(ghosts.body.len() > moved.body.len());
    svg_size(&ghosts.body);
    let small = raw(
        app,
        &format!("/v1/games/{id}/board.png?tile_px=24&version=3"),
        &[],
    );
    assert_eq!(small.status, 200);
    let (sw, sh) = png_size(&small.body);
    let big = raw(
        app,
        &format!("/v1/games/{id}/board.png?tile_px=96&version=3"),
        &[],
    );
    let (bw, bh) = png_size(&big.body);
    assert!(bw > sw * 3 && bh > sh * 3, "{sw}x{sh} vs {bw}x{bh}");

    // out of range
    red.get(&format!("/v1/games/{id}/board.svg?version=999"))
        .problem(404, "version-not-found");
    red.get(&format!("/v1/games/{id}/board.png?version=0"))
        .problem(400, "validation-failed");
    red.get(&format!("/v1/games/{id}/board.png?tile_px=4000"))
        .problem(400, "validation-failed");
    red.get(&format!("/v1/games/{id}/board.svg?colour=red"))
        .problem(400, "validation-failed");
    red.get("/v1/games/no-such-game/board.png")
        .problem(404, "game-not-found");
}

fn tile_catalog_and_pictures(app: &TestApp) {
    let anon = app.anon();
    let list = anon.get("/v1/tiles");
    let tiles = list.ok()["tiles"].as_array().unwrap().clone();
    assert!(tiles.len() > 100, "{} tile types", tiles.len());
    let d = tiles.iter().find(|t| t["id"] == "base/D").expect("base/D");
    assert_eq!(d["expansion"], "base");
    assert_eq!(d["edges"], json!(["city", "road", "field", "road"]));
    assert_eq!(d["links"]["svg"], "/v1/tiles/base/D.svg");
    assert_eq!(
        d["description"],
        json!({"main": "city-cap", "extras": ["road-straight"]})
    );
    assert!(tiles.iter().all(|t| t["description"]["main"].is_string()));
    assert!(tiles.iter().any(|t| t["expansion"] == "river"));
    // every listed link serves a picture that parses
    for t in &tiles {
        let link = t["links"]["svg"].as_str().unwrap();
        let r = raw(app, link, &[]);
        assert_eq!(
            (r.status, r.content_type.as_str()),
            (200, "image/svg+xml"),
            "{link}"
        );
        assert_eq!(svg_size(&r.body), (200, 200), "{link}");
    }
    let r0 = raw(app, "/v1/tiles/base/D.svg?size=64", &[]);
    assert_eq!(svg_size(&r0.body), (64, 64));
    let r90 = raw(app, "/v1/tiles/base/D.svg?size=64&rotation=90", &[]);
    assert_eq!(r90.status, 200);
    assert_ne!(r0.body, r90.body);
    assert_ne!(r0.etag, r90.etag);
    let tag = r90.etag.clone().expect("ETag");
    let again = raw(
        app,
        "/v1/tiles/base/D.svg?size=64&rotation=90",
        &[("If-None-Match", &tag)],
    );
    assert_eq!(again.status, 304);

    let post = anon.post("/v1/tiles/base/D.svg", json!({}));
    post.problem(405, "method-not-allowed");
    assert_eq!(post.header("allow"), Some("GET"));
    anon.get("/v1/tiles/base/ZZ.svg")
        .problem(404, "tile-not-found");
    anon.get("/v1/tiles/nothing/D.svg")
        .problem(404, "tile-not-found");
    anon.get("/v1/tiles/base/D.svg?rotation=45")
        .problem(400, "validation-failed");
    anon.get("/v1/tiles/base/D.svg?size=100000")
        .problem(400, "validation-failed");
}

/// Two sandbox games whose piles agree on the tiles drawn so far and differ after: their
/// pictures are the same bytes.
fn running_game_picture_hides_the_pile(app: &TestApp) {
    let (red, blue) = (app.user("red"), app.user("blue"));
    let a = start_game(
        &[&red, &blue],
        json!({"tile_order": ["base/E", "base/U", "base/V", "base/B", "base/K"]}),
    );
    let b = start_game(
        &[&red, &blue],
        json!({"tile_order": ["base/E", "base/U", "base/L", "base/C"]}),
    );
    for id in [&a, &b] {
        play_first(&[&red, &blue], id);
    }
    let view: Value = red.get(&format!("/v1/games/{a}")).ok().clone();
    assert_eq!(view["pending"]["tile"], "base/U");
    for path in [
        "board.svg",
        "board.svg?placements=true",
        "board.png",
        "board.svg?version=1",
    ] {
        let pa = raw(app, &format!("/v1/games/{a}/{path}"), &[]);
        let pb = raw(app, &format!("/v1/games/{b}/{path}"), &[]);
        assert_eq!(pa.status, 200, "{path}");
        assert!(pa.body == pb.body, "{path}: the pictures differ");
    }
}

/// The turn message carries the picture of the board at the recipient's moment and the
/// picture of the drawn tile, and both links work.
fn turn_message_links_the_pictures(app: &TestApp) {
    let (red, blue) = (app.user("red"), app.user("blue"));
    let id = start_game(&[&red, &blue], json!({"tile_order": ["base/U", "base/V"]}));
    play_first(&[&red, &blue], &id);
    let rt = actix_web::rt::System::new();
    let outbox = rt
        .block_on(app.server.state.store.outbox_for_user(blue.user_id.clone()))
        .expect("outbox");
    let turn: Value = serde_json::from_str(
        &outbox
            .iter()
            .find(|m| m.kind == "game.turn_started")
            .expect("blue's turn message")
            .payload,
    )
    .expect("JSON");
    let data = &turn["data"];
    let version = data["version"].as_i64().expect("version");
    let board = data["board_png"].as_str().expect("board_png");
    assert_eq!(
        board,
        format!("http://tilepost.test/v1/games/{id}/board.png?version={version}")
    );
    assert_eq!(data["links"]["board_png"], board);
    let tile = data["tile_svg"].as_str().expect("tile_svg");
    assert_eq!(tile, "http://tilepost.test/v1/tiles/base/V.svg");
    let html = data["html"].as_str().unwrap();
    assert!(html.contains(&format!("<img src=\"{}\"", board.replace('&', "&amp;"))));
    assert!(html.contains(tile));
    assert!(data["text"].as_str().unwrap().contains(board));
    // the links serve the pictures of that moment
    let path = |u: &str| u.trim_start_matches("http://tilepost.test").to_string();
    let png = raw(app, &path(board), &[]);
    assert_eq!((png.status, png.content_type.as_str()), (200, "image/png"));
    png_size(&png.body);
    let svg = raw(app, &path(tile), &[]);
    assert_eq!(svg.status, 200);
    svg_size(&svg.body);
}

crate::both!(
    turn_message_links_the_pictures,
    board_pictures_at_any_version,
    tile_catalog_and_pictures,
    running_game_picture_hides_the_pile,
);
