//! Chat and takebacks through the real server and sockets: the two rooms and
//! who reads each, logged-in spectators, the limits on messages, chat and
//! takebacks surviving a restart, the plies a takeback undoes, declines and
//! refusals, a move withdrawing the request, and takebacks against a
//! computer seat (its search in progress ignored).
//!
//! Expected values are worked out by hand from the rules of the contract
//! (docs/server.md, "Chat and takebacks"), never read back from the server.

mod common;

use std::time::Duration;

use common::*;
use plateau_client::{self as client, Incoming};
use serde_json::{Value, json};

/// A live two-player Abalone game: (id, Ann's client (seat 0, Black, first
/// to move), Bob's client (seat 1), tokens).
async fn live_game(addr: std::net::SocketAddr) -> (String, Client, Client, String, String) {
    let (id, t0, _) = create(addr, json!({ "game": "abalone", "name": "Ann" })).await;
    let t0 = t0.unwrap();
    let (_, t1) = join(addr, &id, "Bob").await;
    let (a, _) = Client::open(addr, &id, Some(&t0), None).await;
    let (b, _) = Client::open(addr, &id, Some(&t1), None).await;
    (id, a, b, t0, t1)
}

/// The mover plays its `i`-th legal move; both see it. Returns the move.
async fn play(mover: &mut Client, other: &mut Client, i: usize) -> String {
    let mv = mover.legal.clone().expect("to move")[i].clone();
    let v = mover.version;
    mover.send(json!({ "type": "move", "move": mv, "version": v })).await;
    let u = mover.until_version(v + 1).await;
    assert_eq!(u["events"][0]["move"], mv.as_str(), "{u}");
    other.until_version(v + 1).await;
    mv
}

/// Read frames until one of type `ty`, asserting that no chat frame comes
/// before it.
async fn no_chat_until(c: &mut Client, ty: &str) -> Value {
    loop {
        let v = c.next().await;
        assert_ne!(v["type"], "chat", "this reader must not see that room: {v}");
        if v["type"] == ty {
            return v;
        }
    }
}

/// Nothing of that room reached `c`: a `sync` answers through the game's
/// task after every message it handled, so any chat frame would come first.
async fn saw_no_chat(c: &mut Client) {
    c.send(json!({ "type": "sync" })).await;
    no_chat_until(c, "state").await;
}

/// The next error frame (other frames skipped).
async fn error(c: &mut Client) -> Value {
    c.until("error").await
}

/// Sign up; returns the session cookie (`plateau_session=…`).
async fn sign_up(addr: std::net::SocketAddr, name: &str) -> String {
    let r =
        client::post(addr, "/api/accounts", None, &json!({ "name": name, "password": "correct horse" })).await.unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    r.header("set-cookie").expect("a session cookie").split(';').next().unwrap().to_string()
}

