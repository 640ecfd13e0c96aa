//! Plane geometry in tile units: a tile is the square `0..100 × 0..100` with `y` growing
//! downwards (SVG convention), north at the top. Paths are built in the catalog's
//! reference orientation and turned with [`P::rot`] when drawn.

/// A point in tile units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct P {
    pub x: f64,
    pub y: f64,
}

pub const fn p(x: f64, y: f64) -> P {
    P { x, y }
}

pub const CENTRE: P = p(50.0, 50.0);

impl P {
    /// Turns the point `q` quarter turns clockwise about the tile centre.
    pub fn rot(self, q: u8) -> P {
        let mut r = self;
        for _ in 0..(q & 3) {
            r = P {
                x: 100.0 - r.y,
                y: r.x,
            };
        }
        r
    }
    pub fn add(self, o: P) -> P {
        p(self.x + o.x, self.y + o.y)
    }
    pub fn sub(self, o: P) -> P {
        p(self.x - o.x, self.y - o.y)
    }
    pub fn scale(self, k: f64) -> P {
        p(self.x * k, self.y * k)
    }
    pub fn len(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }
    pub fn dist(self, o: P) -> f64 {
        self.sub(o).len()
    }
    pub fn lerp(self, o: P, t: f64) -> P {
        p(self.x + (o.x - self.x) * t, self.y + (o.y - self.y) * t)
    }
}

/// One drawing command.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cmd {
    M(P),
    L(P),
    Q(P, P),
    C(P, P, P),
    Z,
}

/// A path in tile units.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Path(pub Vec<Cmd>);

impl Path {
    pub fn new() -> Path {
        Path(Vec::new())
    }
    pub fn m(mut self, a: P) -> Path {
        self.0.push(Cmd::M(a));
        self
    }
    pub fn l(mut self, a: P) -> Path {
        self.0.push(Cmd::L(a));
        self
    }
    pub fn q(mut self, c: P, a: P) -> Path {
        self.0.push(Cmd::Q(c, a));
        self
    }
    pub fn c(mut self, c1: P, c2: P, a: P) -> Path {
        self.0.push(Cmd::C(c1, c2, a));
        self
    }
    pub fn z(mut self) -> Path {
        self.0.push(Cmd::Z);
        self
    }

    /// The path turned `q` quarter turns clockwise about the tile centre.
    pub fn rot(&self, q: u8) -> Path {
        self.map(|a| a.rot(q))
    }

    /// The path with every point mapped by `f` (an affine map keeps curves exact).
    pub fn map(&self, f: impl Fn(P) -> P) -> Path {
        Path(
            self.0
                .iter()
                .map(|c| match *c {
                    Cmd::M(a) => Cmd::M(f(a)),
                    Cmd::L(a) => Cmd::L(f(a)),
                    Cmd::Q(c, a) => Cmd::Q(f(c), f(a)),
                    Cmd::C(c1, c2, a) => Cmd::C(f(c1), f(c2), f(a)),
                    Cmd::Z => Cmd::Z,
                })
                .collect(),
        )
    }

    /// The path as polylines (one per sub-path), curves cut into straight pieces.
    pub fn flatten(&self) -> Vec<Vec<P>> {
        const N: usize = 16;
        let mut out: Vec<Vec<P>> = Vec::new();
        let mut cur: Vec<P> = Vec::new();
        let mut start = p(0.0, 0.0);
        for c in &self.0 {
            let last = cur.last().copied().unwrap_or(start);
            match *c {
                Cmd::M(a) => {
                    if cur.len() > 1 {
                        out.push(std::mem::take(&mut cur));
                    }
                    cur.clear();
                    cur.push(a);
                    start = a;
                }
                Cmd::L(a) => cur.push(a),
                Cmd::Q(c1, a) => {
                    for i in 1..=N {
                        let t = i as f64 / N as f64;
                        cur.push(quad(last, c1, a, t));
                    }
                }
                Cmd::C(c1, c2, a) => {
                    for i in 1..=N {
                        let t = i as f64 / N as f64;
                        cur.push(cubic(last, c1, c2, a, t));
                    }
                }
                Cmd::Z => {
                    cur.push(start);
                    out.push(std::mem::take(&mut cur));
                }
            }
        }
        if cur.len() > 1 {
            out.push(cur);
        }
        out
    }

