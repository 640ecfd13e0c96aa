//! Accounts beyond sign-up: the address confirmation (sent at sign-up and after a
//! change; until it is used the address gets no other email), password reset by email,
//! password and address changes (the current password required), the export of one's
//! own data, and deletion.
//!
//! Emailed links carry a random 256-bit token; only its SHA-256 is stored, and a link
//! works once, before it expires (a confirmation after a day, a reset after an hour).
//! A reset request answers the same whatever the address: the answer is sent before any
//! account is looked up (the lookup and the message happen after it, in the background),
//! and the limits it counts are keyed by the address asked for, not by an account.

use actix_web::{delete, get, post, web, HttpResponse};
use base64::Engine;
use rand::RngCore;
use sha2::{Digest, Sha256};

use super::dto::*;
use super::error::{ApiError, ProblemCode};
use super::extract::{ApiJson, ClientAddr, CurrentUser};
use super::limits;
use super::AppState;
use crate::clock::rfc3339;
use crate::moves::{Decision, DecisionError, Request};
use crate::notify::{self, PasswordChange, Recipient};
use crate::store::{AccountToken, GameStatus, StoreError, TokenPurpose, UserRow};

/// How long a confirmation link works.
const VERIFY_TTL_MS: i64 = 24 * 3600 * 1000;
/// How long a reset link works.
const RESET_TTL_MS: i64 = 3600 * 1000;
/// The name a deleted account's seats keep: this prefix and 8 random hex digits.
pub const DELETED_PREFIX: &str = "deleted-user-";

/// A fresh link token (32 random bytes, base64url) and its stored hash.
fn new_token() -> (String, String) {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    let token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let hash = token_hash(&token);
    (token, hash)
}

fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn recipient(u: &UserRow) -> Recipient<'_> {
    Recipient {
        user_id: &u.id,
        name: &u.username,
        email: &u.email,
        locale: &u.locale,
        time_zone: &u.time_zone,
    }
}

/// The confirmation link for a user's current address, with its message.
fn verification(st: &AppState, u: &UserRow) -> (AccountToken, crate::store::OutboxRow) {
    let now = st.clock.now_ms();
    let (token, hash) = new_token();
    let link = AccountToken::new(
        &u.id,
        TokenPurpose::VerifyEmail,
        hash,
        &u.email,
        now,
        VERIFY_TTL_MS,
    );
    let msg = notify::verify_email(&st.notifier, &recipient(u), &token, link.expires_at, now);
    (link, msg)
}

/// Sends the confirmation link of a new account (sign-up).
pub async fn send_verification(st: &AppState, u: &UserRow) -> Result<(), ApiError> {
    let (link, msg) = verification(st, u);
    st.store.add_link(link, msg).await?;
    st.notifier.wake();
    Ok(())
}

/// The caller's account, or 401 when it is gone.
async fn me_row(st: &AppState, me: &CurrentUser) -> Result<UserRow, ApiError> {
    st.store
        .user_by_id(me.id.clone())
        .await?
        .ok_or_else(|| ApiError::unauthorized("the token's user no longer exists"))
}

/// Checks the caller's password, counted like a login (the login limits apply, and a
/// wrong password is a failed login of the account).
async fn check_password(
    st: &AppState,
    u: &UserRow,
    addr: &str,
    password: String,
) -> Result<(), ApiError> {
    let ok = limits::verify_password(
        st,
        &u.username,
        addr,
        password,
        Some(u.password_hash.clone()),
    )
    .await?;
    if !ok {
        return Err(ApiError::new(
            ProblemCode::WrongPassword,
            "the password is wrong",
        ));
    }
    Ok(())
}

/// An address as sign-up and address changes take it.
pub fn valid_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    (3..=254).contains(&s.len())
        && !local.is_empty()
        && !domain.is_empty()
        && !domain.contains('@')
        && !s.chars().any(|c| c.is_whitespace() || c.is_control())
}

fn valid_password(p: &str) -> bool {
    (8..=256).contains(&p.chars().count())
}

fn link_token_ok(t: &str) -> bool {
    (1..=128).contains(&t.len())
}

