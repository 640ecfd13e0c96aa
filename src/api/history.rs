//! History and export: the events feed with the consequences the engine derived, and
//! a game's complete log.

use actix_web::{get, web, HttpResponse};
use tilepost_engine::{Event, Game};

use super::chat::chat_link;
use super::dto::*;
use super::error::ApiError;
use super::extract::{GameId, MaybeUser};
use super::load::load_data;
use super::views;
use super::AppState;
use crate::clock::rfc3339;

/// A game's history, paged.
///
/// Each stored decision with its `seq`, the player who made it and its time, and the
/// consequences the rules engine derived from it (tiles drawn, points scored, figures
/// returned). Hidden information (the seed, the pile's order) is never in it. Pages
/// follow `after` or `cursor`; the game's chat is linked, not included. Who may read
/// the game may read its history.
#[utoipa::path(
    operation_id = "list_events",
    tag = "games",
    params(("id" = String, Path, description = "Game id"), EventsQuery),
    security((), ("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "A page of the history", body = EventsPage),
    )
)]
#[get("/games/{id}/events")]
pub async fn list_events(
    st: web::Data<AppState>,
    viewer: MaybeUser,
    id: GameId,
    q: web::Query<EventsQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = q.into_inner();
    let after = match (&q.cursor, q.after) {
        (Some(_), Some(_)) => {
            return Err(ApiError::validation(
                "cursor",
                "give either cursor or after",
            ))
        }
        (Some(c), None) => super::paging::parse_number_cursor(c, "e1")?,
        (None, a) => a.unwrap_or(0),
    };
    if after < 0 {
        return Err(ApiError::validation("after", "must not be negative"));
    }
    let limit = super::paging::limit(q.limit)?;
    let data = load_data(&st, &id, viewer.0.as_ref().map(|u| u.id.as_str()), false).await?;
    let page = st
        .store
        .events_page(data.game.id.clone(), after, limit)
        .await?;
    let rows = &page.rows;
    let events = views::decode_events(rows)?;
    let mut entries = Vec::new();
    if !events.is_empty() {
        let (_, effects) = Game::replay_with_effects(&events)
            .map_err(|e| ApiError::internal(format!("game {}: {e}", data.game.id)))?;
        for (i, row) in rows.iter().enumerate().filter(|(_, r)| r.seq > after) {
            let fx = effects.get(i).map(|v| v.as_slice()).unwrap_or(&[]);
            let me = viewer.0.as_ref().map(|u| u.id.as_str());
            entries.push(views::history_entry(row, &events[i], fx, &data.seats, me));
        }
    }
    let chat = chat_link(&st, &data.game.id).await?;
    let last = rows.last().map(|r| r.seq).unwrap_or(0);
    Ok(HttpResponse::Ok().json(EventsPage {
        game_id: data.game.id.clone(),
        version: data.game.version.max(last),
        events: entries,
        next_after: page.next,
        next_cursor: page.next.map(|s| super::paging::number_cursor("e1", s)),
        chat,
    }))
}

/// A game's complete log.
///
/// Every stored event with its type, version, payload and time. While the game runs,
/// the hidden parts (the seed, a sandbox game's pile) are left out; once it is over the
/// export is complete and `tilepost replay FILE` reproduces the final state from it.
/// With `format=text`, the same log in the game notation: a header of `#` comments, then
/// one line per event, `seq. type key=value ...` (docs/analysis.md), for sharing; `tilepost
/// replay` reads it too. Who may read the game may export it.
#[utoipa::path(
    operation_id = "export_game",
    tag = "games",
    params(("id" = String, Path, description = "Game id"), ExportQuery),
    security((), ("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "The log", content((GameExport = "application/json"), (String = "text/plain"))),
    )
)]
#[get("/games/{id}/export")]
pub async fn export_game(
    st: web::Data<AppState>,
    viewer: Result<MaybeUser, ApiError>,
    id: GameId,
    q: web::Query<ExportQuery>,
) -> Result<HttpResponse, ApiError> {
    let viewer = super::load::signed_in(viewer);
    let data = load_data(&st, &id, viewer.as_ref().map(|u| u.id.as_str()), true).await?;
    let events = views::decode_events(&data.events)?;
    let over = !events.is_empty()
        && Game::replay(&events)
            .map_err(|e| ApiError::internal(format!("game {}: {e}", data.game.id)))?
            .is_over();
    let mut out = Vec::with_capacity(data.events.len());
    for (row, ev) in data.events.iter().zip(&events) {
        let mut payload: serde_json::Value =
            serde_json::from_str(&row.payload).map_err(ApiError::internal)?;
        if !over && matches!(ev, Event::GameCreated { .. }) {
            if let Some(m) = payload.as_object_mut() {
                m.remove("seed");
                m.remove("tile_order");
            }
        }
        out.push(ExportedEvent {
            seq: row.seq,
            kind: row.event_type.clone(),
            version: row.event_version.max(0) as u32,
            payload,
            at: rfc3339(row.created_at),
        });
    }
    if q.format == Some(ExportFormat::Text) {
        let mut seats: Vec<(i32, String)> = data
            .seats
            .iter()
            .map(|s| (s.seat, s.username.clone()))
            .collect();
        seats.sort();
        let header = crate::replay::Header {
            game_id: data.game.id.clone(),
            players: seats.into_iter().map(|(_, n)| n).collect(),
            complete: over,
        };
        let lines: Vec<(i64, &str, u32, &serde_json::Value)> = out
            .iter()
            .map(|e| (e.seq, e.kind.as_str(), e.version, &e.payload))
            .collect();
        return Ok(HttpResponse::Ok()
            .content_type("text/plain; charset=utf-8")
            .body(crate::replay::notation(&header, &lines)));
    }
    let chat = chat_link(&st, &data.game.id).await?;
    Ok(HttpResponse::Ok().json(GameExport {
        game_id: data.game.id.clone(),
        status: if over {
            GameStatus::Finished
        } else {
            data.game.status
        },
        complete: over,
        players: data
            .seats
            .iter()
            .map(|s| SeatView {
                seat: s.seat as u8,
                username: s.username.clone(),
                colour: views::colour(s.seat as u8),
                bot: s.bot.clone(),
            })
            .collect(),
        events: out,
        chat,
    }))
}

crate::api::problem::problems! {
    "list_events" {
        400 => ("Invalid query (" [ValidationFailed] ")"),
    }
    "export_game" {
        400 => ("Invalid query (" [ValidationFailed] ")"),
    }
}
