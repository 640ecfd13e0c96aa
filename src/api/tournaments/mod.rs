//! Tournaments over HTTP: creation by an organiser, registration and withdrawal, the
//! start, and the event's pages (rounds with their pairings and games, standings with
//! tie-break values, a knockout stage's bracket, the decision log, a player's games).
//! Every write goes through the tournament service ([`crate::tournaments`]); the pages
//! are derived from one read of the log, replayed with the tournament crate.

use std::collections::HashMap;

use actix_web::{get, post, web, HttpResponse};
use tilepost_engine::{Game, GameConfig};
use tilepost_tournament::{
    Adjustment, CapDecision, Config, Decision as TDecision, Entry, Format, GameResult, MatchStatus,
    Points, RoundCap, StageConfig, State, TieBreak, WithdrawalRule,
};

use super::dto::*;
use super::error::{ApiError, ProblemCode};
use super::extract::{ApiJson, CurrentUser, MAX_ID_LEN};
use super::AppState;
use crate::clock::rfc3339;
use crate::store::{TournamentRow, TournamentStatus};
use crate::tournaments::{settings_of, Settings, TournamentError, Tournaments};

pub(super) mod entrants;
pub(super) mod results;
pub use entrants::*;
pub use results::*;

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
            TournamentError::NotRunning => ApiError::new(
                ProblemCode::TournamentNotRunning,
                "only a running tournament can be paused",
            ),
            TournamentError::Full => ApiError::new(
                ProblemCode::TournamentFull,
                "the tournament has the most players it allows",
            ),
            TournamentError::NotInvited => ApiError::new(
                ProblemCode::InvitationOnly,
                "only the players the organiser invited may register",
            ),
            TournamentError::RatingOutOfBounds => ApiError::new(
                ProblemCode::RatingOutOfBounds,
                "your rating in the pool of the event's games is outside the bounds the organiser set",
            ),
            TournamentError::ComputerOpponentsNotAllowed => ApiError::new(
                ProblemCode::ComputerOpponentsNotAllowed,
                "the organiser did not allow computer opponents",
            ),
            TournamentError::BotAccountsNotAllowed => ApiError::new(
                ProblemCode::BotAccountsNotAllowed,
                "a rated event does not take accounts marked as bots",
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
                    E::AlreadyInvited(_) => ApiError::new(ProblemCode::AlreadyInvited, detail),
                    E::RegistrationClosed(_) => {
                        ApiError::new(ProblemCode::RegistrationClosed, detail)
                    }
                    E::GameInProgress(_) => ApiError::new(ProblemCode::GameToPlay, detail),
                    E::NotEnoughPlayers(_) => ApiError::new(ProblemCode::NotEnoughPlayers, detail),
                    E::Finished => ApiError::new(ProblemCode::TournamentEnded, detail),
                    E::Paused => ApiError::new(ProblemCode::TournamentPaused, detail),
                    E::NotPaused => ApiError::new(ProblemCode::TournamentNotPaused, detail),
                    E::NoReason => ApiError::validation("reason", detail),
                    E::InvalidConfig(m) => ApiError::validation("stages", m),
                    E::NoSuchGame { .. } => ApiError::validation("game", detail),
                    E::InvalidResult(_) => ApiError::validation("scores", detail),
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

/// Refuses the first field given outside its documented range: each check is the
/// field's name, its value if given, its bounds and the range in words; `field` names
/// it in the problem.
fn given_in_range(
    checks: &[(&str, Option<u32>, u32, u32, &str)],
    field: impl Fn(&str) -> String,
) -> Result<(), ApiError> {
    for (name, value, lo, hi, why) in checks {
        if value.is_some_and(|v| !(*lo..=*hi).contains(&v)) {
            return Err(ApiError::validation(field(name), *why));
        }
    }
    Ok(())
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
        // every field given is in its documented range, whether or not the stage's
        // format uses it
        given_in_range(
            &[
                ("rounds", s.rounds, 1, 50, "1 to 50"),
                ("groups", s.groups, 1, 64, "1 to 64"),
                ("best_of", s.best_of.map(u32::from), 1, 5, "1, 3 or 5"),
                ("table_size", s.table_size.map(u32::from), 2, 6, "2 to 6"),
                ("top", s.top, 2, 1024, "2 to 1024"),
            ],
            field,
        )?;
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
    for (f, v) in [("min_rating", r.min_rating), ("max_rating", r.max_rating)] {
        if v.is_some_and(|v| !(0..=4000).contains(&v)) {
            return Err(ApiError::validation(f, "0 to 4000"));
        }
    }
    let (min_rating, max_rating) = (r.min_rating, r.max_rating);
    if let (Some(lo), Some(hi)) = (min_rating, max_rating) {
        if lo > hi {
            return Err(ApiError::validation("max_rating", "at least min_rating"));
        }
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
    let games = game_terms(r, &config.stages)?;
    Ok(Settings {
        config,
        days_per_move,
        computer_opponents: r.computer_opponents,
        expansions: games.expansions,
        rules: games.rules,
        rated: r.rated,
        assistance: games.assistance,
        round_starts,
        max_players,
        start_when_full: r.start_when_full,
        starts_at: None,
        min_rating,
        max_rating,
        invitation_only: r.invitation_only,
    })
}

/// What every game of an event is: its expansions, house rules and assistance.
struct GameTerms {
    expansions: Vec<String>,
    rules: std::collections::BTreeMap<String, String>,
    assistance: Assistance,
}

/// The request's terms of the games, checked as a new game's are: the expansions and
/// house rules (each table size of the stages a game they allow), and a rated event
/// without the server's computer opponents.
fn game_terms(r: &CreateTournamentRequest, stages: &[StageConfig]) -> Result<GameTerms, ApiError> {
    use crate::api::games;
    let expansions = games::check_expansions(&r.expansions)?;
    let values = r.rules.clone().unwrap_or_default();
    let rules = games::house_rules("", r.preset.as_deref(), &values)?;
    games::check_rated(r.rated, false, r.computer_opponents)?;
    // a 2-player stage seats 2; a multi-player Swiss seats 3 up to its table size
    let mut sizes = std::collections::BTreeMap::new();
    for (i, s) in stages.iter().enumerate() {
        let least = if s.table_size > 2 { 3 } else { 2 };
        for n in least..=s.table_size {
            sizes.entry(n).or_insert(i);
        }
    }
    for (players, stage) in sizes {
        let config = GameConfig {
            players,
            expansions: expansions.clone(),
            tile_order: None,
            seed: 0,
            rules,
        };
        Game::new(&config)
            .map_err(|e| games::setup_error(e, &format!("stages[{stage}].table_size")))?;
    }
    Ok(GameTerms {
        expansions: expansions.iter().map(|e| e.id().to_string()).collect(),
        rules: rules.to_values(),
        assistance: games::assistance_of(r.assistance, r.rated),
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

/// The organisers' usernames of `rows`, in one read.
async fn organisers(
    st: &AppState,
    rows: &[&TournamentRow],
) -> Result<HashMap<String, String>, ApiError> {
    let ids = rows.iter().map(|r| r.organiser_id.clone()).collect();
    Ok(st
        .store
        .usernames_of(ids)
        .await?
        .into_iter()
        .map(|(id, (name, _))| (id, name))
        .collect())
}

async fn tournament_view(
    st: &AppState,
    row: &TournamentRow,
    me: Option<&str>,
    state: Option<&State>,
) -> Result<TournamentView, ApiError> {
    let names = organisers(st, &[row]).await?;
    view_with(row, &names, me, state)
}

/// A tournament's view, its organiser named from `organisers`.
fn view_with(
    row: &TournamentRow,
    organisers: &HashMap<String, String>,
    me: Option<&str>,
    state: Option<&State>,
) -> Result<TournamentView, ApiError> {
    let settings = settings_of(row).map_err(ApiError::internal)?;
    let c = &settings.config;
    let organiser = organisers
        .get(&row.organiser_id)
        .cloned()
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
        start_when_full: settings.start_when_full,
        starts_at: settings.starts_at.map(rfc3339),
        min_rating: settings.min_rating,
        max_rating: settings.max_rating,
        invitation_only: settings.invitation_only,
        invited: match (me, state) {
            (Some(me), Some(s)) => s.is_invited(me),
            _ => false,
        },
        current_stage: row.current_stage,
        current_round: row.current_round,
        round_started_at: row.round_started_at.map(rfc3339),
        round_deadline: row.round_deadline.map(rfc3339),
        next_round_at: row.next_round_at.map(rfc3339),
        paused_at: row.paused_at.map(rfc3339),
        pause_reason: state.and_then(State::pause_reason).map(str::to_string),
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
        expansions: settings.expansions.clone(),
        rules: settings.rules.clone(),
        rated: settings.rated,
        assistance: settings.assistance,
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
/// rounds, each game's clock (days per move) and whether computer opponents may enter;
/// the terms of every game (expansions, house rules, rated or casual, assistance),
/// checked as a new game's are: a rated event takes no computer opponents. Creations
/// are limited per user and day (`TILEPOST_TOURNAMENTS_PER_DAY`).
#[utoipa::path(
    operation_id = "create_tournament",
    tag = "tournaments",
    request_body = CreateTournamentRequest,
    security(("bearer" = ["game:play"])),
    responses(
        (status = 201, description = "The tournament takes registrations", body = TournamentView,
            headers(("Location" = String, description = "The tournament's URL"))),
    )
)]
#[post("/tournaments")]
pub async fn create_tournament(
    st: web::Data<AppState>,
    me: CurrentUser,
    body: ApiJson<CreateTournamentRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    let mut settings = settings_from(&r)?;
    let now = st.clock.now_ms();
    if let Some(s) = &r.starts_at {
        let at = time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339)
            .map(|t| (t.unix_timestamp_nanos() / 1_000_000) as i64)
            .map_err(|_| ApiError::validation("starts_at", "an RFC 3339 time"))?;
        if at <= now || at > now + 366 * 86_400_000 {
            return Err(ApiError::validation(
                "starts_at",
                "in the future, within a year",
            ));
        }
        settings.starts_at = Some(at);
    }
    let reservation = super::limits::reserve(
        &st,
        super::limits::per_user(&st, super::limits::UserQuota::Tournaments, &me.id),
    )
    .await?;
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
    let names = organisers(&st, &rows.iter().collect::<Vec<_>>()).await?;
    let out = rows
        .iter()
        .map(|row| view_with(row, &names, None, None))
        .collect::<Result<Vec<_>, _>>()?;
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

crate::api::problem::problems! {
    "create_tournament" {
        400 => ("Invalid fields (" [ValidationFailed] "), among them expansions and house rules as a new game's, a table size the expansions do not allow, or a rated event with computer opponents"),
        429 => ("Too many tournaments created today (" [RateLimited] "); `Retry-After` and `RateLimit-*` say when"),
    }
    "list_tournaments" {
        400 => ("Invalid query (" [ValidationFailed] ")"),
    }
}
