//! The HTTP API (the only module that knows HTTP): handlers, DTOs, the OpenAPI document
//! generated from the handlers (utoipa-actix-web, so routes and document cannot drift),
//! the web client's pages under `/play` (outside the document, see [`play`]),
//! the problem+json error type, request ids, and `405` answers built from the document.

pub mod access;
pub mod account;
pub mod analysis;
pub mod auth;
pub mod automation;
pub mod calendar;
pub mod chat;
pub mod clock;
pub mod dto;
pub mod edges;
pub mod error;
pub mod extract;
pub mod games;
pub mod health;
pub mod history;
pub mod limits;
pub mod load;
pub mod moves;
pub mod paging;
pub mod pictures;
pub mod play;
pub mod players;
pub mod problem;
pub mod push;
pub mod rules;
pub mod seats;
pub mod seeks;
pub mod stream;
pub mod tokens;
pub mod tournaments;
pub mod users;
pub mod views;
pub mod webhooks;

use std::sync::{Arc, OnceLock};

use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::{web, App, HttpRequest, HttpResponse};
use serde_json::{json, Value};
use tracing::Instrument;
use utoipa::OpenApi;
use utoipa_actix_web::{scope, AppExt};

use crate::clock::Clock;
use crate::config::Config;
use crate::store::Store;
use error::{ApiError, Problem, ProblemCode};

/// What every request can reach.
pub struct AppState {
    pub store: Store,
    pub auth: Arc<auth::Auth>,
    pub clock: Arc<dyn Clock>,
    pub config: Arc<Config>,
    /// Notifications: worker wake-up, unsubscribe key, link base.
    pub notifier: Arc<crate::notify::Notifier>,
    /// Replayed games by (id, version).
    pub replays: Arc<crate::cache::ReplayCache>,
    /// Token lookups, kept for `TILEPOST_TOKEN_CACHE_MS`.
    pub grants: Arc<crate::grants::GrantCache<access::Grant>>,
    /// Moves per user and minute, counted in this process.
    pub moves: Arc<limits::MoveLimiter>,
    /// The live stream's fan-out in this process.
    pub live: Arc<crate::live::Live>,
    /// The threads for the analyses of positions (`TILEPOST_ANALYSIS_THREADS`).
    pub analyses: Arc<analysis::AnalysisPool>,
}

impl AppState {
    /// The service that records decisions in running games.
    pub fn decisions(&self) -> crate::moves::Decisions<'_> {
        crate::moves::Decisions {
            store: &self.store,
            notifier: &self.notifier,
            replays: &self.replays,
        }
    }
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "tilepost",
        description = "Play-by-mail Carcassonne: games over HTTP on an event log. Errors are RFC 9457 problems with a stable `code`; their `title` and `detail` follow the signed-in caller's `locale`, else `Accept-Language` (`en`, `pt-BR`), and `Content-Language` names it.",
        license(name = "MIT", identifier = "MIT"),
    ),
    servers((url = "/", description = "The server that serves this document: every path is relative to its origin")),
    tags(
        (name = "users", description = "Accounts and tokens"),
        (name = "games", description = "Games, moves and history"),
        (name = "players", description = "Public profiles, ratings and the leaderboard"),
        (name = "lobby", description = "Seeks: games looking for players"),
        (name = "tournaments", description = "Tournaments: Swiss, round robin and knockout events whose rounds are real games"),
        (name = "pictures", description = "Pictures of boards and tiles, and the tile catalog"),
        (name = "health", description = "Liveness and readiness"),
        (name = "notifications", description = "Webhook endpoints, deliveries, email settings, unsubscribe links and web push subscriptions"),
    ),
    components(schemas(Problem, error::FieldError, dto::WebhookMessage, dto::WebhookData, dto::WebhookRecipient, dto::WebhookLinks, dto::TournamentWebhookMessage, dto::TournamentWebhookData, dto::TournamentWebhookLinks)),
)]
struct ApiDoc;

