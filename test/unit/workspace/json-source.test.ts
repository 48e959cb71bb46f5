import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JsonSyntaxError, lineOfPointer, parseJsonWithLocations } from '../../../src/core/workspace/json-source';

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
