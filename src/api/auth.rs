//! Passwords (argon2id) and login access tokens (JWT, HS256 pinned, `sub`, `sid`,
//! `iss`, `aud`, `iat`, `exp` all required), checked against the injectable clock. The
//! `sid` names the login's session row: the token is valid only while that row exists
//! (see [`super::access`]), so it can be revoked.

use std::sync::{Arc, Mutex};

use argon2::password_hash::{Output, ParamsString, PasswordHash, Salt, SaltString};
use argon2::{Algorithm as A2, Argon2, Block, Params, Version};
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rand::RngCore;
use serde::{Deserialize, Serialize};

pub const ISSUER: &str = "tilepost";
pub const AUDIENCE: &str = "tilepost-api";

#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    pub sub: String,
    /// The session (a row of `access_tokens`).
    pub sid: String,
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
    /// At most this many hashes at once (one per core by default): each holds
    /// `m_kib` of memory and a core for its whole run.
    slots: tokio::sync::Semaphore,
    /// The memory of finished hashes, reused by the next (at most one per slot).
    memory: Mutex<Vec<Vec<Block>>>,
    /// How many hashes this process computed (new passwords and verifications).
    hashes: std::sync::atomic::AtomicU64,
}

/// The argon2 settings of one hash.
struct Setting {
    algorithm: A2,
    version: Version,
    params: Params,
}

impl Auth {
    pub fn new(
        secret: &[u8],
        ttl_secs: i64,
        m_kib: u32,
        t: u32,
        p: u32,
        workers: usize,
    ) -> Result<Auth, String> {
        let params =
            Params::new(m_kib, t, p, None).map_err(|e| format!("argon2 parameters: {e}"))?;
        let argon = Argon2::new(A2::Argon2id, Version::V0x13, params);
        let mut auth = Auth {
            enc: EncodingKey::from_secret(secret),
            dec: DecodingKey::from_secret(secret),
            ttl_secs,
            argon,
            dummy_hash: String::new(),
            slots: tokio::sync::Semaphore::new(workers.max(1)),
            memory: Mutex::new(Vec::new()),
            hashes: std::sync::atomic::AtomicU64::new(0),
        };
        let mut pw = [0u8; 16];
        rand::thread_rng().fill_bytes(&mut pw);
        auth.dummy_hash = auth.hash_now(&pw)?;
        Ok(auth)
    }

    /// Runs `f` on the blocking pool once a slot is free, with a reused memory block.
    async fn on_pool<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&Auth, &mut Vec<Block>) -> T + Send + 'static,
    ) -> Result<T, String> {
        let _slot = self.slots.acquire().await.map_err(|e| e.to_string())?;
        self.hashes
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let me = self.clone();
        actix_web::web::block(move || {
            let mut blocks = me.take_memory();
            let out = f(&me, &mut blocks);
            me.give_back(blocks);
            out
        })
        .await
        .map_err(|e| e.to_string())
    }

    fn take_memory(&self) -> Vec<Block> {
        self.memory
            .lock()
            .ok()
            .and_then(|mut m| m.pop())
            .unwrap_or_default()
    }

    fn give_back(&self, blocks: Vec<Block>) {
        if let Ok(mut m) = self.memory.lock() {
            m.push(blocks);
        }
    }

    /// Hashes a new password (PHC string) on the bounded pool.
    pub async fn hash_password(self: &Arc<Self>, password: String) -> Result<String, String> {
        self.on_pool(move |me, blocks| me.hash_with(password.as_bytes(), blocks))
            .await?
    }

    /// Verifies a password against a stored hash, or against the dummy hash when there
    /// is no user (same work, always false), on the bounded pool.
    pub async fn verify_password(
        self: &Arc<Self>,
        password: String,
        stored: Option<String>,
    ) -> Result<bool, String> {
        self.on_pool(move |me, blocks| {
            let (hash, real) = match &stored {
                Some(h) => (h.as_str(), true),
                None => (me.dummy_hash.as_str(), false),
            };
            me.verify_with(password.as_bytes(), hash, blocks) && real
        })
        .await
    }

    fn hash_now(&self, password: &[u8]) -> Result<String, String> {
        self.hash_with(password, &mut Vec::new())
    }

    fn hash_with(&self, password: &[u8], blocks: &mut Vec<Block>) -> Result<String, String> {
        let salt = SaltString::generate(&mut rand::thread_rng());
        let setting = Setting {
            algorithm: A2::Argon2id,
            version: Version::V0x13,
            params: self.argon.params().clone(),
        };
        let output = compute(&setting, password, salt.as_salt(), blocks)?;
        let hash = PasswordHash {
            algorithm: setting.algorithm.ident(),
            version: Some(setting.version.into()),
            params: ParamsString::try_from(&setting.params).map_err(|e| e.to_string())?,
            salt: Some(salt.as_salt()),
            hash: Some(output),
        };
        Ok(hash.to_string())
    }

    fn verify_with(&self, password: &[u8], stored: &str, blocks: &mut Vec<Block>) -> bool {
        let Ok(parsed) = PasswordHash::new(stored) else {
            return false;
        };
        let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
            return false;
        };
        let setting = (|| {
            Some(Setting {
                algorithm: A2::try_from(parsed.algorithm).ok()?,
                version: parsed
                    .version
                    .map(Version::try_from)
                    .transpose()
                    .ok()?
                    .unwrap_or_default(),
                params: Params::try_from(&parsed).ok()?,
            })
        })();
        let Some(setting) = setting else {
            return false;
        };
        // `Output`'s equality is constant-time
        compute(&setting, password, salt, blocks).is_ok_and(|out| out == expected)
    }

    /// How many password hashes this process has computed since it started (the abuse
    /// limits bound them; tests count them).
    pub fn hashes_computed(&self) -> u64 {
        self.hashes.load(std::sync::atomic::Ordering::Relaxed)
    }

    pub fn ttl_secs(&self) -> i64 {
        self.ttl_secs
    }

    pub fn issue(&self, user_id: &str, session_id: &str, now_ms: i64) -> Result<String, String> {
        let iat = now_ms / 1000;
        let claims = Claims {
            sub: user_id.to_string(),
            sid: session_id.to_string(),
            iss: ISSUER.into(),
            aud: AUDIENCE.into(),
            iat,
            exp: iat + self.ttl_secs,
        };
        encode(&Header::new(Algorithm::HS256), &claims, &self.enc).map_err(|e| e.to_string())
    }

    /// Returns the claims of a token with a valid signature and lifetime (whether its
    /// session still exists is the caller's question).
    pub fn verify(&self, token: &str, now_ms: i64) -> Result<Claims, &'static str> {
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
        if data.claims.sub.is_empty() || data.claims.sid.is_empty() {
            return Err("invalid token");
        }
        Ok(data.claims)
    }
}

