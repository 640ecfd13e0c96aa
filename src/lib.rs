//! # tilepost
//!
//! A play-by-mail Carcassonne server: games over HTTP on an event log in Postgres, with
//! embedded SQLite as the zero-set-up default. The rules live in the pure crate
//! `tilepost-engine`; this crate adds the store (`store`, the only module that names
//! diesel), the decision service (`moves`, the one writer of running games), the tournament
//! service (`tournaments`, the one writer of tournaments' logs), deadlines
//! (`correspondence`), the HTTP API (`api`, the only module that knows HTTP),
//! notifications (`notify`), email locales (`i18n`), start-up (`startup`) and the email
//! relay (`relay`, `tilepost mail-relay`).

pub mod api;
pub mod bots;
pub mod cache;
pub mod clock;
pub mod config;
pub mod correspondence;
pub mod grants;
pub mod i18n;
pub mod live;
pub mod moves;
pub mod notify;
pub mod relay;
pub mod replay;
pub mod review;
pub mod seed;
pub mod standing;
pub mod startup;
pub mod store;
pub mod sweep;
pub mod tournaments;
