// Property: random judgment files (TREC qrels, golden-set JSON with graded and binary items, JSONL) in random
// styles (LF/CRLF, BOM, final newline or not, indentation, separators) take random sequences of grades and
// removals through the writer; after each, the real reader returns exactly the model's grades, and the edit
// touched at most a few neighbouring lines (everything else byte for byte as it was).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import fc from 'fast-check';
import { loadJudgments } from '../../../src/core/judgments';
import { GradeWriter } from '../../../src/core/judging/writer';
import { plainQrels, withTempDir } from '../judgments/helpers';
import { diffLines } from '../../helpers/text-diff';

type Model = Record<string, Record<string, number>>;
interface Style {
  eol: string;
  bom: boolean;
  finalNewline: boolean;
  indent: string;
  sep: string;
}

function serialize(kind: 'qrels' | 'golden' | 'jsonl', model: Model, s: Style): string {
  let lines: string[];
  if (kind === 'qrels') {
    lines = Object.entries(model).flatMap(([q, docs]) => Object.entries(docs).map(([d, g]) => [q, '0', d, g].join(s.sep)));
  } else {
    const items = Object.entries(model).map(([q, docs]) => {
      const grades = Object.values(docs);
      const binary = grades.length > 0 && grades.every((g) => g === 1);
      return { id: q, query: `text of ${q}`, ...(binary ? { relevant_doc_ids: Object.keys(docs) } : { judgments: docs }) };
    });
    lines = kind === 'jsonl' ? items.map((i) => JSON.stringify(i)) : JSON.stringify(items, null, s.indent).split('\n');
  }
  return (s.bom ? '\uFEFF' : '') + lines.join(s.eol) + (s.finalNewline ? s.eol : '');
}

const qid = fc.constantFrom('q1', 'q2', 'q3');
const doc = fc.constantFrom('d1', 'd2', 'd3', 'd4', 'd5', 'd6');
const grade = fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined });
const modelArb = fc.dictionary(qid, fc.dictionary(doc, fc.integer({ min: 0, max: 3 }), { minKeys: 1 }), { minKeys: 1 });
const styleArb = fc.record({
  eol: fc.constantFrom('\n', '\r\n'),
  bom: fc.boolean(),
  finalNewline: fc.boolean(),
  indent: fc.constantFrom('  ', '    ', '\t'),
  sep: fc.constantFrom(' ', '\t', '   '),
});

it('random files and edits: read back exactly, only neighbouring lines touched', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('qrels' as const, 'golden' as const, 'jsonl' as const),
      modelArb,
      styleArb,
      fc.array(fc.tuple(qid, doc, grade), { minLength: 1, maxLength: 8 }),
      (kind, model, style, ops) => {
        withTempDir((dir) => {
          const name = kind === 'qrels' ? 'qrels.txt' : kind === 'golden' ? 'golden.json' : 'golden.jsonl';
          const file = join(dir, name);
          writeFileSync(file, serialize(kind, model, style));
          const specs = [kind === 'qrels' ? { qrels: name } : { golden: name }];
          const writer = new GradeWriter({ root: dir, specs });
          const expected: Model = structuredClone(model);
          for (const [q, d, g] of ops) {
            // A golden set only takes grades for queries it has an item for.
            if (kind !== 'qrels' && !(q in model)) continue;
            const before = readFileSync(file, 'utf8');
            const graded = Object.entries(expected).flatMap(([qq, docs]) => Object.keys(docs).map((dd) => `${qq} ${dd}`));
            if (kind === 'qrels' && g === undefined && graded.length === 1 && graded[0] === `${q} ${d}`) {
              // A qrels file is never emptied (the reader refuses one without a judgment): an error, nothing written.
              assert.throws(() => writer.write(loadJudgments(specs, { baseDir: dir }), q, d, g), /last judgment/);
              assert.equal(readFileSync(file, 'utf8'), before);
              continue;
            }
            writer.write(loadJudgments(specs, { baseDir: dir }), q, d, g);
            const after = readFileSync(file, 'utf8');
            if (g === undefined) delete expected[q]?.[d];
            else (expected[q] ??= {})[d] = g;
            for (const k of Object.keys(expected)) if (Object.keys(expected[k]!).length === 0) delete expected[k];
            const got = plainQrels(loadJudgments(specs, { baseDir: dir }).qrels);
            assert.deepEqual(got, expected);
            assert.equal(after.startsWith('\uFEFF'), style.bom);
            // A single-line JSONL item or qrels line, or a JSON member and its neighbour (plus a moved binary id).
            const { removed, added } = diffLines(before, after);
            assert.ok(
              Math.max(removed.length, added.length) <= (kind === 'golden' ? 3 : 2),
              `${kind}: too many lines changed:\n${before}\n---\n${after}`,
            );
            // (A one-line file without a final newline has no line end to keep: the writer's own is \n.)
            if (before.includes('\r\n')) assert.ok(!/[^\r]\n/.test(after), 'CRLF kept');
          }
        });
      },
    ),
    { numRuns: 150 },
  );
});
