//! Abuse limits on logins and sign-ups, counted in the database (so they hold across
//! server processes): failed logins per account (the username in lower case, whether or
//! not it exists, so the answer says nothing about accounts) and per client address
//! within a sliding window, then `429` with `Retry-After` until the oldest counted
//! failure leaves the window; a successful login clears its account's failures.
//! Sign-ups are counted per client address.
//!
//! Per-user write quotas answer with `RateLimit-*` headers: games, chat, invitations,
//! personal access tokens and webhook endpoints are counted in the database (they hold
//! across processes); moves are counted in each process ([`MoveLimiter`]): a move is the
//! hot write and must not pay a database round trip for its count.

use super::error::ApiError;
use super::AppState;

const LOGIN_ACCOUNT: &str = "login-account";
const LOGIN_ADDRESS: &str = "login-address";
const SIGNUP_ADDRESS: &str = "signup-address";

/// The account a login names: its username in lower case (at most 64 characters, the
/// longest a username can be).
fn account_key(username: &str) -> String {
    username.to_lowercase().chars().take(64).collect()
}

/// The longest window: older attempts are forgotten.
fn horizon_ms(st: &AppState) -> i64 {
    st.config
        .login_window_secs
        .max(st.config.signup_window_secs)
        .max(DAY_SECS)
        .saturating_mul(1000)
}

const DAY_SECS: i64 = 86_400;
const INVITE_GAME: &str = "invite-game";
const INVITE_USER: &str = "invite-user";
const PERSONAL_TOKEN: &str = "personal-token";
const WEBHOOK_ENDPOINT: &str = "webhook-endpoint";
const ACCOUNT_MAIL_ADDRESS: &str = "account-mail-address";
const ACCOUNT_MAIL_TARGET: &str = "account-mail-target";
const LINK_ADDRESS: &str = "link-address";
const EXPORT_USER: &str = "export-user";
const HOUR_SECS: i64 = 3600;

/// `429` when `subject` has `limit` attempts of `kind` within `window_secs`.
async fn check(
    st: &AppState,
    kind: &'static str,
    subject: &str,
    limit: i64,
    window_secs: i64,
    what: &str,
) -> Result<(), ApiError> {
    let now = st.clock.now_ms();
    let window = window_secs.saturating_mul(1000);
    // the attempts counted are bounded: none is recorded while the limit holds (apart
    // from requests racing each other)
    let times = st
        .store
        .recent_limit_attempts(
            kind,
            subject.to_string(),
            now - window,
            limit.saturating_mul(4),
        )
        .await?;
    let n = times.len() as i64;
    if n < limit {
        return Ok(());
    }
    // the count drops below the limit when the (n - limit + 1)-th oldest leaves
    let free_at = times[(n - limit) as usize] + window;
    let secs = (free_at - now + 999) / 1000;
    Err(ApiError::rate_limited(
        format!("too many {what}; try again in {secs} s"),
        secs,
    ))
}

/// Refuses a login attempt for `username` from `addr` while either limit holds.
pub async fn check_login(st: &AppState, username: &str, addr: &str) -> Result<(), ApiError> {
    let c = &st.config;
    check(
        st,
        LOGIN_ACCOUNT,
        &account_key(username),
        c.login_failures_per_account,
        c.login_window_secs,
        "failed logins for this account",
    )
    .await?;
    check(
        st,
        LOGIN_ADDRESS,
        addr,
        c.login_failures_per_address,
        c.login_window_secs,
        "failed logins from this address",
    )
    .await
}

/// Counts a failed login.
pub async fn login_failed(st: &AppState, username: &str, addr: &str) -> Result<(), ApiError> {
    let now = st.clock.now_ms();
    st.store
        .record_limit_attempts(
            vec![
                (LOGIN_ACCOUNT, account_key(username)),
                (LOGIN_ADDRESS, addr.to_string()),
            ],
            now,
            now - horizon_ms(st),
        )
        .await?;
    Ok(())
}

/// A successful login clears its account's failures.
pub async fn login_succeeded(st: &AppState, username: &str) -> Result<(), ApiError> {
    st.store
        .clear_limit_attempts(LOGIN_ACCOUNT, account_key(username))
        .await?;
    Ok(())
}

/// Refuses a sign-up from `addr` while its limit holds.
pub async fn check_signup(st: &AppState, addr: &str) -> Result<(), ApiError> {
    check(
        st,
        SIGNUP_ADDRESS,
        addr,
        st.config.signups_per_address,
        st.config.signup_window_secs,
        "sign-ups from this address",
    )
    .await
}

