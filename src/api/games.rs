//! Games: create, list and read (the state with its ETag, the placements of the drawn
//! tile, the pending decision's actions).

use actix_web::http::header;
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use tilepost_engine::{Expansion, Game, GameConfig, HouseRules, RuleError, SetupError};

use super::dto::*;
use super::error::{ApiError, ProblemCode};
use super::extract::{ApiJson, CurrentUser, GameId, MaybeUser};
use super::load::{self, load_state, require_started, signed_in, view_response};
use super::views;
use super::AppState;
use crate::correspondence::{self as corr, ClockRule, HOUR_MS};
use crate::store::{GameFilter, GameRow, UserRow};

/// A refused set-up as the request's field it is about; `seats` names the field of the
/// number of players (`seats` in a game).
pub(crate) fn setup_error(e: SetupError, seats: &str) -> ApiError {
    match &e {
        SetupError::UnsupportedExpansion(_) | SetupError::UnknownExpansion(_) => {
            ApiError::validation("expansions", e.to_string())
        }
        SetupError::PlayerCount { .. } => ApiError::validation(seats, e.to_string()),
        SetupError::UnknownTile(_) | SetupError::TileNotInGame(_) | SetupError::EmptyTileOrder => {
            ApiError::validation("options.tile_order", e.to_string())
        }
        SetupError::BadSeed(_) => ApiError::internal(e.to_string()),
        SetupError::Rules(_) => ApiError::validation("options.rules", e.to_string()),
    }
}

/// Checks the seats and expansions of a new game or seek; returns the expansions.
pub(crate) fn check_seats_and_expansions(
    seats: i64,
    ids: &[String],
) -> Result<Vec<Expansion>, ApiError> {
    if !(2..=6).contains(&seats) {
        return Err(ApiError::validation("seats", "a game has 2 to 6 seats"));
    }
    check_expansions(ids)
}

