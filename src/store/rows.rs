//! The rows of the core tables as the store reads and writes them: users, games (as
//! stored and typed), seats with their users, events, idempotency records and the
//! outbox.

use std::collections::BTreeMap;

use diesel::prelude::*;

use super::schema::{game_events, games, idempotency_keys, outbox, users};
use super::{Assistance, GameStatus, StoreError, Visibility};

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = users)]
pub struct UserRow {
    pub id: String,
    pub username: String,
    pub email: String,
    pub password_hash: String,
    pub notify_turn: i32,
    pub notify_finished: i32,
    pub created_at: i64,
    /// `en` or `pt-BR`.
    pub locale: String,
    /// An IANA time zone name.
    pub time_zone: String,
    /// When the current address was confirmed (None: it gets only the confirmation).
    pub email_verified_at: Option<i64>,
    /// When the account was deleted (its row stays, anonymised, for its games' seats).
    pub deleted_at: Option<i64>,
    /// A computer opponent: the level the server plays (`random`, `greedy`, `mcts`), or
    /// [`BOT_ACCOUNT`] for an account its owner marked as a bot (it plays with a token).
    pub bot: Option<String>,
    /// The hour (0–23, in `time_zone`) of the user's daily digest; `None`: no digest,
    /// an email per turn.
    pub digest_hour: Option<i32>,
}

/// Changes to an account (`None`: as it is).
#[derive(Clone, Debug, Default)]
pub struct UserChanges {
    pub notify_turn: Option<bool>,
    pub notify_finished: Option<bool>,
    pub locale: Option<String>,
    pub time_zone: Option<String>,
    pub bot: Option<bool>,
    /// `Some(None)` turns the digest off.
    pub digest_hour: Option<Option<i32>>,
}

/// `users.bot` of an account its owner marked as a bot.
pub const BOT_ACCOUNT: &str = "account";

/// A game's row as stored: status and JSON columns as text. Read only through
/// [`GameRow::try_from`], which parses them once.
#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = games)]
pub(super) struct GameRecord {
    id: String,
    creator_id: String,
    status: String,
    seats: i32,
    expansions: String,
    tile_order: Option<String>,
    version: i64,
    current_user_id: Option<String>,
    created_at: i64,
    updated_at: i64,
    turn_started_at: Option<i64>,
    rules: Option<String>,
    rated: i32,
    visibility: String,
    bot_accounts: i32,
    assistance: String,
}

/// A game's summary row, typed: its status and its JSON columns parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub creator_id: String,
    pub status: GameStatus,
    pub seats: i32,
    /// Expansion ids, as chosen at creation.
    pub expansions: Vec<String>,
    /// The fixed draw pile of a sandbox game (catalog tile ids).
    pub tile_order: Option<Vec<String>>,
    pub version: i64,
    pub current_user_id: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub turn_started_at: Option<i64>,
    /// The house rules chosen at creation: the variants that differ from the standard
    /// rules, by name (empty: the standard rules).
    pub rules: BTreeMap<String, String>,
    /// A rated game changes its players' ratings when it ends.
    pub rated: bool,
    pub visibility: Visibility,
    /// Accounts marked as bots may take a seat.
    pub bot_accounts: bool,
    /// What the game's analysis shows while it runs.
    pub assistance: Assistance,
}

impl TryFrom<GameRecord> for GameRow {
    type Error = StoreError;

