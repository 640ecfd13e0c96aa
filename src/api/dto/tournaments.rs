//! Tournaments: creation, the event's view, its rounds, standings, bracket, log and a
//! player's games.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::store::{Assistance, GameStatus, TournamentStatus};

/// How a stage pairs its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StageFormat {
    /// Swiss rounds (`rounds`), at tables of `table_size`.
    Swiss,
    /// Every player meets every other (twice with `double`), in `groups` groups.
    RoundRobin,
    /// A seeded bracket (double elimination with `double`).
    Knockout,
}

/// One stage of a tournament.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StageSettings {
    pub format: StageFormat,
    /// Swiss: the number of rounds, 1 to 50.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 50)]
    pub rounds: Option<u32>,
    /// Round robin: play every pairing twice; knockout: double elimination.
    #[serde(default)]
    pub double: bool,
    /// Round robin: groups, 1 to 64 (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 64)]
    pub groups: Option<u32>,
    /// Games per match: 1, 3 or 5 (default 1); the start alternates A-B-A.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 5)]
    pub best_of: Option<u8>,
    /// Seats per table: 2 to 6 (default 2; more than 2 only in a Swiss, playing one
    /// game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 2, maximum = 6)]
    pub table_size: Option<u8>,
    /// A later stage takes the best `top` of the stage before (required there; the
    /// first stage takes every registered player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 2, maximum = 1024)]
    pub top: Option<u32>,
}

/// A tie-break, applied in the configured order after points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TieBreakKind {
    Buchholz,
    BuchholzCut1,
    SonnebornBerger,
    ScoreDifference,
    HeadToHead,
    GamesWon,
    FewerStarts,
}

/// What happens to a round-robin player's results when they withdraw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WithdrawalRuleKind {
    /// Their results stand; each game they no longer play is lost by forfeit.
    ForfeitUnplayed,
    /// Fewer than half their games played: all their results are removed.
    RemoveUnderHalf,
}

/// How a game still running at the round cap is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CapRule {
    /// Scored as if it ended now (final scoring of the board as it stands).
    ScoreIfEndedNow,
    /// The player who used the most time forfeits; the others rank by score.
    Forfeit,
}

/// The round cap.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RoundCapSettings {
    /// Days a round lasts, 1 to 365.
    #[schema(minimum = 1, maximum = 365)]
    pub days: u32,
    pub decision: CapRule,
}

