//! Bot accounts through the real server and sockets, as a bot program uses
//! them: an account becomes a bot (and the refusals), bots are listed with
//! their ratings and whether a lobby socket of theirs is open, a bot plays
//! only through challenges, and a bot's access token alone does all a bot
//! does: hears challenges on the lobby socket, accepts or declines them over
//! HTTP, plays on the game's socket without a seat token (moves, draws,
//! resignation, reconnection with its version), finds its live games again.
//!
//! Every wait is for an event, with generous bounds: nothing depends on the
//! machine's speed.

mod common;

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use common::{Answer, Client, TestServer, refs, request, start, ws_with};
use plateau_client::{self as client, Incoming, Ws};
use serde_json::{Value, json};

/// Someone using the server: from an address, by a session cookie (a
/// person in a browser) or an access token (a program).
#[derive(Clone, Debug)]
struct Who {
    addr: SocketAddr,
    from: String,
    cookie: Option<String>,
    token: Option<String>,
}

impl Who {
    fn guest(s: &TestServer, from: &str) -> Who {
        Who { addr: s.addr, from: from.into(), cookie: None, token: None }
    }

    /// A new account, logged in by its cookie.
    async fn account(s: &TestServer, from: &str, name: &str) -> Who {
        let mut w = Who::guest(s, from);
        let a = w.post("/api/accounts", json!({ "name": name, "password": "correct horse" })).await;
        assert_eq!(a.status, 201, "{}", a.raw);
        w.cookie = Some(a.cookie());
        w
    }

    /// The same account by a personal access token only (a bot program).
    async fn program(&self) -> Who {
        let t = self.post("/api/account/tokens", json!({ "label": "bot" })).await;
        assert_eq!(t.status, 201, "{}", t.raw);
        Who { cookie: None, token: Some(t.str("token")), ..self.clone() }
    }

    /// A new bot: an account whose program (its token) made it a bot.
    async fn bot(s: &TestServer, from: &str, name: &str, settings: Value) -> Who {
        let bot = Who::account(s, from, name).await.program().await;
        let r = bot.post("/api/account/bot", settings).await;
        assert_eq!(r.status, 200, "{}", r.raw);
        bot
    }

    fn headers(&self) -> Vec<(String, String)> {
        let mut h = Vec::new();
        if let Some(c) = &self.cookie {
            h.push(("Cookie".into(), c.clone()));
            h.push(("Origin".into(), format!("http://{}", self.addr)));
        }
        if let Some(t) = &self.token {
            h.push(("Authorization".into(), format!("Bearer {t}")));
        }
        h
    }

    async fn request(&self, method: &str, path: &str, body: Option<&Value>) -> Answer {
        request(self.addr, &self.from, method, path, &refs(&self.headers()), body).await
    }
    async fn get(&self, path: &str) -> Answer {
        self.request("GET", path, None).await
    }
    async fn post(&self, path: &str, body: Value) -> Answer {
        self.request("POST", path, Some(&body)).await
    }
    async fn put(&self, path: &str, body: Value) -> Answer {
        self.request("PUT", path, Some(&body)).await
    }

    /// The lobby socket, as this person or program.
    async fn lobby(&self) -> Lobby {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut req = format!("ws://{}/api/lobby/ws", self.addr).into_client_request().unwrap();
        for (k, v) in self.headers() {
            req.headers_mut().insert(header_name(&k), v.parse().unwrap());
        }
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::new(self.from.parse::<IpAddr>().unwrap(), 0)).unwrap();
        let tcp = socket.connect(self.addr).await.unwrap();
        let (ws, _) = tokio_tungstenite::client_async(req, tokio_tungstenite::MaybeTlsStream::Plain(tcp))
            .await
            .expect("lobby socket");
        Lobby { ws }
    }

    /// The game's socket, said hello to without a seat token (the account
    /// acts for its seat), from version `since` if given.
    async fn game(&self, id: &str, since: Option<u64>) -> (Client, Value) {
        let h: Vec<(&'static str, String)> = self
            .headers()
            .into_iter()
            .map(|(k, v)| {
                (
                    if k == "Cookie" {
                        "cookie"
                    } else if k == "Origin" {
                        "origin"
                    } else {
                        "authorization"
                    },
                    v,
                )
            })
            .collect();
        let mut c = ws_with(self.addr, id, &h).await;
        let mut hello = json!({ "type": "hello" });
        if let Some(v) = since {
            hello["version"] = json!(v);
        }
        c.send(hello).await;
        let w = c.until("welcome").await;
        (c, w)
    }
}

