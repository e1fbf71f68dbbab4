//! `plateau bot`: connect an engine that speaks the engine protocol to a
//! Plateau server as a bot account (docs/server.md, *Bots*).
//!
//! One lobby socket hears of challenges; each one is judged against the
//! bot's settings here ([`Policy`]) and accepted or declined; each accepted
//! game is played by a task of its own ([`game`]) with an engine process of
//! its own. Every socket reconnects after a loss (backoff 1 s to 30 s); the
//! account's live games are resumed at start and after every reconnection
//! of the lobby socket. Every event is one line on standard output.

mod api;
mod game;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use api::Api;

/// Which challenges to take by their rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RatedArg {
    /// Rated challenges only.
    Yes,
    /// Casual challenges only.
    No,
    /// Both.
    Both,
}

/// A kind of time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ClockKind {
    /// No clock.
    None,
    /// A live clock (initial + increment).
    Live,
    /// A correspondence clock (days per move).
    Correspondence,
}

impl ClockKind {
    fn name(self) -> &'static str {
        match self {
            ClockKind::None => "none",
            ClockKind::Live => "live",
            ClockKind::Correspondence => "correspondence",
        }
    }
}

/// `plateau bot`.
#[derive(Args)]
#[command(after_help = BOT_HELP)]
pub struct BotArgs {
    /// The server, as http://HOST:PORT (plain HTTP; put a TLS proxy such as stunnel in front for https).
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// The bot account's personal access token (pat_…); default: the environment variable PLATEAU_TOKEN.
    #[arg(long)]
    pub token: Option<String>,
    /// The engine: a program and its arguments, split as a shell would (one process is started per game).
    #[arg(long, value_name = "COMMAND")]
    pub engine: String,
    /// The games to play (comma-separated; default: every game the engine claims and the server has).
    #[arg(long, value_delimiter = ',', value_name = "GAME,…")]
    pub games: Vec<String>,
    /// Rated challenges, casual ones, or both.
    #[arg(long, value_enum, default_value = "both")]
    pub rated: RatedArg,
    /// The kinds of time control to take (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',', default_values = ["none", "live", "correspondence"])]
    pub clocks: Vec<ClockKind>,
    /// Live clocks: the least initial time taken, in seconds.
    #[arg(long, value_name = "SECS")]
    pub min_initial: Option<u64>,
    /// Live clocks: the most initial time taken, in seconds.
    #[arg(long, value_name = "SECS")]
    pub max_initial: Option<u64>,
    /// Live clocks: the least increment taken, in seconds.
    #[arg(long, value_name = "SECS")]
    pub min_increment: Option<u64>,
    /// Live clocks: the most increment taken, in seconds.
    #[arg(long, value_name = "SECS")]
    pub max_increment: Option<u64>,
    /// Games played at once (challenges past it are declined; resumed games are always played).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub concurrency: u64,
    /// Time per move in ms: the most a move may take (with a live clock, the share of the clock is capped by it); without a live clock, the time of every move (default 1000).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(50..=60_000))]
    pub movetime: Option<u64>,
    /// Write the record of every finished game to DIR/<game id>.txt.
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
    /// Decline every draw offer (the default).
    #[arg(long, conflicts_with = "accept_draws")]
    pub decline_draws: bool,
    /// Accept every draw offer.
    #[arg(long)]
    pub accept_draws: bool,
    /// Leave the account's settings on the server as they are (by default the bot writes its games, rated or not and clock kinds there, so that the lobby shows them and the server refuses other challenges).
    #[arg(long)]
    pub keep_settings: bool,
    /// A line the lobby shows beside the bot (written with the settings).
    #[arg(long)]
    pub description: Option<String>,
}

const BOT_HELP: &str = "\
The account must be a bot (once, for good): POST /api/account/bot with its token,
e.g. curl -X POST -H 'Authorization: Bearer pat_…' http://HOST:PORT/api/account/bot
Challenges outside the settings given here are declined; accepted games are played
by one engine process each; draw offers are declined unless --accept-draws; the
bot resigns a game whose engine crashes, times out or refuses. Stopped and started
again, it resumes its live games.";

/// What the bot takes: its settings, as given on the command line.
#[derive(Clone, Debug)]
pub struct Policy {
    games: Vec<String>,
    rated: RatedArg,
    clocks: Vec<ClockKind>,
    initial: (Option<u64>, Option<u64>),
    increment: (Option<u64>, Option<u64>),
    concurrency: usize,
}

