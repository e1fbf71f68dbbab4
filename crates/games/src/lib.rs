//! The catalogue of every game of Plateau: the one place that lists them, with
//! their rules (registry entries) and their computer players.
//!
//! Adding a game is one line in each list here (and one in this crate's
//! `Cargo.toml`).

use plateau_ai::{Players, hidden, two_player};
use plateau_core::{ConfigError, Registry, entry};

/// The registry of every game's rules, in the order the lobby and
/// `plateau games` show them.
pub fn registry() -> Registry {
    Registry::new()
        .with(entry::<plateau_abalone::Abalone>())
        .with(entry::<plateau_colorito::Colorito>())
        .with(entry::<plateau_kabaleo::Kabaleo>())
        .with(entry::<plateau_abraxas::Abraxas>())
}

/// The computer players of the game called `name`.
pub fn players(name: &str) -> Result<Box<dyn Players>, ConfigError> {
    let all: Vec<Box<dyn Players>> = vec![
        two_player::<plateau_abalone::Abalone>(),
        two_player::<plateau_colorito::Colorito>(),
        hidden::<plateau_kabaleo::Kabaleo>(),
        two_player::<plateau_abraxas::Abraxas>(),
    ];
    all.into_iter()
        .find(|p| p.game().eq_ignore_ascii_case(name))
        .ok_or_else(|| ConfigError::new(format!("unknown game {name:?}")))
}
