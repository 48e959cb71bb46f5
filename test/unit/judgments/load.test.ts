import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadJudgments, readBeirJudgments, readGoldenSet } from '../../../src/core/judgments';
import { InputError } from '../../../src/core/util/diagnostics';
import { FIXTURES, brief, plainQrels, withTempDir } from './helpers';

describe('loadJudgments', () => {
  it('reads qrels + queries relative to baseDir and names files as written', () => {
    withTempDir((dir, write) => {
      write('qrels.txt', '1 0 a 1\n1 0 b 0\n7 0 a 2\n');
      write('queries.tsv', '1\tfirst query\n2\tsecond query\n');
      const set = loadJudgments({ qrels: 'qrels.txt', queries: 'queries.tsv' }, { baseDir: dir });
      assert.deepEqual(plainQrels(set.qrels), { '1': { a: 1, b: 0 }, '7': { a: 2 } });
      assert.deepEqual(set.sources, ['queries.tsv', 'qrels.txt']);
      assert.deepEqual(
        set.diagnostics.map((d) => `${d.file}:${d.line}:${d.severity}:${d.message}`),
        [
          'qrels.txt:3:warning:unknown query id "7": it has judgments but no query text; judgments kept',
          'queries.tsv:2:info:query "2" has no judgments',
        ],
      );
      assert.equal(set.queries.get('1')?.text, 'first query');
      assert.equal(set.queries.get('7')?.text, '');
      assert.deepEqual(set.locations?.get('7\ta'), { file: 'qrels.txt', line: 3 });
    });
  });

  it('does not warn about missing query text when no queries file was given', () => {
    withTempDir((dir, write) => {
      write('qrels.txt', '1 0 a 1\n');
      const set = loadJudgments({ qrels: 'qrels.txt' }, { baseDir: dir });
      assert.deepEqual(set.diagnostics, []);
      assert.deepEqual(set.queries.get('1'), { id: '1', text: '', tags: [] });
    });
  });

  it('merges an array of specs, applying the duplicate rules across files', () => {
    withTempDir((dir, write) => {
      write('a.txt', '1 0 x 2\n1 0 y 1\n');
      write('b.txt', '# second assessor\n1 0 x 3\n1 0 y 1\n2 0 z 1\n');
      const set = loadJudgments([{ qrels: 'a.txt' }, { qrels: 'b.txt' }], { baseDir: dir });
      assert.deepEqual(plainQrels(set.qrels), { '1': { x: 2, y: 1 }, '2': { z: 1 } });
      assert.deepEqual(
        set.diagnostics.map((d) => `${d.file}:${d.line}:${d.severity}:${d.message}`),
        [
          'b.txt:2:error:conflicting grades for query "1" document "x": 2 at a.txt:1 and 3 at line 2; kept the first (2)',
          'b.txt:3:warning:duplicate judgment for query "1" document "y" (same grade 1 as a.txt:2); kept one',
        ],
      );
    });
  });

  it('accepts the string forms: "beir:DIR", a folder, a .json golden set', () => {
    const viaPrefix = loadJudgments('beir:beir', { baseDir: FIXTURES });
    const direct = readBeirJudgments(`${FIXTURES}/beir`);
    assert.deepEqual(plainQrels(viaPrefix.qrels), plainQrels(direct.qrels));
    assert.equal(viaPrefix.fingerprint, direct.fingerprint);
    assert.equal(loadJudgments('beir-trec', { baseDir: FIXTURES }).qrels.size, 2);
    const golden = loadJudgments(['golden-binary.json'], { baseDir: FIXTURES });
    assert.deepEqual(plainQrels(golden.qrels), plainQrels(readGoldenSet(`${FIXTURES}/golden-binary.json`).qrels));
    assert.deepEqual(
      brief(golden.diagnostics).map((d) => d.split(',')[0]),
      ['4:warning:item 3: query "q3" has "relevant_doc_ids": []', '4:info:query "q3" has no judgments'],
    );
    assert.equal(golden.diagnostics[0]?.file, 'golden-binary.json');
  });

  it('merges a golden set with a qrels file', () => {
    withTempDir((dir, write) => {
      write('g.json', '[{"id": "1", "query": "alpha", "judgments": {"a": 2}}]');
      write('extra.qrels', '1 0 b 1\n');
      const set = loadJudgments({ golden: 'g.json', qrels: 'extra.qrels' }, { baseDir: dir });
      assert.deepEqual(plainQrels(set.qrels), { '1': { a: 2, b: 1 } });
      assert.deepEqual(set.diagnostics, []);
    });
  });

  it("summarises more than 20 unjudged queries in one info (BEIR ships every split's queries)", () => {
    withTempDir((dir, write) => {
      const lines = Array.from({ length: 25 }, (_, i) => `${i + 1}\tquery ${i + 1}`);
      write('q.tsv', lines.join('\n'));
      write('r.qrels', '1 0 a 1\n2 0 a 1\n');
      const set = loadJudgments({ qrels: 'r.qrels', queries: 'q.tsv' }, { baseDir: dir });
      assert.deepEqual(
        set.diagnostics.map((d) => `${d.file}:${d.line}:${d.severity}:${d.message}`),
        ['q.tsv:0:info:23 queries have no judgments (e.g. "3", "4", "5", "6", "7", ...)'],
      );
      assert.equal(set.queries.size, 25);
    });
  });

  it('throws InputError for a spec with no file and for a missing file', () => {
    assert.throws(
      () => loadJudgments({}),
      (e: unknown) => e instanceof InputError && /names no file/.test(e.message),
    );
    assert.throws(() => loadJudgments({ qrels: 'gone.txt' }, { baseDir: FIXTURES }), { message: 'gone.txt: file not found' });
  });
});
