import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readGoldenSet } from '../../../src/core/judgments';
import { InputError } from '../../../src/core/util/diagnostics';
import { brief, fixture, plainQrels, withTempDir } from './helpers';

describe('readGoldenSet: binary form', () => {
  const path = fixture('golden-binary.json');
  const set = readGoldenSet(path);

  it('gives grade 1 to every relevant_doc_ids entry and names queries q1, q2... by position', () => {
    assert.deepEqual(plainQrels(set.qrels), { q1: { doc_001: 1, doc_042: 1 }, q2: { doc_007: 1 } });
    assert.deepEqual(set.queries.get('q3'), { id: 'q3', text: 'shipping to Indonesia', tags: [] });
    assert.deepEqual(set.sources, [path]);
  });

  it('warns at its line about a query whose labels are written empty (it is not scored), and notes it has none', () => {
    assert.deepEqual(brief(set.diagnostics), [
      '4:warning:item 3: query "q3" has "relevant_doc_ids": [], so it has no judgment and is left out of every metric (not scored 0); grade its documents, or give one a grade of 0 to count the query as having no relevant document',
      '4:info:query "q3" has no judgments',
    ]);
    assert.deepEqual(set.queryLocations?.get('q2'), { file: path, line: 3 });
    assert.deepEqual(set.locations?.get('q1\tdoc_042'), { file: path, line: 2 });
  });
});

describe('readGoldenSet: graded form with errors', () => {
  const path = fixture('golden-graded.json');
  const set = readGoldenSet(path);

  it('keeps the valid items and judgments', () => {
    assert.deepEqual(plainQrels(set.qrels), {
      'pw-reset': { doc_001: 3, doc_042: 1, doc_099: 0 },
      q2: { doc_007: 2 },
      q6: { doc_300: 1, '42': 1, doc_301: 2 },
    });
    assert.deepEqual(set.queries.get('pw-reset'), {
      id: 'pw-reset',
      text: 'how do I reset my password',
      tags: ['procedural'],
      split: 'holdout',
    });
    assert.deepEqual(set.queries.get('q2')?.tags, ['policy']);
    assert.equal(set.queries.get('q2')?.split, undefined);
    assert.deepEqual([...set.queries.keys()], ['pw-reset', 'q2', 'q6']);
  });

  it('points each problem at the line of the offending key or item', () => {
    assert.deepEqual(brief(set.diagnostics), [
      '17:error:item 2: document "doc_008": grade "1.5" is not an integer (grades are non-negative integers); skipped',
      '18:error:item 2: document "doc_009": negative grade -1 (trec_eval treats negative grades as unjudged); skipped',
      '19:error:item 2: grade of "doc_010" must be a non-negative integer, got "3"; skipped',
      '20:error:conflicting grades for query "q2" document "doc_007": 2 at line 16 and 1 at line 20; kept the first (2)',
      '25:error:item 3: "query" is empty; item skipped',
      '28:error:item 4 is not an object {"query", ...}; item skipped',
      '32:error:item 5: "split" must be "tune" or "holdout", got "test"; item skipped',
      '36:error:item 6: document id must be a non-empty string, got null; skipped',
    ]);
    assert.deepEqual(set.locations?.get('pw-reset\tdoc_099'), { file: path, line: 8 });
    assert.deepEqual(set.locations?.get('q6\t42'), { file: path, line: 36 });
  });
});

