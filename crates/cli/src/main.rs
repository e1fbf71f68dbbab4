//! `plateau`: play, analyse and serve the games of Plateau.
//!
//! Every command works for every registered game through the type-erased layer
//! of `plateau-core`; nothing here knows a game by name.

mod analyse;
mod bot;
mod engine;
mod options;
mod play;
mod protocol;
mod puzzles;
mod serve;
mod tune;

use std::io::{IsTerminal, Read};
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Parser, Subcommand};
use plateau_core::{AnyMatch, Options, Reader, Record, Registry, Setup, Turn};

/// mimalloc rather than the system's allocator: the server's frames and the
/// computer players' searches allocate many small strings and vectors, and
/// glibc's `malloc` and `free` were about a tenth of the server's processor
/// time per move (docs/server.md, "Cost per move").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "plateau", version, about = "Play and study Abalone, Colorito, Kabaleo and Abraxas.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the games, their variants and their options.
    Games,
    /// Count the leaf positions after DEPTH moves (the count alone on the last line).
    Perft {
        #[command(flatten)]
        game: GameArgs,
        /// Plies to look ahead.
        depth: u32,
        /// List each root move with its count first.
        #[arg(long)]
        divide: bool,
    },
    /// List the legal moves, one per line, in the game's notation.
    Moves {
        #[command(flatten)]
        game: GameArgs,
    },
    /// Read a record, check every move, print the final position and the result.
    Replay {
        /// The record file, or - for standard input.
        file: String,
        /// The game, for a bare move list without tags.
        #[arg(long)]
        game: Option<String>,
        /// The variant, for a bare move list without tags.
        #[arg(long)]
        variant: Option<String>,
        /// Options (name=value), for a bare move list without tags; NAME=@FILE reads a board or sheet file.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Print one JSON object instead.
        #[arg(long)]
        json: bool,
    },
    /// Play a game in the terminal (moves in the game's notation: see below).
    Play(play::PlayArgs),
    /// Run the game server (HTTP JSON API, one WebSocket per game, SQLite).
    Serve(serve::ServeArgs),
    /// Load a running server with many games between random movers and measure it.
    Loadtest(serve::LoadtestArgs),
    /// Search a position and print the chosen move alone on the last line.
    Bestmove(engine::BestmoveArgs),
    /// Play many games between computer players and measure their strength.
    Arena(engine::ArenaArgs),
    /// Speak the engine protocol on standard input and output with one of Plateau's players.
    Engine(protocol::EngineArgs),
    /// Check that a program speaks the engine protocol correctly, and report.
    EngineCheck(protocol::CheckArgs),
    /// Connect an engine to a server as a bot account: accept challenges, play them, log them.
    Bot(bot::BotArgs),
    /// Analyse a finished game: every position searched, the moves that lost the most marked.
    Analyse(analyse::AnalyseArgs),
    /// Make puzzles from computer self-play (Abalone, Abraxas), each verified by search to have one winning move.
    Puzzles(puzzles::PuzzlesArgs),
    /// Fit a game's evaluation weights to the results of self-play games (Texel tuning) and write them as data.
    Tune(tune::TuneArgs),
}

impl Command {
    /// Whether it writes to other programs' input (engines, a server).
    fn talks_to_programs(&self) -> bool {
        matches!(self, Command::Arena(_) | Command::EngineCheck(_) | Command::Bot(_))
    }
}

/// Who may read all of `m`: the referee, unless it was made from one
/// reader's deal (a seat's record of a hidden game in progress): then that
/// reader, so that secrets the record does not hold are never shown as if
/// known.
fn known_to(m: &dyn AnyMatch) -> Reader {
    m.dealt_for().unwrap_or(Reader::Referee)
}

/// Which game, which variant and options, and optionally a record to start from.
#[derive(Args, Clone)]
pub struct GameArgs {
    /// The game (see `plateau games`).
    pub game: String,
    /// The variant.
    #[arg(long)]
    pub variant: Option<String>,
    /// An option, as name=value (repeatable); NAME=@FILE reads a board or sheet file for a content option.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// The seed of the set-up (games with a random set-up).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Start from the position after this record (a full record or a bare numbered move list; - for stdin).
    #[arg(long)]
    pub record: Option<String>,
}

