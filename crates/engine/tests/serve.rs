//! The engine side (`plateau engine`) driven through its input and output
//! in memory: the handshake, each game, errors that change nothing, hidden
//! information, `stop`, `position record`. Expected moves are checked with
//! the rules (the registry), not with the engine's own session.

use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

use plateau_ai::PlayerSpec;
use plateau_core::{Reader, Setup};
use plateau_engine::Reply;
use plateau_engine::serve::{Identity, Specs, serve};

#[derive(Clone, Default)]
struct Out(Arc<Mutex<Vec<u8>>>);

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn specs() -> Specs {
    Specs {
        default: PlayerSpec::parse("alphabeta:depth=2").unwrap(),
        games: vec![("kabaleo".into(), PlayerSpec::parse("ismcts:iterations=200,seed=1").unwrap())],
    }
}

/// Run a session on `input`; the replies, one per line.
fn session_with(specs: &Specs, input: &str) -> Vec<String> {
    let out = Out::default();
    let who = Identity { name: "Test".into(), author: "Me".into() };
    serve(&plateau_games::registry(), specs, &who, Cursor::new(input.as_bytes().to_vec()), out.clone()).unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    text.lines().map(str::to_string).collect()
}

fn session(input: &str) -> Vec<String> {
    session_with(&specs(), input)
}

fn bestmoves(lines: &[String]) -> Vec<String> {
    lines.iter().filter_map(|l| l.strip_prefix("bestmove ").map(str::to_string)).collect()
}

/// Every line the engine wrote is a reply of the protocol.
fn all_replies(lines: &[String]) {
    for l in lines {
        Reply::parse(l).unwrap_or_else(|e| panic!("{l:?} is not a reply: {e}"));
    }
}

#[test]
fn the_handshake_names_the_engine_and_the_games_its_players_can_play() {
    let lines = session("plateau 1\nquit\n");
    assert_eq!(
        lines,
        ["id name Test", "id author Me", "games abalone colorito kabaleo abraxas", "plateauok"],
        "a quit is not answered"
    );
    // Alpha-beta alone cannot play Kabaleo (hidden information): not claimed.
    let lines = session_with(&Specs::one(PlayerSpec::parse("alphabeta:depth=1").unwrap()), "plateau 1\n");
    assert_eq!(lines[2], "games abalone colorito abraxas");
    let lines = session_with(&Specs::one(PlayerSpec::parse("alphabeta:depth=1").unwrap()), "newgame kabaleo\n");
    assert!(lines[0].starts_with("error the player alphabeta:depth=1 cannot play kabaleo"), "{lines:?}");
}

#[test]
fn each_game_gets_a_legal_move_for_the_position_given() {
    let registry = plateau_games::registry();
    for game in ["abalone", "colorito", "abraxas"] {
        // Six plies of the first legal move each time: a position the rules
        // (not the engine) build.
        let mut m = registry.new_match(game, &Setup::default()).unwrap();
        for _ in 0..6 {
            let mv = m.legal_moves()[0].clone();
            m.play(&mv).unwrap();
        }
        let input = format!("newgame {game}\nposition moves {}\ngo depth 2\n", m.history().join(" "));
        let lines = session(&input);
        all_replies(&lines);
        assert_eq!(&lines[..2], ["ok", "ok"], "{game}: {lines:?}");
        let best = bestmoves(&lines);
        assert_eq!(best.len(), 1, "{game}: {lines:?}");
        assert!(m.legal_moves().contains(&best[0]), "{game}: {} is not legal", best[0]);
        assert!(lines.iter().any(|l| l.starts_with("info depth 2 ")), "{game}: {input} {lines:?}");
    }
}

#[test]
fn bad_input_is_an_error_and_changes_nothing() {
    let lines = session(
        "hello\n\nnewgame chess\nnewgame abalone variant=nope\nnewgame abalone\nposition moves a1b2\n\
         position moves a1b2 zz\ngo depth 0\ngo movetime\ngo soon\nposition\nlegal a1b2\ngo depth 1\n",
    );
    all_replies(&lines);
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("error ")).collect();
    assert_eq!(errors.len(), 8, "{lines:?}");
    assert!(errors[0].contains("unknown command \"hello\""), "{}", errors[0]);
    assert!(errors[1].contains("unknown game \"chess\""), "{}", errors[1]);
    assert!(errors[2].contains("no variant \"nope\""), "{}", errors[2]);
    assert!(errors[3].contains("move 2 \"zz\""), "{}", errors[3]);
    // The position is still the one after a1b2: White to move.
    let registry = plateau_games::registry();
    let mut m = registry.new_match("abalone", &Setup::default()).unwrap();
    m.play("a1b2").unwrap();
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1);
    assert!(m.legal_moves().contains(&best[0]), "{} after a1b2", best[0]);
    // Without a game, no position and no search.
    let lines = session("position moves\ngo\ndeal x\n");
    assert!(lines.iter().all(|l| l.starts_with("error ") && l.contains("newgame")), "{lines:?}");
    // A line past the cap is one error; the session goes on.
    let long = format!("position moves {}\nisready\n", "a1b2 ".repeat(300_000));
    assert_eq!(session(&long), ["error a line longer than 1048576 bytes", "readyok"]);
}

