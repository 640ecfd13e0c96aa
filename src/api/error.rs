//! The one HTTP error type: RFC 9457 `application/problem+json` bodies with a stable
//! kebab-case `code` (a [`ProblemCode`], which owns its status and title). A 5xx says
//! nothing about internals; the cause goes to the log.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

use tilepost_engine::PlayError;

pub use super::problem::ProblemCode;
use crate::clock::rfc3339;
use crate::moves::DecisionError;
use crate::store::{Conflict, StoreError};

/// One invalid field of a request.
#[derive(Clone, Debug, Serialize, ToSchema, PartialEq, Eq)]
pub struct FieldError {
    /// Path of the field in the request (`actions[1].rotation`, `seats`, `body`).
    pub field: String,
    pub message: String,
}

/// An RFC 9457 problem.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Problem {
    /// A URI reference naming the problem type (`/problems/<code>`).
    #[serde(rename = "type")]
    pub type_: String,
    /// A short summary of the problem type, in the reader's language (`Content-Language`).
    pub title: String,
    pub status: u16,
    /// What went wrong this time, in the reader's language.
    pub detail: String,
    /// Stable kebab-case code for clients to switch on.
    pub code: String,
    /// The invalid fields (validation problems).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<Vec<FieldError>>,
    /// The game's current version (`stale-version`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_version: Option<i64>,
}

/// An error answered as a problem.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub code: ProblemCode,
    pub detail: String,
    pub errors: Vec<FieldError>,
    pub current_version: Option<i64>,
    pub allow: Option<String>,
    /// Headers of the answer beyond the problem (`Retry-After`, `RateLimit-*`).
    pub headers: Vec<(&'static str, String)>,
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.code.status(), self.code, self.detail)
    }
}

impl ApiError {
    pub fn new(code: ProblemCode, detail: impl Into<String>) -> ApiError {
        ApiError {
            code,
            detail: detail.into(),
            errors: Vec::new(),
            current_version: None,
            allow: None,
            headers: Vec::new(),
        }
    }

    /// `429 rate-limited`, to be retried after `retry_after_secs`.
    pub fn rate_limited(detail: impl Into<String>, retry_after_secs: i64) -> ApiError {
        let mut e = ApiError::new(ProblemCode::RateLimited, detail);
        e.headers
            .push(("retry-after", retry_after_secs.max(1).to_string()));
        e
    }

