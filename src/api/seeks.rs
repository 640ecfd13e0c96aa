//! The lobby: seeks are games looking for players. Anyone signed in may post one (with a
//! rating range and a minimum finish rate), list the seeks they may join, and join one;
//! the player who takes the last seat starts the game, seated in the order the players
//! joined. An open seek nobody fills closes after `TILEPOST_SEEK_HOURS`.

use actix_web::{delete, get, post, web, HttpResponse};
use tilepost_engine::{Game, GameConfig};

use super::dto::*;
use super::error::{ApiError, ProblemCode};
use super::extract::{ApiJson, CurrentUser, MAX_ID_LEN};
use super::AppState;
use crate::clock::rfc3339;
use crate::standing::Pool;
use crate::store::{GameRow, SeekData, SeekRow, Seeker, StoreError, BOT_ACCOUNT};

fn no_seek() -> ApiError {
    ApiError::new(ProblemCode::SeekNotFound, "there is no seek with this id")
}

fn seek_error(e: StoreError) -> ApiError {
    match e {
        StoreError::NotFound => no_seek(),
        other => other.into(),
    }
}

/// JSON text of a value (a list or a map of strings always encodes).
fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn seek_view(d: &SeekData, now: i64) -> SeekView {
    let s = &d.seek;
    let expansions: Vec<String> = serde_json::from_str(&s.expansions).unwrap_or_default();
    let rules = s
        .rules
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok())
        .unwrap_or_default();
    SeekView {
        id: s.id.clone(),
        creator: d
            .players
            .iter()
            .find(|(u, _)| *u == s.creator_id)
            .map(|(_, n)| n.clone())
            .unwrap_or_default(),
        players: d.players.iter().map(|(_, n)| n.clone()).collect(),
        seats: s.seats,
        pool: Pool::of(&expansions).as_str().to_string(),
        expansions,
        rules,
        days_per_move: s.days_per_move,
        rated: s.rated != 0,
        min_rating: s.min_rating,
        max_rating: s.max_rating,
        min_finish_rate: s.min_finish_rate.map(|p| f64::from(p) / 100.0),
        status: match SeekStatus::from_column(&s.status) {
            Some(SeekStatus::Seeking) if s.expires_at <= now => SeekStatus::Expired,
            Some(status) => status,
            None => SeekStatus::Expired,
        },
        game_id: s.game_id.clone(),
        created_at: rfc3339(s.created_at),
        expires_at: rfc3339(s.expires_at),
    }
}

/// What the lobby needs to know of the caller: ratings and finish rate.
async fn seeker(st: &AppState, me: &CurrentUser) -> Result<Seeker, ApiError> {
    let rating = |r: Option<crate::standing::Rating>| r.unwrap_or_default().rating;
    let base = st.store.rating_of(me.id.clone(), Pool::Base).await?;
    let exp = st.store.rating_of(me.id.clone(), Pool::Expansions).await?;
    let stats = st.store.stats_of(me.id.clone()).await?;
    let user = st.store.user_by_id(me.id.clone()).await?;
    Ok(Seeker {
        user_id: me.id.clone(),
        base_rating: rating(base),
        expansions_rating: rating(exp),
        finish_percent: (stats.played > 0).then(|| stats.finished * 100 / stats.played),
        bot_account: user.is_some_and(|u| u.bot.as_deref() == Some(BOT_ACCOUNT)),
    })
}