fn main() -> ExitCode {
    // Like every Unix tool, end quietly when the reader of our output goes
    // away (`plateau moves … | head`), instead of failing on a broken pipe.
    let cli = parse_cli();
    // Commands whose output goes to a pipe (`plateau perft … | head`) end
    // quietly when it closes, as Unix tools do. Commands that talk to other
    // programs through pipes keep SIGPIPE ignored: an engine that dies is
    // then an error to handle (a forfeit), not the end of the arena.
    #[cfg(unix)]
    if !cli.command.talks_to_programs() {
        // SAFETY: restoring the default action of a signal, before any thread starts.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// The command line, with every game's move notation in `plateau play
/// --help`.
fn parse_cli() -> Cli {
    use clap::{CommandFactory, FromArgMatches};
    let mut notations = String::from("Move notation:\n");
    for g in plateau_games::registry().games() {
        notations.push_str(&format!("  {}: {}\n", g.info().title, g.info().notation));
    }
    let cmd = Cli::command().mut_subcommand("play", |c| c.after_help(notations));
    Cli::from_arg_matches(&cmd.get_matches()).unwrap_or_else(|e| e.exit())
}

fn run(cli: Cli) -> Result<()> {
    let registry = plateau_games::registry();
    match cli.command {
        Command::Games => games(&registry),
        Command::Perft { game, depth, divide } => {
            let m = game.open(&registry)?;
            if divide {
                let rows = m.divide(depth);
                let total: u64 = rows.iter().map(|(_, n)| n).sum();
                for (mv, n) in rows {
                    println!("{mv} {n}");
                }
                println!("{total}");
            } else {
                println!("{}", m.perft(depth));
            }
            Ok(())
        }
        Command::Moves { game } => {
            let m = game.open(&registry)?;
            for mv in m.legal_moves() {
                println!("{mv}");
            }
            Ok(())
        }
        Command::Replay { file, game, variant, options, json } => {
            let text = read_input(&file)?;
            let mut record = Record::parse(&text).with_context(|| format!("reading {file}"))?;
            let name = game.clone().or_else(|| record.tag("Game").map(str::to_string));
            for (k, v) in options::parse(&registry, name.as_deref(), &options)?.iter() {
                record.tags.push(("Option".into(), format!("{k}={v}")));
            }
            let replayed =
                registry.replay(&record, game.as_deref(), variant.as_deref()).map_err(|e| anyhow!("{file}: {e}"));
            let m = options::hinted(replayed, &registry, name.as_deref(), &record_options(&record))?;
            if json {
                println!("{}", serde_json::to_string_pretty(&summary(&*m))?);
            } else {
                print!("{}", m.render(known_to(&*m), color()));
                println!("{}", result_line(&*m));
            }
            Ok(())
        }
        Command::Play(args) => play::play(&registry, args),
        Command::Serve(args) => serve::serve(args),
        Command::Loadtest(args) => serve::loadtest(args),
        Command::Bestmove(args) => engine::bestmove(&registry, args),
        Command::Arena(args) => engine::arena(&registry, args),
        Command::Engine(args) => protocol::engine(&registry, args),
        Command::EngineCheck(args) => protocol::engine_check(&registry, args),
        Command::Bot(args) => bot::bot(args),
        Command::Analyse(args) => analyse::analyse(&registry, args),
        Command::Puzzles(args) => puzzles::puzzles(args),
        Command::Tune(args) => tune::tune(&registry, args),
    }
}

impl GameArgs {
    /// The match these arguments describe.
    pub fn open(&self, registry: &Registry) -> Result<Box<dyn AnyMatch>> {
        let options = options::parse(registry, Some(&self.game), &self.options)?;
        match &self.record {
            None => {
                let setup = Setup { variant: self.variant.clone(), options, seed: self.seed.unwrap_or(0) };
                options::hinted(registry.new_match(&self.game, &setup), registry, Some(&self.game), &setup.options)
            }
            Some(file) => {
                let text = read_input(file)?;
                let mut record = Record::parse(&text).with_context(|| format!("reading {file}"))?;
                if let Some(g) = record.tag("Game")
                    && !g.eq_ignore_ascii_case(&self.game)
                {
                    bail!("{file} is a record of {g}, not of {}", self.game);
                }
                for (k, v) in options.iter() {
                    record.tags.push(("Option".into(), format!("{k}={v}")));
                }
                if let Some(seed) = self.seed {
                    record.set_tag("Seed", seed.to_string());
                }
                let replayed = registry
                    .replay(&record, Some(&self.game), self.variant.as_deref())
                    .map_err(|e| anyhow!("{file}: {e}"));
                options::hinted(replayed, registry, Some(&self.game), &record_options(&record))
            }
        }
    }
}

/// The options a record's `Option` tags set (the later tag wins), for hints.
fn record_options(record: &Record) -> Options {
    let mut options = Options::new();
    for (k, v) in record.tags_named("Option").filter_map(|p| Options::parse_pair(p).ok()) {
        options.set(k, v);
    }
    options
}

/// Read a file, or standard input for `-`.
pub fn read_input(file: &str) -> Result<String> {
    if file == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).context("reading standard input")?;
        Ok(s)
    } else {
        std::fs::read_to_string(file).with_context(|| format!("reading {file}"))
    }
}

