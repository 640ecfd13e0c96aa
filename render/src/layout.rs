//! Where things go on a tile: the shapes of its cities, roads, rivers and hedges, the
//! place of its centre feature and icons, and the anchor point of every feature (where a
//! figure on it stands), all computed from the catalog geometry in the reference
//! orientation.
//!
//! The rules are generic (a city on one side is a cap, on two adjacent sides a corner,
//! on two opposite sides a band, ...; a road that ends on the tile runs to its city gate,
//! to the centre feature or to a junction; fields that meet without a road between them
//! get a hedge). A few printed tiles with unusual art get small overrides by id.
//!
//! A raster of the tile (one cell per 2 units) finds the field regions that the drawing
//! leaves open; every field's anchor is the most open point of its region, and a test
//! checks that the regions match the catalog's field partition.

use std::sync::OnceLock;

use tilepost_engine::catalog::{catalog, Feature, Goods, TileType};
use tilepost_engine::{FeatureKind, TileTypeId};

use crate::geom::{inside, p, polyline_dist, quad, Path, CENTRE, P};

/// Road half width (fill), in tile units.
pub const ROAD_W: f64 = 4.2;
/// River half width.
pub const RIVER_W: f64 = 5.5;
/// Hedge half width (for the field regions).
const HEDGE_W: f64 = 1.6;
const JUNCTION_R: f64 = 7.5;

#[derive(Clone, Debug)]
pub struct CityArt {
    pub feature: usize,
    pub fill: Path,
    /// Wall lines (open paths) between the city and the rest of the tile.
    pub walls: Vec<Path>,
    /// Midpoints of the walls: where roads and hedges meet the city.
    pub gates: Vec<P>,
    pub anchor: P,
}

#[derive(Clone, Debug)]
pub struct RoadArt {
    pub feature: usize,
    /// Centre lines drawn as road.
    pub paths: Vec<Path>,
    /// Centre lines drawn as a tunnel (dashed; they do not cut fields).
    pub tunnels: Vec<Path>,
    /// City gates this road enters (small arches).
    pub gates: Vec<P>,
}

#[derive(Clone, Debug)]
pub struct RiverArt {
    pub paths: Vec<Path>,
    /// The spring (small pool) or the river's lake at a river end.
    pub spring: Option<P>,
    pub lake: Option<P>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CentreKind {
    Monastery,
    Abbey,
    Garden,
    Lake,
    CropCircle,
}

#[derive(Clone, Copy, Debug)]
pub struct CentreArt {
    pub feature: usize,
    pub kind: CentreKind,
    pub pos: P,
    pub r: f64,
}

#[derive(Clone, Debug, Default)]
pub struct Layout {
    pub cities: Vec<CityArt>,
    pub roads: Vec<RoadArt>,
    pub rivers: Vec<RiverArt>,
    pub hedges: Vec<Path>,
    /// Decorative underground links (dashed), such as the city passing under a city.
    pub tunnels: Vec<Path>,
    pub centre: Vec<CentreArt>,
    pub junction: Option<P>,
    /// Flying machine: position and direction in eighths of a turn (reference orientation).
    pub flyer: Option<(P, u8)>,
    pub inns: Vec<P>,
    pub pennants: Vec<P>,
    pub goods: Vec<(P, Goods)>,
    pub cathedrals: Vec<P>,
    /// Anchor of every feature (index = catalog feature index).
    pub anchors: Vec<P>,
    /// Field regions found in the raster, for checks: per field feature, the region ids
    /// of its half sample points.
    pub field_regions: Vec<(usize, Vec<usize>)>,
    /// Region ids assigned to inner fields, and the count of open regions.
    pub open_regions: usize,
}

/// The layout of tile type `id` (computed once per process).
pub fn layout(id: TileTypeId) -> &'static Layout {
    static ALL: OnceLock<Vec<OnceLock<Layout>>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        (0..catalog().tiles.len())
            .map(|_| OnceLock::new())
            .collect()
    });
    match all.get(id.0 as usize) {
        Some(cell) => cell.get_or_init(|| build(catalog().get(id))),
        None => {
            static EMPTY: OnceLock<Layout> = OnceLock::new();
            EMPTY.get_or_init(Layout::default)
        }
    }
}

fn has(f: &Feature, side: usize) -> bool {
    f.edges & (1 << side) != 0
}

/// Edge centre of side `s` and the inward normal.
fn edge_centre(s: usize) -> P {
    p(50.0, 0.0).rot(s as u8)
}
fn inward(s: usize) -> P {
    p(0.0, 1.0).rot_dir(s as u8)
}

trait RotDir {
    fn rot_dir(self, q: u8) -> P;
}
impl RotDir for P {
    /// Turns a direction vector (not a point) clockwise by quarter turns.
    fn rot_dir(self, q: u8) -> P {
        let mut r = self;
        for _ in 0..(q & 3) {
            r = p(-r.y, r.x);
        }
        r
    }
}

fn norm(v: P) -> P {
    let l = v.len();
    if l < 1e-9 {
        p(0.0, 0.0)
    } else {
        v.scale(1.0 / l)
    }
}

