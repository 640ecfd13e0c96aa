//! Request and response bodies of API v1. Separate from database rows and from engine
//! types: conversions live in `views`.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

pub use super::corr_dto::*;

// ----- users ---------------------------------------------------------------------------

/// Registration.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RegisterRequest {
    /// 3 to 32 characters: letters, digits, `_`, `-`, `.`.
    #[schema(min_length = 3, max_length = 32, pattern = "^[A-Za-z0-9_.-]{3,32}$")]
    pub username: String,
    #[schema(
        min_length = 3,
        max_length = 254,
        pattern = r"^[^@\s\x00-\x1f\x7f-\x9f]+@[^@\s\x00-\x1f\x7f-\x9f]+$"
    )]
    pub email: String,
    /// 8 to 256 characters.
    #[schema(min_length = 8, max_length = 256)]
    pub password: String,
    /// The language of the user's emails: `en` or `pt-BR`; default: the best match of the
    /// request's `Accept-Language`, else `en`.
    #[serde(default)]
    #[schema(pattern = "^(en|pt-BR)$", example = "pt-BR")]
    pub locale: Option<String>,
    /// The IANA time zone deadlines are written in; default `UTC`.
    #[serde(default)]
    #[schema(max_length = 64, example = "America/Sao_Paulo")]
    pub time_zone: Option<String>,
}

/// Credentials exchanged for an access token.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    #[schema(max_length = 64)]
    pub username: String,
    #[schema(max_length = 256)]
    pub password: String,
}

/// An access token.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TokenResponse {
    pub access_token: String,
    /// Always `Bearer`.
    pub token_type: String,
    /// Seconds until the token expires.
    pub expires_in: i64,
}

/// Which notifications a user wants.
#[derive(Debug, Serialize, Deserialize, ToSchema, Clone, Copy)]
pub struct NotificationPrefs {
    /// When it is the user's turn.
    pub turn: bool,
    /// When a game of theirs ends.
    pub finished: bool,
}

/// A user (as its owner sees it).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct UserView {
    pub id: String,
    pub username: String,
    pub email: String,
    pub notifications: NotificationPrefs,
    /// The language of the user's emails (`en`, `pt-BR`).
    pub locale: String,
    /// The IANA time zone deadlines are written in.
    pub time_zone: String,
    /// RFC 3339 UTC.
    pub created_at: String,
    /// Games and invitations waiting for the caller (in `GET /v1/users/me`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting: Option<WaitingView>,
    /// The vacation bank (in `GET /v1/users/me`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vacation: Option<VacationStatus>,
}

/// Changes to the caller's account; absent fields stay as they are.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateUserRequest {
    #[schema(
        min_length = 3,
        max_length = 254,
        pattern = r"^[^@\s\x00-\x1f\x7f-\x9f]+@[^@\s\x00-\x1f\x7f-\x9f]+$"
    )]
    pub email: Option<String>,
    #[serde(default, deserialize_with = "super::extract::optional_object")]
    pub notifications: Option<NotificationPatch>,
    /// `en` or `pt-BR`.
    #[schema(pattern = "^(en|pt-BR)$", example = "pt-BR")]
    pub locale: Option<String>,
    /// An IANA time zone name (`UTC`, `America/Sao_Paulo`).
    #[schema(max_length = 64, example = "America/Sao_Paulo")]
    pub time_zone: Option<String>,
}

/// Changes to notification preferences.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NotificationPatch {
    pub turn: Option<bool>,
    pub finished: Option<bool>,
}

// ----- games ---------------------------------------------------------------------------

/// Options of a new game.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GameOptions {
    /// Catalog tile ids (`base/D`, ...) that replace the shuffled draw pile, first drawn
    /// first. A game created with it is a sandbox game.
    #[schema(max_items = 500)]
    pub tile_order: Option<Vec<String>>,
    /// Days per move, 1 to 14; without it the game has no clock.
    #[schema(minimum = 1, maximum = 14)]
    pub days_per_move: Option<i64>,
}

/// A new game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGameRequest {
    /// Expansion ids (`river`, `abbot`, ...).
    #[serde(default)]
    #[schema(max_items = 12)]
    pub expansions: Vec<String>,
    /// Number of seats, 2 to 6 (6 needs `inns_cathedrals`).
    #[schema(minimum = 2, maximum = 6)]
    pub seats: i64,
    #[serde(default, deserialize_with = "super::extract::optional_object")]
    pub options: Option<GameOptions>,
    /// Usernames invited to the game: a seat is reserved for each (`game.invited` is
    /// sent); the other free seats are open to anyone.
    #[serde(default)]
    #[schema(max_items = 5)]
    pub invite: Vec<String>,
}

