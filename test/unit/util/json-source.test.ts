import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import fc from 'fast-check';
import { JsonSyntaxError, lineOfPointer, parseJsonWithLines, parseJsonWithLocations, toPlain } from '../../../src/core/util/json-source';

/** Valid JSON with one piece of junk inserted somewhere, and whether JSON.parse still accepts it. */
const mangledJson = fc
  .tuple(fc.jsonValue(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', '\n', 'x', '-'))
  .map(([v, at, junk]) => {
    const s = JSON.stringify(v, null, 1);
    const i = at % (s.length + 1);
    const text = s.slice(0, i) + junk + s.slice(i);
    try {
      JSON.parse(text);
      return { text, valid: true };
    } catch {
      return { text, valid: false };
    }
  });

describe('parseJsonWithLocations', () => {
  test('values equal JSON.parse on assorted inputs', () => {
    for (const text of ['{}', '[]', '0', '-1.5e3', '"a\\"b\\u00e9\\n"', '{"a":[1,{"b":null}],"c":true,"d":false,"":""}', ' [ 1 , 2 ] ']) {
      assert.deepEqual(parseJsonWithLocations(text).value, JSON.parse(text), text);
    }
  });

  test('pointer locations: keys and values with escapes, nearest ancestor fallback', () => {
    const text = '{\n  "a/b": {\n    "c~d": [\n      10,\n      20\n    ]\n  }\n}';
    const { locations } = parseJsonWithLocations(text);
    assert.deepEqual(locations.keys.get('/a~1b'), { line: 2, column: 3 });
    assert.equal(lineOfPointer(locations, '/a~1b/c~0d'), 3);
    assert.equal(lineOfPointer(locations, '/a~1b/c~0d/1'), 5);
    assert.equal(lineOfPointer(locations, '/a~1b/c~0d/7'), 3);
    assert.equal(lineOfPointer(locations, ''), 1);
  });

  test('maxDepth limits what is recorded', () => {
    const { locations } = parseJsonWithLocations('[\n{"a": {"b": 1}}\n]', { maxDepth: 1 });
    assert.ok(locations.values.has('/0'));
    assert.ok(!locations.values.has('/0/a'));
  });

  test('syntax errors carry line and column; comments only in JSONC mode', () => {
    const cases: [string, number, number][] = [
      ['{\n  "a": 1\n  "b": 2\n}', 3, 3],
      ['[1,\n2,,3]', 2, 3],
      ['{"a": tru}', 1, 7],
      ['{"a": "unterminated', 1, 7],
      ['{} x', 1, 4],
      ['\r\n\r\n  ]', 3, 3],
    ];
    for (const [text, line, column] of cases) {
      assert.throws(
        () => parseJsonWithLocations(text),
        (e: unknown) => e instanceof JsonSyntaxError && e.line === line && e.column === column,
        JSON.stringify(text),
      );
    }
    assert.throws(() => parseJsonWithLocations('// c\n{}'), JsonSyntaxError);
    assert.deepEqual(parseJsonWithLocations('// c\n{"a": [1, /* x */ 2,],}', { comments: true }).value, { a: [1, 2] });
  });

  test('the error message names the line and column; `reason` is the bare cause', () => {
    assert.throws(
      () => parseJsonWithLocations('{\n  "lexical": {\n    "depth": 10\n    "prefix": true\n  }\n}'),
      (e: unknown) =>
        e instanceof JsonSyntaxError &&
        e.reason === "expected ',' or '}' after a property value" &&
        e.message === "expected ',' or '}' after a property value (line 4, column 5)",
    );
    assert.throws(() => parseJsonWithLocations('{"a": 1 /* never closed', { comments: true }), /unterminated comment/);
  });

  test('duplicate keys: last wins by default (as JSON.parse), or an error at the repeated key', () => {
    const text = '{\n"pageSize": 5,\n"pageSize": 6}';
    const { value, locations } = parseJsonWithLocations(text);
    assert.deepEqual(value, JSON.parse(text));
    assert.equal(locations.keys.get('/pageSize')?.line, 3);
    assert.throws(
      () => parseJsonWithLocations(text, { duplicateKeys: 'error' }),
      (e: unknown) => e instanceof JsonSyntaxError && e.reason === 'duplicate key "pageSize"' && e.line === 3 && e.column === 1,
    );
    // The same key in two different objects is no duplicate.
    assert.deepEqual(parseJsonWithLocations('{"a": {"x": 1}, "b": {"x": 2}}', { duplicateKeys: 'error' }).value, {
      a: { x: 1 },
      b: { x: 2 },
    });
  });

  test('a "__proto__" key is a plain property, as with JSON.parse', () => {
    const v = parseJsonWithLocations('{"__proto__": {"polluted": true}}').value as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.deepEqual(Object.keys(v), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('JSONC rank config: key lines for nested settings, array elements by value line', () => {
    const text =
      '{\n  // BM25 with a prefix\n  "lexical": { "prefix": true, /* inline */ },\n  "vector": {\n    "fields": [\n      "title",\n      "body"\n    ]\n  },\n}';
    const { value, locations } = parseJsonWithLocations(text, { comments: true, duplicateKeys: 'error' });
    assert.deepEqual(value, { lexical: { prefix: true }, vector: { fields: ['title', 'body'] } });
    assert.equal(lineOfPointer(locations, '/lexical/prefix'), 3);
    assert.equal(lineOfPointer(locations, '/vector/fields'), 5);
    assert.equal(lineOfPointer(locations, '/vector/fields/1'), 7);
    assert.equal(lineOfPointer(locations, '/vector/unknownKey'), 4);
  });

  test('agrees with JSON.parse on generated JSON, and accepts exactly what it accepts in strict mode', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 0, 2, '\t'), (v, indent) => {
        const text = JSON.stringify(v, null, indent);
        assert.deepEqual(parseJsonWithLocations(text).value, JSON.parse(text));
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(mangledJson, ({ text, valid }) => {
        let accepted = true;
        try {
          parseJsonWithLocations(text);
        } catch (e) {
          assert.ok(e instanceof JsonSyntaxError);
          accepted = false;
        }
        assert.equal(accepted, valid, text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseJsonWithLines', () => {
  it('agrees with JSON.parse on any JSON value, pretty-printed or not', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 0, 2, '\t'), (v, indent) => {
        const text = JSON.stringify(v, null, indent);
        const r = parseJsonWithLines(text);
        assert.ok(r.ok);
        assert.deepEqual(toPlain(r.value), JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('accepts exactly what JSON.parse accepts on mangled JSON text', () => {
    fc.assert(
      fc.property(mangledJson, ({ text, valid }) => assert.equal(parseJsonWithLines(text).ok, valid, text)),
      { numRuns: 500 },
    );
  });

  it('records the line of items and keys, and the line/column of a syntax error', () => {
    const r = parseJsonWithLines('[\n  {"a": 1,\n   "b": [\n     2]},\n  3\n]');
    assert.ok(r.ok && r.value.kind === 'array');
    const [obj, three] = r.value.items;
    assert.ok(obj?.kind === 'object');
    assert.deepEqual(
      obj.entries.map((e) => [e.key, e.keyLine]),
      [
        ['a', 2],
        ['b', 3],
      ],
    );
    assert.equal(three?.line, 5);
    const bad = parseJsonWithLines('{\n  "a": 1\n  "b": 2\n}');
    assert.deepEqual(bad, { ok: false, line: 3, column: 3, message: "expected ',' or '}' after a property value" });
  });

  it('numbers lines from firstLine (a JSONL line parsed on its own), and rejects comments', () => {
    const r = parseJsonWithLines('{"q": 1, "x": [tru]}', 7);
    assert.deepEqual(r, { ok: false, line: 7, column: 16, message: 'unexpected character "t", expected a value' });
    const ok = parseJsonWithLines('{"q": 1}', 7);
    assert.ok(ok.ok && ok.value.line === 7);
    assert.equal(parseJsonWithLines('// c\n{}').ok, false);
  });

  it('keeps duplicate keys as separate entries; toPlain keeps the first', () => {
    const r = parseJsonWithLines('{"d": 1,\n "d": 2}');
    assert.ok(r.ok && r.value.kind === 'object');
    assert.deepEqual(
      r.value.entries.map((e) => e.keyLine),
      [1, 2],
    );
    assert.deepEqual(toPlain(r.value), { d: 1 });
  });

  it('reports nesting too deep for the stack as an error, not a crash', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    assert.deepEqual(parseJsonWithLines(deep, 4), { ok: false, line: 4, column: 1, message: 'JSON nested too deeply' });
  });
});