/// Registers every documented route on a utoipa app.
fn register<T>(app: utoipa_actix_web::UtoipaApp<T>) -> utoipa_actix_web::UtoipaApp<T>
where
    T: actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Error = actix_web::Error,
        InitError = (),
    >,
{
    app.service(health::healthz)
        .service(health::readyz)
        .service(
            scope::scope("/v1")
                .service(users::create_user)
                .service(users::create_token)
                .service(users::get_me)
                .service(users::update_me)
                .service(account::delete_me)
                .service(account::export_me)
                .service(account::change_password)
                .service(account::change_email)
                .service(account::resend_verification)
                .service(account::verify_email)
                .service(account::request_password_reset)
                .service(account::reset_password)
                .service(tokens::logout)
                .service(tokens::delete_sessions)
                .service(tokens::create_personal_token)
                .service(tokens::list_personal_tokens)
                .service(tokens::delete_personal_token)
                .service(games::create_game)
                .service(games::list_games)
                .service(games::get_game)
                .service(seats::join_game)
                .service(seats::start_game)
                .service(games::list_placements)
                .service(games::list_actions)
                .service(automation::get_my_orders)
                .service(automation::update_my_orders)
                .service(automation::get_game_orders)
                .service(automation::update_game_orders)
                .service(automation::get_plans)
                .service(automation::set_plans)
                .service(moves::submit_move)
                .service(stream::get_stream)
                .service(history::list_events)
                .service(moves::resign_game)
                .service(moves::undo_decision)
                .service(pictures::get_board_svg)
                .service(pictures::get_board_png)
                .service(pictures::list_tiles)
                .service(rules::list_rules)
                .service(pictures::get_tile_svg)
                .service(clock::claim_timeout)
                .service(seats::accept_invitation)
                .service(seats::decline_invitation)
                .service(seats::leave_game)
                .service(seats::abort_game)
                .service(chat::list_chat)
                .service(chat::post_chat)
                .service(history::export_game)
                .service(analysis::get_analysis)
                .service(analysis::get_timeline)
                .service(analysis::get_review)
                .service(analysis::request_review)
                .service(clock::start_vacation)
                .service(clock::end_vacation)
                .service(webhooks::create_webhook)
                .service(webhooks::list_webhooks)
                .service(webhooks::delete_webhook)
                .service(webhooks::rotate_webhook_secret)
                .service(webhooks::list_webhook_deliveries)
                .service(webhooks::redeliver_webhook_delivery)
                .service(calendar::get_calendar)
                .service(calendar::create_calendar)
                .service(calendar::delete_calendar)
                .service(calendar::get_calendar_feed)
                .service(webhooks::get_notification_settings)
                .service(webhooks::update_notification_settings)
                .service(push::get_push_key)
                .service(push::create_push_subscription)
                .service(push::list_push_subscriptions)
                .service(push::update_push_subscription)
                .service(push::delete_push_subscription)
                .service(webhooks::get_unsubscribe)
                .service(webhooks::create_unsubscribe)
                .service(seats::create_invitation)
                .service(games::create_rematch)
                .service(players::get_profile)
                .service(players::get_rating_history)
                .service(players::get_leaderboard)
                .service(seeks::create_seek)
                .service(seeks::list_seeks)
                .service(seeks::get_seek)
                .service(seeks::join_seek)
                .service(seeks::delete_seek)
                .service(tournaments::create_tournament)
                .service(tournaments::list_tournaments)
                .service(tournaments::get_tournament)
                .service(tournaments::join_tournament)
                .service(tournaments::leave_tournament)
                .service(tournaments::add_tournament_bot)
                .service(tournaments::invite_to_tournament)
                .service(tournaments::start_tournament)
                .service(tournaments::pause_tournament)
                .service(tournaments::resume_tournament)
                .service(tournaments::adjust_tournament)
                .service(tournaments::get_tournament_standings)
                .service(tournaments::list_tournament_rounds)
                .service(tournaments::get_tournament_bracket)
                .service(tournaments::list_tournament_events)
                .service(tournaments::list_tournament_games),
        )
}

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

fn problem_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
    })
}

/// Every handler module's problem responses (each module's `problems!` table).
const PROBLEM_TABLES: &[&[problem::OperationProblems]] = &[
    account::PROBLEMS,
    analysis::PROBLEMS,
    automation::PROBLEMS,
    calendar::PROBLEMS,
    chat::PROBLEMS,
    clock::PROBLEMS,
    games::PROBLEMS,
    health::PROBLEMS,
    history::PROBLEMS,
    moves::PROBLEMS,
    pictures::PROBLEMS,
    players::PROBLEMS,
    push::PROBLEMS,
    seats::PROBLEMS,
    seeks::PROBLEMS,
    stream::PROBLEMS,
    tokens::PROBLEMS,
    tournaments::PROBLEMS,
    tournaments::entrants::PROBLEMS,
    tournaments::results::PROBLEMS,
    users::PROBLEMS,
    webhooks::PROBLEMS,
];

