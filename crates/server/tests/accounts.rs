//! Accounts through the real server and sockets: sign up, log in and out,
//! passwords, the session cookie and its flags, cross-site requests, personal
//! access tokens, attempt limits, and hashing off the async runtime.
//!
//! The HTTP client has no cookies: requests that carry one are written here
//! by hand, from a chosen loopback address.

mod common;

use std::io::Write;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock};

use common::{config, get, log_in, refs, request, same_origin, sign_up, start, start_with, whoami};
use plateau_server::Limits;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_log_in_log_out_and_change_the_password() {
    let s = start().await;
    let a = sign_up(s.addr, "127.0.0.1", "Alice", "correct horse").await;
    assert_eq!(a.status, 201, "{}", a.raw);
    assert_eq!(a.body["name"], "Alice");
    assert!(a.body["created_at"].as_i64().unwrap() > 0);
    let c1 = a.cookie();
    let me = whoami(s.addr, &c1).await;
    assert_eq!((me.status, &me.body["name"], &me.body["via"]), (200, &json!("Alice"), &json!("session")), "{}", me.raw);
    // Not logged in: 401.
    let (st, v) = get(s.addr, "/api/session", None).await;
    assert_eq!((st, v["code"].as_str()), (401, Some("not_logged_in")), "{v}");
    let nobody = whoami(s.addr, "plateau_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA").await;
    assert_eq!((nobody.status, nobody.code()), (401, Some("not_logged_in")));
    // Log in, in any case of the name: another session.
    let b = log_in(s.addr, "127.0.0.1", "aLICE", "correct horse").await;
    assert_eq!((b.status, &b.body["name"]), (200, &json!("Alice")), "{}", b.raw);
    let c2 = b.cookie();
    assert_ne!(c1, c2);
    let c3 = log_in(s.addr, "127.0.0.1", "Alice", "correct horse").await.cookie();
    // Log out ends that session only, and clears the cookie.
    let out = request(s.addr, "127.0.0.1", "DELETE", "/api/session", &refs(&same_origin(s.addr, &c2)), None).await;
    assert_eq!(out.status, 200, "{}", out.raw);
    assert!(out.set_cookie().unwrap().contains("Max-Age=0"), "{}", out.raw);
    assert_eq!(whoami(s.addr, &c2).await.status, 401);
    assert_eq!(whoami(s.addr, &c1).await.status, 200);
    // Change the password: the old one must be right.
    let h = same_origin(s.addr, &c1);
    let wrong = json!({ "old": "wrong horse", "new": "battery staple" });
    let r = request(s.addr, "127.0.0.1", "POST", "/api/account/password", &refs(&h), Some(&wrong)).await;
    assert_eq!((r.status, r.code()), (403, Some("wrong_password")), "{}", r.raw);
    let short = json!({ "old": "correct horse", "new": "short" });
    let r = request(s.addr, "127.0.0.1", "POST", "/api/account/password", &refs(&h), Some(&short)).await;
    assert_eq!((r.status, r.code()), (400, Some("bad_password")), "{}", r.raw);
    let change = json!({ "old": "correct horse", "new": "battery staple" });
    let r = request(s.addr, "127.0.0.1", "POST", "/api/account/password", &refs(&h), Some(&change)).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    // This session goes on; every other one has ended.
    assert_eq!(whoami(s.addr, &c1).await.status, 200);
    assert_eq!(whoami(s.addr, &c3).await.status, 401);
    let old = log_in(s.addr, "127.0.0.2", "Alice", "correct horse").await;
    assert_eq!((old.status, old.code()), (401, Some("bad_login")));
    assert_eq!(log_in(s.addr, "127.0.0.2", "Alice", "battery staple").await.status, 200);
    // The public page, by any case of the name.
    let (st, p) = get(s.addr, "/api/players/ALICE", None).await;
    assert_eq!(st, 200, "{p}");
    assert_eq!(
        p,
        json!({ "name": "Alice", "created_at": a.body["created_at"], "computer": false, "bot": false, "bot_info": null,
                "ratings": {}, "results": {}, "history": {}, "recent": [] })
    );
    let (st, v) = get(s.addr, "/api/players/nobody", None).await;
    assert_eq!((st, v["code"].as_str()), (404, Some("not_found")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_outlive_a_restart() {
    let dir = common::temp_dir("accounts-restart");
    let config = config(&dir);
    let server = plateau_server::start(config.clone()).await.unwrap();
    let cookie = sign_up(server.addr(), "127.0.0.1", "Carol", "correct horse").await.cookie();
    server.stop().await.unwrap();
    let server = plateau_server::start(config).await.unwrap();
    let me = whoami(server.addr(), &cookie).await;
    assert_eq!((me.status, &me.body["name"]), (200, &json!("Carol")), "{}", me.raw);
    server.stop().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_follow_the_rule_and_are_unique_in_any_case() {
    let s = start().await;
    for bad in ["ab", "a b c", "twenty-one-characters", "Amélie", "x\u{202E}yz", "", "a/b/c", "<script>"] {
        let r = sign_up(s.addr, "127.0.0.1", bad, "correct horse").await;
        assert_eq!((r.status, r.code()), (400, Some("bad_name")), "{bad:?}: {}", r.raw);
    }
    for bad in ["short", &"x".repeat(257)] {
        let r = sign_up(s.addr, "127.0.0.1", "Dave", bad).await;
        assert_eq!((r.status, r.code()), (400, Some("bad_password")), "{}", r.raw);
    }
    assert_eq!(sign_up(s.addr, "127.0.0.1", "  Dave_2-x ", &"p".repeat(256)).await.status, 201);
    for dup in ["Dave_2-x", "DAVE_2-X", "dave_2-x"] {
        let r = sign_up(s.addr, "127.0.0.1", dup, "another password").await;
        assert_eq!((r.status, r.code()), (409, Some("name_taken")), "{dup}: {}", r.raw);
    }
    // A body that is not the expected JSON (unknown fields are refused).
    let r = request(
        s.addr,
        "127.0.0.1",
        "POST",
        "/api/accounts",
        &[],
        Some(&json!({ "name": "Erin", "password": "correct horse", "admin": true })),
    )
    .await;
    assert_eq!((r.status, r.code()), (400, Some("bad_json")), "{}", r.raw);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_password_and_an_unknown_name_get_the_same_answer() {
    let s = start().await;
    assert_eq!(sign_up(s.addr, "127.0.0.1", "Frank", "correct horse").await.status, 201);
    let wrong = log_in(s.addr, "127.0.0.2", "Frank", "wrong horse").await;
    let unknown = log_in(s.addr, "127.0.0.3", "Nobody", "wrong horse").await;
    let bad_rule = log_in(s.addr, "127.0.0.4", "no such name!", "wrong horse").await;
    assert_eq!((wrong.status, wrong.code()), (401, Some("bad_login")), "{}", wrong.raw);
    for other in [&unknown, &bad_rule] {
        assert_eq!(other.status, wrong.status);
        assert_eq!(other.body, wrong.body);
        assert!(other.set_cookie().is_none());
    }
    assert!(wrong.set_cookie().is_none());
}

/// Log in as `name` with a wrong password from `from` until refused;
/// returns the number of answers 401 before the 429.
async fn attempts_until_refused(
    addr: SocketAddr,
    from: impl Fn(usize) -> String,
    name: impl Fn(usize) -> String,
) -> usize {
    for i in 0..40 {
        let r = log_in(addr, &from(i), &name(i), "wrong horse").await;
        match r.status {
            401 => assert_eq!(r.code(), Some("bad_login")),
            429 => {
                assert_eq!(r.code(), Some("too_many_attempts"), "{}", r.raw);
                return i;
            }
            s => panic!("{s}: {}", r.raw),
        }
    }
    panic!("never refused");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_attempts_are_limited_per_account() {
    let s = start().await;
    assert_eq!(sign_up(s.addr, "127.0.0.1", "Grace", "correct horse").await.status, 201);
    // Each attempt from another address: the account's own limit (5, then
    // one a minute) stops them.
    let n =
        attempts_until_refused(s.addr, |i| format!("127.0.1.{}", i + 1), |i| ["Grace", "GRACE"][i % 2].into()).await;
    assert!((5..=7).contains(&n), "{n} attempts before the limit");
    // Even the right password waits now; other accounts do not.
    let r = log_in(s.addr, "127.0.2.1", "Grace", "correct horse").await;
    assert_eq!((r.status, r.code()), (429, Some("too_many_attempts")), "{}", r.raw);
    assert_eq!(sign_up(s.addr, "127.0.2.1", "Heidi", "correct horse").await.status, 201);
    assert_eq!(log_in(s.addr, "127.0.2.1", "Heidi", "correct horse").await.status, 200);
    // Unknown names are limited the same way (nothing tells them apart).
    let n = attempts_until_refused(s.addr, |i| format!("127.0.3.{}", i + 1), |_| "Nobody".into()).await;
    assert!((5..=7).contains(&n), "{n} attempts before the limit");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_attempts_are_limited_per_address() {
    let s = start().await;
    assert_eq!(sign_up(s.addr, "127.0.0.1", "Ivan_1", "correct horse").await.status, 201);
    // One address trying a different name each time: its limit (20, then one
    // every 6 s) stops it.
    let n = attempts_until_refused(s.addr, |_| "127.0.4.1".into(), |i| format!("name{i}")).await;
    assert!((20..=25).contains(&n), "{n} attempts before the limit");
    let r = log_in(s.addr, "127.0.4.1", "Ivan_1", "correct horse").await;
    assert_eq!((r.status, r.code()), (429, Some("too_many_attempts")));
    let r = sign_up(s.addr, "127.0.4.1", "Judy_1", "correct horse").await;
    assert_eq!((r.status, r.code()), (429, Some("too_many_attempts")));
    // Another address is not held up.
    assert_eq!(log_in(s.addr, "127.0.4.2", "Ivan_1", "correct horse").await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_session_cookie_has_its_flags() {
    let s = start().await;
    for r in [
        sign_up(s.addr, "127.0.0.1", "Ken", "correct horse").await,
        log_in(s.addr, "127.0.0.1", "Ken", "correct horse").await,
    ] {
        let c = r.set_cookie().unwrap().to_string();
        let parts: Vec<&str> = c.split(';').map(str::trim).collect();
        let (name, value) = parts[0].split_once('=').unwrap();
        assert_eq!(name, "plateau_session");
        assert_eq!(value.len(), 43, "{c}");
        for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
            assert!(parts.contains(&flag), "{flag} missing: {c}");
        }
        assert!(!parts.contains(&"Secure"), "{c}");
        assert!(r.head.to_ascii_lowercase().contains("cache-control: no-store"), "{}", r.head);
    }
    // Behind TLS: Secure too.
    let s = start_with(Limits { secure_cookies: true, ..Limits::default() }).await;
    let r = sign_up(s.addr, "127.0.0.1", "Ken", "correct horse").await;
    let c = r.set_cookie().unwrap();
    assert!(c.split(';').map(str::trim).any(|p| p == "Secure"), "{c}");
    let out =
        request(s.addr, "127.0.0.1", "DELETE", "/api/session", &refs(&same_origin(s.addr, &r.cookie())), None).await;
    assert!(out.set_cookie().unwrap().contains("Secure"), "{}", out.raw);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cross_site_request_with_the_cookie_is_refused() {
    let s = start().await;
    let cookie = sign_up(s.addr, "127.0.0.1", "Laura", "correct horse").await.cookie();
    let label = json!({ "label": "bot" });
    let host = format!("http://{}", s.addr);
    for (what, headers) in [
        ("another origin", vec![("Cookie", cookie.as_str()), ("Origin", "http://evil.example")]),
        ("another port", vec![("Cookie", cookie.as_str()), ("Origin", "http://127.0.0.1:1")]),
        ("no origin", vec![("Cookie", cookie.as_str())]),
        ("a null origin", vec![("Cookie", cookie.as_str()), ("Origin", "null")]),
        ("cross-site fetch", vec![("Cookie", cookie.as_str()), ("Sec-Fetch-Site", "cross-site"), ("Origin", &host)]),
        ("same-site fetch", vec![("Cookie", cookie.as_str()), ("Sec-Fetch-Site", "same-site")]),
    ] {
        let r = request(s.addr, "127.0.0.1", "POST", "/api/account/tokens", &headers, Some(&label)).await;
        assert_eq!((r.status, r.code()), (403, Some("cross_site")), "{what}: {}", r.raw);
        let r = request(s.addr, "127.0.0.1", "DELETE", "/api/session", &headers, None).await;
        assert_eq!((r.status, r.code()), (403, Some("cross_site")), "{what}: {}", r.raw);
    }
    // Nothing was done: no token, still logged in.
    let list = request(s.addr, "127.0.0.1", "GET", "/api/account/tokens", &[("Cookie", &cookie)], None).await;
    assert_eq!((list.status, &list.body["tokens"]), (200, &json!([])), "{}", list.raw);
    assert_eq!(whoami(s.addr, &cookie).await.status, 200);
    // From the server's own pages: accepted.
    for headers in [
        vec![("Cookie", cookie.as_str()), ("Origin", host.as_str())],
        vec![("Cookie", cookie.as_str()), ("Sec-Fetch-Site", "same-origin")],
    ] {
        let r = request(s.addr, "127.0.0.1", "POST", "/api/account/tokens", &headers, Some(&label)).await;
        assert_eq!(r.status, 201, "{}", r.raw);
    }
    // The rule is for requests with the cookie: logging in from another
    // site's form carries none and is an ordinary login.
    let r = request(
        s.addr,
        "127.0.0.1",
        "POST",
        "/api/session",
        &[("Origin", "http://evil.example")],
        Some(&json!({ "name": "Laura", "password": "correct horse" })),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.raw);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn personal_access_tokens() {
    let s = start().await;
    let cookie = sign_up(s.addr, "127.0.0.1", "Mallory", "correct horse").await.cookie();
    let h = same_origin(s.addr, &cookie);
    let r = request(s.addr, "127.0.0.1", "POST", "/api/account/tokens", &refs(&h), Some(&json!({ "label": "my bot" })))
        .await;
    assert_eq!(r.status, 201, "{}", r.raw);
    let token = r.body["token"].as_str().unwrap().to_string();
    let id = r.body["id"].as_str().unwrap().to_string();
    assert!(token.starts_with("pat_") && token.len() > 40, "{token}");
    assert_eq!(r.body["label"], "my bot");
    // The token acts as the account, with no cookie and no origin.
    let (st, me) = get(s.addr, "/api/session", Some(&token)).await;
    assert_eq!((st, &me["name"], &me["via"]), (200, &json!("Mallory"), &json!("token")), "{me}");
    let (st, second) = common::post(s.addr, "/api/account/tokens", Some(&token), json!({ "label": "script" })).await;
    assert_eq!(st, 201, "{second}");
    // Listed without their secrets, by cookie or token alike.
    let list = request(s.addr, "127.0.0.1", "GET", "/api/account/tokens", &[("Cookie", &cookie)], None).await;
    assert_eq!(list.status, 200);
    let (_, by_token) = get(s.addr, "/api/account/tokens", Some(&token)).await;
    assert_eq!(by_token, list.body);
    let tokens = list.body["tokens"].as_array().unwrap();
    assert_eq!(tokens.len(), 2);
    assert_eq!(tokens[0]["id"], id.as_str());
    assert_eq!(tokens[0]["label"], "my bot");
    assert!(tokens.iter().all(|t| t.get("token").is_none()), "{}", list.raw);
    assert!(!list.raw.contains(&token[4..]) && !list.raw.contains(second["token"].as_str().unwrap()));
    // Another account cannot revoke it.
    let other = sign_up(s.addr, "127.0.0.1", "Niaj", "correct horse").await.cookie();
    let path = format!("/api/account/tokens/{id}");
    let r = request(s.addr, "127.0.0.1", "DELETE", &path, &refs(&same_origin(s.addr, &other)), None).await;
    assert_eq!((r.status, r.code()), (404, Some("not_found")), "{}", r.raw);
    assert_eq!(get(s.addr, "/api/session", Some(&token)).await.0, 200);
    // Revoked: refused from then on.
    let r = request(s.addr, "127.0.0.1", "DELETE", &path, &refs(&h), None).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let (st, v) = get(s.addr, "/api/session", Some(&token)).await;
    assert_eq!((st, v["code"].as_str()), (401, Some("not_logged_in")), "{v}");
    let (st, _) = get(s.addr, "/api/account/tokens", Some(&token)).await;
    assert_eq!(st, 401);
    let r = request(s.addr, "127.0.0.1", "DELETE", &path, &refs(&h), None).await;
    assert_eq!(r.status, 404);
    let (_, left) = get(s.addr, "/api/account/tokens", Some(second["token"].as_str().unwrap())).await;
    assert_eq!(left["tokens"].as_array().unwrap().len(), 1);
    // A token of another kind (a seat's) is not an account's.
    let (st, _) = get(s.addr, "/api/session", Some("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).await;
    assert_eq!(st, 401);
}

/// Every log line of this test binary.
fn log_lines() -> Arc<Mutex<Vec<u8>>> {
    static LOG: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOG.get_or_init(|| {
        #[derive(Clone)]
        struct Sink(Arc<Mutex<Vec<u8>>>);
        impl Write for Sink {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let buf = Arc::new(Mutex::new(Vec::new()));
        let sink = Sink(buf.clone());
        let sub = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_writer(move || sink.clone())
            .finish();
        tracing::subscriber::set_global_default(sub).expect("one subscriber");
        buf
    })
    .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn passwords_never_appear_in_answers_or_logs() {
    let log = log_lines();
    let s = start().await;
    let (p1, p2) = ("Secret-Pa55word-One", "Secret-Pa55word-Two");
    let mut answers = Vec::new();
    let a = sign_up(s.addr, "127.0.0.1", "Olivia", p1).await;
    let cookie = a.cookie();
    answers.push(a);
    answers.push(log_in(s.addr, "127.0.0.1", "Olivia", p2).await);
    answers.push(log_in(s.addr, "127.0.0.1", "Nobody", p1).await);
    answers.push(log_in(s.addr, "127.0.0.1", "Olivia", p1).await);
    answers.push(sign_up(s.addr, "127.0.0.1", "Olivia", p1).await);
    answers.push(sign_up(s.addr, "127.0.0.1", "no!", p1).await);
    let h = same_origin(s.addr, &cookie);
    for body in [
        json!({ "old": p2, "new": p1 }),
        json!({ "old": p1, "new": p2 }),
        json!({ "old": p1, "new": p2, "extra": p1 }),
        json!({ "old": 1, "new": p1 }),
    ] {
        answers.push(request(s.addr, "127.0.0.1", "POST", "/api/account/password", &refs(&h), Some(&body)).await);
    }
    for body in [json!({ "name": "Olivia", "password": p2, "also": p1 }), json!({ "name": p1, "password": 5 })] {
        answers.push(request(s.addr, "127.0.0.1", "POST", "/api/session", &[], Some(&body)).await);
    }
    answers.push(whoami(s.addr, &cookie).await);
    answers.push(request(s.addr, "127.0.0.1", "GET", "/api/players/Olivia", &[], None).await);
    assert_eq!(answers[0].status, 201);
    assert_eq!(answers[3].status, 200);
    assert_eq!(answers[7].status, 200, "{}", answers[7].raw);
    for a in &answers {
        for p in [p1, p2] {
            assert!(!a.raw.contains(p), "the password in an answer: {}", a.raw);
        }
    }
    let text = String::from_utf8_lossy(&log.lock().unwrap()).into_owned();
    assert!(text.contains("Olivia"), "the log is captured");
    for p in [p1, p2] {
        assert!(!text.contains(p), "the password in the log");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hashing_does_not_hold_up_other_requests() {
    let s = start().await;
    let addr = s.addr;
    let signups: Vec<_> = (0..10)
        .map(|i| {
            tokio::spawn(async move {
                sign_up(addr, &format!("127.0.5.{}", i + 1), &format!("user{i}"), "correct horse").await
            })
        })
        .collect();
    // The health check answers while the hashes are being computed.
    let mut answered_meanwhile = 0;
    while !signups.iter().all(|t| t.is_finished()) {
        let (st, _) = get(addr, "/api/health", None).await;
        assert_eq!(st, 200);
        if !signups.iter().all(|t| t.is_finished()) {
            answered_meanwhile += 1;
        }
        // Within the limit of requests per address.
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    for t in signups {
        assert_eq!(t.await.unwrap().status, 201);
    }
    assert!(answered_meanwhile > 0, "the health check never answered while signing up");
}
