// English and French. The language comes from the browser's, or from the
// switch in the header (kept in localStorage).

const en = {
  'nav.lobby': 'Games',
  'nav.rules': 'Rules',
  'nav.back': 'Back to the games',
  'nav.first': 'First position',
  'nav.prev': 'Previous move',
  'nav.next': 'Next move',
  'nav.last': 'Current position',
  'nav.viewing': 'Position after move {n} of {total}',
  'nav.live': 'Back to the game',

  'lobby.title': 'Play a game',
  'lobby.new': 'New game',
  'lobby.game': 'Game',
  'lobby.variant': 'Variant',
  'lobby.options': 'Options',
  'lobby.default': 'default: {v}',
  'lobby.unset': '(none)',
  'lobby.seats': 'Seats',
  'lobby.me': 'Me',
  'lobby.open': 'A person (invite)',
  'lobby.computer': 'Computer, level {n}: {label}',
  'lobby.name': 'Your name',
  'lobby.namePlaceholder': 'shown to the other players',
  'lobby.create': 'Create the game',
  'lobby.creating': 'Creating…',
  'lobby.needMe': 'Take one seat yourself, or let computers play and watch.',
  'lobby.tabOpen': 'Open',
  'lobby.tabLive': 'Being played',
  'lobby.tabFinished': 'Finished',
  'lobby.noneOpen': 'No game is waiting for players. Create one and send the invite link.',
  'lobby.noneLive': 'No game is being played right now.',
  'lobby.noneFinished': 'No finished game yet.',
  'lobby.join': 'Join',
  'lobby.watch': 'Watch',
  'lobby.replay': 'Replay',
  'lobby.resume': 'Continue',
  'lobby.more': 'More',
  'lobby.moves': '{n} moves',
  'lobby.rules': 'Rules of {game}',
  'lobby.seed': 'Seed',
  'lobby.seedHelp': 'The set-up of this game is drawn from this number (empty: at random).',
  'lobby.on': 'on',
  'lobby.off': 'off',
  'lobby.cpu': 'computer {n}',
  'lobby.openSeat': 'open',

  'game.loading': 'Loading the game…',
  'game.notFound': 'This game cannot be shown',
  'game.variant': '{v}',
  'game.watching': 'You are watching',
  'game.spectators': 'Spectators: {n}',
  'game.seats': 'Players',
  'game.moves': 'Moves',
  'game.actions': 'Game',
  'game.invite': 'Invite link',
  'game.inviteHelp': 'Send this link to the other players: they take their seat from it. Anyone else who opens it watches.',
  'game.watchHelp': 'Anyone who opens this link watches the game.',
  'game.copy': 'Copy',
  'game.copied': 'Link copied',
  'game.take': 'Take the seat: {seat}',
  'game.joined': 'You have your seat.',
  'game.badToken': 'This browser no longer holds a seat of this game: you watch.',
  'moves.none': 'No move yet.',

  'seat.you': 'you',
  'seat.open': 'open seat: waiting for a player',
  'seat.person': 'a person',
  'seat.computer': 'computer ({spec})',
  'seat.level': 'computer, level {n} ({label})',
  'seat.online': 'connected',
  'seat.offline': 'not connected',

  'turn.waiting': 'Waiting for players',
  'turn.aborted': 'Game aborted',
  'turn.over': 'Game over',
  'turn.yours': 'Your move',
  'turn.of': '{who} to move',

  'conn.connecting': 'connecting…',
  'conn.open': 'connected',
  'conn.reconnecting': 'connection lost: reconnecting…',
  'conn.closed': 'disconnected',

  'play.start': 'Click a highlighted piece or place.',
  'play.target': 'Click a green place to play, or change the selection.',
  'play.targetOrMore': 'Click a green place to play, or select more.',
  'play.more': 'Select more to make the move.',
  'play.sending': 'Sending the move…',
  'play.clear': 'Clear the selection',
  'play.pass': 'Pass',

  'act.offerDraw': 'Offer a draw',
  'act.drawOffered': 'Draw offered',
  'act.acceptDraw': 'Accept the draw',
  'act.declineDraw': 'Decline the draw',
  'act.resign': 'Resign',
  'act.resignSure': 'Click again to resign',
  'act.abort': 'Abort the game',
  'act.abortSure': 'Click again to abort',
  'act.leave': 'Give up my seat',
  'act.rematch': 'Rematch',
  'act.rematchAsked': 'Rematch asked: waiting',
  'act.rematchAccept': 'Accept the rematch',
  'act.toRematch': 'Go to the rematch',
  'act.record': 'Download the record',
  'act.rules': 'Rules',

  'ev.join': '{who} has joined.',
  'ev.leave': '{who} has left.',
  'ev.drawOffer': '{who} offers a draw.',
  'ev.drawDecline': 'The draw offer was declined.',
  'ev.resign': '{who} resigns.',
  'ev.abort': 'The game was aborted.',
  'ev.rematchOffer': '{who} asks for a rematch.',

  'result.draw': 'Draw',
  'result.youWin': 'You win!',
  'result.wins': '{who} wins',
  'result.share': '{who} share the win',
  'result.aborted': 'This game was aborted.',
  'reason.resignation': 'resignation',
  'reason.agreement': 'draw agreed',
  'reason.push-out': 'marbles pushed out',
  'reason.threefold repetition': 'threefold repetition',
  'reason.no legal move': 'no legal move',
  'reason.max-plies': 'move limit',
  'reason.all pieces placed': 'all pieces placed',
  'reason.blocking rule': 'blocking rule',
  'reason.equal moves': 'same number of moves',
  'reason.max-moves': 'move limit',
  'reason.set completed': 'set completed',
  'reason.stones taken': 'stones taken',
  'reason.move cap': 'move limit',
  'reason.no legal placement': 'no legal placement',
  'reason.time forfeit': 'time forfeit',
  'reason.abandoned': 'abandoned',
  'reason.adjudication': 'adjudication',

  'rules.title': 'Rules',
  'rules.spec': 'The rules as Plateau plays them',
  'rules.original': 'The original rule sheet (French)',
  'rules.intro': 'The rules of the four games, as Plateau implements them, with every decision where the original sheets are silent.',
  'rules.frNote': '',

  'level.1': 'beginner: plays at random',
  'level.2': 'novice: the best move one step ahead',
  'level.3': 'casual: looks a little ahead',
  'level.4': 'club: a fifth of a second a move',
  'level.5': 'strong: a second a move',
  'level.6': 'expert: five seconds a move',
};

