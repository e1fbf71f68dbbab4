//! Hidden objectives never leak before the end, and sampling from a seat's
//! knowledge gives exactly the states consistent with it.
//!
//! The leak tests are exhaustive for the positions they visit: for a seat, the
//! true state is compared with every state that differs from it only in the
//! objectives that seat does not know; every output a player's client can get
//! (its view, the spectator's view, the drawings, the legal moves, the parse
//! and refusal messages of every move text, the record in progress) must be
//! byte for byte the same. An output that carried another seat's objective
//! would differ for some assignment.

use plateau_core::erased::{AnyMatch, Match, Registry};
use plateau_core::rand::{RngExt, SeedableRng};
use plateau_core::{Game, Hidden, Options, Reader, Setup, State, Turn, entry};
use plateau_kabaleo::{Assignment, Colour, Deal, Kabaleo, KabaleoState, Knowledge, SampleError, Weights};
use rand_chacha::ChaCha8Rng;

/// Everything a client of `seat` can be sent about `st`, as text.
fn client_outputs(st: &KabaleoState, seat: usize) -> Vec<String> {
    let mut out = vec![
        serde_json::to_string(&st.view(Reader::Seat(seat))).unwrap(),
        serde_json::to_string(&st.view(Reader::Spectator)).unwrap(),
        st.render(Reader::Seat(seat), true),
        st.render(Reader::Seat(seat), false),
        st.render(Reader::Spectator, true),
        format!("{:?}", st.to_move()),
        format!("{:?}", st.outcome()),
    ];
    let mut moves = Vec::new();
    st.legal_moves(&mut moves);
    out.push(moves.iter().map(|&m| st.format_move(m)).collect::<Vec<_>>().join(" "));
    out.push(st.count_moves().to_string());
    // Every move text of the notation, and some that are not.
    let mut probes: Vec<String> = vec!["pass".into(), "".into(), "x".into(), "R".into(), "R0".into(), "Z3".into()];
    for c in Colour::ALL {
        for l in 1..=st.locations() + 1 {
            probes.push(format!("{}{l}", c.letter()));
        }
    }
    for p in probes {
        match st.parse_move(&p) {
            Err(e) => out.push(format!("{p}: parse error {e}")),
            Ok(mv) => {
                let mut work = st.clone();
                match work.try_apply(mv) {
                    Err(e) => out.push(format!("{p}: refused {e}")),
                    // The view after the move, unless the move ended the game
                    // (which reveals every objective, as it should).
                    Ok(_) if work.to_move() == Turn::Over => out.push(format!("{p}: ok, game over")),
                    Ok(_) => {
                        out.push(format!("{p}: ok {}", serde_json::to_string(&work.view(Reader::Seat(seat))).unwrap()))
                    }
                }
            }
        }
    }
    out
}

/// For every seat of `st`: every consistent assignment gives the same client
/// outputs, and the true one is among them.
fn assert_indistinguishable(st: &KabaleoState) {
    for seat in 0..st.seats() {
        let k = st.knowledge(seat);
        let truth = client_outputs(st, seat);
        let all = k.assignments();
        assert_eq!(all.len(), k.count_assignments());
        let real = Assignment::new(&(0..st.seats()).map(|s| st.objective(s)).collect::<Vec<_>>());
        assert!(all.contains(&real), "the true assignment is consistent");
        for a in &all {
            let other = k.complete(a).unwrap();
            assert_eq!(other.knowledge(seat), k);
            let outs = client_outputs(&other, seat);
            for (x, y) in truth.iter().zip(&outs) {
                assert_eq!(x, y, "seat {seat} could tell {real:?} from {a:?}");
            }
        }
    }
}

/// States along seeded random games of every configuration.
fn positions(players: usize, deal: Deal, golden: bool, games: u64, every: usize) -> Vec<KabaleoState> {
    let game = Kabaleo::new(players, deal, None, golden).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(players as u64 * 100 + golden as u64);
    let mut out = Vec::new();
    for seed in 0..games {
        let mut st = game.start(seed);
        let mut moves = Vec::new();
        let mut ply = 0;
        while st.to_move() != Turn::Over {
            if ply % every == 0 {
                out.push(st.clone());
            }
            st.legal_moves(&mut moves);
            st.apply(moves[rng.random_range(0..moves.len())]);
            ply += 1;
        }
        out.push(st);
    }
    out
}

#[test]
fn no_output_depends_on_an_unknown_objective() {
    for (players, deal, golden) in [
        (2, Deal::Random, false),
        (2, Deal::Even, true),
        (3, Deal::Random, true),
        (3, Deal::Even, false),
        (4, Deal::Random, false),
    ] {
        for st in positions(players, deal, golden, 2, 7) {
            assert_indistinguishable(&st);
        }
    }
}

