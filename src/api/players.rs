//! Players: public profiles, rating histories and the leaderboard.

use actix_web::{get, web, HttpResponse};

use super::dto::*;
use super::error::{ApiError, ProblemCode};
use super::extract::{MaybeUser, MAX_ID_LEN};
use super::load::signed_in;
use super::AppState;
use crate::clock::rfc3339;
use crate::standing::Pool;
use crate::store::{RatingRow, ResultRow, StatsRow};

/// Results a profile shows.
const RECENT_GAMES: i64 = 10;

fn no_user() -> ApiError {
    ApiError::new(ProblemCode::UserNotFound, "there is no user with this name")
}

fn pool(name: Option<&str>) -> Result<Pool, ApiError> {
    match name {
        None => Ok(Pool::Base),
        Some(n) => Pool::from_name(n)
            .ok_or_else(|| ApiError::validation("pool", "one of base, expansions")),
    }
}

pub fn rating_view(r: &RatingRow) -> RatingView {
    let rating = r.rating();
    RatingView {
        pool: r.pool.clone(),
        rating: rating.rating.round() as i32,
        deviation: rating.deviation.round() as i32,
        provisional: rating.provisional(),
        games: rating.games,
    }
}

fn result_view(r: &ResultRow) -> ResultView {
    ResultView {
        game_id: r.game_id.clone(),
        ended_at: rfc3339(r.ended_at),
        seats: r.seats,
        rank: r.rank,
        score: r.score,
        outcome: r.outcome.clone(),
        rated: r.pool.is_some(),
        pool: r.pool.clone(),
        rating_before: r.rating_before.map(|v| v.round() as i32),
        rating_after: r.rating_after.map(|v| v.round() as i32),
        unrated_reason: r
            .unrated_reason
            .as_deref()
            .and_then(UnratedReason::from_name),
    }
}

/// A share of the games played, when some ended.
fn rate(part: i32, stats: &StatsRow) -> Option<f64> {
    (stats.played > 0).then(|| f64::from(part) / f64::from(stats.played))
}

/// A player's public page.
///
/// Their record over ended games (played, finished, won, resigned, timed out; the
/// finish and time-out rates; the mean time per move; the rated games that changed no rating), their ratings (one per pool they
/// played rated games in) and their latest ended public games. No login is needed.
#[utoipa::path(
    operation_id = "get_profile",
    tag = "players",
    params(("username" = String, Path, description = "Username")),
    security(()),
    responses(
        (status = 200, description = "The profile", body = ProfileView),
    )
)]
#[get("/users/{username}")]
pub async fn get_profile(
    st: web::Data<AppState>,
    username: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let name = username.into_inner();
    if name.len() > MAX_ID_LEN {
        return Err(no_user());
    }
    let p = st
        .store
        .profile(name, RECENT_GAMES)
        .await?
        .ok_or_else(no_user)?;
    let s = &p.stats;
    Ok(HttpResponse::Ok().json(ProfileView {
        username: p.user.username.clone(),
        bot: p.user.bot.clone(),
        joined: rfc3339(p.user.created_at),
        games_played: s.played,
        games_finished: s.finished,
        games_won: s.won,
        games_resigned: s.resigned,
        games_timed_out: s.timed_out,
        games_uncounted: s.uncounted,
        finish_rate: rate(s.finished, s),
        timeout_rate: rate(s.timed_out, s),
        average_move_seconds: (s.moves > 0).then(|| s.move_ms as f64 / s.moves as f64 / 1000.0),
        ratings: p.ratings.iter().map(rating_view).collect(),
        recent_games: p.recent.iter().map(result_view).collect(),
    }))
}

/// A player's rating history in a pool, newest first.
///
/// Each rated result with the rating before and after the game, or why a rated game
/// changed no rating (`unrated_reason`). Ratings are Glicko-2, one per pool (`base`
/// games, games with `expansions`). Others see the results of public games; the player
/// sees their private games' too.
#[utoipa::path(
    operation_id = "get_rating_history",
    tag = "players",
    params(("username" = String, Path, description = "Username"), RatingHistoryQuery),
    security((), ("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "A page of rated results", body = RatingHistory),
    )
)]
#[get("/users/{username}/ratings")]
pub async fn get_rating_history(
    st: web::Data<AppState>,
    viewer: Result<MaybeUser, ApiError>,
    username: web::Path<String>,
    q: web::Query<RatingHistoryQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = q.into_inner();
    let pool = pool(q.pool.as_deref())?;
    let limit = super::paging::limit(q.limit)?;
    let after = q
        .cursor
        .as_deref()
        .map(|c| super::paging::parse_pair_cursor(c, "r1"))
        .transpose()?;
    let user = super::load::user_named(&st, &username.into_inner())
        .await?
        .ok_or_else(no_user)?;
    let me = signed_in(viewer);
    let public_only = me.is_none_or(|m| m.id != user.id);
    let page = st
        .store
        .rating_history(user.id, pool, public_only, after, limit)
        .await?;
    Ok(HttpResponse::Ok().json(RatingHistory {
        pool: pool.as_str().to_string(),
        entries: page.rows.iter().map(result_view).collect(),
        next_cursor: page
            .next
            .as_ref()
            .map(|k| super::paging::pair_cursor("r1", k)),
    }))
}

/// A pool's leaderboard, best first.
///
/// The established ratings of the pool (`base` or `expansions`; deviation at most 110:
/// provisional ratings are left out), with each player's number of rated games; paged
/// with `cursor`. No login is needed.
#[utoipa::path(
    operation_id = "get_leaderboard",
    tag = "players",
    params(LeaderboardQuery),
    security(()),
    responses(
        (status = 200, description = "A page of the leaderboard", body = Leaderboard),
    )
)]
#[get("/leaderboard")]
pub async fn get_leaderboard(
    st: web::Data<AppState>,
    q: web::Query<LeaderboardQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = q.into_inner();
    let pool = pool(q.pool.as_deref())?;
    let limit = super::paging::limit(q.limit)?;
    let after = q
        .cursor
        .as_deref()
        .map(super::paging::parse_board_cursor)
        .transpose()?;
    let page = st.store.leaderboard(pool, after, limit).await?;
    Ok(HttpResponse::Ok().json(Leaderboard {
        pool: pool.as_str().to_string(),
        entries: page
            .rows
            .iter()
            .map(|r| LeaderboardEntry {
                username: r.username.clone(),
                rating: r.rating.rating.round() as i32,
                deviation: r.rating.deviation.round() as i32,
                games: r.rating.games,
            })
            .collect(),
        next_cursor: page.next.as_ref().map(super::paging::board_cursor),
    }))
}

crate::api::problem::problems! {
    "get_profile" {
        404 => ("No such user (" [UserNotFound] ")"),
    }
    "get_rating_history" {
        400 => ("Invalid query (" [ValidationFailed] ")"),
        404 => ("No such user (" [UserNotFound] ")"),
    }
    "get_leaderboard" {
        400 => ("Invalid query (" [ValidationFailed] ")"),
    }
}
