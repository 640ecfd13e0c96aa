//! Seeing the game: a finished game's review by the strongest bot, and every player's
//! points (and the score if the game ended then) over the game. What a running game
//! shows follows its `assistance` setting; a finished game shows everything to whoever
//! may read it.

use std::sync::Arc;

use actix_web::{get, post, web, HttpResponse};
use tilepost_engine::{Action, Event, Game, NoEffects};

use super::dto::*;
use super::error::{ApiError, ProblemCode};
use super::extract::{CurrentUser, GameId, MaybeUser};
use super::load::{load_data, load_state, require_started, signed_in};
use super::views;
use super::AppState;
use crate::store::reviews::ReviewRow;
use crate::store::{Assistance, GameData, GameStatus, ReviewState};

/// Most costly decisions listed per player.
const LOSSES_PER_PLAYER: usize = 5;
/// A loss smaller than this (points of final margin) is not listed.
const LOSS_LISTED: f64 = 1.0;

/// Parts per thread of an analysis: a thread that finishes early (its core not shared
/// with other work) takes more of them.
const PARTS_PER_THREAD: usize = 4;

/// The threads of the analyses of positions (`TILEPOST_ANALYSIS_THREADS`): at most as
/// many analyses run at once as there are threads (the others wait their turn), and each
/// cuts its futures into parts that every idle thread of the pool takes.
pub struct AnalysisPool {
    permits: Arc<tokio::sync::Semaphore>,
    threads: rayon::ThreadPool,
}

impl AnalysisPool {
    pub fn new(threads: usize) -> Result<AnalysisPool, String> {
        let threads = threads.max(1);
        Ok(AnalysisPool {
            permits: Arc::new(tokio::sync::Semaphore::new(threads)),
            threads: rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("analysis-{i}"))
                .build()
                .map_err(|e| e.to_string())?,
        })
    }
}

impl tilepost_engine::analysis::Split for AnalysisPool {
    fn ways(&self) -> usize {
        match self.threads.current_num_threads() {
            1 => 1,
            n => n * PARTS_PER_THREAD,
        }
    }

    fn run<'a>(&self, jobs: Vec<tilepost_engine::analysis::Job<'a>>) {
        use rayon::prelude::*;
        // a part that panics panics here: the request fails as on one thread
        self.threads
            .install(|| jobs.into_par_iter().for_each(|job| job()))
    }
}

/// Refuses what a running game's `assistance` does not show (`need`: `scores` for the
/// score if it ended now and the tile tracker, `full` for the rest).
pub fn allowed(data: &GameData, need: Assistance) -> Result<(), ApiError> {
    if data.game.status == GameStatus::Finished {
        return Ok(());
    }
    let ok = match data.game.assistance {
        Assistance::Full => true,
        Assistance::Scores => need != Assistance::Full,
        Assistance::None => false,
    };
    if ok {
        Ok(())
    } else {
        Err(ApiError::new(
            ProblemCode::AssistanceOff,
            "this game shows its analysis once it is over",
        ))
    }
}

fn review_view(data: &GameData, row: Option<ReviewRow>) -> Result<ReviewView, ApiError> {
    let Some(row) = row else {
        return Ok(ReviewView {
            game_id: data.game.id.clone(),
            status: ReviewStatus::None,
            total: 0,
            judged: Vec::new(),
            biggest_losses: Vec::new(),
            error: None,
        });
    };
    let judged: Vec<tilepost_bots::review::Judged> = serde_json::from_str(&row.judged)
        .map_err(|e| ApiError::internal(format!("review of {}: {e}", row.game_id)))?;
    let name = |seat: u8| {
        data.seats
            .iter()
            .find(|s| s.seat == i32::from(seat))
            .map(|s| s.username.clone())
            .unwrap_or_default()
    };
    let dto = |j: &tilepost_bots::review::Judged| JudgedDecision {
        version: i64::from(j.version),
        seat: j.player,
        username: name(j.player),
        played: j.played.clone(),
        best: j.best.clone(),
        margin_best: j.margin_best,
        margin_played: j.margin_played,
        loss: (j.loss() * 10.0).round() / 10.0,
    };
    let losses = tilepost_bots::review::biggest_losses(&judged, LOSSES_PER_PLAYER, LOSS_LISTED);
    Ok(ReviewView {
        game_id: data.game.id.clone(),
        status: match ReviewState::from_column(&row.status) {
            Some(ReviewState::Queued) => ReviewStatus::Queued,
            Some(ReviewState::Running) => ReviewStatus::Running,
            Some(ReviewState::Done) => ReviewStatus::Done,
            Some(ReviewState::Failed) | None => ReviewStatus::Failed,
        },
        total: row.total.max(0) as u32,
        biggest_losses: losses.into_iter().map(dto).collect(),
        judged: judged.iter().map(dto).collect(),
        error: row
            .error
            .map(|_| "the review could not be made".to_string()),
    })
}

