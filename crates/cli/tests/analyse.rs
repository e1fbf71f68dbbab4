//! `plateau analyse`, run as a user would.

use std::process::{Command, Output};

use plateau_core::{Options, Reader, Setup};

fn plateau(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_plateau")).args(args).env("NO_COLOR", "1").output().expect("run plateau")
}

fn write(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("plateau-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Black's d1e1 walks into White's two-marble push e3e2, and the first
/// marble pushed out wins (the position is worked out in
/// crates/analysis/tests/game.rs).
const BLUNDER: &str = r#"[Game "abalone"]
[Option "position=5/6/7/8/1ww6/b7/7/2b3/5 b 0 0"]
[Option "marbles-to-win=1"]
[Result "0-1"]

1.d1e1 e3e2 0-1
"#;

#[test]
fn analyse_marks_the_blunder_in_text_and_json() {
    let file = write("blunder.txt", BLUNDER);
    let file = file.to_str().unwrap();
    let out = plateau(&["analyse", file, "--spec", "alphabeta:depth=2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Analysis of abalone"), "{text}");
    let line = text.lines().find(|l| l.trim_start().starts_with("1 ")).expect("a line for the first move");
    assert!(line.contains("d1e1??"), "{line}");
    assert!(line.contains("-1.00 +1.00"), "{line}");
    assert!(text.contains("blunders (??) 1"), "{text}");

    let out = plateau(&["analyse", file, "--spec", "alphabeta:depth=2", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["game"], "abalone");
    assert_eq!(json["spec"], "alphabeta:depth=2");
    assert_eq!(json["plies"][0]["played"], "d1e1");
    assert_eq!(json["plies"][0]["judgement"], "blunder");
    assert_ne!(json["plies"][0]["best"], "d1e1");
    assert_eq!(json["plies"][1]["judgement"], serde_json::Value::Null);
    assert_eq!(json["seats"][0]["blunders"], 1);
    assert_eq!(json["hidden"], serde_json::Value::Null);
}

#[test]
fn analyse_refuses_bad_input() {
    let file = write("bad.txt", "[Game \"abalone\"]\n\n1.a1a1\n");
    let out = plateau(&["analyse", file.to_str().unwrap()]);
    assert!(!out.status.success());
    let file = write("ok.txt", BLUNDER);
    let out = plateau(&["analyse", file.to_str().unwrap(), "--time", "1h"]);
    assert!(!out.status.success());
    let out = plateau(&["analyse", file.to_str().unwrap(), "--spec", "alphabeta"]);
    assert!(!out.status.success(), "a spec without a budget is refused");
    assert!(String::from_utf8_lossy(&out.stderr).contains("budget"));
}

#[test]
fn analyse_shows_kabaleo_chances_and_beliefs() {
    let setup = Setup { variant: None, options: Options::new(), seed: 4 };
    let mut m = plateau_games::registry().new_match("kabaleo", &setup).unwrap();
    let mut p = plateau_games::players("kabaleo").unwrap().create_from("greedy:seed=1").unwrap();
    while m.outcome().is_none() {
        let c = p.choose(m.as_ref()).unwrap();
        m.play(&c.mv).unwrap();
    }
    let file = write("kabaleo.txt", &m.record(Reader::Referee).to_text());
    let out = plateau(&["analyse", file.to_str().unwrap(), "--spec", "ismcts:iterations=32,seed=1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Secrets: "), "{text}");
    let chances = text.lines().filter(|l| l.contains("chances") && l.contains("beliefs")).count();
    assert_eq!(chances, m.ply() + 1, "{text}");
    // Seat 1 about seat 2, seat 2 about seat 1.
    assert!(text.contains("1→2: ") && text.contains("2→1: "), "{text}");
}
