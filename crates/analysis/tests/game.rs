//! The analysis of finished games: judgements worked by hand, a deliberate
//! Abalone blunder, engine games, Kabaleo's chances and beliefs, stopping.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use plateau_ai::{Score, StopFlag};
use plateau_analysis::{
    BLUNDER, Judgement, PositionEval, Settings, analyse, analyse_hidden, assemble, chances_from_returns,
    evaluate_position, expected_return, judge, spread,
};
use plateau_core::{AnyMatch, Options, Setup};

fn new_match(game: &str, options: &[(&str, &str)], seed: u64) -> Box<dyn AnyMatch> {
    let mut o = Options::new();
    for (k, v) in options {
        o.set(*k, *v);
    }
    plateau_games::registry().new_match(game, &Setup { variant: None, options: o, seed }).unwrap()
}

fn no_stop() -> StopFlag {
    Arc::new(AtomicBool::new(false))
}

fn settings(spec: &str) -> Settings {
    Settings { spec: spec.to_string() }
}

/// The blunder position, Black to move, the first push-out wins:
///
/// ```text
///  row E:  e1 .  e2 W  e3 W  (e4..e9 empty)
///  row D:  d1 B  (d2..d8 empty)
///  row B:  b3 B
/// ```
///
/// Black's d1 is safe where it is: the lines through d1 are row D (d2 and
/// d3 empty), the diagonal e2-f3 toward c0 off the board (f3 is empty, one
/// White marble cannot push), and the file e1-f1 (f1 does not exist). b3
/// is far from White. Black's `d1e1` (d1 steps up to e1, the edge of row E)
/// puts it in front of White's e2 and e3: White's `e3e2` moves e3-e2 toward
/// e1, two pushing one, and e1 has nothing behind it, off the board: White
/// pushes a marble out and wins at once. Every other Black move keeps both
/// marbles out of reach of a two-marble push in one move.
const BLUNDER_POSITION: &str = "5/6/7/8/1ww6/b7/7/2b3/5 b 0 0";

fn blunder_game() -> Box<dyn AnyMatch> {
    let mut m = new_match("abalone", &[("position", BLUNDER_POSITION), ("marbles-to-win", "1")], 0);
    assert!(m.legal_moves().len() > 5, "Black has many moves");
    m.play("d1e1").unwrap();
    assert!(m.legal_moves().iter().any(|mv| mv == "e3e2"));
    m.play("e3e2").unwrap();
    let o = m.outcome().expect("the push-out ends the game");
    assert!(o.is_winner(1) && !o.is_winner(0));
    m
}

#[test]
fn a_deliberate_abalone_blunder_is_judged_a_blunder() {
    let m = blunder_game();
    let s = settings("alphabeta:depth=2");
    let a = analyse(m.as_ref(), &s, &no_stop(), &mut |_, _| {}).unwrap();
    assert_eq!((a.game.as_str(), a.spec.as_str()), ("abalone", "alphabeta:depth=2"));
    assert_eq!(a.plies.len(), 2);
    let p = &a.plies[0];
    assert_eq!((p.ply, p.seat, p.played.as_str()), (1, 0, "d1e1"));
    let best = p.best.as_deref().unwrap();
    assert_ne!(best, "d1e1", "the engine does not blunder");
    assert_eq!(p.line.first().map(String::as_str), Some(best));
    // After the blunder White wins by force: Black's expected return is -1.
    assert_eq!(p.after, vec![-1.0, 1.0]);
    assert!(p.before[0] > -0.7, "before the blunder Black was not lost: {:?}", p.before);
    assert!(p.loss >= BLUNDER);
    assert_eq!(p.judgement, Some(Judgement::Blunder));
    // White's push-out is the engine's own move and ends the game.
    let w = &a.plies[1];
    assert_eq!((w.seat, w.played.as_str(), w.best.as_deref()), (1, "e3e2", Some("e3e2")));
    assert_eq!(w.after, vec![-1.0, 1.0]);
    assert_eq!(w.judgement, None);
    assert_eq!(a.seats[0].blunders, 1);
    assert_eq!(a.seats[1].blunders + a.seats[1].mistakes + a.seats[1].inaccuracies, 0);
    assert!(a.hidden.is_none());
    // The best move really is safe: after it, White has no push-out.
    let mut safe = new_match("abalone", &[("position", BLUNDER_POSITION), ("marbles-to-win", "1")], 0);
    safe.play(best).unwrap();
    for reply in safe.legal_moves() {
        let mut t = safe.clone_box();
        t.play(&reply).unwrap();
        assert!(t.outcome().is_none(), "{reply} would win after {best}");
    }
    // And the JSON has the contract's shape.
    let json = serde_json::to_value(&a).unwrap();
    assert_eq!(json["plies"][0]["judgement"], "blunder");
    assert_eq!(json["hidden"], serde_json::Value::Null);
    assert_eq!(serde_json::from_value::<plateau_analysis::Analysis>(json).unwrap(), a);
}

