//! The pure core of tilepost's tournaments: an append-only log of decisions
//! ([`Event`]), replayed into a [`State`] ([`Tournament::replay`]) from which every
//! derived view comes: the next round's pairing ([`State::next_pairing`], recorded as an
//! event once computed), standings with tie-breaks ([`State::standings`]), the games
//! waiting for a result ([`State::pending_games`]), knockout brackets
//! ([`State::bracket`]) and the players a knockout's matches put out
//! ([`State::knocked_out`]), and the end of a stage ([`State::finish_stage`]).
//!
//! Like the engine, this crate does no IO: no files, network, clock, database or global
//! randomness. Randomness enters as data (the seed given to a pairing, the event's
//! draw seed). Every rule is stated in the crate's README.md.

pub mod audit;
pub mod config;
pub mod error;
pub mod event;
pub mod knockout;
pub mod points;
pub mod rng;
pub mod roundrobin;
pub mod standings;
pub mod state;
pub mod swiss;

pub use audit::{audit, Audit};
pub use config::{
    CapDecision, Config, Entry, Format, RoundCap, StageConfig, TieBreak, WithdrawalRule,
};
pub use error::{Error, EventError};
pub use event::{Adjustment, Decision, Event, GameResult, Table};
pub use knockout::{Bracket, BracketMatchView, KnockedOut};
pub use points::Points;
pub use standings::Standing;
pub use state::{MatchStatus, Pairing, PendingGame, State, TableState, Tournament};
