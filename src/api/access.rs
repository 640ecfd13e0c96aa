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
//! Scopes: the operation's security requirements in the OpenAPI document name the scope
//! it needs (alternative requirements: any one of them); the same document is read here,
//! so what is documented is what is enforced. A login token has every scope. The
//! pseudo-scope `session` marks the operations on the account's credentials and identity
//! that only a login session may call: no personal access token has it. Every request
//! with a token to a documented operation is checked before its handler runs
//! ([`super::extract::authorize`]), so the scope is judged before anything else about
//! the request.

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
    new_secret(PERSONAL_PREFIX)
}

/// A new secret (`prefix` and 256 random bits in base64url: 43 characters) and the hash
/// that is stored ([`secret_hash`]).
pub fn new_secret(prefix: &str) -> (String, String) {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let secret = format!("{prefix}{}", URL_SAFE_NO_PAD.encode(bytes));
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

/// The pseudo-scope of operations that only a login session may call (credentials and
/// identity: password, email, deletion, export, creating tokens). No personal access
/// token holds it, whatever its scopes (the rule of GitHub's and lichess's tokens).
pub const SESSION_SCOPE: &str = "session";

fn insufficient(detail: String, scope: &str) -> ApiError {
    let mut e = ApiError::new(ProblemCode::InsufficientScope, detail);
    e.headers.push((
        "www-authenticate",
        format!("Bearer error=\"insufficient_scope\", scope=\"{scope}\""),
    ));
    e
}

/// `403 insufficient-scope` unless `have` holds `need`.
pub fn require(have: Scopes, need: Option<Scope>) -> Result<(), ApiError> {
    match need {
        Some(s) if !have.contains(s) => Err(insufficient(
            format!("this operation needs a token with the scope {}", s.as_str()),
            s.as_str(),
        )),
        _ => Ok(()),
    }
}

/// What a documented operation asks of a token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Needs {
    /// It takes no token (one sent is ignored).
    Nothing,
    /// A token with any one of these scopes (the document's alternative requirements).
    AnyOf(Vec<Scope>),
    /// A login session (see [`SESSION_SCOPE`]).
    Session,
}

/// What the security requirements of an operation in the document ask.
pub fn needs_of(op: &serde_json::Value) -> Needs {
    let Some(reqs) = op.get("security").and_then(|s| s.as_array()) else {
        return Needs::Nothing;
    };
    let names: Vec<&str> = reqs
        .iter()
        .filter_map(|r| r.get("bearer").and_then(|b| b.as_array()))
        .flatten()
        .filter_map(|s| s.as_str())
        .collect();
    if names.contains(&SESSION_SCOPE) {
        return Needs::Session;
    }
    let scopes: Vec<Scope> = names.iter().filter_map(|s| Scope::parse(s)).collect();
    if scopes.is_empty() {
        Needs::Nothing
    } else {
        Needs::AnyOf(scopes)
    }
}

/// What each documented operation needs, by method and path template.
fn table() -> &'static HashMap<(String, String), Needs> {
    static T: OnceLock<HashMap<(String, String), Needs>> = OnceLock::new();
    T.get_or_init(|| {
        let mut out = HashMap::new();
        let paths = super::openapi_value()
            .get("paths")
            .and_then(|p| p.as_object());
        for (path, item) in paths.into_iter().flatten() {
            for (method, op) in item.as_object().into_iter().flatten() {
                if op.get("responses").is_none() {
                    continue;
                }
                out.insert((method.to_ascii_uppercase(), path.clone()), needs_of(op));
            }
        }
        out
    })
}

/// Whether the operation at `method` and `pattern` also serves anonymous callers (its
/// requirements include the empty one): a missing, invalid or expired token reads as
/// anonymous there, though a valid token without the scope is still refused.
pub fn anonymous_allowed(method: &str, pattern: Option<&str>) -> bool {
    static T: OnceLock<std::collections::HashSet<(String, String)>> = OnceLock::new();
    let t = T.get_or_init(|| {
        let mut out = std::collections::HashSet::new();
        let paths = super::openapi_value()
            .get("paths")
            .and_then(|p| p.as_object());
        for (path, item) in paths.into_iter().flatten() {
            for (method, op) in item.as_object().into_iter().flatten() {
                let open = op
                    .get("security")
                    .and_then(|s| s.as_array())
                    .is_some_and(|reqs| {
                        reqs.iter()
                            .any(|r| r.as_object().is_some_and(|o| o.is_empty()))
                    });
                if open {
                    out.insert((method.to_ascii_uppercase(), path.clone()));
                }
            }
        }
        out
    });
    let method = if method == "HEAD" { "GET" } else { method };
    pattern.is_some_and(|p| t.contains(&(method.to_string(), p.to_string())))
}

/// What the operation at `method` and `pattern` (the matched route) needs; `None` when
/// the document does not know it (then only a login session passes).
pub fn needed(method: &str, pattern: Option<&str>) -> Option<&'static Needs> {
    let method = if method == "HEAD" { "GET" } else { method };
    pattern.and_then(|p| table().get(&(method.to_string(), p.to_string())))
}

/// Checks a grant against what an operation needs.
pub fn check(grant: &Grant, needs: &Needs) -> Result<(), ApiError> {
    match needs {
        Needs::Nothing => Ok(()),
        Needs::AnyOf(scopes) if scopes.iter().any(|s| grant.scopes.contains(*s)) => Ok(()),
        Needs::AnyOf(scopes) => {
            let names: Vec<&str> = scopes.iter().map(|s| s.as_str()).collect();
            Err(insufficient(
                format!(
                    "this operation needs a token with the scope {}",
                    names.join(" or ")
                ),
                &names.join(" "),
            ))
        }
        Needs::Session if grant.personal => Err(insufficient(
            "this operation needs a login session: a personal access token is never enough".into(),
            SESSION_SCOPE,
        )),
        Needs::Session => Ok(()),
    }
}

/// Checks the grant against the operation of `req`.
pub fn allow(grant: &Grant, req: &actix_web::HttpRequest) -> Result<(), ApiError> {
    match needed(req.method().as_str(), req.match_pattern().as_deref()) {
        Some(needs) => check(grant, needs),
        None => check(grant, &Needs::Session),
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
    fn every_operation_with_a_token_names_known_scopes() {
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
                        // one scope per requirement; alternatives are requirements
                        assert_eq!(b.len(), 1, "{method} {path}: {b:?}");
                        for s in b {
                            let s = s.as_str().unwrap_or_default();
                            assert!(
                                Scope::parse(s).is_some() || s == SESSION_SCOPE,
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
        assert_eq!(n, Some(&Needs::AnyOf(vec![Scope::GamePlay])));
        assert_eq!(
            needed("GET", Some("/v1/games/{id}")),
            Some(&Needs::AnyOf(vec![Scope::GameRead]))
        );
        assert_eq!(
            needed("POST", Some("/v1/users/me/password")),
            Some(&Needs::Session)
        );
        assert_eq!(
            needed("POST", Some("/v1/auth/logout")),
            Some(&Needs::AnyOf(Scope::ALL.to_vec()))
        );
        assert_eq!(needed("POST", Some("/v1/users")), Some(&Needs::Nothing));
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
