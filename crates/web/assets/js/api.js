// The server's HTTP API, and what the browser keeps: seat tokens and the
// player's name (localStorage).

/** An error of the API: `code` and `message` as the server sent them. */
export class ApiError extends Error {
  constructor(status, code, message, data) {
    super(message);
    this.status = status;
    this.code = code;
    this.data = data;
  }
}

/** Call the API: JSON in, JSON out; errors become ApiError. */
export async function api(path, { method = 'GET', body, token, signal, guest = false } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    // `guest`: without the session cookie (a seat taken for another person at this screen).
    res = await fetch(path, { method, headers, signal, credentials: guest ? 'omit' : 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    if (e && e.name === 'AbortError') throw new ApiError(0, 'aborted', 'aborted');
    throw new ApiError(0, 'network', String(e && e.message || e));
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    throw new ApiError(res.status, data && data.code || 'http', data && data.message || res.statusText, data);
  }
  return data;
}

const TOKENS = 'plateau.tokens';
const NAME = 'plateau.name';

function readTokens() {
  try {
    const v = JSON.parse(localStorage.getItem(TOKENS) || '{}');
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

/** The secret tokens of the seats this browser holds, by game id. */
export const tokens = {
  get(id) {
    const v = readTokens()[id];
    return typeof v === 'string' ? v : null;
  },
  set(id, token) {
    const all = readTokens();
    all[id] = token;
    // Keep the most recent 200 games.
    const keys = Object.keys(all);
    for (const k of keys.slice(0, Math.max(0, keys.length - 200))) delete all[k];
    localStorage.setItem(TOKENS, JSON.stringify(all));
  },
  forget(id) {
    const all = readTokens();
    delete all[id];
    localStorage.setItem(TOKENS, JSON.stringify(all));
  },
  ids() {
    return Object.keys(readTokens());
  },
};

const LOCAL = 'plateau.local';

function readLocal() {
  try {
    const v = JSON.parse(localStorage.getItem(LOCAL) || '{}');
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

/**
 * Pass and play: the tokens of every seat held at this screen, by game id
 * (the creator's token among them). One browser then plays several seats of a
 * game, each through its own token and socket.
 */
export const localSeats = {
  get(id) {
    const v = readLocal()[id];
    return Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [];
  },
  set(id, list) {
    const all = readLocal();
    all[id] = list;
    const keys = Object.keys(all);
    for (const k of keys.slice(0, Math.max(0, keys.length - 100))) delete all[k];
    localStorage.setItem(LOCAL, JSON.stringify(all));
  },
};

/** The player's display name. */
export const playerName = {
  get() {
    return localStorage.getItem(NAME) || '';
  },
  set(n) {
    localStorage.setItem(NAME, n);
  },
};

/** Wait `ms` milliseconds. */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