/// Checks the expansion ids of new games (at most one of each, each known); returns
/// the expansions.
pub(crate) fn check_expansions(ids: &[String]) -> Result<Vec<Expansion>, ApiError> {
    if ids.len() > Expansion::ALL.len() {
        return Err(ApiError::validation(
            "expansions",
            format!("at most {} expansions", Expansion::ALL.len()),
        ));
    }
    let mut expansions = Vec::new();
    for (i, id) in ids.iter().enumerate() {
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
    Ok(expansions)
}

/// Checks a clock of `days` per move (`field` names it in the refusal).
pub(crate) fn check_days_per_move(field: &str, days: Option<i64>) -> Result<(), ApiError> {
    if days.is_some_and(|d| !(1..=14).contains(&d)) {
        return Err(ApiError::validation(
            field,
            "1 to 14 days, or leave it out for no clock",
        ));
    }
    Ok(())
}

/// The house rules of a preset and variant values; `prefix` is where the request holds
/// them (`"options."` in a game, `""` in a seek).
pub(crate) fn house_rules(
    prefix: &str,
    preset: Option<&str>,
    values: &std::collections::BTreeMap<String, String>,
) -> Result<HouseRules, ApiError> {
    if values.len() > 32 {
        return Err(ApiError::validation(
            format!("{prefix}rules"),
            "at most 32 variants",
        ));
    }
    HouseRules::from_preset_and_values(preset, values).map_err(|e| {
        let field = if matches!(e, RuleError::UnknownPreset(_)) {
            "preset"
        } else {
            "rules"
        };
        ApiError::validation(format!("{prefix}{field}"), e.to_string())
    })
}

/// Refuses a rated game that the rules keep casual: a sandbox game (its pile is known)
/// and a game with the server's computer opponents (it would rate people against a
/// program whose strength its creator chose).
pub(crate) fn check_rated(
    rated: bool,
    sandbox: bool,
    computer_opponents: bool,
) -> Result<(), ApiError> {
    if rated && sandbox {
        return Err(ApiError::validation(
            "rated",
            "a sandbox game (options.tile_order) cannot be rated",
        ));
    }
    if rated && computer_opponents {
        return Err(ApiError::validation(
            "rated",
            "a game with the server's computer opponents cannot be rated",
        ));
    }
    Ok(())
}

/// A new game's assistance: the one asked for, else `scores` in a rated game and `full`
/// in a casual one.
pub(crate) fn assistance_of(asked: Option<Assistance>, rated: bool) -> Assistance {
    asked.unwrap_or(if rated {
        Assistance::Scores
    } else {
        Assistance::Full
    })
}

/// The `201 Created` answer to a request that made a game: the caller's view of it, its
/// `Location`, and the caller's quota headers.
async fn created_game(
    st: &AppState,
    id: &str,
    me: &CurrentUser,
    quota: super::limits::Quota,
) -> Result<HttpResponse, ApiError> {
    let (data, game) = load_state(st, &GameId(id.to_string()), Some(&me.id)).await?;
    let mut resp = view_response(
        st,
        actix_web::http::StatusCode::CREATED,
        &data,
        game.as_deref(),
        Some(&me.id),
    )
    .await?;
    if let Ok(v) = header::HeaderValue::from_str(&format!("/v1/games/{id}")) {
        resp.headers_mut().insert(header::LOCATION, v);
    }
    quota.apply(&mut resp);
    Ok(resp)
}

/// The clock a new game's options ask for: days per move or a time bank (not both).
pub(crate) fn clock_of(
    days_per_move: Option<i64>,
    bank: Option<TimeBank>,
) -> Result<Option<ClockRule>, ApiError> {
    check_days_per_move("options.days_per_move", days_per_move)?;
    match (days_per_move, bank) {
        (Some(_), Some(_)) => Err(ApiError::validation(
            "options.time_bank",
            "a game has days per move or a time bank, not both",
        )),
        (Some(d), None) => Ok(Some(ClockRule::PerMove { days: d as i32 })),
        (None, None) => Ok(None),
        (None, Some(b)) => {
            if !(1..=2160).contains(&b.initial_hours) {
                return Err(ApiError::validation(
                    "options.time_bank.initial_hours",
                    "1 to 2160 hours",
                ));
            }
            if !(0..=720).contains(&b.hours_per_move) {
                return Err(ApiError::validation(
                    "options.time_bank.hours_per_move",
                    "0 to 720 hours",
                ));
            }
            let max = b.max_hours.unwrap_or(b.initial_hours);
            if !(b.initial_hours..=2160).contains(&max) {
                return Err(ApiError::validation(
                    "options.time_bank.max_hours",
                    "from initial_hours to 2160 hours",
                ));
            }
            Ok(Some(ClockRule::Bank {
                initial: b.initial_hours * HOUR_MS,
                increment: b.hours_per_move * HOUR_MS,
                max: max * HOUR_MS,
            }))
        }
    }
}

/// Checks the clock and `invite` of a new game; returns the clock and the invited
/// users.
pub async fn check_new_game(
    st: &AppState,
    me: &CurrentUser,
    seats: i64,
    clock: Option<ClockRule>,
    invite: &[String],
) -> Result<(Option<ClockRule>, Vec<UserRow>), ApiError> {
    if invite.len() as i64 > seats - 1 {
        return Err(ApiError::validation(
            "invite",
            "more invitations than free seats",
        ));
    }
    let mut users: Vec<UserRow> = Vec::new();
    for (i, name) in invite.iter().enumerate() {
        let field = format!("invite[{i}]");
        let u = load::user_named(st, name)
            .await?
            .ok_or_else(|| ApiError::validation(&field, format!("no user {name:?}")))?;
        if u.id == me.id {
            return Err(ApiError::validation(&field, "you have the first seat"));
        }
        if users.iter().any(|x| x.id == u.id) {
            return Err(ApiError::validation(&field, "invited twice"));
        }
        users.push(u);
    }
    Ok((clock, users))
}

/// Records a new game's clock and invitations (with their `game.invited` rows).
pub async fn set_up_new_game(
    st: &AppState,
    game_id: &str,
    creator: &str,
    clock: Option<ClockRule>,
    invited: Vec<UserRow>,
) -> Result<(), ApiError> {
    if let Some(d) = clock {
        st.store.set_clock(game_id.to_string(), d).await?;
    }
    if !invited.is_empty() {
        let now = st.clock.now_ms();
        let inviter = st
            .store
            .user_by_id(creator.to_string())
            .await?
            .map(|u| u.username)
            .unwrap_or_default();
        let rows = invited
            .iter()
            .map(|u| {
                crate::notify::invited(&st.notifier, &views::seat_info(u), game_id, &inviter, now)
            })
            .collect();
        st.store
            .invite(
                game_id.to_string(),
                invited.into_iter().map(|u| (u.id, None)).collect(),
                now,
                rows,
            )
            .await?;
    }
    Ok(())
}

/// Create a game; the creator takes the first seat.
///
/// The game has 2 to 6 seats, a set of expansions, house rules (a preset and variant
/// values, see `GET /v1/rules`), an optional clock (`options.days_per_move`), and is
/// rated or casual, public or private. Invited users get a reserved seat each and
/// `game.invited`; the server's computer opponents (`bots`) sit down at once; the other
/// seats are open to anyone. A game with `options.tile_order` is a sandbox game: its
/// draw pile is the given tiles, in order. The game starts when the last seat is taken
/// (or earlier, with `POST /v1/games/{id}/start`). Creations are limited per user and
/// hour (`TILEPOST_GAMES_PER_HOUR`).
#[utoipa::path(
    operation_id = "create_game",
    tag = "games",
    request_body = CreateGameRequest,
    security(("bearer" = ["game:play"])),
    responses(
        (status = 201, description = "The game was created and waits for players", body = GameView,
            headers(("Location" = String, description = "The game's URL"), ("ETag" = String, description = "The view's version"))),
    )
)]
#[post("/games")]
pub async fn create_game(
    st: web::Data<AppState>,
    me: CurrentUser,
    body: ApiJson<CreateGameRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    let expansions = check_seats_and_expansions(r.seats, &r.expansions)?;
    if r.bots.len() > 5 {
        return Err(ApiError::validation("bots", "at most 5 bots"));
    }
    for (i, b) in r.bots.iter().enumerate() {
        if !crate::bots::LEVELS.contains(&b.as_str()) {
            return Err(ApiError::validation(
                format!("bots[{i}]"),
                format!("one of {}", crate::bots::LEVELS.join(", ")),
            ));
        }
    }
    if r.bots.len() + r.invite.len() >= r.seats.max(0) as usize {
        return Err(ApiError::validation(
            "bots",
            "the creator, the invited players and the bots must fit in the seats",
        ));
    }
    let sandbox = r.options.as_ref().is_some_and(|o| o.tile_order.is_some());
    check_rated(r.rated, sandbox, !r.bots.is_empty())?;
    let clock = clock_of(
        r.options.as_ref().and_then(|o| o.days_per_move),
        r.options.as_ref().and_then(|o| o.time_bank),
    )?;
    let (clock, invited) = check_new_game(&st, &me, r.seats, clock, &r.invite).await?;
    let preset = r.options.as_ref().and_then(|o| o.preset.clone());
    let values = r
        .options
        .as_ref()
        .and_then(|o| o.rules.clone())
        .unwrap_or_default();
    let rules = house_rules("options.", preset.as_deref(), &values)?;
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
        rules,
    };
    Game::new(&config).map_err(|e| setup_error(e, "seats"))?;
    let reservation = super::limits::reserve(
        &st,
        super::limits::per_user(&st, super::limits::UserQuota::Games, &me.id),
    )
    .await?;
    let now = st.clock.now_ms();
    let row = GameRow {
        id: uuid::Uuid::new_v4().to_string(),
        creator_id: me.id.clone(),
        status: GameStatus::Open,
        seats: r.seats as i32,
        expansions: expansions.iter().map(|e| e.id().to_string()).collect(),
        tile_order,
        version: 0,
        current_user_id: None,
        created_at: now,
        updated_at: now,
        turn_started_at: None,
        rules: rules.to_values(),
        rated: r.rated,
        visibility: r.visibility.unwrap_or(Visibility::Public),
        bot_accounts: r.bot_accounts.unwrap_or(!r.rated),
        assistance: assistance_of(r.assistance, r.rated),
    };
    // a token whose user no longer exists gets `401` (`StoreError::UnknownUser`)
    if let Err(e) = st.store.create_game(row.clone()).await {
        reservation.release(&st).await;
        return Err(e.into());
    }
    let quota = reservation.keep();
    set_up_new_game(&st, &row.id, &me.id, clock, invited).await?;
    // the bots take their seats (the last one starts the game)
    for (i, level) in r.bots.iter().enumerate() {
        let k = r.bots[..i].iter().filter(|b| *b == level).count() as u8 + 1;
        let bot = st.store.bot_user(level.clone(), k, now).await?;
        st.store
            .take_seat(
                row.id.clone(),
                bot,
                now,
                false,
                crate::moves::start_plan(
                    st.notifier.clone(),
                    now,
                    clock.map(ClockRule::first_allowance),
                ),
            )
            .await?;
    }
    created_game(&st, &row.id, &me, quota).await
}

