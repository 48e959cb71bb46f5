import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readGoldenSet, readQrels } from '../../../src/core/judgments';
import { InputError } from '../../../src/core/util/diagnostics';
import { DEFAULT_CHUNK_BYTES } from '../../../src/core/util/text-lines';
import { brief, fixture, plainQrels, withTempDir } from './helpers';

describe('readQrels', () => {
  const path = fixture('qrels-mixed.txt');
  const result = readQrels(path);

  it('keeps every valid line, including grades above 4 (no fixed maximum)', () => {
    assert.deepEqual(plainQrels(result.qrels), {
      q1: { d1: 2, d2: 0 },
      q2: { d4: 3 },
      q3: { d9: 4, d11: 10 },
    });
  });

  it('reports every bad line with its line number and keeps going', () => {
    assert.deepEqual(brief(result.diagnostics), [
      '5:error:expected 4 columns "qid iter docid rel", found 3; line skipped',
      '6:error:grade "1.5" is not an integer (grades are non-negative integers); line skipped',
      '7:error:grade "x" is not a number (grades are non-negative integers); line skipped',
      '8:error:negative grade -1 (trec_eval treats negative grades as unjudged); line skipped',
      '10:warning:duplicate judgment for query "q1" document "d1" (same grade 2 as line 2); kept one',
      '11:error:conflicting grades for query "q1" document "d2": 0 at line 3 and 1 at line 11; kept the first (0)',
      '13:error:expected 4 columns "qid iter docid rel", found 5; line skipped',
    ]);
    assert.ok(result.diagnostics.every((d) => d.file === path));
  });

  it('records where each judgment came from (the first line for a duplicate)', () => {
    assert.deepEqual(result.locations.get('q1\td1'), { file: path, line: 2 });
    assert.deepEqual(result.locations.get('q1\td2'), { file: path, line: 3 });
    assert.deepEqual(result.locations.get('q3\td9'), { file: path, line: 12 });
    assert.equal(result.locations.size, 5);
  });

  it('accepts a UTF-8 BOM and CRLF line ends silently', () => {
    withTempDir((_dir, write) => {
      const p = write(
        'bom.qrels',
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('1 0 a 1\r\n1 0 b 0\r\n# c\r\n2 0 a 3\r\n')]),
      );
      const r = readQrels(p);
      assert.deepEqual(r.diagnostics, []);
      assert.deepEqual(plainQrels(r.qrels), { '1': { a: 1, b: 0 }, '2': { a: 3 } });
      assert.deepEqual(r.locations.get('2\ta'), { file: p, line: 4 });
    });
  });

  it('throws InputError naming a missing file', () => {
    assert.throws(
      () => readQrels('no/such/qrels.txt'),
      (e: unknown) => e instanceof InputError && e.message === 'no/such/qrels.txt: file not found',
    );
  });

  it('throws InputError naming an empty file (whitespace only counts as empty)', () => {
    withTempDir((_dir, write) => {
      const p = write('empty.txt', '\n  \n');
      assert.throws(
        () => readQrels(p),
        (e: unknown) => e instanceof InputError && e.message === `${p}: file is empty`,
      );
    });
  });

  it('throws InputError carrying all diagnostics when no line is valid', () => {
    withTempDir((_dir, write) => {
      const p = write('bad.txt', '# only junk\n1 0 a\n1 0 b -2\n');
      assert.throws(
        () => readQrels(p),
        (e: unknown) => {
          assert.ok(e instanceof InputError);
          assert.match(e.message, /no valid judgment line; 2 problems/);
          assert.deepEqual(brief(e.diagnostics), [
            '2:error:expected 4 columns "qid iter docid rel", found 3; line skipped',
            '3:error:negative grade -2 (trec_eval treats negative grades as unjudged); line skipped',
          ]);
          return true;
        },
      );
    });
  });

  it('streamed, the header is still found after blank and comment lines, and line numbers count them', () => {
    withTempDir((_dir, write) => {
      const p = write('late-header.tsv', '\n# judged in 2024\n\nquery-id\tcorpus-id\tscore\n1\tdoc a\t2\n1\tdoc b\n');
      const r = readQrels(p);
      assert.deepEqual(plainQrels(r.qrels), { '1': { 'doc a': 2 } });
      assert.deepEqual(brief(r.diagnostics), [
        '6:error:expected 3 columns "query-id corpus-id score" (or 4 TREC columns "qid iter docid rel"), found 2; line skipped',
      ]);
    });
  });

  it('switches to BEIR columns when the file starts with a query-id header', () => {
    withTempDir((_dir, write) => {
      const p = write('test.tsv', 'query-id\tcorpus-id\tscore\n1\tdoc a\t2\n');
      const r = readQrels(p);
      assert.deepEqual(plainQrels(r.qrels), { '1': { 'doc a': 2 } });
    });
  });
});

describe('ids that are not UTF-8', () => {
  it('a qrels line whose bytes are not UTF-8 is an error at its line and skipped (two Latin-1 ids would both read as "caf\uFFFD")', () => {
    withTempDir((_dir, write) => {
      const path = write('qrels.txt', Buffer.concat([Buffer.from('q1 0 caf'), Buffer.from([0xe9]), Buffer.from(' 1\nq1 0 d1 1\n')]));
      const { qrels, diagnostics } = readQrels(path);
      assert.deepEqual(plainQrels(qrels), { q1: { d1: 1 } });
      assert.deepEqual(
        brief(diagnostics).map((d) => d.split(' (')[0]),
        ['1:error:byte 0xE9 at column 9 is not UTF-8'],
      );
    });
  });

  it('streamed in chunks: a Latin-1 id is refused at its line also when its byte is the last of a chunk or the first of the next', () => {
    withTempDir((_dir, write) => {
      const judged = Array.from({ length: 1000 }, (_, i) => `q${i} 0 d${i} 1\n`).join('');
      for (const at of [DEFAULT_CHUNK_BYTES - 1, DEFAULT_CHUNK_BYTES]) {
        // a comment line pads the file so that the byte 0xE9 of "caf\xE9" lands at offset `at`
        const pad = '#'.repeat(at - judged.length - 'qx 0 caf'.length - 1);
        const bytes = Buffer.concat([Buffer.from(`${judged}${pad}\nqx 0 caf`), Buffer.from([0xe9]), Buffer.from(' 1\nqx 0 cafe 2\n')]);
        assert.equal(bytes[at], 0xe9);
        const { qrels, diagnostics } = readQrels(write(`chunked-${at}.txt`, bytes));
        assert.deepEqual(
          brief(diagnostics).map((d) => d.split(' (')[0]),
          ['1002:error:byte 0xE9 at column 9 is not UTF-8'],
          `byte at ${at}`,
        );
        assert.deepEqual(plainQrels(qrels).qx, { cafe: 2 }, 'the next line (in the next chunk) is kept');
        assert.equal(qrels.size, 1001, 'every judged query before it is kept');
      }
    });
  });

  it('a golden set (JSON) that is not UTF-8 is refused at the line', () => {
    withTempDir((_dir, write) => {
      const path = write(
        'golden.json',
        Buffer.concat([Buffer.from('[\n{"query": "q", "relevant_doc_ids": ["caf'), Buffer.from([0xe9]), Buffer.from('"]}\n]\n')]),
      );
      assert.throws(
        () => readGoldenSet(path),
        (e: InputError) => e instanceof InputError && e.line === 2 && /byte 0xE9/.test(e.message),
      );
    });
  });
});
