//! A game seen whole: its review by the strongest bot, and every player's points over it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::Action;

/// Where a game's review is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReviewStatus {
    /// Nobody asked for one (a player may, once the game is over).
    None,
    /// Waiting for the bots' pool.
    Queued,
    /// Being judged: `judged` grows as it goes.
    Running,
    Done,
    /// The review could not be made (`error` says why).
    Failed,
}

/// One decision judged by the review: the expected final margin (points ahead of the
/// best opponent, from the search over the futures its player could not see) with the
/// option the search prefers and with the option played.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct JudgedDecision {
    /// The game's version once the decision was recorded (the board before it is at
    /// `version - 1`).
    pub version: i64,
    pub seat: u8,
    pub username: String,
    pub played: Action,
    /// The option the search prefers (the one played when they agree).
    pub best: Action,
    pub margin_best: f64,
    pub margin_played: f64,
    /// `margin_best - margin_played`: what the decision cost, in points of final margin.
    pub loss: f64,
}

/// A finished game's review (`GET /v1/games/{id}/review`).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ReviewView {
    pub game_id: String,
    pub status: ReviewStatus,
    /// Decisions with a choice, to judge in all.
    pub total: u32,
    /// Every decision judged so far, in the game's order.
    pub judged: Vec<JudgedDecision>,
    /// Each player's costliest decisions (at most 5 each, losses of at least 1 point),
    /// costliest first.
    pub biggest_losses: Vec<JudgedDecision>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Every player's points at one version of the game.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TimelinePoint {
    pub version: i64,
    /// Points by seat.
    pub scores: Vec<i32>,
    /// The score if the game ended at this version, by seat (the end's scoring of
    /// everything unfinished added).
    pub if_ended: Vec<i32>,
}

/// A game's points over time (`GET /v1/games/{id}/timeline`): one point per tile placed
/// and the last version.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TimelineView {
    pub game_id: String,
    pub version: i64,
    /// Usernames by seat.
    pub players: Vec<String>,
    pub points: Vec<TimelinePoint>,
}

/// The analysis of a game's position (`GET /v1/games/{id}/analysis`), from what the
/// caller may know: a player's own view (no pile order, no other hand), a spectator's
/// the public one. While the game runs, `assistance` says what is shown: `full`
/// everything, `scores` the scores and the tile tracker (the rest absent).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AnalysisView {
    pub game_id: String,
    pub version: i64,
    /// What this game shows while it runs (everything once it is over).
    pub assistance: crate::store::Assistance,
    /// The seat whose view was analysed: the caller's, or none for a spectator.
    pub seat: Option<u8>,
    /// Every player's score now, if the game ended now, and the parts of the difference.
    pub scores: Vec<tilepost_engine::analysis::ScoreIfEnded>,
    /// The tiles still to come, by type, with where each fits now.
    pub tiles: tilepost_engine::analysis::TileTracker,
    /// Every open road, city, monastery and garden: owners, worth now and completed, the
    /// cells it needs and the tiles that fit them, whether it is dead, and the chance it
    /// is completed before the tiles run out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub features: Option<Vec<tilepost_engine::analysis::OpenFeature>>,
    /// Every field that holds a figure or supplies a completed city.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<tilepost_engine::analysis::FieldOutlook>>,
    /// How the chances were computed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chances: Option<tilepost_engine::analysis::ChanceMethod>,
}
