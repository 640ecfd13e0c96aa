//! Correspondence play over HTTP: claiming a timeout, vacations, invitations, leaving
//! and aborting open games, chat and the export; and what these add to the game view,
//! the game list and the caller's account.

use actix_web::{delete, get, post, web, HttpResponse};
use tilepost_engine::{Event, Game};

use super::dto::*;
use super::error::{ApiError, Problem};
use super::extract::{ApiJson, CurrentUser};
use super::views;
use super::AppState;
use crate::clock::rfc3339;
use crate::correspondence::{self as corr, TimeoutError, DAY_MS};
use crate::store::{ChatRow, GameData, SeatInfo, StoreError, UserRow, VacationRow};

const MAX_CHAT_CHARS: usize = 1000;

fn check_id(id: &str) -> Result<(), ApiError> {
    if id.len() > 64 {
        return Err(ApiError::game_not_found());
    }
    Ok(())
}

use super::games::load_data;

fn seat_info(u: &UserRow) -> SeatInfo {
    SeatInfo {
        seat: -1,
        user_id: u.id.clone(),
        username: u.username.clone(),
        email: u.email.clone(),
        notify_turn: u.notify_turn != 0,
        notify_finished: u.notify_finished != 0,
        joined_at: u.created_at,
        locale: u.locale.clone(),
        time_zone: u.time_zone.clone(),
    }
}

// ----- what other handlers use ---------------------------------------------------------

/// Checks `options.days_per_move` and `invite` of a new game; returns the clock and the
/// invited users.
pub async fn check_new_game(
    st: &AppState,
    me: &CurrentUser,
    seats: i64,
    days_per_move: Option<i64>,
    invite: &[String],
) -> Result<(Option<i32>, Vec<UserRow>), ApiError> {
    if let Some(d) = days_per_move {
        if !(1..=14).contains(&d) {
            return Err(ApiError::validation(
                "options.days_per_move",
                "1 to 14 days, or leave it out for no clock",
            ));
        }
    }
    if invite.len() as i64 > seats - 1 {
        return Err(ApiError::validation(
            "invite",
            "more invitations than free seats",
        ));
    }
    let mut users: Vec<UserRow> = Vec::new();
    for (i, name) in invite.iter().enumerate() {
        let field = format!("invite[{i}]");
        let u = if name.len() <= 64 {
            st.store.user_by_username(name.clone()).await?
        } else {
            None
        };
        let u = u.ok_or_else(|| ApiError::validation(&field, format!("no user {name:?}")))?;
        if u.id == me.id {
            return Err(ApiError::validation(&field, "you have the first seat"));
        }
        if users.iter().any(|x| x.id == u.id) {
            return Err(ApiError::validation(&field, "invited twice"));
        }
        users.push(u);
    }
    Ok((days_per_move.map(|d| d as i32), users))
}

/// Records a new game's clock and invitations (with their `game.invited` rows).
pub async fn set_up_new_game(
    st: &AppState,
    game_id: &str,
    creator: &str,
    clock: Option<i32>,
    invited: Vec<UserRow>,
) -> Result<(), ApiError> {
    if let Some(d) = clock {
        st.store.set_clock(game_id.to_string(), d).await?;
    }
    if !invited.is_empty() {
        let now = st.clock.now_ms();
        let inviter = st
            .store
            .user_by_id(creator.to_string())
            .await?
            .map(|u| u.username)
            .unwrap_or_default();
        let rows = invited
            .iter()
            .map(|u| crate::notify::invited(&st.notifier, &seat_info(u), game_id, &inviter, now))
            .collect();
        st.store
            .invite(
                game_id.to_string(),
                invited.into_iter().map(|u| u.id).collect(),
                now,
                rows,
            )
            .await?;
    }
    Ok(())
}