/// The analysis of the position, from what the caller may know.
///
/// For a player, from their own seat's view (the visible past; never the pile's order,
/// the seed or another player's hand); for anyone else, from the public view. Every
/// player's score if the game ended now with its parts; the tiles still to come by type
/// and where each fits now; with `full` assistance, every open feature (owners, worth
/// now and once completed, the cells it needs, the tiles that fit each, whether it can
/// still be completed, and the chance it is, estimated over sampled futures) and the
/// fields. While the game runs it follows the game's `assistance` (`none`: refused);
/// once over, everything to everyone. With the house rule `tiles_in_hand`, a running
/// game's analysis is its players' alone (the tiles to come include the hands).
#[utoipa::path(
    operation_id = "get_analysis",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security((), ("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "The analysis", body = AnalysisView),
    )
)]
#[get("/games/{id}/analysis")]
pub async fn get_analysis(
    st: web::Data<AppState>,
    viewer: Result<MaybeUser, ApiError>,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    let viewer = signed_in(viewer);
    let me = viewer.as_ref().map(|u| u.id.as_str());
    let (data, game) = load_state(&st, &id, me).await?;
    let game = require_started(&data, game)?;
    allowed(&data, Assistance::Scores)?;
    let seat = views::viewer_seat(&data.seats, me);
    let over = game.is_over();
    // a spectator sees what every player sees: with hidden hands, nothing of the future
    if seat.is_none() && !over && !game.hand_sizes().is_empty() {
        return Err(ApiError::new(
            ProblemCode::AssistanceOff,
            "the analysis of a game whose players hold hidden tiles is theirs until it ends",
        ));
    }
    let full = over || data.game.assistance == Assistance::Full;
    let view = game.seat_view(seat.unwrap_or(0));
    // the permit goes with the work: a request given up on still holds it until its
    // analysis ends, so abandoned requests cannot pile work up
    let permit = st
        .analyses
        .permits
        .clone()
        .acquire_owned()
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let options = tilepost_engine::analysis::AnalysisOptions {
        // scores and tiles alone need no futures
        samples: if full {
            tilepost_engine::analysis::DEFAULT_SAMPLES
        } else {
            1
        },
        seed: None,
    };
    let pool = st.analyses.clone();
    let a = web::block(move || {
        let _permit = permit;
        tilepost_engine::analysis::analyze_split(&view, &options, pool.as_ref())
    })
    .await
    .map_err(|e| ApiError::internal(e.to_string()))?;
    Ok(HttpResponse::Ok().json(AnalysisView {
        game_id: data.game.id.clone(),
        version: data.game.version,
        assistance: data.game.assistance,
        seat,
        scores: a.scores,
        tiles: a.tiles,
        features: full.then_some(a.features),
        fields: full.then_some(a.fields),
        chances: full.then_some(a.chances),
    }))
}

/// A finished game's review.
///
/// The strongest bot's opinion of each decision that had a choice: the expected final
/// margin with the option it prefers and with the one played, judged from what the
/// player could see then; and each player's costliest decisions. A rated game gets one
/// when it ends; a player may ask for one (`POST`). It is computed once, on the bots'
/// bounded pool, and kept; `judged` grows while it runs. `status` is `none` when there
/// is none.
#[utoipa::path(
    operation_id = "get_review",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security((), ("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "The review, or `status: none`", body = ReviewView),
    )
)]
#[get("/games/{id}/review")]
pub async fn get_review(
    st: web::Data<AppState>,
    viewer: Result<MaybeUser, ApiError>,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    let viewer = signed_in(viewer);
    let data = load_data(&st, &id, viewer.as_ref().map(|u| u.id.as_str()), false).await?;
    // a review exists only once the game is over: nothing of it can show while it runs
    let row = if data.game.status == GameStatus::Finished {
        st.store.review_of(data.game.id.clone()).await?
    } else {
        None
    };
    Ok(HttpResponse::Ok().json(review_view(&data, row)?))
}

