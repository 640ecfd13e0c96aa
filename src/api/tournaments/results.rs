//! What an event has played: standings with tie-breaks, rounds and their pairings, a
//! knockout's bracket, the decision log, a player's games.

use super::*;

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
    let limit = crate::api::paging::limit(q.limit)? as usize;
    let after = q
        .cursor
        .as_deref()
        .map(|c| crate::api::paging::parse_number_cursor(c, "ts1"))
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
                .map(|s| crate::api::paging::number_cursor("ts1", i64::from(s.rank)))
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
    let limit = crate::api::paging::limit(q.limit)? as usize;
    let after = q
        .cursor
        .as_deref()
        .map(|c| crate::api::paging::parse_pair_cursor(c, "tr1"))
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
        .map(|(s, r)| crate::api::paging::pair_cursor("tr1", &(i64::from(*s), r.to_string())));
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
    let limit = crate::api::paging::limit(q.limit)?;
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
    let limit = crate::api::paging::limit(q.limit)?;
    let player = match q.player.as_deref() {
        None | Some("me") => me.id.clone(),
        Some(p) if p.len() <= MAX_ID_LEN => p.to_string(),
        Some(_) => return Err(ApiError::validation("player", "`me` or a user id")),
    };
    let after = match q.cursor.as_deref() {
        None => None,
        Some(c) => {
            let (s, rest) = crate::api::paging::parse_pair_cursor(c, "tg1")?;
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
            crate::api::paging::pair_cursor("tg1", &(i64::from(s), format!("{r}.{t}.{g}")))
        }),
    }))
}

crate::api::problem::problems! {
    "get_tournament_standings" {
        400 => ("Invalid query or no such stage (" [ValidationFailed] ")"),
    }
    "list_tournament_rounds" {
        400 => ("Invalid query (" [ValidationFailed] ")"),
    }
    "get_tournament_bracket" {
        404 => ("No such tournament (" [TournamentNotFound] "), or the stage is not a knockout being or been played (" [BracketNotFound] ")"),
    }
    "list_tournament_events" {
        400 => ("Invalid query (" [ValidationFailed] ")"),
    }
    "list_tournament_games" {
        400 => ("Invalid query (" [ValidationFailed] ")"),
    }
}
