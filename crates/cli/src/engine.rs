//! `plateau bestmove` and `plateau arena`: the computer players from the
//! command line.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use plateau_ai::{PlayerSpec, Players};
use plateau_core::rand::{RngExt, SeedableRng};
use plateau_core::{AnyMatch, Options, Reader, Registry, Setup, Turn};
use rand_chacha::ChaCha8Rng;

use crate::GameArgs;

/// Arguments of `plateau bestmove`.
#[derive(Args)]
pub struct BestmoveArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The player (see `plateau games` for the levels): ai:5, alphabeta:time=1s, mcts:iterations=20000 …
    #[arg(long, default_value = "ai:5")]
    player: String,
}

/// Print the search's figures, then the chosen move alone on the last line.
pub fn bestmove(registry: &Registry, args: BestmoveArgs) -> Result<()> {
    let m = args.game.open(registry)?;
    if m.to_move() == Turn::Over {
        bail!("the game is over: there is no move to find");
    }
    let players = plateau_games::players(m.info().name)?;
    let mut player = players.create_from(&args.player)?;
    let c = player.choose(&*m)?;
    let i = &c.info;
    println!("player {}", player.spec());
    println!("depth {}", i.depth);
    println!("nodes {}", i.nodes);
    println!("time {} ms", i.time.as_millis());
    println!("nps {}", i.nps());
    if let Some(s) = i.score {
        println!("score {s}");
    }
    println!("pv {}", i.pv.join(" "));
    println!("{}", c.mv);
    Ok(())
}

/// Arguments of `plateau arena`.
#[derive(Args)]
pub struct ArenaArgs {
    /// The game.
    #[arg(long)]
    game: String,
    /// The variant.
    #[arg(long)]
    variant: Option<String>,
    /// An option, as name=value (repeatable); NAME=@FILE reads a board or sheet file for a content option.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// A player, one per seat (repeatable): the first is the one measured.
    #[arg(long = "player", value_name = "SPEC", required = true)]
    players: Vec<String>,
    /// Games to play (rounded up to a multiple of the number of seats, so
    /// that every player sits at every seat equally often).
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Openings: `random:N` plays N random moves first, the same for every
    /// seat order of a group of games; `none` starts from the set-up.
    #[arg(long, default_value = "none")]
    openings: String,
    /// Write each game's record in this directory.
    #[arg(long)]
    records: Option<PathBuf>,
    /// Seed of openings and set-ups.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

struct GameResult {
    /// Rank of each player (index into the player list), 0 best; ties equal.
    ranks: Vec<u8>,
    /// For games with secrets: per player, right guesses and guesses made
    /// about the others' secrets just before the end.
    guesses: Vec<(usize, usize)>,
    draw: bool,
    plies: usize,
}

/// Play the games, print the table.
pub fn arena(registry: &Registry, args: ArenaArgs) -> Result<()> {
    let entry = registry.get(&args.game)?;
    let factory = plateau_games::players(entry.info().name)?;
    let options = crate::options::parse(registry, Some(&args.game), &args.options)?;
    let probe = crate::options::hinted(
        entry.new_match(&Setup { variant: args.variant.clone(), options: options.clone(), seed: args.seed }),
        registry,
        Some(&args.game),
        &options,
    )?;
    let seats = probe.seats();
    if args.players.len() != seats {
        bail!("{} has {seats} seats here: give one --player for each", entry.info().name);
    }
    let specs: Vec<PlayerSpec> = args.players.iter().map(|p| PlayerSpec::parse(p)).collect::<Result<_, _>>()?;
    for s in &specs {
        factory.create(s).map_err(|e| anyhow!("{s}: {e}"))?;
    }
    let opening_plies: usize = match args.openings.as_str() {
        "none" => 0,
        o => o
            .strip_prefix("random:")
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| anyhow!("--openings takes none or random:N, not {o:?}"))?,
    };
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let groups = args.games.div_ceil(seats);
    let total = groups * seats;
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GameResult>>> = Mutex::new((0..total).map(|_| None).collect());
    let bar = indicatif::ProgressBar::new(total as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} elapsed, about {eta} left")
            .expect("a valid template"),
    );
    let error: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= total || error.lock().expect("lock").is_some() {
                        break;
                    }
                    let (group, rotation) = (i / seats, i % seats);
                    match play_one(registry, &*factory, &args, &options, &specs, group, rotation, opening_plies) {
                        Ok((r, m)) => {
                            if let Some(dir) = &args.records {
                                let path = dir.join(format!("game-{:04}.txt", i + 1));
                                if let Err(e) = std::fs::write(&path, m.record(Reader::Referee).to_text()) {
                                    *error.lock().expect("lock") = Some(anyhow!("writing {}: {e}", path.display()));
                                }
                            }
                            results.lock().expect("lock")[i] = Some(r);
                        }
                        Err(e) => *error.lock().expect("lock") = Some(e),
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = error.into_inner().expect("lock") {
        return Err(e);
    }
    let results: Vec<GameResult> = results.into_inner().expect("lock").into_iter().flatten().collect();
    print!("{}", report(&args, &specs, &results));
    Ok(())
}

