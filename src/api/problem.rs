//! The problem codes of the API: each stable kebab-case `code` with its HTTP status and
//! title, defined once. Handlers name a [`ProblemCode`], never a string; the OpenAPI
//! document lists the codes from [`ProblemCode::ALL`]; the rules engine's refusals map
//! here through [`ProblemCode::from_code`].

macro_rules! problem_codes {
    ($($variant:ident = ($code:literal, $status:literal, $title:literal),)*) => {
        /// A stable problem code with its HTTP status and title.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ProblemCode {
            $($variant,)*
        }

        impl ProblemCode {
            /// Every code, in the order of their statuses.
            pub const ALL: &'static [ProblemCode] = &[$(ProblemCode::$variant,)*];

            /// The code as clients see it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ProblemCode::$variant => $code,)*
                }
            }

            /// The HTTP status every answer with this code has.
            pub fn status(self) -> u16 {
                match self {
                    $(ProblemCode::$variant => $status,)*
                }
            }

            /// A short summary of the problem type (the same for every occurrence).
            pub fn title(self) -> &'static str {
                match self {
                    $(ProblemCode::$variant => $title,)*
                }
            }
        }
    };
}

problem_codes! {
    ValidationFailed = ("validation-failed", 400, "Invalid request"),
    InvalidUnsubscribeToken = ("invalid-unsubscribe-token", 400, "Invalid unsubscribe link"),
    InvalidLink = ("invalid-link", 400, "Invalid, used or expired link"),
    Unauthorized = ("unauthorized", 401, "Authentication required"),
    InvalidCredentials = ("invalid-credentials", 401, "Wrong username or password"),
    WrongPassword = ("wrong-password", 403, "Wrong password"),
    NotAPlayer = ("not-a-player", 403, "Not a player of this game"),
    NotYourTurn = ("not-your-turn", 403, "Not your decision"),
    NotCreator = ("not-creator", 403, "Only the creator may do this"),
    OwnTimeout = ("own-timeout", 403, "The pending decision is yours"),
    UndoNotYours = ("undo-not-yours", 403, "Not your decision to take back"),
    UndoNotAllowed = ("undo-not-allowed", 403, "No undo in this game"),
    OriginNotAllowed = ("origin-not-allowed", 403, "Origin not allowed"),
    InsufficientScope = ("insufficient-scope", 403, "The token lacks a scope"),
    BotAccountsNotAllowed = ("bot-accounts-not-allowed", 403, "Bot accounts may not join"),
    SeekRequirementNotMet = ("seek-requirement-not-met", 403, "The seek's requirements are not met"),
    AssistanceOff = ("assistance-off", 403, "No analysis during this game"),
    NotOrganiser = ("not-organiser", 403, "Only the organiser may do this"),
    ComputerOpponentsNotAllowed = ("computer-opponents-not-allowed", 403, "Computer opponents may not enter"),
    RatingOutOfBounds = ("rating-out-of-bounds", 403, "Your rating is outside the event's bounds"),
    InvitationOnly = ("invitation-only", 403, "The tournament is by invitation only"),
    NotFound = ("not-found", 404, "Not found"),
    TokenNotFound = ("token-not-found", 404, "No such token"),
    GameNotFound = ("game-not-found", 404, "No such game"),
    VersionNotFound = ("version-not-found", 404, "No such version"),
    TileNotFound = ("tile-not-found", 404, "No such tile"),
    WebhookNotFound = ("webhook-not-found", 404, "No such webhook"),
    PushSubscriptionNotFound = ("push-subscription-not-found", 404, "No such push subscription"),
    UserNotFound = ("user-not-found", 404, "No such user"),
    DeliveryNotFound = ("delivery-not-found", 404, "No such delivery"),
    SeekNotFound = ("seek-not-found", 404, "No such seek"),
    CalendarNotFound = ("calendar-not-found", 404, "No such calendar"),
    TournamentNotFound = ("tournament-not-found", 404, "No such tournament"),
    BracketNotFound = ("bracket-not-found", 404, "No such bracket"),
    MethodNotAllowed = ("method-not-allowed", 405, "Method not allowed"),
    RequestTimeout = ("request-timeout", 408, "Request not received in time"),
    StaleVersion = ("stale-version", 409, "The game has moved on"),
    UsernameTaken = ("username-taken", 409, "Username taken"),
    AlreadySeated = ("already-seated", 409, "Already seated"),
    GameAlreadyStarted = ("game-already-started", 409, "The game has started"),
    GameNotStarted = ("game-not-started", 409, "The game is not running"),
    NotEnoughPlayers = ("not-enough-players", 409, "Not enough players"),
    GameOver = ("game-over", 409, "The game is over"),
    NotInGame = ("not-in-game", 409, "No longer in the game"),
    IdempotencyKeyInUse = ("idempotency-key-in-use", 409, "Idempotency key in use"),
    NoClock = ("no-clock", 409, "The game has no clock"),
    DeadlineNotReached = ("deadline-not-reached", 409, "The deadline has not passed"),
    AlreadyOnVacation = ("already-on-vacation", 409, "Already on vacation"),
    AlreadyVerified = ("already-verified", 409, "The address is already confirmed"),
    NotEnoughVacation = ("not-enough-vacation", 409, "Not enough vacation days"),
    NotOnVacation = ("not-on-vacation", 409, "Not on vacation"),
    NotInvited = ("not-invited", 409, "No pending invitation"),
    NoOpenSeat = ("no-open-seat", 409, "No open seat"),
    GameHasMoves = ("game-has-moves", 409, "The game has moves"),
    WebhookLimitReached = ("webhook-limit-reached", 409, "Too many webhooks"),
    PushSubscriptionLimitReached = ("push-subscription-limit-reached", 409, "Too many push subscriptions"),
    SeekClosed = ("seek-closed", 409, "The seek is closed"),
    SeekLimitReached = ("seek-limit-reached", 409, "Too many open seeks"),
    GameNotOver = ("game-not-over", 409, "The game is not over"),
    AlreadyRegistered = ("already-registered", 409, "Already registered"),
    AlreadyInvited = ("already-invited", 409, "Already invited"),
    NotRegistered = ("not-registered", 409, "Not registered"),
    RegistrationClosed = ("registration-closed", 409, "Registration is closed"),
    TournamentStarted = ("tournament-started", 409, "The tournament has started"),
    TournamentEnded = ("tournament-ended", 409, "The tournament has ended"),
    TournamentNotRunning = ("tournament-not-running", 409, "The tournament is not running"),
    TournamentPaused = ("tournament-paused", 409, "The tournament is paused"),
    TournamentNotPaused = ("tournament-not-paused", 409, "The tournament is not paused"),
    TournamentFull = ("tournament-full", 409, "The tournament is full"),
    GameToPlay = ("game-to-play", 409, "A game is still to be played"),
    UndoPastReveal = ("undo-past-reveal", 409, "Something was revealed since"),
    NothingToUndo = ("nothing-to-undo", 409, "Nothing to take back"),
    PayloadTooLarge = ("payload-too-large", 413, "Request body too large"),
    UnsupportedMediaType = ("unsupported-media-type", 415, "Unsupported media type"),
    UnexpectedAction = ("unexpected-action", 422, "Action not expected now"),
    IllegalPlacement = ("illegal-placement", 422, "Illegal placement"),
    TileDoesNotFit = ("tile-does-not-fit", 422, "The tile does not fit"),
    UnknownSpot = ("unknown-spot", 422, "Unknown spot"),
    FigureNotAllowed = ("figure-not-allowed", 422, "Figure not allowed there"),
    FeatureOccupied = ("feature-occupied", 422, "Feature occupied"),
    NoFigureLeft = ("no-figure-left", 422, "No figure left"),
    NeedsOwnFollower = ("needs-own-follower", 422, "Needs a follower of your own"),
    NoAbbotToReturn = ("no-abbot-to-return", 422, "No abbot to return"),
    WagonOutOfReach = ("wagon-out-of-reach", 422, "Wagon out of reach"),
    BarnNotAllowed = ("barn-not-allowed", 422, "Barn not allowed there"),
    MagicNotAllowed = ("magic-not-allowed", 422, "Mage or witch not allowed there"),
    CannotFly = ("cannot-fly", 422, "Cannot fly"),
    CannotLand = ("cannot-land", 422, "Cannot land there"),
    CropNotAllowed = ("crop-not-allowed", 422, "Crop-circle action not allowed"),
    FerryNotAllowed = ("ferry-not-allowed", 422, "Ferry not allowed there"),
    RobberNotAllowed = ("robber-not-allowed", 422, "Robber not allowed there"),
    NotInScoringOrder = ("not-in-scoring-order", 422, "Not waiting to be scored"),
    VictimNotAllowed = ("victim-not-allowed", 422, "Victim not allowed"),
    MessageNotAllowed = ("message-not-allowed", 422, "Message not allowed"),
    MovePastHiddenInformation = ("move-past-hidden-information", 422, "Move goes past hidden information"),
    TileNotInHand = ("tile-not-in-hand", 422, "Tile not in hand"),
    TileNotNamed = ("tile-not-named", 422, "Tile not named"),
    IdempotencyKeyReused = ("idempotency-key-reused", 422, "Idempotency key reused"),
    WebhookUrlNotAllowed = ("webhook-url-not-allowed", 422, "Webhook URL not allowed"),
    OrderNotInGame = ("order-not-in-game", 422, "No such decision in this game"),
    RateLimited = ("rate-limited", 429, "Too many requests"),
    InternalError = ("internal-error", 500, "Internal server error"),
    ServiceUnavailable = ("service-unavailable", 503, "Service unavailable"),
}