/// Asks for a finished game's review.
///
/// A player of the game may ask for the strongest bot's review once the game is over;
/// it is queued on the bots' pool (`202`), or the game has one already (`200`, as it
/// is). Each game is reviewed once.
#[utoipa::path(
    operation_id = "request_review",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The game has a review already", body = ReviewView),
        (status = 202, description = "The review is queued", body = ReviewView),
    )
)]
#[post("/games/{id}/review")]
pub async fn request_review(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    let data = load_data(&st, &id, Some(&me.id), false).await?;
    if !data.seats.iter().any(|s| s.user_id == me.id) {
        return Err(ApiError::new(
            ProblemCode::NotAPlayer,
            "you have no seat at this game",
        ));
    }
    if data.game.status != GameStatus::Finished {
        return Err(ApiError::new(
            ProblemCode::GameNotOver,
            "a review can be asked for once the game is over",
        ));
    }
    let queued = st
        .store
        .request_review(data.game.id.clone(), st.clock.now_ms())
        .await?;
    let row = st.store.review_of(data.game.id.clone()).await?;
    let view = review_view(&data, row)?;
    Ok(if queued {
        HttpResponse::Accepted().json(view)
    } else {
        HttpResponse::Ok().json(view)
    })
}

/// Every player's points over the game.
///
/// For each tile placed (and the game's last version): every player's points then, and
/// the score if the game had ended then (the end's scoring of everything unfinished
/// added). Computed from the public board alone. While the game runs, it follows the
/// game's `assistance` (refused with `none`).
#[utoipa::path(
    operation_id = "get_timeline",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security((), ("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "The points over the game", body = TimelineView),
    )
)]
#[get("/games/{id}/timeline")]
pub async fn get_timeline(
    st: web::Data<AppState>,
    viewer: Result<MaybeUser, ApiError>,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    let viewer = signed_in(viewer);
    let data = load_data(&st, &id, viewer.as_ref().map(|u| u.id.as_str()), true).await?;
    if data.game.status == GameStatus::Open || data.events.is_empty() {
        return Err(ApiError::new(
            ProblemCode::GameNotStarted,
            "the game is waiting for players",
        ));
    }
    allowed(&data, Assistance::Scores)?;
    let events = views::decode_events(&data.events)?;
    let gid = data.game.id.clone();
    let points = web::block(move || timeline(&events))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?
        .map_err(|e| ApiError::internal(format!("game {gid}: {e}")))?;
    let mut players: Vec<(i32, String)> = data
        .seats
        .iter()
        .map(|s| (s.seat, s.username.clone()))
        .collect();
    players.sort();
    Ok(HttpResponse::Ok().json(TimelineView {
        game_id: data.game.id.clone(),
        version: data.game.version,
        players: players.into_iter().map(|(_, n)| n).collect(),
        points,
    }))
}

/// The points after each tile placed (before its figure: the version after the
/// placement's whole turn part is the next placement's `version - 1`) and at the end.
fn timeline(events: &[Event]) -> Result<Vec<TimelinePoint>, String> {
    let mut game = Game::replay(events.get(..1).unwrap_or_default()).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    let point = |g: &Game, version: usize| TimelinePoint {
        version: version as i64,
        scores: g.players().iter().map(|p| p.score).collect(),
        if_ended: g.final_scores_now(),
    };
    for (i, e) in events.iter().enumerate().skip(1) {
        // the position before a tile is placed: the previous turn is complete
        if matches!(
            e,
            Event::Decided {
                action: Action::PlaceTile { .. },
                ..
            }
        ) {
            out.push(point(&game, i));
        }
        game.apply_at(events, i, &mut NoEffects)
            .map_err(|e| e.to_string())?;
    }
    out.push(point(&game, events.len()));
    Ok(out)
}

crate::api::problem::problems! {
    "get_analysis" {
        403 => ("The game shows no analysis while it runs, or not to spectators while players hold hidden tiles (" [AssistanceOff] ")"),
        409 => ("The game has not started (" [GameNotStarted] ")"),
    }
    "request_review" {
        403 => ("The caller has no seat at the game (" [NotAPlayer] ")"),
        409 => ("The game is not over (" [GameNotOver] ")"),
    }
    "get_timeline" {
        403 => ("The game shows no analysis while it runs (" [AssistanceOff] ")"),
        409 => ("The game has not started (" [GameNotStarted] ")"),
    }
}