/// The problem responses of every operation, by `operationId`.
fn operation_problems() -> impl Iterator<Item = &'static problem::OperationProblems> {
    PROBLEM_TABLES.iter().flat_map(|t| t.iter())
}

/// Writes an operation's problem responses from its `problems!` entry: each status's
/// description with its codes from [`ProblemCode`].
fn add_problem_responses(op: &mut Value) {
    let Some(id) = op.get("operationId").and_then(|i| i.as_str()) else {
        return;
    };
    let Some(entry) = operation_problems().find(|o| o.operation == id) else {
        return;
    };
    let Some(resp) = op.get_mut("responses").and_then(|r| r.as_object_mut()) else {
        return;
    };
    for r in entry.responses {
        resp.insert(r.status.to_string(), problem_response(&r.description()));
    }
}

/// Completes the generated document: security scheme, the problems every operation can
/// answer with (a malformed request, a body too large, a missing or invalid token where
/// one is needed, a missing scope, no game or tournament of the path's id, an internal
/// error, unavailability), and a stable order.
/// A response's prose with its problem code, as the document writes them: `prose (`code`)`.
fn with_code(prose: &str, code: ProblemCode) -> String {
    format!("{prose} (`{}`)", code.as_str())
}

fn finish(doc: utoipa::openapi::OpenApi) -> Value {
    let mut v = serde_json::to_value(&doc).unwrap_or(Value::Null);
    if let Some(paths) = v.get_mut("paths").and_then(|p| p.as_object_mut()) {
        for (path, item) in paths.iter_mut() {
            // the resource a path names by its id: the same 404 for every operation on it
            let missing = if path.starts_with("/v1/games/{id}") {
                Some(with_code("No such game", ProblemCode::GameNotFound))
            } else if path.starts_with("/v1/tournaments/{id}") {
                Some(with_code(
                    "No such tournament",
                    ProblemCode::TournamentNotFound,
                ))
            } else {
                None
            };
            let Some(item) = item.as_object_mut() else {
                continue;
            };
            for (method, op) in item.iter_mut() {
                if !METHODS.contains(&method.as_str()) {
                    continue;
                }
                add_problem_responses(op);
                // a header is absent or a string, never JSON null: an optional header's
                // schema says `string` (the parameter is not required)
                if let Some(params) = op.get_mut("parameters").and_then(|p| p.as_array_mut()) {
                    for p in params.iter_mut() {
                        if p.get("in").and_then(|i| i.as_str()) != Some("header") {
                            continue;
                        }
                        if let Some(t) = p.pointer_mut("/schema/type") {
                            if let Some(list) = t.as_array() {
                                let kept: Vec<Value> =
                                    list.iter().filter(|x| *x != "null").cloned().collect();
                                if kept.len() == 1 {
                                    *t = kept[0].clone();
                                }
                            }
                        }
                    }
                }
                let has_body = op.get("requestBody").is_some();
                let has_params = op
                    .get("parameters")
                    .and_then(|p| p.as_array())
                    .is_some_and(|p| !p.is_empty());
                let scope = match access::needs_of(op) {
                    access::Needs::Nothing => None,
                    access::Needs::AnyOf(scopes) => Some(with_code(
                        &format!(
                            "the token lacks the scope {}",
                            scopes
                                .iter()
                                .map(|s| format!("`{}`", s.as_str()))
                                .collect::<Vec<_>>()
                                .join(" or ")
                        ),
                        ProblemCode::InsufficientScope,
                    )),
                    access::Needs::Session => Some(with_code(
                        "the token is not a login session: a personal access token is never enough here",
                        ProblemCode::InsufficientScope,
                    )),
                };
                // a read open to everyone (an empty requirement) ignores a token it gets
                let token_optional =
                    op.get("security")
                        .and_then(|s| s.as_array())
                        .is_some_and(|a| {
                            a.iter()
                                .any(|r| r.as_object().is_some_and(|o| o.is_empty()))
                        });
                let Some(resp) = op.get_mut("responses").and_then(|r| r.as_object_mut()) else {
                    continue;
                };
                if has_body || has_params {
                    resp.entry("400")
                        .or_insert_with(|| json!({"$ref": "#/components/responses/BadRequest"}));
                }
                if has_body {
                    resp.entry("413").or_insert_with(
                        || json!({"$ref": "#/components/responses/PayloadTooLarge"}),
                    );
                    resp.entry("415").or_insert_with(
                        || json!({"$ref": "#/components/responses/UnsupportedMediaType"}),
                    );
                    resp.entry("408").or_insert_with(
                        || json!({"$ref": "#/components/responses/RequestTimeout"}),
                    );
                }
                if let Some(missing) = &missing {
                    resp.entry("404")
                        .or_insert_with(|| problem_response(missing));
                }
                if scope.is_some() && !token_optional {
                    // every operation that needs a token: the same 401, said here once
                    resp.entry("401").or_insert_with(|| {
                        problem_response(&with_code(
                            "Missing or invalid token",
                            ProblemCode::Unauthorized,
                        ))
                    });
                }
                if let Some(scope) = scope {
                    let more = format!("; or {scope}");
                    match resp.get_mut("403").and_then(|r| r.get_mut("description")) {
                        Some(Value::String(d)) => d.push_str(&more),
                        _ => {
                            let mut first = scope.clone();
                            first[..1].make_ascii_uppercase();
                            resp.insert("403".into(), problem_response(&first));
                        }
                    }
                }
                resp.entry("500")
                    .or_insert_with(|| json!({"$ref": "#/components/responses/InternalError"}));
                resp.entry("503")
                    .or_insert_with(|| json!({"$ref": "#/components/responses/Unavailable"}));
            }
        }
    }
    forbid_nul_in_requests(&mut v);
    unwrap_single_one_of(&mut v);
    limit_expansion_lists(&mut v);
    if let Some(o) = v.as_object_mut() {
        o.insert("webhooks".into(), webhooks::openapi_webhooks());
    }
    // the problem codes, from their one definition
    if let Some(code) = v.pointer_mut("/components/schemas/Problem/properties/code") {
        if let Some(o) = code.as_object_mut() {
            let codes: Vec<&str> = ProblemCode::ALL.iter().map(|c| c.as_str()).collect();
            o.insert("enum".into(), json!(codes));
        }
    }
    if let Some(c) = v.get_mut("components").and_then(|c| c.as_object_mut()) {
        c.insert(
            "securitySchemes".into(),
            json!({"bearer": {"type": "http", "scheme": "bearer",
                "description": "A login access token from POST /v1/auth/token (a JWT with every scope, valid until it expires or its session is logged out), or a personal access token (`tpp_…`, from POST /v1/users/me/tokens) with the scopes chosen at its creation. Each operation's security requirement names the scope it needs (`game:read`, `game:play`, `account`, `webhooks`; several requirements: any one of them); a token without it gets `403 insufficient-scope`. The scope `session` is held by login tokens only: the operations on the account's credentials and identity (password, email, deletion, export, creating personal tokens) never take a personal access token. A password reset revokes every login session and every personal access token of the account; a password change revokes every other login session and every personal access token. Revocations take effect at once in the process that revokes and within `TILEPOST_TOKEN_CACHE_MS` (default 2 s) in every other."}}),
        );
        c.insert(
            "responses".into(),
            json!({
                "BadRequest": problem_response(&with_code("Invalid request: wrong types, missing or unknown fields, NUL characters, bytes after the JSON body", ProblemCode::ValidationFailed)),
                "PayloadTooLarge": problem_response(&with_code("The body is larger than the limit", ProblemCode::PayloadTooLarge)),
                "UnsupportedMediaType": problem_response(&with_code("The body is not JSON", ProblemCode::UnsupportedMediaType)),
                "RequestTimeout": problem_response(&with_code("The body did not arrive in time", ProblemCode::RequestTimeout)),
                "InternalError": problem_response(&with_code("The server failed; the cause is logged with the request id", ProblemCode::InternalError)),
                "Unavailable": problem_response(&with_code("The database is unavailable; retry later", ProblemCode::ServiceUnavailable)),
            }),
        );
    }
    v
}

