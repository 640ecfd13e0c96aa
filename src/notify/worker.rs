//! The delivery worker, started with the server: it fans pending outbox messages out into
//! deliveries, claims due deliveries (several server processes share the work without
//! sending one twice at once), posts them as signed Standard Webhooks with a timeout,
//! and records every attempt. Failures are retried with exponential backoff and jitter
//! for about three days; `Retry-After` is honoured on 429 and 503; `410 Gone` disables a
//! user endpoint. Time comes from the injectable [`Clock`], so tests drive retries.
//!
//! A user endpoint is reached only at an address [`guard`] allows: its IP literal is
//! judged before connecting (an endpoint whose literal is internal is disabled), its
//! name is looked up by the connection's own resolver, which drops internal addresses,
//! no proxy stands in between, and redirects are not followed. A refused delivery is a
//! failed attempt whose error says why.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::Rng;

use super::guard;
use super::sign;
use super::Notifier;
use crate::clock::Clock;
use crate::store::{
    AttemptRow, Claimed, DeliveryStatus, Next, Recorded, Store, StoreError, PUSH_PREFIX, RELAY,
};

const BATCH: i64 = 64;
const MAX_DELAY_MS: i64 = 6 * 3600 * 1000;
const EXCERPT_BYTES: usize = 512;

/// The worker's settings (from the server's configuration).
#[derive(Clone, Debug)]
pub struct WorkerConfig {
    /// The email relay's URL and `whsec_` secret.
    pub email_webhook_url: Option<String>,
    pub email_webhook_secret: Option<String>,
    pub webhook_allow_private: bool,
    pub webhook_timeout_ms: u64,
    /// Plain-http push endpoints on loopback are reached (tests).
    pub push_allow_loopback: bool,
    pub notify_poll_ms: u64,
    pub notify_backoff_base_ms: i64,
    pub notify_max_age_ms: i64,
}

/// The worker's parts.
pub struct Worker {
    store: Store,
    clock: Arc<dyn Clock>,
    notifier: Arc<Notifier>,
    config: WorkerConfig,
    relay: Option<(String, Vec<u8>)>,
    relay_client: reqwest::Client,
    user_client: reqwest::Client,
    push_client: reqwest::Client,
}

/// A client that follows no redirect (a `3xx` is an answer like any other, so a
/// redirect cannot lead a delivery elsewhere). User endpoints get `resolver`, and no
/// proxy: a proxy would resolve the name itself, past the guard.
fn client(timeout: Duration, resolver: Option<guard::Guarded>) -> reqwest::Client {
    let b = reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("tilepost-webhooks/", env!("CARGO_PKG_VERSION")));
    let b = match resolver {
        Some(r) => b.no_proxy().dns_resolver(Arc::new(r)),
        None => b,
    };
    b.build().unwrap_or_default()
}

/// The delay before attempt `n + 1` after `n` failed attempts: `base * 2^(n-1)`, at most
/// six hours, times a random factor in [0.8, 1.2].
pub fn backoff_ms(base: i64, failed: i32) -> i64 {
    let exp = (failed.max(1) - 1).min(30) as u32;
    let d = base.max(1).saturating_mul(1i64 << exp).min(MAX_DELAY_MS);
    let f: f64 = rand::thread_rng().gen_range(0.8..=1.2);
    ((d as f64) * f) as i64
}

/// Seconds of a `Retry-After` header (delta-seconds or an HTTP date).
fn retry_after_ms(v: &str, now_ms: i64) -> Option<i64> {
    let v = v.trim();
    if let Ok(s) = v.parse::<i64>() {
        return Some(s.max(0).saturating_mul(1000));
    }
    let fmt = time::format_description::well_known::Rfc2822;
    let t = time::OffsetDateTime::parse(v, &fmt).ok()?;
    Some((t.unix_timestamp() * 1000 - now_ms).max(0))
}

/// An answer from an endpoint, or a transport error.
struct Outcome {
    status: Option<u16>,
    retry_after: Option<String>,
    excerpt: Option<String>,
    error: Option<String>,
    /// The URL's IP literal is internal: no later attempt can succeed.
    forbidden: bool,
}

impl Outcome {
    /// The attempt to record for delivery `d` (claimed with `token`), made at
    /// `attempted_at` and lasting `duration_ms`, and what follows it.
    fn recorded(
        self,
        d: &crate::store::DeliveryRow,
        token: String,
        (attempted_at, duration_ms): (i64, i64),
        next: Next,
        now: i64,
    ) -> Recorded {
        Recorded {
            attempt: AttemptRow {
                id: uuid::Uuid::new_v4().to_string(),
                delivery_id: d.id.clone(),
                attempted_at,
                http_status: self.status.map(i32::from),
                duration_ms,
                error: self.error,
                excerpt: self.excerpt,
            },
            token,
            endpoint_id: d.endpoint_id.clone(),
            next,
            now,
        }
    }
}

