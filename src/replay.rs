//! `tilepost replay FILE`: replays an exported game log through the engine and prints
//! the final state as JSON.
//!
//! The file is the export of a finished game (`GET /v1/games/{id}/export`: an object
//! whose `events` are the stored events), or a bare JSON array of stored events, each
//! `{"type", "version", "payload"}` (the payload as an object or as a JSON string; `seq`
//! and `at` may come along), in log order. A game's events feed is not such a log (it
//! hides the seed), and neither is the export of a running game: that one is refused with a
//! message saying so.
//!
//! It may also be the **game notation** (`GET /v1/games/{id}/export?format=text`): `#`
//! comment lines (a header: the game, its players, whether it is complete), then one line
//! per stored event, `seq. type key=value ...`, each value a JSON number, `true`,
//! `false`, `null`, a word (a string with no space, quote or `=` that reads as nothing
//! else: `base/D`), or JSON (a quoted string, an object, a list). An event stored with a
//! version other than 1 writes it after its type (`type@2`).

use serde::Deserialize;
use serde_json::{json, Value};
use tilepost_engine::{catalog, Event, Game};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredEvent {
    #[serde(default)]
    seq: Option<i64>,
    #[serde(rename = "type")]
    kind: String,
    version: u32,
    payload: Value,
    #[serde(default)]
    at: Option<String>,
}

/// An export (other fields are informative) or a bare log.
#[derive(Deserialize)]
#[serde(untagged)]
enum LogFile {
    Log(Vec<StoredEvent>),
    Export {
        events: Vec<StoredEvent>,
        /// `false` in the export of a game still running (its seed left out).
        #[serde(default)]
        complete: Option<bool>,
    },
}

/// Why a log whose seed was left out cannot be replayed.
const NO_SEED: &str = "the game is not over: its export leaves out the seed (hidden \
information while the game runs), so it cannot be replayed; export it again once the game \
has ended";

/// What the notation's header says.
pub struct Header {
    pub game_id: String,
    /// Usernames by seat.
    pub players: Vec<String>,
    /// The game is over and the log complete (the seed included).
    pub complete: bool,
}

/// A value as the notation writes it: a bare word where that reads back the same.
fn word(v: &Value) -> String {
    if let Value::String(s) = v {
        let plain = !s.is_empty()
            && !s.contains(|c: char| c.is_whitespace() || c == '"' || c == '=' || c == '#')
            && !s.starts_with(['{', '[', '-', '+', '.'])
            && !s.starts_with(|c: char| c.is_ascii_digit())
            && !matches!(s.as_str(), "true" | "false" | "null");
        if plain {
            return s.clone();
        }
    }
    v.to_string()
}

/// The game notation of a log: `(seq, type, version, payload)` per event.
pub fn notation(h: &Header, events: &[(i64, &str, u32, &Value)]) -> String {
    let mut out = format!(
        "# tilepost game {}\n# players: {}\n# {}\n",
        h.game_id,
        h.players
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{i} {n}"))
            .collect::<Vec<_>>()
            .join(", "),
        if h.complete {
            "complete: the game is over (`tilepost replay FILE` replays it)"
        } else {
            "incomplete: the game runs, its seed is left out"
        }
    );
    for (seq, kind, version, payload) in events {
        out.push_str(&format!("{seq}. {kind}"));
        if *version != 1 {
            out.push_str(&format!("@{version}"));
        }
        if let Some(m) = payload.as_object() {
            for (k, v) in m {
                out.push_str(&format!(" {k}={}", word(v)));
            }
        }
        out.push('\n');
    }
    out
}

/// Reads the notation back into stored events.
fn parse_notation(text: &str) -> Result<Vec<StoredEvent>, String> {
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| format!("line {}: {why}", n + 1);
        let (seq, rest) = line
            .split_once(". ")
            .ok_or_else(|| bad("expected `seq. type`"))?;
        let seq: i64 = seq.trim().parse().map_err(|_| bad("the sequence number"))?;
        let rest = rest.trim_start();
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (head, mut rest) = rest.split_at(end);
        let (kind, version) = match head.split_once('@') {
            Some((k, v)) => (k, v.parse::<u32>().map_err(|_| bad("the version"))?),
            None => (head, 1),
        };
        let mut payload = serde_json::Map::new();
        loop {
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            let (key, after) = rest
                .split_once('=')
                .ok_or_else(|| bad("expected key=value"))?;
            if key.contains(char::is_whitespace) || key.is_empty() {
                return Err(bad("expected key=value"));
            }
            let (value, left) = value_at(after);
            payload.insert(key.to_string(), value);
            rest = left;
        }
        rows.push(StoredEvent {
            seq: Some(seq),
            kind: kind.to_string(),
            version,
            payload: Value::Object(payload),
            at: None,
        });
    }
    if rows.is_empty() {
        return Err("no event in the notation".into());
    }
    Ok(rows)
}

/// The value at the start of `s` (JSON, or a bare word up to the next space) and what
/// follows it.
fn value_at(s: &str) -> (Value, &str) {
    let bare = s.find(char::is_whitespace).unwrap_or(s.len());
    let json_start =
        s.starts_with(['{', '[', '"', '-']) || s.starts_with(|c: char| c.is_ascii_digit());
    let word_json = matches!(&s[..bare], "true" | "false" | "null");
    if json_start || word_json {
        let mut it = serde_json::Deserializer::from_str(s).into_iter::<Value>();
        if let Some(Ok(v)) = it.next() {
            let used = it.byte_offset();
            return (v, &s[used..]);
        }
    }
    (Value::String(s[..bare].to_string()), &s[bare..])
}

