//! Options, variants, the seeded set-up, records and replays.

use plateau_core::erased::{AnyMatch, Match, Registry};
use plateau_core::{Game, Options, Reader, Record, Setup, State, Turn, entry};
use plateau_kabaleo::{Colour, ColourSet, Deal, Kabaleo, KabaleoState};

fn configure(variant: Option<&str>, pairs: &[&str]) -> Result<Kabaleo, String> {
    let options = Options::from_pairs(pairs.iter().copied()).map_err(|e| e.to_string())?;
    let settings = Kabaleo::INFO.resolve(variant, &options).map_err(|e| e.to_string())?;
    Kabaleo::configure(&settings).map_err(|e| e.to_string())
}

fn total(s: &KabaleoState, seat: usize) -> usize {
    s.stock_total(seat)
}

#[test]
fn defaults_and_info() {
    let g = configure(None, &[]).unwrap();
    assert_eq!(g.players(), 2);
    assert_eq!(g.deal(), Deal::Random);
    assert_eq!(g.colours().to_string(), "ROYG");
    assert!(!g.golden_rule());
    assert_eq!(g.locations(), 16);
    assert_eq!(g.pieces(), 24);
    assert_eq!(g.ply_bound(), Some(24));
    assert_eq!(g.seat_name(2), "Player3", "one word: record tags name seats");
    let info = Kabaleo::INFO;
    assert_eq!(info.name, "kabaleo");
    assert!(info.hidden && info.uses_seed);
    assert_eq!((info.min_seats, info.max_seats), (2, 4));
    assert_eq!(info.default_variant(), "standard");
}

#[test]
fn colours_in_play_are_players_plus_two() {
    for (players, colours) in [(2, "ROYG"), (3, "ROYGB"), (4, "ROYGBV")] {
        let g = configure(None, &[&format!("players={players}")]).unwrap();
        assert_eq!(g.colours().to_string(), colours);
        assert_eq!(g.seats(), players);
        let s = g.start(5);
        assert_eq!(s.colours().to_string(), colours);
        assert_eq!(s.locations(), 4 * colours.len());
        for c in s.colours().iter() {
            assert_eq!((0..s.locations()).filter(|&l| s.base(l) == c).count(), 4, "4 bases of {c}");
        }
    }
    assert!(configure(None, &["players=1"]).unwrap_err().contains("must be from 2 to 4"));
    assert!(configure(None, &["players=5"]).unwrap_err().contains("must be from 2 to 4"));
}

#[test]
fn option_colours_chooses_the_colours() {
    let g = configure(None, &["colours=vbgr"]).unwrap();
    assert_eq!(g.colours().to_string(), "RGBV");
    let s = g.start(3);
    assert!((0..16).all(|l| s.base(l) != Colour::Orange && s.base(l) != Colour::Yellow));
    assert!(s.stock(0, Colour::Orange) == 0 && s.stock(1, Colour::Yellow) == 0);
    assert!(matches!(s.objective(0), Colour::Red | Colour::Green | Colour::Blue | Colour::Violet));
    assert_eq!(configure(None, &["colours=R, G, B, V"]).unwrap().colours(), g.colours());
    assert_eq!(configure(None, &["colours=auto"]).unwrap().colours().to_string(), "ROYG");
    let e = configure(None, &["colours=RGB"]).unwrap_err();
    assert!(e.contains("2 players play with 4 colours") && e.contains("RGB names 3"), "{e}");
    // The letters are echoed as typed, not in the rules' order (ROGBV).
    let e = configure(None, &["colours=VBGRO"]).unwrap_err();
    assert_eq!(e, "option colours: 2 players play with 4 colours, but VBGRO names 5");
    let e = configure(None, &["colours=v, b"]).unwrap_err();
    assert_eq!(e, "option colours: 2 players play with 4 colours, but v, b names 2");
    let e = configure(Some("3-players"), &["colours=RGBV"]).unwrap_err();
    assert!(e.contains("3 players play with 5 colours"), "{e}");
    assert!(configure(None, &["colours=RGBX"]).unwrap_err().contains("not a colour letter"));
    assert!(configure(None, &["colours=RGBR"]).unwrap_err().contains("named twice"));
    // The parse error leaves nothing configured; the option's canonical order is the rules'.
    assert_eq!(ColourSet::parse("BR").unwrap().to_string(), "RB");
}