impl Worker {
    pub fn new(
        store: Store,
        clock: Arc<dyn Clock>,
        notifier: Arc<Notifier>,
        config: WorkerConfig,
    ) -> Worker {
        Worker::with_lookup(
            store,
            clock,
            notifier,
            config,
            Arc::new(guard::SystemLookup),
        )
    }

    /// A worker whose user deliveries look names up with `lookup` (tests point a name
    /// elsewhere between the endpoint's creation and its delivery).
    pub fn with_lookup(
        store: Store,
        clock: Arc<dyn Clock>,
        notifier: Arc<Notifier>,
        config: WorkerConfig,
        lookup: Arc<dyn guard::Lookup>,
    ) -> Worker {
        let timeout = Duration::from_millis(config.webhook_timeout_ms.max(100));
        let relay = match (&config.email_webhook_url, &config.email_webhook_secret) {
            (Some(u), Some(s)) => sign::secret_key(s).map(|k| (u.clone(), k)),
            _ => None,
        };
        Worker {
            store,
            clock,
            notifier,
            relay,
            relay_client: client(timeout, None),
            user_client: client(
                timeout,
                Some(guard::Guarded {
                    lookup: lookup.clone(),
                    allow_private: config.webhook_allow_private,
                }),
            ),
            push_client: client(
                timeout,
                Some(guard::Guarded {
                    lookup,
                    allow_private: config.webhook_allow_private || config.push_allow_loopback,
                }),
            ),
            config,
        }
    }

