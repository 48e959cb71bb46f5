import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseJsonWithLines, toPlain } from '../../../src/core/judgments/json-lines';

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
      fc.property(fc.jsonValue(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', '\n', 'x', '-'), (v, at, junk) => {
        const s = JSON.stringify(v, null, 1);
        const i = at % (s.length + 1);
        const text = s.slice(0, i) + junk + s.slice(i);
        let expected = true;
        try {
          JSON.parse(text);
        } catch {
          expected = false;
        }
        assert.equal(parseJsonWithLines(text).ok, expected, text);
      }),
      { numRuns: 500 },
    );
  });

  it('records the line of items and keys, and the line/column of a syntax error', () => {
    const r = parseJsonWithLines('[\n  {"a": 1,\n   "b": [\n     2]},\n  3\n]');
    assert.ok(r.ok && r.value.kind === 'array');
    const [obj, three] = r.value.items;
    assert.ok(obj?.kind === 'object');
    assert.deepEqual(obj.entries.map((e) => [e.key, e.keyLine]), [['a', 2], ['b', 3]]);
    assert.equal(three?.line, 5);
    const bad = parseJsonWithLines('{\n  "a": 1\n  "b": 2\n}');
    assert.deepEqual(bad, { ok: false, line: 3, column: 3, message: "expected ',' or '}' after a property value" });
  });

  it('keeps duplicate keys as separate entries; toPlain keeps the first', () => {
    const r = parseJsonWithLines('{"d": 1,\n "d": 2}');
    assert.ok(r.ok && r.value.kind === 'object');
    assert.deepEqual(r.value.entries.map((e) => e.keyLine), [1, 2]);
    assert.deepEqual(toPlain(r.value), { d: 1 });
  });
});
