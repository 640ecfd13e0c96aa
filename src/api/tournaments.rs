//! Tournaments over HTTP: creation by an organiser, registration and withdrawal, the
//! start, and the event's pages (rounds with their pairings and games, standings with
//! tie-break values, a knockout stage's bracket, the decision log, a player's games).
//! Every write goes through the tournament service ([`crate::tournaments`]); the pages
//! are derived from one read of the log, replayed with the tournament crate.

use std::collections::HashMap;

use actix_web::{get, post, web, HttpResponse};
use tilepost_tournament::{
    CapDecision, Config, Decision as TDecision, Entry, Format, MatchStatus, Points, RoundCap,
    StageConfig, State, TieBreak, WithdrawalRule,
};

use super::dto::*;
use super::error::{ApiError, Problem, ProblemCode};
use super::extract::{ApiJson, CurrentUser, MAX_ID_LEN};
use super::AppState;
use crate::clock::rfc3339;
use crate::store::{TournamentRow, TournamentStatus};
use crate::tournaments::{settings_of, Settings, TournamentError, Tournaments};

fn no_tournament() -> ApiError {
    ApiError::new(
        ProblemCode::TournamentNotFound,
        "there is no tournament with this id",
    )
}

impl From<TournamentError> for ApiError {
    fn from(e: TournamentError) -> Self {
        use tilepost_tournament::Error as E;
        match e {
            TournamentError::NotFound => no_tournament(),
            TournamentError::NotOrganiser => ApiError::new(
                ProblemCode::NotOrganiser,
                "only the tournament's organiser may do this",
            ),
            TournamentError::AlreadyStarted => ApiError::new(
                ProblemCode::TournamentStarted,
                "the tournament has already started",
            ),
            TournamentError::Ended => {
                ApiError::new(ProblemCode::TournamentEnded, "the tournament is over")
            }
            TournamentError::Full => ApiError::new(
                ProblemCode::TournamentFull,
                "the tournament has the most players it allows",
            ),
            TournamentError::ComputerOpponentsNotAllowed => ApiError::new(
                ProblemCode::ComputerOpponentsNotAllowed,
                "the organiser did not allow computer opponents",
            ),
            TournamentError::Store(s) => s.into(),
            TournamentError::Corrupt(m) => ApiError::internal(m),
            TournamentError::Refused(r) => {
                let detail = r.to_string();
                match r {
                    E::AlreadyRegistered(_) | E::Withdrawn(_) => {
                        ApiError::new(ProblemCode::AlreadyRegistered, detail)
                    }
                    E::UnknownPlayer(_) => ApiError::new(ProblemCode::NotRegistered, detail),
                    E::RegistrationClosed(_) => {
                        ApiError::new(ProblemCode::RegistrationClosed, detail)
                    }
                    E::GameInProgress(_) => ApiError::new(ProblemCode::GameToPlay, detail),
                    E::NotEnoughPlayers(_) => ApiError::new(ProblemCode::NotEnoughPlayers, detail),
                    E::Finished => ApiError::new(ProblemCode::TournamentEnded, detail),
                    E::InvalidConfig(m) => ApiError::validation("stages", m),
                    other => ApiError::internal(format!("tournament refused: {other}")),
                }
            }
        }
    }
}

fn service(st: &AppState) -> Tournaments<'_> {
    Tournaments {
        store: &st.store,
        notifier: &st.notifier,
        replays: &st.replays,
    }
}

fn check_id(id: &str) -> Result<(), ApiError> {
    if id.len() > MAX_ID_LEN {
        return Err(no_tournament());
    }
    Ok(())
}

fn tie_break(t: TieBreakKind) -> TieBreak {
    match t {
        TieBreakKind::Buchholz => TieBreak::Buchholz,
        TieBreakKind::BuchholzCut1 => TieBreak::BuchholzCut1,
        TieBreakKind::SonnebornBerger => TieBreak::SonnebornBerger,
        TieBreakKind::ScoreDifference => TieBreak::ScoreDifference,
        TieBreakKind::HeadToHead => TieBreak::HeadToHead,
        TieBreakKind::GamesWon => TieBreak::GamesWon,
        TieBreakKind::FewerStarts => TieBreak::FewerStarts,
    }
}

