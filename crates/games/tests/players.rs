//! Every computer player returns legal moves in every game and variant.

use plateau_core::{Setup, Turn};

#[test]
fn every_player_plays_legal_moves_everywhere() {
    let registry = plateau_games::registry();
    for entry in registry.games() {
        let info = entry.info();
        let players = plateau_games::players(info.name).unwrap_or_else(|e| panic!("{}: {e}", info.name));
        let fast: Vec<String> = players
            .levels()
            .iter()
            .map(|l| l.spec.to_string())
            .filter(|s| !s.contains("time="))
            .chain(["mcts:iterations=150".to_string()])
            .collect();
        for variant in info.variants {
            for spec in &fast {
                let spec = format!("{spec}{}seed=3", if spec.contains(':') { "," } else { ":" });
                let mut m = entry
                    .new_match(&Setup { variant: Some(variant.name.into()), seed: 5, ..Setup::default() })
                    .unwrap();
                let mut seats: Vec<_> = (0..m.seats()).map(|_| players.create_from(&spec).unwrap()).collect();
                for _ in 0..12 {
                    let Turn::Seat(s) = m.to_move() else { break };
                    let c =
                        seats[s].choose(&*m).unwrap_or_else(|e| panic!("{} {} {spec}: {e}", info.name, variant.name));
                    m.play(&c.mv)
                        .unwrap_or_else(|e| panic!("{} {} {spec} chose {}: {e}", info.name, variant.name, c.mv));
                }
            }
        }
    }
}

#[test]
fn levels_are_listed_for_every_game() {
    for entry in plateau_games::registry().games() {
        let players = plateau_games::players(entry.info().name).unwrap();
        let levels = players.levels();
        assert_eq!(levels.iter().map(|l| l.level).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
        for l in levels {
            players.create_from(l.spec).unwrap();
        }
    }
}
