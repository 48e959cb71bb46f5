/**
 * One small JSON parser that remembers where things are, so schema errors, corpus records and golden-set
 * grades can be reported with a line number. `JSON.parse` in Node 20 gives no position for syntax errors,
 * so this parser reports those with line and column too.
 *
 * Two results from the same grammar:
 * - `parseJsonWithLocations`: the plain value plus JSON-pointer → position maps (workspace, configs, corpora);
 * - `parseJsonWithLines`: a located tree that keeps every object entry in source order, duplicates included
 *   (golden sets: `JSON.parse` keeps the last of two identical keys and would hide conflicting grades).
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
  /** Accept `//` and `/* *\/` comments and trailing commas. */
  comments?: boolean;
  /** Record positions only down to this depth (root = 0). Default: unlimited. */
  maxDepth?: number;
  /** `last` (default) keeps the last value like `JSON.parse`; `error` throws a JsonSyntaxError at the repeated key. */
  duplicateKeys?: 'last' | 'error';
}

export class JsonSyntaxError extends Error {
  constructor(
    /** What is wrong, without the position (the message adds it). */
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} (line ${line}, column ${column})`);
    this.name = 'JsonSyntaxError';
  }
}

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The lexical part and the grammar of objects and arrays; what is built from them is up to the caller,
 * which gets a callback for each member or element with the scanner positioned at its value.
 */
class JsonScanner {
  i: number;
  private lineStarts: number[] | undefined;
  /** Index of the line found last (see position). */
  private lastLine = 0;

  constructor(
    readonly text: string,
    private readonly comments: boolean,
    private readonly firstLine = 1,
  ) {
    this.i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  }

  position(offset: number): SourcePosition {
    const line = this.lineAt(offset); // firstLine + an index into lineStarts
    return { line, column: offset - this.lineStarts![line - this.firstLine]! + 1 };
  }

  lineAt(offset: number): number {
    const starts = (this.lineStarts ??= computeLineStarts(this.text));
    // Positions are asked for in text order, so the line is found by walking on from the previous one
    // (linear in the lines overall); only an offset before the previous one starts again at line 1.
    // starts holds at least the first line's 0, and lastLine is always an index into it.
    let line = starts[this.lastLine]! <= offset ? this.lastLine : 0;
    while (line + 1 < starts.length && starts[line + 1]! <= offset) line++;
    this.lastLine = line;
    return line + this.firstLine;
  }

  fail(reason: string, offset = this.i): never {
    const p = this.position(Math.min(offset, this.text.length));
    throw new JsonSyntaxError(reason, p.line, p.column);
  }

  /** Skips white space (and comments in JSONC mode); returns the next character. */
  peek(): string | undefined {
    const text = this.text;
    let i = this.i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) {
        i++;
      } else if (this.comments && c === 47 /* / */ && text.charCodeAt(i + 1) === 47) {
        const end = text.indexOf('\n', i);
        i = end < 0 ? text.length : end + 1;
      } else if (this.comments && c === 47 && text.charCodeAt(i + 1) === 42 /* * */) {
        const end = text.indexOf('*/', i + 2);
        if (end < 0) this.fail('unterminated comment', i);
        i = end + 2;
      } else {
        this.i = i;
        return text[i];
      }
    }
  }

  string(): string {
    const text = this.text;
    const start = this.i; // at the opening quote
    let j = start + 1;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(j);
      if (Number.isNaN(c)) this.fail('unterminated string', start);
      if (c === 92 /* \ */) {
        escaped = true;
        j += 2;
        continue;
      }
      if (c === 34 /* " */) break;
      if (c < 32) this.fail('control character (e.g. a line break) inside a string', j);
      j++;
    }
    this.i = j + 1;
    if (!escaped) return text.slice(start + 1, j);
    try {
      return JSON.parse(text.slice(start, j + 1)) as string;
    } catch {
      return this.fail('invalid escape sequence in string', start);
    }
  }

  /** A number, true, false or null at the current position. */
  scalar(): number | boolean | null {
    const text = this.text;
    const i = this.i;
    const c = text[i];
    if (c === 't' && text.startsWith('true', i)) return ((this.i += 4), true);
    if (c === 'f' && text.startsWith('false', i)) return ((this.i += 5), false);
    if (c === 'n' && text.startsWith('null', i)) return ((this.i += 4), null);
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) {
      this.i += m[0].length;
      return Number(m[0]);
    }
    return this.fail(
      c === undefined ? 'unexpected end of input, expected a value' : `unexpected character ${JSON.stringify(c)}, expected a value`,
    );
  }

  /** At '{': reads the members, calling `member` after each ':' (it must consume the value). */
  object(member: (key: string, keyOffset: number) => void): void {
    this.i++; // {
    if (this.peek() === '}') return void this.i++;
    for (;;) {
      let c = this.peek();
      if (this.comments && c === '}') return void this.i++; // trailing comma
      if (c !== '"') this.fail('expected a property name in double quotes');
      const keyOffset = this.i;
      const key = this.string();
      if (this.peek() !== ':') this.fail("expected ':' after the property name");
      this.i++;
      member(key, keyOffset);
      c = this.peek();
      this.i++;
      if (c === '}') return;
      if (c !== ',') this.fail("expected ',' or '}' after a property value", this.i - 1);
    }
  }

  /** At '[': reads the elements, calling `element` for each (it must consume the value). */
  array(element: () => void): void {
    this.i++; // [
    if (this.peek() === ']') return void this.i++;
    for (;;) {
      const c = this.peek();
      if (this.comments && c === ']') return void this.i++; // trailing comma
      element();
      const after = this.peek();
      this.i++;
      if (after === ']') return;
      if (after !== ',') this.fail("expected ',' or ']' after an array element", this.i - 1);
    }
  }

  end(): void {
    if (this.peek() !== undefined) this.fail('unexpected text after the JSON value');
  }
}

/** Parses JSON (or JSONC) into its plain value and the positions of values and keys by JSON pointer. */
export function parseJsonWithLocations(text: string, options: ParseJsonOptions = {}): { value: unknown; locations: JsonLocations } {
  const maxDepth = options.maxDepth ?? Infinity;
  const rejectDuplicates = options.duplicateKeys === 'error';
  const scanner = new JsonScanner(text, options.comments ?? false);
  const values = new Map<string, SourcePosition>();
  const keys = new Map<string, SourcePosition>();

  function value(pointer: string, depth: number): unknown {
    const c = scanner.peek();
    const recorded = depth <= maxDepth;
    if (recorded) values.set(pointer, scanner.position(scanner.i));
    const childRecorded = depth + 1 <= maxDepth;
    if (c === '{') {
      const obj: Record<string, unknown> = {};
      scanner.object((key, keyOffset) => {
        if (rejectDuplicates && Object.prototype.hasOwnProperty.call(obj, key)) scanner.fail(`duplicate key "${key}"`, keyOffset);
        const child = childRecorded ? `${pointer}/${escapePointerToken(key)}` : '';
        if (childRecorded) keys.set(child, scanner.position(keyOffset));
        setOwn(obj, key, value(child, depth + 1));
      });
      return obj;
    }
    if (c === '[') {
      const arr: unknown[] = [];
      scanner.array(() => {
        arr.push(value(childRecorded ? `${pointer}/${arr.length}` : '', depth + 1));
      });
      return arr;
    }
    if (c === '"') return scanner.string();
    return scanner.scalar();
  }

  const result = value('', 0);
  scanner.end();
  return { value: result, locations: { values, keys } };
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

/**
 * A JSON value annotated with the line it starts on, so diagnostics can point at the offending item or key.
 * Objects keep every entry in source order, including duplicate keys (JSON.parse would silently keep the last).
 */
export type LocatedJson =
  | { kind: 'object'; line: number; entries: Array<{ key: string; keyLine: number; value: LocatedJson }> }
  | { kind: 'array'; line: number; items: LocatedJson[] }
  | { kind: 'scalar'; line: number; value: string | number | boolean | null };

export type JsonParseResult = { ok: true; value: LocatedJson } | { ok: false; line: number; column: number; message: string };

/**
 * Parses strict JSON into a located tree; a syntax error gives the line and column where it was found.
 * `firstLine` offsets the numbering (a JSONL line parsed on its own).
 */
export function parseJsonWithLines(text: string, firstLine = 1): JsonParseResult {
  const scanner = new JsonScanner(text, false, firstLine);

  function value(): LocatedJson {
    const c = scanner.peek();
    const line = scanner.lineAt(scanner.i);
    if (c === '{') {
      const entries: Array<{ key: string; keyLine: number; value: LocatedJson }> = [];
      scanner.object((key, keyOffset) => entries.push({ key, keyLine: scanner.lineAt(keyOffset), value: value() }));
      return { kind: 'object', line, entries };
    }
    if (c === '[') {
      const items: LocatedJson[] = [];
      scanner.array(() => items.push(value()));
      return { kind: 'array', line, items };
    }
    return { kind: 'scalar', line, value: c === '"' ? scanner.string() : scanner.scalar() };
  }

  try {
    const result = value();
    scanner.end();
    return { ok: true, value: result };
  } catch (e) {
    if (e instanceof RangeError) return { ok: false, line: firstLine, column: 1, message: 'JSON nested too deeply' };
    if (!(e instanceof JsonSyntaxError)) throw e;
    return { ok: false, line: e.line, column: e.column, message: e.reason };
  }
}

/** Plain JS value of a located tree, with the first occurrence of a duplicate key winning. */
export function toPlain(v: LocatedJson): unknown {
  if (v.kind === 'scalar') return v.value;
  if (v.kind === 'array') return v.items.map(toPlain);
  const out: Record<string, unknown> = {};
  for (const e of v.entries) {
    if (!Object.prototype.hasOwnProperty.call(out, e.key)) setOwn(out, e.key, toPlain(e.value));
  }
  return out;
}

/** `obj[key] = value`, except that "__proto__" becomes a plain property (as JSON.parse makes it), not the prototype. */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
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
