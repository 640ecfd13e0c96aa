//! Entering and running an event: registration, withdrawal, computer opponents, the
//! start, the organiser's pause and adjustments.

use super::*;

/// Register for a tournament.
///
/// Before the first round; a Swiss first stage also takes late entries (paired from the
/// next round, with no points). The caller's rating in the pool of the event's games
/// (`base` without expansions, `expansions` with any) seeds them and is held to the
/// event's bounds. A rated event takes no account marked as a bot.
/// Registrations and withdrawals are limited per user and hour
/// (`TILEPOST_TOURNAMENT_ENTRIES_PER_HOUR`).
#[utoipa::path(
    operation_id = "join_tournament",
    tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id")),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The caller is registered; the tournament", body = TournamentView),
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
    // the event's settings do not change: its pool is read before its lock
    let row = st
        .store
        .tournament(id.clone())
        .await?
        .ok_or_else(no_tournament)?;
    let settings = settings_of(&row).map_err(ApiError::internal)?;
    let pool = crate::standing::Pool::of(&settings.expansions);
    let rating = st
        .store
        .rating_of(me.id.clone(), pool)
        .await?
        .map(|r| r.rating.round() as i32);
    let bot_account = st
        .store
        .user_by_id(me.id.clone())
        .await?
        .is_some_and(|u| u.bot.as_deref() == Some(crate::store::BOT_ACCOUNT));
    let now = st.clock.now_ms();
    counted_entry(&st, &me, &id, async {
        Ok(service(&st)
            .register(&id, &me.id, rating, bot_account, &me.id, now)
            .await?)
    })
    .await
}

/// Runs an entry (a registration or a withdrawal, `entry`) under the caller's hourly
/// limit of entries: the reservation is given back when the entry is refused, and the
/// answer (the tournament) carries the limit's headers.
async fn counted_entry(
    st: &AppState,
    me: &CurrentUser,
    id: &str,
    entry: impl std::future::Future<Output = Result<(), ApiError>>,
) -> Result<HttpResponse, ApiError> {
    let reservation = crate::api::limits::reserve(
        st,
        crate::api::limits::per_user(st, crate::api::limits::UserQuota::TournamentEntries, &me.id),
    )
    .await?;
    if let Err(e) = entry.await {
        reservation.release(st).await;
        return Err(e);
    }
    let quota = reservation.keep();
    st.notifier.wake();
    let mut resp = view_of(st, id, &me.id).await?;
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
    let now = st.clock.now_ms();
    counted_entry(&st, &me, &id, async {
        Ok(service(&st).withdraw(&id, &me.id, now).await?)
    })
    .await
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
    let no_more = || {
        ApiError::new(
            ProblemCode::TournamentFull,
            "no more computer opponents of this level",
        )
    };
    let first = u8::try_from(taken + 1).map_err(|_| no_more())?;
    let now = st.clock.now_ms();
    counted_entry(&st, &me, &id, async {
        // another entry of this level made at the same moment takes the same number:
        // the next one is tried
        for k in first..=u8::MAX {
            let bot = st.store.bot_user(level.clone(), k, now).await?;
            match service(&st)
                .register(&id, &bot, None, false, &me.id, now)
                .await
            {
                Err(TournamentError::Refused(tilepost_tournament::Error::AlreadyRegistered(_))) => {
                    continue
                }
                other => return Ok(other?),
            }
        }
        Err(no_more())
    })
    .await
}

