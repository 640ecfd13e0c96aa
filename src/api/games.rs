//! Games: create, join, start, list, state (ETag), placements, actions, moves (atomic
//! batches, optimistic versioning, idempotency), history and resignation.
//!
//! Every read replays the game's log through the engine; every write replays, lets the
//! engine validate, and appends the new events in one transaction.

use std::sync::Arc;

use actix_web::http::header;
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use base64::Engine as _;
use sha2::{Digest, Sha256};
use tilepost_engine::{Effect, Event, Expansion, Game, GameConfig, PlayError, SetupError};

use super::dto::*;
use super::error::{ApiError, Problem};
use super::extract::{ApiJson, CurrentUser, MaybeUser};
use super::views;
use super::AppState;
use crate::notify;
use crate::store::{
    Append, EventRow, GameData, GameFilter, GameRow, IdempotencyRow, SeatInfo, StartPlan,
    StoreError,
};

const MAX_ACTIONS: usize = 16;

// ----- helpers -------------------------------------------------------------------------

/// A game's summary and seats, with its whole log when `with_events`.
pub(crate) async fn load_data(
    st: &AppState,
    id: &str,
    with_events: bool,
) -> Result<GameData, ApiError> {
    if id.len() > 64 {
        return Err(ApiError::game_not_found());
    }
    st.store
        .load_game(id.to_string(), with_events)
        .await?
        .ok_or_else(ApiError::game_not_found)
}

/// A game's summary and seats with its replayed state (`None` before it starts), taken
/// from the replay cache when it holds this version. `data.events` is left empty: use
/// [`load_data`] when the log itself is needed.
pub(crate) async fn load_state(
    st: &AppState,
    id: &str,
) -> Result<(GameData, Option<Arc<Game>>), ApiError> {
    let data = load_data(st, id, false).await?;
    let game = state_of(st, data).await?;
    Ok(game)
}

/// The replayed state of `data`'s game at its version (cached, or replayed from the log
/// up to that version and then cached).
async fn state_of(
    st: &AppState,
    mut data: GameData,
) -> Result<(GameData, Option<Arc<Game>>), ApiError> {
    let (id, version) = (data.game.id.clone(), data.game.version);
    if version < 1 || data.game.status == "open" {
        return Ok((data, None));
    }
    if let Some(g) = st.replays.get(&id, version) {
        return Ok((data, Some(g)));
    }
    data.events = st.store.events_upto(id.clone(), version).await?;
    if data.events.is_empty() {
        return Ok((data, None));
    }
    let game = Arc::new(replay(&data)?);
    st.replays.put(&id, version, game.clone());
    data.events = Vec::new();
    Ok((data, Some(game)))
}

fn replay(data: &GameData) -> Result<Game, ApiError> {
    let events = views::decode_events(&data.events)?;
    Game::replay(&events).map_err(|e| ApiError::internal(format!("game {}: {e}", data.game.id)))
}

fn seat_of(seats: &[SeatInfo], user_id: &str) -> Option<u8> {
    seats
        .iter()
        .find(|s| s.user_id == user_id)
        .map(|s| s.seat as u8)
}

fn require_started<G>(data: &GameData, game: Option<G>) -> Result<G, ApiError> {
    match game {
        Some(g) if data.game.status != "open" => Ok(g),
        _ => Err(ApiError::new(
            409,
            "game-not-started",
            "the game is waiting for players",
        )),
    }
}

fn etag(row: &GameRow, seats: usize) -> String {
    if row.status == "open" {
        format!("\"0.{seats}\"")
    } else {
        format!("\"{}\"", row.version)
    }
}

fn play_error(e: &PlayError, index: usize) -> ApiError {
    let status = match e {
        PlayError::NotYourTurn { .. } => 403,
        PlayError::GameOver | PlayError::NotInGame(_) => 409,
        PlayError::LogMismatch(m) => return ApiError::internal(m),
        _ => 422,
    };
    ApiError::new(status, e.code(), e.to_string())
        .with_field(format!("actions[{index}]"), e.to_string())
}

fn setup_error(e: SetupError) -> ApiError {
    match &e {
        SetupError::UnsupportedExpansion(_) | SetupError::UnknownExpansion(_) => {
            ApiError::validation("expansions", e.to_string())
        }
        SetupError::PlayerCount { .. } => ApiError::validation("seats", e.to_string()),
        SetupError::UnknownTile(_) | SetupError::TileNotInGame(_) | SetupError::EmptyTileOrder => {
            ApiError::validation("options.tile_order", e.to_string())
        }
        SetupError::BadSeed(_) => ApiError::internal(e.to_string()),
    }
}

