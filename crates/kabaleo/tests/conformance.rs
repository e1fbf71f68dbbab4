//! The conformance kit, with its hidden-information checks, over every player
//! count, both deals (where allowed) and the golden rule on and off.

use plateau_conformance::Kit;
use plateau_kabaleo::Kabaleo;

const PLAYOUTS: usize = 80;

fn run(variant: &str, options: &[(&str, &str)]) {
    for golden in ["false", "true"] {
        let mut opts = options.to_vec();
        opts.push(("golden-rule", golden));
        let stats = Kit::new(PLAYOUTS).run_hidden::<Kabaleo>(variant, &opts);
        assert_eq!(stats.finished, PLAYOUTS, "{variant} {opts:?}: {stats}");
        assert_eq!(stats.endings.get("all pieces placed"), Some(&PLAYOUTS));
        println!("{variant} {opts:?}: {stats}");
    }
}

#[test]
fn two_players_random() {
    run("standard", &[]);
}

#[test]
fn two_players_even() {
    run("even", &[]);
}

#[test]
fn three_players_random() {
    run("3-players", &[]);
}

#[test]
fn three_players_even() {
    run("3-players-even", &[]);
}

#[test]
fn four_players_random() {
    run("4-players", &[]);
}

#[test]
fn chosen_colours() {
    run("standard", &[("colours", "GBVR")]);
    run("standard", &[("players", "3"), ("colours", "OYGBV")]);
}