const fr = {
  'nav.lobby': 'Parties',
  'nav.rules': 'Règles',
  'nav.back': 'Retour aux parties',
  'nav.first': 'Position de départ',
  'nav.prev': 'Coup précédent',
  'nav.next': 'Coup suivant',
  'nav.last': 'Position actuelle',
  'nav.viewing': 'Position après le coup {n} sur {total}',
  'nav.live': 'Revenir à la partie',

  'lobby.title': 'Jouer une partie',
  'lobby.new': 'Nouvelle partie',
  'lobby.game': 'Jeu',
  'lobby.variant': 'Variante',
  'lobby.options': 'Options',
  'lobby.default': 'par défaut : {v}',
  'lobby.unset': '(aucune)',
  'lobby.seats': 'Places',
  'lobby.me': 'Moi',
  'lobby.open': 'Une personne (invitation)',
  'lobby.computer': 'Ordinateur, niveau {n} : {label}',
  'lobby.name': 'Votre nom',
  'lobby.namePlaceholder': 'montré aux autres joueurs',
  'lobby.create': 'Créer la partie',
  'lobby.creating': 'Création…',
  'lobby.needMe': 'Prenez une place vous-même, ou laissez jouer les ordinateurs et regardez.',
  'lobby.tabOpen': 'Ouvertes',
  'lobby.tabLive': 'En cours',
  'lobby.tabFinished': 'Terminées',
  'lobby.noneOpen': 'Aucune partie n’attend de joueurs. Créez-en une et envoyez le lien d’invitation.',
  'lobby.noneLive': 'Aucune partie en cours.',
  'lobby.noneFinished': 'Aucune partie terminée pour l’instant.',
  'lobby.join': 'Rejoindre',
  'lobby.watch': 'Regarder',
  'lobby.replay': 'Revoir',
  'lobby.resume': 'Reprendre',
  'lobby.more': 'Plus',
  'lobby.moves': '{n} coups',
  'lobby.rules': 'Règles de {game}',
  'lobby.seed': 'Graine',
  'lobby.seedHelp': 'La mise en place de la partie est tirée de ce nombre (vide : au hasard).',
  'lobby.on': 'oui',
  'lobby.off': 'non',
  'lobby.cpu': 'ordinateur {n}',
  'lobby.openSeat': 'libre',

  'game.loading': 'Chargement de la partie…',
  'game.notFound': 'Impossible d’afficher cette partie',
  'game.variant': '{v}',
  'game.watching': 'Vous regardez',
  'game.spectators': 'Spectateurs : {n}',
  'game.seats': 'Joueurs',
  'game.moves': 'Coups',
  'game.actions': 'Partie',
  'game.invite': 'Lien d’invitation',
  'game.inviteHelp': 'Envoyez ce lien aux autres joueurs : ils y prennent leur place. Toute autre personne qui l’ouvre regarde.',
  'game.watchHelp': 'Toute personne qui ouvre ce lien regarde la partie.',
  'game.copy': 'Copier',
  'game.copied': 'Lien copié',
  'game.take': 'Prendre la place : {seat}',
  'game.joined': 'Vous avez votre place.',
  'game.badToken': 'Ce navigateur n’a plus de place dans cette partie : vous regardez.',
  'moves.none': 'Aucun coup pour l’instant.',

  'seat.you': 'vous',
  'seat.open': 'place libre : en attente d’un joueur',
  'seat.person': 'une personne',
  'seat.computer': 'ordinateur ({spec})',
  'seat.level': 'ordinateur, niveau {n} ({label})',
  'seat.online': 'connecté',
  'seat.offline': 'non connecté',

  'turn.waiting': 'En attente des joueurs',
  'turn.aborted': 'Partie annulée',
  'turn.over': 'Partie terminée',
  'turn.yours': 'À vous de jouer',
  'turn.of': 'Au tour de {who}',

  'conn.connecting': 'connexion…',
  'conn.open': 'connecté',
  'conn.reconnecting': 'connexion perdue : reconnexion…',
  'conn.closed': 'déconnecté',

  'play.start': 'Cliquez sur une pièce ou une case en surbrillance.',
  'play.target': 'Cliquez sur une case verte pour jouer, ou changez la sélection.',
  'play.targetOrMore': 'Cliquez sur une case verte pour jouer, ou sélectionnez davantage.',
  'play.more': 'Sélectionnez davantage pour faire le coup.',
  'play.sending': 'Envoi du coup…',
  'play.clear': 'Annuler la sélection',
  'play.pass': 'Passer',

  'act.offerDraw': 'Proposer la nulle',
  'act.drawOffered': 'Nulle proposée',
  'act.acceptDraw': 'Accepter la nulle',
  'act.declineDraw': 'Refuser la nulle',
  'act.resign': 'Abandonner',
  'act.resignSure': 'Cliquez encore pour abandonner',
  'act.abort': 'Annuler la partie',
  'act.abortSure': 'Cliquez encore pour annuler',
  'act.leave': 'Quitter ma place',
  'act.rematch': 'Revanche',
  'act.rematchAsked': 'Revanche demandée : en attente',
  'act.rematchAccept': 'Accepter la revanche',
  'act.toRematch': 'Aller à la revanche',
  'act.record': 'Télécharger la partie',
  'act.rules': 'Règles',

  'ev.join': '{who} a rejoint la partie.',
  'ev.leave': '{who} est parti.',
  'ev.drawOffer': '{who} propose la nulle.',
  'ev.drawDecline': 'La proposition de nulle est refusée.',
  'ev.resign': '{who} abandonne.',
  'ev.abort': 'La partie a été annulée.',
  'ev.rematchOffer': '{who} demande une revanche.',

  'result.draw': 'Partie nulle',
  'result.youWin': 'Vous gagnez !',
  'result.wins': '{who} gagne',
  'result.share': '{who} partagent la victoire',
  'result.aborted': 'Cette partie a été annulée.',
  'reason.resignation': 'abandon',
  'reason.agreement': 'nulle acceptée',
  'reason.push-out': 'billes éjectées',
  'reason.threefold repetition': 'triple répétition',
  'reason.no legal move': 'aucun coup légal',
  'reason.max-plies': 'limite de coups',
  'reason.all pieces placed': 'tous les pions posés',
  'reason.blocking rule': 'règle du blocage',
  'reason.equal moves': 'même nombre de coups',
  'reason.max-moves': 'limite de coups',
  'reason.set completed': 'série complète',
  'reason.stones taken': 'pions pris',
  'reason.move cap': 'limite de coups',
  'reason.no legal placement': 'aucune pose possible',
  'reason.time forfeit': 'temps dépassé',
  'reason.abandoned': 'abandonnée',
  'reason.adjudication': 'arbitrage',

  'rules.title': 'Règles',
  'rules.spec': 'Les règles telles que Plateau les joue (en anglais)',
  'rules.original': 'La règle originale',
  'rules.intro': 'Les règles des quatre jeux : la règle originale publiée, puis les règles complètes telles que Plateau les applique (en anglais), avec chaque décision là où la règle originale ne dit rien.',
  'rules.frNote': 'Les règles complètes ci-dessous sont rédigées en anglais ; la règle originale en français est en tête de page.',

  'level.1': 'débutant : joue au hasard',
  'level.2': 'novice : le meilleur coup un coup à l’avance',
  'level.3': 'amateur : regarde un peu à l’avance',
  'level.4': 'club : un cinquième de seconde par coup',
  'level.5': 'fort : une seconde par coup',
  'level.6': 'expert : cinq secondes par coup',
};

