//! The messages of the engine protocol, both ways, as values: parsing and
//! writing one line. The protocol itself is specified in
//! `docs/engine-protocol.md`.

use std::fmt;
use std::time::Duration;

use plateau_ai::Score;

/// The protocol's version, sent in the handshake (`plateau 1`).
pub const VERSION: u32 = 1;

/// The longest line either side accepts, in bytes (a `position moves` line
/// of a long game is a few kilobytes).
pub const MAX_LINE: usize = 1 << 20;

/// The longest search a `go` may ask for: Plateau's players' own cap.
pub const MAX_MOVETIME: Duration = plateau_ai::spec::MAX_TIME;

/// What a `go` limits the search to. With none, the engine chooses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// Depth (plies).
    pub depth: Option<u32>,
    /// Nodes (or iterations).
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
}

impl Limits {
    /// A time limit alone.
    pub fn movetime(t: Duration) -> Limits {
        Limits { movetime: Some(t), ..Limits::default() }
    }
}

/// A command, from the referee (a GUI, the arena, a bot bridge) to the engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `plateau VERSION`: the handshake.
    Plateau(u32),
    /// `newgame GAME [variant=NAME] [seed=N] [OPTION=VALUE …]`.
    NewGame {
        /// The game's name.
        game: String,
        /// The variant.
        variant: Option<String>,
        /// The set-up seed, for games drawn at random without secrets.
        seed: Option<u64>,
        /// Options, as given.
        options: Vec<(String, String)>,
    },
    /// `deal TEXT`: the start as the engine's seat knows it.
    Deal(String),
    /// `position moves M1 M2 …`: the moves from the start.
    PositionMoves(Vec<String>),
    /// `position record`: a record follows, ended by an empty line.
    PositionRecord,
    /// `legal M1 M2 …`: the legal moves of the position (for engines that
    /// asked for them with `feature legal`).
    Legal(Vec<String>),
    /// `go [movetime MS] [depth D] [nodes N] [infinite]`.
    Go(Limits),
    /// `stop`.
    Stop,
    /// `isready`.
    IsReady,
    /// `quit`.
    Quit,
}

fn number<T: std::str::FromStr>(what: &str, v: Option<&str>) -> Result<T, String> {
    let v = v.ok_or_else(|| format!("{what} needs a number"))?;
    v.parse().map_err(|_| format!("{what}: {v:?} is not a whole number"))
}

impl Command {
    /// Parse one line. Errors say what is wrong, in words for a person.
    pub fn parse(line: &str) -> Result<Command, String> {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let mut words = rest.split_whitespace();
        let none_after = |cmd: &str, rest: &str| -> Result<(), String> {
            if rest.is_empty() { Ok(()) } else { Err(format!("{cmd} takes nothing after it, not {rest:?}")) }
        };
        match word {
            "plateau" => Ok(Command::Plateau(number("plateau", words.next())?)),
            "newgame" => {
                let game = words.next().ok_or("newgame needs a game: newgame abalone")?.to_string();
                let (mut variant, mut seed, mut options) = (None, None, Vec::new());
                for w in words {
                    let (k, v) =
                        w.split_once('=').ok_or_else(|| format!("{w:?}: after the game, each word is NAME=VALUE"))?;
                    if k.is_empty() || v.is_empty() {
                        return Err(format!("{w:?}: a name and a value are needed"));
                    }
                    match k {
                        "variant" => variant = Some(v.to_string()),
                        "seed" => seed = Some(number("seed", Some(v))?),
                        _ => options.push((k.to_string(), v.to_string())),
                    }
                }
                Ok(Command::NewGame { game, variant, seed, options })
            }
            "deal" if !rest.is_empty() => Ok(Command::Deal(rest.to_string())),
            "deal" => Err("deal needs the deal's text".into()),
            "position" => match words.next() {
                Some("moves") => Ok(Command::PositionMoves(words.map(str::to_string).collect())),
                Some("record") => {
                    none_after("position record", words.collect::<Vec<_>>().join(" ").as_str())?;
                    Ok(Command::PositionRecord)
                }
                _ => Err("position takes moves M1 M2 … or record".into()),
            },
            "legal" => Ok(Command::Legal(words.map(str::to_string).collect())),
            "go" => {
                let mut l = Limits::default();
                while let Some(w) = words.next() {
                    match w {
                        "movetime" => {
                            let ms: u64 = number("movetime", words.next())?;
                            if ms == 0 {
                                return Err("movetime must be at least 1 ms".into());
                            }
                            l.movetime = Some(Duration::from_millis(ms).min(MAX_MOVETIME));
                        }
                        "depth" => {
                            let d: u32 = number("depth", words.next())?;
                            if !(1..=64).contains(&d) {
                                return Err("depth is 1 to 64".into());
                            }
                            l.depth = Some(d);
                        }
                        "nodes" => {
                            let n: u64 = number("nodes", words.next())?;
                            if n == 0 {
                                return Err("nodes must be at least 1".into());
                            }
                            l.nodes = Some(n);
                        }
                        "infinite" => l.infinite = true,
                        other => {
                            return Err(format!(
                                "go: unknown limit {other:?}; the limits are movetime, depth, nodes, infinite"
                            ));
                        }
                    }
                }
                Ok(Command::Go(l))
            }
            "stop" => none_after("stop", rest).map(|_| Command::Stop),
            "isready" => none_after("isready", rest).map(|_| Command::IsReady),
            "quit" => none_after("quit", rest).map(|_| Command::Quit),
            "" => Err("an empty line".into()),
            other => Err(format!(
                "unknown command {other:?}; the commands are plateau, newgame, deal, position, legal, go, stop, isready, quit"
            )),
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Plateau(v) => write!(f, "plateau {v}"),
            Command::NewGame { game, variant, seed, options } => {
                write!(f, "newgame {game}")?;
                if let Some(v) = variant {
                    write!(f, " variant={v}")?;
                }
                if let Some(s) = seed {
                    write!(f, " seed={s}")?;
                }
                for (k, v) in options {
                    write!(f, " {k}={v}")?;
                }
                Ok(())
            }
            Command::Deal(t) => write!(f, "deal {t}"),
            Command::PositionMoves(m) if m.is_empty() => f.write_str("position moves"),
            Command::PositionMoves(m) => write!(f, "position moves {}", m.join(" ")),
            Command::PositionRecord => f.write_str("position record"),
            Command::Legal(m) if m.is_empty() => f.write_str("legal"),
            Command::Legal(m) => write!(f, "legal {}", m.join(" ")),
            Command::Go(l) => {
                f.write_str("go")?;
                if let Some(t) = l.movetime {
                    write!(f, " movetime {}", t.as_millis().max(1))?;
                }
                if let Some(d) = l.depth {
                    write!(f, " depth {d}")?;
                }
                if let Some(n) = l.nodes {
                    write!(f, " nodes {n}")?;
                }
                if l.infinite {
                    f.write_str(" infinite")?;
                }
                Ok(())
            }
            Command::Stop => f.write_str("stop"),
            Command::IsReady => f.write_str("isready"),
            Command::Quit => f.write_str("quit"),
        }
    }
}