#[test]
fn the_final_position_gives_the_returns_and_positions_outside_the_game_are_refused() {
    let m = blunder_game();
    let s = settings("alphabeta:depth=2");
    let end = evaluate_position(m.as_ref(), 2, &s, &no_stop()).unwrap();
    assert_eq!(end, PositionEval { ply: 2, values: vec![-1.0, 1.0], best: None, line: vec![] });
    assert!(evaluate_position(m.as_ref(), 3, &s, &no_stop()).is_err());
    assert!(evaluate_position(m.as_ref(), 0, &settings("alphabeta"), &no_stop()).is_err(), "no budget");
    assert!(evaluate_position(m.as_ref(), 0, &settings("nonsense"), &no_stop()).is_err());
    // The match analysed is left as it was.
    assert_eq!(m.ply(), 2);
}

#[test]
fn a_resigned_game_ends_on_its_result_and_the_positions_before_are_searched() {
    let mut m = new_match("abalone", &[], 0);
    for mv in ["a1b2", "i5h5"] {
        m.play(mv).unwrap();
    }
    m.adjudicate(plateau_core::Outcome::win(2, 1, "resignation"));
    let a = analyse(m.as_ref(), &settings("alphabeta:depth=1"), &no_stop(), &mut |_, _| {}).unwrap();
    assert_eq!(a.plies.len(), 2);
    // The last move's "after" is the result: Black resigned.
    assert_eq!(a.plies[1].after, vec![-1.0, 1.0]);
    // The position before it was searched, not taken as over.
    assert!(a.plies[1].best.is_some());
    assert!(a.plies[1].before[0] > -0.9, "{:?}", a.plies[1].before);
    assert_eq!(m.outcome().map(|o| o.reason), Some("resignation"), "the match is left as it was");
}

#[test]
fn an_engine_game_has_no_judgement_on_the_engines_own_moves() {
    let spec = "alphabeta:depth=2";
    let mut m = new_match("abalone", &[], 0);
    let mut player = plateau_games::players("abalone").unwrap().create_from(spec).unwrap();
    for _ in 0..10 {
        let c = player.choose(m.as_ref()).unwrap();
        m.play(&c.mv).unwrap();
    }
    let a = analyse(m.as_ref(), &settings(spec), &no_stop(), &mut |_, _| {}).unwrap();
    assert_eq!(a.plies.len(), 10);
    for (k, p) in a.plies.iter().enumerate() {
        assert_eq!(p.best.as_deref(), Some(p.played.as_str()), "ply {}", k + 1);
        assert_eq!(p.judgement, None);
        assert_eq!(p.seat, k % 2);
        // Two seats: v and -v.
        assert_eq!(p.before[0], -p.before[1]);
        assert!(p.before.iter().all(|v| (-1.0..=1.0).contains(v)));
    }
    for s in &a.seats {
        assert_eq!((s.inaccuracies, s.mistakes, s.blunders), (0, 0, 0));
    }
}

fn eval(ply: usize, values: [f32; 2], best: &str) -> PositionEval {
    PositionEval { ply, values: values.to_vec(), best: Some(best.to_string()), line: vec![best.to_string()] }
}

