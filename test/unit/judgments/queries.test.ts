import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readQueries } from '../../../src/core/judgments';
import { InputError } from '../../../src/core/util/diagnostics';
import { brief, fixture, withTempDir } from './helpers';

describe('readQueries: TSV', () => {
  const path = fixture('queries.tsv');
  const r = readQueries(path);

  it('skips the header, keeps valid lines, joins extra columns into the text', () => {
    assert.deepEqual(
      [...r.queries.values()],
      [
        { id: 'q1', text: 'how to reset a password', tags: [] },
        { id: 'q4', text: 'export to csv', tags: [] },
        { id: 'q5', text: 'first text', tags: [] },
      ],
    );
  });

  it('reports lines without a tab, empty text and duplicates', () => {
    assert.deepEqual(brief(r.diagnostics), [
      '3:error:expected "qid<TAB>text": no tab found; line skipped',
      '4:error:query "q3" has empty text; line skipped',
      '6:warning:duplicate query "q1" (same as line 2); kept one',
      '8:error:query id "q5" is used twice with different content (first at line 7); kept the first',
    ]);
  });

  it('records the line of each query', () => {
    assert.deepEqual(r.locations.get('q4'), { file: path, line: 5 });
    assert.deepEqual(r.locations.get('q5'), { file: path, line: 7 });
  });
});

describe('readQueries: JSONL', () => {
  const path = fixture('queries.jsonl');
  const r = readQueries(path);

  it('keeps valid records with tags and split, accepts BEIR "_id"', () => {
    assert.deepEqual(
      [...r.queries.values()],
      [
        { id: 'q1', text: 'reset password', tags: ['procedural'], split: 'tune' },
        { id: 'q2', text: 'refund policy', tags: [], split: 'holdout' },
        { id: 'q6', text: 'beir style id', tags: [] },
        { id: 'q9', text: 'last good one', tags: ['lang:en', 'faq'] },
      ],
    );
  });

  it('reports each bad record at its line (blank line 9 is ignored)', () => {
    assert.deepEqual(brief(r.diagnostics), [
      '3:error:invalid JSON at column 22: unexpected character "b", expected a value; line skipped',
      '4:error:"split" must be "tune" or "holdout", got "test"; line skipped',
      '5:error:missing "id"; line skipped',
      '7:error:"tags" must be an array of strings, got "not-a-list"; line skipped',
      '8:error:expected a JSON object {"id", "text"}; line skipped',
      '10:error:"text" is empty; line skipped',
    ]);
    assert.deepEqual(r.locations.get('q9'), { file: path, line: 11 });
  });
});

describe('readQueries: format detection, encodings, bad files', () => {
  it('sniffs JSONL in a .txt file and TSV in a .json file from the first line', () => {
    withTempDir((_dir, write) => {
      const a = readQueries(write('a.txt', '{"id": "1", "text": "json in txt"}\n'));
      assert.deepEqual([...a.queries.values()], [{ id: '1', text: 'json in txt', tags: [] }]);
      const b = readQueries(write('b.json', '1\ttsv in json\n'));
      assert.deepEqual([...b.queries.values()], [{ id: '1', text: 'tsv in json', tags: [] }]);
    });
  });

  it('falls back on the extension when the first line has no tab: .jsonl reports JSON errors', () => {
    withTempDir((_dir, write) => {
      const p = write('c.jsonl', 'not json\n{"id": "2", "text": "ok"}\n');
      const r = readQueries(p);
      assert.deepEqual([...r.queries.keys()], ['2']);
      assert.deepEqual(brief(r.diagnostics), [
        '1:error:invalid JSON at column 1: unexpected character "n", expected a value; line skipped',
      ]);
    });
  });

  it('accepts a BOM and CRLF in TSV and JSONL', () => {
    withTempDir((_dir, write) => {
      const bom = '\ufeff';
      const t = readQueries(write('q.tsv', `${bom}1\tfirst\r\n2\tsecond\r\n`));
      assert.deepEqual(
        [...t.queries.values()].map((q) => q.text),
        ['first', 'second'],
      );
      assert.deepEqual(t.diagnostics, []);
      const j = readQueries(write('q.jsonl', `${bom}{"id":"1","text":"first"}\r\n{"id":"2","text":"second"}\r\n`));
      assert.deepEqual(
        [...j.queries.values()].map((q) => q.text),
        ['first', 'second'],
      );
      assert.deepEqual(j.diagnostics, []);
    });
  });

  it('throws InputError for missing, empty and all-invalid files', () => {
    assert.throws(() => readQueries('missing/queries.tsv'), { name: 'InputError', message: 'missing/queries.tsv: file not found' });
    withTempDir((_dir, write) => {
      const empty = write('empty.tsv', '');
      assert.throws(() => readQueries(empty), { message: `${empty}: file is empty` });
      const junk = write('junk.tsv', 'no tab here\nnor here\n');
      assert.throws(
        () => readQueries(junk),
        (e: unknown) => e instanceof InputError && e.diagnostics.length === 2 && /no valid query line/.test(e.message),
      );
    });
  });
});

describe('readQueries: ids that are not UTF-8', () => {
  it('a line that is not UTF-8 is an error at its line and skipped; one alone as first line does not decide the format', () => {
    withTempDir((_dir, write) => {
      // the first line is a Latin-1 TSV line; the format is then told by the next line (JSON Lines)
      const bytes = Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from('\tcoffee\n{"_id": "q2", "text": "tea"}\n')]);
      const r = readQueries(write('queries.jsonl', bytes));
      assert.deepEqual([...r.queries.keys()], ['q2']);
      assert.deepEqual(
        brief(r.diagnostics).map((d) => d.split(' (')[0]),
        ['1:error:byte 0xE9 at column 4 is not UTF-8'],
      );
      const only = write(
        'only.tsv',
        Buffer.concat([Buffer.from('q'), Buffer.from([0xff]), Buffer.from('\ta query long enough not to look binary\n')]),
      );
      assert.throws(
        () => readQueries(only),
        (e: unknown) =>
          e instanceof InputError && /no valid query line; 1 problem/.test(e.message) && /0xFF/.test(e.diagnostics[0].message),
      );
    });
  });
});
