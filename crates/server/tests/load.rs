//! The load tool against a real server: it plays, measures, and cleans up.

mod common;

use std::time::Duration;

use common::*;
use plateau_server::loadtest::{LoadConfig, run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_tool_plays_and_measures() {
    let s = start().await;
    let cfg = LoadConfig {
        addr: s.addr,
        games: 6,
        duration: Duration::from_secs(1),
        rate: 0.0,
        options: vec![("max-plies".into(), "20".into())],
        computer_games: 1,
        ..LoadConfig::default()
    };
    let report = run(cfg).await.unwrap();
    eprintln!("{report}");
    assert_eq!(report.errors, 0, "{report}");
    assert!(report.moves > 0);
    assert!(report.finished > 0, "games of 20 plies end and are rematched");
    assert!(report.p50 <= report.p99 && report.p99 <= report.max);
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
