//! Request extractors: a JSON body that refuses unknown fields with field paths, a body
//! size limit answered with `413`, the caller from the bearer token, and the ids in
//! paths, checked once (an id is at most 64 characters: a longer one names nothing and
//! gets the resource's `404`).

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{web, FromRequest, HttpMessage, HttpRequest};
use futures_util::StreamExt;
use serde::de::DeserializeOwned;

use super::error::{ApiError, ProblemCode};
use super::AppState;

fn state(req: &HttpRequest) -> Result<web::Data<AppState>, ApiError> {
    req.app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| ApiError::internal("application state missing"))
}

/// A JSON request body.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned + 'static> FromRequest for ApiJson<T> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let mut payload = payload.take();
        Box::pin(async move {
            let limit = state(&req)?.config.max_body_bytes;
            if let Some(ct) = req.headers().get(header::CONTENT_TYPE) {
                let ct = ct.to_str().unwrap_or("").to_ascii_lowercase();
                let mime = ct.split(';').next().unwrap_or("").trim().to_string();
                if mime != "application/json" && !mime.ends_with("+json") {
                    return Err(ApiError::new(
                        ProblemCode::UnsupportedMediaType,
                        "send the body as application/json",
                    ));
                }
            }
            let too_large = || {
                ApiError::new(
                    ProblemCode::PayloadTooLarge,
                    format!("request bodies are limited to {limit} bytes"),
                )
            };
            if let Some(len) = req
                .headers()
                .get(header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<usize>().ok())
            {
                if len > limit {
                    return Err(too_large());
                }
            }
            let deadline = std::time::Duration::from_millis(state(&req)?.config.body_timeout_ms);
            let read = async {
                let mut body = web::BytesMut::new();
                while let Some(chunk) = payload.next().await {
                    let chunk = chunk.map_err(|e| ApiError::validation("body", e.to_string()))?;
                    if body.len() + chunk.len() > limit {
                        return Err(too_large());
                    }
                    body.extend_from_slice(&chunk);
                }
                Ok(body)
            };
            let body = actix_web::rt::time::timeout(deadline, read)
                .await
                .map_err(|_| {
                    ApiError::new(
                        ProblemCode::RequestTimeout,
                        format!("the body must arrive within {} ms", deadline.as_millis()),
                    )
                })??;
            parse_json(&body).map(ApiJson)
        })
    }
}

/// Parses JSON with the path of the offending field in the error.
pub fn parse_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    if body.is_empty() {
        return Err(ApiError::validation("body", "a JSON body is required"));
    }
    // every request body is an object; serde would also take a struct as an array
    if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::validation("body", "expected a JSON object"));
    }
    if has_nul_escape(body) {
        return Err(ApiError::validation(
            "body",
            "NUL characters are not allowed",
        ));
    }
    let de = &mut serde_json::Deserializer::from_slice(body);
    let value = serde_path_to_error::deserialize(&mut *de).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." || path.is_empty() {
            "body".to_string()
        } else {
            path
        };
        let inner = e.into_inner();
        let mut msg = inner.to_string();
        // drop serde's " at line L column C" suffix
        if let Some(i) = msg.find(" at line ") {
            msg.truncate(i);
        }
        ApiError::validation(field, msg)
    })?;
    de.end()
        .map_err(|_| ApiError::validation("body", "unexpected bytes after the JSON value"))?;
    Ok(value)
}

