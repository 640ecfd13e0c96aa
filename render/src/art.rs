//! Drawing one tile from its [`Layout`]: grass, rivers, roads, hedges, cities with walls,
//! centre features and icons, in tile units (`0..100`), turned by the placement's
//! rotation. Icons and badges stay upright whatever the rotation.

use std::fmt::Write;

use tilepost_engine::catalog::{catalog, symbol, Goods};
use tilepost_engine::TileTypeId;

use crate::geom::{p, Path, P};
use crate::layout::{layout, CentreKind, Layout, RIVER_W, ROAD_W};
use crate::palette as c;
use crate::svg::{d, d_with, num};

/// Definitions the tile art refers to (patterns); put once in each document's `<defs>`.
pub fn defs() -> String {
    let mut s = String::new();
    // roofs seen from above, for the inside of cities
    s.push_str("<pattern id=\"roofs\" patternUnits=\"userSpaceOnUse\" width=\"30\" height=\"30\">");
    let _ = write!(s, "<rect width=\"30\" height=\"30\" fill=\"{}\"/>", c::CITY);
    for (x, y, w, h) in [
        (1.5, 2.0, 10.0, 6.5),
        (15.0, 1.0, 7.0, 9.0),
        (24.0, 4.0, 5.0, 6.0),
        (3.0, 13.0, 7.0, 9.0),
        (14.0, 14.5, 12.0, 6.0),
        (8.0, 24.5, 11.0, 4.5),
    ] {
        let (x, y, w, h): (f64, f64, f64, f64) = (x, y, w, h);
        // a gable roof seen from above: light and dark slopes on either side of the ridge
        let dark = if w >= h {
            format!(
                "M{},{} L{},{} L{},{} L{},{} Z",
                num(x),
                num(y + h / 2.0),
                num(x + w),
                num(y + h / 2.0),
                num(x + w),
                num(y + h),
                num(x),
                num(y + h)
            )
        } else {
            format!(
                "M{},{} L{},{} L{},{} L{},{} Z",
                num(x + w / 2.0),
                num(y),
                num(x + w),
                num(y),
                num(x + w),
                num(y + h),
                num(x + w / 2.0),
                num(y + h)
            )
        };
        let _ = write!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/><path d=\"{dark}\" fill=\"{}\"/><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"0.5\"/>",
            num(x), num(y), num(w), num(h), c::ROOF, c::ROOF_DARK,
            num(x), num(y), num(w), num(h), c::ROOF_DARK
        );
    }
    s.push_str("</pattern>");
    // paving for the abbey courtyard
    let _ = write!(
        s,
        "<pattern id=\"paving\" patternUnits=\"userSpaceOnUse\" width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\" fill=\"{}\"/><path d=\"M0,5 L10,5 M5,0 L5,5 M0,5 L0,10\" stroke=\"{}\" stroke-width=\"0.5\" fill=\"none\"/></pattern>",
        c::STONE, c::STONE_EDGE
    );
    s
}

