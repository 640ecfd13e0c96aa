//! Standard Webhooks signatures (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`
//! under the endpoint's `whsec_` secret), secret generation, and the signed tokens of
//! unsubscribe links.

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine as _;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// The key bytes of a `whsec_` secret; None when it is not `whsec_` + base64.
pub fn secret_key(secret: &str) -> Option<Vec<u8>> {
    let b64 = secret.strip_prefix("whsec_")?;
    STANDARD.decode(b64).ok().filter(|k| !k.is_empty())
}

/// A fresh secret: `whsec_` + base64 of 24 random bytes.
pub fn new_secret() -> String {
    let mut b = [0u8; 24];
    rand::thread_rng().fill_bytes(&mut b);
    format!("whsec_{}", STANDARD.encode(b))
}

/// The `webhook-signature` header value for a message.
pub fn signature(key: &[u8], id: &str, timestamp_secs: i64, body: &str) -> String {
    // HMAC accepts keys of any length
    let mut mac = match HmacSha256::new_from_slice(key) {
        Ok(m) => m,
        Err(_) => return String::new(),
    };
    mac.update(id.as_bytes());
    mac.update(b".");
    mac.update(timestamp_secs.to_string().as_bytes());
    mac.update(b".");
    mac.update(body.as_bytes());
    format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
}

/// Checks a `webhook-signature` header (space-separated `v1,<base64>` entries, any of
/// which may match) for a message, comparing MACs in constant time.
pub fn verify(key: &[u8], id: &str, timestamp_secs: i64, body: &str, header: &str) -> bool {
    header.split(' ').any(|entry| {
        let Some(b64) = entry.strip_prefix("v1,") else {
            return false;
        };
        let Ok(given) = STANDARD.decode(b64) else {
            return false;
        };
        let Ok(mut mac) = HmacSha256::new_from_slice(key) else {
            return false;
        };
        mac.update(id.as_bytes());
        mac.update(b".");
        mac.update(timestamp_secs.to_string().as_bytes());
        mac.update(b".");
        mac.update(body.as_bytes());
        mac.verify_slice(&given).is_ok()
    })
}

/// What an unsubscribe token says: this user wants no more email of this type (`*`:
/// none at all).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsubscribe {
    pub user_id: String,
    pub event_type: String,
}

fn mac_of(key: &[u8], payload: &str) -> Vec<u8> {
    match HmacSha256::new_from_slice(key) {
        Ok(mut m) => {
            m.update(b"unsubscribe.");
            m.update(payload.as_bytes());
            m.finalize().into_bytes().to_vec()
        }
        Err(_) => Vec::new(),
    }
}

/// A token for an unsubscribe link (no expiry: a link in an old email keeps working).
pub fn unsubscribe_token(key: &[u8], user_id: &str, event_type: &str) -> String {
    let payload = format!("{user_id}|{event_type}");
    format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(payload.as_bytes()),
        URL_SAFE_NO_PAD.encode(mac_of(key, &payload))
    )
}

/// Checks an unsubscribe token (constant-time comparison of the MAC).
pub fn verify_unsubscribe(key: &[u8], token: &str) -> Option<Unsubscribe> {
    let (p, m) = token.split_once('.')?;
    let payload = String::from_utf8(URL_SAFE_NO_PAD.decode(p).ok()?).ok()?;
    let given = URL_SAFE_NO_PAD.decode(m).ok()?;
    let mut mac = HmacSha256::new_from_slice(key).ok()?;
    mac.update(b"unsubscribe.");
    mac.update(payload.as_bytes());
    mac.verify_slice(&given).ok()?;
    let (user_id, event_type) = payload.split_once('|')?;
    Some(Unsubscribe {
        user_id: user_id.to_string(),
        event_type: event_type.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_webhooks_example() {
        // the example of the Standard Webhooks specification
        let key = secret_key("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap_or_default();
        let body = r#"{"test": 2432232314}"#;
        assert_eq!(
            signature(&key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        );
    }

    #[test]
    fn verify_accepts_the_signature_and_nothing_else() {
        let key = secret_key("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap_or_default();
        let body = r#"{"test": 2432232314}"#;
        let sig = signature(&key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body);
        assert!(verify(
            &key,
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            body,
            &sig
        ));
        // one of several signatures (a rotated secret) is enough
        let several = format!("v1,AAAA {sig}");
        assert!(verify(
            &key,
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            body,
            &several
        ));
        assert!(!verify(&key, "msg_other", 1614265330, body, &sig));
        assert!(!verify(
            &key,
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265331,
            body,
            &sig
        ));
        assert!(!verify(
            &key,
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            "{}",
            &sig
        ));
        assert!(!verify(
            b"other",
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            body,
            &sig
        ));
        assert!(!verify(
            &key,
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            body,
            "v2,x"
        ));
        assert!(!verify(
            &key,
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            body,
            ""
        ));
    }

    #[test]
    fn unsubscribe_tokens_round_trip_and_resist_forgery() {
        let t = unsubscribe_token(b"k", "u1", "game.turn_started");
        assert_eq!(
            verify_unsubscribe(b"k", &t),
            Some(Unsubscribe {
                user_id: "u1".into(),
                event_type: "game.turn_started".into()
            })
        );
        assert_eq!(verify_unsubscribe(b"other", &t), None);
        let forged = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode("u2|*"),
            t.split('.').nth(1).unwrap_or("")
        );
        assert_eq!(verify_unsubscribe(b"k", &forged), None);
        assert_eq!(verify_unsubscribe(b"k", "garbage"), None);
    }
}
