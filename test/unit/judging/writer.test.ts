// The grade writer: one (query, document, grade) into the user's own file, every other line byte for byte the
// same (TREC qrels, BEIR TSV, golden-set JSON graded and binary, JSONL; CRLF, BOM, no final newline, tabs,
// compact JSON), read back by the real readers, atomic (a crash between the temporary write and the rename leaves
// the old file whole), and into judgments/<rater>.qrels in per-rater mode.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs, { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, mock } from 'node:test';
import { loadJudgments } from '../../../src/core/judgments';
import { GradeWriter } from '../../../src/core/judging/writer';
import { InputError } from '../../../src/core/util/diagnostics';
import { REPO_DIR } from '../../helpers/cli';
import { plainQrels, withTempDir } from '../judgments/helpers';
import { changedLines as changed } from '../../helpers/text-diff';

/** Writes `text` as the workspace's only judgments file and returns a function applying one grade and the new text. */
function workspaceWith(dir: string, name: string, text: string | Buffer, kind: 'qrels' | 'golden') {
  const file = join(dir, name);
  writeFileSync(file, text);
  const specs = [{ [kind]: name }];
  const writer = new GradeWriter({ root: dir, specs });
  const read = () => loadJudgments(specs, { baseDir: dir });
  return {
    file,
    read,
    grade(qid: string, doc: string, grade: number | undefined) {
      const before = readFileSync(file, 'utf8');
      const written = writer.write(read(), qid, doc, grade);
      return { written, before, after: readFileSync(file, 'utf8') };
    },
  };
}

const QRELS = '# assessors: a, b\nq1 0 d1 3\nq1 0 d2 0\nq2 0 d3 1\n\nq2 0 d4 2\n';

describe('grade writer: TREC qrels', () => {
  it("adds a judgment after the last line of its query, copying that line's columns", () => {
    withTempDir((dir) => {
      const ws = workspaceWith(dir, 'qrels.txt', QRELS, 'qrels');
      const { after, written } = ws.grade('q1', 'd9', 2);
      assert.equal(after, '# assessors: a, b\nq1 0 d1 3\nq1 0 d2 0\nq1 0 d9 2\nq2 0 d3 1\n\nq2 0 d4 2\n');
      assert.equal(written.previous, undefined);
      assert.equal(written.display, 'qrels.txt');
      assert.deepEqual(plainQrels(ws.read().qrels), { q1: { d1: 3, d2: 0, d9: 2 }, q2: { d3: 1, d4: 2 } });
    });
  });

  it('changes a grade in its line, appends a new query at the end, removes a judgment with its line', () => {
    withTempDir((dir) => {
      const ws = workspaceWith(dir, 'qrels.txt', QRELS, 'qrels');
      let r = ws.grade('q2', 'd3', 3);
      assert.deepEqual(changed(r.before, r.after), { removed: ['q2 0 d3 1'], added: ['q2 0 d3 3'] });
      assert.equal(r.written.previous, 1);
      r = ws.grade('q3', 'd1', 1);
      assert.deepEqual(changed(r.before, r.after), { removed: [], added: ['q3 0 d1 1'] });
      assert.ok(r.after.endsWith('q2 0 d4 2\nq3 0 d1 1\n'));
      r = ws.grade('q1', 'd1', undefined);
      assert.deepEqual(changed(r.before, r.after), { removed: ['q1 0 d1 3'], added: [] });
      assert.equal(r.written.previous, 3);
      r = ws.grade('q1', 'd2', 0);
      assert.equal(r.written.changed, false);
      assert.equal(r.after, r.before);
      assert.deepEqual(plainQrels(ws.read().qrels), { q1: { d2: 0 }, q2: { d3: 3, d4: 2 }, q3: { d1: 1 } });
    });
  });

  it('keeps CRLF line ends, the BOM and a missing final newline', () => {
    withTempDir((dir) => {
      const text = '\uFEFFq1 Q0 d1 3\r\nq1 Q0 d2 0\r\nq2 Q0 d3 1';
      const ws = workspaceWith(dir, 'qrels.txt', text, 'qrels');
      ws.grade('q2', 'd4', 2);
      ws.grade('q1', 'd5', 1);
      const bytes = readFileSync(ws.file);
      assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
      assert.equal(bytes.toString('utf8'), '\uFEFFq1 Q0 d1 3\r\nq1 Q0 d2 0\r\nq1 Q0 d5 1\r\nq2 Q0 d3 1\r\nq2 Q0 d4 2');
      ws.grade('q2', 'd4', undefined);
      assert.equal(readFileSync(ws.file, 'utf8'), '\uFEFFq1 Q0 d1 3\r\nq1 Q0 d2 0\r\nq1 Q0 d5 1\r\nq2 Q0 d3 1');
      assert.deepEqual(plainQrels(ws.read().qrels), { q1: { d1: 3, d2: 0, d5: 1 }, q2: { d3: 1 } });
    });
  });

  it('copies tab separators and aligned columns; a BEIR TSV keeps its header and three columns', () => {
    withTempDir((dir) => {
      const ws = workspaceWith(dir, 'qrels.txt', 'q1\t0\tdoc-1\t3\nq10   0  doc-22  1\n', 'qrels');
      assert.deepEqual(changed(ws.grade('q1', 'doc-7', 2).before, readFileSync(ws.file, 'utf8')).added, ['q1\t0\tdoc-7\t2']);
      assert.deepEqual(changed(ws.grade('q10', 'x', 0).before, readFileSync(ws.file, 'utf8')).added, ['q10   0  x  0']);
      const beir = workspaceWith(dir, 'test.tsv', 'query-id\tcorpus-id\tscore\nq1\tdoc one\t1\n', 'qrels');
      const r = beir.grade('q2', 'doc two', 2);
      assert.equal(r.after, 'query-id\tcorpus-id\tscore\nq1\tdoc one\t1\nq2\tdoc two\t2\n');
      assert.deepEqual(plainQrels(beir.read().qrels), { q1: { 'doc one': 1 }, q2: { 'doc two': 2 } });
    });
  });

  it('refuses ids that would split a TREC column, and files that are not UTF-8', () => {
    withTempDir((dir) => {
      const ws = workspaceWith(dir, 'qrels.txt', QRELS, 'qrels');
      assert.throws(
        () => ws.grade('q1', 'two words', 1),
        (e: unknown) => e instanceof InputError && /white space/.test(e.message),
      );
      // The Latin-1 line is refused by the reader (an error at its line); the writer still must not rewrite the file.
      const latin1 = Buffer.concat([Buffer.from('q1 0 caf'), Buffer.from([0xe9]), Buffer.from(' 1\nq1 0 d2 0\n')]);
      const bad = workspaceWith(dir, 'latin1.txt', latin1, 'qrels');
      assert.throws(() => bad.grade('q1', 'd2', 1), /not UTF-8/);
      assert.deepEqual(readFileSync(bad.file), latin1);
    });
  });
});

