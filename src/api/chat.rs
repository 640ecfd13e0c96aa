//! A game's chat.

use actix_web::{get, post, web, HttpResponse};

use super::dto::*;
use super::error::{ApiError, Problem, ProblemCode};
use super::extract::{ApiJson, CurrentUser, GameId};
use super::load::load_data;
use super::AppState;
use crate::clock::rfc3339;
use crate::store::{ChatRow, GameData};

const MAX_CHAT_CHARS: usize = 1000;

pub async fn chat_messages(st: &AppState, data: &GameData) -> Result<Vec<ChatMessage>, ApiError> {
    Ok(st
        .store
        .chat_of(data.game.id.clone())
        .await?
        .into_iter()
        .map(|(r, username)| ChatMessage {
            seat: data
                .seats
                .iter()
                .find(|s| s.user_id == r.user_id)
                .map(|s| s.seat as u8),
            id: r.id,
            username,
            text: r.body,
            after_seq: r.after_seq,
            at: rfc3339(r.created_at),
        })
        .collect())
}

/// The messages that belong on a page of the events feed covering the events after
/// `after` up to `until` (the rest of the log when `None`).
pub async fn chat_between(
    st: &AppState,
    data: &GameData,
    after: i64,
    until: Option<i64>,
) -> Result<Vec<ChatMessage>, ApiError> {
    Ok(chat_messages(st, data)
        .await?
        .into_iter()
        .filter(|m| (after == 0 || m.after_seq > after) && until.is_none_or(|u| m.after_seq <= u))
        .collect())
}

/// A game's chat, oldest first (anyone who may read the game reads it).
#[utoipa::path(
    operation_id = "list_chat",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The messages", body = ChatPage),
        (status = 404, description = "No such game (`game-not-found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/chat")]
pub async fn list_chat(st: web::Data<AppState>, id: GameId) -> Result<HttpResponse, ApiError> {
    let data = load_data(&st, &id, false).await?;
    let messages = chat_messages(&st, &data).await?;
    Ok(HttpResponse::Ok().json(ChatPage {
        game_id: data.game.id,
        messages,
    }))
}

fn check_text(t: &str) -> Result<String, ApiError> {
    let t = t.trim();
    let n = t.chars().count();
    if n == 0 || n > MAX_CHAT_CHARS {
        return Err(ApiError::validation(
            "text",
            format!("1 to {MAX_CHAT_CHARS} characters"),
        ));
    }
    if t.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return Err(ApiError::validation(
            "text",
            "plain text: no control characters but line breaks and tabs",
        ));
    }
    Ok(t.to_string())
}

/// Write to a game's chat (seated players only).
#[utoipa::path(
    operation_id = "post_chat",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    request_body = ChatRequest,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "The message was posted", body = ChatMessage),
        (status = 400, description = "Invalid text (`validation-failed`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a player of this game (`not-a-player`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game (`game-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many chat messages this minute (`rate-limited`); `Retry-After` and `RateLimit-*` say when", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/chat")]
pub async fn post_chat(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: GameId,
    body: ApiJson<ChatRequest>,
) -> Result<HttpResponse, ApiError> {
    let text = check_text(&body.0.text)?;
    let data = load_data(&st, &id, false).await?;
    let seat = data
        .seats
        .iter()
        .find(|s| s.user_id == me.id)
        .ok_or_else(|| ApiError::new(ProblemCode::NotAPlayer, "only seated players write here"))?;
    let quota = super::limits::chat_quota(&st, &me.id).await?;
    let now = st.clock.now_ms();
    let row = ChatRow {
        id: uuid::Uuid::new_v4().to_string(),
        game_id: data.game.id.clone(),
        n: 0,
        user_id: me.id.clone(),
        body: text,
        after_seq: data.game.version,
        created_at: now,
    };
    st.store.add_chat(row.clone()).await?;

    let mut resp = HttpResponse::Created().json(ChatMessage {
        id: row.id,
        seat: Some(seat.seat as u8),
        username: seat.username.clone(),
        text: row.body,
        after_seq: row.after_seq,
        at: rfc3339(now),
    });
    quota.apply(&mut resp);
    Ok(resp)
}
