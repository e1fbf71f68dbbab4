//! Kabaleo's lessons for beginners (see `plateau_core::lesson` and
//! `docs/learn.md`): showing your colour, and cancelling a piece with one of
//! the same colour. Each step starts from a deal that names the learner's
//! objective only (red), so that the learner sees the game as a player does.

use plateau_core::lesson::{Lesson, Step};

/// The lessons.
pub const LESSONS: &[Lesson] = &[Lesson {
    id: "colours",
    title: ["Showing your colour", "Montrer sa couleur"],
    steps: &[
        Step {
            variant: Some("standard"),
            options: &[],
            deal: Some(
                "bases R O Y G R O Y G R O Y G R O Y G ; stock R3 O3 Y3 G3 ; stock R3 O3 Y3 G3 ; objectives R ? ; to-move 1",
            ),
            moves: &[],
            seat: 0,
            goal: [
                "Your secret colour is red: at the end, you want red to show on as many locations as possible. Make red show on one more location: place a piece from your stock on a location.",
                "Votre couleur secrète est le rouge : à la fin, vous voulez que le rouge se voie sur le plus d'emplacements possible. Faites voir le rouge sur un emplacement de plus : posez une pièce de votre réserve sur un emplacement.",
            ],
            accept: &["R2", "R3", "R4", "R6", "R7", "R8", "R10", "R11", "R12", "R14", "R15", "R16"],
            miss: [
                "That move is legal, but red does not show on more locations than before. A location shows the colour of its top piece, or of its base when it is bare.",
                "Ce coup est légal, mais le rouge ne se voit pas sur plus d'emplacements qu'avant. Un emplacement montre la couleur de sa pièce du dessus, ou de sa base quand il est nu.",
            ],
            success: [
                "Red now shows on five locations. Your colour stays secret: the others see only the pieces you play.",
                "Le rouge se voit maintenant sur cinq emplacements. Votre couleur reste secrète : les autres ne voient que les pièces que vous jouez.",
            ],
        },
        Step {
            variant: Some("standard"),
            options: &[],
            deal: Some(
                "bases R O Y G R O Y G R O Y G R O Y G ; stock O4 Y4 G4 ; stock R6 O2 Y2 G2 ; objectives R ? ; to-move 2",
            ),
            moves: &["O1", "Y4", "G5"],
            seat: 0,
            goal: [
                "Your opponent covered two of the red bases: red now shows on two locations only. Make red show on three locations. You have no red piece left: find another way.",
                "Votre adversaire a couvert deux des bases rouges : le rouge ne se voit plus que sur deux emplacements. Faites voir le rouge sur trois emplacements. Vous n'avez plus de pièce rouge : trouvez un autre moyen.",
            ],
            accept: &["O1", "G5"],
            miss: [
                "That move is legal, but red still shows on two locations. A piece placed on a piece of the same colour cancels it: both leave the game, and what lies under shows again.",
                "Ce coup est légal, mais le rouge ne se voit toujours que sur deux emplacements. Une pièce posée sur une pièce de la même couleur l'annule : les deux quittent la partie, et ce qui est dessous se voit de nouveau.",
            ],
            success: [
                "Cancelled! Both pieces left the game and the red base shows again: three locations show red.",
                "Annulée ! Les deux pièces ont quitté la partie et la base rouge se voit de nouveau : trois emplacements montrent le rouge.",
            ],
        },
    ],
}];
