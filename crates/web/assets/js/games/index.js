// The drawing module of each game, by the game's name in the catalogue.
//
// A drawing module knows how a game looks, never its rules. It exports:
// - draw(view, ctx): the board as an <svg class="board">, its clickable
//   elements tagged with the gesture ids (data-id) and a `.hl` highlight;
// - seatColour(seat, view), seatName(seat, name, t), title(t);
// - label(id, t): the words of a button for an id not on the board;
// - panel(view, ctx), secret(view, ctx), result(view, ctx, result), prompt(view, ctx);
// - secretColour(value), secretName(value, t): a hidden secret's value in the
//   computer analysis (Kabaleo's objective colours).

import abalone from './abalone.js';
import colorito from './colorito.js';
import kabaleo from './kabaleo.js';
import abraxas from './abraxas.js';
import generic from './generic.js';

const ALL = { abalone, colorito, kabaleo, abraxas };

/** The drawing module of `game` (a plain one for a game it does not know). */
export function drawing(game) {
  return ALL[String(game).toLowerCase()] || generic;
}
