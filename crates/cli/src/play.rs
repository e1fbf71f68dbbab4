//! `plateau play`: a game in the terminal between humans at one screen and
//! computer players.

use std::io::{BufRead, Write};

use anyhow::{Result, bail};
use clap::Args;
use plateau_ai::{AnyPlayer, Kind, Level, PlayerSpec};
use plateau_core::{AnyMatch, Reader, Registry, Turn};

use crate::{GameArgs, color, result_line};

/// Arguments of `plateau play`.
#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Who sits at a seat, as N=SPEC with N from 1: `human`, or a computer
    /// player (`ai:1` … `ai:6`, `random`, `greedy`, `alphabeta:time=1s`,
    /// `mcts:iterations=20000`, `ismcts:time=1s`); repeatable. Seat 1
    /// defaults to human, the others to `ai:3`.
    #[arg(long = "seat", value_name = "N=KIND")]
    seats: Vec<String>,
    /// Write the record of the game to this file at the end.
    #[arg(long)]
    save: Option<String>,
}

enum Seat {
    Human,
    /// A computer player, and how to name it to the user.
    Computer(Box<dyn AnyPlayer>, String),
}

fn parse_seats(specs: &[String], game: &str, n: usize, seed: u64) -> Result<Vec<Seat>> {
    let mut chosen: Vec<Option<PlayerSpec>> = vec![None; n];
    for spec in specs {
        let Some((num, kind)) = spec.split_once('=') else {
            bail!("--seat takes N=SPEC, like 2=ai:4 or 1=human, not {spec:?}");
        };
        let i: usize = match num.trim().parse() {
            Ok(i) if (1..=n).contains(&i) => i,
            _ => bail!("--seat {spec}: the seats are 1 to {n}"),
        };
        chosen[i - 1] = Some(PlayerSpec::parse(kind)?);
    }
    chosen
        .into_iter()
        .enumerate()
        .map(|(i, spec)| {
            let mut spec = match spec {
                Some(s) => s,
                None if i == 0 => return Ok(Seat::Human),
                None => PlayerSpec::parse("ai:3")?,
            };
            if spec.kind == Kind::Human {
                return Ok(Seat::Human);
            }
            let players = plateau_games::players(game)?;
            let label = describe(&spec, players.levels());
            spec.seed = spec.seed.or(Some(seed ^ (i as u64 + 1)));
            Ok(Seat::Computer(players.create(&spec)?, label))
        })
        .collect()
}

/// A computer player as the user chose it, with what a level stands for:
/// `ai:4 (alphabeta:time=200ms)`, `mcts:iterations=500`.
fn describe(spec: &PlayerSpec, levels: &[Level]) -> String {
    match spec.kind {
        Kind::Level(n) => match levels.iter().find(|l| l.level == n) {
            Some(l) => format!("{spec} ({})", l.spec),
            None => spec.to_string(),
        },
        _ => spec.to_string(),
    }
}

const HELP: &str = "Type a move in the game's notation, or: moves (list the legal moves), undo (take back your last move), resign, help, quit.";