/// Adds the clock, the invitations and the players on vacation to a game view.
pub async fn decorate(st: &AppState, view: &mut GameView, data: &GameData) -> Result<(), ApiError> {
    let now = st.clock.now_ms();
    let g = &data.game;
    let users: Vec<String> = data.seats.iter().map(|s| s.user_id.clone()).collect();
    let turn = match (&g.current_user_id, g.turn_started_at) {
        (Some(user), Some(started)) if view.status == GameStatus::Active => {
            Some((user.clone(), started))
        }
        _ => None,
    };
    let extras = st
        .store
        .game_extras(g.id.clone(), users, now, turn.clone())
        .await?;
    let vacations = extras.vacations;
    view.on_vacation = data
        .seats
        .iter()
        .filter_map(|s| {
            corr::vacation_on(&vacations, &s.user_id, now).map(|v| VacationView {
                username: s.username.clone(),
                until: rfc3339(v.end()),
                until_move: v.until_move != 0,
            })
        })
        .collect();
    if let Some(clock) = extras.clock {
        let d = match turn {
            Some(_) => corr::deadline(g, &clock, &extras.turn_vacations, now),
            None => None,
        };
        view.clock = Some(ClockView {
            days_per_move: clock.days_per_move.clamp(0, 255) as u8,
            deadline: d.map(|d| rfc3339(d.at)),
            paused: d.is_some_and(|d| d.paused),
        });
    }
    view.invitations = extras
        .invites
        .into_iter()
        .map(|i| InvitationView {
            username: i.username,
            // an invitation nobody answered before the start has lapsed
            status: if i.status == "pending" && g.status != "open" {
                "lapsed".into()
            } else {
                i.status
            },
        })
        .collect();
    Ok(())
}

/// The deadlines of the pending decisions of these games (games with a clock).
pub async fn deadlines_of(
    st: &AppState,
    games: &[GameData],
) -> Result<std::collections::HashMap<String, i64>, ApiError> {
    let now = st.clock.now_ms();
    let ids: Vec<String> = games
        .iter()
        .filter(|g| g.game.status == "active")
        .map(|g| g.game.id.clone())
        .collect();
    let mut out = std::collections::HashMap::new();
    if ids.is_empty() {
        return Ok(out);
    }
    let clocks = st.store.clocks_of(ids).await?;
    if clocks.is_empty() {
        return Ok(out);
    }
    let mut users: Vec<String> = games
        .iter()
        .filter(|g| clocks.contains_key(&g.game.id))
        .filter_map(|g| g.game.current_user_id.clone())
        .collect();
    users.sort();
    users.dedup();
    let since = games
        .iter()
        .filter_map(|g| g.game.turn_started_at)
        .min()
        .unwrap_or(now);
    let vacations = st.store.vacations_of(users, since).await?;
    for g in games {
        if let Some(k) = clocks.get(&g.game.id) {
            if let Some(d) = corr::deadline(&g.game, k, &vacations, now) {
                out.insert(g.game.id.clone(), d.at);
            }
        }
    }
    Ok(out)
}

/// What a move of the caller changes here: a vacation that lasts until the next move
/// ends.
pub async fn after_move(st: &AppState, user_id: &str) {
    let now = st.clock.now_ms();
    if let Err(e) = st.store.end_vacation(user_id.to_string(), now, true).await {
        tracing::warn!(cause = %e, "could not end a vacation after a move");
    }
}

fn year_start(now: i64) -> i64 {
    let year = time::OffsetDateTime::from_unix_timestamp(now.div_euclid(1000))
        .map(|t| t.year())
        .unwrap_or(1970);
    time::Date::from_calendar_date(year, time::Month::January, 1)
        .map(|d| d.midnight().assume_utc().unix_timestamp() * 1000)
        .unwrap_or(0)
}

fn days_used(vacations: &[VacationRow]) -> i64 {
    vacations
        .iter()
        .map(|v| {
            let ms = (v.end() - v.started_at).max(0);
            (ms + DAY_MS - 1) / DAY_MS
        })
        .sum()
}

