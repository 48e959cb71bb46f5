// The judging view's model (no vscode) on a copy of the example workspace: a real pool, real grades written to
// judgments/golden.json at once, undo restoring the file byte for byte, skip, a pair asked for from the dashboard,
// the passage with the query's terms marked, and judged@10 rising as pairs are graded.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_ANALYZER } from '../../../src/core/config/defaults';
import { workspacePool } from '../../../src/core/session/judging-pool';
import { GradeWriter } from '../../../src/core/judging/writer';
import { createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { RanklabSession } from '../../../src/core/session/session';
import { JudgingModel } from '../../../src/extension/judging/model';
import { copyOfExample } from '../../helpers/workspace';

describe('judging model', () => {
  let dir: string;
  let session: RanklabSession;
  let model: JudgingModel;
  const golden = () => readFileSync(join(dir, 'judgments/golden.json'), 'utf8');

  before(async () => {
    dir = copyOfExample();
    session = RanklabSession.open(dir, { writeCache: false });
    const { pool, sides, failed, metricOptions } = await workspacePool(session, {
      configs: ['baseline', 'title-boost-3'].map((c) => session.resolveConfig(c)),
      max: 12,
    });
    model = new JudgingModel({
      pool,
      sides,
      failed,
      metricOptions,
      writer: new GradeWriter({ root: dir, specs: session.workspace.judgmentSpecs }),
      judgments: () => session.judgments(),
      reload: () => session.reloadJudgments(),
      document: (id) => session.document(id),
      analyzer: createAnalyzer(DEFAULT_ANALYZER),
    });
  });
  after(() => rmSync(dirname(dir), { recursive: true, force: true }));

  it('shows the first pair: query, its judgments, the passage with the query terms marked, ranks, where grades go', () => {
    const v = model.view();
    assert.deepEqual(v.configs, ['baseline', 'title-boost-3']);
    assert.equal(v.writesTo, 'judgments/golden.json');
    assert.deepEqual(
      { graded: v.progress.graded, skipped: v.progress.skipped, size: v.progress.size },
      { graded: 0, skipped: 0, size: 12 },
    );
    const p = v.pair!;
    assert.equal(p.index, 0);
    assert.equal(p.reason, 'deciding');
    assert.equal(p.grade, undefined);
    const query = session.judgments().queries.get(p.qid)!;
    assert.equal(p.query.text, query.text);
    assert.deepEqual(p.query.tags, query.tags);
    assert.equal(p.existing.length, session.judgments().qrels.get(p.qid)!.size);
    assert.ok(
      p.existing.every((e, i) => i === 0 || p.existing[i - 1]!.grade >= e.grade),
      'best grade first',
    );
    assert.equal(p.doc.found, true);
    assert.equal(p.doc.path, session.document(p.docId)!.source.path);
    const terms = new Set(createAnalyzer(DEFAULT_ANALYZER).analyze(p.query.text));
    for (const shown of [p.doc.passage, p.doc.title]) {
      for (const [s, e] of shown.marks)
        assert.ok(terms.has(shown.text.slice(s, e).toLowerCase()), `"${shown.text.slice(s, e)}" is a query term of "${p.query.text}"`);
    }
    assert.ok(p.doc.passage.marks.length + p.doc.title.marks.length > 0, 'the pooled document matches the query somewhere');
    assert.deepEqual(
      Object.keys(p.ranks).every((c) => v.configs.includes(c)),
      true,
    );
  });

  it('grades are written at once; judged@10 rises; undo restores the file byte for byte; skip moves on', () => {
    const start = golden();
    const before = model.view();
    const first = before.pair!;
    let v = model.grade(first.qid, first.docId, 3);
    assert.match(v.message!, new RegExp(`${first.qid} ${first.docId}: graded 3 in judgments/golden.json`));
    assert.notEqual(golden(), start);
    assert.equal(session.judgments().qrels.get(first.qid)!.get(first.docId), 3, 'read back from the file');
    const second = v.pair!;
    assert.notDeepEqual([second.qid, second.docId], [first.qid, first.docId]);
    v = model.grade(second.qid, second.docId, 0);
    const third = v.pair!;
    v = model.skip(third.qid, third.docId);
    assert.equal(v.progress.skipped, 1);
    assert.equal(v.progress.graded, 2);
    const judgedNow = Object.values(v.progress.judged).map((j) => j.now);
    const judgedBefore = Object.values(before.progress.judged).map((j) => j.now);
    assert.ok(
      judgedNow.some((x, i) => x > judgedBefore[i]!),
      `judged@10 ${judgedBefore} → ${judgedNow}`,
    );
    const afterTwo = golden();
    v = model.undo(); // the skip
    assert.equal(v.pair!.docId, third.docId);
    assert.equal(v.progress.skipped, 0);
    v = model.undo(); // the 0
    assert.equal(v.pair!.docId, second.docId);
    assert.match(v.message!, /grade removed from judgments\/golden\.json/);
    assert.notEqual(golden(), afterTwo);
    v = model.undo(); // the 3
    assert.equal(golden(), start, 'every undo done: the file is what it was');
    assert.equal(v.pair!.docId, first.docId);
    assert.equal(v.progress.graded, 0);
    assert.equal(model.undo().message, 'nothing to undo');
  });

  it('a right-to-left override in a title is shown as a marker, the query terms still marked on the words', async () => {
    const { pool, sides, failed, metricOptions } = await workspacePool(session, {
      configs: ['baseline', 'title-boost-3'].map((c) => session.resolveConfig(c)),
      max: 12,
    });
    // The same corpus, each title opening with U+202E (as a hostile document's would).
    const hostile = new JudgingModel({
      pool,
      sides,
      failed,
      metricOptions,
      writer: new GradeWriter({ root: dir, specs: session.workspace.judgmentSpecs }),
      judgments: () => session.judgments(),
      reload: () => session.reloadJudgments(),
      document: (id) => {
        const d = session.document(id);
        return d && { ...d, title: `\u202E${d.title}` };
      },
      analyzer: createAnalyzer(DEFAULT_ANALYZER),
    });
    const p = hostile.view().pair!;
    assert.ok(p.doc.title.text.startsWith('⟨U+202E⟩'), p.doc.title.text);
    assert.ok(p.existing.some((e) => e.title?.startsWith('⟨U+202E⟩')));
    assert.ok(
      ![p.doc.title.text, p.doc.passage.text, p.query.text, ...p.existing.map((e) => e.title ?? '')].some((t) => t.includes('\u202E')),
    );
    const terms = new Set(createAnalyzer(DEFAULT_ANALYZER).analyze(p.query.text));
    for (const [s, e] of p.doc.title.marks)
      assert.ok(terms.has(p.doc.title.text.slice(s, e).toLowerCase()), `"${p.doc.title.text.slice(s, e)}" is a query term`);
  });

  it('a pair asked for from the dashboard is shown first, even when the pool does not have it', () => {
    const judged = session.judgments();
    const qid = 'q01';
    const lists = model.view().configs;
    assert.ok(lists.length === 2);
    // A document of the corpus that no config shows for q01 and nobody graded for it.
    const docId = session
      .corpus()
      .docs.map((d) => d.id)
      .find((id) => !judged.qrels.get(qid)!.has(id) && id.startsWith('menu-'))!;
    const v = model.focus(qid, docId);
    assert.equal(v.pair!.qid, qid);
    assert.equal(v.pair!.docId, docId);
    assert.equal(v.pair!.reason, 'asked');
    assert.equal(v.progress.size, 13);
    const next = model.grade(qid, docId, 1);
    assert.equal(session.judgments().qrels.get(qid)!.get(docId), 1);
    assert.notEqual(next.pair?.docId, docId);
    model.undo();
    assert.equal(session.judgments().qrels.get(qid)!.has(docId), false);
  });
});