/// Whether a JSON text holds an escaped NUL (`\u0000`) anywhere (a raw NUL is not JSON).
/// Backslashes occur only inside strings, so the escapes can be followed without parsing.
fn has_nul_escape(body: &[u8]) -> bool {
    let mut i = 0;
    while i < body.len() {
        if body[i] == b'\\' {
            if body.get(i + 1) == Some(&b'u') && body.get(i + 2..i + 6) == Some(b"0000") {
                return true;
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    false
}

/// The locale of the signed-in caller (a request extension once the token is checked).
#[derive(Clone, Copy, Debug)]
pub struct UserLocale(pub &'static str);

/// The authenticated caller: the user, the token they used, and its scopes (already
/// checked against the operation's).
#[derive(Clone, Debug)]
pub struct CurrentUser {
    pub id: String,
    /// The session or personal access token of the request.
    pub token_id: String,
    /// Whether the token is a personal access token (else a login session).
    pub personal: bool,
    pub scopes: super::access::Scopes,
}

fn bearer(req: &HttpRequest) -> Option<Result<String, ApiError>> {
    let h = req.headers().get(header::AUTHORIZATION)?;
    let Ok(s) = h.to_str() else {
        return Some(Err(ApiError::unauthorized(
            "malformed Authorization header",
        )));
    };
    let mut parts = s.splitn(2, ' ');
    let scheme = parts.next().unwrap_or("");
    let token = parts.next().unwrap_or("").trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return Some(Err(ApiError::unauthorized(
            "use Authorization: Bearer <token>",
        )));
    }
    Some(Ok(token.to_string()))
}

/// The caller of a bearer token: a valid token whose session or personal token row and
/// user still exist (one lookup, cached briefly: see [`super::access`]), with the scope
/// the operation needs (else `403 insufficient-scope`). Once per request: the answer is
/// kept in the request's extensions.
pub(super) async fn authenticate(req: HttpRequest) -> Result<Option<CurrentUser>, ApiError> {
    if let Some(Checked(known)) = req.extensions().get::<Checked>() {
        return Ok(known.clone());
    }
    let Some(token) = bearer(&req) else {
        return Ok(None);
    };
    let token = token?;
    let st = state(&req)?;
    let grant = super::access::grant_of(&st, &token).await?;
    // the language of this request's problems (see `api::localized`)
    if let Some(l) = crate::i18n::exact(&grant.locale) {
        req.extensions_mut().insert(UserLocale(l));
    }
    super::access::allow(&grant, &req)?;
    let me = Some(CurrentUser {
        id: grant.user_id,
        token_id: grant.token_id,
        personal: grant.personal,
        scopes: grant.scopes,
    });
    req.extensions_mut().insert(Checked(me.clone()));
    Ok(me)
}

/// The caller, once the token was checked.
#[derive(Clone)]
struct Checked(Option<CurrentUser>);

/// Checks the token of every request to a documented operation that takes one, before
/// the operation's own extractors run: a token that is invalid, revoked or without the
/// operation's scope is refused first, whatever else is wrong with the request, so that
/// every operation answers `401`/`403` alike (and a test can ask every operation of the
/// document with every scope).
pub async fn authorize(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody>,
) -> Result<
    actix_web::dev::ServiceResponse<actix_web::body::EitherBody<impl actix_web::body::MessageBody>>,
    actix_web::Error,
> {
    let pattern = req.match_pattern();
    let method = req.method().as_str();
    let takes_token = req.headers().contains_key(header::AUTHORIZATION)
        && super::access::needed(method, pattern.as_deref())
            .is_some_and(|n| *n != super::access::Needs::Nothing);
    if takes_token {
        if let Err(e) = authenticate(req.request().clone()).await {
            // where anonymous callers are served, a token that does not work (expired,
            // revoked) reads as none; one without the scope is refused everywhere
            let anonymous = e.code == ProblemCode::Unauthorized
                && super::access::anonymous_allowed(method, pattern.as_deref());
            if !anonymous {
                return Ok(req.error_response(e).map_into_right_body());
            }
        }
    }
    Ok(next.call(req).await?.map_into_left_body())
}

impl FromRequest for CurrentUser {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            authenticate(req)
                .await?
                .ok_or_else(|| ApiError::unauthorized("this operation needs a bearer token"))
        })
    }
}

/// The caller when a token is given (a bad token is still refused).
#[derive(Clone, Debug)]
pub struct MaybeUser(pub Option<CurrentUser>);

impl FromRequest for MaybeUser {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { authenticate(req).await.map(MaybeUser) })
    }
}

/// The longest id the API hands out or accepts (ids are UUIDs).
pub const MAX_ID_LEN: usize = 64;

/// An id path parameter, refused with `missing` when it cannot name anything.
fn path_id<P: DeserializeOwned + Into<String> + 'static>(
    req: &HttpRequest,
    missing: impl FnOnce() -> ApiError,
) -> Result<String, ApiError> {
    let v: String = web::Path::<P>::extract(req)
        .into_inner()
        .map_err(|e| ApiError::validation("path", e.to_string()))?
        .into_inner()
        .into();
    if v.is_empty() || v.len() > MAX_ID_LEN {
        return Err(missing());
    }
    Ok(v)
}

/// The `{id}` of a path.
#[derive(serde::Deserialize)]
struct IdParam {
    id: String,
}

impl From<IdParam> for String {
    fn from(p: IdParam) -> String {
        p.id
    }
}