/// Play a game in the terminal.
pub fn play(registry: &Registry, args: PlayArgs) -> Result<()> {
    // A new game draws its set-up from a fresh seed unless one is given.
    let mut game = args.game.clone();
    if game.seed.is_none() && game.record.is_none() {
        game.seed = Some(plateau_core::rng::fresh_seed());
    }
    let mut m = game.open(registry)?;
    let seed = game.seed.unwrap_or_else(plateau_core::rng::fresh_seed);
    let mut seats = parse_seats(&args.seats, m.info().name, m.seats(), seed)?;
    if m.meta().iter().all(|(k, _)| k != "Date") {
        m.set_meta("Date", &plateau_core::record::today());
    }
    for (i, s) in seats.iter().enumerate() {
        let name = m.seat_name(i);
        if m.meta().iter().all(|(k, _)| *k != name) {
            let who = match s {
                Seat::Human => "human".to_string(),
                Seat::Computer(p, _) => p.spec().to_string(),
            };
            m.set_meta(&name, &who);
        }
    }
    let humans = seats.iter().filter(|s| matches!(s, Seat::Human)).count();
    let hidden = m.info().hidden;
    let color = color();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout();
    println!("{} — {} ({} seats). {HELP}", m.info().title, m.variant(), m.seats());
    println!("Moves: {}", m.info().notation);
    for (i, s) in seats.iter().enumerate() {
        let who = match s {
            Seat::Human => "human",
            Seat::Computer(_, label) => label.as_str(),
        };
        println!("  seat {}: {} — {who}", i + 1, m.seat_name(i));
    }
    let mut last_human: Option<usize> = None;
    loop {
        let seat = match m.to_move() {
            Turn::Over => break,
            Turn::Seat(s) => s,
        };
        match &mut seats[seat] {
            Seat::Computer(player, _) => {
                let choice = player.choose(&*m)?;
                m.play(&choice.mv)?;
                println!("{} plays {}", m.seat_name(seat), choice.mv);
            }
            Seat::Human => {
                // With hidden information and several humans at one screen,
                // each sees only their own seat's view: pass the screen.
                let reader = if hidden { Reader::Seat(seat) } else { Reader::Referee };
                if hidden && humans > 1 && last_human != Some(seat) {
                    print!("\x1b[2J\x1b[H");
                    print!("Pass the screen to {} (seat {}), then press Enter. ", m.seat_name(seat), seat + 1);
                    out.flush()?;
                    if lines.next().is_none() {
                        return Ok(());
                    }
                    print!("\x1b[2J\x1b[H");
                }
                last_human = Some(seat);
                println!();
                print!("{}", m.render(reader, color));
                loop {
                    print!("{} ({})> ", m.seat_name(seat), m.ply() + 1);
                    out.flush()?;
                    let Some(line) = lines.next() else {
                        println!("\nGame left unfinished.");
                        return save(&*m, args.save.as_deref());
                    };
                    let line = line?;
                    let cmd = line.trim();
                    match cmd {
                        "" => continue,
                        "help" | "?" => println!("{HELP}\nMoves: {}", m.info().notation),
                        "quit" | "exit" => {
                            println!("Game left unfinished.");
                            return save(&*m, args.save.as_deref());
                        }
                        "moves" => println!("{}", m.legal_moves().join(" ")),
                        "resign" => {
                            let others: Vec<usize> = (0..m.seats()).filter(|&s| s != seat).collect();
                            m.adjudicate(plateau_core::Outcome::shared_win(m.seats(), &others, "resignation"));
                            break;
                        }
                        "undo" => {
                            if undo_to_human(&mut *m, &seats, seat) {
                                print!("{}", m.render(reader, color));
                            } else {
                                println!("There is no move of yours to take back.");
                            }
                        }
                        text => match m.play(text) {
                            Ok(canon) => {
                                println!("{} plays {canon}", m.seat_name(seat));
                                break;
                            }
                            Err(e) => println!("{text}: {e}"),
                        },
                    }
                }
            }
        }
    }
    println!();
    print!("{}", m.render(Reader::Referee, color));
    println!("{}", result_line(&*m));
    save(&*m, args.save.as_deref())
}

/// Take back moves until it is `seat`'s turn again (its last move undone).
fn undo_to_human(m: &mut dyn AnyMatch, seats: &[Seat], seat: usize) -> bool {
    let movers = m.movers();
    let Some(last) = movers.iter().rposition(|&s| s == seat) else {
        return false;
    };
    // Only computer moves may be taken back along with it.
    if movers[last + 1..].iter().any(|&s| s != seat && matches!(seats[s], Seat::Human)) {
        return false;
    }
    while m.ply() > last {
        m.undo();
    }
    true
}

fn save(m: &dyn AnyMatch, path: Option<&str>) -> Result<()> {
    if let Some(path) = path {
        std::fs::write(path, m.record(Reader::Referee).to_text())?;
        println!("Record written to {path}.");
    }
    Ok(())
}
