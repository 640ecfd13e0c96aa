//! Exact points: every score, share and tie-break value is an integer count of 1/120
//! of a point, so rank points shared by up to 6 tied players, halves (draws,
//! Sonneborn-Berger) and averages over up to 5 opponents stay exact and compare
//! without rounding.

use serde::{Deserialize, Serialize};

/// Points in units of 1/120.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Points(pub i64);

impl Points {
    /// Units per point.
    pub const UNIT: i64 = 120;
    pub const ZERO: Points = Points(0);

    pub fn whole(p: i64) -> Points {
        Points(p * Points::UNIT)
    }

    pub fn from_halves(h: i64) -> Points {
        Points(h * Points::UNIT / 2)
    }

    /// For display only.
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / Points::UNIT as f64
    }
}

impl std::ops::Add for Points {
    type Output = Points;
    fn add(self, o: Points) -> Points {
        Points(self.0 + o.0)
    }
}

impl std::ops::AddAssign for Points {
    fn add_assign(&mut self, o: Points) {
        self.0 += o.0;
    }
}

impl std::ops::Sub for Points {
    type Output = Points;
    fn sub(self, o: Points) -> Points {
        Points(self.0 - o.0)
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(it: I) -> Points {
        Points(it.map(|p| p.0).sum())
    }
}

impl std::fmt::Display for Points {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let whole = self.0.div_euclid(Points::UNIT);
        let rest = self.0.rem_euclid(Points::UNIT);
        if rest == 0 {
            write!(f, "{whole}")
        } else {
            write!(f, "{}", self.as_f64())
        }
    }
}