/// The deadlines of the pending decisions of a page's running games that have a clock.
fn deadlines_of(
    now: i64,
    list: &crate::store::GameListPage,
) -> std::collections::HashMap<String, i64> {
    let mut out = std::collections::HashMap::new();
    for g in &list.page.rows {
        if let Some(k) = list.clocks.get(&g.game.id) {
            if let Some(d) = corr::deadline(&g.game, k, &list.vacations, now) {
                out.insert(g.game.id.clone(), d.at);
            }
        }
    }
    out
}

/// List games, the most urgent first.
///
/// The caller's turns come first (longest waiting first), then running games, open
/// games and finished games (most recent first), filtered by `player`, `status` and
/// `my_turn`, paged with `cursor`. Anyone may list the public games; a private game is
/// listed for its players alone. Each entry says whose turn it is and, in a game with a
/// clock, the pending decision's deadline.
#[utoipa::path(
    operation_id = "list_games",
    tag = "games",
    params(ListGamesQuery),
    security((), ("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "A page of games", body = GameList),
    )
)]
#[get("/games")]
pub async fn list_games(
    st: web::Data<AppState>,
    me: MaybeUser,
    q: web::Query<ListGamesQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = q.into_inner();
    let limit = super::paging::limit(q.limit)?;
    let after = q
        .cursor
        .as_deref()
        .map(super::paging::parse_game_cursor)
        .transpose()?;
    let me_id = me.0.map(|u| u.id);
    let mut filter = GameFilter {
        status: q.status,
        me: me_id.clone(),
        my_turn: q.my_turn,
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
            if name.len() > super::extract::MAX_ID_LEN {
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
    if q.my_turn == Some(true) && me_id.is_none() {
        return Err(ApiError::unauthorized("my_turn needs a bearer token"));
    }
    let list = st
        .store
        .list_games_with_clocks(filter, after, limit)
        .await?;
    let deadlines = deadlines_of(st.clock.now_ms(), &list);
    let (games, page_next) = (list.page.rows, list.page.next);
    let page: Vec<GameSummary> = games
        .into_iter()
        .map(|g| {
            let r = &g.game;
            GameSummary {
                id: r.id.clone(),
                status: r.status,
                version: r.version,
                sandbox: r.tile_order.is_some(),
                rated: r.rated,
                visibility: r.visibility,
                seats: r.seats as u8,
                players: g
                    .seats
                    .iter()
                    .map(|s| SeatView {
                        seat: s.seat as u8,
                        username: s.username.clone(),
                        colour: views::colour(s.seat as u8),
                        bot: s.bot.clone(),
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
    Ok(HttpResponse::Ok().json(GameList {
        games: page,
        next_cursor: page_next.as_ref().map(super::paging::game_cursor),
    }))
}

/// A game's state.
///
/// The board, the players with their scores and supplies, the pending decision, the
/// remaining tiles by type (never their order), the clock, the invitations and the
/// players on vacation; with the house rule `tiles_in_hand`, the caller's own hand. A
/// public game is anyone's to read; a private game answers `404` to everyone but its
/// players and the users invited to it. The `ETag` is the game's version (with the
/// house rule `tiles_in_hand`, the caller's seat too): send it back in `If-None-Match`
/// to get `304` while nothing changed.
#[utoipa::path(
    operation_id = "get_game",
    tag = "games",
    params(
        ("id" = String, Path, description = "Game id"),
        ("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier answer"),
    ),
    security((), ("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "The game", body = GameView,
            headers(("ETag" = String, description = "The view's version"))),
        (status = 304, description = "Not modified since the given ETag"),
    )
)]
#[get("/games/{id}")]
pub async fn get_game(
    st: web::Data<AppState>,
    req: HttpRequest,
    viewer: Result<MaybeUser, ApiError>,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    let viewer = signed_in(viewer);
    let me = viewer.as_ref().map(|u| u.id.as_str());
    let data = load::load_data(&st, &id, me, false).await?;
    let tag = load::viewer_etag(&data, me);
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
    let (data, game) = load::state_of(&st, data).await?;
    view_response(
        &st,
        actix_web::http::StatusCode::OK,
        &data,
        game.as_deref(),
        me,
    )
    .await
}

/// Every legal placement of the drawn tile, with the spots where a figure may go.
///
/// Each placement is a position and rotation where the tile fits, with the spots of its
/// features where a figure may go then and which figures. The list is computed by the
/// rules engine, so a client never has to check the rules itself. Who may read the game
/// may read its placements.
#[utoipa::path(
    operation_id = "list_placements",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security((), ("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "The placements (empty when no tile is to be placed; with the house rule `tiles_in_hand` empty for everyone but the signed-in player choosing, since they list the hand)", body = PlacementsView),
    )
)]
#[get("/games/{id}/placements")]
pub async fn list_placements(
    st: web::Data<AppState>,
    viewer: Result<MaybeUser, ApiError>,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    let viewer = signed_in(viewer);
    let me = viewer.as_ref().map(|u| u.id.as_str());
    let (data, game) = load_state(&st, &id, me).await?;
    let game = require_started(&data, game)?;
    let seat = views::viewer_seat(&data.seats, me);
    Ok(HttpResponse::Ok().json(PlacementsView {
        game_id: data.game.id.clone(),
        version: data.game.version,
        pending: views::pending_view(&game, &data.seats),
        placements: views::placements_view(&game, seat),
    }))
}

/// The pending decision and all its legal options, as complete actions.
///
/// Each option is an action exactly as `POST /v1/games/{id}/moves` takes it, for every
/// kind of decision (placing a tile, deploying a figure, the choices of the
/// expansions); the version says which state they are for. Who may read the game may
/// read its actions. `undo` says whether the signed-in caller may take back their last
/// decision now (`POST /v1/games/{id}/undo`).
#[utoipa::path(
    operation_id = "list_actions",
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security((), ("bearer" = ["game:read"])),
    responses(
        (status = 200, description = "The pending decision and its options (none once the game is over; with the house rule `tiles_in_hand` a tile decision's options are shown to the signed-in player choosing alone, since they list the hand)", body = ActionsView),
    )
)]
#[get("/games/{id}/actions")]
pub async fn list_actions(
    st: web::Data<AppState>,
    viewer: Result<MaybeUser, ApiError>,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    let viewer = signed_in(viewer);
    let me = viewer.as_ref().map(|u| u.id.as_str());
    let (data, game) = load_state(&st, &id, me).await?;
    let game = require_started(&data, game)?;
    let seat = views::viewer_seat(&data.seats, me);
    let undo = match seat {
        Some(s) if game.undoable(s) > 0 => {
            let in_tournament = st
                .store
                .tournament_of_game(data.game.id.clone())
                .await?
                .is_some();
            crate::moves::undo_allowed(&data.game, in_tournament)
        }
        _ => false,
    };
    Ok(HttpResponse::Ok().json(ActionsView {
        game_id: data.game.id.clone(),
        version: data.game.version,
        pending: views::pending_view(&game, &data.seats),
        actions: if views::options_visible(&game, seat) {
            game.legal_actions()
        } else {
            Vec::new()
        },
        undo,
    }))
}

/// Ask for a rematch of an ended game (a player of it only).
///
/// The rematch is the same game (players, expansions, house rules, clock, rated or
/// casual, visibility; a sandbox game its draw pile) with the seat order rotated by
/// one, so that the second player goes first. The caller takes their new seat; the
/// other players are invited to theirs (`game.invited`) and the server's computer
/// opponents take theirs at once. The game starts when the last invited player accepts.
/// It counts against the caller's games per hour.
#[utoipa::path(
    operation_id = "create_rematch",
    tag = "games",
    params(("id" = String, Path, description = "Id of the ended game")),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 201, description = "The rematch was created and waits for the invited players", body = GameView,
            headers(("Location" = String, description = "The new game's URL"), ("ETag" = String, description = "The view's version"))),
    )
)]
#[post("/games/{id}/rematch")]
pub async fn create_rematch(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: GameId,
) -> Result<HttpResponse, ApiError> {
    let data = load::load_data(&st, &id, Some(&me.id), false).await?;
    let Some(mine) = data.seats.iter().find(|s| s.user_id == me.id) else {
        return Err(ApiError::new(
            ProblemCode::NotAPlayer,
            "you have no seat at this game",
        ));
    };
    if data.game.status != GameStatus::Finished {
        return Err(ApiError::new(
            ProblemCode::GameNotOver,
            "a rematch can be asked for once the game is over",
        ));
    }
    let n = data.seats.len() as i32;
    let rotated = |seat: i32| (seat - 1).rem_euclid(n.max(1));
    let clock = st
        .store
        .clocks_of(vec![data.game.id.clone()])
        .await?
        .remove(&data.game.id)
        .map(|c| c.rule());
    let reservation = super::limits::reserve(
        &st,
        super::limits::per_user(&st, super::limits::UserQuota::Games, &me.id),
    )
    .await?;
    let now = st.clock.now_ms();
    let old = &data.game;
    let row = GameRow {
        id: uuid::Uuid::new_v4().to_string(),
        creator_id: me.id.clone(),
        status: GameStatus::Open,
        seats: n,
        expansions: old.expansions.clone(),
        tile_order: old.tile_order.clone(),
        version: 0,
        current_user_id: None,
        created_at: now,
        updated_at: now,
        turn_started_at: None,
        rules: old.rules.clone(),
        rated: old.rated,
        visibility: old.visibility,
        bot_accounts: old.bot_accounts,
        assistance: old.assistance,
    };
    if let Err(e) = st
        .store
        .create_game_at(row.clone(), rotated(mine.seat))
        .await
    {
        reservation.release(&st).await;
        return Err(e.into());
    }
    let quota = reservation.keep();
    if let Some(d) = clock {
        st.store.set_clock(row.id.clone(), d).await?;
    }
    // the others' seats are reserved for them: people are invited, the server's bots sit
    // down at once (a deleted account's seat opens to anyone)
    let mut invited = Vec::new();
    let mut rows = Vec::new();
    let mut bots = Vec::new();
    for s in data.seats.iter().filter(|s| s.user_id != me.id) {
        if st.store.user_by_id(s.user_id.clone()).await?.is_none() {
            continue;
        }
        invited.push((s.user_id.clone(), Some(rotated(s.seat))));
        if s.bot.is_some() {
            bots.push(s.user_id.clone());
        } else {
            rows.push(crate::notify::invited(
                &st.notifier,
                s,
                &row.id,
                &mine.username,
                now,
            ));
        }
    }
    if !invited.is_empty() {
        st.store.invite(row.id.clone(), invited, now, rows).await?;
    }
    for bot in bots {
        st.store
            .take_seat(
                row.id.clone(),
                bot,
                now,
                true,
                crate::moves::start_plan(
                    st.notifier.clone(),
                    now,
                    clock.map(ClockRule::first_allowance),
                ),
            )
            .await?;
    }
    st.notifier.wake();
    created_game(&st, &row.id, &me, quota).await
}

crate::api::problem::problems! {
    "create_game" {
        400 => ("Invalid fields (" [ValidationFailed] ")"),
        429 => ("Too many games created this hour (" [RateLimited] "); `Retry-After` and `RateLimit-*` say when"),
    }
    "list_games" {
        400 => ("Invalid query (" [ValidationFailed] ")"),
        401 => ("`player=me` or `my_turn` without a valid token (" [Unauthorized] ")"),
    }
    "list_placements" {
        409 => ("The game has not started (" [GameNotStarted] ")"),
    }
    "list_actions" {
        409 => ("The game has not started (" [GameNotStarted] ")"),
    }
    "create_rematch" {
        403 => ("The caller has no seat at the game (" [NotAPlayer] ")"),
        409 => ("The game is not over (" [GameNotOver] ")"),
        429 => ("Too many games created this hour (" [RateLimited] "); `Retry-After` and `RateLimit-*` say when"),
    }
}
