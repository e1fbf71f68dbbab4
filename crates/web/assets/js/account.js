// The account pages: log in (/login), sign up (/signup), and the account's
// settings (/account): its password and its personal access tokens.

import { api } from './api.js';
import { h, fill, toast } from './dom.js';
import { t, onLang, getLang, has } from './i18n.js';
import { navigate } from './nav.js';
import { getSession, setSession, claimGuestGames, nextPath, playerPath } from './session.js';
import { dateText } from './ratings.js';

/**
 * The words of an API error: in English the server's own message; in another
 * language the translation of its code when there is one, else the message.
 */
export function errorText(e) {
  if (getLang() !== 'en' && e && e.code && has(`err.${e.code}`)) return t(`err.${e.code}`);
  if (e && e.code === 'network') return t('err.network');
  return (e && e.message) || String(e);
}

/** An error line under a form (empty until `show`). */
function errorLine() {
  const p = h('p', { class: 'error form-error', role: 'alert', hidden: true });
  return {
    el: p,
    show(text) { p.textContent = text; p.hidden = false; },
    clear() { p.textContent = ''; p.hidden = true; },
  };
}

function field(label, input, help) {
  const id = `f-${input.name}`;
  input.id = id;
  const helpEl = help ? h('p', { class: 'help', id: `${id}-help` }, help) : null;
  if (helpEl) input.setAttribute('aria-describedby', helpEl.id);
  return h('div', { class: 'field' }, h('label', { for: id }, h('span', {}, label)), input, helpEl);
}

/** Run `f` with `button` disabled and showing `busy`; restore it after. */
async function busy(button, text, f) {
  const was = button.textContent;
  button.disabled = true;
  button.textContent = text;
  try {
    return await f();
  } finally {
    button.disabled = false;
    button.textContent = was;
  }
}

/** The log in page (`mode` "login") or the sign-up page ("signup"). */
export function loginPage(root, mode) {
  let stopped = false;
  let values = { name: '', password: '' };
  const render = async () => {
    const signup = mode === 'signup';
    document.title = `${t(signup ? 'acct.signUpTitle' : 'acct.logInTitle')} – Plateau`;
    const account = await getSession();
    if (stopped) return;
    if (account) {
      fill(root, h('section', { class: 'panel narrow account-page' },
        h('h1', {}, t(signup ? 'acct.signUpTitle' : 'acct.logInTitle')),
        h('p', { 'data-state': 'logged-in' }, t('acct.already', { name: account.name })),
        h('p', { class: 'row' },
          h('a', { class: 'button primary', href: '/games', 'data-link': '' }, t('acct.myGames')),
          h('a', { class: 'button', href: playerPath(account.name), 'data-link': '' }, t('acct.profile')))));
      return;
    }
    const err = errorLine();
    const name = h('input', {
      type: 'text', name: 'name', required: true, autocomplete: 'username', maxlength: 20,
      autocapitalize: 'none', spellcheck: 'false', value: values.name,
      oninput: (e) => { values.name = e.target.value; },
    });
    const password = h('input', {
      type: 'password', name: 'password', required: true, maxlength: 256,
      autocomplete: signup ? 'new-password' : 'current-password',
      oninput: (e) => { values.password = e.target.value; },
    });
    password.value = values.password;
    const confirm = signup ? h('input', { type: 'password', name: 'confirm', required: true, maxlength: 256, autocomplete: 'new-password' }) : null;
    const submit = h('button', { type: 'submit', class: 'primary' }, t(signup ? 'acct.signUp' : 'acct.logIn'));
    const form = h('form', { class: 'account-form', novalidate: true },
      field(t('acct.name'), name, signup ? t('acct.nameHelp') : null),
      field(t('acct.password'), password, signup ? t('acct.passwordHelp') : null),
      confirm ? field(t('acct.confirm'), confirm) : null,
      err.el,
      h('div', { class: 'row' }, submit));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      err.clear();
      const n = name.value.trim();
      if (!n || !password.value) {
        err.show(t('acct.fillBoth'));
        (n ? password : name).focus();
        return;
      }
      if (signup && password.value !== confirm.value) {
        err.show(t('acct.mismatch'));
        confirm.focus();
        return;
      }
      await busy(submit, t(signup ? 'acct.signingUp' : 'acct.loggingIn'), async () => {
        try {
          const a = await api(signup ? '/api/accounts' : '/api/session', { method: 'POST', body: { name: n, password: password.value } });
          values = { name: '', password: '' };
          await claimGuestGames();
          setSession(a);
          toast(t(signup ? 'acct.welcomeNew' : 'acct.welcome', { name: a.name }));
          navigate(nextPath(signup ? '/account' : '/'));
        } catch (ex) {
          err.show(errorText(ex));
          if (ex.code === 'bad_name' || ex.code === 'name_taken') name.focus();
          else password.focus();
        }
      });
    });
    const other = signup
      ? h('p', { class: 'small' }, t('acct.haveAccount'), ' ', h('a', { href: `/login${location.search}`, 'data-link': '' }, t('acct.logIn')))
      : h('p', { class: 'small' }, t('acct.noAccount'), ' ', h('a', { href: `/signup${location.search}`, 'data-link': '' }, t('acct.signUp')));
    fill(root, h('section', { class: 'panel narrow account-page' },
      h('h1', {}, t(signup ? 'acct.signUpTitle' : 'acct.logInTitle')),
      h('p', { class: 'muted' }, t(signup ? 'acct.signUpIntro' : 'acct.logInIntro')),
      form, other));
    name.focus();
  };
  const unLang = onLang(render);
  render();
  return () => { stopped = true; unLang(); };
}

