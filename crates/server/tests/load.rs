//! The load tool against a real server: it plays, measures, and cleans up.

mod common;

use std::time::Duration;

use common::*;
use plateau_client::loadtest::{Clock, LoadConfig, run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_tool_plays_and_measures() {
    let s = start().await;
    // Measure for 1 s; on a slow machine, longer, until some game of 20
    // plies has ended (the test waits for the event, it does not time the
    // machine), with a generous bound.
    let mut secs = 1;
    loop {
        let cfg = LoadConfig {
            addr: s.addr,
            games: 6,
            duration: Duration::from_secs(secs),
            rate: 0.0,
            options: vec![("max-plies".into(), "20".into())],
            computer_games: 1,
            ..LoadConfig::default()
        };
        let report = run(cfg).await.unwrap();
        eprintln!("{report}");
        assert_eq!(report.errors, 0, "{report}");
        assert!(report.moves > 0);
        assert!(report.p50 <= report.p99 && report.p99 <= report.max);
        // The server's processor time and moves, read from its /metrics.
        assert!(report.server_moves > 0, "{report}");
        assert!(report.server_cpu.is_some_and(|c| c > 0.0), "{report}");
        assert!(report.to_string().contains("server CPU: "), "{report}");
        if report.finished > 0 {
            break;
        }
        assert!(secs < 32, "no game of 20 plies ended in {secs} s of play: {report}");
        secs *= 2;
    }
    // Every game it played is over: nothing is left live.
    let (_, live) = get(s.addr, "/api/games?status=live&limit=100", None).await;
    let people: Vec<_> = live["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["seats"].as_array().unwrap().iter().any(|s| s["kind"] == "human"))
        .collect();
    assert!(people.is_empty(), "{people:?}");
}

/// Rated games with clocks, between a small pool of accounts (signed up by
/// the tool, each in several games at once): they are played, every frame
/// carries the clocks, the games that end change ratings, and the games
/// read back at the end are rated, clocked and held by the accounts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_tool_plays_rated_games_with_clocks() {
    let s = start().await;
    let clock: Clock = "600+5".parse().unwrap();
    let mut secs = 1;
    loop {
        let cfg = LoadConfig {
            addr: s.addr,
            games: 6,
            duration: Duration::from_secs(secs),
            rate: 0.0,
            options: vec![("max-plies".into(), "20".into())],
            clock: Some(clock),
            rated: true,
            accounts: 4,
            ..LoadConfig::default()
        };
        let report = run(cfg).await.unwrap();
        eprintln!("{report}");
        assert_eq!(report.errors, 0, "{report}");
        assert!(report.moves > 0, "{report}");
        assert_eq!(report.accounts, 4);
        assert!(report.rated && report.clock == Some(clock));
        assert!(report.clock_frames > 0, "{report}");
        assert_eq!(report.time_losses, 0, "{report}");
        assert!(report.sampled > 0, "{report}");
        assert_eq!(report.rating_changes, report.finished, "{report}");
        if report.finished > 0 {
            break;
        }
        assert!(secs < 32, "no game of 20 plies ended in {secs} s of play: {report}");
        secs *= 2;
    }
    // The accounts have ratings now.
    let (_, games) = get(s.addr, "/api/games?status=finished&limit=1", None).await;
    let player = games["games"][0]["seats"][0]["player"].as_str().expect("a finished game between accounts");
    let (status, profile) = get(s.addr, &format!("/api/players/{player}"), None).await;
    assert_eq!(status, 200, "{profile}");
    assert!(profile["ratings"]["abalone"].is_object(), "{profile}");
    // Nothing is left live.
    let (_, live) = get(s.addr, "/api/games?status=live&limit=100", None).await;
    assert!(live["games"].as_array().unwrap().is_empty(), "{live}");
}
