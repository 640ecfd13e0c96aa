//! The house rules a game may be created with: every variant and every preset.

use actix_web::{get, HttpResponse};

use super::dto::*;

/// The house rules: every variant and preset.
///
/// Each variant has a name, what it changes and its values, the standard one first;
/// each preset is a named set of values. A game takes them at creation
/// (`options.preset`, `options.rules`) and shows those in force (`rules`). The catalog
/// changes only with the server's version.
#[utoipa::path(
    operation_id = "list_rules",
    tag = "games",
    security(()),
    responses(
        (status = 200, description = "Every house-rule variant and preset", body = RuleCatalog),
    )
)]
#[get("/rules")]
pub async fn list_rules() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("Cache-Control", "public, max-age=3600"))
        .json(tilepost_engine::rule_catalog())
}