    /// The HTTP status of the answer (the code's).
    pub fn status(&self) -> StatusCode {
        StatusCode::from_u16(self.code.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    /// `400 validation-failed` for one field.
    pub fn validation(field: impl Into<String>, message: impl Into<String>) -> ApiError {
        let message = message.into();
        let field = field.into();
        let mut e = ApiError::new(ProblemCode::ValidationFailed, format!("{field}: {message}"));
        e.errors.push(FieldError { field, message });
        e
    }

    pub fn with_field(mut self, field: impl Into<String>, message: impl Into<String>) -> ApiError {
        self.errors.push(FieldError {
            field: field.into(),
            message: message.into(),
        });
        self
    }

    pub fn unauthorized(detail: impl Into<String>) -> ApiError {
        ApiError::new(ProblemCode::Unauthorized, detail)
    }

    pub fn game_not_found() -> ApiError {
        ApiError::new(ProblemCode::GameNotFound, "no game with this id")
    }

    pub fn stale(current: Option<i64>) -> ApiError {
        let mut e = ApiError::new(
            ProblemCode::StaleVersion,
            "the game has moved on since that version; reload it and decide again",
        );
        e.current_version = current;
        e
    }

    /// A 500 whose cause is logged, never shown.
    pub fn internal(cause: impl std::fmt::Display) -> ApiError {
        tracing::error!(cause = %cause, "internal error");
        ApiError::new(
            ProblemCode::InternalError,
            "the server failed; the cause is logged",
        )
    }

    pub fn unavailable(cause: impl std::fmt::Display) -> ApiError {
        tracing::warn!(cause = %cause, "database unavailable");
        ApiError::new(
            ProblemCode::ServiceUnavailable,
            "the database is unavailable; retry later",
        )
    }

    /// The rules engine refused action `index` of a move.
    pub fn refused(e: &PlayError, index: usize) -> ApiError {
        // `log-mismatch` (a log that does not replay) is no problem code: a 500
        let Some(code) = ProblemCode::from_code(e.code()) else {
            return ApiError::internal(format!("rules engine: {} ({})", e, e.code()));
        };
        ApiError::new(code, e.to_string()).with_field(format!("actions[{index}]"), e.to_string())
    }

    /// The problem as a reader of `locale` reads it: the title from the catalogs; in a
    /// locale other than English, the detail too (the English one is more precise: it
    /// stays in `errors[].message` and in English answers). The `code` never changes.
    pub fn problem_in(&self, locale: &str) -> Problem {
        let mut p = self.problem();
        if let Some(t) = crate::i18n::problem_title(locale, self.code.as_str()) {
            p.title = t;
        }
        if crate::i18n::supported(locale).is_some_and(|l| l != crate::i18n::DEFAULT_LOCALE) {
            let fields: Vec<&str> = self.errors.iter().map(|e| e.field.as_str()).collect();
            let fields = if fields.is_empty() {
                "body".to_string()
            } else {
                fields.join(", ")
            };
            if let Some(d) = crate::i18n::problem_detail(locale, self.code.as_str(), &fields) {
                p.detail = d;
            }
        }
        p
    }

    pub fn problem(&self) -> Problem {
        Problem {
            type_: format!("/problems/{}", self.code),
            title: self.code.title().to_string(),
            status: self.code.status(),
            detail: self.detail.clone(),
            code: self.code.as_str().to_string(),
            errors: if self.errors.is_empty() && self.code != ProblemCode::ValidationFailed {
                None
            } else {
                Some(self.errors.clone())
            },
            current_version: self.current_version,
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status()
    }

    fn error_response(&self) -> HttpResponse {
        let body = serde_json::to_string(&self.problem()).unwrap_or_default();
        let status = self.status();
        let mut r = HttpResponse::build(status);
        r.insert_header((header::CONTENT_TYPE, "application/problem+json"));
        if status == StatusCode::UNAUTHORIZED {
            r.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
        }
        if let Some(allow) = &self.allow {
            if let Ok(v) = HeaderValue::from_str(allow) {
                r.insert_header((header::ALLOW, v));
            }
        }
        for (name, value) in &self.headers {
            if let Ok(v) = HeaderValue::from_str(value) {
                r.insert_header((*name, v));
            }
        }
        if status == StatusCode::SERVICE_UNAVAILABLE {
            r.insert_header((header::RETRY_AFTER, "1"));
        }
        r.body(body)
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Unavailable(m) => ApiError::unavailable(m),
            StoreError::NotFound => ApiError::new(ProblemCode::NotFound, "not found"),
            StoreError::UnknownUser => ApiError::unauthorized("the token's user no longer exists"),
            StoreError::Conflict(Conflict::StaleVersion) => ApiError::stale(None),
            StoreError::Conflict(c) => {
                let (code, detail) = conflict(c);
                ApiError::new(code, detail)
            }
            StoreError::Rejected(m) => ApiError::validation("body", m),
            e @ (StoreError::Config(_) | StoreError::Internal(_) | StoreError::Corrupt { .. }) => {
                ApiError::internal(e)
            }
        }
    }
}

fn conflict(c: Conflict) -> (ProblemCode, &'static str) {
    match c {
        Conflict::UsernameTaken => (ProblemCode::UsernameTaken, "that username is taken"),
        Conflict::AlreadySeated => (
            ProblemCode::AlreadySeated,
            "you already have a seat at this game",
        ),
        Conflict::GameAlreadyStarted => (
            ProblemCode::GameAlreadyStarted,
            "the game has already started",
        ),
        Conflict::NotInvited => (
            ProblemCode::NotInvited,
            "you have no pending invitation to this game",
        ),
        Conflict::NoOpenSeat => (
            ProblemCode::NoOpenSeat,
            "every free seat is reserved for an invited player",
        ),
        Conflict::NotSeated => (ProblemCode::NotAPlayer, "you have no seat at this game"),
        Conflict::SeekClosed => (ProblemCode::SeekClosed, "the seek is full or expired"),
        Conflict::SeekLimitReached => (
            ProblemCode::SeekLimitReached,
            "you have the most open seeks allowed: withdraw one first",
        ),
        Conflict::GameHasMoves => (
            ProblemCode::GameHasMoves,
            "the game has moves: resign instead",
        ),
        Conflict::IdempotencyKeyInUse => (
            ProblemCode::IdempotencyKeyInUse,
            "a request with this Idempotency-Key is being processed",
        ),
        Conflict::AlreadyOnVacation => (
            ProblemCode::AlreadyOnVacation,
            "you are on vacation already",
        ),
        Conflict::EndpointLimitReached => (
            ProblemCode::WebhookLimitReached,
            "you have the most webhook endpoints allowed: delete one first",
        ),
        Conflict::PushSubscriptionLimitReached => (
            ProblemCode::PushSubscriptionLimitReached,
            "you have the most push subscriptions allowed: delete one first",
        ),
        Conflict::StaleVersion | Conflict::Duplicate => (
            ProblemCode::StaleVersion,
            "the request conflicts with the current state",
        ),
    }
}

impl From<DecisionError> for ApiError {
    fn from(e: DecisionError) -> Self {
        use ProblemCode as P;
        match e {
            DecisionError::GameNotFound => ApiError::game_not_found(),
            DecisionError::NotAPlayer => {
                ApiError::new(P::NotAPlayer, "you have no seat at this game")
            }
            DecisionError::NotStarted => {
                ApiError::new(P::GameNotStarted, "the game is waiting for players")
            }
            DecisionError::NotRunning => {
                ApiError::new(P::GameNotStarted, "the game is not running")
            }
            DecisionError::GameOver => ApiError::new(P::GameOver, "the game is over"),
            DecisionError::NotInGame => ApiError::new(P::NotInGame, "you have left this game"),
            DecisionError::Stale(current) => ApiError::stale(current),
            DecisionError::Refused { index, error } => ApiError::refused(&error, index),
            DecisionError::UndoNotAllowed => ApiError::new(
                P::UndoNotAllowed,
                "a rated game or a tournament's game allows no undo",
            ),
            DecisionError::UndoRefused(error) => match P::from_code(error.code()) {
                Some(code) => ApiError::new(code, error.to_string()),
                None => ApiError::internal(format!("rules engine: {error}")),
            },
            DecisionError::NoClock => ApiError::new(P::NoClock, "this game has no clock"),
            DecisionError::NotDue(at) => ApiError::new(
                P::DeadlineNotReached,
                format!("the decision is due by {}", rfc3339(at)),
            ),
            DecisionError::OwnTimeout => ApiError::new(
                P::OwnTimeout,
                "the pending decision is yours: play or resign",
            ),
            DecisionError::IdempotencyKeyInUse => ApiError::new(
                P::IdempotencyKeyInUse,
                "a request with this Idempotency-Key is being processed",
            ),
            DecisionError::Store(e) => e.into(),
            DecisionError::Corrupt(m) => ApiError::internal(m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n;

    /// Every problem code has its title and detail in every locale's own catalog
    /// (`locales/<locale>/problems.ftl`), and the English title is the code's own (the API
    /// document lists those): a new code fails here until both locales have it.
    #[test]
    fn every_problem_in_every_locale() {
        for l in i18n::SUPPORTED {
            for c in ProblemCode::ALL {
                let title = format!("problem-{c}");
                let detail = format!("problem-{c}-detail");
                assert!(
                    i18n::has_message(l, &title, &[]),
                    "locales/{l}/problems.ftl lacks {title}"
                );
                assert!(
                    i18n::has_message(l, &detail, &[("fields", "seats".into())]),
                    "locales/{l}/problems.ftl lacks {detail}"
                );
                if *l == i18n::DEFAULT_LOCALE {
                    assert_eq!(
                        i18n::problem_title(l, c.as_str()).as_deref(),
                        Some(c.title())
                    );
                }
            }
        }
    }

    #[test]
    fn problems_in_portuguese_keep_their_code() {
        let e = ApiError::validation("seats", "2 to 6").with_field("options", "unknown");
        let pt = e.problem_in("pt-BR");
        assert_eq!(pt.title, "Requisição inválida");
        assert_eq!(pt.detail, "A requisição é inválida: seats, options.");
        assert_eq!(pt.code, ProblemCode::ValidationFailed.as_str());
        assert_eq!(pt.errors.as_ref().map(Vec::len), Some(2));
        // English keeps the precise detail
        let en = e.problem_in("en");
        assert_eq!(en.title, ProblemCode::ValidationFailed.title());
        assert_eq!(en.detail, "seats: 2 to 6");
        let gone = ApiError::game_not_found().problem_in("pt-BR");
        assert_eq!(
            (gone.title.as_str(), gone.status),
            ("Partida inexistente", 404)
        );
        assert_eq!(gone.detail, "Não há partida com este id.");
    }
}
