//! Web push (RFC 8030): the server's VAPID key (RFC 8292), what a notification shows,
//! and the encrypted request to a push service (RFC 8291, `aes128gcm`).
//!
//! The payload's encryption is `web-push-native` (RustCrypto's p256, aes-gcm and hkdf:
//! pure Rust, like the rest of the server's TLS). The VAPID token is a JWT signed with
//! ES256 by p256's ECDSA here: the crate's own `vapid` feature would bring jwt-simple,
//! with k256, p384 and ed25519 that nothing else needs.
//!
//! A notification carries only what it shows: a title, a body and the game's link, and
//! a tag (so that a newer notification about a game replaces the older one). Never the
//! message's other data (no email address, no token, no drawn tile, no board).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use p256::ecdsa::signature::Signer as _;
use p256::ecdsa::{Signature, SigningKey};
use serde_json::{json, Value};

use crate::i18n;
use crate::store::{PushSubscriptionRow, CHAT_MESSAGE};

/// How long a VAPID token is valid (RFC 8292 allows at most 24 hours).
const VAPID_TTL_SECS: i64 = 12 * 3600;

/// The server's VAPID key pair and the contact (`sub`) its tokens name.
#[derive(Clone)]
pub struct Vapid {
    key: SigningKey,
    public: String,
    subject: String,
}

impl std::fmt::Debug for Vapid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vapid")
            .field("public", &self.public)
            .field("subject", &self.subject)
            .finish_non_exhaustive()
    }
}

impl Vapid {
    /// A fresh private key, as base64url of its 32-byte scalar.
    pub fn new_private_key() -> String {
        let k = SigningKey::random(&mut rand::rngs::OsRng);
        URL_SAFE_NO_PAD.encode(k.to_bytes())
    }

    /// The key pair of a private key given as base64url of its 32-byte scalar.
    pub fn from_private_key(b64: &str, subject: &str) -> Result<Vapid, String> {
        let bytes = URL_SAFE_NO_PAD
            .decode(b64.trim().trim_end_matches('='))
            .map_err(|_| "not base64url".to_string())?;
        if bytes.len() != 32 {
            return Err("not a 32-byte P-256 private key".into());
        }
        let key = SigningKey::from_slice(&bytes).map_err(|_| "not a P-256 private key")?;
        let public = URL_SAFE_NO_PAD.encode(key.verifying_key().to_encoded_point(false).as_bytes());
        Ok(Vapid {
            key,
            public,
            subject: subject.to_string(),
        })
    }

    /// The application server key: base64url of the uncompressed public key (65 bytes),
    /// what `pushManager.subscribe` takes as `applicationServerKey`.
    pub fn public_key(&self) -> &str {
        &self.public
    }

    /// The `Authorization` header for a push to `origin` (`scheme://host[:port]`), valid
    /// for 12 hours from `now_secs`.
    pub fn authorization(&self, origin: &str, now_secs: i64) -> String {
        let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = json!({
            "aud": origin,
            "exp": now_secs + VAPID_TTL_SECS,
            "sub": self.subject,
        });
        let claims = URL_SAFE_NO_PAD.encode(claims.to_string());
        let input = format!("{header}.{claims}");
        let sig: Signature = self.key.sign(input.as_bytes());
        let jwt = format!("{input}.{}", URL_SAFE_NO_PAD.encode(sig.to_bytes()));
        format!("vapid t={jwt}, k={}", self.public)
    }
}

/// The origin (`scheme://host[:port]`) of a push endpoint: the VAPID token's audience.
pub fn origin(endpoint: &reqwest::Url) -> String {
    endpoint.origin().ascii_serialization()
}

/// What the push of a message says, and how the push service should treat it.
#[derive(Clone, Debug, PartialEq)]
pub struct Notification {
    /// The JSON the service worker shows: `{title, body, url, tag, kind}`.
    pub payload: Value,
    /// Seconds the push service keeps it for an offline device.
    pub ttl_secs: u64,
    /// RFC 8030 `Urgency`.
    pub urgency: &'static str,
}

