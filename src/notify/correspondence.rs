//! Notifications of correspondence play: `game.deadline_near` (a reminder before a
//! deadline), `game.timed_out` (a player missed a deadline and left the game) and
//! `game.invited` (a seat is reserved for the recipient). Built like the turn
//! notifications, with everything an email needs.

use serde_json::json;

use super::{escape, links, row, short};
use crate::clock::rfc3339;
use crate::store::{OutboxRow, SeatInfo};

/// `game.deadline_near` for the player whose decision is pending (if they want turn
/// notifications).
pub fn deadline_near(
    to: &SeatInfo,
    game_id: &str,
    deadline: i64,
    public_url: &str,
    now: i64,
) -> Option<OutboxRow> {
    if !to.notify_turn {
        return None;
    }
    let l = links(public_url, game_id);
    let game_link = l["game"].as_str().unwrap_or_default().to_string();
    let when = rfc3339(deadline);
    let hours = ((deadline - now).max(0) + 3_599_999) / 3_600_000;
    let text = format!(
        "Hello {},\n\nYour move in tilepost game {} is due by {when} (in about {hours} h). \
         If you miss it you leave the game.\nPlay: {game_link}\n",
        to.username,
        short(game_id)
    );
    let html = format!(
        "<p>Hello {},</p><p>Your move is due by {} (in about {hours} h). If you miss it you leave the game.</p><p><a href=\"{}\">Play</a></p>",
        escape(&to.username),
        escape(&when),
        escape(&game_link)
    );
    Some(row(
        "game.deadline_near",
        to,
        game_id,
        json!({
            "game_id": game_id,
            "deadline": when,
            "recipient": {"email": to.email, "name": to.username},
            "subject": format!("Your move in tilepost game {} is due soon", short(game_id)),
            "text": text,
            "html": html,
            "links": l,
        }),
        now,
    ))
}

/// `game.timed_out` for the player who missed the deadline (always sent: it changes
/// their standing).
pub fn timed_out(
    to: &SeatInfo,
    game_id: &str,
    deadline: i64,
    public_url: &str,
    now: i64,
) -> OutboxRow {
    let l = links(public_url, game_id);
    let game_link = l["game"].as_str().unwrap_or_default().to_string();
    let when = rfc3339(deadline);
    let text = format!(
        "Hello {},\n\nYou missed the deadline ({when}) in tilepost game {}: you have left \
         the game and rank last. The others play on.\nThe board: {game_link}\n",
        to.username,
        short(game_id)
    );
    let html = format!(
        "<p>Hello {},</p><p>You missed the deadline ({}): you have left the game and rank last. The others play on.</p><p><a href=\"{}\">The board</a></p>",
        escape(&to.username),
        escape(&when),
        escape(&game_link)
    );
    row(
        "game.timed_out",
        to,
        game_id,
        json!({
            "game_id": game_id,
            "seat": to.seat,
            "deadline": when,
            "recipient": {"email": to.email, "name": to.username},
            "subject": format!("You timed out in tilepost game {}", short(game_id)),
            "text": text,
            "html": html,
            "links": l,
        }),
        now,
    )
}

/// `game.invited` for a user for whom a seat is reserved.
pub fn invited(
    to: &SeatInfo,
    game_id: &str,
    inviter: &str,
    public_url: &str,
    now: i64,
) -> OutboxRow {
    let l = links(public_url, game_id);
    let base = public_url.trim_end_matches('/');
    let accept = format!("{base}/v1/games/{game_id}/invitation/accept");
    let decline = format!("{base}/v1/games/{game_id}/invitation/decline");
    let game_link = l["game"].as_str().unwrap_or_default().to_string();
    let text = format!(
        "Hello {},\n\n{inviter} invites you to tilepost game {}.\nThe game: {game_link}\n\
         Accept: POST {accept}\nDecline: POST {decline}\n",
        to.username,
        short(game_id)
    );
    let html = format!(
        "<p>Hello {},</p><p>{} invites you to a tilepost game.</p><p><a href=\"{}\">The game</a></p>",
        escape(&to.username),
        escape(inviter),
        escape(&game_link)
    );
    row(
        "game.invited",
        to,
        game_id,
        json!({
            "game_id": game_id,
            "inviter": inviter,
            "recipient": {"email": to.email, "name": to.username},
            "subject": format!("{inviter} invites you to a tilepost game"),
            "text": text,
            "html": html,
            "links": {"game": game_link, "accept": accept, "decline": decline},
        }),
        now,
    )
}
