//! `plateau puzzles`: make puzzles from computer self-play (`plateau-analysis`),
//! each verified by search to have one winning move, and write them as JSON;
//! or verify a file of puzzles again.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use plateau_analysis::{Puzzle, PuzzleSettings, PuzzleStats, caps};

/// The arguments of `plateau puzzles`.
#[derive(Args)]
pub struct PuzzlesArgs {
    /// The game: abalone or abraxas.
    #[arg(long)]
    pub game: String,
    /// How many puzzles to keep (at most 1000).
    #[arg(long, default_value_t = 50)]
    pub count: usize,
    /// The seed of the self-play games (the same seed makes the same puzzles).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the puzzles (a JSON array) to this file instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Stop generating after this long (90s, 5m, 500ms; at most a day).
    #[arg(long)]
    pub time: Option<String>,
    /// The verification depth in plies (2 to 6; default 4 for Abalone, 5 for Abraxas).
    #[arg(long)]
    pub depth: Option<u32>,
    /// The node budget of each search after a root move (default 200000).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// How much better (evaluation units) the solution must score than every other move (default 100).
    #[arg(long)]
    pub margin: Option<i64>,
    /// The most self-play games (default 2000).
    #[arg(long)]
    pub max_games: Option<usize>,
    /// A self-play player (repeat for several; default greedy, alphabeta:depth=1, alphabeta:depth=2).
    #[arg(long = "player", value_name = "SPEC")]
    pub players: Vec<String>,
    /// Verify every puzzle of this JSON file again instead of generating.
    #[arg(long, value_name = "FILE")]
    pub verify: Option<PathBuf>,
}

/// A duration: `500ms`, `90s`, `5m`, `1h` (a bare number is seconds).
fn parse_time(text: &str) -> Result<Duration> {
    let t = text.trim();
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3600.0)
    } else {
        (t, 1.0)
    };
    let x: f64 = num.trim().parse().map_err(|_| anyhow!("--time {text:?} is not a duration like 90s or 5m"))?;
    let secs = x * scale;
    if !secs.is_finite() || secs <= 0.0 || secs * 1000.0 > caps::TIME_MS as f64 {
        bail!("--time {text:?}: give a positive duration of at most a day");
    }
    Ok(Duration::from_secs_f64(secs))
}

fn figures(s: &PuzzleStats) -> String {
    format!(
        "games {}, positions examined {}, candidates {}, unique {}, kept {}",
        s.games, s.positions, s.candidates, s.unique, s.kept
    )
}

/// Run `plateau puzzles`.
pub fn puzzles(args: PuzzlesArgs) -> Result<()> {
    let mut settings = PuzzleSettings::for_game(&args.game);
    if let Some(d) = args.depth {
        settings.depth = d;
    }
    if let Some(n) = args.nodes {
        settings.nodes = Some(n);
    }
    if let Some(m) = args.margin {
        settings.margin = m;
    }
    if let Some(g) = args.max_games {
        settings.max_games = g;
    }
    if !args.players.is_empty() {
        settings.players = args.players.clone();
    }
    if let Some(t) = &args.time {
        settings.time_ms = Some(parse_time(t)?.as_millis() as u64);
    }
    settings.check()?;
    if let Some(file) = &args.verify {
        return verify_file(file, &settings);
    }
    let start = Instant::now();
    let mut last = Instant::now();
    let mut progress = |s: &PuzzleStats| {
        if last.elapsed() >= Duration::from_secs(2) {
            last = Instant::now();
            eprintln!("{:>6.1}s  {}", start.elapsed().as_secs_f64(), figures(s));
        }
    };
    let (puzzles, stats) = plateau_analysis::generate(&args.game, args.count, args.seed, &settings, &mut progress)?;
    let json = serde_json::to_string_pretty(&puzzles)? + "\n";
    let mut summary = format!("{}: {} in {:.1}s\n", args.game, figures(&stats), start.elapsed().as_secs_f64());
    for (why, n) in &stats.rejected {
        summary.push_str(&format!("  rejected, {why}: {n}\n"));
    }
    let themes = ["win", "push-out", "capture"];
    for theme in themes {
        let n = puzzles.iter().filter(|p| p.theme == theme).count();
        if n > 0 {
            summary.push_str(&format!("  theme {theme}: {n}\n"));
        }
    }
    for len in 1..=caps::SOLVER_MOVES {
        let n = puzzles.iter().filter(|p| p.length() == len).count();
        if n > 0 {
            summary.push_str(&format!("  {len} solver move{}: {n}\n", if len == 1 { "" } else { "s" }));
        }
    }
    match &args.out {
        Some(path) => {
            std::fs::write(path, json).with_context(|| format!("writing {}", path.display()))?;
            print!("{summary}");
            println!("wrote {} puzzles to {}", puzzles.len(), path.display());
        }
        None => {
            eprint!("{summary}");
            print!("{json}");
        }
    }
    Ok(())
}

/// `plateau puzzles --verify FILE`: every puzzle verified again.
fn verify_file(file: &PathBuf, settings: &PuzzleSettings) -> Result<()> {
    let text = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let puzzles: Vec<Puzzle> = serde_json::from_str(&text).with_context(|| format!("reading {}", file.display()))?;
    let mut failed = 0;
    for p in &puzzles {
        if let Err(e) = plateau_analysis::verify(p, settings) {
            failed += 1;
            println!("{}: {e}", p.id);
        }
    }
    println!("verified {} puzzles: {} failed", puzzles.len(), failed);
    if failed > 0 {
        bail!("{failed} puzzles failed verification");
    }
    Ok(())
}
