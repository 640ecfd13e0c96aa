//! Standing orders and conditional turns (plans).

use serde::{Deserialize, Serialize};
use tilepost_engine::Action;
use utoipa::ToSchema;

pub use crate::moves::auto::{
    CropAddOrder, CropRemoveOrder, MessageFigureOrder, StandingOrders, VictimOrder, WagonOrder,
};

/// Changes to standing orders: a field left out stays as it is; `null` clears it (a
/// default goes back to `ask`, a game's order back to the player's default).
#[derive(Clone, Copy, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OrdersPatch {
    #[serde(default, deserialize_with = "crate::api::dto::fields::nullable")]
    #[schema(value_type = Option<CropAddOrder>, nullable)]
    pub crop_add: Option<Option<CropAddOrder>>,
    #[serde(default, deserialize_with = "crate::api::dto::fields::nullable")]
    #[schema(value_type = Option<CropRemoveOrder>, nullable)]
    pub crop_remove: Option<Option<CropRemoveOrder>>,
    #[serde(default, deserialize_with = "crate::api::dto::fields::nullable")]
    #[schema(value_type = Option<WagonOrder>, nullable)]
    pub freed_wagon: Option<Option<WagonOrder>>,
    #[serde(default, deserialize_with = "crate::api::dto::fields::nullable")]
    #[schema(value_type = Option<MessageFigureOrder>, nullable)]
    pub message_figure: Option<Option<MessageFigureOrder>>,
    #[serde(default, deserialize_with = "crate::api::dto::fields::nullable")]
    #[schema(value_type = Option<VictimOrder>, nullable)]
    pub robber_victim: Option<Option<VictimOrder>>,
}

/// A game's orders set for this game only (`null`: the player's default applies).
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, ToSchema)]
pub struct GameOrderOverrides {
    pub crop_add: Option<CropAddOrder>,
    pub crop_remove: Option<CropRemoveOrder>,
    pub freed_wagon: Option<WagonOrder>,
    pub message_figure: Option<MessageFigureOrder>,
    pub robber_victim: Option<VictimOrder>,
}

/// The caller's standing orders at one game.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GameOrdersView {
    pub game_id: String,
    /// The kinds of orders that can come into play at this game (`crop_add`,
    /// `crop_remove`, `freed_wagon`, `message_figure`, `robber_victim`: those of its
    /// expansions); only these may be set for it.
    pub applicable: Vec<String>,
    /// The orders set for this game.
    pub game: GameOrderOverrides,
    /// The caller's defaults (`PATCH /v1/users/me/orders`).
    pub defaults: StandingOrders,
    /// What applies at this game.
    pub effective: StandingOrders,
}

/// A conditional turn: if the caller draws `tile`, play `actions`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanDto {
    /// The tile type (catalog id, e.g. `base/U`).
    #[schema(max_length = 64)]
    pub tile: String,
    /// A `place_tile`, then optionally a `place_figure` or a `pass` (without it the
    /// figure decision waits for the player).
    #[schema(max_items = 2)]
    pub actions: Vec<Action>,
}

/// The caller's plans at a game (private: nobody else sees them).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlansDto {
    /// At most one plan per tile type.
    pub plans: Vec<PlanDto>,
}
