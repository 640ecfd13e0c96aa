//! What the handlers of one game share: loading a game (its summary and seats, and
//! its replayed state from the replay cache or the log), and the game view with its
//! clock, invitations and players on vacation.

use std::sync::Arc;

use actix_web::http::header;
use actix_web::HttpResponse;
use tilepost_engine::Game;

use super::dto::{
    BankLeft, ClockView, GameStatus, GameTournament, GameView, InvitationView, TimeBank,
    VacationView,
};
use super::error::{ApiError, ProblemCode};
use super::extract::{GameId, MAX_ID_LEN};
use super::views;
use super::AppState;
use crate::clock::rfc3339;
use crate::correspondence as corr;
use crate::store::InvitationState;
use crate::store::{GameData, GameRow, UserRow, Visibility};

/// The signed-in caller of a read that anonymous readers may make too: a missing, expired
/// or bad token reads as anonymous.
pub fn signed_in(
    viewer: Result<super::extract::MaybeUser, ApiError>,
) -> Option<super::extract::CurrentUser> {
    viewer.ok().and_then(|m| m.0)
}

/// A game's summary and seats, with its whole log when `with_events`, if the signed-in
/// caller `viewer` (if any) may see it: a private game is `404` (`game-not-found`, as if
/// it did not exist) for everyone but its players and the players invited to it.
pub async fn load_data(
    st: &AppState,
    id: &GameId,
    viewer: Option<&str>,
    with_events: bool,
) -> Result<GameData, ApiError> {
    let data = st
        .store
        .load_game(id.as_str().to_string(), with_events)
        .await?
        .ok_or_else(ApiError::game_not_found)?;
    if may_see(st, &data, viewer).await? {
        Ok(data)
    } else {
        Err(ApiError::game_not_found())
    }
}

/// Whether `viewer` may see the game: a public game anyone, a private one its players
/// and the players invited to it.
pub async fn may_see(
    st: &AppState,
    data: &GameData,
    viewer: Option<&str>,
) -> Result<bool, ApiError> {
    if data.game.visibility == Visibility::Public {
        return Ok(true);
    }
    let Some(me) = viewer else { return Ok(false) };
    if data.seats.iter().any(|s| s.user_id == me) {
        return Ok(true);
    }
    let invites = st.store.invites_of(data.game.id.clone()).await?;
    Ok(invites.iter().any(|i| i.user_id == me))
}

/// A game's summary and seats with its replayed state (`None` before it starts), taken
/// from the replay cache when it holds this version, if `viewer` may see it (see
/// [`load_data`]). `data.events` is left empty: use [`load_data`] when the log itself
/// is needed.
pub async fn load_state(
    st: &AppState,
    id: &GameId,
    viewer: Option<&str>,
) -> Result<(GameData, Option<Arc<Game>>), ApiError> {
    let data = load_data(st, id, viewer, false).await?;
    let game = state_of(st, data).await?;
    Ok(game)
}

/// The replayed state of `data`'s game at its version (cached, or replayed from the log
/// up to that version and then cached).
pub async fn state_of(
    st: &AppState,
    mut data: GameData,
) -> Result<(GameData, Option<Arc<Game>>), ApiError> {
    let (id, version) = (data.game.id.clone(), data.game.version);
    if version < 1 || data.game.status == GameStatus::Open {
        return Ok((data, None));
    }
    if let Some(g) = st.replays.get(&id, version) {
        return Ok((data, Some(g)));
    }
    data.events = st.store.events_upto(id.clone(), version).await?;
    if data.events.is_empty() {
        return Ok((data, None));
    }
    let game = Arc::new(replay(&data)?);
    st.replays.put(&id, version, game.clone());
    data.events = Vec::new();
    Ok((data, Some(game)))
}

fn replay(data: &GameData) -> Result<Game, ApiError> {
    let events = views::decode_events(&data.events)?;
    Game::replay(&events).map_err(|e| ApiError::internal(format!("game {}: {e}", data.game.id)))
}