#[test]
fn judgements_follow_the_thresholds_worked_by_hand() {
    // Four moves of Abalone's standard game; the evaluations are made up.
    let mut m = new_match("abalone", &[], 0);
    for mv in ["a1b2", "i5h5", "a2b3", "i6h6", "b1c2"] {
        m.play(mv).unwrap();
    }
    let moves = m.history();
    let other = "zz"; // an engine move that was never played
    let evals = vec![
        // Black (seat 0) moves: 0.5 -> 0.4: a loss of 0.1, exactly the inaccuracy threshold.
        eval(0, [0.5, -0.5], other),
        // White moves: White -0.4 -> -0.625: 0.225, a mistake.
        eval(1, [0.4, -0.4], other),
        // Black: 0.625 -> 0.25: 0.375, a blunder.
        eval(2, [0.625, -0.625], other),
        // White: -0.25 -> -0.3125: 0.0625, nothing.
        eval(3, [0.25, -0.25], other),
        // Black: 0.3125 -> -0.5, a loss of 0.8125, but the engine's own move: nothing.
        eval(4, [0.3125, -0.3125], &moves[4]),
        eval(5, [-0.5, 0.5], other),
    ];
    let s = settings("alphabeta:depth=1");
    let a = assemble(m.as_ref(), &evals, None, &s).unwrap();
    let got: Vec<(f32, Option<Judgement>)> = a.plies.iter().map(|p| (p.loss, p.judgement)).collect();
    assert_eq!(
        got,
        vec![
            (0.1, Some(Judgement::Inaccuracy)),
            (0.225, Some(Judgement::Mistake)),
            (0.375, Some(Judgement::Blunder)),
            (0.0625, None),
            (0.8125, None),
        ]
    );
    assert_eq!(a.plies[2].before, vec![0.625, -0.625]);
    assert_eq!(a.plies[2].after, vec![0.25, -0.25]);
    assert_eq!(a.plies[1].played, "i5h5");
    // Black: 0.1, 0.375, 0.8125 -> 1.2875 / 3; White: 0.225, 0.0625 -> 0.14375.
    let (b, w) = (&a.seats[0], &a.seats[1]);
    assert_eq!((b.inaccuracies, b.mistakes, b.blunders), (1, 0, 1));
    assert_eq!((w.inaccuracies, w.mistakes, w.blunders), (0, 1, 0));
    assert!((b.average_loss - 1.2875 / 3.0).abs() < 1e-5);
    assert!((w.average_loss - 0.14375).abs() < 1e-5);
    // A move that gained: no loss.
    let mut gained = evals.clone();
    gained[1].values = vec![0.75, -0.75];
    assert_eq!(assemble(m.as_ref(), &gained, None, &s).unwrap().plies[0].loss, 0.0);
    // Wrong shapes are refused.
    assert!(assemble(m.as_ref(), &evals[..5], None, &s).is_err());
    let mut misnumbered = evals.clone();
    misnumbered[2].ply = 7;
    assert!(assemble(m.as_ref(), &misnumbered, None, &s).is_err());
    let mut three = evals.clone();
    three[0].values.push(0.0);
    assert!(assemble(m.as_ref(), &three, None, &s).is_err());
    // The thresholds themselves.
    assert_eq!(judge(0.0999), None);
    assert_eq!(judge(0.1999), Some(Judgement::Inaccuracy));
    assert_eq!(judge(0.2999), Some(Judgement::Mistake));
    assert_eq!(judge(2.0), Some(Judgement::Blunder));
    assert_eq!(serde_json::to_string(&Judgement::Mistake).unwrap(), "\"mistake\"");
}