    /// Runs until the runtime it was spawned on stops.
    pub async fn run(self) {
        let poll = Duration::from_millis(self.config.notify_poll_ms.max(5));
        loop {
            match self.tick().await {
                Ok(n) if n > 0 => continue,
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "notification worker: database"),
            }
            let _ = tokio::time::timeout(poll, self.notifier.wake.notified()).await;
        }
    }

    /// One round: fan out, claim, deliver. Returns how much work it found.
    pub async fn tick(&self) -> Result<usize, StoreError> {
        let now = self.clock.now_ms();
        let fanned = self.store.fan_out(BATCH, now, self.relay.is_some()).await?;
        let token = uuid::Uuid::new_v4().simple().to_string();
        let lease = (self.config.webhook_timeout_ms as i64).saturating_mul(3) + 60_000;
        let claimed = self
            .store
            .claim_deliveries(BATCH, now, lease, token.clone())
            .await?;
        let n = claimed.len();
        let sends = claimed.into_iter().map(|c| self.deliver(c, token.clone()));
        let mut done = Vec::with_capacity(n);
        for r in futures_util::future::join_all(sends).await {
            match r {
                Ok(Some(rec)) => done.push(rec),
                Ok(None) => {}
                Err(e) => tracing::warn!(error = %e, "notification worker: releasing a delivery"),
            }
        }
        if !done.is_empty() {
            self.store.record_attempts(done).await?;
        }
        Ok(fanned + n)
    }

    /// Posts one claimed delivery; returns the attempt to record (None when the
    /// delivery was dropped without an attempt).
    async fn deliver(&self, c: Claimed, token: String) -> Result<Option<Recorded>, StoreError> {
        let d = &c.delivery;
        if d.endpoint_id.starts_with(PUSH_PREFIX) {
            return self.deliver_push(&c, token).await;
        }
        let (url, key, is_relay) = if d.endpoint_id == RELAY {
            match &self.relay {
                Some((u, k)) => (u.clone(), k.clone(), true),
                None => return self.drop(d.id.clone()).await,
            }
        } else {
            match c.endpoint.as_ref().filter(|e| e.enabled != 0) {
                Some(e) => match sign::secret_key(&e.secret) {
                    Some(k) => (e.url.clone(), k, false),
                    None => return self.drop(d.id.clone()).await,
                },
                None => return self.drop(d.id.clone()).await,
            }
        };
        let attempted_at = self.clock.now_ms();
        let ts = attempted_at.div_euclid(1000);
        let body = c.message.payload.clone();
        let sig = sign::signature(&key, &c.message.id, ts, &body);
        let started = Instant::now();
        let outcome = self
            .post(&url, is_relay, &c.message.id, ts, &sig, body)
            .await;
        let duration_ms = started.elapsed().as_millis() as i64;
        let now = self.clock.now_ms();
        let next = self.next(d, &outcome, is_relay, now);
        if let Next::DisableEndpoint(why) = &next {
            tracing::warn!(endpoint = %d.endpoint_id, reason = %why, "webhook endpoint disabled");
        }
        tracing::debug!(
            delivery = %d.id,
            message = %c.message.id,
            status = ?outcome.status,
            ms = duration_ms,
            "webhook attempt"
        );
        Ok(Some(outcome.recorded(
            d,
            token,
            (attempted_at, duration_ms),
            next,
            now,
        )))
    }

    /// What follows an attempt: delivered, retried (with backoff, or after the
    /// `Retry-After` of a 429 or 503), given up, or the endpoint disabled (a push
    /// subscription deleted).
    fn next(
        &self,
        d: &crate::store::DeliveryRow,
        outcome: &Outcome,
        is_relay: bool,
        now: i64,
    ) -> Next {
        match outcome.status {
            _ if outcome.forbidden => Next::DisableEndpoint(
                outcome
                    .error
                    .clone()
                    .unwrap_or_else(|| "the URL's address is not allowed".into()),
            ),
            Some(s) if (200..300).contains(&s) => Next::Delivered,
            Some(410) if is_relay => Next::Failed,
            Some(410) => Next::DisableEndpoint("the endpoint answered 410 Gone".into()),
            s => {
                let failed = d.attempts + 1;
                let honoured = match (s, &outcome.retry_after) {
                    (Some(429) | Some(503), Some(v)) => {
                        retry_after_ms(v, now).map(|ms| ms.clamp(1000, 24 * 3600 * 1000))
                    }
                    _ => None,
                };
                let delay = honoured
                    .unwrap_or_else(|| backoff_ms(self.config.notify_backoff_base_ms, failed));
                let at = now + delay;
                if at - d.created_at > self.config.notify_max_age_ms {
                    Next::Failed
                } else {
                    Next::Retry(at)
                }
            }
        }
    }

    /// Pushes one claimed delivery to its subscription's push service: the message's
    /// notification encrypted for the browser, with a VAPID token for the service's
    /// origin. `404` and `410` mean the subscription is gone (it is deleted); other
    /// `4xx` answers (but `429`) are given up; `429`, `5xx` and transport errors are
    /// retried like webhooks.
    async fn deliver_push(
        &self,
        c: &Claimed,
        token: String,
    ) -> Result<Option<Recorded>, StoreError> {
        let d = &c.delivery;
        let (Some(target), Some(vapid)) = (c.push.as_ref(), self.notifier.vapid()) else {
            return self.drop(d.id.clone()).await;
        };
        let s = &target.subscription;
        let Some(n) =
            super::push::notification(&c.message.kind, &c.message.payload, &target.locale)
        else {
            return self.drop(d.id.clone()).await;
        };
        let attempted_at = self.clock.now_ms();
        let started = Instant::now();
        let outcome = match self
            .post_push(s, &n, vapid, attempted_at.div_euclid(1000))
            .await
        {
            Ok(o) => o,
            Err(e) => Outcome {
                status: None,
                retry_after: None,
                excerpt: None,
                error: Some(format!("not sent: {e}")),
                forbidden: true,
            },
        };
        let duration_ms = started.elapsed().as_millis() as i64;
        let now = self.clock.now_ms();
        let next = match outcome.status {
            Some(404 | 410) => {
                Next::DisableEndpoint("the push service forgot the subscription".into())
            }
            Some(s) if (400..500).contains(&s) && s != 429 => Next::Failed,
            _ => self.next(d, &outcome, false, now),
        };
        if let Next::DisableEndpoint(why) = &next {
            tracing::info!(subscription = %s.id, reason = %why, "push subscription removed");
        }
        tracing::debug!(delivery = %d.id, status = ?outcome.status, ms = duration_ms, "push attempt");
        Ok(Some(outcome.recorded(
            d,
            token,
            (attempted_at, duration_ms),
            next,
            now,
        )))
    }

    /// Posts an encrypted notification; Err when the request cannot be built (bad keys,
    /// a URL that is not allowed: no later attempt can succeed).
    async fn post_push(
        &self,
        s: &crate::store::PushSubscriptionRow,
        n: &super::push::Notification,
        vapid: &super::push::Vapid,
        now_secs: i64,
    ) -> Result<Outcome, String> {
        let url = guard::parse_url(&s.endpoint)?;
        let loopback_ok = self.config.push_allow_loopback && guard::is_loopback_host(&url);
        if url.scheme() != "https" && !loopback_ok {
            return Err("a push endpoint must be https".into());
        }
        // a connection to an IP literal asks no resolver: judge it here
        let why = guard::host_ip(&url)
            .filter(|_| !self.config.webhook_allow_private && !loopback_ok)
            .and_then(guard::internal);
        if let Some(why) = why {
            return Err(format!("the URL's address is not allowed: {why}"));
        }
        let enc = super::push::encrypt(s, n).map_err(|e| e.to_string())?;
        let mut req = self
            .push_client
            .post(url.clone())
            .header(
                "authorization",
                vapid.authorization(&super::push::origin(&url), now_secs),
            )
            .body(enc.body);
        for (k, v) in enc.headers {
            req = req.header(k, v);
        }
        Ok(match req.send().await {
            Ok(r) => {
                let status = r.status().as_u16();
                let retry_after = r
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string);
                Outcome {
                    status: Some(status),
                    retry_after,
                    excerpt: read_excerpt(r).await,
                    error: None,
                    forbidden: false,
                }
            }
            Err(e) => {
                let error = if let Some(refused) = not_allowed(&e) {
                    format!("not sent: the address is not allowed: {refused}")
                } else if e.is_timeout() {
                    format!("timed out: {}", e.without_url())
                } else if e.is_connect() {
                    format!("could not connect: {}", e.without_url())
                } else {
                    format!("request failed: {}", e.without_url())
                };
                Outcome {
                    status: None,
                    retry_after: None,
                    excerpt: None,
                    error: Some(error),
                    forbidden: false,
                }
            }
        })
    }

    async fn drop(&self, id: String) -> Result<Option<Recorded>, StoreError> {
        self.store.drop_delivery(id, DeliveryStatus::Failed).await?;
        Ok(None)
    }

    async fn post(
        &self,
        url: &str,
        is_relay: bool,
        id: &str,
        ts: i64,
        sig: &str,
        body: String,
    ) -> Outcome {
        let fail = |e: String| Outcome {
            status: None,
            retry_after: None,
            excerpt: None,
            error: Some(e),
            forbidden: false,
        };
        let client = if is_relay {
            &self.relay_client
        } else {
            let parsed = match guard::parse_url(url) {
                Ok(u) => u,
                Err(e) => return fail(e),
            };
            // a connection to an IP literal asks no resolver: judge it here
            let why = guard::host_ip(&parsed)
                .filter(|_| !self.config.webhook_allow_private)
                .and_then(guard::internal);
            if let Some(why) = why {
                return Outcome {
                    forbidden: true,
                    ..fail(format!("not sent: the URL's address is not allowed: {why}"))
                };
            }
            &self.user_client
        };
        let res = client
            .post(url)
            .header("content-type", "application/json")
            .header("webhook-id", id)
            .header("webhook-timestamp", ts.to_string())
            .header("webhook-signature", sig)
            .body(body)
            .send()
            .await;
        match res {
            Ok(r) => {
                let status = r.status().as_u16();
                let retry_after = r
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string);
                let excerpt = read_excerpt(r).await;
                Outcome {
                    status: Some(status),
                    retry_after,
                    excerpt,
                    error: None,
                    forbidden: false,
                }
            }
            Err(e) => {
                if let Some(refused) = not_allowed(&e) {
                    return fail(format!("not sent: the address is not allowed: {refused}"));
                }
                let kind = if e.is_timeout() {
                    "timed out"
                } else if e.is_connect() {
                    "could not connect"
                } else {
                    "request failed"
                };
                fail(format!("{kind}: {}", e.without_url()))
            }
        }
    }
}