fn tie_break_kind(t: TieBreak) -> TieBreakKind {
    match t {
        TieBreak::Buchholz => TieBreakKind::Buchholz,
        TieBreak::BuchholzCut1 => TieBreakKind::BuchholzCut1,
        TieBreak::SonnebornBerger => TieBreakKind::SonnebornBerger,
        TieBreak::ScoreDifference => TieBreakKind::ScoreDifference,
        TieBreak::HeadToHead => TieBreakKind::HeadToHead,
        TieBreak::GamesWon => TieBreakKind::GamesWon,
        TieBreak::FewerStarts => TieBreakKind::FewerStarts,
    }
}

/// The request as the tournament crate's config and the server's settings.
fn settings_from(r: &CreateTournamentRequest) -> Result<Settings, ApiError> {
    let name = r.name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(ApiError::validation("name", "1 to 100 characters"));
    }
    if r.stages.is_empty() || r.stages.len() > 8 {
        return Err(ApiError::validation("stages", "1 to 8 stages"));
    }
    let mut stages = Vec::new();
    for (i, s) in r.stages.iter().enumerate() {
        let field = |f: &str| format!("stages[{i}].{f}");
        let format = match s.format {
            StageFormat::Swiss => Format::Swiss {
                rounds: s
                    .rounds
                    .ok_or_else(|| ApiError::validation(field("rounds"), "a Swiss needs rounds"))?,
            },
            StageFormat::RoundRobin => Format::RoundRobin {
                double: s.double,
                groups: s.groups.unwrap_or(1),
            },
            StageFormat::Knockout => Format::Knockout { double: s.double },
        };
        let entry = match (i, s.top) {
            (0, None) => Entry::Registered,
            (0, Some(_)) => {
                return Err(ApiError::validation(
                    field("top"),
                    "the first stage takes every registered player",
                ))
            }
            (_, Some(count)) => Entry::Top { count },
            (_, None) => {
                return Err(ApiError::validation(
                    field("top"),
                    "a later stage takes the best `top` of the stage before",
                ))
            }
        };
        stages.push(StageConfig {
            format,
            best_of: s.best_of.unwrap_or(1),
            table_size: s.table_size.unwrap_or(2),
            entry,
        });
    }
    let days_per_move = match r.days_per_move {
        None => None,
        Some(d) if (1..=14).contains(&d) => Some(d as u32),
        Some(_) => return Err(ApiError::validation("days_per_move", "1 to 14")),
    };
    let round_cap = match &r.round_cap {
        None => RoundCap::default(),
        Some(c) => {
            if !(1..=365).contains(&c.days) {
                return Err(ApiError::validation("round_cap.days", "1 to 365"));
            }
            RoundCap {
                days: c.days,
                decision: match c.decision {
                    CapRule::ScoreIfEndedNow => CapDecision::ScoreIfEndedNow,
                    CapRule::Forfeit => CapDecision::Forfeit,
                },
            }
        }
    };
    if r.round_starts.len() > 400 {
        return Err(ApiError::validation("round_starts", "at most 400 dates"));
    }
    let mut round_starts = Vec::new();
    for (i, s) in r.round_starts.iter().enumerate() {
        let t = time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339)
            .map_err(|_| ApiError::validation(format!("round_starts[{i}]"), "an RFC 3339 time"))?;
        round_starts.push((t.unix_timestamp_nanos() / 1_000_000) as i64);
    }
    let max_players = r.max_players.unwrap_or(1024);
    if !(2..=1024).contains(&max_players) {
        return Err(ApiError::validation("max_players", "2 to 1024"));
    }
    let config = Config {
        stages,
        rank_points: r.rank_points.clone(),
        tie_breaks: r.tie_breaks.iter().map(|t| tie_break(*t)).collect(),
        bye_half_points: r.bye_half_points.unwrap_or(2),
        withdrawal: match r.withdrawal {
            Some(WithdrawalRuleKind::RemoveUnderHalf) => WithdrawalRule::RemoveUnderHalf,
            _ => WithdrawalRule::ForfeitUnplayed,
        },
        round_cap,
        seed: rand::random::<u32>().to_string(),
    };
    config
        .validate()
        .map_err(|e| ApiError::validation("stages", e.to_string()))?;
    Ok(Settings {
        config,
        days_per_move,
        computer_opponents: r.computer_opponents,
        expansions: Vec::new(),
        round_starts,
        max_players,
    })
}

