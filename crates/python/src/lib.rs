//! The native module of the Python package `plateau` (`plateau._plateau`):
//! Plateau's games and computer players for Python, built with PyO3 and
//! maturin (abi3, Python 3.9 and later).
//!
//! Everything goes through the type-erased layer of `plateau-core` and the
//! catalogue (`plateau_games::registry()`, `AnyMatch`,
//! `plateau_games::players`): this crate knows no game by name. The package's
//! pure-Python part, its type stubs and its tests are under `python/` and
//! `tests/`; `README.md` documents the API.

mod convert;
mod player;
mod state;

use std::sync::OnceLock;

use plateau_core::{OptionKind, Registry};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// The catalogue of every game, made once.
pub(crate) fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(plateau_games::registry)
}

/// Every game, in the order ``plateau games`` lists them, as a list of dicts:
/// ``name``, ``title``, ``summary``, ``notation`` (how moves are written),
/// ``min_players``, ``max_players``, ``hidden`` (whether some information is
/// secret), ``uses_seed`` (whether the set-up is drawn from the seed),
/// ``has_draws``, ``variants`` (each a dict: ``name``, ``help``, ``options``
/// it presets; the first is the default), ``options`` (each a dict:
/// ``name``, ``kind`` — ``"int"``, ``"optional-int"``, ``"bool"``,
/// ``"choice"``, ``"text"`` or ``"content"`` —, ``min`` and ``max`` for
/// integers, ``choices`` for a choice, ``default``, ``values`` in words,
/// ``help``), and ``levels`` (the six levels of its computer player: ``level``,
/// ``spec``, ``label``).
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for entry in registry().games() {
        let info = entry.info();
        let g = PyDict::new(py);
        g.set_item("name", info.name)?;
        g.set_item("title", info.title)?;
        g.set_item("summary", info.summary)?;
        g.set_item("notation", info.notation)?;
        g.set_item("min_players", info.min_seats)?;
        g.set_item("max_players", info.max_seats)?;
        g.set_item("hidden", info.hidden)?;
        g.set_item("uses_seed", info.uses_seed)?;
        g.set_item("has_draws", info.has_draws)?;
        let variants = PyList::empty(py);
        for v in info.variants {
            let d = PyDict::new(py);
            d.set_item("name", v.name)?;
            d.set_item("help", v.help)?;
            let presets = PyDict::new(py);
            for (k, x) in v.options {
                presets.set_item(k, x)?;
            }
            d.set_item("options", presets)?;
            variants.append(d)?;
        }
        g.set_item("variants", variants)?;
        let options = PyList::empty(py);
        for o in info.options {
            let d = PyDict::new(py);
            d.set_item("name", o.name)?;
            let kind = match o.kind {
                OptionKind::Int { min, max } | OptionKind::OptionalInt { min, max } => {
                    d.set_item("min", min)?;
                    d.set_item("max", max)?;
                    if matches!(o.kind, OptionKind::Int { .. }) { "int" } else { "optional-int" }
                }
                OptionKind::Bool => "bool",
                OptionKind::Choice(choices) => {
                    d.set_item("choices", choices.to_vec())?;
                    "choice"
                }
                OptionKind::Text => "text",
                OptionKind::Content => "content",
            };
            d.set_item("kind", kind)?;
            d.set_item("default", o.default)?;
            d.set_item("values", o.values_help())?;
            d.set_item("help", o.help)?;
            options.append(d)?;
        }
        g.set_item("options", options)?;
        let levels = PyList::empty(py);
        if let Ok(players) = plateau_games::players(info.name) {
            for l in players.levels() {
                let d = PyDict::new(py);
                d.set_item("level", l.level)?;
                d.set_item("spec", l.spec)?;
                d.set_item("label", l.label)?;
                levels.append(d)?;
            }
        }
        g.set_item("levels", levels)?;
        out.append(g)?;
    }
    Ok(out)
}

/// The native module; `plateau/__init__.py` re-exports it.
#[pymodule]
fn _plateau(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_class::<state::State>()?;
    m.add_class::<player::Player>()?;
    m.add_class::<player::Choice>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