/** The account's settings: its password and its personal access tokens. */
export function accountPage(root) {
  const page = new AccountPage(root);
  page.start();
  return () => page.stop();
}

class AccountPage {
  constructor(root) {
    this.root = root;
    this.account = null;
    this.tokens = null; // the list, or null until read
    this.tokensError = null;
    this.fresh = null; // the token just created: shown once
    this.stopped = false;
  }

  async start() {
    this.unLang = onLang(() => this.render());
    fill(this.root, h('p', { class: 'muted' }, '…'));
    this.account = await getSession();
    if (this.stopped) return;
    this.render();
    if (this.account) this.loadTokens();
  }

  stop() {
    this.stopped = true;
    if (this.unLang) this.unLang();
  }

  async loadTokens() {
    try {
      this.tokens = (await api('/api/account/tokens')).tokens || [];
      this.tokensError = null;
    } catch (e) {
      if (e.status === 401) {
        // The session has ended (logged out elsewhere, expired).
        setSession(null);
        this.account = null;
        if (!this.stopped) this.render();
        return;
      }
      this.tokensError = errorText(e);
    }
    if (!this.stopped) this.renderTokens();
  }

  render() {
    document.title = `${t('acct.title')} – Plateau`;
    if (!this.account) {
      fill(this.root, h('section', { class: 'panel narrow account-page' },
        h('h1', {}, t('acct.title')),
        h('p', { 'data-state': 'guest' }, t('acct.needLogin')),
        h('p', { class: 'row' },
          h('a', { class: 'button primary', href: '/login?next=/account', 'data-link': '' }, t('acct.logIn')),
          h('a', { class: 'button', href: '/signup?next=/account', 'data-link': '' }, t('acct.signUp')))));
      return;
    }
    const a = this.account;
    this.tokensBox = h('div', { class: 'tokens' });
    fill(this.root, h('div', { class: 'account-page' },
      h('section', { class: 'panel' },
        h('h1', {}, t('acct.title')),
        h('p', {}, t('acct.loggedInAs'), ' ', h('a', { href: playerPath(a.name), 'data-link': '', class: 'strong' }, a.name),
          a.created_at ? h('span', { class: 'muted' }, ` · ${t('acct.since', { date: dateText(a.created_at) })}`) : null)),
      h('section', { class: 'panel' }, h('h2', {}, t('acct.changePassword')), this.passwordForm()),
      h('section', { class: 'panel' },
        h('h2', {}, t('acct.tokens')),
        h('p', { class: 'help' }, t('acct.tokensHelp')),
        this.tokenForm(),
        this.tokensBox)));
    this.renderTokens();
  }

