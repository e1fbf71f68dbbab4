//! The engine protocol from the command line: `plateau engine-check`,
//! `plateau arena --player engine:…` (with forfeits), and `plateau engine`
//! as an engine of another `plateau`. The external engine is the small
//! engine in Python of `crates/engine/fixtures/` (python3, as CI installs it).

use std::path::PathBuf;
use std::process::{Command, Output};

fn plateau(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_plateau")).args(args).env("NO_COLOR", "1").output().expect("run plateau")
}

fn fixture(extra: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../engine/fixtures/random_engine.py");
    format!("python3 {} {extra}", p.display())
}

fn text(o: &[u8]) -> String {
    String::from_utf8_lossy(o).into_owned()
}

#[test]
fn engine_check_passes_a_correct_engine_and_reports_each_check() {
    let out = plateau(&["engine-check", &fixture(""), "--positions", "2"]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}{}", text(&out.stderr));
    for game in ["abalone", "colorito", "kabaleo", "abraxas"] {
        assert!(report.contains(&format!("ok   {game}: 2 of 2 positions answered with a legal move")), "{report}");
        assert!(report.contains(&format!("ok   {game}: position record")), "{report}");
    }
    assert!(report.contains("ok   an unknown command"), "{report}");
    assert!(report.contains("ok   quit: it ended"), "{report}");
    assert!(report.lines().last().unwrap().starts_with("the engine passed: "), "{report}");
    // Plateau's own engine passes too, with the checks of an engine that knows the rules.
    let own = format!(
        "{} engine --player alphabeta:time=50ms --player kabaleo=ismcts:time=50ms",
        env!("CARGO_BIN_EXE_plateau")
    );
    let out = plateau(&["engine-check", &own, "--positions", "2", "--movetime", "100ms"]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}{}", text(&out.stderr));
    assert!(report.contains("ok   an illegal move in position"), "{report}");
    assert!(report.contains("ok   an unknown variant"), "{report}");
    assert!(report.contains("ok   abalone: stop obeyed"), "{report}");
}

#[test]
fn engine_check_fails_a_broken_engine_and_says_why() {
    let out = plateau(&["engine-check", &fixture("--illegal"), "--positions", "1"]);
    let report = text(&out.stdout);
    assert!(!out.status.success(), "{report}");
    assert!(report.contains("FAIL abalone after"), "{report}");
    assert!(report.contains("the illegal move zz99"), "{report}");
    assert!(report.lines().last().unwrap().starts_with("the engine failed: "), "{report}");
    let out = plateau(&["engine-check", "no-such-engine-program"]);
    assert!(!out.status.success());
    assert!(text(&out.stdout).contains("FAIL handshake"), "{}", text(&out.stdout));
}

#[test]
fn an_external_engine_plays_every_game_in_the_arena() {
    for game in ["abalone", "colorito", "kabaleo", "abraxas"] {
        let out = plateau(&[
            "arena",
            "--game",
            game,
            "--player",
            &format!("engine:{}", fixture("")),
            "--player",
            "random",
            "--games",
            "2",
        ]);
        let report = text(&out.stdout);
        assert!(out.status.success(), "{game}: {report}{}", text(&out.stderr));
        assert!(report.contains("— 2 games"), "{report}");
        assert!(report.contains("engine: ") && report.contains("; forfeits 0"), "{game}: {report}");
        assert!(!text(&out.stderr).contains("forfeit"), "{}", text(&out.stderr));
    }
    // Kabaleo with three players: an engine at each of two seats.
    let out = plateau(&[
        "arena",
        "--game",
        "kabaleo",
        "--variant",
        "3-players",
        "--player",
        &format!("engine:{}", fixture("")),
        "--player",
        &format!("engine:{}", fixture("")),
        "--player",
        "greedy",
        "--games",
        "3",
    ]);
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
}

#[test]
fn a_crash_a_timeout_or_an_illegal_move_forfeits_the_game() {
    for (args, kind, words) in [
        ("--crash-after 2", "crash", "crashing on purpose"),
        ("--sleep-ms 3000", "timeout", "no bestmove after"),
        ("--illegal", "illegal move", "zz99"),
    ] {
        let out = plateau(&[
            "arena",
            "--game",
            "abalone",
            "--player",
            &format!("engine:{}", fixture(args)),
            "--player",
            "random",
            "--games",
            "2",
            "--movetime",
            "100ms",
            "--grace",
            "200ms",
        ]);
        let (report, log) = (text(&out.stdout), text(&out.stderr));
        assert!(out.status.success(), "{args}: {report}{log}");
        assert_eq!(log.matches("forfeit: engine:").count(), 2, "{args}: {log}");
        assert!(log.contains(&format!(": {kind} (")), "{args}: {log}");
        assert!(log.contains(words), "{args}: {log}");
        assert!(log.contains("random_engine.py: ready"), "the engine's standard error is shown: {log}");
        assert!(report.contains("+0 =0 -2") && report.contains("forfeits 2"), "{args}: {report}");
    }
}

#[test]
fn an_engine_that_does_not_play_the_game_is_refused_before_the_arena_starts() {
    let own = format!("{} engine --player alphabeta:depth=1", env!("CARGO_BIN_EXE_plateau"));
    let out = plateau(&["arena", "--game", "kabaleo", "--player", &format!("engine:{own}"), "--player", "random"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("does not claim kabaleo"), "{}", text(&out.stderr));
}

#[test]
fn plateau_engine_plays_through_the_protocol_as_in_process() {
    // The same player in process and behind the protocol, a few short
    // games: the arena's `go movetime 100` is the engine's budget.
    let own = format!("{} engine --player alphabeta:time=100ms", env!("CARGO_BIN_EXE_plateau"));
    let out = plateau(&[
        "arena",
        "--game",
        "colorito",
        "--player",
        &format!("engine:{own}"),
        "--player",
        "alphabeta:time=100ms",
        "--option",
        "max-moves=10",
        "--games",
        "2",
        "--movetime",
        "100ms",
        "--grace",
        "5s",
    ]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}{}", text(&out.stderr));
    assert!(report.contains("; forfeits 0"), "{report}");
}