pub fn require_started<G>(data: &GameData, game: Option<G>) -> Result<G, ApiError> {
    match game {
        Some(g) if data.game.status != GameStatus::Open => Ok(g),
        _ => Err(ApiError::new(
            ProblemCode::GameNotStarted,
            "the game is waiting for players",
        )),
    }
}

pub fn etag(row: &GameRow, seats: usize) -> String {
    if row.status == GameStatus::Open {
        format!("\"0.{seats}\"")
    } else {
        format!("\"{}\"", row.version)
    }
}

/// The game view as the signed-in caller `viewer` (if any) may see it, with its ETag.
pub async fn view_response(
    st: &AppState,
    status: actix_web::http::StatusCode,
    data: &GameData,
    game: Option<&Game>,
    viewer: Option<&str>,
) -> Result<HttpResponse, ApiError> {
    let mut view = views::game_view(&data.game, &data.seats, game, viewer);
    decorate(st, &mut view, data).await?;
    Ok(HttpResponse::build(status)
        .insert_header((header::ETAG, viewer_etag(data, viewer)))
        .json(view))
}

/// The ETag of the game view for `viewer`: the version, and with the house rule
/// `tiles_in_hand` (where the view shows the caller's own hand) the caller's seat too.
pub fn viewer_etag(data: &GameData, viewer: Option<&str>) -> String {
    let tag = etag(&data.game, data.seats.len());
    if !data.game.rules.contains_key("tiles_in_hand") {
        return tag;
    }
    let seat = views::viewer_seat(&data.seats, viewer).map_or(-1, i32::from);
    format!("{}.s{seat}\"", tag.trim_end_matches('"'))
}

pub async fn current_view(
    st: &AppState,
    id: &GameId,
    viewer: Option<&str>,
) -> Result<HttpResponse, ApiError> {
    let (data, game) = load_state(st, id, viewer).await?;
    view_response(
        st,
        actix_web::http::StatusCode::OK,
        &data,
        game.as_deref(),
        viewer,
    )
    .await
}

/// Adds the clock, the invitations and the players on vacation to a game view.
async fn decorate(st: &AppState, view: &mut GameView, data: &GameData) -> Result<(), ApiError> {
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
    view.tournament = st.store.tournament_of_game(g.id.clone()).await?.map(
        |(id, name, stage, round, table, game)| GameTournament {
            id,
            name,
            stage: stage.max(0) as u32,
            round: round.max(0) as u32,
            table: table.max(0) as u32,
            game: game.max(0) as u32,
        },
    );
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
        let (time_bank, banks) = match clock.rule() {
            corr::ClockRule::Bank {
                initial,
                increment,
                max,
            } => {
                let current = g.current_user_id.as_deref();
                let banks = data
                    .seats
                    .iter()
                    .map(|s| {
                        let left = if Some(s.user_id.as_str()) == current {
                            d.map_or(0, |d| (d.at - now).max(0))
                        } else {
                            extras.banks.get(&s.user_id).copied().unwrap_or(initial)
                        };
                        BankLeft {
                            player: s.seat.clamp(0, 255) as u8,
                            minutes_left: left / 60_000,
                        }
                    })
                    .collect();
                let hours = |ms: i64| ms / corr::HOUR_MS;
                (
                    Some(TimeBank {
                        initial_hours: hours(initial),
                        hours_per_move: hours(increment),
                        max_hours: Some(hours(max)),
                    }),
                    banks,
                )
            }
            corr::ClockRule::PerMove { .. } => (None, Vec::new()),
        };
        view.clock = Some(ClockView {
            days_per_move: clock.days_per_move.clamp(0, 255) as u8,
            time_bank,
            banks,
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
            status: InvitationState::of(i.status, g.status != GameStatus::Open),
        })
        .collect();
    Ok(())
}

/// The user with this name (a name longer than any id names nobody).
pub async fn user_named(st: &AppState, name: &str) -> Result<Option<UserRow>, ApiError> {
    if name.len() > MAX_ID_LEN {
        return Ok(None);
    }
    Ok(st.store.user_by_username(name.to_string()).await?)
}
