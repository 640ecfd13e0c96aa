//! Notifications: what to tell whom when a game moves on. This module builds the outbox
//! rows (Standard Webhooks body `{type, timestamp, data}`, with everything an email
//! needs); the store writes them in the move's transaction. Delivery (signed webhook
//! POSTs with retries) is the notify worker's job and lives here too once it exists.

pub mod correspondence;

use serde_json::json;

use crate::clock::rfc3339;
use crate::store::{OutboxRow, SeatInfo};

/// Links to a game for a message.
fn links(public_url: &str, game_id: &str) -> serde_json::Value {
    let base = public_url.trim_end_matches('/');
    json!({
        "game": format!("{base}/v1/games/{game_id}"),
        "actions": format!("{base}/v1/games/{game_id}/actions"),
        "placements": format!("{base}/v1/games/{game_id}/placements"),
        "moves": format!("{base}/v1/games/{game_id}/moves"),
        "events": format!("{base}/v1/games/{game_id}/events"),
    })
}

fn row(kind: &str, to: &SeatInfo, game_id: &str, data: serde_json::Value, now: i64) -> OutboxRow {
    let id = format!("msg_{}", uuid::Uuid::new_v4().simple());
    let body = json!({
        "type": kind,
        "timestamp": rfc3339(now),
        "data": data,
    });
    OutboxRow {
        id,
        kind: kind.to_string(),
        user_id: to.user_id.clone(),
        game_id: Some(game_id.to_string()),
        payload: body.to_string(),
        status: "pending".into(),
        attempts: 0,
        next_attempt_at: now,
        delivered_at: None,
        created_at: now,
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `game.turn_started` for the player whose decision is now pending (if they want it).
pub fn turn_started(
    to: &SeatInfo,
    game_id: &str,
    tile: Option<&str>,
    version: i64,
    public_url: &str,
    now: i64,
) -> Option<OutboxRow> {
    if !to.notify_turn {
        return None;
    }
    let mut l = links(public_url, game_id);
    let game_link = l["game"].as_str().unwrap_or_default().to_string();
    // pictures: the board at the recipient's moment, and the drawn tile
    let base = public_url.trim_end_matches('/');
    let board_png = format!("{base}/v1/games/{game_id}/board.png?version={version}");
    let tile_svg = tile.map(|t| format!("{base}/v1/tiles/{t}.svg"));
    l["board_png"] = json!(board_png);
    l["tile_svg"] = json!(tile_svg);
    let subject = format!("Your turn in tilepost game {}", short(game_id));
    let tile_line = tile.map(|t| format!("You drew {t}.")).unwrap_or_default();
    let text = format!(
        "Hello {},\n\nIt is your turn. {tile_line}\nSee the board and play: {game_link}\nThe board: {board_png}\n",
        to.username
    );
    let tile_img = tile_svg
        .as_deref()
        .map(|u| {
            format!(
                " <img src=\"{}\" alt=\"the drawn tile\" width=\"64\" height=\"64\">",
                escape(u)
            )
        })
        .unwrap_or_default();
    let html = format!(
        "<p>Hello {},</p><p>It is your turn. {}{tile_img}</p><p><img src=\"{}\" alt=\"the board\" style=\"max-width:100%\"></p><p><a href=\"{}\">See the board and play</a></p>",
        escape(&to.username),
        escape(&tile_line),
        escape(&board_png),
        escape(&game_link)
    );
    Some(row(
        "game.turn_started",
        to,
        game_id,
        json!({
            "game_id": game_id,
            "version": version,
            "tile": tile,
            "board_png": board_png,
            "tile_svg": tile_svg,
            "recipient": {"email": to.email, "name": to.username},
            "subject": subject,
            "text": text,
            "html": html,
            "links": l,
        }),
        now,
    ))
}

/// `game.finished` for every player who wants it, with the final scores.
pub fn finished(
    seats: &[SeatInfo],
    game_id: &str,
    ranking: &[(String, i32, u8)],
    public_url: &str,
    now: i64,
) -> Vec<OutboxRow> {
    let l = links(public_url, game_id);
    let game_link = l["game"].as_str().unwrap_or_default().to_string();
    let lines: Vec<String> = ranking
        .iter()
        .map(|(name, score, rank)| format!("{rank}. {name}: {score}"))
        .collect();
    seats
        .iter()
        .filter(|s| s.notify_finished)
        .map(|to| {
            let text = format!(
                "Hello {},\n\nThe game is over.\n{}\n\nThe board: {game_link}\n",
                to.username,
                lines.join("\n")
            );
            let html = format!(
                "<p>Hello {},</p><p>The game is over.</p><ol>{}</ol><p><a href=\"{}\">The board</a></p>",
                escape(&to.username),
                ranking
                    .iter()
                    .map(|(n, s, _)| format!("<li>{}: {s}</li>", escape(n)))
                    .collect::<String>(),
                escape(&game_link)
            );
            row(
                "game.finished",
                to,
                game_id,
                json!({
                    "game_id": game_id,
                    "recipient": {"email": to.email, "name": to.username},
                    "subject": format!("tilepost game {} is over", short(game_id)),
                    "text": text,
                    "html": html,
                    "ranking": ranking.iter().map(|(n, s, r)| json!({"username": n, "score": s, "rank": r})).collect::<Vec<_>>(),
                    "links": l,
                }),
                now,
            )
        })
        .collect()
}

fn short(id: &str) -> &str {
    id.get(..8).unwrap_or(id)
}