/// Post a seek: a game looking for players in the lobby.
///
/// The caller is its first player. A seek describes the game (seats, expansions, house
/// rules, clock, rated or casual) and who may join (a rating range in the game's pool,
/// a minimum finish rate). It stays open until its seats are taken or it is withdrawn,
/// or for `TILEPOST_SEEK_HOURS`; a user has at most `TILEPOST_OPEN_SEEKS` open seeks.
#[utoipa::path(
    operation_id = "create_seek",
    tag = "lobby",
    request_body = CreateSeekRequest,
    security(("bearer" = ["game:play"])),
    responses(
        (status = 201, description = "The seek is in the lobby", body = SeekView),
    )
)]
#[post("/seeks")]
pub async fn create_seek(
    st: web::Data<AppState>,
    me: CurrentUser,
    body: ApiJson<CreateSeekRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    let expansions = super::games::check_seats_and_expansions(r.seats, &r.expansions)?;
    super::games::check_days_per_move("days_per_move", r.days_per_move)?;
    for (field, v) in [("min_rating", r.min_rating), ("max_rating", r.max_rating)] {
        if v.is_some_and(|v| !(0..=4000).contains(&v)) {
            return Err(ApiError::validation(field, "0 to 4000"));
        }
    }
    if let (Some(lo), Some(hi)) = (r.min_rating, r.max_rating) {
        if lo > hi {
            return Err(ApiError::validation("max_rating", "below min_rating"));
        }
    }
    if r.min_finish_rate.is_some_and(|f| !(0.0..=1.0).contains(&f)) {
        return Err(ApiError::validation("min_finish_rate", "0 to 1"));
    }
    let values = r.rules.clone().unwrap_or_default();
    let rules = super::games::house_rules("", r.preset.as_deref(), &values)?;
    Game::new(&GameConfig {
        players: r.seats as u8,
        expansions: expansions.clone(),
        tile_order: None,
        seed: 0,
        rules,
    })
    .map_err(|e| ApiError::validation("seats", e.to_string()))?;
    let now = st.clock.now_ms();
    let ids: Vec<String> = expansions.iter().map(|e| e.id().to_string()).collect();
    let values = rules.to_values();
    let row = SeekRow {
        id: uuid::Uuid::new_v4().to_string(),
        creator_id: me.id.clone(),
        seats: r.seats as i32,
        expansions: to_json(&ids),
        rules: (!values.is_empty()).then(|| to_json(&values)),
        days_per_move: r.days_per_move.map(|d| d as i32),
        rated: i32::from(r.rated),
        min_rating: r.min_rating,
        max_rating: r.max_rating,
        min_finish_rate: r.min_finish_rate.map(|f| (f * 100.0).round() as i32),
        status: SeekStatus::Seeking.as_str().to_string(),
        game_id: None,
        created_at: now,
        expires_at: now.saturating_add(st.config.seek_hours.saturating_mul(3_600_000)),
    };
    let id = row.id.clone();
    st.store.create_seek(row, st.config.open_seeks).await?;
    let data = st.store.seek(id.clone()).await?.ok_or_else(no_seek)?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/v1/seeks/{id}")))
        .json(seek_view(&data, now)))
}

/// The open seeks the caller may join, oldest first.
///
/// Seeks that are not the caller's own, not joined yet, and whose rating range and
/// minimum finish rate the caller meets; with `mine=true`, the open seeks the caller
/// made or joined instead. Paged with `cursor`.
#[utoipa::path(
    operation_id = "list_seeks",
    tag = "lobby",
    params(SeekListQuery),
    security(("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "A page of seeks (a page may come short when many seeks are closed to the caller; go on with `next_cursor`)", body = SeekList),
    )
)]
#[get("/seeks")]
pub async fn list_seeks(
    st: web::Data<AppState>,
    me: CurrentUser,
    q: web::Query<SeekListQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = q.into_inner();
    let limit = super::paging::limit(q.limit)?;
    let after = q
        .cursor
        .as_deref()
        .map(|c| super::paging::parse_pair_cursor(c, "s1"))
        .transpose()?;
    let now = st.clock.now_ms();
    let page = if q.mine == Some(true) {
        st.store.my_seeks(me.id.clone(), now, after, limit).await?
    } else {
        let who = seeker(&st, &me).await?;
        st.store.seeks_for(who, now, after, limit).await?
    };
    Ok(HttpResponse::Ok().json(SeekList {
        seeks: page.rows.iter().map(|d| seek_view(d, now)).collect(),
        next_cursor: page
            .next
            .as_ref()
            .map(|k| super::paging::pair_cursor("s1", k)),
    }))
}

/// A seek.
///
/// Open, full (with the game it started), or expired; a withdrawn seek is gone.
#[utoipa::path(
    operation_id = "get_seek",
    tag = "lobby",
    params(("id" = String, Path, description = "Seek id")),
    security(("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "The seek", body = SeekView),
    )
)]
#[get("/seeks/{id}")]
pub async fn get_seek(
    st: web::Data<AppState>,
    _me: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    if id.len() > MAX_ID_LEN {
        return Err(no_seek());
    }
    let data = st.store.seek(id).await?.ok_or_else(no_seek)?;
    Ok(HttpResponse::Ok().json(seek_view(&data, st.clock.now_ms())))
}

