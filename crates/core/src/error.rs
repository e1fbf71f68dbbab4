//! Errors of the game model. Every error says what was wrong, in words a player
//! understands; none carries hidden information.

use std::fmt;

/// Whether a move was not understood or not allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveErrorKind {
    /// The text is not a move in the game's notation.
    Syntax,
    /// The move is understood but not legal in this position.
    Illegal,
}

/// A move that was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[error("{message}")]
pub struct MoveError {
    /// Syntax or legality.
    pub kind: MoveErrorKind,
    /// What was wrong.
    pub message: String,
}

impl MoveError {
    /// The text is not a move in the notation.
    pub fn syntax(message: impl Into<String>) -> Self {
        MoveError { kind: MoveErrorKind::Syntax, message: message.into() }
    }
    /// The move is not legal here.
    pub fn illegal(message: impl Into<String>) -> Self {
        MoveError { kind: MoveErrorKind::Illegal, message: message.into() }
    }
}

/// A game could not be configured: unknown game, variant or option, or a value
/// out of range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

impl ConfigError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        ConfigError(message.into())
    }
}

/// A record could not be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The text of the record is malformed (line numbers count from 1).
    #[error("line {line}: {message}")]
    Syntax {
        /// The line of the problem.
        line: usize,
        /// What was wrong.
        message: String,
    },
    /// The game, variant or options of the record are not valid.
    #[error("{0}")]
    Config(#[from] ConfigError),
    /// A move of the record was refused.
    #[error("ply {ply} ({text}): {error}")]
    Move {
        /// The ply of the move, counted from 1.
        ply: usize,
        /// The move as written in the record.
        text: String,
        /// Why it was refused.
        error: MoveError,
    },
    /// The record's result tag does not match the replayed game.
    #[error("the record says the result is {recorded} but the moves give {replayed}")]
    Result {
        /// The `Result` tag of the record.
        recorded: String,
        /// The result of the replayed moves.
        replayed: String,
    },
}

impl fmt::Display for MoveErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveErrorKind::Syntax => "syntax",
            MoveErrorKind::Illegal => "illegal",
        })
    }
}