/// Ask for the confirmation email again.
///
/// Sends a new link that confirms the account's current address (it works once, for 24
/// hours); links sent before no longer work. Account emails are limited per client
/// address and per account (`TILEPOST_ACCOUNT_EMAILS_PER_ADDRESS`,
/// `TILEPOST_ACCOUNT_EMAILS_PER_TARGET`, per hour).
#[utoipa::path(
    operation_id = "resend_verification",
    tag = "users",
    security(("bearer" = ["account"])),
    responses(
        (status = 202, description = "A new link is on its way to the account's address; earlier links no longer work", body = Accepted),
    )
)]
#[post("/users/me/email/verification")]
pub async fn resend_verification(
    st: web::Data<AppState>,
    me: CurrentUser,
    addr: ClientAddr,
) -> Result<HttpResponse, ApiError> {
    let u = me_row(&st, &me).await?;
    if u.email_verified_at.is_some() {
        return Err(ApiError::new(
            ProblemCode::AlreadyVerified,
            "the address is already confirmed",
        ));
    }
    limits::account_mail(&st, &addr.0, &u.id).await?;
    send_verification(&st, &u).await?;
    Ok(HttpResponse::Accepted().json(Accepted {
        status: AcceptedStatus::Accepted,
        detail: "a new confirmation link is on its way; it works once, for 24 hours".into(),
    }))
}

/// Confirm an email address with the token of its link.
///
/// The token comes from the link sent at sign-up, after an address change or by
/// `POST /v1/users/me/email/verification`; it works once, within 24 hours, and only
/// while the account still has the address it was sent to. No login is needed: the
/// token is the credential. Invalid tokens are counted per client address, like failed
/// logins.
#[utoipa::path(
    operation_id = "verify_email",
    tag = "users",
    request_body = LinkTokenRequest,
    security(()),
    responses(
        (status = 200, description = "The address is confirmed", body = LinkResult),
    )
)]
#[post("/auth/verify-email")]
pub async fn verify_email(
    st: web::Data<AppState>,
    addr: ClientAddr,
    body: ApiJson<LinkTokenRequest>,
) -> Result<HttpResponse, ApiError> {
    let token = body.0.token;
    if !link_token_ok(&token) {
        return Err(ApiError::validation("token", "1 to 128 characters"));
    }
    // an invalid link counts against the address; a working one hands its place back
    let attempt = limits::link_attempt(&st, &addr.0).await?;
    let now = st.clock.now_ms();
    match st.store.confirm_email(token_hash(&token), now).await {
        Ok(Some(_)) => {
            attempt.release(&st).await;
            Ok(HttpResponse::Ok().json(LinkResult {
                status: "email_verified".into(),
            }))
        }
        Ok(None) => {
            let _ = attempt.keep();
            Err(invalid_link())
        }
        Err(e) => {
            attempt.release(&st).await;
            Err(e.into())
        }
    }
}

fn invalid_link() -> ApiError {
    ApiError::new(
        ProblemCode::InvalidLink,
        "the link is unknown, was used already or has expired; ask for a new one",
    )
}

/// Ask for a password reset link by email.
///
/// The answer is the same whether or not an account has the address, and it is sent
/// before any account is looked up. Each account whose address this was, confirmed, when
/// the request came gets a link to `POST /v1/auth/password-reset/confirm` that works once, within an hour.
/// Requests are limited per client address and per address asked for, whether an
/// account has it or not.
#[utoipa::path(
    operation_id = "request_password_reset",
    tag = "users",
    request_body = PasswordResetRequest,
    security(()),
    responses(
        (status = 202, description = "Always the same answer, whether or not an account has this address: if one has it confirmed, a link that works once within an hour is on its way", body = Accepted),
    )
)]
#[post("/auth/password-reset")]
pub async fn request_password_reset(
    st: web::Data<AppState>,
    addr: ClientAddr,
    body: ApiJson<PasswordResetRequest>,
) -> Result<HttpResponse, ApiError> {
    let email = body.0.email.trim().to_string();
    if !(3..=254).contains(&email.len()) || !email.contains('@') {
        return Err(ApiError::validation("email", "not an email address"));
    }
    // keyed by the address asked for, whether an account has it or not
    let key = email.to_lowercase();
    limits::account_mail(&st, &addr.0, &key).await?;
    // the answer goes before any account is looked up; the accounts are those whose
    // address was confirmed when the request came, however late the lookup runs
    let asked_at = st.clock.now_ms();
    let st2 = st.clone();
    actix_web::rt::spawn(async move {
        if let Err(e) = send_resets(&st2, email, asked_at).await {
            tracing::warn!(error = %e, "password reset: not sent");
        }
    });
    Ok(HttpResponse::Accepted().json(Accepted {
        status: AcceptedStatus::Accepted,
        detail: "if an account has this confirmed address, a link is on its way; it works once, within an hour".into(),
    }))
}

