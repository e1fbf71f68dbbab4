//! The deal: the start as one reader knows it, for programs that play one
//! seat without the seed (the engine protocol), and records that replay from
//! it.

use plateau_core::erased::{Match, Registry};
use plateau_core::{Game, Hidden, Options, Reader, Record, Setup, Turn, entry};
use plateau_kabaleo::{Deal, Kabaleo};

fn registry() -> Registry {
    Registry::new().with(entry::<Kabaleo>())
}

fn setup(variant: &str, seed: u64) -> Setup {
    Setup { variant: Some(variant.into()), options: Options::new(), seed }
}

#[test]
fn a_seat_deal_names_its_own_objective_only() {
    // The start of seed 42 with two players, as `set_up_is_stable_forever`
    // pins it: bases YGRROROOGGYYGROY, stocks R2 O1 Y5 G4 and R4 O5 Y1 G2,
    // objectives O and R, player 2 first.
    let g = Kabaleo::new(2, Deal::Random, None, false).unwrap();
    let start = g.start(42);
    let public = "bases YGRROROOGGYYGROY ; stock R2 O1 Y5 G4 ; stock R4 O5 Y1 G2";
    assert_eq!(g.deal_text(&start, Reader::Seat(0)).unwrap(), format!("{public} ; objectives O ? ; to-move 2"));
    assert_eq!(g.deal_text(&start, Reader::Seat(1)).unwrap(), format!("{public} ; objectives ? R ; to-move 2"));
    assert_eq!(g.deal_text(&start, Reader::Spectator).unwrap(), format!("{public} ; objectives ? ? ; to-move 2"));
    assert_eq!(g.deal_text(&start, Reader::Referee).unwrap(), format!("{public} ; objectives O R ; to-move 2"));
}

#[test]
fn a_start_from_a_deal_agrees_with_the_true_one_on_what_the_reader_knows() {
    for (variant, players) in [("standard", 2), ("3-players", 3), ("4-players", 4), ("even", 2), ("3-players-even", 3)]
    {
        for seed in 0..40 {
            let reg = registry();
            let m = reg.new_match("kabaleo", &setup(variant, seed)).unwrap();
            let truth = m.as_any().downcast_ref::<Match<Kabaleo>>().unwrap().state().clone();
            for seat in 0..players {
                let text = m.deal(Reader::Seat(seat)).unwrap();
                assert!(!text.contains("Seed"));
                let d = reg.get("kabaleo").unwrap().new_match_dealt(&setup(variant, 0), &text).unwrap();
                assert_eq!(d.dealt_for(), Some(Reader::Seat(seat)), "{variant} {seed}: {text}");
                let state = d.as_any().downcast_ref::<Match<Kabaleo>>().unwrap().state();
                // Everything this seat knows is the same: the public position and its objective.
                assert_eq!(state.knowledge(seat), truth.knowledge(seat), "{variant} {seed} seat {seat}");
                assert_eq!(d.view(Reader::Seat(seat)), m.view(Reader::Seat(seat)));
                assert_eq!(d.legal_moves(), m.legal_moves());
                assert_eq!(d.to_move(), m.to_move());
            }
            let referee = reg
                .get("kabaleo")
                .unwrap()
                .new_match_dealt(&setup(variant, 0), &m.deal(Reader::Referee).unwrap())
                .unwrap();
            assert_eq!(referee.dealt_for(), Some(Reader::Referee));
            assert_eq!(referee.as_any().downcast_ref::<Match<Kabaleo>>().unwrap().state(), &truth);
        }
    }
}

