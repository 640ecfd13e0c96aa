//! Games: creation, the state view, lists, placements and the listed actions.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

pub use crate::store::{Assistance, GameStatus, Visibility};

use super::clock::{ClockView, VacationView};
use super::seats::InvitationView;
use tilepost_engine::figures::{FigureKind, MagicFigure};
use tilepost_engine::Action;

/// Options of a new game.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GameOptions {
    /// Catalog tile ids (`base/D`, ...) that replace the shuffled draw pile, first drawn
    /// first. A game created with it is a sandbox game.
    #[schema(max_items = 500)]
    pub tile_order: Option<Vec<String>>,
    /// Days per move, 1 to 14; without it (and without `time_bank`) the game has no
    /// clock.
    #[schema(minimum = 1, maximum = 14)]
    pub days_per_move: Option<i64>,
    /// A time bank instead of days per move: each player's own bank of hours, which
    /// their turns draw on and each of their turns adds to.
    pub time_bank: Option<super::clock::TimeBank>,
    /// A named set of house rules (`GET /v1/rules` lists the presets: `standard`,
    /// `first_edition`, `tournament`, ...); `rules` applies on top of it.
    #[schema(max_length = 64)]
    pub preset: Option<String>,
    /// House rules: variant name → value (`{"small_city_points": "2"}`); `GET
    /// /v1/rules` lists every variant with its values and default. Variants not named
    /// keep the preset's value (or the standard rules').
    pub rules: Option<std::collections::BTreeMap<String, String>>,
}

/// A new game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGameRequest {
    /// Expansion ids (`river`, `abbot`, ...).
    #[serde(default)]
    pub expansions: Vec<String>,
    /// Number of seats, 2 to 6 (6 needs `inns_cathedrals`).
    #[schema(minimum = 2, maximum = 6)]
    pub seats: i64,
    #[serde(default, deserialize_with = "crate::api::dto::fields::optional_object")]
    pub options: Option<GameOptions>,
    /// Usernames invited to the game: a seat is reserved for each (`game.invited` is
    /// sent); the other free seats are open to anyone.
    #[serde(default)]
    #[schema(max_items = 5)]
    pub invite: Vec<String>,
    /// Computer opponents, one per seat (`random`, `greedy`, `mcts`, `expert`): they take their
    /// seats at once and the server plays them (within seconds, never timing out).
    #[serde(default)]
    #[schema(max_items = 5)]
    pub bots: Vec<String>,
    /// A rated game changes its players' ratings when it ends (default: casual). A
    /// sandbox game (`options.tile_order`) and a game with the server's computer
    /// opponents (`bots`) cannot be rated.
    #[serde(default)]
    pub rated: bool,
    /// `public` (default): anyone may read the game and it is listed; `private`: its
    /// players (and the players invited to it) alone may read it, it is in no public list,
    /// and anyone else gets `404`.
    #[serde(default)]
    pub visibility: Option<Visibility>,
    /// Whether accounts marked as bots may take a seat (default: yes in a casual game,
    /// no in a rated one).
    #[serde(default)]
    pub bot_accounts: Option<bool>,
    /// What the game's analysis (`GET /v1/games/{id}/analysis`) shows while the game
    /// runs: `full`, `scores` (the score if the game ended now and the tile tracker) or
    /// `none`; everything to everyone once it is over. Default: `scores` in a rated
    /// game, `full` in a casual one.
    pub assistance: Option<Assistance>,
}

/// Figures in a player's supply, by kind (kinds the player has none of are omitted).
pub type Supply = std::collections::BTreeMap<String, u32>;

/// A seat and who sits there.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PlayerView {
    pub seat: u8,
    pub user_id: String,
    pub username: String,
    /// Seat colour as drawn in the board pictures (colour-blind-safe Okabe-Ito palette):
    /// `orange`, `sky_blue`, `bluish_green`, `yellow`, `blue`, `vermillion`.
    pub colour: String,
    /// A computer opponent: the level of one the server plays (`random`, `greedy`,
    /// `mcts`, `expert`), or `account` for an account its owner marked as a bot; absent for a
    /// person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    pub score: i32,
    /// Figures in the supply by kind, e.g. `{"follower": 5}`.
    #[schema(value_type = std::collections::BTreeMap<String, u32>)]
    pub supply: Supply,
    /// False once the player resigned or timed out.
    pub active: bool,
    /// Traders & Builders: goods tokens taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goods: Option<GoodsView>,
    /// Gold Mines: ingots taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gold: Option<u32>,
    /// Abbey & Mayor: still holds the abbey tile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abbey: Option<bool>,
    /// Robbers / Messages: the totals of the score figures (meeple, then messenger).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub track: Option<Vec<i32>>,
    /// Robbers: the track space of the player's robber (`null` in the supply).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub robber: Option<Option<u8>>,
    /// House rule `tiles_in_hand`: how many tiles the player holds (the tiles are shown
    /// to the player alone, as the game's `hand`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<u32>,
}

/// Goods tokens by kind.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GoodsView {
    pub wine: u32,
    pub grain: u32,
    pub cloth: u32,
}

/// The mage or the witch on the board (Mage & Witch).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct NeutralOnBoard {
    pub figure: MagicFigure,
    /// Spot in board orientation on this tile.
    pub spot: String,
}

/// The ferry of a lake tile: the two road ends it joins (Ferries).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct FerryView {
    pub from: String,
    pub to: String,
}

/// A figure on the board.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct FigureOnBoard {
    pub seat: u8,
    pub figure: FigureKind,
    /// Spot in board orientation (`N`, `NNE`, `C`, ... or a catalog feature id).
    pub spot: String,
}