/// The caller's waiting games and vacation bank, for `GET /v1/users/me`.
pub async fn account_extras(
    st: &AppState,
    user_id: &str,
) -> Result<(WaitingView, VacationStatus), ApiError> {
    let now = st.clock.now_ms();
    let w = st.store.waiting_counts(user_id.to_string()).await?;
    let year = st
        .store
        .vacations_since(user_id.to_string(), year_start(now))
        .await?;
    let on = corr::vacation_on(&year, user_id, now);
    let per_year = st.config.vacation_days_per_year;
    Ok((
        WaitingView {
            my_turn: w.my_turn,
            invitations: w.invitations,
        },
        VacationStatus {
            days_per_year: per_year,
            days_left: (per_year - days_used(&year)).max(0),
            until: on.map(|v| rfc3339(v.end())),
            until_move: on.is_some_and(|v| v.until_move != 0),
        },
    ))
}

// ----- timeouts ------------------------------------------------------------------------

/// Claim that the pending decision's player missed the deadline: they leave the game
/// (their figures leave the board, they rank last) and the others play on.
#[utoipa::path(
    operation_id = "claim_timeout",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The late player timed out", body = MoveResult),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a player of this game, or the caller's own decision (`not-a-player`, `own-timeout`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game (`game-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No clock, the deadline has not passed, the game is not running, the caller left, or someone moved first (`no-clock`, `deadline-not-reached`, `game-not-started`, `game-over`, `not-in-game`, `stale-version`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/claim-timeout")]
pub async fn claim_timeout(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    check_id(&id)?;
    let now = st.clock.now_ms();
    let t = corr::time_out(&st.store, &st.notifier, &id, Some(&me.id), now)
        .await
        .map_err(|e| match e {
            TimeoutError::NotFound => ApiError::game_not_found(),
            TimeoutError::NoClock => ApiError::new(409, "no-clock", "this game has no clock"),
            TimeoutError::NotRunning => {
                ApiError::new(409, "game-not-started", "the game is not running")
            }
            TimeoutError::NotDue(at) => ApiError::new(
                409,
                "deadline-not-reached",
                format!("the decision is due by {}", rfc3339(at)),
            ),
            TimeoutError::NotAPlayer => {
                ApiError::new(403, "not-a-player", "you have no seat at this game")
            }
            TimeoutError::OwnTimeout => ApiError::new(
                403,
                "own-timeout",
                "the pending decision is yours: play or resign",
            ),
            TimeoutError::NotInGame => ApiError::new(409, "not-in-game", "you have left this game"),
            TimeoutError::Moved => ApiError::stale(None),
            TimeoutError::Store(e) => e.into(),
            TimeoutError::Corrupt(m) => ApiError::internal(m),
        })?;
    let entry = views::history_entry(&t.row, &t.event, &t.effects, &t.data.seats);
    Ok(HttpResponse::Ok().json(MoveResult {
        game_id: t.data.game.id.clone(),
        version: t.version,
        status: if t.over {
            GameStatus::Finished
        } else {
            GameStatus::Active
        },
        events: vec![entry],
    }))
}

// ----- vacations -----------------------------------------------------------------------

/// Start a vacation now: the clocks of the caller's games stand still until it ends.
#[utoipa::path(
    operation_id = "start_vacation",
    tag = "users",
    request_body = VacationRequest,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller is on vacation; the bank", body = VacationStatus),
        (status = 400, description = "Invalid fields (`validation-failed`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already on vacation, or not enough vacation days left this year (`already-on-vacation`, `not-enough-vacation`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/users/me/vacation")]
