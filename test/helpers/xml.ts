/**
 * A small XML reader for the reports Ranklab writes (JUnit): elements, attributes, text and the five entities.
 * Enough to check a report's structure by its elements, not by matching its text; it throws on a malformed document.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const unescape = (s: string) =>
  s.replace(/&(lt|gt|amp|quot|apos);/g, (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e]!);

export function parseXml(doc: string): XmlElement {
  const body = doc.replace(/^<\?xml[^?]*\?>\s*/, '');
  const root: XmlElement = { name: '#document', attrs: {}, children: [], text: '' };
  const stack = [root];
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w.-]+="[^"]*")*)\s*(\/?)>|([^<]+)/y;
  let at = 0;
  while (at < body.length) {
    token.lastIndex = at;
    const m = token.exec(body);
    if (!m) throw new Error(`malformed XML at offset ${at}: ${JSON.stringify(body.slice(at, at + 40))}`);
    at = token.lastIndex;
    const [, close, name, attrText, selfClose, text] = m;
    const top = stack[stack.length - 1];
    if (text !== undefined) {
      top.text += unescape(text);
    } else if (close) {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
    } else {
      const attrs: Record<string, string> = {};
      for (const a of attrText.matchAll(/([\w.-]+)="([^"]*)"/g)) {
        if (a[1] in attrs) throw new Error(`attribute ${a[1]} twice on <${name}>`);
        attrs[a[1]] = unescape(a[2]);
      }
      const el: XmlElement = { name, attrs, children: [], text: '' };
      top.children.push(el);
      if (!selfClose) stack.push(el);
    }
  }
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1].name}> is never closed`);
  const elements = root.children;
  if (elements.length !== 1) throw new Error(`${elements.length} root elements`);
  return elements[0];
}

/** Every element named `name` at any depth below `el`. */
export function descendants(el: XmlElement, name: string): XmlElement[] {
  return el.children.flatMap((c) => [...(c.name === name ? [c] : []), ...descendants(c, name)]);
}
