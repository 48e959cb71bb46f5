/**
 * A small JSON reader that also remembers where each value sits, so validation errors can name the line of the
 * offending key. Accepts `//` and `/* *\/` comments and trailing commas (configs are hand-edited).
 */

export class JsonSyntaxError extends Error {
  constructor(message: string, readonly line: number, readonly column: number) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

export interface LocatedJson {
  value: unknown;
  /** JSON pointer ("" = root, "/lexical/fields/title") -> 1-based line of its key (or of the value in arrays). */
  lines: Map<string, number>;
}

export function parseLocatedJson(text: string): LocatedJson {
  const lines = new Map<string, number>();
  let pos = 0;
  // Line starts let us turn an offset into line/column by binary search.
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const fail = (message: string, at = pos): never => {
    const line = lineOf(at);
    throw new JsonSyntaxError(message, line, at - lineStarts[line - 1] + 1);
  };

  const skipSpace = (): void => {
    while (pos < text.length) {
      const c = text[pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\ufeff') pos++;
      else if (c === '/' && text[pos + 1] === '/') {
        while (pos < text.length && text[pos] !== '\n') pos++;
      } else if (c === '/' && text[pos + 1] === '*') {
        const end = text.indexOf('*/', pos + 2);
        if (end < 0) fail('unterminated comment');
        pos = end + 2;
      } else break;
    }
  };

  const readString = (): string => {
    const start = pos;
    pos++; // opening quote
    while (pos < text.length) {
      const c = text[pos];
      if (c === '"') {
        pos++;
        try {
          return JSON.parse(text.slice(start, pos)) as string;
        } catch {
          return fail('invalid string escape', start);
        }
      }
      if (c === '\\') pos += 2;
      else if (c === '\n') fail('unterminated string', start);
      else pos++;
    }
    return fail('unterminated string', start);
  };

  const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

  const readValue = (pointer: string): unknown => {
    skipSpace();
    if (pos >= text.length) fail('unexpected end of file');
    if (!lines.has(pointer)) lines.set(pointer, lineOf(pos));
    const c = text[pos];
    if (c === '{') {
      pos++;
      const obj: Record<string, unknown> = {};
      skipSpace();
      while (text[pos] !== '}') {
        if (text[pos] !== '"') fail(`expected a property name in double quotes, found ${describe(text[pos])}`);
        const keyAt = pos;
        const key = readString();
        const child = `${pointer}/${escapePointer(key)}`;
        if (Object.prototype.hasOwnProperty.call(obj, key)) fail(`duplicate key "${key}"`, keyAt);
        lines.set(child, lineOf(keyAt));
        skipSpace();
        if (text[pos] !== ':') fail(`expected ':' after "${key}"`);
        pos++;
        obj[key] = readValue(child);
        skipSpace();
        if (text[pos] === ',') {
          pos++;
          skipSpace();
        } else if (text[pos] !== '}') fail(`expected ',' or '}', found ${describe(text[pos])}`);
      }
      pos++;
      return obj;
    }
    if (c === '[') {
      pos++;
      const arr: unknown[] = [];
      skipSpace();
      while (text[pos] !== ']') {
        arr.push(readValue(`${pointer}/${arr.length}`));
        skipSpace();
        if (text[pos] === ',') {
          pos++;
          skipSpace();
        } else if (text[pos] !== ']') fail(`expected ',' or ']', found ${describe(text[pos])}`);
      }
      pos++;
      return arr;
    }
    if (c === '"') return readString();
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(pos, pos + 64));
    if (!m) return fail(`unexpected ${describe(c)}`);
    pos += m[0].length;
    return JSON.parse(m[0]);
  };

  const value = readValue('');
  skipSpace();
  if (pos < text.length) fail(`unexpected ${describe(text[pos])} after the end of the value`);
  return { value, lines };
}

function describe(c: string | undefined): string {
  return c === undefined ? 'end of file' : `'${c}'`;
}

/** The line of a pointer, or of its nearest located ancestor. */
export function lineOfPointer(lines: Map<string, number>, pointer: string): number {
  let p = pointer;
  for (;;) {
    const line = lines.get(p);
    if (line !== undefined) return line;
    if (p === '') return 1;
    p = p.slice(0, p.lastIndexOf('/'));
  }
}
