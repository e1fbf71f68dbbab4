//! `plateau bot` against a real `plateau serve`: a Python engine speaking
//! only the protocol plays as a bot account; a person (this test, over HTTP
//! and the game's socket) challenges it. The bot declines what its settings
//! leave out, plays Abalone and Kabaleo to the end, logs their records, and,
//! killed in the middle of a game and started again, resumes it.

mod common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;
use futures_util::{SinkExt, StreamExt};
use plateau_client as client;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// Generous: the machine may be slow and busy.
const LONG: Duration = Duration::from_secs(180);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// A running `plateau bot`, its output lines collected.
struct BotProcess {
    child: Child,
    lines: Arc<Mutex<Vec<String>>>,
}

impl BotProcess {
    /// Start the bot with the Python engine and `engine_args`, taking
    /// casual Abalone and Kabaleo without a clock.
    fn start(
        addr: SocketAddr,
        token: &str,
        log_dir: &Path,
        engine_args: &str,
        lines: Arc<Mutex<Vec<String>>>,
    ) -> BotProcess {
        let script = root().join("crates/engine/fixtures/random_engine.py");
        let engine = format!("python3 {} --sleep-ms 150 {engine_args}", script.display());
        let settings = ["--games", "abalone,kabaleo", "--rated", "no", "--clocks", "none", "--movetime", "3000"];
        BotProcess::start_with(addr, token, log_dir, &engine, &settings, lines)
    }