/// Counts a sign-up.
pub async fn signed_up(st: &AppState, addr: &str) -> Result<(), ApiError> {
    let now = st.clock.now_ms();
    st.store
        .record_limit_attempts(
            vec![(SIGNUP_ADDRESS, addr.to_string())],
            now,
            now - horizon_ms(st),
        )
        .await?;
    Ok(())
}

/// A per-user write quota (counted from the rows the user wrote, so it holds across
/// server processes), reported in the IETF draft's `RateLimit-Limit`,
/// `RateLimit-Remaining` and `RateLimit-Reset` headers.
#[derive(Clone, Copy, Debug)]
pub struct Quota {
    pub limit: i64,
    /// What is left after this write.
    pub remaining: i64,
    /// Seconds until the oldest counted write leaves the window.
    pub reset: i64,
}

impl Quota {
    /// The quota for one more write after `written` within `window_secs`; `429` when
    /// none is left.
    pub fn take(
        st: &AppState,
        written: crate::store::Written,
        limit: i64,
        window_secs: i64,
        what: &str,
    ) -> Result<Quota, ApiError> {
        let now = st.clock.now_ms();
        let reset = match written.oldest {
            Some(t) => ((t + window_secs.saturating_mul(1000) - now + 999) / 1000).max(1),
            None => window_secs,
        };
        let q = Quota {
            limit,
            remaining: (limit - written.count - 1).max(0),
            reset,
        };
        if written.count >= limit {
            let mut e = ApiError::rate_limited(
                format!("at most {limit} {what}; try again in {reset} s"),
                reset,
            );
            e.headers.extend(Quota { remaining: 0, ..q }.headers());
            return Err(e);
        }
        Ok(q)
    }

    pub fn headers(&self) -> [(&'static str, String); 3] {
        [
            ("ratelimit-limit", self.limit.to_string()),
            ("ratelimit-remaining", self.remaining.to_string()),
            ("ratelimit-reset", self.reset.to_string()),
        ]
    }

    /// Adds the headers to an answer.
    pub fn apply(&self, resp: &mut actix_web::HttpResponse) {
        for (name, value) in self.headers() {
            if let Ok(v) = actix_web::http::header::HeaderValue::from_str(&value) {
                resp.headers_mut()
                    .insert(actix_web::http::header::HeaderName::from_static(name), v);
            }
        }
    }
}

/// One more game created by `user_id` (`TILEPOST_GAMES_PER_HOUR`).
pub async fn game_quota(st: &AppState, user_id: &str) -> Result<Quota, ApiError> {
    let window = 3600;
    let since = st.clock.now_ms() - window * 1000;
    let written = st
        .store
        .games_created_since(user_id.to_string(), since)
        .await?;
    Quota::take(
        st,
        written,
        st.config.games_per_hour,
        window,
        "games an hour",
    )
}

/// One more chat message by `user_id` (`TILEPOST_CHAT_PER_MINUTE`, over all games).
pub async fn chat_quota(st: &AppState, user_id: &str) -> Result<Quota, ApiError> {
    let window = 60;
    let since = st.clock.now_ms() - window * 1000;
    let written = st
        .store
        .chat_written_since(user_id.to_string(), since)
        .await?;
    Quota::take(
        st,
        written,
        st.config.chat_per_minute,
        window,
        "chat messages a minute",
    )
}

/// A quota counted in the attempts table (for writes that leave no row of their own to
/// count, like the emails of invitations).
async fn counted_quota(
    st: &AppState,
    kind: &'static str,
    subject: &str,
    limit: i64,
    window_secs: i64,
    what: &str,
) -> Result<Quota, ApiError> {
    let now = st.clock.now_ms();
    let times = st
        .store
        .recent_limit_attempts(
            kind,
            subject.to_string(),
            now - window_secs.saturating_mul(1000),
            limit,
        )
        .await?;
    let written = crate::store::Written {
        count: times.len() as i64,
        oldest: times.first().copied(),
    };
    Quota::take(st, written, limit, window_secs, what)
}

/// One more invitation to game `game_id` by `user_id` (`TILEPOST_INVITATIONS_PER_GAME`
/// and `TILEPOST_INVITATIONS_PER_DAY`, both per day); the stricter quota is reported.
pub async fn invitation_quota(
    st: &AppState,
    game_id: &str,
    user_id: &str,
) -> Result<Quota, ApiError> {
    let per_game = counted_quota(
        st,
        INVITE_GAME,
        game_id,
        st.config.invitations_per_game,
        DAY_SECS,
        "invitations to this game a day",
    )
    .await?;
    let per_user = counted_quota(
        st,
        INVITE_USER,
        user_id,
        st.config.invitations_per_day,
        DAY_SECS,
        "invitations a day",
    )
    .await?;
    Ok(if per_game.remaining <= per_user.remaining {
        per_game
    } else {
        per_user
    })
}

/// Counts an invitation sent.
pub async fn invited(st: &AppState, game_id: &str, user_id: &str) -> Result<(), ApiError> {
    let now = st.clock.now_ms();
    st.store
        .record_limit_attempts(
            vec![
                (INVITE_GAME, game_id.to_string()),
                (INVITE_USER, user_id.to_string()),
            ],
            now,
            now - horizon_ms(st),
        )
        .await?;
    Ok(())
}

/// One more personal access token created by `user_id`
/// (`TILEPOST_PERSONAL_TOKENS_PER_DAY`; counted in the database, since revoked tokens
/// leave no row to count).
pub async fn personal_token_quota(st: &AppState, user_id: &str) -> Result<Quota, ApiError> {
    counted_quota(
        st,
        PERSONAL_TOKEN,
        user_id,
        st.config.personal_tokens_per_day,
        DAY_SECS,
        "personal access tokens a day",
    )
    .await
}

/// Counts a personal access token created.
pub async fn personal_token_created(st: &AppState, user_id: &str) -> Result<(), ApiError> {
    let now = st.clock.now_ms();
    st.store
        .record_limit_attempts(
            vec![(PERSONAL_TOKEN, user_id.to_string())],
            now,
            now - horizon_ms(st),
        )
        .await?;
    Ok(())
}

/// One more webhook endpoint created by `user_id` (`TILEPOST_WEBHOOKS_PER_DAY`; counted
/// in the database: deleted endpoints leave no row to count, and each creation resolves
/// the URL's host).
pub async fn webhook_quota(st: &AppState, user_id: &str) -> Result<Quota, ApiError> {
    counted_quota(
        st,
        WEBHOOK_ENDPOINT,
        user_id,
        st.config.webhooks_per_day,
        DAY_SECS,
        "webhook endpoints created a day",
    )
    .await
}

/// Counts a webhook endpoint created.
pub async fn webhook_created(st: &AppState, user_id: &str) -> Result<(), ApiError> {
    let now = st.clock.now_ms();
    st.store
        .record_limit_attempts(
            vec![(WEBHOOK_ENDPOINT, user_id.to_string())],
            now,
            now - horizon_ms(st),
        )
        .await?;
    Ok(())
}

/// The server's injected clock as a `governor` clock (so tests move it by hand).
#[derive(Clone)]
pub struct GovernorClock(pub std::sync::Arc<dyn crate::clock::Clock>);

impl governor::clock::Clock for GovernorClock {
    type Instant = std::time::Duration;