/// The guard's refusal among the causes of a failed request (the resolver found no
/// allowed address).
fn not_allowed(e: &reqwest::Error) -> Option<&guard::NotAllowed> {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(e);
    while let Some(c) = cause {
        if let Some(n) = c.downcast_ref::<guard::NotAllowed>() {
            return Some(n);
        }
        cause = c.source();
    }
    None
}

async fn read_excerpt(mut r: reqwest::Response) -> Option<String> {
    let mut buf = Vec::new();
    while buf.len() < EXCERPT_BYTES {
        match r.chunk().await {
            Ok(Some(c)) => buf.extend_from_slice(&c),
            _ => break,
        }
    }
    buf.truncate(EXCERPT_BYTES);
    if buf.is_empty() {
        return None;
    }
    Some(String::from_utf8_lossy(&buf).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_with_jitter_and_is_capped() {
        for n in 1..8 {
            let d = backoff_ms(1000, n);
            let nominal = 1000i64 << (n - 1);
            assert!(d >= nominal * 8 / 10 && d <= nominal * 12 / 10, "{n}: {d}");
        }
        assert!(backoff_ms(30_000, 40) <= MAX_DELAY_MS * 12 / 10);
    }

    #[test]
    fn retry_after_forms() {
        assert_eq!(retry_after_ms("7", 0), Some(7000));
        assert_eq!(
            retry_after_ms("Thu, 01 Jan 1970 00:00:10 +0000", 4000),
            Some(6000)
        );
        assert_eq!(retry_after_ms("soon", 0), None);
    }
}
