// Small helpers to build HTML and SVG without a framework.

const SVG = 'http://www.w3.org/2000/svg';

function put(node, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(node, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** An HTML element: h('div', {class: 'x'}, child, ...). */
export function h(tag, attrs, ...children) {
  const n = document.createElement(tag);
  put(n, attrs);
  append(n, children);
  return n;
}

/** An SVG element: s('circle', {cx: 1, cy: 2, r: .4}). */
export function s(tag, attrs, ...children) {
  const n = document.createElementNS(SVG, tag);
  put(n, attrs);
  append(n, children);
  return n;
}

/** An <svg> of the board class with this view box. */
export function board(viewBox, label) {
  return s('svg', {
    class: 'board',
    viewBox: viewBox.join(' '),
    role: 'img',
    'aria-label': label,
    preserveAspectRatio: 'xMidYMid meet',
  });
}

/**
 * A clickable group for the interaction module: `data-id` names it, `.hl` is
 * the highlight shape the stylesheet shows when it is selectable, selected or
 * a target.
 */
export function spot(id, hl, ...children) {
  return s('g', { 'data-id': id, tabindex: -1 }, children, hl);
}

/** Round to 3 decimals (shorter SVG). */
export const r3 = (x) => Math.round(x * 1000) / 1000;

/** Remove every child. */
export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
}

/** A radial gradient for glossy stones, added to `defs` once per id. */
export function gloss(defs, id, light, dark) {
  defs.append(
    s('radialGradient', { id, cx: '35%', cy: '30%', r: '75%' },
      s('stop', { offset: '0', 'stop-color': light }),
      s('stop', { offset: '1', 'stop-color': dark })),
  );
  return `url(#${id})`;
}

/** A short message at the bottom of the screen. */
export function toast(text, kind = '') {
  const box = document.getElementById('toasts');
  if (!box) return;
  const t = h('div', { class: ['toast', kind], role: kind === 'error' ? 'alert' : 'status' }, text);
  box.append(t);
  setTimeout(() => t.remove(), kind === 'error' ? 6000 : 3500);
}

/** Replace the children of `node` (null, undefined and false are skipped). */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}