/// A new tournament.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTournamentRequest {
    /// 1 to 100 characters.
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    /// 1 to 8 stages, played in order.
    #[schema(min_items = 1, max_items = 8)]
    pub stages: Vec<StageSettings>,
    /// Points per finishing place for each table size (the first list for 2 seats, …
    /// the fifth for 6); default n−1, …, 1, 0.
    #[serde(default)]
    #[schema(max_items = 5)]
    pub rank_points: Vec<Vec<u32>>,
    /// Tie-breaks after points, in order; default `buchholz_cut1`, `score_difference`.
    /// A seeded draw always comes last.
    #[serde(default)]
    #[schema(max_items = 7)]
    pub tie_breaks: Vec<TieBreakKind>,
    /// A Swiss bye's value in half points (default 2: a win).
    #[schema(minimum = 0, maximum = 2000)]
    pub bye_half_points: Option<u32>,
    /// Default `forfeit_unplayed`.
    pub withdrawal: Option<WithdrawalRuleKind>,
    /// Without it, rounds have no cap.
    pub round_cap: Option<RoundCapSettings>,
    /// The earliest start of each round, counted over the whole event (RFC 3339); a
    /// round without a date starts when the one before ends.
    #[serde(default)]
    #[schema(max_items = 400)]
    pub round_starts: Vec<String>,
    /// Each game's clock: days per move, 1 to 14; without it the games have no clock.
    #[schema(minimum = 1, maximum = 14)]
    pub days_per_move: Option<i64>,
    /// Whether the organiser may enter the server's computer opponents (default no; not
    /// in a rated event).
    #[serde(default)]
    pub computer_opponents: bool,
    /// Expansion ids of every game (`river`, `abbot`, ...; default none: the base game),
    /// as in a new game. Every table size of the stages must be a game they allow (6
    /// seats need `inns_cathedrals`).
    #[serde(default)]
    pub expansions: Vec<String>,
    /// A named set of house rules for every game (`GET /v1/rules`); `rules` applies on
    /// top of it.
    #[schema(max_length = 64)]
    pub preset: Option<String>,
    /// House rules of every game: variant name → value, as in a new game.
    pub rules: Option<std::collections::BTreeMap<String, String>>,
    /// Every game is rated (default: casual): it changes its players' ratings in its
    /// pool when it ends, under the same rules as any rated game. A rated event takes
    /// neither the server's computer opponents nor accounts marked as bots.
    #[serde(default)]
    pub rated: bool,
    /// What each game's analysis shows while it runs (`full`, `scores`, `none`), as in a
    /// new game. Default: `scores` in a rated event, `full` in a casual one.
    pub assistance: Option<Assistance>,
    /// The most players who may register, 2 to 1024 (default 1024).
    #[schema(minimum = 2, maximum = 1024)]
    pub max_players: Option<u32>,
    /// Start by itself as soon as `max_players` are registered (default no: the
    /// organiser starts it).
    #[serde(default)]
    pub start_when_full: bool,
    /// Start by itself at this time (RFC 3339, in the future, within a year): with at
    /// least 2 players it starts, with fewer it ends without a round. The organiser may
    /// start it earlier, and `start_when_full` earlier still.
    pub starts_at: Option<String>,
    /// Bounds on the rating of players who register themselves, in the pool of the
    /// games (`base` without expansions, `expansions` with any), 0 to 4000
    /// (a player without a rating counts as 1500; computer opponents are not bound).
    #[schema(minimum = 0, maximum = 4000)]
    pub min_rating: Option<i32>,
    #[schema(minimum = 0, maximum = 4000)]
    pub max_rating: Option<i32>,
    /// Only the players the organiser invites (`POST …/invitations`) may register
    /// (default no).
    #[serde(default)]
    pub invitation_only: bool,
}

/// A player the organiser invites.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InviteToTournamentRequest {
    #[schema(max_length = 64)]
    pub username: String,
}

/// The organiser pauses an event.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PauseTournamentRequest {
    /// Shown to the players (1 to 500 characters).
    #[schema(max_length = 500)]
    pub reason: String,
}

/// A tournament.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TournamentView {
    pub id: String,
    pub name: String,
    pub organiser: String,
    pub status: TournamentStatus,
    /// Players registered (withdrawn ones included).
    pub players: i32,
    pub max_players: u32,
    /// The event starts by itself once `max_players` are registered.
    pub start_when_full: bool,
    /// When the event starts by itself (with fewer than 2 players, it ends then).
    pub starts_at: Option<String>,
    /// Bounds on the rating of players who register, in the pool of the games
    /// (unrated: 1500).
    pub min_rating: Option<i32>,
    pub max_rating: Option<i32>,
    /// Only the players the organiser invited may register.
    pub invitation_only: bool,
    /// The organiser invited the caller.
    pub invited: bool,
    /// The stage being played (0-based) and its round (1-based; 0 before the first).
    pub current_stage: i32,
    pub current_round: i32,
    pub round_started_at: Option<String>,
    /// When the round cap decides the games still running.
    pub round_deadline: Option<String>,
    /// When the next round is paired (a round waiting for its date).
    pub next_round_at: Option<String>,
    /// When the organiser paused the event (none: it is not paused). While paused, no
    /// round is paired, the round cap waits and the games' clocks stand still.
    pub paused_at: Option<String>,
    /// The organiser's reason for the pause (in the event's own view).
    pub pause_reason: Option<String>,
    pub stages: Vec<StageSettings>,
    pub rank_points: Vec<Vec<u32>>,
    pub tie_breaks: Vec<TieBreakKind>,
    pub bye_half_points: u32,
    pub withdrawal: WithdrawalRuleKind,
    pub round_cap: Option<RoundCapSettings>,
    pub round_starts: Vec<String>,
    pub days_per_move: Option<u32>,
    pub computer_opponents: bool,
    /// Expansion ids of every game (empty: the base game).
    pub expansions: Vec<String>,
    /// House rules of every game: each variant that differs from the standard rules.
    pub rules: std::collections::BTreeMap<String, String>,
    /// Every game is rated.
    pub rated: bool,
    /// What each game's analysis shows while it runs.
    pub assistance: Assistance,
    /// The caller is registered (and has not withdrawn).
    pub registered: bool,
    pub created_at: String,
}

