//! Players through the real server and sockets (issue 15): seats held by
//! accounts, rated games and their rating updates, computer levels as rated
//! players, clocks (their fall, a restart that charges nobody the downtime),
//! abandonment claims, guests claiming their games, profiles, an account's
//! games and leaderboards.
//!
//! Expected ratings come from an independent computation of Glickman's
//! Glicko-2 paper (a separate script, the figures below), not from the
//! server's code.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::*;
use plateau_server::Limits;
use serde_json::{Value, json};

/// Two new players (1500, RD 350, σ 0.06), one game: the winner's and the
/// loser's new ratings and the RD of both (Glicko-2, τ 0.5, computed apart).
const NEW_WINNER: f64 = 1662.3109;
const NEW_LOSER: f64 = 1337.6891;
const NEW_RD: f64 = 290.3190;

fn close(a: &Value, b: f64, what: &str) {
    let a = a.as_f64().unwrap_or_else(|| panic!("{what}: not a number: {a}"));
    assert!((a - b).abs() < 0.01, "{what}: {a} is not {b}");
}

/// A game's state as a program with `token` (a seat's or an account's) sees it.
async fn state(addr: SocketAddr, id: &str, token: Option<&str>) -> Value {
    let (st, v) = get(addr, &format!("/api/games/{id}"), token).await;
    assert_eq!(st, 200, "{v}");
    v
}

/// Act over HTTP as `token` (a seat's token or an access token).
async fn act(addr: SocketAddr, id: &str, token: &str, body: Value) -> (u16, Value) {
    post(addr, &format!("/api/games/{id}/action"), Some(token), body).await
}

/// Play the first legal move of the seat to move (as `token`).
async fn play_first(addr: SocketAddr, id: &str, token: &str) {
    let s = state(addr, id, Some(token)).await;
    let mv = s["legal_moves"][0].as_str().unwrap_or_else(|| panic!("no legal move for this token: {s}")).to_string();
    let (st, v) = act(addr, id, token, json!({ "type": "move", "move": mv, "version": s["version"] })).await;
    assert_eq!(st, 200, "{v}");
}