/// Every `expansions` list of a request (`…Request`) holds at most one of each expansion: its
/// `maxItems` is the engine's count, written here so that a new expansion changes no DTO.
fn limit_expansion_lists(doc: &mut Value) {
    let max = tilepost_engine::Expansion::ALL.len();
    let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(|s| s.as_object_mut())
    else {
        return;
    };
    for (name, schema) in schemas.iter_mut() {
        if !name.ends_with("Request") {
            continue;
        }
        let Some(list) = schema.pointer_mut("/properties/expansions") else {
            continue;
        };
        let is_array = match list.get("type") {
            Some(Value::String(t)) => t == "array",
            Some(Value::Array(ts)) => ts.iter().any(|t| t == "array"),
            _ => false,
        };
        if let (true, Some(o)) = (is_array, list.as_object_mut()) {
            o.insert("maxItems".into(), json!(max));
        }
    }
}

/// A string that holds no NUL character (every request string: they are refused with
/// `400 validation-failed`).
const NO_NUL: &str = "^[^\\u0000]*$";

/// States in the document that request strings may not hold NUL: a `pattern` on every
/// free string of the schemas that request bodies use (and of the schemas they use).
fn forbid_nul_in_requests(doc: &mut Value) {
    fn refs(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(o) => {
                if let Some(r) = o.get("$ref").and_then(|r| r.as_str()) {
                    out.push(r.trim_start_matches("#/components/schemas/").to_string());
                }
                o.values().for_each(|x| refs(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
            _ => {}
        }
    }
    fn patch(v: &mut Value) {
        match v {
            Value::Object(o) => {
                let string = o.get("type").is_some_and(|t| {
                    t == "string"
                        || t.as_array()
                            .is_some_and(|a| a.iter().any(|x| x == "string"))
                });
                if string
                    && !o.contains_key("enum")
                    && !o.contains_key("pattern")
                    && !o.contains_key("const")
                {
                    o.insert("pattern".into(), json!(NO_NUL));
                }
                o.values_mut().for_each(patch);
            }
            Value::Array(a) => a.iter_mut().for_each(patch),
            _ => {}
        }
    }
    let mut todo = Vec::new();
    if let Some(paths) = doc.get("paths") {
        for item in paths.as_object().into_iter().flat_map(|o| o.values()) {
            for op in item.as_object().into_iter().flat_map(|o| o.values()) {
                if let Some(body) = op.get("requestBody") {
                    refs(body, &mut todo);
                }
            }
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    while let Some(name) = todo.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        if let Some(schema) = doc.pointer_mut(&format!("/components/schemas/{name}")) {
            patch(schema);
            refs(schema, &mut todo);
        }
    }
    // inline request schemas
    if let Some(paths) = doc.get_mut("paths").and_then(|p| p.as_object_mut()) {
        for item in paths.values_mut().filter_map(|i| i.as_object_mut()) {
            for op in item.values_mut() {
                if let Some(body) = op.get_mut("requestBody") {
                    patch(body);
                }
            }
        }
    }
}

/// Writes a `oneOf` of a single schema as that schema: utoipa wraps a `$ref` that has a
/// `default` (or a description) in one, for OpenAPI 3.0; in 3.1 the `$ref` takes them
/// beside it.
fn unwrap_single_one_of(v: &mut Value) {
    match v {
        Value::Object(o) => {
            let single = match o.get("oneOf") {
                Some(Value::Array(a)) if a.len() == 1 => a[0].as_object().cloned(),
                _ => None,
            };
            if let Some(inner) = single {
                if inner.keys().all(|k| !o.contains_key(k)) {
                    o.remove("oneOf");
                    o.extend(inner);
                }
            }
            o.values_mut().for_each(unwrap_single_one_of);
        }
        Value::Array(a) => a.iter_mut().for_each(unwrap_single_one_of),
        _ => {}
    }
}

/// The OpenAPI document, as served at `/openapi.json` and committed in
/// `openapi/openapi.json`.
pub fn openapi_value() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| {
        let (_, doc) =
            register(App::new().into_utoipa_app().openapi(ApiDoc::openapi())).split_for_parts();
        finish(doc)
    })
}

/// The document as pretty JSON with a final newline.
pub fn openapi_json() -> String {
    let mut s = serde_json::to_string_pretty(openapi_value()).unwrap_or_default();
    s.push('\n');
    s
}

/// Path templates of the document with their methods, for `405` answers.
fn route_table() -> &'static Vec<(Vec<String>, String)> {
    static T: OnceLock<Vec<(Vec<String>, String)>> = OnceLock::new();
    T.get_or_init(|| {
        let mut out = Vec::new();
        if let Some(paths) = openapi_value().get("paths").and_then(|p| p.as_object()) {
            for (path, item) in paths {
                let segs = path.split('/').map(|s| s.to_string()).collect();
                let methods: Vec<String> = item
                    .as_object()
                    .map(|o| {
                        o.keys()
                            .filter(|k| METHODS.contains(&k.as_str()))
                            .map(|k| k.to_ascii_uppercase())
                            .collect()
                    })
                    .unwrap_or_default();
                out.push((segs, methods.join(", ")));
            }
        }
        out
    })
}