/// A page of tournaments.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TournamentList {
    pub tournaments: Vec<TournamentView>,
    pub next_cursor: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TournamentListQuery {
    /// Only tournaments in this state.
    pub status: Option<TournamentStatus>,
    /// Page size, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// A computer opponent the organiser enters.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AddTournamentBotRequest {
    /// `random`, `greedy`, `mcts` or `expert`.
    #[schema(max_length = 16)]
    pub level: String,
}

/// What an organiser's adjustment changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AdjustmentKind {
    /// Points added to (or, negative, taken from) a player in the current stage.
    Points,
    /// A recorded game's result replaced.
    Result,
    /// A player removed: every game they have left in the round is forfeited (a whole
    /// undecided match), they leave their running games, and they are not paired again.
    Remove,
}

/// An organiser's adjustment, recorded in the log with its reason.
///
/// `points` takes `player` and `points`; `result` takes the game (`stage`, `round`,
/// `table`, `game`) and its new `scores` in the table's seat order; `remove` takes
/// `player`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AdjustmentRequest {
    pub kind: AdjustmentKind,
    /// Shown to the players with the adjustment, 1 to 500 characters.
    #[schema(min_length = 1, max_length = 500)]
    pub reason: String,
    /// `points`, `remove`: the player's user id.
    #[schema(max_length = 64)]
    pub player: Option<String>,
    /// `points`: a multiple of 0.5 from -100 to 100, not 0.
    #[schema(minimum = -100, maximum = 100, multiple_of = 0.5)]
    pub points: Option<f64>,
    /// `result`: the game's stage (0-based), round (1-based), table and game of the
    /// match (0-based), as `…/rounds` lists them.
    #[schema(maximum = 7)]
    pub stage: Option<u32>,
    #[schema(minimum = 1, maximum = 1000)]
    pub round: Option<u32>,
    #[schema(minimum = 1, maximum = 1000)]
    pub table: Option<u32>,
    #[schema(maximum = 4)]
    pub game: Option<u32>,
    /// `result`: one score per seat, in the table's seat order.
    #[schema(min_items = 2, max_items = 6)]
    pub scores: Option<Vec<i64>>,
}

/// A player as the tournament's pages show them.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TournamentPlayer {
    pub user_id: String,
    pub username: String,
    /// The level of a computer opponent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
}

/// One tie-break's value.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TieBreakValue {
    pub kind: TieBreakKind,
    pub value: f64,
}

/// A player's line in the standings.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct StandingView {
    /// 1-based and unique (a seeded draw separates players tied on everything).
    pub rank: u32,
    pub player: TournamentPlayer,
    /// Match points: rank points, byes, forfeits and adjustments.
    pub points: f64,
    /// A game won 1, drawn ½ (at a multi-player table, the share of opponents beaten).
    pub game_points: f64,
    pub games: u32,
    pub games_won: u32,
    pub starts: u32,
    pub byes: u32,
    pub score_difference: f64,
    pub withdrawn: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<u32>,
    /// The configured tie-breaks' values, in order.
    pub tie_breaks: Vec<TieBreakValue>,
}