    fn now(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.0.now_ms().max(0) as u64)
    }
}

type Keyed = governor::RateLimiter<
    String,
    governor::state::keyed::HashMapStateStore<String>,
    GovernorClock,
    governor::middleware::StateInformationMiddleware,
>;

/// Moves per user and minute (`TILEPOST_MOVES_PER_MINUTE`, also the burst), counted in
/// memory with `governor`'s GCRA: no database round trip on the hot write. Each server
/// process counts its own moves, so behind N processes a user may make up to N times the
/// limit; the limit bounds abuse, it is no quota anyone pays for.
pub struct MoveLimiter {
    limiter: Keyed,
    clock: GovernorClock,
    limit: u32,
    checks: std::sync::atomic::AtomicU64,
}

impl MoveLimiter {
    pub fn new(per_minute: i64, clock: std::sync::Arc<dyn crate::clock::Clock>) -> MoveLimiter {
        let limit = u32::try_from(per_minute.max(1)).unwrap_or(u32::MAX);
        let burst = std::num::NonZeroU32::new(limit).unwrap_or(std::num::NonZeroU32::MIN);
        let clock = GovernorClock(clock);
        MoveLimiter {
            limiter: governor::RateLimiter::hashmap_with_clock(
                governor::Quota::per_minute(burst),
                clock.clone(),
            )
            .with_middleware::<governor::middleware::StateInformationMiddleware>(),
            clock,
            limit,
            checks: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// Takes one move of `user_id`; `429` with `Retry-After` when none is left.
    pub fn take(&self, user_id: &str) -> Result<Quota, ApiError> {
        use governor::clock::Clock as _;
        // users who stopped moving are forgotten now and then (their state is full again)
        let n = self
            .checks
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if n % 4096 == 4095 {
            self.limiter.retain_recent();
            self.limiter.shrink_to_fit();
        }
        // one move replenishes every 60/limit seconds
        let per_move_ms = 60_000 / i64::from(self.limit.max(1));
        match self.limiter.check_key(&user_id.to_string()) {
            Ok(snapshot) => {
                let remaining = i64::from(snapshot.remaining_burst_capacity());
                let used = i64::from(self.limit) - remaining;
                Ok(Quota {
                    limit: i64::from(self.limit),
                    remaining,
                    reset: ((used * per_move_ms + 999) / 1000).max(1),
                })
            }
            Err(not_until) => {
                let wait = not_until.wait_time_from(self.clock.now());
                let secs = (wait.as_millis() as i64 + 999) / 1000;
                let mut e = ApiError::rate_limited(
                    format!(
                        "at most {} moves a minute; try again in {} s",
                        self.limit,
                        secs.max(1)
                    ),
                    secs,
                );
                let full = Quota {
                    limit: i64::from(self.limit),
                    remaining: 0,
                    reset: ((i64::from(self.limit) * per_move_ms + 999) / 1000).max(1),
                };
                e.headers.extend(full.headers());
                Err(e)
            }
        }
    }
}

/// Refuses an account email (a reset link, a new confirmation link) while the limit of
/// its client address or of its target (an account id, or the address a reset names,
/// in lower case, whether an account has it or not) holds
/// (`TILEPOST_ACCOUNT_EMAILS_PER_ADDRESS`, `TILEPOST_ACCOUNT_EMAILS_PER_TARGET`, per
/// hour).
pub async fn check_account_mail(st: &AppState, addr: &str, target: &str) -> Result<(), ApiError> {
    check(
        st,
        ACCOUNT_MAIL_TARGET,
        &target.chars().take(254).collect::<String>(),
        st.config.account_emails_per_target,
        HOUR_SECS,
        "account emails for this account or address",
    )
    .await?;
    check(
        st,
        ACCOUNT_MAIL_ADDRESS,
        addr,
        st.config.account_emails_per_address,
        HOUR_SECS,
        "account emails from this address",
    )
    .await
}

/// Counts an account email asked for.
pub async fn account_mail_sent(st: &AppState, addr: &str, target: &str) -> Result<(), ApiError> {
    let now = st.clock.now_ms();
    st.store
        .record_limit_attempts(
            vec![
                (
                    ACCOUNT_MAIL_TARGET,
                    target.chars().take(254).collect::<String>(),
                ),
                (ACCOUNT_MAIL_ADDRESS, addr.to_string()),
            ],
            now,
            now - horizon_ms(st),
        )
        .await?;
    Ok(())
}

/// Refuses an emailed link's token from `addr` while it has too many invalid ones
/// (`TILEPOST_LOGIN_FAILURES_PER_ADDRESS` within the login window, like failed logins).
pub async fn check_links(st: &AppState, addr: &str) -> Result<(), ApiError> {
    check(
        st,
        LINK_ADDRESS,
        addr,
        st.config.login_failures_per_address,
        st.config.login_window_secs,
        "invalid links from this address",
    )
    .await
}

/// Counts an invalid link token.
pub async fn link_failed(st: &AppState, addr: &str) -> Result<(), ApiError> {
    let now = st.clock.now_ms();
    st.store
        .record_limit_attempts(
            vec![(LINK_ADDRESS, addr.to_string())],
            now,
            now - horizon_ms(st),
        )
        .await?;
    Ok(())
}

/// One more export of `user_id`'s data (`TILEPOST_EXPORTS_PER_HOUR`), counted.
pub async fn export_quota(st: &AppState, user_id: &str) -> Result<Quota, ApiError> {
    let q = counted_quota(
        st,
        EXPORT_USER,
        user_id,
        st.config.exports_per_hour,
        HOUR_SECS,
        "exports an hour",
    )
    .await?;
    let now = st.clock.now_ms();
    st.store
        .record_limit_attempts(
            vec![(EXPORT_USER, user_id.to_string())],
            now,
            now - horizon_ms(st),
        )
        .await?;
    Ok(q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;

    #[test]
    fn moves_are_limited_per_user_and_replenish_with_the_clock() {
        let clock = std::sync::Arc::new(ManualClock::new(1_000_000));
        let l = MoveLimiter::new(3, clock.clone());
        let q: Vec<i64> = (0..3)
            .map(|_| l.take("ann").expect("within the limit").remaining)
            .collect();
        assert_eq!(q, [2, 1, 0]);
        let e = l.take("ann").expect_err("over the limit");
        assert_eq!(e.code, crate::api::error::ProblemCode::RateLimited);
        assert!(e
            .headers
            .iter()
            .any(|(k, v)| *k == "retry-after" && v == "20"));
        // another user has a limit of their own
        assert!(l.take("bob").is_ok());
        // one move comes back every 20 s
        clock.advance_ms(20_000);
        assert_eq!(l.take("ann").map(|q| q.remaining).ok(), Some(0));
        assert!(l.take("ann").is_err());
    }
}
