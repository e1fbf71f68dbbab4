//! Abalone's lessons for beginners (see `plateau_core::lesson` and
//! `docs/learn.md`): moving a line, the broadside move, pushing, pushing a
//! marble off the board. Positions are given in the `position` option's
//! text form (rows I to A).

use plateau_core::lesson::{Lesson, Step};

/// A small position for the pushing lessons: Black `E7 E8` against White
/// `E9` on the edge, Black `C3 C4` against White `C5`, and a few more White
/// marbles.
const PUSHES: &[(&str, &str)] = &[("position", "5/4ww/7/8/6bbw/8/2bbw2/6/5 b 0 0")];

/// The same without the marble on the edge: pushes, but none off the board.
const PUSH_ONLY: &[(&str, &str)] = &[("position", "5/4ww/7/8/9/8/2bbw2/6/5 b 0 0")];

/// The lessons.
pub const LESSONS: &[Lesson] = &[
    Lesson {
        id: "moving",
        title: ["Moving marbles", "Déplacer les billes"],
        steps: &[
            Step {
                variant: Some("standard"),
                options: &[],
                deal: None,
                moves: &[],
                seat: 0,
                goal: [
                    "You play Black. Move a line of three of your marbles one cell along its own line: click the marbles, then where they go.",
                    "Vous jouez les Noirs. Avancez une ligne de trois de vos billes d'une case dans l'axe de la ligne : cliquez les billes, puis leur destination.",
                ],
                accept: &["a1b2", "a2b3", "a3b3", "a3b4", "a4b4", "a5b5", "c3c4", "c5c4"],
                miss: [
                    "That move is legal, but it does not move three marbles along their line. Choose three marbles in a row and move them in the direction of the row.",
                    "Ce coup est légal, mais il ne déplace pas trois billes dans l'axe de leur ligne. Choisissez trois billes alignées et déplacez-les dans la direction de la ligne.",
                ],
                success: [
                    "Well done: an in-line move. The marble behind takes the place of the one in front, and the front one moves on.",
                    "Bravo : un coup en ligne. La bille de derrière prend la place de celle de devant, qui avance.",
                ],
            },
            Step {
                variant: Some("standard"),
                options: &[],
                deal: None,
                moves: &[],
                seat: 0,
                goal: [
                    "Now a broadside move: move two or three marbles in a row sideways, each into the empty cell next to it, all in the same direction.",
                    "Maintenant un coup latéral : déplacez de côté deux ou trois billes alignées, chacune vers la case vide voisine, toutes dans la même direction.",
                ],
                accept: &[
                    "b1b2c1", "b2c3c2", "b5b6c6", "b5c5c6", "c3c4d3", "c3c4d4", "c3c5d3", "c3c5d4", "c4c5d4", "c4c5d5",
                ],
                miss: [
                    "That move is legal, but it is not a broadside move: in a broadside move every marble of the line moves sideways, out of the line.",
                    "Ce coup est légal, mais ce n'est pas un coup latéral : dans un coup latéral, chaque bille de la ligne se déplace de côté, hors de la ligne.",
                ],
                success: [
                    "Yes: a broadside move. It never pushes: every cell the marbles move into must be empty.",
                    "Oui : un coup latéral. Il ne pousse jamais : chaque case d'arrivée doit être vide.",
                ],
            },
        ],
    },
    Lesson {
        id: "pushing",
        title: ["Pushing and pushing out", "Pousser et sortir une bille"],
        steps: &[
            Step {
                variant: Some("standard"),
                options: PUSH_ONLY,
                deal: None,
                moves: &[],
                seat: 0,
                goal: [
                    "Push a white marble: two of your marbles in line may push one opponent marble in front of them, if the cell behind it is free.",
                    "Poussez une bille blanche : deux de vos billes alignées peuvent pousser une bille adverse placée devant elles, si la case derrière elle est libre.",
                ],
                accept: &["c3c4"],
                miss: [
                    "That move is legal, but it pushes nothing. Line up more of your marbles than there are opponent marbles in front, and move along the line into them.",
                    "Ce coup est légal, mais il ne pousse rien. Alignez plus de vos billes qu'il n'y a de billes adverses devant elles, et avancez dans l'axe vers elles.",
                ],
                success: [
                    "Yes: two push one. Three may push one or two; never as many as you push with.",
                    "Oui : deux poussent une. Trois peuvent en pousser une ou deux ; jamais autant qu'il y en a pour pousser.",
                ],
            },
            Step {
                variant: Some("standard"),
                options: PUSHES,
                deal: None,
                moves: &[],
                seat: 0,
                goal: [
                    "Push a white marble off the board. Six pushed out win the game.",
                    "Sortez une bille blanche du plateau. Six billes sorties gagnent la partie.",
                ],
                accept: &["e7e8"],
                miss: [
                    "That move is legal, but no white marble left the board. Push the white marble that stands on the edge, from behind, towards the outside.",
                    "Ce coup est légal, mais aucune bille blanche n'est sortie. Poussez la bille blanche qui est au bord, depuis l'intérieur, vers l'extérieur.",
                ],
                success: [
                    "Out it goes! One marble pushed out: five more to win.",
                    "Elle sort ! Une bille sortie : encore cinq pour gagner.",
                ],
            },
        ],
    },
];