fn matches(template: &[String], path: &str) -> bool {
    let segs: Vec<&str> = path.split('/').collect();
    segs.len() == template.len()
        && template.iter().zip(segs).all(|(t, s)| {
            if t.starts_with('{') && t.ends_with('}') {
                !s.is_empty()
            } else if let Some(suffix) = t.strip_prefix('{').and_then(|r| r.split_once('}')) {
                // `{name}.svg`: a parameter followed by a literal suffix
                s.len() > suffix.1.len() && s.ends_with(suffix.1)
            } else {
                t == s
            }
        })
}

/// Unknown path: `404`; known path with another method: `405` with `Allow`.
async fn fallback(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let path = req.path();
    let path = if path.len() > 1 {
        path.trim_end_matches('/')
    } else {
        path
    };
    if let Some((_, allow)) = route_table().iter().find(|(t, _)| matches(t, path)) {
        let mut e = ApiError::new(
            ProblemCode::MethodNotAllowed,
            format!("{} is not allowed here; allowed: {allow}", req.method()),
        );
        e.allow = Some(allow.clone());
        return Err(e);
    }
    Err(ApiError::new(ProblemCode::NotFound, "no such resource"))
}

fn request_id(req: &actix_web::dev::ServiceRequest) -> String {
    req.headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|s| {
            !s.is_empty()
                && s.len() <= 64
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        })
        .map(|s| s.to_string())
        .unwrap_or_else(|| uuid::Uuid::new_v4().simple().to_string())
}

