//! Integer actions and observation planes (`plateau_core::Encode`), checked
//! against values worked out by hand from `docs/encoding/kabaleo.md`:
//! actions are `rank of the colour among the colours in play × L + location
//! index`, the pass `k × L`; observations are `[planes, 1, L]`.

use plateau_core::erased::Registry;
use plateau_core::rand::{RngExt, SeedableRng};
use plateau_core::{Encode, Game, Hidden, Options, Setup, State, Turn, entry};
use plateau_kabaleo::{Colour, ColourSet, Deal, Kabaleo, KabaleoState, Move};
use rand_chacha::ChaCha8Rng;

fn game(players: usize, deal: Deal, colours: Option<&str>, golden: bool) -> Kabaleo {
    Kabaleo::new(players, deal, colours.map(|c| ColourSet::parse(c).unwrap()), golden).unwrap()
}

fn action(st: &KabaleoState, text: &str) -> usize {
    st.action(st.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}")))
}

fn play(st: &mut KabaleoState, text: &str) {
    let mv = st.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    st.try_apply(mv).unwrap_or_else(|e| panic!("{text}: {e}"));
}

fn observe(st: &KabaleoState, seat: usize) -> Vec<f32> {
    let mut out = vec![f32::NAN; st.observation_shape().iter().product()];
    st.observe(seat, &mut out);
    out
}

#[test]
fn action_spaces_and_shapes_per_variant() {
    // k colours, L = 4k locations: actions k·L + 1; planes 6k² + 3k + nk + n + 5.
    // 2 players: k = 4, L = 16: 4·16 + 1 = 65; 96 + 12 + 8 + 2 + 5 = 123.
    // 3 players: k = 5, L = 20: 5·20 + 1 = 101; 150 + 15 + 15 + 3 + 5 = 188.
    // 4 players: k = 6, L = 24: 6·24 + 1 = 145; 216 + 18 + 24 + 4 + 5 = 267.
    let reg = Registry::new().with(entry::<Kabaleo>());
    for (variant, opts, actions, shape) in [
        ("standard", "", 65, [123, 1, 16]),
        ("even", "", 65, [123, 1, 16]),
        ("standard", "golden-rule=on", 65, [123, 1, 16]),
        ("standard", "colours=GBVR", 65, [123, 1, 16]),
        ("3-players", "", 101, [188, 1, 20]),
        ("3-players-even", "golden-rule=on", 101, [188, 1, 20]),
        ("4-players", "", 145, [267, 1, 24]),
    ] {
        let options = if opts.is_empty() { Options::new() } else { Options::from_pairs([opts]).unwrap() };
        for seed in [0, 7, 42] {
            let setup = Setup { variant: Some(variant.into()), options: options.clone(), seed };
            let m = reg.new_match("kabaleo", &setup).unwrap();
            assert_eq!(m.action_space(), actions, "{variant} {opts}");
            assert_eq!(m.observation_shape(), shape, "{variant} {opts}");
            assert_eq!(m.plane_names().len(), shape[0]);
        }
    }
}

#[test]
fn plane_names_as_documented() {
    let st = game(2, Deal::Random, None, false).start(42);
    let names = st.plane_names();
    // 2 players, k = 4, P = 24: base 0–3, shows 4–7, covered 8, height 9,
    // forbidden 10, depth 11–106 (24 depths × 4 colours), objective 107–110,
    // stock_p0 111–114, stock_p1 115–118, to_move 119–120, pieces_left 121,
    // golden_rule 122.
    let expected = [
        (0, "base_red"),
        (3, "base_green"),
        (4, "shows_red"),
        (7, "shows_green"),
        (8, "covered"),
        (9, "height"),
        (10, "forbidden"),
        (11, "depth0_red"),
        (14, "depth0_green"),
        (15, "depth1_red"),
        (106, "depth23_green"),
        (107, "objective_red"),
        (110, "objective_green"),
        (111, "stock_p0_red"),
        (115, "stock_p1_red"),
        (118, "stock_p1_green"),
        (119, "to_move_p0"),
        (120, "to_move_p1"),
        (121, "pieces_left"),
        (122, "golden_rule"),
    ];
    for (i, name) in expected {
        assert_eq!(names[i], name, "plane {i}");
    }
    assert_eq!(names.len(), 123);
    // Names are unique, short and snake_case.
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len());
    assert!(names.iter().all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')));
    // Chosen colours name the colours in play, in the rules' order.
    let st = game(2, Deal::Random, Some("GBVR"), false).start(1);
    let names = st.plane_names();
    assert_eq!(&names[0..4], ["base_red", "base_green", "base_blue", "base_violet"]);
    // 4 players: depth planes 15 .. 15 + 36·6 = 231; the last is depth35_violet.
    let st = game(4, Deal::Random, None, false).start(1);
    let names = st.plane_names();
    assert_eq!(names[15], "depth0_red");
    assert_eq!(names[230], "depth35_violet");
    assert_eq!(names[231], "objective_red");
    assert_eq!(names[266], "golden_rule");
}

