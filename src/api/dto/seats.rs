//! Seats and invitations.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use crate::store::InvitationState;

/// An invitation to a seat.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct InvitationView {
    pub username: String,
    pub status: InvitationState,
}

/// Whom to invite.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InviteRequest {
    /// The username of the user to invite.
    #[schema(max_length = 64)]
    pub username: String,
}

/// An invitation sent.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct InviteResult {
    pub game_id: String,
    pub invited: String,
}