/// The signed-in caller's locale: known once the token was checked; else, for a request
/// with a token that failed before its handler checked it, checked now (one read of the
/// caller's own account, on this error path only).
async fn caller_locale(req: &HttpRequest) -> Option<&'static str> {
    use actix_web::HttpMessage;
    let known = || req.extensions().get::<extract::UserLocale>().map(|l| l.0);
    if let Some(l) = known() {
        return Some(l);
    }
    if !req
        .headers()
        .contains_key(actix_web::http::header::AUTHORIZATION)
    {
        return None;
    }
    extract::authenticate(req.clone()).await.ok().flatten()?;
    known()
}

/// A problem answer in the reader's language: the signed-in user's locale, else the
/// best match of `Accept-Language` (`accept`), else English. Only the title and detail
/// change; the `code` and everything else stay.
async fn localized(
    res: ServiceResponse<actix_web::body::BoxBody>,
    accept: Option<&'static str>,
) -> ServiceResponse<actix_web::body::BoxBody> {
    use actix_web::http::header::{CONTENT_LANGUAGE, VARY};
    let is_problem = res
        .response()
        .error()
        .and_then(|e| e.as_error::<ApiError>())
        .is_some();
    if !is_problem {
        return res;
    }
    let user = caller_locale(res.request()).await;
    let locale = user.or(accept).unwrap_or(crate::i18n::DEFAULT_LOCALE);
    let again = res
        .response()
        .error()
        .and_then(|e| e.as_error::<ApiError>())
        .map(|e| {
            (
                locale,
                serde_json::to_string(&e.problem_in(locale)).unwrap_or_default(),
            )
        });
    let Some((locale, body)) = again else {
        return res;
    };
    let mut res = res.map_body(|head, _| {
        head.headers
            .insert(CONTENT_LANGUAGE, HeaderValue::from_static(locale));
        actix_web::body::BoxBody::new(body)
    });
    // one Vary header (CORS has its values there already)
    let mut vary: Vec<String> = res
        .headers()
        .get_all(VARY)
        .filter_map(|v| v.to_str().ok())
        .map(str::to_string)
        .collect();
    vary.push("accept-language".into());
    if let Ok(v) = HeaderValue::from_str(&vary.join(", ")) {
        res.headers_mut().insert(VARY, v);
    }
    res
}