impl ProblemCode {
    /// The code with this name (the rules engine's refusals name theirs so).
    pub fn from_code(code: &str) -> Option<ProblemCode> {
        ProblemCode::ALL
            .iter()
            .copied()
            .find(|c| c.as_str() == code)
    }
}

impl std::fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A part of a problem response's description: prose, or codes (written `` `a`, `b` ``).
#[derive(Clone, Copy, Debug)]
pub enum Piece {
    /// Prose, which names no code.
    Text(&'static str),
    /// Codes, each of the response's status.
    Codes(&'static [ProblemCode]),
}

/// One problem response of an operation: its status and its description's parts.
#[derive(Clone, Copy, Debug)]
pub struct ProblemResponse {
    /// The HTTP status.
    pub status: u16,
    /// The description, prose and codes in turn.
    pub pieces: &'static [Piece],
}

impl ProblemResponse {
    /// The codes this response names.
    pub fn codes(&self) -> impl Iterator<Item = ProblemCode> + '_ {
        self.pieces.iter().flat_map(|p| match p {
            Piece::Codes(c) => c.iter().copied(),
            Piece::Text(_) => [].iter().copied(),
        })
    }

    /// The description, the codes written from their definition.
    pub fn description(&self) -> String {
        let mut out = String::new();
        for p in self.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Codes(c) => out.push_str(
                    &c.iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
            }
        }
        out
    }
}

