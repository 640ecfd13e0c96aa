//! Users and tokens.

use actix_web::{get, patch, post, web, HttpRequest, HttpResponse};

use super::account::valid_email;
use super::dto::*;
use super::error::{ApiError, ProblemCode};
use super::extract::{ApiJson, ClientAddr, CurrentUser};
use super::limits;
use super::views::user_view;
use super::AppState;
use crate::i18n;
use crate::store::{UserChanges, UserRow};

fn valid_username(s: &str) -> bool {
    (3..=32).contains(&s.len())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// Register a user.
///
/// Creates an account with a username, an email address and a password; the email's
/// language is `locale`, else the best match of `Accept-Language`, and deadlines are
/// written in `time_zone` (default `UTC`). Usernames starting with `bot-` or
/// `deleted-user-` are reserved. The address starts unconfirmed: it is sent a link to
/// `POST /v1/auth/verify-email` and no other email until the link is used. Sign-ups are
/// limited per client address (`TILEPOST_SIGNUPS_PER_ADDRESS` per
/// `TILEPOST_SIGNUP_WINDOW_SECS`). No token is issued: log in with
/// `POST /v1/auth/token`.
#[utoipa::path(
    operation_id = "create_user",
    tag = "users",
    request_body = RegisterRequest,
    security(()),
    responses(
        (status = 201, description = "The user was created; a link to confirm the address is on its way to it (until it is used, the address gets no other email)", body = UserView),
    )
)]
#[post("/users")]
pub async fn create_user(
    st: web::Data<AppState>,
    req: HttpRequest,
    addr: ClientAddr,
    body: ApiJson<RegisterRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    let mut errors = Vec::new();
    let locale = match &r.locale {
        Some(l) => i18n::exact(l),
        None => Some(i18n::negotiate(
            req.headers()
                .get("accept-language")
                .and_then(|v| v.to_str().ok())
                .unwrap_or(""),
        )),
    };
    if locale.is_none() {
        errors.push(("locale", "en or pt-BR"));
    }
    let time_zone = r
        .time_zone
        .clone()
        .unwrap_or_else(|| i18n::DEFAULT_TIME_ZONE.to_string());
    if !i18n::valid_time_zone(&time_zone) {
        errors.push((
            "time_zone",
            "an IANA time zone name such as America/Sao_Paulo",
        ));
    }
    if !valid_username(&r.username) {
        errors.push((
            "username",
            "3 to 32 characters: letters, digits, _, - and .",
        ));
    } else if r
        .username
        .to_ascii_lowercase()
        .starts_with(super::account::DELETED_PREFIX)
    {
        errors.push(("username", "names of deleted accounts are reserved"));
    } else if r.username.to_ascii_lowercase().starts_with("bot-") {
        errors.push((
            "username",
            "names of computer opponents (bot-…) are reserved",
        ));
    }
    if !valid_email(&r.email) {
        errors.push(("email", "not an email address"));
    }
    if !(8..=256).contains(&r.password.chars().count()) {
        errors.push(("password", "8 to 256 characters"));
    }
    if let Some((f, m)) = errors.first() {
        let mut e = ApiError::validation(*f, *m);
        for (f, m) in errors.iter().skip(1) {
            e = e.with_field(*f, *m);
        }
        return Err(e);
    }
    // a place under the sign-up limit before the password hash; handed back when the
    // account is not created
    let (row, _) = limits::guarded(&st, limits::signup(&st, &addr.0), async {
        let hash = st
            .auth
            .hash_password(r.password)
            .await
            .map_err(ApiError::internal)?;
        let row = UserRow {
            id: uuid::Uuid::new_v4().to_string(),
            username: r.username,
            email: r.email,
            password_hash: hash,
            notify_turn: 1,
            notify_finished: 1,
            created_at: st.clock.now_ms(),
            locale: locale.unwrap_or(i18n::DEFAULT_LOCALE).to_string(),
            time_zone,
            email_verified_at: None,
            deleted_at: None,
            bot: None,
            digest_hour: None,
        };
        st.store
            .create_user(row.clone(), st.config.retired_name_days)
            .await?;
        Ok(row)
    })
    .await?;
    super::account::send_verification(&st, &row).await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", "/v1/users/me"))
        .json(user_view(&row)))
}

