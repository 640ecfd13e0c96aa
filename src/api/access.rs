//! Who a bearer token speaks for and what it may do.
//!
//! Two kinds of token, one check:
//! - a login token: a JWT (see [`super::auth`]) whose `sid` names a session row;
//! - a personal access token: `tpp_` and 43 characters of base64url (256 random bits),
//!   of which the server keeps only the SHA-256.
//!
//! Every authenticated request reads the token's row joined with its user (one query,
//! the same one round trip the user check cost before), or takes it from the short
//! in-process cache ([`crate::grants`]). A revoked token or a deleted user is refused.
//!
//! Scopes: the operation's security requirement in the OpenAPI document names the scope
//! it needs; the same document is read here, so what is documented is what is enforced.
//! A login token has every scope.

use std::collections::HashMap;
use std::sync::OnceLock;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use rand::RngCore;
use sha2::{Digest, Sha256};

use super::dto::Scope;
use super::error::{ApiError, ProblemCode};
use super::AppState;
use crate::store::{TokenGrant, PERSONAL};

/// The prefix of a personal access token.
pub const PERSONAL_PREFIX: &str = "tpp_";

impl Scope {
    pub const ALL: [Scope; 4] = [
        Scope::GameRead,
        Scope::GamePlay,
        Scope::Account,
        Scope::Webhooks,
    ];