/// One argon2 hash in `blocks` (grown to the hash's size when smaller, and kept, so the
/// next hash reuses it: the server's memory for hashing stays at one block per slot
/// instead of an allocation per login that the allocator may never return).
fn compute(
    setting: &Setting,
    password: &[u8],
    salt: Salt<'_>,
    blocks: &mut Vec<Block>,
) -> Result<Output, String> {
    let mut salt_buf = [0u8; 64];
    let salt = salt.decode_b64(&mut salt_buf).map_err(|e| e.to_string())?;
    let argon = Argon2::new(setting.algorithm, setting.version, setting.params.clone());
    let need = setting.params.block_count();
    if blocks.len() < need {
        blocks.resize(need, Block::default());
    }
    let len = setting
        .params
        .output_len()
        .unwrap_or(Params::DEFAULT_OUTPUT_LEN);
    Output::init_with(len, |out| {
        argon
            .hash_password_into_with_memory(password, salt, out, &mut blocks[..need])
            .map_err(|_| argon2::password_hash::Error::Crypto)
    })
    .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_and_match_the_reference_implementation() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let auth = Auth::new(b"secret", 60, 64, 1, 1, 1).expect("auth");
        let mut blocks = Vec::new();
        let h = auth.hash_with(b"correct horse", &mut blocks).expect("hash");
        assert!(auth.verify_with(b"correct horse", &h, &mut blocks));
        assert!(!auth.verify_with(b"wrong horse", &h, &mut blocks));
        // the reference verifier accepts ours, and ours accepts the reference's, also
        // with other (larger) parameters than the memory held
        let reference = Argon2::new(
            A2::Argon2id,
            Version::V0x13,
            Params::new(256, 2, 1, None).expect("params"),
        );
        let parsed = PasswordHash::new(&h).expect("phc");
        assert!(Argon2::default()
            .verify_password(b"correct horse", &parsed)
            .is_ok());
        let salt = SaltString::generate(&mut rand::thread_rng());
        let theirs = reference
            .hash_password(b"pw 12345", &salt)
            .expect("hash")
            .to_string();
        assert!(auth.verify_with(b"pw 12345", &theirs, &mut blocks));
        assert!(!auth.verify_with(b"pw 12346", &theirs, &mut blocks));
        assert_eq!(blocks.len(), 256);
        assert!(!auth.verify_with(b"pw", "not a hash", &mut blocks));
    }
}
