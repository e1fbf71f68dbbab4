//! One game of the bot: its socket (reconnected after a loss, resuming from
//! the last version seen), the match as the bot's seat knows it, and an
//! engine process of its own, which runs on a blocking thread.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow};
use futures_util::{SinkExt, StreamExt};
use plateau_core::{AnyMatch, Reader, Record, Turn};
use plateau_engine::{Engine, EngineError, Limits, Played};
use serde_json::{Value, json};
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::{self, Message};

use super::api::Socket;
use super::{Bot, log};

/// The least time given for a move.
const MIN_MOVETIME: Duration = Duration::from_millis(50);
/// The time of a move without a live clock, unless --movetime says.
const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);
/// A socket silent this long is taken for lost (the server pings every 30 s).
const SILENCE: Duration = Duration::from_secs(100);
/// Refused moves in a row before the bot resigns.
const MAX_REFUSALS: u32 = 3;

/// What a search gives back: the engine, and its answer.
type Searched = (Engine, Result<Played, EngineError>);

/// An engine searching, on a blocking thread, for the position after
/// `history`.
struct Thinking {
    history: Vec<String>,
    handle: JoinHandle<Searched>,
}

/// What one connection ended with.
enum Ended {
    /// The game is over: its result (`null` if aborted).
    Over(Value),
    /// The socket was lost: connect again.
    Lost(String),
}

/// A game being played.
struct Game {
    bot: Arc<Bot>,
    id: String,
    you: Option<usize>,
    m: Option<Box<dyn AnyMatch>>,
    /// The engine, when it is not searching (then it is in [`Thinking`]).
    engine: Option<Engine>,
    version: u64,
    status: String,
    to_move: Option<usize>,
    clock: Value,
    clocks: Vec<i64>,
    clock_running: Option<usize>,
    /// When the clocks above were read.
    clocks_at: Instant,
    draw_offers: Value,
    takeback_offers: Value,
    result: Value,
    /// The ply a move was sent at (not to send two for one position; an
    /// offer changes the version, not the position).
    moved_at: Option<usize>,
    refusals: u32,
    draw_answered: Option<u64>,
    takeback_answered: Option<u64>,
    /// The engine failed: the bot resigns.
    failed: bool,
    /// The game was live at some point of this task.
    saw_live: bool,
    resigned_at: Option<u64>,
}

/// Play game `id` to its end, then log it.
pub async fn play(bot: Arc<Bot>, id: String) {
    let mut g = Game::new(bot, id);
    let mut thinking: Option<Thinking> = None;
    let outcome = g.run(&mut thinking).await;
    drop(thinking); // a search still going ends with its thread; its engine is then killed
    match outcome {
        // Over before this process saw it live (told again of an old
        // challenge after a restart): logged before, unless its record is missing.
        Ok(_) if !g.saw_live && g.record_path().is_none_or(|p| p.exists()) => {}
        Ok(result) => g.log(format!("over: {}", g.describe_result(&result))),
        Err(e) => g.log(format!("left: {e:#}")),
    }
    if let Some(e) = g.engine.take() {
        let _ = tokio::task::spawn_blocking(move || e.quit(Duration::from_secs(2))).await;
    }
    if g.saw_live || g.record_path().is_some_and(|p| !p.exists()) {
        g.save_record().await;
    }
}

impl Game {
    /// Game `id`, nothing known of it yet.
    fn new(bot: Arc<Bot>, id: String) -> Game {
        Game {
            bot,
            id,
            you: None,
            m: None,
            engine: None,
            version: 0,
            status: String::new(),
            to_move: None,
            clock: Value::Null,
            clocks: Vec::new(),
            clock_running: None,
            clocks_at: Instant::now(),
            draw_offers: Value::Null,
            takeback_offers: Value::Null,
            result: Value::Null,
            moved_at: None,
            refusals: 0,
            draw_answered: None,
            takeback_answered: None,
            failed: false,
            saw_live: false,
            resigned_at: None,
        }
    }

    fn log(&self, line: impl std::fmt::Display) {
        log(format!("game {}: {line}", self.id));
    }