/// Builds the application for one worker.
pub fn app(
    state: web::Data<AppState>,
) -> App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let query_cfg = web::QueryConfig::default().error_handler(|e, _| {
        let mut msg = e.to_string();
        if let Some(rest) = msg.strip_prefix("Query deserialize error: ") {
            msg = rest.to_string();
        }
        ApiError::validation("query", msg).into()
    });
    let config = state.config.clone();
    let cors = edges::cors(&config);
    let path_cfg = web::PathConfig::default()
        .error_handler(|e, _| ApiError::validation("path", e.to_string()).into());
    let (app, _) = register(
        App::new()
            .into_utoipa_app()
            .app_data(state)
            .app_data(query_cfg)
            .app_data(path_cfg),
    )
    .split_for_parts();
    app.service(
        utoipa_swagger_ui::SwaggerUi::new("/docs/{_:.*}")
            .external_url_unchecked("/openapi.json", openapi_value().clone()),
    )
    .configure(play::routes)
    .default_service(web::to(fallback))
    .wrap(actix_web::middleware::from_fn(extract::authorize))
    .wrap(cors)
    .wrap_fn(move |req, srv| {
        let id = request_id(&req);
        let method = req.method().to_string();
        let path = req.path().to_string();
        let span = tracing::info_span!("request", id = %id, method = %method, path = %path);
        let started = std::time::Instant::now();
        let accept = req
            .headers()
            .get(actix_web::http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .map(crate::i18n::negotiate);
        let refused = edges::refuse(&req, &config);
        let fut = match refused {
            Some(e) => Err(edges::refused(req, e)),
            None => Ok(srv.call(req)),
        };
        async move {
            let res = match fut {
                Err(res) => res,
                // handlers' errors are answers already; only a failing middleware
                // (none of ours) would end here
                Ok(fut) => fut.await?.map_into_boxed_body(),
            };
            let mut res = localized(res, accept).await;
            edges::harden(&path, res.headers_mut());
            let status = res.status().as_u16();
            if let Ok(v) = HeaderValue::from_str(&id) {
                res.headers_mut()
                    .insert(HeaderName::from_static("x-request-id"), v);
            }
            tracing::info!(
                status,
                ms = started.elapsed().as_secs_f64() * 1000.0,
                "request done"
            );
            Ok(res)
        }
        .instrument(span)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_problem_code_is_listed_under_its_status() {
        for o in operation_problems() {
            for r in o.responses {
                assert!(
                    (400..600).contains(&r.status),
                    "{}: {} is no error status",
                    o.operation,
                    r.status
                );
                for c in r.codes() {
                    assert_eq!(
                        c.status(),
                        r.status,
                        "{}: `{c}` is listed under {}",
                        o.operation,
                        r.status
                    );
                }
                for p in r.pieces {
                    if let problem::Piece::Text(t) = p {
                        for c in ProblemCode::ALL {
                            assert!(
                                !t.contains(&format!("`{c}`")),
                                "{}: `{c}` is written as text; list it as a code",
                                o.operation
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_operation_with_problems_is_in_the_document_once() {
        let mut seen = std::collections::HashSet::new();
        let doc = openapi_value();
        let ids: Vec<&str> = doc["paths"]
            .as_object()
            .into_iter()
            .flat_map(|p| p.values())
            .filter_map(|i| i.as_object())
            .flat_map(|i| i.values())
            .filter_map(|op| op.get("operationId").and_then(|i| i.as_str()))
            .collect();
        for o in operation_problems() {
            assert!(seen.insert(o.operation), "{} listed twice", o.operation);
            assert!(
                ids.contains(&o.operation),
                "{} is no operation of the document",
                o.operation
            );
            let mut statuses = std::collections::HashSet::new();
            for r in o.responses {
                assert!(
                    statuses.insert(r.status),
                    "{}: {} twice",
                    o.operation,
                    r.status
                );
            }
        }
    }
}
