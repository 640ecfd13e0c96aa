//! What every answer carries and what every request is checked for before any handler
//! sees it: browser hardening headers (`nosniff`, `frame-ancestors 'none'`, a referrer
//! policy), `Cache-Control: no-store` on personal answers, CORS for the configured
//! origins only, and no NUL byte in a path or query.

use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::http::Method;

use super::error::{ApiError, ProblemCode};
use crate::config::Config;

/// The policy of answers that set none of their own: no framing. Scripts and styles are
/// not restricted here, so Swagger UI at `/docs` works; the web client's pages carry their
/// own strict policy.
pub const FRAME_POLICY: &str = "frame-ancestors 'none'";

/// Path prefixes whose answers are personal (an account, its email, tokens, webhook
/// secrets): never stored by a cache.
const PERSONAL: [&str; 2] = ["/v1/users", "/v1/auth"];

/// Adds the hardening headers an answer does not set itself.
pub fn harden(path: &str, headers: &mut HeaderMap) {
    let defaults = [
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::CONTENT_SECURITY_POLICY, FRAME_POLICY),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
    ];
    for (name, value) in defaults {
        if !headers.contains_key(&name) {
            headers.insert(name, HeaderValue::from_static(value));
        }
    }
    if PERSONAL
        .iter()
        .any(|p| path == *p || path.starts_with(&format!("{p}/")))
    {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
}

/// A request refused before routing: a NUL byte (`%00`) in its path or query, or a
/// CORS preflight from an origin that is not allowed.
pub fn refuse(req: &ServiceRequest, config: &Config) -> Option<ApiError> {
    let nul = |s: &str| s.contains("%00");
    if nul(req.uri().path()) {
        return Some(ApiError::validation("path", "NUL bytes are not allowed"));
    }
    if req.uri().query().is_some_and(nul) {
        return Some(ApiError::validation("query", "NUL bytes are not allowed"));
    }
    if req.method() == Method::OPTIONS
        && req
            .headers()
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD)
    {
        if let Some(origin) = req.headers().get(header::ORIGIN) {
            let allowed = origin
                .to_str()
                .is_ok_and(|o| config.cors_origins.iter().any(|a| a == o));
            if !allowed {
                return Some(ApiError::new(
                    ProblemCode::OriginNotAllowed,
                    "this origin may not call the API from a browser",
                ));
            }
        }
    }
    None
}

/// CORS for the configured origins: preflights from them are answered, their actual
/// requests get `Access-Control-Allow-Origin`; other origins get no CORS header (and
/// their preflights are refused by [`refuse`]).
pub fn cors(config: &Config) -> actix_cors::Cors {
    let mut c = actix_cors::Cors::default()
        .allowed_methods(["GET", "POST", "PATCH", "PUT", "DELETE"])
        .allowed_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::IF_NONE_MATCH,
            header::HeaderName::from_static("idempotency-key"),
            header::HeaderName::from_static("x-request-id"),
        ])
        .expose_headers([
            header::ETAG,
            header::LOCATION,
            header::RETRY_AFTER,
            header::HeaderName::from_static("x-request-id"),
            header::HeaderName::from_static("ratelimit-limit"),
            header::HeaderName::from_static("ratelimit-remaining"),
            header::HeaderName::from_static("ratelimit-reset"),
        ])
        .max_age(600);
    for o in &config.cors_origins {
        c = c.allowed_origin(o);
    }
    c
}

/// The answer to a request refused by [`refuse`].
pub fn refused(req: ServiceRequest, e: ApiError) -> ServiceResponse {
    let (r, _) = req.into_parts();
    // the error stays attached: the problem is localised on the way out
    let mut res = actix_web::HttpResponse::from_error(e);
    harden(r.path(), res.headers_mut());
    ServiceResponse::new(r, res)
}