impl Policy {
    /// `Ok` to accept `ch` with `busy` games going, or why not.
    fn judge(&self, ch: &Value, busy: usize) -> std::result::Result<(), String> {
        let game = ch["game"].as_str().unwrap_or("");
        if !self.games.iter().any(|g| g.eq_ignore_ascii_case(game)) {
            return Err(format!("it plays {} only, not {game}", self.games.join(", ")));
        }
        let rated = ch["rated"].as_bool().unwrap_or(false);
        match (self.rated, rated) {
            (RatedArg::Yes, false) => return Err("it plays rated games only".into()),
            (RatedArg::No, true) => return Err("it plays casual games only".into()),
            _ => {}
        }
        let clock = &ch["clock"];
        let kind = if clock.is_null() {
            ClockKind::None
        } else if clock.get("days").is_some() {
            ClockKind::Correspondence
        } else {
            ClockKind::Live
        };
        if !self.clocks.contains(&kind) {
            let kinds: Vec<&str> = self.clocks.iter().map(|k| k.name()).collect();
            return Err(format!("it takes clocks {} only, not {}", kinds.join(", "), kind.name()));
        }
        if kind == ClockKind::Live {
            let initial = clock["initial"].as_u64().unwrap_or(0);
            let increment = clock["increment"].as_u64().unwrap_or(0);
            let within = |v: u64, (lo, hi): (Option<u64>, Option<u64>)| {
                lo.is_none_or(|lo| v >= lo) && hi.is_none_or(|hi| v <= hi)
            };
            if !within(initial, self.initial) || !within(increment, self.increment) {
                return Err(format!("the clock {initial}+{increment} is outside its range"));
            }
        }
        // Options that `newgame` cannot carry on one line (inline content
        // with spaces): the engine could not be told the game.
        if let Some(opts) = ch["options"].as_object() {
            for (k, v) in opts {
                let text = match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                if text.is_empty() || text.chars().any(char::is_whitespace) {
                    return Err(format!("the option {k} cannot be passed to the engine"));
                }
            }
        }
        if busy >= self.concurrency {
            return Err(format!("it is playing {busy} games, its most at once"));
        }
        Ok(())
    }
}

/// What every task of the bot shares.
pub struct Bot {
    api: Api,
    name: String,
    engine: String,
    movetime: Option<Duration>,
    accept_draws: bool,
    log_dir: Option<PathBuf>,
    /// The games being played, by id.
    active: Mutex<HashSet<String>>,
    /// The games played to their end by this process (a lobby socket opened
    /// again is told of recently accepted challenges again).
    done: Mutex<HashSet<String>>,
}

/// One line of the log, with the time (UTC).
pub fn log(line: impl std::fmt::Display) {
    println!("{} {line}", now_utc());
}

/// The time now as `YYYY-MM-DDTHH:MM:SSZ`.
fn now_utc() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem / 60 % 60, rem % 60)
}

/// A game id the server gave, safe in a file name: 1 to 64 ASCII letters,
/// digits, `-` and `_`.
pub fn safe_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Run the bot until it is stopped.
pub fn bot(args: BotArgs) -> Result<()> {
    let token = match args.token.clone().or_else(|| std::env::var("PLATEAU_TOKEN").ok()) {
        Some(t) if !t.trim().is_empty() => t.trim().to_string(),
        _ => bail!("give the bot account's access token with --token or PLATEAU_TOKEN"),
    };
    let api = Api::new(&args.server, token)?;
    // An engine that dies is an error to handle (a resignation), not the
    // end of the bot: writing to its closed input must fail, not kill.
    #[cfg(unix)]
    // SAFETY: setting the action of a signal, before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the async runtime")?;
    runtime.block_on(run(args, api))
}

