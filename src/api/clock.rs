//! Clocks and vacations: claiming a timeout, starting and ending a vacation, the
//! vacation bank.

use actix_web::{delete, post, web, HttpResponse};

use super::dto::*;
use super::error::{ApiError, ProblemCode};
use super::extract::{ApiJson, CurrentUser, GameId};
use super::AppState;
use crate::clock::rfc3339;
use crate::correspondence::{self as corr, DAY_MS};
use crate::moves::{Decision, Request};
use crate::store::VacationRow;

/// Claim that the pending decision's player missed the deadline.
///
/// Only in a game with a clock, by one of its other players, once the pending
/// decision's deadline has passed (vacations move deadlines out). The late player
/// leaves the game: their figures leave the board, they rank last, and the others play
/// on.
#[utoipa::path(
    operation_id = "claim_timeout",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The late player timed out", body = MoveResult),
    )
)]
#[post("/games/{id}/claim-timeout")]
pub async fn claim_timeout(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    let req = Request {
        game_id: id.into_inner(),
        decision: Decision::TimeOut {
            claimer: Some(me.id.clone()),
        },
        expected_version: None,
        idempotency: None,
        now: st.clock.now_ms(),
    };
    let r = st
        .decisions()
        .record(req, |r| super::moves::move_result(r, &me.id))
        .await?;
    if r.status == crate::store::GameStatus::Finished {
        super::tournaments::game_ended(&st, &r.game_id).await;
    }
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .body(r.answer))
}

fn year_start(now: i64) -> i64 {
    let year = time::OffsetDateTime::from_unix_timestamp(now.div_euclid(1000))
        .map(|t| t.year())
        .unwrap_or(1970);
    time::Date::from_calendar_date(year, time::Month::January, 1)
        .map(|d| d.midnight().assume_utc().unix_timestamp() * 1000)
        .unwrap_or(0)
}

/// The days a vacation takes from the bank: every started day up to its end.
fn days_of(v: &VacationRow) -> i64 {
    let ms = (v.end() - v.started_at).max(0);
    (ms + DAY_MS - 1) / DAY_MS
}

fn days_used(vacations: &[VacationRow]) -> i64 {
    vacations.iter().map(days_of).sum()
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
            days_reserved: on.map_or(0, days_of),
            until: on.map(|v| rfc3339(v.end())),
            until_move: on.is_some_and(|v| v.until_move != 0),
        },
    ))
}

/// Start a vacation now: the clocks of the caller's games stand still until it ends.
///
/// The vacation lasts until `until`, or without it until the caller's next move (at
/// most what is left of the bank). Each user has `TILEPOST_VACATION_DAYS` vacation days
/// per calendar year; every started day counts.
///
/// A vacation takes its days from the bank when it starts, up to its latest end: one
/// without `until` takes every day left this year (`days_left: 0`, `days_reserved`: the
/// days it holds). When it ends earlier (the caller's next move, or `DELETE
/// /v1/users/me/vacation`), only the days it lasted count and the others go back to
/// `days_left`.
#[utoipa::path(
    operation_id = "start_vacation",
    tag = "users",
    request_body = VacationRequest,
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The caller is on vacation; the bank", body = VacationStatus),
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
            ProblemCode::AlreadyOnVacation,
            "you are on vacation already",
        ));
    }
    let left_ms = status.days_left.saturating_mul(DAY_MS);
    let ends_at = match until {
        Some(u) if u - now > left_ms => {
            return Err(ApiError::new(
                ProblemCode::NotEnoughVacation,
                format!("{} vacation day(s) left this year", status.days_left),
            ))
        }
        Some(u) => u,
        None if left_ms == 0 => {
            return Err(ApiError::new(
                ProblemCode::NotEnoughVacation,
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
        .await?;
    let (_, status) = account_extras(&st, &me.id).await?;
    Ok(HttpResponse::Ok().json(status))
}

/// End the caller's vacation now.
///
/// The clocks of the caller's games run again, their deadlines moved out by the time
/// the vacation lasted; the days not used go back to the bank.
#[utoipa::path(
    operation_id = "end_vacation",
    tag = "users",
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The vacation ended; the bank", body = VacationStatus),
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
            ProblemCode::NotOnVacation,
            "you are not on vacation",
        ));
    }
    let (_, status) = account_extras(&st, &me.id).await?;
    Ok(HttpResponse::Ok().json(status))
}

crate::api::problem::problems! {
    "claim_timeout" {
        403 => ("Not a player of this game, or the caller's own decision (" [NotAPlayer, OwnTimeout] ")"),
        409 => ("No clock, the deadline has not passed, the game is not running, the caller left, or someone moved first (" [NoClock, DeadlineNotReached, GameNotStarted, GameOver, NotInGame, StaleVersion] ")"),
    }
    "start_vacation" {
        400 => ("Invalid fields (" [ValidationFailed] ")"),
        409 => ("Already on vacation, or not enough vacation days left this year (" [AlreadyOnVacation, NotEnoughVacation] ")"),
    }
    "end_vacation" {
        409 => ("The caller is not on vacation (" [NotOnVacation] ")"),
    }
}