/// The reset links of the accounts that had confirmed `email` at `asked_at`.
async fn send_resets(st: &AppState, email: String, asked_at: i64) -> Result<(), ApiError> {
    for u in st.store.verified_users_by_email(email, asked_at).await? {
        let now = st.clock.now_ms();
        let (token, hash) = new_token();
        let link = AccountToken::new(
            &u.id,
            TokenPurpose::PasswordReset,
            hash,
            &u.email,
            now,
            RESET_TTL_MS,
        );
        let msg =
            notify::password_reset(&st.notifier, &recipient(&u), &token, link.expires_at, now);
        st.store.add_link(link, msg).await?;
    }
    st.notifier.wake();
    Ok(())
}

/// Choose a new password with the token of a reset link.
///
/// The token comes from the email of `POST /v1/auth/password-reset`; it works once,
/// within an hour. The new password replaces the old one and every login session of the
/// account ends (personal access tokens stay). Invalid tokens are counted per client
/// address, like failed logins.
#[utoipa::path(
    operation_id = "reset_password",
    tag = "users",
    request_body = PasswordResetConfirm,
    security(()),
    responses(
        (status = 200, description = "The password is changed; the link no longer works", body = LinkResult),
    )
)]
#[post("/auth/password-reset/confirm")]
pub async fn reset_password(
    st: web::Data<AppState>,
    addr: ClientAddr,
    body: ApiJson<PasswordResetConfirm>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    if !link_token_ok(&r.token) {
        return Err(ApiError::validation("token", "1 to 128 characters"));
    }
    if !valid_password(&r.password) {
        return Err(ApiError::validation("password", "8 to 256 characters"));
    }
    let attempt = limits::link_attempt(&st, &addr.0).await?;
    let hash = token_hash(&r.token);
    let now = st.clock.now_ms();
    // no password hashing for a link that cannot work
    let live = match st
        .store
        .link_is_live(hash.clone(), TokenPurpose::PasswordReset, now)
        .await
    {
        Ok(live) => live,
        Err(e) => {
            attempt.release(&st).await;
            return Err(e.into());
        }
    };
    if !live {
        let _ = attempt.keep();
        return Err(invalid_link());
    }
    let done = async {
        let password_hash = st
            .auth
            .hash_password(r.password)
            .await
            .map_err(ApiError::internal)?;
        // whoever knew the old password loses every credential it made: all login
        // sessions and all personal access tokens, in the transaction that changes it
        let notifier = st.notifier.clone();
        Ok::<_, ApiError>(
            st.store
                .reset_password(hash, password_hash, now, move |u, revoked| {
                    changed_message(&notifier, u, PasswordChange::Reset, revoked, now)
                })
                .await?,
        )
    }
    .await;
    match done {
        Ok(Some((user_id, _))) => {
            attempt.release(&st).await;
            st.grants.forget_user(&user_id);
            st.notifier.wake();
            Ok(HttpResponse::Ok().json(LinkResult {
                status: "password_reset".into(),
            }))
        }
        // used or expired meanwhile
        Ok(None) => {
            let _ = attempt.keep();
            Err(invalid_link())
        }
        Err(e) => {
            attempt.release(&st).await;
            Err(e)
        }
    }
}

