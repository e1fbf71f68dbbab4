// Sounds of the game page, made with the Web Audio API (no audio files): a
// short knock for a move, a tick each second of a player's last seconds.
//
// Browsers refuse to play before the user has interacted with the page: no
// audio context is made before the first click, tap or key, and sounds asked
// for before it are skipped. The mute switch is kept in localStorage
// (`plateau.sound`: "off" mutes; sound is on by default).

import { h, s as svg } from './dom.js';
import { t, onLang } from './i18n.js';

const KEY = 'plateau.sound';
let ctx = null;
let gestured = false;
const listeners = new Set();

function unlock() {
  gestured = true;
  for (const ev of ['pointerdown', 'keydown', 'touchend']) document.removeEventListener(ev, unlock, true);
  if (!muted()) audio();
}
for (const ev of ['pointerdown', 'keydown', 'touchend']) document.addEventListener(ev, unlock, true);

/** The audio context, made (or resumed) only after a user gesture. */
function audio() {
  if (!gestured) return null;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  if (!ctx) {
    try {
      ctx = new AC();
    } catch {
      return null;
    }
  }
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

/** Whether sounds are off. */
export function muted() {
  return localStorage.getItem(KEY) === 'off';
}

/** Turn sounds off (true) or on (false), and tell every switch. */
export function setMuted(off) {
  localStorage.setItem(KEY, off ? 'off' : 'on');
  for (const f of [...listeners]) f(off);
}

/** A tone: `freq` Hz, `ms` long, starting at `gain`, with a quick attack and decay. */
function tone(ac, { freq, ms, gain, type = 'sine', slide = 1 }) {
  const now = ac.currentTime;
  const end = now + ms / 1000;
  const osc = ac.createOscillator();
  const g = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, now);
  if (slide !== 1) osc.frequency.exponentialRampToValueAtTime(freq * slide, end);
  g.gain.setValueAtTime(0.0001, now);
  g.gain.exponentialRampToValueAtTime(gain, now + 0.005);
  g.gain.exponentialRampToValueAtTime(0.0001, end);
  osc.connect(g).connect(ac.destination);
  osc.start(now);
  osc.stop(end + 0.02);
}

function play(f) {
  if (muted()) return;
  const ac = audio();
  if (!ac || ac.state !== 'running') return;
  try {
    f(ac);
  } catch {
    /* no sound rather than an error */
  }
}

/** A move was played: a short wooden knock. */
export function moveSound() {
  play((ac) => {
    tone(ac, { freq: 520, ms: 90, gain: 0.35, type: 'triangle', slide: 0.55 });
    tone(ac, { freq: 180, ms: 60, gain: 0.25, type: 'sine', slide: 0.8 });
  });
}

/** A second of a player's last seconds: a faint, high tick. */
export function tickSound() {
  play((ac) => tone(ac, { freq: 1400, ms: 35, gain: 0.12, type: 'square' }));
}

/** A button that mutes and unmutes the sounds (kept in step with every other). */
export function soundSwitch() {
  const b = h('button', { type: 'button', class: 'sound-switch', 'data-action': 'sound' });
  const draw = () => {
    const off = muted();
    b.replaceChildren(icon(off));
    b.setAttribute('aria-pressed', String(!off));
    b.setAttribute('aria-label', off ? t('snd.off') : t('snd.on'));
    b.title = off ? t('snd.turnOn') : t('snd.turnOff');
    b.dataset.sound = off ? 'off' : 'on';
  };
  b.addEventListener('click', () => {
    setMuted(!muted());
    // The click is a gesture: a first sound says it is on.
    if (!muted()) moveSound();
  });
  const un = onSwitch(draw);
  const unLang = onLang(draw);
  draw();
  b.detach = () => { un(); unLang(); };
  return b;
}

/** A speaker, with its sound waves or crossed out. */
function icon(off) {
  const stroke = { fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6, 'stroke-linecap': 'round' };
  return svg('svg', { viewBox: '0 0 20 20', width: 18, height: 18, 'aria-hidden': 'true', focusable: 'false' },
    svg('path', { d: 'M3 7.5h3l4-3.5v12l-4-3.5H3z', fill: 'currentColor' }),
    off
      ? [svg('path', { d: 'M13 7.5l5 5M18 7.5l-5 5', ...stroke })]
      : [svg('path', { d: 'M13 7.2a4 4 0 0 1 0 5.6', ...stroke }), svg('path', { d: 'M15.4 5a7.2 7.2 0 0 1 0 10', ...stroke })]);
}

/** Call `f(off)` on every change of the switch; returns the way to stop. */
function onSwitch(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}