#[test]
fn a_seat_record_of_a_game_in_progress_replays_from_its_deal() {
    let reg = registry();
    let mut m = reg.new_match("kabaleo", &setup("3-players", 77)).unwrap();
    for _ in 0..7 {
        let moves = m.legal_moves();
        let pick = moves[(m.ply() * 5 + 1) % moves.len()].clone();
        m.play(&pick).unwrap();
    }
    for seat in 0..3 {
        let rec = m.record(Reader::Seat(seat));
        assert_eq!(rec.tag("Seed"), None, "the seed would reveal every objective");
        let deal = rec.tag("Deal").expect("the seat's record says what it knows of the start");
        assert_eq!(deal.matches('?').count(), 2, "{deal}");
        let back = reg.replay(&Record::parse(&rec.to_text()).unwrap(), None, None).unwrap();
        assert_eq!(back.history(), m.history());
        assert_eq!(back.view(Reader::Seat(seat)), m.view(Reader::Seat(seat)));
        assert_eq!(back.dealt_for(), Some(Reader::Seat(seat)));
        // The replayed record writes the same deal again.
        assert_eq!(back.record(Reader::Referee).tag("Deal"), Some(deal));
    }
    // Over, every record has the seed again and no deal.
    while m.to_move() != Turn::Over {
        let mv = m.legal_moves()[0].clone();
        m.play(&mv).unwrap();
    }
    assert_eq!(m.record(Reader::Seat(0)).tag("Deal"), None);
    assert_eq!(m.record(Reader::Seat(0)).tag("Seed"), Some("77"));
}

#[test]
fn bad_deals_are_refused_with_what_is_wrong() {
    let reg = registry();
    let entry = reg.get("kabaleo").unwrap();
    let good = "bases YGRROROOGGYYGROY ; stock R2 O1 Y5 G4 ; stock R4 O5 Y1 G2 ; objectives O ? ; to-move 2";
    assert!(entry.new_match_dealt(&setup("standard", 0), good).is_ok());
    for (text, words) in [
        ("bases YGRROROOGGYYGROY ; stock R2 O1 Y5 G4 ; stock R4 O5 Y1 G2 ; to-move 2", "no objectives"),
        ("bases YGRROROOGGYYGROY ; stock R2 O1 Y5 G4 ; stock R4 O5 Y1 G2 ; objectives O ? ?", "3 objectives"),
        ("bases YGRROROOGGYYGROY ; stock R2 O1 Y5 G4 ; stock R4 O5 Y1 G1 ; objectives O ?", "11 pieces"),
        ("bases YGRROROOGGYYGROY ; stock R2 O1 Y5 G4 ; stock R4 O5 Y1 G2 ; objectives X ?", "not a colour"),
        (
            "bases YGRROROOGGYYGROY ; stock R2 O1 Y5 G4 ; stock R4 O5 Y1 G2 ; objectives O O",
            "two players have the objective orange",
        ),
        ("bases BGRROROOGGYYGROY ; stock R2 O1 Y5 G4 ; stock R4 O5 Y1 G2 ; objectives O ?", "bases"),
        ("bases YGRROROOGGYYGROY ; stock R2 O1 Y5 G4 ; stock R4 O5 Y1 G2 ; objectives O ? ; piles 1:O", "unknown key"),
        ("seed 4", "unknown key"),
    ] {
        let e = entry.new_match_dealt(&setup("standard", 0), text).err().unwrap_or_else(|| panic!("{text} accepted"));
        assert!(e.to_string().contains(words), "{text}: {e}");
    }
    // Three players: naming two objectives of three is no one's knowledge.
    let three = "bases ROYGBROYGBROYGBROYGB ; stock R2 O2 Y2 G2 B2 ; stock R2 O2 Y2 G2 B2 ; stock R2 O2 Y2 G2 B2 ; objectives R O ?";
    let e = entry.new_match_dealt(&setup("3-players-even", 0), three).err().unwrap();
    assert!(e.to_string().contains("one player's objective"), "{e}");
    // The even deal gives the same pieces to everyone.
    let uneven = "bases ROYGBROYGBROYGBROYGB ; stock R3 O1 Y2 G2 B2 ; stock R1 O3 Y2 G2 B2 ; stock R2 O2 Y2 G2 B2 ; objectives R ? ?";
    let e = entry.new_match_dealt(&setup("3-players-even", 0), uneven).err().unwrap();
    assert!(e.to_string().contains("even deal"), "{e}");
    // Games whose start is not drawn have no deal.
    assert!(entry.new_match_dealt(&setup("standard", 0), &"x".repeat(2000)).is_err());
}

