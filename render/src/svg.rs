//! Small helpers to write SVG text deterministically: fixed number formatting (at most two
//! decimals, no exponent, no `-0`) and path data.

use std::fmt::Write;

use crate::geom::{Cmd, Path, P};

/// A number with at most two decimals, trailing zeros removed.
pub fn num(v: f64) -> String {
    let v = if v.is_finite() { v } else { 0.0 };
    let r = (v * 100.0).round() as i64;
    if r == 0 {
        return "0".to_string();
    }
    let neg = r < 0;
    let a = r.unsigned_abs();
    let (i, f) = (a / 100, a % 100);
    let mut s = String::with_capacity(8);
    if neg {
        s.push('-');
    }
    let _ = write!(s, "{i}");
    if f != 0 {
        if f % 10 == 0 {
            let _ = write!(s, ".{}", f / 10);
        } else {
            let _ = write!(s, ".{f:02}");
        }
    }
    s
}

fn pt(s: &mut String, a: P) {
    s.push_str(&num(a.x));
    s.push(',');
    s.push_str(&num(a.y));
}

/// SVG path data of `path`, every point mapped by `f`.
pub fn d_with(path: &Path, f: impl Fn(P) -> P) -> String {
    let mut s = String::with_capacity(path.0.len() * 16);
    for c in &path.0 {
        if !s.is_empty() {
            s.push(' ');
        }
        match *c {
            Cmd::M(a) => {
                s.push('M');
                pt(&mut s, f(a));
            }
            Cmd::L(a) => {
                s.push('L');
                pt(&mut s, f(a));
            }
            Cmd::Q(c, a) => {
                s.push('Q');
                pt(&mut s, f(c));
                s.push(' ');
                pt(&mut s, f(a));
            }
            Cmd::C(c1, c2, a) => {
                s.push('C');
                pt(&mut s, f(c1));
                s.push(' ');
                pt(&mut s, f(c2));
                s.push(' ');
                pt(&mut s, f(a));
            }
            Cmd::Z => s.push('Z'),
        }
    }
    s
}

/// SVG path data of `path` as it is.
pub fn d(path: &Path) -> String {
    d_with(path, |a| a)
}

/// Escapes text for an XML attribute or element.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            _ => o.push(ch),
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(0.0), "0");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(-3.14759), "-3.15");
        assert_eq!(num(0.05), "0.05");
        assert_eq!(num(f64::NAN), "0");
    }
}
