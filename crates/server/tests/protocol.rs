//! The protocol as clients meet it: reconnection, stale and illegal moves,
//! tokens, malformed and oversized input, and the actions off the board.

mod common;

use std::time::Duration;

use common::*;
use plateau_client::{self as client, Incoming};
use plateau_server::Limits;
use serde_json::{Value, json};

/// A live two-player Abalone game: (id, Black's client, White's client, tokens).
async fn live_game(s: &TestServer, options: Value) -> (String, Client, Client, String, String) {
    let (id, t0, _) = create(s.addr, json!({ "game": "abalone", "options": options, "name": "Ann" })).await;
    let t0 = t0.unwrap();
    let (_, t1) = join(s.addr, &id, "Bob").await;
    let (a, _) = Client::open(s.addr, &id, Some(&t0), None).await;
    let (b, _) = Client::open(s.addr, &id, Some(&t1), None).await;
    (id, a, b, t0, t1)
}

/// The mover plays its first legal move; both see it. Returns the new version.
async fn play_one(mover: &mut Client, other: &mut Client) -> u64 {
    let mv = mover.legal.clone().expect("to move")[0].clone();
    let v = mover.version;
    mover.send(json!({ "type": "move", "move": mv, "version": v })).await;
    mover.until_version(v + 1).await;
    other.until_version(v + 1).await;
    v + 1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_socket_catches_up_or_resyncs() {
    let limits = Limits { catchup: 4, ..Limits::default() };
    let s = start_with(limits).await;
    let (id, mut a, mut b, _t0, t1) = live_game(&s, json!({})).await;
    play_one(&mut a, &mut b).await;
    // White's socket drops; Black and a new White socket go on.
    let seen = b.version;
    drop(b);
    let (mut b2, _) = Client::open(s.addr, &id, Some(&t1), None).await;
    play_one(&mut b2, &mut a).await;
    play_one(&mut a, &mut b2).await;
    drop(b2);
    // Reconnecting with the last version seen: the missing events, in order.
    let (b3, w) = Client::open(s.addr, &id, Some(&t1), Some(seen)).await;
    assert_eq!(w["resync"], false, "{w}");
    let evs = w["events"].as_array().unwrap();
    assert_eq!(evs.len() as u64, w["state"]["version"].as_u64().unwrap() - seen);
    assert_eq!(evs[0]["version"], seen + 1);
    assert!(evs.iter().all(|e| e["kind"] == "move"));
    assert_eq!(w["state"]["history"].as_array().unwrap().len(), 3);
    assert!(b3.legal.is_some(), "White is to move and gets its legal moves: {w}");
    drop(b3);
    // Too far behind: a full resync.
    for _ in 0..3 {
        let (mut bx, _) = Client::open(s.addr, &id, Some(&t1), None).await;
        play_one(&mut bx, &mut a).await;
        play_one(&mut a, &mut bx).await;
    }
    let (_, w) = Client::open(s.addr, &id, Some(&t1), Some(seen)).await;
    assert_eq!(w["resync"], true, "{w}");
    assert!(w.get("events").is_none());
    assert_eq!(w["state"]["history"].as_array().unwrap().len(), 9);
    // A version from the future (another server's?) is a resync too.
    let (_, w) = Client::open(s.addr, &id, Some(&t1), Some(1_000_000)).await;
    assert_eq!(w["resync"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_illegal_and_out_of_turn_moves_are_refused_with_the_state() {
    let s = start().await;
    let (_id, mut a, mut b, _, _) = live_game(&s, json!({})).await;
    let first = a.legal.clone().unwrap();
    let v0 = a.version;
    // Out of turn.
    b.send(json!({ "type": "move", "move": first[0], "version": b.version })).await;
    let e = b.until("error").await;
    assert_eq!(e["code"], "not_your_turn", "{e}");
    assert_eq!(e["state"]["version"], v0);
    // Not a move at all, and an illegal one.
    a.send(json!({ "type": "move", "move": "zz99", "version": v0 })).await;
    let e = a.until("error").await;
    assert_eq!(e["code"], "bad_move", "{e}");
    assert!(e["state"]["legal_moves"].is_array());
    a.send(json!({ "type": "move", "move": "a1a2", "version": v0 })).await;
    let e = a.until("error").await;
    assert!(e["code"] == "illegal_move" || e["code"] == "bad_move", "{e}");
    assert!(!e["message"].as_str().unwrap().is_empty());
    // Nothing changed.
    let v = play_one(&mut a, &mut b).await;
    assert_eq!(v, v0 + 1);
    // A move chosen on an old version is stale.
    let mv = b.legal.clone().unwrap()[0].clone();
    b.send(json!({ "type": "move", "move": mv, "version": v0 })).await;
    let e = b.until("error").await;
    assert_eq!(e["code"], "stale_version", "{e}");
    assert_eq!(e["state"]["version"], v);
    assert_eq!(e["state"]["legal_moves"].as_array().unwrap().len(), b.legal.as_ref().unwrap().len());
    // The current version goes through.
    b.send(json!({ "type": "move", "move": mv, "version": v })).await;
    let u = a.until_version(v + 1).await;
    assert_eq!(u["events"][0]["move"], mv.as_str());
    // An offer of a draw does not make a move stale (it changes no position).
    a.send(json!({ "type": "offer_draw" })).await;
    b.until_version(v + 2).await;
    let mv = a.legal.clone().unwrap()[0].clone();
    a.send(json!({ "type": "move", "move": mv, "version": v + 1 })).await;
    let u = b.until_version(v + 3).await;
    assert_eq!(u["events"][0]["kind"], "move", "{u}");
    assert_eq!(u["draw_offers"], json!([]), "a move withdraws the draw offers");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_seats_token_acts_for_it() {
    let s = start().await;
    let (id, mut a, _b, t0, _t1) = live_game(&s, json!({})).await;
    // A wrong token on the socket: an error, then the socket is closed.
    let mut ws = client::connect(s.addr, &id).await.unwrap();
    let fake = plateau_server::ids::new_token().unwrap();
    client::send(&mut ws, &json!({ "type": "hello", "token": fake })).await.unwrap();
    let v = client::recv_json(&mut ws, WAIT).await.unwrap();
    assert_eq!(v["code"], "bad_token", "{v}");
    assert!(matches!(client::recv(&mut ws, WAIT).await, Incoming::Closed(_)));
    // A wrong token over HTTP.
    let mv = a.legal.clone().unwrap()[0].clone();
    let (st, e) = post(
        s.addr,
        &format!("/api/games/{id}/action"),
        Some(&fake),
        json!({ "type": "move", "move": mv, "version": 2 }),
    )
    .await;
    assert_eq!((st, e["code"].as_str()), (401, Some("bad_token")), "{e}");
    let (st, e) = post(s.addr, &format!("/api/games/{id}/action"), None, json!({ "type": "resign" })).await;
    assert_eq!((st, e["code"].as_str()), (401, Some("bad_token")));
    let r = client::request_raw(s.addr, "GET", &format!("/api/games/{id}"), Some("not a token!"), b"").await.unwrap();
    assert_eq!(r.status, 401);
    // A spectator reads only.
    let (mut spec, w) = Client::open(s.addr, &id, None, None).await;
    assert!(w["you"].is_null());
    spec.send(json!({ "type": "move", "move": mv, "version": w["state"]["version"] })).await;
    let e = spec.until("error").await;
    assert_eq!(e["code"], "read_only", "{e}");
    spec.send(json!({ "type": "resign" })).await;
    assert_eq!(spec.until("error").await["code"], "read_only");
    // The right token over HTTP plays, and the sockets see it.
    let v = a.version;
    let (st, r) = post(
        s.addr,
        &format!("/api/games/{id}/action"),
        Some(&t0),
        json!({ "type": "move", "move": mv, "version": v }),
    )
    .await;
    assert_eq!(st, 200, "{r}");
    assert_eq!(r["version"], v + 1);
    let u = a.until_version(v + 1).await;
    assert_eq!(u["events"][0]["move"], mv.as_str());
    // Tokens are stored hashed: the database never holds one.
    for bytes in database_bytes(&s).await {
        assert!(!bytes.windows(t0.len()).any(|w| w == t0.as_bytes()), "a token in the database");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_and_oversized_input_is_refused_and_the_server_goes_on() {
    let limits = Limits { max_frame: 4096, max_body: 8192, ..Limits::default() };
    let s = start_with(limits).await;
    let (id, mut a, mut b, t0, _) = live_game(&s, json!({})).await;
    // Malformed messages: an error each, the socket stays.
    for bad in ["not json", "{}", "[1,2]", r#"{"type":"fly"}"#, r#"{"type":"move","move":5,"version":1}"#, "\"\u{0}\""]
    {
        a.ws_send_raw(bad).await;
        let e = a.until("error").await;
        assert_eq!(e["code"], "bad_message", "{bad}: {e}");
    }
    a.send(json!({ "type": "hello" })).await;
    assert_eq!(a.until("error").await["code"], "bad_message");
    a.send(json!({ "type": "ping" })).await;
    assert_eq!(a.until("pong").await["type"], "pong");
    // A long move text.
    a.send(json!({ "type": "move", "move": "a".repeat(1000), "version": a.version })).await;
    assert_eq!(a.until("error").await["code"], "bad_move");
    // An oversized message closes that socket only.
    a.ws_send_raw(&format!("{{\"type\":\"move\",\"move\":\"{}\",\"version\":1}}", "x".repeat(10_000))).await;
    loop {
        match a.incoming(WAIT).await {
            Incoming::Closed(code) => {
                assert!(code.is_none() || code == Some(1009), "{code:?}");
                break;
            }
            Incoming::Timeout => panic!("the socket stayed open"),
            Incoming::Frame(..) => {}
        }
    }
    // The game goes on.
    let (mut a2, _) = Client::open(s.addr, &id, Some(&t0), None).await;
    play_one(&mut a2, &mut b).await;
    // A first message that is not a hello.
    let mut ws = client::connect(s.addr, &id).await.unwrap();
    client::send(&mut ws, &json!({ "type": "resign" })).await.unwrap();
    assert_eq!(client::recv_json(&mut ws, WAIT).await.unwrap()["code"], "bad_message");
    // HTTP: malformed, unknown fields, oversized, unknown routes and methods: JSON errors.
    let cases: Vec<(&str, String, Vec<u8>, u16, &str)> = vec![
        ("POST", "/api/games".into(), b"{bad".to_vec(), 400, "bad_json"),
        ("POST", "/api/games".into(), br#"{"game":"abalone","colour":"red"}"#.to_vec(), 400, "bad_json"),
        ("POST", "/api/games".into(), br#"{"game":"chess"}"#.to_vec(), 400, "bad_setup"),
        (
            "POST",
            "/api/games".into(),
            br#"{"game":"abalone","options":{"marbles-to-win":99}}"#.to_vec(),
            400,
            "bad_setup",
        ),
        ("POST", "/api/games".into(), br#"{"game":"abalone","seats":[{"kind":"human"}]}"#.to_vec(), 400, "bad_setup"),
        (
            "POST",
            "/api/games".into(),
            br#"{"game":"abalone","seats":[{"kind":"human"},{"kind":"computer","player":"alphabeta"}]}"#.to_vec(),
            400,
            "bad_setup",
        ),
        (
            "POST",
            "/api/games".into(),
            format!("{{\"game\":\"{}\"}}", "x".repeat(20_000)).into_bytes(),
            413,
            "too_large",
        ),
        ("POST", "/api/games".into(), br#"{"game":"abalone","name":"a\u0007b"}"#.to_vec(), 400, "bad_name"),
        ("GET", "/api/games/nope".into(), vec![], 404, "not_found"),
        ("GET", "/api/games/..%2F..".into(), vec![], 404, "not_found"),
        ("GET", "/api/games?status=lost".into(), vec![], 400, "bad_query"),
        ("GET", "/api/games?limit=100000".into(), vec![], 400, "bad_query"),
        ("GET", "/api/games?cursor=zz".into(), vec![], 400, "bad_query"),
        ("GET", format!("/api/games/{id}/position?ply=99"), vec![], 400, "bad_ply"),
        ("GET", format!("/api/games/{id}/position?ply=-1"), vec![], 400, "bad_query"),
        ("GET", format!("/api/games/{id}/record?format=pdf"), vec![], 400, "bad_query"),
        ("POST", format!("/api/games/{id}/join"), vec![], 409, "not_open"),
        ("GET", "/nowhere".into(), vec![], 404, "not_found"),
        ("DELETE", "/api/games".into(), vec![], 405, "method_not_allowed"),
        ("GET", format!("/api/games/{id}/ws"), vec![], 400, "bad_request"),
    ];
    for (method, path, body, status, code) in cases {
        let r = client::request_raw(s.addr, method, &path, None, &body).await.unwrap();
        assert_eq!(r.status, status, "{method} {path}: {}", r.body);
        assert!(r.header("content-type").unwrap_or("").starts_with("application/json"), "{path}");
        let v = r.json();
        assert_eq!(v["code"], code, "{method} {path}: {}", r.body);
        assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()), "{path}");
    }
    // Still serving.
    let (st, _) = get(s.addr, "/api/health", None).await;
    assert_eq!(st, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_messages_is_rate_limited() {
    let limits = Limits { ws_rate: 5.0, ws_burst: 10.0, http_rate: 5.0, http_burst: 10.0, ..Limits::default() };
    let s = start_with(limits).await;
    let (id, mut a, _b, _, _) = live_game(&s, json!({})).await;
    for _ in 0..30 {
        a.send(json!({ "type": "ping" })).await;
    }
    let mut limited = 0;
    let mut pongs = 0;
    while limited + pongs < 30 {
        let v = a.next().await;
        match v["type"].as_str() {
            Some("pong") => pongs += 1,
            Some("error") if v["code"] == "rate_limited" => limited += 1,
            _ => {}
        }
    }
    assert!(limited >= 15, "{limited} limited");
    assert!(pongs >= 10);
    // HTTP requests are limited per client address, not per connection:
    // each request here is a new connection, and past the burst they are
    // refused; another address is not held up.
    let mut refused = 0;
    for _ in 0..40 {
        let (st, _) = get(s.addr, &format!("/api/games/{id}"), None).await;
        assert!(st == 200 || st == 429, "{st}");
        refused += usize::from(st == 429);
    }
    assert!(refused >= 15, "{refused} of 40 refused");
    let other: std::net::IpAddr = "127.0.0.2".parse().unwrap();
    let r = client::request_from(Some(other), s.addr, "GET", &format!("/api/games/{id}"), None, b"").await.unwrap();
    assert_eq!(r.status, 200);
}

/// A binary frame is answered `bad_message` and changes nothing; a player
/// who stays silent (no frame, not even the answer to the server's pings)
/// is closed with 1008, and the game goes on for the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn binary_frames_are_refused_and_silent_sockets_closed() {
    use futures_util::SinkExt;
    // The binary frame on a server with the default silence (90 s), so that
    // a slow machine cannot close the socket before it is sent.
    let s = start().await;
    let (_, mut a, _b, _, _) = live_game(&s, json!({})).await;
    a.ws.send(tokio_tungstenite::tungstenite::Message::binary(vec![1u8, 2, 3])).await.unwrap();
    let e = loop {
        let v = a.next().await;
        if v["type"] == "error" {
            break v;
        }
    };
    assert_eq!(e["code"], "bad_message", "{e}");
    // Silence on a server that allows a second of it.
    let s = start_with(Limits { idle_socket: Duration::from_secs(1), ..Limits::default() }).await;
    let (id, mut a, _b, _, _) = live_game(&s, json!({})).await;
    let before = a.version;
    assert!(closed_for_silence(&mut a.ws, 1008, "silent for too long").await);
    let (st, v) = get(s.addr, &format!("/api/games/{id}"), None).await;
    assert_eq!(st, 200);
    assert_eq!((v["status"].as_str(), v["version"].as_u64()), (Some("live"), Some(before)), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resign_draws_abort_leave_and_rematch() {
    let s = start().await;
    // Abort before the first move: only by the game's creator (seat 0 here);
    // the player who joined may leave instead.
    let (id, mut a, mut b, _, _) = live_game(&s, json!({})).await;
    b.send(json!({ "type": "abort" })).await;
    let e = b.until("error").await;
    assert_eq!(e["code"], "not_creator", "{e}");
    a.send(json!({ "type": "abort" })).await;
    let u = a.until("update").await;
    assert_eq!(u["status"], "aborted");
    assert_eq!(u["events"][0]["kind"], "abort");
    b.until("update").await;
    a.send(json!({ "type": "move", "move": "a1b2", "version": u["version"] })).await;
    assert_eq!(a.until("error").await["code"], "game_over");
    let (_, list) = get(s.addr, "/api/games?status=aborted", None).await;
    assert!(list["games"].as_array().unwrap().iter().any(|g| g["id"] == id.as_str()));

    // Not after the first move.
    let (id2, mut a, mut b, ta, tb) = live_game(&s, json!({})).await;
    play_one(&mut a, &mut b).await;
    a.send(json!({ "type": "abort" })).await;
    assert_eq!(a.until("error").await["code"], "too_late");
    // Draws: offered, declined, offered again and accepted.
    a.send(json!({ "type": "accept_draw" })).await;
    assert_eq!(a.until("error").await["code"], "no_draw_offer");
    a.send(json!({ "type": "offer_draw" })).await;
    let u = b.until("update").await;
    assert_eq!(u["events"][0]["kind"], "draw_offer");
    assert_eq!(u["draw_offers"], json!([0]));
    a.send(json!({ "type": "offer_draw" })).await;
    assert_eq!(a.until("error").await["code"], "already_offered");
    b.send(json!({ "type": "decline_draw" })).await;
    let u = a.until("update").await;
    assert_eq!(u["events"][0]["kind"], "draw_decline");
    assert_eq!(u["draw_offers"], json!([]));
    b.send(json!({ "type": "offer_draw" })).await;
    a.until("update").await;
    a.send(json!({ "type": "accept_draw" })).await;
    let u = b.until_version(a.version + 1).await;
    let u = if u["status"] == "finished" { u } else { b.until("update").await };
    assert_eq!(u["status"], "finished", "{u}");
    assert_eq!(u["result"]["result"], "1/2-1/2");
    assert_eq!(u["result"]["reason"], "agreement");
    a.until("update").await;

    // Rematch: both ask; the seats are swapped; the same tokens play on.
    let old_version = a.version;
    a.send(json!({ "type": "rematch" })).await;
    let u = b.until_version(old_version + 1).await;
    assert_eq!(u["events"][0]["kind"], "rematch_offer");
    b.send(json!({ "type": "rematch" })).await;
    let u = a.until_version(old_version + 3).await;
    let new_id = u["rematch"].as_str().expect("rematch id").to_string();
    assert!(u["events"].as_array().unwrap().iter().any(|e| e["kind"] == "rematch"));
    let (st, v) = get(s.addr, &format!("/api/games/{new_id}"), None).await;
    assert_eq!(st, 200);
    assert_eq!(v["status"], "live");
    assert_eq!(v["rematch_of"], id2.as_str());
    assert_eq!((&v["seats"][0]["player"], &v["seats"][1]["player"]), (&json!("Bob"), &json!("Ann")));
    // The same tokens, the seats swapped.
    let (mut na, w) = Client::open(s.addr, &new_id, Some(&ta), None).await;
    assert_eq!(w["you"], 1);
    let (mut nb, w) = Client::open(s.addr, &new_id, Some(&tb), None).await;
    assert_eq!(w["you"], 0);
    play_one(&mut nb, &mut na).await;

    // Resignation of a live game, and the record says so.
    let (id, mut a, mut b, t0, _) = live_game(&s, json!({})).await;
    play_one(&mut a, &mut b).await;
    b.send(json!({ "type": "resign" })).await;
    let u = a.until("update").await;
    let u = if u["status"] == "finished" { u } else { a.until("update").await };
    assert_eq!(u["result"]["result"], "1-0", "{u}");
    assert_eq!(u["result"]["reason"], "resignation");
    let r = client::get(s.addr, &format!("/api/games/{id}/record?format=text"), Some(&t0)).await.unwrap();
    assert!(r.body.contains("[Result \"1-0\"]") && r.body.contains("[Termination \"resignation\"]"), "{}", r.body);
    assert!(r.body.contains("[Black \"Ann\"]") && r.body.contains("[White \"Bob\"]"), "{}", r.body);
    b.send(json!({ "type": "resign" })).await;
    assert_eq!(b.until("error").await["code"], "game_over");

    // Leave before the first move: the seat opens again and the game waits
    // for a player again; the last person leaving aborts it; after the first
    // move, leaving is too late.
    let (id, t0, _) = create(s.addr, json!({ "game": "abalone", "name": "Cy" })).await;
    let t0 = t0.unwrap();
    let (seat, t1) = join(s.addr, &id, "Di").await;
    assert_eq!(seat, 1);
    let (mut c, w) = Client::open(s.addr, &id, Some(&t0), None).await;
    assert_eq!(w["state"]["status"], "live");
    let (mut d, _) = Client::open(s.addr, &id, Some(&t1), None).await;
    d.send(json!({ "type": "leave" })).await;
    let u = c.until("update").await;
    assert_eq!(u["status"], "open", "{u}");
    assert_eq!(u["seats"][1]["open"], true, "{u}");
    let (seat, t2) = join(s.addr, &id, "Ed").await;
    assert_eq!(seat, 1);
    let (mut e, _) = Client::open(s.addr, &id, Some(&t2), None).await;
    c.until("update").await;
    play_one(&mut c, &mut e).await;
    c.send(json!({ "type": "leave" })).await;
    assert_eq!(c.until("error").await["code"], "too_late");
    let (id, t0, _) = create(s.addr, json!({ "game": "abalone", "name": "Cy", "seat": 1 })).await;
    let (mut c, w) = Client::open(s.addr, &id, t0.as_deref(), None).await;
    assert_eq!(w["you"], 1);
    assert_eq!(w["state"]["seats"][0]["open"], true);
    c.send(json!({ "type": "leave" })).await;
    let u = c.until("update").await;
    assert_eq!(u["status"], "aborted", "{u}");
    let _ = t1;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_describes_the_games_and_pages_lists() {
    let s = start().await;
    let (st, cat) = get(s.addr, "/api/catalog", None).await;
    assert_eq!(st, 200);
    let games = cat["games"].as_array().unwrap();
    assert_eq!(games.len(), plateau_games::registry().games().count());
    for g in games {
        assert!(g["variants"].as_array().is_some_and(|v| !v.is_empty()), "{g}");
        // Every game of the catalogue has computer players, at six levels.
        assert!(plateau_games::players(g["name"].as_str().unwrap()).is_ok(), "{g}");
        assert_eq!(g["levels"].as_array().map(Vec::len), Some(6), "{g}");
    }
    let (st, setup) = post(s.addr, "/api/setup", None, json!({ "game": "abalone", "variant": "belgian-daisy" })).await;
    assert_eq!(st, 200, "{setup}");
    assert_eq!(setup["seats"].as_array().unwrap().len(), 2);
    // Paging: 5 open games, 2 a page. Games made within the same
    // millisecond tie on `updated_at` and are ordered by id, so the expected
    // order is read from the listing's own fields, not from the order of
    // creation (which would need the clock to tick between creations).
    let mut made = Vec::new();
    for _ in 0..5 {
        made.push(create(s.addr, json!({ "game": "abalone" })).await.0);
    }
    let (st, all) = get(s.addr, "/api/games?status=open&limit=100", None).await;
    assert_eq!(st, 200, "{all}");
    let mut keyed: Vec<(i64, String)> = all["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["updated_at"].as_i64().unwrap(), g["id"].as_str().unwrap().to_string()))
        .collect();
    let mut listed: Vec<String> = keyed.iter().map(|(_, id)| id.clone()).collect();
    listed.sort();
    made.sort();
    assert_eq!(listed, made, "the open games are the ones made");
    keyed.sort_by(|a, b| b.cmp(a));
    let ids: Vec<String> = keyed.into_iter().map(|(_, id)| id).collect();
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            Some(c) => format!("/api/games?status=open&limit=2&cursor={c}"),
            None => "/api/games?status=open&limit=2".into(),
        };
        let (st, page) = get(s.addr, &path, None).await;
        assert_eq!(st, 200, "{page}");
        for g in page["games"].as_array().unwrap() {
            seen.push(g["id"].as_str().unwrap().to_string());
        }
        match page["next"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    assert_eq!(seen, ids, "newest first (then by id), each once");
    // The index page and the docs.
    let r = client::get(s.addr, "/", None).await.unwrap();
    assert_eq!(r.status, 200);
    assert!(r.body.contains("/api/docs"));
    let r = client::get(s.addr, "/api/docs", None).await.unwrap();
    assert_eq!(r.status, 200);
    let (_, stats) = get(s.addr, "/api/stats", None).await;
    assert!(stats["commits"].as_u64().unwrap() > 0);
    let _: Value = stats;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_game_leaves_memory_and_comes_back_intact() {
    let limits = Limits {
        idle_live: Duration::from_millis(200),
        idle_finished: Duration::from_millis(200),
        ..Limits::default()
    };
    let s = start_with(limits).await;
    let (id, mut a, mut b, t0, t1) = live_game(&s, json!({})).await;
    play_one(&mut a, &mut b).await;
    play_one(&mut b, &mut a).await;
    a.send(json!({ "type": "offer_draw" })).await;
    b.until("update").await;
    let version = a.until("update").await["version"].as_u64().unwrap();
    drop((a, b));
    let t = std::time::Instant::now();
    loop {
        let (_, st) = get(s.addr, "/api/stats", None).await;
        if st["games_in_memory"] == 0 {
            break;
        }
        assert!(t.elapsed() < WAIT, "the game stayed in memory: {st}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Loaded again from the database: same moves, same draw offer, same tokens.
    let (mut a, w) = Client::open(s.addr, &id, Some(&t0), Some(version)).await;
    assert_eq!(w["resync"], false);
    assert_eq!(w["state"]["version"], version);
    assert_eq!(w["state"]["history"].as_array().unwrap().len(), 2);
    assert_eq!(w["state"]["draw_offers"], json!([0]));
    let (mut b, _) = Client::open(s.addr, &id, Some(&t1), None).await;
    b.send(json!({ "type": "accept_draw" })).await;
    let u = a.until("update").await;
    let u = if u["status"] == "finished" { u } else { a.until("update").await };
    assert_eq!(u["result"]["result"], "1/2-1/2", "{u}");
}