/// Sample point of half `h` (index 0..8) at distance `depth` from the edge and fraction
/// `along` of the half from its middle towards the corner (negative: towards the edge centre).
fn half_point(h: usize, depth: f64, along: f64) -> P {
    let side = h / 2;
    // in side-N coordinates: Nl is x in 0..50, Nr is x in 50..100
    let mid = if h.is_multiple_of(2) { 25.0 } else { 75.0 };
    let dir = if h.is_multiple_of(2) { -1.0 } else { 1.0 };
    p(mid + dir * along * 25.0, depth).rot(side as u8)
}

struct Ctx<'a> {
    t: &'a TileType,
    id: &'a str,
}

impl Ctx<'_> {
    fn feats(&self, k: FeatureKind) -> impl Iterator<Item = (usize, &Feature)> + '_ {
        self.t
            .features
            .iter()
            .enumerate()
            .filter(move |(_, f)| f.kind == k)
    }
    fn field_of_half(&self, h: usize) -> Option<usize> {
        self.t
            .features
            .iter()
            .position(|f| f.kind == FeatureKind::Field && f.halves & (1 << h) != 0)
    }
    fn has_inner(&self) -> bool {
        self.t.features.iter().any(|f| f.inner)
    }
}

fn build(t: &TileType) -> Layout {
    let cx = Ctx { t, id: &t.id };
    let mut lay = Layout {
        anchors: vec![CENTRE; t.features.len()],
        ..Default::default()
    };
    build_cities(&cx, &mut lay);
    build_rivers(&cx, &mut lay);
    let through = build_through_roads(&cx, &mut lay);
    place_centre(&cx, &mut lay, &through);
    build_road_ends(&cx, &mut lay);
    build_hedges(&cx, &mut lay);
    overrides(&cx, &mut lay);
    place_icons(&cx, &mut lay);
    place_fields(&cx, &mut lay);
    lay
}

// ----- cities ---------------------------------------------------------------------------

fn cap(s: usize, h: f64) -> (Path, Path, P, P) {
    let k = h / 0.75;
    let fill = Path::new()
        .m(p(0.0, 0.0))
        .l(p(100.0, 0.0))
        .c(p(78.0, k), p(22.0, k), p(0.0, 0.0))
        .z();
    let wall = Path::new()
        .m(p(100.0, 0.0))
        .c(p(78.0, k), p(22.0, k), p(0.0, 0.0));
    let q = s as u8;
    (
        fill.rot(q),
        wall.rot(q),
        p(50.0, h).rot(q),
        p(50.0, h * 0.47).rot(q),
    )
}

