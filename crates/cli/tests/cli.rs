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
    assert!(String::from_utf8_lossy(&out.stderr).contains("option marbles-to-win: 99 must be from 1 to 14"));
    let out = plateau(&["perft", "abalone", "--variant", "hexagon", "1"], "");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no variant"));
}

fn err(args: &[&str]) -> String {
    let out = plateau(args, "");
    assert!(!out.status.success(), "{args:?} should fail");
    String::from_utf8(out.stderr).unwrap()
}

/// The default Colorito layout as a board file, with comments.
const STANDARD_FILE: &str = "\
# Colorito, the default layout (rank 10 first)
R10 R9  R8  R7  R6  R5  R4  R3  R2  R1   # red targets
Y20 Y19 Y18 Y17 Y16 Y15 Y14 Y13 Y12 Y11

R   Y   D   L   R   Y   D   L   R   Y
D   L   R   Y   D   L   R   Y   D   L
R   Y   D   L   R   Y   D   L   R   Y
D   L   R   Y   D   L   R   Y   D   L
R   Y   D   L   R   Y   D   L   R   Y
D   L   R   Y   D   L   R   Y   D   L
L11 L12 L13 L14 L15 L16 L17 L18 L19 L20
D1  D2  D3  D4  D5  D6  D7  D8  D9  D10
";

/// The default layout with other colours in the middle ranks (a board whose
/// moves differ), as a file and inline.
const SHIFTED_FILE: &str = "\
R10 R9  R8  R7  R6  R5  R4  R3  R2  R1
Y20 Y19 Y18 Y17 Y16 Y15 Y14 Y13 Y12 Y11
L   R   Y   D   L   R   Y   D   L   D
Y   D   L   R   Y   D   L   R   Y   R
L   R   Y   D   L   R   Y   D   L   D
Y   D   L   R   Y   D   L   R   Y   R
L   R   Y   D   L   R   Y   D   L   D
Y   D   L   R   Y   D   L   R   Y   R
L11 L12 L13 L14 L15 L16 L17 L18 L19 L20
D1  D2  D3  D4  D5  D6  D7  D8  D9  D10
";
const SHIFTED_INLINE: &str = "R10 R9 R8 R7 R6 R5 R4 R3 R2 R1/Y20 Y19 Y18 Y17 Y16 Y15 Y14 Y13 Y12 Y11/\
L R Y D L R Y D L D/Y D L R Y D L R Y R/L R Y D L R Y D L D/Y D L R Y D L R Y R/L R Y D L R Y D L D/\
Y D L R Y D L R Y R/L11 L12 L13 L14 L15 L16 L17 L18 L19 L20/D1 D2 D3 D4 D5 D6 D7 D8 D9 D10";