/// Replays the log in `text` and renders the final state.
pub fn replay_text(text: &str) -> Result<Value, String> {
    let trimmed = text.trim_start();
    if !trimmed.starts_with(['{', '[']) {
        let rows = parse_notation(text)?;
        return replay_rows(&rows);
    }
    let rows = match serde_json::from_str::<LogFile>(text) {
        Ok(LogFile::Export {
            complete: Some(false),
            ..
        }) => return Err(NO_SEED.into()),
        Ok(LogFile::Log(rows)) | Ok(LogFile::Export { events: rows, .. }) => rows,
        Err(_) => {
            return Err(
                "not an event log: expected an export object with `events` or an array of \
                 stored events"
                    .into(),
            )
        }
    };
    replay_rows(&rows)
}

fn replay_rows(rows: &[StoredEvent]) -> Result<Value, String> {
    let mut events = Vec::with_capacity(rows.len());
    for (i, r) in rows.iter().enumerate() {
        let payload = match &r.payload {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let _ = (&r.seq, &r.at);
        let seedless = r.kind == "game_created"
            && serde_json::from_str::<Value>(&payload)
                .is_ok_and(|p| p.is_object() && p.get("seed").is_none());
        if seedless {
            return Err(NO_SEED.into());
        }
        events.push(
            Event::decode(&r.kind, r.version, &payload).map_err(|e| format!("event {i}: {e}"))?,
        );
    }
    let game = Game::replay(&events).map_err(|e| e.to_string())?;
    let b = game.board();
    let tiles: Vec<Value> = b
        .tiles()
        .iter()
        .map(|t| {
            json!({"x": t.pos.x, "y": t.pos.y, "tile": catalog().get(t.tile).id, "rotation": t.rotation.degrees()})
        })
        .collect();
    let figures: Vec<Value> = b
        .figures
        .iter()
        .map(|f| {
            let (pos, spot) = b.figure_spot(f);
            let name = b
                .tile_at(pos)
                .map(|t| t.tile_type().spot_name(spot))
                .unwrap_or_default();
            json!({"seat": f.owner, "figure": f.kind.id(), "x": pos.x, "y": pos.y, "spot": name})
        })
        .collect();
    let players: Vec<Value> = game
        .players()
        .iter()
        .enumerate()
        .map(|(i, p)| json!({"seat": i, "score": p.score, "active": p.active}))
        .collect();
    let ranking: Vec<Value> = game
        .ranking()
        .iter()
        .map(|r| json!({"seat": r.player, "score": r.score, "rank": r.rank}))
        .collect();
    Ok(json!({
        "version": game.version(),
        "over": game.is_over(),
        "players": players,
        "board": tiles,
        "figures": figures,
        "tiles_left": game.tiles_left(),
        "ranking": ranking,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tilepost_engine::rng::Rng;
    use tilepost_engine::{Expansion, GameConfig, HouseRules};

    /// Over random games with every expansion (and house rules with hands): the
    /// notation of a log reads back to the same events, and replays to the same end as
    /// the JSON export.
    #[test]
    fn the_notation_reads_back_to_the_same_log() {
        let mut rng = Rng::new(9);
        for g in 0..12 {
            let mut rules = HouseRules::default();
            if g % 3 == 0 {
                rules = HouseRules::from_values(
                    &[("tiles_in_hand".to_string(), "2".to_string())].into(),
                )
                .expect("a house rule");
            }
            let config = GameConfig {
                players: 2 + (g % 3) as u8,
                expansions: Expansion::ALL
                    .into_iter()
                    .filter(|e| e.is_implemented() && (g % 2 == 0 || rng.below(2) == 0))
                    .collect(),
                tile_order: None,
                seed: rng.next_u64(),
                rules,
            };
            let Ok((mut game, first)) = Game::new(&config) else {
                continue;
            };
            let mut events = vec![first];
            while let Some(p) = game.pending() {
                let options = game.legal_actions();
                let a = &options[rng.below(options.len() as u64) as usize];
                events.push(game.play(p.player, a).expect("legal").event);
            }
            let stored: Vec<(i64, &str, u32, Value)> = events
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let (k, v, p) = e.encode();
                    (i as i64 + 1, k, v, serde_json::from_str(&p).expect("JSON"))
                })
                .collect();
            let lines: Vec<(i64, &str, u32, &Value)> =
                stored.iter().map(|(s, k, v, p)| (*s, *k, *v, p)).collect();
            let h = Header {
                game_id: format!("g{g}"),
                players: vec!["ann".into(), "b o b".into()],
                complete: true,
            };
            let text = notation(&h, &lines);
            let back = parse_notation(&text).expect("the notation reads");
            assert_eq!(back.len(), events.len());
            for (r, e) in back.iter().zip(&events) {
                let decoded = Event::decode(&r.kind, r.version, &r.payload.to_string())
                    .unwrap_or_else(|err| panic!("{err}: {}", r.payload));
                assert_eq!(&decoded, e);
            }
            let json = serde_json::to_string(
                &stored
                    .iter()
                    .map(|(s, k, v, p)| json!({"seq": s, "type": k, "version": v, "payload": p}))
                    .collect::<Vec<_>>(),
            )
            .expect("JSON");
            assert_eq!(replay_text(&text), replay_text(&json));
            assert!(replay_text(&text).is_ok_and(|v| v["over"] == true));
        }
        // what is not notation says where
        assert!(replay_text("1. place_tile x=").is_err());
        assert!(replay_text("one. place_tile")
            .unwrap_err()
            .contains("line 1"));
        assert!(replay_text("# nothing\n").is_err());
    }
}
