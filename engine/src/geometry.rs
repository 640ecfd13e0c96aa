//! Geometry of the square grid: positions, rotations, edges (sides), half-edges and
//! figure spots, and how they rotate and meet across a seam.
//!
//! Conventions (rules README): `x` grows to the east, `y` to the north; rotation is
//! clockwise in quarter turns from the catalog's reference orientation. Half-edges are
//! numbered clockwise from the north-west corner: `Nl Nr El Er Sl Sr Wl Wr`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A cell of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

impl Pos {
    pub const fn new(x: i32, y: i32) -> Self {
        Pos { x, y }
    }

    /// The orthogonal neighbour across side `d`.
    pub const fn step(self, d: Dir) -> Pos {
        match d {
            Dir::N => Pos::new(self.x, self.y + 1),
            Dir::E => Pos::new(self.x + 1, self.y),
            Dir::S => Pos::new(self.x, self.y - 1),
            Dir::W => Pos::new(self.x - 1, self.y),
        }
    }

    /// The 8 surrounding cells, clockwise from the north.
    pub fn surrounding(self) -> [Pos; 8] {
        let Pos { x, y } = self;
        [
            Pos::new(x, y + 1),
            Pos::new(x + 1, y + 1),
            Pos::new(x + 1, y),
            Pos::new(x + 1, y - 1),
            Pos::new(x, y - 1),
            Pos::new(x - 1, y - 1),
            Pos::new(x - 1, y),
            Pos::new(x - 1, y + 1),
        ]
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// A side of a tile (also the edge-centre spot for roads, rivers and cities).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Dir {
    N = 0,
    E = 1,
    S = 2,
    W = 3,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    pub const fn from_index(i: u8) -> Dir {
        match i & 3 {
            0 => Dir::N,
            1 => Dir::E,
            2 => Dir::S,
            _ => Dir::W,
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn opposite(self) -> Dir {
        Dir::from_index(self as u8 + 2)
    }

    /// This side after turning the tile by `r`.
    pub const fn rotate(self, r: Rotation) -> Dir {
        Dir::from_index(self as u8 + r.0)
    }

    /// The side of the reference orientation that ends up at `self` after rotation `r`.
    pub const fn unrotate(self, r: Rotation) -> Dir {
        Dir::from_index(self as u8 + 4 - r.0)
    }

    /// The two half-edges of this side, `l` first.
    pub const fn halves(self) -> [Half; 2] {
        [
            Half::from_index(self as u8 * 2),
            Half::from_index(self as u8 * 2 + 1),
        ]
    }

    pub const fn name(self) -> &'static str {
        match self {
            Dir::N => "N",
            Dir::E => "E",
            Dir::S => "S",
            Dir::W => "W",
        }
    }
}

impl FromStr for Dir {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "N" => Ok(Dir::N),
            "E" => Ok(Dir::E),
            "S" => Ok(Dir::S),
            "W" => Ok(Dir::W),
            _ => Err(()),
        }
    }
}

/// Half of a side, where fields meet: `Nl Nr El Er Sl Sr Wl Wr` (0..8, clockwise from the
/// north-west corner; `l`/`r` as seen from the tile centre looking out through that side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Half {
    Nl = 0,
    Nr = 1,
    El = 2,
    Er = 3,
    Sl = 4,
    Sr = 5,
    Wl = 6,
    Wr = 7,
}

impl Half {
    pub const ALL: [Half; 8] = [
        Half::Nl,
        Half::Nr,
        Half::El,
        Half::Er,
        Half::Sl,
        Half::Sr,
        Half::Wl,
        Half::Wr,
    ];

    pub const fn from_index(i: u8) -> Half {
        match i & 7 {
            0 => Half::Nl,
            1 => Half::Nr,
            2 => Half::El,
            3 => Half::Er,
            4 => Half::Sl,
            5 => Half::Sr,
            6 => Half::Wl,
            _ => Half::Wr,
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn side(self) -> Dir {
        Dir::from_index(self as u8 / 2)
    }

    /// This half after turning the tile by `r` (each quarter turn moves it two places).
    pub const fn rotate(self, r: Rotation) -> Half {
        Half::from_index(self as u8 + 2 * r.0)
    }

    pub const fn unrotate(self, r: Rotation) -> Half {
        Half::from_index(self as u8 + 8 - 2 * r.0)
    }

    /// The half of the neighbour's facing side that this half touches: `Xl` meets the
    /// opposite side's `r` half (`Nl`↔`Sr`, `El`↔`Wr`, ...).
    pub const fn across(self) -> Half {
        Half::from_index((self as u8 + 4) ^ 1)
    }

    /// Catalog name (`Nl`, `Nr`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Half::Nl => "Nl",
            Half::Nr => "Nr",
            Half::El => "El",
            Half::Er => "Er",
            Half::Sl => "Sl",
            Half::Sr => "Sr",
            Half::Wl => "Wl",
            Half::Wr => "Wr",
        }
    }