/// Where a game is in its life.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Waiting for players.
    Open,
    Active,
    Finished,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Open => "open",
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
        }
    }
    pub fn parse(s: &str) -> GameStatus {
        match s {
            "active" => GameStatus::Active,
            "finished" => GameStatus::Finished,
            _ => GameStatus::Open,
        }
    }
}

/// A kind of figure.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Figure {
    Follower,
    BigFollower,
    Abbot,
    Mayor,
    Wagon,
    Builder,
    Pig,
    Barn,
}

/// The neutral figures of Mage & Witch.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum MagicFigure {
    Mage,
    Witch,
}

/// Crop Circles: what every player with a follower of the circle's role does.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CropMode {
    Add,
    Remove,
}

/// The Messages' score figures.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ScoreFigure {
    Meeple,
    Messenger,
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
    pub figure: Figure,
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
    /// The drawn tile.
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
    pub expansions: Vec<String>,
    pub seats: u8,
    pub creator: String,
    pub players: Vec<PlayerView>,
    pub board: Vec<BoardTile>,
    pub pending: Option<PendingView>,
    /// Tiles left in the pile (the drawn tile not included).
    pub tiles_left: u32,
    pub tiles_left_by_type: Vec<TileCount>,
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
}

/// A game in a list.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GameSummary {
    pub id: String,
    pub status: GameStatus,
    pub version: i64,
    pub sandbox: bool,
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

// ----- actions and moves ---------------------------------------------------------------

/// An action; the options listed by `…/actions` are complete and can be posted as they are.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "snake_case", from = "ActionWire")]
pub enum ActionDto {
    /// Place the drawn tile.
    PlaceTile {
        x: i32,
        y: i32,
        /// Degrees clockwise: 0, 90, 180 or 270.
        #[schema(minimum = 0, maximum = 270, multiple_of = 90)]
        rotation: u16,
    },
    /// Put a figure on the tile just placed.
    PlaceFigure {
        figure: Figure,
        #[schema(max_length = 16)]
        spot: String,
    },
    /// The Abbot: take the abbot back from an incomplete monastery or garden instead of
    /// placing a figure.
    ReturnAbbot,
    /// Abbey & Mayor: place the abbey into a hole (an empty cell with tiles on all four
    /// sides) instead of drawing a tile, or in the final abbey round.
    PlaceAbbey { x: i32, y: i32 },
    /// Abbey & Mayor: draw a tile rather than place the abbey.
    DrawTile,
    /// Abbey & Mayor: move a freed wagon onto a road, city or monastery in reach.
    MoveWagon {
        x: i32,
        y: i32,
        #[schema(max_length = 16)]
        spot: String,
    },
    /// Gold Mines: put the second ingot on a tile around the gold tile.
    PlaceIngot { x: i32, y: i32 },
    /// Mage & Witch: place or move the mage or the witch onto an incomplete road or city.
    MoveMagic {
        figure: MagicFigure,
        x: i32,
        y: i32,
        #[schema(max_length = 16)]
        spot: String,
    },
    /// Mage & Witch: set a figure aside (offered only when no move is possible).
    RemoveMagic { figure: MagicFigure },
    /// Flying Machines: send a follower flying instead of placing a figure; the die
    /// decides the target tile.
    Fly { figure: Figure },
    /// Flying Machines: land the flying follower on a spot of the target tile.
    Land {
        #[schema(max_length = 16)]
        spot: String,
    },
    /// Crop Circles: add or remove.
    ChooseCropMode { mode: CropMode },
    /// Crop Circles: add a follower next to one of your followers of the circle's role.
    AddFollower {
        figure: Figure,
        x: i32,
        y: i32,
        #[schema(max_length = 16)]
        spot: String,
    },
    /// Crop Circles: take back one of your followers of the circle's role.
    RemoveFollower {
        figure: Figure,
        x: i32,
        y: i32,
        #[schema(max_length = 16)]
        spot: String,
    },
    /// Ferries: the ferry of the lake at (x,y) joins the road ends leaving by sides
    /// `from` and `to` (`N`, `E`, `S`, `W`).
    PlaceFerry {
        x: i32,
        y: i32,
        #[schema(max_length = 1)]
        from: String,
        #[schema(max_length = 1)]
        to: String,
    },
    /// Ferries: move the ferry of the lake at (x,y) to join `from` and `to`.
    MoveFerry {
        x: i32,
        y: i32,
        #[schema(max_length = 1)]
        from: String,
        #[schema(max_length = 1)]
        to: String,
    },
    /// Robbers: put your robber on this track space (0–49), one holding another player's
    /// score figure.
    PlaceRobber {
        #[schema(maximum = 49)]
        space: u8,
    },
    /// Robbers / Messages: score this completed feature next (named by a spot on one of
    /// its tiles).
    ScoreNext {
        x: i32,
        y: i32,
        #[schema(max_length = 16)]
        spot: String,
    },
    /// Messages: the score figure that moves for the points being awarded.
    ChooseScoreFigure { figure: ScoreFigure },
    /// Robbers: rob this player (a seat) when the score figures of several players leave
    /// your robber's space in one award batch (a tie in one feature).
    ChooseVictim {
        #[schema(maximum = 5)]
        victim: u8,
    },
    /// Messages 1–3: score this smallest road, city or monastery of yours.
    MessageFeature {
        x: i32,
        y: i32,
        #[schema(max_length = 16)]
        spot: String,
    },
    /// Message 8: score this follower's feature and take the follower back.
    MessageFollower {
        figure: Figure,
        x: i32,
        y: i32,
        #[schema(max_length = 16)]
        spot: String,
    },
    /// Messages 4–7: carry out the drawn message (an extra tile, or its points).
    MessageAction,
    /// Messages: 2 points instead of the drawn message.
    MessageTwoPoints,
    /// Place no figure (or: keep the abbey in the final round, take a freed wagon back,
    /// add no follower at a crop circle, move no more ferries, place no robber).
    Pass,
}