    async fn run(&mut self, thinking: &mut Option<Thinking>) -> Result<Value> {
        let mut backoff = Duration::from_secs(1);
        loop {
            let path = format!("/api/games/{}/ws", self.id);
            let ended = match self.bot.api.socket(&path).await {
                Ok(mut ws) => {
                    backoff = Duration::from_secs(1);
                    self.connection(&mut ws, thinking).await?
                }
                Err(e) => {
                    if let Some(tungstenite::Error::Http(r)) = e.downcast_ref::<tungstenite::Error>()
                        && matches!(r.status().as_u16(), 403 | 404)
                    {
                        return Err(anyhow!("the server refuses the game's socket ({})", r.status()));
                    }
                    Ended::Lost(format!("cannot connect ({e:#})"))
                }
            };
            match ended {
                Ended::Over(result) => return Ok(result),
                Ended::Lost(why) => {
                    self.log(format!("{why}; connecting again in {} s", backoff.as_secs()));
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(Duration::from_secs(30));
                }
            }
        }
    }

    /// One socket's life.
    async fn connection(&mut self, ws: &mut Socket, thinking: &mut Option<Thinking>) -> Result<Ended> {
        let mut hello = json!({"type": "hello", "gestures": false});
        if self.m.is_some() && self.version > 0 {
            hello["version"] = json!(self.version);
        }
        if let Err(e) = send(ws, &hello).await {
            return Ok(Ended::Lost(format!("hello: {e}")));
        }
        // What was sent on a socket that failed may not have arrived.
        (self.resigned_at, self.draw_answered, self.takeback_answered) = (None, None, None);
        loop {
            if self.status == "finished" || self.status == "aborted" {
                return Ok(Ended::Over(self.result.clone()));
            }
            if let Err(e) = self.act(ws, thinking).await {
                return Ok(Ended::Lost(format!("sending: {e}")));
            }
            enum Event {
                Frame(Option<Result<Message, tungstenite::Error>>),
                Silent,
                Thought(Vec<String>, Box<Result<Searched, tokio::task::JoinError>>),
            }
            let event = tokio::select! {
                msg = tokio::time::timeout(SILENCE, ws.next()) => match msg {
                    Ok(m) => Event::Frame(m),
                    Err(_) => Event::Silent,
                },
                (history, r) = thought(thinking) => Event::Thought(history, Box::new(r)),
            };
            match event {
                Event::Silent => return Ok(Ended::Lost("the socket is silent".into())),
                Event::Frame(None) | Event::Frame(Some(Err(_))) | Event::Frame(Some(Ok(Message::Close(_)))) => {
                    return Ok(Ended::Lost("the socket closed".into()));
                }
                Event::Frame(Some(Ok(Message::Text(t)))) => {
                    let v: Value = serde_json::from_str(&t).unwrap_or(Value::Null);
                    if v["type"] == "welcome" && v["you"].is_null() {
                        return Err(anyhow!("the server does not seat the bot in this game"));
                    }
                    if let Err(e) = self.frame(ws, &v).await {
                        return Ok(Ended::Lost(format!("{e:#}")));
                    }
                }
                Event::Frame(Some(Ok(_))) => {}
                Event::Thought(history, r) => {
                    *thinking = None;
                    match *r {
                        Err(e) => {
                            self.log(format!("the engine's thread failed: {e}"));
                            self.failed = true;
                        }
                        Ok((engine, r)) => {
                            self.engine = Some(engine);
                            if let Err(e) = self.thought(ws, &history, r).await {
                                return Ok(Ended::Lost(format!("{e:#}")));
                            }
                        }
                    }
                }
            }
        }
    }

