//! Colorito's lessons for beginners (see `plateau_core::lesson` and
//! `docs/learn.md`): chains of jumps, and bringing a piece home to the cell
//! of its colour and number. Positions are reached by moves from the start
//! (taken from games between computer players).

use plateau_core::lesson::{Lesson, Step};

/// The lessons.
pub const LESSONS: &[Lesson] = &[
    Lesson {
        id: "jumps",
        title: ["Jumping", "Sauter"],
        steps: &[Step {
            variant: Some("standard"),
            options: &[],
            deal: None,
            moves: &["e1-c3", "e10-c8"],
            seat: 0,
            goal: [
                "You play Red (red and yellow pieces). Jump twice in one move: jump over a piece onto the empty cell behind it, then jump again from there. The cell where the move ends must have the piece's colour or its number.",
                "Vous jouez Rouge (pièces rouges et jaunes). Sautez deux fois en un seul coup : sautez par-dessus une pièce vers la case vide derrière elle, puis sautez encore depuis là. La case d'arrivée doit avoir la couleur de la pièce ou son numéro.",
            ],
            accept: &["c1-g3", "c3-g3"],
            miss: [
                "That move is legal, but it makes at most one jump. Look for a piece that, after its first jump, lands next to another piece with an empty cell behind it.",
                "Ce coup est légal, mais il ne fait qu'un saut au plus. Cherchez une pièce qui, après un premier saut, arrive à côté d'une autre pièce avec une case vide derrière elle.",
            ],
            success: [
                "Two jumps in one move! Jumps chain as long as you like, changing direction, over pieces of either side; only the last cell must welcome the piece.",
                "Deux sauts en un coup ! Les sauts s'enchaînent autant que vous voulez, en changeant de direction, par-dessus les pièces des deux camps ; seule la dernière case doit accueillir la pièce.",
            ],
        }],
    },
    Lesson {
        id: "home",
        title: ["Going home", "Rentrer à la maison"],
        steps: &[Step {
            variant: Some("standard"),
            options: &[],
            deal: None,
            moves: &[
                "e1-c3", "e10-c8", "c1-g3", "c8-g8", "h2-h3", "g8-c8", "g2-f4", "c8-g8", "f4-g2", "g9-h8", "g2-f4",
                "h9-f7", "h1-i4", "g10-e7", "f1-e4", "d10-g6",
            ],
            seat: 0,
            goal: [
                "Bring a piece home: each piece's home is the cell of its own colour that carries its own number, on the far side (yellow 13 goes to the yellow cell 13). One of your yellow pieces can get there in one move, by a chain of jumps.",
                "Ramenez une pièce chez elle : la maison de chaque pièce est la case de sa couleur qui porte son numéro, de l'autre côté (le jaune 13 va sur la case jaune 13). Une de vos pièces jaunes peut y arriver en un coup, par une chaîne de sauts.",
            ],
            accept: &["c2-h9", "d2-g9"],
            miss: [
                "That move is legal, but no piece reached its home: the cell of its own colour with its own number. Follow a chain of jumps from your second row to the yellow numbers.",
                "Ce coup est légal, mais aucune pièce n'est arrivée chez elle : la case de sa couleur avec son numéro. Suivez une chaîne de sauts depuis votre deuxième rangée jusqu'aux numéros jaunes.",
            ],
            success: [
                "Home! The first player with all twenty pieces home wins; a cell also welcomes a piece by its number alone, so numbered cells are useful stops on the way.",
                "À la maison ! Le premier joueur dont les vingt pièces sont rentrées gagne ; une case accueille aussi une pièce par son seul numéro, les cases numérotées sont donc des étapes utiles.",
            ],
        }],
    },
];
