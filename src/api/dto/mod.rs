//! Request and response bodies of API v1, one file per resource. Separate from database
//! rows and from engine types: conversions live in `views`; the actions of a move are in
//! [`crate::api::action`].

pub mod account;
pub mod chat;
pub mod clock;
pub mod games;
pub mod health;
pub mod history;
pub mod moves;
pub mod pictures;
pub mod seats;
pub mod users;
pub mod webhooks;

pub use crate::api::action::*;
pub use account::*;
pub use chat::*;
pub use clock::*;
pub use games::*;
pub use health::*;
pub use history::*;
pub use moves::*;
pub use pictures::*;
pub use seats::*;
pub use users::*;
pub use webhooks::*;