const DICTS = { en, fr };
const extra = { en: {}, fr: {} };
const listeners = new Set();

function initial() {
  const saved = localStorage.getItem('plateau.lang');
  if (saved && DICTS[saved]) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const k = String(l).slice(0, 2).toLowerCase();
    if (DICTS[k]) return k;
  }
  return 'en';
}

let lang = initial();

/** The language in use: `en` or `fr`. */
export const getLang = () => lang;

/** Switch the language (and tell every listener). */
export function setLang(l) {
  if (!DICTS[l] || l === lang) return;
  lang = l;
  localStorage.setItem('plateau.lang', l);
  document.documentElement.lang = l;
  for (const f of [...listeners]) f(l);
}

/** Call `f` on every change of language; returns the way to stop. */
export function onLang(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** Add strings (the games' own) for both languages. */
export function addStrings(more) {
  for (const l of Object.keys(extra)) Object.assign(extra[l], more[l] || {});
}

/**
 * The text of `key` in the current language with `{name}` replaced from
 * `params`; `fallback` (or the English, or the key) when it has none.
 */
export function t(key, params = {}, fallback) {
  let s = extra[lang][key] ?? DICTS[lang][key] ?? extra.en[key] ?? en[key];
  if (s === undefined) s = fallback !== undefined ? fallback : key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** Whether `key` has a text. */
export const has = (key) => key in extra[lang] || key in DICTS[lang] || key in extra.en || key in en;

/** A computer level's words. */
export const levelLabel = (n) => t(`level.${n}`);

/** Translate the static texts of the page (data-i18n) and mark the switch. */
export function translatePage() {
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const b of document.querySelectorAll('[data-lang]')) {
    b.classList.toggle('on', b.dataset.lang === lang);
    b.setAttribute('aria-pressed', String(b.dataset.lang === lang));
  }
}