#[test]
fn random_deal_gives_every_piece() {
    for (players, each) in [(2, 12), (3, 10), (4, 9)] {
        let g = Kabaleo::new(players, Deal::Random, None, false).unwrap();
        for seed in 0..30 {
            let s = g.start(seed);
            for seat in 0..players {
                assert_eq!(total(&s, seat), each);
            }
            for c in s.colours().iter() {
                assert_eq!((0..players).map(|p| s.stock(p, c)).sum::<usize>(), 6, "6 {c} pieces");
            }
            assert_eq!(s.pieces_left(), 6 * (players + 2));
        }
    }
}

#[test]
fn even_deal_gives_the_same_pieces_to_everyone() {
    for (players, per_colour) in [(2, 3), (3, 2)] {
        let g = configure(None, &[&format!("players={players}"), "deal=even"]).unwrap();
        assert_eq!(g.deal(), Deal::Even);
        let s = g.start(11);
        for seat in 0..players {
            for c in s.colours().iter() {
                assert_eq!(s.stock(seat, c), per_colour);
            }
        }
    }
    let e = configure(None, &["players=4", "deal=even"]).unwrap_err();
    assert!(e.contains("even deal is for 2 or 3 players") && e.contains("deal=random"), "{e}");
    assert!(Kabaleo::new(4, Deal::Even, None, false).is_err());
    assert!(configure(None, &["deal=fair"]).unwrap_err().contains("random, even"));
}

#[test]
fn golden_rule_option() {
    assert!(configure(None, &["golden-rule=on"]).unwrap().golden_rule());
    assert!(configure(None, &["golden-rule=true"]).unwrap().start(1).golden_rule());
    assert!(configure(None, &["golden-rule=maybe"]).is_err());
}

#[test]
fn variants_are_presets() {
    for (v, players, deal) in [
        ("standard", 2, Deal::Random),
        ("3-players", 3, Deal::Random),
        ("4-players", 4, Deal::Random),
        ("even", 2, Deal::Even),
        ("3-players-even", 3, Deal::Even),
    ] {
        let g = configure(Some(v), &[]).unwrap();
        assert_eq!((g.players(), g.deal()), (players, deal), "{v}");
    }
    assert!(configure(Some("4-players"), &["deal=even"]).is_err());
    assert!(configure(Some("nope"), &[]).unwrap_err().contains("no variant"));
    assert!(configure(None, &["seed=4"]).unwrap_err().contains("no option \"seed\""));
}

#[test]
fn objectives_are_distinct_colours_in_play_and_vary() {
    let g = Kabaleo::new(4, Deal::Random, None, false).unwrap();
    let mut firsts = [0usize; 4];
    let mut objective_of_seat0 = [0usize; 6];
    for seed in 0..300 {
        let s = g.start(seed);
        let mut seen = ColourSet::EMPTY;
        for p in 0..4 {
            assert!(!seen.contains(s.objective(p)));
            seen = seen.with(s.objective(p));
        }
        firsts[s.to_move().seat().unwrap()] += 1;
        objective_of_seat0[s.objective(0).index()] += 1;
    }
    assert!(firsts.iter().all(|&n| n > 40), "first player drawn at random: {firsts:?}");
    assert!(objective_of_seat0.iter().all(|&n| n > 25), "{objective_of_seat0:?}");
}

/// The set-up's draws are part of the record format: these must never change.
#[test]
fn set_up_is_stable_forever() {
    let s = Kabaleo::new(2, Deal::Random, None, false).unwrap().start(42);
    assert_eq!(
        s.position().to_string(),
        "bases YGRROROOGGYYGROY\nstock R2 O1 Y5 G4\nstock R4 O5 Y1 G2\nobjectives O R\nto-move 2\ngolden-rule off\nlast none\n"
    );
    let s = Kabaleo::new(4, Deal::Random, None, false).unwrap().start(42);
    assert_eq!(
        s.position().to_string(),
        "bases OVGYOGGYRRBGVRYBVVYOBBOR\nstock R2 O2 Y2 G2 V1\nstock R1 O2 Y1 B3 V2\nstock R2 Y3 G1 B2 V1\n\
         stock R1 O2 G3 B1 V2\nobjectives Y R G O\nto-move 2\ngolden-rule off\nlast none\n"
    );
    let s = Kabaleo::new(3, Deal::Even, None, false).unwrap().start(42);
    assert_eq!(
        s.position().to_string(),
        "bases BYGYRBYORBOGYORGGBRO\nstock R2 O2 Y2 G2 B2\nstock R2 O2 Y2 G2 B2\nstock R2 O2 Y2 G2 B2\n\
         objectives R Y O\nto-move 1\ngolden-rule off\nlast none\n"
    );
    // Same seed, same game; another seed, another game.
    let g = Kabaleo::new(3, Deal::Random, None, true).unwrap();
    assert_eq!(g.start(9), g.start(9));
    assert_ne!(g.start(9), g.start(10));
}

