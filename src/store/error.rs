//! The store's errors: conflicts the callers turn into answers, the database being
//! away, and everything else.

use diesel::result::{DatabaseErrorKind, Error as DieselError};
use thiserror::Error;

/// Why a store operation failed.
#[derive(Debug, Error)]
pub enum StoreError {
    /// A uniqueness or state conflict.
    #[error("conflict: {0:?}")]
    Conflict(Conflict),
    #[error("not found")]
    NotFound,
    /// A user the operation names (the caller of a token) does not exist.
    #[error("unknown user")]
    UnknownUser,
    /// A stored row cannot be read as what it should hold; `row` names it (`game …`).
    #[error("{row}: corrupt row: {detail}")]
    Corrupt { row: String, detail: String },
    /// The database cannot be reached (pool time-out, lost connection).
    #[error("database unavailable: {0}")]
    Unavailable(String),
    #[error("configuration: {0}")]
    Config(String),
    /// A refusal decided by a caller's callback inside a transaction.
    #[error("rejected: {0}")]
    Rejected(String),
    #[error("database error: {0}")]
    Internal(String),
}

/// The kinds of conflict a write can meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conflict {
    /// A unique key refused a row (a concurrent writer chose the same key).
    Duplicate,
    /// The game moved on from the expected version.
    StaleVersion,
    UsernameTaken,
    /// The user has a seat at the game already.
    AlreadySeated,
    /// The game is no longer open.
    GameAlreadyStarted,
    /// The user has no pending invitation to the game.
    NotInvited,
    /// Every free seat is reserved for an invited user.
    NoOpenSeat,
    /// The user has no seat at the game.
    NotSeated,
    /// The seek is full or expired.
    SeekClosed,
    /// The user has the most open seeks allowed.
    SeekLimitReached,
    /// The game has moves (it cannot be aborted).
    GameHasMoves,
    /// Another request with the same idempotency key is being recorded.
    IdempotencyKeyInUse,
    AlreadyOnVacation,
    /// The user has the most webhook endpoints allowed.
    EndpointLimitReached,
    /// The user has the most push subscriptions allowed.
    PushSubscriptionLimitReached,
}

impl From<DieselError> for StoreError {
    fn from(e: DieselError) -> Self {
        match e {
            DieselError::NotFound => StoreError::NotFound,
            DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => {
                StoreError::Conflict(Conflict::Duplicate)
            }
            DieselError::DatabaseError(
                DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand,
                info,
            ) => StoreError::Unavailable(info.message().to_string()),
            DieselError::DatabaseError(DatabaseErrorKind::Unknown, info)
                if is_connection_message(info.message()) =>
            {
                StoreError::Unavailable(info.message().to_string())
            }
            other => StoreError::Internal(other.to_string()),
        }
    }
}

/// A write naming a user (a seat, a game's creator): a foreign key that refuses it
/// means the user does not exist.
pub(super) fn user_reference(e: DieselError) -> StoreError {
    match e {
        DieselError::DatabaseError(DatabaseErrorKind::ForeignKeyViolation, _) => {
            StoreError::UnknownUser
        }
        other => other.into(),
    }
}

fn is_connection_message(m: &str) -> bool {
    let m = m.to_ascii_lowercase();
    m.contains("connection")
        || m.contains("terminating")
        || m.contains("server closed")
        || m.contains("shutting down")
        || m.contains("starting up")
}

/// Internal error type of transactions.
pub(super) enum TxError {
    Db(DieselError),
    Store(StoreError),
}

impl From<DieselError> for TxError {
    fn from(e: DieselError) -> Self {
        TxError::Db(e)
    }
}

impl From<TxError> for StoreError {
    fn from(e: TxError) -> Self {
        match e {
            TxError::Db(d) => d.into(),
            TxError::Store(s) => s,
        }
    }
}
