//! The crate's typed errors: why an event cannot be applied, why a stored row cannot be
//! read, why a pairing cannot be made. None of them panics; each says what was wrong.

use thiserror::Error;

#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum Error {
    #[error("invalid configuration: {0}")]
    InvalidConfig(String),
    #[error("the log must start with tournament_created")]
    NotCreated,
    #[error("the tournament was already created")]
    AlreadyCreated,
    #[error("unknown player {0}")]
    UnknownPlayer(String),
    #[error("player {0} is already registered")]
    AlreadyRegistered(String),
    #[error("player {0} is already invited")]
    AlreadyInvited(String),
    #[error("player {0} has withdrawn")]
    Withdrawn(String),
    #[error("registration is closed: {0}")]
    RegistrationClosed(String),
    #[error("player {0} still has a game to play")]
    GameInProgress(String),
    #[error("the round is not finished")]
    RoundInProgress,
    #[error("the stage has played all its rounds")]
    StageComplete,
    #[error("the stage is not finished")]
    StageNotComplete,
    #[error("the tournament is finished")]
    Finished,
    #[error("the tournament is paused")]
    Paused,
    #[error("the tournament is not paused")]
    NotPaused,
    #[error("a reason is required (1 to 500 characters)")]
    NoReason,
    #[error("not enough players: {0}")]
    NotEnoughPlayers(String),
    #[error("the pairing does not match the tournament: {0}")]
    PairingMismatch(String),
    #[error("no such game: stage {stage}, round {round}, table {table}, game {game}")]
    NoSuchGame {
        stage: u32,
        round: u32,
        table: u32,
        game: u32,
    },
    #[error("that game already has a result")]
    ResultExists,
    #[error("invalid result: {0}")]
    InvalidResult(String),
    #[error("the qualifiers do not match the standings: {0}")]
    QualifiersMismatch(String),
}

/// Why a stored event could not be read.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum EventError {
    #[error("unknown event type {0}")]
    UnknownType(String),
    #[error("event {kind} has unknown version {version}")]
    UnknownVersion { kind: String, version: u32 },
    #[error("event {kind} has a malformed payload: {reason}")]
    Malformed { kind: String, reason: String },
}