fn header_name(k: &str) -> tokio_tungstenite::tungstenite::http::HeaderName {
    k.to_ascii_lowercase().parse().unwrap()
}

struct Lobby {
    ws: Ws,
}

impl Lobby {
    async fn until(&mut self, ty: &str) -> Value {
        loop {
            match client::recv(&mut self.ws, common::WAIT).await {
                Incoming::Frame(_, v) if v["type"] == ty => return v,
                Incoming::Frame(..) => {}
                other => panic!("expected a lobby frame {ty}, got {other:?}"),
            }
        }
    }
}

/// The list of bots.
async fn bots(s: &TestServer) -> Vec<Value> {
    let r = Who::guest(s, "127.0.0.1").get("/api/bots").await;
    assert_eq!(r.status, 200, "{}", r.raw);
    r.body["bots"].as_array().unwrap().clone()
}

/// Wait (generously) until the list says `name` is online or not.
async fn until_online(s: &TestServer, name: &str, online: bool) -> Value {
    let end = tokio::time::Instant::now() + common::WAIT;
    loop {
        let list = bots(s).await;
        let b = list.iter().find(|b| b["name"] == name).unwrap_or_else(|| panic!("{name} not listed: {list:?}"));
        if b["online"] == online {
            return b.clone();
        }
        assert!(tokio::time::Instant::now() < end, "{name} never became online={online}: {b}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_becomes_a_bot_for_good_and_a_bot_plays_only_through_challenges() {
    let s = start().await;
    // Not logged in.
    let r = Who::guest(&s, "127.20.0.1").post("/api/account/bot", json!({})).await;
    assert_eq!((r.status, r.code()), (401, Some("not_logged_in")), "{}", r.raw);
    // An account that has played a rated game (here, one going on against
    // a computer level) stays a person.
    let ann = Who::account(&s, "127.20.0.2", "Ann").await;
    let seats = json!([{"kind": "human"}, {"kind": "computer", "player": "ai:1"}]);
    let r = ann.post("/api/games", json!({ "game": "abalone", "rated": true, "seats": seats })).await;
    assert_eq!(r.status, 201, "{}", r.raw);
    let r = ann.post("/api/account/bot", json!({})).await;
    assert_eq!((r.status, r.code()), (409, Some("has_rated_games")), "{}", r.raw);
    // One with a seek open: cancel it first.
    let bob = Who::account(&s, "127.20.0.3", "Bob").await;
    let r = bob.post("/api/seeks", json!({ "game": "abalone" })).await;
    assert_eq!(r.status, 201, "{}", r.raw);
    let seek = r.str("id");
    let r = bob.post("/api/account/bot", json!({})).await;
    assert_eq!((r.status, r.code()), (409, Some("has_seeks")), "{}", r.raw);
    let r = bob.request("DELETE", &format!("/api/seeks/{seek}"), None).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    // Settings are checked.
    let bob_bot = bob.program().await;
    for (body, code) in [
        (json!({ "games": ["chess"] }), "bad_bot_settings"),
        (json!({ "games": [] }), "bad_bot_settings"),
        (json!({ "games": ["abalone", "abalone"] }), "bad_bot_settings"),
        (json!({ "rated": false, "casual": false }), "bad_bot_settings"),
        (json!({ "clocks": ["blitz"] }), "bad_bot_settings"),
        (json!({ "description": "two\nlines" }), "bad_bot_settings"),
        (json!({ "description": "x".repeat(301) }), "bad_bot_settings"),
        (json!({ "engine": "mine" }), "bad_json"),
    ] {
        let r = bob_bot.post("/api/account/bot", body.clone()).await;
        assert_eq!((r.status, r.code()), (400, Some(code)), "{body}: {}", r.raw);
    }
    assert_eq!(bob.get("/api/players/bob").await.body["bot"], false);
    // Bob's program makes it a bot.
    let r = bob_bot
        .post("/api/account/bot", json!({ "games": ["colorito", "abalone"], "description": " A test bot " }))
        .await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let settings = json!({
        "games": ["colorito", "abalone"], "rated": true, "casual": true,
        "clocks": ["none", "live", "correspondence"], "description": "A test bot",
    });
    assert_eq!((&r.body["name"], &r.body["bot"], &r.body["settings"]), (&json!("Bob"), &json!(true), &settings));
    let r = bob_bot.post("/api/account/bot", json!({})).await;
    assert_eq!((r.status, r.code()), (409, Some("already_bot")), "{}", r.raw);
    // PUT changes the fields given; GET reads them (the cookie works too).
    let r = bob_bot.put("/api/account/bot", json!({ "clocks": ["live"], "casual": false })).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let r = bob.get("/api/account/bot").await;
    assert_eq!(
        (&r.body["settings"]["games"], &r.body["settings"]["clocks"], &r.body["settings"]["casual"]),
        (&json!(["colorito", "abalone"]), &json!(["live"]), &json!(false)),
        "{}",
        r.raw
    );
    let r = bob_bot.put("/api/account/bot", json!({ "rated": false })).await;
    assert_eq!((r.status, r.code()), (400, Some("bad_bot_settings")), "{}", r.raw);
    for r in [ann.get("/api/account/bot").await, ann.put("/api/account/bot", json!({ "rated": true })).await] {
        assert_eq!((r.status, r.code()), (409, Some("not_bot")), "{}", r.raw);
    }
    // Its page says it.
    let p = ann.get("/api/players/BOB").await.body;
    assert_eq!((&p["bot"], &p["bot_info"]["settings"]["clocks"]), (&json!(true), &json!(["live"])), "{p}");
    assert_eq!((&p["bot_info"]["online"], &p["computer"]), (&json!(false), &json!(false)), "{p}");
    let p = ann.get("/api/players/Ann").await.body;
    assert_eq!((&p["bot"], &p["bot_info"]), (&json!(false), &Value::Null), "{p}");
    // No seeks, no quick pairing, no game made or joined directly.
    let cara = Who::account(&s, "127.20.0.4", "Cara").await;
    let r = cara.post("/api/seeks", json!({ "game": "abalone" })).await;
    let cara_seek = r.str("id");
    let r = cara.post("/api/games", json!({ "game": "abalone" })).await;
    let open_game = r.str("id");
    for who in [&bob, &bob_bot] {
        for (path, body) in [
            ("/api/seeks".to_string(), json!({ "game": "abalone" })),
            ("/api/quick".to_string(), json!({ "game": "abalone" })),
            (format!("/api/seeks/{cara_seek}/accept"), json!({})),
            ("/api/games".to_string(), json!({ "game": "abalone" })),
            (format!("/api/games/{open_game}/join"), json!({})),
        ] {
            let r = who.post(&path, body).await;
            assert_eq!((r.status, r.code()), (403, Some("bot_challenges_only")), "{path}: {}", r.raw);
        }
    }
    // Challenged within its settings only: rated, a live clock, its games.
    let live = json!({ "initial": 300, "increment": 3 });
    for (body, what) in [
        (json!({ "to": "bob", "game": "kabaleo", "rated": true, "clock": live }), "plays only colorito, abalone"),
        (json!({ "to": "bob", "game": "abalone", "rated": false, "clock": live }), "rated games only"),
        (json!({ "to": "bob", "game": "abalone", "rated": true }), "games without a clock"),
        (json!({ "to": "bob", "game": "abalone", "rated": true, "clock": { "days": 2 } }), "correspondence"),
    ] {
        let r = cara.post("/api/challenges", body.clone()).await;
        assert_eq!((r.status, r.code()), (409, Some("bot_refuses")), "{body}: {}", r.raw);
        assert!(r.body["message"].as_str().unwrap().contains(what), "{}", r.raw);
    }
    let r = cara.post("/api/challenges", json!({ "to": "bob", "game": "abalone", "rated": true, "clock": live })).await;
    assert_eq!(r.status, 201, "{}", r.raw);
    // A bot challenges people, and bots (within their settings).
    let r = bob_bot.post("/api/challenges", json!({ "to": "Cara", "game": "kabaleo" })).await;
    assert_eq!(r.status, 201, "{}", r.raw);
    Who::bot(&s, "127.20.0.5", "Dot", json!({ "games": ["abraxas"] })).await;
    let r = bob_bot.post("/api/challenges", json!({ "to": "dot", "game": "abraxas" })).await;
    assert_eq!(r.status, 201, "{}", r.raw);
    let r = bob_bot.post("/api/challenges", json!({ "to": "dot", "game": "abalone" })).await;
    assert_eq!((r.status, r.code()), (409, Some("bot_refuses")), "{}", r.raw);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_are_listed_and_online_while_a_lobby_socket_of_theirs_is_open() {
    let s = start().await;
    assert_eq!(bots(&s).await, Vec::<Value>::new());
    let eve = Who::bot(&s, "127.21.0.1", "Eve", json!({ "games": ["abalone"] })).await;
    // People are not listed, even with a lobby socket open.
    let fay = Who::account(&s, "127.21.0.2", "Fay").await;
    let mut fay_lobby = fay.lobby().await;
    fay_lobby.until("challenges").await;
    let list = bots(&s).await;
    assert_eq!(list.len(), 1, "{list:?}");
    let b = &list[0];
    assert_eq!(
        (&b["name"], &b["online"], &b["played"], &b["ratings"], &b["settings"]["games"]),
        (&json!("Eve"), &json!(false), &json!(0), &json!({}), &json!(["abalone"])),
        "{b}"
    );
    assert!(b["since"].as_i64().is_some(), "{b}");
    // Online while its lobby socket is open (its token on the upgrade).
    let mut lobby = eve.lobby().await;
    lobby.until("challenges").await;
    until_online(&s, "Eve", true).await;
    assert_eq!(fay.get("/api/players/eve").await.body["bot_info"]["online"], true);
    // Two sockets: online until the last closes.
    let mut second = eve.lobby().await;
    second.until("challenges").await;
    drop(lobby);
    tokio::time::sleep(Duration::from_millis(300)).await;
    until_online(&s, "Eve", true).await;
    drop(second);
    until_online(&s, "Eve", false).await;
    assert_eq!(fay.get("/api/players/eve").await.body["bot_info"]["online"], false);
}

/// The mover plays its first legal move; waits until both sockets saw it.
/// Returns the new version.
async fn move_once(mover: &mut Client, other: &mut Client) -> u64 {
    let mv = mover.legal.as_ref().and_then(|l| l.first().cloned()).expect("a legal move for the mover");
    let v = mover.version;
    mover.send(json!({ "type": "move", "move": mv, "version": v })).await;
    mover.until_version(v + 1).await;
    other.until_version(v + 1).await;
    v + 1
}

/// The seat to move in `game`, as `who` reads it.
async fn to_move(game: &str, who: &Who) -> u64 {
    let st = who.get(&format!("/api/games/{game}")).await;
    assert_eq!(st.status, 200, "{}", st.raw);
    st.body["to_move"].as_u64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_plays_a_challenge_with_its_token_only() {
    let s = start().await;
    let gus = Who::account(&s, "127.22.0.1", "Gus").await;
    let bot =
        Who::bot(&s, "127.22.0.2", "Hal", json!({ "games": ["abalone"], "description": "plays first moves" })).await;
    assert!(bot.cookie.is_none());
    // The bot's program listens on the lobby socket.
    let mut events = bot.lobby().await;
    let c = events.until("challenges").await;
    assert_eq!((&c["incoming"], &c["outgoing"]), (&json!([]), &json!([])));
    let mut gus_lobby = gus.lobby().await;
    gus_lobby.until("challenges").await;
    // A challenge it declines.
    let r = gus.post("/api/challenges", json!({ "to": "Hal", "game": "abalone" })).await;
    assert_eq!(r.status, 201, "{}", r.raw);
    let f = events.until("challenge").await;
    assert_eq!((&f["challenge"]["status"], &f["challenge"]["from"]), (&json!("open"), &json!("Gus")), "{f}");
    let id = f["challenge"]["id"].as_str().unwrap().to_string();
    let r = bot.post(&format!("/api/challenges/{id}/decline"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    assert_eq!(events.until("challenge").await["challenge"]["status"], "declined");
    gus_lobby.until("challenge").await;
    let f = gus_lobby.until("challenge").await;
    assert_eq!(f["challenge"]["status"], "declined", "{f}");
    // A rated, clocked challenge it accepts: it learns its seat from the
    // answer and from its lobby socket.
    let clock = json!({ "initial": 600, "increment": 5 });
    let r = gus.post("/api/challenges", json!({ "to": "Hal", "game": "abalone", "rated": true, "clock": clock })).await;
    assert_eq!(r.status, 201, "{}", r.raw);
    let f = events.until("challenge").await;
    let id = f["challenge"]["id"].as_str().unwrap().to_string();
    assert_eq!((&f["challenge"]["rated"], &f["challenge"]["clock"]), (&json!(true), &clock), "{f}");
    let r = bot.post(&format!("/api/challenges/{id}/accept"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let (game, seat) = (r.str("game"), r.body["seat"].as_u64().unwrap());
    let f = events.until("challenge").await;
    assert_eq!((&f["challenge"]["status"], &f["game"], &f["seat"]), (&json!("accepted"), &json!(game), &json!(seat)));
    // It finds the game among its live games too (after a restart).
    let r = bot.get("/api/account/games").await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let mine = &r.body["games"][0];
    assert_eq!((&mine["id"], &mine["seat"], &mine["status"]), (&json!(game), &json!(seat), &json!("live")), "{mine}");
    // Both open the game's socket: the bot by its token, with no seat token.
    let (mut b, w) = bot.game(&game, None).await;
    assert_eq!(w["you"], seat, "{w}");
    assert_eq!(w["state"]["rated"], true);
    let (mut g, w) = gus.game(&game, None).await;
    assert_eq!(w["you"], 1 - seat, "{w}");
    // The seats are seen with their accounts.
    assert_eq!(w["state"]["seats"][seat as usize]["account"], "Hal", "{w}");
    // Four moves, each side in turn; the bot cannot move out of turn.
    let first = to_move(&game, &gus).await;
    if first != seat {
        b.send(json!({ "type": "move", "move": "a1b2", "version": b.version })).await;
        let e = b.until("error").await;
        assert_eq!(e["code"], "not_your_turn", "{e}");
    }
    for ply in 0..4 {
        if (first + ply) % 2 == seat {
            move_once(&mut b, &mut g).await;
        } else {
            move_once(&mut g, &mut b).await;
        }
    }
    // Draws: the bot offers, Gus declines; Gus offers, the bot declines,
    // then the bot reconnects with its version and resigns.
    b.send(json!({ "type": "offer_draw" })).await;
    let u = g.until("update").await;
    assert_eq!(u["draw_offers"], json!([seat]), "{u}");
    b.until("update").await;
    g.send(json!({ "type": "decline_draw" })).await;
    assert_eq!(b.until("update").await["draw_offers"], json!([]));
    g.until("update").await;
    g.send(json!({ "type": "offer_draw" })).await;
    assert_eq!(b.until("update").await["draw_offers"], json!([1 - seat]));
    g.until("update").await;
    b.send(json!({ "type": "decline_draw" })).await;
    assert_eq!(g.until("update").await["draw_offers"], json!([]));
    let seen = b.until("update").await["version"].as_u64().unwrap();
    drop(b);
    let (mut b, w) = bot.game(&game, Some(seen)).await;
    assert_eq!((&w["you"], &w["resync"], &w["events"]), (&json!(seat), &json!(false), &json!([])), "{w}");
    b.send(json!({ "type": "resign" })).await;
    let u = g.until("update").await;
    assert_eq!(u["status"], "finished", "{u}");
    assert_eq!(u["result"]["winners"], json!([1 - seat]), "{u}");
    assert!(u["result"]["ratings"].is_array(), "a rated game: {u}");
    b.until("update").await;
    // Another game, drawn by agreement: Gus offers, the bot accepts.
    let r = gus.post("/api/challenges", json!({ "to": "Hal", "game": "abalone", "rated": true, "clock": clock })).await;
    let id = r.str("id");
    let r = bot.post(&format!("/api/challenges/{id}/accept"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let (game, seat) = (r.str("game"), r.body["seat"].as_u64().unwrap());
    let (mut b, _) = bot.game(&game, None).await;
    let (mut g, _) = gus.game(&game, None).await;
    let first = to_move(&game, &gus).await;
    for ply in 0..2 {
        if (first + ply) % 2 == seat {
            move_once(&mut b, &mut g).await;
        } else {
            move_once(&mut g, &mut b).await;
        }
    }
    g.send(json!({ "type": "offer_draw" })).await;
    assert_eq!(b.until("update").await["draw_offers"], json!([1 - seat]));
    g.until("update").await;
    b.send(json!({ "type": "accept_draw" })).await;
    let u = g.until("update").await;
    assert_eq!((&u["status"], &u["result"]["draw"]), (&json!("finished"), &json!(true)), "{u}");
    // The list shows its rating and games played.
    let list = bots(&s).await;
    let h = &list[0];
    assert_eq!((&h["name"], &h["played"], &h["online"]), (&json!("Hal"), &json!(2), &json!(true)), "{h}");
    assert!(h["ratings"]["abalone"]["rating"].as_f64().unwrap() < 1500.0, "a loss and a draw: {h}");
    assert_eq!(h["ratings"]["abalone"]["games"], 2, "{h}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bots_token_acts_for_its_own_seat_only() {
    let s = start().await;
    let ivy = Who::account(&s, "127.23.0.1", "Ivy").await;
    let jon = Who::account(&s, "127.23.0.2", "Jon").await;
    let bot = Who::bot(&s, "127.23.0.3", "Kit", json!({})).await;
    // A game between two people.
    let r = ivy.post("/api/challenges", json!({ "to": "Jon", "game": "abalone" })).await;
    let id = r.str("id");
    let r = jon.post(&format!("/api/challenges/{id}/accept"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let game = r.str("game");
    // The bot's token acts for no seat of it: over HTTP …
    for action in [json!({ "type": "resign" }), json!({ "type": "offer_draw" }), json!({ "type": "abort" })] {
        let r = bot.post(&format!("/api/games/{game}/action"), action.clone()).await;
        assert_eq!((r.status, r.code()), (403, Some("read_only")), "{action}: {}", r.raw);
    }
    // … and on the socket it only watches.
    let (mut c, w) = bot.game(&game, None).await;
    assert_eq!(w["you"], Value::Null, "{w}");
    let v = c.version;
    c.send(json!({ "type": "move", "move": "a1b2", "version": v })).await;
    assert_eq!(c.until("error").await["code"], "read_only");
    c.send(json!({ "type": "resign" })).await;
    assert_eq!(c.until("error").await["code"], "read_only");
    let st = ivy.get(&format!("/api/games/{game}")).await.body;
    assert_eq!((&st["status"], &st["version"]), (&json!("live"), &json!(v)), "{st}");
    // In its own game, it acts for its own seat only: not the other
    // seat's moves, nor an answer to an offer nobody else made.
    let r = ivy.post("/api/challenges", json!({ "to": "Kit", "game": "abalone" })).await;
    let id = r.str("id");
    let r = bot.post(&format!("/api/challenges/{id}/accept"), json!({})).await;
    let (game, seat) = (r.str("game"), r.body["seat"].as_u64().unwrap());
    let (mut b, w) = bot.game(&game, None).await;
    assert_eq!(w["you"], seat);
    let first = w["state"]["to_move"].as_u64().unwrap();
    if first == seat {
        let (mut i, _) = ivy.game(&game, None).await;
        move_once(&mut b, &mut i).await;
    }
    let st = ivy.get(&format!("/api/games/{game}")).await.body;
    let theirs = st["legal_moves"][0].as_str().unwrap().to_string();
    let r = bot
        .post(&format!("/api/games/{game}/action"), json!({ "type": "move", "move": theirs, "version": st["version"] }))
        .await;
    assert_eq!((r.status, r.code()), (409, Some("not_your_turn")), "{}", r.raw);
    let r = bot.post(&format!("/api/games/{game}/action"), json!({ "type": "accept_draw" })).await;
    assert_eq!((r.status, r.code()), (409, Some("no_draw_offer")), "{}", r.raw);
    let r = bot.post(&format!("/api/games/{game}/action"), json!({ "type": "offer_draw" })).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let st = ivy.get(&format!("/api/games/{game}")).await.body;
    assert_eq!((&st["draw_offers"], &st["status"]), (&json!([seat]), &json!("live")), "{st}");
    // A token that is neither an access token nor a seat's of this game is
    // refused.
    let r = request(
        s.addr,
        "127.23.0.3",
        "POST",
        &format!("/api/games/{game}/action"),
        &[("Authorization", "Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")],
        Some(&json!({ "type": "resign" })),
    )
    .await;
    assert_eq!((r.status, r.code()), (401, Some("bad_token")), "{}", r.raw);
    assert_eq!(ivy.get(&format!("/api/games/{game}")).await.body["status"], "live");
    drop(b);
}

/// Two instances on one PostgreSQL database: a bot whose lobby socket is
/// open on one is online on the other too, and a challenge made on one
/// reaches it on the other. Run by the PostgreSQL pass
/// (`scripts/postgres.sh cargo test … -- --include-ignored`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: run by the PostgreSQL pass of scripts/test.sh"]
async fn a_bot_online_on_one_instance_is_online_on_all() {
    common::postgres().expect("PLATEAU_TEST_POSTGRES must name a PostgreSQL server (scripts/postgres.sh sets it)");
    let a = start().await;
    let b = common::start_in(a.dir.clone(), plateau_server::Limits::default()).await;
    let bot = Who::bot(&a, "127.24.0.1", "Lux", json!({ "games": ["abalone"] })).await;
    let r = Who::guest(&b, "127.24.0.2").get("/api/bots").await;
    assert_eq!((&r.body["bots"][0]["name"], &r.body["bots"][0]["online"]), (&json!("Lux"), &json!(false)), "{}", r.raw);
    let mut events = bot.lobby().await;
    events.until("challenges").await;
    until_online(&b, "Lux", true).await;
    // Challenged on B, heard on A; the bot accepts on A.
    let mo = Who::account(&b, "127.24.0.3", "Moe").await;
    let r = mo.post("/api/challenges", json!({ "to": "lux", "game": "abalone" })).await;
    assert_eq!(r.status, 201, "{}", r.raw);
    let f = events.until("challenge").await;
    let id = f["challenge"]["id"].as_str().unwrap().to_string();
    let r = bot.post(&format!("/api/challenges/{id}/accept"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    // Closed on A: offline on both.
    drop(events);
    until_online(&a, "Lux", false).await;
    until_online(&b, "Lux", false).await;
}