async fn run(args: BotArgs, api: Api) -> Result<()> {
    // 1. The token, and the account it acts for.
    let session = api.get("/api/session").await.context("checking the token")?;
    if session.status == 401 {
        bail!("the server refused the token ({})", session.message());
    }
    let session = session.ok().context("checking the token")?;
    let name = session["name"].as_str().unwrap_or("").to_string();
    if session["via"] != "token" {
        bail!("the token is not a personal access token (pat_…)");
    }
    // 2. A bot?
    let bot = api.get("/api/account/bot").await.context("reading the bot settings")?;
    if bot.status == 409 {
        bail!(
            "the account {name} is not a bot. Make it one (for good: a bot plays through challenges only) with\n  \
             curl -X POST -H 'Authorization: Bearer pat_…' {}/api/account/bot\nthen start plateau bot again",
            api.base()
        );
    }
    bot.ok().context("reading the bot settings")?;
    // 3. The games: those the engine claims, the server has and --games names.
    let command = args.engine.clone();
    let claimed = tokio::task::spawn_blocking(move || {
        plateau_engine::Engine::start(&command).map(|e| {
            let games = e.games.clone();
            let name = e.name.clone();
            e.quit(Duration::from_secs(2));
            (name, games)
        })
    })
    .await?;
    let (engine_name, claimed) = claimed.map_err(|e| anyhow::anyhow!("starting the engine {:?}: {e}", args.engine))?;
    let catalog = api.get("/api/catalog").await.and_then(|r| r.ok()).context("reading the catalog")?;
    let list = catalog.get("games").unwrap_or(&catalog);
    let server_games: Vec<String> =
        list.as_array().into_iter().flatten().filter_map(|g| g["name"].as_str().map(str::to_string)).collect();
    let mut games: Vec<String> = server_games
        .iter()
        .filter(|g| claimed.iter().any(|c| c.eq_ignore_ascii_case(g)))
        .filter(|g| args.games.is_empty() || args.games.iter().any(|a| a.eq_ignore_ascii_case(g)))
        .cloned()
        .collect();
    games.dedup();
    for g in &args.games {
        if !games.iter().any(|x| x.eq_ignore_ascii_case(g)) {
            log(format!("warning: {g} is left out: the engine does not claim it or the server does not have it"));
        }
    }
    if games.is_empty() {
        bail!("no game to play: the engine claims {}, the server has {}", claimed.join(", "), server_games.join(", "));
    }
    let policy = Policy {
        games: games.clone(),
        rated: args.rated,
        clocks: args.clocks.clone(),
        initial: (args.min_initial, args.max_initial),
        increment: (args.min_increment, args.max_increment),
        concurrency: args.concurrency as usize,
    };
    // 4. The settings the lobby shows, and the server enforces.
    if !args.keep_settings {
        let mut kinds: Vec<&str> = args.clocks.iter().map(|k| k.name()).collect();
        kinds.dedup();
        let mut settings = json!({
            "games": games,
            "rated": args.rated != RatedArg::No,
            "casual": args.rated != RatedArg::Yes,
            "clocks": kinds,
        });
        if let Some(d) = &args.description {
            settings["description"] = json!(d);
        }
        let r = api.send("PUT", "/api/account/bot", Some(&settings)).await.context("writing the bot settings")?;
        r.ok().context("writing the bot settings")?;
    }
    let clocks: Vec<&str> = args.clocks.iter().map(|k| k.name()).collect();
    log(format!(
        "bot {name} on {}: engine {engine_name:?}; games {}; {}; clocks {}; at most {} at once",
        api.base(),
        games.join(","),
        match args.rated {
            RatedArg::Yes => "rated only",
            RatedArg::No => "casual only",
            RatedArg::Both => "rated and casual",
        },
        clocks.join(","),
        args.concurrency
    ));
    if let Some(dir) = &args.log_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let bot = Arc::new(Bot {
        api,
        name,
        engine: args.engine.clone(),
        movetime: args.movetime.map(Duration::from_millis),
        accept_draws: args.accept_draws,
        log_dir: args.log_dir.clone(),
        active: Mutex::new(HashSet::new()),
        done: Mutex::new(HashSet::new()),
    });
    lobby(bot, policy).await
}

