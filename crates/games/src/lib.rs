//! The registry of every game of Plateau: the one place that lists them.
//!
//! Adding a game is one line here (and one in this crate's `Cargo.toml`).

use plateau_core::Registry;
#[allow(unused_imports)]
use plateau_core::entry;

/// Every game, in the order the lobby and `plateau games` show them.
pub fn registry() -> Registry {
    Registry::new()
        // GAMES-REGISTRY: one line per game, below this marker
        .with(entry::<plateau_abalone::Abalone>())
}
