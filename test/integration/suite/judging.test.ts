import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RanklabApi } from '../../../src/extension/extension';
import type { JudgingView } from '../../../src/protocol/judging';

async function api(): Promise<RanklabApi> {
  const e = vscode.extensions.getExtension<RanklabApi>('ranklab.ranklab');
  assert.ok(e);
  return e.activate();
}

suite('Ranklab judging view', () => {
  test('Judge Unjudged Documents pools the given configs and opens at a pair asked for', async () => {
    const a = await api();
    const view = await vscode.commands.executeCommand<JudgingView>('ranklab.judgeUnjudged', { configs: ['baseline', 'title-boost'] });
    assert.ok(view, 'the command failed (see the Ranklab log)');
    assert.deepEqual(view.configs, ['baseline', 'title-boost']);
    assert.equal(view.depth, 10);
    assert.equal(view.progress.graded, 0);
    // The fixture's BM25 lists hold only documents that match, and those are graded: judged@10 is 1 already.
    assert.equal(view.pair, undefined);
    for (const j of Object.values(view.progress.judged)) assert.ok(j.projected >= j.now);
    // The dashboard's "judge" action: a pair of q2 that nobody graded, shown first.
    const asked = await vscode.commands.executeCommand<JudgingView>('ranklab.judgeUnjudged', {
      configs: ['baseline', 'title-boost'],
      qid: 'q2',
      docId: 'corpus/evil.md',
    });
    assert.equal(asked.pair?.qid, 'q2');
    assert.equal(asked.pair?.docId, 'corpus/evil.md');
    assert.equal(asked.pair?.reason, 'asked');
    assert.equal(asked.writesTo, 'judgments/golden.json');
    assert.equal(asked.pair?.query.text, 'quick bread');
    assert.deepEqual(
      asked.pair?.existing.map((e) => `${e.docId}:${e.grade}`),
      ['corpus/quick-bread.md:2', 'corpus/soda-bread.md:1'],
    );
    assert.ok(a.judging(), 'the panel is open');
    assert.equal(a.judging()!.currentView()?.pair?.docId, 'corpus/evil.md');
  });
});
