//! Analysis and learning (issue 19): the computer analysis of a finished game
//! ([`game`]) and puzzles ([`puzzles`]).
//!
//! Like `plateau-engine`, this crate knows no game by name: it sees games
//! through the type-erased layer (`plateau_core::AnyMatch`) and their players
//! through the catalogue (`plateau_games::players`). Everything here is
//! CPU-heavy: callers run it off any async runtime.

pub mod game;
pub mod puzzles;

pub use game::*;
pub use puzzles::*;