/// What a search reports on an `info` line. Every field is optional.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Info {
    /// Depth completed.
    pub depth: Option<u32>,
    /// How the search judges the position for the engine's seat.
    pub score: Option<Score>,
    /// Nodes (or iterations).
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Time spent so far.
    pub time: Option<Duration>,
    /// The principal variation.
    pub pv: Vec<String>,
    /// Free text (`info string …`), for people.
    pub string: Option<String>,
}

fn score_text(s: &Score) -> String {
    match s {
        Score::Eval(v) => format!("eval {v}"),
        Score::Win(n) => format!("win {n}"),
        Score::Loss(n) => format!("loss {n}"),
        Score::Value(v) => format!("value {v:.3}"),
        Score::Plan(n) => format!("plan {n}"),
    }
}

impl Info {
    /// Parse the words after `info`.
    pub fn parse(rest: &str) -> Result<Info, String> {
        let mut info = Info::default();
        let mut words = rest.split_whitespace();
        while let Some(w) = words.next() {
            match w {
                "depth" => info.depth = Some(number("depth", words.next())?),
                "seldepth" => {
                    let _: u32 = number("seldepth", words.next())?;
                }
                "nodes" => info.nodes = Some(number("nodes", words.next())?),
                "nps" => info.nps = Some(number("nps", words.next())?),
                "time" => info.time = Some(Duration::from_millis(number("time", words.next())?)),
                "score" => {
                    let kind = words.next().ok_or("score needs a kind: eval, win, loss, value or plan")?;
                    let v = words.next();
                    info.score = Some(match kind {
                        "eval" => Score::Eval(number("score eval", v)?),
                        "win" => Score::Win(number("score win", v)?),
                        "loss" => Score::Loss(number("score loss", v)?),
                        "plan" => Score::Plan(number("score plan", v)?),
                        "value" => {
                            let x: f32 = v
                                .and_then(|v| v.parse().ok())
                                .filter(|x: &f32| x.is_finite() && (-1.0..=1.0).contains(x))
                                .ok_or("score value is a number from -1 to 1")?;
                            Score::Value(x)
                        }
                        other => return Err(format!("score {other:?}: the kinds are eval, win, loss, value, plan")),
                    });
                }
                "pv" => {
                    info.pv = words.by_ref().map(str::to_string).collect();
                }
                "string" => {
                    info.string = Some(words.by_ref().collect::<Vec<_>>().join(" "));
                }
                other => return Err(format!("info: unknown field {other:?}")),
            }
        }
        Ok(info)
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
        }
        if let Some(s) = &self.score {
            write!(f, " score {}", score_text(s))?;
        }
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(n) = self.nps {
            write!(f, " nps {n}")?;
        }
        if let Some(t) = self.time {
            write!(f, " time {}", t.as_millis())?;
        }
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        if let Some(s) = &self.string {
            write!(f, " string {s}")?;
        }
        Ok(())
    }
}