#[test]
fn actions_worked_by_hand() {
    // 2 players, default colours R O Y G (ranks 0 1 2 3), L = 16.
    let st = game(2, Deal::Random, None, false).start(42);
    for (text, a) in [("R1", 0), ("O1", 16), ("G7", 54), ("Y16", 47), ("R16", 15), ("G16", 63), ("pass", 64)] {
        assert_eq!(action(&st, text), a, "{text}");
        assert_eq!(st.format_move(st.move_of(a).unwrap()), text, "{a}");
    }
    // 3 players, R O Y G B, L = 20: B20 = 4·20 + 19 = 99, O3 = 20 + 2 = 22, pass 100.
    let st = game(3, Deal::Random, None, false).start(42);
    for (text, a) in [("B20", 99), ("O3", 22), ("pass", 100)] {
        assert_eq!(action(&st, text), a, "{text}");
        assert_eq!(st.format_move(st.move_of(a).unwrap()), text);
    }
    // 4 players, L = 24: G7 = 3·24 + 6 = 78, V24 = 5·24 + 23 = 143, pass 144.
    let st = game(4, Deal::Random, None, false).start(42);
    for (text, a) in [("G7", 78), ("V24", 143), ("R1", 0), ("pass", 144)] {
        assert_eq!(action(&st, text), a, "{text}");
        assert_eq!(st.format_move(st.move_of(a).unwrap()), text);
    }
    // colours=GBVR: in play R G B V, ranks 0 1 2 3: G7 = 16 + 6 = 22,
    // B1 = 32, V16 = 3·16 + 15 = 63.
    let st = game(2, Deal::Random, Some("GBVR"), false).start(42);
    for (text, a) in [("R1", 0), ("G7", 22), ("B1", 32), ("V16", 63), ("pass", 64)] {
        assert_eq!(action(&st, text), a, "{text}");
        assert_eq!(st.format_move(st.move_of(a).unwrap()), text);
    }
}

#[test]
fn actions_that_name_no_move() {
    for (players, colours, n) in [(2, None, 65), (2, Some("GBVR"), 65), (3, None, 101), (4, None, 145)] {
        let st = game(players, Deal::Random, colours, false).start(3);
        assert_eq!(st.actions(), n);
        for a in [n, n + 1, 1000, usize::MAX / 2, usize::MAX] {
            assert_eq!(st.move_of(a), None, "{a}");
        }
        // Every action below the size names a move whose action it is.
        for a in 0..n {
            let mv = st.move_of(a).unwrap_or_else(|| panic!("{a} names no move"));
            assert_eq!(st.action(mv), a);
        }
    }
    // A move value of no move of this game (violet is not in play with 2
    // players by default; there is no location 17) has the action `actions()`.
    let st = game(2, Deal::Random, None, false).start(3);
    assert_eq!(st.action(Move::place(Colour::Violet, 3)), 65);
    assert_eq!(st.action(Move::place(Colour::Red, 20)), 65);
    assert_eq!(st.action(Move::PASS), 64);
}

/// Planes of one observation by name: 16 (or L) numbers each.
fn plane<'a>(st: &KabaleoState, obs: &'a [f32], name: &str) -> &'a [f32] {
    let w = st.observation_shape()[2];
    let i = st.plane_names().iter().position(|n| n == name).unwrap_or_else(|| panic!("no plane {name}"));
    &obs[i * w..(i + 1) * w]
}