/// The `{delivery_id}` of a path.
#[derive(serde::Deserialize)]
struct DeliveryIdParam {
    delivery_id: String,
}

impl From<DeliveryIdParam> for String {
    fn from(p: DeliveryIdParam) -> String {
        p.delivery_id
    }
}

macro_rules! path_id {
    ($(#[$doc:meta])* $name:ident, $param:ty, $code:expr, $detail:literal) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $name(pub String);

        impl $name {
            pub fn as_str(&self) -> &str {
                &self.0
            }

            pub fn into_inner(self) -> String {
                self.0
            }
        }

        impl FromRequest for $name {
            type Error = ApiError;
            type Future = std::future::Ready<Result<Self, ApiError>>;

            fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
                std::future::ready(
                    path_id::<$param>(req, || ApiError::new($code, $detail)).map($name),
                )
            }
        }
    };
}

path_id!(
    /// The game id of a path `/games/{id}/…`.
    GameId,
    IdParam,
    ProblemCode::GameNotFound,
    "no game with this id"
);
path_id!(
    /// The webhook id of a path `/users/me/webhooks/{id}/…`.
    WebhookId,
    IdParam,
    ProblemCode::WebhookNotFound,
    "you have no webhook with this id"
);
path_id!(
    /// The push subscription id of a path `/users/me/push-subscriptions/{id}`.
    PushSubscriptionId,
    IdParam,
    ProblemCode::PushSubscriptionNotFound,
    "you have no push subscription with this id"
);
path_id!(
    /// The personal access token id of a path `/users/me/tokens/{id}`.
    TokenId,
    IdParam,
    ProblemCode::TokenNotFound,
    "you have no personal access token with this id"
);
path_id!(
    /// The delivery id of a path `…/deliveries/{delivery_id}/…`.
    DeliveryId,
    DeliveryIdParam,
    ProblemCode::DeliveryNotFound,
    "this endpoint has no such delivery"
);

/// The client's address: the socket's peer, or, when the peer is a configured trusted
/// proxy, the last address in `X-Forwarded-For` that is not one of those proxies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub String);

/// The client address of a request from `peer` with these `X-Forwarded-For` values.
pub fn client_addr(
    peer: Option<std::net::IpAddr>,
    forwarded: &[&str],
    trusted: &[std::net::IpAddr],
) -> String {
    let Some(mut addr) = peer else {
        return "unknown".into();
    };
    if trusted.contains(&addr) {
        let hops = forwarded
            .iter()
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect::<Vec<_>>();
        for hop in hops.iter().rev() {
            match hop.parse::<std::net::IpAddr>() {
                Ok(ip) if trusted.contains(&ip) => continue,
                Ok(ip) => {
                    addr = ip;
                    break;
                }
                // a hop that is no address: trust nothing before it
                Err(_) => break,
            }
        }
    }
    addr.to_string()
}

impl FromRequest for ClientAddr {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(state(req).map(|st| {
            let forwarded: Vec<&str> = req
                .headers()
                .get_all("x-forwarded-for")
                .filter_map(|v| v.to_str().ok())
                .collect();
            ClientAddr(client_addr(
                req.peer_addr().map(|a| a.ip()),
                &forwarded,
                &st.config.trusted_proxies,
            ))
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::client_addr;

    #[test]
    fn the_client_address_comes_from_trusted_proxies_only() {
        let proxy: std::net::IpAddr = "10.0.0.1"
            .parse()
            .unwrap_or(std::net::Ipv4Addr::LOCALHOST.into());
        let peer = Some("203.0.113.9".parse().unwrap_or(proxy));
        // no proxy configured: the header is ignored
        assert_eq!(client_addr(peer, &["1.2.3.4"], &[]), "203.0.113.9");
        // the peer is no trusted proxy: ignored too
        assert_eq!(client_addr(peer, &["1.2.3.4"], &[proxy]), "203.0.113.9");
        // through the proxy: the last hop it saw, not what the client wrote before
        assert_eq!(
            client_addr(Some(proxy), &["6.6.6.6, 1.2.3.4"], &[proxy]),
            "1.2.3.4"
        );
        assert_eq!(
            client_addr(Some(proxy), &["1.2.3.4", "10.0.0.1"], &[proxy]),
            "1.2.3.4"
        );
        assert_eq!(client_addr(Some(proxy), &[], &[proxy]), "10.0.0.1");
        assert_eq!(client_addr(Some(proxy), &["junk"], &[proxy]), "10.0.0.1");
    }
}