    /// The scope's name, as in the document and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::GameRead => "game:read",
            Scope::GamePlay => "game:play",
            Scope::Account => "account",
            Scope::Webhooks => "webhooks",
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }

    pub fn parse(s: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// A set of scopes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scopes(u8);

impl Scopes {
    pub fn all() -> Scopes {
        Scopes::of(&Scope::ALL)
    }

    pub fn of(list: &[Scope]) -> Scopes {
        Scopes(list.iter().fold(0, |b, s| b | s.bit()))
    }

    pub fn contains(self, s: Scope) -> bool {
        self.0 & s.bit() != 0
    }

    pub fn covers(self, other: Scopes) -> bool {
        self.0 & other.0 == other.0
    }

    /// The scopes, in their fixed order.
    pub fn list(self) -> Vec<Scope> {
        Scope::ALL
            .into_iter()
            .filter(|s| self.contains(*s))
            .collect()
    }

    /// As stored: names separated by spaces (unknown names are ignored).
    pub fn from_column(s: &str) -> Scopes {
        Scopes::of(
            &s.split_whitespace()
                .filter_map(Scope::parse)
                .collect::<Vec<_>>(),
        )
    }

    pub fn to_column(self) -> String {
        self.list()
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A new personal access token's secret and the hash that is stored.
pub fn new_personal_secret() -> (String, String) {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let secret = format!("{PERSONAL_PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes));
    let hash = secret_hash(&secret);
    (secret, hash)
}

/// The stored form of a personal access token: hex SHA-256. The secret has 256 random
/// bits, so a fast hash is enough (no dictionary to guess from), and it can be looked up
/// by an index; a slow password hash would cost every request tens of milliseconds.
pub fn secret_hash(secret: &str) -> String {
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What the database said about a token (what the cache keeps).
#[derive(Clone, Debug)]
pub struct Grant {
    pub token_id: String,
    pub user_id: String,
    pub personal: bool,
    pub scopes: Scopes,
    pub expires_at: Option<i64>,
    /// The user's locale.
    pub locale: String,
}

impl From<TokenGrant> for Grant {
    fn from(g: TokenGrant) -> Grant {
        Grant {
            personal: g.kind == PERSONAL,
            scopes: Scopes::from_column(&g.scopes),
            token_id: g.token_id,
            user_id: g.user_id,
            expires_at: g.expires_at,
            locale: g.locale,
        }
    }
}

fn revoked() -> ApiError {
    ApiError::unauthorized("the token was revoked, or its user no longer exists")
}

/// The grant of a bearer token (signature, lifetime, row and user checked).
pub async fn grant_of(st: &AppState, token: &str) -> Result<Grant, ApiError> {
    let now = st.clock.now_ms();
    let grant = if token.starts_with(PERSONAL_PREFIX) {
        let hash = secret_hash(token);
        let key = format!("p:{hash}");
        match st.grants.get(&key) {
            Some(g) => g,
            None => {
                let since = st.grants.generation();
                let g: Grant = st
                    .store
                    .personal_grant(hash)
                    .await?
                    .ok_or_else(revoked)?
                    .into();
                st.grants
                    .put(since, &key, &g.token_id, &g.user_id, g.clone());
                g
            }
        }
    } else {
        let claims = st.auth.verify(token, now).map_err(ApiError::unauthorized)?;
        let key = format!("s:{}", claims.sid);
        match st.grants.get(&key).filter(|g| g.user_id == claims.sub) {
            Some(g) => g,
            None => {
                let since = st.grants.generation();
                let g: Grant = st
                    .store
                    .session_grant(claims.sid, claims.sub)
                    .await?
                    .ok_or_else(revoked)?
                    .into();
                st.grants
                    .put(since, &key, &g.token_id, &g.user_id, g.clone());
                g
            }
        }
    };
    if grant.expires_at.is_some_and(|t| t <= now) {
        return Err(ApiError::unauthorized("token expired"));
    }
    Ok(grant)
}

/// `403 insufficient-scope` unless `have` holds `need`.
pub fn require(have: Scopes, need: Option<Scope>) -> Result<(), ApiError> {
    match need {
        Some(s) if !have.contains(s) => {
            let mut e = ApiError::new(
                ProblemCode::InsufficientScope,
                format!("this operation needs a token with the scope {}", s.as_str()),
            );
            e.headers.push((
                "www-authenticate",
                format!(
                    "Bearer error=\"insufficient_scope\", scope=\"{}\"",
                    s.as_str()
                ),
            ));
            Err(e)
        }
        _ => Ok(()),
    }
}

/// What an operation needs: `None` inside (any token will do), or the scope.
type Needs = Option<Scope>;

/// The scope each documented operation needs, by method and path template, from the
/// document's security requirements.
fn table() -> &'static HashMap<(String, String), Needs> {
    static T: OnceLock<HashMap<(String, String), Needs>> = OnceLock::new();
    T.get_or_init(|| {
        let mut out = HashMap::new();
        let paths = super::openapi_value()
            .get("paths")
            .and_then(|p| p.as_object());
        for (path, item) in paths.into_iter().flatten() {
            for (method, op) in item.as_object().into_iter().flatten() {
                let Some(reqs) = op.get("security").and_then(|s| s.as_array()) else {
                    continue;
                };
                let scopes: Vec<Scope> = reqs
                    .iter()
                    .filter_map(|r| r.get("bearer").and_then(|b| b.as_array()))
                    .flatten()
                    .filter_map(|s| s.as_str().and_then(Scope::parse))
                    .collect();
                out.insert(
                    (method.to_ascii_uppercase(), path.clone()),
                    scopes.first().copied(),
                );
            }
        }
        out
    })
}

/// What the operation at `method` and `pattern` (the matched route) needs; `None` when
/// the document does not know it (then only a login token, with every scope, passes).
pub fn needed(method: &str, pattern: Option<&str>) -> Option<Needs> {
    let method = if method == "HEAD" { "GET" } else { method };
    pattern.and_then(|p| table().get(&(method.to_string(), p.to_string())).copied())
}

/// Checks the grant against the operation of `req`.
pub fn allow(grant: &Grant, req: &actix_web::HttpRequest) -> Result<(), ApiError> {
    match needed(req.method().as_str(), req.match_pattern().as_deref()) {
        Some(need) => require(grant.scopes, need),
        None if grant.scopes == Scopes::all() => Ok(()),
        None => Err(ApiError::new(
            ProblemCode::InsufficientScope,
            "this operation needs a login token",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_round_trip_through_the_column() {
        let s = Scopes::of(&[Scope::Webhooks, Scope::GameRead]);
        assert_eq!(s.to_column(), "game:read webhooks");
        assert_eq!(Scopes::from_column(&s.to_column()), s);
        assert!(Scopes::all().covers(s));
        assert!(!s.covers(Scopes::all()));
        assert!(require(s, Some(Scope::GamePlay)).is_err());
        assert!(require(s, Some(Scope::GameRead)).is_ok());
        assert!(require(s, None).is_ok());
    }

    #[test]
    fn every_operation_with_a_token_names_at_most_one_scope() {
        let doc = super::super::openapi_value();
        let paths = doc["paths"].as_object().expect("paths");
        let mut scoped = 0;
        for (path, item) in paths {
            for (method, op) in item.as_object().expect("item") {
                let Some(reqs) = op.get("security").and_then(|s| s.as_array()) else {
                    continue;
                };
                for r in reqs {
                    if let Some(b) = r.get("bearer").and_then(|b| b.as_array()) {
                        assert!(b.len() <= 1, "{method} {path}: {b:?}");
                        for s in b {
                            assert!(
                                s.as_str().and_then(Scope::parse).is_some(),
                                "{method} {path}: {s}"
                            );
                        }
                        scoped += b.len();
                    }
                }
            }
        }
        assert!(scoped > 30, "operations name their scopes ({scoped})");
        let n = needed("POST", Some("/v1/games/{id}/moves"));
        assert_eq!(n, Some(Some(Scope::GamePlay)));
        assert_eq!(
            needed("GET", Some("/v1/games/{id}")),
            Some(Some(Scope::GameRead))
        );
        assert_eq!(needed("POST", Some("/v1/auth/logout")), Some(None));
        assert_eq!(needed("GET", Some("/play/games")), None);
    }

    #[test]
    fn personal_secrets_are_long_and_hashed() {
        let (s, h) = new_personal_secret();
        assert!(s.starts_with(PERSONAL_PREFIX));
        assert_eq!(s.len(), PERSONAL_PREFIX.len() + 43);
        assert_eq!(h, secret_hash(&s));
        assert_eq!(h.len(), 64);
        assert_ne!(new_personal_secret().0, s);
    }
}
