//! Paging parameters of every list: `limit` (1 to 200, default 50) and the opaque
//! `cursor`, which encodes the sort key of the last row of the previous page (the store
//! continues after it in the query). A cursor is base64url of `kind:field:...`; a
//! cursor that does not decode to a key of the list it is given to is `400
//! validation-failed`.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use super::error::ApiError;
use crate::store::{BoardKey, GameKey};

/// Page size when the request gives none.
pub const DEFAULT_LIMIT: i64 = 50;
/// The largest page.
pub const MAX_LIMIT: i64 = 200;

/// Checks `limit` (default 50).
pub fn limit(l: Option<i64>) -> Result<i64, ApiError> {
    let l = l.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&l) {
        return Err(ApiError::validation("limit", format!("1 to {MAX_LIMIT}")));
    }
    Ok(l)
}

fn encode(kind: &str, fields: &[String]) -> String {
    let mut s = kind.to_string();
    for f in fields {
        s.push(':');
        s.push_str(f);
    }
    URL_SAFE_NO_PAD.encode(s)
}

/// The fields of a cursor of `kind` with `n` fields (the last may contain `:`).
fn decode(c: &str, kind: &str, n: usize) -> Result<Vec<String>, ApiError> {
    let bad = || ApiError::validation("cursor", "not a cursor of this list");
    let raw = URL_SAFE_NO_PAD.decode(c).map_err(|_| bad())?;
    let s = String::from_utf8(raw).map_err(|_| bad())?;
    let mut parts = s.splitn(n + 1, ':');
    if parts.next() != Some(kind) {
        return Err(bad());
    }
    let fields: Vec<String> = parts.map(str::to_string).collect();
    if fields.len() != n {
        return Err(bad());
    }
    Ok(fields)
}

fn number(s: &str) -> Result<i64, ApiError> {
    s.parse()
        .map_err(|_| ApiError::validation("cursor", "not a cursor of this list"))
}

/// The game list's cursor: `(group, k1, k2, id)`.
pub fn game_cursor(k: &GameKey) -> String {
    encode(
        "g1",
        &[
            k.group.to_string(),
            k.k1.to_string(),
            k.k2.to_string(),
            k.id.clone(),
        ],
    )
}

pub fn parse_game_cursor(c: &str) -> Result<GameKey, ApiError> {
    let f = decode(c, "g1", 4)?;
    let group: u8 = f[0]
        .parse()
        .ok()
        .filter(|g| *g <= 3)
        .ok_or_else(|| ApiError::validation("cursor", "not a cursor of this list"))?;
    Ok(GameKey {
        group,
        k1: number(&f[1])?,
        k2: number(&f[2])?,
        id: f[3].clone(),
    })
}

/// A cursor holding one number (`seq` of the history, `n` of the chat) of list `kind`.
pub fn number_cursor(kind: &str, n: i64) -> String {
    encode(kind, &[n.to_string()])
}

pub fn parse_number_cursor(c: &str, kind: &str) -> Result<i64, ApiError> {
    number(&decode(c, kind, 1)?[0])
}

/// A cursor of a list ordered by a number and an id (`kind`: the list's).
pub fn pair_cursor(kind: &str, k: &(i64, String)) -> String {
    encode(kind, &[k.0.to_string(), k.1.clone()])
}

pub fn parse_pair_cursor(c: &str, kind: &str) -> Result<(i64, String), ApiError> {
    let f = decode(c, kind, 2)?;
    Ok((number(&f[0])?, f[1].clone()))
}

/// The delivery list's cursor: `(created_at, id)`.
pub fn delivery_cursor(k: &(i64, String)) -> String {
    pair_cursor("d1", k)
}

pub fn parse_delivery_cursor(c: &str) -> Result<(i64, String), ApiError> {
    parse_pair_cursor(c, "d1")
}

/// The personal token list's cursor: `(created_at, id)`.
pub fn token_cursor(k: &(i64, String)) -> String {
    pair_cursor("t1", k)
}

pub fn parse_token_cursor(c: &str) -> Result<(i64, String), ApiError> {
    parse_pair_cursor(c, "t1")
}

/// The push subscription list's cursor: `(created_at, id)`.
pub fn push_cursor(k: &(i64, String)) -> String {
    pair_cursor("p1", k)
}

pub fn parse_push_cursor(c: &str) -> Result<(i64, String), ApiError> {
    parse_pair_cursor(c, "p1")
}

/// The leaderboard's cursor: the rating (its exact bits) and the user id.
pub fn board_cursor(k: &BoardKey) -> String {
    pair_cursor("b1", &(k.rating.to_bits() as i64, k.user_id.clone()))
}

pub fn parse_board_cursor(c: &str) -> Result<BoardKey, ApiError> {
    let (bits, user_id) = parse_pair_cursor(c, "b1")?;
    let rating = f64::from_bits(bits as u64);
    if !rating.is_finite() {
        return Err(ApiError::validation("cursor", "not a cursor of this list"));
    }
    Ok(BoardKey { rating, user_id })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_refuse_other_lists() {
        let k = GameKey {
            group: 2,
            k1: -5,
            k2: i64::MAX,
            id: "a:b".into(),
        };
        assert_eq!(parse_game_cursor(&game_cursor(&k)).unwrap(), k);
        let e = number_cursor("e1", 7);
        assert_eq!(parse_number_cursor(&e, "e1").unwrap(), 7);
        assert!(parse_number_cursor(&e, "c1").is_err());
        assert!(parse_game_cursor(&e).is_err());
        assert!(parse_game_cursor("zzz").is_err());
        assert!(parse_game_cursor(&URL_SAFE_NO_PAD.encode("g1:9:1:2:x")).is_err());
        let d = (12, "id".to_string());
        assert_eq!(parse_delivery_cursor(&delivery_cursor(&d)).unwrap(), d);
        assert!(limit(Some(0)).is_err());
        assert!(limit(Some(201)).is_err());
        assert_eq!(limit(None).unwrap(), 50);
    }
}
