//! Black-box API tests: the real server on port 0, spoken to over HTTP, each test on its
//! own fresh database, on SQLite and on Postgres.

pub mod common;

mod accounts;
mod auth;
mod automation;
mod bots;
mod cli;
mod correspondence;
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
mod relay;
mod resilience;
mod schema;
mod stream;
mod tidy;
mod tokens;
mod writes;
