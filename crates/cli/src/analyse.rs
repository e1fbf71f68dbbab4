//! `plateau analyse RECORD`: the computer analysis of a finished game
//! (`plateau-analysis`), printed move by move or as JSON.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use plateau_analysis::{Analysis, Judgement, Settings};
use plateau_core::{AnyMatch, Record, Registry};

/// The arguments of `plateau analyse`.
#[derive(Args)]
pub struct AnalyseArgs {
    /// The record file of the game (a finished game's record; for Kabaleo, with its Seed), or - for standard input.
    pub file: String,
    /// Search time per position (250ms, 1s; 10ms to 10s): the game's default searcher with this budget.
    #[arg(long, default_value = "300ms")]
    pub time: String,
    /// The player spec that judges each position instead (alphabeta:depth=4, ismcts:iterations=2000).
    #[arg(long, conflicts_with = "time")]
    pub spec: Option<String>,
    /// Print the analysis as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// A duration: `250ms`, `1s`, `1.5s` (a bare number is seconds).
fn parse_time(text: &str) -> Result<Duration> {
    let t = text.trim();
    let (num, scale) = match t.strip_suffix("ms") {
        Some(n) => (n, 0.001),
        None => (t.strip_suffix('s').unwrap_or(t), 1.0),
    };
    let x: f64 = num.trim().parse().map_err(|_| anyhow!("--time {text:?} is not a duration like 300ms or 1.5s"))?;
    if !x.is_finite() || x <= 0.0 || x * scale > 10.0 {
        bail!("--time {text:?}: give a duration from 10ms to 10s");
    }
    Ok(Duration::from_secs_f64(x * scale))
}

/// Run `plateau analyse`.
pub fn analyse(registry: &Registry, args: AnalyseArgs) -> Result<()> {
    let text = crate::read_input(&args.file)?;
    let record = Record::parse(&text).with_context(|| format!("reading {}", args.file))?;
    let m = registry.replay(&record, None, None).map_err(|e| anyhow!("{}: {e}", args.file))?;
    let game = m.info().name;
    let settings = match &args.spec {
        Some(spec) => Settings { spec: spec.clone() },
        None => Settings::with_time(game, parse_time(&args.time)?),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let show = std::io::stderr().is_terminal();
    let mut progress = |done: usize, total: usize| {
        if show {
            eprint!("\ranalysing: {done}/{total} searches");
        }
    };
    let a = plateau_analysis::analyse(m.as_ref(), &settings, &stop, &mut progress).map_err(|e| anyhow!("{e}"))?;
    if show {
        eprintln!();
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&a)?);
    } else {
        print!("{}", report(m.as_ref(), &a));
    }
    Ok(())
}

fn mark(j: Option<Judgement>) -> &'static str {
    match j {
        None => "",
        Some(Judgement::Inaccuracy) => "?!",
        Some(Judgement::Mistake) => "?",
        Some(Judgement::Blunder) => "??",
    }
}

fn values(v: &[f32]) -> String {
    v.iter().map(|x| format!("{x:+.2}")).collect::<Vec<_>>().join(" ")
}

/// The analysis as text: one line per move, the seats summed up, and for
/// games with secrets the chances and beliefs at every position.
fn report(m: &dyn AnyMatch, a: &Analysis) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let seats: Vec<String> = (0..m.seats()).map(|s| m.seat_name(s)).collect();
    let _ = writeln!(out, "Analysis of {} ({}) by {}", a.game, a.variant, a.spec);
    let _ = writeln!(out, "Values are each seat's expected return, -1 to +1, in seat order: {}.", seats.join(", "));
    let _ = writeln!(
        out,
        "{:>4}  {:<10} {:<14} {:<14} {:<14} {:<14} {:>6}",
        "ply", "seat", "played", "best", "before", "after", "loss"
    );
    for p in &a.plies {
        let played = format!("{}{}", p.played, mark(p.judgement));
        let best = p.best.clone().unwrap_or_default();
        let _ = write!(
            out,
            "{:>4}  {:<10} {:<14} {:<14} {:<14} {:<14} {:>6.3}",
            p.ply,
            seats.get(p.seat).map(String::as_str).unwrap_or("?"),
            played,
            best,
            values(&p.before),
            values(&p.after),
            p.loss
        );
        if p.judgement.is_some() && !p.line.is_empty() {
            let _ = write!(out, "  line: {}", p.line.join(" "));
        }
        out.push('\n');
    }
    out.push('\n');
    for s in &a.seats {
        let _ = writeln!(
            out,
            "{:<10} inaccuracies (?!) {}, mistakes (?) {}, blunders (??) {}, average loss {:.3}",
            seats.get(s.seat).map(String::as_str).unwrap_or("?"),
            s.inaccuracies,
            s.mistakes,
            s.blunders,
            s.average_loss
        );
    }
    if let Some(h) = &a.hidden {
        let secrets: Vec<String> = h
            .secrets
            .iter()
            .enumerate()
            .map(|(s, &v)| {
                let name = h.values.get(v).map(String::as_str).unwrap_or("?");
                format!("{} {name}", seats.get(s).map(String::as_str).unwrap_or("?"))
            })
            .collect();
        let _ = writeln!(out, "\nSecrets: {}", secrets.join(", "));
        let _ = writeln!(
            out,
            "Each position: every seat's chance to win (everything known), then what each seat believed of the others' secrets (its most likely value)."
        );
        for (ply, chances) in h.chances.iter().enumerate() {
            let c: Vec<String> = chances.iter().map(|p| format!("{:>3.0}%", p * 100.0)).collect();
            let _ = write!(out, "{ply:>4}  chances {}  beliefs", c.join(" "));
            for (observer, rows) in h.beliefs.get(ply).into_iter().flatten().enumerate() {
                for (seat, row) in rows.iter().enumerate().filter(|(s, _)| *s != observer) {
                    let top = (0..row.len()).max_by(|&x, &y| row[x].total_cmp(&row[y])).unwrap_or(0);
                    let _ = write!(
                        out,
                        "  {}→{}: {} {:.0}%",
                        observer + 1,
                        seat + 1,
                        h.values.get(top).map(String::as_str).unwrap_or("?"),
                        row.get(top).copied().unwrap_or(0.0) * 100.0
                    );
                }
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_read_and_bounded() {
        assert_eq!(parse_time("300ms").unwrap(), Duration::from_millis(300));
        assert_eq!(parse_time("1.5s").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_time("2").unwrap(), Duration::from_secs(2));
        assert!(parse_time("11s").is_err());
        assert!(parse_time("0").is_err());
        assert!(parse_time("soon").is_err());
        assert_eq!(mark(Some(Judgement::Blunder)), "??");
    }
}