/// A page of a stage's standings.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct StandingsPage {
    pub stage: u32,
    pub standings: Vec<StandingView>,
    pub next_cursor: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StageQuery {
    /// The stage (0-based; default the one being played).
    pub stage: Option<u32>,
    /// Page size, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// How a game of a match was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ResultDecision {
    /// Played to its end.
    Played,
    /// Some players forfeited (resigned, ran out of time, or the round cap's rule).
    Forfeit,
    /// Scored as if it ended at the round cap.
    ScoreIfEndedNow,
}

/// A game of a match.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MatchGameView {
    /// 0-based within the match.
    pub game: u32,
    /// The game (absent for a result recorded without one).
    pub game_id: Option<String>,
    pub status: Option<GameStatus>,
    /// The recorded result: scores in the table's seat order.
    pub scores: Option<Vec<i64>>,
    pub decision: Option<ResultDecision>,
    /// Seats (indices into `players`) that forfeited.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forfeited: Vec<u8>,
}

/// A table of a round.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TableView {
    pub table: u32,
    /// The knockout bracket's name for the match (`W1.1`, `L2.3`, `GF`).
    pub bracket: Option<String>,
    /// In the start order of the match's first game.
    pub players: Vec<TournamentPlayer>,
    pub games: Vec<MatchGameView>,
    /// Each player's place once the match is decided (0 = first; equal places tie).
    pub places: Option<Vec<u32>>,
}

/// A round with its pairing.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RoundView {
    pub stage: u32,
    pub round: u32,
    pub tables: Vec<TableView>,
    pub byes: Vec<TournamentPlayer>,
}

/// A page of rounds, in order.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RoundList {
    pub rounds: Vec<RoundView>,
    pub next_cursor: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// Page size, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// A knockout match.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct BracketMatch {
    pub name: String,
    pub players: Vec<Option<TournamentPlayer>>,
    pub winner: Option<TournamentPlayer>,
    /// `waiting`, `ready`, `playing`, `decided`, `walkover`, `empty` or `not_needed`.
    pub status: String,
    /// The round and table where it is played.
    pub round: Option<u32>,
    pub table: Option<u32>,
}

/// A knockout stage's bracket.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct BracketView {
    pub stage: u32,
    pub matches: Vec<BracketMatch>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BracketQuery {
    /// The stage (0-based; default the one being played).
    pub stage: Option<u32>,
}

/// One decision of the tournament's log.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TournamentEventView {
    pub seq: i64,
    /// `tournament_created`, `player_registered`, `player_withdrew`, `player_invited`, `round_paired`,
    /// `result_recorded`, `organiser_adjusted` or `stage_finished`.
    #[serde(rename = "type")]
    pub kind: String,
    pub version: i32,
    /// The decision as stored (see docs/tournaments.md).
    pub payload: serde_json::Value,
    pub created_at: String,
}

/// A page of the log.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TournamentEventList {
    pub events: Vec<TournamentEventView>,
    /// Pass as `after` for the next page.
    pub next_after: Option<i64>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TournamentEventsQuery {
    /// Events after this `seq` (default 0).
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// Page size, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// A game of a tournament.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TournamentGameView {
    pub game_id: String,
    pub stage: u32,
    pub round: u32,
    pub table: u32,
    /// 0-based within the match.
    pub game: u32,
    pub status: GameStatus,
}

/// A page of a player's games in a tournament.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TournamentGameList {
    pub games: Vec<TournamentGameView>,
    pub next_cursor: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TournamentGamesQuery {
    /// `me` (default) or a user id.
    pub player: Option<String>,
    /// Page size, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// The tournament a game belongs to (in the game's view).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GameTournament {
    pub id: String,
    pub name: String,
    /// 0-based stage, 1-based round and table, 0-based game of the match.
    pub stage: u32,
    pub round: u32,
    pub table: u32,
    pub game: u32,
}
