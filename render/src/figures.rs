//! Figure shapes: one silhouette per kind, so that kinds differ by shape and players by
//! colour (plus the seat number on the figure). Shapes are drawn around (0, 0) in units
//! where a follower is about 20 high.

use crate::palette;
use crate::svg::num;

/// Every shape the renderer can draw: the players' figures and the neutral pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Shape {
    Follower,
    BigFollower,
    Abbot,
    Mayor,
    Wagon,
    Builder,
    Pig,
    Barn,
    Mage,
    Witch,
    Ferry,
    Gold,
}

impl Shape {
    pub const ALL: [Shape; 12] = [
        Shape::Follower,
        Shape::BigFollower,
        Shape::Abbot,
        Shape::Mayor,
        Shape::Wagon,
        Shape::Builder,
        Shape::Pig,
        Shape::Barn,
        Shape::Mage,
        Shape::Witch,
        Shape::Ferry,
        Shape::Gold,
    ];
}

const MEEPLE: &str = "M0,-10 C2.2,-10 3.6,-8.4 3.6,-6.6 C3.6,-5.6 3.2,-4.9 2.8,-4.5 L8.6,-2.6 C10.4,-2 10.4,0.8 8.6,0.9 L4.4,0.6 L8.2,8.6 C8.6,9.6 8,10 7.2,10 L2.2,10 L0,5.6 L-2.2,10 L-7.2,10 C-8,10 -8.6,9.6 -8.2,8.6 L-4.4,0.6 L-8.6,0.9 C-10.4,0.8 -10.4,-2 -8.6,-2.6 L-2.8,-4.5 C-3.2,-4.9 -3.6,-5.6 -3.6,-6.6 C-3.6,-8.4 -2.2,-10 0,-10 Z";
const ABBOT: &str = "M0,-13 C2.6,-11 4.6,-9 4.4,-5.6 C4.3,-4.6 4.6,-3.8 5.2,-3 L8.4,8.4 C8.8,9.6 8.2,10 7.2,10 L-7.2,10 C-8.2,10 -8.8,9.6 -8.4,8.4 L-5.2,-3 C-4.6,-3.8 -4.3,-4.6 -4.4,-5.6 C-4.6,-9 -2.6,-11 0,-13 Z";
const ABBOT_FACE: &str = "M0,-8.6 C1.5,-8.6 2.3,-7.3 2.2,-5.8 C2,-4.8 1.2,-4.2 0,-4.2 C-1.2,-4.2 -2,-4.8 -2.2,-5.8 C-2.3,-7.3 -1.5,-8.6 0,-8.6 Z";
const HAT: &str = "M-3,-15.5 L3,-15.5 L3,-10.6 L5,-10.6 L5,-8.9 L-5,-8.9 L-5,-10.6 L-3,-10.6 Z";
const HAMMER: &str = "M8.8,0.2 L11.8,-9.6 M9.2,-11.6 L14.6,-9.8 L13.8,-7.6 L8.4,-9.4 Z";
const WAGON: &str = "M-11,-7 L11,-7 L9.5,2 L-9.5,2 Z M-11,-7 L-13,-10";
const PIG_BODY: &str = "M-9,-5 C-4,-8.5 5,-8.5 8,-5 C10.5,-7.5 14.5,-5.5 14,-2 C13.6,1 11.5,2 9.6,2.2 C8.6,4 6.5,5 4,5.4 L4.4,8.8 L1.6,8.8 L1.2,5.8 L-4.2,5.8 L-4.6,8.8 L-7.4,8.8 L-7.4,4.6 C-10,3.4 -11.2,1 -11,-1.6 C-12.6,-2 -13.6,-3.6 -12.6,-4.8 C-11.8,-5.6 -10.4,-5 -9,-5 Z";
const PIG_EAR: &str = "M9,-5.6 L10,-9.4 L12.2,-6.4 Z";
const BARN: &str = "M-10,10 L-10,-1.5 L0,-10 L10,-1.5 L10,10 Z";
const BARN_DOOR: &str = "M-3.5,10 L-3.5,5.5 L3.5,5.5 L3.5,10 Z";
const MAGE: &str =
    "M0,-16 L4.6,-5.2 L7.8,9.2 C8,9.8 7.6,10 7,10 L-7,10 C-7.6,10 -8,9.8 -7.8,9.2 L-4.6,-5.2 Z";
const MAGE_BRIM: &str = "M-6.6,-5.6 L6.6,-5.6";
const WITCH: &str = "M-1.4,-16 L4.2,-6 L7.6,9.2 C7.8,9.8 7.4,10 6.8,10 L-6.8,10 C-7.4,10 -7.8,9.8 -7.6,9.2 L-4.2,-6 C-3.4,-9.6 -2.8,-13.6 -1.4,-16 Z";
const BROOM: &str = "M-11,9 L9,-6 M-11,9 L-14,12 M-11,9 L-12.6,12.8 M-11,9 L-14.4,10.4";
const BOAT: &str = "M-12,-1 L12,-1 L8.4,5 L-8.4,5 Z";
const SAIL: &str = "M0,-1 L0,-12 L7.4,-3 Z";
const INGOT: &str = "M-7,3 L7,3 L5,-3 L-5,-3 Z";

fn path(d: &str, fill: &str, stroke: &str, w: f64) -> String {
    format!(
        "<path d=\"{d}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>",
        num(w)
    )
}