/// Invite a player (the organiser only).
///
/// Recorded in the log (`player_invited`). An event created with `invitation_only`
/// takes only the players invited; in any event an invitation marks the player as
/// expected (`invited` in their view). Invitations count against the organiser's
/// hourly limit of entries (`TILEPOST_TOURNAMENT_ENTRIES_PER_HOUR`).
#[utoipa::path(
    operation_id = "invite_to_tournament",
    tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id")),
    request_body = InviteToTournamentRequest,
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The player is invited; the tournament", body = TournamentView),
    )
)]
#[post("/tournaments/{id}/invitations")]
pub async fn invite_to_tournament(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
    body: ApiJson<InviteToTournamentRequest>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    check_id(&id)?;
    let (row, _) = load(&st, &id).await?;
    if row.organiser_id != me.id {
        return Err(TournamentError::NotOrganiser.into());
    }
    let name = body.0.username.trim().to_string();
    let user = match st.store.user_by_username(name).await? {
        Some(u) if u.deleted_at.is_none() && u.bot.is_none() => u,
        _ => return Err(ApiError::new(ProblemCode::UserNotFound, "no such user")),
    };
    let now = st.clock.now_ms();
    counted_entry(&st, &me, &id, async {
        Ok(service(&st)
            .invite(&id, &user.id, &me.id, &row.organiser_id, now)
            .await?)
    })
    .await
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

/// The reason of an organiser's decision: 1 to 500 characters, no control characters.
fn reason_of(reason: &str) -> Result<String, ApiError> {
    let reason = reason.trim().to_string();
    if reason.is_empty() || reason.chars().count() > 500 || reason.chars().any(char::is_control) {
        return Err(ApiError::validation(
            "reason",
            "1 to 500 characters, no control characters",
        ));
    }
    Ok(reason)
}

/// Pause a running tournament (the organiser only), with a reason.
///
/// While the event is paused, no round is paired (a round whose calendar date comes
/// waits), the round cap decides nothing, and the clocks of its running games stand
/// still: no one times out, and when it resumes each turn's deadline (or bank) counts
/// the pause out. Moves may still be made, and the results of games that end are
/// recorded. The pause and its reason are recorded in the log (`tournament_paused`).
/// Pauses and resumptions count against the organiser's hourly limit of entries
/// (`TILEPOST_TOURNAMENT_ENTRIES_PER_HOUR`).
#[utoipa::path(
    operation_id = "pause_tournament",
    tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id")),
    request_body = PauseTournamentRequest,
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The tournament is paused; the tournament", body = TournamentView),
    )
)]
#[post("/tournaments/{id}/pause")]
pub async fn pause_tournament(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
    body: ApiJson<PauseTournamentRequest>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    check_id(&id)?;
    let reason = reason_of(&body.0.reason)?;
    let now = st.clock.now_ms();
    counted_entry(&st, &me, &id, async {
        Ok(service(&st).pause(&id, &me.id, reason, now).await?)
    })
    .await
}

/// Resume a paused tournament (the organiser only).
///
/// The clocks of its games run again, each turn's deadline moved out by the time it
/// stood still; the round's cap moves out by the length of the pause; what waited
/// follows at once (the next round, or a dated round whose date came during the
/// pause). Recorded in the log (`tournament_resumed`).
#[utoipa::path(
    operation_id = "resume_tournament",
    tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id")),
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The tournament runs again; the tournament", body = TournamentView),
    )
)]
#[post("/tournaments/{id}/resume")]
pub async fn resume_tournament(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    check_id(&id)?;
    let now = st.clock.now_ms();
    counted_entry(&st, &me, &id, async {
        Ok(service(&st).resume(&id, &me.id, now).await?)
    })
    .await
}

/// Adjust the standings (the organiser only), with a reason.
///
/// `points` adds points to a player in the current stage (negative ones take them
/// away); `result` replaces a recorded game's result (a knockout's only until its next
/// round is paired); `remove` removes a player: every game they have left in the round
/// is forfeited (a whole undecided match, each game scored 0 with their seat
/// forfeited), they leave their running games, and they are not paired again. The adjustment and its reason are recorded in the log
/// (`organiser_adjusted`), and the standings follow. Refused once the stage is over.
#[utoipa::path(
    operation_id = "adjust_tournament",
    tag = "tournaments",
    params(("id" = String, Path, description = "Tournament id")),
    request_body = AdjustmentRequest,
    security(("bearer" = ["game:play"])),
    responses(
        (status = 200, description = "The adjustment is recorded; the tournament", body = TournamentView),
    )
)]
#[post("/tournaments/{id}/adjustments")]
pub async fn adjust_tournament(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: web::Path<String>,
    body: ApiJson<AdjustmentRequest>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    check_id(&id)?;
    let r = body.0;
    let reason = reason_of(&r.reason)?;
    let missing = |f: &str| ApiError::validation(f, "required for this kind");
    adjustment_fields_in_range(&r)?;
    let now = st.clock.now_ms();
    let adjustment = match r.kind {
        AdjustmentKind::Remove => {
            let player = r.player.ok_or_else(|| missing("player"))?;
            service(&st)
                .remove(&id, &me.id, &player, reason, now)
                .await?;
            st.notifier.wake();
            return view_of(&st, &id, &me.id).await;
        }
        AdjustmentKind::Points => {
            let player = r.player.ok_or_else(|| missing("player"))?;
            let points = r.points.ok_or_else(|| missing("points"))?;
            Adjustment::Points {
                player,
                half_points: (points * 2.0) as i32,
            }
        }
        AdjustmentKind::Result => Adjustment::ResultCorrected {
            stage: r.stage.ok_or_else(|| missing("stage"))?,
            round: r.round.ok_or_else(|| missing("round"))?,
            table: r.table.ok_or_else(|| missing("table"))?,
            game: r.game.ok_or_else(|| missing("game"))?,
            result: GameResult {
                scores: r.scores.ok_or_else(|| missing("scores"))?,
                decision: None,
            },
        },
    };
    service(&st)
        .adjust(&id, &me.id, adjustment, reason, now)
        .await?;
    st.notifier.wake();
    view_of(&st, &id, &me.id).await
}