fn registry() -> Registry {
    Registry::new().with(entry::<Kabaleo>())
}

fn play_out(m: &mut dyn AnyMatch) {
    while m.to_move() != Turn::Over {
        let moves = m.legal_moves();
        let pick = moves[(m.ply() * 7 + 3) % moves.len()].clone();
        m.play(&pick).unwrap();
    }
}

#[test]
fn records_keep_the_seed_and_replay_exactly() {
    let setup = Setup {
        variant: Some("3-players".into()),
        options: Options::from_pairs(["golden-rule=true"]).unwrap(),
        seed: 123_456_789,
    };
    let reg = registry();
    let mut m = reg.new_match("kabaleo", &setup).unwrap();
    play_out(m.as_mut());
    let rec = m.record(Reader::Spectator);
    assert_eq!(rec.tag("Seed"), Some("123456789"));
    assert_eq!(rec.tag("Variant"), Some("3-players"));
    assert!(rec.tag("Objectives").is_some());
    assert!(rec.tag("Decided").is_some());
    let text = rec.to_text();
    let back = reg.replay(&Record::parse(&text).unwrap(), None, None).unwrap();
    assert_eq!(back.key(), m.key());
    assert_eq!(back.history(), m.history());
    assert_eq!(back.outcome().unwrap().result_string(), m.outcome().unwrap().result_string());
    let a = back.as_any().downcast_ref::<Match<Kabaleo>>().unwrap().state();
    let b = m.as_any().downcast_ref::<Match<Kabaleo>>().unwrap().state();
    assert_eq!(a, b);
}

#[test]
fn replay_json_shows_counts_colours_and_winners() {
    let reg = registry();
    let mut m =
        reg.new_match("kabaleo", &Setup { variant: Some("4-players".into()), seed: 77, ..Setup::default() }).unwrap();
    play_out(m.as_mut());
    let v = m.view(Reader::Referee);
    let counts = v["locations_per_colour"].as_object().unwrap();
    let mut keys: Vec<_> = counts.keys().cloned().collect();
    keys.sort();
    assert_eq!(keys, ["B", "G", "O", "R", "V", "Y"]);
    assert_eq!(counts.values().map(|n| n.as_u64().unwrap()).sum::<u64>(), 24);
    let objectives = v["objectives"].as_array().unwrap();
    assert_eq!(objectives.len(), 4);
    assert!(objectives.iter().all(|o| o.is_string()));
    let standings = v["standings"].as_array().unwrap();
    let winners: Vec<usize> =
        standings.iter().filter(|s| s["winner"] == true).map(|s| s["seat"].as_u64().unwrap() as usize).collect();
    assert_eq!(winners, m.outcome().unwrap().winners());
    assert!(v["decided_by"].is_string());
}

#[test]
fn an_unknown_option_or_bad_record_is_refused_cleanly() {
    let reg = registry();
    let bad = Setup { options: Options::from_pairs(["players=4", "deal=even"]).unwrap(), ..Setup::default() };
    assert!(reg.new_match("kabaleo", &bad).is_err());
    // A pass is never legal at the start; location 17 does not exist with 2 players.
    for moves in ["1. pass *", "1. R17 *"] {
        let rec = Record::parse(&format!("[Game \"kabaleo\"]\n[Seed \"1\"]\n\n{moves}")).unwrap();
        let e = reg.replay(&rec, None, None).err().expect("refused");
        assert!(e.to_string().starts_with("ply 1"), "{e}");
    }
}