/// Log in: exchange a username and password for an access token.
///
/// The answer's `access_token` is a login token: a JWT for a new login session, with
/// every scope, valid for `expires_in` seconds (`TILEPOST_TOKEN_TTL_SECS`) or until the
/// session ends (`POST /v1/auth/logout`, `DELETE /v1/users/me/sessions`, a password
/// change or reset). Send it as `Authorization: Bearer …`. Failed logins are counted
/// per account and per client address; past the limit
/// (`TILEPOST_LOGIN_FAILURES_PER_ACCOUNT`, `TILEPOST_LOGIN_FAILURES_PER_ADDRESS` within
/// `TILEPOST_LOGIN_WINDOW_SECS`) logins are refused for a while, right password or not.
#[utoipa::path(
    operation_id = "create_token",
    tag = "users",
    request_body = TokenRequest,
    security(()),
    responses(
        (status = 200, description = "A bearer token", body = TokenResponse),
    )
)]
#[post("/auth/token")]
pub async fn create_token(
    st: web::Data<AppState>,
    addr: ClientAddr,
    body: ApiJson<TokenRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    let user = super::load::user_named(&st, &r.username).await?;
    let stored = user.as_ref().map(|u| u.password_hash.clone());
    let ok = limits::verify_password(&st, &r.username, &addr.0, r.password, stored).await?;
    let Some(user) = user.filter(|_| ok) else {
        return Err(ApiError::new(
            ProblemCode::InvalidCredentials,
            "wrong username or password",
        ));
    };
    let token = super::tokens::start_session(&st, &user.id).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(TokenResponse {
            access_token: token,
            token_type: "Bearer".into(),
            expires_in: st.auth.ttl_secs(),
        }))
}

/// The caller's account.
///
/// The account's settings (notification switches, digest hour, locale, time zone, bot
/// mark), whether its address is confirmed, what waits for the caller (games where it
/// is their turn, unanswered invitations) and their vacation bank.
#[utoipa::path(
    operation_id = "get_me",
    tag = "users",
    security(("bearer" = ["account"])),
    responses(
        (status = 200, description = "The caller", body = UserView),
    )
)]
#[get("/users/me")]
pub async fn get_me(st: web::Data<AppState>, me: CurrentUser) -> Result<HttpResponse, ApiError> {
    let u = st
        .store
        .user_by_id(me.id)
        .await?
        .ok_or_else(|| ApiError::unauthorized("the token's user no longer exists"))?;
    let mut view = user_view(&u);
    let (waiting, vacation) = super::clock::account_extras(&st, &u.id).await?;
    view.waiting = Some(waiting);
    view.vacation = Some(vacation);
    Ok(HttpResponse::Ok().json(view))
}

/// Change the caller's settings.
///
/// Sets the notification preferences, the daily digest hour, the locale, the time zone
/// or the bot mark; fields left out stay as they are, and `digest_hour: null` turns the
/// digest off. The email address changes through `POST /v1/users/me/email` and the
/// password through `POST /v1/users/me/password`, both with the current password.
#[utoipa::path(
    operation_id = "update_me",
    tag = "users",
    request_body = UpdateUserRequest,
    security(("bearer" = ["account"])),
    responses(
        (status = 200, description = "The updated account", body = UserView),
    )
)]
#[patch("/users/me")]
pub async fn update_me(
    st: web::Data<AppState>,
    me: CurrentUser,
    body: ApiJson<UpdateUserRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    let locale = match &r.locale {
        Some(l) => Some(
            i18n::exact(l)
                .ok_or_else(|| ApiError::validation("locale", "en or pt-BR"))?
                .to_string(),
        ),
        None => None,
    };
    if let Some(z) = &r.time_zone {
        if !i18n::valid_time_zone(z) {
            return Err(ApiError::validation(
                "time_zone",
                "an IANA time zone name such as America/Sao_Paulo",
            ));
        }
    }
    if r.digest_hour
        .flatten()
        .is_some_and(|h| !(0..=23).contains(&h))
    {
        return Err(ApiError::validation(
            "digest_hour",
            "an hour from 0 to 23, or null",
        ));
    }
    let (turn, finished) = match &r.notifications {
        Some(n) => (n.turn, n.finished),
        None => (None, None),
    };
    let u = st
        .store
        .update_user(
            me.id,
            UserChanges {
                notify_turn: turn,
                notify_finished: finished,
                locale,
                time_zone: r.time_zone,
                bot: r.bot,
                digest_hour: r.digest_hour,
            },
        )
        .await?
        .ok_or_else(|| ApiError::unauthorized("the token's user no longer exists"))?;
    // the token lookups this process keeps carry the locale: read it anew
    st.grants.forget_user(&u.id);
    Ok(HttpResponse::Ok().json(user_view(&u)))
}

crate::api::problem::problems! {
    "create_user" {
        400 => ("Invalid fields (" [ValidationFailed] ")"),
        409 => ("The username is taken (" [UsernameTaken] ")"),
        429 => ("Too many sign-ups from this address (" [RateLimited] "); `Retry-After` says when to retry"),
    }
    "create_token" {
        400 => ("Invalid fields (" [ValidationFailed] ")"),
        401 => ("Wrong username or password (" [InvalidCredentials] ")"),
        429 => ("Too many failed logins for this account or from this address (" [RateLimited] "); `Retry-After` says when to retry"),
    }
    "update_me" {
        400 => ("Invalid fields (" [ValidationFailed] ")"),
    }
}