const GOLDEN = `[
  {
    "id": "q1",
    "query": "kopi gayo",
    "judgments": {
      "d1": 3,
      "d2": 0
    },
    "tags": ["origin"]
  },
  {
    "query": "binary item",
    "relevant_doc_ids": ["d5", "d6"]
  }
]
`;

describe('grade writer: golden sets', () => {
  it('adds a member to a graded item on its own line, indented like its neighbours', () => {
    withTempDir((dir) => {
      const ws = workspaceWith(dir, 'golden.json', GOLDEN, 'golden');
      const r = ws.grade('q1', 'd9', 2);
      assert.deepEqual(changed(r.before, r.after), { removed: ['      "d2": 0'], added: ['      "d2": 0,', '      "d9": 2'] });
      const c = ws.grade('q1', 'd1', 1);
      assert.deepEqual(changed(c.before, c.after), { removed: ['      "d1": 3,'], added: ['      "d1": 1,'] });
      assert.equal(c.written.previous, 3);
      const u = ws.grade('q1', 'd9', undefined);
      assert.equal(u.after, c.before.replace('"d1": 3', '"d1": 1').replace(',\n      "d9": 2', ''));
      assert.deepEqual(plainQrels(ws.read().qrels), { q1: { d1: 1, d2: 0 }, q2: { d5: 1, d6: 1 } });
    });
  });

  it('binary items: grade 1 joins relevant_doc_ids, other grades go into a judgments object', () => {
    withTempDir((dir) => {
      const ws = workspaceWith(dir, 'golden.json', GOLDEN, 'golden');
      let r = ws.grade('q2', 'd7', 1); // q2 = the second item, named by position
      assert.deepEqual(changed(r.before, r.after).added, ['    "relevant_doc_ids": ["d5", "d6", "d7"]']);
      r = ws.grade('q2', 'd8', 3);
      assert.deepEqual(changed(r.before, r.after), {
        removed: ['    "relevant_doc_ids": ["d5", "d6", "d7"]'],
        added: ['    "relevant_doc_ids": ["d5", "d6", "d7"],', '    "judgments": {"d8": 3}'],
      });
      r = ws.grade('q2', 'd5', 2); // moves from the list to the graded object
      assert.deepEqual(changed(r.before, r.after).added, ['    "relevant_doc_ids": ["d6", "d7"],', '    "judgments": {"d8": 3, "d5": 2}']);
      assert.deepEqual(plainQrels(ws.read().qrels), { q1: { d1: 3, d2: 0 }, q2: { d6: 1, d7: 1, d8: 3, d5: 2 } });
      r = ws.grade('q2', 'd6', undefined);
      assert.deepEqual(changed(r.before, r.after).added, ['    "relevant_doc_ids": ["d7"],']);
    });
  });

  it('keeps tabs, CRLF and the BOM; a compact file stays compact', () => {
    withTempDir((dir) => {
      const tabbed = '\uFEFF[\r\n\t{\r\n\t\t"id": "q1",\r\n\t\t"query": "x",\r\n\t\t"judgments": {\r\n\t\t\t"d1": 3\r\n\t\t}\r\n\t}\r\n]';
      const ws = workspaceWith(dir, 'golden.json', tabbed, 'golden');
      ws.grade('q1', 'd2', 0);
      assert.equal(
        readFileSync(ws.file, 'utf8'),
        '\uFEFF[\r\n\t{\r\n\t\t"id": "q1",\r\n\t\t"query": "x",\r\n\t\t"judgments": {\r\n\t\t\t"d1": 3,\r\n\t\t\t"d2": 0\r\n\t\t}\r\n\t}\r\n]',
      );
      const compact = workspaceWith(
        dir,
        'compact.json',
        '[{"id":"q1","query":"x","judgments":{"d1":3}},{"id":"q2","query":"y","relevant_doc_ids":["a"]}]',
        'golden',
      );
      compact.grade('q1', 'd2', 1);
      compact.grade('q2', 'b', 0);
      assert.equal(
        readFileSync(compact.file, 'utf8'),
        '[{"id":"q1","query":"x","judgments":{"d1":3,"d2":1}},{"id":"q2","query":"y","relevant_doc_ids":["a"],"judgments":{"b":0}}]',
      );
      assert.deepEqual(plainQrels(compact.read().qrels), { q1: { d1: 3, d2: 1 }, q2: { a: 1, b: 0 } });
    });
  });

  it("JSONL golden sets: the item's line changes, no other", () => {
    withTempDir((dir) => {
      const text = '{"id": "q1", "query": "x", "judgments": {"d1": 3}}\n{"id": "q2", "query": "y", "judgments": {"d2": 1}}\n';
      const ws = workspaceWith(dir, 'golden.jsonl', text, 'golden');
      const r = ws.grade('q2', 'd3', 2);
      assert.deepEqual(changed(r.before, r.after), {
        removed: ['{"id": "q2", "query": "y", "judgments": {"d2": 1}}'],
        added: ['{"id": "q2", "query": "y", "judgments": {"d2": 1, "d3": 2}}'],
      });
      assert.throws(() => ws.grade('q9', 'd1', 1), /no golden-set item for query "q9"/);
    });
  });
});

