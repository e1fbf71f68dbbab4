//! The engine protocol of Plateau: a line-based text protocol over stdin
//! and stdout, modelled on UCI and UHP, through which any program plays the
//! games of Plateau (specified in `docs/engine-protocol.md`).
//!
//! - [`protocol`]: the messages both ways, as values (parse and write).
//! - [`serve`]: the engine side over Plateau's own players (`plateau engine`).
//! - [`referee`]: the other side: run a program that speaks the protocol,
//!   with time limits, and tell it only what its seat may know (`plateau
//!   arena --player engine:…`, `plateau bot`).
//! - [`check`]: the checker for engine authors (`plateau engine-check`).

#![warn(missing_docs)]

pub mod check;
pub mod protocol;
pub mod referee;
pub mod serve;

pub use protocol::{Command, Info, Limits, Reply};
pub use referee::{Engine, EngineError, Played};
