//! Liveness and readiness.

use actix_web::{get, web, HttpResponse};

use super::dto::Health;
use super::error::ApiError;
use super::AppState;

/// Liveness: the process answers.
///
/// Answers `200` while the process serves requests, without touching the database: for
/// a supervisor that restarts a process that hangs.
#[utoipa::path(
    operation_id = "get_health",
    tag = "health",
    security(()),
    responses((status = 200, description = "The server is alive", body = Health))
)]
#[get("/healthz")]
async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: "ok".into(),
        database: None,
    })
}

/// Readiness: the database answers.
///
/// Answers `200` with the database backend (`postgres` or `sqlite`) when a query goes
/// through, `503` when it does not: for a load balancer that sends requests only to
/// processes that can serve them.
#[utoipa::path(
    operation_id = "get_readiness",
    tag = "health",
    security(()),
    responses(
        (status = 200, description = "The server and its database answer", body = Health),
    )
)]
#[get("/readyz")]
async fn readyz(st: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    st.store.ping().await?;
    Ok(HttpResponse::Ok().json(Health {
        status: "ok".into(),
        database: Some(st.store.backend().into()),
    }))
}

crate::api::problem::problems! {
    "get_readiness" {
        503 => ("The database is unreachable (" [ServiceUnavailable] ")"),
    }
}