/// The problem responses of one operation, by its `operationId`.
#[derive(Clone, Copy, Debug)]
pub struct OperationProblems {
    /// The operation's `operationId`.
    pub operation: &'static str,
    /// Its problem responses (the shared ones are added to every operation apart).
    pub responses: &'static [ProblemResponse],
}

/// A handler module's problem responses, by operation: its `PROBLEMS` table.
///
/// ```ignore
/// problems! {
///     "submit_move" {
///         403 => ("Not a player of this game (" [NotAPlayer] ")"),
///     }
/// }
/// ```
/// Each response is prose (string literals) and codes (`[Variant, …]`) in turn; the
/// document writes the codes from [`ProblemCode`], so no code is written as text.
macro_rules! problems {
    ($($op:literal { $($status:literal => ($($piece:tt)+)),* $(,)? })*) => {
        /// This module's operations' problem responses (the document's, by `operationId`).
        pub(crate) const PROBLEMS: &[$crate::api::problem::OperationProblems] = &[$(
            $crate::api::problem::OperationProblems {
                operation: $op,
                responses: &[$($crate::api::problem::ProblemResponse {
                    status: $status,
                    pieces: &[$($crate::api::problem::problem_piece!($piece)),+],
                }),*],
            },
        )*];
    };
}
pub(crate) use problems;

/// One part of a description in [`problems!`].
macro_rules! problem_piece {
    ($text:literal) => {
        $crate::api::problem::Piece::Text($text)
    };
    ([$($code:ident),+ $(,)?]) => {
        $crate::api::problem::Piece::Codes(&[$($crate::api::problem::ProblemCode::$code),+])
    };
}
pub(crate) use problem_piece;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_kebab_case_with_error_statuses() {
        let mut seen = std::collections::HashSet::new();
        for c in ProblemCode::ALL {
            assert!(seen.insert(c.as_str()), "{c} twice");
            assert!(c
                .as_str()
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch == '-'));
            assert!((400..600).contains(&c.status()));
            assert!(!c.title().is_empty());
            assert_eq!(ProblemCode::from_code(c.as_str()), Some(*c));
        }
    }

    #[test]
    fn every_rules_refusal_has_a_code() {
        for code in tilepost_engine::PlayError::CODES {
            if *code == "log-mismatch" {
                continue;
            }
            let c = ProblemCode::from_code(code);
            assert!(c.is_some(), "{code} is not a problem code");
        }
    }
}