    /// What the bot does now: think, resign, answer offers.
    async fn act(&mut self, ws: &mut Socket, thinking: &mut Option<Thinking>) -> Result<()> {
        if self.status != "live" {
            return Ok(());
        }
        let Some(you) = self.you else { return Ok(()) };
        if self.failed {
            if self.resigned_at != Some(self.version) {
                self.resigned_at = Some(self.version);
                self.log("resigns (the engine failed)");
                send(ws, &json!({"type": "resign"})).await?;
            }
            return Ok(());
        }
        if offered_by_others(&self.draw_offers, you) && self.draw_answered != Some(self.version) {
            self.draw_answered = Some(self.version);
            let (kind, word) =
                if self.bot.accept_draws { ("accept_draw", "accepts") } else { ("decline_draw", "declines") };
            self.log(format!("{word} a draw offer"));
            send(ws, &json!({"type": kind})).await?;
        }
        if offered_by_others(&self.takeback_offers, you) && self.takeback_answered != Some(self.version) {
            self.takeback_answered = Some(self.version);
            self.log("declines a takeback");
            send(ws, &json!({"type": "takeback_decline"})).await?;
        }
        let Some(m) = &self.m else { return Ok(()) };
        if thinking.is_some()
            || self.to_move != Some(you)
            || m.to_move() != Turn::Seat(you)
            || self.moved_at == Some(m.ply())
        {
            return Ok(());
        }
        let Some(mut engine) = self.engine.take() else { return Ok(()) };
        let (movetime, grace) = self.time_for_move(you);
        let probe = m.clone_box();
        let handle = tokio::task::spawn_blocking(move || {
            let r = engine.go(&*probe, Limits::movetime(movetime), grace);
            (engine, r)
        });
        *thinking = Some(Thinking { history: m.history(), handle });
        Ok(())
    }

    /// The engine answered for the position after `history`.
    async fn thought(&mut self, ws: &mut Socket, history: &[String], r: Result<Played, EngineError>) -> Result<()> {
        match r {
            Ok(p) => {
                let Some(m) = &self.m else { return Ok(()) };
                if m.history() != history || self.status != "live" || self.to_move != self.you {
                    return Ok(()); // the position changed meanwhile: think again
                }
                let (ply, version) = (m.ply(), self.version);
                let mut info = String::new();
                if let Some(i) = p.infos.last() {
                    if let Some(d) = i.depth {
                        info.push_str(&format!(", depth {d}"));
                    }
                    if let Some(s) = &i.score {
                        info.push_str(&format!(", score {s}"));
                    }
                }
                self.log(format!("ply {}: plays {} ({} ms{info})", ply + 1, p.mv, p.elapsed.as_millis()));
                self.moved_at = Some(ply);
                if let Err(e) = send(ws, &json!({"type": "move", "move": p.mv, "version": version})).await {
                    self.moved_at = None;
                    return Err(anyhow!("sending the move: {e}"));
                }
            }
            Err(e) => {
                let mut line = format!("the engine failed ({}): {e}", e.kind());
                if let Some(engine) = &self.engine {
                    let tail = engine.stderr_tail();
                    if !tail.is_empty() {
                        // One line: the last ten lines, joined.
                        let last: Vec<&str> = tail.iter().rev().take(10).rev().map(|l| l.trim()).collect();
                        line.push_str(&format!("; its last lines on stderr: {}", last.join(" | ")));
                    }
                }
                self.log(line);
                self.failed = true;
                self.engine = None; // killed when dropped
            }
        }
        Ok(())
    }

    /// The time for the engine's next move, and the grace after it.
    fn time_for_move(&self, you: usize) -> (Duration, Duration) {
        let mut left = self.clocks.get(you).copied().unwrap_or(0).max(0) as u64;
        if self.clock_running == Some(you) {
            left = left.saturating_sub(self.clocks_at.elapsed().as_millis() as u64);
        }
        move_time(&self.clock, left, self.bot.movetime)
    }