describe('grade writer: which file', () => {
  it("in place: the file that grades the pair, else the one holding the query's judgments, else its golden item", () => {
    withTempDir((dir, write) => {
      write('golden.json', GOLDEN);
      write('extra.qrels', 'q1 0 d3 1\n');
      const specs = [{ golden: 'golden.json' }, { qrels: 'extra.qrels' }];
      const writer = new GradeWriter({ root: dir, specs });
      const read = () => loadJudgments(specs, { baseDir: dir });
      assert.equal(writer.write(read(), 'q1', 'd3', 2).display, 'extra.qrels'); // graded there
      assert.equal(writer.write(read(), 'q1', 'd8', 1).display, 'golden.json'); // q1's first judgments
      assert.equal(writer.write(read(), 'q2', 'zz', 0).display, 'golden.json');
      assert.deepEqual(plainQrels(read().qrels), { q1: { d1: 3, d2: 0, d8: 1, d3: 2 }, q2: { d5: 1, d6: 1, zz: 0 } });
      assert.equal(readFileSync(join(dir, 'extra.qrels'), 'utf8'), 'q1 0 d3 2\n');
    });
  });

  it('per rater: judgments/<rater>.qrels, created on the first grade and read back as that rater', () => {
    withTempDir((dir, write) => {
      write('golden.json', GOLDEN);
      const specs = [{ golden: 'golden.json' }, { raters: 'judgments' }];
      const read = () => loadJudgments(specs, { baseDir: dir });
      assert.deepEqual(read().ratings, undefined); // no raters yet: nothing changes
      const ana = new GradeWriter({ root: dir, specs, mode: 'per-rater', rater: 'ana' });
      const w = ana.write(read(), 'q1', 'd1', 1);
      assert.equal(w.display, 'judgments/ana.qrels');
      ana.write(read(), 'q1', 'd9', 2);
      assert.equal(readFileSync(join(dir, 'judgments/ana.qrels'), 'utf8'), 'q1 0 d1 1\nq1 0 d9 2\n');
      assert.equal(readFileSync(join(dir, 'golden.json'), 'utf8'), GOLDEN);
      const set = read();
      assert.deepEqual(plainQrels(set.ratings!.get('ana')!), { q1: { d1: 1, d9: 2 } });
      // mean-rounded of default 3 and ana 1 = 2; d9 only ana's.
      assert.deepEqual(plainQrels(set.qrels), { q1: { d1: 2, d2: 0, d9: 2 }, q2: { d5: 1, d6: 1 } });
      assert.throws(
        () => new GradeWriter({ root: dir, specs: [{ golden: 'golden.json' }], mode: 'per-rater', rater: 'ana' }),
        /\{"raters": "judgments"\}/,
      );
      assert.throws(() => new GradeWriter({ root: dir, specs, mode: 'per-rater', rater: '../x' }), /rater name/);
    });
  });
});

