//! Abuse limits and per-user write quotas, counted in the database so that they hold
//! across server processes, through one mechanism: a limited action first reserves its
//! place ([`reserve`]: the check and the count are one transaction under the key's lock,
//! see [`crate::store::Store::reserve_limits`]), then does its work, and keeps or hands
//! back the place by the outcome. So N requests that arrive together are judged exactly
//! like N arriving one by one, and refused ones cost nothing (no password hash, no
//! write).
//!
//! - Failed logins per account (the username in lower case, whether or not it exists, so
//!   the answer says nothing about accounts) and per client address: a login reserves a
//!   place under both before its password hash; a wrong password keeps them (a counted
//!   failure), a right one hands them back and clears the account's failures. At most
//!   the limit's number of hashes is computed per account or address and window,
//!   whatever the concurrency. The current-password checks count the same way.
//! - Sign-ups per client address; account emails per target and per client address;
//!   invalid emailed links per client address.
//! - Per-user write quotas (games, chat, invitations, personal access tokens, webhook
//!   endpoints, exports), answered with the IETF draft's `RateLimit-*` headers.
//!
//! Moves are counted in each process ([`MoveLimiter`]): a move is the hot write and must
//! not pay a database round trip for its count.

use std::future::Future;

use super::error::ApiError;
use super::AppState;
use crate::store::{LimitKey, Reserved, Written};

const LOGIN_ACCOUNT: &str = "login-account";
const LOGIN_ADDRESS: &str = "login-address";
const SIGNUP_ADDRESS: &str = "signup-address";
const INVITE_GAME: &str = "invite-game";
const INVITE_USER: &str = "invite-user";
const PERSONAL_TOKEN: &str = "personal-token";
const WEBHOOK_ENDPOINT: &str = "webhook-endpoint";
const PUSH_SUBSCRIPTION: &str = "push-subscription";
const ACCOUNT_MAIL_ADDRESS: &str = "account-mail-address";
const ACCOUNT_MAIL_TARGET: &str = "account-mail-target";
const LINK_ADDRESS: &str = "link-address";
const EXPORT_USER: &str = "export-user";
const CALENDAR_USER: &str = "calendar-user";
const GAME_USER: &str = "game-user";
const CHAT_USER: &str = "chat-user";
const TOURNAMENT_USER: &str = "tournament-user";
const TOURNAMENT_ENTRY_USER: &str = "tournament-entry-user";
const MINUTE_SECS: i64 = 60;
const HOUR_SECS: i64 = 3600;
const DAY_SECS: i64 = 86_400;

/// The account a login names: its username in lower case (at most 64 characters, the
/// longest a username can be).
fn account_key(username: &str) -> String {
    username.to_lowercase().chars().take(64).collect()
}

/// One limit: at most `limit` attempts of `kind` by `subject` within `window_secs`.
#[derive(Clone, Debug)]
pub struct Limit {
    kind: &'static str,
    subject: String,
    limit: i64,
    window_secs: i64,
    /// What is counted, for the refusal: "failed logins for this account".
    what: &'static str,
    /// A write quota: its answers carry `RateLimit-*` headers.
    quota: bool,
}

impl Limit {
    fn abuse(
        kind: &'static str,
        subject: impl Into<String>,
        limit: i64,
        window_secs: i64,
        what: &'static str,
    ) -> Limit {
        Limit {
            kind,
            subject: subject.into(),
            limit,
            window_secs,
            what,
            quota: false,
        }
    }

    fn quota(
        kind: &'static str,
        subject: impl Into<String>,
        limit: i64,
        window_secs: i64,
        what: &'static str,
    ) -> Limit {
        Limit {
            quota: true,
            ..Limit::abuse(kind, subject, limit, window_secs, what)
        }
    }
}

/// Places taken under one or more limits (see [`reserve`]). Dropping it keeps them;
/// [`Reservation::release`] hands them back.
#[must_use = "a reservation is kept or released by the outcome of the work it guards"]
#[derive(Debug)]
pub struct Reservation {
    ids: Vec<String>,
    /// The strictest quota among the limits (what is left after this attempt).
    pub quota: Quota,
}

impl Reservation {
    /// Hands the places back: the attempt did not happen, or does not count. (When the
    /// database fails here, the places stay taken until their window passes: the
    /// limit errs on the strict side.)
    pub async fn release(self, st: &AppState) {
        if let Err(e) = st.store.release_limits(self.ids).await {
            tracing::warn!(cause = %e, "a limit's places were not handed back");
        }
    }

    /// Keeps the places (the attempt counts).
    pub fn keep(self) -> Quota {
        self.quota
    }
}