  passwordForm() {
    const err = errorLine();
    const old = h('input', { type: 'password', name: 'old', required: true, autocomplete: 'current-password', maxlength: 256 });
    const nw = h('input', { type: 'password', name: 'new', required: true, autocomplete: 'new-password', maxlength: 256 });
    const again = h('input', { type: 'password', name: 'new-again', required: true, autocomplete: 'new-password', maxlength: 256 });
    const submit = h('button', { type: 'submit', class: 'primary' }, t('acct.changePassword'));
    const done = h('p', { class: 'ok', role: 'status' });
    const form = h('form', { class: 'account-form', novalidate: true, 'data-form': 'password' },
      // A hidden user name helps password managers file the new password.
      h('input', { type: 'text', name: 'username', autocomplete: 'username', value: this.account.name, hidden: true, readonly: true, tabindex: -1 }),
      field(t('acct.oldPassword'), old),
      field(t('acct.newPassword'), nw, t('acct.passwordHelp')),
      field(t('acct.confirm'), again),
      err.el, done,
      h('div', { class: 'row' }, submit));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      err.clear();
      done.textContent = '';
      if (!old.value || !nw.value) {
        err.show(t('acct.fillBoth'));
        (old.value ? nw : old).focus();
        return;
      }
      if (nw.value !== again.value) {
        err.show(t('acct.mismatch'));
        again.focus();
        return;
      }
      await busy(submit, t('acct.saving'), async () => {
        try {
          await api('/api/account/password', { method: 'POST', body: { old: old.value, new: nw.value } });
          old.value = nw.value = again.value = '';
          done.textContent = t('acct.passwordChanged');
        } catch (ex) {
          err.show(errorText(ex));
          (ex.code === 'wrong_password' ? old : nw).focus();
        }
      });
    });
    return form;
  }

  tokenForm() {
    const err = errorLine();
    const label = h('input', { type: 'text', name: 'label', required: true, maxlength: 40, placeholder: t('acct.labelPlaceholder') });
    const submit = h('button', { type: 'submit', class: 'primary' }, t('acct.createToken'));
    const form = h('form', { class: 'account-form token-form', novalidate: true, 'data-form': 'token' },
      field(t('acct.label'), label),
      err.el,
      h('div', { class: 'row' }, submit));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      err.clear();
      if (!label.value.trim()) {
        err.show(t('acct.needLabel'));
        label.focus();
        return;
      }
      await busy(submit, t('acct.creating'), async () => {
        try {
          const r = await api('/api/account/tokens', { method: 'POST', body: { label: label.value.trim() } });
          label.value = '';
          this.fresh = r;
          if (this.tokens) this.tokens.push({ id: r.id, label: r.label, created_at: r.created_at });
          this.renderTokens();
          const shown = this.tokensBox.querySelector('.new-token input');
          if (shown) { shown.focus(); shown.select(); }
        } catch (ex) {
          err.show(errorText(ex));
          label.focus();
        }
      });
    });
    return form;
  }

  renderTokens() {
    if (!this.tokensBox || !this.account) return;
    let fresh = null;
    if (this.fresh) {
      const input = h('input', { type: 'text', readonly: true, value: this.fresh.token, 'aria-label': t('acct.tokenValue', { label: this.fresh.label }), spellcheck: 'false' });
      const copy = h('button', { type: 'button', 'data-action': 'copy-token', onclick: () => copyText(input) }, t('acct.copy'));
      fresh = h('div', { class: 'new-token', role: 'region', 'aria-label': t('acct.newToken') },
        h('p', { class: 'strong' }, t('acct.newTokenFor', { label: this.fresh.label })),
        h('div', { class: 'row' }, h('span', { class: 'grow token-field' }, input), copy),
        h('p', { class: 'warning' }, t('acct.tokenOnce')),
        h('button', { type: 'button', onclick: () => { this.fresh = null; this.renderTokens(); } }, t('acct.tokenDone')));
    }
    let list;
    if (this.tokensError) list = h('p', { class: 'error' }, this.tokensError);
    else if (!this.tokens) list = h('p', { class: 'muted' }, '…');
    else if (!this.tokens.length) list = h('p', { class: 'muted', 'data-state': 'no-tokens' }, t('acct.noTokens'));
    else {
      list = h('ul', { class: 'token-list' }, this.tokens.map((tk) => {
        const revoke = h('button', { type: 'button', class: 'danger', 'data-action': 'revoke', 'aria-label': t('acct.revokeLabel', { label: tk.label }) }, t('acct.revoke'));
        revoke.addEventListener('click', () => this.revoke(tk, revoke));
        return h('li', { 'data-token': tk.id },
          h('span', { class: 'grow' }, h('strong', {}, tk.label), ' ', h('span', { class: 'muted small' }, t('acct.createdOn', { date: dateText(tk.created_at, true) }))),
          revoke);
      }));
    }
    fill(this.tokensBox, fresh, h('h3', {}, t('acct.yourTokens')), list);
  }

  /** Revoke a token: a first click asks, a second one revokes. */
  async revoke(tk, button) {
    if (!button.classList.contains('confirm')) {
      button.classList.add('confirm');
      button.textContent = t('acct.revokeSure');
      setTimeout(() => {
        if (button.isConnected && button.classList.contains('confirm')) {
          button.classList.remove('confirm');
          button.textContent = t('acct.revoke');
        }
      }, 4000);
      return;
    }
    button.disabled = true;
    try {
      await api(`/api/account/tokens/${encodeURIComponent(tk.id)}`, { method: 'DELETE' });
      this.tokens = (this.tokens || []).filter((x) => x.id !== tk.id);
      if (this.fresh && this.fresh.id === tk.id) this.fresh = null;
      toast(t('acct.revoked', { label: tk.label }));
    } catch (e) {
      toast(errorText(e), 'error');
      if (e.status === 404) this.tokens = (this.tokens || []).filter((x) => x.id !== tk.id);
    }
    this.renderTokens();
    const first = this.tokensBox.querySelector('[data-action="revoke"]') || this.root.querySelector('input[name="label"]');
    if (first) first.focus();
  }
}

/** Copy the text of an input to the clipboard (or leave it selected). */
async function copyText(input) {
  input.focus();
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
    toast(t('acct.copied'));
  } catch {
    const ok = document.execCommand && document.execCommand('copy');
    toast(ok ? t('acct.copied') : t('acct.copyByHand'), ok ? '' : 'error');
  }
}