fn build_cities(cx: &Ctx, lay: &mut Layout) {
    let cities: Vec<(usize, &Feature)> = cx.feats(FeatureKind::City).collect();
    let inner = cx.has_inner();
    for &(i, f) in &cities {
        let other = |s: usize| cities.iter().any(|(j, g)| *j != i && has(g, s));
        let n = f.edges.count_ones();
        let art = match n {
            4 => CityArt {
                feature: i,
                fill: Path::new()
                    .m(p(0.0, 0.0))
                    .l(p(100.0, 0.0))
                    .l(p(100.0, 100.0))
                    .l(p(0.0, 100.0))
                    .z(),
                walls: vec![],
                gates: vec![CENTRE],
                anchor: CENTRE,
            },
            3 => {
                let m = (0..4).find(|s| !has(f, *s)).unwrap_or(2);
                let r = ((m + 2) % 4) as u8;
                let h = 25.0;
                let k = h / 0.75;
                let fill = Path::new()
                    .m(p(0.0, 100.0))
                    .l(p(0.0, 0.0))
                    .l(p(100.0, 0.0))
                    .l(p(100.0, 100.0))
                    .c(p(75.0, 100.0 - k), p(25.0, 100.0 - k), p(0.0, 100.0))
                    .z();
                let wall = Path::new().m(p(100.0, 100.0)).c(
                    p(75.0, 100.0 - k),
                    p(25.0, 100.0 - k),
                    p(0.0, 100.0),
                );
                CityArt {
                    feature: i,
                    fill: fill.rot(r),
                    walls: vec![wall.rot(r)],
                    gates: vec![p(50.0, 100.0 - h).rot(r)],
                    anchor: p(50.0, 38.0).rot(r),
                }
            }
            2 if (has(f, 0) && has(f, 2)) || (has(f, 1) && has(f, 3)) => {
                // band: canonical W-E (rotation 0) or N-S (rotation 1)
                let r: u8 = if has(f, 1) { 0 } else { 1 };
                let side_n = r as usize; // board side facing the canonical north
                let side_s = (2 + r as usize) % 4;
                let depth = |s: usize| if other(s) { 46.0 } else { 21.0 };
                let (hn, hs) = (depth(side_n), depth(side_s));
                let (kn, ks) = (hn / 0.75, hs / 0.75);
                let fill = Path::new()
                    .m(p(0.0, 0.0))
                    .c(p(25.0, kn), p(75.0, kn), p(100.0, 0.0))
                    .l(p(100.0, 100.0))
                    .c(p(75.0, 100.0 - ks), p(25.0, 100.0 - ks), p(0.0, 100.0))
                    .z();
                let top = Path::new()
                    .m(p(0.0, 0.0))
                    .c(p(25.0, kn), p(75.0, kn), p(100.0, 0.0));
                let bottom = Path::new().m(p(100.0, 100.0)).c(
                    p(75.0, 100.0 - ks),
                    p(25.0, 100.0 - ks),
                    p(0.0, 100.0),
                );
                CityArt {
                    feature: i,
                    fill: fill.rot(r),
                    walls: vec![top.rot(r), bottom.rot(r)],
                    gates: vec![p(50.0, hn).rot(r), p(50.0, 100.0 - hs).rot(r)],
                    anchor: p(50.0, (hn + 100.0 - hs) / 2.0).rot(r),
                }
            }
            2 => {
                // corner: sides s and s+1
                let s = (0..4)
                    .find(|s| has(f, *s) && has(f, (s + 1) % 4))
                    .unwrap_or(0);
                let c = [(s + 2) % 4, (s + 3) % 4]
                    .iter()
                    .filter(|x| other(**x))
                    .count();
                let no_field = !cx.t.features.iter().any(|g| g.kind == FeatureKind::Field);
                let tt = match c {
                    _ if no_field => 0.53,
                    0 => 0.58,
                    1 => 0.5,
                    _ => 0.37,
                };
                let ctrl = p(100.0 - 100.0 * tt, 100.0 * tt);
                let fill = Path::new()
                    .m(p(0.0, 0.0))
                    .l(p(100.0, 0.0))
                    .l(p(100.0, 100.0))
                    .q(ctrl, p(0.0, 0.0))
                    .z();
                let wall = Path::new().m(p(100.0, 100.0)).q(ctrl, p(0.0, 0.0));
                let gate = quad(p(100.0, 100.0), ctrl, p(0.0, 0.0), 0.5);
                let q = s as u8;
                CityArt {
                    feature: i,
                    fill: fill.rot(q),
                    walls: vec![wall.rot(q)],
                    gates: vec![gate.rot(q)],
                    anchor: p(100.0, 0.0).lerp(gate, 0.5).rot(q),
                }
            }
            _ => {
                let s = (0..4).find(|s| has(f, *s)).unwrap_or(0);
                let h = if inner || cities.len() >= 3 {
                    21.0
                } else {
                    25.0
                };
                let (fill, wall, gate, anchor) = cap(s, h);
                CityArt {
                    feature: i,
                    fill,
                    walls: vec![wall],
                    gates: vec![gate],
                    anchor,
                }
            }
        };
        lay.anchors[i] = art.anchor;
        lay.cities.push(art);
    }
}

// ----- rivers and roads -----------------------------------------------------------------

/// The centre line between two sides: straight across, or a curve through the centre
/// region for adjacent sides.
fn link(a: usize, b: usize) -> Path {
    let (ea, eb) = (edge_centre(a), edge_centre(b));
    if (a + 2) % 4 == b {
        Path::new().m(ea).l(eb)
    } else {
        let c = ea.lerp(eb, 0.5).lerp(CENTRE, 0.78);
        Path::new().m(ea).q(c, eb)
    }
}

fn sides(f: &Feature) -> Vec<usize> {
    (0..4).filter(|s| has(f, *s)).collect()
}

fn build_rivers(cx: &Ctx, lay: &mut Layout) {
    for (i, f) in cx.feats(FeatureKind::River) {
        let s = sides(f);
        let mut art = RiverArt {
            paths: vec![],
            spring: None,
            lake: None,
        };
        match s.as_slice() {
            [a] => {
                let end = CENTRE;
                art.paths.push(Path::new().m(edge_centre(*a)).l(end));
                if cx.t.river_last {
                    art.lake = Some(end);
                } else {
                    art.spring = Some(end);
                }
            }
            [a, b] => art.paths.push(link(*a, *b)),
            _ => {
                for a in &s {
                    art.paths.push(Path::new().m(edge_centre(*a)).l(CENTRE));
                }
            }
        }
        lay.anchors[i] = art.paths.first().map(|p| p.point_at(0.3)).unwrap_or(CENTRE);
        lay.rivers.push(art);
    }
}

/// Roads that cross the tile (two or more sides). Returns their centre lines, which the
/// centre feature must keep clear of.
fn build_through_roads(cx: &Ctx, lay: &mut Layout) -> Vec<Vec<P>> {
    let mut lines = Vec::new();
    for (i, f) in cx.feats(FeatureKind::Road) {
        let s = sides(f);
        if s.len() < 2 {
            continue;
        }
        let mut art = RoadArt {
            feature: i,
            paths: vec![],
            tunnels: vec![],
            gates: vec![],
        };
        if s.len() == 2 {
            let (a, b) = (s[0], s[1]);
            let adjacent = (a + 2) % 4 != b;
            let via = if adjacent {
                touching_city(cx, lay, a, b)
            } else {
                None
            };
            match via {
                Some(g) => {
                    let pulled = g.lerp(CENTRE, 3.0 / g.dist(CENTRE).max(3.0));
                    let (ea, eb) = (edge_centre(a), edge_centre(b));
                    art.paths.push(
                        Path::new()
                            .m(ea)
                            .q(ea.add(inward(a).scale(22.0)), pulled)
                            .q(eb.add(inward(b).scale(22.0)), eb),
                    );
                }
                None => art.paths.push(link(a, b)),
            }
            lay.anchors[i] = art.paths[0].point_at(if adjacent { 0.5 } else { 0.3 });
        } else {
            for a in &s {
                art.paths.push(Path::new().m(edge_centre(*a)).l(CENTRE));
            }
            lay.anchors[i] = art.paths[0].point_at(0.55);
        }
        for path in &art.paths {
            lines.extend(path.flatten());
        }
        lay.roads.push(art);
    }
    lines
}