pub async fn start_vacation(
    st: web::Data<AppState>,
    me: CurrentUser,
    body: ApiJson<VacationRequest>,
) -> Result<HttpResponse, ApiError> {
    let now = st.clock.now_ms();
    let until = match &body.0.until {
        Some(s) => {
            let t = time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339)
                .map_err(|_| ApiError::validation("until", "an RFC 3339 time"))?;
            let ms = (t.unix_timestamp_nanos() / 1_000_000) as i64;
            if ms <= now {
                return Err(ApiError::validation("until", "must be in the future"));
            }
            Some(ms)
        }
        None => None,
    };
    let (_, status) = account_extras(&st, &me.id).await?;
    if status.until.is_some() {
        return Err(ApiError::new(
            409,
            "already-on-vacation",
            "you are on vacation already",
        ));
    }
    let left_ms = status.days_left.saturating_mul(DAY_MS);
    let ends_at = match until {
        Some(u) if u - now > left_ms => {
            return Err(ApiError::new(
                409,
                "not-enough-vacation",
                format!("{} vacation day(s) left this year", status.days_left),
            ))
        }
        Some(u) => u,
        None if left_ms == 0 => {
            return Err(ApiError::new(
                409,
                "not-enough-vacation",
                "no vacation days left this year",
            ))
        }
        None => now + left_ms,
    };
    st.store
        .start_vacation(VacationRow {
            id: uuid::Uuid::new_v4().to_string(),
            user_id: me.id.clone(),
            started_at: now,
            ends_at,
            until_move: i32::from(until.is_none()),
            ended_at: None,
        })
        .await
        .map_err(|e| match e {
            StoreError::Conflict(_) => {
                ApiError::new(409, "already-on-vacation", "you are on vacation already")
            }
            other => other.into(),
        })?;
    let (_, status) = account_extras(&st, &me.id).await?;
    Ok(HttpResponse::Ok().json(status))
}

/// End the caller's vacation now: the clocks run again, the deadlines moved out by the
/// time it lasted.
#[utoipa::path(
    operation_id = "end_vacation",
    tag = "users",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The vacation ended; the bank", body = VacationStatus),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The caller is not on vacation (`not-on-vacation`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/users/me/vacation")]
pub async fn end_vacation(
    st: web::Data<AppState>,
    me: CurrentUser,
) -> Result<HttpResponse, ApiError> {
    let now = st.clock.now_ms();
    if !st.store.end_vacation(me.id.clone(), now, false).await? {
        return Err(ApiError::new(
            409,
            "not-on-vacation",
            "you are not on vacation",
        ));
    }
    let (_, status) = account_extras(&st, &me.id).await?;
    Ok(HttpResponse::Ok().json(status))
}

// ----- seats and invitations -----------------------------------------------------------

fn seat_error(e: StoreError) -> ApiError {
    match e {
        StoreError::NotFound => ApiError::game_not_found(),
        StoreError::Conflict("not-invited") => ApiError::new(
            409,
            "not-invited",
            "you have no pending invitation to this game",
        ),
        StoreError::Conflict("no-open-seat") => ApiError::new(
            409,
            "no-open-seat",
            "every free seat is reserved for an invited player",
        ),
        StoreError::Conflict("not-a-player") => {
            ApiError::new(403, "not-a-player", "you have no seat at this game")
        }
        StoreError::Conflict("game-has-moves") => {
            ApiError::new(409, "game-has-moves", "the game has moves: resign instead")
        }
        StoreError::Internal(m) if m.to_ascii_lowercase().contains("foreign") => {
            ApiError::unauthorized("the token's user no longer exists")
        }
        other => other.into(),
    }
}

/// Takes a seat through the invitation rules (used by `join` too).
pub async fn take_seat(
    st: &AppState,
    id: &str,
    user_id: &str,
    invited_only: bool,
) -> Result<(), ApiError> {
    check_id(id)?;
    let now = st.clock.now_ms();
    st.store
        .take_seat(
            id.to_string(),
            user_id.to_string(),
            now,
            invited_only,
            super::games::start_plan(st.notifier.clone(), now),
        )
        .await
        .map_err(seat_error)
}

async fn game_view_of(st: &AppState, id: &str) -> Result<HttpResponse, ApiError> {
    super::games::current_view(st, id).await
}

/// Accept an invitation: take the reserved seat (the game starts when it was the last).
#[utoipa::path(
    operation_id = "accept_invitation",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller has a seat; the game view", body = GameView),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game (`game-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No pending invitation, already seated, or the game has started (`not-invited`, `already-seated`, `game-already-started`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/invitation/accept")]
pub async fn accept_invitation(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    take_seat(&st, &id, &me.id, true).await?;
    game_view_of(&st, &id).await
}