    /// One frame from the server.
    async fn frame(&mut self, ws: &mut Socket, v: &Value) -> Result<()> {
        match v["type"].as_str() {
            Some("welcome") => {
                if let Some(you) = v["you"].as_u64() {
                    self.you = Some(you as usize);
                }
                self.state(ws, &v["state"]).await?;
            }
            Some("state") => self.state(ws, &v["state"]).await?,
            Some("update") => self.update(ws, v).await?,
            Some("error") => {
                let code = v["code"].as_str().unwrap_or("?");
                self.log(format!("the server says {code}: {}", v["message"].as_str().unwrap_or("")));
                // A refused move comes with the state: if the position is
                // still the one the move was sent in, think again (a few
                // times; without end when the database failed: nothing
                // changed, and the move may go in next time).
                if v["state"].is_object() {
                    self.state(ws, &v["state"]).await?;
                    if self.moved_at.is_some() && self.moved_at == self.m.as_ref().map(|m| m.ply()) {
                        if code != "storage" {
                            self.refusals += 1;
                        }
                        if self.refusals >= MAX_REFUSALS {
                            self.log("the server refused the engine's moves; resigning");
                            self.failed = true;
                        }
                        self.moved_at = None;
                    }
                } else {
                    // Refused before the game read it (the rate limit): the
                    // state again, and a move sent may be sent again (a
                    // second copy of one that went in is refused, harmless).
                    self.moved_at = None;
                    send(ws, &json!({"type": "sync"})).await?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The fields every state and update carry.
    fn fields(&mut self, s: &Value) {
        if let Some(n) = s["version"].as_u64() {
            self.version = n;
        }
        if let Some(st) = s["status"].as_str() {
            self.status = st.to_string();
            self.saw_live |= st == "live";
        }
        if s.get("to_move").is_some() {
            self.to_move = s["to_move"].as_u64().map(|n| n as usize);
        }
        if s.get("clock").is_some() {
            self.clock = s["clock"].clone();
        }
        if let Some(c) = s["clocks"].as_array() {
            self.clocks = c.iter().map(|x| x.as_i64().unwrap_or(0)).collect();
            self.clocks_at = Instant::now();
        }
        if s.get("clock_running").is_some() {
            self.clock_running = s["clock_running"].as_u64().map(|n| n as usize);
        }
        if s.get("draw_offers").is_some() {
            self.draw_offers = s["draw_offers"].clone();
        }
        if s.get("takeback_offers").is_some() {
            self.takeback_offers = s["takeback_offers"].clone();
        }
        if !s["result"].is_null() {
            self.result = s["result"].clone();
        }
    }

    /// A whole state (welcome, sync, error). One without its history (the
    /// server leaves it out of errors' states) is read as an update without
    /// events, which asks for the whole state if the position is not the
    /// bot's: a missing history is not an empty one.
    async fn state(&mut self, ws: &mut Socket, s: &Value) -> Result<()> {
        if !s["history"].is_array() {
            return self.update(ws, s).await;
        }
        self.fields(s);
        if let Some(you) = s["you"].as_u64() {
            self.you = Some(you as usize);
        }
        if self.status != "live" {
            return Ok(());
        }
        let history: Vec<String> =
            s["history"].as_array().into_iter().flatten().filter_map(|m| m.as_str().map(str::to_string)).collect();
        if self.m.is_none() {
            self.start().await?;
        }
        if !self.sync(&history) {
            self.log("the position differs from the server's: rebuilding it from the record");
            self.m = Some(self.rebuild().await?);
            if !self.sync(&history) {
                return Err(anyhow!("the record and the game's moves disagree"));
            }
        }
        Ok(())
    }

    /// Bring the match to `history` (moves played after it, or taken
    /// back); false if it is not on the same line.
    fn sync(&mut self, history: &[String]) -> bool {
        let Some(m) = self.m.as_mut() else { return false };
        let mine = m.history();
        if history.starts_with(&mine) {
            for mv in &history[mine.len()..] {
                if m.play(mv).is_err() {
                    return false;
                }
            }
            true
        } else if mine.starts_with(history) {
            (history.len()..mine.len()).all(|_| m.undo())
        } else {
            false
        }
    }

    /// An update: its events, then its fields.
    async fn update(&mut self, ws: &mut Socket, v: &Value) -> Result<()> {
        let you = self.you;
        for e in v["events"].as_array().into_iter().flatten() {
            let seat = e["seat"].as_u64().map(|n| n as usize);
            match e["kind"].as_str() {
                Some("move") => {
                    let mv = e["move"].as_str().unwrap_or("");
                    if let Some(m) = self.m.as_mut() {
                        let ply = m.ply() + 1;
                        if let Err(err) = m.play(mv) {
                            self.log(format!("the move {mv} does not apply here ({err}): asking for the state"));
                            send(ws, &json!({"type": "sync"})).await?;
                            self.fields(v);
                            return Ok(());
                        }
                        if seat != you {
                            let who = seat.map_or_else(|| "?".to_string(), |s| m.seat_name(s));
                            self.log(format!("ply {ply}: {who} plays {mv}"));
                        }
                    }
                    self.refusals = 0;
                }
                Some("takeback") => {
                    let plies = e["plies"].as_u64().unwrap_or(0);
                    self.log(format!("{plies} moves taken back"));
                    self.moved_at = None;
                    if let Some(m) = self.m.as_mut() {
                        for _ in 0..plies {
                            m.undo();
                        }
                    }
                }
                Some("draw_offer") if seat != you => self.log("a draw is offered"),
                Some("resign") if seat != you => self.log("the opponent resigns"),
                Some("flag") => self.log(format!("seat {} ran out of time", seat.unwrap_or(0))),
                Some("claim") => self.log(format!("seat {} claims (the others are gone)", seat.unwrap_or(0))),
                Some("abort") => self.log("aborted"),
                _ => {}
            }
        }
        self.fields(v);
        if self.status == "live" {
            if self.m.is_none() {
                // The game started (or the state was never read): read it whole.
                send(ws, &json!({"type": "sync"})).await?;
            } else if let Some(ply) = v["ply"].as_u64()
                && self.m.as_ref().is_some_and(|m| m.ply() as u64 != ply)
            {
                self.log("the position differs from the server's: asking for the state");
                send(ws, &json!({"type": "sync"})).await?;
            }
        }
        Ok(())
    }

    /// The match as the bot's seat knows it, from the game's record (for
    /// a game with hidden information, its `Deal` tag: the public start and
    /// the seat's own secrets).
    async fn rebuild(&mut self) -> Result<Box<dyn AnyMatch>> {
        let r = self.bot.api.get(&format!("/api/games/{}/record?format=text", self.id)).await?;
        if !(200..300).contains(&r.status) {
            return Err(anyhow!("reading the record: {} {}", r.status, r.message()));
        }
        let record = Record::parse(&r.body).map_err(|e| anyhow!("reading the record: {e}"))?;
        plateau_games::registry().replay(&record, None, None).map_err(|e| anyhow!("replaying the record: {e}"))
    }

    /// Build the match and start the engine on it.
    async fn start(&mut self) -> Result<()> {
        let m = self.rebuild().await?;
        let you = self.you.context("no seat")?;
        let info = m.info();
        self.log(format!("{} ({}), the bot is seat {you} ({})", info.title, m.variant(), m.seat_name(you)));
        let probe = m.clone_box();
        let command = self.bot.engine.clone();
        let started = tokio::task::spawn_blocking(move || {
            let mut e = Engine::start(&command)?;
            e.new_game(&*probe, Reader::Seat(you))?;
            Ok::<_, EngineError>(e)
        })
        .await?;
        match started {
            Ok(e) => self.engine = Some(e),
            Err(e) => {
                self.log(format!("the engine could not start the game: {e}"));
                self.failed = true;
            }
        }
        self.m = Some(m);
        Ok(())
    }

    /// The result in words, from the bot's side.
    fn describe_result(&self, r: &Value) -> String {
        if r.is_null() {
            return format!("{} without a result", self.status);
        }
        let text = r["result"].as_str().unwrap_or("?");
        let reason = r["reason"].as_str().unwrap_or("");
        let side = match self.you {
            _ if r["draw"].as_bool() == Some(true) => "a draw",
            Some(you) if r["winners"].as_array().is_some_and(|w| w.iter().any(|s| s.as_u64() == Some(you as u64))) => {
                "the bot won"
            }
            Some(_) => "the bot lost",
            None => "",
        };
        format!("{text} ({reason}), {side}")
    }

    /// Where the record goes: `DIR/<id>.txt` with --log-dir.
    fn record_path(&self) -> Option<std::path::PathBuf> {
        let dir = self.bot.log_dir.as_ref()?;
        super::safe_id(&self.id).then(|| dir.join(format!("{}.txt", self.id)))
    }

    /// Write the final record to the log directory.
    async fn save_record(&mut self) {
        let Some(path) = self.record_path() else { return };
        let r = match self.bot.api.get(&format!("/api/games/{}/record?format=text", self.id)).await {
            Ok(r) if (200..300).contains(&r.status) => r,
            Ok(r) => {
                self.log(format!("could not read the record: {} {}", r.status, r.message()));
                return;
            }
            Err(e) => {
                self.log(format!("could not read the record: {e:#}"));
                return;
            }
        };
        match std::fs::write(&path, r.body.as_bytes()) {
            Ok(()) => self.log(format!("record written to {}", path.display())),
            Err(e) => self.log(format!("could not write {}: {e}", path.display())),
        }
    }
}

/// The time for a move and the grace after it, for the time control
/// `clock` (`null`, live `{"initial", "increment"}` or correspondence
/// `{"days"}`) with `left` ms on the bot's clock and the cap `cap`
/// (--movetime). Live: a thirtieth of what is left and four fifths of the
/// increment, never more than half of what is left, within 50 ms and the
/// cap; the grace is a tenth of what is left, 100 ms to 2 s. Otherwise the
/// cap (default 1 s), with 10 s of grace.
pub fn move_time(clock: &Value, left: u64, cap: Option<Duration>) -> (Duration, Duration) {
    if clock.get("initial").is_none() {
        return (cap.unwrap_or(DEFAULT_MOVETIME), Duration::from_secs(10));
    }
    let increment = clock["increment"].as_f64().unwrap_or(0.0).max(0.0) * 1000.0;
    let share = (left as f64 / 30.0 + increment * 0.8).min(left as f64 / 2.0);
    let mut t = Duration::from_millis(share as u64);
    if let Some(cap) = cap {
        t = t.min(cap);
    }
    t = t.clamp(MIN_MOVETIME, plateau_engine::protocol::MAX_MOVETIME);
    let grace = Duration::from_millis(left / 10).clamp(Duration::from_millis(100), Duration::from_secs(2));
    (t, grace)
}

/// Wait for the search, if any (never ends otherwise).
async fn thought(thinking: &mut Option<Thinking>) -> (Vec<String>, Result<Searched, tokio::task::JoinError>) {
    match thinking {
        Some(t) => {
            let r = (&mut t.handle).await;
            (std::mem::take(&mut t.history), r)
        }
        None => std::future::pending().await,
    }
}

/// Whether a list of offers (seats, or objects with a `seat`) has one of
/// another seat than `you`.
fn offered_by_others(offers: &Value, you: usize) -> bool {
    offers.as_array().is_some_and(|a| a.iter().any(|o| o.as_u64().or_else(|| o["seat"].as_u64()) != Some(you as u64)))
}

async fn send(ws: &mut Socket, v: &Value) -> Result<(), tungstenite::Error> {
    ws.send(Message::text(v.to_string())).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::api::Api;
    use plateau_core::Setup;
    use tokio_tungstenite::WebSocketStream;

    /// Abalone at its start, live, the bot in `seat`; the bot's socket and
    /// the server's end of it.
    async fn live_game(seat: usize) -> (Game, Socket, WebSocketStream<tokio::net::TcpStream>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let accept = tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.unwrap();
            tokio_tungstenite::accept_async(tcp).await.unwrap()
        });
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}")).await.unwrap();
        let server = accept.await.unwrap();
        let bot = Bot {
            api: Api::new(&format!("http://{addr}"), "pat_test".into()).unwrap(),
            name: "testbot".into(),
            engine: String::new(),
            movetime: None,
            accept_draws: false,
            log_dir: None,
            active: Default::default(),
            done: Default::default(),
        };
        let mut g = Game::new(Arc::new(bot), "g1".into());
        g.m = Some(plateau_games::registry().new_match("abalone", &Setup::default()).unwrap());
        (g.you, g.status, g.to_move) = (Some(seat), "live".into(), Some(0));
        (g, ws, server)
    }

    /// Every frame the bot's end sent so far, in order: the server's end
    /// reads up to a marker sent now (no waiting on a clock).
    async fn sent_before_marker(ws: &mut Socket, server: &mut WebSocketStream<tokio::net::TcpStream>) -> Vec<Value> {
        send(ws, &json!({"type": "marker"})).await.unwrap();
        let mut got = Vec::new();
        loop {
            let Some(Ok(Message::Text(t))) = server.next().await else { panic!("the socket closed") };
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == "marker" {
                return got;
            }
            got.push(v);
        }
    }

    #[tokio::test]
    async fn an_error_without_state_asks_for_the_state_and_frees_the_move() {
        let (mut g, mut ws, mut server) = live_game(0).await;
        g.moved_at = Some(0);
        let error = json!({"type": "error", "code": "rate_limited", "message": "too many messages"});
        g.frame(&mut ws, &error).await.unwrap();
        assert_eq!(sent_before_marker(&mut ws, &mut server).await, vec![json!({"type": "sync"})]);
        assert_eq!((g.moved_at, g.refusals, g.failed), (None, 0, false));
    }

    #[tokio::test]
    async fn a_refusal_s_state_without_history_keeps_the_position() {
        // Black played; the bot (White) sent a move at ply 1, refused.
        let (mut g, mut ws, mut server) = live_game(1).await;
        let first = g.m.as_ref().unwrap().legal_moves()[0].clone();
        g.m.as_mut().unwrap().play(&first).unwrap();
        (g.to_move, g.version, g.moved_at) = (Some(1), 1, Some(1));
        let state = json!({"version": 1, "ply": 1, "status": "live", "to_move": 1, "you": 1});
        let error = json!({"type": "error", "code": "illegal_move", "message": "no", "state": state});
        g.frame(&mut ws, &error).await.unwrap();
        assert_eq!(g.m.as_ref().unwrap().history(), vec![first.clone()], "the position is kept");
        assert_eq!((g.moved_at, g.refusals, g.failed), (None, 1, false));
        assert!(sent_before_marker(&mut ws, &mut server).await.is_empty(), "nothing to ask: the same ply");
        // The server is a ply ahead (an update the bot missed): it asks for
        // the whole state rather than guess, and keeps what it has.
        g.moved_at = Some(1);
        let state = json!({"version": 2, "ply": 2, "status": "live", "to_move": 0, "you": 1});
        let error = json!({"type": "error", "code": "not_your_turn", "message": "no", "state": state});
        g.frame(&mut ws, &error).await.unwrap();
        assert_eq!(sent_before_marker(&mut ws, &mut server).await, vec![json!({"type": "sync"})]);
        assert_eq!(g.m.as_ref().unwrap().history(), vec![first]);
        assert_eq!(g.to_move, Some(0));
    }

    #[tokio::test]
    async fn storage_refusals_are_not_counted_and_three_others_resign() {
        let (mut g, mut ws, mut server) = live_game(0).await;
        let state = json!({"version": 0, "ply": 0, "status": "live", "to_move": 0, "you": 0});
        for _ in 0..10 {
            g.moved_at = Some(0);
            let error = json!({"type": "error", "code": "storage", "message": "the database failed", "state": state});
            g.frame(&mut ws, &error).await.unwrap();
            assert_eq!((g.moved_at, g.refusals, g.failed), (None, 0, false));
        }
        for n in 1..=3 {
            g.moved_at = Some(0);
            let error = json!({"type": "error", "code": "illegal_move", "message": "no", "state": state});
            g.frame(&mut ws, &error).await.unwrap();
            assert_eq!((g.refusals, g.failed), (n, n == 3));
        }
        assert!(sent_before_marker(&mut ws, &mut server).await.is_empty());
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_time_per_move_follows_the_clock() {
        let live = json!({"initial": 300, "increment": 5});
        // 300 s left, 5 s increment: 10 s + 4 s.
        assert_eq!(move_time(&live, 300_000, None), (ms(14_000), ms(2_000)));
        assert_eq!(move_time(&live, 300_000, Some(ms(500))).0, ms(500));
        // Little left: never more than half of it, never less than 50 ms.
        assert_eq!(move_time(&live, 2_000, None), (ms(1_000), ms(200)));
        assert_eq!(move_time(&live, 0, None), (ms(50), ms(100)));
        let no_inc = json!({"initial": 60, "increment": 0});
        assert_eq!(move_time(&no_inc, 60_000, None).0, ms(2_000));
        // No clock, or days per move: the cap, 1 s by default.
        assert_eq!(move_time(&Value::Null, 0, None), (ms(1_000), ms(10_000)));
        assert_eq!(move_time(&json!({"days": 3}), 0, Some(ms(300))).0, ms(300));
    }

    #[test]
    fn offers_of_other_seats_are_seen() {
        assert!(offered_by_others(&json!([1]), 0));
        assert!(!offered_by_others(&json!([0]), 0));
        assert!(offered_by_others(&json!([{"seat": 1}]), 0));
        assert!(!offered_by_others(&json!([]), 0));
        assert!(!offered_by_others(&Value::Null, 0));
    }
}