impl Bot {
    fn busy(&self) -> usize {
        self.active.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Start playing game `id` unless it is being played.
    fn play(self: &Arc<Self>, id: &str, why: &str) {
        if !safe_id(id) {
            log(format!("ignoring the game id {id:?}: not a plain id"));
            return;
        }
        if self.done.lock().unwrap_or_else(|e| e.into_inner()).contains(id)
            || !self.active.lock().unwrap_or_else(|e| e.into_inner()).insert(id.to_string())
        {
            return;
        }
        if !why.is_empty() {
            log(format!("game {id}: {why}"));
        }
        let bot = self.clone();
        let id = id.to_string();
        tokio::spawn(async move {
            game::play(bot.clone(), id.clone()).await;
            bot.done.lock().unwrap_or_else(|e| e.into_inner()).insert(id.clone());
            bot.active.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
        });
    }

    /// Resume every live game of the account not being played.
    async fn resume(self: &Arc<Self>) {
        let r = match self.api.get("/api/account/games").await.and_then(|r| r.ok()) {
            Ok(v) => v,
            Err(e) => {
                log(format!("could not list the account's games: {e:#}"));
                return;
            }
        };
        for g in r["games"].as_array().into_iter().flatten() {
            if g["status"] == "live"
                && !g["seat"].is_null()
                && let Some(id) = g["id"].as_str()
            {
                self.play(id, "resuming");
            }
        }
    }
}

/// The lobby socket, for ever: challenges in, answers out.
async fn lobby(bot: Arc<Bot>, policy: Policy) -> Result<()> {
    let mut backoff = Duration::from_secs(1);
    // Challenges already answered (a reconnection lists them again).
    let mut answered: HashMap<String, bool> = HashMap::new();
    loop {
        let mut ws = match bot.api.socket("/api/lobby/ws").await {
            Ok(ws) => ws,
            Err(e) => {
                log(format!("lobby: cannot connect ({e:#}); again in {} s", backoff.as_secs()));
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(30));
                continue;
            }
        };
        log("lobby: connected");
        backoff = Duration::from_secs(1);
        bot.resume().await;
        let mut ping = tokio::time::interval(Duration::from_secs(30));
        ping.tick().await;
        let mut last_heard = tokio::time::Instant::now();
        loop {
            tokio::select! {
                msg = ws.next() => {
                    let text = match msg {
                        Some(Ok(Message::Text(t))) => t,
                        Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                        Some(Ok(_)) => { last_heard = tokio::time::Instant::now(); continue }
                    };
                    last_heard = tokio::time::Instant::now();
                    let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                    match v["type"].as_str() {
                        Some("challenges") => {
                            for ch in v["incoming"].as_array().into_iter().flatten() {
                                challenge(&bot, &policy, ch, None, false, &mut answered).await;
                            }
                        }
                        Some("challenge") => {
                            let game = v["game"].as_str();
                            let again = v["again"].as_bool() == Some(true);
                            challenge(&bot, &policy, &v["challenge"], game, again, &mut answered).await
                        }
                        Some("error") => log(format!("lobby: error {}: {}", v["code"], v["message"])),
                        _ => {}
                    }
                }
                _ = ping.tick() => {
                    if last_heard.elapsed() > Duration::from_secs(75) {
                        log("lobby: the server is silent; reconnecting");
                        break;
                    }
                    if ws.send(Message::text(json!({"type": "ping"}).to_string())).await.is_err() {
                        break;
                    }
                }
            }
        }
        log(format!("lobby: connection lost; again in {} s", backoff.as_secs()));
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(30));
        if answered.len() > 10_000 {
            answered.clear();
        }
    }
}