/// Open a game's socket with these headers (a browser's cookie and origin)
/// and say hello without a token.
async fn open_with(addr: std::net::SocketAddr, id: &str, headers: &[(&'static str, String)]) -> (Client, Value) {
    let mut c = ws_with(addr, id, headers).await;
    c.send(json!({ "type": "hello" })).await;
    let w = c.next().await;
    assert_eq!(w["type"], "welcome", "{w}");
    (c, w)
}

/// A logged-in spectator's socket, as a page of the server opens it.
async fn open_logged_in(addr: std::net::SocketAddr, id: &str, cookie: &str) -> (Client, Value) {
    open_with(addr, id, &[("cookie", cookie.to_string()), ("origin", format!("http://{addr}"))]).await
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().unwrap_or_else(|| panic!("not an array: {v}")).iter().map(|x| x.as_str().unwrap().into()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_chat_reaches_the_players_and_no_spectator() {
    let s = start().await;
    let (id, mut a, mut b, _t0, t1) = live_game(s.addr).await;
    let (mut spec, w) = Client::open(s.addr, &id, None, None).await;
    assert_eq!(w["chat"], json!([]), "{w}");
    a.send(json!({ "type": "chat", "text": "  good luck, Bob!  " })).await;
    let m = b.until("chat").await;
    let at = m["at"].as_i64().unwrap();
    assert!(at > 1_700_000_000_000, "{m}");
    assert_eq!(
        m,
        json!({ "type": "chat", "room": "players", "seat": 0, "name": "Ann", "text": "good luck, Bob!", "at": at })
    );
    // The writer reads its own message too.
    assert_eq!(a.until("chat").await, m);
    b.send(json!({ "type": "chat", "text": "thanks <b>Ann</b> & good luck" })).await;
    let m2 = a.until("chat").await;
    assert_eq!(
        (&m2["seat"], &m2["name"], &m2["text"]),
        (&json!(1), &json!("Bob"), &json!("thanks <b>Ann</b> & good luck"))
    );
    b.until("chat").await;
    // The spectator saw neither.
    saw_no_chat(&mut spec).await;
    // A player's new socket reads the room's messages in its welcome; a new
    // spectator reads none of them.
    let (_, w) = Client::open(s.addr, &id, Some(&t1), None).await;
    let texts: Vec<&Value> = w["chat"].as_array().unwrap().iter().map(|m| &m["text"]).collect();
    assert_eq!(texts, [&json!("good luck, Bob!"), &json!("thanks <b>Ann</b> & good luck")], "{w}");
    assert_eq!(
        w["chat"][0],
        json!({ "room": "players", "seat": 0, "name": "Ann", "text": "good luck, Bob!", "at": at })
    );
    let (_, w) = Client::open(s.addr, &id, None, None).await;
    assert_eq!(w["chat"], json!([]));
    // Chat is not an event: the version did not move.
    assert_eq!(w["state"]["version"], a.version);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_chat_reaches_spectators_only_and_only_the_logged_in_write() {
    let s = start().await;
    let (id, mut a, _b, _, _) = live_game(s.addr).await;
    let cookie = sign_up(s.addr, "Lena").await;
    let (mut lena, w) = open_logged_in(s.addr, &id, &cookie).await;
    assert_eq!(w["you"], Value::Null, "an account with no seat here watches: {w}");
    let (mut guest, _) = Client::open(s.addr, &id, None, None).await;
    lena.send(json!({ "type": "chat", "text": "what a push" })).await;
    let m = guest.until("chat").await;
    let at = m["at"].as_i64().unwrap();
    assert_eq!(
        m,
        json!({ "type": "chat", "room": "spectators", "seat": null, "name": "Lena", "text": "what a push", "at": at })
    );
    assert_eq!(lena.until("chat").await, m);
    // The players saw nothing of it.
    saw_no_chat(&mut a).await;
    // A guest spectator may read but not write.
    guest.send(json!({ "type": "chat", "text": "hello?" })).await;
    let e = no_chat_until(&mut guest, "error").await;
    assert_eq!(e["code"], "login_required", "{e}");
    saw_no_chat(&mut lena).await;
    // The session cookie from another site's page does not log a socket in
    // (another site cannot write as its visitor).
    let evil = [("cookie", cookie.clone()), ("origin", "http://evil.example".to_string())];
    let (mut forged, _) = open_with(s.addr, &id, &evil).await;
    forged.send(json!({ "type": "chat", "text": "spam" })).await;
    assert_eq!(no_chat_until(&mut forged, "error").await["code"], "login_required");
    // Spectators' messages are in a new spectator's welcome, never a player's.
    let (_, w) = Client::open(s.addr, &id, None, None).await;
    assert_eq!(
        w["chat"],
        json!([{ "room": "spectators", "seat": null, "name": "Lena", "text": "what a push", "at": at }])
    );
    a.send(json!({ "type": "chat", "text": "gg" })).await;
    a.until("chat").await;
    let (_, w) = Client::open(s.addr, &id, None, None).await;
    assert_eq!(w["chat"].as_array().unwrap().len(), 1, "{w}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_are_checked_and_rate_limited() {
    let s = start().await;
    let (id, mut a, mut b, t0, _) = live_game(s.addr).await;
    // 301 characters: refused; 300 two-byte characters (600 bytes): fine.
    a.send(json!({ "type": "chat", "text": "x".repeat(301) })).await;
    assert_eq!(no_chat_until(&mut a, "error").await["code"], "bad_chat");
    let long = "é".repeat(300);
    a.send(json!({ "type": "chat", "text": long })).await;
    assert_eq!(b.until("chat").await["text"], long.as_str());
    a.until("chat").await;
    // Spaces around are trimmed before counting.
    a.send(json!({ "type": "chat", "text": format!("   {}   ", "y".repeat(300)) })).await;
    assert_eq!(b.until("chat").await["text"], "y".repeat(300));
    a.until("chat").await;
    for bad in
        ["", "    ", "two\nlines", "a\rb", "tab\there", "bell\u{7}", "evil\u{202E}txt", "zero\u{200B}width", "\u{FEFF}"]
    {
        a.send(json!({ "type": "chat", "text": bad })).await;
        let e = no_chat_until(&mut a, "error").await;
        assert_eq!(e["code"], "bad_chat", "{bad:?}: {e}");
        assert!(!e["message"].as_str().unwrap().is_empty());
    }
    a.send(json!({ "type": "chat" })).await;
    assert_eq!(no_chat_until(&mut a, "error").await["code"], "bad_message");
    // Nothing refused reached the other player.
    saw_no_chat(&mut b).await;
    // One message a second, five in a burst, per socket: Ann's new socket
    // sends seven at once; the first five pass, the last two are refused.
    let (mut a2, _) = Client::open(s.addr, &id, Some(&t0), None).await;
    for i in 0..7 {
        a2.send(json!({ "type": "chat", "text": format!("burst {i}") })).await;
    }
    let mut passed = Vec::new();
    let mut refused = 0;
    while passed.len() + refused < 7 {
        let v = a2.next().await;
        match v["type"].as_str() {
            Some("chat") => passed.push(v["text"].as_str().unwrap().to_string()),
            Some("error") => {
                assert_eq!(v["code"], "chat_rate", "{v}");
                refused += 1;
            }
            _ => {}
        }
    }
    assert_eq!(passed, ["burst 0", "burst 1", "burst 2", "burst 3", "burst 4"]);
    assert_eq!(refused, 2);
    // Bob read the five, in order.
    for i in 0..5 {
        assert_eq!(b.until("chat").await["text"], format!("burst {i}"));
    }
    // Each socket has its own bucket: Ann's first socket still writes.
    a.send(json!({ "type": "chat", "text": "from the first tab" })).await;
    assert_eq!(b.until("chat").await["text"], "from the first tab");
    // A second later, the new socket writes again.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    a2.send(json!({ "type": "chat", "text": "later" })).await;
    assert_eq!(b.until("chat").await["text"], "later");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn player_chat_survives_a_restart() {
    let dir = temp_dir("chat-restart");
    let server = plateau_server::start(config(&dir)).await.unwrap();
    let addr = server.addr();
    let (id, t0, _) = create(addr, json!({ "game": "abalone", "name": "Ann" })).await;
    let t0 = t0.unwrap();
    let (_, t1) = join(addr, &id, "Bob").await;
    // 55 messages, five from each of eleven sockets (each has its own
    // bucket), the seats in turn: message k is "m{k}" from seat k / 5 % 2.
    let mut k = 0;
    for round in 0..11 {
        let token = if round % 2 == 0 { &t0 } else { &t1 };
        let (mut c, _) = Client::open(addr, &id, Some(token), None).await;
        for _ in 0..5 {
            c.send(json!({ "type": "chat", "text": format!("m{k}") })).await;
            k += 1;
        }
        let mut got = 0;
        while got < 5 {
            if c.next().await["type"] == "chat" {
                got += 1;
            }
        }
    }
    // A spectator's message is not kept.
    let cookie = sign_up(addr, "Lena").await;
    let (mut lena, _) = open_logged_in(addr, &id, &cookie).await;
    lena.send(json!({ "type": "chat", "text": "gone with the server" })).await;
    lena.until("chat").await;
    server.stop().await.unwrap();

    let server = plateau_server::start(config(&dir)).await.unwrap();
    let addr = server.addr();
    let (mut a, w) = Client::open(addr, &id, Some(&t0), None).await;
    let chat = w["chat"].as_array().unwrap();
    // The last 50: m5 … m54.
    assert_eq!(chat.len(), 50, "{w}");
    for (i, m) in chat.iter().enumerate() {
        let k = i + 5;
        let seat = k / 5 % 2;
        assert_eq!(m["text"], format!("m{k}"), "{m}");
        assert_eq!(m["seat"], seat);
        assert_eq!(m["name"], if seat == 0 { "Ann" } else { "Bob" });
        assert_eq!(m["room"], "players");
    }
    let (_, w) = open_logged_in(addr, &id, &cookie).await;
    assert_eq!(w["chat"], json!([]));
    // The room goes on after the restart.
    a.send(json!({ "type": "chat", "text": "still here" })).await;
    a.until("chat").await;
    server.stop().await.unwrap();
    let server = plateau_server::start(config(&dir)).await.unwrap();
    let (_, w) = Client::open(server.addr(), &id, Some(&t1), None).await;
    let chat = w["chat"].as_array().unwrap();
    assert_eq!((chat.len(), &chat[0]["text"], &chat[49]["text"]), (50, &json!("m6"), &json!("still here")));
    server.stop().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_undoes_back_to_the_askers_last_move() {
    let s = start().await;
    let (id, mut a, mut b, _, _) = live_game(s.addr).await;
    let h0 = play(&mut a, &mut b, 0).await;
    let h1 = play(&mut b, &mut a, 0).await;
    let _h2 = play(&mut a, &mut b, 0).await;
    // Ann asks while Bob is to move: her move alone is taken back (1 ply).
    let v = a.version;
    a.send(json!({ "type": "takeback_offer" })).await;
    let u = b.until_version(v + 1).await;
    assert_eq!(u["events"][0]["kind"], "takeback_offer", "{u}");
    assert_eq!(u["events"][0]["seat"], 0);
    assert_eq!(u["takeback_offers"], json!([0]));
    assert_eq!(u["ply"], 3, "nothing is undone before Bob agrees");
    a.until_version(v + 1).await;
    b.send(json!({ "type": "takeback_accept" })).await;
    let u = a.until_version(v + 3).await;
    let kinds: Vec<&Value> = u["events"].as_array().unwrap().iter().map(|e| &e["kind"]).collect();
    assert_eq!(kinds, [&json!("takeback_accept"), &json!("takeback")], "{u}");
    assert_eq!(u["events"][0]["seat"], 1);
    assert_eq!(u["events"][1]["plies"], 1);
    assert_eq!((&u["ply"], &u["to_move"], &u["takeback_offers"]), (&json!(2), &json!(0), &json!([])));
    assert!(a.legal.is_some(), "Ann is to move again: {u}");
    b.until_version(v + 3).await;
    // A move chosen before the takeback is stale.
    let mv = a.legal.clone().unwrap()[0].clone();
    a.send(json!({ "type": "move", "move": mv, "version": v + 1 })).await;
    let e = a.until("error").await;
    assert_eq!(e["code"], "stale_version", "{e}");
    assert_eq!((&e["state"]["ply"], &e["state"]["version"]), (&json!(2), &json!(v + 3)));
    // Ann plays another move, Bob answers; Ann asks while she is to move:
    // Bob's answer and her move are taken back (2 plies).
    let h2 = play(&mut a, &mut b, 1).await;
    let _h3 = play(&mut b, &mut a, 0).await;
    let v = a.version;
    a.send(json!({ "type": "takeback_offer" })).await;
    b.until_version(v + 1).await;
    b.send(json!({ "type": "takeback_accept" })).await;
    let u = a.until_version(v + 3).await;
    assert_eq!(u["events"][1]["plies"], 2, "{u}");
    assert_eq!((&u["ply"], &u["to_move"]), (&json!(2), &json!(0)));
    // Everyone reads the same game: the state of a new reader.
    let (_, w) = Client::open(s.addr, &id, None, None).await;
    assert_eq!(strings(&w["state"]["history"]), [h0.clone(), h1.clone()]);
    assert_eq!(w["state"]["movers"], json!([0, 1]));
    assert_eq!(w["state"]["takeback_offers"], json!([]));
    assert_eq!(w["state"]["version"], v + 3);
    // The listing counts the moves on the board: 5 played, 3 taken back.
    let (_, live) = get(s.addr, "/api/games?status=live", None).await;
    let listed = live["games"].as_array().unwrap().iter().find(|g| g["id"] == id.as_str()).unwrap();
    assert_eq!(listed["moves"], 2, "{listed}");
    // Bob now asks to take back his move (Ann to move: Bob's h1 is the last
    // move, 1 ply); Ann accepts over HTTP with her token.
    let _ = h2;
    b.send(json!({ "type": "takeback_offer" })).await;
    a.until_version(v + 4).await;
    let (_, st) = get(s.addr, &format!("/api/games/{id}"), None).await;
    assert_eq!(st["takeback_offers"], json!([1]), "{st}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks_declined_refused_and_withdrawn_by_a_move() {
    let s = start().await;
    let (id, mut a, mut b, t0, _) = live_game(s.addr).await;
    let (mut spec, _) = Client::open(s.addr, &id, None, None).await;
    // Nobody has moved: nothing to take back.
    a.send(json!({ "type": "takeback_offer" })).await;
    assert_eq!(error(&mut a).await["code"], "nothing_to_take_back");
    // A spectator only watches.
    spec.send(json!({ "type": "takeback_offer" })).await;
    assert_eq!(error(&mut spec).await["code"], "read_only");
    let h0 = play(&mut a, &mut b, 0).await;
    // Bob has not moved yet.
    b.send(json!({ "type": "takeback_offer" })).await;
    assert_eq!(error(&mut b).await["code"], "nothing_to_take_back");
    // Nothing asked: nothing to accept or decline.
    b.send(json!({ "type": "takeback_accept" })).await;
    assert_eq!(error(&mut b).await["code"], "no_takeback_offer");
    b.send(json!({ "type": "takeback_decline" })).await;
    assert_eq!(error(&mut b).await["code"], "no_takeback_offer");
    // Ann asks; asking twice, or accepting her own, is refused.
    let v = a.version;
    a.send(json!({ "type": "takeback_offer" })).await;
    b.until_version(v + 1).await;
    a.send(json!({ "type": "takeback_offer" })).await;
    assert_eq!(error(&mut a).await["code"], "already_offered");
    a.send(json!({ "type": "takeback_accept" })).await;
    assert_eq!(error(&mut a).await["code"], "no_takeback_offer");
    // Bob declines: nothing is undone, the request is gone.
    b.send(json!({ "type": "takeback_decline" })).await;
    let u = a.until_version(v + 2).await;
    assert_eq!(u["events"][0]["kind"], "takeback_decline", "{u}");
    assert_eq!(u["events"][0]["seat"], 1);
    assert_eq!((&u["ply"], &u["takeback_offers"]), (&json!(1), &json!([])));
    b.until_version(v + 2).await;
    b.send(json!({ "type": "takeback_accept" })).await;
    assert_eq!(error(&mut b).await["code"], "no_takeback_offer");
    // Ann asks again; Bob moves instead: the move withdraws the request.
    let v = a.version;
    a.send(json!({ "type": "takeback_offer" })).await;
    b.until_version(v + 1).await;
    a.until_version(v + 1).await;
    let h1 = play(&mut b, &mut a, 0).await;
    let st = a.frames.last().map(|f| serde_json::from_str::<Value>(f).unwrap()).unwrap();
    assert_eq!(st["takeback_offers"], json!([]), "{st}");
    b.send(json!({ "type": "takeback_accept" })).await;
    assert_eq!(error(&mut b).await["code"], "no_takeback_offer");
    // While one request stands, the other player cannot ask for another.
    let v = b.version;
    b.send(json!({ "type": "takeback_offer" })).await;
    a.until_version(v + 1).await;
    a.send(json!({ "type": "takeback_offer" })).await;
    assert_eq!(error(&mut a).await["code"], "takeback_pending");
    assert_eq!(a.version, v + 1);
    let (_, st) = get(s.addr, &format!("/api/games/{id}"), None).await;
    assert_eq!(strings(&st["history"]), [h0, h1]);
    // Over HTTP, with the seat's token, as any action.
    let r = client::post(s.addr, &format!("/api/games/{id}/action"), Some(&t0), &json!({ "type": "takeback_decline" }))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    // Once the game is over, no takeback.
    a.send(json!({ "type": "resign" })).await;
    while !(a.next().await["status"] == "finished") {}
    b.send(json!({ "type": "takeback_offer" })).await;
    assert_eq!(error(&mut b).await["code"], "game_over");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_accepts_at_once_and_its_search_in_progress_is_ignored() {
    let s = start().await;
    // A quick computer: Ann moves, it answers, Ann takes back both moves.
    let seats = json!([{ "kind": "human" }, { "kind": "computer", "player": "random" }]);
    let (id, t0, _) = create(s.addr, json!({ "game": "abalone", "seats": seats, "name": "Ann" })).await;
    let (mut a, _) = Client::open(s.addr, &id, t0.as_deref(), None).await;
    let mv = a.legal.clone().unwrap()[0].clone();
    let v = a.version;
    a.send(json!({ "type": "move", "move": mv, "version": v })).await;
    // Ann's move, then the computer's.
    let u = a.until_version(v + 2).await;
    assert_eq!(u["ply"], 2, "{u}");
    let v = a.version;
    a.send(json!({ "type": "takeback_offer" })).await;
    let u = a.until_version(v + 2).await;
    let kinds: Vec<&Value> = u["events"].as_array().unwrap().iter().map(|e| &e["kind"]).collect();
    assert_eq!(kinds, [&json!("takeback_offer"), &json!("takeback")], "{u}");
    assert_eq!(u["events"][1]["plies"], 2);
    assert_eq!((&u["ply"], &u["to_move"], &u["takeback_offers"]), (&json!(0), &json!(0), &json!([])));
    drop(a);

    // A computer that thinks for seconds: Ann moves and at once takes it
    // back (1 ply, the computer still thinking). Its answer, chosen for a
    // position that no longer is, is never played.
    let seats = json!([{ "kind": "human" }, { "kind": "computer", "player": "alphabeta:time=3s" }]);
    let (id, t0, _) = create(s.addr, json!({ "game": "abalone", "seats": seats, "name": "Ann" })).await;
    let (mut a, _) = Client::open(s.addr, &id, t0.as_deref(), None).await;
    let mv = a.legal.clone().unwrap()[0].clone();
    let v = a.version;
    a.send(json!({ "type": "move", "move": mv, "version": v })).await;
    a.send(json!({ "type": "takeback_offer" })).await;
    let u = a.until_version(v + 3).await;
    assert_eq!(u["events"][1]["kind"], "takeback", "{u}");
    assert_eq!(u["events"][1]["plies"], 1);
    assert_eq!((&u["ply"], &u["to_move"]), (&json!(0), &json!(0)));
    let v = a.version;
    // The search ends within its 3 s; nothing comes of it.
    match a.incoming(Duration::from_secs(4)).await {
        Incoming::Timeout => {}
        other => panic!("the computer's stale answer was played or sent: {other:?}"),
    }
    let (_, st) = get(s.addr, &format!("/api/games/{id}"), None).await;
    assert_eq!((&st["ply"], &st["version"], &st["to_move"]), (&json!(0), &json!(v), &json!(0)), "{st}");
    // Ann moves again: the computer answers this position.
    let mv = a.legal.clone().unwrap()[1].clone();
    a.send(json!({ "type": "move", "move": mv, "version": v })).await;
    let u = a.until_version(v + 2).await;
    assert_eq!(u["ply"], 2, "{u}");
    let (_, st) = get(s.addr, &format!("/api/games/{id}"), None).await;
    assert_eq!(strings(&st["history"])[0], mv);
    assert_eq!(st["movers"], json!([0, 1]));
    // Ann takes both back (she is to move: 2 plies), then moves, takes that
    // back at once and moves again at once: the computer is to move while
    // its search for the position taken back still runs. That answer is
    // ignored, and the computer answers the position it is asked about.
    let v = a.version;
    a.send(json!({ "type": "takeback_offer" })).await;
    let u = a.until_version(v + 2).await;
    assert_eq!((&u["events"][1]["plies"], &u["ply"]), (&json!(2), &json!(0)), "{u}");
    let legal = a.legal.clone().unwrap();
    let v = a.version;
    a.send(json!({ "type": "move", "move": legal[2], "version": v })).await;
    a.send(json!({ "type": "takeback_offer" })).await;
    a.send(json!({ "type": "move", "move": legal[3], "version": v + 3 })).await;
    let u = a.until_version(v + 3).await;
    assert_eq!((&u["events"][1]["plies"], &u["ply"]), (&json!(1), &json!(0)), "{u}");
    let u = a.until_version(v + 5).await;
    assert_eq!(u["ply"], 2, "{u}");
    let (_, st) = get(s.addr, &format!("/api/games/{id}"), None).await;
    assert_eq!(strings(&st["history"])[0], legal[3]);
    assert_eq!((&st["movers"], &st["version"]), (&json!([0, 1]), &json!(v + 5)));
    // The computer answered once, and waits for Ann.
    match a.incoming(Duration::from_secs(4)).await {
        Incoming::Timeout => {}
        other => panic!("one answer was expected: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks_and_the_request_standing_survive_a_restart() {
    let dir = temp_dir("takeback-restart");
    let server = plateau_server::start(config(&dir)).await.unwrap();
    let addr = server.addr();
    let (id, t0, _) = create(addr, json!({ "game": "abalone", "name": "Ann" })).await;
    let t0 = t0.unwrap();
    let (_, t1) = join(addr, &id, "Bob").await;
    let (mut a, _) = Client::open(addr, &id, Some(&t0), None).await;
    let (mut b, _) = Client::open(addr, &id, Some(&t1), None).await;
    let h0 = play(&mut a, &mut b, 0).await;
    let h1 = play(&mut b, &mut a, 0).await;
    play(&mut a, &mut b, 0).await;
    // 1 ply back (Bob to move when Ann asked).
    let v = a.version;
    a.send(json!({ "type": "takeback_offer" })).await;
    b.until_version(v + 1).await;
    b.send(json!({ "type": "takeback_accept" })).await;
    a.until_version(v + 3).await;
    b.until_version(v + 3).await;
    let h2 = play(&mut a, &mut b, 2).await;
    let h3 = play(&mut b, &mut a, 1).await;
    // 2 plies back (Ann to move when she asked): h0 h1 stay.
    let v = a.version;
    a.send(json!({ "type": "takeback_offer" })).await;
    b.until_version(v + 1).await;
    b.send(json!({ "type": "takeback_accept" })).await;
    a.until_version(v + 3).await;
    b.until_version(v + 3).await;
    let _ = (h2, h3);
    let h2 = play(&mut a, &mut b, 3).await;
    // Bob asks (Bob to move: his h1 and Ann's h2 go back, 2 plies); the
    // request stands across the restart.
    let v = b.version;
    b.send(json!({ "type": "takeback_offer" })).await;
    a.until_version(v + 1).await;
    let version = v + 1;
    drop((a, b));
    server.stop().await.unwrap();

    let server = plateau_server::start(config(&dir)).await.unwrap();
    let addr = server.addr();
    let (mut a, w) = Client::open(addr, &id, Some(&t0), None).await;
    let st = &w["state"];
    assert_eq!(strings(&st["history"]), [h0.clone(), h1, h2]);
    assert_eq!(st["movers"], json!([0, 1, 0]));
    assert_eq!((&st["version"], &st["to_move"], &st["takeback_offers"]), (&json!(version), &json!(1), &json!([1])));
    let (mut b, _) = Client::open(addr, &id, Some(&t1), None).await;
    a.send(json!({ "type": "takeback_accept" })).await;
    let u = b.until_version(version + 2).await;
    assert_eq!(u["events"][1]["plies"], 2, "{u}");
    assert_eq!((&u["ply"], &u["to_move"]), (&json!(1), &json!(1)));
    server.stop().await.unwrap();
    // And once more from the database alone.
    let server = plateau_server::start(config(&dir)).await.unwrap();
    let (_, st) = get(server.addr(), &format!("/api/games/{id}"), None).await;
    assert_eq!(strings(&st["history"]), [h0]);
    assert_eq!(st["takeback_offers"], json!([]));
    server.stop().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_takes_nothing_back() {
    let s = start().await;
    let (_, ann) = account(s.addr, "Ann").await;
    let (_, bob) = account(s.addr, "Bob").await;
    let (st, v) = post(s.addr, "/api/games", Some(&ann), json!({ "game": "abalone", "rated": true })).await;
    assert_eq!(st, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let t0 = v["token"].as_str().unwrap().to_string();
    let (st, v) = post(s.addr, &format!("/api/games/{id}/join"), Some(&bob), json!({})).await;
    assert_eq!(st, 200, "{v}");
    let t1 = v["token"].as_str().unwrap().to_string();
    let (mut a, _) = Client::open(s.addr, &id, Some(&t0), None).await;
    let (mut b, _) = Client::open(s.addr, &id, Some(&t1), None).await;
    play(&mut a, &mut b, 0).await;
    a.send(json!({ "type": "takeback_offer" })).await;
    assert_eq!(error(&mut a).await["code"], "rated_game");
    b.send(json!({ "type": "takeback_accept" })).await;
    assert_eq!(error(&mut b).await["code"], "rated_game");
    // Chat goes on as in any game.
    a.send(json!({ "type": "chat", "text": "have fun" })).await;
    let m = b.until("chat").await;
    assert_eq!((&m["name"], &m["text"]), (&json!("Ann"), &json!("have fun")), "{m}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_spectators_room_takes_a_few_messages_a_second_in_all() {
    let s = start().await;
    let (id, _, _) = create(s.addr, json!({ "game": "abalone", "name": "Ann" })).await;
    let cookie = sign_up(s.addr, "Lena").await;
    // Six sockets, each within its own limit (five at once): thirty messages
    // at once, more than the room's twenty.
    let mut socks = Vec::new();
    for _ in 0..6 {
        socks.push(open_logged_in(s.addr, &id, &cookie).await.0);
    }
    for (i, c) in socks.iter_mut().enumerate() {
        for k in 0..5 {
            c.send(json!({ "type": "chat", "text": format!("s{i} m{k}") })).await;
        }
    }
    // Every socket reads the messages delivered and its own refusals, until
    // nothing more comes for a second.
    let (mut busy, mut seen) = (0, 0);
    for c in socks.iter_mut() {
        while let plateau_client::Incoming::Frame(_, f) = c.incoming(Duration::from_secs(1)).await {
            match (f["type"].as_str(), f["code"].as_str()) {
                (Some("chat"), _) => seen += 1,
                (Some("error"), Some("chat_busy")) => busy += 1,
                (Some("error"), other) => panic!("{other:?}: {f}"),
                _ => {}
            }
        }
    }
    // Each delivered message reached all six sockets; every one of the 30
    // was delivered or refused, and the room took about its burst.
    let delivered = seen / 6;
    assert_eq!(delivered + busy, 30, "{seen} seen, {busy} refused");
    assert!(busy > 0 && delivered < 30, "the room took {delivered} of 30 at once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_chat_holds_a_bounded_number_of_messages() {
    let s = start_with(plateau_server::Limits { chat_per_game: 3, ..plateau_server::Limits::default() }).await;
    let (id, t0, _) = create(s.addr, json!({ "game": "abalone", "name": "Ann" })).await;
    let (mut a, _) = Client::open(s.addr, &id, t0.as_deref(), None).await;
    for k in 0..3 {
        a.send(json!({ "type": "chat", "text": format!("m{k}") })).await;
        assert_eq!(a.until("chat").await["text"], format!("m{k}"));
    }
    a.send(json!({ "type": "chat", "text": "one too many" })).await;
    assert_eq!(error(&mut a).await["code"], "chat_full");
}