fn halo(d: &str, w: f64) -> String {
    format!(
        "<path d=\"{d}\" fill=\"#FFFFFF\" stroke=\"#FFFFFF\" stroke-width=\"{}\" stroke-linejoin=\"round\" fill-opacity=\"0.85\" stroke-opacity=\"0.85\"/>",
        num(w)
    )
}

/// SVG of `shape` centred on (`x`, `y`) at scale `k` (1 = follower about 20 units high),
/// filled with `fill`; `label` is a seat number shown on the figure with colour `ink`.
pub fn figure(
    shape: Shape,
    x: f64,
    y: f64,
    k: f64,
    fill: &str,
    label: Option<(i64, &str)>,
) -> String {
    let o = palette::OUTLINE;
    let (k, mut body) = match shape {
        Shape::Follower => (k, halo(MEEPLE, 3.2) + &path(MEEPLE, fill, o, 1.1)),
        Shape::BigFollower => (k * 1.35, halo(MEEPLE, 3.0) + &path(MEEPLE, fill, o, 0.9)),
        Shape::Abbot => (
            k,
            halo(ABBOT, 3.2)
                + &path(ABBOT, fill, o, 1.1)
                + &path(ABBOT_FACE, "#3A2E24", o, 0.5)
                + &path("M-5.6,1.2 L5.6,1.2", "none", o, 1.0),
        ),
        Shape::Mayor => (
            k * 1.1,
            halo(MEEPLE, 3.2)
                + &halo(HAT, 3.2)
                + &path(MEEPLE, fill, o, 1.1)
                + &path(HAT, "#2B2B2B", o, 0.8),
        ),
        Shape::Wagon => (
            k,
            halo(WAGON, 3.2)
                + "<circle cx=\"-5.6\" cy=\"5\" r=\"5.4\" fill=\"#FFFFFF\" fill-opacity=\"0.85\"/><circle cx=\"5.6\" cy=\"5\" r=\"5.4\" fill=\"#FFFFFF\" fill-opacity=\"0.85\"/>"
                + &path(WAGON, fill, o, 1.1)
                + &format!(
                    "<circle cx=\"-5.6\" cy=\"5\" r=\"3.8\" fill=\"{fill}\" stroke=\"{o}\" stroke-width=\"1.1\"/><circle cx=\"5.6\" cy=\"5\" r=\"3.8\" fill=\"{fill}\" stroke=\"{o}\" stroke-width=\"1.1\"/><circle cx=\"-5.6\" cy=\"5\" r=\"1\" fill=\"{o}\"/><circle cx=\"5.6\" cy=\"5\" r=\"1\" fill=\"{o}\"/>"
                ),
        ),
        Shape::Builder => (
            k,
            halo(MEEPLE, 3.2)
                + &halo(HAMMER, 3.2)
                + &path(HAMMER, "#7A5A3A", o, 1.0)
                + &path(MEEPLE, fill, o, 1.1),
        ),
        Shape::Pig => (
            k,
            halo(PIG_BODY, 3.2)
                + &path(PIG_BODY, fill, o, 1.1)
                + &path(PIG_EAR, fill, o, 0.9)
                + &format!("<circle cx=\"10.6\" cy=\"-3.2\" r=\"0.9\" fill=\"{o}\"/>")
                + &path("M-11,-1.6 C-12.6,-1 -13,0.6 -11.6,1", "none", o, 0.8),
        ),
        Shape::Barn => (
            k,
            halo(BARN, 3.2) + &path(BARN, fill, o, 1.1) + &path(BARN_DOOR, "#5A3A22", o, 0.8),
        ),
        Shape::Mage => (
            k,
            halo(MAGE, 3.2)
                + &path(MAGE, fill, o, 1.1)
                + &path(MAGE_BRIM, "none", o, 1.2)
                + &path(
                    "M0,-1 L1.1,1.6 L3.8,1.8 L1.7,3.5 L2.4,6.2 L0,4.7 L-2.4,6.2 L-1.7,3.5 L-3.8,1.8 L-1.1,1.6 Z",
                    "#F0E442",
                    o,
                    0.5,
                ),
        ),
        Shape::Witch => (
            k,
            halo(BROOM, 3.4)
                + &halo(WITCH, 3.2)
                + &path(BROOM, "none", "#7A5A3A", 1.6)
                + &path(WITCH, fill, o, 1.1)
                + &path("M-6.8,-6.2 L7,-6.2", "none", o, 1.4),
        ),
        Shape::Ferry => (
            k,
            halo(BOAT, 3.2)
                + &halo(SAIL, 3.2)
                + &path(BOAT, fill, o, 1.1)
                + &path(SAIL, "#FFFFFF", o, 0.9),
        ),
        Shape::Gold => (
            k,
            halo(INGOT, 3.2)
                + &path(INGOT, palette::GOLD, palette::GOLD_DARK, 1.1)
                + &path("M-3.6,-1.4 L2,-1.4", "none", "#FFF3B0", 0.9),
        ),
    };
    if let Some((n, ink)) = label {
        let (ly, lh) = match shape {
            Shape::Pig => (0.0, 6.0),
            Shape::Wagon => (-2.6, 6.0),
            Shape::Barn => (-0.5, 6.0),
            Shape::Gold => (-9.0, 6.0),
            Shape::Abbot => (2.6, 6.0),
            _ => (0.6, 5.6),
        };
        body.push_str(&crate::glyphs::number(n, 0.0, ly, lh, ink, None));
    }
    format!(
        "<g transform=\"translate({} {}) scale({})\">{body}</g>",
        num(x),
        num(y),
        num(k)
    )
}