/// Whether to colour the output.
pub fn color() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// One line about the result, or whose turn it is.
pub fn result_line(m: &dyn AnyMatch) -> String {
    match (m.outcome(), m.to_move()) {
        (Some(o), _) => {
            let winners = o.winners();
            let who = if o.is_draw() {
                "draw".to_string()
            } else {
                let names: Vec<String> = winners.iter().map(|&s| m.seat_name(s)).collect();
                format!("{} win{}", names.join(" and "), if names.len() == 1 { "s" } else { "" })
            };
            format!("{} — {who} ({}) after {} plies", o.result_string(), o.reason, m.ply())
        }
        (None, Turn::Seat(s)) => format!("* — {} to move after {} plies", m.seat_name(s), m.ply()),
        (None, Turn::Over) => "*".to_string(),
    }
}

fn summary(m: &dyn AnyMatch) -> serde_json::Value {
    use serde_json::{Value, json};
    let outcome = m.outcome();
    let mut obj = json!({
        "game": m.info().name,
        "variant": m.variant(),
        "options": m.setup().options,
        "seed": m.setup().seed,
        "plies": m.ply(),
        "result": outcome.map(|o| o.result_string()).unwrap_or_else(|| "*".into()),
        "termination": outcome.map(|o| o.reason),
        "to_move": m.to_move().seat().map(|s| m.seat_name(s)),
        "winners": outcome.map(|o| o.winners().into_iter().map(|s| m.seat_name(s)).collect::<Vec<_>>()),
        "returns": outcome.map(|o| o.returns().to_vec()),
        "seats": (0..m.seats()).map(|s| m.seat_name(s)).collect::<Vec<_>>(),
        "history": m.history(),
    });
    if let (Value::Object(out), Value::Object(view)) = (&mut obj, m.view(known_to(m))) {
        for (k, v) in view {
            out.entry(k).or_insert(v);
        }
    }
    obj
}

fn games(registry: &Registry) -> Result<()> {
    for g in registry.games() {
        let info = g.info();
        let seats = if info.min_seats == info.max_seats {
            format!("{} players", info.min_seats)
        } else {
            format!("{}–{} players", info.min_seats, info.max_seats)
        };
        println!("{} — {} ({seats})", info.name, info.title);
        println!("  {}", info.summary);
        println!("  moves: {}", info.notation);
        println!("  variants:");
        for (i, v) in info.variants.iter().enumerate() {
            println!("    {}{} — {}", v.name, if i == 0 { " (default)" } else { "" }, v.help);
        }
        if !info.options.is_empty() {
            println!("  options:");
            for o in info.options {
                let default = if o.default.is_empty() { String::new() } else { format!(" (default {})", o.default) };
                println!("    {}={}{default}", o.name, o.values_help());
                println!("        {}", o.help);
            }
        }
        if let Ok(players) = plateau_games::players(info.name) {
            println!("  computer players (--seat N=ai:LEVEL, or any player spec):");
            for l in players.levels() {
                println!("    ai:{} = {} — {}", l.level, l.spec, l.label);
            }
        }
        println!();
    }
    Ok(())
}