/// A reply, from the engine to the referee.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// `id name …`, `id author …`.
    Id {
        /// `name` or `author`.
        key: String,
        /// The text.
        value: String,
    },
    /// `games G1 G2 …`: the games the engine plays.
    Games(Vec<String>),
    /// `feature NAME`: an optional part of the protocol the engine wants
    /// (`legal`: send `legal` before each `go`).
    Feature(String),
    /// `plateauok`: the end of the handshake.
    PlateauOk,
    /// `ok`.
    Ok,
    /// `error MESSAGE`.
    Error(String),
    /// `readyok`.
    ReadyOk,
    /// `info …`.
    Info(Info),
    /// `bestmove MOVE`.
    BestMove(String),
}

impl Reply {
    /// Parse one line.
    pub fn parse(line: &str) -> Result<Reply, String> {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match word {
            "id" => {
                let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                if key.is_empty() {
                    return Err("id needs a key: id name NAME".into());
                }
                Ok(Reply::Id { key: key.to_string(), value: value.trim().to_string() })
            }
            "games" => Ok(Reply::Games(rest.split_whitespace().map(str::to_string).collect())),
            "feature" if !rest.is_empty() => Ok(Reply::Feature(rest.to_string())),
            "plateauok" if rest.is_empty() => Ok(Reply::PlateauOk),
            "ok" if rest.is_empty() => Ok(Reply::Ok),
            "error" => Ok(Reply::Error(rest.to_string())),
            "readyok" if rest.is_empty() => Ok(Reply::ReadyOk),
            "info" => Info::parse(rest).map(Reply::Info),
            "bestmove" => match rest.split_whitespace().collect::<Vec<_>>()[..] {
                [mv] => Ok(Reply::BestMove(mv.to_string())),
                _ => Err(format!("bestmove takes one move, not {rest:?}")),
            },
            _ => Err(format!("not a reply of the protocol: {line:?}")),
        }
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id { key, value } => write!(f, "id {key} {value}"),
            Reply::Games(g) => write!(f, "games {}", g.join(" ")),
            Reply::Feature(x) => write!(f, "feature {x}"),
            Reply::PlateauOk => f.write_str("plateauok"),
            Reply::Ok => f.write_str("ok"),
            Reply::Error(m) => write!(f, "error {}", m.replace(['\n', '\r'], " ")),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Info(i) => write!(f, "{i}"),
            Reply::BestMove(m) => write!(f, "bestmove {m}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read_and_write_back() {
        for line in [
            "plateau 1",
            "newgame abalone",
            "newgame kabaleo variant=3-players golden-rule=true",
            "newgame colorito seed=7 max-moves=300",
            "deal bases ROYG ; stock R3 ; objectives R ? ; to-move 1",
            "position moves",
            "position moves a1b2 i5h5",
            "position record",
            "legal R1 O2",
            "go",
            "go movetime 250",
            "go depth 4 nodes 1000",
            "go infinite",
            "stop",
            "isready",
            "quit",
        ] {
            let c = Command::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(c.to_string(), line);
        }
        assert_eq!(
            Command::parse("go movetime 100 depth 3").unwrap(),
            Command::Go(Limits { movetime: Some(Duration::from_millis(100)), depth: Some(3), ..Limits::default() })
        );
        assert_eq!(
            Command::parse("go movetime 999999999").unwrap(),
            Command::Go(Limits::movetime(MAX_MOVETIME)),
            "a movetime past the cap is the cap"
        );
    }

    #[test]
    fn bad_commands_say_what_is_wrong() {
        for (line, words) in [
            ("", "empty"),
            ("hello", "unknown command"),
            ("newgame", "needs a game"),
            ("newgame abalone marbles", "NAME=VALUE"),
            ("newgame abalone seed=x", "not a whole number"),
            ("position", "moves"),
            ("position record extra", "nothing after"),
            ("go movetime", "needs a number"),
            ("go movetime -5", "not a whole number"),
            ("go movetime 0", "at least 1"),
            ("go depth 100", "1 to 64"),
            ("go fast", "unknown limit"),
            ("deal", "needs"),
            ("isready now", "nothing after"),
        ] {
            let e = Command::parse(line).expect_err(line);
            assert!(e.contains(words), "{line}: {e}");
        }
    }

    #[test]
    fn replies_read_and_write_back() {
        for line in [
            "id name Plateau",
            "id author The Plateau authors",
            "games abalone kabaleo",
            "feature legal",
            "plateauok",
            "ok",
            "error unknown game \"chess\"",
            "readyok",
            "info depth 5 score eval 34 nodes 1200 nps 60000 time 20 pv a1b2 i5h5",
            "info score win 3",
            "info score value 0.250 nodes 100",
            "info string hello there",
            "bestmove a1b2",
        ] {
            let r = Reply::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(r.to_string(), line);
        }
        for bad in ["bestmove", "bestmove a b", "info depth x", "info score big 3", "info score value 7", "hello"] {
            assert!(Reply::parse(bad).is_err(), "{bad}");
        }
    }
}
