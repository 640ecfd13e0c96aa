//! Moves and resignations: atomic batches of actions with optimistic versioning and
//! idempotency keys, recorded by the decision service ([`crate::moves`]).

use actix_web::http::header;
use actix_web::{post, web, HttpRequest, HttpResponse};
use base64::Engine as _;
use sha2::{Digest, Sha256};

use super::dto::*;
use super::error::{ApiError, ProblemCode};
use super::extract::{ApiJson, CurrentUser, GameId};
use super::views;
use super::AppState;
use crate::moves::{Decision, DecisionError, IdempotencyKey, Recorded, Request};
use crate::store::IdempotencyRow;

const MAX_ACTIONS: usize = 16;

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
            ProblemCode::IdempotencyKeyReused,
            "this Idempotency-Key was used with a different request",
        )),
        None => Ok(None),
    }
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
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The actions were applied", body = MoveResult),
    )
)]
#[post("/games/{id}/moves")]
pub async fn submit_move(
    st: web::Data<AppState>,
    me: CurrentUser,
    req: HttpRequest,
    id: GameId,
    body: ApiJson<MoveRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    let expected = expected_version(r.expected_version, &req)?;
    if r.actions.is_empty() || r.actions.len() > MAX_ACTIONS {
        return Err(ApiError::validation(
            "actions",
            format!("1 to {MAX_ACTIONS} actions"),
        ));
    }
    let idem = idempotency(&req, &(&r.actions, expected))?;
    let decision = Decision::Play {
        user_id: me.id.clone(),
        actions: r.actions,
    };
    record_counted(&st, &me, id, decision, expected, idem).await
}

/// Take back the caller's last decision, before anything hidden is revealed.
///
/// In a casual game the player whose decision is pending may take back their own
/// decisions since hidden information last entered the game (a tile drawn, the die
/// rolled, a message drawn, a tile of a hand placed): for example a tile placed alone,
/// before its figure. Each undo takes back the last such decision (with the forced
/// decisions the server took for the player after it) and is itself recorded in the
/// game's history (`undone`); what the decision caused is undone with it, and the next
/// tile drawn is the one that would have been drawn. Never in rated games
/// (`undo-not-allowed`), never past a reveal (`undo-past-reveal`), never another
/// player's decision (`undo-not-yours`). `GET …/actions` says whether the caller may undo
/// now (`undo`). An undo counts as a move against `TILEPOST_MOVES_PER_MINUTE`.
#[utoipa::path(
    operation_id = "undo_decision",
    tag = "games",
    params(
        ("id" = String, Path, description = "Game id"),
        ("Idempotency-Key" = Option<String>, Header, pattern = "^[!-~]{1,255}$", description = "Makes a retried request return the first response instead of acting twice: 1 to 255 visible ASCII characters"),
        ("If-Match" = Option<String>, Header, pattern = "^(W/)?\"?[0-9]{1,18}\"?$", description = "The expected game version, instead of `expected_version`"),
    ),
    request_body = UndoRequest,
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The decision was taken back; the answer lists the `undone` event", body = MoveResult),
    )
)]
#[post("/games/{id}/undo")]
pub async fn undo_decision(
    st: web::Data<AppState>,
    me: CurrentUser,
    req: HttpRequest,
    id: GameId,
    body: ApiJson<UndoRequest>,
) -> Result<HttpResponse, ApiError> {
    let expected = expected_version(body.0.expected_version, &req)?;
    let idem = idempotency(&req, &expected)?;
    let decision = Decision::Undo {
        user_id: me.id.clone(),
    };
    record_counted(&st, &me, id, decision, expected, idem).await
}

/// The version a write expects, from the body or `If-Match` (which must agree).
fn expected_version(body: Option<i64>, req: &HttpRequest) -> Result<i64, ApiError> {
    match (body, if_match(req)?) {
        (Some(b), Some(h)) if b != h => Err(ApiError::validation(
            "expected_version",
            "differs from If-Match",
        )),
        (Some(v), _) | (None, Some(v)) => Ok(v),
        (None, None) => Err(ApiError::validation(
            "expected_version",
            "send expected_version (or an If-Match header)",
        )),
    }
}

/// Records a decision that counts against the moves limit: the stored answer for a
/// repeated Idempotency-Key, else the limit's turn, then the decision, with the limit's
/// headers on the answer either way.
async fn record_counted(
    st: &AppState,
    me: &CurrentUser,
    id: GameId,
    decision: Decision,
    expected: i64,
    idem: Option<Idempotency>,
) -> Result<HttpResponse, ApiError> {
    if let Some(resp) = idempotent_answer(st, &me.id, &idem).await? {
        return Ok(resp);
    }
    let quota = st.moves.take(&me.id)?;
    let mut resp = record(st, me, id, decision, Some(expected), idem).await;
    match &mut resp {
        Ok(r) => quota.apply(r),
        Err(e) => e.headers.extend(quota.headers()),
    }
    resp
}

/// The answer to a recorded move or resignation for `viewer`, its caller (also stored
/// with its idempotency key).
pub fn move_result(r: &Recorded, viewer: &str) -> Result<String, String> {
    let result = MoveResult {
        game_id: r.game_id.clone(),
        version: r.version,
        status: r.status,
        events: r
            .events
            .iter()
            .map(|(row, ev, fx)| views::history_entry(row, ev, fx, &r.seats, Some(viewer)))
            .collect(),
    };
    serde_json::to_string(&result).map_err(|e| e.to_string())
}

