//! `plateau puzzles`, run as a user would, with a tiny budget.

use std::process::{Command, Output};

fn plateau(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_plateau")).args(args).env("NO_COLOR", "1").output().expect("run plateau")
}

#[test]
fn puzzles_generates_reports_and_verifies() {
    let dir = std::env::temp_dir().join(format!("plateau-puzzles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("abalone.json");
    let path = file.to_str().unwrap();
    let budget = ["--depth", "2", "--nodes", "20000", "--max-games", "3"];
    let mut args = vec!["puzzles", "--game", "abalone", "--count", "2", "--seed", "11", "--out", path];
    args.extend(budget);
    let out = plateau(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    for figure in ["games", "positions examined", "candidates", "unique", "kept"] {
        assert!(stdout.contains(figure), "{figure}: {stdout}");
    }
    let written: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let puzzles = written.as_array().expect("a JSON array");
    assert!(puzzles.len() <= 2);
    assert!(stdout.contains(&format!("wrote {} puzzles", puzzles.len())), "{stdout}");
    for p in puzzles {
        assert!(p["id"].as_str().unwrap().starts_with("abalone-"));
        assert_eq!(p["solution"].as_array().unwrap().len() % 2, 1);
    }
    // The same seed and budget write the same file.
    let again = dir.join("again.json");
    let mut args2 =
        vec!["puzzles", "--game", "abalone", "--count", "2", "--seed", "11", "--out", again.to_str().unwrap()];
    args2.extend(budget);
    assert!(plateau(&args2).status.success());
    assert_eq!(std::fs::read(&file).unwrap(), std::fs::read(&again).unwrap());
    // Verified again with the same budget.
    let mut verify = vec!["puzzles", "--game", "abalone", "--verify", path];
    verify.extend(budget);
    let out = plateau(&verify);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("verified {} puzzles: 0 failed", puzzles.len())));
    // Without --out, the JSON goes to standard output.
    let mut args3 = vec!["puzzles", "--game", "abalone", "--count", "1", "--seed", "11"];
    args3.extend(budget);
    let out = plateau(&args3);
    assert!(out.status.success());
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(listed.as_array().unwrap().len() <= 1);
    assert!(String::from_utf8_lossy(&out.stderr).contains("positions examined"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn puzzles_refuses_bad_requests() {
    for (args, words) in [
        (vec!["puzzles", "--game", "colorito", "--count", "1"], "no puzzles"),
        (vec!["puzzles", "--game", "abalone", "--depth", "9"], "depth"),
        (vec!["puzzles", "--game", "abalone", "--count", "100000"], "at most"),
        (vec!["puzzles", "--game", "abalone", "--time", "forever"], "duration"),
        (vec!["puzzles", "--game", "abalone", "--player", "chess"], "chess"),
    ] {
        let out = plateau(&args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(words), "{args:?}: {err}");
    }
}
