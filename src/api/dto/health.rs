//! Liveness and readiness.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Liveness and readiness.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: String,
    /// `postgres` or `sqlite`: readiness only (`GET /readyz`); absent from liveness
    /// (`GET /healthz`), which does not touch the database.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub database: Option<String>,
}
