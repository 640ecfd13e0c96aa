//! Request and response bodies of API v1, one file per resource. Separate from database
//! rows and from engine types (conversions live in `views`), except the decision
//! vocabulary: an action and the kinds it names (figures, the mage and the witch, crop
//! modes, score figures) are the engine's own types, read, written and documented as they
//! are (the engine's `openapi` feature derives their schemas).

pub mod account;
pub mod analysis;
pub mod automation;
pub mod chat;
pub mod clock;
pub mod fields;
pub mod games;
pub mod health;
pub mod history;
pub mod moves;
pub mod pictures;
pub mod players;
pub mod push;
pub mod seats;
pub mod tokens;
pub mod tournaments;
pub mod users;
pub mod webhooks;

pub use account::*;
pub use analysis::*;
pub use automation::*;
pub use chat::*;
pub use clock::*;
pub use games::*;
pub use health::*;
pub use history::*;
pub use moves::*;
pub use pictures::*;
pub use players::*;
pub use push::*;
pub use seats::*;
pub use tilepost_engine::figures::{FigureKind, MagicFigure};
pub use tilepost_engine::{Action, RuleCatalog, RulePreset, RuleVariant};
pub use tokens::*;
pub use tournaments::*;
pub use users::*;
pub use webhooks::*;