/// A curved road between adjacent sides `a` and `b` whose outer side holds two or more
/// fields must touch a city to part them: the gate it touches.
fn touching_city(cx: &Ctx, lay: &Layout, a: usize, b: usize) -> Option<P> {
    if cx.feats(FeatureKind::Road).count() > 1 {
        return None;
    }
    let (first, second) = if (a + 1) % 4 == b { (a, b) } else { (b, a) };
    let inner = [2 * first + 1, (2 * second) % 8];
    let mut fields: Vec<usize> = (0..8)
        .filter(|h| !inner.contains(h))
        .filter_map(|h| cx.field_of_half(h))
        .collect();
    fields.sort();
    fields.dedup();
    if fields.len() < 2 {
        return None;
    }
    let mid = link(a, b).point_at(0.5);
    nearest_gate(lay, mid, None)
}

/// The gate nearest to `q`, among the cities in `only` (all when `None`).
fn nearest_gate(lay: &Layout, q: P, only: Option<&[usize]>) -> Option<P> {
    let mut best: Option<(f64, P)> = None;
    for c in &lay.cities {
        if let Some(o) = only {
            if !o.contains(&c.feature) {
                continue;
            }
        }
        for g in &c.gates {
            let d = g.dist(q);
            if best.is_none_or(|(bd, _)| d < bd - 1e-9) {
                best = Some((d, *g));
            }
        }
    }
    best.map(|(_, g)| g)
}

// ----- obstacles and free space ---------------------------------------------------------

/// What blocks a point: city areas, road and river lines, hedges, round things.
#[derive(Default)]
struct Obstacles {
    areas: Vec<Vec<P>>,
    lines: Vec<(Vec<P>, f64)>,
    discs: Vec<(P, f64)>,
}

impl Obstacles {
    fn from_layout(lay: &Layout, with_fields_only: bool) -> Obstacles {
        let mut o = Obstacles::default();
        for c in &lay.cities {
            o.areas.extend(c.fill.flatten());
        }
        for r in &lay.rivers {
            for path in &r.paths {
                for l in path.flatten() {
                    o.lines.push((l, RIVER_W));
                }
            }
            if let Some(s) = r.spring {
                o.discs.push((s, 7.0));
            }
            if let Some(s) = r.lake {
                o.discs.push((s, 15.0));
            }
        }
        for r in &lay.roads {
            for path in &r.paths {
                for l in path.flatten() {
                    o.lines.push((l, ROAD_W));
                }
            }
        }
        for h in &lay.hedges {
            for l in h.flatten() {
                o.lines.push((l, HEDGE_W));
            }
        }
        for c in &lay.centre {
            o.discs.push((c.pos, c.r));
        }
        if let Some(j) = lay.junction {
            o.discs.push((j, JUNCTION_R));
        }
        if !with_fields_only {
            for pnt in &lay.inns {
                o.discs.push((*pnt, 8.0));
            }
            if let Some((pnt, _)) = lay.flyer {
                o.discs.push((pnt, 9.0));
            }
        }
        o
    }

    /// Distance from `q` to the nearest obstacle (negative or zero when blocked), also
    /// counting the tile border.
    fn clearance(&self, q: P) -> f64 {
        let mut c = q.x.min(q.y).min(100.0 - q.x).min(100.0 - q.y);
        for a in &self.areas {
            if inside(q, a) {
                return 0.0;
            }
            c = c.min(polyline_dist(q, a));
        }
        for (l, w) in &self.lines {
            c = c.min(polyline_dist(q, l) - w);
        }
        for (d, r) in &self.discs {
            c = c.min(d.dist(q) - r);
        }
        c.max(0.0)
    }
}

/// The most open point of a 5-unit grid inside `lo..hi`, preferring points near `pref`.
fn best_spot(o: &Obstacles, lo: f64, hi: f64, pref: P, accept: impl Fn(P) -> bool) -> (P, f64) {
    let mut best = (pref, -1.0);
    let mut y = lo;
    while y <= hi + 1e-9 {
        let mut x = lo;
        while x <= hi + 1e-9 {
            let q = p(x, y);
            if accept(q) {
                let c = o.clearance(q);
                let score = c.min(20.0) - 0.08 * q.dist(pref);
                if score > best.1 + 1e-9 {
                    best = (q, score);
                }
            }
            x += 5.0;
        }
        y += 5.0;
    }
    let c = o.clearance(best.0);
    (best.0, c)
}

