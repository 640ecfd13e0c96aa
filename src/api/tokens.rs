//! Sessions and personal access tokens: log out (this token), log out everywhere (every
//! login session of the user), and the personal access tokens a bot or a third-party
//! client holds instead of a password (created with chosen scopes and shown once,
//! listed, revoked).

use actix_web::{delete, get, post, web, HttpResponse};

use super::access::{self, Scopes};
use super::dto::*;
use super::error::{ApiError, ProblemCode};
use super::extract::{ApiJson, CurrentUser};
use super::limits;
use super::AppState;
use crate::clock::rfc3339;
use crate::store::{TokenRow, PERSONAL, SESSION};

/// The longest a personal access token's name may be.
const MAX_NAME: usize = 64;
const DAY_MS: i64 = 86_400_000;

/// Creates a login session for `user_id` and returns its access token (a JWT naming it).
pub async fn start_session(st: &AppState, user_id: &str) -> Result<String, ApiError> {
    let now = st.clock.now_ms();
    let sid = uuid::Uuid::new_v4().to_string();
    st.store
        .create_access_token(
            TokenRow {
                id: sid.clone(),
                user_id: user_id.to_string(),
                kind: SESSION.into(),
                name: None,
                secret_hash: None,
                scopes: Scopes::all().to_column(),
                created_at: now,
                expires_at: Some(now + st.auth.ttl_secs().saturating_mul(1000)),
            },
            now,
            None,
        )
        .await?;
    st.auth
        .issue(user_id, &sid, now)
        .map_err(ApiError::internal)
}

/// Ends every login session of `user_id` but `except` (a password change keeps the
/// session that made it; `None` ends all), at once in this process and within the token
/// cache's time in others. Personal access tokens stay. Returns how many ended.
pub async fn end_sessions(
    st: &AppState,
    user_id: &str,
    except: Option<&str>,
) -> Result<usize, ApiError> {
    let n = st
        .store
        .revoke_sessions(user_id.to_string(), except.map(str::to_string))
        .await?;
    st.grants.forget_user(user_id);
    Ok(n)
}

/// Log out: revoke the token of this request.
///
/// A login token's session ends; a personal access token is revoked. It stops working
/// at once in the process that answers and within `TILEPOST_TOKEN_CACHE_MS` in every
/// other. The caller's other tokens keep working.
#[utoipa::path(
    operation_id = "delete_session",
    tag = "users",
    security(("bearer" = ["game:read"]), ("bearer" = ["game:play"]), ("bearer" = ["account"]), ("bearer" = ["webhooks"])),
    responses(
        (status = 204, description = "The token no longer works (a login session ends; a personal access token is revoked)"),
    )
)]
#[post("/auth/logout")]
pub async fn logout(st: web::Data<AppState>, me: CurrentUser) -> Result<HttpResponse, ApiError> {
    st.store
        .revoke_access_token(me.id.clone(), me.token_id.clone(), None)
        .await?;
    st.grants.forget_token(&me.token_id);
    Ok(HttpResponse::NoContent().finish())
}

/// Log out everywhere: end every login session of the caller.
///
/// Every login token of the caller stops working, this request's too when it comes with
/// one. Personal access tokens are not touched: they are revoked one by one with
/// `DELETE /v1/users/me/tokens/{id}`.
#[utoipa::path(
    operation_id = "delete_sessions",
    tag = "users",
    security(("bearer" = ["account"])),
    responses(
        (status = 204, description = "Every login token of the caller no longer works"),
    )
)]
#[delete("/users/me/sessions")]
pub async fn delete_sessions(
    st: web::Data<AppState>,
    me: CurrentUser,
) -> Result<HttpResponse, ApiError> {
    end_sessions(&st, &me.id, None).await?;
    Ok(HttpResponse::NoContent().finish())
}

fn view(r: &TokenRow, secret: Option<String>) -> PersonalTokenView {
    PersonalTokenView {
        id: r.id.clone(),
        name: r.name.clone().unwrap_or_default(),
        scopes: Scopes::from_column(&r.scopes).list(),
        created_at: rfc3339(r.created_at),
        expires_at: r.expires_at.map(rfc3339),
        token: secret,
    }
}