fn config_of(row: &GameRow, players: u8, seed: u64) -> Result<GameConfig, SetupError> {
    let ids: Vec<String> = serde_json::from_str(&row.expansions).unwrap_or_default();
    let mut expansions = Vec::new();
    for id in ids {
        expansions.push(Expansion::from_id(&id).ok_or(SetupError::UnknownExpansion(id))?);
    }
    let tile_order = row
        .tile_order
        .as_ref()
        .map(|t| serde_json::from_str::<Vec<String>>(t).unwrap_or_default());
    Ok(GameConfig {
        players,
        expansions,
        tile_order,
        seed,
    })
}

/// What the store runs when a game starts: the creation event (with a fresh secret seed),
/// `game.started` for every player and the first turn's notification.
pub(crate) fn start_plan(
    notifier: std::sync::Arc<notify::Notifier>,
    now: i64,
) -> impl FnOnce(&GameRow, &[SeatInfo]) -> Result<StartPlan, String> + Send + 'static {
    move |row, seats| {
        let config =
            config_of(row, seats.len() as u8, rand::random::<u64>()).map_err(|e| e.to_string())?;
        let (game, event) = Game::new(&config).map_err(|e| e.to_string())?;
        let (kind, version, payload) = event.encode();
        let pending = game.pending();
        let first_seat = pending.map(|p| p.player).unwrap_or(0);
        let tile = pending
            .and_then(|p| p.tile)
            .map(|t| tilepost_engine::catalog().get(t).id.clone());
        let first = seats.iter().find(|s| s.seat == first_seat as i32);
        let mut outbox = notify::started(
            &notifier,
            seats,
            &row.id,
            first.map(|s| s.username.as_str()).unwrap_or_default(),
            now,
        );
        if let Some(s) = first {
            outbox.push(notify::turn_started(
                &notifier,
                s,
                &notify::Turn {
                    game_id: &row.id,
                    version: 1,
                    tile: tile.as_deref(),
                    decision: pending.map(|p| p.phase.name()),
                    deadline: None,
                },
                &notify::Since::default(),
                now,
            ));
        }
        Ok(StartPlan {
            event_type: kind.to_string(),
            event_version: version as i32,
            payload,
            first_seat: first_seat as i32,
            outbox,
        })
    }
}

/// What happened since `seat`'s last turn: the stored log replayed with its effects,
/// followed by the events of the move being committed.
fn since_last_turn(
    log: &[EventRow],
    seats: &[SeatInfo],
    outcomes: &[(Event, Vec<Effect>)],
    seat: u8,
) -> notify::Since {
    let Ok(mut events) = views::decode_events(log) else {
        return notify::Since::default();
    };
    let Ok((_, mut effects)) = Game::replay_with_effects(&events) else {
        return notify::Since::default();
    };
    for (e, fx) in outcomes {
        events.push(e.clone());
        effects.push(fx.clone());
    }
    notify::Since::compute(&events, &effects, seat, seats)
}

async fn view_response(
    st: &AppState,
    status: actix_web::http::StatusCode,
    data: &GameData,
    game: Option<&Game>,
) -> Result<HttpResponse, ApiError> {
    let mut view = views::game_view(&data.game, &data.seats, game);
    super::correspondence::decorate(st, &mut view, data).await?;
    Ok(HttpResponse::build(status)
        .insert_header((header::ETAG, etag(&data.game, data.seats.len())))
        .json(view))
}

pub(crate) async fn current_view(st: &AppState, id: &str) -> Result<HttpResponse, ApiError> {
    let (data, game) = load_state(st, id).await?;
    view_response(st, actix_web::http::StatusCode::OK, &data, game.as_deref()).await
}

/// An `Idempotency-Key` with the hash of the request it came with.
struct Idempotency {
    key: String,
    hash: String,
}

fn idempotency(
    req: &HttpRequest,
    body: &impl serde::Serialize,
) -> Result<Option<Idempotency>, ApiError> {
    let Some(v) = req.headers().get("Idempotency-Key") else {
        return Ok(None);
    };
    let key = v.to_str().unwrap_or("").trim().to_string();
    if key.is_empty() || key.len() > 255 || !key.chars().all(|c| c.is_ascii_graphic()) {
        return Err(ApiError::validation(
            "Idempotency-Key",
            "1 to 255 visible ASCII characters",
        ));
    }
    let mut h = Sha256::new();
    h.update(req.method().as_str().as_bytes());
    h.update(b" ");
    h.update(req.path().as_bytes());
    h.update(b"\n");
    if let Some(m) = req.headers().get(header::IF_MATCH) {
        h.update(m.as_bytes());
    }
    h.update(b"\n");
    h.update(serde_json::to_vec(body).unwrap_or_default());
    let hash = base64::engine::general_purpose::STANDARD_NO_PAD.encode(h.finalize());
    Ok(Some(Idempotency { key, hash }))
}

