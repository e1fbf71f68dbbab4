//! Search speed on fixed positions: alpha-beta and MCTS on an Abalone
//! middlegame, information-set MCTS on a Kabaleo position.

use criterion::{Criterion, criterion_group, criterion_main};
use plateau_abalone::{AbaloneState, Rules, parse_position};
use plateau_ai::alphabeta::AlphaBeta;
use plateau_ai::mcts::{IsMcts, Mcts, MctsConfig};
use plateau_ai::{Budget, HiddenSearch, Search};
use plateau_core::rand::SeedableRng;
use plateau_core::{Game, Hidden, Options, State};

/// A Belgian-daisy middlegame: the AWC 2015 final after 20 plies.
const ABALONE_MIDDLEGAME: &str = "2b2/2b1bb/3w3/3wwbbb/3w1w3/3wbww1/2bwb2/b1wbbb/2w1w b 2 0";

fn bench(c: &mut Criterion) {
    let s: AbaloneState = parse_position(ABALONE_MIDDLEGAME, Rules::default()).unwrap();
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    g.bench_function("abalone alpha-beta depth 4", |b| {
        b.iter(|| AlphaBeta::<AbaloneState>::new(Budget { depth: Some(4), ..Budget::default() }, 18).search(&s, &[]))
    });
    g.bench_function("abalone mcts 5000 iterations", |b| {
        b.iter(|| {
            let rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
            Mcts::<AbaloneState>::new(
                Budget { iterations: Some(5_000), ..Budget::default() },
                rng,
                MctsConfig::default(),
            )
            .search(&s, &[])
        })
    });
    let settings = plateau_kabaleo::Kabaleo::INFO.resolve(Some("4-players"), &Options::new()).unwrap();
    let game = plateau_kabaleo::Kabaleo::configure(&settings).unwrap();
    let mut k = game.start(3);
    let mut moves = Vec::new();
    for _ in 0..8 {
        k.legal_moves(&mut moves);
        k.apply(moves[moves.len() / 2]);
    }
    let seat = k.to_move().seat().unwrap();
    let knowledge = k.knowledge(seat);
    for (name, version) in [("v1", Some(0)), ("latest", None)] {
        g.bench_function(format!("kabaleo 4 players ismcts 5000 iterations {name}"), |b| {
            b.iter(|| {
                let rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
                IsMcts::<plateau_kabaleo::KabaleoState>::new(
                    Budget { iterations: Some(5_000), ..Budget::default() },
                    rng,
                    MctsConfig { version, ..MctsConfig::for_game::<plateau_kabaleo::KabaleoState>() },
                )
                .search(&knowledge, seat)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