fn stage_settings(s: &StageConfig) -> StageSettings {
    let (format, rounds, double, groups) = match &s.format {
        Format::Swiss { rounds } => (StageFormat::Swiss, Some(*rounds), false, None),
        Format::RoundRobin { double, groups } => {
            (StageFormat::RoundRobin, None, *double, Some(*groups))
        }
        Format::Knockout { double } => (StageFormat::Knockout, None, *double, None),
    };
    StageSettings {
        format,
        rounds,
        double,
        groups,
        best_of: Some(s.best_of),
        table_size: Some(s.table_size),
        top: match s.entry {
            Entry::Top { count } => Some(count),
            Entry::Registered => None,
        },
    }
}

async fn tournament_view(
    st: &AppState,
    row: &TournamentRow,
    me: Option<&str>,
    state: Option<&State>,
) -> Result<TournamentView, ApiError> {
    let settings = settings_of(row).map_err(ApiError::internal)?;
    let c = &settings.config;
    let organiser = st
        .store
        .usernames_of(vec![row.organiser_id.clone()])
        .await?
        .remove(&row.organiser_id)
        .map(|(n, _)| n)
        .unwrap_or_default();
    let registered = match (me, state) {
        (Some(me), Some(s)) => s.players().iter().any(|p| p.id == me && !p.withdrawn),
        _ => false,
    };
    Ok(TournamentView {
        id: row.id.clone(),
        name: row.name.clone(),
        organiser,
        status: row.status().unwrap_or(TournamentStatus::Registering),
        players: row.players,
        max_players: settings.max_players,
        current_stage: row.current_stage,
        current_round: row.current_round,
        round_started_at: row.round_started_at.map(rfc3339),
        round_deadline: row.round_deadline.map(rfc3339),
        next_round_at: row.next_round_at.map(rfc3339),
        stages: c.stages.iter().map(stage_settings).collect(),
        rank_points: c.rank_points.clone(),
        tie_breaks: c.tie_breaks().into_iter().map(tie_break_kind).collect(),
        bye_half_points: c.bye_half_points,
        withdrawal: match c.withdrawal {
            WithdrawalRule::ForfeitUnplayed => WithdrawalRuleKind::ForfeitUnplayed,
            WithdrawalRule::RemoveUnderHalf => WithdrawalRuleKind::RemoveUnderHalf,
        },
        round_cap: (c.round_cap.days > 0).then_some(RoundCapSettings {
            days: c.round_cap.days,
            decision: match c.round_cap.decision {
                CapDecision::ScoreIfEndedNow => CapRule::ScoreIfEndedNow,
                CapDecision::Forfeit => CapRule::Forfeit,
            },
        }),
        round_starts: settings.round_starts.iter().map(|t| rfc3339(*t)).collect(),
        days_per_move: settings.days_per_move,
        computer_opponents: settings.computer_opponents,
        registered,
        created_at: rfc3339(row.created_at),
    })
}

/// The row and the replayed state of a tournament.
async fn load(st: &AppState, id: &str) -> Result<(TournamentRow, State), ApiError> {
    check_id(id)?;
    let (row, rows) = st
        .store
        .tournament_with_log(id.to_string())
        .await?
        .ok_or_else(no_tournament)?;
    let state = crate::tournaments::replay(&rows).map_err(ApiError::internal)?;
    Ok((row, state))
}

/// Names of the players of a state.
async fn players_of(
    st: &AppState,
    state: &State,
) -> Result<HashMap<String, TournamentPlayer>, ApiError> {
    let ids: Vec<String> = state.players().iter().map(|p| p.id.clone()).collect();
    let names = st.store.usernames_of(ids).await?;
    Ok(names
        .into_iter()
        .map(|(id, (username, bot))| {
            (
                id.clone(),
                TournamentPlayer {
                    user_id: id,
                    username,
                    bot,
                },
            )
        })
        .collect())
}

fn player(names: &HashMap<String, TournamentPlayer>, id: &str) -> TournamentPlayer {
    match names.get(id) {
        Some(p) => TournamentPlayer {
            user_id: p.user_id.clone(),
            username: p.username.clone(),
            bot: p.bot.clone(),
        },
        None => TournamentPlayer {
            user_id: id.to_string(),
            username: String::new(),
            bot: None,
        },
    }
}

async fn view_of(st: &AppState, id: &str, me: &str) -> Result<HttpResponse, ApiError> {
    let (row, state) = load(st, id).await?;
    Ok(HttpResponse::Ok().json(tournament_view(st, &row, Some(me), Some(&state)).await?))
}

