//! What a game tells the tools that make puzzles of it (`plateau puzzles`,
//! the server's puzzle pages): how its view counts the material each seat
//! has won, what winning material is called, and its built-in puzzle set.
//!
//! A puzzle is a position where one move wins material or the game by force
//! (`plateau-analysis` finds and checks them; `docs/puzzles.md`). Games
//! without material to win (no captures) have no puzzles: [`Game::puzzles`]
//! is `None` by default.
//!
//! [`Game::puzzles`]: crate::Game::puzzles

/// A game's puzzles: where its view counts material, and its built-in set.
#[derive(Clone, Copy, Debug)]
pub struct Puzzles {
    /// JSON pointers into the referee's view of a position: the material won
    /// so far by seat 0 and by seat 1 (Abalone's marbles pushed out,
    /// Abraxas's stones taken), each a whole number.
    pub material: [&'static str; 2],
    /// The theme of a puzzle whose line wins material (`push-out`,
    /// `capture`); a line that wins the game is a `win`.
    pub gain: &'static str,
    /// The built-in set: the JSON that `plateau puzzles` writes (a list of
    /// puzzles), kept in the game's crate (`puzzles.json`).
    pub builtin: &'static str,
}