#[test]
fn views_show_only_the_readers_own_objective_until_the_end() {
    for players in 2..=4 {
        for st in positions(players, Deal::Random, false, 3, 5) {
            let over = st.to_move() == Turn::Over;
            for reader in (0..players).map(Reader::Seat).chain([Reader::Spectator]) {
                let v = serde_json::to_value(st.view(reader)).unwrap();
                let text = serde_json::to_string(&v).unwrap();
                let drawing = st.render(reader, false);
                for s in 0..players {
                    let c = st.objective(s);
                    let visible = over || reader == Reader::Seat(s);
                    let shown = &v["objectives"][s];
                    if visible {
                        assert_eq!(shown, c.letter_str());
                    } else {
                        assert!(shown.is_null(), "{reader:?} sees seat {s}'s objective: {text}");
                    }
                    // The drawing names an objective only as "objective <letter> <name>".
                    let mark = format!("objective {} {}", c.letter(), c.name());
                    assert_eq!(drawing.contains(&mark), visible, "{reader:?}, seat {s}:\n{drawing}");
                }
                assert_eq!(v["standings"].is_null(), !over);
                assert_eq!(v["decided_by"].is_null(), !over);
                if !over {
                    assert!(!text.contains("\"winner\"") && !text.contains("\"place\""));
                }
            }
            // The referee sees everything.
            let v = serde_json::to_value(st.view(Reader::Referee)).unwrap();
            assert!(v["objectives"].as_array().unwrap().iter().all(|o| o.is_string()));
        }
    }
}

fn registry() -> Registry {
    Registry::new().with(entry::<Kabaleo>())
}

/// Through the type-erased layer, as a server or the command line would:
/// records in progress carry no seed and no result tags, are the same for
/// every player and the spectator, and views hide the others' objectives.
#[test]
fn records_and_erased_views_in_progress_carry_no_objective() {
    let reg = registry();
    for (variant, opts) in [("standard", vec![]), ("3-players", vec!["golden-rule=on"]), ("4-players", vec![])] {
        for seed in [3u64, 1_000_003] {
            let setup = Setup {
                variant: Some(variant.into()),
                options: Options::from_pairs(opts.iter().copied()).unwrap(),
                seed,
            };
            let mut m = reg.new_match("kabaleo", &setup).unwrap();
            let seats = m.seats();
            let objectives: Vec<Colour> = {
                let typed = m.as_any().downcast_ref::<Match<Kabaleo>>().unwrap();
                (0..seats).map(|s| typed.state().objective(s)).collect()
            };
            let mut i = 0;
            while m.to_move() != Turn::Over {
                let public = m.record(Reader::Spectator).to_text();
                assert!(!public.contains("[Seed"), "{public}");
                for tag in ["Objectives", "Locations", "Covered", "Decided", "Termination"] {
                    assert!(!public.contains(tag), "{tag} in a record in progress:\n{public}");
                }
                let without_deal = |mut r: plateau_core::Record| {
                    r.tags.retain(|(k, _)| k != "Deal");
                    r.to_text()
                };
                let public_deal = m.record(Reader::Spectator).tag("Deal").map(str::to_string);
                assert_eq!(public_deal.as_deref().map(|d| d.matches('?').count()), Some(seats), "{public}");
                for s in 0..seats {
                    let rec = m.record(Reader::Seat(s));
                    assert_eq!(rec.tag("Seed"), None);
                    // The seat's record is the public one but for its deal,
                    // which names the seat's own objective and no other.
                    let deal = rec.tag("Deal").unwrap().to_string();
                    let named: Vec<&str> = deal
                        .split(" ; ")
                        .find_map(|p| p.strip_prefix("objectives "))
                        .unwrap()
                        .split_whitespace()
                        .collect();
                    for (t, o) in named.iter().enumerate() {
                        assert_eq!(*o, if t == s { objectives[t].letter_str() } else { "?" }, "{deal}");
                    }
                    assert_eq!(without_deal(rec), without_deal(m.record(Reader::Spectator)));
                    let v = m.view(Reader::Seat(s));
                    for (t, o) in v["objectives"].as_array().unwrap().iter().enumerate() {
                        if t == s {
                            assert_eq!(o, objectives[t].letter_str());
                        } else {
                            assert!(o.is_null());
                        }
                    }
                }
                assert!(m.record(Reader::Referee).tag("Seed").is_some());
                // Refusals through the erased layer change nothing and say
                // nothing about objectives (their independence from the hidden
                // objectives is proved exhaustively above).
                let before = m.key();
                for bad in ["pass", "Q1", "R99", ""] {
                    let e = m.play(bad).unwrap_err().to_string();
                    assert!(!e.contains("objective"), "{e}");
                    assert_eq!(m.key(), before);
                }
                let moves = m.legal_moves();
                m.play(&moves[(i * 5 + 1) % moves.len()]).unwrap();
                i += 1;
            }
            // At the end the record tells all.
            let rec = m.record(Reader::Seat(0));
            assert!(rec.tag("Seed").is_some());
            let letters: Vec<String> = objectives.iter().map(|c| c.letter().to_string()).collect();
            assert_eq!(rec.tag("Objectives"), Some(letters.join(" ").as_str()));
        }
    }
}