fn hash(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The elements of tile `id` turned by `q` quarter turns, in tile units.
pub fn tile_art(id: TileTypeId, q: u8) -> String {
    let t = catalog().get(id);
    let lay = layout(id);
    let r = |a: P| a.rot(q);
    let mut s = String::with_capacity(8192);
    let abbey = lay.centre.iter().any(|c| c.kind == CentreKind::Abbey);

    // ground
    if abbey {
        s.push_str("<rect x=\"0\" y=\"0\" width=\"100\" height=\"100\" fill=\"url(#paving)\"/>");
    } else {
        let _ = write!(
            s,
            "<rect x=\"0\" y=\"0\" width=\"100\" height=\"100\" fill=\"{}\"/>",
            c::GRASS
        );
        grass(&mut s, &t.id);
    }

    // rivers
    for rv in &lay.rivers {
        for path in &rv.paths {
            let dd = d_with(path, r);
            let _ = write!(
                s,
                "<path d=\"{dd}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"butt\"/><path d=\"{dd}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"butt\"/><path d=\"{dd}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.2\" stroke-dasharray=\"5 7\" stroke-linecap=\"round\"/>",
                c::WATER_EDGE,
                num(2.0 * RIVER_W + 2.0),
                c::WATER,
                num(2.0 * RIVER_W),
                c::WATER_LIGHT
            );
        }
        if let Some(sp) = rv.spring {
            let q = r(sp);
            let _ = write!(
                s,
                "<circle cx=\"{}\" cy=\"{}\" r=\"7.5\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1.2\"/><circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\"/>",
                num(q.x), num(q.y), c::WATER, c::WATER_EDGE, num(q.x - 1.5), num(q.y - 1.5), c::WATER_LIGHT
            );
        }
        if let Some(lk) = rv.lake {
            lake(&mut s, r(lk), 15.0);
        }
    }

    // roads (under the cities, so that roads into a city end under its wall)
    for rd in &lay.roads {
        for tn in &rd.tunnels {
            let _ = write!(
                s,
                "<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2.4\" stroke-dasharray=\"3 3\" stroke-opacity=\"0.8\"/>",
                d_with(tn, r),
                c::ROAD_EDGE
            );
        }
    }
    for rd in &lay.roads {
        for path in &rd.paths {
            let _ = write!(
                s,
                "<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"butt\" stroke-linejoin=\"round\"/>",
                d_with(path, r),
                c::ROAD_EDGE,
                num(2.0 * ROAD_W + 2.4)
            );
        }
    }
    for rd in &lay.roads {
        for path in &rd.paths {
            let dd = d_with(path, r);
            let _ = write!(
                s,
                "<path d=\"{dd}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"butt\" stroke-linejoin=\"round\"/><path d=\"{dd}\" fill=\"none\" stroke=\"{}\" stroke-width=\"0.8\" stroke-dasharray=\"1.5 5\" stroke-opacity=\"0.6\"/>",
                c::ROAD,
                num(2.0 * ROAD_W),
                c::ROAD_EDGE
            );
        }
    }
    // roads end: a small village square where several meet
    if let Some(j) = lay.junction {
        let q = r(j);
        house(&mut s, q, 1.0);
    }

    // hedges
    for h in &lay.hedges {
        let dd = d_with(h, r);
        let _ = write!(
            s,
            "<path d=\"{dd}\" fill=\"none\" stroke=\"{}\" stroke-width=\"3.6\" stroke-linecap=\"round\"/><path d=\"{dd}\" fill=\"none\" stroke=\"{}\" stroke-width=\"4.2\" stroke-dasharray=\"0.1 4.4\" stroke-linecap=\"round\"/>",
            c::HEDGE,
            c::GRASS_DARK
        );
    }

    // cities
    for city in &lay.cities {
        let dd = d_with(&city.fill, r);
        let _ = write!(
            s,
            "<path d=\"{dd}\" fill=\"{}\"/><path d=\"{dd}\" fill=\"url(#roofs)\" fill-opacity=\"0.42\"/>",
            c::CITY
        );
        for w in &city.walls {
            let wd = d_with(w, r);
            let _ = write!(
                s,
                "<path d=\"{wd}\" fill=\"none\" stroke=\"{}\" stroke-width=\"3.6\" stroke-linecap=\"round\"/><path d=\"{wd}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.3\" stroke-dasharray=\"2 1.6\"/>",
                c::WALL,
                c::WALL_LIGHT
            );
        }
    }
    for tn in &lay.tunnels {
        let _ = write!(
            s,
            "<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\" stroke-dasharray=\"3 2.5\" stroke-opacity=\"0.85\"/>",
            d_with(tn, r),
            c::WALL
        );
    }
    // gates where roads enter a city
    for rd in &lay.roads {
        for g in &rd.gates {
            let q = r(*g);
            let _ = write!(
                s,
                "<circle cx=\"{}\" cy=\"{}\" r=\"4.6\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1.2\"/><circle cx=\"{}\" cy=\"{}\" r=\"2.2\" fill=\"#3A2E24\"/>",
                num(q.x), num(q.y), c::WALL_LIGHT, c::WALL, num(q.x), num(q.y)
            );
        }
    }

    // centre features
    for ce in &lay.centre {
        let q = r(ce.pos);
        match ce.kind {
            CentreKind::Monastery => monastery(&mut s, q, 1.0, false),
            CentreKind::Abbey => monastery(&mut s, q, 1.45, true),
            CentreKind::Garden => garden(&mut s, q),
            CentreKind::Lake => lake(&mut s, q, ce.r),
            CentreKind::CropCircle => {
                let f = &t.features[ce.feature];
                crop_circle(&mut s, q, ce.r, f.crop_symbol.as_deref().unwrap_or(""));
            }
        }
    }
    for inn in &lay.inns {
        inn_icon(&mut s, r(*inn));
    }
    for cat in &lay.cathedrals {
        cathedral(&mut s, r(*cat));
    }
    for pn in &lay.pennants {
        pennant(&mut s, r(*pn));
    }
    for (g, kind) in &lay.goods {
        goods(&mut s, r(*g), *kind);
    }
    if let Some((pos, dir)) = lay.flyer {
        flyer(&mut s, r(pos), (dir + 2 * (q & 3)) % 8);
    }
    badges(&mut s, t.symbols);

    // the tile's edge
    if abbey {
        let _ = write!(
            s,
            "<rect x=\"2.5\" y=\"2.5\" width=\"95\" height=\"95\" fill=\"none\" stroke=\"{}\" stroke-width=\"5\" stroke-dasharray=\"9 2\"/>",
            c::STONE_EDGE
        );
    }
    let _ = write!(
        s,
        "<rect x=\"0.6\" y=\"0.6\" width=\"98.8\" height=\"98.8\" rx=\"2.5\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.2\"/><rect x=\"1.8\" y=\"1.8\" width=\"96.4\" height=\"96.4\" rx=\"1.8\" fill=\"none\" stroke=\"#FFFFFF\" stroke-width=\"0.6\" stroke-opacity=\"0.35\"/>",
        c::TILE_EDGE
    );
    s
}

/// Tufts of grass at places fixed by the tile id (upright, same for every rotation).
fn grass(s: &mut String, id: &str) {
    let mut h = hash(id);
    let mut d = String::new();
    let mut light = String::new();
    for i in 0..14 {
        h = h
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let x = 6.0 + ((h >> 33) % 88) as f64;
        let y = 6.0 + ((h >> 17) % 88) as f64;
        let tuft = format!(
            "M{},{} l1.2,-3 M{},{} l-1.4,-2.4 M{},{} l2.6,-1.8 ",
            num(x),
            num(y),
            num(x),
            num(y),
            num(x),
            num(y)
        );
        if i % 3 == 0 {
            light.push_str(&tuft);
        } else {
            d.push_str(&tuft);
        }
    }
    let _ = write!(
        s,
        "<path d=\"{}\" stroke=\"{}\" stroke-width=\"0.8\" stroke-linecap=\"round\" fill=\"none\"/><path d=\"{}\" stroke=\"{}\" stroke-width=\"0.8\" stroke-linecap=\"round\" fill=\"none\"/>",
        d.trim_end(),
        c::GRASS_DARK,
        light.trim_end(),
        c::GRASS_LIGHT
    );
}

fn at(q: P, dx: f64, dy: f64) -> P {
    p(q.x + dx, q.y + dy)
}

fn poly(points: &[P]) -> String {
    let mut path = Path::new();
    for (i, pt) in points.iter().enumerate() {
        path = if i == 0 { path.m(*pt) } else { path.l(*pt) };
    }
    d(&path.z())
}

fn house(s: &mut String, q: P, k: f64) {
    let w = 6.0 * k;
    let _ = write!(
        s,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1\"/>",
        num(q.x),
        num(q.y),
        num(7.5 * k),
        c::STONE,
        c::STONE_EDGE
    );
    let _ = write!(
        s,
        "<path d=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"0.8\"/>",
        poly(&[
            at(q, -w / 1.4, -w / 2.2),
            at(q, w / 1.4, -w / 2.2),
            at(q, w / 1.4, w / 2.0),
            at(q, -w / 1.4, w / 2.0)
        ]),
        c::ROOF,
        c::ROOF_DARK
    );
    let _ = write!(
        s,
        "<path d=\"M{},{} L{},{}\" stroke=\"{}\" stroke-width=\"0.8\"/>",
        num(q.x - w / 1.4),
        num(q.y),
        num(q.x + w / 1.4),
        num(q.y),
        c::ROOF_DARK
    );
}

fn monastery(s: &mut String, q: P, k: f64, abbey: bool) {
    // a church seen from the front: nave, roof, tower with a cross
    let body = [
        at(q, -9.0 * k, -k),
        at(q, 9.0 * k, -k),
        at(q, 9.0 * k, 9.0 * k),
        at(q, -9.0 * k, 9.0 * k),
    ];
    let roof = [
        at(q, -11.0 * k, -0.5 * k),
        at(q, -6.0 * k, -7.5 * k),
        at(q, 11.0 * k, -7.5 * k),
        at(q, 11.0 * k, -0.5 * k),
    ];
    let tower = [
        at(q, -9.0 * k, -8.0 * k),
        at(q, -3.0 * k, -8.0 * k),
        at(q, -3.0 * k, 9.0 * k),
        at(q, -9.0 * k, 9.0 * k),
    ];
    let spire = [
        at(q, -10.0 * k, -7.5 * k),
        at(q, -6.0 * k, -15.0 * k),
        at(q, -2.0 * k, -7.5 * k),
    ];
    let (wall, edge) = if abbey {
        ("#D9CDB8", "#5E5446")
    } else {
        (c::STONE, c::STONE_EDGE)
    };
    let _ = write!(
        s,
        "<ellipse cx=\"{}\" cy=\"{}\" rx=\"{}\" ry=\"{}\" fill=\"#000000\" fill-opacity=\"0.18\"/>",
        num(q.x + 1.5 * k),
        num(q.y + 9.5 * k),
        num(12.0 * k),
        num(3.0 * k)
    );
    for (pts, fill) in [
        (&body[..], wall),
        (&roof[..], c::ROOF),
        (&tower[..], wall),
        (&spire[..], c::ROOF_DARK),
    ] {
        let _ = write!(
            s,
            "<path d=\"{}\" fill=\"{fill}\" stroke=\"{edge}\" stroke-width=\"{}\" stroke-linejoin=\"round\"/>",
            poly(pts),
            num(0.9 * k.min(1.2))
        );
    }
    // door, window and cross
    let _ = write!(
        s,
        "<path d=\"M{},{} L{},{} Q{},{} {},{} L{},{} Z\" fill=\"#3A2E24\"/><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#3A2E24\"/><path d=\"M{},{} L{},{} M{},{} L{},{}\" stroke=\"#3A2E24\" stroke-width=\"{}\"/>",
        num(q.x + 1.5 * k), num(q.y + 9.0 * k),
        num(q.x + 1.5 * k), num(q.y + 4.0 * k),
        num(q.x + 3.5 * k), num(q.y + 1.5 * k),
        num(q.x + 5.5 * k), num(q.y + 4.0 * k),
        num(q.x + 5.5 * k), num(q.y + 9.0 * k),
        num(q.x - 6.0 * k), num(q.y - 3.0 * k), num(1.3 * k),
        num(q.x - 6.0 * k), num(q.y - 19.0 * k), num(q.x - 6.0 * k), num(q.y - 14.5 * k),
        num(q.x - 7.8 * k), num(q.y - 17.4 * k), num(q.x - 4.2 * k), num(q.y - 17.4 * k),
        num(0.9 * k)
    );
}

fn garden(s: &mut String, q: P) {
    let _ = write!(
        s,
        "<circle cx=\"{}\" cy=\"{}\" r=\"10.5\" fill=\"{}\" stroke=\"{}\" stroke-width=\"2.4\" stroke-dasharray=\"0.1 3.2\" stroke-linecap=\"round\"/><circle cx=\"{}\" cy=\"{}\" r=\"10.5\" fill=\"none\" stroke=\"{}\" stroke-width=\"1\"/>",
        num(q.x), num(q.y), c::GRASS_LIGHT, c::HEDGE, num(q.x), num(q.y), c::HEDGE
    );
    for (dx, dy, rr) in [(-4.0, -3.5, 3.4), (4.2, -2.8, 3.0), (0.0, 4.2, 3.6)] {
        let _ = write!(
            s,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#4E8F3A\" stroke=\"{}\" stroke-width=\"0.8\"/><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#6FB04F\"/>",
            num(q.x + dx), num(q.y + dy), num(rr), c::HEDGE,
            num(q.x + dx - rr * 0.3), num(q.y + dy - rr * 0.3), num(rr * 0.4)
        );
    }
    for (dx, dy, col) in [
        (6.0, 4.0, "#F2D14B"),
        (-6.5, 3.5, "#FFFFFF"),
        (1.0, -7.0, "#E27AA6"),
    ] {
        let _ = write!(
            s,
            "<circle cx=\"{}\" cy=\"{}\" r=\"1.1\" fill=\"{col}\"/>",
            num(q.x + dx),
            num(q.y + dy)
        );
    }
}

fn lake(s: &mut String, q: P, rr: f64) {
    let k = rr / 15.0;
    let pts = [
        (0.0, -15.0),
        (11.0, -11.0),
        (15.5, -1.0),
        (11.0, 10.5),
        (0.0, 14.5),
        (-12.0, 11.0),
        (-15.0, 0.0),
        (-11.5, -11.0),
    ];
    let n = pts.len();
    let pt = |i: usize| at(q, pts[i % n].0 * k, pts[i % n].1 * k);
    let mid = |i: usize| pt(i).lerp(pt(i + 1), 0.5);
    let mut path = Path::new().m(mid(0));
    for i in 1..=n {
        path = path.q(pt(i), mid(i));
    }
    let path = path.z();
    let _ = write!(
        s,
        "<path d=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1.4\"/><path d=\"M{},{} q4,-2 8,0 M{},{} q3,-1.5 6,0\" stroke=\"{}\" stroke-width=\"1\" fill=\"none\" stroke-linecap=\"round\"/>",
        d(&path),
        c::WATER,
        c::WATER_EDGE,
        num(q.x - 6.0 * k), num(q.y - 3.0 * k),
        num(q.x - 1.0 * k), num(q.y + 4.0 * k),
        c::WATER_LIGHT
    );
}

fn crop_circle(s: &mut String, q: P, rr: f64, symbol: &str) {
    let _ = write!(
        s,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#C9D98A\" stroke=\"{}\" stroke-width=\"1.2\"/>",
        num(q.x), num(q.y), num(rr), c::GRASS_DARK
    );
    let mut ring = rr - 3.8;
    while ring > 6.5 {
        let _ =
            write!(
            s,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1\"/>",
            num(q.x), num(q.y), num(ring), c::GRASS_DARK
        );
        ring -= 3.6;
    }
    let _ = write!(
        s,
        "<circle cx=\"{}\" cy=\"{}\" r=\"5.8\" fill=\"#DCE6A4\" stroke=\"{}\" stroke-width=\"0.8\"/>",
        num(q.x), num(q.y), c::GRASS_DARK
    );
    let ink = "#4A5A22";
    let body = match symbol {
        "shield" => format!(
            "<path d=\"M{},{} L{},{} L{},{} Q{},{} {},{} Q{},{} {},{} Z\" fill=\"{ink}\"/>",
            num(q.x - 3.4), num(q.y - 3.6), num(q.x + 3.4), num(q.y - 3.6), num(q.x + 3.4), num(q.y),
            num(q.x + 3.2), num(q.y + 3.0), num(q.x), num(q.y + 4.2),
            num(q.x - 3.2), num(q.y + 3.0), num(q.x - 3.4), num(q.y)
        ),
        "club" => format!(
            "<path d=\"M{},{} L{},{}\" stroke=\"{ink}\" stroke-width=\"1.6\" stroke-linecap=\"round\"/><circle cx=\"{}\" cy=\"{}\" r=\"2.4\" fill=\"{ink}\"/>",
            num(q.x - 2.8), num(q.y + 3.6), num(q.x + 1.0), num(q.y - 1.0),
            num(q.x + 1.6), num(q.y - 1.8)
        ),
        _ => format!(
            "<path d=\"M{},{} L{},{} M{},{} L{},{} L{},{} M{},{} L{},{} M{},{} L{},{}\" stroke=\"{ink}\" stroke-width=\"1.2\" fill=\"none\" stroke-linecap=\"round\"/>",
            num(q.x), num(q.y + 4.4), num(q.x), num(q.y - 1.0),
            num(q.x - 3.0), num(q.y - 4.2), num(q.x - 3.0), num(q.y - 1.0), num(q.x + 3.0), num(q.y - 1.0),
            num(q.x + 3.0), num(q.y - 1.0), num(q.x + 3.0), num(q.y - 4.2),
            num(q.x), num(q.y - 1.0), num(q.x), num(q.y - 4.4)
        ),
    };
    s.push_str(&body);
}

fn inn_icon(s: &mut String, q: P) {
    // a small house with a pitched roof and a pond beside it
    let _ = write!(
        s,
        "<ellipse cx=\"{}\" cy=\"{}\" rx=\"4.2\" ry=\"2.6\" fill=\"{}\" stroke=\"{}\" stroke-width=\"0.7\"/>",
        num(q.x + 5.5), num(q.y + 4.5), c::WATER, c::WATER_EDGE
    );
    let _ = write!(
        s,
        "<path d=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"0.8\"/><path d=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"0.8\" stroke-linejoin=\"round\"/><path d=\"{}\" fill=\"#3A2E24\"/>",
        poly(&[at(q, -5.5, -1.0), at(q, 3.5, -1.0), at(q, 3.5, 6.0), at(q, -5.5, 6.0)]),
        c::STONE, c::STONE_EDGE,
        poly(&[at(q, -7.0, -0.5), at(q, -1.0, -6.5), at(q, 5.0, -0.5)]),
        c::ROOF, c::ROOF_DARK,
        poly(&[at(q, -2.3, 6.0), at(q, -2.3, 2.5), at(q, 0.3, 2.5), at(q, 0.3, 6.0)])
    );
    // the inn sign: a mug
    let _ = write!(
        s,
        "<rect x=\"{}\" y=\"{}\" width=\"2.6\" height=\"3\" fill=\"{}\" stroke=\"{}\" stroke-width=\"0.5\"/>",
        num(q.x - 5.0), num(q.y + 0.5), c::GOLD, c::GOLD_DARK
    );
}

fn cathedral(s: &mut String, q: P) {
    let _ = write!(
        s,
        "<g transform=\"translate({} {}) scale(1.5)\">",
        num(q.x),
        num(q.y)
    );
    cathedral_body(s, p(0.0, 0.0));
    s.push_str("</g>");
}

fn cathedral_body(s: &mut String, q: P) {
    let _ = write!(
        s,
        "<ellipse cx=\"{}\" cy=\"{}\" rx=\"12\" ry=\"3\" fill=\"#000000\" fill-opacity=\"0.18\"/>",
        num(q.x + 1.0),
        num(q.y + 8.0)
    );
    let _ = write!(
        s,
        "<path d=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"0.9\"/>",
        poly(&[
            at(q, -10.0, -1.0),
            at(q, 10.0, -1.0),
            at(q, 10.0, 8.0),
            at(q, -10.0, 8.0)
        ]),
        c::STONE,
        c::STONE_EDGE
    );
    let _ = write!(
        s,
        "<path d=\"M{},{} A7,7 0 0 1 {},{} Z\" fill=\"#6F8FA8\" stroke=\"{}\" stroke-width=\"0.9\"/>",
        num(q.x - 7.0), num(q.y - 1.0), num(q.x + 7.0), num(q.y - 1.0), c::STONE_EDGE
    );
    let _ = write!(
        s,
        "<path d=\"M{},{} L{},{} M{},{} L{},{}\" stroke=\"#3A2E24\" stroke-width=\"1.2\"/><path d=\"M{},{} L{},{} Q{},{} {},{} L{},{} Z\" fill=\"#3A2E24\"/>",
        num(q.x), num(q.y - 8.0), num(q.x), num(q.y - 13.5),
        num(q.x - 2.2), num(q.y - 11.5), num(q.x + 2.2), num(q.y - 11.5),
        num(q.x - 2.0), num(q.y + 8.0), num(q.x - 2.0), num(q.y + 3.5),
        num(q.x), num(q.y + 1.0), num(q.x + 2.0), num(q.y + 3.5), num(q.x + 2.0), num(q.y + 8.0)
    );
}

fn pennant(s: &mut String, q: P) {
    let shield = Path::new()
        .m(at(q, -4.5, -5.0))
        .l(at(q, 4.5, -5.0))
        .l(at(q, 4.5, 0.5))
        .q(at(q, 4.2, 4.5), at(q, 0.0, 6.0))
        .q(at(q, -4.2, 4.5), at(q, -4.5, 0.5))
        .z();
    let _ = write!(
        s,
        "<path d=\"{}\" fill=\"{}\" stroke=\"#FFFFFF\" stroke-width=\"2.4\" stroke-linejoin=\"round\"/><path d=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"0.9\" stroke-linejoin=\"round\"/><path d=\"M{},{} L{},{} L{},{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.4\"/>",
        d(&shield), c::PENNANT,
        d(&shield), c::PENNANT, c::OUTLINE,
        num(q.x - 3.0), num(q.y - 2.5), num(q.x), num(q.y + 1.0), num(q.x + 3.0), num(q.y - 2.5),
        c::PENNANT_MARK
    );
}

fn goods(s: &mut String, q: P, g: Goods) {
    let _ = write!(
        s,
        "<circle cx=\"{}\" cy=\"{}\" r=\"6.2\" fill=\"#FFF8E6\" stroke=\"{}\" stroke-width=\"0.9\"/>",
        num(q.x),
        num(q.y),
        c::OUTLINE
    );
    match g {
        Goods::Wine => {
            // a bunch of grapes
            for (dx, dy) in [
                (-2.4, -2.2),
                (0.0, -2.2),
                (2.4, -2.2),
                (-1.2, 0.0),
                (1.2, 0.0),
                (0.0, 2.2),
            ] {
                let _ = write!(
                    s,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"1.35\" fill=\"#7B2D8E\" stroke=\"#3E1247\" stroke-width=\"0.4\"/>",
                    num(q.x + dx),
                    num(q.y + dy + 0.6)
                );
            }
            let _ = write!(
                s,
                "<path d=\"M{},{} q1,-2 2.5,-2.2\" stroke=\"#4E7A2A\" stroke-width=\"0.9\" fill=\"none\"/>",
                num(q.x),
                num(q.y - 3.2)
            );
        }
        Goods::Grain => {
            let _ = write!(
                s,
                "<path d=\"M{},{} L{},{} M{},{} L{},{} M{},{} L{},{}\" stroke=\"#A77B12\" stroke-width=\"0.8\"/>",
                num(q.x), num(q.y + 4.5), num(q.x), num(q.y - 4.0),
                num(q.x), num(q.y + 4.5), num(q.x - 2.6), num(q.y - 3.0),
                num(q.x), num(q.y + 4.5), num(q.x + 2.6), num(q.y - 3.0)
            );
            for (x0, y0) in [(0.0, -3.6), (-2.6, -2.6), (2.6, -2.6)] {
                let _ = write!(
                    s,
                    "<ellipse cx=\"{}\" cy=\"{}\" rx=\"1.1\" ry=\"2.2\" fill=\"#E3B52B\" stroke=\"#A77B12\" stroke-width=\"0.4\"/>",
                    num(q.x + x0),
                    num(q.y + y0)
                );
            }
        }
        Goods::Cloth => {
            let _ = write!(
                s,
                "<path d=\"{}\" fill=\"#3C6FB4\" stroke=\"#1E3F6E\" stroke-width=\"0.6\"/><ellipse cx=\"{}\" cy=\"{}\" rx=\"1.3\" ry=\"3\" fill=\"#7FA6DA\" stroke=\"#1E3F6E\" stroke-width=\"0.6\"/><path d=\"M{},{} L{},{}\" stroke=\"#7FA6DA\" stroke-width=\"0.6\"/>",
                poly(&[at(q, -3.8, -3.0), at(q, 3.8, -3.0), at(q, 3.8, 3.0), at(q, -3.8, 3.0)]),
                num(q.x - 3.8), num(q.y),
                num(q.x - 1.0), num(q.y + 1.2), num(q.x + 3.2), num(q.y + 1.2)
            );
        }
    }
}

fn flyer(s: &mut String, q: P, dir: u8) {
    let angle = dir as f64 * 45.0;
    let _ = write!(
        s,
        "<g transform=\"translate({} {}) rotate({})\"><circle r=\"9\" fill=\"#FFF8E6\" stroke=\"{}\" stroke-width=\"0.9\" fill-opacity=\"0.92\" stroke-opacity=\"0.92\"/><path d=\"M-7.5,3.5 Q-4,-1.5 0,1.5 Q4,-1.5 7.5,3.5 Q3.5,2.5 0,4.5 Q-3.5,2.5 -7.5,3.5 Z\" fill=\"#D9C7A0\" stroke=\"{}\" stroke-width=\"0.6\" stroke-linejoin=\"round\"/><path d=\"M0,-8 L4.2,-2.6 L1.5,-2.6 L1.5,7 L-1.5,7 L-1.5,-2.6 L-4.2,-2.6 Z\" fill=\"#7A3E12\" stroke=\"{}\" stroke-width=\"0.6\" stroke-linejoin=\"round\"/></g>",
        num(q.x),
        num(q.y),
        num(angle),
        c::OUTLINE,
        c::OUTLINE,
        c::OUTLINE
    );
}

/// Tile-level symbols as round badges in the upper-left corner (upright).
fn badges(s: &mut String, symbols: u8) {
    let mut x = 9.0;
    let y = 9.0;
    if symbols & symbol::GOLD != 0 {
        let _ = write!(
            s,
            "<circle cx=\"{}\" cy=\"{y}\" r=\"6\" fill=\"#FFF8E6\" stroke=\"{}\" stroke-width=\"0.9\"/><path d=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"0.6\"/>",
            num(x), c::OUTLINE,
            poly(&[p(x - 4.0, y + 2.0), p(x + 4.0, y + 2.0), p(x + 2.6, y - 2.2), p(x - 2.6, y - 2.2)]),
            c::GOLD, c::GOLD_DARK
        );
        x += 13.0;
    }
    if symbols & symbol::MAGIC != 0 {
        let star = (0..10)
            .map(|i| {
                let a = std::f64::consts::PI * i as f64 / 5.0;
                let rr = if i % 2 == 0 { 4.4 } else { 1.9 };
                p(x + rr * a.sin(), y - rr * a.cos())
            })
            .collect::<Vec<_>>();
        let _ = write!(
            s,
            "<circle cx=\"{}\" cy=\"{y}\" r=\"6\" fill=\"{}\" stroke=\"{}\" stroke-width=\"0.9\"/><path d=\"{}\" fill=\"#F0E442\"/>",
            num(x), c::MAGIC, c::OUTLINE, poly(&star)
        );
        x += 13.0;
    }
    if symbols & symbol::ROBBER != 0 {
        let _ = write!(
            s,
            "<circle cx=\"{}\" cy=\"{y}\" r=\"6\" fill=\"#FFF8E6\" stroke=\"{}\" stroke-width=\"0.9\"/><path d=\"M{},{} Q{},{} {},{} Q{},{} {},{} Q{},{} {},{} Z\" fill=\"{}\"/><circle cx=\"{}\" cy=\"{}\" r=\"1\" fill=\"#FFF8E6\"/><circle cx=\"{}\" cy=\"{}\" r=\"1\" fill=\"#FFF8E6\"/>",
            num(x), c::OUTLINE,
            num(x - 4.6), num(y - 1.0),
            num(x), num(y - 3.4), num(x + 4.6), num(y - 1.0),
            num(x + 4.0), num(y + 2.6), num(x), num(y + 1.4),
            num(x - 4.0), num(y + 2.6), num(x - 4.6), num(y - 1.0),
            c::ROBBER,
            num(x - 2.0), num(y - 0.6), num(x + 2.0), num(y - 0.6)
        );
    }
}

/// Points of the layout in board orientation (for figures): the anchor of feature `i`.
pub fn anchor(lay: &Layout, i: usize, q: u8) -> P {
    lay.anchors
        .get(i)
        .copied()
        .unwrap_or(crate::geom::CENTRE)
        .rot(q)
}
