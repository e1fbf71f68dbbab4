//! `plateau bestmove` and `plateau arena`: the computer players from the
//! command line.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use std::time::Duration;

use plateau_ai::{AnyPlayer, PlayerSpec, Players};
use plateau_core::rand::{RngExt, SeedableRng};
use plateau_core::{AnyMatch, Options, Outcome, Reader, Registry, Setup, Turn};
use plateau_engine::{Engine, EngineError, Limits};
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
    /// A built-in player (ai:5, alphabeta:time=100ms, mcts …) or an external
    /// program speaking the engine protocol: "engine:COMMAND ARGS".
    #[arg(long = "player", value_name = "SPEC", required = true)]
    players: Vec<String>,
    /// Time per move given to external engines (`go movetime`).
    #[arg(long, default_value = "1s", value_parser = crate::protocol::duration)]
    movetime: Duration,
    /// How late an engine's bestmove may come after its move time before it
    /// forfeits the game.
    #[arg(long, default_value = "1s", value_parser = crate::protocol::duration)]
    grace: Duration,
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

/// A player of the arena: built in, or an external engine.
#[derive(Clone, Debug)]
enum Entrant {
    Builtin(PlayerSpec),
    Engine(String),
}

impl std::fmt::Display for Entrant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Entrant::Builtin(s) => write!(f, "{s}"),
            Entrant::Engine(c) => write!(f, "engine:{c}"),
        }
    }
}

impl Entrant {
    fn parse(text: &str) -> Result<Entrant> {
        match text.trim().strip_prefix("engine:") {
            Some(cmd) if cmd.trim().is_empty() => bail!("engine: needs the engine's command: engine:\"python3 my.py\""),
            Some(cmd) => Ok(Entrant::Engine(cmd.trim().to_string())),
            None => Ok(Entrant::Builtin(PlayerSpec::parse(text)?)),
        }
    }
}

/// A seat's player during one game.
enum Seated {
    Builtin(Box<dyn AnyPlayer>),
    Engine(Box<Engine>),
}

/// What external engines did in one game, per player.
#[derive(Clone, Copy, Default)]
struct EngineStats {
    moves: usize,
    elapsed: Duration,
    /// Elapsed minus the search time the engine reported, over the moves that reported one.
    overhead: Duration,
    reported: usize,
}

struct GameResult {
    /// Rank of each player (index into the player list), 0 best; ties equal.
    ranks: Vec<u8>,
    /// Players that forfeited.
    forfeits: Vec<usize>,
    /// Per player: what its engine did (zero for built-in players).
    engines: Vec<EngineStats>,
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
    let specs: Vec<Entrant> = args.players.iter().map(|p| Entrant::parse(p)).collect::<Result<_, _>>()?;
    for s in &specs {
        match s {
            Entrant::Builtin(spec) => {
                factory.create(spec).map_err(|e| anyhow!("{s}: {e}"))?;
            }
            Entrant::Engine(cmd) => {
                let e = Engine::start(cmd).map_err(|e| anyhow!("{s}: {e}"))?;
                if !e.plays(entry.info().name) {
                    bail!("{s} does not claim {} (it plays: {})", entry.info().name, e.games.join(" "));
                }
                e.quit(Duration::from_secs(2));
            }
        }
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
    specs: &[Entrant],
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
    let mut forfeits = Vec::new();
    let mut engines = vec![EngineStats::default(); seats];
    let mut players = Vec::with_capacity(seats);
    for s in 0..seats {
        let p = player_at(s);
        m.set_meta(&m.seat_name(s), &specs[p].to_string());
        players.push(match &specs[p] {
            Entrant::Builtin(spec) => Some(Seated::Builtin(factory.create(spec)?)),
            Entrant::Engine(cmd) => {
                // The engine is told only what its seat may know.
                match Engine::start(cmd).and_then(|mut e| e.new_game(&*m, Reader::Seat(s)).map(|_| e)) {
                    Ok(e) => Some(Seated::Engine(Box::new(e))),
                    Err(e) => {
                        forfeit(&mut *m, s, &specs[p], &e, &[], group, rotation);
                        forfeits.push(p);
                        None
                    }
                }
            }
        });
    }
    while let Turn::Seat(s) = m.to_move() {
        let p = player_at(s);
        let mv = match players[s].as_mut() {
            Some(Seated::Builtin(player)) => player.choose(&*m).map_err(|e| anyhow!("{}: {e}", specs[p]))?.mv,
            Some(Seated::Engine(e)) => match e.go(&*m, Limits::movetime(args.movetime), args.grace) {
                Ok(played) => {
                    let st = &mut engines[p];
                    st.moves += 1;
                    st.elapsed += played.elapsed;
                    if let Some(t) = played.reported_time() {
                        st.overhead += played.elapsed.saturating_sub(t);
                        st.reported += 1;
                    }
                    played.mv
                }
                Err(err) => {
                    let tail = e.stderr_tail();
                    forfeit(&mut *m, s, &specs[p], &err, &tail, group, rotation);
                    forfeits.push(p);
                    break;
                }
            },
            None => break, // forfeited before the first move
        };
        m.play(&mv).map_err(|e| anyhow!("{} chose the illegal move {mv}: {e}", specs[p]))?;
    }
    for p in players.into_iter().flatten() {
        if let Seated::Engine(e) = p {
            e.quit(Duration::from_secs(1));
        }
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
    Ok((GameResult { ranks, forfeits, engines, guesses, draw: o.is_draw(), plies: m.ply() }, m))
}

/// A seat's engine failed: the game ends, that seat losing (the others
/// share the win), and the failure is told with the engine's last words.
fn forfeit(
    m: &mut dyn AnyMatch,
    seat: usize,
    who: &Entrant,
    err: &EngineError,
    stderr: &[String],
    group: usize,
    rotation: usize,
) {
    let others: Vec<usize> = (0..m.seats()).filter(|&t| t != seat).collect();
    m.adjudicate(Outcome::shared_win(m.seats(), &others, "forfeit"));
    let mut text = format!(
        "forfeit: {who} ({}) in game {} of group {}, ply {}: {} ({err})",
        m.seat_name(seat),
        rotation + 1,
        group + 1,
        m.ply(),
        err.kind()
    );
    if stderr.is_empty() {
        text.push_str("; it wrote nothing on its standard error");
    } else {
        text.push_str("; the end of its standard error:");
        for line in stderr {
            text.push_str("\n    ");
            text.push_str(line);
        }
    }
    eprintln!("{text}");
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

fn report(args: &ArenaArgs, specs: &[Entrant], results: &[GameResult]) -> String {
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
        let forfeits = results.iter().filter(|r| r.forfeits.contains(&p)).count();
        let st = results.iter().fold(EngineStats::default(), |a, r| {
            let e = r.engines[p];
            EngineStats {
                moves: a.moves + e.moves,
                elapsed: a.elapsed + e.elapsed,
                overhead: a.overhead + e.overhead,
                reported: a.reported + e.reported,
            }
        });
        if let Entrant::Engine(_) = spec {
            let per = |d: Duration, n: usize| d.as_secs_f64() * 1000.0 / n.max(1) as f64;
            let _ = writeln!(
                out,
                "{:<36} engine: {} moves, {:.1} ms a move, protocol overhead {:.2} ms a move (time to bestmove minus the search time it reported, over {} moves); forfeits {forfeits}",
                "",
                st.moves,
                per(st.elapsed, st.moves),
                per(st.overhead, st.reported),
                st.reported
            );
        } else if forfeits > 0 {
            let _ = writeln!(out, "{:<36} forfeits {forfeits}", "");
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