    /// Board spot name of this half (`NNW` = `Nl`, `NNE` = `Nr`, ...).
    pub const fn spot_name(self) -> &'static str {
        match self {
            Half::Nl => "NNW",
            Half::Nr => "NNE",
            Half::El => "ENE",
            Half::Er => "ESE",
            Half::Sl => "SSE",
            Half::Sr => "SSW",
            Half::Wl => "WSW",
            Half::Wr => "WNW",
        }
    }
}

impl FromStr for Half {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Half::ALL.into_iter().find(|h| h.name() == s).ok_or(())
    }
}

/// Quarter turns clockwise (0..=3). Serialised as degrees: 0, 90, 180, 270.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Rotation(u8);

impl Rotation {
    pub const R0: Rotation = Rotation(0);
    pub const ALL: [Rotation; 4] = [Rotation(0), Rotation(1), Rotation(2), Rotation(3)];

    pub const fn quarter_turns(q: u8) -> Rotation {
        Rotation(q & 3)
    }

    pub const fn quarters(self) -> u8 {
        self.0
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn degrees(self) -> u16 {
        self.0 as u16 * 90
    }

    pub const fn from_degrees(d: i64) -> Option<Rotation> {
        match d {
            0 => Some(Rotation(0)),
            90 => Some(Rotation(1)),
            180 => Some(Rotation(2)),
            270 => Some(Rotation(3)),
            _ => None,
        }
    }
}

impl Serialize for Rotation {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u16(self.degrees())
    }
}

impl<'de> Deserialize<'de> for Rotation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = i64::deserialize(d)?;
        Rotation::from_degrees(v)
            .ok_or_else(|| serde::de::Error::custom("rotation must be 0, 90, 180 or 270"))
    }
}

/// Where a figure stands on a tile, in board orientation (after rotation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Spot {
    /// The road, river or city at this side.
    Edge(Dir),
    /// The field on this half of a side.
    Half(Half),
    /// A feature at the centre (monastery, garden, abbey, lake).
    Center,
    /// A feature named by its index in the tile's catalog feature list (for features that
    /// touch no side, such as inner fields). Written as the catalog feature id.
    Feature(u8),
    /// A corner of the tile where four tiles meet (barns): 0 = `NE`, 1 = `SE`, 2 = `SW`,
    /// 3 = `NW`.
    Corner(u8),
}

/// Corner names, clockwise from the north-east.
pub const CORNERS: [&str; 4] = ["NE", "SE", "SW", "NW"];

/// The two halves that meet at corner `c` (board orientation).
pub const fn corner_halves(c: u8) -> [Half; 2] {
    [
        Half::from_index(2 * (c & 3) + 1),
        Half::from_index((2 * (c & 3) + 2) & 7),
    ]
}

/// The four cells that share corner `c` of cell `p`, each with the corner it meets there
/// (the cell itself first).
pub fn corner_cells(p: Pos, c: u8) -> [(Pos, u8); 4] {
    let (dx, dy) = match c & 3 {
        0 => (1, 1),
        1 => (1, -1),
        2 => (-1, -1),
        _ => (-1, 1),
    };
    // corner seen from the horizontal, vertical and diagonal neighbour
    let mirror_x = |c: u8| [3, 2, 1, 0][c as usize];
    let mirror_y = |c: u8| [1, 0, 3, 2][c as usize];
    let c = c & 3;
    [
        (p, c),
        (Pos::new(p.x + dx, p.y), mirror_x(c)),
        (Pos::new(p.x, p.y + dy), mirror_y(c)),
        (Pos::new(p.x + dx, p.y + dy), mirror_x(mirror_y(c))),
    ]
}

impl Spot {
    /// Parses the compass names (`N`, `NNE`, `C`, ...). Feature ids need the tile and are
    /// resolved by [`crate::catalog::TileType::parse_spot`].
    pub fn parse_compass(s: &str) -> Option<Spot> {
        if s == "C" {
            return Some(Spot::Center);
        }
        if let Ok(d) = s.parse::<Dir>() {
            return Some(Spot::Edge(d));
        }
        if let Some(c) = CORNERS.iter().position(|c| *c == s) {
            return Some(Spot::Corner(c as u8));
        }
        Half::ALL
            .into_iter()
            .find(|h| h.spot_name() == s)
            .map(Spot::Half)
    }