#[test]
fn knowledge_counts_and_candidates() {
    for (players, count) in [(2, 3), (3, 12), (4, 60)] {
        let game = Kabaleo::new(players, Deal::Random, None, false).unwrap();
        let st = game.start(8);
        for seat in 0..players {
            let k = st.knowledge(seat);
            assert_eq!(k.seat(), seat);
            assert_eq!(k.objective(), st.objective(seat));
            assert_eq!(k.count_assignments(), count);
            let all = k.assignments();
            let mut dedup = all.clone();
            dedup.sort_by_key(|a| a.objectives().to_vec());
            dedup.dedup();
            assert_eq!(dedup.len(), count, "assignments are distinct");
            for a in &all {
                assert_eq!(a.objective(seat), st.objective(seat));
                let mut cs: Vec<Colour> = a.objectives().to_vec();
                cs.sort();
                cs.dedup();
                assert_eq!(cs.len(), players, "objectives are distinct");
                assert!(a.objectives().iter().all(|&c| st.colours().contains(c)));
            }
            for other in (0..players).filter(|&o| o != seat) {
                assert_eq!(k.known_objective(other), None);
                assert_eq!(k.candidates(other), st.colours().without(st.objective(seat)));
            }
            assert_eq!(k.unknown_seats().count(), players - 1);
            assert_eq!(k.view(), st.view(Reader::Seat(seat)));
        }
    }
}

#[test]
fn knowledge_keeps_the_public_history() {
    let game = Kabaleo::new(3, Deal::Random, None, false).unwrap();
    let mut st = game.start(4);
    let first = st.to_move().seat().unwrap();
    let mut played = Vec::new();
    let mut moves = Vec::new();
    for i in 0..7 {
        st.legal_moves(&mut moves);
        let mv = moves[i * 3 % moves.len()];
        played.push(((first + i) % 3, mv));
        st.apply(mv);
    }
    for seat in 0..3 {
        let k = st.knowledge(seat);
        assert_eq!(k.history().collect::<Vec<_>>(), played);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let sampled = KabaleoState::sample(&k, &mut rng);
        assert_eq!(sampled.history().collect::<Vec<_>>(), played);
    }
}

#[test]
fn after_the_end_everything_is_known() {
    for st in positions(4, Deal::Random, true, 2, 1000).into_iter().filter(|s| s.to_move() == Turn::Over) {
        for seat in 0..4 {
            let k = st.knowledge(seat);
            assert_eq!(k.count_assignments(), 1);
            assert_eq!(k.unknown_seats().count(), 0);
            let mut rng = ChaCha8Rng::seed_from_u64(5);
            assert_eq!(KabaleoState::sample(&k, &mut rng), st);
            assert_eq!(k.sample_weighted(&[[1.0; 6]; 4], &mut rng).unwrap(), st);
        }
    }
}

#[test]
fn uniform_sampling_is_uniform_over_consistent_states() {
    let st = Kabaleo::new(4, Deal::Random, None, false).unwrap().start(21);
    let k = st.knowledge(2);
    let all = k.assignments();
    let mut counts = vec![0usize; all.len()];
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let n = 60_000;
    for _ in 0..n {
        let s = KabaleoState::sample(&k, &mut rng);
        assert_eq!(s.knowledge(2), k);
        let a = Assignment::new(&(0..4).map(|p| s.objective(p)).collect::<Vec<_>>());
        counts[all.iter().position(|x| *x == a).expect("a consistent assignment")] += 1;
    }
    // 1000 expected each; 6 standard deviations is about ±190.
    assert!(counts.iter().all(|&c| (800..1200).contains(&c)), "{counts:?}");
}

fn weighted_frequencies(k: &Knowledge, w: &Weights, n: usize) -> Vec<(Assignment, f64)> {
    let all = k.assignments();
    let mut counts = vec![0usize; all.len()];
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..n {
        let s = k.sample_weighted(w, &mut rng).unwrap();
        assert_eq!(s.knowledge(k.seat()), *k);
        let a = Assignment::new(&(0..s.seats()).map(|p| s.objective(p)).collect::<Vec<_>>());
        counts[all.iter().position(|x| *x == a).unwrap()] += 1;
    }
    all.into_iter().zip(counts.into_iter().map(|c| c as f64 / n as f64)).collect()
}

