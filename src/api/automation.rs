//! What the server may decide for the caller: standing orders (defaults for every game,
//! and per game) and conditional turns ("plans"). Each player sees and changes only
//! their own; nothing here is ever shown to anyone else.

use actix_web::{get, patch, put, web, HttpResponse};

use super::dto::*;
use super::error::ApiError;
use super::extract::{ApiJson, CurrentUser, GameId};
use super::load::load_data;
use super::problem::ProblemCode;
use super::AppState;
use crate::moves::auto::{check_plan_form, plan_of_row};
use crate::moves::{Decision, DecisionError, Request};
use crate::store::{GameData, GameStatus, OrderRow, PlanRow, EVERY_GAME};

/// The most plans a player may leave at one game (one per tile type at most).
pub const MAX_PLANS: usize = 100;

fn defaults_of(rows: &[OrderRow]) -> StandingOrders {
    StandingOrders::default().with_rows(rows.iter())
}

fn overrides_of(rows: &[OrderRow]) -> GameOrderOverrides {
    let o = StandingOrders::default().with_rows(rows.iter());
    let set = |k: &str| rows.iter().any(|r| r.kind == k);
    GameOrderOverrides {
        crop_add: set("crop_add").then_some(o.crop_add),
        crop_remove: set("crop_remove").then_some(o.crop_remove),
        freed_wagon: set("freed_wagon").then_some(o.freed_wagon),
        message_figure: set("message_figure").then_some(o.message_figure),
        robber_victim: set("robber_victim").then_some(o.robber_victim),
    }
}

/// The stored form of a patch: each kind it names with its answer (`None`: clear).
fn changes_of(p: &OrdersPatch) -> Result<Vec<(String, Option<String>)>, ApiError> {
    fn name<T: serde::Serialize>(v: &T) -> Result<String, ApiError> {
        match serde_json::to_value(v) {
            Ok(serde_json::Value::String(s)) => Ok(s),
            _ => Err(ApiError::internal("an order's answer is not a name")),
        }
    }
    let mut out = Vec::new();
    if let Some(v) = &p.crop_add {
        out.push(("crop_add".to_string(), v.as_ref().map(name).transpose()?));
    }
    if let Some(v) = &p.crop_remove {
        out.push(("crop_remove".to_string(), v.as_ref().map(name).transpose()?));
    }
    if let Some(v) = &p.freed_wagon {
        out.push(("freed_wagon".to_string(), v.as_ref().map(name).transpose()?));
    }
    if let Some(v) = &p.message_figure {
        out.push((
            "message_figure".to_string(),
            v.as_ref().map(name).transpose()?,
        ));
    }
    if let Some(v) = &p.robber_victim {
        out.push((
            "robber_victim".to_string(),
            v.as_ref().map(name).transpose()?,
        ));
    }
    Ok(out)
}

/// The caller's seat at the game, or `not-a-player`.
fn require_seat(data: &GameData, user_id: &str) -> Result<(), ApiError> {
    if data.seats.iter().any(|s| s.user_id == user_id) {
        Ok(())
    } else {
        Err(DecisionError::NotAPlayer.into())
    }
}

/// Lets the server take at once what the caller's new orders or plans decide (a
/// decision of theirs may be pending already). A race with another writer is not an
/// error: that write settled the game itself.
async fn settle_now(st: &AppState, game_id: &str, user_id: &str) -> Result<(), ApiError> {
    let req = Request {
        game_id: game_id.to_string(),
        decision: Decision::Settle {
            user_id: user_id.to_string(),
        },
        expected_version: None,
        idempotency: None,
        now: st.clock.now_ms(),
    };
    match st.decisions().record(req, |_| Ok(String::new())).await {
        Ok(_)
        | Err(
            DecisionError::Stale(_)
            | DecisionError::NotStarted
            | DecisionError::GameOver
            | DecisionError::NotRunning,
        ) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// The caller's default standing orders, for every game they play.
///
/// A standing order is the answer the server gives for the caller when a decision comes
/// to them outside their own turn's choices (a crop circle's follower, a freed wagon, a
/// message's figure, a robber's victim); `ask` waits for the player. A game's own
/// orders (`GET /v1/games/{id}/orders`) come before these.
#[utoipa::path(
    operation_id = "get_my_orders",
    tag = "users",
    security(("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "The caller's default orders", body = StandingOrders),
    )
)]
#[get("/users/me/orders")]
pub async fn get_my_orders(
    st: web::Data<AppState>,
    me: CurrentUser,
) -> Result<HttpResponse, ApiError> {
    let rows = st
        .store
        .orders_of(me.id.clone(), EVERY_GAME.to_string())
        .await?;
    Ok(HttpResponse::Ok().json(defaults_of(&rows)))
}

/// Change the caller's default standing orders.
///
/// Each kind of decision that can come to a player outside their own choices gets an
/// answer the server gives for them the moment such a decision is pending (`ask`: wait
/// for the player). A field left out stays as it is; `null` sets it back to `ask`. A
/// game's own orders (`PATCH /v1/games/{id}/orders`) come first.
#[utoipa::path(
    operation_id = "update_my_orders",
    tag = "users",
    request_body = OrdersPatch,
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The caller's default orders", body = StandingOrders),
    )
)]
#[patch("/users/me/orders")]
pub async fn update_my_orders(
    st: web::Data<AppState>,
    me: CurrentUser,
    body: ApiJson<OrdersPatch>,
) -> Result<HttpResponse, ApiError> {
    let changes = changes_of(&body.0)?;
    st.store
        .set_orders(
            me.id.clone(),
            EVERY_GAME.to_string(),
            changes,
            st.clock.now_ms(),
        )
        .await?;
    let rows = st
        .store
        .orders_of(me.id.clone(), EVERY_GAME.to_string())
        .await?;
    Ok(HttpResponse::Ok().json(defaults_of(&rows)))
}