/// How an action is read: unit variants as empty structs, so that unknown fields are
/// refused for every variant.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ActionWire {
    PlaceTile {
        x: i32,
        y: i32,
        rotation: u16,
    },
    PlaceFigure {
        figure: Figure,
        spot: String,
    },
    ReturnAbbot {},
    PlaceAbbey {
        x: i32,
        y: i32,
    },
    DrawTile {},
    MoveWagon {
        x: i32,
        y: i32,
        spot: String,
    },
    PlaceIngot {
        x: i32,
        y: i32,
    },
    MoveMagic {
        figure: MagicFigure,
        x: i32,
        y: i32,
        spot: String,
    },
    RemoveMagic {
        figure: MagicFigure,
    },
    Fly {
        figure: Figure,
    },
    Land {
        spot: String,
    },
    ChooseCropMode {
        mode: CropMode,
    },
    AddFollower {
        figure: Figure,
        x: i32,
        y: i32,
        spot: String,
    },
    RemoveFollower {
        figure: Figure,
        x: i32,
        y: i32,
        spot: String,
    },
    PlaceFerry {
        x: i32,
        y: i32,
        from: String,
        to: String,
    },
    MoveFerry {
        x: i32,
        y: i32,
        from: String,
        to: String,
    },
    PlaceRobber {
        space: u8,
    },
    ScoreNext {
        x: i32,
        y: i32,
        spot: String,
    },
    ChooseScoreFigure {
        figure: ScoreFigure,
    },
    ChooseVictim {
        victim: u8,
    },
    MessageFeature {
        x: i32,
        y: i32,
        spot: String,
    },
    MessageFollower {
        figure: Figure,
        x: i32,
        y: i32,
        spot: String,
    },
    MessageAction {},
    MessageTwoPoints {},
    Pass {},
}

