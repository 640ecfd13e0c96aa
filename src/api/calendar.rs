//! Deadline calendars: a secret feed URL per user (`…/v1/calendar/{token}.ics`) that a
//! calendar application subscribes to, with an event at the deadline of each of the
//! user's pending decisions in games with a clock, and for each tournament they play in
//! the next round's calendar date and the current round's cap. The server keeps only the
//! SHA-256 of the token; a new one replaces the old (which stops working at once), and a
//! password change or reset revokes it. The feed is read without a bearer token: the URL
//! is the credential, so an unknown one answers like a revoked one.
//!
//! The feed is built with the `icalendar` crate (RFC 5545) and read in the tests by an
//! independent parser.

use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};
use icalendar::{Calendar, Component, Event, EventLike, EventStatus};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::access;
use super::error::{ApiError, ProblemCode};
use super::extract::CurrentUser;
use super::limits;
use super::AppState;
use crate::clock::rfc3339;
use crate::correspondence::deadline;
use crate::i18n;
use crate::store::{GameFilter, GameStatus, TournamentStatus, UserRow};
use crate::tournaments;

/// The prefix of a calendar token.
const CALENDAR_PREFIX: &str = "tpc_";
/// The most pending decisions a feed lists (the longest waiting first).
const MAX_EVENTS: usize = 500;
/// How long an event lasts before its deadline (a calendar shows a point in time badly).
const EVENT_MS: i64 = 30 * 60 * 1000;
/// The most tournaments a feed lists (the newest first), each with at most two events:
/// the next round's start and the current round's cap.
const MAX_TOURNAMENTS: i64 = 100;

/// The caller's deadline calendar.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CalendarFeed {
    /// Whether the caller has a calendar feed.
    pub active: bool,
    /// When the current feed was made (RFC 3339), if there is one.
    pub created_at: Option<String>,
    /// The feed's secret address: only in the answer that makes it (the server keeps a
    /// hash). Subscribe to it in a calendar application; whoever has it sees the
    /// deadlines of your games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// The caller's deadline calendar.
///
/// Whether the caller has a feed and when it was made (its address is shown only when it
/// is made).
#[utoipa::path(
    operation_id = "get_calendar",
    tag = "notifications",
    security(("bearer" = ["account"])),
    responses(
        (status = 200, description = "The calendar", body = CalendarFeed),
    )
)]
#[get("/users/me/calendar")]
pub async fn get_calendar(
    st: web::Data<AppState>,
    me: CurrentUser,
) -> Result<HttpResponse, ApiError> {
    let created = st.store.calendar_of(me.id).await?;
    Ok(HttpResponse::Ok().json(CalendarFeed {
        active: created.is_some(),
        created_at: created.map(rfc3339),
        url: None,
    }))
}

/// Make a new deadline calendar address.
///
/// Returns the feed's secret address, once; the previous address stops working. Limited
/// per user and day (`TILEPOST_CALENDARS_PER_DAY`).
#[utoipa::path(
    operation_id = "create_calendar",
    tag = "notifications",
    security(("bearer" = ["account"])),
    responses(
        (status = 201, description = "The new feed and its address", body = CalendarFeed),
    )
)]
#[post("/users/me/calendar")]
pub async fn create_calendar(
    st: web::Data<AppState>,
    me: CurrentUser,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let reservation = limits::reserve(
        &st,
        limits::per_user(&st, limits::UserQuota::Calendars, &me.id),
    )
    .await?;
    let now = st.clock.now_ms();
    let (token, hash) = access::new_secret(CALENDAR_PREFIX);
    let created = match st.store.replace_calendar(me.id.clone(), hash, now).await {
        Ok(t) => t,
        Err(e) => {
            reservation.release(&st).await;
            return Err(e.into());
        }
    };
    let quota = reservation.keep();
    let url = format!("{}/v1/calendar/{token}.ics", base_url(&st, &req));
    let mut resp = HttpResponse::Created()
        .insert_header(("Cache-Control", "no-store"))
        .json(CalendarFeed {
            active: true,
            created_at: Some(rfc3339(created)),
            url: Some(url),
        });
    quota.apply(&mut resp);
    Ok(resp)
}

