// The display names of variants, options and option values, in English and
// French. The identifiers (`belgian-daisy`, `removed-not-adjacent`) stay in
// the API and the records; the interface shows these names wherever it shows
// one, and the identifier itself only for what has no name here (a new
// variant of the server that this file does not know yet).

import { getLang } from './i18n.js';

const NAMES = {
  en: {
    // Names shared by several games.
    'value.*.true': 'on',
    'value.*.false': 'off',
    'value.*.none': 'none',
    'value.*.auto': 'automatic',
    'value.*.draw': 'a draw',
    'value.*.off': 'off',

    'variant.abalone.standard': 'Standard',
    'variant.abalone.belgian-daisy': 'Belgian daisy',
    'variant.abalone.german-daisy': 'German daisy',
    'variant.abalone.alien': 'Alien',
    'variant.abalone.snakes': 'Snakes',
    'variant.abalone.domination': 'Domination',
    'option.abalone.layout': 'Starting layout',
    'option.abalone.position': 'Starting position',
    'option.abalone.marbles-to-win': 'Marbles to push out to win',
    'option.abalone.max-plies': 'Moves before the game ends',
    'option.abalone.repetition': 'Third repetition',
    'value.abalone.layout.standard': 'Standard',
    'value.abalone.layout.belgian-daisy': 'Belgian daisy',
    'value.abalone.layout.german-daisy': 'German daisy',
    'value.abalone.layout.alien': 'Alien',
    'value.abalone.layout.snakes': 'Snakes',
    'value.abalone.layout.domination': 'Domination',

    'variant.colorito.standard': 'Standard',
    'variant.colorito.just-colours': 'Just colours',
    'variant.colorito.strict': 'Strict',
    'option.colorito.first': 'Who starts',
    'option.colorito.just-colours': 'Just colours (numbers ignored)',
    'option.colorito.strict': 'Strict step-then-jump',
    'option.colorito.max-moves': 'Moves before the game ends',
    'option.colorito.board': 'Board',
    'option.colorito.score-nodes': 'Search budget of the loser’s score',
    'value.colorito.first.red': 'Red',
    'value.colorito.first.blue': 'Blue',
    'value.colorito.board.standard': 'Standard',

    'variant.kabaleo.standard': '2 players',
    'variant.kabaleo.3-players': '3 players',
    'variant.kabaleo.4-players': '4 players',
    'variant.kabaleo.even': '2 players, even deal',
    'variant.kabaleo.3-players-even': '3 players, even deal',
    'option.kabaleo.players': 'Players',
    'option.kabaleo.deal': 'Deal',
    'option.kabaleo.colours': 'Colours in play',
    'option.kabaleo.golden-rule': 'Golden rule',
    'value.kabaleo.deal.random': 'Random',
    'value.kabaleo.deal.even': 'Even',

    'variant.abraxas.level-1': 'Sheet 1',
    'variant.abraxas.level-2': 'Sheet 2',
    'variant.abraxas.level-3': 'Sheet 3',
    'variant.abraxas.level-4': 'Sheet 4',
    'variant.abraxas.level-5': 'Sheet 5',
    'variant.abraxas.level-6': 'Sheet 6',
    'option.abraxas.sheet': 'Sheet',
    'option.abraxas.plate-start': 'Where the plate starts',
    'option.abraxas.removal': 'Removal rule',
    'option.abraxas.stones-to-win': 'Stones to win',
    'option.abraxas.max-plies': 'Moves before the game ends',
    'option.abraxas.repetition': 'Third repetition',
    'value.abraxas.sheet.level-1': 'Sheet 1',
    'value.abraxas.sheet.level-2': 'Sheet 2',
    'value.abraxas.sheet.level-3': 'Sheet 3',
    'value.abraxas.sheet.level-4': 'Sheet 4',
    'value.abraxas.sheet.level-5': 'Sheet 5',
    'value.abraxas.sheet.level-6': 'Sheet 6',
    'value.abraxas.plate-start.bottom-left': 'Bottom left',
    'value.abraxas.plate-start.bottom-right': 'Bottom right',
    'value.abraxas.plate-start.top-right': 'Top right',
    'value.abraxas.plate-start.top-left': 'Top left',
    'value.abraxas.removal.remaining-not-adjacent': 'Stones left must not touch',
    'value.abraxas.removal.removed-not-adjacent': 'Stones taken must not touch',
  },
  fr: {
    'value.*.true': 'activé',
    'value.*.false': 'désactivé',
    'value.*.none': 'aucune',
    'value.*.auto': 'automatique',
    'value.*.draw': 'partie nulle',
    'value.*.off': 'désactivée',

    'variant.abalone.standard': 'Classique',
    'variant.abalone.belgian-daisy': 'Marguerite belge',
    'variant.abalone.german-daisy': 'Marguerite allemande',
    'variant.abalone.alien': 'Extraterrestre',
    'variant.abalone.snakes': 'Serpents',
    'variant.abalone.domination': 'Domination',
    'option.abalone.layout': 'Position de départ',
    'option.abalone.position': 'Position personnalisée',
    'option.abalone.marbles-to-win': 'Billes à éjecter pour gagner',
    'option.abalone.max-plies': 'Coups avant la fin de la partie',
    'option.abalone.repetition': 'Troisième répétition',
    'value.abalone.layout.standard': 'Classique',
    'value.abalone.layout.belgian-daisy': 'Marguerite belge',
    'value.abalone.layout.german-daisy': 'Marguerite allemande',
    'value.abalone.layout.alien': 'Extraterrestre',
    'value.abalone.layout.snakes': 'Serpents',
    'value.abalone.layout.domination': 'Domination',

    'variant.colorito.standard': 'Classique',
    'variant.colorito.just-colours': 'Couleurs seules',
    'variant.colorito.strict': 'Stricte',
    'option.colorito.first': 'Qui commence',
    'option.colorito.just-colours': 'Couleurs seules (chiffres ignorés)',
    'option.colorito.strict': 'Pas-puis-saut strict',
    'option.colorito.max-moves': 'Coups avant la fin de la partie',
    'option.colorito.board': 'Plateau',
    'option.colorito.score-nodes': 'Budget de calcul du score du perdant',
    'value.colorito.first.red': 'Rouge',
    'value.colorito.first.blue': 'Bleu',
    'value.colorito.board.standard': 'Classique',

    'variant.kabaleo.standard': '2 joueurs',
    'variant.kabaleo.3-players': '3 joueurs',
    'variant.kabaleo.4-players': '4 joueurs',
    'variant.kabaleo.even': '2 joueurs, distribution égale',
    'variant.kabaleo.3-players-even': '3 joueurs, distribution égale',
    'option.kabaleo.players': 'Joueurs',
    'option.kabaleo.deal': 'Distribution',
    'option.kabaleo.colours': 'Couleurs en jeu',
    'option.kabaleo.golden-rule': 'Règle d’or',
    'value.kabaleo.deal.random': 'Au hasard',
    'value.kabaleo.deal.even': 'Égale',

    'variant.abraxas.level-1': 'Feuille 1',
    'variant.abraxas.level-2': 'Feuille 2',
    'variant.abraxas.level-3': 'Feuille 3',
    'variant.abraxas.level-4': 'Feuille 4',
    'variant.abraxas.level-5': 'Feuille 5',
    'variant.abraxas.level-6': 'Feuille 6',
    'option.abraxas.sheet': 'Feuille',
    'option.abraxas.plate-start': 'Départ de la plaque',
    'option.abraxas.removal': 'Règle de retrait',
    'option.abraxas.stones-to-win': 'Pierres pour gagner',
    'option.abraxas.max-plies': 'Coups avant la fin de la partie',
    'option.abraxas.repetition': 'Troisième répétition',
    'value.abraxas.sheet.level-1': 'Feuille 1',
    'value.abraxas.sheet.level-2': 'Feuille 2',
    'value.abraxas.sheet.level-3': 'Feuille 3',
    'value.abraxas.sheet.level-4': 'Feuille 4',
    'value.abraxas.sheet.level-5': 'Feuille 5',
    'value.abraxas.sheet.level-6': 'Feuille 6',
    'value.abraxas.plate-start.bottom-left': 'En bas à gauche',
    'value.abraxas.plate-start.bottom-right': 'En bas à droite',
    'value.abraxas.plate-start.top-right': 'En haut à droite',
    'value.abraxas.plate-start.top-left': 'En haut à gauche',
    'value.abraxas.removal.remaining-not-adjacent': 'Les pierres restantes ne se touchent pas',
    'value.abraxas.removal.removed-not-adjacent': 'Les pierres retirées ne se touchent pas',
  },
};

function look(key) {
  const d = NAMES[getLang()] || NAMES.en;
  return d[key] ?? NAMES.en[key];
}

const norm = (x) => String(x ?? '').toLowerCase();

/** A variant's display name (the identifier when it has none). */
export function variantName(game, variant) {
  if (variant === null || variant === undefined || variant === '') return '';
  return look(`variant.${norm(game)}.${variant}`) ?? String(variant);
}

/** An option's display name. */
export function optionName(game, option) {
  return look(`option.${norm(game)}.${option}`) ?? String(option);
}

/** The display name of an option's value (numbers and free text as they are). */
export function valueName(game, option, value) {
  const v = String(value);
  return look(`value.${norm(game)}.${option}.${v}`) ?? look(`value.*.${v}`) ?? v;
}

/** Whether the identifier `id` has a display name of its own (for tests and tools). */
export const NAMED = NAMES;
