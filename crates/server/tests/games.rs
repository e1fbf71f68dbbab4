//! A whole game of every registered game through the API, by people playing
//! random legal moves over WebSockets, with a spectator; and, for every game
//! with hidden information, a search of every raw frame each client received
//! for the secrets of the other seats.

mod common;

use std::collections::BTreeMap;

use common::*;
use plateau_core::{AnyMatch, GameInfo, Reader, Record, Setup, Turn};
use serde_json::{Value, json};

/// Small options that end games quickly, for the games that have them.
const QUICK: &[(&str, &str)] = &[
    ("marbles-to-win", "1"),
    ("max-plies", "40"),
    ("max-moves", "20"),
    ("stones-to-win", "1"),
    ("score-nodes", "20000"),
];

fn quick_options(info: &GameInfo, extra: &[(&str, &str)]) -> BTreeMap<String, String> {
    let mut o: BTreeMap<String, String> =
        QUICK.iter().filter(|(k, _)| info.option(k).is_some()).map(|(k, v)| (k.to_string(), v.to_string())).collect();
    for (k, v) in extra {
        if info.option(k).is_some() {
            o.insert(k.to_string(), v.to_string());
        }
    }
    o
}

/// Everything the referee knows at each ply: the views of every reader.
struct Views {
    /// views[ply] = (spectator view, seat views)
    at: Vec<(Value, Vec<Value>)>,
}

impl Views {
    fn record(&mut self, m: &dyn AnyMatch) {
        let seats = (0..m.seats()).map(|s| m.view(Reader::Seat(s))).collect();
        self.at.push((m.view(Reader::Spectator), seats));
    }
}

/// The leaves where `a` and `b` differ: (path, value in `a`).
fn diff(a: &Value, b: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, Value)>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                path.push(k.clone());
                diff(v, y.get(k).unwrap_or(&Value::Null), path, out);
                path.pop();
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                path.push(i.to_string());
                diff(v, w, path, out);
                path.pop();
            }
        }
        _ if a != b => out.push((path.clone(), a.clone())),
        _ => {}
    }
}

