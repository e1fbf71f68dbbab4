//! `plateau tune`: fit a game's evaluation weights to the results of
//! self-play games (Texel tuning, `plateau_ai::tune`), and write them as the
//! game's weights file with the command that made them and the fit.

use std::path::PathBuf;
use std::sync::Mutex;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use plateau_ai::PlayerSpec;
use plateau_ai::tune::TuneConfig;
use plateau_core::{Registry, Setup};

/// The arguments of `plateau tune`.
#[derive(Args)]
pub struct TuneArgs {
    /// The game.
    #[arg(long)]
    pub game: String,
    /// The variant (repeatable: games are spread over the variants in turn).
    #[arg(long)]
    pub variant: Vec<String>,
    /// An option, as name=value (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Self-play games (one in five is held out of the fit to check it).
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// The player of every seat.
    #[arg(long, default_value = "ai:3")]
    pub player: String,
    /// Random moves at the start of each game.
    #[arg(long, default_value_t = 4)]
    pub openings: u32,
    /// The seed of set-ups, openings and players.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// A game still going after this many plies is left out.
    #[arg(long, default_value_t = 1000)]
    pub max_plies: usize,
    /// Fit every position, not only the quiet ones (the game's noisy moves empty).
    #[arg(long)]
    pub all_positions: bool,
    /// The ridge towards the weights as they are, as a fraction of each
    /// term's curvature (0 to 100; larger keeps the weights nearer).
    #[arg(long, default_value_t = 0.01)]
    pub ridge: f64,
    /// A term kept at its weight, out of the fit (repeatable; see the
    /// game's `weights.json` for its terms).
    #[arg(long, value_name = "TERM")]
    pub fixed: Vec<String>,
    /// Write the weights file (JSON) here instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Run the games, fit, write.
pub fn tune(registry: &Registry, args: TuneArgs) -> Result<()> {
    if args.games == 0 || args.games > 100_000 {
        bail!("--games: 1 to 100000");
    }
    if !(0.0..=100.0).contains(&args.ridge) {
        bail!("--ridge: 0 to 100");
    }
    let entry = registry.get(&args.game)?;
    let name = entry.info().name;
    let factory = plateau_games::players(name)?;
    let options = crate::options::parse(registry, Some(&args.game), &args.options)?;
    let player = PlayerSpec::parse(&args.player).map_err(|e| anyhow!("--player: {e}"))?;
    factory.create(&player).map_err(|e| anyhow!("--player {}: {e}", args.player))?;
    let variants: Vec<Option<String>> =
        if args.variant.is_empty() { vec![None] } else { args.variant.iter().cloned().map(Some).collect() };
    let new_match = |i: usize, seed: u64| {
        let variant = variants[i % variants.len()].clone();
        entry.new_match(&Setup { variant, options: options.clone(), seed }).map_err(|e| e.to_string())
    };
    for i in 0..variants.len() {
        new_match(i, args.seed).map_err(|e| anyhow!(e))?;
    }
    let config = TuneConfig {
        games: args.games,
        player,
        openings: args.openings,
        seed: args.seed,
        threads: args.threads.clamp(1, 64),
        max_plies: args.max_plies,
        all_positions: args.all_positions,
        ridge: args.ridge,
        fixed: args.fixed.clone(),
    };
    let last = Mutex::new(0usize);
    let progress = |done: usize, all: usize| {
        let mut last = last.lock().expect("progress");
        if done * 10 / all > *last * 10 / all || done == all {
            eprintln!("{done}/{all} games");
        }
        *last = done;
    };
    let mut weights = factory.tune(&new_match, &config, &progress).map_err(|e| anyhow!(e))?;
    weights.variant = if args.variant.is_empty() {
        entry.info().variants.first().map(|v| v.name.to_string()).unwrap_or_default()
    } else {
        args.variant.join(",")
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    weights.command = format!("plateau {}", argv.join(" "));
    eprintln!(
        "{} positions from {} games; k = {:.6}; log-loss {:.5} -> {:.5} (held out: {:.5} -> {:.5})",
        weights.positions,
        weights.games,
        weights.scale,
        weights.log_loss_before,
        weights.log_loss_after,
        weights.held_out_before,
        weights.held_out_after
    );
    for t in &weights.terms {
        eprintln!("  {:<24} {:>10.3} -> {:>10.3}", t.name, t.before, t.weight);
    }
    let json = serde_json::to_string_pretty(&weights)? + "\n";
    match &args.out {
        Some(path) => std::fs::write(path, json).with_context(|| format!("writing {}", path.display()))?,
        None => print!("{json}"),
    }
    Ok(())
}
