// "Challenge" on a player's page: for a logged-in visitor, a button that
// opens a small form (game, time control, rated) and sends the challenge
// (`POST /api/challenges`); the lobby then shows it waiting, and starts the
// game when the other player accepts.

import { api, tokens } from './api.js';
import { h, fill, toast } from './dom.js';
import { t } from './i18n.js';
import { navigate } from './nav.js';
import { getSession } from './session.js';
import { games } from './ratings.js';
import { controlPicker } from './clock.js';
import { errorText } from './errors.js';
import { noteSentChallenge } from './seeks.js';

const twoSeats = (g) => g.min_seats <= 2 && g.max_seats >= 2;

/**
 * The challenge button of player `name`'s page (an element, empty for a
 * guest and on one's own page). A computer level (`computer-N`) is not
 * challenged: its button makes a game against that level at once (rated
 * when logged in), as the lobby would. `only`: the games offered (a bot's),
 * else every game for two.
 */
export function challengeBox(name, computer = false, only = null) {
  const box = h('div', { class: 'challenge-box', 'data-challenge-box': name });
  const level = computer ? /^computer-(\d)$/i.exec(name) : null;
  if (computer && !level) return box;
  const form = { game: null, clock: { initial: 600, increment: 5 }, rated: true, open: false };
  Promise.all([getSession(), games()]).then(([me, catalog]) => {
    if (level) form.rated = !!me;
    if (!level && (!me || me.name.toLowerCase() === name.toLowerCase())) return;
    const list = catalog.filter((g) => twoSeats(g) && (!only || only.includes(g.name)));
    if (!list.length) return;
    form.game = list[0].name;
    const draw = () => {
      const open = h('button', {
        type: 'button', class: form.open ? '' : 'primary', 'data-action': 'challenge', 'aria-expanded': String(form.open),
        onclick: () => { form.open = !form.open; draw(); },
      }, level ? t('chal.play') : t('chal.button'));
      if (!form.open) {
        fill(box, open);
        return;
      }
      const error = h('p', { class: 'error small', role: 'alert', hidden: true });
      const send = h('button', { type: 'submit', class: 'primary', 'data-action': 'send-challenge' },
        level ? t('chal.playStart') : t('chal.send'));
      const f = h('form', { class: 'challenge-form' },
        h('h3', {}, level ? t('chal.playTitle', { n: level[1] }) : t('chal.formTitle', { who: name })),
        h('label', { class: 'field' }, h('span', {}, t('lobby.game')),
          h('select', { name: 'challenge-game', onchange: (e) => { form.game = e.target.value; } },
            list.map((g) => h('option', { value: g.name, selected: g.name === form.game }, g.title)))),
        h('div', { class: 'field' }, h('span', {}, t('tc.title')), controlPicker(form.clock, (c) => { form.clock = c; }, 'challenge-clock')),
        h('div', { class: 'field' }, h('label', { class: 'check' },
          h('input', { type: 'checkbox', name: 'challenge-rated', checked: form.rated, disabled: level && !me, onchange: (e) => { form.rated = e.target.checked; } }),
          ' ', t('lobby.rated'))),
        error,
        h('div', { class: 'row' }, send));
      f.addEventListener('submit', async (e) => {
        e.preventDefault();
        send.disabled = true;
        if (level) {
          // A game against the level, the visitor in the first seat.
          const body = { game: form.game, rated: form.rated, seats: [{ kind: 'human' }, { kind: 'computer', player: `ai:${level[1]}` }] };
          if (form.clock) body.clock = form.clock;
          try {
            const r = await api('/api/games', { method: 'POST', body });
            if (r.token) tokens.set(r.id, r.token);
            navigate(`/game/${r.id}`);
          } catch (ex) {
            error.textContent = errorText(ex);
            error.hidden = false;
            send.disabled = false;
          }
          return;
        }
        const body = { to: name, game: form.game, rated: form.rated };
        if (form.clock) body.clock = form.clock;
        try {
          const made = await api('/api/challenges', { method: 'POST', body });
          if (made && made.id) noteSentChallenge(made.id);
          toast(t('chal.sent', { who: name }));
          // The lobby follows the challenge and starts the game when it is accepted.
          navigate('/');
        } catch (ex) {
          error.textContent = errorText(ex);
          error.hidden = false;
          send.disabled = false;
        }
      });
      fill(box, open, f);
    };
    draw();
  });
  return box;
}
