//! Account messages: the single-use links of address confirmation and password reset,
//! and the notice of a changed password. They go to their owner through the email relay
//! only.

use serde_json::{json, Value};

use super::{escape, layout, Notifier};
use crate::clock::rfc3339;
use crate::i18n;
use crate::store::{OutboxRow, OutboxStatus, Revoked};

/// Who an account message goes to.
pub struct Recipient<'a> {
    pub user_id: &'a str,
    pub name: &'a str,
    pub email: &'a str,
    /// `en` or `pt-BR`.
    pub locale: &'a str,
    pub time_zone: &'a str,
}

/// An account message: a greeting, `body` (text and HTML), the link, and why it came.
fn account_row(
    kind: &str,
    to: &Recipient<'_>,
    keys: [&str; 4],
    link: (&str, String),
    expires_at: i64,
    now: i64,
) -> OutboxRow {
    let loc = to.locale;
    let [subject, body, action, ignore] = keys;
    let expires = i18n::datetime(expires_at, loc, to.time_zone);
    let args = [
        ("name", to.name.into()),
        ("expires", expires.as_str().into()),
    ];
    let (link_name, url) = link;
    account_message(
        kind,
        to,
        i18n::text(loc, subject, &args),
        vec![(i18n::text(loc, body, &args), i18n::html(loc, body, &args))],
        (
            link_name,
            i18n::text(loc, action, &args),
            i18n::html(loc, action, &args),
            url,
        ),
        (
            i18n::text(loc, ignore, &args),
            i18n::html(loc, ignore, &args),
        ),
        json!({"expires_at": rfc3339(expires_at)}),
        now,
    )
}

/// An account message's parts: the greeting, paragraphs (text, HTML), one link (its
/// name, the action's words as text and HTML, the URL), a closing line, and fields of
/// `data` beside the email's parts.
#[allow(clippy::too_many_arguments)]
fn account_message(
    kind: &str,
    to: &Recipient<'_>,
    subject: String,
    paragraphs: Vec<(String, String)>,
    link: (&str, String, String, String),
    footer: (String, String),
    extra: Value,
    now: i64,
) -> OutboxRow {
    let loc = to.locale;
    let (link_name, action_text, action_html, url) = link;
    let mut text = format!(
        "{}\n\n",
        i18n::text(loc, "greeting", &[("name", to.name.into())])
    );
    let mut blocks = layout::para(&i18n::html(loc, "greeting", &[("name", to.name.into())]));
    for (t, h) in &paragraphs {
        text.push_str(t);
        text.push('\n');
        blocks.push_str(&layout::para(h));
    }
    text.push_str(&format!("{action_text}: {url}\n\n{}\n", footer.0));
    blocks.push_str(&layout::button(&url, &action_html));
    blocks.push_str(&layout::note(&footer.1));
    let html = layout::page(&layout::Page {
        lang: loc,
        title: &escape(&subject),
        blocks: &blocks,
        footer: &[],
    });
    let mut data = json!({
        "recipient": {"user_id": to.user_id, "email": to.email, "name": to.name},
        "subject": subject,
        "text": text,
        "html": html,
        "links": {link_name: url},
    });
    if let (Some(d), Some(more)) = (data.as_object_mut(), extra.as_object()) {
        for (k, v) in more {
            d.insert(k.clone(), v.clone());
        }
    }
    let body = json!({
        "type": kind,
        "timestamp": rfc3339(now),
        "data": data,
    });
    OutboxRow {
        id: format!("msg_{}", uuid::Uuid::new_v4().simple()),
        kind: kind.to_string(),
        user_id: to.user_id.to_string(),
        game_id: None,
        payload: body.to_string(),
        status: OutboxStatus::Pending.as_str().into(),
        attempts: 0,
        next_attempt_at: now,
        delivered_at: None,
        created_at: now,
    }
}

/// How a password came to change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PasswordChange {
    /// With the link of a reset email.
    Reset,
    /// From the account, with the current password.
    Change,
}

/// `account.password_changed`: the account's password changed (how and when), what no
/// longer works, and the way back for an owner who did not do it (the reset page).
pub fn password_changed(
    n: &Notifier,
    to: &Recipient<'_>,
    how: PasswordChange,
    revoked: &Revoked,
    now: i64,
) -> OutboxRow {
    let loc = to.locale;
    let when = i18n::datetime(now, loc, to.time_zone);
    let tokens = revoked.personal_tokens.join(", ");
    let args = [
        ("name", to.name.into()),
        ("when", when.as_str().into()),
        ("sessions", (revoked.sessions as i64).into()),
        ("tokens", (revoked.personal_tokens.len() as i64).into()),
        ("names", tokens.as_str().into()),
    ];
    let body = match how {
        PasswordChange::Reset => "changed-body-reset",
        PasswordChange::Change => "changed-body-change",
    };
    let mut paragraphs = vec![
        (i18n::text(loc, body, &args), i18n::html(loc, body, &args)),
        (
            i18n::text(loc, "changed-revoked", &args),
            i18n::html(loc, "changed-revoked", &args),
        ),
    ];
    if !revoked.personal_tokens.is_empty() {
        paragraphs.push((
            i18n::text(loc, "changed-tokens", &args),
            i18n::html(loc, "changed-tokens", &args),
        ));
    }
    if revoked.calendar {
        paragraphs.push((
            i18n::text(loc, "changed-calendar", &args),
            i18n::html(loc, "changed-calendar", &args),
        ));
    }
    account_message(
        "account.password_changed",
        to,
        i18n::text(loc, "changed-subject", &args),
        paragraphs,
        (
            "reset",
            i18n::text(loc, "changed-action", &args),
            i18n::html(loc, "changed-action", &args),
            format!("{}/play/forgot-password", n.public_url),
        ),
        (
            i18n::text(loc, "changed-ignore", &args),
            i18n::html(loc, "changed-ignore", &args),
        ),
        json!({"revoked": {
            "sessions": revoked.sessions,
            "personal_tokens": revoked.personal_tokens,
            "calendar": revoked.calendar,
        }}),
        now,
    )
}

/// `account.verify_email`: the link that confirms `to.email` (the web client's page,
/// which posts the token to `POST /v1/auth/verify-email`).
pub fn verify_email(
    n: &Notifier,
    to: &Recipient<'_>,
    token: &str,
    expires_at: i64,
    now: i64,
) -> OutboxRow {
    let url = format!("{}/play/verify-email?token={token}", n.public_url);
    account_row(
        "account.verify_email",
        to,
        [
            "verify-subject",
            "verify-body",
            "verify-action",
            "verify-ignore",
        ],
        ("verify", url),
        expires_at,
        now,
    )
}

/// `account.password_reset`: the single-use link to choose a new password (the web
/// client's page, which posts it to `POST /v1/auth/password-reset/confirm`).
pub fn password_reset(
    n: &Notifier,
    to: &Recipient<'_>,
    token: &str,
    expires_at: i64,
    now: i64,
) -> OutboxRow {
    let url = format!("{}/play/reset-password?token={token}", n.public_url);
    account_row(
        "account.password_reset",
        to,
        [
            "reset-subject",
            "reset-body",
            "reset-action",
            "reset-ignore",
        ],
        ("reset", url),
        expires_at,
        now,
    )
}
