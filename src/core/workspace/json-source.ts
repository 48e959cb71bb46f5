/**
 * A small JSON parser that remembers where each value and key starts, so that schema errors and
 * corpus records can be reported with a line number. `JSON.parse` in Node 20 gives no position for
 * syntax errors, so this parser also reports those with line and column.
 * With `comments: true` it accepts JSONC (comments and trailing commas), as VS Code does for settings.
 */

export interface SourcePosition {
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

export interface JsonLocations {
  /** Where the value at a JSON pointer ("" = root, "/corpus/include/0") starts. */
  values: Map<string, SourcePosition>;
  /** Where the key of an object member starts, by the member's pointer. */
  keys: Map<string, SourcePosition>;
}

export interface ParseJsonOptions {
  comments?: boolean;
  /** Record positions only down to this depth (root = 0). Default: unlimited. */
  maxDepth?: number;
}

export class JsonSyntaxError extends Error {
  constructor(message: string, readonly line: number, readonly column: number) {
    super(`${message} (line ${line}, column ${column})`);
    this.name = 'JsonSyntaxError';
  }
}

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

export function parseJsonWithLocations(text: string, options: ParseJsonOptions = {}): { value: unknown; locations: JsonLocations } {
  const comments = options.comments ?? false;
  const maxDepth = options.maxDepth ?? Infinity;
  const lineStarts = computeLineStarts(text);
  const values = new Map<string, SourcePosition>();
  const keys = new Map<string, SourcePosition>();
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const pos = (offset: number): SourcePosition => offsetToPosition(lineStarts, offset);
  const fail = (message: string, offset = i): never => {
    const p = pos(Math.min(offset, text.length));
    throw new JsonSyntaxError(message, p.line, p.column);
  };

  function skipWhitespace(): void {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) {
        i++;
      } else if (comments && c === 47 /* / */ && text.charCodeAt(i + 1) === 47) {
        const end = text.indexOf('\n', i);
        i = end < 0 ? text.length : end + 1;
      } else if (comments && c === 47 && text.charCodeAt(i + 1) === 42 /* * */) {
        const end = text.indexOf('*/', i + 2);
        if (end < 0) fail('unterminated comment');
        i = end + 2;
      } else {
        return;
      }
    }
  }

  function parseString(): string {
    const start = i; // at the opening quote
    let j = i + 1;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(j);
      if (Number.isNaN(c)) fail('unterminated string', start);
      if (c === 92 /* \ */) {
        escaped = true;
        j += 2;
        continue;
      }
      if (c === 34 /* " */) break;
      if (c < 32) fail('control character in string', j);
      j++;
    }
    i = j + 1;
    if (!escaped) return text.slice(start + 1, j);
    try {
      return JSON.parse(text.slice(start, j + 1)) as string;
    } catch {
      return fail('invalid escape in string', start);
    }
  }

  function parseValue(pointer: string, depth: number): unknown {
    skipWhitespace();
    if (depth <= maxDepth) values.set(pointer, pos(i));
    const c = text[i];
    if (c === '{') return parseObject(pointer, depth);
    if (c === '[') return parseArray(pointer, depth);
    if (c === '"') return parseString();
    if (c === 't' && text.startsWith('true', i)) return (i += 4), true;
    if (c === 'f' && text.startsWith('false', i)) return (i += 5), false;
    if (c === 'n' && text.startsWith('null', i)) return (i += 4), null;
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) {
      i += m[0].length;
      return Number(m[0]);
    }
    return i >= text.length ? fail('unexpected end of input') : fail(`unexpected character ${JSON.stringify(c)}`);
  }

  function parseObject(pointer: string, depth: number): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    i++; // {
    skipWhitespace();
    if (text[i] === '}') return i++, obj;
    for (;;) {
      skipWhitespace();
      if (comments && text[i] === '}') return i++, obj; // trailing comma
      if (text[i] !== '"') fail('expected a property name in double quotes');
      const keyOffset = i;
      const key = parseString();
      const child = depth + 1 <= maxDepth ? `${pointer}/${escapePointerToken(key)}` : '';
      if (depth + 1 <= maxDepth) keys.set(child, pos(keyOffset));
      skipWhitespace();
      if (text[i] !== ':') fail("expected ':' after property name");
      i++;
      obj[key] = parseValue(child, depth + 1);
      skipWhitespace();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') return i++, obj;
      fail("expected ',' or '}'");
    }
  }

  function parseArray(pointer: string, depth: number): unknown[] {
    const arr: unknown[] = [];
    i++; // [
    skipWhitespace();
    if (text[i] === ']') return i++, arr;
    for (;;) {
      skipWhitespace();
      if (comments && text[i] === ']') return i++, arr;
      const child = depth + 1 <= maxDepth ? `${pointer}/${arr.length}` : '';
      arr.push(parseValue(child, depth + 1));
      skipWhitespace();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') return i++, arr;
      fail("expected ',' or ']'");
    }
  }

  const value = parseValue('', 0);
  skipWhitespace();
  if (i < text.length) fail('unexpected content after the JSON value');
  return { value, locations: { values, keys } };
}

/**
 * The line of the nearest recorded ancestor of `pointer` (its key if it is an object member, else its value).
 * Falls back to 1 when nothing is known.
 */
export function lineOfPointer(locations: JsonLocations, pointer: string): number {
  let p = pointer;
  for (;;) {
    const at = locations.keys.get(p) ?? locations.values.get(p);
    if (at) return at.line;
    if (p === '') return 1;
    p = p.slice(0, p.lastIndexOf('/'));
  }
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 10) starts.push(k + 1);
    else if (c === 13 && text.charCodeAt(k + 1) !== 10) starts.push(k + 1);
  }
  return starts;
}

function offsetToPosition(lineStarts: number[], offset: number): SourcePosition {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - lineStarts[lo] + 1 };
}