    /// Start the bot with `engine` and the settings `args`.
    fn start_with(
        addr: SocketAddr,
        token: &str,
        log_dir: &Path,
        engine: &str,
        args: &[&str],
        lines: Arc<Mutex<Vec<String>>>,
    ) -> BotProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_plateau"))
            .args(["bot", "--server", &format!("http://{addr}"), "--engine", engine])
            .args(args)
            .args(["--concurrency", "2", "--log-dir"])
            .arg(log_dir)
            .env("PLATEAU_TOKEN", token)
            .current_dir(root())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start plateau bot");
        let out = child.stdout.take().unwrap();
        let kept = lines.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                eprintln!("[bot] {line}");
                kept.lock().unwrap().push(line);
            }
        });
        watch("plateau bot", child.id());
        BotProcess { child, lines }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Wait until a line of the bot's output has every one of `words`.
    async fn wait_for(&self, words: &[&str]) -> String {
        let start = Instant::now();
        loop {
            if let Some(l) = self.lines.lock().unwrap().iter().find(|l| words.iter().all(|w| l.contains(w))) {
                return l.clone();
            }
            assert!(start.elapsed() < LONG, "the bot never logged a line with {words:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Kills the server when the test ends, passed or not.
struct Killed(Child);

/// The server `child`, killed when the test ends and named in the threads'
/// dump of a game that never ends.
fn watched(child: Child) -> Killed {
    watch("plateau serve", child.id());
    Killed(child)
}

/// The processes of this file's tests (all tests: they run at once), for
/// the threads' dump of a game that never ends.
static PROCESSES: Mutex<Vec<(&str, u32)>> = Mutex::new(Vec::new());

fn watch(what: &'static str, pid: u32) {
    PROCESSES.lock().unwrap().push((what, pid));
}

/// Where the threads of every process still running stand (with `gdb`,
/// when the machine has it): for each thread, its innermost frame and the
/// innermost frame of Plateau's own code.
fn threads_dump() -> String {
    let mut out = String::new();
    for (what, pid) in PROCESSES.lock().unwrap().iter() {
        if !Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        let bt = Command::new("timeout")
            .args(["60", "gdb", "-p", &pid.to_string(), "-batch", "-ex", "thread apply all bt"])
            .stdin(Stdio::null())
            .output();
        let Ok(bt) = bt else {
            out.push_str(&format!("{what} ({pid}): gdb could not run\n"));
            continue;
        };
        let text = String::from_utf8_lossy(&bt.stdout);
        out.push_str(&format!("--- {what} ({pid}):\n"));
        for thread in text.split("\nThread ").skip(1).take(40) {
            let name = thread.lines().next().unwrap_or("").split('"').nth(1).unwrap_or("?");
            let frames: Vec<&str> = thread.lines().filter(|l| l.starts_with('#')).collect();
            // The innermost frame, and the innermost of Plateau's own code.
            let top = frames.first().map_or(String::new(), |f| short_frame(f));
            let own = frames.iter().find(|f| f.contains(" at crates/")).map_or(String::new(), |f| short_frame(f));
            out.push_str(&format!("  {name}: {top} | {own}\n"));
        }
    }
    out
}

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Sign up `name` and make it an access token (with the session cookie, as
/// the server's own page would).
/// This test's directory, empty: `plateau-bot-{tag}-{pid}` in the
/// temporary directory.
fn fresh_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("plateau-bot-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Sign up a bot account and a person: their access tokens, the first made
/// a bot.
async fn bot_and_person(addr: SocketAddr, bot: &str, person: &str) -> (String, String) {
    let bot_token = sign_up(addr, bot).await;
    let person = sign_up(addr, person).await;
    let r = client::post(addr, "/api/account/bot", Some(&bot_token), &json!({})).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    (bot_token, person)
}

async fn sign_up(addr: SocketAddr, name: &str) -> String {
    let r = client::post(addr, "/api/accounts", None, &json!({"name": name, "password": "correct horse battery"}))
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    let cookie = r.header("set-cookie").and_then(|c| c.split(';').next()).unwrap().to_string();
    let origin = format!("http://{addr}");
    let headers = [("cookie", cookie.as_str()), ("origin", origin.as_str())];
    let body = json!({"label": "test"}).to_string();
    let r =
        client::request_with(None, addr, "POST", "/api/account/tokens", None, &headers, body.as_bytes()).await.unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["token"].as_str().unwrap().to_string()
}

async fn challenge(addr: SocketAddr, token: &str, to: &str, game: &str, options: Value) -> client::Response {
    challenge_with(addr, token, json!({"to": to, "game": game, "options": options, "rated": false})).await
}

async fn challenge_with(addr: SocketAddr, token: &str, body: Value) -> client::Response {
    client::post(addr, "/api/challenges", Some(token), &body).await.unwrap()
}

/// The live game of `game` the account is in that is not in `known`.
async fn new_game(addr: SocketAddr, token: &str, game: &str, known: &[String]) -> String {
    let start = Instant::now();
    loop {
        let r = client::get(addr, "/api/account/games", Some(token)).await.unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        for g in r.json()["games"].as_array().unwrap() {
            let id = g["id"].as_str().unwrap().to_string();
            if g["game"] == game && g["status"] != "open" && !known.contains(&id) {
                return id;
            }
        }
        assert!(start.elapsed() < LONG, "the bot never accepted the challenge to {game}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// Play random legal moves as the account of `token` in game `id` over the
/// game's socket until the game ends; the final state. With `pause`, after
/// the first own move at ply `n` or later, say so and wait to be told to go
/// on. With `offer_draw`, offer a draw after the first own move.
async fn play(
    addr: SocketAddr,
    id: &str,
    token: &str,
    mut pause: Option<(usize, tokio::sync::oneshot::Sender<()>, tokio::sync::oneshot::Receiver<()>)>,
    mut offer_draw: bool,
) -> Value {
    let mut rng: u64 = 0x9e37_79b9_7f4a_7c15 ^ id.len() as u64;
    let start = Instant::now();
    // What this seat last saw, for the message of a game that never ends.
    let mut seen: Vec<String> = Vec::new();
    // A socket that fails (the server restarted) is opened again.
    'connect: loop {
        if start.elapsed() > LONG * 2 {
            never_ended(addr, id, token, &seen).await;
        }
        let Some(mut ws) = seat_socket(addr, id, token).await else {
            tokio::time::sleep(Duration::from_millis(300)).await;
            continue;
        };
        loop {
            if start.elapsed() > LONG * 2 {
                never_ended(addr, id, token, &seen).await;
            }
            let msg = tokio::time::timeout(LONG, ws.next()).await.expect("the game's socket went silent");
            let text = match msg {
                Some(Ok(Message::Text(t))) => t,
                Some(Ok(Message::Close(c))) => {
                    remember(&mut seen, format!("closed: {c:?}"));
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    continue 'connect;
                }
                None | Some(Err(_)) => {
                    remember(&mut seen, format!("socket failed: {msg:?}"));
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    continue 'connect;
                }
                Some(Ok(_)) => continue,
            };
            remember(&mut seen, text.to_string());
            let Some(s) = carried_state(serde_json::from_str(&text).unwrap()) else { continue };
            if s["status"] == "finished" || s["status"] == "aborted" {
                return state_with_token(addr, id, token).await;
            }
            let Some(moves) = s["legal_moves"].as_array().filter(|m| !m.is_empty()) else { continue };
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mv = moves[(rng % moves.len() as u64) as usize].as_str().unwrap();
            let version = s["version"].as_u64().unwrap();
            let sent = ws.send(Message::text(json!({"type": "move", "move": mv, "version": version}).to_string()));
            if sent.await.is_err() {
                continue 'connect;
            }
            if offer_draw {
                offer_draw = false;
                let _ = ws.send(Message::text(json!({"type": "offer_draw"}).to_string())).await;
            }
            let ply = s["ply"].as_u64().unwrap_or(0) as usize;
            if pause.as_ref().is_some_and(|(n, _, _)| ply >= *n) {
                let (_, told, go_on) = pause.take().unwrap();
                told.send(()).unwrap();
                go_on.await.unwrap();
            }
        }
    }
}

/// The game's socket for the account of `token`, its hello sent; `None`
/// if it cannot be opened (the server restarting).
async fn seat_socket(
    addr: SocketAddr,
    id: &str,
    token: &str,
) -> Option<tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>> {
    let mut req = format!("ws://{addr}/api/games/{id}/ws").into_client_request().unwrap();
    req.headers_mut().insert("Authorization", format!("Bearer {token}").parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.ok()?;
    let hello = json!({"type": "hello", "gestures": false}).to_string();
    ws.send(Message::text(hello)).await.ok()?;
    Some(ws)
}

/// The game as a frame `v` tells its reader: a welcome's or a sync's state,
/// an update, a refusal's state; `None` for other frames.
fn carried_state(v: Value) -> Option<Value> {
    match v["type"].as_str() {
        Some("welcome") | Some("state") => Some(v["state"].clone()),
        Some("update") => Some(v),
        Some("error") if v["state"].is_object() => Some(v["state"].clone()),
        _ => None,
    }
}

/// Keep the last frames a seat saw (each cut to 300 bytes).
fn remember(seen: &mut Vec<String>, frame: String) {
    if seen.len() == 8 {
        seen.remove(0);
    }
    let mut end = frame.len().min(300);
    while !frame.is_char_boundary(end) {
        end -= 1;
    }
    seen.push(frame[..end].to_string());
}

/// A frame of gdb's backtrace, short: the function's name (without its
/// generic arguments) and where it is.
fn short_frame(frame: &str) -> String {
    // "#5  0x00005616 in name<…> (…) at file:line", or "#0  name (…) at …".
    let mut words = frame.split_whitespace().skip(1).peekable();
    if words.peek().is_some_and(|w| w.starts_with("0x")) {
        words.next();
        words.next();
    }
    let name: String = words.next().unwrap_or("?").chars().take_while(|c| *c != '<' && *c != '(').collect();
    let place = frame.rsplit_once(" at ").map_or("", |(_, at)| at);
    format!("{name} at {place}")
}

/// Fail a test whose game never ended, saying what the server holds of it
/// and the last frames the seat saw.
async fn never_ended(addr: SocketAddr, id: &str, token: &str, seen: &[String]) -> ! {
    // A game whose table is stuck would not answer: not waited for long.
    let path = format!("/api/games/{id}");
    let read = tokio::time::timeout(Duration::from_secs(30), client::get(addr, &path, Some(token)));
    let server = match read.await {
        Err(_) => "nothing in 30 s".to_string(),
        Ok(Ok(r)) => {
            let v = r.json();
            let keys = ["status", "version", "ply", "to_move", "you", "draw_offers", "history"];
            let mut shown: serde_json::Map<String, Value> =
                keys.iter().map(|k| (k.to_string(), v[*k].clone())).collect();
            shown.insert("legal_moves".into(), json!(v["legal_moves"].as_array().map(Vec::len)));
            format!("{} {}", r.status, Value::Object(shown))
        }
        Ok(Err(e)) => format!("unreadable: {e:#}"),
    };
    let threads = tokio::task::spawn_blocking(threads_dump).await.unwrap_or_default();
    panic!(
        "game {id} never ended; the server says {server}; the last frames seen:\n{}\nthe threads:\n{threads}",
        seen.join("\n")
    );
}

async fn state_with_token(addr: SocketAddr, id: &str, token: &str) -> Value {
    let r = client::get(addr, &format!("/api/games/{id}"), Some(token)).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// Wait for the bot's record of game `id` in `dir`.
async fn record_in(dir: &Path, id: &str) -> String {
    let path = dir.join(format!("{id}.txt"));
    let start = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(&path)
            && text.contains("[Result")
        {
            return text;
        }
        assert!(start.elapsed() < LONG, "the bot never wrote {}", path.display());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_plays_its_challenges_declines_the_others_and_resumes_after_a_kill() {
    let dir = fresh_dir("main");
    let logs = dir.join("games");
    let db = format!("sqlite://{}", dir.join("plateau.sqlite").display());
    let (server, addr) = start_server(&db, &["--sync", "normal"]);
    let _server = watched(server);

    let (bot_token, person) = bot_and_person(addr, "randombot", "person").await;

    // A challenge waiting before the bot starts, to a game the server's
    // settings allow (every game, as made) but the bot's command line not.
    let r = challenge(addr, &person, "randombot", "colorito", json!({})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let early = r.json()["id"].as_str().unwrap().to_string();

    let lines = Arc::new(Mutex::new(Vec::new()));
    let mut bot = BotProcess::start(addr, &bot_token, &logs, "", lines.clone());
    let line = bot.wait_for(&[&format!("challenge {early}"), "declined"]).await;
    assert!(line.contains("colorito"), "{line}");
    // It is no longer waiting, and the settings the bot wrote make the
    // server refuse the next one itself.
    let start = Instant::now();
    loop {
        let r = client::get(addr, "/api/challenges", Some(&person)).await.unwrap();
        let open =
            r.json()["outgoing"].as_array().unwrap().iter().any(|c| c["id"] == early.as_str() && c["status"] == "open");
        if !open {
            break;
        }
        assert!(start.elapsed() < LONG, "the declined challenge is still open");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let r = challenge(addr, &person, "randombot", "colorito", json!({})).await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.json()["code"], "bot_refuses", "{}", r.body);

    // Abalone, short: killed in the middle, started again, the bot goes on.
    let r = challenge(addr, &person, "randombot", "abalone", json!({"max-plies": 40})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let abalone = new_game(addr, &person, "abalone", &[]).await;
    let (told_tx, told_rx) = tokio::sync::oneshot::channel();
    let (go_tx, go_rx) = tokio::sync::oneshot::channel();
    let playing = {
        let person = person.clone();
        let id = abalone.clone();
        tokio::spawn(async move { play(addr, &id, &person, Some((10, told_tx, go_rx)), true).await })
    };
    told_rx.await.unwrap();
    bot.kill();
    let moves_before = state_with_token(addr, &abalone, &person).await["history"].as_array().unwrap().len();
    let mut bot = BotProcess::start(addr, &bot_token, &logs, "", lines.clone());
    bot.wait_for(&[&format!("game {abalone}: resuming")]).await;
    go_tx.send(()).unwrap();
    let end = playing.await.unwrap();
    assert_eq!(end["status"], "finished", "{end}");
    assert!(end["result"].is_object(), "{end}");
    assert!(end["history"].as_array().unwrap().len() > moves_before, "{end}");
    let record = record_in(&logs, &abalone).await;
    assert!(record.contains("[Game \"abalone\"]"), "{record}");
    // Draws are declined by default.
    bot.wait_for(&[&format!("game {abalone}: declines a draw offer")]).await;

    // Kabaleo: hidden objectives, the bot's engine told only its own.
    let r = challenge(addr, &person, "randombot", "kabaleo", json!({})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let kabaleo = new_game(addr, &person, "kabaleo", std::slice::from_ref(&abalone)).await;
    let end = play(addr, &kabaleo, &person, None, false).await;
    assert_eq!(end["status"], "finished", "{end}");
    assert!(end["result"].is_object(), "{end}");
    let record = record_in(&logs, &kabaleo).await;
    assert!(record.contains("[Game \"kabaleo\"]"), "{record}");
    bot.wait_for(&[&format!("game {kabaleo}: over")]).await;

    // An engine that crashes: the bot resigns, and says why.
    bot.kill();
    let mut bot = BotProcess::start(addr, &bot_token, &logs, "--crash-after 2", lines.clone());
    let r = challenge(addr, &person, "randombot", "abalone", json!({"max-plies": 40})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let crash = new_game(addr, &person, "abalone", &[abalone.clone(), kabaleo.clone()]).await;
    let end = play(addr, &crash, &person, None, false).await;
    assert_eq!(end["status"], "finished", "{end}");
    assert_eq!(end["result"]["reason"], "resignation", "{end}");
    bot.wait_for(&[&format!("game {crash}: the engine failed (crash)")]).await;
    bot.wait_for(&[&format!("game {crash}: resigns")]).await;

    bot.kill();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plateau's own engine behind the protocol (ISMCTS for Kabaleo, which
/// needs the deal: the seat's own objective) on a live clock.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plateau_s_own_engine_plays_kabaleo_on_a_live_clock() {
    let dir = fresh_dir("clock");
    let logs = dir.join("games");
    let db = format!("sqlite://{}", dir.join("plateau.sqlite").display());
    let (server, addr) = start_server(&db, &["--sync", "normal"]);
    let _server = watched(server);

    let (bot_token, person) = bot_and_person(addr, "plateaubot", "someone").await;
    let engine = format!(
        "{} engine --player alphabeta:time=50ms --player kabaleo=ismcts:time=50ms",
        env!("CARGO_BIN_EXE_plateau")
    );
    let settings = ["--games", "kabaleo", "--clocks", "live", "--min-initial", "60", "--movetime", "200"];
    let lines = Arc::new(Mutex::new(Vec::new()));
    let bot = BotProcess::start_with(addr, &bot_token, &logs, &engine, &settings, lines);
    bot.wait_for(&["lobby: connected"]).await;

    // Outside its settings: refused by the server (the bot wrote them).
    let r = challenge(addr, &person, "plateaubot", "kabaleo", json!({})).await;
    assert_eq!(r.status, 409, "no clock: {}", r.body);
    let clock = json!({"initial": 120, "increment": 2});
    let body = json!({"to": "plateaubot", "game": "kabaleo", "clock": clock, "rated": true});
    let r = challenge_with(addr, &person, body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = new_game(addr, &person, "kabaleo", &[]).await;
    let end = play(addr, &id, &person, None, false).await;
    assert_eq!(end["status"], "finished", "{end}");
    assert!(end["result"].is_object(), "{end}");
    let reason = end["result"]["reason"].as_str().unwrap_or("");
    assert!(reason != "resignation" && reason != "time", "the bot should play to the end: {end}");
    bot.wait_for(&[&format!("game {id}: over")]).await;
    let record = record_in(&logs, &id).await;
    assert!(record.contains("[Game \"kabaleo\"]"), "{record}");
    drop(bot);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The server killed in the middle of a game and started again on the same
/// address and database: the bot's sockets come back, and the game ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_reconnects_after_the_server_restarts() {
    let dir = fresh_dir("restart");
    let logs = dir.join("games");
    let db = format!("sqlite://{}", dir.join("plateau.sqlite").display());
    // A free port, to start the server again where the bot looks for it.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let at = format!("127.0.0.1:{port}");
    let (server, addr) = start_server_at(&db, &at, &["--sync", "normal"]);
    let mut server = watched(server);

    let (bot_token, person) = bot_and_person(addr, "steadybot", "patient").await;
    let lines = Arc::new(Mutex::new(Vec::new()));
    let bot = BotProcess::start(addr, &bot_token, &logs, "", lines);
    bot.wait_for(&["lobby: connected"]).await;

    let r = challenge(addr, &person, "steadybot", "abalone", json!({"max-plies": 30})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = new_game(addr, &person, "abalone", &[]).await;
    let (told_tx, told_rx) = tokio::sync::oneshot::channel();
    let (go_tx, go_rx) = tokio::sync::oneshot::channel();
    let playing = {
        let person = person.clone();
        let id = id.clone();
        tokio::spawn(async move { play(addr, &id, &person, Some((6, told_tx, go_rx)), false).await })
    };
    told_rx.await.unwrap();
    let _ = server.0.kill();
    let _ = server.0.wait();
    bot.wait_for(&[&format!("game {id}: the socket closed")]).await;
    let (again, addr2) = start_server_at(&db, &at, &["--sync", "normal"]);
    assert_eq!(addr2, addr);
    server = watched(again);
    go_tx.send(()).unwrap();
    let end = playing.await.unwrap();
    assert_eq!(end["status"], "finished", "{end}");
    assert!(end["result"].is_object(), "{end}");
    assert!(end["history"].as_array().unwrap().len() > 8, "{end}");
    bot.wait_for(&[&format!("game {id}: over")]).await;
    record_in(&logs, &id).await;
    drop(bot);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Colorito and Abraxas at once, up to --concurrency: a third challenge
/// while both are going is declined.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_games_at_once_and_no_more() {
    let dir = fresh_dir("two");
    let logs = dir.join("games");
    let db = format!("sqlite://{}", dir.join("plateau.sqlite").display());
    let (server, addr) = start_server(&db, &["--sync", "normal"]);
    let _server = watched(server);

    let (bot_token, person) = bot_and_person(addr, "busybot", "visitor").await;
    let engine = format!("python3 {}", root().join("crates/engine/fixtures/random_engine.py").display());
    let settings = ["--games", "colorito,abraxas", "--movetime", "1000"];
    let lines = Arc::new(Mutex::new(Vec::new()));
    let bot = BotProcess::start_with(addr, &bot_token, &logs, &engine, &settings, lines);
    bot.wait_for(&["lobby: connected"]).await;

    let r = challenge(addr, &person, "busybot", "colorito", json!({"max-moves": 15})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let colorito = new_game(addr, &person, "colorito", &[]).await;
    let r = challenge(addr, &person, "busybot", "abraxas", json!({"max-plies": 30})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let abraxas = new_game(addr, &person, "abraxas", &[]).await;
    let r = challenge(addr, &person, "busybot", "colorito", json!({})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let third = r.json()["id"].as_str().unwrap().to_string();
    let line = bot.wait_for(&[&format!("challenge {third}"), "declined"]).await;
    assert!(line.contains("at once"), "{line}");

    let a = {
        let (person, id) = (person.clone(), colorito.clone());
        tokio::spawn(async move { play(addr, &id, &person, None, false).await })
    };
    let b = {
        let (person, id) = (person.clone(), abraxas.clone());
        tokio::spawn(async move { play(addr, &id, &person, None, false).await })
    };
    for end in [a.await.unwrap(), b.await.unwrap()] {
        assert_eq!(end["status"], "finished", "{end}");
        assert!(end["result"].is_object(), "{end}");
        let reason = end["result"]["reason"].as_str().unwrap_or("");
        assert!(reason != "resignation", "{end}");
    }
    record_in(&logs, &colorito).await;
    record_in(&logs, &abraxas).await;
    drop(bot);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The database refuses the bot's move (another connection holds the row
/// its event would be, as a failing disk or a busy database would): the
/// server answers with the state, and the bot thinks again, more times
/// than the refusals it resigns after, until the move goes in; the game
/// then ends as any other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_thinks_again_while_the_database_refuses_its_move() {
    let dir = fresh_dir("storage");
    let logs = dir.join("games");
    let file = dir.join("plateau.sqlite");
    let (server, addr) = start_server(&format!("sqlite://{}", file.display()), &["--sync", "normal"]);
    let _server = watched(server);

    let (bot_token, person) = bot_and_person(addr, "stubbornbot", "host").await;
    let lines = Arc::new(Mutex::new(Vec::new()));
    let bot = BotProcess::start(addr, &bot_token, &logs, "", lines.clone());
    bot.wait_for(&["lobby: connected"]).await;
    let r = challenge(addr, &person, "stubbornbot", "abalone", json!({"max-plies": 20})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = new_game(addr, &person, "abalone", &[]).await;

    // The person's turn (the bot, whichever seat it has, waits): the row of
    // the bot's answer (the version after the person's move and one more)
    // is taken, then the person moves.
    let mut ws = seat_socket(addr, &id, &person).await.expect("the game's socket");
    let db = rusqlite::Connection::open(&file).unwrap();
    db.busy_timeout(LONG).unwrap();
    let taken = loop {
        let msg = tokio::time::timeout(LONG, ws.next()).await.expect("the game's socket went silent");
        let Some(Ok(Message::Text(t))) = msg else { panic!("the game's socket failed: {msg:?}") };
        let Some(s) = carried_state(serde_json::from_str(&t).unwrap()) else { continue };
        let Some(mv) = s["legal_moves"].as_array().and_then(|m| m.first()).and_then(|m| m.as_str()) else { continue };
        let version = s["version"].as_u64().unwrap();
        let taken = version + 2;
        db.execute(
            "INSERT INTO events (game_id, version, kind, seat, data, at) VALUES (?1, ?2, 'move', 0, 'x', 0)",
            rusqlite::params![id, taken as i64],
        )
        .unwrap();
        ws.send(Message::text(json!({"type": "move", "move": mv, "version": version}).to_string())).await.unwrap();
        break taken;
    };
    drop(ws);

    // Refused more times than three other refusals in a row would allow.
    let refused = |lines: &Arc<Mutex<Vec<String>>>| {
        let prefix = format!("game {id}: the server says storage");
        lines.lock().unwrap().iter().filter(|l| l.contains(&prefix)).count()
    };
    let start = Instant::now();
    while refused(&lines) < 5 {
        assert!(start.elapsed() < LONG, "the bot's move was not refused five times: {:?}", lines.lock().unwrap());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let r = state_with_token(addr, &id, &person).await;
    assert_eq!(r["status"], "live", "{r}");
    assert_eq!(r["version"].as_u64(), Some(taken - 1), "{r}");
    let refused_at = r["ply"].as_u64().unwrap();
    // Each time from the position the server holds (the refusal's state has
    // no history: the bot must not take it for an empty one), never resigning.
    let seen = lines.lock().unwrap().clone();
    let own = format!("game {id}: ply ");
    let plies: Vec<u64> = seen
        .iter()
        .filter_map(|l| l.split(&own).nth(1))
        .filter(|rest| rest.contains(": plays "))
        .map(|rest| rest.split(':').next().unwrap().parse().unwrap())
        .collect();
    assert!(plies.is_sorted(), "the bot thought from another position after a refusal: {seen:?}");
    assert!(!seen.iter().any(|l| l.contains(&format!("game {id}: resigns"))), "the bot resigned: {seen:?}");

    // The database well again: the bot's move goes in, and the game goes on to its end.
    db.execute(
        "DELETE FROM events WHERE game_id = ?1 AND version = ?2 AND data = 'x'",
        rusqlite::params![id, taken as i64],
    )
    .unwrap();
    let end = play(addr, &id, &person, None, false).await;
    assert_eq!(end["status"], "finished", "{end}");
    assert_ne!(end["result"]["reason"], "resignation", "{end}");
    // The refused move went in: the game went past the ply it was refused at.
    assert!(end["history"].as_array().unwrap().len() as u64 > refused_at, "{end}");
    bot.wait_for(&[&format!("game {id}: over")]).await;
    drop(bot);
    let _ = std::fs::remove_dir_all(&dir);
}
