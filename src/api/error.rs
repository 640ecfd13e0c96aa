//! The one HTTP error type: RFC 9457 `application/problem+json` bodies with a stable
//! kebab-case `code`. A 5xx says nothing about internals; the cause goes to the log.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

use crate::store::StoreError;

/// Every problem code the API produces, with its HTTP status.
pub const CODES: &[(&str, u16)] = &[
    ("validation-failed", 400),
    ("invalid-unsubscribe-token", 400),
    ("unauthorized", 401),
    ("invalid-credentials", 401),
    ("not-a-player", 403),
    ("not-your-turn", 403),
    ("not-creator", 403),
    ("own-timeout", 403),
    ("not-found", 404),
    ("game-not-found", 404),
    ("version-not-found", 404),
    ("tile-not-found", 404),
    ("webhook-not-found", 404),
    ("user-not-found", 404),
    ("delivery-not-found", 404),
    ("method-not-allowed", 405),
    ("stale-version", 409),
    ("username-taken", 409),
    ("already-seated", 409),
    ("game-already-started", 409),
    ("game-not-started", 409),
    ("not-enough-players", 409),
    ("game-over", 409),
    ("not-in-game", 409),
    ("idempotency-key-in-use", 409),
    ("no-clock", 409),
    ("deadline-not-reached", 409),
    ("already-on-vacation", 409),
    ("not-enough-vacation", 409),
    ("not-on-vacation", 409),
    ("not-invited", 409),
    ("no-open-seat", 409),
    ("game-has-moves", 409),
    ("webhook-limit-reached", 409),
    ("payload-too-large", 413),
    ("unsupported-media-type", 415),
    ("unexpected-action", 422),
    ("illegal-placement", 422),
    ("tile-does-not-fit", 422),
    ("unknown-spot", 422),
    ("figure-not-allowed", 422),
    ("feature-occupied", 422),
    ("no-figure-left", 422),
    ("idempotency-key-reused", 422),
    ("move-past-hidden-information", 422),
    ("webhook-url-not-allowed", 422),
    ("internal-error", 500),
    ("service-unavailable", 503),
];

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
    pub title: String,
    pub status: u16,
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
    pub status: StatusCode,
    pub code: &'static str,
    pub detail: String,
    pub errors: Vec<FieldError>,
    pub current_version: Option<i64>,
    pub allow: Option<String>,
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status.as_u16(), self.code, self.detail)
    }
}

impl ApiError {
    pub fn new(status: u16, code: &'static str, detail: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            code,
            detail: detail.into(),
            errors: Vec::new(),
            current_version: None,
            allow: None,
        }
    }

    /// `400 validation-failed` for one field.
    pub fn validation(field: impl Into<String>, message: impl Into<String>) -> ApiError {
        let message = message.into();
        let field = field.into();
        let mut e = ApiError::new(400, "validation-failed", format!("{field}: {message}"));
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
        ApiError::new(401, "unauthorized", detail)
    }

    pub fn game_not_found() -> ApiError {
        ApiError::new(404, "game-not-found", "no game with this id")
    }

    pub fn stale(current: Option<i64>) -> ApiError {
        let mut e = ApiError::new(
            409,
            "stale-version",
            "the game has moved on since that version; reload it and decide again",
        );
        e.current_version = current;
        e
    }

    /// A 500 whose cause is logged, never shown.
    pub fn internal(cause: impl std::fmt::Display) -> ApiError {
        tracing::error!(cause = %cause, "internal error");
        ApiError::new(
            500,
            "internal-error",
            "the server failed; the cause is logged",
        )
    }

    pub fn unavailable(cause: impl std::fmt::Display) -> ApiError {
        tracing::warn!(cause = %cause, "database unavailable");
        ApiError::new(
            503,
            "service-unavailable",
            "the database is unavailable; retry later",
        )
    }

    pub fn problem(&self) -> Problem {
        Problem {
            type_: format!("/problems/{}", self.code),
            title: self
                .status
                .canonical_reason()
                .unwrap_or("Error")
                .to_string(),
            status: self.status.as_u16(),
            detail: self.detail.clone(),
            code: self.code.to_string(),
            errors: if self.errors.is_empty() && self.code != "validation-failed" {
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
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let body = serde_json::to_string(&self.problem()).unwrap_or_default();
        let mut r = HttpResponse::build(self.status);
        r.insert_header((header::CONTENT_TYPE, "application/problem+json"));
        if self.status == StatusCode::UNAUTHORIZED {
            r.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
        }
        if let Some(allow) = &self.allow {
            if let Ok(v) = HeaderValue::from_str(allow) {
                r.insert_header((header::ALLOW, v));
            }
        }
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            r.insert_header((header::RETRY_AFTER, "1"));
        }
        r.body(body)
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Unavailable(m) => ApiError::unavailable(m),
            StoreError::NotFound => ApiError::new(404, "not-found", "not found"),
            StoreError::Conflict(code) => {
                let code = CODES
                    .iter()
                    .find(|(c, s)| *c == code && *s == 409)
                    .map(|(c, _)| *c)
                    .unwrap_or("stale-version");
                ApiError::new(409, code, conflict_detail(code))
            }
            StoreError::Rejected(m) => ApiError::validation("body", m),
            StoreError::Config(m) | StoreError::Internal(m) => ApiError::internal(m),
        }
    }
}

fn conflict_detail(code: &str) -> &'static str {
    match code {
        "username-taken" => "that username is taken",
        "already-seated" => "you already have a seat at this game",
        "game-already-started" => "the game has already started",
        "idempotency-key-in-use" => "a request with this Idempotency-Key is being processed",
        _ => "the request conflicts with the current state",
    }
}
