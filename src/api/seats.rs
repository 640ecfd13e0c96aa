//! Seats and invitations: join, start early, invite, accept or decline an invitation,
//! leave an open game, abort a game without moves.

use actix_web::{post, web, HttpResponse};

use super::dto::*;
use super::error::{ApiError, ProblemCode};
use super::extract::{ApiJson, CurrentUser, GameId};
use super::load::{self, current_view, load_data};
use super::views;
use super::AppState;
use crate::store::{StoreError, Visibility};

/// A store refusal of a seat change: a game that is gone is `game-not-found`.
fn seat_error(e: StoreError) -> ApiError {
    match e {
        StoreError::NotFound => ApiError::game_not_found(),
        other => other.into(),
    }
}

/// The time the first turn of a game has (its clock's), for its deadline.
async fn first_allowance(st: &AppState, id: &GameId) -> Result<Option<i64>, ApiError> {
    let key = id.as_str().to_string();
    Ok(st
        .store
        .clocks_of(vec![key.clone()])
        .await?
        .remove(&key)
        .map(|c| c.rule().first_allowance()))
}

/// Takes a seat through the invitation rules (used by `join` too).
async fn take_seat(
    st: &AppState,
    id: &GameId,
    user_id: &str,
    invited_only: bool,
) -> Result<(), ApiError> {
    // a private game is not there for whoever is not invited to it
    let data = load_data(st, id, Some(user_id), false).await?;
    let invited_only = invited_only || data.game.visibility == Visibility::Private;
    if !data.game.bot_accounts {
        let me = st.store.user_by_id(user_id.to_string()).await?;
        if me.is_some_and(|u| u.bot.as_deref() == Some(crate::store::BOT_ACCOUNT)) {
            return Err(ApiError::new(
                ProblemCode::BotAccountsNotAllowed,
                "this game does not take accounts marked as bots",
            ));
        }
    }
    let now = st.clock.now_ms();
    let days = first_allowance(st, id).await?;
    st.store
        .take_seat(
            id.as_str().to_string(),
            user_id.to_string(),
            now,
            invited_only,
            crate::moves::start_plan(st.notifier.clone(), now, days),
        )
        .await
        .map_err(seat_error)
}

/// Take a free seat; the game starts when the last seat is taken.
///
/// An invited caller takes the seat reserved for them; anyone else a seat nobody
/// reserved. A private game takes only the users invited to it, and a game that does
/// not take accounts marked as bots refuses them. When the last seat is taken, the game
/// starts: its players get `game.started` and the first player their turn.
#[utoipa::path(
    operation_id = "join_game",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The caller has a seat; the game view", body = GameView),
    )
)]
#[post("/games/{id}/join")]
pub async fn join_game(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    // an invited caller takes their reserved seat; others only a seat nobody reserved
    take_seat(&st, &id, &me.id, false).await?;
    st.notifier.wake();
    current_view(&st, &id, Some(&me.id)).await
}

/// Start a game before every seat is taken (creator only, at least 2 players).
///
/// The game starts with the players seated now, and has as many seats from then on. Its
/// players get `game.started` and the first player their turn.
#[utoipa::path(
    operation_id = "start_game",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The game started; the game view", body = GameView),
    )
)]
#[post("/games/{id}/start")]
pub async fn start_game(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    let data = load_data(&st, &id, Some(&me.id), false).await?;
    if data.game.creator_id != me.id {
        return Err(ApiError::new(
            ProblemCode::NotCreator,
            "only the game's creator may start it",
        ));
    }
    if data.game.status != GameStatus::Open {
        return Err(ApiError::new(
            ProblemCode::GameAlreadyStarted,
            "the game has already started",
        ));
    }
    if data.seats.len() < 2 {
        return Err(ApiError::new(
            ProblemCode::NotEnoughPlayers,
            "a game needs at least 2 players",
        ));
    }
    let now = st.clock.now_ms();
    let days = first_allowance(&st, &id).await?;
    st.store
        .start_game(
            id.as_str().to_string(),
            now,
            crate::moves::start_plan(st.notifier.clone(), now, days),
        )
        .await
        .map_err(seat_error)?;
    st.notifier.wake();
    current_view(&st, &id, Some(&me.id)).await
}

/// Invite a user to an open game (a seated player asks).
///
/// The user gets `game.invited` with a link to the game. In a private game the
/// invitation also reserves a seat for them and lets them read the game; in a public
/// game any free seat is theirs to take. Invitations are limited per game and per
/// caller and day (`TILEPOST_INVITATIONS_PER_GAME`, `TILEPOST_INVITATIONS_PER_DAY`).
#[utoipa::path(
    operation_id = "create_invitation",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    request_body = InviteRequest,
    security(("bearer" = ["game:play"])),
    responses(
        (status = 202, description = "The invitation is queued", body = InviteResult),
    )
)]
#[post("/games/{id}/invitations")]
pub async fn create_invitation(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: GameId,
    body: ApiJson<InviteRequest>,
) -> Result<HttpResponse, ApiError> {
    let data = load_data(&st, &id, Some(&me.id), false).await?;
    let Some(inviter) = data.seats.iter().find(|s| s.user_id == me.id) else {
        return Err(ApiError::new(
            ProblemCode::NotAPlayer,
            "you have no seat at this game",
        ));
    };
    if data.game.status != GameStatus::Open {
        return Err(ApiError::new(
            ProblemCode::GameAlreadyStarted,
            "the game has started",
        ));
    }
    let name = body.0.username;
    let Some(user) = load::user_named(&st, &name).await? else {
        return Err(ApiError::new(
            ProblemCode::UserNotFound,
            "no user has this username",
        ));
    };
    if data.seats.iter().any(|s| s.user_id == user.id) {
        return Err(ApiError::new(
            ProblemCode::AlreadySeated,
            "the user is seated at this game",
        ));
    }
    let reservation =
        super::limits::reserve(&st, super::limits::invitations(&st, id.as_str(), &me.id)).await?;
    let to = views::seat_info(&user);
    let row = crate::notify::invited(
        &st.notifier,
        &to,
        id.as_str(),
        &inviter.username,
        st.clock.now_ms(),
    );
    let sent = if data.game.visibility == Visibility::Private {
        // only the invited may see a private game and sit down at it: the invitation
        // is recorded (reserving a seat) with its message
        st.store
            .invite(
                id.as_str().to_string(),
                vec![(user.id.clone(), None)],
                st.clock.now_ms(),
                vec![row],
            )
            .await
    } else {
        st.store.enqueue(vec![row]).await
    };
    if let Err(e) = sent {
        reservation.release(&st).await;
        return Err(e.into());
    }
    let quota = reservation.keep();
    st.notifier.wake();
    let mut resp = HttpResponse::Accepted().json(InviteResult {
        game_id: id.into_inner(),
        invited: user.username,
    });
    quota.apply(&mut resp);
    Ok(resp)
}