/// The `account.password_changed` message to `u`, when its address is confirmed (an
/// unconfirmed address gets nothing but its confirmation).
fn changed_message(
    n: &notify::Notifier,
    u: &UserRow,
    how: PasswordChange,
    revoked: &crate::store::Revoked,
    now: i64,
) -> Option<crate::store::OutboxRow> {
    u.email_verified_at?;
    Some(notify::password_changed(
        n,
        &recipient(u),
        how,
        revoked,
        now,
    ))
}

/// Change the caller's password (the current one required).
///
/// The current password is checked like a login: a wrong one counts as a failed login
/// of the account and the login limits apply. Every other login session of the caller
/// ends; the one that made the change (or the personal access token used) stays.
#[utoipa::path(
    operation_id = "change_password",
    tag = "users",
    request_body = ChangePasswordRequest,
    security(("bearer" = ["session"])),
    responses(
        (status = 204, description = "The password is changed"),
    )
)]
#[post("/users/me/password")]
pub async fn change_password(
    st: web::Data<AppState>,
    me: CurrentUser,
    addr: ClientAddr,
    body: ApiJson<ChangePasswordRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    if !valid_password(&r.new_password) {
        return Err(ApiError::validation("new_password", "8 to 256 characters"));
    }
    let u = me_row(&st, &me).await?;
    check_password(&st, &u, &addr.0, r.current_password).await?;
    let hash = st
        .auth
        .hash_password(r.new_password)
        .await
        .map_err(ApiError::internal)?;
    let now = st.clock.now_ms();
    let notifier = st.notifier.clone();
    // every other session ends and every personal access token is revoked; the session
    // that made the change stays
    st.store
        .set_password(
            u.id.clone(),
            hash,
            me.token_id.clone(),
            now,
            move |u, revoked| changed_message(&notifier, u, PasswordChange::Change, revoked, now),
        )
        .await?;
    st.grants.forget_user(&u.id);
    st.notifier.wake();
    Ok(HttpResponse::NoContent().finish())
}

/// Change the caller's email address (the password required).
///
/// The password is checked like a login (a wrong one counts as a failed login). The new
/// address is unconfirmed: it gets a confirmation link and no other email until the
/// link is used; a confirmation link sent to the old address no longer works. Account
/// emails are limited per client address and per account.
#[utoipa::path(
    operation_id = "change_email",
    tag = "users",
    request_body = ChangeEmailRequest,
    security(("bearer" = ["session"])),
    responses(
        (status = 200, description = "The address is changed and a confirmation link is on its way to it", body = UserView),
    )
)]
#[post("/users/me/email")]
pub async fn change_email(
    st: web::Data<AppState>,
    me: CurrentUser,
    addr: ClientAddr,
    body: ApiJson<ChangeEmailRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = body.0;
    if !valid_email(&r.email) {
        return Err(ApiError::validation("email", "not an email address"));
    }
    let u = me_row(&st, &me).await?;
    check_password(&st, &u, &addr.0, r.password).await?;
    limits::account_mail(&st, &addr.0, &u.id).await?;
    let mut changed = u.clone();
    changed.email = r.email.clone();
    changed.email_verified_at = None;
    let (link, msg) = verification(&st, &changed);
    st.store
        .change_email(u.id.clone(), r.email, link, msg)
        .await?;
    st.notifier.wake();
    let u = me_row(&st, &me).await?;
    Ok(HttpResponse::Ok().json(super::views::user_view(&u)))
}

