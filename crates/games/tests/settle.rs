//! `AnyMatch::settle`: a finished game's results, computed once, answer
//! exactly as the rules would, for every game, and are dropped by `undo`.

use plateau_core::{Reader, Setup, Turn};

#[test]
fn settled_results_are_the_rules_results() {
    let registry = plateau_games::registry();
    for g in registry.games() {
        let name = g.info().name;
        for seed in 1..4u64 {
            let mut m = registry.new_match(name, &Setup { seed, ..Setup::default() }).unwrap();
            // A cheap way to the end: the first legal move each time (bounded).
            let mut plies = 0;
            while m.to_move() != Turn::Over && plies < 5_000 {
                let mv = m.legal_moves()[((plies * 7 + seed as usize) * 31) % m.legal_moves().len()].clone();
                m.play(&mv).unwrap();
                plies += 1;
            }
            if m.to_move() != Turn::Over {
                // Ended by a result instead (as a resignation would).
                let n = m.seats();
                m.adjudicate(plateau_core::Outcome::shared_win(n, &[0], "resignation"));
            }
            let readers: Vec<Reader> =
                [Reader::Referee, Reader::Spectator].into_iter().chain((0..m.seats()).map(Reader::Seat)).collect();
            let before: Vec<_> = readers.iter().map(|&r| m.view(r)).collect();
            let tags = m.result_tags();
            let record = m.record(Reader::Spectator).to_text();
            m.settle();
            let after: Vec<_> = readers.iter().map(|&r| m.view(r)).collect();
            assert_eq!(before, after, "{name}: views after settle");
            assert_eq!(tags, m.result_tags(), "{name}: result tags after settle");
            assert_eq!(record, m.record(Reader::Spectator).to_text(), "{name}: record after settle");
            // A copy keeps what was settled; an undo drops it.
            let copy = m.clone_box();
            assert_eq!(copy.result_tags(), tags);
            assert!(m.undo());
            assert!(m.outcome().is_none(), "{name}");
            assert!(m.result_tags().is_empty(), "{name}: a game going on has no result tags");
            assert_eq!(m.view(Reader::Referee), {
                let mut fresh = registry.new_match(name, &Setup { seed, ..Setup::default() }).unwrap();
                for mv in m.history() {
                    fresh.play(&mv).unwrap();
                }
                fresh.view(Reader::Referee)
            });
        }
    }
}
