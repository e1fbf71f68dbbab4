//! The engine side: Plateau's own players behind the protocol (`plateau
//! engine`). Commands are read one line at a time; a search runs on a
//! thread of its own, so that `stop`, `isready` and `quit` are answered
//! while it thinks; any other command waits for the search to end.

use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use plateau_ai::{AnyPlayer, Budget, Kind, PlayerSpec, Players, StopFlag};
use plateau_core::record::MAX_RECORD_BYTES;
use plateau_core::{AnyMatch, Options, Reader, Record, Registry, Setup, Turn};

use crate::protocol::{Command, Info, Limits, MAX_LINE, MAX_MOVETIME, Reply, VERSION};

/// Who the engine says it is in the handshake.
pub struct Identity {
    /// `id name`.
    pub name: String,
    /// `id author`.
    pub author: String,
}

/// The players behind the protocol: one for every game, and others for
/// some games.
#[derive(Clone, Debug)]
pub struct Specs {
    /// The player of games not named below (a level resolves per game).
    pub default: PlayerSpec,
    /// A player for one game, by the game's name.
    pub games: Vec<(String, PlayerSpec)>,
}

impl Specs {
    /// One player for every game.
    pub fn one(spec: PlayerSpec) -> Specs {
        Specs { default: spec, games: Vec::new() }
    }

    /// The player of `game`.
    pub fn for_game(&self, game: &str) -> &PlayerSpec {
        self.games.iter().find(|(g, _)| g.eq_ignore_ascii_case(game)).map(|(_, s)| s).unwrap_or(&self.default)
    }

    /// The player of `game`, resolved and checked.
    fn make(&self, game: &'static str) -> Result<(Box<dyn Players>, PlayerSpec), String> {
        let players = plateau_games::players(game).map_err(|e| e.to_string())?;
        let asked = self.for_game(game);
        let spec = resolved(asked, &*players)?;
        players.create(&spec).map_err(|e| format!("the player {asked} cannot play {game}: {e}"))?;
        Ok((players, spec))
    }
}

/// The game being played: its rules, its position and its players.
struct Current {
    players: Box<dyn Players>,
    setup: Setup,
    /// The start: `None` while a game dealt at random waits for its `deal`.
    start: Option<Box<dyn AnyMatch>>,
    /// The position set by the last `position`.
    position: Option<Box<dyn AnyMatch>>,
    /// Players by budget, kept between moves (tables, trees).
    cache: HashMap<Budget, Box<dyn AnyPlayer>>,
}

/// One session of the protocol over Plateau's players.
struct Session<'r, W: Write> {
    registry: &'r Registry,
    specs: Specs,
    out: Arc<Mutex<W>>,
    stop: StopFlag,
    current: Option<Current>,
    /// The search under way: it hands back its player (by budget).
    searching: Option<std::thread::JoinHandle<(Budget, Box<dyn AnyPlayer>)>>,
}

fn say<W: Write>(out: &Mutex<W>, reply: &Reply) -> io::Result<()> {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    writeln!(w, "{reply}")?;
    w.flush()
}

/// The spec's budget with a level resolved to its spec for `players`' game.
fn resolved(spec: &PlayerSpec, players: &dyn Players) -> Result<PlayerSpec, String> {
    match spec.kind {
        Kind::Level(n) => {
            let mut s = PlayerSpec::parse(players.levels()[n as usize - 1].spec).map_err(|e| e.to_string())?;
            s.seed = spec.seed;
            Ok(s)
        }
        _ => Ok(spec.clone()),
    }
}

/// The budget a `go` asks for: its limits replace the spec's budget when
/// it gives any; `infinite` is the longest time allowed, ended by `stop`.
fn budget(spec: &PlayerSpec, limits: &Limits) -> Budget {
    if limits.movetime.is_none() && limits.depth.is_none() && limits.nodes.is_none() && !limits.infinite {
        return spec.budget;
    }
    Budget {
        time: if limits.infinite { Some(MAX_MOVETIME) } else { limits.movetime },
        depth: limits.depth,
        nodes: limits.nodes,
        iterations: limits.nodes,
    }
}

impl<W: Write + Send + 'static> Session<'_, W> {
    fn reply(&self, r: Reply) -> io::Result<()> {
        say(&self.out, &r)
    }

    fn error(&self, message: impl Into<String>) -> io::Result<()> {
        self.reply(Reply::Error(message.into()))
    }

    fn new_game(
        &mut self,
        game: &str,
        variant: Option<String>,
        seed: Option<u64>,
        options: &[(String, String)],
    ) -> Result<(), String> {
        let entry = self.registry.get(game).map_err(|e| e.to_string())?;
        let (players, _) = self.specs.make(entry.info().name)?;
        let mut opts = Options::new();
        for (k, v) in options {
            opts.set(k, v);
        }
        let setup = Setup { variant, options: opts, seed: seed.unwrap_or(0) };
        let start = entry.new_match(&setup).map_err(|e| e.to_string())?;
        let info = entry.info();
        // A start drawn at random with secrets comes from `deal`, never from a seed.
        let dealt = info.uses_seed && info.hidden;
        if dealt && seed.is_some() {
            return Err(format!("{}'s start is dealt at random with secrets: send deal, not a seed", info.name));
        }
        self.current = Some(Current {
            players,
            setup,
            position: (!dealt).then(|| start.clone_box()),
            start: (!dealt).then_some(start),
            cache: HashMap::new(),
        });
        Ok(())
    }