/// Every field given is in its documented range, whether or not the adjustment's kind
/// reads it.
fn adjustment_fields_in_range(r: &AdjustmentRequest) -> Result<(), ApiError> {
    if r.player.as_ref().is_some_and(|p| p.chars().count() > 64) {
        return Err(ApiError::validation("player", "at most 64 characters"));
    }
    if let Some(points) = r.points {
        let halves = points * 2.0;
        if !(-200.0..=200.0).contains(&halves) || halves.fract() != 0.0 || halves == 0.0 {
            return Err(ApiError::validation(
                "points",
                "a multiple of 0.5 from -100 to 100, not 0",
            ));
        }
    }
    super::given_in_range(
        &[
            ("stage", r.stage, 0, 7, "0 to 7"),
            ("round", r.round, 1, 1000, "1 to 1000"),
            ("table", r.table, 1, 1000, "1 to 1000"),
            ("game", r.game, 0, 4, "0 to 4"),
        ],
        str::to_string,
    )?;
    if r.scores
        .as_ref()
        .is_some_and(|s| !(2..=6).contains(&s.len()))
    {
        return Err(ApiError::validation("scores", "2 to 6 scores"));
    }
    Ok(())
}

crate::api::problem::problems! {
    "join_tournament" {
        403 => ("The event is by invitation only and the caller was not invited, the caller's rating in the pool of the event's games is outside its bounds, or the event is rated and the caller's account is marked as a bot (" [InvitationOnly, RatingOutOfBounds, BotAccountsNotAllowed] ")"),
        409 => ("Already registered, registration closed, the tournament full or over (" [AlreadyRegistered, RegistrationClosed, TournamentFull, TournamentEnded] ")"),
        429 => ("Too many registrations this hour (" [RateLimited] ")"),
    }
    "leave_tournament" {
        409 => ("Not registered (or withdrawn already), a game still to play, or the tournament over (" [NotRegistered, AlreadyRegistered, GameToPlay, TournamentEnded] ")"),
        429 => ("Too many registrations this hour (" [RateLimited] ")"),
    }
    "add_tournament_bot" {
        400 => ("Unknown level (" [ValidationFailed] ")"),
        403 => ("Not the organiser, or computer opponents not allowed (" [NotOrganiser, ComputerOpponentsNotAllowed] ")"),
        409 => ("Registration closed, the tournament full or over (" [RegistrationClosed, TournamentFull, TournamentEnded, AlreadyRegistered] ")"),
        429 => ("Too many registrations this hour (" [RateLimited] ")"),
    }
    "invite_to_tournament" {
        403 => ("Not the organiser (" [NotOrganiser] ")"),
        404 => ("No such tournament or user (" [TournamentNotFound, UserNotFound] ")"),
        409 => ("Invited or registered already, or the tournament over (" [AlreadyInvited, AlreadyRegistered, TournamentEnded] ")"),
        429 => ("Too many entries this hour (" [RateLimited] ")"),
    }
    "start_tournament" {
        403 => ("Not the organiser (" [NotOrganiser] ")"),
        409 => ("Started already, over, or fewer than 2 players (" [TournamentStarted, TournamentEnded, NotEnoughPlayers] ")"),
    }
    "pause_tournament" {
        400 => ("No reason, or one too long (" [ValidationFailed] ")"),
        403 => ("Not the organiser (" [NotOrganiser] ")"),
        409 => ("Not started yet, paused already, or over (" [TournamentNotRunning, TournamentPaused, TournamentEnded] ")"),
        429 => ("Too many entries this hour (" [RateLimited] ")"),
    }
    "resume_tournament" {
        403 => ("Not the organiser (" [NotOrganiser] ")"),
        409 => ("Not paused, or over (" [TournamentNotPaused, TournamentEnded] ")"),
        429 => ("Too many entries this hour (" [RateLimited] ")"),
    }
    "adjust_tournament" {
        400 => ("Fields missing for the kind, points not a non-zero multiple of 0.5, or no such game or result (" [ValidationFailed] ")"),
        403 => ("Not the organiser (" [NotOrganiser] ")"),
        409 => ("The player is not in the event (or removed or withdrawn already), or the stage or the event is over (" [NotRegistered, AlreadyRegistered, TournamentEnded] ")"),
    }
}
