//! `tilepost replay FILE`: replays an exported game log through the engine and prints
//! the final state as JSON.
//!
//! The file is the export of a finished game (`GET /v1/games/{id}/export`: an object
//! whose `events` are the stored events), or a bare JSON array of stored events, each
//! `{"type", "version", "payload"}` (the payload as an object or as a JSON string; `seq`
//! and `at` may come along), in log order. A game's events feed is not such a log (it
//! hides the seed), and neither is the export of a running game: that one is refused with a
//! message saying so.

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

/// Replays the log in `text` and renders the final state.
pub fn replay_text(text: &str) -> Result<Value, String> {
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