    fn deal(&mut self, text: &str) -> Result<(), String> {
        let c = self.current.as_mut().ok_or("no game: send newgame first")?;
        let entry = self.registry.get(c.players.game()).map_err(|e| e.to_string())?;
        let start = entry.new_match_dealt(&c.setup, text).map_err(|e| e.to_string())?;
        c.position = Some(start.clone_box());
        c.start = Some(start);
        Ok(())
    }

    fn position_moves(&mut self, moves: &[String]) -> Result<(), String> {
        let c = self.current.as_mut().ok_or("no game: send newgame first")?;
        let start = c.start.as_ref().ok_or("this game's start is dealt at random: send deal first")?;
        let mut m = start.clone_box();
        for (i, mv) in moves.iter().enumerate() {
            m.play(mv).map_err(|e| format!("move {} {mv:?}: {e}", i + 1))?;
        }
        c.position = Some(m);
        Ok(())
    }

    fn position_record(&mut self, text: &str) -> Result<(), String> {
        let record = Record::parse(text).map_err(|e| e.to_string())?;
        let current = self.current.as_ref().map(|c| c.players.game());
        if record.tag("Game").is_none() && current.is_none() {
            return Err("the record has no Game tag and no game was set: send newgame first".into());
        }
        let m = self.registry.replay(&record, if record.tag("Game").is_some() { None } else { current }, None);
        let m = m.map_err(|e| e.to_string())?;
        let (players, _) = self.specs.make(m.info().name)?;
        // Keep the players of the same game (their tables), else start afresh.
        let cache = match self.current.take() {
            Some(c) if c.players.game() == m.info().name => c.cache,
            _ => HashMap::new(),
        };
        let mut start = m.clone_box();
        while start.undo() {}
        self.current =
            Some(Current { players, setup: m.setup().clone(), start: Some(start), position: Some(m), cache });
        Ok(())
    }

    /// Start a search on a thread of its own, which writes its `info` and
    /// `bestmove` (or `error`) and hands the player back when done.
    fn go(&mut self, limits: Limits) -> Result<(), String> {
        let c = self.current.as_mut().ok_or("no game: send newgame first")?;
        let m = c.position.as_ref().ok_or("no position: send deal, then position")?;
        let seat = match m.to_move() {
            Turn::Over => return Err("the game is over: there is no move to find".into()),
            Turn::Seat(s) => s,
        };
        if let Some(reader) = m.dealt_for()
            && !reader.may_see(seat)
        {
            let whose = match reader {
                Reader::Seat(s) => format!("player {}'s", s + 1),
                _ => "a spectator's".to_string(),
            };
            return Err(format!("the deal is {whose} knowledge: it cannot choose for player {}", seat + 1));
        }
        let spec = resolved(self.specs.for_game(c.players.game()), &*c.players)?;
        let budget = budget(&spec, &limits);
        let mut player = match c.cache.remove(&budget) {
            Some(p) => p,
            None => {
                let mut s = spec.clone();
                s.budget = budget;
                let mut p = c.players.create(&s).map_err(|e| e.to_string())?;
                p.set_stop(self.stop.clone());
                p
            }
        };
        let m = m.clone_box();
        self.stop.store(false, Ordering::SeqCst);
        let out = self.out.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let reply = match player.choose(&*m) {
                    Ok(choice) => {
                        let i = &choice.info;
                        let info = Info {
                            depth: Some(i.depth),
                            score: i.score,
                            nodes: Some(i.nodes),
                            nps: Some(i.nps()),
                            time: Some(i.time),
                            pv: i.pv.clone(),
                            string: None,
                        };
                        let _ = say(&out, &Reply::Info(info));
                        Reply::BestMove(choice.mv)
                    }
                    Err(e) => Reply::Error(e.to_string()),
                };
                let _ = say(&out, &reply);
                (budget, player)
            })
            .map_err(|e| format!("cannot start a search: {e}"))?;
        self.searching = Some(handle);
        Ok(())
    }

    /// Wait for the search under way, if any, and keep its player.
    fn finish(&mut self) {
        if let Some(h) = self.searching.take() {
            match h.join() {
                Ok((budget, player)) => {
                    if let Some(c) = self.current.as_mut() {
                        c.cache.insert(budget, player);
                    }
                }
                Err(_) => {
                    // A player that panicked is dropped; say so, and go on.
                    let _ = self.error("the search failed; its player was dropped");
                }
            }
        }
    }

    /// Handle one command; `Ok(false)` ends the session.
    fn handle<R: BufRead>(&mut self, line: &str, input: &mut R, who: &Identity) -> io::Result<bool> {
        let cmd = match Command::parse(line) {
            Ok(c) => c,
            Err(e) => {
                if line.trim().is_empty() {
                    return Ok(true); // empty lines are ignored
                }
                self.error(e)?;
                return Ok(true);
            }
        };
        // While a search runs, only these are answered at once.
        match cmd {
            Command::Stop => {
                self.stop.store(true, Ordering::SeqCst);
                self.finish();
                return Ok(true);
            }
            Command::IsReady => {
                self.reply(Reply::ReadyOk)?;
                return Ok(true);
            }
            Command::Quit => {
                self.stop.store(true, Ordering::SeqCst);
                self.finish();
                return Ok(false);
            }
            _ => self.finish(),
        }
        let result = match cmd {
            Command::Plateau(v) => {
                if v != VERSION {
                    self.reply(Reply::Info(Info {
                        string: Some(format!("this engine speaks version {VERSION} of the protocol, not {v}")),
                        ..Info::default()
                    }))?;
                }
                self.reply(Reply::Id { key: "name".into(), value: who.name.clone() })?;
                self.reply(Reply::Id { key: "author".into(), value: who.author.clone() })?;
                // The games its players can play.
                let games: Vec<String> = self
                    .registry
                    .games()
                    .map(|g| g.info().name)
                    .filter(|g| self.specs.make(g).is_ok())
                    .map(str::to_string)
                    .collect();
                self.reply(Reply::Games(games))?;
                self.reply(Reply::PlateauOk)?;
                return Ok(true);
            }
            Command::NewGame { game, variant, seed, options } => self.new_game(&game, variant, seed, &options),
            Command::Deal(text) => self.deal(&text),
            Command::PositionMoves(moves) => self.position_moves(&moves),
            Command::PositionRecord => {
                let text = read_record(input)?;
                match text {
                    Ok(text) => self.position_record(&text),
                    Err(e) => Err(e),
                }
            }
            Command::Legal(_) => Ok(()), // Plateau knows the rules
            Command::Go(limits) => {
                if let Err(e) = self.go(limits) {
                    self.error(e)?;
                }
                return Ok(true);
            }
            Command::Stop | Command::IsReady | Command::Quit => unreachable!("answered above"),
        };
        match result {
            Ok(()) => self.reply(Reply::Ok)?,
            Err(e) => self.error(e)?,
        }
        Ok(true)
    }
}