// ----- centre features ------------------------------------------------------------------

fn place_centre(cx: &Ctx, lay: &mut Layout, _through: &[Vec<P>]) {
    let o = Obstacles::from_layout(lay, true);
    for (i, f) in cx.t.features.iter().enumerate() {
        let (kind, r) = match f.kind {
            FeatureKind::Monastery if f.abbey => (CentreKind::Abbey, 20.0),
            FeatureKind::Monastery => (CentreKind::Monastery, 12.0),
            FeatureKind::Garden => (CentreKind::Garden, 11.0),
            FeatureKind::Lake => (CentreKind::Lake, 15.0),
            FeatureKind::CropCircle => (CentreKind::CropCircle, 13.0),
            _ => continue,
        };
        let pos = if o.clearance(CENTRE) >= r + 2.0 {
            CENTRE
        } else {
            best_spot(&o, 20.0, 80.0, CENTRE, |_| true).0
        };
        lay.anchors[i] = pos;
        lay.centre.push(CentreArt {
            feature: i,
            kind,
            pos,
            r,
        });
    }
}

// ----- road ends ------------------------------------------------------------------------

fn build_road_ends(cx: &Ctx, lay: &mut Layout) {
    let singles: Vec<(usize, usize)> = cx
        .feats(FeatureKind::Road)
        .filter(|(_, f)| f.edges.count_ones() == 1)
        .map(|(i, f)| (i, sides(f)[0]))
        .collect();
    let road_target_centre = lay
        .centre
        .iter()
        .find(|c| c.kind != CentreKind::Garden || c.pos == CENTRE)
        .map(|c| c.pos);
    let mut need_junction = false;
    for &(i, s) in &singles {
        let fl = cx.field_of_half(2 * s);
        let fr = cx.field_of_half(2 * s + 1);
        let e = edge_centre(s);
        let mut art = RoadArt {
            feature: i,
            paths: vec![],
            tunnels: vec![],
            gates: vec![],
        };
        let mut to_city = None;
        if fl != fr && !lay.cities.is_empty() {
            let common: Vec<usize> = match (fl, fr) {
                (Some(a), Some(b)) => {
                    let (ba, bb) = (cx.t.features[a].borders, cx.t.features[b].borders);
                    (0..32).filter(|j| ba & bb & (1 << j) != 0).collect()
                }
                _ => vec![],
            };
            if !common.is_empty() {
                to_city = nearest_gate(lay, e, Some(&common));
            } else if singles.len() == 1 {
                to_city = nearest_gate(lay, e, None);
            }
        }
        match to_city {
            Some(g) => {
                let dir = norm(g.sub(e));
                let end = g.add(dir.scale(5.0));
                let straight = inward(s);
                let cos = dir.x * straight.x + dir.y * straight.y;
                if cos > 0.97 {
                    art.paths.push(Path::new().m(e).l(end));
                } else {
                    let c = e.add(straight.scale(g.dist(e) * 0.55));
                    art.paths.push(Path::new().m(e).q(c, end));
                }
                art.gates.push(g);
            }
            None => {
                let end = match road_target_centre {
                    Some(c) => c,
                    None => {
                        need_junction = true;
                        CENTRE
                    }
                };
                art.paths.push(Path::new().m(e).l(end));
            }
        }
        lay.anchors[i] = art.paths[0].point_at(0.32);
        lay.roads.push(art);
    }
    if need_junction {
        lay.junction = Some(CENTRE);
    }
    // roads passing under a city (A&M tunnel tile) get gates where they meet its walls
    for (i, f) in cx.feats(FeatureKind::Road) {
        if f.passes_under_city {
            if let Some(r) = lay.roads.iter_mut().find(|r| r.feature == i) {
                for c in &lay.cities {
                    r.gates.extend(c.gates.iter().copied());
                }
            }
        }
    }
    lay.roads.sort_by_key(|r| r.feature);
}

// ----- hedges -----------------------------------------------------------------------------

fn build_hedges(cx: &Ctx, lay: &mut Layout) {
    let mut starts: Vec<(P, usize, usize)> = Vec::new();
    // corners between two field halves of different fields
    for corner in 0..4 {
        let (h1, h2) = (2 * corner + 1, (2 * corner + 2) % 8);
        if let (Some(a), Some(b)) = (cx.field_of_half(h1), cx.field_of_half(h2)) {
            if a != b {
                starts.push((p(100.0, 0.0).rot(corner as u8), a, b));
            }
        }
    }
    // field sides whose two halves hold different fields
    for s in 0..4 {
        if cx.t.edges[s] == tilepost_engine::catalog::EdgeKind::Field {
            if let (Some(a), Some(b)) = (cx.field_of_half(2 * s), cx.field_of_half(2 * s + 1)) {
                if a != b {
                    starts.push((edge_centre(s), a, b));
                }
            }
        }
    }
    for (start, a, b) in starts {
        let ba = cx.t.features[a].borders;
        let bb = cx.t.features[b].borders;
        let common: Vec<usize> = (0..32).filter(|j| ba & bb & (1 << j) != 0).collect();
        let target = if !common.is_empty() {
            nearest_gate(lay, start, Some(&common))
        } else {
            nearest_gate(lay, start, None)
        }
        .unwrap_or(CENTRE);
        let end = target.add(norm(target.sub(start)).scale(3.0));
        lay.hedges.push(Path::new().m(start).l(end));
    }
}