async fn game_orders(
    st: &AppState,
    data: &GameData,
    user_id: &str,
) -> Result<GameOrdersView, ApiError> {
    let game_id = data.game.id.as_str();
    let defaults = st
        .store
        .orders_of(user_id.to_string(), EVERY_GAME.to_string())
        .await?;
    let mine = st
        .store
        .orders_of(user_id.to_string(), game_id.to_string())
        .await?;
    let defaults = defaults_of(&defaults);
    Ok(GameOrdersView {
        game_id: game_id.to_string(),
        applicable: StandingOrders::kinds_for(&data.game.expansions)
            .into_iter()
            .map(String::from)
            .collect(),
        game: overrides_of(&mine),
        defaults,
        effective: defaults.with_rows(mine.iter()),
    })
}

/// The caller's standing orders at a game.
///
/// The orders set for this game alone, the caller's defaults, and what applies at this
/// game (a game's order where set, else the default). Only the game's players have
/// orders there.
#[utoipa::path(
    operation_id = "get_game_orders",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "The caller's orders at the game", body = GameOrdersView),
    )
)]
#[get("/games/{id}/orders")]
pub async fn get_game_orders(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    let data = load_data(&st, &id, Some(&me.id), false).await?;
    require_seat(&data, &me.id)?;
    Ok(HttpResponse::Ok().json(game_orders(&st, &data, &me.id).await?))
}

/// Change the caller's standing orders at one game.
///
/// A field left out stays as it is; `null` sets it back to the caller's default. A
/// decision of the caller's that is pending at this game and that the new orders answer
/// is taken at once. Only the kinds in the view's `applicable` (those of the game's
/// expansions) may be set: an order for a decision the game never asks for gets `422
/// order-not-in-game`.
#[utoipa::path(
    operation_id = "update_game_orders",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    request_body = OrdersPatch,
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The caller's orders at the game", body = GameOrdersView),
    )
)]
#[patch("/games/{id}/orders")]
pub async fn update_game_orders(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: GameId,
    body: ApiJson<OrdersPatch>,
) -> Result<HttpResponse, ApiError> {
    let data = load_data(&st, &id, Some(&me.id), false).await?;
    require_seat(&data, &me.id)?;
    let changes = changes_of(&body.0)?;
    let applicable = StandingOrders::kinds_for(&data.game.expansions);
    if let Some((kind, _)) = changes
        .iter()
        .find(|(k, v)| v.is_some() && !applicable.contains(&k.as_str()))
    {
        let expansion = StandingOrders::expansion_of(kind).map_or("", |e| e.id());
        return Err(ApiError::new(
            ProblemCode::OrderNotInGame,
            format!("{kind} answers a decision of {expansion}, which this game does not use"),
        )
        .with_field(kind.clone(), format!("this game has no {expansion}")));
    }
    st.store
        .set_orders(
            me.id.clone(),
            id.as_str().to_string(),
            changes,
            st.clock.now_ms(),
        )
        .await?;
    if data.game.status == GameStatus::Active {
        settle_now(&st, id.as_str(), &me.id).await?;
    }
    Ok(HttpResponse::Ok().json(game_orders(&st, &data, &me.id).await?))
}

