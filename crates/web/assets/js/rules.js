// The rules pages: docs/rules, embedded in the binary (under /assets/rules/),
// rendered here: the Markdown specification, and the original French sheet.

import { h, fill } from './dom.js';
import { t, onLang, getLang } from './i18n.js';

const GAMES = [
  ['abalone', 'Abalone'],
  ['colorito', 'Colorito'],
  ['kabaleo', 'Kabaleo'],
  ['abraxas', 'Abraxas'],
];

/** Inline Markdown: code, bold, italics, links. Text is escaped first. */
function inline(text) {
  const esc = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const parts = esc.split(/(`[^`]+`)/g);
  return parts.map((p) => {
    if (p.startsWith('`') && p.endsWith('`') && p.length > 1) return `<code>${p.slice(1, -1)}</code>`;
    return p
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
      .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (m, label, href) => {
        const safe = /^(https?:|\/|#|[\w.-]+\.md$)/.test(href) ? href : '#';
        const target = safe.endsWith('.md') ? `/rules/${safe.replace(/\.md$/, '').replace(/^.*\//, '')}` : safe;
        return `<a href="${target}">${label}</a>`;
      });
  }).join('');
}

/**
 * A small Markdown renderer for the rules files: headings, paragraphs,
 * lists (nested by indentation), tables, fenced code. Returns HTML.
 */
export function markdown(src) {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const out = [];
  let para = [];
  const flush = () => {
    if (para.length) out.push(`<p>${inline(para.join(' '))}</p>`);
    para = [];
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (/^```/.test(line)) {
      flush();
      const code = [];
      i += 1;
      while (i < lines.length && !/^```/.test(lines[i])) code.push(lines[i++]);
      i += 1;
      out.push(`<pre><code>${code.join('\n').replace(/&/g, '&amp;').replace(/</g, '&lt;')}</code></pre>`);
      continue;
    }
    let m;
    if ((m = /^(#{1,6})\s+(.*)$/.exec(line))) {
      flush();
      const n = Math.min(6, m[1].length + 1);
      out.push(`<h${n}>${inline(m[2])}</h${n}>`);
      i += 1;
      continue;
    }
    if (/^\s*\|.*\|\s*$/.test(line)) {
      flush();
      const rows = [];
      while (i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i])) rows.push(lines[i++]);
      const cells = (r) => r.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
      const body = rows.filter((r) => !/^\s*\|[\s:|-]+\|\s*$/.test(r));
      const [head, ...rest] = body;
      out.push(`<table><thead><tr>${cells(head).map((c) => `<th>${inline(c)}</th>`).join('')}</tr></thead><tbody>${
        rest.map((r) => `<tr>${cells(r).map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`);
      continue;
    }
    if (/^\s*([-*]|\d+\.)\s+/.test(line)) {
      flush();
      // A list: items with their continuation lines, nested by indentation.
      const items = [];
      while (i < lines.length && (/^\s*([-*]|\d+\.)\s+/.test(lines[i]) || (/^\s+\S/.test(lines[i]) && items.length))) {
        const l = lines[i++];
        const mm = /^(\s*)([-*]|\d+\.)\s+(.*)$/.exec(l);
        if (mm) items.push({ indent: mm[1].length, ordered: /\d/.test(mm[2]), text: mm[3] });
        else items[items.length - 1].text += ` ${l.trim()}`;
      }
      let html = '';
      const stack = [];
      for (const it of items) {
        while (stack.length && stack[stack.length - 1].indent > it.indent) {
          html += `</li></${stack.pop().tag}>`;
        }
        if (!stack.length || stack[stack.length - 1].indent < it.indent) {
          const tag = it.ordered ? 'ol' : 'ul';
          stack.push({ indent: it.indent, tag });
          html += `<${tag}><li>${inline(it.text)}`;
        } else {
          html += `</li><li>${inline(it.text)}`;
        }
      }
      while (stack.length) html += `</li></${stack.pop().tag}>`;
      out.push(html);
      continue;
    }
    if (line.trim() === '') {
      flush();
      i += 1;
      continue;
    }
    para.push(line.trim());
    i += 1;
  }
  flush();
  return out.join('\n');
}

/**
 * A plain text sheet: paragraphs separated by blank lines, lines kept; a short
 * line without final punctuation is a heading.
 */
function sheet(text) {
  const out = [];
  for (const para of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    let lines = [];
    const flush = () => {
      if (lines.length) out.push(h('p', {}, ...lines.flatMap((l, i) => (i ? [h('br'), l] : [l]))));
      lines = [];
    };
    for (const raw of para.split('\n')) {
      const l = raw.trim();
      if (!l) continue;
      if (l.length < 48 && !/[.:;!?,)]$/.test(l) && !/^[•\-*\d]/.test(l)) {
        flush();
        out.push(h('h3', {}, l));
      } else {
        lines.push(l);
      }
    }
    flush();
  }
  return out;
}

/** Show the rules of `game` (or the index) in `root`. */
export function rulesPage(root, game) {
  let alive = true;
  const render = async () => {
    const nav = h('nav', { class: 'rules-nav' },
      h('a', { href: '/rules', 'data-link': '', class: game ? '' : 'on' }, t('rules.title')),
      GAMES.map(([g, title]) => h('a', { href: `/rules/${g}`, 'data-link': '', class: g === game ? 'on' : '' }, title)));
    const body = h('article', { class: 'rules panel' });
    fill(root, nav, body);
    document.title = `${t('rules.title')} – Plateau`;
    const known = GAMES.some(([g]) => g === game);
    const file = known ? `${game}.md` : 'README.md';
    try {
      const res = await fetch(`/assets/rules/${file}`);
      const md = await res.text();
      if (!alive) return;
      const spec = h('div');
      spec.innerHTML = markdown(md);
      if (!known) {
        fill(body, h('p', {}, t('rules.intro')), spec);
        return;
      }
      const parts = [];
      if (getLang() === 'fr') {
        const fr = await (await fetch(`/assets/rules/original/${game}.fr.txt`)).text();
        if (!alive) return;
        parts.push(h('section', { lang: 'fr', 'data-rules': 'original' }, h('h2', {}, t('rules.original')), ...sheet(fr)));
        parts.push(h('hr'), h('h2', {}, t('rules.spec')), h('p', { class: 'muted small' }, t('rules.frNote')),
          h('section', { lang: 'en', 'data-rules': 'spec' }, spec));
      } else {
        parts.push(h('section', { lang: 'en', 'data-rules': 'spec' }, spec));
        const fr = await (await fetch(`/assets/rules/original/${game}.fr.txt`)).text();
        if (!alive) return;
        parts.push(h('hr'), h('details', {}, h('summary', {}, t('rules.original')),
          h('section', { lang: 'fr', 'data-rules': 'original' }, ...sheet(fr))));
      }
      fill(body, ...parts);
    } catch (e) {
      fill(body, h('p', { class: 'error' }, String(e)));
    }
  };
  render();
  const off = onLang(render);
  return () => {
    alive = false;
    off();
  };
}