#[test]
fn kabaleo_is_played_from_the_seat_knowledge_in_the_deal_only() {
    let registry = plateau_games::registry();
    let setup = Setup { variant: Some("3-players".into()), seed: 5, ..Setup::default() };
    let m = registry.new_match("kabaleo", &setup).unwrap();
    let first = m.to_move().seat().unwrap();
    let other = (first + 1) % 3;
    let mine = m.deal(Reader::Seat(first)).unwrap();
    let theirs = m.deal(Reader::Seat(other)).unwrap();
    // A seed is refused: it would be every secret.
    let lines = session("newgame kabaleo variant=3-players seed=5\n");
    assert!(lines[0].contains("send deal, not a seed"), "{lines:?}");
    // No position before the deal.
    let lines = session("newgame kabaleo variant=3-players\nposition moves\n");
    assert!(lines[1].contains("send deal first"), "{lines:?}");
    // The seat to move's deal: a legal move.
    let lines = session(&format!("newgame kabaleo variant=3-players\ndeal {mine}\nposition moves\ngo\n"));
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    assert!(m.legal_moves().contains(&best[0]));
    // Another seat's deal cannot choose for the seat to move.
    let lines = session(&format!("newgame kabaleo variant=3-players\ndeal {theirs}\nposition moves\ngo\n"));
    assert_eq!(lines[..2], ["ok", "ok"]);
    assert_eq!(
        lines[3],
        format!("error the deal is player {}'s knowledge: it cannot choose for player {}", other + 1, first + 1)
    );
    // A bad deal is refused.
    let lines = session("newgame kabaleo\ndeal bases RRRR ; objectives R ?\n");
    assert!(lines[1].starts_with("error deal: "), "{lines:?}");
}

#[test]
fn stop_ends_an_infinite_search_with_a_move() {
    // `go infinite` alone would search for the longest time allowed (60 s);
    // `stop` right after ends it, and the search reports less than half of it.
    let input = "newgame abalone\nposition moves\ngo infinite\nstop\nisready\n";
    let lines = session_with(&Specs::one(PlayerSpec::parse("alphabeta:time=1s").unwrap()), input);
    all_replies(&lines);
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    let info = lines.iter().find(|l| l.starts_with("info ")).unwrap();
    let Reply::Info(i) = Reply::parse(info).unwrap() else { panic!() };
    assert!(i.time.unwrap().as_secs() < 30, "{info}");
    assert_eq!(lines.last().unwrap(), "readyok");
    // `quit` stops the search too (its move is still written).
    let lines = session_with(
        &Specs::one(PlayerSpec::parse("alphabeta:time=1s").unwrap()),
        "newgame abalone\nposition moves\ngo infinite\nquit\n",
    );
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
}

#[test]
fn position_record_sets_game_options_and_moves() {
    let input = "position record\n[Game \"abalone\"]\n[Variant \"belgian-daisy\"]\n[Option \"marbles-to-win=1\"]\n\
                 1. a1b2\n\ngo depth 1\nposition record\n1. c3\n\n";
    let lines = session(input);
    all_replies(&lines);
    assert_eq!(lines[0], "ok");
    let registry = plateau_games::registry();
    let rec = plateau_core::Record::parse("[Game \"abalone\"]\n[Variant \"belgian-daisy\"]\n1. a1b2\n").unwrap();
    let m = registry.replay(&rec, None, None).unwrap();
    assert!(m.legal_moves().contains(&bestmoves(&lines)[0]));
    // A bare move list needs its moves to be legal in the current game.
    assert!(lines.last().unwrap().starts_with("error "), "{lines:?}");
    // No game, no Game tag: an error.
    let lines = session("position record\n1. a1b2\n\n");
    assert!(lines[0].contains("no Game tag"), "{lines:?}");
}

#[test]
fn the_end_of_input_ends_the_session_after_the_search() {
    let lines = session("newgame colorito\nposition moves\ngo depth 1");
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
}