fn replayed(rec: &IdempotencyRow) -> HttpResponse {
    HttpResponse::build(
        actix_web::http::StatusCode::from_u16(rec.status as u16)
            .unwrap_or(actix_web::http::StatusCode::OK),
    )
    .content_type("application/json")
    .insert_header(("Idempotent-Replayed", "true"))
    .body(rec.body.clone())
}

/// The stored answer for a key, if any: the first response for the same request, `422`
/// for a different one.
async fn idempotent_answer(
    st: &AppState,
    user: &str,
    idem: &Option<Idempotency>,
) -> Result<Option<HttpResponse>, ApiError> {
    let Some(i) = idem else { return Ok(None) };
    match st
        .store
        .idempotency_record(user.to_string(), i.key.clone())
        .await?
    {
        Some(rec) if rec.request_hash == i.hash => Ok(Some(replayed(&rec))),
        Some(_) => Err(ApiError::new(
            422,
            "idempotency-key-reused",
            "this Idempotency-Key was used with a different request",
        )),
        None => Ok(None),
    }
}

/// Appends what an accepted move or resignation produced and answers with its result.
#[allow(clippy::too_many_arguments)]
async fn commit(
    st: &AppState,
    me: &CurrentUser,
    data: &GameData,
    game: Game,
    expected: i64,
    outcomes: Vec<(Event, Vec<Effect>)>,
    idem: Option<Idempotency>,
) -> Result<HttpResponse, ApiError> {
    let now = st.clock.now_ms();
    let gid = data.game.id.clone();
    let mut rows = Vec::with_capacity(outcomes.len());
    let mut entries = Vec::with_capacity(outcomes.len());
    let mut turn_changed = false;
    for (i, (ev, fx)) in outcomes.iter().enumerate() {
        let (kind, version, payload) = ev.encode();
        let row = EventRow {
            game_id: gid.clone(),
            seq: expected + 1 + i as i64,
            event_type: kind.to_string(),
            event_version: version as i32,
            payload,
            actor_id: Some(me.id.clone()),
            created_at: now,
        };
        turn_changed |= fx.iter().any(|e| matches!(e, Effect::TileDrawn { .. }));
        entries.push(views::history_entry(&row, ev, fx, &data.seats));
        rows.push(row);
    }
    let new_version = expected + rows.len() as i64;
    let over = game.is_over();
    let status = if over {
        GameStatus::Finished
    } else {
        GameStatus::Active
    };
    let pending = game.pending();
    let current_user_id = pending.and_then(|p| {
        data.seats
            .iter()
            .find(|s| s.seat == p.player as i32)
            .map(|s| s.user_id.clone())
    });
    // a new decider starts a new turn (and a new deadline)
    turn_changed |= !over && current_user_id != data.game.current_user_id;
    let mut outbox = Vec::new();
    if over {
        let ranking: Vec<(String, i32, u8)> = game
            .ranking()
            .iter()
            .map(|r| {
                let name = data
                    .seats
                    .iter()
                    .find(|s| s.seat == r.player as i32)
                    .map(|s| s.username.clone())
                    .unwrap_or_default();
                (name, r.score, r.rank)
            })
            .collect();
        outbox.extend(notify::finished(
            &st.notifier,
            &data.seats,
            &gid,
            &ranking,
            now,
        ));
    } else if let Some(p) = pending {
        // a new turn (tile drawn), or a decision that passed to someone else (a wagon
        // owner, ...): tell whoever has to decide now
        if let Some(s) = data.seats.iter().find(|s| s.seat == p.player as i32) {
            if turn_changed || s.user_id != me.id {
                let tile = p.tile.map(|t| tilepost_engine::catalog().get(t).id.clone());
                let log = if data.events.is_empty() {
                    std::borrow::Cow::Owned(st.store.events_upto(gid.clone(), expected).await?)
                } else {
                    std::borrow::Cow::Borrowed(&data.events)
                };
                let since = since_last_turn(&log, &data.seats, &outcomes, p.player);
                outbox.push(notify::turn_started(
                    &st.notifier,
                    s,
                    &notify::Turn {
                        game_id: &gid,
                        version: new_version,
                        tile: tile.as_deref(),
                        decision: Some(p.phase.name()),
                        deadline: None,
                    },
                    &since,
                    now,
                ));
            }
        }
    }
    let queued = !outbox.is_empty();
    let result = MoveResult {
        game_id: gid.clone(),
        version: new_version,
        status,
        events: entries,
    };
    let body = serde_json::to_string(&result).map_err(ApiError::internal)?;
    let idem_row = idem.as_ref().map(|i| IdempotencyRow {
        user_id: me.id.clone(),
        idem_key: i.key.clone(),
        request_hash: i.hash.clone(),
        status: 200,
        body: body.clone(),
        created_at: now,
    });
    let append = Append {
        game_id: gid.clone(),
        expected_version: expected,
        events: rows,
        status: status.as_str().to_string(),
        current_user_id,
        turn_changed,
        now,
        idempotency: idem_row,
        outbox,
    };
    match st.store.append(append).await {
        Ok(()) => {
            if queued {
                st.notifier.wake();
            }
            // the next read of this version needs no replay
            st.replays.put(&gid, new_version, Arc::new(game));
            Ok(HttpResponse::Ok()
                .content_type("application/json")
                .insert_header((header::ETAG, format!("\"{new_version}\"")))
                .body(body))
        }
        Err(StoreError::Conflict("idempotency-key-in-use")) => {
            match idempotent_answer(st, &me.id, &idem).await? {
                Some(r) => Ok(r),
                None => Err(ApiError::new(
                    409,
                    "idempotency-key-in-use",
                    "a request with this Idempotency-Key is being processed",
                )),
            }
        }
        Err(StoreError::Conflict(_)) => {
            // another writer won; a retry of the same request may have been it
            if let Some(r) = idempotent_answer(st, &me.id, &idem).await? {
                return Ok(r);
            }
            let current = st
                .store
                .load_game(gid, false)
                .await
                .ok()
                .flatten()
                .map(|d| d.game.version);
            Err(ApiError::stale(current))
        }
        Err(e) => Err(e.into()),
    }
}

