//! Black-box API tests: the real server on port 0, spoken to over HTTP, each test on its
//! own fresh database, on SQLite and on Postgres.

/// One `#[test]` per database for each scenario `fn name(kind: Db)` (the scenarios
/// start their own server: some need configuration).
macro_rules! each_db {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $( #[test] fn $name() { super::$name(crate::common::Db::Sqlite) } )*
        }
        mod postgres {
            $( #[test] fn $name() { super::$name(crate::common::Db::Postgres) } )*
        }
    };
}

pub mod common;

mod accounts;
mod analysis;
mod auth;
mod automation;
mod bots;
mod calendar;
mod cli;
mod clocks;
mod correspondence;
mod deliveries;
mod edges;
mod errors;
mod games;
mod house_rules;
mod limits;
mod lists;
mod migrations;
mod no_peeking;
mod notifications;
mod openapi;
mod pictures;
mod play;
mod players;
mod push;
mod rated_games;
mod relay;
mod resilience;
mod schema;
mod stream;
mod tidy;
mod tokens;
mod tournament_entries;
mod tournament_games;
mod tournament_pause;
mod tournament_sims;
mod tournaments;
mod trust;
mod undo;
mod writes;