/// Revoke the deadline calendar.
///
/// Its address stops working at once. Answers `204` whether or not there was one.
#[utoipa::path(
    operation_id = "delete_calendar",
    tag = "notifications",
    security(("bearer" = ["account"])),
    responses(
        (status = 204, description = "No calendar address works any more"),
    )
)]
#[delete("/users/me/calendar")]
pub async fn delete_calendar(
    st: web::Data<AppState>,
    me: CurrentUser,
) -> Result<HttpResponse, ApiError> {
    st.store.delete_calendar(me.id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// A deadline calendar feed (iCalendar).
///
/// The deadlines of the feed owner's pending decisions in games with a clock, one event
/// each (ending at the deadline), and for each tournament they play in (registered, not
/// withdrawn, not over) the next round's start when it has a calendar date and the
/// current round's cap, as RFC 5545 text. The address is the credential: no bearer
/// token is needed, and an unknown, replaced or revoked address answers `404`.
#[utoipa::path(
    operation_id = "get_calendar_feed",
    tag = "notifications",
    params(("token" = String, Path, description = "The feed's secret token (from `POST /v1/users/me/calendar`)")),
    security(()),
    responses(
        (status = 200, description = "The feed", body = String, content_type = "text/calendar"),
    )
)]
#[get("/calendar/{token}.ics")]
pub async fn get_calendar_feed(
    st: web::Data<AppState>,
    token: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let token = token.into_inner();
    let missing = || {
        ApiError::new(
            ProblemCode::CalendarNotFound,
            "this calendar address is not valid: it was revoked or replaced",
        )
    };
    // a well-formed token is the prefix and 43 characters of base64url
    if token.len() != CALENDAR_PREFIX.len() + 43 || !token.starts_with(CALENDAR_PREFIX) {
        return Err(missing());
    }
    let user = st
        .store
        .calendar_user(access::secret_hash(&token))
        .await?
        .ok_or_else(missing)?;
    let now = st.clock.now_ms();
    let body = feed(&st, &user, &base_url(&st, &req), now).await?;
    Ok(HttpResponse::Ok()
        .content_type("text/calendar; charset=utf-8")
        .insert_header(("Cache-Control", "private, no-store"))
        .body(body))
}

/// The base of the server's own addresses: the configured public URL, else the
/// request's.
fn base_url(st: &AppState, req: &HttpRequest) -> String {
    if !st.config.public_url.is_empty() {
        return st.config.public_url.trim_end_matches('/').to_string();
    }
    let info = req.connection_info();
    format!("{}://{}", info.scheme(), info.host())
}

/// The feed of `user`'s pending decisions at `now`.
async fn feed(st: &AppState, user: &UserRow, base: &str, now: i64) -> Result<String, ApiError> {
    let loc = i18n::exact(&user.locale).unwrap_or("en");
    let mut cal = Calendar::empty();
    for (name, value) in [
        ("VERSION", "2.0"),
        ("PRODID", "-//tilepost//deadlines//EN"),
        ("CALSCALE", "GREGORIAN"),
        ("METHOD", "PUBLISH"),
    ] {
        cal.append_property(icalendar::Property::new(name, value));
    }
    cal.name(&i18n::text(loc, "calendar-name", &[]));
    cal.description(&i18n::text(loc, "calendar-description", &[]));
    cal.ttl(&chrono::Duration::hours(1));
    let stamp = chrono::DateTime::from_timestamp_millis(now).unwrap_or_default();
    let mut after = None;
    let mut listed = 0;
    loop {
        let page = st
            .store
            .list_games_with_clocks(
                GameFilter {
                    player_id: Some(user.id.clone()),
                    status: Some(GameStatus::Active),
                    me: Some(user.id.clone()),
                    my_turn: Some(true),
                },
                after.take(),
                100,
            )
            .await?;
        for g in &page.page.rows {
            let Some(clock) = page.clocks.get(&g.game.id) else {
                continue;
            };
            let Some(d) = deadline(&g.game, clock, &page.vacations, now) else {
                continue;
            };
            let opponents: Vec<&str> = g
                .seats
                .iter()
                .filter(|s| s.user_id != user.id)
                .map(|s| s.username.as_str())
                .collect();
            let opponents = opponents.join(", ");
            let link = format!("{base}/play/games/{}", g.game.id);
            let when = i18n::datetime(d.at, loc, &user.time_zone);
            let args = [
                ("opponents", opponents.as_str().into()),
                ("when", when.as_str().into()),
                ("link", link.as_str().into()),
            ];
            let mut text = i18n::text(loc, "calendar-due-body", &args);
            if d.paused {
                text.push_str("\n\n");
                text.push_str(&i18n::text(loc, "calendar-paused", &[]));
            }
            let at = chrono::DateTime::from_timestamp_millis(d.at).unwrap_or_default();
            let start =
                chrono::DateTime::from_timestamp_millis(d.at - EVENT_MS).unwrap_or_default();
            let mut event = Event::new();
            event
                .uid(&format!(
                    "{}-{}@tilepost",
                    g.game.id,
                    g.game.turn_started_at.unwrap_or_default()
                ))
                .timestamp(stamp)
                .summary(&i18n::text(loc, "calendar-due", &args))
                .description(&text)
                .url(&link)
                .starts(start)
                .ends(at)
                .status(if d.paused {
                    EventStatus::Tentative
                } else {
                    EventStatus::Confirmed
                });
            cal.push(event.done());
            listed += 1;
            if listed >= MAX_EVENTS {
                break;
            }
        }
        match page.page.next {
            Some(k) if listed < MAX_EVENTS => after = Some(k),
            _ => break,
        }
    }
    for mut e in rounds(st, user, base, loc, now).await? {
        cal.push(e.timestamp(stamp).done());
    }
    Ok(cal.done().to_string())
}