fn trimmed(s: &str, max: usize) -> String {
    let s = s.trim();
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// The notification of an outbox message (its JSON `payload`) in `locale`; None when the
/// message is not one that is pushed.
pub fn notification(message_kind: &str, payload: &str, locale: &str) -> Option<Notification> {
    let kind = crate::store::push_kind_of(message_kind)?;
    let v: Value = serde_json::from_str(payload).ok()?;
    let data = &v["data"];
    let game = data["game_id"].as_str().unwrap_or_default();
    let short = game.get(..8).unwrap_or(game);
    let args = [("game", short.into())];
    let (title, body, ttl_secs, urgency) = match message_kind {
        CHAT_MESSAGE => (
            i18n::text(locale, "push-chat-title", &args),
            format!(
                "{}: {}",
                data["author"].as_str().unwrap_or_default(),
                data["text"].as_str().unwrap_or_default()
            ),
            3600,
            "low",
        ),
        "game.turn_started" => (
            i18n::text(locale, "turn-subject", &args),
            i18n::text(locale, "push-turn-body", &[]),
            3 * 86_400,
            "normal",
        ),
        "tournament.round_started" => (
            data["subject"].as_str().unwrap_or_default().to_string(),
            i18n::text(locale, "push-tournament-body", &[]),
            3 * 86_400,
            "normal",
        ),
        "game.deadline_near" => (
            i18n::text(locale, "push-deadline-title", &args),
            i18n::text(locale, "push-deadline-body", &[]),
            86_400,
            "high",
        ),
        _ => (
            i18n::text(
                locale,
                "invited-subject",
                &[("by", data["invited_by"].as_str().unwrap_or_default().into())],
            ),
            i18n::text(locale, "push-invited-body", &args),
            3 * 86_400,
            "low",
        ),
    };
    let url = data["links"]["play"].as_str().unwrap_or_default();
    Some(Notification {
        payload: json!({
            "title": trimmed(&title, 120),
            "body": trimmed(&body, 240),
            "url": url,
            "tag": match data["tournament_id"].as_str() {
                Some(t) => format!("tournament-{t}"),
                None => format!("game-{game}"),
            },
            "kind": kind,
        }),
        ttl_secs,
        urgency,
    })
}

/// Why a push could not be built.
#[derive(Debug, thiserror::Error)]
pub enum PushError {
    #[error("the subscription's {0} is not valid")]
    Keys(&'static str),
    #[error("the subscription's endpoint is not a valid URL")]
    Endpoint,
    #[error("encryption: {0}")]
    Encrypt(String),
}

/// The browser's keys of a subscription, checked: `p256dh` a point on P-256 (65 bytes
/// uncompressed), `auth` 16 bytes.
pub fn check_keys(p256dh: &str, auth: &str) -> Result<(), PushError> {
    keys(p256dh, auth).map(|_| ())
}

fn keys(p256dh: &str, auth: &str) -> Result<(p256::PublicKey, web_push_native::Auth), PushError> {
    let d = |s: &str| URL_SAFE_NO_PAD.decode(s.trim().trim_end_matches('=')).ok();
    let pk = d(p256dh)
        .filter(|b| b.len() == 65 && b[0] == 4)
        .and_then(|b| p256::PublicKey::from_sec1_bytes(&b).ok())
        .ok_or(PushError::Keys("p256dh"))?;
    let auth = d(auth)
        .filter(|b| b.len() == 16)
        .map(|b| web_push_native::Auth::clone_from_slice(&b))
        .ok_or(PushError::Keys("auth"))?;
    Ok((pk, auth))
}

/// An encrypted push request: its headers (`TTL`, `Content-Encoding`, `Content-Type`,
/// `Urgency`) and body; the caller adds `Authorization`.
pub struct Encrypted {
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// Encrypts `n` for subscription `s` (RFC 8291, `aes128gcm`, one record).
pub fn encrypt(s: &PushSubscriptionRow, n: &Notification) -> Result<Encrypted, PushError> {
    let (pk, auth) = keys(&s.p256dh, &s.auth)?;
    let uri: http::Uri = s.endpoint.parse().map_err(|_| PushError::Endpoint)?;
    let req = web_push_native::WebPushBuilder::new(uri, pk, auth)
        .with_valid_duration(std::time::Duration::from_secs(n.ttl_secs))
        .build(n.payload.to_string())
        .map_err(|e| PushError::Encrypt(e.to_string()))?;
    let mut headers: Vec<(String, String)> = req
        .headers()
        .iter()
        // reqwest sets the length of the body itself
        .filter(|(k, _)| *k != http::header::CONTENT_LENGTH)
        .filter_map(|(k, v)| Some((k.as_str().to_string(), v.to_str().ok()?.to_string())))
        .collect();
    headers.push(("Urgency".into(), n.urgency.into()));
    Ok(Encrypted {
        headers,
        body: req.into_body(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::ecdsa::signature::Verifier as _;

    #[test]
    fn vapid_tokens_verify_with_the_public_key() {
        let v = Vapid::from_private_key(&Vapid::new_private_key(), "mailto:ops@example.com")
            .expect("a key");
        let h = v.authorization("https://push.example.net", 1_000);
        let (t, k) = h
            .strip_prefix("vapid t=")
            .and_then(|r| r.split_once(", k="))
            .expect("vapid t=…, k=…");
        assert_eq!(k, v.public_key());
        let parts: Vec<&str> = t.split('.').collect();
        assert_eq!(parts.len(), 3);
        let claims: Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).expect("b64")).expect("json");
        assert_eq!(claims["aud"], "https://push.example.net");
        assert_eq!(claims["exp"], 1_000 + VAPID_TTL_SECS);
        let pk = URL_SAFE_NO_PAD.decode(k).expect("b64");
        let vk = p256::ecdsa::VerifyingKey::from_sec1_bytes(&pk).expect("key");
        let sig =
            Signature::from_slice(&URL_SAFE_NO_PAD.decode(parts[2]).expect("b64")).expect("r||s");
        vk.verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &sig)
            .expect("signature verifies");
        assert!(Vapid::from_private_key("short", "x").is_err());
    }

    #[test]
    fn a_turn_push_shows_the_subject_and_the_link_only() {
        let payload = json!({"type": "game.turn_started", "data": {
            "game_id": "5b1d6a2e-8c0e", "subject": "x", "text": "You drew a straight road",
            "recipient": {"email": "b@example.com"},
            "links": {"play": "https://t.example/play/games/5b1d6a2e-8c0e"}}})
        .to_string();
        let n = notification("game.turn_started", &payload, "en").expect("pushed");
        assert_eq!(n.payload["title"], "Your turn in tilepost game 5b1d6a2e");
        assert_eq!(
            n.payload["url"],
            "https://t.example/play/games/5b1d6a2e-8c0e"
        );
        assert_eq!(n.payload["kind"], "your_turn");
        let s = n.payload.to_string();
        assert!(!s.contains("road") && !s.contains("example.com\""), "{s}");
        assert!(notification("game.finished", &payload, "en").is_none());
        let pt = notification("game.turn_started", &payload, "pt-BR").expect("pushed");
        assert_ne!(pt.payload["body"], n.payload["body"]);
    }
}