#[test]
fn scores_convert_to_expected_returns_and_chances() {
    assert_eq!(expected_return(Score::Eval(0)), Some(0.0));
    // tanh(1) = 0.761594...
    assert!((expected_return(Score::Eval(500)).unwrap() - 0.761_594).abs() < 1e-5);
    assert!((expected_return(Score::Eval(-1000)).unwrap() + 0.964_028).abs() < 1e-5);
    assert_eq!(expected_return(Score::Win(3)), Some(1.0));
    assert_eq!(expected_return(Score::Loss(1)), Some(-1.0));
    assert_eq!(expected_return(Score::Value(0.25)), Some(0.25));
    assert_eq!(expected_return(Score::Plan(4)), None);
    assert_eq!(spread(1, 0.5, 2), vec![-0.5, 0.5]);
    assert_eq!(spread(0, 0.5, 3), vec![0.5, -0.25, -0.25]);
    // Two seats: (1 + r) / 2.
    assert_eq!(chances_from_returns(&[0.5, -0.5]), vec![0.75, 0.25]);
    // Three seats, a sure winner: (2·1 + 1)/3 = 1, (2·(-0.5) + 1)/3 = 0.
    assert_eq!(chances_from_returns(&[1.0, -0.5, -0.5]), vec![1.0, 0.0, 0.0]);
    // Three even seats: 1/3 each.
    let even = chances_from_returns(&[0.0, 0.0, 0.0]);
    assert!(even.iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-6));
}

/// A finished game of Kabaleo between greedy players.
fn kabaleo_game(seats: &str, seed: u64) -> Box<dyn AnyMatch> {
    let mut m = new_match("kabaleo", &[("players", seats)], seed);
    let mut p = plateau_games::players("kabaleo").unwrap().create_from("greedy:seed=7").unwrap();
    while m.outcome().is_none() {
        let c = p.choose(m.as_ref()).unwrap();
        m.play(&c.mv).unwrap();
    }
    m
}

