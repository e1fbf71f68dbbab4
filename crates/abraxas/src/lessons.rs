//! Abraxas's lessons for beginners (see `plateau_core::lesson` and
//! `docs/learn.md`): scoring a line of four after the push, and using a stop
//! stone. The steps play on a small inline sheet of three dots in a row,
//! `d5 e5 f5`, so that one stone makes a line.

use plateau_core::lesson::{Lesson, Step};

/// The sheet of the lessons: three dots, d5 e5 f5.
const THREE_DOTS: &[(&str, &str)] =
    &[("sheet", "........./........./........./........./...ooo.../........./........./........./.........")];

/// The lessons.
pub const LESSONS: &[Lesson] = &[
    Lesson {
        id: "lines",
        title: ["Lines after the push", "Les lignes après la poussée"],
        steps: &[Step {
            variant: None,
            options: THREE_DOTS,
            deal: None,
            moves: &[],
            seat: 0,
            goal: [
                "Score a line of four. Lines of four red circles (red stones and uncovered dots) count only after the push: once you have placed a stone, the plate with its stones moves one cell (here, to the right). Place a red stone so that after the push it lines up with the three dots.",
                "Marquez une ligne de quatre. Les lignes de quatre cercles rouges (pierres rouges et points découverts) ne comptent qu'après la poussée : une fois votre pierre posée, la plaque et ses pierres avancent d'une case (ici, vers la droite). Posez une pierre rouge pour qu'après la poussée elle s'aligne avec les trois points.",
            ],
            accept: &["b5", "f5"],
            miss: [
                "That move is legal, but after the push there is no line of four. Remember that your stone moves one cell to the right with the plate.",
                "Ce coup est légal, mais après la poussée il n'y a pas de ligne de quatre. N'oubliez pas que votre pierre avance d'une case vers la droite avec la plaque.",
            ],
            success: [
                "A line! You now take one stone from it (a line of L circles gives L − 3 stones), and you play again.",
                "Une ligne ! Vous prenez maintenant une pierre de cette ligne (une ligne de L cercles en donne L − 3), et vous rejouez.",
            ],
        }],
    },
    Lesson {
        id: "stops",
        title: ["Stop stones", "Les pierres d'arrêt"],
        steps: &[Step {
            variant: None,
            options: THREE_DOTS,
            deal: None,
            moves: &["b5", "x:c5"],
            seat: 1,
            goal: [
                "You play the second player. Your opponent made a line, took a stone and will play again. Before that, you may place one of your blue stop stones: it covers the dot under it. Place a stop stone so that your opponent cannot make a line on their next turn (the plate will next move up one cell).",
                "Vous jouez le second joueur. Votre adversaire a fait une ligne, pris une pierre et va rejouer. Avant cela, vous pouvez poser une de vos pierres d'arrêt bleues : elle couvre le point sous elle. Posez une pierre d'arrêt pour que votre adversaire ne puisse pas faire de ligne au tour suivant (la plaque va ensuite monter d'une case).",
            ],
            accept: &["b:d4", "b:e4", "b:f4"],
            miss: [
                "That move is legal, but your opponent can still make a line of four with the three dots. After the next push your stop stone will be one cell higher: put it where it will then cover one of the dots.",
                "Ce coup est légal, mais votre adversaire peut encore faire une ligne de quatre avec les trois points. Après la prochaine poussée, votre pierre d'arrêt sera une case plus haut : posez-la là où elle couvrira alors un des points.",
            ],
            success: [
                "Blocked: the stop stone will cover a dot, and no single stone can make a line there any more. Stop stones stay until the end of the game.",
                "Bloqué : la pierre d'arrêt couvrira un point, et aucune pierre seule ne peut plus y faire de ligne. Les pierres d'arrêt restent jusqu'à la fin de la partie.",
            ],
        }],
    },
];
