//! Passwords (argon2id) and access tokens (JWT, HS256 pinned, `sub`, `iss`, `aud`,
//! `iat`, `exp` all required), checked against the injectable clock.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm as A2, Argon2, Params, Version};
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rand::RngCore;
use serde::{Deserialize, Serialize};

pub const ISSUER: &str = "tilepost";
pub const AUDIENCE: &str = "tilepost-api";

#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    pub sub: String,
    pub iss: String,
    pub aud: String,
    pub iat: i64,
    pub exp: i64,
}

/// Keys and cost settings.
pub struct Auth {
    enc: EncodingKey,
    dec: DecodingKey,
    ttl_secs: i64,
    argon: Argon2<'static>,
    /// A hash of a random password, verified when the user does not exist so that
    /// both answers take the same time.
    dummy_hash: String,
}

impl Auth {
    pub fn new(secret: &[u8], ttl_secs: i64, m_kib: u32, t: u32, p: u32) -> Result<Auth, String> {
        let params =
            Params::new(m_kib, t, p, None).map_err(|e| format!("argon2 parameters: {e}"))?;
        let argon = Argon2::new(A2::Argon2id, Version::V0x13, params);
        let mut pw = [0u8; 16];
        rand::thread_rng().fill_bytes(&mut pw);
        let salt = SaltString::generate(&mut rand::thread_rng());
        let dummy_hash = argon
            .hash_password(&pw, &salt)
            .map_err(|e| format!("argon2: {e}"))?
            .to_string();
        Ok(Auth {
            enc: EncodingKey::from_secret(secret),
            dec: DecodingKey::from_secret(secret),
            ttl_secs,
            argon,
            dummy_hash,
        })
    }

    pub fn hash_password(&self, password: &str) -> Result<String, String> {
        let salt = SaltString::generate(&mut rand::thread_rng());
        self.argon
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| e.to_string())
    }

    /// Verifies a password against a stored hash, or against the dummy hash when there
    /// is no user (same work, always false).
    pub fn verify_password(&self, password: &str, stored: Option<&str>) -> bool {
        let (hash, real) = match stored {
            Some(h) => (h, true),
            None => (self.dummy_hash.as_str(), false),
        };
        let Ok(parsed) = PasswordHash::new(hash) else {
            return false;
        };
        let ok = self
            .argon
            .verify_password(password.as_bytes(), &parsed)
            .is_ok();
        ok && real
    }

    pub fn ttl_secs(&self) -> i64 {
        self.ttl_secs
    }

    pub fn issue(&self, user_id: &str, now_ms: i64) -> Result<String, String> {
        let iat = now_ms / 1000;
        let claims = Claims {
            sub: user_id.to_string(),
            iss: ISSUER.into(),
            aud: AUDIENCE.into(),
            iat,
            exp: iat + self.ttl_secs,
        };
        encode(&Header::new(Algorithm::HS256), &claims, &self.enc).map_err(|e| e.to_string())
    }

    /// Returns the user id of a valid token.
    pub fn verify(&self, token: &str, now_ms: i64) -> Result<String, &'static str> {
        let mut v = Validation::new(Algorithm::HS256);
        v.set_issuer(&[ISSUER]);
        v.set_audience(&[AUDIENCE]);
        v.set_required_spec_claims(&["sub", "iss", "aud", "iat", "exp"]);
        // expiry is checked below against the server's clock
        v.validate_exp = false;
        v.leeway = 0;
        let data = decode::<Claims>(token, &self.dec, &v).map_err(|_| "invalid token")?;
        let now = now_ms / 1000;
        if data.claims.exp <= now {
            return Err("token expired");
        }
        if data.claims.iat > now + 60 {
            return Err("token issued in the future");
        }
        if data.claims.sub.is_empty() {
            return Err("invalid token");
        }
        Ok(data.claims.sub)
    }
}