// ----- handlers ------------------------------------------------------------------------

/// Create a game; the creator takes the first seat.
#[utoipa::path(
    operation_id = "create_game",
    tag = "games",
    request_body = CreateGameRequest,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "The game was created and waits for players", body = GameView,
            headers(("Location" = String, description = "The game's URL"), ("ETag" = String, description = "The view's version"))),
        (status = 400, description = "Invalid fields (`validation-failed`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games")]
pub async fn create_game(
    st: web::Data<AppState>,
    me: CurrentUser,
    body: ApiJson<CreateGameRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    if !(2..=6).contains(&r.seats) {
        return Err(ApiError::validation("seats", "a game has 2 to 6 seats"));
    }
    if r.expansions.len() > 12 {
        return Err(ApiError::validation("expansions", "at most 12 expansions"));
    }
    let mut expansions = Vec::new();
    for (i, id) in r.expansions.iter().enumerate() {
        match Expansion::from_id(id) {
            Some(e) if !expansions.contains(&e) => expansions.push(e),
            Some(_) => {
                return Err(ApiError::validation(
                    format!("expansions[{i}]"),
                    "listed twice",
                ))
            }
            None => {
                return Err(ApiError::validation(
                    format!("expansions[{i}]"),
                    format!("unknown expansion {id:?}"),
                ))
            }
        }
    }
    let days_per_move = r.options.as_ref().and_then(|o| o.days_per_move);
    let (clock, invited) =
        super::correspondence::check_new_game(&st, &me, r.seats, days_per_move, &r.invite).await?;
    let tile_order = r.options.and_then(|o| o.tile_order);
    if tile_order.as_ref().is_some_and(|t| t.len() > 500) {
        return Err(ApiError::validation(
            "options.tile_order",
            "at most 500 tiles",
        ));
    }
    let config = GameConfig {
        players: r.seats as u8,
        expansions: expansions.clone(),
        tile_order: tile_order.clone(),
        seed: 0,
    };
    Game::new(&config).map_err(setup_error)?;
    let now = st.clock.now_ms();
    let row = GameRow {
        id: uuid::Uuid::new_v4().to_string(),
        creator_id: me.id.clone(),
        status: "open".into(),
        seats: r.seats as i32,
        expansions: serde_json::to_string(&expansions.iter().map(|e| e.id()).collect::<Vec<_>>())
            .map_err(ApiError::internal)?,
        tile_order: match &tile_order {
            Some(t) => Some(serde_json::to_string(t).map_err(ApiError::internal)?),
            None => None,
        },
        version: 0,
        current_user_id: None,
        created_at: now,
        updated_at: now,
        turn_started_at: None,
    };
    st.store
        .create_game(row.clone())
        .await
        .map_err(|e| match e {
            // the token's user does not exist (foreign key)
            StoreError::Internal(m) if m.to_ascii_lowercase().contains("foreign") => {
                ApiError::unauthorized("the token's user no longer exists")
            }
            other => other.into(),
        })?;
    super::correspondence::set_up_new_game(&st, &row.id, &me.id, clock, invited).await?;
    let (data, game) = load_state(&st, &row.id).await?;
    let mut resp = view_response(
        &st,
        actix_web::http::StatusCode::CREATED,
        &data,
        game.as_deref(),
    )
    .await?;
    if let Ok(v) = header::HeaderValue::from_str(&format!("/v1/games/{}", row.id)) {
        resp.headers_mut().insert(header::LOCATION, v);
    }
    Ok(resp)
}