// ----- tile-specific art ----------------------------------------------------------------

fn overrides(cx: &Ctx, lay: &mut Layout) {
    match cx.id {
        // roads W and E end at a well in the middle; hedges part the fields by each city
        "ic/05-crcr" => {
            lay.hedges.push(Path::new().m(p(50.0, 20.0)).l(CENTRE));
            lay.hedges.push(Path::new().m(p(50.0, 80.0)).l(CENTRE));
        }
        // the roads W and S meet at a square; a hedge parts the fields up to the city
        "tb/23-cfrr" => {
            lay.hedges.push(Path::new().m(p(50.0, 22.0)).l(CENTRE));
        }
        // the crop circle touches the curved road, parting the fields beside the road end
        "cc/01-frrr" => {
            let pos = p(44.0, 56.0);
            for c in &mut lay.centre {
                c.pos = pos;
                lay.anchors[c.feature] = pos;
            }
            for r in &mut lay.roads {
                if cx.t.features[r.feature].edges.count_ones() == 1 {
                    r.paths = vec![Path::new().m(p(100.0, 50.0)).l(pos)];
                }
            }
        }
        // a wide crop circle between the two cities parts the fields W and E
        "cc/05-cfcf" => {
            for c in &mut lay.centre {
                c.r = 27.0;
            }
        }
        // the monastery stands on the south bank, the road runs up to it
        "river/05-firi" => {
            for r in &mut lay.rivers {
                r.paths = vec![Path::new().m(p(0.0, 50.0)).c(
                    p(30.0, 40.0),
                    p(70.0, 40.0),
                    p(100.0, 50.0),
                )];
            }
            let pos = p(50.0, 60.0);
            for c in &mut lay.centre {
                c.pos = pos;
                lay.anchors[c.feature] = pos;
            }
            for r in &mut lay.roads {
                r.paths = vec![Path::new().m(p(50.0, 100.0)).l(pos)];
                lay.anchors[r.feature] = p(50.0, 86.0);
            }
        }
        // two cities crossing: N-S over the top, W-E as two halves joined under it
        "am/02-cccc" => {
            let ns =
                cx.t.features
                    .iter()
                    .position(|f| f.kind == FeatureKind::City && has(f, 0));
            let we =
                cx.t.features
                    .iter()
                    .position(|f| f.kind == FeatureKind::City && has(f, 1));
            lay.cities.clear();
            if let Some(i) = we {
                let (f1, w1, g1, a1) = cap(3, 16.0);
                let (f2, w2, g2, _) = cap(1, 16.0);
                let mut fill = f1;
                fill.0.extend(f2.0);
                lay.cities.push(CityArt {
                    feature: i,
                    fill,
                    walls: vec![w1, w2],
                    gates: vec![g1, g2],
                    anchor: a1,
                });
                lay.anchors[i] = a1;
                lay.tunnels
                    .push(Path::new().m(p(10.0, 50.0)).l(p(90.0, 50.0)));
            }
            if let Some(i) = ns {
                let fill = Path::new()
                    .m(p(0.0, 0.0))
                    .l(p(100.0, 0.0))
                    .c(p(58.0, 22.0), p(58.0, 78.0), p(100.0, 100.0))
                    .l(p(0.0, 100.0))
                    .c(p(42.0, 78.0), p(42.0, 22.0), p(0.0, 0.0))
                    .z();
                let right =
                    Path::new()
                        .m(p(100.0, 0.0))
                        .c(p(58.0, 22.0), p(58.0, 78.0), p(100.0, 100.0));
                let left =
                    Path::new()
                        .m(p(0.0, 100.0))
                        .c(p(42.0, 78.0), p(42.0, 22.0), p(0.0, 0.0));
                let anchor = p(50.0, 30.0);
                lay.cities.push(CityArt {
                    feature: i,
                    fill,
                    walls: vec![right, left],
                    gates: vec![p(56.0, 50.0), p(44.0, 50.0)],
                    anchor,
                });
                lay.anchors[i] = anchor;
            }
        }
        // the road N-S passes under the city and on under the southern field
        "am/12-rcrc" => {
            for r in &mut lay.roads {
                r.paths = vec![Path::new().m(p(50.0, 0.0)).l(p(50.0, 24.0))];
                r.tunnels = vec![Path::new().m(p(50.0, 24.0)).l(p(50.0, 100.0))];
                r.gates = vec![p(50.0, 21.0)];
                lay.anchors[r.feature] = p(50.0, 9.0);
            }
        }
        _ => {}
    }
}

// ----- icons ------------------------------------------------------------------------------