/// The set-up seed and opening of a group, and the game with players rotated.
#[allow(clippy::too_many_arguments)]
fn play_one(
    registry: &Registry,
    factory: &dyn Players,
    args: &ArenaArgs,
    options: &Options,
    specs: &[PlayerSpec],
    group: usize,
    rotation: usize,
    opening_plies: usize,
) -> Result<(GameResult, Box<dyn AnyMatch>)> {
    let seats = specs.len();
    let mut attempt = 0u64;
    let (mut m, opening) = loop {
        let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(group as u64 * 7_919 + attempt);
        let setup = Setup { variant: args.variant.clone(), options: options.clone(), seed };
        let mut m = registry.new_match(&args.game, &setup)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0BE1_1A5E);
        let mut opening = Vec::new();
        while opening.len() < opening_plies && m.to_move() != Turn::Over {
            let moves = m.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())].clone();
            m.play(&mv)?;
            opening.push(mv);
        }
        if m.to_move() != Turn::Over || attempt > 100 {
            break (m, opening);
        }
        attempt += 1;
    };
    let _ = opening;
    // Seat s is played by player (s + rotation) mod seats.
    let player_at = |s: usize| (s + rotation) % seats;
    let mut players: Vec<_> = (0..seats).map(|s| factory.create(&specs[player_at(s)])).collect::<Result<_, _>>()?;
    for s in 0..seats {
        m.set_meta(&m.seat_name(s), &specs[player_at(s)].to_string());
    }
    while let Turn::Seat(s) = m.to_move() {
        let c = players[s].choose(&*m).map_err(|e| anyhow!("{}: {e}", specs[player_at(s)]))?;
        m.play(&c.mv).map_err(|e| anyhow!("{} chose the illegal move {}: {e}", specs[player_at(s)], c.mv))?;
    }
    let o = m.outcome().expect("the game is over");
    // Ranks by return: higher return, better rank.
    let mut ranks = vec![0u8; seats];
    for s in 0..seats {
        let better = (0..seats).filter(|&t| o.value(t) > o.value(s)).count();
        ranks[player_at(s)] = better as u8;
    }
    let mut guesses = vec![(0, 0); seats];
    for g in factory.guesses(&*m).unwrap_or_default() {
        let p = player_at(g.by);
        guesses[p].0 += usize::from(g.right);
        guesses[p].1 += 1;
    }
    Ok((GameResult { ranks, guesses, draw: o.is_draw(), plies: m.ply() }, m))
}

/// Elo difference for a score fraction.
fn elo(p: f64) -> f64 {
    let p = p.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / p - 1.0).log10()
}

/// The 95% Wilson score interval of a score fraction over `n` games (it stays
/// sensible at 0% and 100%, where the normal approximation collapses).
fn wilson(p: f64, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (z, n) = (1.96f64, n as f64);
    let centre = p + z * z / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let d = 1.0 + z * z / n;
    (((centre - half) / d).max(0.0), ((centre + half) / d).min(1.0))
}

fn report(args: &ArenaArgs, specs: &[PlayerSpec], results: &[GameResult]) -> String {
    let n = specs.len();
    let games = results.len();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {} — {} games, openings {}, {:.1} plies a game",
        args.game,
        args.variant.as_deref().unwrap_or("(default)"),
        games,
        args.openings,
        results.iter().map(|r| r.plies).sum::<usize>() as f64 / games.max(1) as f64
    );
    for (p, spec) in specs.iter().enumerate() {
        // Score against the field: 1 for each opponent ranked below, ½ for
        // each tie, over the n − 1 opponents.
        let scores: Vec<f64> = results
            .iter()
            .map(|r| {
                let mine = r.ranks[p];
                let s: f64 = (0..n)
                    .filter(|&q| q != p)
                    .map(|q| match mine.cmp(&r.ranks[q]) {
                        std::cmp::Ordering::Less => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Greater => 0.0,
                    })
                    .sum();
                s / (n - 1) as f64
            })
            .collect();
        let mean = scores.iter().sum::<f64>() / games.max(1) as f64;
        let (lo, hi) = wilson(mean, games);
        let (lo, hi) = (elo(lo), elo(hi));
        let label = format!("#{} {spec}", p + 1);
        if n == 2 {
            let wins = results.iter().filter(|r| r.ranks[p] == 0 && !r.draw).count();
            let draws = results.iter().filter(|r| r.draw).count();
            let losses = games - wins - draws;
            let _ = writeln!(
                out,
                "{label:<36} +{wins} ={draws} -{losses}  score {:.1}%  Elo {:+.0} [{:+.0}, {:+.0}] (95%)",
                mean * 100.0,
                elo(mean),
                lo,
                hi
            );
        } else {
            let mut by_rank = vec![0usize; n];
            for r in results {
                let place = r.ranks[p] as usize;
                by_rank[place] += 1;
            }
            let firsts = by_rank[0];
            let ranks: Vec<String> = by_rank.iter().enumerate().map(|(i, c)| format!("{}:{c}", i + 1)).collect();
            let _ = writeln!(
                out,
                "{label:<36} wins (shared or not) {firsts}/{games} = {:.1}%  ranks {}  score vs field {:.1}%  Elo {:+.0} [{:+.0}, {:+.0}]",
                100.0 * firsts as f64 / games.max(1) as f64,
                ranks.join(" "),
                mean * 100.0,
                elo(mean),
                lo,
                hi
            );
        }
        let (right, made) = results.iter().fold((0, 0), |(r, m), g| (r + g.guesses[p].0, m + g.guesses[p].1));
        if made > 0 {
            let _ = writeln!(
                out,
                "{:<36} top guesses of the others' secrets before the end: {right}/{made} right ({:.1}%)",
                "",
                100.0 * right as f64 / made as f64
            );
        }
    }
    out
}
