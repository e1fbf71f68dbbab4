//! The `plateau` binary, run as a user would.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn plateau(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run plateau");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = plateau(args, "");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or("")
}

#[test]
fn perft_prints_the_count_last() {
    assert_eq!(last_line(&ok(&["perft", "abalone", "--variant", "belgian-daisy", "2"])), "2692");
    let div = ok(&["perft", "abalone", "2", "--divide"]);
    assert_eq!(div.lines().count(), 45);
    assert_eq!(last_line(&div), "1936");
    assert!(div.lines().next().unwrap().ends_with(" 44"));
}

#[test]
fn moves_lists_the_legal_moves() {
    let out = ok(&["moves", "abalone", "--variant", "german-daisy"]);
    assert_eq!(out.lines().count(), 80);
    let dir = std::env::temp_dir().join(format!("plateau-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("moves.txt");
    std::fs::write(&rec, "1.a1b2 i5h5").unwrap();
    let after = ok(&["moves", "abalone", "--record", rec.to_str().unwrap()]);
    assert!(!after.contains("a1b2\n"));
    assert!(after.lines().count() > 30);
}

#[test]
fn replay_checks_every_move_and_reports_json() {
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/../abalone/tests/games/awc-2015-final.txt");
    let out = ok(&["replay", game, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["game"], "abalone");
    assert_eq!(v["variant"], "belgian-daisy");
    assert_eq!(v["plies"], 115);
    assert_eq!(v["result"], "*");
    assert_eq!(v["to_move"], "White");
    assert_eq!(v["captured"]["black"], 5);
    assert_eq!(v["captured"]["white"], 1);

    let out = plateau(&["replay", "-", "--game", "abalone"], "1.a1b2 i5h5 2.a5b5 i6i9\n");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("ply 4") && err.contains("i6i9"), "{err}");

    let out = plateau(&["replay", "-"], "1.a1b2\n");
    assert!(!out.status.success(), "a bare list needs --game");
    let out = plateau(&["replay", "-", "--game", "chess"], "1.e4\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown game"));
}

#[test]
fn play_in_the_terminal() {
    let dir = std::env::temp_dir().join(format!("plateau-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("game.txt");
    let out = plateau(
        &["play", "abalone", "--seat", "2=human", "--save", save.to_str().unwrap()],
        "a1a9\nc3d4\ni5h5\nmoves\nundo\nresign\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("a1a9: "), "illegal input explained");
    assert!(text.contains("Black plays c3d4"));
    assert!(text.contains("White plays i5h5"));
    assert!(text.contains("wins (resignation)"));
    let rec = std::fs::read_to_string(&save).unwrap();
    assert!(rec.contains("[Result \"1-0\"]") || rec.contains("[Result \"0-1\"]"), "{rec}");
    // The saved record replays.
    let back = ok(&["replay", save.to_str().unwrap()]);
    assert!(back.contains("resignation"));
}

#[test]
fn games_lists_variants_and_options() {
    let out = ok(&["games"]);
    assert!(out.contains("abalone"));
    assert!(out.contains("belgian-daisy"));
    assert!(out.contains("marbles-to-win"));
}

#[test]
fn bad_options_are_refused_clearly() {
    let out = plateau(&["perft", "abalone", "--option", "marbles-to-win=99", "1"], "");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("out of range"));
    let out = plateau(&["perft", "abalone", "--variant", "hexagon", "1"], "");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no variant"));
}