    /// The point at parameter `t` (0..1) along the first sub-path, by arc length.
    pub fn point_at(&self, t: f64) -> P {
        let lines = self.flatten();
        let Some(line) = lines.first() else {
            return CENTRE;
        };
        let total: f64 = line.windows(2).map(|w| w[0].dist(w[1])).sum();
        let mut want = total * t.clamp(0.0, 1.0);
        for w in line.windows(2) {
            let d = w[0].dist(w[1]);
            if d >= want && d > 0.0 {
                return w[0].lerp(w[1], want / d);
            }
            want -= d;
        }
        line.last().copied().unwrap_or(CENTRE)
    }
}

pub fn quad(a: P, c: P, b: P, t: f64) -> P {
    let u = 1.0 - t;
    p(
        u * u * a.x + 2.0 * u * t * c.x + t * t * b.x,
        u * u * a.y + 2.0 * u * t * c.y + t * t * b.y,
    )
}

pub fn cubic(a: P, c1: P, c2: P, b: P, t: f64) -> P {
    let u = 1.0 - t;
    p(
        u * u * u * a.x + 3.0 * u * u * t * c1.x + 3.0 * u * t * t * c2.x + t * t * t * b.x,
        u * u * u * a.y + 3.0 * u * u * t * c1.y + 3.0 * u * t * t * c2.y + t * t * t * b.y,
    )
}

/// Distance from `q` to the segment `a..b`.
pub fn seg_dist(q: P, a: P, b: P) -> f64 {
    let ab = b.sub(a);
    let l2 = ab.x * ab.x + ab.y * ab.y;
    if l2 <= f64::EPSILON {
        return q.dist(a);
    }
    let t = ((q.x - a.x) * ab.x + (q.y - a.y) * ab.y) / l2;
    q.dist(a.lerp(b, t.clamp(0.0, 1.0)))
}

/// Distance from `q` to a polyline.
pub fn polyline_dist(q: P, line: &[P]) -> f64 {
    match line {
        [] => f64::INFINITY,
        [a] => q.dist(*a),
        _ => line
            .windows(2)
            .map(|w| seg_dist(q, w[0], w[1]))
            .fold(f64::INFINITY, f64::min),
    }
}

/// Even-odd point-in-polygon test for a closed ring.
pub fn inside(q: P, ring: &[P]) -> bool {
    let mut c = false;
    let n = ring.len();
    if n < 3 {
        return false;
    }
    let mut j = n - 1;
    for i in 0..n {
        let (a, b) = (ring[i], ring[j]);
        if (a.y > q.y) != (b.y > q.y) && q.x < (b.x - a.x) * (q.y - a.y) / (b.y - a.y) + a.x {
            c = !c;
        }
        j = i;
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_moves_north_to_east() {
        let n = p(50.0, 0.0);
        assert_eq!(n.rot(1), p(100.0, 50.0));
        assert_eq!(n.rot(2), p(50.0, 100.0));
        assert_eq!(n.rot(3), p(0.0, 50.0));
        assert_eq!(n.rot(4), n);
    }

    #[test]
    fn flatten_and_inside() {
        let sq = Path::new()
            .m(p(0.0, 0.0))
            .l(p(10.0, 0.0))
            .l(p(10.0, 10.0))
            .l(p(0.0, 10.0))
            .z();
        let rings = sq.flatten();
        assert_eq!(rings.len(), 1);
        assert!(inside(p(5.0, 5.0), &rings[0]));
        assert!(!inside(p(15.0, 5.0), &rings[0]));
        assert!((polyline_dist(p(5.0, 5.0), &rings[0]) - 5.0).abs() < 1e-9);
    }
}