#[test]
fn weighted_sampling_follows_the_weights() {
    // 2 players, seen by seat 0: seat 1's colour is one of 3.
    let st = Kabaleo::new(2, Deal::Random, None, false).unwrap().start(1);
    let k = st.knowledge(0);
    let own = st.objective(0);
    let others: Vec<Colour> = st.colours().without(own).iter().collect();
    let mut w: Weights = [[0.0; 6]; 4];
    w[0] = [f64::NAN; 6]; // a known seat's row is ignored
    w[1][others[0].index()] = 1.0;
    w[1][others[1].index()] = 3.0;
    w[1][others[2].index()] = 0.0;
    for (a, f) in weighted_frequencies(&k, &w, 40_000) {
        let want = [0.25, 0.75, 0.0][others.iter().position(|&c| c == a.objective(1)).unwrap()];
        assert!((f - want).abs() < 0.015, "{a:?}: {f} vs {want}");
    }

    // 3 players, seen by seat 1: the product of the weights over the two
    // unknown seats, renormalised over distinct colours.
    let st = Kabaleo::new(3, Deal::Random, None, false).unwrap().start(2);
    let k = st.knowledge(1);
    let mut w: Weights = [[0.0; 6]; 4];
    w[0] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    w[2] = [3.0, 2.5, 2.0, 1.5, 1.0, 0.5];
    let weight = |a: &Assignment| w[0][a.objective(0).index()] * w[2][a.objective(2).index()];
    let total: f64 = k.assignments().iter().map(weight).sum();
    for (a, f) in weighted_frequencies(&k, &w, 60_000) {
        let want = weight(&a) / total;
        assert!((f - want).abs() < 0.012, "{a:?}: {f} vs {want}");
    }
}

#[test]
fn sampling_errors() {
    let st = Kabaleo::new(3, Deal::Random, None, false).unwrap().start(3);
    let k = st.knowledge(0);
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut w: Weights = [[1.0; 6]; 4];
    w[1][st.colours().without(st.objective(0)).iter().next().unwrap().index()] = -1.0;
    assert!(matches!(k.sample_weighted(&w, &mut rng), Err(SampleError::BadWeight { seat: 1, .. })));
    w[1] = [f64::INFINITY; 6];
    assert!(matches!(k.sample_weighted(&w, &mut rng), Err(SampleError::BadWeight { .. })));
    assert_eq!(k.sample_weighted(&[[0.0; 6]; 4], &mut rng), Err(SampleError::ZeroWeight));
    // Weight only on the seat's own colour: nothing consistent.
    let mut w: Weights = [[0.0; 6]; 4];
    w[1][st.objective(0).index()] = 1.0;
    w[2][st.objective(0).index()] = 1.0;
    assert_eq!(k.sample_weighted(&w, &mut rng), Err(SampleError::ZeroWeight));

    let own = st.objective(0);
    let others: Vec<Colour> = st.colours().without(own).iter().collect();
    assert!(k.complete(&Assignment::new(&[own, others[0], others[1]])).is_ok());
    for (bad, says) in [
        (Assignment::new(&[others[2], others[0], others[1]]), "known to have"),
        (Assignment::new(&[own, others[0], others[0]]), "two players"),
        (Assignment::new(&[own, others[0]]), "2 objectives for 3"),
    ] {
        let e = k.complete(&bad).unwrap_err();
        assert!(e.to_string().contains(says), "{e}");
    }
    let not_in_play = Colour::Violet;
    assert!(k.complete(&Assignment::new(&[own, others[0], not_in_play])).is_err());
}

/// A sampled state plays on like the real one: the same moves are legal for
/// everyone, and the game ends at the same time; only the result may differ.
#[test]
fn sampled_states_play_on() {
    let game = Kabaleo::new(4, Deal::Random, None, true).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut st = game.start(12);
    let mut moves = Vec::new();
    for _ in 0..10 {
        st.legal_moves(&mut moves);
        st.apply(moves[rng.random_range(0..moves.len())]);
    }
    let mut sample = KabaleoState::sample(&st.knowledge(1), &mut rng);
    let mut other = Vec::new();
    while st.to_move() != Turn::Over {
        st.legal_moves(&mut moves);
        sample.legal_moves(&mut other);
        assert_eq!(moves, other);
        let mv = moves[rng.random_range(0..moves.len())];
        st.apply(mv);
        sample.apply(mv);
    }
    assert_eq!(sample.to_move(), Turn::Over);
    assert!(sample.outcome().is_some());
}

#[test]
fn match_typed_access_matches_the_erased_layer() {
    let m = Match::<Kabaleo>::new(Setup { seed: 5, ..Setup::default() }).unwrap();
    let any: &dyn AnyMatch = &m;
    assert_eq!(any.view(Reader::Seat(0)), serde_json::to_value(m.state().view(Reader::Seat(0))).unwrap());
    assert_eq!(m.game().players(), 2);
}