fn place_icons(cx: &Ctx, lay: &mut Layout) {
    // inns: beside their road, in the open
    for (i, f) in cx.feats(FeatureKind::Road) {
        if !f.inn {
            continue;
        }
        let Some(r) = lay.roads.iter().find(|r| r.feature == i) else {
            continue;
        };
        let on = r.paths.first().map(|p| p.point_at(0.5)).unwrap_or(CENTRE);
        let anchor = lay.anchors[i];
        let o = Obstacles::from_layout(lay, false);
        let (pos, _) = best_spot(&o, 12.0, 88.0, on, |q| q.dist(anchor) > 11.0);
        lay.inns.push(pos);
    }
    // flying machine: in the open, away from the centre feature
    for f in cx.t.features.iter() {
        if f.kind == FeatureKind::FlyingMachine {
            let o = Obstacles::from_layout(lay, false);
            let dir = f.direction.unwrap_or(0);
            let pref = p(50.0, 50.0).add(p(0.0, -28.0).rot_dir(0).scale(0.0));
            let anchors = lay.anchors.clone();
            let (pos, _) = best_spot(&o, 15.0, 85.0, pref, |q| {
                anchors.iter().all(|a| a.dist(q) > 12.0 || *a == CENTRE)
            });
            lay.flyer = Some((pos, dir));
        }
    }
    // pennants, goods and cathedrals inside their city, away from its anchor
    for c in lay.cities.clone() {
        let f = &cx.t.features[c.feature];
        let mut want: Vec<u8> = Vec::new();
        if f.cathedral {
            want.push(0);
        }
        want.extend(std::iter::repeat_n(1, f.pennants as usize));
        if f.goods.is_some() {
            want.push(2);
        }
        if want.is_empty() {
            continue;
        }
        let rings = c.fill.flatten();
        let walls: Vec<Vec<P>> = c.walls.iter().flat_map(|w| w.flatten()).collect();
        let mut taken: Vec<P> = vec![c.anchor];
        for w in want {
            let mut best: Option<(f64, P)> = None;
            let mut y = 6.0;
            while y <= 94.0 {
                let mut x = 6.0;
                while x <= 94.0 {
                    let q = p(x, y);
                    x += 4.0;
                    if !rings.iter().any(|r| inside(q, r)) {
                        continue;
                    }
                    let wall_d = walls
                        .iter()
                        .map(|l| polyline_dist(q, l))
                        .fold(f64::INFINITY, f64::min);
                    let border = q.x.min(q.y).min(100.0 - q.x).min(100.0 - q.y);
                    let near = taken
                        .iter()
                        .map(|t| t.dist(q))
                        .fold(f64::INFINITY, f64::min);
                    if wall_d < 7.0 || border < 6.0 || near < 13.0 {
                        continue;
                    }
                    let score = -near.min(40.0) * 0.2 - (q.dist(c.anchor) - 16.0).abs() * 0.5
                        + wall_d.min(12.0) * 0.3;
                    if best.is_none_or(|(b, _)| score > b + 1e-9) {
                        best = Some((score, q));
                    }
                }
                y += 4.0;
            }
            let pos = match best {
                Some((_, q)) => q,
                None => c.anchor.add(p(9.0, -6.0)),
            };
            taken.push(pos);
            match w {
                0 => lay.cathedrals.push(pos),
                1 => lay.pennants.push(pos),
                _ => {
                    if let Some(g) = f.goods {
                        lay.goods.push((pos, g));
                    }
                }
            }
        }
    }
    // things that are not claimable still get an anchor (the flying machine, crop circle)
    for (i, f) in cx.t.features.iter().enumerate() {
        if f.kind == FeatureKind::FlyingMachine {
            if let Some((q, _)) = lay.flyer {
                lay.anchors[i] = q;
            }
        }
    }
}

// ----- fields -----------------------------------------------------------------------------

const GRID: usize = 50;
const CELL: f64 = 100.0 / GRID as f64;

