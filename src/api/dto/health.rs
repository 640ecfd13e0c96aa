//! Liveness and readiness.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Liveness and readiness.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: String,
    /// `postgres` or `sqlite` (readiness only).
    pub database: Option<String>,
}