/// Take a free seat; the game starts when the last seat is taken.
#[utoipa::path(
    operation_id = "join_game",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller has a seat; the game view", body = GameView),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game (`game-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already seated, or the game has started (`already-seated`, `game-already-started`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/join")]
pub async fn join_game(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    if id.len() > 64 {
        return Err(ApiError::game_not_found());
    }
    // an invited caller takes their reserved seat; others only a seat nobody reserved
    super::correspondence::take_seat(&st, &id, &me.id, false).await?;
    st.notifier.wake();
    current_view(&st, &id).await
}

/// Start a game before every seat is taken (creator only, at least 2 players).
#[utoipa::path(
    operation_id = "start_game",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game started; the game view", body = GameView),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the creator may start the game (`not-creator`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game (`game-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already started or too few players (`game-already-started`, `not-enough-players`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/start")]
pub async fn start_game(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let data = load_data(&st, &id, false).await?;
    if data.game.creator_id != me.id {
        return Err(ApiError::new(
            403,
            "not-creator",
            "only the game's creator may start it",
        ));
    }
    if data.game.status != "open" {
        return Err(ApiError::new(
            409,
            "game-already-started",
            "the game has already started",
        ));
    }
    if data.seats.len() < 2 {
        return Err(ApiError::new(
            409,
            "not-enough-players",
            "a game needs at least 2 players",
        ));
    }
    let now = st.clock.now_ms();
    st.store
        .start_game(id.clone(), now, start_plan(st.notifier.clone(), now))
        .await
        .map_err(|e| match e {
            StoreError::NotFound => ApiError::game_not_found(),
            other => other.into(),
        })?;
    st.notifier.wake();
    current_view(&st, &id).await
}

fn encode_cursor(offset: usize) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("o:{offset}"))
}

fn decode_cursor(c: &str) -> Option<usize> {
    let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(c)
        .ok()?;
    String::from_utf8(raw)
        .ok()?
        .strip_prefix("o:")?
        .parse()
        .ok()
}

