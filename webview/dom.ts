/**
 * Building DOM in the webview apps, text only: corpus text (titles, passages, queries) is always a text node,
 * never parsed as HTML. Shared by every app (webview/<app>/main.ts).
 */
export type Child = Node | string | undefined | null | false;

/** An element with a class, title and id, and its children (strings become text nodes; empty ones are skipped). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: { class?: string; title?: string; id?: string } = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.title) el.title = props.title;
  if (props.id) el.id = props.id;
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return el;
}