/// A game created by `pat`'s account, with the body's fields; (id, answer).
async fn create_as(addr: SocketAddr, pat: Option<&str>, body: Value) -> (u16, Value) {
    post(addr, "/api/games", pat, body).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_between_accounts_updates_both_ratings() {
    let s = start().await;
    let (_, alice) = account(s.addr, "alice").await;
    let (_, bob) = account(s.addr, "bob").await;
    // Guests cannot create or join a rated game.
    let body = json!({ "game": "abalone", "rated": true, "clock": {"initial": 300, "increment": 2} });
    let (st, v) = create_as(s.addr, None, body.clone()).await;
    assert_eq!((st, v["code"].as_str()), (401, Some("account_required")), "{v}");
    let (st, v) = create_as(s.addr, Some(&alice), body.clone()).await;
    assert_eq!(st, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(v["state"]["seats"][0]["player"], "alice");
    assert_eq!(v["state"]["seats"][0]["account"], "alice");
    assert_eq!(v["state"]["rated"], true);
    assert_eq!(v["state"]["clock"], json!({"initial": 300, "increment": 2}));
    assert_eq!(v["state"]["clocks"], json!([300_000, 300_000]));
    let (st, v) = post(s.addr, &format!("/api/games/{id}/join"), None, json!({ "name": "Guest" })).await;
    assert_eq!((st, v["code"].as_str()), (401, Some("account_required")), "{v}");
    // Alice cannot take the second seat too.
    let (st, v) = post(s.addr, &format!("/api/games/{id}/join"), Some(&alice), json!({})).await;
    assert_eq!((st, v["code"].as_str()), (409, Some("already_seated")), "{v}");
    let (st, v) = post(s.addr, &format!("/api/games/{id}/join"), Some(&bob), json!({ "name": "ignored" })).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["seat"], 1);
    assert_eq!(v["state"]["seats"][1]["player"], "bob");
    // Each account acts for its seat with its access token, no seat token.
    play_first(s.addr, &id, &alice).await;
    let mine = state(s.addr, &id, Some(&bob)).await;
    assert_eq!(mine["you"], 1);
    assert_eq!(mine["clock_running"], 1);
    play_first(s.addr, &id, &bob).await;
    let (st, v) = act(s.addr, &id, &bob, json!({ "type": "resign" })).await;
    assert_eq!(st, 200, "{v}");
    let end = state(s.addr, &id, None).await;
    assert_eq!(end["status"], "finished");
    let r = &end["result"]["ratings"];
    assert_eq!(r[0]["account"], "alice");
    close(&r[0]["before"], 1500.0, "alice before");
    close(&r[0]["after"], NEW_WINNER, "alice after");
    close(&r[1]["after"], NEW_LOSER, "bob after");
    close(&r[1]["deviation"], NEW_RD, "bob's RD");
    assert_eq!(r[1]["provisional"], true);
    let (_, a) = get(s.addr, "/api/players/Alice", None).await;
    close(&a["ratings"]["abalone"]["rating"], NEW_WINNER, "alice's page");
    close(&a["ratings"]["abalone"]["deviation"], NEW_RD, "alice's RD");
    assert_eq!(a["ratings"]["abalone"]["games"], 1);
    assert_eq!(a["results"]["abalone"], json!({ "wins": 1, "draws": 0, "losses": 0 }));
    assert_eq!(a["history"]["abalone"].as_array().unwrap().len(), 1);
    assert_eq!(a["history"]["abalone"][0]["game_id"], id.as_str());
    assert_eq!(a["recent"][0]["id"], id.as_str());
    assert_eq!(a["recent"][0]["outcome"], "win");
    close(&a["recent"][0]["rating_change"], NEW_WINNER - 1500.0, "alice's change");
    assert_eq!(a["computer"], false);
    let (_, b) = get(s.addr, "/api/account/games", Some(&bob)).await;
    assert_eq!(b["games"][0]["id"], id.as_str());
    assert_eq!(b["games"][0]["outcome"], "loss");
    assert_eq!(b["games"][0]["your_turn"], false);
    // A rated game given up before every player has moved changes no
    // rating (as an abort would not).
    let (_, v) = create_as(s.addr, Some(&alice), body.clone()).await;
    let early = v["id"].as_str().unwrap().to_string();
    post(s.addr, &format!("/api/games/{early}/join"), Some(&bob), json!({})).await;
    play_first(s.addr, &early, &alice).await;
    act(s.addr, &early, &alice, json!({ "type": "resign" })).await;
    let e = state(s.addr, &early, None).await;
    assert_eq!((&e["result"]["reason"], &e["result"]["ratings"]), (&json!("resignation"), &Value::Null), "{e}");
    assert!(e["result"]["unrated"].is_string(), "{e}");
    // The other games are not rated: a casual game changes nothing.
    let (st, v) = create_as(s.addr, Some(&alice), json!({ "game": "abalone" })).await;
    assert_eq!(st, 201, "{v}");
    let id2 = v["id"].as_str().unwrap().to_string();
    post(s.addr, &format!("/api/games/{id2}/join"), Some(&bob), json!({})).await;
    act(s.addr, &id2, &alice, json!({ "type": "resign" })).await;
    let (_, a) = get(s.addr, "/api/players/alice", None).await;
    close(&a["ratings"]["abalone"]["rating"], NEW_WINNER, "alice after a casual loss");
    assert_eq!(a["results"]["abalone"], json!({ "wins": 1, "draws": 0, "losses": 2 }));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computer_levels_are_rated_players() {
    let s = start().await;
    let (_, carol) = account(s.addr, "carol").await;
    let seats = |p: &str| json!([{"kind": "human"}, {"kind": "computer", "player": p}]);
    // Only levels play rated games, and only fair set-ups are rated.
    let (st, v) =
        create_as(s.addr, Some(&carol), json!({ "game": "abalone", "rated": true, "seats": seats("random") })).await;
    assert_eq!((st, v["code"].as_str()), (400, Some("unrated_player")), "{v}");
    let (st, v) = create_as(
        s.addr,
        Some(&carol),
        json!({ "game": "colorito", "rated": true, "options": {"board": "standard"}, "seats": seats("ai:1") }),
    )
    .await;
    assert_eq!((st, v["code"].as_str()), (400, Some("unrated_options")), "{v}");
    // Computers only: no person's rating moves them.
    let two = json!([{"kind": "computer", "player": "ai:1"}, {"kind": "computer", "player": "ai:2"}]);
    let (st, v) = create_as(s.addr, Some(&carol), json!({ "game": "abalone", "rated": true, "seats": two })).await;
    assert_eq!((st, v["code"].as_str()), (401, Some("account_required")), "{v}");
    let (st, v) =
        create_as(s.addr, Some(&carol), json!({ "game": "abalone", "rated": true, "seats": seats("ai:1") })).await;
    assert_eq!(st, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    // Carol moves, the computer answers, Carol resigns.
    let (mut c, _) = Client::open(s.addr, &id, v["token"].as_str(), None).await;
    play_first(s.addr, &id, &carol).await;
    loop {
        let f = c.next().await;
        if f["type"] == "update" && f["ply"] == 2 {
            break;
        }
    }
    let (st, v) = act(s.addr, &id, &carol, json!({ "type": "resign" })).await;
    assert_eq!(st, 200, "{v}");
    let (_, c) = get(s.addr, "/api/players/computer-1", None).await;
    assert_eq!(c["computer"], true);
    close(&c["ratings"]["abalone"]["rating"], NEW_WINNER, "computer-1");
    let (_, cat) = get(s.addr, "/api/catalog", None).await;
    let abalone = cat["games"].as_array().unwrap().iter().find(|g| g["name"] == "abalone").unwrap();
    close(&abalone["levels"][0]["rating"], NEW_WINNER, "level 1 in the catalogue");
    close(&abalone["levels"][1]["rating"], 1500.0, "level 2 in the catalogue");
    assert_eq!(abalone["levels"][1]["provisional"], true);
    // Nobody can sign up as, or log in as, a computer.
    let r = sign_up(s.addr, "127.0.0.1", "Computer-7", "correct horse battery").await;
    assert_eq!((r.status, r.code()), (400, Some("bad_name")), "{}", r.raw);
    let r = log_in(s.addr, "127.0.0.1", "computer-1", "!").await;
    assert_eq!((r.status, r.code()), (401, Some("bad_login")), "{}", r.raw);
    let r = log_in(s.addr, "127.0.0.1", "computer-1", "whatever it is").await;
    assert_eq!((r.status, r.code()), (401, Some("bad_login")), "{}", r.raw);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clock_falls_and_the_player_loses_on_time() {
    let s = start().await;
    let (_, alice) = account(s.addr, "alice").await;
    let (_, bob) = account(s.addr, "bob").await;
    let (st, v) = create_as(
        s.addr,
        Some(&alice),
        json!({ "game": "abalone", "rated": true, "clock": {"initial": 4, "increment": 0} }),
    )
    .await;
    assert_eq!(st, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let token = v["token"].as_str().unwrap().to_string();
    post(s.addr, &format!("/api/games/{id}/join"), Some(&bob), json!({})).await;
    let (mut watcher, w) = Client::open(s.addr, &id, Some(&token), None).await;
    assert_eq!(w["state"]["clock_running"], Value::Null, "the first move is free");
    // Waiting before the first move costs nothing: no clock runs.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = state(s.addr, &id, None).await;
    assert_eq!((&before["status"], &before["clocks"]), (&json!("live"), &json!([4000, 4000])), "{before}");
    play_first(s.addr, &id, &alice).await;
    // Bob has four seconds for his move (an HTTP request or two).
    play_first(s.addr, &id, &bob).await;
    // Alice's four seconds run out: the server ends the game by itself.
    let end = loop {
        let f = watcher.next().await;
        if f["type"] == "update" && f["status"] == "finished" {
            break f;
        }
    };
    assert_eq!(end["result"]["reason"], "time");
    assert_eq!(end["result"]["winners"], json!([1]));
    let kinds: Vec<&str> = end["events"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["flag", "game_over"]);
    assert_eq!(end["events"][0]["seat"], 0);
    assert_eq!(end["clocks"][0], 0);
    close(&end["result"]["ratings"][0]["after"], NEW_LOSER, "alice lost on time");
    close(&end["result"]["ratings"][1]["after"], NEW_WINNER, "bob won on time");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_survive_a_restart_without_charging_the_time_down() {
    let dir = temp_dir("clock-restart");
    let config = config(&dir);
    let server = plateau_server::start(config.clone()).await.unwrap();
    let addr = server.addr();
    // A long clock and a short one, each with the second seat's clock running.
    // The short one has time enough to be still running at the stop on a
    // loaded machine (at 3 s it once fell before).
    let mut games = Vec::new();
    for initial in [60, 8] {
        let (id, t0, _) =
            create(addr, json!({ "game": "abalone", "clock": {"initial": initial, "increment": 0} })).await;
        let (_, t1) = join(addr, &id, "Bea").await;
        play_first(addr, &id, t0.as_deref().unwrap()).await;
        games.push((id, t0.unwrap(), t1));
    }
    let (long, _, long1) = games[0].clone();
    play_first(addr, &long, &long1).await;
    assert_eq!(state(addr, &long, None).await["clock_running"], 0);
    server.stop().await.unwrap();
    // Down for 2.5 s.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let server = plateau_server::start(config).await.unwrap();
    let addr = server.addr();
    assert!(server.resumed() >= 2, "live clocked games are resumed at start");
    // The `clock` event written at the start gives each seat its time as of
    // the last event before the stop, from the events' own times: Bea was
    // charged from Ann's move to hers (the first move is free), Ann nothing
    // yet; the 2.5 s down are charged to nobody.
    let (_, w) = Client::open(addr, &long, None, Some(0)).await;
    let events = w["events"].as_array().unwrap();
    let at = |kind: &str, n: usize| events.iter().filter(|e| e["kind"] == kind).nth(n).unwrap()["at"].as_i64().unwrap();
    let clock = events.iter().find(|e| e["kind"] == "clock").unwrap_or_else(|| panic!("no clock event: {w}"));
    assert_eq!(clock["clocks"], json!([60_000, 60_000 - (at("move", 1) - at("move", 0))]), "{w}");
    let after = &w["state"];
    assert_eq!(after["clock_running"], 0);
    assert_eq!(after["clocks"][1], clock["clocks"][1]);
    assert!(after["clocks"][0].as_i64().unwrap() <= 60_000);
    // The short clock still falls, by the server's own timer, after the restart.
    let (short, _, _) = &games[1];
    let (mut c, _) = Client::open(addr, short, None, None).await;
    let end = loop {
        let f = c.next().await;
        if f["type"] == "update" && f["status"] == "finished" {
            break f;
        }
    };
    assert_eq!(end["result"]["reason"], "time");
    assert_eq!(end["result"]["winners"], json!([0]));
    server.stop().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_gone_for_the_claim_time_can_be_claimed_against() {
    let limits = Limits { claim_after: Duration::from_millis(1000), ..Limits::default() };
    let s = start_with(limits).await;
    for (draw, reason_winners) in [(false, json!([0])), (true, json!([0, 1]))] {
        let (id, t0, _) = create(s.addr, json!({ "game": "abalone" })).await;
        let t0 = t0.unwrap();
        let (_, t1) = join(s.addr, &id, "Bea").await;
        let (mut a, _) = Client::open(s.addr, &id, Some(&t0), None).await;
        let (b, _) = Client::open(s.addr, &id, Some(&t1), None).await;
        // Ann moves: Bea is to move. She is here: nothing to claim.
        play_first(s.addr, &id, &t0).await;
        let ty = if draw { "claim_draw" } else { "claim_victory" };
        let (st, v) = act(s.addr, &id, &t0, json!({ "type": ty })).await;
        assert_eq!((st, v["code"].as_str()), (409, Some("nobody_gone")), "{v}");
        drop(b);
        let gone = loop {
            let f = a.next().await;
            if f["type"] == "presence" && f["online"] == false {
                break f;
            }
        };
        assert_eq!(gone["seat"], 1);
        let st_now = state(s.addr, &id, None).await;
        assert!(st_now["seats"][1]["gone_since"].is_i64(), "{st_now}");
        assert_eq!(st_now["claim_after_ms"], 1000);
        // The turn began with Ann's move, after the game was made.
        assert!(st_now["turn_since"].as_i64().unwrap() > st_now["created_at"].as_i64().unwrap() - 1, "{st_now}");
        // Gone, but not long enough yet.
        let (st, v) = act(s.addr, &id, &t0, json!({ "type": ty })).await;
        assert_eq!((st, v["code"].as_str()), (409, Some("nobody_gone")), "{v}");
        tokio::time::sleep(Duration::from_millis(1200)).await;
        // A spectator claims nothing.
        let (st, _) = post(s.addr, &format!("/api/games/{id}/action"), None, json!({ "type": ty })).await;
        assert_eq!(st, 401);
        let (st, v) = act(s.addr, &id, &t0, json!({ "type": ty })).await;
        assert_eq!(st, 200, "{v}");
        let end = state(s.addr, &id, None).await;
        assert_eq!(end["result"]["reason"], "abandoned");
        assert_eq!(end["result"]["winners"], reason_winners);
        assert_eq!(end["result"]["draw"], draw);
    }
    // Nobody is claimed against on another's turn: Ann plays over HTTP (no
    // socket) and waits for Bea, who may not claim.
    let (id, t0, _) = create(s.addr, json!({ "game": "abalone" })).await;
    let (_, t1) = join(s.addr, &id, "Bea").await;
    let (_bea, _) = Client::open(s.addr, &id, Some(&t1), None).await;
    play_first(s.addr, &id, t0.as_deref().unwrap()).await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let (st, v) = act(s.addr, &id, &t1, json!({ "type": "claim_victory" })).await;
    assert_eq!((st, v["code"].as_str()), (409, Some("nobody_gone")), "{v}");
    // A correspondence game is never claimed: its clock decides.
    let (id, t0, _) = create(s.addr, json!({ "game": "abalone", "clock": {"days": 2} })).await;
    join(s.addr, &id, "Bea").await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let (st, v) = act(s.addr, &id, t0.as_deref().unwrap(), json!({ "type": "claim_victory" })).await;
    assert_eq!((st, v["code"].as_str()), (409, Some("correspondence")), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_plays_its_seat_from_its_session_on_this_site_only() {
    let s = start().await;
    let (cookie, pat) = account(s.addr, "dora").await;
    let (st, v) = create_as(s.addr, Some(&pat), json!({ "game": "abalone" })).await;
    assert_eq!(st, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    join(s.addr, &id, "Guest").await;
    let own = format!("http://{}", s.addr);
    for (origin, you) in [(own.as_str(), json!(0)), ("http://evil.example", Value::Null)] {
        let mut c = ws_with(s.addr, &id, &[("Cookie", cookie.clone()), ("Origin", origin.to_string())]).await;
        c.send(json!({ "type": "hello" })).await;
        let w = c.until("welcome").await;
        assert_eq!(w["you"], you, "from {origin}");
        if you == json!(0) {
            assert!(w["state"]["legal_moves"].is_array());
        }
    }
    // A program sends its access token on the socket instead.
    let mut c = ws_with(s.addr, &id, &[("Authorization", format!("Bearer {pat}"))]).await;
    c.send(json!({ "type": "hello" })).await;
    assert_eq!(c.until("welcome").await["you"], 0);
    // An HTTP action with the cookie from another site is refused before
    // anything happens.
    let r = request(
        s.addr,
        "127.0.0.1",
        "POST",
        &format!("/api/games/{id}/action"),
        &[("Cookie", &cookie), ("Origin", "http://evil.example")],
        Some(&json!({ "type": "resign" })),
    )
    .await;
    assert_eq!((r.status, r.code()), (403, Some("cross_site")), "{}", r.raw);
    assert_eq!(state(s.addr, &id, None).await["status"], "live");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_claim_their_finished_games_when_they_sign_up() {
    let s = start().await;
    // One browser held both seats of a finished game, and a seat of a live one.
    let (done, g0, _) = create(s.addr, json!({ "game": "abalone", "name": "me" })).await;
    let g0 = g0.unwrap();
    let (_, g1) = join(s.addr, &done, "me too").await;
    act(s.addr, &done, &g1, json!({ "type": "resign" })).await;
    let (live, l0, _) = create(s.addr, json!({ "game": "abalone" })).await;
    join(s.addr, &live, "other").await;
    let (_, pat) = account(s.addr, "erin").await;
    let claims = json!({ "games": [
        {"id": done, "token": g0}, {"id": done, "token": g1},
        {"id": live, "token": l0.unwrap()}, {"id": done, "token": "wrong-token-000000000000000000"},
    ]});
    let (st, v) = post(s.addr, "/api/account/claim", None, claims.clone()).await;
    assert_eq!((st, v["code"].as_str()), (401, Some("not_logged_in")), "{v}");
    let (st, v) = post(s.addr, "/api/account/claim", Some(&pat), claims.clone()).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["claimed"], json!([done]), "one seat of the finished game, nothing else");
    let (_, p) = get(s.addr, "/api/players/erin", None).await;
    assert_eq!(p["results"]["abalone"], json!({ "wins": 1, "draws": 0, "losses": 0 }));
    assert_eq!(p["ratings"], json!({}), "claimed games are casual");
    // Another account cannot take erin's seat.
    let (_, pat2) = account(s.addr, "fred").await;
    let (_, v) = post(s.addr, "/api/account/claim", Some(&pat2), json!({ "games": [{"id": done, "token": g0}] })).await;
    assert_eq!(v["claimed"], json!([]));
    let too_many: Vec<Value> = (0..201).map(|_| json!({"id": done, "token": g0})).collect();
    let (st, v) = post(s.addr, "/api/account/claim", Some(&pat2), json!({ "games": too_many })).await;
    assert_eq!((st, v["code"].as_str()), (400, Some("too_many")), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_lists_established_ratings_best_first() {
    // Many requests from one address, quickly.
    let s = start_with(Limits { http_rate: 1000.0, http_burst: 1000.0, ..Limits::default() }).await;
    let (_, alice) = account(s.addr, "alice").await;
    let (_, bob) = account(s.addr, "bob").await;
    let (_, carol) = account(s.addr, "carol").await;
    // Sixteen rated games, won in turn: RD falls below 110 after fourteen
    // (computed apart); one game for carol, who stays provisional.
    for i in 0..16 {
        let (st, v) = create_as(s.addr, Some(&alice), json!({ "game": "abalone", "rated": true })).await;
        assert_eq!(st, 201, "{v}");
        let id = v["id"].as_str().unwrap().to_string();
        post(s.addr, &format!("/api/games/{id}/join"), Some(&bob), json!({})).await;
        play_first(s.addr, &id, &alice).await;
        play_first(s.addr, &id, &bob).await;
        let loser = if i % 2 == 0 { &bob } else { &alice };
        let (st, v) = act(s.addr, &id, loser, json!({ "type": "resign" })).await;
        assert_eq!(st, 200, "{v}");
    }
    let (_, v) = create_as(s.addr, Some(&carol), json!({ "game": "abalone", "rated": true })).await;
    let id = v["id"].as_str().unwrap().to_string();
    post(s.addr, &format!("/api/games/{id}/join"), Some(&alice), json!({})).await;
    act(s.addr, &id, &alice, json!({ "type": "resign" })).await;
    let (st, board) = get(s.addr, "/api/leaderboard/abalone", None).await;
    assert_eq!(st, 200, "{board}");
    let names: Vec<&str> = board["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 2, "{board}");
    assert!(!names.contains(&"carol"), "a provisional rating is not listed");
    let r: Vec<f64> = board["players"].as_array().unwrap().iter().map(|p| p["rating"].as_f64().unwrap()).collect();
    assert!(r[0] >= r[1], "{board}");
    assert_eq!(board["players"][0]["rank"], 1);
    for p in board["players"].as_array().unwrap() {
        assert!(p["deviation"].as_f64().unwrap() <= 110.0, "{p}");
        let (_, page) = get(s.addr, &format!("/api/players/{}", p["name"].as_str().unwrap()), None).await;
        close(&page["ratings"]["abalone"]["rating"], p["rating"].as_f64().unwrap(), "the same rating");
    }
    assert_eq!(get(s.addr, "/api/leaderboard/chess", None).await.0, 404);
    assert_eq!(get(s.addr, "/api/leaderboard/abalone?limit=0", None).await.0, 400);
    // Bob's games: the page lists the latest first, at most twenty.
    let (_, p) = get(s.addr, "/api/players/bob", None).await;
    assert_eq!(p["recent"].as_array().unwrap().len(), 16);
    assert_eq!(p["history"]["abalone"].as_array().unwrap().len(), 16);
    assert_eq!(p["results"]["abalone"], json!({ "wins": 8, "draws": 0, "losses": 8 }));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ranking_of_three_rates_every_pair() {
    let s = start().await;
    let (_, alice) = account(s.addr, "alice").await;
    let (_, bob) = account(s.addr, "bob").await;
    let (_, carol) = account(s.addr, "carol").await;
    let (st, v) =
        create_as(s.addr, Some(&alice), json!({ "game": "kabaleo", "options": {"players": 3}, "rated": true })).await;
    assert_eq!(st, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    for p in [&bob, &carol] {
        let (st, v) = post(s.addr, &format!("/api/games/{id}/join"), Some(p), json!({})).await;
        assert_eq!(st, 200, "{v}");
    }
    // Everyone moves once, then Carol resigns: Alice and Bob share the win (a tie for first), Carol is
    // last. Three new players (computed apart, Glicko-2): each winner draws
    // the other and beats Carol, 1623.66; Carol loses twice, 1252.68; RD 253.40.
    let pats = [&alice, &bob, &carol];
    for _ in 0..3 {
        let to_move = state(s.addr, &id, None).await["to_move"].as_u64().unwrap() as usize;
        play_first(s.addr, &id, pats[to_move]).await;
    }
    let (st, v) = act(s.addr, &id, &carol, json!({ "type": "resign" })).await;
    assert_eq!(st, 200, "{v}");
    let end = state(s.addr, &id, None).await;
    let r = &end["result"]["ratings"];
    close(&r[0]["after"], 1623.6590, "alice");
    close(&r[1]["after"], 1623.6590, "bob");
    close(&r[2]["after"], 1252.6819, "carol");
    close(&r[2]["deviation"], 253.4046, "carol's RD");
    let (_, c) = get(s.addr, "/api/players/carol", None).await;
    assert_eq!(c["ratings"]["kabaleo"]["games"], 1, "a game of three counts once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_falls_on_time_in_a_game_out_of_memory() {
    // Games nobody watches leave memory after a second.
    let s = start_with(Limits { idle_live: Duration::from_secs(1), ..Limits::default() }).await;
    let (id, t0, _) = create(s.addr, json!({ "game": "abalone", "clock": {"initial": 4, "increment": 0} })).await;
    join(s.addr, &id, "Bea").await;
    play_first(s.addr, &id, t0.as_deref().unwrap()).await;
    // Bea's 4 s run from Ann's move; the game leaves memory before they
    // are out, and nobody looks until well after.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let (_, stats) = get(s.addr, "/api/stats", None).await;
    assert_eq!(stats["games_in_memory"], 0, "{stats}");
    tokio::time::sleep(Duration::from_millis(5000)).await;
    let looked = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    let (_, w) = Client::open(s.addr, &id, None, Some(0)).await;
    let events = w["events"].as_array().unwrap();
    let moved = events.iter().find(|e| e["kind"] == "move").unwrap()["at"].as_i64().unwrap();
    let flag = events.iter().find(|e| e["kind"] == "flag").unwrap_or_else(|| panic!("no flag: {w}"));
    assert_eq!(flag["seat"], 1);
    // It fell by itself, at or after its time and before anyone looked (a
    // game loaded by our look would have fallen only then).
    let fell = flag["at"].as_i64().unwrap();
    assert!(fell >= moved + 4000 && fell < looked, "moved {moved}, fell {fell}, looked {looked}");
    // Out of memory is not a stop: nobody's time was given back.
    assert!(!events.iter().any(|e| e["kind"] == "clock"), "{w}");
    assert_eq!(w["state"]["result"]["reason"], "time");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_games_of_one_player_ending_together_both_count() {
    let s = start().await;
    let (_, alice) = account(s.addr, "alice").await;
    let (_, bob) = account(s.addr, "bob").await;
    let (_, carol) = account(s.addr, "carol").await;
    let mut games = Vec::new();
    for other in [&bob, &carol] {
        let (_, v) = create_as(s.addr, Some(&alice), json!({ "game": "abalone", "rated": true })).await;
        let id = v["id"].as_str().unwrap().to_string();
        post(s.addr, &format!("/api/games/{id}/join"), Some(other), json!({})).await;
        play_first(s.addr, &id, &alice).await;
        play_first(s.addr, &id, other).await;
        games.push((id, other.clone()));
    }
    // Both opponents resign at once.
    let (a, b) = tokio::join!(
        act(s.addr, &games[0].0, &games[0].1, json!({ "type": "resign" })),
        act(s.addr, &games[1].0, &games[1].1, json!({ "type": "resign" })),
    );
    assert_eq!((a.0, b.0), (200, 200));
    let (_, p) = get(s.addr, "/api/players/alice", None).await;
    assert_eq!(p["ratings"]["abalone"]["games"], 2, "{p}");
    let h = p["history"]["abalone"].as_array().unwrap();
    assert_eq!(h.len(), 2);
    // The second game was rated from the first one's result, not from 1500.
    // (Both may end in the same millisecond: the history then lists them by
    // game id, so the first rated is the one rated from 1500.)
    let first = h.iter().position(|e| (e["before"].as_f64().unwrap() - 1500.0).abs() < 0.01).expect("one from 1500");
    let (h0, h1) = (&h[first], &h[1 - first]);
    close(&h0["before"], 1500.0, "the first game");
    close(&h1["before"], h0["rating"].as_f64().unwrap(), "the second game");
    close(&h0["rating"], NEW_WINNER, "the first game's result");
}
