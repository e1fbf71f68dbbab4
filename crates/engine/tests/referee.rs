//! The referee side against a real program: the small engine in Python
//! (`fixtures/random_engine.py`, which needs `python3`, as CI installs it).
//! What it is told (hidden information), and each way an engine can fail.

use std::path::PathBuf;
use std::time::Duration;

use plateau_core::{Reader, Setup, Turn};
use plateau_engine::{Engine, EngineError, Limits};

fn fixture() -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/random_engine.py");
    format!("python3 {}", p.display())
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("plateau-referee-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

const GRACE: Duration = Duration::from_secs(5);

#[test]
fn the_handshake_tells_who_the_engine_is() {
    let e = Engine::start(&fixture()).unwrap();
    assert_eq!(e.name, "random_engine.py");
    assert_eq!(e.author.as_deref(), Some("the Plateau tests"));
    assert_eq!(e.games, ["abalone", "colorito", "kabaleo", "abraxas"]);
    assert!(e.wants_legal() && e.plays("Kabaleo") && !e.plays("chess"));
    e.quit(Duration::from_secs(2));
}

#[test]
fn a_game_of_each_kind_is_played_to_the_end_with_legal_moves() {
    let registry = plateau_games::registry();
    // Random play may wander for long in Abalone and Abraxas: their ply
    // caps (options, passed on newgame) end it; the engines are seeded.
    for (game, options) in [
        ("abalone", vec!["max-plies=300"]),
        ("colorito", vec![]),
        ("kabaleo", vec![]),
        ("abraxas", vec!["max-plies=300"]),
    ] {
        let setup = Setup { seed: 3, options: plateau_core::Options::from_pairs(options).unwrap(), ..Setup::default() };
        let mut m = registry.new_match(game, &setup).unwrap();
        let mut engines: Vec<Engine> =
            (0..m.seats()).map(|s| Engine::start(&format!("{} --seed {s}", fixture())).unwrap()).collect();
        for (s, e) in engines.iter_mut().enumerate() {
            e.new_game(&*m, Reader::Seat(s)).unwrap();
        }
        while let Turn::Seat(s) = m.to_move() {
            let p = engines[s].go(&*m, Limits::movetime(Duration::from_millis(500)), GRACE).unwrap();
            assert!(m.legal_moves().contains(&p.mv));
            m.play(&p.mv).unwrap();
            assert!(m.ply() < 2_000, "{game} never ends");
        }
        assert!(m.outcome().is_some(), "{game}");
    }
}

#[test]
fn a_kabaleo_engine_is_told_its_own_objective_and_nothing_more() {
    let registry = plateau_games::registry();
    for (variant, seats) in [("standard", 2), ("3-players", 3), ("4-players", 4)] {
        let mut m = registry
            .new_match("kabaleo", &Setup { variant: Some(variant.into()), seed: 11, ..Setup::default() })
            .unwrap();
        // The true objectives, from the referee's own record of the end of a copy.
        let objectives: Vec<char> = {
            let mut end = m.clone_box();
            while end.to_move() != Turn::Over {
                let mv = end.legal_moves()[0].clone();
                end.play(&mv).unwrap();
            }
            let rec = end.record(Reader::Referee);
            let tag = rec.tag("Objectives").expect("a finished game names the objectives").to_string();
            tag.split_whitespace().filter_map(|w| w.chars().next()).filter(|c| "ROYGBV".contains(*c)).collect()
        };
        assert_eq!(objectives.len(), seats, "{variant}");
        let logs: Vec<PathBuf> = (0..seats).map(|s| temp(&format!("{variant}-{s}"))).collect();
        let mut engines: Vec<Engine> =
            logs.iter().map(|l| Engine::start(&format!("{} --log {}", fixture(), l.display())).unwrap()).collect();
        for (s, e) in engines.iter_mut().enumerate() {
            e.new_game(&*m, Reader::Seat(s)).unwrap();
        }
        while let Turn::Seat(s) = m.to_move() {
            let p = engines[s].go(&*m, Limits::movetime(Duration::from_millis(500)), GRACE).unwrap();
            m.play(&p.mv).unwrap();
        }
        for e in engines {
            e.quit(Duration::from_secs(2));
        }
        for (s, log) in logs.iter().enumerate() {
            let text = std::fs::read_to_string(log).unwrap();
            assert!(!text.to_lowercase().contains("seed"), "seat {s} was sent a seed:\n{text}");
            let deals: Vec<&str> = text.lines().filter(|l| l.starts_with("deal ")).collect();
            assert_eq!(deals.len(), 1, "{text}");
            let told = deals[0].split(" ; ").find_map(|p| p.strip_prefix("objectives ")).unwrap();
            let expected: Vec<String> =
                (0..seats).map(|t| if t == s { objectives[t].to_string() } else { "?".to_string() }).collect();
            assert_eq!(told, expected.join(" "), "seat {s} of {variant}");
            let _ = std::fs::remove_file(log);
        }
    }
}

fn first_move_error(args: &str, limits: Limits, grace: Duration) -> (EngineError, Vec<String>) {
    let registry = plateau_games::registry();
    let m = registry.new_match("abalone", &Setup::default()).unwrap();
    let mut e = Engine::start(&format!("{} {args}", fixture())).unwrap();
    e.new_game(&*m, Reader::Seat(0)).unwrap();
    let err = e.go(&*m, limits, grace).unwrap_err();
    // Give the stderr thread a moment to read a dying engine's last words.
    std::thread::sleep(Duration::from_millis(200));
    (err, e.stderr_tail())
}

#[test]
fn each_failure_of_an_engine_is_told_apart() {
    let (err, tail) = first_move_error("--crash-after 0", Limits::movetime(Duration::from_secs(1)), GRACE);
    assert_eq!(err.kind(), "crash", "{err}");
    assert!(tail.iter().any(|l| l.contains("crashing on purpose")), "{tail:?}");
    let (err, _) = first_move_error("--illegal", Limits::movetime(Duration::from_secs(1)), GRACE);
    assert_eq!(err, EngineError::Illegal { mv: "zz99".into(), why: "\"zz\" is not a cell of the board".into() });
    // 3 s of thinking for 100 ms and 200 ms of grace: a timeout, told at the deadline.
    let (err, _) =
        first_move_error("--sleep-ms 3000", Limits::movetime(Duration::from_millis(100)), Duration::from_millis(200));
    match err {
        EngineError::Timeout { what, after } => {
            assert_eq!(what, "bestmove");
            assert!(after >= Duration::from_millis(300), "{after:?}");
        }
        other => panic!("{other}"),
    }
    assert!(matches!(Engine::start("no-such-program-of-plateau"), Err(EngineError::Start(_))));
    assert!(matches!(Engine::start("true"), Err(EngineError::Exited(_))));
    assert!(matches!(Engine::start("  "), Err(EngineError::Start(_))));
}

#[test]
fn an_option_that_does_not_fit_on_one_line_is_refused_before_sending() {
    let registry = plateau_games::registry();
    let mut e = Engine::start(&fixture()).unwrap();
    // The standard layout as a position text (crates/abalone/src/text.rs): it has spaces.
    let setup = Setup {
        options: plateau_core::Options::from_pairs(["position=wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 0 0"])
            .unwrap(),
        ..Setup::default()
    };
    let m = registry.new_match("abalone", &setup).unwrap();
    let err = e.new_game(&*m, Reader::Seat(0)).unwrap_err();
    assert!(err.to_string().contains("position record"), "{err}");
    // Nothing was sent: the engine is still in step.
    e.is_ready().unwrap();
}

#[test]
fn an_engine_that_floods_its_output_is_held_to_its_time() {
    // It answers the handshake and the position, then writes without end.
    let script = "import sys\n\
                  for line in sys.stdin:\n    \
                      w = line.split()\n    \
                      if w[0] == 'plateau': print('games abalone', 'plateauok', sep='\\n', flush=True)\n    \
                      elif w[0] == 'go':\n        \
                          while True: print('x' * 1000)\n    \
                      else: print('ok', flush=True)\n";
    let path = temp("flood.py");
    std::fs::write(&path, script).unwrap();
    let registry = plateau_games::registry();
    let m = registry.new_match("abalone", &Setup::default()).unwrap();
    let mut e = Engine::start(&format!("python3 {}", path.display())).unwrap();
    e.new_game(&*m, Reader::Seat(0)).unwrap();
    let err = e.go(&*m, Limits::movetime(Duration::from_millis(100)), Duration::from_millis(400)).unwrap_err();
    assert!(matches!(err, EngineError::Timeout { .. }), "{err}");
    assert!(e.noise.len() <= 100, "what is kept of its lines is bounded");
    drop(e);
    let _ = std::fs::remove_file(path);
}