/// Compare an observation with planes given by hand (name → values); every
/// other plane must be zero.
fn assert_obs(st: &KabaleoState, obs: &[f32], expected: &[(&str, [f32; 16])]) {
    let names = st.plane_names();
    assert_eq!(obs.len(), names.len() * 16);
    for (i, name) in names.iter().enumerate() {
        let want = expected.iter().find(|(n, _)| n == name).map(|(_, v)| *v).unwrap_or([0.0; 16]);
        assert_eq!(&obs[i * 16..(i + 1) * 16], &want, "plane {i} {name}");
    }
}

const ONE: [f32; 16] = [1.0; 16];

fn constant(v: f32) -> [f32; 16] {
    [v; 16]
}

// The start of seed 42 with two players (pinned by the deal tests):
// bases Y G R R O R O O G G Y Y G R O Y (locations 1 to 16), Player1's stock
// R2 O1 Y5 G4, Player2's R4 O5 Y1 G2, objectives O (Player1) and R
// (Player2), Player2 to move.
const RED: [f32; 16] = [0., 0., 1., 1., 0., 1., 0., 0., 0., 0., 0., 0., 0., 1., 0., 0.];
const ORANGE: [f32; 16] = [0., 0., 0., 0., 1., 0., 1., 1., 0., 0., 0., 0., 0., 0., 1., 0.];
const YELLOW: [f32; 16] = [1., 0., 0., 0., 0., 0., 0., 0., 0., 0., 1., 1., 0., 0., 0., 1.];
const GREEN: [f32; 16] = [0., 1., 0., 0., 0., 0., 0., 0., 1., 1., 0., 0., 1., 0., 0., 0.];

#[test]
fn the_start_observed_by_each_seat() {
    let g = game(2, Deal::Random, None, false);
    let st = g.start(42);
    assert_eq!(
        g.deal_text(&st, plateau_core::Reader::Referee).unwrap(),
        "bases YGRROROOGGYYGROY ; stock R2 O1 Y5 G4 ; stock R4 O5 Y1 G2 ; objectives O R ; to-move 2"
    );
    let board = [
        ("base_red", RED),
        ("base_orange", ORANGE),
        ("base_yellow", YELLOW),
        ("base_green", GREEN),
        ("shows_red", RED),
        ("shows_orange", ORANGE),
        ("shows_yellow", YELLOW),
        ("shows_green", GREEN),
        ("pieces_left", ONE),
    ];
    let p1 = [constant(2. / 6.), constant(1. / 6.), constant(5. / 6.), constant(4. / 6.)];
    let p2 = [constant(4. / 6.), constant(5. / 6.), constant(1. / 6.), constant(2. / 6.)];
    let stocks = |first: [[f32; 16]; 4], second: [[f32; 16]; 4]| {
        let mut v = Vec::new();
        for (i, s) in [first, second].iter().enumerate() {
            for (c, values) in ["red", "orange", "yellow", "green"].iter().zip(s) {
                v.push((format!("stock_p{i}_{c}"), *values));
            }
        }
        v
    };
    // Player1 (seat 0): objective orange; itself p0, Player2 p1, to move.
    let mut want: Vec<(String, [f32; 16])> = board.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    want.push(("objective_orange".into(), ONE));
    want.push(("to_move_p1".into(), ONE));
    want.extend(stocks(p1, p2));
    let want_ref: Vec<(&str, [f32; 16])> = want.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    assert_obs(&st, &observe(&st, 0), &want_ref);
    // Player2 (seat 1): objective red; itself p0 and to move, Player1 p1.
    let mut want: Vec<(String, [f32; 16])> = board.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    want.push(("objective_red".into(), ONE));
    want.push(("to_move_p0".into(), ONE));
    want.extend(stocks(p2, p1));
    let want_ref: Vec<(&str, [f32; 16])> = want.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    assert_obs(&st, &observe(&st, 1), &want_ref);
}