/// List games, the most urgent first: the caller's turns (longest waiting first), then
/// running games, open games and finished games (most recent first).
#[utoipa::path(
    operation_id = "list_games",
    tag = "games",
    params(ListGamesQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "A page of games", body = GameList),
        (status = 400, description = "Invalid query (`validation-failed`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "`player=me` or `my_turn` without a valid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games")]
pub async fn list_games(
    st: web::Data<AppState>,
    me: MaybeUser,
    q: web::Query<ListGamesQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = q.into_inner();
    let limit = q.limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        return Err(ApiError::validation("limit", "1 to 200"));
    }
    let offset = match &q.cursor {
        Some(c) => {
            decode_cursor(c).ok_or_else(|| ApiError::validation("cursor", "not a cursor"))?
        }
        None => 0,
    };
    let me_id = me.0.map(|u| u.id);
    let mut filter = GameFilter {
        status: q.status.map(|s| s.as_str().to_string()),
        ..Default::default()
    };
    match q.player.as_deref() {
        Some("me") => {
            filter.player_id = Some(
                me_id
                    .clone()
                    .ok_or_else(|| ApiError::unauthorized("player=me needs a bearer token"))?,
            )
        }
        Some(name) => {
            if name.len() > 64 {
                return Err(ApiError::validation("player", "no such user"));
            }
            match st.store.user_by_username(name.to_string()).await? {
                Some(u) => filter.player_id = Some(u.id),
                None => {
                    return Ok(HttpResponse::Ok().json(GameList {
                        games: Vec::new(),
                        next_cursor: None,
                    }))
                }
            }
        }
        None => {}
    }
    if q.my_turn == Some(true) {
        filter.current_user_id = Some(
            me_id
                .clone()
                .ok_or_else(|| ApiError::unauthorized("my_turn needs a bearer token"))?,
        );
    }
    let mut games = st.store.list_games(filter).await?;
    if q.my_turn == Some(false) {
        games.retain(|g| g.game.current_user_id.is_none() || g.game.current_user_id != me_id);
    }
    let deadlines = super::correspondence::deadlines_of(&st, &games).await?;
    let key = |g: &GameData| -> (u8, i64, i64) {
        let r = &g.game;
        if me_id.is_some() && r.current_user_id == me_id && r.status == "active" {
            // the nearest deadline first, then games without a clock, longest waiting
            let d = deadlines.get(&r.id).copied().unwrap_or(i64::MAX);
            (0, d, r.turn_started_at.unwrap_or(r.updated_at))
        } else {
            let group = match r.status.as_str() {
                "active" => 1,
                "open" => 2,
                _ => 3,
            };
            (group, -r.updated_at, 0)
        }
    };
    games.sort_by(|a, b| key(a).cmp(&key(b)).then_with(|| a.game.id.cmp(&b.game.id)));
    let total = games.len();
    let page: Vec<GameSummary> = games
        .into_iter()
        .skip(offset)
        .take(limit as usize)
        .map(|g| {
            let r = &g.game;
            GameSummary {
                id: r.id.clone(),
                status: GameStatus::parse(&r.status),
                version: r.version,
                sandbox: r.tile_order.is_some(),
                seats: r.seats as u8,
                players: g
                    .seats
                    .iter()
                    .map(|s| SeatView {
                        seat: s.seat as u8,
                        username: s.username.clone(),
                        colour: views::colour(s.seat as u8),
                    })
                    .collect(),
                current_username: r.current_user_id.as_ref().and_then(|u| {
                    g.seats
                        .iter()
                        .find(|s| &s.user_id == u)
                        .map(|s| s.username.clone())
                }),
                my_turn: me_id.is_some() && r.current_user_id == me_id,
                deadline: deadlines.get(&r.id).map(|d| crate::clock::rfc3339(*d)),
                created_at: crate::clock::rfc3339(r.created_at),
                updated_at: crate::clock::rfc3339(r.updated_at),
            }
        })
        .collect();
    let next = offset + page.len();
    Ok(HttpResponse::Ok().json(GameList {
        games: page,
        next_cursor: (next < total).then(|| encode_cursor(next)),
    }))
}

/// A game's state.
#[utoipa::path(
    operation_id = "get_game",
    tag = "games",
    params(
        ("id" = String, Path, description = "Game id"),
        ("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier answer"),
    ),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The game", body = GameView,
            headers(("ETag" = String, description = "The view's version"))),
        (status = 304, description = "Not modified since the given ETag"),
        (status = 404, description = "No such game (`game-not-found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}")]
pub async fn get_game(
    st: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    if id.len() > 64 {
        return Err(ApiError::game_not_found());
    }
    let data = st
        .store
        .load_game(id, false)
        .await?
        .ok_or_else(ApiError::game_not_found)?;
    let tag = etag(&data.game, data.seats.len());
    if let Some(inm) = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
    {
        if inm
            .split(',')
            .map(|t| t.trim().trim_start_matches("W/"))
            .any(|t| t == tag || t == "*")
        {
            return Ok(HttpResponse::NotModified()
                .insert_header((header::ETAG, tag))
                .finish());
        }
    }
    let (data, game) = state_of(&st, data).await?;
    view_response(&st, actix_web::http::StatusCode::OK, &data, game.as_deref()).await
}

/// Every legal placement of the drawn tile, with the spots where a figure may go.
#[utoipa::path(
    operation_id = "list_placements",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The placements (empty when no tile is to be placed)", body = PlacementsView),
        (status = 404, description = "No such game (`game-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game has not started (`game-not-started`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/placements")]
pub async fn list_placements(
    st: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let (data, game) = load_state(&st, &id.into_inner()).await?;
    let game = require_started(&data, game)?;
    Ok(HttpResponse::Ok().json(PlacementsView {
        game_id: data.game.id.clone(),
        version: data.game.version,
        pending: views::pending_view(&game, &data.seats),
        placements: views::placements_view(&game),
    }))
}

/// The pending decision and all its legal options, as complete actions.
#[utoipa::path(
    operation_id = "list_actions",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The pending decision and its options (none once the game is over)", body = ActionsView),
        (status = 404, description = "No such game (`game-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game has not started (`game-not-started`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/actions")]