/// Decline an invitation: the reserved seat opens to anyone.
#[utoipa::path(
    operation_id = "decline_invitation",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Declined; the game view", body = GameView),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game (`game-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No pending invitation, or the game has started (`not-invited`, `game-already-started`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/invitation/decline")]
pub async fn decline_invitation(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    check_id(&id)?;
    st.store
        .decline_invite(id.clone(), me.id.clone(), st.clock.now_ms())
        .await
        .map_err(seat_error)?;
    game_view_of(&st, &id).await
}

/// Give up a seat before the game starts (the creator aborts instead); later seats move
/// up one.
#[utoipa::path(
    operation_id = "leave_game",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller left; the game view", body = GameView),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not seated here, or the creator (`not-a-player`, `not-creator`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game (`game-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game has started: resign instead (`game-already-started`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/leave")]
pub async fn leave_game(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let data = load_data(&st, &id, false).await?;
    if data.game.creator_id == me.id {
        return Err(ApiError::new(
            403,
            "not-creator",
            "the creator cannot leave: abort the game instead",
        ));
    }
    st.store
        .leave_open_game(id.clone(), me.id.clone(), st.clock.now_ms())
        .await
        .map_err(seat_error)?;
    game_view_of(&st, &id).await
}

/// Abort a game that has no move yet (creator only): it is deleted.
#[utoipa::path(
    operation_id = "abort_game",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "The game is gone"),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the creator may abort (`not-creator`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game (`game-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A move was made: resign instead (`game-has-moves`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/abort")]
pub async fn abort_game(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let data = load_data(&st, &id, false).await?;
    if data.game.creator_id != me.id {
        return Err(ApiError::new(
            403,
            "not-creator",
            "only the game's creator may abort it",
        ));
    }
    st.store
        .abort_game(id, st.clock.now_ms())
        .await
        .map_err(seat_error)?;
    Ok(HttpResponse::NoContent().finish())
}

// ----- chat ----------------------------------------------------------------------------

async fn chat_messages(st: &AppState, data: &GameData) -> Result<Vec<ChatMessage>, ApiError> {
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
pub async fn list_chat(
    st: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let data = load_data(&st, &id.into_inner(), false).await?;
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
    )
)]
#[post("/games/{id}/chat")]
pub async fn post_chat(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
    body: ApiJson<ChatRequest>,
) -> Result<HttpResponse, ApiError> {
    let text = check_text(&body.0.text)?;
    let data = load_data(&st, &id.into_inner(), false).await?;
    let seat = data
        .seats
        .iter()
        .find(|s| s.user_id == me.id)
        .ok_or_else(|| ApiError::new(403, "not-a-player", "only seated players write here"))?;
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

    Ok(HttpResponse::Created().json(ChatMessage {
        id: row.id,
        seat: Some(seat.seat as u8),
        username: seat.username.clone(),
        text: row.body,
        after_seq: row.after_seq,
        at: rfc3339(now),
    }))
}

// ----- export --------------------------------------------------------------------------

/// A game's complete log. While the game runs, the hidden parts (the seed, a sandbox
/// game's pile) are left out; once it is over the export is complete and
/// `tilepost replay FILE` reproduces the final state from it.
#[utoipa::path(
    operation_id = "export_game",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The log", body = GameExport),
        (status = 404, description = "No such game (`game-not-found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/export")]
pub async fn export_game(
    st: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let data = load_data(&st, &id.into_inner(), true).await?;
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
    let chat = chat_messages(&st, &data).await?;
    Ok(HttpResponse::Ok().json(GameExport {
        game_id: data.game.id.clone(),
        status: if over {
            GameStatus::Finished
        } else {
            GameStatus::parse(&data.game.status)
        },
        complete: over,
        players: data
            .seats
            .iter()
            .map(|s| SeatView {
                seat: s.seat as u8,
                username: s.username.clone(),
                colour: views::colour(s.seat as u8),
            })
            .collect(),
        events: out,
        chat,
    }))
}