/// Accept an invitation: take the reserved seat.
///
/// The caller sits down in the seat reserved for them; when it was the last free seat,
/// the game starts.
#[utoipa::path(
    operation_id = "accept_invitation",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The caller has a seat; the game view", body = GameView),
    )
)]
#[post("/games/{id}/invitation/accept")]
pub async fn accept_invitation(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    take_seat(&st, &id, &me.id, true).await?;
    current_view(&st, &id, Some(&me.id)).await
}

/// Decline an invitation: the reserved seat opens to anyone.
///
/// The invitation is gone; the seat it reserved is free for anyone who may join the
/// game.
#[utoipa::path(
    operation_id = "decline_invitation",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "Declined; the game view", body = GameView),
    )
)]
#[post("/games/{id}/invitation/decline")]
pub async fn decline_invitation(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    load_data(&st, &id, Some(&me.id), false).await?;
    st.store
        .decline_invite(id.as_str().to_string(), me.id.clone(), st.clock.now_ms())
        .await
        .map_err(seat_error)?;
    current_view(&st, &id, Some(&me.id)).await
}

/// Give up a seat before the game starts (the creator aborts instead).
///
/// The caller's seat is freed and the players seated after them move up one. Once the
/// game runs, a player leaves it with `POST /v1/games/{id}/resign`.
#[utoipa::path(
    operation_id = "leave_game",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The caller left; the game view", body = GameView),
    )
)]
#[post("/games/{id}/leave")]
pub async fn leave_game(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    let data = load_data(&st, &id, Some(&me.id), false).await?;
    if data.game.creator_id == me.id {
        return Err(ApiError::new(
            ProblemCode::NotCreator,
            "the creator cannot leave: abort the game instead",
        ));
    }
    st.store
        .leave_open_game(id.as_str().to_string(), me.id.clone(), st.clock.now_ms())
        .await
        .map_err(seat_error)?;
    current_view(&st, &id, Some(&me.id)).await
}

/// Abort a game that has no move yet (creator only): it is deleted.
///
/// The game, its seats and its invitations are deleted, whether it is still open or has
/// started without a move. Once a move is made, a player leaves with
/// `POST /v1/games/{id}/resign`.
#[utoipa::path(
    operation_id = "abort_game",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 204, description = "The game is gone"),
    )
)]
#[post("/games/{id}/abort")]
pub async fn abort_game(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    let data = load_data(&st, &id, Some(&me.id), false).await?;
    if data.game.creator_id != me.id {
        return Err(ApiError::new(
            ProblemCode::NotCreator,
            "only the game's creator may abort it",
        ));
    }
    st.store
        .abort_game(id.into_inner(), st.clock.now_ms())
        .await
        .map_err(seat_error)?;
    Ok(HttpResponse::NoContent().finish())
}

crate::api::problem::problems! {
    "join_game" {
        409 => ("Already seated, or the game has started (" [AlreadySeated, GameAlreadyStarted] ")"),
    }
    "start_game" {
        403 => ("Only the creator may start the game (" [NotCreator] ")"),
        409 => ("Already started or too few players (" [GameAlreadyStarted, NotEnoughPlayers] ")"),
    }
    "create_invitation" {
        400 => ("Invalid fields (" [ValidationFailed] ")"),
        403 => ("The caller has no seat at this game (" [NotAPlayer] ")"),
        404 => ("No such game or user (" [GameNotFound, UserNotFound] ")"),
        409 => ("The game has started, or the user is seated (" [GameAlreadyStarted, AlreadySeated] ")"),
        429 => ("Too many invitations to this game or by the caller today (" [RateLimited] "); `Retry-After` and `RateLimit-*` say when"),
    }
    "accept_invitation" {
        409 => ("No pending invitation, already seated, or the game has started (" [NotInvited, AlreadySeated, GameAlreadyStarted] ")"),
    }
    "decline_invitation" {
        409 => ("No pending invitation, or the game has started (" [NotInvited, GameAlreadyStarted] ")"),
    }
    "leave_game" {
        403 => ("Not seated here, or the creator (" [NotAPlayer, NotCreator] ")"),
        409 => ("The game has started: resign instead (" [GameAlreadyStarted] ")"),
    }
    "abort_game" {
        403 => ("Only the creator may abort (" [NotCreator] ")"),
        409 => ("A move was made: resign instead (" [GameHasMoves] ")"),
    }
}
