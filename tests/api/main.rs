//! Black-box API tests: the real server on port 0, spoken to over HTTP, each test on its
//! own fresh database, on SQLite and on Postgres.

pub mod common;

mod auth;
mod correspondence;
mod edges;
mod errors;
mod games;
mod limits;
mod no_peeking;
mod notifications;
mod openapi;
mod pictures;
mod play;
mod resilience;
mod tidy;
mod writes;
