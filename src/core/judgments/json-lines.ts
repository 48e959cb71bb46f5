/**
 * A JSON value annotated with the line it starts on, so diagnostics can point at the offending item or key.
 * Objects keep every entry in source order, including duplicate keys (JSON.parse would silently keep the last).
 */
export type LocatedJson =
  | { kind: 'object'; line: number; entries: Array<{ key: string; keyLine: number; value: LocatedJson }> }
  | { kind: 'array'; line: number; items: LocatedJson[] }
  | { kind: 'scalar'; line: number; value: string | number | boolean | null };

export type JsonParseResult =
  | { ok: true; value: LocatedJson }
  | { ok: false; line: number; column: number; message: string };

/**
 * Parses JSON and records lines; a syntax error gives the line and column where it was found.
 * `firstLine` offsets the numbering (a JSONL line parsed on its own).
 */
export function parseJsonWithLines(text: string, firstLine = 1): JsonParseResult {
  const parser = new Parser(text, firstLine);
  try {
    const value = parser.document();
    return { ok: true, value };
  } catch (e) {
    if (e instanceof RangeError) return { ok: false, line: firstLine, column: 1, message: 'JSON nested too deeply' };
    if (!(e instanceof JsonSyntaxError)) throw e;
    const { line, column } = lineColumnAt(text, e.offset);
    return { ok: false, line: line + firstLine - 1, column, message: e.message };
  }
}

export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    // CRLF counts once: the LF after a CR is skipped as a separate break.
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Plain JS value of a located tree, with the first occurrence of a duplicate key winning. */
export function toPlain(v: LocatedJson): unknown {
  if (v.kind === 'scalar') return v.value;
  if (v.kind === 'array') return v.items.map(toPlain);
  const out: Record<string, unknown> = {};
  for (const e of v.entries) {
    if (Object.prototype.hasOwnProperty.call(out, e.key)) continue;
    if (e.key === '__proto__') {
      // Assignment would set the prototype; JSON.parse makes it a plain property.
      Object.defineProperty(out, e.key, { value: toPlain(e.value), enumerable: true, writable: true, configurable: true });
    } else out[e.key] = toPlain(e.value);
  }
  return out;
}

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const LITERAL = /true|false|null/y;

/** A small recursive-descent JSON parser (RFC 8259) that keeps line numbers and duplicate keys. */
class Parser {
  private pos = 0;
  private line: number;

  constructor(
    private readonly text: string,
    firstLine: number,
  ) {
    this.line = firstLine;
  }

  document(): LocatedJson {
    const v = this.value();
    this.skipSpace();
    if (this.pos < this.text.length) this.fail('unexpected text after the JSON value');
    return v;
  }

  private value(): LocatedJson {
    this.skipSpace();
    const line = this.line;
    const c = this.text[this.pos];
    if (c === '{') return this.object(line);
    if (c === '[') return this.array(line);
    if (c === '"') return { kind: 'scalar', line, value: this.string() };
    for (const re of [NUMBER, LITERAL]) {
      re.lastIndex = this.pos;
      const m = re.exec(this.text);
      if (m) {
        this.pos += m[0].length;
        return { kind: 'scalar', line, value: JSON.parse(m[0]) as number | boolean | null };
      }
    }
    return this.fail(c === undefined ? 'unexpected end of input, expected a value' : `unexpected character ${JSON.stringify(c)}, expected a value`);
  }

  private object(line: number): LocatedJson {
    this.pos++; // '{'
    const entries: Array<{ key: string; keyLine: number; value: LocatedJson }> = [];
    this.skipSpace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return { kind: 'object', line, entries };
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] !== '"') this.fail('expected a property name in double quotes');
      const keyLine = this.line;
      const key = this.string();
      this.skipSpace();
      if (this.text[this.pos] !== ':') this.fail("expected ':' after the property name");
      this.pos++;
      entries.push({ key, keyLine, value: this.value() });
      this.skipSpace();
      const c = this.text[this.pos];
      if (c === '}') {
        this.pos++;
        return { kind: 'object', line, entries };
      }
      if (c !== ',') this.fail("expected ',' or '}' after a property value");
      this.pos++;
    }
  }

  private array(line: number): LocatedJson {
    this.pos++; // '['
    const items: LocatedJson[] = [];
    this.skipSpace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return { kind: 'array', line, items };
    }
    for (;;) {
      items.push(this.value());
      this.skipSpace();
      const c = this.text[this.pos];
      if (c === ']') {
        this.pos++;
        return { kind: 'array', line, items };
      }
      if (c !== ',') this.fail("expected ',' or ']' after an array element");
      this.pos++;
    }
  }

  private string(): string {
    const start = this.pos;
    this.pos++; // opening quote
    let escaped = false;
    for (;;) {
      const c = this.text.charCodeAt(this.pos);
      if (Number.isNaN(c)) this.fail('unterminated string', start);
      if (c < 0x20) this.fail('control character (e.g. a line break) inside a string');
      if (c === 0x22) break;
      if (c === 0x5c) escaped = true;
      this.pos += c === 0x5c ? 2 : 1;
    }
    this.pos++;
    if (!escaped) return this.text.slice(start + 1, this.pos - 1);
    try {
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    } catch {
      return this.fail('invalid escape sequence in string', start);
    }
  }

  private skipSpace(): void {
    for (;;) {
      const c = this.text.charCodeAt(this.pos);
      if (c === 10 || (c === 13 && this.text.charCodeAt(this.pos + 1) !== 10)) this.line++;
      else if (c !== 32 && c !== 9 && c !== 13) return;
      this.pos++;
    }
  }

  private fail(message: string, offset = this.pos): never {
    throw new JsonSyntaxError(message, offset);
  }
}