describe('grade writer: the last judgment of a qrels file', () => {
  it("undoing a rater's only grade removes the file the writer made, and the judgments still load cleanly", () => {
    withTempDir((dir, write) => {
      write('golden.json', GOLDEN);
      const specs = [{ golden: 'golden.json' }, { raters: 'judgments' }];
      const read = () => loadJudgments(specs, { baseDir: dir });
      const ana = new GradeWriter({ root: dir, specs, mode: 'per-rater', rater: 'ana' });
      const w = ana.write(read(), 'q1', 'd9', 2);
      ana.writeTo(w.file, 'qrels', 'q1', 'd9', w.previous);
      assert.equal(existsSync(join(dir, 'judgments/ana.qrels')), false);
      const set = read();
      assert.deepEqual(
        set.diagnostics.filter((d) => d.severity === 'error'),
        [],
      );
      assert.deepEqual(plainQrels(set.qrels), { q1: { d1: 3, d2: 0 }, q2: { d5: 1, d6: 1 } });
    });
  });

  it('a shared qrels file is not emptied: an error naming it, the file byte for byte as it was', () => {
    withTempDir((dir) => {
      const ws = workspaceWith(dir, 'qrels.txt', '# kept\r\nq1 0 d1 2', 'qrels');
      assert.throws(
        () => ws.grade('q1', 'd1', undefined),
        (e: unknown) => e instanceof InputError && e.file === 'qrels.txt' && /last judgment/.test(e.message),
      );
      assert.equal(readFileSync(ws.file, 'utf8'), '# kept\r\nq1 0 d1 2');
      assert.deepEqual(plainQrels(ws.read().qrels), { q1: { d1: 2 } });
    });
  });
});

describe('grade writer: atomic', () => {
  it('a failure between the temporary write and the rename leaves the old file and no temporary file', () => {
    withTempDir((dir) => {
      const ws = workspaceWith(dir, 'golden.json', GOLDEN, 'golden');
      const rename = mock.method(fs, 'renameSync', () => {
        throw new Error('simulated crash at rename');
      });
      try {
        assert.throws(() => ws.grade('q1', 'd9', 2), /simulated crash/);
      } finally {
        rename.mock.restore();
      }
      assert.equal(readFileSync(ws.file, 'utf8'), GOLDEN);
      assert.deepEqual(readdirSync(dir), ['golden.json']);
    });
  });

  it('a process killed between the temporary write and the rename leaves the old file whole', () => {
    withTempDir((dir) => {
      writeFileSync(join(dir, 'golden.json'), GOLDEN);
      // A child writes one grade and dies (SIGKILL: no cleanup runs) the moment it would rename.
      const script = `
        const fs = require('node:fs');
        const { GradeWriter } = require(${JSON.stringify(join(REPO_DIR, 'src/core/judging/writer.ts'))});
        const { loadJudgments } = require(${JSON.stringify(join(REPO_DIR, 'src/core/judgments/index.ts'))});
        fs.renameSync = () => process.kill(process.pid, 'SIGKILL');
        const specs = [{ golden: 'golden.json' }];
        new GradeWriter({ root: ${JSON.stringify(dir)}, specs }).write(loadJudgments(specs, { baseDir: ${JSON.stringify(dir)} }), 'q1', 'd9', 2);`;
      const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: REPO_DIR, encoding: 'utf8' });
      assert.equal(r.signal, 'SIGKILL', r.stderr);
      assert.equal(readFileSync(join(dir, 'golden.json'), 'utf8'), GOLDEN);
      const tmp = readdirSync(dir).filter((f) => f.endsWith('.tmp'));
      assert.equal(tmp.length, 1, 'the new content was written to a temporary file');
      assert.match(readFileSync(join(dir, tmp[0]!), 'utf8'), /"d9": 2/);
      assert.ok(existsSync(join(dir, 'golden.json')));
    });
  });
});