fn at<'a>(v: &'a Value, path: &[String]) -> Option<&'a Value> {
    let mut cur = v;
    for p in path {
        cur = match cur {
            Value::Object(o) => o.get(p)?,
            Value::Array(a) => a.get(p.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// Every JSON object anywhere in `v`.
fn objects<'a>(v: &'a Value, out: &mut Vec<&'a Value>) {
    match v {
        Value::Object(o) => {
            out.push(v);
            for x in o.values() {
                objects(x, out);
            }
        }
        Value::Array(a) => {
            for x in a {
                objects(x, out);
            }
        }
        _ => {}
    }
}

/// The ply and the view a frame carries, if any.
fn frame_view(f: &Value) -> Option<(usize, &Value)> {
    let s = match f["type"].as_str()? {
        "update" => f,
        "welcome" | "state" | "error" => f.get("state")?,
        _ => return None,
    };
    Some((s["ply"].as_u64()? as usize, s.get("view")?))
}

/// Check that no frame received by `reader` (seat `r`, or a spectator)
/// carries a secret of another seat, while the game was not over.
fn check_secrets(game: &str, views: &Views, over_at: usize, reader: Option<usize>, frames: &[String]) {
    for (p, (spect, seats)) in views.at.iter().enumerate().take(over_at) {
        let legit = match reader {
            Some(r) => &seats[r],
            None => spect,
        };
        for (b, seat_view) in seats.iter().enumerate() {
            if Some(b) == reader {
                continue;
            }
            let mut secrets = Vec::new();
            diff(seat_view, spect, &mut Vec::new(), &mut secrets);
            secrets.retain(|(path, value)| path[0] != "reader" && at(legit, path) != Some(value));
            // The raw text of each top-level field that holds a secret.
            let mut fragments: Vec<String> = Vec::new();
            for (path, _) in &secrets {
                let k = &path[0];
                let frag = format!("{}:{}", Value::from(k.as_str()), seat_view[k]);
                let legit_frag = format!("{}:{}", Value::from(k.as_str()), legit[k]);
                if frag != legit_frag && !fragments.contains(&frag) {
                    fragments.push(frag);
                }
            }
            for raw in frames {
                let f: Value = serde_json::from_str(raw).unwrap();
                if let Some((ply, _)) = frame_view(&f)
                    && ply != p
                {
                    continue;
                }
                if frame_view(&f).is_none() && p + 1 != views.at.len().min(over_at) {
                    // Frames without a view are checked once, at the last live ply.
                    continue;
                }
                for frag in &fragments {
                    assert!(
                        !raw.contains(frag.as_str()),
                        "{game}: reader {reader:?} received seat {b}'s secret {frag} in {raw}"
                    );
                }
                let mut objs = Vec::new();
                objects(&f, &mut objs);
                for o in objs {
                    for (path, value) in &secrets {
                        if let Some(x) = at(o, path) {
                            assert_ne!(
                                x, value,
                                "{game}: reader {reader:?} received seat {b}'s secret {path:?} = {value} at ply {p} in {raw}"
                            );
                        }
                    }
                }
            }
        }
    }
}

async fn play_whole_game(s: &TestServer, info: &'static GameInfo, extra: &[(&str, &str)], seed: u64) {
    let name = info.name;
    let options = quick_options(info, extra);
    let registry = plateau_games::registry();
    let mut setup = Setup { variant: None, options: plateau_core::Options(options.clone()), seed };
    let n = registry.new_match(name, &setup).unwrap().seats();
    // A game with hidden information is dealt by the server from a seed of
    // its own: a client may not choose it.
    let mut body = json!({ "game": name, "options": options, "name": "Seat 0" });
    if !info.hidden {
        body["seed"] = json!(seed);
    }
    let (id, t0, created) = create(s.addr, body).await;
    assert_eq!(created["seat"], 0);
    assert_eq!(created["state"]["status"], "open", "{name}");
    let mut tokens = vec![t0.unwrap()];
    for i in 1..n {
        let (seat, t) = join(s.addr, &id, &format!("Seat {i}")).await;
        assert_eq!(seat, i);
        tokens.push(t);
    }
    if info.hidden {
        // The test, as the referee, reads the seed dealt at the start.
        setup.seed = stored_seed(s, &id).await;
    }
    let seed = setup.seed;
    let mut local = registry.new_match(name, &setup).unwrap();
    let mut clients = Vec::new();
    for t in &tokens {
        let (c, w) = Client::open(s.addr, &id, Some(t), None).await;
        assert_eq!(w["state"]["status"], "live", "{name}: {w}");
        clients.push(c);
    }
    let (mut spectator, w) = Client::open(s.addr, &id, None, None).await;
    assert!(w["you"].is_null());
    assert!(w["state"].get("legal_moves").is_none());

    let mut views = Views { at: Vec::new() };
    views.record(&*local);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut resigned = false;
    let mut last: Vec<Value> = vec![Value::Null; n + 1];
    while local.to_move() != Turn::Over {
        let mover = local.to_move().seat().unwrap();
        let expected: Vec<String> = local.legal_moves();
        let c = &mut clients[mover];
        assert_eq!(c.legal.as_ref(), Some(&expected), "{name}: seat {mover}'s legal moves at ply {}", local.ply());
        if local.ply() >= 3000 {
            // Some game did not end by itself: end it through the API.
            c.send(json!({ "type": "resign" })).await;
            resigned = true;
            break;
        }
        let mv = expected[rng.below(expected.len())].clone();
        let v = c.version;
        c.send(json!({ "type": "move", "move": mv, "version": v })).await;
        let canonical = local.play(&mv).unwrap();
        views.record(&*local);
        for (seat, c) in clients.iter_mut().chain(std::iter::once(&mut spectator)).enumerate() {
            let u = c.until_version(v + 1).await;
            assert_eq!(u["events"][0]["kind"], "move", "{name}: {u}");
            assert_eq!(u["events"][0]["move"], canonical.as_str());
            assert_eq!(u["events"][0]["seat"], mover);
            assert_eq!(u["ply"], local.ply());
            let reader = if seat < n { Reader::Seat(seat) } else { Reader::Spectator };
            let want = if info.hidden { local.view(reader) } else { local.view(Reader::Spectator) };
            assert_eq!(u["view"], want, "{name}: the view of {reader:?} at ply {}", local.ply());
            let to_move = local.to_move().seat();
            assert_eq!(u.get("legal_moves").is_some(), seat < n && to_move == Some(seat), "{name}: {u}");
            last[seat] = u;
        }
    }
    let over_at = views.at.len() - if resigned { 0 } else { 1 };
    // Everyone sees the end.
    for (i, c) in clients.iter_mut().chain(std::iter::once(&mut spectator)).enumerate() {
        let mut last = last[i].clone();
        while !(last["type"] == "update" && last["status"] == "finished") {
            last = c.next().await;
        }
        let result = &last["result"];
        assert!(result["result"].is_string(), "{name}: {last}");
        if !resigned {
            assert_eq!(result["result"], local.outcome().unwrap().result_string(), "{name}");
        }
    }
    // The record, as anyone may see it once the game is over, replays to the same end.
    let rec = client_text(s, &format!("/api/games/{id}/record?format=text")).await;
    let record = Record::parse(&rec).unwrap();
    assert_eq!(record.moves, local.history(), "{name}");
    let replayed = registry.replay(&record, None, None).unwrap();
    assert_eq!(
        replayed.outcome().map(|o| o.result_string()),
        record.result.clone().filter(|r| r != "*"),
        "{name}: {rec}"
    );
    if info.uses_seed {
        assert_eq!(
            record.tag("Seed"),
            Some(seed.to_string().as_str()),
            "{name}: a finished game's record has its seed"
        );
    }
    // The finished game is listed.
    let (_, list) = get(s.addr, "/api/games?status=finished&limit=100", None).await;
    assert!(list["games"].as_array().unwrap().iter().any(|g| g["id"] == id.as_str()), "{name}: {list}");

    if info.hidden {
        for (seat, c) in clients.iter().enumerate() {
            check_secrets(name, &views, over_at, Some(seat), &c.frames);
        }
        check_secrets(name, &views, over_at, None, &spectator.frames);
    }
}

async fn client_text(s: &TestServer, path: &str) -> String {
    let r = plateau_client::get(s.addr, path, None).await.unwrap();
    assert_eq!(r.status, 200, "{path}: {}", r.body);
    r.body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_of_every_registered_game() {
    let s = start().await;
    let registry = plateau_games::registry();
    let games: Vec<&'static GameInfo> = registry.games().map(|g| g.info()).collect();
    assert!(!games.is_empty());
    for (i, info) in games.into_iter().enumerate() {
        play_whole_game(&s, info, &[], 11 + i as u64).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hidden_games_keep_each_seats_secrets_with_more_players() {
    let s = start().await;
    let registry = plateau_games::registry();
    for g in registry.games().filter(|g| g.info().hidden) {
        let info = g.info();
        // The largest table the game allows (a "players" option, when it has one).
        let most = info.max_seats.to_string();
        play_whole_game(&s, info, &[("players", most.as_str())], 5).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_hidden_game_reads_without_secrets_over_http() {
    let s = start().await;
    let registry = plateau_games::registry();
    for g in registry.games().filter(|g| g.info().hidden && g.info().uses_seed) {
        let info = g.info();
        let (id, t0, _) = create(s.addr, json!({ "game": info.name })).await;
        let (_, t1) = join(s.addr, &id, "B").await;
        let setup = Setup { variant: None, options: Default::default(), seed: stored_seed(&s, &id).await };
        let local = registry.new_match(info.name, &setup).unwrap();
        // The record of a live game has no seed (it would reveal the secrets).
        for token in [None, t0.as_deref(), Some(t1.as_str())] {
            let r = plateau_client::get(s.addr, &format!("/api/games/{id}/record?format=text"), token).await.unwrap();
            assert_eq!(r.status, 200);
            assert!(!r.body.contains("[Seed"), "{}", r.body);
            let (_, st) = get(s.addr, &format!("/api/games/{id}"), token).await;
            assert!(st.get("seed").is_none(), "{st}");
            let reader = match token {
                None => Reader::Spectator,
                Some(t) if Some(t) == t0.as_deref() => Reader::Seat(0),
                Some(_) => Reader::Seat(1),
            };
            assert_eq!(st["view"], local.view(reader));
            let (_, pos) = get(s.addr, &format!("/api/games/{id}/position?ply=0"), token).await;
            assert_eq!(pos["view"], local.view(reader));
        }
    }
}

#[test]
fn the_secret_search_finds_a_leak() {
    // The checker itself: a frame that carries another seat's view, or the
    // referee's, must be caught, for every game with hidden information.
    let registry = plateau_games::registry();
    for g in registry.games().filter(|g| g.info().hidden) {
        let name = g.info().name;
        let m = registry.new_match(name, &Setup { seed: 3, ..Default::default() }).unwrap();
        let mut views = Views { at: Vec::new() };
        views.record(&*m);
        let honest = json!({ "type": "update", "ply": 0, "view": m.view(Reader::Seat(0)) }).to_string();
        check_secrets(name, &views, 1, Some(0), &[honest]);
        for leak in [m.view(Reader::Seat(1)), m.view(Reader::Referee)] {
            let frame = json!({ "type": "update", "ply": 0, "view": leak }).to_string();
            let caught = std::panic::catch_unwind(|| check_secrets(name, &views, 1, Some(0), &[frame]));
            assert!(caught.is_err(), "{name}: a leak went unnoticed");
            // Even buried elsewhere in a frame.
            let frame = json!({ "type": "presence", "extra": { "x": leak } }).to_string();
            let caught = std::panic::catch_unwind(|| check_secrets(name, &views, 1, None, &[frame]));
            assert!(caught.is_err(), "{name}: a buried leak went unnoticed");
        }
    }
}