/// Read one line of at most [`MAX_LINE`] bytes; `None` at the end of input.
/// A longer line is read to its end and answered as an error.
pub fn read_line<R: BufRead>(input: &mut R) -> io::Result<Option<Result<String, String>>> {
    let mut buf = Vec::new();
    let n = std::io::Read::take(&mut *input, MAX_LINE as u64 + 1).read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
        // Skip the rest of the line.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let k = std::io::Read::take(&mut *input, 1 << 16).read_until(b'\n', &mut rest)?;
            if k == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
        return Ok(Some(Err(format!("a line longer than {MAX_LINE} bytes"))));
    }
    match String::from_utf8(buf) {
        Ok(s) => Ok(Some(Ok(s.trim_end_matches(['\n', '\r']).to_string()))),
        Err(_) => Ok(Some(Err("a line that is not UTF-8".into()))),
    }
}

/// The lines of a record after `position record`, up to an empty line.
fn read_record<R: BufRead>(input: &mut R) -> io::Result<Result<String, String>> {
    let mut text = String::new();
    let mut bad = None;
    while let Some(line) = read_line(input)? {
        match line {
            Ok(l) if l.trim().is_empty() => break,
            Ok(l) => {
                if text.len() + l.len() > MAX_RECORD_BYTES {
                    bad = Some(format!("a record longer than {MAX_RECORD_BYTES} bytes"));
                } else {
                    text.push_str(&l);
                    text.push('\n');
                }
            }
            Err(e) => bad = Some(e),
        }
    }
    Ok(match bad {
        Some(e) => Err(e),
        None => Ok(text),
    })
}

/// Read commands from `input` and answer on `output` until `quit` or the
/// end of the input, playing each game with its player of `specs`.
pub fn serve<R: BufRead, W: Write + Send + 'static>(
    registry: &Registry,
    specs: &Specs,
    who: &Identity,
    mut input: R,
    output: W,
) -> io::Result<()> {
    let mut s = Session {
        registry,
        specs: specs.clone(),
        out: Arc::new(Mutex::new(output)),
        stop: Arc::new(AtomicBool::new(false)),
        current: None,
        searching: None,
    };
    while let Some(line) = read_line(&mut input)? {
        match line {
            Ok(line) => {
                if !s.handle(&line, &mut input, who)? {
                    return Ok(());
                }
            }
            Err(e) => s.error(e)?,
        }
    }
    // The end of the input: finish the search under way, then stop.
    s.finish();
    Ok(())
}
