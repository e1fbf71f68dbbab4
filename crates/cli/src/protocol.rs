//! `plateau engine` and `plateau engine-check`: the engine protocol from
//! the command line (`docs/engine-protocol.md`).

use std::time::Duration;

use anyhow::{Result, bail};
use clap::Args;
use plateau_ai::PlayerSpec;
use plateau_core::Registry;
use plateau_engine::check::{CheckOptions, check};
use plateau_engine::serve::{Identity, Specs, serve};

/// Arguments of `plateau engine`.
#[derive(Args)]
pub struct EngineArgs {
    /// The player behind the protocol (a level resolves per game: ai:5 is
    /// alphabeta:time=1s, or ismcts:time=1s for Kabaleo); GAME=SPEC sets
    /// one game's player (repeatable: --player alphabeta:time=1s --player
    /// kabaleo=ismcts:time=1s). A `go` with limits replaces its budget. The
    /// handshake claims the games its players can play.
    #[arg(long = "player", value_name = "SPEC", default_value = "ai:5")]
    players: Vec<String>,
}

/// Speak the protocol on standard input and output until `quit`.
pub fn engine(registry: &Registry, args: EngineArgs) -> Result<()> {
    let mut specs = Specs::one(PlayerSpec::parse("ai:5")?);
    let mut default_given = false;
    for text in &args.players {
        let (game, spec) = match text.split_once('=') {
            Some((g, rest)) if registry.get(g.trim()).is_ok() => {
                (Some(registry.get(g.trim())?.info().name), PlayerSpec::parse(rest)?)
            }
            _ => (None, PlayerSpec::parse(text)?),
        };
        if spec.kind == plateau_ai::Kind::Human {
            bail!("a human is not an engine: give a computer player");
        }
        match game {
            Some(g) => specs.games.push((g.to_string(), spec)),
            None if default_given => bail!("two players for every game: give one, and GAME=SPEC for others"),
            None => {
                specs.default = spec;
                default_given = true;
            }
        }
    }
    let mut name = format!("Plateau {} ({}", env!("CARGO_PKG_VERSION"), specs.default);
    for (g, s) in &specs.games {
        name.push_str(&format!(", {g} {s}"));
    }
    name.push(')');
    let who = Identity { name, author: "the Plateau authors".into() };
    let stdin = std::io::stdin().lock();
    serve(registry, &specs, &who, stdin, std::io::stdout())?;
    Ok(())
}

/// Arguments of `plateau engine-check`.
#[derive(Args)]
pub struct CheckArgs {
    /// The engine's command line, as one argument: "python3 my_engine.py --fast".
    command: String,
    /// Time given for each move (250ms, 1s).
    #[arg(long, default_value = "200ms", value_parser = duration)]
    movetime: Duration,
    /// How late a bestmove may come after the move time, or after stop.
    #[arg(long, default_value = "500ms", value_parser = duration)]
    grace: Duration,
    /// Positions played per game.
    #[arg(long, default_value_t = 4)]
    positions: usize,
    /// The seed of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// A duration such as 250ms, 1.5s or 2 (seconds), at most 60 s.
pub fn duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (num, scale) = match t.strip_suffix("ms") {
        Some(n) => (n, 0.001),
        None => (t.strip_suffix('s').unwrap_or(t), 1.0),
    };
    let x: f64 = num.trim().parse().map_err(|_| format!("{text:?} is not a duration like 250ms or 1.5s"))?;
    if !x.is_finite() || x <= 0.0 || x * scale > 60.0 {
        return Err(format!("{text:?}: a duration from 1 ms to 60 s"));
    }
    Ok(Duration::from_secs_f64(x * scale))
}

/// Check an engine and print the report; fail when a check failed.
pub fn engine_check(registry: &Registry, args: CheckArgs) -> Result<()> {
    let opts = CheckOptions { movetime: args.movetime, grace: args.grace, positions: args.positions, seed: args.seed };
    let report = check(registry, &args.command, &opts);
    print!("{report}");
    if report.failed() > 0 {
        bail!("{} checks failed", report.failed());
    }
    Ok(())
}