#[test]
fn content_options_read_a_file_with_at() {
    let dir = std::env::temp_dir().join(format!("plateau-cli-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let standard = dir.join("standard.board");
    std::fs::write(&standard, STANDARD_FILE).unwrap();
    let shifted = dir.join("shifted.board");
    std::fs::write(&shifted, SHIFTED_FILE).unwrap();
    let at = |p: &std::path::Path, name: &str| format!("{name}=@{}", p.display());

    // The default layout from a file with comments: the same moves as the default.
    let default_moves = ok(&["moves", "colorito"]);
    assert_eq!(ok(&["moves", "colorito", "--option", &at(&standard, "board")]), default_moves);
    // Another layout: the same moves as the same board typed inline, not the default's.
    let shifted_moves = ok(&["moves", "colorito", "--option", &at(&shifted, "board")]);
    assert_eq!(shifted_moves, ok(&["moves", "colorito", "--option", &format!("board={SHIFTED_INLINE}")]));
    assert_ne!(shifted_moves, default_moves);
    assert_eq!(
        ok(&["perft", "colorito", "2", "--option", &at(&shifted, "board")]),
        ok(&["perft", "colorito", "2", "--option", &format!("board={SHIFTED_INLINE}")])
    );

    // An Abraxas sheet file with four dots (d6, f6, d4, f4) and a comment.
    let sheet = dir.join("mine.sheet");
    std::fs::write(
        &sheet,
        "# four dots\n.........\n.........\n.........\n...o.o...\n.........\n...o.o...\n.........\n.........\n.........\n",
    )
    .unwrap();
    let inline = "........./........./........./...o.o.../........./...o.o.../........./........./.........";
    assert_eq!(
        ok(&["perft", "abraxas", "2", "--option", &at(&sheet, "sheet")]),
        ok(&["perft", "abraxas", "2", "--option", &format!("sheet={inline}")])
    );

    // The record of a game on a board from a file carries the board inline
    // and replays without the file.
    let save = dir.join("game.txt");
    let out = plateau(
        &[
            "play",
            "colorito",
            "--option",
            &at(&shifted, "board"),
            "--seat",
            "1=human",
            "--seat",
            "2=human",
            "--save",
            save.to_str().unwrap(),
        ],
        &format!("{}\nresign\n", shifted_moves.lines().next().unwrap()),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rec = std::fs::read_to_string(&save).unwrap();
    assert!(rec.contains(&format!("[Option \"board={SHIFTED_INLINE}\"]")), "{rec}");
    std::fs::remove_file(&shifted).unwrap();
    let back: serde_json::Value = serde_json::from_str(&ok(&["replay", save.to_str().unwrap(), "--json"])).unwrap();
    assert_eq!(back["plies"], 1);
    assert_eq!(back["options"]["board"], SHIFTED_INLINE);

    // A bare move list with the board from a file.
    let first = default_moves.lines().next().unwrap();
    let out = plateau(&["replay", "-", "--game", "colorito", "--option", &at(&standard, "board"), "--json"], first);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    // The arena too.
    let out = ok(&[
        "arena",
        "--game",
        "colorito",
        "--option",
        &at(&standard, "board"),
        "--option",
        "max-moves=3",
        "--player",
        "random",
        "--player",
        "random",
        "--games",
        "2",
    ]);
    assert!(!out.is_empty());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn option_files_must_be_small_regular_files() {
    let dir = std::env::temp_dir().join(format!("plateau-cli-badfiles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A device never ends: refused before reading.
    let e = err(&["moves", "colorito", "--option", "board=@/dev/zero"]);
    assert!(e.contains("option board: /dev/zero is not a regular file"), "{e}");
    let e = err(&["moves", "colorito", "--option", &format!("board=@{}", dir.display())]);
    assert!(e.contains("is not a regular file"), "{e}");
    let e = err(&["moves", "abraxas", "--option", "sheet=@/dev/zero"]);
    assert!(e.contains("option sheet: /dev/zero is not a regular file"), "{e}");
    // Too large.
    let big = dir.join("big.board");
    std::fs::write(&big, "#".repeat(64 * 1024 + 1)).unwrap();
    let e = err(&["moves", "colorito", "--option", &format!("board=@{}", big.display())]);
    assert!(e.contains("larger than 65536 bytes"), "{e}");
    // Missing.
    let e = err(&["moves", "colorito", "--option", "board=@/nonexistent/x.board"]);
    assert!(e.contains("option board: reading /nonexistent/x.board"), "{e}");
    // A path without @ is not read; the error says how to read it.
    let standard = dir.join("standard.board");
    std::fs::write(&standard, STANDARD_FILE).unwrap();
    let p = standard.to_str().unwrap();
    let e = err(&["moves", "colorito", "--option", &format!("board={p}")]);
    assert!(e.contains("is neither standard nor an inline board"), "{e}");
    assert!(e.contains(&format!("write --option board=@{p}")), "{e}");
    // @ means a file only for content options.
    let e = err(&["moves", "colorito", "--option", "first=@red"]);
    assert!(e.contains("\"@red\" is not one of"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The variant and options `replay --json` reports, for a set-up given on
/// the command line (no move).
fn variant_played(args: &[&str]) -> (String, serde_json::Value) {
    let mut all = vec!["replay", "-", "--json"];
    all.extend_from_slice(args);
    let out = plateau(&all, "\n");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    (v["variant"].as_str().unwrap().to_string(), v["options"].clone())
}

#[test]
fn replay_json_reports_the_variant_played() {
    use serde_json::json;
    // The variants and their presets are those of docs/rules/*.md and
    // `plateau games`: a variant is reported when the options give its
    // presets, "custom" when they give no variant's; options as set.
    // Abraxas: the level-N variants preset sheet=level-N.
    assert_eq!(
        variant_played(&["--game", "abraxas", "--option", "sheet=level-3"]),
        ("level-3".into(), json!({"sheet": "level-3"}))
    );
    assert_eq!(
        variant_played(&["--game", "abraxas", "--variant", "level-5", "--option", "sheet=level-2"]).0,
        "level-2"
    );
    assert_eq!(
        variant_played(&["--game", "abraxas", "--variant", "level-4", "--option", "stones-to-win=5"]).0,
        "level-4"
    );
    let one_dot = ["o........"].into_iter().chain(["........."; 8]).collect::<Vec<_>>().join("/");
    let sheet = format!("sheet={one_dot}");
    assert_eq!(variant_played(&["--game", "abraxas", "--variant", "level-2", "--option", &sheet]).0, "custom");
    // Kabaleo: players and deal.
    assert_eq!(variant_played(&["--game", "kabaleo", "--option", "players=3"]).0, "3-players");
    assert_eq!(
        variant_played(&["--game", "kabaleo", "--variant", "even", "--option", "players=3"]).0,
        "3-players-even"
    );
    assert_eq!(variant_played(&["--game", "kabaleo", "--variant", "3-players", "--option", "players=2"]).0, "standard");
    assert_eq!(
        variant_played(&["--game", "kabaleo", "--variant", "4-players", "--option", "golden-rule=true"]).0,
        "4-players"
    );
    // Colorito: just-colours and strict, each alone a variant.
    assert_eq!(variant_played(&["--game", "colorito", "--option", "strict=true"]).0, "strict");
    assert_eq!(
        variant_played(&["--game", "colorito", "--variant", "strict", "--option", "just-colours=true"]).0,
        "custom"
    );
    assert_eq!(
        variant_played(&["--game", "colorito", "--variant", "strict", "--option", "strict=false"]).0,
        "standard"
    );
    // Abalone: the layouts.
    assert_eq!(variant_played(&["--game", "abalone", "--option", "layout=alien"]).0, "alien");
    assert_eq!(
        variant_played(&["--game", "abalone", "--variant", "snakes", "--option", "marbles-to-win=3"]).0,
        "snakes"
    );

    // A record of such a game names the variant played, and replays to it.
    let dir = std::env::temp_dir().join(format!("plateau-variant-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("game.txt");
    let out = plateau(
        &["play", "abraxas", "--variant", "level-1", "--option", "sheet=level-3", "--save", save.to_str().unwrap()],
        "quit\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Abraxas — level-3 "), "{text}");
    let rec = std::fs::read_to_string(&save).unwrap();
    assert!(rec.contains("[Variant \"level-3\"]"), "{rec}");
    let back: serde_json::Value = serde_json::from_str(&ok(&["replay", save.to_str().unwrap(), "--json"])).unwrap();
    assert_eq!(back["variant"], "level-3");
    // A custom game's record keeps the variant it was made from, so that it
    // replays: its options override that variant's presets.
    let out = plateau(
        &["play", "colorito", "--variant", "strict", "--option", "just-colours=true", "--save", save.to_str().unwrap()],
        "quit\n",
    );
    assert!(out.status.success());
    let rec = std::fs::read_to_string(&save).unwrap();
    assert!(rec.contains("[Variant \"strict\"]") && rec.contains("[Option \"just-colours=true\"]"), "{rec}");
    let back: serde_json::Value = serde_json::from_str(&ok(&["replay", save.to_str().unwrap(), "--json"])).unwrap();
    assert_eq!(back["variant"], "custom");
    assert_eq!(back["options"], json!({"just-colours": "true"}));
}

#[test]
fn play_names_the_players_chosen() {
    // Level 4 of two-player games is alpha-beta with 200 ms a move (the
    // level table of `plateau games` and docs/strength).
    let out = plateau(&["play", "abalone", "--seat", "2=ai:4"], "quit\n");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("  seat 1: Black — human\n"), "{text}");
    assert!(text.contains("  seat 2: White — ai:4 (alphabeta:time=200ms,variety=on)\n"), "{text}");
    assert!(!text.contains("random"), "{text}");
    let out = plateau(&["play", "kabaleo", "--seat", "1=mcts:iterations=50", "--seat", "2=human"], "quit\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(" — mcts:iterations=50\n"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("  seat 2: ") && l.ends_with(" — human")), "{text}");
}

#[test]
fn play_help_shows_every_notation() {
    let help = ok(&["play", "--help"]);
    assert!(help.contains("Move notation:"), "{help}");
    // Abraxas's removal suffix (docs/rules/abraxas.md).
    for s in ["x:i3/h", "x:i3/v", "x:i3/d", "x:i3/a", "b:d4", "d4-f6"] {
        assert!(help.contains(s), "{s}: {help}");
    }
    // In the game, `help` repeats the game's notation.
    let out = plateau(&["play", "abraxas", "--seat", "2=human"], "help\nquit\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("x:i3/d (diagonal a1-i9)").count(), 2, "{text}");
}

#[test]
fn replay_with_repetition_off_reads_records_of_other_systems() {
    // c3 and g5 step out and back twice: the start position, Black to move,
    // occurs a third time after ply 8 (counted by hand); then two more plies.
    let record = "1.c3d3 g5f5 2.d3c3 f5g5 3.c3d3 g5f5 4.d3c3 f5g5 5.a1b2 i5h5\n";
    let out = plateau(&["replay", "-", "--game", "abalone"], record);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("ply 9 (a1b2): the game is over"), "{err}");
    let out = plateau(&["replay", "-", "--game", "abalone", "--option", "repetition=off", "--json"], record);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["plies"], 10);
    assert_eq!(v["result"], "*");
    let eight = plateau(&["replay", "-", "--game", "abalone", "--json"], &record.replace("5.a1b2 i5h5", ""));
    let v: serde_json::Value = serde_json::from_slice(&eight.stdout).unwrap();
    assert_eq!((v["result"].as_str(), v["termination"].as_str()), (Some("1/2-1/2"), Some("threefold repetition")));
}

#[test]
fn replay_of_a_seat_record_in_progress_shows_only_that_seat_secret() {
    // Kabaleo, seed 42, two players: objectives O and R (pinned in the
    // Kabaleo crate's set-up test). Player 2's record after one move.
    let record = "[Game \"kabaleo\"]\n[Variant \"standard\"]\n\
                  [Deal \"bases YGRROROOGGYYGROY ; stock R2 O1 Y5 G4 ; stock R4 O5 Y1 G2 ; objectives ? R ; to-move 2\"]\n\
                  1... O12 *\n";
    let out = plateau(&["replay", "-", "--json"], record);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["objectives"], serde_json::json!([null, "R"]), "{v}");
    assert_eq!(v["plies"], 1);
}

#[test]
fn tune_fits_weights_to_self_play_and_writes_the_weights_file() {
    let dir = std::env::temp_dir().join(format!("plateau-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("weights.json");
    let tune = ["tune", "--game", "abalone", "--option", "max-plies=80", "--games", "10", "--player", "greedy"];
    let run = plateau(&[&tune[..], &["--threads", "2", "--out", out.to_str().unwrap()]].concat(), "");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let w: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(w["game"], "abalone");
    assert_eq!(w["variant"], "standard");
    assert!(w["command"].as_str().unwrap().starts_with("plateau tune --game abalone"), "{}", w["command"]);
    assert_eq!(w["games"], 10);
    assert!(w["positions"].as_u64().unwrap() > 100);
    // Newton's steps never raise the (ridged) objective: the fit is at
    // least as good as the weights it started from, on the fitted positions.
    let (before, after) = (w["log_loss_before"].as_f64().unwrap(), w["log_loss_after"].as_f64().unwrap());
    assert!(after <= before + 1e-12 && after > 0.0, "{before} -> {after}");
    // The file names the terms of the evaluation, in its order, with their
    // weights before (the game's weights as they are now).
    let names: Vec<&str> = w["terms"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(names.len() >= 5 && names.contains(&"material"), "{names:?}");
    // The same games on one thread: the very same fit (the examples are
    // taken in the games' order, not in the order threads finish them).
    let one = plateau(&[&tune[..], &["--threads", "1"]].concat(), "");
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));
    let mut one: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    let mut two = w.clone();
    one["command"] = serde_json::Value::Null;
    two["command"] = serde_json::Value::Null;
    assert_eq!(one, two);
    // A fixed term keeps its weight (the same f32 once written to three
    // decimals), where the same data moves it when it is free.
    let material = |w: &serde_json::Value| {
        let t = w["terms"].as_array().unwrap().iter().find(|t| t["name"] == "material").unwrap().clone();
        (t["before"].as_f64().unwrap(), t["weight"].as_f64().unwrap())
    };
    let (was, free) = material(&w);
    assert!((was - free).abs() > 0.01, "material {was} -> {free} when free");
    let fixed = plateau(&[&tune[..], &["--threads", "2", "--fixed", "material"]].concat(), "");
    assert!(fixed.status.success(), "{}", String::from_utf8_lossy(&fixed.stderr));
    let (was, now) = material(&serde_json::from_slice(&fixed.stdout).unwrap());
    assert_eq!(was as f32, now as f32, "material {was} -> {now} when fixed (the game reads weights as f32)");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_refuses_a_bad_player_game_count_ridge_or_term() {
    for args in [
        &["tune", "--game", "abalone", "--games", "0"][..],
        &["tune", "--game", "abalone", "--ridge", "500"][..],
        &["tune", "--game", "abalone", "--player", "alphabeta:eval=v9"][..],
        &["tune", "--game", "chess"][..],
    ] {
        let run = plateau(args, "");
        assert!(!run.status.success(), "{args:?}");
        assert!(!String::from_utf8_lossy(&run.stderr).is_empty());
    }
    // An unknown term is refused for itself, before any game (one game
    // would also fail later, as too few positions to fit).
    let run = plateau(&["tune", "--game", "abalone", "--games", "1", "--fixed", "nonsense"], "");
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("no term nonsense") && err.contains("material"), "{err}");
}
