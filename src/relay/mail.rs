//! From a webhook payload to an email: the server's message (`data.recipient`,
//! `subject`, `text`, `html`, `links.unsubscribe`) becomes a multipart text + HTML
//! message with the RFC 8058 one-click unsubscribe headers and a `Message-ID` derived
//! from the webhook id (so a retried delivery is the same email).

use std::time::{Duration, SystemTime};

use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::Message;
use serde_json::Value;

/// Why a payload cannot become an email.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MailError {
    /// A field the relay needs is missing or of the wrong type: a payload this relay does
    /// not understand (perhaps from a newer server), worth keeping for a newer relay.
    #[error("payload: {0}")]
    Unreadable(String),
    /// The message can never be sent (an address that is not one).
    #[error("message: {0}")]
    Invalid(String),
}

/// The email a payload asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email {
    pub to_email: String,
    pub to_name: Option<String>,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// The one-click unsubscribe URL (`links.unsubscribe`).
    pub unsubscribe: Option<String>,
    /// The event's time (`timestamp`, RFC 3339), the email's `Date`.
    pub date: Option<SystemTime>,
}

fn field<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    path.iter().try_fold(v, |v, k| v.get(k))?.as_str()
}

fn required(v: &Value, path: &[&str]) -> Result<String, MailError> {
    field(v, path)
        .map(str::to_string)
        .ok_or_else(|| MailError::Unreadable(format!("missing {}", path.join("."))))
}

/// A URL fit for a header: http(s), printable ASCII, no spaces or angle brackets.
fn header_url(u: &str) -> bool {
    (u.starts_with("https://") || u.starts_with("http://"))
        && u.len() <= 900
        && u.bytes()
            .all(|b| b.is_ascii_graphic() && b != b'<' && b != b'>')
}

impl Email {
    /// Reads the email out of a webhook body `{type, timestamp, data}`.
    pub fn from_payload(body: &str) -> Result<Email, MailError> {
        let v: Value = serde_json::from_str(body)
            .map_err(|_| MailError::Unreadable("not a JSON document".into()))?;
        let d = v
            .get("data")
            .ok_or_else(|| MailError::Unreadable("missing data".into()))?;
        let unsubscribe = match field(d, &["links", "unsubscribe"]) {
            Some(u) if header_url(u) => Some(u.to_string()),
            Some(_) => return Err(MailError::Invalid("unsubscribe link is not a URL".into())),
            None => None,
        };
        let date = field(&v, &["timestamp"]).and_then(|t| {
            let t = time::OffsetDateTime::parse(t, &time::format_description::well_known::Rfc3339)
                .ok()?;
            let secs = u64::try_from(t.unix_timestamp()).ok()?;
            Some(SystemTime::UNIX_EPOCH + Duration::from_secs(secs))
        });
        Ok(Email {
            to_email: required(d, &["recipient", "email"])?,
            to_name: field(d, &["recipient", "name"])
                .filter(|n| !n.trim().is_empty())
                .map(str::to_string),
            subject: required(d, &["subject"])?,
            text: required(d, &["text"])?,
            html: required(d, &["html"])?,
            unsubscribe,
            date,
        })
    }

    /// The message, from `from`, with `Message-ID: <{webhook_id}@{from's domain}>`.
    pub fn message(&self, from: &Mailbox, webhook_id: &str) -> Result<Message, MailError> {
        let to = Mailbox::new(
            self.to_name.clone(),
            self.to_email
                .parse()
                .map_err(|_| MailError::Invalid("the recipient is not an email address".into()))?,
        );
        let mut b = Message::builder()
            .from(from.clone())
            .to(to)
            .subject(self.subject.clone())
            .message_id(Some(message_id(webhook_id, from)))
            .date(self.date.unwrap_or_else(SystemTime::now))
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("Auto-Submitted"),
                "auto-generated".into(),
            ));
        if let Some(u) = &self.unsubscribe {
            b = b
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe"),
                    format!("<{u}>"),
                ))
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                    "List-Unsubscribe=One-Click".into(),
                ));
        }
        b.multipart(MultiPart::alternative_plain_html(
            self.text.clone(),
            self.html.clone(),
        ))
        .map_err(|e| MailError::Invalid(e.to_string()))
    }
}

/// `<{id}@{domain of from}>`; the id is checked to be a safe token first.
pub fn message_id(webhook_id: &str, from: &Mailbox) -> String {
    format!("<{webhook_id}@{}>", from.email.domain())
}

/// A webhook id usable in a `Message-ID`: 1 to 200 of `A-Z a-z 0-9 _ - .`.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 200
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload() -> String {
        serde_json::json!({
            "type": "game.turn_started",
            "timestamp": "2026-12-01T08:00:00Z",
            "data": {
                "recipient": {"user_id": "u1", "email": "ann@example.com", "name": "ann"},
                "subject": "Your turn in tilepost game 1234abcd",
                "text": "Hello ann,\n\nIt is your turn.\n",
                "html": "<p>Hello ann,</p><p>It is your turn.</p>",
                "links": {"unsubscribe": "http://t.test/v1/unsubscribe?token=abc.def"},
            }
        })
        .to_string()
    }

    #[test]
    fn a_payload_becomes_a_multipart_message() {
        let e = Email::from_payload(&payload()).unwrap_or_else(|e| panic!("{e}"));
        let from: Mailbox = "tilepost <games@tilepost.test>"
            .parse()
            .unwrap_or_else(|_| {
                Mailbox::new(None, "a@b.c".parse().unwrap_or_else(|_| panic!("address")))
            });
        let m = e
            .message(&from, "msg_0123abcd")
            .unwrap_or_else(|e| panic!("{e}"));
        let raw = String::from_utf8_lossy(&m.formatted()).into_owned();
        assert!(
            raw.contains("Message-ID: <msg_0123abcd@tilepost.test>"),
            "{raw}"
        );
        assert!(raw.contains("To: ann <ann@example.com>"));
        assert!(raw.contains("List-Unsubscribe: <http://t.test/v1/unsubscribe?token=abc.def>"));
        assert!(raw.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
        assert!(raw.contains("multipart/alternative"));
        assert!(raw.contains("Date: Tue, 01 Dec 2026 08:00:00 +0000"));
    }

    #[test]
    fn bad_payloads() {
        assert!(matches!(
            Email::from_payload("nope"),
            Err(MailError::Unreadable(_))
        ));
        assert!(matches!(
            Email::from_payload(r#"{"data": {"subject": "s"}}"#),
            Err(MailError::Unreadable(_))
        ));
        let injected = payload().replace("token=abc.def", "token=abc\\r\\nBcc: x@y.z");
        assert!(matches!(
            Email::from_payload(&injected),
            Err(MailError::Invalid(_))
        ));
        let mut e = Email::from_payload(&payload()).unwrap_or_else(|e| panic!("{e}"));
        e.to_email = "not an address".into();
        let from: Mailbox = "games@tilepost.test"
            .parse()
            .unwrap_or_else(|_| panic!("address"));
        assert!(matches!(
            e.message(&from, "msg_1"),
            Err(MailError::Invalid(_))
        ));
        assert!(valid_id("msg_0a-1.b") && !valid_id("a b") && !valid_id("<x>") && !valid_id(""));
    }
}