fn place_fields(cx: &Ctx, lay: &mut Layout) {
    if lay.centre.iter().any(|c| c.kind == CentreKind::Abbey) {
        return;
    }
    let o = Obstacles::from_layout(lay, true);
    let mut clear = vec![0.0f64; GRID * GRID];
    for j in 0..GRID {
        for i in 0..GRID {
            let q = p((i as f64 + 0.5) * CELL, (j as f64 + 0.5) * CELL);
            clear[j * GRID + i] = o.clearance_open(q);
        }
    }
    // label the open regions (4-connected)
    let mut label = vec![usize::MAX; GRID * GRID];
    let mut sizes: Vec<usize> = Vec::new();
    for start in 0..GRID * GRID {
        if label[start] != usize::MAX || clear[start] <= 0.0 {
            continue;
        }
        let id = sizes.len();
        let mut stack = vec![start];
        label[start] = id;
        let mut n = 0;
        while let Some(c) = stack.pop() {
            n += 1;
            let (i, j) = (c % GRID, c / GRID);
            let mut push = |k: usize| {
                if label[k] == usize::MAX && clear[k] > 0.0 {
                    label[k] = id;
                    stack.push(k);
                }
            };
            if i > 0 {
                push(c - 1);
            }
            if i + 1 < GRID {
                push(c + 1);
            }
            if j > 0 {
                push(c - GRID);
            }
            if j + 1 < GRID {
                push(c + GRID);
            }
        }
        sizes.push(n);
    }
    let region_at = |q: P| -> Option<usize> {
        let i = ((q.x / CELL) as usize).min(GRID - 1);
        let j = ((q.y / CELL) as usize).min(GRID - 1);
        let l = label[j * GRID + i];
        (l != usize::MAX).then_some(l)
    };
    let mut used = vec![false; sizes.len()];
    let mut fields: Vec<(usize, Vec<usize>)> = Vec::new();
    for (fi, f) in cx.t.features.iter().enumerate() {
        if f.kind != FeatureKind::Field || f.inner {
            continue;
        }
        let mut regs = Vec::new();
        for h in 0..8 {
            if f.halves & (1 << h) == 0 {
                continue;
            }
            let r = [0.0, -0.4, 0.4, -0.8, 0.8]
                .iter()
                .flat_map(|a| [1.0, 3.0, 5.0].map(|d| half_point(h, d, *a)))
                .find_map(region_at);
            if let Some(r) = r {
                regs.push(r);
                used[r] = true;
            } else {
                regs.push(usize::MAX);
            }
        }
        fields.push((fi, regs));
    }
    // inner fields take the open regions no border field uses, largest first
    let mut spare: Vec<usize> = (0..sizes.len())
        .filter(|r| !used[*r] && sizes[*r] >= 6)
        .collect();
    spare.sort_by_key(|r| (std::cmp::Reverse(sizes[*r]), *r));
    let mut inner_regions = Vec::new();
    for (fi, f) in cx.t.features.iter().enumerate() {
        if f.kind == FeatureKind::Field && f.inner {
            let r = if inner_regions.len() < spare.len() {
                spare[inner_regions.len()]
            } else {
                usize::MAX
            };
            inner_regions.push(r);
            fields.push((fi, vec![r]));
        }
    }
    lay.open_regions = spare.len();
    // anchor: the most open cell of the field's region, nudged towards its first half
    for (fi, regs) in &fields {
        let f = &cx.t.features[*fi];
        let pref = (0..8)
            .find(|h| f.halves & (1 << h) != 0)
            .map(|h| half_point(h, 22.0, 0.0))
            .unwrap_or(CENTRE);
        let mut best: Option<(f64, P)> = None;
        for (k, l) in label.iter().enumerate() {
            if *l == usize::MAX || !regs.contains(l) {
                continue;
            }
            let q = p(
                ((k % GRID) as f64 + 0.5) * CELL,
                ((k / GRID) as f64 + 0.5) * CELL,
            );
            let others = lay
                .anchors
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != *fi && cx.t.features[*j].kind != FeatureKind::Field)
                .map(|(_, a)| a.dist(q))
                .fold(f64::INFINITY, f64::min);
            let score = clear[k].min(9.0) + others.min(14.0) * 0.4 - q.dist(pref) * 0.12;
            if best.is_none_or(|(b, _)| score > b + 1e-9) {
                best = Some((score, q));
            }
        }
        if let Some((_, q)) = best {
            lay.anchors[*fi] = q;
        }
    }
    lay.field_regions = fields;
}

impl Obstacles {
    /// Clearance for the field raster: like [`Obstacles::clearance`] but the tile border
    /// does not block.
    fn clearance_open(&self, q: P) -> f64 {
        let mut c = f64::INFINITY;
        for a in &self.areas {
            if inside(q, a) {
                return 0.0;
            }
            c = c.min(polyline_dist(q, a));
        }
        for (l, w) in &self.lines {
            c = c.min(polyline_dist(q, l) - w);
        }
        for (d, r) in &self.discs {
            c = c.min(d.dist(q) - r);
        }
        if c.is_infinite() {
            50.0
        } else {
            c.max(0.0)
        }
    }
}

/// Checks that the drawing of a tile parts its fields as the catalog does: the sample
/// points of one field lie in one open region, different fields in different regions,
/// and each inner field has a region of its own.
pub fn check_fields(id: TileTypeId) -> Result<(), String> {
    let lay = layout(id);
    let t = catalog().get(id);
    let mut seen: Vec<(usize, usize)> = Vec::new();
    for (fi, regs) in &lay.field_regions {
        let name = &t.features[*fi].id;
        if regs.contains(&usize::MAX) {
            return Err(format!(
                "{}: field {name} has a half with no open area",
                t.id
            ));
        }
        let first = regs[0];
        if regs.iter().any(|r| *r != first) {
            return Err(format!("{}: field {name} is cut in parts {regs:?}", t.id));
        }
        if let Some((other, _)) = seen.iter().find(|(_, r)| *r == first) {
            return Err(format!(
                "{}: fields {} and {name} run together",
                t.id, t.features[*other].id
            ));
        }
        seen.push((*fi, first));
    }
    let inner = t.features.iter().filter(|f| f.inner).count();
    if lay.open_regions != inner {
        return Err(format!(
            "{}: {} enclosed open areas for {inner} inner fields",
            t.id, lay.open_regions
        ));
    }
    Ok(())
}
