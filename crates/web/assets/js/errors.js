// The words of the server's refusals: in English the server's own message
// (it says exactly what is wrong); in another language the translation of
// its code (`err.CODE` in i18n.js) when there is one, else the message.

import { t, getLang, has } from './i18n.js';

/** What to show for an API or socket error (`{code, message}`). */
export function errorText(e) {
  if (e && e.code === 'network') return t('err.network');
  if (getLang() !== 'en' && e && e.code && has(`err.${e.code}`)) return t(`err.${e.code}`);
  return (e && e.message) || String(e);
}
