/**
 * DOM helpers of the webview apps (dashboard, judging). Text only: every string becomes a Text node (never parsed as HTML), and data that
 * stands inline next to other text goes into a `<bdi>` so that a right-to-left override (U+202E) or an RTL title
 * cannot reorder what surrounds it.
 */

export type Child = Node | string | number | undefined | null | false;

export interface Props {
  class?: string;
  title?: string;
  id?: string;
  /** `auto`: the element's direction follows its first strong character (data cells). */
  dir?: 'auto' | 'ltr' | 'rtl';
  role?: string;
  /** aria-* and data-* attributes (values are set as attribute text). */
  attrs?: Record<string, string>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.title) el.title = props.title;
  if (props.id) el.id = props.id;
  if (props.dir) el.dir = props.dir;
  if (props.role) el.setAttribute('role', props.role);
  for (const [k, v] of Object.entries(props.attrs ?? {})) el.setAttribute(k, v);
  append(el, children);
  return el;
}

export function append(el: Element, children: Child[]): void {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** A piece of data inline in other text, isolated for bidi (`<bdi>`, direction from its own first strong character). */
export function data(text: string, cls?: string): HTMLElement {
  return h('bdi', cls ? { class: cls } : {}, text);
}

/** Tooltip text: long data is cut (a 20,000-character title attribute helps nobody). */
export function tip(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A link-styled button that runs `onClick` (no navigation). */
export function linkButton(label: Child, title: string, onClick: () => void): HTMLButtonElement {
  const b = h('button', { class: 'link', title }, label);
  b.type = 'button';
  b.addEventListener('click', (e) => {
    e.preventDefault();
    e.stopPropagation();
    onClick();
  });
  return b;
}

export function button(label: string, onClick: () => void, props: Props = {}): HTMLButtonElement {
  const b = h('button', props, label);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

/** A short explanation of the symbols of the element above it. */
export function legend(...children: Child[]): HTMLElement {
  return h('p', { class: 'legend' }, ...children);
}

export function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}