/// Records the caller's decision through the decision service and answers with its
/// result; a retry of a request that won meanwhile gets the first answer.
async fn record(
    st: &AppState,
    me: &CurrentUser,
    id: GameId,
    decision: Decision,
    expected_version: Option<i64>,
    idem: Option<Idempotency>,
) -> Result<HttpResponse, ApiError> {
    let req = Request {
        game_id: id.into_inner(),
        decision,
        expected_version,
        idempotency: idem.as_ref().map(|i| IdempotencyKey {
            user_id: me.id.clone(),
            key: i.key.clone(),
            hash: i.hash.clone(),
        }),
        now: st.clock.now_ms(),
    };
    let viewer = me.id.clone();
    match st
        .decisions()
        .record(req, move |r| move_result(r, &viewer))
        .await
    {
        Ok(r) => {
            if r.status == crate::store::GameStatus::Finished {
                super::tournaments::game_ended(st, &r.game_id).await;
            }
            Ok(HttpResponse::Ok()
                .content_type("application/json")
                .insert_header((header::ETAG, format!("\"{}\"", r.version)))
                .body(r.answer))
        }
        Err(e @ (DecisionError::Stale(_) | DecisionError::IdempotencyKeyInUse)) => {
            // another writer won; a retry of the same request may have been it
            match idempotent_answer(st, &me.id, &idem).await? {
                Some(resp) => Ok(resp),
                None => Err(e.into()),
            }
        }
        Err(e) => Err(e.into()),
    }
}

/// Leave a running game (resign).
///
/// The caller's figures leave the board, they rank last, and the others play on; when
/// one player is left, the game ends. The answer lists the recorded decision with its
/// consequences. With `Idempotency-Key`, a retried request gets the first answer
/// instead of acting twice.
#[utoipa::path(
    operation_id = "resign_game",
    tag = "games",
    params(
        ("id" = String, Path, description = "Game id"),
        ("Idempotency-Key" = Option<String>, Header, pattern = "^[!-~]{1,255}$", description = "Makes a retried request return the first response instead of acting twice: 1 to 255 visible ASCII characters"),
    ),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The caller left the game", body = MoveResult),
    )
)]
#[post("/games/{id}/resign")]
pub async fn resign_game(
    st: web::Data<AppState>,
    me: CurrentUser,
    req: HttpRequest,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    let idem = idempotency(&req, &())?;
    if let Some(resp) = idempotent_answer(&st, &me.id, &idem).await? {
        return Ok(resp);
    }
    let decision = Decision::Resign {
        user_id: me.id.clone(),
    };
    record(&st, &me, id, decision, None, idem).await
}

crate::api::problem::problems! {
    "submit_move" {
        400 => ("Invalid request (" [ValidationFailed] ")"),
        403 => ("Not a player of this game, or not the caller's decision (" [NotAPlayer, NotYourTurn] ")"),
        409 => ("The version moved on, the game is not running, or the caller left it (" [StaleVersion, GameNotStarted, GameOver, NotInGame] ")"),
        429 => ("Too many moves this minute (" [RateLimited] ", `TILEPOST_MOVES_PER_MINUTE`); `Retry-After` says when to retry. Every answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`"),
        422 => ("An action is illegal (" [IllegalPlacement, TileDoesNotFit, FeatureOccupied, NoFigureLeft, UnknownSpot, FigureNotAllowed, UnexpectedAction, IdempotencyKeyReused] "; with expansions also " [NeedsOwnFollower, NoAbbotToReturn, WagonOutOfReach, BarnNotAllowed, MagicNotAllowed, CannotFly, CannotLand, CropNotAllowed, FerryNotAllowed, RobberNotAllowed, NotInScoringOrder, VictimNotAllowed, MessageNotAllowed] "; with the house rule `tiles_in_hand` also " [TileNotNamed, TileNotInHand] "; " [MovePastHiddenInformation] " when actions follow one that drew a tile, rolled the die or drew a message)"),
    }
    "undo_decision" {
        400 => ("Invalid request (" [ValidationFailed] ")"),
        403 => ("Not a player of this game, a rated game, or not the caller's decision to take back (" [NotAPlayer, UndoNotAllowed, UndoNotYours] ")"),
        409 => ("The version moved on, the game is not running, hidden information entered the game since the caller's last decision, or the caller has no decision to take back (" [StaleVersion, GameNotStarted, GameOver, UndoPastReveal, NothingToUndo] ")"),
        422 => ("The Idempotency-Key was used for another request (" [IdempotencyKeyReused] ")"),
        429 => ("Too many moves this minute (" [RateLimited] ", `TILEPOST_MOVES_PER_MINUTE`); `Retry-After` says when to retry. Every answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`"),
    }
    "resign_game" {
        403 => ("Not a player of this game (" [NotAPlayer] ")"),
        409 => ("The game is not running or the caller already left (" [GameNotStarted, GameOver, NotInGame] "); a resignation racing other moves is recorded after them, never refused as stale"),
        422 => ("The Idempotency-Key was used for another request (" [IdempotencyKeyReused] ")"),
    }
}