/// The events of `user`'s tournaments (registered, not withdrawn, not over): the next
/// round's start when it has a calendar date to come (half an hour from it), and the
/// current round's cap (the half hour before it).
async fn rounds(
    st: &AppState,
    user: &UserRow,
    base: &str,
    loc: &str,
    now: i64,
) -> Result<Vec<Event>, ApiError> {
    let at = |ms: i64| chrono::DateTime::from_timestamp_millis(ms).unwrap_or_default();
    let rows = st
        .store
        .tournaments_of_player(user.id.clone(), MAX_TOURNAMENTS)
        .await?;
    let mut out = Vec::new();
    for row in rows {
        let Ok(settings) = tournaments::settings_of(&row) else {
            continue;
        };
        let link = format!("{base}/play/tournaments/{}", row.id);
        let registering = row.status() == Some(TournamentStatus::Registering);
        let event = |uid: String, key: &str, when: i64, args: &[(&str, i18n::Arg<'_>)]| {
            let shown = i18n::datetime(when, loc, &user.time_zone);
            let mut args = args.to_vec();
            args.push(("event", row.name.as_str().into()));
            args.push(("when", shown.as_str().into()));
            args.push(("link", link.as_str().into()));
            let mut e = Event::new();
            e.uid(&uid)
                .summary(&i18n::text(loc, key, &args))
                .description(&i18n::text(loc, &format!("{key}-body"), &args))
                .url(&link)
                .status(EventStatus::Confirmed);
            e
        };
        if let Some(d) = tournaments::next_round_date(&row, &settings, now) {
            let number = row.rounds_paired + 1;
            let key = if registering {
                "calendar-first-round"
            } else {
                "calendar-next-round"
            };
            let mut e = event(format!("{}-round-{number}@tilepost", row.id), key, d, &[]);
            e.starts(at(d)).ends(at(d + EVENT_MS));
            out.push(e);
        }
        // (while the event is paused, the cap has no date: it moves out on resuming)
        if let (Some(d), false, None) = (row.round_deadline, registering, row.paused_at) {
            let args = [
                ("stage", i64::from(row.current_stage + 1).into()),
                ("round", i64::from(row.current_round).into()),
            ];
            let uid = format!(
                "{}-cap-{}-{}@tilepost",
                row.id, row.current_stage, row.current_round
            );
            let mut e = event(uid, "calendar-round-cap", d, &args);
            e.starts(at(d - EVENT_MS)).ends(at(d));
            out.push(e);
        }
    }
    Ok(out)
}

crate::api::problem::problems! {
    "create_calendar" {
        429 => ("Too many new addresses today (" [RateLimited] ")"),
    }
    "get_calendar_feed" {
        404 => ("No such calendar (" [CalendarNotFound] ")"),
    }
}