#[test]
fn a_later_position_observed() {
    let g = game(2, Deal::Random, None, false);
    let mut st = g.start(42);
    // Player2: orange on the yellow base 1; Player1: yellow on it; Player2:
    // yellow cancels it (both leave); Player1: red on the green base 2;
    // Player2: orange on it; Player1: green on it.
    for m in ["O1", "Y1", "Y1", "R2", "O2", "G2"] {
        play(&mut st, m);
    }
    let text = st.position().to_string();
    assert!(text.contains("piles 1:O 2:ROG\n"), "{text}");
    assert!(text.contains("stock R1 O1 Y4 G3\nstock R4 O3 G2\n"), "{text}");
    assert!(text.contains("to-move 2\n"), "{text}");
    // Location 1 shows orange (was yellow), location 2 green (its base, but
    // by its top piece): shows planes are the bases but at 1 and 2.
    let mut shows_orange = ORANGE;
    shows_orange[0] = 1.;
    let mut shows_yellow = YELLOW;
    shows_yellow[0] = 0.;
    let at = |l: usize, v: f32| {
        let mut p = [0.0; 16];
        p[l] = v;
        p
    };
    let two = |a: f32, b: f32| {
        let mut p = [0.0; 16];
        p[0] = a;
        p[1] = b;
        p
    };
    let mut want = vec![
        ("base_red", RED),
        ("base_orange", ORANGE),
        ("base_yellow", YELLOW),
        ("base_green", GREEN),
        ("shows_red", RED),
        ("shows_orange", shows_orange),
        ("shows_yellow", shows_yellow),
        ("shows_green", GREEN),
        ("covered", two(1., 1.)),
        ("height", two(1. / 24., 3. / 24.)),
        ("depth0_orange", at(0, 1.)),
        ("depth0_green", at(1, 1.)),
        ("depth1_orange", at(1, 1.)),
        ("depth2_red", at(1, 1.)),
        ("pieces_left", constant(18. / 24.)),
    ];
    // Player1 (seat 0) sees itself as p0: R1 O1 Y4 G3; Player2 as p1: R4 O3 Y0 G2.
    let mut p0 = want.clone();
    p0.extend([
        ("objective_orange", ONE),
        ("to_move_p1", ONE),
        ("stock_p0_red", constant(1. / 6.)),
        ("stock_p0_orange", constant(1. / 6.)),
        ("stock_p0_yellow", constant(4. / 6.)),
        ("stock_p0_green", constant(3. / 6.)),
        ("stock_p1_red", constant(4. / 6.)),
        ("stock_p1_orange", constant(3. / 6.)),
        ("stock_p1_green", constant(2. / 6.)),
    ]);
    assert_obs(&st, &observe(&st, 0), &p0);
    want.extend([
        ("objective_red", ONE),
        ("to_move_p0", ONE),
        ("stock_p1_red", constant(1. / 6.)),
        ("stock_p1_orange", constant(1. / 6.)),
        ("stock_p1_yellow", constant(4. / 6.)),
        ("stock_p1_green", constant(3. / 6.)),
        ("stock_p0_red", constant(4. / 6.)),
        ("stock_p0_orange", constant(3. / 6.)),
        ("stock_p0_green", constant(2. / 6.)),
    ]);
    assert_obs(&st, &observe(&st, 1), &want);
}

#[test]
fn the_golden_rule_forbids_a_location() {
    let g = game(2, Deal::Random, None, true);
    let mut st = g.start(42);
    let obs = observe(&st, 0);
    assert_eq!(plane(&st, &obs, "golden_rule"), ONE);
    assert_eq!(plane(&st, &obs, "forbidden"), [0.0; 16]);
    play(&mut st, "R5");
    for seat in 0..2 {
        let obs = observe(&st, seat);
        let mut want = [0.0; 16];
        want[4] = 1.0;
        assert_eq!(plane(&st, &obs, "forbidden"), want, "seat {seat}");
        assert_eq!(plane(&st, &obs, "golden_rule"), ONE);
    }
    // Player1's red piece would cancel Player2's on location 5 (action
    // 0·16 + 4 = 4), but the golden rule forbids it.
    assert_eq!(st.format_move(st.move_of(4).unwrap()), "R5");
    assert!(!st.is_legal(st.move_of(4).unwrap()));
    // Without the golden rule the same move leaves both planes empty.
    let mut st = game(2, Deal::Random, None, false).start(42);
    play(&mut st, "R5");
    let obs = observe(&st, 0);
    assert_eq!(plane(&st, &obs, "forbidden"), [0.0; 16]);
    assert_eq!(plane(&st, &obs, "golden_rule"), [0.0; 16]);
    assert!(st.is_legal(st.move_of(4).unwrap()));
}