impl From<ActionWire> for ActionDto {
    fn from(w: ActionWire) -> ActionDto {
        match w {
            ActionWire::PlaceTile { x, y, rotation } => ActionDto::PlaceTile { x, y, rotation },
            ActionWire::PlaceFigure { figure, spot } => ActionDto::PlaceFigure { figure, spot },
            ActionWire::ReturnAbbot {} => ActionDto::ReturnAbbot,
            ActionWire::PlaceAbbey { x, y } => ActionDto::PlaceAbbey { x, y },
            ActionWire::DrawTile {} => ActionDto::DrawTile,
            ActionWire::MoveWagon { x, y, spot } => ActionDto::MoveWagon { x, y, spot },
            ActionWire::PlaceIngot { x, y } => ActionDto::PlaceIngot { x, y },
            ActionWire::MoveMagic { figure, x, y, spot } => {
                ActionDto::MoveMagic { figure, x, y, spot }
            }
            ActionWire::RemoveMagic { figure } => ActionDto::RemoveMagic { figure },
            ActionWire::Fly { figure } => ActionDto::Fly { figure },
            ActionWire::Land { spot } => ActionDto::Land { spot },
            ActionWire::ChooseCropMode { mode } => ActionDto::ChooseCropMode { mode },
            ActionWire::AddFollower { figure, x, y, spot } => {
                ActionDto::AddFollower { figure, x, y, spot }
            }
            ActionWire::RemoveFollower { figure, x, y, spot } => {
                ActionDto::RemoveFollower { figure, x, y, spot }
            }
            ActionWire::PlaceFerry { x, y, from, to } => ActionDto::PlaceFerry { x, y, from, to },
            ActionWire::MoveFerry { x, y, from, to } => ActionDto::MoveFerry { x, y, from, to },
            ActionWire::PlaceRobber { space } => ActionDto::PlaceRobber { space },
            ActionWire::ScoreNext { x, y, spot } => ActionDto::ScoreNext { x, y, spot },
            ActionWire::ChooseScoreFigure { figure } => ActionDto::ChooseScoreFigure { figure },
            ActionWire::ChooseVictim { victim } => ActionDto::ChooseVictim { victim },
            ActionWire::MessageFeature { x, y, spot } => ActionDto::MessageFeature { x, y, spot },
            ActionWire::MessageFollower { figure, x, y, spot } => {
                ActionDto::MessageFollower { figure, x, y, spot }
            }
            ActionWire::MessageAction {} => ActionDto::MessageAction,
            ActionWire::MessageTwoPoints {} => ActionDto::MessageTwoPoints,
            ActionWire::Pass {} => ActionDto::Pass,
        }
    }
}

/// One or more actions of the caller, applied in order and atomically.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The game version the actions were decided on (or send `If-Match`).
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
    #[schema(min_items = 1, max_items = 16)]
    #[serde(deserialize_with = "super::extract::objects")]
    pub actions: Vec<ActionDto>,
}

/// A spot of a placement and the figures the player may put there.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SpotView {
    pub spot: String,
    /// Catalog feature id on the tile (`c1`, `r1`, `f2`, ...).
    pub feature: String,
    pub figures: Vec<Figure>,
}

/// A legal placement of the drawn tile.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PlacementView {
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
    pub actions: Vec<ActionDto>,
}

// ----- history -------------------------------------------------------------------------

/// Who decided.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ActorView {
    pub seat: u8,
    pub user_id: String,
    pub username: String,
}

/// One entry of a game's history.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct HistoryEntry {
    pub seq: i64,
    /// RFC 3339 UTC.
    pub at: String,
    pub actor: Option<ActorView>,
    /// The decision, `{"type": "tile_placed", "seat": 0, "tile": "base/U", "x": 1, "y": 0,
    /// "rotation": 90}` and so on: `game_created` (players, expansions, sandbox),
    /// `tile_placed`, `figure_placed`, `figure_skipped`, `abbot_returned`,
    /// `player_resigned`, ... (never the seed or the pile).
    #[schema(value_type = Object)]
    pub decision: serde_json::Value,
    /// What the engine derived: `tile_drawn` (seat, tile), `tile_discarded`,
    /// `feature_scored` (feature, points, seats, tiles, final), `figure_returned`,
    /// `player_left`, `goods_taken`, `goods_scored`, `game_over` (ranking), ...
    #[schema(value_type = Vec<Object>)]
    pub consequences: Vec<serde_json::Value>,
}

/// A page of history.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct EventsPage {
    pub game_id: String,
    pub version: i64,
    pub events: Vec<HistoryEntry>,
    /// Pass as `after` for the next page; absent on the last page.
    pub next_after: Option<i64>,
    /// The chat messages written between the events of this page, oldest first: each
    /// comes after the event whose `seq` is its `after_seq`.
    #[serde(default)]
    pub chat: Vec<ChatMessage>,
}

/// Paging of the history.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Only events with `seq` greater than this (default 0).
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// Page size, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// The result of a move or a resignation.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MoveResult {
    pub game_id: String,
    /// The game's version after the move.
    pub version: i64,
    pub status: GameStatus,
    /// The decisions recorded, with their consequences.
    pub events: Vec<HistoryEntry>,
}

/// Liveness and readiness.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: String,
    /// `postgres` or `sqlite` (readiness only).
    pub database: Option<String>,
}