/// Delete the caller's account (the password required).
///
/// The password is checked like a login. The caller's running games are resigned, the
/// open games they created are aborted and the other open games left; then their
/// personal data is deleted (address, password, settings, webhooks, every token, chat
/// lines, invitations, standing orders and plans) and their seats in games keep an
/// anonymous name (`deleted-user-…`), so that the games stay complete. This cannot be
/// undone.
#[utoipa::path(
    operation_id = "delete_me",
    tag = "users",
    request_body = DeleteAccountRequest,
    security(("bearer" = ["session"])),
    responses(
        (status = 204, description = "The account is deleted: its personal data is gone, its seats in games carry an anonymous name, its running games were resigned, its open games left (or, when it created them, aborted); its tokens no longer work"),
    )
)]
#[delete("/users/me")]
pub async fn delete_me(
    st: web::Data<AppState>,
    me: CurrentUser,
    addr: ClientAddr,
    body: ApiJson<DeleteAccountRequest>,
) -> Result<HttpResponse, ApiError> {
    let u = me_row(&st, &me).await?;
    check_password(&st, &u, &addr.0, body.0.password).await?;
    let mine = st.store.export_of(u.id.clone()).await?;
    for g in mine.games {
        match g.game.status {
            GameStatus::Finished => {}
            GameStatus::Open if g.game.creator_id == u.id => {
                match st
                    .store
                    .abort_game(g.game.id.clone(), st.clock.now_ms())
                    .await
                {
                    Ok(()) | Err(StoreError::NotFound) => {}
                    // it started meanwhile: resign below on the next pass
                    Err(StoreError::Conflict(_)) => resign(&st, &u.id, &g.game.id).await?,
                    Err(e) => return Err(e.into()),
                }
            }
            GameStatus::Open => {
                match st
                    .store
                    .leave_open_game(g.game.id.clone(), u.id.clone(), st.clock.now_ms())
                    .await
                {
                    Ok(()) | Err(StoreError::NotFound) => {}
                    Err(StoreError::Conflict(crate::store::Conflict::GameAlreadyStarted)) => {
                        resign(&st, &u.id, &g.game.id).await?
                    }
                    Err(StoreError::Conflict(_)) => {}
                    Err(e) => return Err(e.into()),
                }
            }
            GameStatus::Active => resign(&st, &u.id, &g.game.id).await?,
        }
    }
    let anonymous = format!(
        "{DELETED_PREFIX}{}",
        &uuid::Uuid::new_v4().simple().to_string()[..8]
    );
    st.store
        .delete_account(u.id.clone(), anonymous, st.clock.now_ms())
        .await?;
    // the store deleted every token of the user; this process forgets them at once
    st.grants.forget_user(&u.id);
    st.notifier.wake();
    Ok(HttpResponse::NoContent().finish())
}