pub async fn list_actions(
    st: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let (data, game) = load_state(&st, &id.into_inner()).await?;
    let game = require_started(&data, game)?;
    Ok(HttpResponse::Ok().json(ActionsView {
        game_id: data.game.id.clone(),
        version: data.game.version,
        pending: views::pending_view(&game, &data.seats),
        actions: game
            .legal_actions()
            .iter()
            .map(views::action_dto)
            .collect::<Result<Vec<_>, _>>()?,
    }))
}

fn if_match(req: &HttpRequest) -> Result<Option<i64>, ApiError> {
    let Some(v) = req.headers().get(header::IF_MATCH) else {
        return Ok(None);
    };
    v.to_str()
        .ok()
        .map(|s| s.trim().trim_start_matches("W/").trim_matches('"'))
        .and_then(|s| s.parse::<i64>().ok())
        .map(Some)
        .ok_or_else(|| ApiError::validation("If-Match", "expected a game version such as \"12\""))
}

/// Submit one or more actions of the caller, applied in order and atomically.
///
/// No peeking: a move ends with the action that brings hidden information into the game,
/// one that draws a tile (ending the turn or turn part, the builder's or a message's extra
/// tile, `draw_tile`, tiles discarded because they fit nowhere), rolls the die (`fly`) or
/// draws a message. If more actions follow it, the whole move is refused with `422
/// move-past-hidden-information` (field `actions[i]`: the first action after the
/// revealing one) and nothing is written: the answer never depends on the hidden tile,
/// roll or message. Send the following actions as a new move.
#[utoipa::path(
    operation_id = "submit_move",
    tag = "games",
    params(
        ("id" = String, Path, description = "Game id"),
        ("Idempotency-Key" = Option<String>, Header, pattern = "^[!-~]{1,255}$", description = "Makes a retried request return the first response instead of acting twice: 1 to 255 visible ASCII characters"),
        ("If-Match" = Option<String>, Header, pattern = "^(W/)?\"?[0-9]{1,18}\"?$", description = "The expected game version, instead of `expected_version`"),
    ),
    request_body = MoveRequest,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The actions were applied", body = MoveResult),
        (status = 400, description = "Invalid request (`validation-failed`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a player of this game, or not the caller's decision (`not-a-player`, `not-your-turn`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game (`game-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The version moved on, the game is not running, or the caller left it (`stale-version`, `game-not-started`, `game-over`, `not-in-game`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An action is illegal (`illegal-placement`, `tile-does-not-fit`, `feature-occupied`, `no-figure-left`, `unknown-spot`, `figure-not-allowed`, `unexpected-action`, `idempotency-key-reused`; with expansions also `needs-own-follower`, `no-abbot-to-return`, `wagon-out-of-reach`, `barn-not-allowed`, `magic-not-allowed`, `cannot-fly`, `cannot-land`, `crop-not-allowed`, `ferry-not-allowed`, `robber-not-allowed`, `not-in-scoring-order`, `victim-not-allowed`, `message-not-allowed`; `move-past-hidden-information` when actions follow one that drew a tile, rolled the die or drew a message)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/moves")]
pub async fn submit_move(
    st: web::Data<AppState>,
    me: CurrentUser,
    req: HttpRequest,
    id: web::Path<String>,
    body: ApiJson<MoveRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    let header_version = if_match(&req)?;
    let expected = match (r.expected_version, header_version) {
        (Some(b), Some(h)) if b != h => {
            return Err(ApiError::validation(
                "expected_version",
                "differs from If-Match",
            ))
        }
        (Some(v), _) | (None, Some(v)) => v,
        (None, None) => {
            return Err(ApiError::validation(
                "expected_version",
                "send expected_version (or an If-Match header)",
            ))
        }
    };
    if r.actions.is_empty() || r.actions.len() > MAX_ACTIONS {
        return Err(ApiError::validation(
            "actions",
            format!("1 to {MAX_ACTIONS} actions"),
        ));
    }
    let actions = r
        .actions
        .iter()
        .enumerate()
        .map(|(i, a)| views::action_to_engine(a, i))
        .collect::<Result<Vec<_>, _>>()?;
    let idem = idempotency(&req, &(&r.actions, expected))?;
    if let Some(resp) = idempotent_answer(&st, &me.id, &idem).await? {
        return Ok(resp);
    }
    let (data, game) = load_state(&st, &id.into_inner()).await?;
    let seat = seat_of(&data.seats, &me.id)
        .ok_or_else(|| ApiError::new(403, "not-a-player", "you have no seat at this game"))?;
    let game = require_started(&data, game)?;
    if game.is_over() {
        return Err(ApiError::new(409, "game-over", "the game is over"));
    }
    if expected != data.game.version {
        // a retry whose first attempt won in the meantime gets the first answer
        if let Some(resp) = idempotent_answer(&st, &me.id, &idem).await? {
            return Ok(resp);
        }
        return Err(ApiError::stale(Some(data.game.version)));
    }
    let (game, outcomes) = game
        .played_move(seat, &actions)
        .map_err(|e| play_error(&e.error, e.index))?;
    let outcomes = outcomes.into_iter().map(|o| (o.event, o.effects)).collect();
    let resp = commit(&st, &me, &data, game, expected, outcomes, idem).await?;
    super::correspondence::after_move(&st, &me.id).await;
    Ok(resp)
}