/// Create a personal access token: its secret is in this answer only.
///
/// A personal access token (`tpp_…`) is what a bot or another client holds instead of
/// the password: it has a name, 1 to 4 scopes (never more than the token that creates
/// it), and optionally an expiry in days; it works until it expires or is revoked. The
/// server keeps only a hash of its secret. Creations are limited per account and day
/// (`TILEPOST_PERSONAL_TOKENS_PER_DAY`).
#[utoipa::path(
    operation_id = "create_personal_token",
    tag = "users",
    request_body = CreatePersonalTokenRequest,
    security(("bearer" = ["session"])),
    responses(
        (status = 201, description = "The token, with its secret (`token`) shown this once; `RateLimit-*` headers say how many more may be created today", body = PersonalTokenView),
    )
)]
#[post("/users/me/tokens")]
pub async fn create_personal_token(
    st: web::Data<AppState>,
    me: CurrentUser,
    body: ApiJson<CreatePersonalTokenRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    let name = r.name;
    if name.is_empty() || name.chars().count() > MAX_NAME {
        return Err(ApiError::validation(
            "name",
            format!("1 to {MAX_NAME} characters"),
        ));
    }
    if r.scopes.is_empty() || r.scopes.len() > 4 {
        return Err(ApiError::validation("scopes", "1 to 4 scopes"));
    }
    let scopes = Scopes::of(&r.scopes);
    if let Some(d) = r.expires_in_days {
        if !(1..=3650).contains(&d) {
            return Err(ApiError::validation("expires_in_days", "1 to 3650"));
        }
    }
    // a token never grants more than the token that made it
    for s in scopes.list() {
        access::require(me.scopes, Some(s))?;
    }
    let reservation = limits::reserve(
        &st,
        limits::per_user(&st, limits::UserQuota::PersonalTokens, &me.id),
    )
    .await?;
    let now = st.clock.now_ms();
    let (secret, hash) = access::new_personal_secret();
    let row = TokenRow {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: me.id.clone(),
        kind: PERSONAL.into(),
        name: Some(name),
        secret_hash: Some(hash),
        scopes: scopes.to_column(),
        created_at: now,
        expires_at: r.expires_in_days.map(|d| now + d * DAY_MS),
    };
    // only while the session that asks still exists (a password change revokes it)
    if let Err(e) = st
        .store
        .create_access_token(row.clone(), now, Some(me.token_id.clone()))
        .await
    {
        reservation.release(&st).await;
        return Err(e.into());
    }
    let quota = reservation.keep();
    let mut resp = HttpResponse::Created()
        .insert_header(("Cache-Control", "no-store"))
        .json(view(&row, Some(secret)));
    quota.apply(&mut resp);
    Ok(resp)
}

/// The caller's personal access tokens, newest first (never their secrets).
///
/// Each token's id, name, scopes, creation time and expiry, paged with `cursor`;
/// revoked tokens are not listed.
#[utoipa::path(
    operation_id = "list_personal_tokens",
    tag = "users",
    params(PersonalTokensQuery),
    security(("bearer" = ["account"])),
    responses(
        (status = 200, description = "A page of tokens", body = PersonalTokenList),
    )
)]
#[get("/users/me/tokens")]
pub async fn list_personal_tokens(
    st: web::Data<AppState>,
    me: CurrentUser,
    q: web::Query<PersonalTokensQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = super::paging::limit(q.limit)?;
    let after = q
        .cursor
        .as_deref()
        .map(super::paging::parse_token_cursor)
        .transpose()?;
    let page = st.store.personal_tokens(me.id, after, limit).await?;
    Ok(HttpResponse::Ok().json(PersonalTokenList {
        tokens: page.rows.iter().map(|r| view(r, None)).collect(),
        next_cursor: page.next.as_ref().map(super::paging::token_cursor),
    }))
}

/// Revoke a personal access token.
///
/// The token stops working at once in the process that answers and within
/// `TILEPOST_TOKEN_CACHE_MS` in every other; it is no longer listed.
#[utoipa::path(
    operation_id = "delete_personal_token",
    tag = "users",
    params(("id" = String, Path, description = "Token id")),
    security(("bearer" = ["account"])),
    responses(
        (status = 204, description = "The token no longer works"),
    )
)]
#[delete("/users/me/tokens/{id}")]
pub async fn delete_personal_token(
    st: web::Data<AppState>,
    me: CurrentUser,
    id: super::extract::TokenId,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    if !st
        .store
        .revoke_access_token(me.id, id.clone(), Some(PERSONAL))
        .await?
    {
        return Err(ApiError::new(
            ProblemCode::TokenNotFound,
            "you have no personal access token with this id",
        ));
    }
    st.grants.forget_token(&id);
    Ok(HttpResponse::NoContent().finish())
}

crate::api::problem::problems! {
    "create_personal_token" {
        400 => ("Invalid fields (" [ValidationFailed] ")"),
        403 => ("The token asks for a scope it does not hold (" [InsufficientScope] ")"),
        429 => ("Too many tokens created today (" [RateLimited] "); `Retry-After` says when to retry"),
    }
    "list_personal_tokens" {
        400 => ("Invalid paging (" [ValidationFailed] ")"),
    }
    "delete_personal_token" {
        404 => ("The caller has no such token (" [TokenNotFound] ")"),
    }
}