/// Takes a place under every limit at once, or none: `429 rate-limited` with
/// `Retry-After` (and `RateLimit-*` for a quota) when any is full.
pub async fn reserve(st: &AppState, limits: Vec<Limit>) -> Result<Reservation, ApiError> {
    let now = st.clock.now_ms();
    let keys = limits
        .iter()
        .map(|l| LimitKey {
            kind: l.kind,
            subject: l.subject.clone(),
            limit: l.limit,
            window_ms: l.window_secs.saturating_mul(1000),
        })
        .collect();
    let reserved = st.store.reserve_limits(keys, now).await?;
    // now and then, the attempts of keys no request touched since their window passed
    if rand::random::<u8>() < 8 {
        if let Err(e) = st.store.forget_limit_attempts(now - horizon_ms(st)).await {
            tracing::warn!(cause = %e, "forgetting old limit attempts failed");
        }
    }
    match reserved {
        Reserved::Taken { ids, before } => {
            let quota = limits
                .iter()
                .zip(before)
                .map(|(l, w)| Quota::after(now, w, l.limit, l.window_secs))
                .min_by_key(|q| q.remaining)
                .unwrap_or(Quota {
                    limit: 0,
                    remaining: 0,
                    reset: 0,
                });
            Ok(Reservation { ids, quota })
        }
        Reserved::Refused { key, free_at } => {
            let secs = ((free_at - now + 999) / 1000).max(1);
            let Some(l) = limits.get(key) else {
                return Err(ApiError::rate_limited("too many attempts", secs));
            };
            let mut e = if l.quota {
                ApiError::rate_limited(
                    format!("at most {} {}; try again in {secs} s", l.limit, l.what),
                    secs,
                )
            } else {
                ApiError::rate_limited(format!("too many {}; try again in {secs} s", l.what), secs)
            };
            if l.quota {
                let full = Quota {
                    limit: l.limit,
                    remaining: 0,
                    reset: secs,
                };
                e.headers.extend(full.headers());
            }
            Err(e)
        }
    }
}

/// Runs `work` under a reservation of `limits`: the places are kept when it succeeds and
/// handed back when it fails. Returns its result with the quota left.
pub async fn guarded<T, F>(
    st: &AppState,
    limits: Vec<Limit>,
    work: F,
) -> Result<(T, Quota), ApiError>
where
    F: Future<Output = Result<T, ApiError>>,
{
    let r = reserve(st, limits).await?;
    match work.await {
        Ok(v) => Ok((v, r.keep())),
        Err(e) => {
            r.release(st).await;
            Err(e)
        }
    }
}

/// The longest window: older attempts are forgotten.
fn horizon_ms(st: &AppState) -> i64 {
    st.config
        .login_window_secs
        .max(st.config.signup_window_secs)
        .max(DAY_SECS)
        .saturating_mul(1000)
}

/// Verifies a password for a login (or a current-password check) of `username` from
/// `addr` against `stored` (`None`: no such account; the same work is done), counted
/// under the account's and the address's failure limits: a place is taken under both
/// before the hash (`429` without a hash when either is full), kept when the password is
/// wrong (a counted failure) and handed back when it is right, which also clears the
/// account's failures. At most the limit's number of hashes is computed per account and
/// per address within the window, however many requests arrive together.
pub async fn verify_password(
    st: &AppState,
    username: &str,
    addr: &str,
    password: String,
    stored: Option<String>,
) -> Result<bool, ApiError> {
    let c = &st.config;
    let attempt = reserve(
        st,
        vec![
            Limit::abuse(
                LOGIN_ACCOUNT,
                account_key(username),
                c.login_failures_per_account,
                c.login_window_secs,
                "failed logins for this account",
            ),
            Limit::abuse(
                LOGIN_ADDRESS,
                addr,
                c.login_failures_per_address,
                c.login_window_secs,
                "failed logins from this address",
            ),
        ],
    )
    .await?;
    match st.auth.verify_password(password, stored).await {
        Ok(false) => {
            let _ = attempt.keep();
            Ok(false)
        }
        Ok(true) => {
            attempt.release(st).await;
            st.store
                .clear_limit_attempts(LOGIN_ACCOUNT, account_key(username))
                .await?;
            Ok(true)
        }
        Err(e) => {
            attempt.release(st).await;
            Err(ApiError::internal(e))
        }
    }
}

/// A sign-up from `addr` (`TILEPOST_SIGNUPS_PER_ADDRESS` per
/// `TILEPOST_SIGNUP_WINDOW_SECS`).
pub fn signup(st: &AppState, addr: &str) -> Vec<Limit> {
    vec![Limit::abuse(
        SIGNUP_ADDRESS,
        addr,
        st.config.signups_per_address,
        st.config.signup_window_secs,
        "sign-ups from this address",
    )]
}

/// An account email (a reset link, a new confirmation link) for `target` (an account
/// id, or the address a reset names, in lower case, whether an account has it or not)
/// from client `addr` (`TILEPOST_ACCOUNT_EMAILS_PER_TARGET`,
/// `TILEPOST_ACCOUNT_EMAILS_PER_ADDRESS`, per hour). Kept once taken.
pub async fn account_mail(st: &AppState, addr: &str, target: &str) -> Result<(), ApiError> {
    reserve(
        st,
        vec![
            Limit::abuse(
                ACCOUNT_MAIL_TARGET,
                target.chars().take(254).collect::<String>(),
                st.config.account_emails_per_target,
                HOUR_SECS,
                "account emails for this account or address",
            ),
            Limit::abuse(
                ACCOUNT_MAIL_ADDRESS,
                addr,
                st.config.account_emails_per_address,
                HOUR_SECS,
                "account emails from this address",
            ),
        ],
    )
    .await?
    .keep();
    Ok(())
}