/// The history: each stored decision with its seq, actor and time, and the consequences
/// the engine derived.
#[utoipa::path(
    operation_id = "list_events",
    tag = "games",
    params(("id" = String, Path, description = "Game id"), EventsQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "A page of the history", body = EventsPage),
        (status = 400, description = "Invalid query (`validation-failed`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game (`game-not-found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{id}/events")]
pub async fn list_events(
    st: web::Data<AppState>,
    id: web::Path<String>,
    q: web::Query<EventsQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = q.into_inner();
    let after = q.after.unwrap_or(0);
    if after < 0 {
        return Err(ApiError::validation("after", "must not be negative"));
    }
    let limit = q.limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        return Err(ApiError::validation("limit", "1 to 200"));
    }
    let id = id.into_inner();
    if id.len() > 64 {
        return Err(ApiError::game_not_found());
    }
    let data = st
        .store
        .load_game(id, true)
        .await?
        .ok_or_else(ApiError::game_not_found)?;
    let rows = &data.events;
    let events = views::decode_events(rows)?;
    let mut entries = Vec::new();
    let mut next_after = None;
    if !events.is_empty() {
        let (_, effects) = Game::replay_with_effects(&events)
            .map_err(|e| ApiError::internal(format!("game {}: {e}", data.game.id)))?;
        for (i, row) in rows.iter().enumerate() {
            if row.seq <= after {
                continue;
            }
            if entries.len() as i64 == limit {
                next_after = entries.last().map(|e: &HistoryEntry| e.seq);
                break;
            }
            let fx = effects.get(i).map(|v| v.as_slice()).unwrap_or(&[]);
            entries.push(views::history_entry(row, &events[i], fx, &data.seats));
        }
    }
    let chat = super::correspondence::chat_between(&st, &data, after, next_after).await?;
    Ok(HttpResponse::Ok().json(EventsPage {
        game_id: data.game.id.clone(),
        version: rows.last().map(|r| r.seq).unwrap_or(0),
        events: entries,
        next_after,
        chat,
    }))
}

/// Leave a running game: the caller's figures leave the board, they rank last, and the
/// others play on.
#[utoipa::path(
    operation_id = "resign_game",
    tag = "games",
    params(
        ("id" = String, Path, description = "Game id"),
        ("Idempotency-Key" = Option<String>, Header, pattern = "^[!-~]{1,255}$", description = "Makes a retried request return the first response instead of acting twice: 1 to 255 visible ASCII characters"),
    ),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller left the game", body = MoveResult),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not a player of this game (`not-a-player`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game (`game-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game is not running or the caller already left (`game-not-started`, `game-over`, `not-in-game`, `stale-version`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The Idempotency-Key was used for another request (`idempotency-key-reused`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{id}/resign")]
pub async fn resign_game(
    st: web::Data<AppState>,
    me: CurrentUser,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let idem = idempotency(&req, &())?;
    if let Some(resp) = idempotent_answer(&st, &me.id, &idem).await? {
        return Ok(resp);
    }
    let (data, game) = load_state(&st, &id.into_inner()).await?;
    let seat = seat_of(&data.seats, &me.id)
        .ok_or_else(|| ApiError::new(403, "not-a-player", "you have no seat at this game"))?;
    let mut game = Game::clone(&*require_started(&data, game)?);
    let expected = data.game.version;
    let o = game.resign(seat, false).map_err(|e| match e {
        PlayError::NotInGame(_) => ApiError::new(409, "not-in-game", "you already left this game"),
        other => play_error(&other, 0),
    })?;
    commit(
        &st,
        &me,
        &data,
        game,
        expected,
        vec![(o.event, o.effects)],
        idem,
    )
    .await
}
