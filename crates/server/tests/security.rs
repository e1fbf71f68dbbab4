//! The server as an attacker meets it: each test is a reproduction of an
//! attack on the public server (issue 13), through the real server and its
//! sockets, and what must hold instead.

mod common;

use std::net::{IpAddr, SocketAddr};

use common::*;
use plateau_client::{self as client, Incoming};
use plateau_server::Limits;
use serde_json::{Value, json};

fn ip(s: &str) -> Option<IpAddr> {
    Some(s.parse().unwrap())
}

async fn post_from(from: &str, addr: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    let r = client::post_from(ip(from), addr, path, None, &body).await.expect("http");
    (r.status, r.json())
}

/// Every objective the JSON holds that is not null, anywhere in it.
fn objectives(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    fn walk(v: &Value, out: &mut Vec<Value>) {
        match v {
            Value::Object(o) => {
                for (k, x) in o {
                    if k == "objectives" {
                        out.extend(x.as_array().into_iter().flatten().filter(|c| !c.is_null()).cloned());
                    }
                    walk(x, out);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    walk(v, &mut out);
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kabaleo_secrets_are_dealt_when_the_last_seat_is_taken() {
    let s = start().await;
    // A creator may not choose the seed of a game with hidden information
    // (it would tell every colour): not at creation, not in a set-up check.
    let (st, e) = post(s.addr, "/api/games", None, json!({ "game": "kabaleo", "seed": 7 })).await;
    assert_eq!((st, e["code"].as_str()), (400, Some("bad_setup")), "{e}");
    let (st, e) = post(s.addr, "/api/setup", None, json!({ "game": "kabaleo", "seed": "7" })).await;
    assert_eq!((st, e["code"].as_str()), (400, Some("bad_setup")), "{e}");

    // A stranger joins an open 3-player game, reads, leaves, and again for
    // another seat: nothing secret is there to read, before the start.
    let (id, t0, created) =
        create(s.addr, json!({ "game": "kabaleo", "options": { "players": 3 }, "name": "Ann" })).await;
    assert_eq!(created["state"]["dealt"], false, "{created}");
    assert!(objectives(&created).is_empty(), "the creator sees no colour before the start: {created}");
    for seat in [1, 2] {
        let (st, j) = post(s.addr, &format!("/api/games/{id}/join"), None, json!({ "seat": seat })).await;
        assert_eq!(st, 200, "{j}");
        assert!(objectives(&j).is_empty(), "a stranger reads no colour: {j}");
        let token = j["token"].as_str().unwrap();
        let (_, g) = get(s.addr, &format!("/api/games/{id}"), Some(token)).await;
        assert!(objectives(&g).is_empty(), "{g}");
        let (_, p) = get(s.addr, &format!("/api/games/{id}/position?ply=0"), Some(token)).await;
        assert!(objectives(&p).is_empty(), "{p}");
        let r = client::get(s.addr, &format!("/api/games/{id}/record?format=text"), Some(token)).await.unwrap();
        assert!(!r.body.contains("[Seed"), "{}", r.body);
        let (mut c, w) = Client::open(s.addr, &id, Some(token), None).await;
        assert!(objectives(&w).is_empty(), "{w}");
        c.send(json!({ "type": "leave" })).await;
        let u = c.until("update").await;
        assert!(objectives(&u).is_empty(), "{u}");
        assert_eq!(u["status"], "open");
        assert_eq!(u["dealt"], false);
    }
    // Nothing was dealt yet: the database holds no seed.
    assert_eq!(stored_seed(&s, &id).await, 0);

    // The real players take their seats; the last one deals.
    let (_, t1) = join(s.addr, &id, "Bob").await;
    let (mut c0, _) = Client::open(s.addr, &id, t0.as_deref(), None).await;
    let (_, t2) = join(s.addr, &id, "Cy").await;
    let u = c0.until_version(c0.version + 1).await;
    assert_eq!(u["status"], "live");
    assert_eq!(u["dealt"], true, "the update says the game is dealt: {u}");
    let mine = objectives(&u);
    assert_eq!(mine.len(), 1, "seat 0 reads exactly its own colour at the start: {u}");
    let seed = stored_seed(&s, &id).await;
    assert_ne!(seed, 0, "the seed was drawn at the start");
    // Each seat reads its own colour and nobody else's; a spectator none.
    for (seat, t) in [(0, t0.as_deref().unwrap()), (1, t1.as_str()), (2, t2.as_str())] {
        let (_, g) = get(s.addr, &format!("/api/games/{id}"), Some(t)).await;
        let objs = g["view"]["objectives"].as_array().unwrap();
        for (i, o) in objs.iter().enumerate() {
            assert_eq!(o.is_null(), i != seat, "seat {seat} reads seat {i}'s colour? {g}");
        }
    }
    let (_, g) = get(s.addr, &format!("/api/games/{id}"), None).await;
    assert!(objectives(&g).is_empty(), "{g}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_dealt_at_creation_starts_with_a_server_seed() {
    let s = start().await;
    // Every seat taken at once (the creator and computers): dealt at once,
    // from a seed the server drew; the creator reads its own colour only.
    let seats = json!([{ "kind": "human" }, { "kind": "computer", "player": "ai:1" }]);
    let (id, _, created) = create(s.addr, json!({ "game": "kabaleo", "seats": seats })).await;
    assert_eq!(created["state"]["status"], "live");
    assert_eq!(created["state"]["dealt"], true);
    assert_eq!(objectives(&created).len(), 1, "{created}");
    assert!(created["state"].get("seed").is_none());
    assert_ne!(stored_seed(&s, &id).await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_creator_can_abort_an_open_game() {
    let s = start().await;
    let (id, t0, _) = create(s.addr, json!({ "game": "kabaleo", "options": { "players": 3 }, "name": "Ann" })).await;
    // Anyone can list open games, join one and try to abort it.
    let (_, list) = get(s.addr, "/api/games?status=open", None).await;
    assert!(list["games"].as_array().unwrap().iter().any(|g| g["id"] == id.as_str()));
    let (_, stranger) = join(s.addr, &id, "Mallory").await;
    let r = client::post(s.addr, &format!("/api/games/{id}/action"), Some(&stranger), &json!({ "type": "abort" }))
        .await
        .unwrap();
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.json()["code"], "not_creator");
    let (_, g) = get(s.addr, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["status"], "open");
    // The stranger may leave: the seat opens again.
    let r = client::post(s.addr, &format!("/api/games/{id}/action"), Some(&stranger), &json!({ "type": "leave" }))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    // The creator may abort.
    let r = client::post(s.addr, &format!("/api/games/{id}/action"), t0.as_deref(), &json!({ "type": "abort" }))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    let (_, g) = get(s.addr, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["status"], "aborted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seated_players_always_reach_their_game() {
    let limits = Limits { watchers_per_game: 20, sockets_per_seat: 3, ..Limits::default() };
    let s = start_with(limits).await;
    let (id, t0, _) = create(s.addr, json!({ "game": "abalone", "name": "Ann" })).await;
    let (_, t1) = join(s.addr, &id, "Bob").await;
    // Spectators fill the game's cap.
    let mut watchers = Vec::new();
    for _ in 0..20 {
        watchers.push(Client::open(s.addr, &id, None, None).await.0);
    }
    let mut ws = client::connect(s.addr, &id).await.unwrap();
    client::send(&mut ws, &json!({ "type": "hello" })).await.unwrap();
    match client::recv(&mut ws, WAIT).await {
        Incoming::Frame(_, v) => assert_eq!(v["code"], "too_many_watchers", "{v}"),
        other => panic!("{other:?}"),
    }
    // The seated players still get in, and again after a drop.
    for t in [t0.as_deref().unwrap(), t1.as_str(), t0.as_deref().unwrap()] {
        let (_, w) = Client::open(s.addr, &id, Some(t), None).await;
        assert!(w["you"].is_u64(), "{w}");
    }
    // A seat's sockets have a cap of their own: the newest replaces the oldest.
    let mut mine = Vec::new();
    for _ in 0..3 {
        mine.push(Client::open(s.addr, &id, Some(&t1), None).await.0);
    }
    let (_, w) = Client::open(s.addr, &id, Some(&t1), None).await;
    assert_eq!(w["you"], 1);
    let oldest = &mut mine[0];
    let mut replaced = false;
    loop {
        match oldest.incoming(WAIT).await {
            Incoming::Frame(_, v) if v["code"] == "replaced" => replaced = true,
            Incoming::Frame(..) => {}
            Incoming::Closed(_) => break,
            Incoming::Timeout => panic!("the oldest socket of the seat was not closed"),
        }
    }
    assert!(replaced);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computer_games_are_capped_per_client() {
    let s = start_with(Limits { computer_games_per_client: 3, computer_only_games_per_client: 1, ..Limits::default() })
        .await;
    let ai = json!({ "kind": "computer", "player": "alphabeta:time=2s" });
    let only = json!({ "game": "abalone", "seats": [ai, ai] });
    let versus = json!({ "game": "abalone", "seats": [{ "kind": "human" }, ai] });
    // Games between computers, created without any token: one per client.
    let (st, v) = post_from("127.0.0.3", s.addr, "/api/games", only.clone()).await;
    assert_eq!(st, 201, "{v}");
    let (st, v) = post_from("127.0.0.3", s.addr, "/api/games", only.clone()).await;
    assert_eq!((st, v["code"].as_str()), (429, Some("too_many_computer_games")), "{v}");
    // Computer seats in all: three games per client.
    for _ in 0..2 {
        let (st, v) = post_from("127.0.0.3", s.addr, "/api/games", versus.clone()).await;
        assert_eq!(st, 201, "{v}");
    }
    let (st, v) = post_from("127.0.0.3", s.addr, "/api/games", versus.clone()).await;
    assert_eq!((st, v["code"].as_str()), (429, Some("too_many_computer_games")), "{v}");
    // Another client is not held up by the first one's games.
    let (st, v) = post_from("127.0.0.4", s.addr, "/api/games", versus.clone()).await;
    assert_eq!(st, 201, "{v}");
    // A game that ends gives its share back.
    let token = v["token"].as_str().unwrap();
    let (st, _) = post_from("127.0.0.4", s.addr, "/api/games", only.clone()).await;
    assert_eq!(st, 201);
    let id = v["id"].as_str().unwrap();
    let r = client::post(s.addr, &format!("/api/games/{id}/action"), Some(token), &json!({ "type": "resign" }))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    for _ in 0..2 {
        let (st, v) = post_from("127.0.0.4", s.addr, "/api/games", versus.clone()).await;
        assert_eq!(st, 201, "{v}");
    }
    // Budgets a client sets have caps: time, nodes, iterations; no panic on
    // absurd values.
    for (spec, code) in [
        ("alphabeta:time=11s", "bad_setup"),
        ("alphabeta:time=1e300s", "bad_setup"),
        ("alphabeta:time=inf", "bad_setup"),
        ("alphabeta:depth=4", "bad_setup"),
        ("alphabeta:time=1s,nodes=1000000000000", "bad_setup"),
        ("mcts:time=1s,iterations=1000000000000", "bad_setup"),
        ("ai:7", "bad_setup"),
    ] {
        let body = json!({ "game": "abalone", "seats": [{ "kind": "human" }, { "kind": "computer", "player": spec }] });
        let (st, v) = post_from("127.0.0.5", s.addr, "/api/games", body).await;
        assert_eq!((st, v["code"].as_str()), (400, Some(code)), "{spec}: {v}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_are_honest_everywhere() {
    let s = start().await;
    for bad in ["evil\u{202E}gnp.exe", "a\u{200B}b", "\u{FEFF}", "\u{3164}", "x\u{301}\u{302}\u{303}", ""] {
        let (st, v) = post(s.addr, "/api/games", None, json!({ "game": "abalone", "name": bad })).await;
        assert_eq!((st, v["code"].as_str()), (400, Some("bad_name")), "{bad:?}: {v}");
        let (id, _, _) = create(s.addr, json!({ "game": "abalone", "name": "Ann" })).await;
        let (st, v) = post(s.addr, &format!("/api/games/{id}/join"), None, json!({ "name": bad })).await;
        assert_eq!((st, v["code"].as_str()), (400, Some("bad_name")), "{bad:?}: {v}");
    }
    // NFC, one space between words, trimmed.
    let (id, _, created) = create(s.addr, json!({ "game": "abalone", "name": "  Ame\u{301}lie \u{3000} Po " })).await;
    assert_eq!(created["state"]["seats"][0]["player"], "Am\u{E9}lie Po");
    let (_, v) = post(s.addr, &format!("/api/games/{id}/join"), None, json!({ "name": "Zoe\u{308}" })).await;
    assert_eq!(v["state"]["seats"][1]["player"], "Zo\u{EB}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn work_budgets_in_options_have_a_cap_on_the_server() {
    let s = start().await;
    // Colorito's loser's score search: 10^12 nodes is refused (it would
    // search for hours); the cap is accepted, and the catalogue says it.
    let (_, cat) = get(s.addr, "/api/catalog", None).await;
    let colorito = cat["games"].as_array().unwrap().iter().find(|g| g["name"] == "colorito").unwrap();
    let opt = colorito["options"].as_array().unwrap().iter().find(|o| o["name"] == "score-nodes").unwrap();
    let cap = opt["kind"]["max"].as_i64().unwrap();
    assert!((1..1_000_000_000_000).contains(&cap), "{opt}");
    for path in ["/api/setup", "/api/games"] {
        for nodes in [json!(1_000_000_000_000u64), json!(cap + 1), json!((cap + 1).to_string())] {
            let (st, v) =
                post(s.addr, path, None, json!({ "game": "colorito", "options": { "score-nodes": nodes } })).await;
            assert_eq!((st, v["code"].as_str()), (400, Some("bad_setup")), "{path} {nodes}: {v}");
            assert!(v["message"].as_str().unwrap().contains("score-nodes"), "{v}");
        }
        let (st, v) = post(s.addr, path, None, json!({ "game": "colorito", "options": { "score-nodes": cap } })).await;
        assert!(st == 200 || st == 201, "{path}: {v}");
    }
}

/// `POST /api/games` with an `X-Forwarded-For` header, from 127.0.0.1.
async fn create_forwarded(addr: SocketAddr, forwarded: &str, body: &Value) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = body.to_string();
    let head = format!(
        "POST /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n\
         X-Forwarded-For: {forwarded}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    String::from_utf8_lossy(&raw).split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_proxy_clients_are_told_apart_by_the_forwarded_address() {
    // Searches that last: no game ends (and gives its share back) meanwhile.
    let ai = json!({ "kind": "computer", "player": "alphabeta:time=10s" });
    let only = json!({ "game": "abalone", "seats": [ai, ai] });
    // Not behind a proxy: the header is anybody's to write, and ignored.
    let limits = Limits { computer_only_games_per_client: 1, ..Limits::default() };
    let s = start_with(limits.clone()).await;
    assert_eq!(create_forwarded(s.addr, "10.0.0.1", &only).await, 201);
    assert_eq!(create_forwarded(s.addr, "10.0.0.2", &only).await, 429);
    // Behind a proxy on this machine: each forwarded address is a client
    // (the last one, which the proxy itself added).
    let s = start_with(Limits { behind_proxy: true, ..limits }).await;
    assert_eq!(create_forwarded(s.addr, "10.0.0.1", &only).await, 201);
    assert_eq!(create_forwarded(s.addr, "10.0.0.1", &only).await, 429);
    assert_eq!(create_forwarded(s.addr, "10.0.0.1, 10.0.0.2", &only).await, 201);
    assert_eq!(create_forwarded(s.addr, "10.0.0.9, 10.0.0.2", &only).await, 429);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_per_address_are_limited_but_not_the_interface_files() {
    let s = start_with(Limits { http_rate: 0.01, http_burst: 5.0, ..Limits::default() }).await;
    for _ in 0..5 {
        assert_eq!(get(s.addr, "/api/health", None).await.0, 200);
    }
    let (st, v) = get(s.addr, "/api/health", None).await;
    assert_eq!((st, v["code"].as_str()), (429, Some("rate_limited")), "{v}");
    // The web interface's files are served from memory and do not count (this
    // server has no interface merged in: they are 404, never 429).
    for _ in 0..20 {
        assert_eq!(plateau_client::get(s.addr, "/assets/js/app.js", None).await.unwrap().status, 404);
    }
    // Not a way round the limit: the API is still refused.
    assert_eq!(get(s.addr, "/api/health", None).await.0, 429);
}