/// A placed tile.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct BoardTile {
    pub x: i32,
    pub y: i32,
    /// Catalog id (`base/D`).
    pub tile: String,
    /// Degrees clockwise: 0, 90, 180 or 270.
    pub rotation: u16,
    pub figures: Vec<FigureOnBoard>,
    /// Mage & Witch: neutral figures standing on this tile.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub neutral: Vec<NeutralOnBoard>,
    /// Gold Mines: ingots lying on this tile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ingots: Option<u32>,
    /// Ferries: the ferry on this tile's lake.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ferry: Option<FerryView>,
}

/// The decision the game waits for.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PendingView {
    pub seat: u8,
    pub user_id: String,
    pub username: String,
    /// The phase: `place_tile`, `place_figure`, and the phases expansions add
    /// (`move_wagon`, ...). Its options are listed by `…/actions`.
    pub kind: String,
    /// The drawn tile (with the house rule `tiles_in_hand`: none while a tile of the
    /// hand is being chosen, the placed tile after).
    pub tile: Option<String>,
}

/// Remaining tiles of one type.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TileCount {
    pub tile: String,
    pub count: u32,
}

/// One line of the final ranking.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RankView {
    pub seat: u8,
    pub username: String,
    pub score: i32,
    /// 1 for the winners; tied players share a place.
    pub rank: u8,
}

/// A game's state.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GameView {
    pub id: String,
    pub status: GameStatus,
    /// Number of decisions in the log (0 until the game starts).
    pub version: i64,
    /// The draw pile was given by the creator (`options.tile_order`).
    pub sandbox: bool,
    /// The game changes its players' ratings when it ends.
    pub rated: bool,
    pub visibility: Visibility,
    /// Accounts marked as bots may take a seat.
    pub bot_accounts: bool,
    /// What the game's analysis (`GET /v1/games/{id}/analysis`) shows while it runs.
    pub assistance: Assistance,
    pub expansions: Vec<String>,
    /// The house rules in force: each variant that differs from the standard rules,
    /// with its value (`{}`: the standard rules; `GET /v1/rules` describes them).
    pub rules: std::collections::BTreeMap<String, String>,
    pub seats: u8,
    pub creator: String,
    pub players: Vec<PlayerView>,
    pub board: Vec<BoardTile>,
    pub pending: Option<PendingView>,
    /// Tiles left in the pile (the drawn tile not included).
    pub tiles_left: u32,
    /// Tiles not yet seen by everyone, by type: the pile and, with the house rule
    /// `tiles_in_hand`, the tiles in the players' hands.
    pub tiles_left_by_type: Vec<TileCount>,
    /// House rule `tiles_in_hand`: the tiles in the caller's hand (catalog ids, in the
    /// order drawn); present only for a signed-in caller who holds a seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<String>>,
    /// The final ranking once the game is over.
    pub ranking: Option<Vec<RankView>>,
    pub created_at: String,
    pub updated_at: String,
    /// The clock, when the game has one.
    pub clock: Option<ClockView>,
    /// Invitations to seats (pending ones reserve a seat while the game is open).
    pub invitations: Vec<InvitationView>,
    /// Players on vacation now (their clocks stand still).
    pub on_vacation: Vec<VacationView>,
    /// The tournament the game belongs to, with its stage, round, table and game of
    /// the match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<super::GameTournament>,
}

/// A game in a list.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GameSummary {
    pub id: String,
    pub status: GameStatus,
    pub version: i64,
    pub sandbox: bool,
    pub rated: bool,
    pub visibility: Visibility,
    pub seats: u8,
    pub players: Vec<SeatView>,
    /// Whose decision is pending.
    pub current_username: Option<String>,
    /// The caller's decision is pending.
    pub my_turn: bool,
    /// When the pending decision is due (games with a clock).
    pub deadline: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// A seat in a list.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatView {
    pub seat: u8,
    pub username: String,
    pub colour: String,
    /// A computer opponent: the level of one the server plays (`random`, `greedy`,
    /// `mcts`, `expert`), or `account` for an account its owner marked as a bot; absent for a
    /// person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
}

/// A page of games.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GameList {
    pub games: Vec<GameSummary>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

/// Filters of the game list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListGamesQuery {
    /// `me` (needs a token) or a username: only games where that user has a seat.
    pub player: Option<String>,
    pub status: Option<GameStatus>,
    /// Only games where the caller's decision is pending (needs a token).
    pub my_turn: Option<bool>,
    /// Opaque cursor from `next_cursor`.
    pub cursor: Option<String>,
    /// Page size, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// A spot of a placement and the figures the player may put there.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SpotView {
    pub spot: String,
    /// Catalog feature id on the tile (`c1`, `r1`, `f2`, ...).
    pub feature: String,
    pub figures: Vec<FigureKind>,
}

/// A legal placement of the drawn tile.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PlacementView {
    /// House rule `tiles_in_hand`: the tile of the hand this placement places (the
    /// `tile` of its `place_tile` action).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile: Option<String>,
    pub x: i32,
    pub y: i32,
    pub rotation: u16,
    pub spots: Vec<SpotView>,
}

/// The legal placements of the drawn tile.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PlacementsView {
    pub game_id: String,
    pub version: i64,
    pub pending: Option<PendingView>,
    pub placements: Vec<PlacementView>,
}

/// The pending decision and all its legal options.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ActionsView {
    pub game_id: String,
    pub version: i64,
    pub pending: Option<PendingView>,
    /// Every legal option, as a complete action.
    pub actions: Vec<Action>,
    /// Whether the signed-in caller may take back their last decision now (`POST
    /// /v1/games/{id}/undo`): a casual game, the pending decision theirs, and a decision
    /// of theirs since hidden information last entered the game.
    pub undo: bool,
}