describe('readGoldenSet: JSONL and syntax errors', () => {
  it('reads one object a line, skipping a broken line but counting its position', () => {
    const path = fixture('golden.jsonl');
    const set = readGoldenSet(path);
    assert.deepEqual(plainQrels(set.qrels), { q1: { doc_001: 3, doc_042: 1 }, refund: { doc_007: 1 } });
    assert.equal(set.queries.get('refund')?.split, 'holdout');
    assert.deepEqual(brief(set.diagnostics), [
      "2:error:invalid JSON at column 46: expected ',' or '}' after a property value; line skipped",
    ]);
  });

  it('treats several one-line objects in a .json file as JSONL', () => {
    withTempDir((_dir, write) => {
      const p = write('g.json', '{"query": "a", "relevant_doc_ids": ["x"]}\n{"query": "b", "relevant_doc_ids": ["y"]}\n');
      assert.deepEqual(plainQrels(readGoldenSet(p).qrels), { q1: { x: 1 }, q2: { y: 1 } });
    });
  });

  it('reports a JSON syntax error with line and column, as an InputError when nothing is left', () => {
    const path = fixture('golden-broken.json');
    assert.throws(
      () => readGoldenSet(path),
      (e: unknown) => {
        assert.ok(e instanceof InputError);
        assert.match(e.message, /golden-broken\.json: no valid golden-set item/);
        // line 3 is `  {"query": "two", "relevant_doc_ids": ["b"],}`: the `}` after the trailing comma is column 46.
        assert.deepEqual(brief(e.diagnostics), ['3:error:invalid JSON at line 3, column 46: expected a property name in double quotes']);
        return true;
      },
    );
  });

  it('merges the labels of two items with the same id and text, refuses them when the text differs', () => {
    withTempDir((_dir, write) => {
      const p = write(
        'dup.json',
        [
          '[',
          '  {"id": "a", "query": "same", "judgments": {"d1": 2}},',
          '  {"id": "a", "query": "same", "judgments": {"d2": 1, "d1": 2}},',
          '  {"id": "a", "query": "other text", "judgments": {"d3": 1}}',
          ']',
        ].join('\n'),
      );
      const set = readGoldenSet(p);
      assert.deepEqual(plainQrels(set.qrels), { a: { d1: 2, d2: 1 } });
      assert.deepEqual(brief(set.diagnostics), [
        '3:warning:duplicate query "a" (same as line 2); kept one',
        '3:warning:duplicate judgment for query "a" document "d1" (same grade 2 as line 2); kept one',
        '4:error:query id "a" is used twice with different content (first at line 2); kept the first',
      ]);
    });
  });

  it('accepts a BOM and CRLF, with line numbers still right', () => {
    withTempDir((_dir, write) => {
      const p = write('crlf.json', '\ufeff[\r\n  {"query": "a",\r\n   "judgments": {"d1": 1,\r\n                 "d2": -3}}\r\n]\r\n');
      const set = readGoldenSet(p);
      assert.deepEqual(plainQrels(set.qrels), { q1: { d1: 1 } });
      assert.deepEqual(brief(set.diagnostics), [
        '4:error:item 1: document "d2": negative grade -3 (trec_eval treats negative grades as unjudged); skipped',
      ]);
    });
  });
});

describe('readGoldenSet: labels written empty', () => {
  it('an empty "judgments" object is a warning at its line naming the query; the query is not among the judged ones', () => {
    withTempDir((_dir, write) => {
      const path = write(
        'golden.json',
        '[\n{"id": "a", "query": "x", "judgments": {"d1": 1}},\n{"id": "b", "query": "y",\n  "judgments": {}},\n{"id": "c", "query": "z", "judgments": {"d2": 0}}\n]\n',
      );
      const set = readGoldenSet(path);
      const warnings = set.diagnostics.filter((d) => d.severity === 'warning');
      assert.equal(warnings.length, 1);
      assert.equal(warnings[0].line, 4);
      assert.match(warnings[0].message, /query "b" has "judgments": \{\}.*left out of every metric/);
      // c (a grade 0 only) is kept and scores 0; b is not there at all: that is what the warning is about.
      assert.deepEqual([...set.qrels.keys()], ['a', 'c']);
    });
  });

  it('no warning when another item with the same id and text gave the query judgments', () => {
    withTempDir((_dir, write) => {
      const path = write('golden.json', '[{"id": "a", "query": "x", "judgments": {"d1": 1}}, {"id": "a", "query": "x", "judgments": {}}]');
      assert.deepEqual(
        readGoldenSet(path).diagnostics.filter((d) => d.severity === 'warning' && /left out/.test(d.message)),
        [],
      );
    });
  });
});
