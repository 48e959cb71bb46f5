import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readBeirJudgments } from '../../../src/core/judgments';
import { InputError } from '../../../src/core/util/diagnostics';
import { fixture, plainQrels, withTempDir } from './helpers';

describe('readBeirJudgments', () => {
  const dir = fixture('beir');

  it('reads qrels/test.tsv with its header, keeps all queries, judged ones in qrels', () => {
    const set = readBeirJudgments(dir);
    assert.deepEqual(plainQrels(set.qrels), { '1': { d1: 2, d3: 0 }, '2': { d2: 1 }, '9': { d3: 1 } });
    assert.deepEqual([...set.queries.keys()], ['1', '2', '3', '9']);
    assert.equal(set.queries.get('9')?.text, '');
    assert.deepEqual(set.sources, [join(dir, 'queries.jsonl'), join(dir, 'qrels/test.tsv')]);
  });

  it('reports a short line, an unknown query id (judgments kept) and an unjudged query', () => {
    const set = readBeirJudgments(dir);
    assert.deepEqual(
      set.diagnostics.map((d) => `${d.file.slice(dir.length + 1)}:${d.line}:${d.severity}:${d.message}`),
      [
        'qrels/test.tsv:5:error:expected 3 columns "query-id corpus-id score" (or 4 TREC columns "qid iter docid rel"), found 2; line skipped',
        'qrels/test.tsv:6:warning:unknown query id "9": it has judgments but no query text; judgments kept',
        'queries.jsonl:3:info:query "3" has no judgments',
      ],
    );
    assert.deepEqual(set.locations?.get('1\td3'), { file: join(dir, 'qrels/test.tsv'), line: 3 });
  });

  it('reads another split by name', () => {
    const set = readBeirJudgments(dir, 'dev');
    assert.deepEqual(plainQrels(set.qrels), { '3': { d3: 1 } });
  });

  it('accepts a space-separated 4-column qrels.tsv at the top (the shared collections layout)', () => {
    const set = readBeirJudgments(fixture('beir-trec'));
    assert.deepEqual(plainQrels(set.qrels), { '1': { d1: 2, d2: 0 }, '2': { d2: 1 } });
    assert.deepEqual(set.diagnostics, []);
  });

  it('accepts the 3-column form without a header, and the only qrels/*.tsv when the split is absent', () => {
    withTempDir((d, write) => {
      mkdirSync(join(d, 'qrels'));
      write('queries.jsonl', '{"_id": "a", "text": "alpha"}\n');
      write('qrels/dev.tsv', 'a\tdoc 1\t1\n');
      const set = readBeirJudgments(d);
      assert.deepEqual(plainQrels(set.qrels), { a: { 'doc 1': 1 } });
    });
  });

  it('throws InputError naming the folder when it or its qrels are missing', () => {
    assert.throws(() => readBeirJudgments('no/such/beir'), { name: 'InputError', message: 'no/such/beir: BEIR folder not found' });
    withTempDir((d, write) => {
      write('queries.jsonl', '{"_id": "a", "text": "alpha"}\n');
      assert.throws(
        () => readBeirJudgments(d),
        (e: unknown) => e instanceof InputError && e.message.startsWith(`${d}: no qrels found`),
      );
      mkdirSync(join(d, 'qrels'));
      write('qrels/dev.tsv', 'a\tx\t1\n');
      write('qrels/train.tsv', 'a\ty\t1\n');
      assert.throws(() => readBeirJudgments(d), { message: `${d}: no qrels/test.tsv; choose a split among dev, train` });
    });
  });

  it('throws InputError naming queries.jsonl when it is missing', () => {
    withTempDir((d, write) => {
      write('qrels.tsv', '1 0 a 1\n');
      assert.throws(() => readBeirJudgments(d), { message: `${join(d, 'queries.jsonl')}: file not found` });
    });
  });
});