#[test]
fn a_match_made_from_a_deal_tells_each_reader_only_what_both_know() {
    let reg = registry();
    let entry = reg.get("kabaleo").unwrap();
    let public = "bases YGRROROOGGYYGROY ; stock R2 O1 Y5 G4 ; stock R4 O5 Y1 G2";
    let full = format!("{public} ; objectives O R ; to-move 2");
    let m = entry.new_match_dealt(&setup("standard", 0), &full).unwrap();
    assert_eq!(m.deal(Reader::Referee).unwrap(), full);
    assert_eq!(m.deal(Reader::Seat(0)).unwrap(), format!("{public} ; objectives O ? ; to-move 2"));
    assert_eq!(m.deal(Reader::Spectator).unwrap(), format!("{public} ; objectives ? ? ; to-move 2"));
    assert_eq!(m.record(Reader::Seat(1)).tag("Deal").unwrap(), format!("{public} ; objectives ? R ; to-move 2"));
    // Made from player 2's deal: player 1's objective (made up) is told to nobody.
    let mine = format!("{public} ; objectives ? R ; to-move 2");
    let m = entry.new_match_dealt(&setup("standard", 0), &mine).unwrap();
    assert_eq!(m.deal(Reader::Seat(1)).unwrap(), mine);
    assert_eq!(m.deal(Reader::Referee).unwrap(), mine);
    for r in [Reader::Seat(0), Reader::Spectator] {
        assert_eq!(m.deal(r).unwrap(), format!("{public} ; objectives ? ? ; to-move 2"), "{r:?}");
    }
}

#[test]
fn a_completed_deal_draws_the_unknown_objectives_uniformly() {
    let g = Kabaleo::new(3, Deal::Random, None, false).unwrap();
    let start = g.start(9);
    let mine = g.deal_text(&start, Reader::Seat(1)).unwrap();
    let own = mine
        .split(" ; ")
        .find_map(|p| p.strip_prefix("objectives "))
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    // Seats 1 and 3 unknown among the 4 other colours of 5: 12 assignments.
    let mut seen = std::collections::HashMap::new();
    for seed in 0..1200 {
        let full = g.complete_deal(&mine, seed).unwrap();
        let (state, reader) = g.start_from_deal(&full).unwrap();
        assert_eq!(reader, Reader::Referee, "{full}");
        // What seat 2 knows is unchanged.
        assert_eq!(state.knowledge(1), start.knowledge(1));
        let objs: Vec<String> = full
            .split(" ; ")
            .find_map(|p| p.strip_prefix("objectives "))
            .unwrap()
            .split_whitespace()
            .map(str::to_string)
            .collect();
        assert_eq!(objs[1], own);
        *seen.entry(objs).or_insert(0usize) += 1;
    }
    assert_eq!(seen.len(), 12, "every consistent assignment is drawn");
    // Uniform: 100 expected each; a fair draw stays well within 50..150.
    assert!(seen.values().all(|&n| (50..150).contains(&n)), "{seen:?}");
    // The same seed, the same draw; a full deal stays as it is.
    assert_eq!(g.complete_deal(&mine, 7).unwrap(), g.complete_deal(&mine, 7).unwrap());
    let full = g.deal_text(&start, Reader::Referee).unwrap();
    assert_eq!(g.complete_deal(&full, 3).unwrap(), full);
    // Through the erased layer.
    let reg = registry();
    let m = reg.new_match("kabaleo", &setup("3-players", 9)).unwrap();
    let sampled = m.sample_deal(Reader::Seat(1), 4).unwrap();
    assert!(!sampled.contains('?'));
    let d = reg.get("kabaleo").unwrap().new_match_dealt(&setup("3-players", 0), &sampled).unwrap();
    assert_eq!(d.deal(Reader::Seat(1)), m.deal(Reader::Seat(1)));
}