/// Resigns `user_id` from a running game through the decision service, so that the other
/// players play on at once (a game without a clock would otherwise wait for a deleted
/// player forever). A game already over, or already left, needs nothing.
async fn resign(st: &AppState, user_id: &str, game_id: &str) -> Result<(), ApiError> {
    for _ in 0..5 {
        let req = Request {
            game_id: game_id.to_string(),
            decision: Decision::Resign {
                user_id: user_id.to_string(),
            },
            expected_version: None,
            idempotency: None,
            now: st.clock.now_ms(),
        };
        match st.decisions().record(req, |_| Ok(String::new())).await {
            Ok(_)
            | Err(DecisionError::GameOver)
            | Err(DecisionError::NotInGame)
            | Err(DecisionError::NotRunning)
            | Err(DecisionError::GameNotFound) => return Ok(()),
            Err(DecisionError::Stale(_)) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::stale(None))
}

/// Download everything the server keeps about the caller.
///
/// One JSON document with the caller's profile and settings, webhook endpoints (without
/// their secrets), games with their seats, and the chat lines they wrote; it is not
/// cached (`Cache-Control: no-store`). Exports are limited per account
/// (`TILEPOST_EXPORTS_PER_HOUR`).
#[utoipa::path(
    operation_id = "export_me",
    tag = "users",
    security(("bearer" = ["session"])),
    responses(
        (status = 200, description = "The caller's data: profile, settings, webhooks (without secrets), games with their seats, chat lines written; `Cache-Control: no-store`", body = AccountExportView),
    )
)]
#[get("/users/me/export")]
pub async fn export_me(st: web::Data<AppState>, me: CurrentUser) -> Result<HttpResponse, ApiError> {
    let quota = limits::reserve(
        &st,
        limits::per_user(&st, limits::UserQuota::Exports, &me.id),
    )
    .await?
    .keep();
    let u = me_row(&st, &me).await?;
    let data = st.store.export_of(u.id.clone()).await?;
    let prefs = st
        .store
        .email_prefs(
            u.id.clone(),
            notify::EVENT_TYPES.iter().map(|s| s.to_string()).collect(),
        )
        .await?;
    let webhooks = st
        .store
        .endpoints_of(u.id.clone())
        .await?
        .iter()
        .map(|e| super::webhooks::view(e, false))
        .collect::<Result<Vec<_>, _>>()?;
    let view = AccountExportView {
        exported_at: rfc3339(st.clock.now_ms()),
        profile: ExportProfile {
            id: u.id.clone(),
            username: u.username.clone(),
            email: u.email.clone(),
            email_verified: u.email_verified_at.is_some(),
            locale: u.locale.clone(),
            time_zone: u.time_zone.clone(),
            created_at: rfc3339(u.created_at),
        },
        notifications: NotificationPrefs {
            turn: u.notify_turn != 0,
            finished: u.notify_finished != 0,
        },
        email_settings: prefs.into_iter().collect(),
        webhooks,
        games: data
            .games
            .into_iter()
            .map(|g| ExportGame {
                seats: g
                    .seats
                    .iter()
                    .map(|s| ExportSeat {
                        seat: s.seat,
                        username: s.username.clone(),
                        me: s.user_id == u.id,
                        joined_at: rfc3339(s.joined_at),
                    })
                    .collect(),
                id: g.game.id,
                status: g.game.status,
                expansions: g.game.expansions,
                created_at: rfc3339(g.game.created_at),
                updated_at: rfc3339(g.game.updated_at),
            })
            .collect(),
        chat: data
            .chat
            .into_iter()
            .map(|c| ExportChatLine {
                game_id: c.game_id,
                text: c.body,
                after_seq: c.after_seq,
                at: rfc3339(c.created_at),
            })
            .collect(),
    };
    let mut resp = HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .insert_header((
            "Content-Disposition",
            "attachment; filename=\"tilepost-export.json\"",
        ))
        .json(view);
    quota.apply(&mut resp);
    Ok(resp)
}

crate::api::problem::problems! {
    "resend_verification" {
        409 => ("The address is already confirmed (" [AlreadyVerified] ")"),
        429 => ("Too many account emails for this account or from this address (" [RateLimited] "); `Retry-After` says when to retry"),
    }
    "verify_email" {
        400 => ("The link is unknown, used, expired, or for an address the account no longer has (" [InvalidLink] ")"),
        429 => ("Too many invalid links from this address (" [RateLimited] "); `Retry-After` says when to retry"),
    }
    "request_password_reset" {
        429 => ("Too many reset requests for this address or from this client (" [RateLimited] "); `Retry-After` says when to retry"),
    }
    "reset_password" {
        400 => ("Invalid fields (" [ValidationFailed] "), or the link is unknown, used or expired (" [InvalidLink] ")"),
        429 => ("Too many invalid links from this address (" [RateLimited] "); `Retry-After` says when to retry"),
    }
    "change_password" {
        400 => ("Invalid fields (" [ValidationFailed] ")"),
        403 => ("The current password is wrong (" [WrongPassword] ")"),
        429 => ("Too many wrong passwords for this account or from this address (" [RateLimited] "); `Retry-After` says when to retry"),
    }
    "change_email" {
        400 => ("Invalid fields (" [ValidationFailed] ")"),
        403 => ("The password is wrong (" [WrongPassword] ")"),
        429 => ("Too many wrong passwords or account emails (" [RateLimited] "); `Retry-After` says when to retry"),
    }
    "delete_me" {
        400 => ("Invalid fields (" [ValidationFailed] ")"),
        403 => ("The password is wrong (" [WrongPassword] ")"),
        429 => ("Too many wrong passwords for this account or from this address (" [RateLimited] "); `Retry-After` says when to retry"),
    }
    "export_me" {
        429 => ("Too many exports (" [RateLimited] "); `Retry-After` says when to retry"),
    }
}