/// An emailed link's token tried from `addr`: invalid ones count like failed logins
/// (`TILEPOST_LOGIN_FAILURES_PER_ADDRESS` within the login window). Keep the place when
/// the link is invalid, release it when it works.
pub async fn link_attempt(st: &AppState, addr: &str) -> Result<Reservation, ApiError> {
    reserve(
        st,
        vec![Limit::abuse(
            LINK_ADDRESS,
            addr,
            st.config.login_failures_per_address,
            st.config.login_window_secs,
            "invalid links from this address",
        )],
    )
    .await
}

/// A user's write quota: what is counted, in which window, under which setting.
#[derive(Clone, Copy, Debug)]
pub enum UserQuota {
    /// Games created (`TILEPOST_GAMES_PER_HOUR`).
    Games,
    /// Tournaments created (`TILEPOST_TOURNAMENTS_PER_DAY`).
    Tournaments,
    /// Tournament registrations and withdrawals, and the organiser's entries, invitations,
    /// pauses and resumptions (`TILEPOST_TOURNAMENT_ENTRIES_PER_HOUR`).
    TournamentEntries,
    /// Chat messages, over all games (`TILEPOST_CHAT_PER_MINUTE`).
    Chat,
    /// Personal access tokens created, revoked ones still counted
    /// (`TILEPOST_PERSONAL_TOKENS_PER_DAY`).
    PersonalTokens,
    /// Webhook endpoints created, deleted ones still counted (each creation resolves the
    /// URL's host; `TILEPOST_WEBHOOKS_PER_DAY`).
    Webhooks,
    /// New deadline calendar addresses (`TILEPOST_CALENDARS_PER_DAY`).
    Calendars,
    /// Push subscriptions created, deleted ones still counted
    /// (`TILEPOST_PUSH_SUBSCRIPTIONS_PER_DAY`).
    PushSubscriptions,
    /// Exports of the user's data (`TILEPOST_EXPORTS_PER_HOUR`).
    Exports,
}

/// `user_id`'s quota of this kind, as configured.
pub fn per_user(st: &AppState, quota: UserQuota, user_id: &str) -> Vec<Limit> {
    let c = &st.config;
    let (kind, limit, window, what) = match quota {
        UserQuota::Games => (GAME_USER, c.games_per_hour, HOUR_SECS, "games an hour"),
        UserQuota::Tournaments => (
            TOURNAMENT_USER,
            c.tournaments_per_day,
            DAY_SECS,
            "tournaments a day",
        ),
        UserQuota::TournamentEntries => (
            TOURNAMENT_ENTRY_USER,
            c.tournament_entries_per_hour,
            HOUR_SECS,
            "tournament entries and organiser decisions an hour",
        ),
        UserQuota::Chat => (
            CHAT_USER,
            c.chat_per_minute,
            MINUTE_SECS,
            "chat messages a minute",
        ),
        UserQuota::PersonalTokens => (
            PERSONAL_TOKEN,
            c.personal_tokens_per_day,
            DAY_SECS,
            "personal access tokens a day",
        ),
        UserQuota::Webhooks => (
            WEBHOOK_ENDPOINT,
            c.webhooks_per_day,
            DAY_SECS,
            "webhook endpoints created a day",
        ),
        UserQuota::Calendars => (
            CALENDAR_USER,
            c.calendars_per_day,
            DAY_SECS,
            "calendar addresses a day",
        ),
        UserQuota::PushSubscriptions => (
            PUSH_SUBSCRIPTION,
            c.push_subscriptions_per_day,
            DAY_SECS,
            "push subscriptions created a day",
        ),
        UserQuota::Exports => (
            EXPORT_USER,
            c.exports_per_hour,
            HOUR_SECS,
            "exports an hour",
        ),
    };
    vec![Limit::quota(kind, user_id, limit, window, what)]
}

/// Invitations to game `game_id` by `user_id` (`TILEPOST_INVITATIONS_PER_GAME` and
/// `TILEPOST_INVITATIONS_PER_DAY`, both per day); the stricter quota is reported.
pub fn invitations(st: &AppState, game_id: &str, user_id: &str) -> Vec<Limit> {
    vec![
        Limit::quota(
            INVITE_GAME,
            game_id,
            st.config.invitations_per_game,
            DAY_SECS,
            "invitations to this game a day",
        ),
        Limit::quota(
            INVITE_USER,
            user_id,
            st.config.invitations_per_day,
            DAY_SECS,
            "invitations a day",
        ),
    ]
}

/// A per-user write quota, reported in the IETF draft's `RateLimit-Limit`,
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
    /// The quota after one more write, `before` having been counted within
    /// `window_secs` at `now`.
    fn after(now: i64, before: Written, limit: i64, window_secs: i64) -> Quota {
        let reset = match before.oldest {
            Some(t) => ((t + window_secs.saturating_mul(1000) - now + 999) / 1000).max(1),
            None => window_secs,
        };
        Quota {
            limit,
            remaining: (limit - before.count - 1).max(0),
            reset,
        }
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