/// Positions along seeded random games.
fn positions(players: usize, deal: Deal, golden: bool, games: u64) -> Vec<KabaleoState> {
    let g = game(players, deal, None, golden);
    let mut rng = ChaCha8Rng::seed_from_u64(players as u64 * 31 + golden as u64);
    let mut out = Vec::new();
    for seed in 0..games {
        let mut st = g.start(seed);
        let mut moves = Vec::new();
        while st.to_move() != Turn::Over {
            out.push(st.clone());
            st.legal_moves(&mut moves);
            st.apply(moves[rng.random_range(0..moves.len())]);
        }
        out.push(st);
    }
    out
}

/// Seat `s` sees seat `a` as `p{(a − s) mod n}`: every seat's observation is
/// the same board, with the seat planes rotated, and its own objective.
#[test]
fn points_of_view_are_rotations() {
    for players in 2..=4 {
        let k = players + 2;
        let w = 4 * k;
        let p = 6 * k;
        let objective = 2 * k + 3 + p * k;
        let stock = objective + k;
        let to_move = stock + players * k;
        for st in positions(players, Deal::Random, players == 3, 3) {
            let obs: Vec<Vec<f32>> = (0..players).map(|s| observe(&st, s)).collect();
            for s in 0..players {
                // The board planes are the same for every seat.
                assert_eq!(obs[s][..objective * w], obs[0][..objective * w]);
                assert_eq!(obs[s][(to_move + players) * w..], obs[0][(to_move + players) * w..]);
                // Own objective.
                let own = st.objective(s).index();
                for c in 0..k {
                    let v = obs[s][(objective + c) * w];
                    assert_eq!(v, if c == own { 1.0 } else { 0.0 });
                }
                for a in 0..players {
                    let i = (a + players - s) % players;
                    for c in 0..k {
                        let v = obs[s][(stock + i * k + c) * w];
                        assert_eq!(v, st.stock(a, Colour::ALL[c]) as f32 / 6.0, "seat {s} sees seat {a}");
                    }
                    let v = obs[s][(to_move + i) * w];
                    assert_eq!(v, if st.to_move() == Turn::Seat(a) { 1.0 } else { 0.0 });
                }
            }
            if players == 2 && st.ply() == 0 {
                assert_ne!(obs[0], obs[1]);
            }
        }
    }
}

/// For every assignment of objectives to the seats (as the hidden tests
/// do), a seat's observation is the same whatever the other seats'
/// objectives are; and it changes with the seat's own.
#[test]
fn an_observation_does_not_depend_on_the_others_objectives() {
    for (players, deal, golden) in [
        (2, Deal::Random, false),
        (2, Deal::Even, true),
        (3, Deal::Random, true),
        (3, Deal::Even, false),
        (4, Deal::Random, false),
    ] {
        let all = positions(players, deal, golden, 2);
        for st in all.iter().step_by(3).chain(all.last()) {
            for seat in 0..players {
                let truth = observe(st, seat);
                let k = st.knowledge(seat);
                let assignments = k.assignments();
                assert!(assignments.len() > 1 || st.to_move() == Turn::Over);
                for a in &assignments {
                    let other = k.complete(a).unwrap();
                    assert_eq!(observe(&other, seat), truth, "seat {seat} sees {a:?} differently");
                }
            }
            // The seat's own objective is in its observation: another
            // objective for it gives another observation.
            if st.to_move() != Turn::Over {
                let seat = 0;
                let other_seat = st.knowledge(1);
                let mut seen = std::collections::HashSet::new();
                for a in other_seat.assignments() {
                    let other = other_seat.complete(&a).unwrap();
                    let bits: Vec<u32> = observe(&other, seat).iter().map(|v| v.to_bits()).collect();
                    seen.insert((a.objective(seat), bits));
                }
                let colours: std::collections::HashSet<_> = seen.iter().map(|(c, _)| *c).collect();
                assert_eq!(seen.len(), colours.len(), "one observation per objective of seat 0");
            }
        }
    }
}

#[test]
fn observe_writes_every_number() {
    let st = game(3, Deal::Random, None, true).start(5);
    let mut out = vec![f32::NAN; st.observation_shape().iter().product()];
    st.observe(2, &mut out);
    assert!(out.iter().all(|v| (0.0..=1.0).contains(v)));
    let mut again = vec![0.5; out.len()];
    st.observe(2, &mut again);
    assert_eq!(out, again);
}
