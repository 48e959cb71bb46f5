// The checks of judged ids against the corpus (one pass over the corpus against the judged ids, no set of every corpus
// id): unknown ids are warned about exactly, known ones never; a judgment file whose ids are all unknown is exit 2.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { RanklabSession } from '../../../src/core/session/session';
import { ranklab } from '../../helpers/cli';
import { copyOfExample, tempDir } from '../../helpers/workspace';

type Golden = Array<{ id: string; judgments: Record<string, number> }>;

function withJudgments(edit: (golden: Golden) => Golden): string {
  const ws = copyOfExample();
  const path = join(ws, 'judgments', 'golden.json');
  writeFileSync(path, JSON.stringify(edit(JSON.parse(readFileSync(path, 'utf8')) as Golden), null, 2));
  return ws;
}

test('unknown judged ids are each a warning, known ones none', () => {
  const ws = withJudgments((golden) => {
    golden[0]!.judgments['no-such-doc-1'] = 2;
    golden[1]!.judgments['no-such-doc-2'] = 0;
    return golden;
  });
  const session = RanklabSession.open(ws, { stateDir: tempDir() });
  const unknown = session
    .judgmentDiagnostics()
    .map((d) => d.message)
    .filter((m) => m.startsWith('unknown document id'));
  assert.deepEqual(unknown, [
    'unknown document id "no-such-doc-1" (judged for query "q01"): not in the corpus',
    'unknown document id "no-such-doc-2" (judged for query "q02"): not in the corpus',
  ]);
});

test('judgments none of whose ids is in the corpus: exit 2 naming how many', () => {
  const ws = withJudgments((golden) =>
    golden
      .slice(0, 2)
      .map((q, i): Golden[number] => ({ ...q, judgments: i === 0 ? { 'gone-a': 1, 'gone-b': 0 } : { 'gone-a': 2, 'gone-c': 1 } })),
  );
  const r = ranklab(['eval', '--workspace', ws, '--state-dir', tempDir(), '--no-save']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /none of the 3 judged documents is in the corpus, so every metric would be 0/);
});
