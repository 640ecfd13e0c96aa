//! A tiny stroke font for digits, drawn as paths so that pictures need no font files
//! and look the same in every viewer and in the built-in rasteriser.

use crate::svg::num;

/// Strokes of digit `d` in a box 6 wide and 10 high (origin top left).
fn strokes(d: u8) -> &'static str {
    match d {
        0 => "M1,0 L5,0 Q6,0 6,1.5 L6,8.5 Q6,10 5,10 L1,10 Q0,10 0,8.5 L0,1.5 Q0,0 1,0 Z",
        1 => "M1,2.2 L3.6,0 L3.6,10 M1.2,10 L6,10",
        2 => "M0.2,2.6 Q0.6,0 3,0 Q6,0 6,2.8 Q6,5 0,10 L6.2,10",
        3 => "M0.2,1.2 Q2,0 3.4,0 Q6,0 6,2.4 Q6,4.6 2.6,4.8 Q6.2,5 6.2,7.4 Q6.2,10 3,10 Q1.2,10 0,8.8",
        4 => "M4.6,10 L4.6,0 L0,7 L6.4,7",
        5 => "M5.8,0 L0.8,0 L0.3,4.6 Q1.6,3.8 3.2,3.8 Q6.2,3.8 6.2,6.9 Q6.2,10 3,10 Q1.2,10 0,8.8",
        6 => "M5.4,0.6 Q4.4,0 3.4,0 Q0,0 0,5.6 Q0,10 3,10 Q6,10 6,7 Q6,4.2 3.1,4.2 Q0.8,4.2 0.1,6",
        7 => "M0,0 L6.2,0 L2.2,10",
        10 => "M0.6,5.4 L5.4,5.4",
        8 => "M3,0 Q0.4,0 0.4,2.4 Q0.4,4.6 3,4.8 Q6,5 6,7.4 Q6,10 3,10 Q0,10 0,7.4 Q0,5 3,4.8 Q5.6,4.6 5.6,2.4 Q5.6,0 3,0 Z",
        _ => "M0.6,9.4 Q1.6,10 2.6,10 Q6,10 6,4.4 Q6,0 3,0 Q0,0 0,3 Q0,5.8 2.9,5.8 Q5.2,5.8 5.9,4",
    }
}

/// SVG for the decimal number `n` centred on (`cx`, `cy`) with digit height `h`: a light
/// halo under dark strokes (or the given colours).
pub fn number(n: i64, cx: f64, cy: f64, h: f64, ink: &str, halo: Option<&str>) -> String {
    let digits: Vec<u8> = n
        .to_string()
        .bytes()
        .map(|b| if b == b'-' { 10 } else { b - b'0' })
        .collect();
    let k = h / 10.0;
    let advance = 8.4 * k;
    let width = advance * digits.len() as f64 - 2.4 * k;
    let x0 = cx - width / 2.0;
    let y0 = cy - h / 2.0;
    let mut d = String::new();
    for (i, dg) in digits.iter().enumerate() {
        let ox = x0 + advance * i as f64;
        d.push_str(&transform_glyph(strokes(*dg), ox, y0, k));
        d.push(' ');
    }
    let d = d.trim_end();
    let w = 1.7 * k;
    let mut s = String::new();
    if let Some(halo) = halo {
        s.push_str(&format!(
            "<path d=\"{d}\" fill=\"none\" stroke=\"{halo}\" stroke-width=\"{}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
            num(w + 2.4 * k)
        ));
    }
    s.push_str(&format!(
        "<path d=\"{d}\" fill=\"none\" stroke=\"{ink}\" stroke-width=\"{}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
        num(w)
    ));
    s
}

/// Maps the glyph path data (letters and coordinate pairs) into place.
fn transform_glyph(src: &str, ox: f64, oy: f64, k: f64) -> String {
    let mut out = String::with_capacity(src.len() * 2);
    for tok in src.split(' ') {
        let (cmd, rest) = match tok.chars().next() {
            Some(c) if c.is_ascii_alphabetic() => (Some(c), &tok[1..]),
            _ => (None, tok),
        };
        if !out.is_empty() {
            out.push(' ');
        }
        if let Some(c) = cmd {
            out.push(c);
        }
        if rest.is_empty() {
            continue;
        }
        let mut it = rest.split(',');
        let x: f64 = it.next().and_then(|v| v.parse().ok()).unwrap_or(0.0);
        let y: f64 = it.next().and_then(|v| v.parse().ok()).unwrap_or(0.0);
        out.push_str(&num(ox + x * k));
        out.push(',');
        out.push_str(&num(oy + y * k));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_digit_has_strokes() {
        for d in 0..10u8 {
            assert!(strokes(d).starts_with('M'));
        }
        let s = number(-1234567890, 50.0, 50.0, 10.0, "#000", Some("#fff"));
        assert_eq!(s.matches("<path").count(), 2);
        assert!(!s.contains("NaN"));
    }
}