/// Create a tournament (the caller organises it).
///
/// The event has 1 to 8 stages (Swiss, round robin, knockout), each with its match
/// length (best of 1, 3 or 5) and table size; rank points, the tie-break order, the
/// bye's value, the withdrawal rule, a round cap with its rule, calendar dates for the
/// rounds, each game's clock (days per move) and whether computer opponents may enter.
/// Creations are limited per user and day (`TILEPOST_TOURNAMENTS_PER_DAY`).
#[utoipa::path(
    operation_id = "create_tournament",
    tag = "tournaments",
    request_body = CreateTournamentRequest,
    security(("bearer" = ["game:play"])),
    responses(
        (status = 201, description = "The tournament takes registrations", body = TournamentView,
            headers(("Location" = String, description = "The tournament's URL"))),
        (status = 400, description = "Invalid fields (`validation-failed`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many tournaments created today (`rate-limited`); `Retry-After` and `RateLimit-*` say when", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/tournaments")]
pub async fn create_tournament(
    st: web::Data<AppState>,
    me: CurrentUser,
    body: ApiJson<CreateTournamentRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    let settings = settings_from(&r)?;
    let reservation = super::limits::reserve(&st, super::limits::tournaments(&st, &me.id)).await?;
    let now = st.clock.now_ms();
    let row = match service(&st)
        .create(&me.id, r.name.trim().to_string(), settings, now)
        .await
    {
        Ok(row) => row,
        Err(e) => {
            reservation.release(&st).await;
            return Err(e.into());
        }
    };
    let quota = reservation.keep();
    let (row, state) = load(&st, &row.id).await?;
    let mut resp = HttpResponse::Created()
        .insert_header(("Location", format!("/v1/tournaments/{}", row.id)))
        .json(tournament_view(&st, &row, Some(&me.id), Some(&state)).await?);
    quota.apply(&mut resp);
    Ok(resp)
}

/// List tournaments, newest first.
///
/// With `status`, only those registering, running or ended. Paged with `cursor`.
#[utoipa::path(
    operation_id = "list_tournaments",
    tag = "tournaments",
    params(TournamentListQuery),
    security(("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "A page of tournaments", body = TournamentList),
        (status = 400, description = "Invalid query (`validation-failed`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/tournaments")]
pub async fn list_tournaments(
    st: web::Data<AppState>,
    _me: CurrentUser,
    q: web::Query<TournamentListQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = q.into_inner();
    let limit = super::paging::limit(q.limit)?;
    let after = q
        .cursor
        .as_deref()
        .map(|c| super::paging::parse_pair_cursor(c, "tn1"))
        .transpose()?;
    let (rows, next) = st.store.list_tournaments(q.status, after, limit).await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        out.push(tournament_view(&st, row, None, None).await?);
    }
    Ok(HttpResponse::Ok().json(TournamentList {
        tournaments: out,
        next_cursor: next.map(|k| super::paging::pair_cursor("tn1", &k)),
    }))
}

/// A tournament: its settings, state and where it stands.
///
/// The settings as created, the status (`registering`, `running`, `ended`), the
/// players registered, the stage and round being played with the round's start,
/// deadline (the round cap) and the date the next round waits for, and whether the
/// caller is registered.
#[utoipa::path(
    operation_id = "get_tournament",
    tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id")),
    security(("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "The tournament", body = TournamentView),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament (`tournament-not-found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/tournaments/{id}")]
pub async fn get_tournament(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    view_of(&st, &id.into_inner(), &me.id).await
}

/// Register for a tournament.
///
/// Before the first round; a Swiss first stage also takes late entries (paired from the
/// next round, with no points). The caller's rating in the base game seeds them.
/// Registrations and withdrawals are limited per user and hour
/// (`TILEPOST_TOURNAMENT_ENTRIES_PER_HOUR`).
#[utoipa::path(
    operation_id = "join_tournament",
    tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id")),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The caller is registered; the tournament", body = TournamentView),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament (`tournament-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already registered, registration closed, the tournament full or over (`already-registered`, `registration-closed`, `tournament-full`, `tournament-ended`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many registrations this hour (`rate-limited`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/tournaments/{id}/join")]
pub async fn join_tournament(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    check_id(&id)?;
    let rating = st
        .store
        .rating_of(me.id.clone(), crate::standing::Pool::Base)
        .await?
        .map(|r| r.rating.round() as i32);
    let reservation =
        super::limits::reserve(&st, super::limits::tournament_entries(&st, &me.id)).await?;
    let now = st.clock.now_ms();
    if let Err(e) = service(&st)
        .register(&id, &me.id, rating, &me.id, now)
        .await
    {
        reservation.release(&st).await;
        return Err(e.into());
    }
    let quota = reservation.keep();
    st.notifier.wake();
    let mut resp = view_of(&st, &id, &me.id).await?;
    quota.apply(&mut resp);
    Ok(resp)
}

/// Withdraw from a tournament.
///
/// Between games: refused while the caller has a game of the round to play. Results
/// stand (see the withdrawal rule); a withdrawn player is not paired again.
#[utoipa::path(
    operation_id = "leave_tournament",
    tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id")),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The caller withdrew; the tournament", body = TournamentView),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament (`tournament-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not registered (or withdrawn already), a game still to play, or the tournament over (`not-registered`, `already-registered`, `game-to-play`, `tournament-ended`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many registrations this hour (`rate-limited`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/tournaments/{id}/leave")]
pub async fn leave_tournament(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    check_id(&id)?;
    let reservation =
        super::limits::reserve(&st, super::limits::tournament_entries(&st, &me.id)).await?;
    if let Err(e) = service(&st).withdraw(&id, &me.id, st.clock.now_ms()).await {
        reservation.release(&st).await;
        return Err(e.into());
    }
    let quota = reservation.keep();
    st.notifier.wake();
    let mut resp = view_of(&st, &id, &me.id).await?;
    quota.apply(&mut resp);
    Ok(resp)
}

/// Enter a computer opponent (the organiser only, when the settings allow them).
///
/// Each entry is a computer opponent account of the level (`bot-<level>-<n>`), which
/// the server plays in its games.
#[utoipa::path(
    operation_id = "add_tournament_bot",
    tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id")),
    request_body = AddTournamentBotRequest,
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The computer opponent is registered; the tournament", body = TournamentView),
        (status = 400, description = "Unknown level (`validation-failed`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not the organiser, or computer opponents not allowed (`not-organiser`, `computer-opponents-not-allowed`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament (`tournament-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Registration closed, the tournament full or over (`registration-closed`, `tournament-full`, `tournament-ended`, `already-registered`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many registrations this hour (`rate-limited`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/tournaments/{id}/bots")]
pub async fn add_tournament_bot(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
    body: ApiJson<AddTournamentBotRequest>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let level = body.0.level;
    if !crate::bots::LEVELS.contains(&level.as_str()) {
        return Err(ApiError::validation(
            "level",
            format!("one of {}", crate::bots::LEVELS.join(", ")),
        ));
    }
    let (row, state) = load(&st, &id).await?;
    if row.organiser_id != me.id {
        return Err(TournamentError::NotOrganiser.into());
    }
    let settings = settings_of(&row).map_err(ApiError::internal)?;
    if !settings.computer_opponents {
        return Err(TournamentError::ComputerOpponentsNotAllowed.into());
    }
    // the next account of this level not yet in the event
    let names = players_of(&st, &state).await?;
    let taken = names
        .values()
        .filter(|p| p.bot.as_deref() == Some(level.as_str()))
        .count();
    let k = u8::try_from(taken + 1).map_err(|_| {
        ApiError::new(
            ProblemCode::TournamentFull,
            "no more computer opponents of this level",
        )
    })?;
    let reservation =
        super::limits::reserve(&st, super::limits::tournament_entries(&st, &me.id)).await?;
    let now = st.clock.now_ms();
    let bot = match st.store.bot_user(level, k, now).await {
        Ok(b) => b,
        Err(e) => {
            reservation.release(&st).await;
            return Err(e.into());
        }
    };
    if let Err(e) = service(&st).register(&id, &bot, None, &me.id, now).await {
        reservation.release(&st).await;
        return Err(e.into());
    }
    let quota = reservation.keep();
    let mut resp = view_of(&st, &id, &me.id).await?;
    quota.apply(&mut resp);
    Ok(resp)
}

/// Start a tournament (the organiser only).
///
/// Registration closes (except late entries into a Swiss first stage); the first
/// round is paired and its games start, each seated in the start order the pairing
/// chose. Later rounds start when the one before ends (or on their calendar date).
#[utoipa::path(
    operation_id = "start_tournament",
    tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id")),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The tournament is running; the tournament", body = TournamentView),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not the organiser (`not-organiser`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament (`tournament-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Started already, over, or fewer than 2 players (`tournament-started`, `tournament-ended`, `not-enough-players`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/tournaments/{id}/start")]
pub async fn start_tournament(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    check_id(&id)?;
    service(&st).start(&id, &me.id, st.clock.now_ms()).await?;
    st.notifier.wake();
    view_of(&st, &id, &me.id).await
}

fn points(p: Points) -> f64 {
    p.as_f64()
}

/// A stage's standings, best first, with each tie-break's value.
///
/// Only finished matches count. Paged with `cursor`.
#[utoipa::path(
    operation_id = "get_tournament_standings",
    tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id"), StageQuery),
    security(("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "A page of the standings", body = StandingsPage),
        (status = 400, description = "Invalid query or no such stage (`validation-failed`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament (`tournament-not-found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/tournaments/{id}/standings")]
pub async fn get_tournament_standings(
    st: web::Data<AppState>,
    _me: CurrentUser,
    id: web::Path<String>,
    q: web::Query<StageQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = q.into_inner();
    let limit = super::paging::limit(q.limit)? as usize;
    let after = q
        .cursor
        .as_deref()
        .map(|c| super::paging::parse_number_cursor(c, "ts1"))
        .transpose()?
        .unwrap_or(0);
    let (_, state) = load(&st, &id.into_inner()).await?;
    let stage = q.stage.unwrap_or(state.current_stage() as u32);
    if stage as usize >= state.stages().len() {
        return Err(ApiError::validation("stage", "no such stage (yet)"));
    }
    let names = players_of(&st, &state).await?;
    let all = state.standings_of(stage as usize);
    let page: Vec<_> = all
        .iter()
        .filter(|s| i64::from(s.rank) > after)
        .take(limit + 1)
        .collect();
    let next = (page.len() > limit)
        .then(|| {
            page.get(limit - 1)
                .map(|s| super::paging::number_cursor("ts1", i64::from(s.rank)))
        })
        .flatten();
    let standings = page
        .into_iter()
        .take(limit)
        .map(|s| StandingView {
            rank: s.rank,
            player: player(&names, &s.player),
            points: points(s.points),
            game_points: points(s.game_points),
            games: s.games,
            games_won: s.games_won,
            starts: s.starts,
            byes: s.byes,
            score_difference: points(s.score_difference),
            withdrawn: s.withdrawn,
            group: s.group,
            tie_breaks: s
                .tie_breaks
                .iter()
                .map(|(k, v)| TieBreakValue {
                    kind: tie_break_kind(*k),
                    value: points(*v),
                })
                .collect(),
        })
        .collect();
    Ok(HttpResponse::Ok().json(StandingsPage {
        stage,
        standings,
        next_cursor: next,
    }))
}

/// The rounds with their pairings, in order.
///
/// Each table lists its players in the start order of the match's first game, its
/// games (with the game's id and status, and the recorded result) and, once decided,
/// each player's place; each round lists its byes. Paged with `cursor`.
#[utoipa::path(
    operation_id = "list_tournament_rounds",
    tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id"), PageQuery),
    security(("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "A page of rounds", body = RoundList),
        (status = 400, description = "Invalid query (`validation-failed`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament (`tournament-not-found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/tournaments/{id}/rounds")]
pub async fn list_tournament_rounds(
    st: web::Data<AppState>,
    _me: CurrentUser,
    id: web::Path<String>,
    q: web::Query<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = q.into_inner();
    let limit = super::paging::limit(q.limit)? as usize;
    let after = q
        .cursor
        .as_deref()
        .map(|c| super::paging::parse_pair_cursor(c, "tr1"))
        .transpose()?;
    let id = id.into_inner();
    let (_, state) = load(&st, &id).await?;
    let mut all: Vec<(u32, u32)> = Vec::new();
    for (s, stage) in state.stages().iter().enumerate() {
        for r in 0..stage.rounds.len() {
            all.push((s as u32, r as u32 + 1));
        }
    }
    let start = match &after {
        Some((s, r)) => {
            let key = (*s, r.parse::<u32>().unwrap_or(0));
            all.iter()
                .position(|k| (k.0 as i64, k.1) > (key.0, key.1))
                .unwrap_or(all.len())
        }
        None => 0,
    };
    let page: Vec<(u32, u32)> = all.iter().skip(start).take(limit).copied().collect();
    let next = (start + limit < all.len())
        .then(|| page.last())
        .flatten()
        .map(|(s, r)| super::paging::pair_cursor("tr1", &(i64::from(*s), r.to_string())));
    let games = st
        .store
        .tournament_games_of(
            id.clone(),
            page.iter().map(|(s, r)| (*s as i32, *r as i32)).collect(),
        )
        .await?;
    let names = players_of(&st, &state).await?;
    let id_of = |p: usize| {
        state
            .players()
            .get(p)
            .map(|p| p.id.clone())
            .unwrap_or_default()
    };
    let mut rounds = Vec::with_capacity(page.len());
    for (s, r) in page {
        let Some(round) = state
            .stages()
            .get(s as usize)
            .and_then(|st| st.rounds.get(r as usize - 1))
        else {
            continue;
        };
        let tables = round
            .tables
            .iter()
            .map(|t| {
                let mut views: Vec<MatchGameView> = t
                    .games
                    .iter()
                    .enumerate()
                    .map(|(g, res)| {
                        let link = games.get(&(s as i32, r as i32, t.table as i32, g as i32));
                        let (decision, forfeited) = match &res.decision {
                            None => (ResultDecision::Played, Vec::new()),
                            Some(TDecision::Forfeit { seats }) => {
                                (ResultDecision::Forfeit, seats.clone())
                            }
                            Some(TDecision::ScoreIfEndedNow) => {
                                (ResultDecision::ScoreIfEndedNow, Vec::new())
                            }
                        };
                        MatchGameView {
                            game: g as u32,
                            game_id: link.map(|l| l.0.clone()),
                            status: link.map(|l| l.1),
                            scores: Some(res.scores.clone()),
                            decision: Some(decision),
                            forfeited,
                        }
                    })
                    .collect();
                let places = match state.table_status(s as usize, t) {
                    MatchStatus::Decided { places } => Some(places),
                    MatchStatus::Playing { game, .. } => {
                        if let Some(l) =
                            games.get(&(s as i32, r as i32, t.table as i32, game as i32))
                        {
                            views.push(MatchGameView {
                                game,
                                game_id: Some(l.0.clone()),
                                status: Some(l.1),
                                scores: None,
                                decision: None,
                                forfeited: Vec::new(),
                            });
                        }
                        None
                    }
                };
                TableView {
                    table: t.table,
                    bracket: t.bracket.clone(),
                    players: t.seats.iter().map(|p| player(&names, &id_of(*p))).collect(),
                    games: views,
                    places,
                }
            })
            .collect();
        rounds.push(RoundView {
            stage: s,
            round: r,
            tables,
            byes: round
                .byes
                .iter()
                .map(|p| player(&names, &id_of(*p)))
                .collect(),
        });
    }
    Ok(HttpResponse::Ok().json(RoundList {
        rounds,
        next_cursor: next,
    }))
}

/// A knockout stage's bracket, match by match.
///
/// Each match with its players (once known), its winner, its status and the round
/// and table where it is played; byes for the best seeds are walkovers.
#[utoipa::path(
    operation_id = "get_tournament_bracket",
    tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id"), BracketQuery),
    security(("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "The bracket", body = BracketView),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament (`tournament-not-found`), or the stage is not a knockout being or been played (`bracket-not-found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/tournaments/{id}/bracket")]
pub async fn get_tournament_bracket(
    st: web::Data<AppState>,
    _me: CurrentUser,
    id: web::Path<String>,
    q: web::Query<BracketQuery>,
) -> Result<HttpResponse, ApiError> {
    let (_, state) = load(&st, &id.into_inner()).await?;
    let stage = q.stage.unwrap_or(state.current_stage() as u32);
    let matches = state.bracket(stage as usize).ok_or_else(|| {
        ApiError::new(
            ProblemCode::BracketNotFound,
            "this stage is not a knockout stage being or been played",
        )
    })?;
    let names = players_of(&st, &state).await?;
    Ok(HttpResponse::Ok().json(BracketView {
        stage,
        matches: matches
            .into_iter()
            .map(|m| BracketMatch {
                name: m.name,
                players: m
                    .players
                    .iter()
                    .map(|p| p.as_deref().map(|p| player(&names, p)))
                    .collect(),
                winner: m.winner.as_deref().map(|p| player(&names, p)),
                status: m.status.to_string(),
                round: m.table.map(|t| t.0),
                table: m.table.map(|t| t.1),
            })
            .collect(),
    }))
}

/// The tournament's decision log, oldest first.
///
/// Every decision as stored (registrations, withdrawals, pairings, results, stage
/// ends): replaying it with the tournament rules gives the standings served here.
#[utoipa::path(
    operation_id = "list_tournament_events",
    tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id"), TournamentEventsQuery),
    security(("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "A page of the log", body = TournamentEventList),
        (status = 400, description = "Invalid query (`validation-failed`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament (`tournament-not-found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/tournaments/{id}/events")]
pub async fn list_tournament_events(
    st: web::Data<AppState>,
    _me: CurrentUser,
    id: web::Path<String>,
    q: web::Query<TournamentEventsQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    check_id(&id)?;
    let limit = super::paging::limit(q.limit)?;
    let after = q.after.unwrap_or(0);
    if after < 0 {
        return Err(ApiError::validation("after", "0 or more"));
    }
    st.store
        .tournament(id.clone())
        .await?
        .ok_or_else(no_tournament)?;
    let rows = st.store.tournament_events_page(id, after, limit).await?;
    let next_after = (rows.len() as i64 == limit)
        .then(|| rows.last().map(|r| r.seq))
        .flatten();
    Ok(HttpResponse::Ok().json(TournamentEventList {
        events: rows
            .into_iter()
            .map(|r| TournamentEventView {
                seq: r.seq,
                kind: r.event_type,
                version: r.event_version,
                payload: serde_json::from_str(&r.payload).unwrap_or(serde_json::Value::Null),
                created_at: rfc3339(r.created_at),
            })
            .collect(),
        next_after,
    }))
}

/// A player's games in a tournament, in order of stage, round, table and game.
///
/// `player=me` (the default) or a user id; the caller's next game is the first that
/// is `active`. Paged with `cursor`.
#[utoipa::path(
    operation_id = "list_tournament_games",
    tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id"), TournamentGamesQuery),
    security(("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "A page of the player's games", body = TournamentGameList),
        (status = 400, description = "Invalid query (`validation-failed`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or invalid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament (`tournament-not-found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/tournaments/{id}/games")]
pub async fn list_tournament_games(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
    q: web::Query<TournamentGamesQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    check_id(&id)?;
    let q = q.into_inner();
    let limit = super::paging::limit(q.limit)?;
    let player = match q.player.as_deref() {
        None | Some("me") => me.id.clone(),
        Some(p) if p.len() <= MAX_ID_LEN => p.to_string(),
        Some(_) => return Err(ApiError::validation("player", "`me` or a user id")),
    };
    let after = match q.cursor.as_deref() {
        None => None,
        Some(c) => {
            let (s, rest) = super::paging::parse_pair_cursor(c, "tg1")?;
            let parts: Vec<i32> = rest.split('.').filter_map(|x| x.parse().ok()).collect();
            match parts.as_slice() {
                [r, t, g] => Some((s as i32, *r, *t, *g)),
                _ => return Err(ApiError::validation("cursor", "not a cursor of this list")),
            }
        }
    };
    st.store
        .tournament(id.clone())
        .await?
        .ok_or_else(no_tournament)?;
    let (rows, next) = st
        .store
        .player_tournament_games(id, player, after, limit)
        .await?;
    Ok(HttpResponse::Ok().json(TournamentGameList {
        games: rows
            .into_iter()
            .map(|(game_id, s, r, t, g, status)| TournamentGameView {
                game_id,
                stage: s.max(0) as u32,
                round: r.max(0) as u32,
                table: t.max(0) as u32,
                game: g.max(0) as u32,
                status,
            })
            .collect(),
        next_cursor: next.map(|(s, r, t, g)| {
            super::paging::pair_cursor("tg1", &(i64::from(s), format!("{r}.{t}.{g}")))
        }),
    }))
}

/// Advances the tournament of a game that may just have ended (the prompt path; the
/// sweep is the reliable one).
pub async fn game_ended(st: &AppState, game_id: &str) {
    crate::tournaments::game_ended(
        &st.store,
        &st.notifier,
        &st.replays,
        game_id,
        st.clock.now_ms(),
    )
    .await;
}