/// Answer one challenge (an incoming `open` one), or start the game of
/// one accepted (`game`: its id, beside the challenge in the frame;
/// `again`: told again to a new socket, the game perhaps long over).
async fn challenge(
    bot: &Arc<Bot>,
    policy: &Policy,
    ch: &Value,
    game: Option<&str>,
    again: bool,
    answered: &mut HashMap<String, bool>,
) {
    let Some(id) = ch["id"].as_str() else { return };
    if !ch["to"].as_str().is_some_and(|to| to.eq_ignore_ascii_case(&bot.name)) {
        return; // one of its own, outgoing
    }
    let from = ch["from"].as_str().unwrap_or("?");
    match ch["status"].as_str() {
        Some("open") if !answered.contains_key(id) => {}
        Some("accepted") => {
            // Accepted here (or by another program with the same account):
            // play it if it is not played yet.
            if let Some(game) = game {
                let why = if again { String::new() } else { format!("from the challenge {id} of {from}") };
                bot.play(game, &why);
            }
            return;
        }
        _ => return,
    }
    let what = describe(ch);
    // A request that never reached the server (the network) is tried again
    // when the challenge is listed again (the lobby socket's reconnection);
    // one the server refused (expired, cancelled) is not.
    match policy.judge(ch, bot.busy()) {
        Err(why) => {
            answered.insert(id.to_string(), false);
            log(format!("challenge {id} from {from} ({what}): declined: {why}"));
            match bot.api.send("POST", &format!("/api/challenges/{id}/decline"), Some(&json!({}))).await {
                Err(e) => {
                    answered.remove(id);
                    log(format!("challenge {id}: the decline failed: {e:#}"));
                }
                Ok(r) if !(200..300).contains(&r.status) => {
                    log(format!("challenge {id}: the decline failed: {} {}", r.status, r.message()));
                }
                Ok(_) => {}
            }
        }
        Ok(()) => {
            answered.insert(id.to_string(), true);
            match bot.api.send("POST", &format!("/api/challenges/{id}/accept"), Some(&json!({}))).await {
                Err(e) => {
                    answered.remove(id);
                    log(format!("challenge {id} from {from} ({what}): could not accept: {e:#}"));
                }
                Ok(r) => match r.ok() {
                    Ok(v) => {
                        log(format!("challenge {id} from {from} ({what}): accepted"));
                        if let Some(game) = v["game"].as_str() {
                            bot.play(game, &format!("{what} against {from}"));
                        }
                    }
                    Err(e) => log(format!("challenge {id} from {from} ({what}): could not accept: {e:#}")),
                },
            }
        }
    }
}

/// A challenge in a few words: `abalone, rated, 300+5`.
fn describe(ch: &Value) -> String {
    let mut s = ch["game"].as_str().unwrap_or("?").to_string();
    if let Some(v) = ch["variant"].as_str() {
        s.push_str(&format!(" ({v})"));
    }
    s.push_str(if ch["rated"].as_bool() == Some(true) { ", rated" } else { ", casual" });
    let c = &ch["clock"];
    if c.is_null() {
        s.push_str(", no clock");
    } else if let Some(d) = c["days"].as_u64() {
        s.push_str(&format!(", {d} days a move"));
    } else {
        s.push_str(&format!(", {}+{}", c["initial"], c["increment"]));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> Policy {
        Policy {
            games: vec!["abalone".into(), "kabaleo".into()],
            rated: RatedArg::No,
            clocks: vec![ClockKind::None, ClockKind::Live],
            initial: (Some(60), Some(600)),
            increment: (None, Some(10)),
            concurrency: 2,
        }
    }

    #[test]
    fn challenges_are_judged_by_the_settings() {
        let p = policy();
        let ok = json!({"game": "abalone", "rated": false, "clock": null, "options": {}});
        assert!(p.judge(&ok, 0).is_ok());
        assert!(p.judge(&ok, 2).unwrap_err().contains("at once"));
        assert!(p.judge(&json!({"game": "colorito", "rated": false}), 0).is_err());
        assert!(p.judge(&json!({"game": "kabaleo", "rated": true}), 0).is_err());
        assert!(p.judge(&json!({"game": "abalone", "clock": {"days": 3}}), 0).is_err());
        assert!(p.judge(&json!({"game": "abalone", "clock": {"initial": 300, "increment": 5}}), 0).is_ok());
        assert!(p.judge(&json!({"game": "abalone", "clock": {"initial": 30, "increment": 5}}), 0).is_err());
        assert!(p.judge(&json!({"game": "abalone", "clock": {"initial": 300, "increment": 20}}), 0).is_err());
        assert!(p.judge(&json!({"game": "abalone", "options": {"board": "a b"}}), 0).is_err());
        assert!(p.judge(&json!({"game": "abalone", "options": {"max-plies": 40}}), 0).is_ok());
    }

    #[test]
    fn ids_are_checked_before_they_name_files() {
        assert!(safe_id("aB3-_x"));
        assert!(!safe_id(""));
        assert!(!safe_id("../x"));
        assert!(!safe_id("a/b"));
        assert!(!safe_id("a.txt"));
        assert!(!safe_id(&"a".repeat(65)));
    }

    #[test]
    fn the_time_is_written_in_utc() {
        let t = now_utc();
        assert_eq!(t.len(), 20, "{t}");
        assert!(t.ends_with('Z') && t.as_bytes()[10] == b'T', "{t}");
    }
}