/// Join a seek.
///
/// The caller must meet the seek's requirements. The player who takes the last seat
/// starts the game: its players are seated in the order they joined, and the seek names
/// the game (`game_id`).
#[utoipa::path(
    operation_id = "join_seek",
    tag = "lobby",
    params(("id" = String, Path, description = "Seek id")),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The caller joined; the seek (with `game_id` once full)", body = SeekView),
    )
)]
#[post("/seeks/{id}/join")]
pub async fn join_seek(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    if id.len() > MAX_ID_LEN {
        return Err(no_seek());
    }
    let data = st.store.seek(id.clone()).await?.ok_or_else(no_seek)?;
    let who = seeker(&st, &me).await?;
    if !crate::store::meets(&data.seek, &who) && data.seek.creator_id != me.id {
        return Err(ApiError::new(
            ProblemCode::SeekRequirementNotMet,
            "your rating or finish rate is outside what this seek asks for",
        ));
    }
    let s = &data.seek;
    let now = st.clock.now_ms();
    let expansions: Vec<String> = serde_json::from_str(&s.expansions)
        .map_err(|e| ApiError::internal(format!("seek {}: {e}", s.id)))?;
    let rules = match &s.rules {
        Some(r) => serde_json::from_str(r)
            .map_err(|e| ApiError::internal(format!("seek {}: {e}", s.id)))?,
        None => Default::default(),
    };
    let game = GameRow {
        id: uuid::Uuid::new_v4().to_string(),
        creator_id: s.creator_id.clone(),
        status: GameStatus::Open,
        seats: s.seats,
        expansions,
        tile_order: None,
        version: 0,
        current_user_id: None,
        created_at: now,
        updated_at: now,
        turn_started_at: None,
        rules,
        rated: s.rated != 0,
        visibility: Visibility::Public,
        bot_accounts: s.rated == 0,
        assistance: super::games::assistance_of(None, s.rated != 0),
    };
    let after = st
        .store
        .join_seek(
            id,
            me.id.clone(),
            now,
            game,
            crate::moves::start_plan(
                st.notifier.clone(),
                now,
                s.days_per_move
                    .map(|d| i64::from(d) * crate::correspondence::DAY_MS),
            ),
        )
        .await
        .map_err(seek_error)?;
    if after.seek.game_id.is_some() {
        st.notifier.wake();
    }
    Ok(HttpResponse::Ok().json(seek_view(&after, now)))
}

/// Withdraw an open seek (its creator only).
///
/// The seek leaves the lobby and is gone (`404` after); a full or expired seek cannot
/// be withdrawn.
#[utoipa::path(
    operation_id = "delete_seek",
    tag = "lobby",
    params(("id" = String, Path, description = "Seek id")),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 204, description = "The seek is withdrawn (and gone: `404` after)"),
    )
)]
#[delete("/seeks/{id}")]
pub async fn delete_seek(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    if id.len() > MAX_ID_LEN {
        return Err(no_seek());
    }
    let data = st.store.seek(id.clone()).await?.ok_or_else(no_seek)?;
    if data.seek.creator_id != me.id {
        return Err(ApiError::new(
            ProblemCode::NotCreator,
            "only the seek's creator may withdraw it",
        ));
    }
    st.store
        .cancel_seek(id, st.clock.now_ms())
        .await
        .map_err(seek_error)?;
    Ok(HttpResponse::NoContent().finish())
}

crate::api::problem::problems! {
    "create_seek" {
        400 => ("Invalid fields (" [ValidationFailed] ")"),
        409 => ("The caller has the most open seeks allowed (" [SeekLimitReached] ")"),
    }
    "list_seeks" {
        400 => ("Invalid query (" [ValidationFailed] ")"),
    }
    "get_seek" {
        404 => ("No such seek (" [SeekNotFound] ")"),
    }
    "join_seek" {
        403 => ("The caller's rating or finish rate is outside the seek's requirements, or the caller is a bot account and the seek is rated (" [SeekRequirementNotMet] ")"),
        404 => ("No such seek (" [SeekNotFound] ")"),
        409 => ("Already in the seek, or the seek is full or expired (" [AlreadySeated, SeekClosed] ")"),
    }
    "delete_seek" {
        403 => ("Not the seek's creator (" [NotCreator] ")"),
        404 => ("No such seek (" [SeekNotFound] ")"),
        409 => ("The seek is full or expired (" [SeekClosed] ")"),
    }
}