    pub fn compass_name(self) -> Option<&'static str> {
        match self {
            Spot::Edge(d) => Some(d.name()),
            Spot::Half(h) => Some(h.spot_name()),
            Spot::Center => Some("C"),
            Spot::Feature(_) => None,
            Spot::Corner(c) => Some(CORNERS[(c & 3) as usize]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_moves_sides_and_halves_clockwise() {
        let r1 = Rotation::quarter_turns(1);
        assert_eq!(Dir::N.rotate(r1), Dir::E);
        assert_eq!(Dir::W.rotate(r1), Dir::N);
        assert_eq!(Half::Nl.rotate(r1), Half::El);
        assert_eq!(Half::Er.rotate(r1), Half::Sr);
        assert_eq!(Half::Wr.rotate(r1), Half::Nr);
        for r in Rotation::ALL {
            for d in Dir::ALL {
                assert_eq!(d.rotate(r).unrotate(r), d);
                for h in d.halves() {
                    assert_eq!(h.rotate(r).unrotate(r), h);
                    // a half stays on the rotated side and keeps its l/r name
                    assert_eq!(h.rotate(r).side(), d.rotate(r));
                    assert_eq!(h.rotate(r).index() % 2, h.index() % 2);
                }
            }
            // four quarter turns are the identity
            let mut h = Half::Sl;
            for _ in 0..4 {
                h = h.rotate(r);
            }
            assert_eq!(h, Half::Sl);
        }
    }

    #[test]
    fn halves_meet_across_the_seam() {
        use Half::*;
        let pairs = [
            (Nl, Sr),
            (Nr, Sl),
            (El, Wr),
            (Er, Wl),
            (Sl, Nr),
            (Sr, Nl),
            (Wl, Er),
            (Wr, El),
        ];
        for (a, b) in pairs {
            assert_eq!(a.across(), b);
            assert_eq!(b.across(), a);
            assert_eq!(a.side().opposite(), b.side());
        }
        // meeting commutes with rotating both tiles together
        for r in Rotation::ALL {
            for h in Half::ALL {
                assert_eq!(h.rotate(r).across(), h.across().rotate(r));
            }
        }
    }

    #[test]
    fn neighbours_are_consistent() {
        let p = Pos::new(3, -2);
        for d in Dir::ALL {
            assert_eq!(p.step(d).step(d.opposite()), p);
        }
        assert_eq!(Pos::new(0, 0).step(Dir::N), Pos::new(0, 1));
        assert_eq!(Pos::new(0, 0).step(Dir::E), Pos::new(1, 0));
        let s = p.surrounding();
        for q in s {
            assert!((q.x - p.x).abs() <= 1 && (q.y - p.y).abs() <= 1 && q != p);
        }
        let mut u = s.to_vec();
        u.sort();
        u.dedup();
        assert_eq!(u.len(), 8);
    }

    #[test]
    fn spots_parse_and_print() {
        for name in [
            "N", "E", "S", "W", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW", "NNW", "C",
        ] {
            let s = Spot::parse_compass(name).expect("compass spot");
            assert_eq!(s.compass_name(), Some(name));
        }
        assert_eq!(Spot::parse_compass("NE"), Some(Spot::Corner(0)));
        assert_eq!(Spot::parse_compass("NW"), Some(Spot::Corner(3)));
        assert_eq!(Spot::parse_compass("NNNE"), None);
        assert_eq!(Spot::parse_compass("f1"), None);
        assert_eq!(Spot::parse_compass("NNE"), Some(Spot::Half(Half::Nr)));
        assert_eq!(Spot::parse_compass("WSW"), Some(Spot::Half(Half::Wl)));
    }

    #[test]
    fn corners_meet_four_cells() {
        assert_eq!(corner_halves(0), [Half::Nr, Half::El]);
        assert_eq!(corner_halves(1), [Half::Er, Half::Sl]);
        assert_eq!(corner_halves(2), [Half::Sr, Half::Wl]);
        assert_eq!(corner_halves(3), [Half::Wr, Half::Nl]);
        let p = Pos::new(2, -1);
        let cells = corner_cells(p, 0);
        assert_eq!(
            cells,
            [
                (p, 0),
                (Pos::new(3, -1), 3),
                (Pos::new(2, 0), 1),
                (Pos::new(3, 0), 2)
            ]
        );
        // every cell of a corner names the same meeting point: each sees it from its side
        for c in 0..4 {
            for (q, qc) in corner_cells(p, c) {
                let back = corner_cells(q, qc);
                let mut a: Vec<Pos> = back.iter().map(|x| x.0).collect();
                let mut b: Vec<Pos> = corner_cells(p, c).iter().map(|x| x.0).collect();
                a.sort();
                b.sort();
                assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn rotation_degrees_round_trip() {
        for r in Rotation::ALL {
            assert_eq!(Rotation::from_degrees(r.degrees() as i64), Some(r));
            let j = serde_json::to_string(&r).expect("ser");
            let back: Rotation = serde_json::from_str(&j).expect("de");
            assert_eq!(back, r);
        }
        assert!(serde_json::from_str::<Rotation>("45").is_err());
        assert!(serde_json::from_str::<Rotation>("360").is_err());
    }
}