#[test]
fn kabaleo_chances_and_beliefs() {
    for (seats, seed) in [("2", 3), ("3", 11)] {
        let m = kabaleo_game(seats, seed);
        let n = m.ply();
        let k = m.seats();
        let h = analyse_hidden(m.as_ref(), &settings("ismcts:iterations=64,seed=1"), &no_stop()).unwrap().unwrap();
        assert_eq!(h.values, vec!["R", "O", "Y", "G", "B", "V"]);
        assert_eq!(h.secrets.len(), k);
        // The secrets are the referee's: the deal's objectives, as letters.
        let deal = m.deal(plateau_core::Reader::Referee).unwrap();
        let objectives = deal.split(';').find_map(|part| part.trim().strip_prefix("objectives ")).unwrap();
        let letters: Vec<&str> = h.secrets.iter().map(|&v| h.values[v].as_str()).collect();
        assert_eq!(objectives.split_whitespace().collect::<Vec<_>>(), letters);
        assert_eq!(h.chances.len(), n + 1);
        assert_eq!(h.beliefs.len(), n + 1);
        for (ply, at) in h.beliefs.iter().enumerate() {
            assert_eq!(at.len(), k);
            for (observer, rows) in at.iter().enumerate() {
                assert_eq!(rows.len(), k);
                for (seat, row) in rows.iter().enumerate() {
                    assert_eq!(row.len(), 6);
                    assert!(row.iter().all(|p| (0.0..=1.0).contains(p)), "ply {ply}: {row:?}");
                    let sum: f32 = row.iter().sum();
                    assert!((sum - 1.0).abs() < 1e-4, "ply {ply} observer {observer} seat {seat}: {row:?}");
                    if observer == seat {
                        let mut one_hot = vec![0.0; 6];
                        one_hot[h.secrets[seat]] = 1.0;
                        assert_eq!(row, &one_hot);
                    }
                }
            }
        }
        for c in &h.chances {
            assert_eq!(c.len(), k);
            assert!(c.iter().all(|p| (0.0..=1.0).contains(p)), "{c:?}");
            assert!((c.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        }
        // The final position: the result (each of the w winners 1/w).
        let o = m.outcome().unwrap();
        let w = o.winners().len() as f32;
        let last: Vec<f32> = (0..k).map(|s| if o.is_winner(s) { 1.0 / w } else { 0.0 }).collect();
        assert_eq!(h.chances[n], last);
        // At the start, before any move, no one has revealed anything: every
        // other seat's secret is spread over more than one colour.
        for (observer, rows) in h.beliefs[0].iter().enumerate() {
            for (seat, row) in rows.iter().enumerate().filter(|(s, _)| *s != observer) {
                assert!(row.iter().filter(|&&p| p > 0.0).count() > 1, "{observer} about {seat}: {row:?}");
            }
        }
    }
}

#[test]
fn kabaleo_positions_are_judged_and_assembled_with_the_hidden_part() {
    let m = kabaleo_game("2", 5);
    let s = settings("ismcts:iterations=32,seed=2");
    let a = analyse(m.as_ref(), &s, &no_stop(), &mut |_, _| {}).unwrap();
    assert_eq!(a.plies.len(), m.ply());
    let h = a.hidden.as_ref().expect("Kabaleo has secrets");
    assert_eq!(h.chances.len(), m.ply() + 1);
    for p in &a.plies {
        assert!(p.before.iter().chain(&p.after).all(|v| (-1.0..=1.0).contains(v)));
        assert!(p.loss >= 0.0);
    }
    // Perfect-information games have no hidden part.
    assert_eq!(analyse_hidden(blunder_game().as_ref(), &s, &no_stop()).unwrap(), None);
}

#[test]
fn a_seats_own_deal_of_kabaleo_is_refused() {
    // One seat's knowledge: the others' objectives are made up.
    let full = new_match("kabaleo", &[], 9);
    let deal = full.deal(plateau_core::Reader::Seat(0)).unwrap();
    let entry = plateau_games::registry();
    let setup = Setup { variant: None, options: Options::new(), seed: 0 };
    let dealt = entry.get("kabaleo").unwrap().new_match_dealt(&setup, &deal).unwrap();
    let e = analyse_hidden(dealt.as_ref(), &settings("ismcts:iterations=8"), &no_stop()).unwrap_err();
    assert!(e.0.contains("every secret"), "{e}");
}

#[test]
fn a_stop_flag_set_before_the_call_returns_at_once() {
    let stop: StopFlag = Arc::new(AtomicBool::new(true));
    let m = blunder_game();
    // An unbounded-looking budget: were the flag ignored, this would take minutes.
    let slow = settings("alphabeta:time=60s");
    assert!(evaluate_position(m.as_ref(), 0, &slow, &stop).is_err());
    let mut calls = 0;
    assert!(analyse(m.as_ref(), &slow, &stop, &mut |_, _| calls += 1).is_err());
    assert_eq!(calls, 0);
    let k = kabaleo_game("2", 1);
    assert!(analyse_hidden(k.as_ref(), &settings("ismcts:time=60s"), &stop).is_err());
}

#[test]
fn a_stop_flag_set_during_the_search_ends_it() {
    let stop = no_stop();
    let m = new_match("abalone", &[], 0);
    let setter = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        })
    };
    // A minute of search from the start, were the flag ignored.
    let got = evaluate_position(m.as_ref(), 0, &settings("alphabeta:time=60s"), &stop);
    assert_eq!(got.unwrap_err().to_string(), "the analysis was stopped");
    setter.join().unwrap();
}

#[test]
fn losing_a_marble_in_a_normal_game_is_at_least_a_mistake() {
    // The same position with the usual six marbles to win: d1e1 loses a
    // marble at once (see BLUNDER_POSITION) instead of the game.
    let mut m = new_match("abalone", &[("position", BLUNDER_POSITION)], 0);
    m.play("d1e1").unwrap();
    m.play("e3e2").unwrap();
    assert!(m.outcome().is_none());
    let a = analyse(m.as_ref(), &settings("alphabeta:depth=2"), &no_stop(), &mut |_, _| {}).unwrap();
    let p = &a.plies[0];
    assert_ne!(p.best.as_deref(), Some("d1e1"));
    assert!(matches!(p.judgement, Some(Judgement::Mistake | Judgement::Blunder)), "{p:?}");
}

#[test]
fn default_settings_per_game() {
    assert_eq!(Settings::for_game("abalone").spec, "alphabeta:time=300ms");
    assert_eq!(Settings::for_game("kabaleo").spec, "ismcts:time=300ms");
    assert_eq!(Settings::with_time("abraxas", std::time::Duration::from_secs(3600)).spec, "alphabeta:time=10000ms");
    assert_eq!(Settings::with_time("colorito", std::time::Duration::ZERO).spec, "alphabeta:time=10ms");
}