fn plans_view(rows: &[PlanRow]) -> PlansDto {
    PlansDto {
        plans: rows
            .iter()
            .filter_map(|r| {
                plan_of_row(r).map(|p| PlanDto {
                    tile: r.tile.clone(),
                    actions: p.actions,
                })
            })
            .collect(),
    }
}

/// The caller's conditional turns at a game.
///
/// Each plan says: if the caller draws this tile, play it here (with this figure on
/// this spot, or none). Plans are private: nobody else sees them, and the history shows
/// a played plan as the caller's own decision to everyone else.
#[utoipa::path(
    operation_id = "get_plans",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "The caller's plans", body = PlansDto),
    )
)]
#[get("/games/{id}/plans")]
pub async fn get_plans(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    let data = load_data(&st, &id, Some(&me.id), false).await?;
    require_seat(&data, &me.id)?;
    let rows = st
        .store
        .plans_of(id.as_str().to_string(), me.id.clone())
        .await?;
    Ok(HttpResponse::Ok().json(plans_view(&rows)))
}

/// Replace the caller's conditional turns at a running game.
///
/// A plan says: "if I draw this tile, play it here (with this figure on this spot, or
/// none)", at most one per tile type. When the caller's turn starts with a tile that
/// has a plan, and the plan is legal on the board as it is then, the server plays it
/// (the caller's own view of the history says `decided_by: plan`; to everyone else it
/// is the caller's decision) and sends `game.plan_played`; otherwise the turn waits as
/// usual. Plans are dropped when the caller's turn comes, and checked only then:
/// setting one says nothing about the pile. A plan for the tile the caller holds now
/// plays at once.
#[utoipa::path(
    operation_id = "set_plans",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    request_body = PlansDto,
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The caller's plans (a plan that played at once is gone)", body = PlansDto),
    )
)]
#[put("/games/{id}/plans")]
pub async fn set_plans(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: GameId,
    body: ApiJson<PlansDto>,
) -> Result<HttpResponse, ApiError> {
    let data = load_data(&st, &id, Some(&me.id), false).await?;
    require_seat(&data, &me.id)?;
    match data.game.status {
        GameStatus::Open => return Err(DecisionError::NotStarted.into()),
        GameStatus::Finished => return Err(DecisionError::GameOver.into()),
        GameStatus::Active => {}
    }
    let plans = body.0.plans;
    if plans.len() > MAX_PLANS {
        return Err(ApiError::validation(
            "plans",
            format!("at most {MAX_PLANS} plans"),
        ));
    }
    let now = st.clock.now_ms();
    let mut rows: Vec<PlanRow> = Vec::with_capacity(plans.len());
    for (i, p) in plans.into_iter().enumerate() {
        if tilepost_engine::catalog().id(&p.tile).is_none() {
            return Err(ApiError::validation(
                format!("plans[{i}].tile"),
                "not a tile type of the catalog (GET /v1/tiles)",
            ));
        }
        if rows.iter().any(|r| r.tile == p.tile) {
            return Err(ApiError::validation(
                format!("plans[{i}].tile"),
                "one plan per tile type",
            ));
        }
        check_plan_form(&p.actions)
            .map_err(|m| ApiError::validation(format!("plans[{i}].actions"), m))?;
        let actions = serde_json::to_string(&p.actions).map_err(ApiError::internal)?;
        rows.push(PlanRow {
            game_id: id.as_str().to_string(),
            user_id: me.id.clone(),
            tile: p.tile,
            actions,
            created_at: now,
        });
    }
    st.store
        .set_plans(id.as_str().to_string(), me.id.clone(), rows)
        .await?;
    settle_now(&st, id.as_str(), &me.id).await?;
    let rows = st
        .store
        .plans_of(id.as_str().to_string(), me.id.clone())
        .await?;
    Ok(HttpResponse::Ok().json(plans_view(&rows)))
}

crate::api::problem::problems! {
    "update_my_orders" {
        400 => ("Invalid fields (" [ValidationFailed] ")"),
    }
    "get_game_orders" {
        403 => ("Not a player of this game (" [NotAPlayer] ")"),
    }
    "update_game_orders" {
        400 => ("Invalid fields (" [ValidationFailed] ")"),
        403 => ("Not a player of this game (" [NotAPlayer] ")"),
        422 => ("An order for a decision of an expansion the game does not use (" [OrderNotInGame] ")"),
    }
    "get_plans" {
        403 => ("Not a player of this game (" [NotAPlayer] ")"),
    }
    "set_plans" {
        400 => ("Invalid plans (" [ValidationFailed] ")"),
        403 => ("Not a player of this game (" [NotAPlayer] ")"),
        409 => ("The game is not running (" [GameNotStarted, GameOver] ")"),
    }
}
