//! A game's chat.

use actix_web::{get, post, web, HttpResponse};

use super::dto::*;
use super::error::{ApiError, ProblemCode};
use super::extract::{ApiJson, CurrentUser, GameId, MaybeUser};
use super::load::load_data;
use super::AppState;
use crate::clock::rfc3339;
use crate::store::{ChatOrder, ChatRow, GameData};

const MAX_CHAT_CHARS: usize = 1000;

fn chat_message(data: &GameData, r: ChatRow, username: String) -> ChatMessage {
    ChatMessage {
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
    }
}

/// The reference to a game's chat that the history and the export carry.
pub async fn chat_link(st: &AppState, game_id: &str) -> Result<ChatLink, ApiError> {
    Ok(ChatLink {
        count: st.store.chat_count(game_id.to_string()).await?,
        href: format!("/v1/games/{game_id}/chat"),
    })
}

/// A game's chat, paged.
///
/// Oldest first unless `order=newest`; each message says who wrote it and after which
/// event of the history (`after_seq`). Anyone who may read the game reads its chat.
#[utoipa::path(
    operation_id = "list_chat",
    tag = "games",
    params(("id" = String, Path, description = "Game id"), ChatQuery),
    security((), ("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "A page of messages", body = ChatPage),
    )
)]
#[get("/games/{id}/chat")]
pub async fn list_chat(
    st: web::Data<AppState>,
    viewer: Result<MaybeUser, ApiError>,
    id: GameId,
    q: web::Query<ChatQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = q.into_inner();
    let limit = super::paging::limit(q.limit)?;
    // a cursor keeps the order it was made in
    let (order, after) = match q.cursor.as_deref() {
        Some(c) => match super::paging::parse_number_cursor(c, "c1") {
            Ok(n) => (ChatOrderDto::Oldest, Some(n)),
            Err(_) => (
                ChatOrderDto::Newest,
                Some(super::paging::parse_number_cursor(c, "c2")?),
            ),
        },
        None => (q.order.unwrap_or(ChatOrderDto::Oldest), None),
    };
    if q.order.is_some_and(|o| o != order) {
        return Err(ApiError::validation(
            "order",
            "the cursor was made for the other order",
        ));
    }
    let viewer = super::load::signed_in(viewer);
    let data = load_data(&st, &id, viewer.as_ref().map(|u| u.id.as_str()), false).await?;
    let (store_order, kind) = match order {
        ChatOrderDto::Oldest => (ChatOrder::OldestFirst, "c1"),
        ChatOrderDto::Newest => (ChatOrder::NewestFirst, "c2"),
    };
    let page = st
        .store
        .chat_page(data.game.id.clone(), store_order, after, limit)
        .await?;
    let messages = page
        .rows
        .into_iter()
        .map(|(r, name)| chat_message(&data, r, name))
        .collect();
    Ok(HttpResponse::Ok().json(ChatPage {
        game_id: data.game.id,
        messages,
        next_cursor: page.next.map(|n| super::paging::number_cursor(kind, n)),
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
///
/// Plain text, 1 to 1000 characters; it is never rendered as markup. The game's players
/// who are connected to `GET /v1/stream` get it as `game.chat`. Messages are limited
/// per user and minute (`TILEPOST_CHAT_PER_MINUTE`).
#[utoipa::path(
    operation_id = "post_chat",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    request_body = ChatRequest,
    security(("bearer" = ["game:play"])),
    responses(
        (status = 201, description = "The message was posted", body = ChatMessage),
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
    let data = load_data(&st, &id, Some(&me.id), false).await?;
    let seat = data
        .seats
        .iter()
        .find(|s| s.user_id == me.id)
        .ok_or_else(|| ApiError::new(ProblemCode::NotAPlayer, "only seated players write here"))?;
    let reservation = super::limits::reserve(
        &st,
        super::limits::per_user(&st, super::limits::UserQuota::Chat, &me.id),
    )
    .await?;
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
    let message = ChatMessage {
        id: row.id.clone(),
        seat: Some(seat.seat as u8),
        username: seat.username.clone(),
        text: row.body.clone(),
        after_seq: row.after_seq,
        at: rfc3339(now),
    };
    let mut live = serde_json::to_value(&message).map_err(ApiError::internal)?;
    live["game_id"] = serde_json::json!(data.game.id);
    let stream = crate::notify::chat(&data.seats, &data.game.id, live, now);
    let pushes = crate::notify::chat_posted(
        &st.notifier,
        &data.seats,
        &data.game.id,
        &me.id,
        &seat.username,
        &row.body,
        now,
    );
    if let Err(e) = st.store.add_chat(row, stream, pushes).await {
        reservation.release(&st).await;
        return Err(e.into());
    }
    let quota = reservation.keep();
    st.notifier.wake();

    let mut resp = HttpResponse::Created().json(message);
    quota.apply(&mut resp);
    Ok(resp)
}

crate::api::problem::problems! {
    "list_chat" {
        400 => ("Invalid query (" [ValidationFailed] ")"),
    }
    "post_chat" {
        400 => ("Invalid text (" [ValidationFailed] ")"),
        403 => ("Not a player of this game (" [NotAPlayer] ")"),
        429 => ("Too many chat messages this minute (" [RateLimited] "); `Retry-After` and `RateLimit-*` say when"),
    }
}