    fn try_from(r: GameRecord) -> Result<GameRow, StoreError> {
        let corrupt = |detail: String| StoreError::Corrupt {
            row: format!("game {}", r.id),
            detail,
        };
        let status = GameStatus::from_column(&r.status)
            .ok_or_else(|| corrupt(format!("unknown status {:?}", r.status)))?;
        let visibility = Visibility::from_column(&r.visibility)
            .ok_or_else(|| corrupt(format!("unknown visibility {:?}", r.visibility)))?;
        let assistance = Assistance::from_column(&r.assistance)
            .ok_or_else(|| corrupt(format!("unknown assistance {:?}", r.assistance)))?;
        let expansions: Vec<String> =
            serde_json::from_str(&r.expansions).map_err(|e| corrupt(format!("expansions: {e}")))?;
        let tile_order = match &r.tile_order {
            Some(t) => Some(
                serde_json::from_str::<Vec<String>>(t)
                    .map_err(|e| corrupt(format!("tile_order: {e}")))?,
            ),
            None => None,
        };
        let rules = match &r.rules {
            Some(t) => serde_json::from_str::<BTreeMap<String, String>>(t)
                .map_err(|e| corrupt(format!("rules: {e}")))?,
            None => BTreeMap::new(),
        };
        Ok(GameRow {
            status,
            expansions,
            tile_order,
            rules,
            id: r.id,
            creator_id: r.creator_id,
            seats: r.seats,
            version: r.version,
            current_user_id: r.current_user_id,
            created_at: r.created_at,
            updated_at: r.updated_at,
            turn_started_at: r.turn_started_at,
            rated: r.rated != 0,
            visibility,
            bot_accounts: r.bot_accounts != 0,
            assistance,
        })
    }
}

impl TryFrom<&GameRow> for GameRecord {
    type Error = StoreError;

    fn try_from(g: &GameRow) -> Result<GameRecord, StoreError> {
        let json = |v: &Vec<String>| {
            serde_json::to_string(v).map_err(|e| StoreError::Internal(e.to_string()))
        };
        Ok(GameRecord {
            id: g.id.clone(),
            creator_id: g.creator_id.clone(),
            status: g.status.as_str().to_string(),
            seats: g.seats,
            expansions: json(&g.expansions)?,
            tile_order: g.tile_order.as_ref().map(json).transpose()?,
            version: g.version,
            current_user_id: g.current_user_id.clone(),
            created_at: g.created_at,
            updated_at: g.updated_at,
            turn_started_at: g.turn_started_at,
            rated: i32::from(g.rated),
            visibility: g.visibility.as_str().to_string(),
            bot_accounts: i32::from(g.bot_accounts),
            assistance: g.assistance.as_str().to_string(),
            rules: if g.rules.is_empty() {
                None
            } else {
                Some(
                    serde_json::to_string(&g.rules)
                        .map_err(|e| StoreError::Internal(e.to_string()))?,
                )
            },
        })
    }
}

/// Reads game rows, parsing each.
pub(super) fn game_rows(records: Vec<GameRecord>) -> Result<Vec<GameRow>, StoreError> {
    records.into_iter().map(GameRow::try_from).collect()
}

/// A taken seat with its user's public and contact data.
#[derive(Clone, Debug)]
pub struct SeatInfo {
    pub seat: i32,
    pub user_id: String,
    pub username: String,
    pub email: String,
    pub notify_turn: bool,
    pub notify_finished: bool,
    pub joined_at: i64,
    /// The user's locale (`en`, `pt-BR`) and IANA time zone: how emails are written.
    pub locale: String,
    pub time_zone: String,
    /// The level of a computer opponent the server plays (`random`, `greedy`, `mcts`);
    /// `None`: a person.
    pub bot: Option<String>,
}

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_events)]
pub struct EventRow {
    pub game_id: String,
    pub seq: i64,
    pub event_type: String,
    pub event_version: i32,
    pub payload: String,
    pub actor_id: Option<String>,
    pub created_at: i64,
    /// Who took the decision when it was not its player by a request
    /// ([`DecidedBy`]'s name); `None`: its player.
    pub decided_by: Option<String>,
}

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = idempotency_keys)]
pub struct IdempotencyRow {
    pub user_id: String,
    pub idem_key: String,
    pub request_hash: String,
    pub status: i32,
    pub body: String,
    pub created_at: i64,
}

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = outbox)]
pub struct OutboxRow {
    pub id: String,
    pub kind: String,
    pub user_id: String,
    pub game_id: Option<String>,
    pub payload: String,
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: i64,
    pub delivered_at: Option<i64>,
    pub created_at: i64,
}

/// A game with its seats and (optionally) its whole log.
#[derive(Clone, Debug)]
pub struct GameData {
    pub game: GameRow,
    pub seats: Vec<SeatInfo>,
    pub events: Vec<EventRow>,
}
