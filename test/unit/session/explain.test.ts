import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LexicalIndex } from '../../../src/core/retrieval/lexical';
import { createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { type ConfigExplanation, configChanges, explainDocument, rankChangeReason } from '../../../src/core/session/explain';
import { RanklabSession } from '../../../src/core/session/session';
import { InputError } from '../../../src/core/util/diagnostics';
import { copyOfExample } from '../../helpers/workspace';

const ws = copyOfExample();
const lexical = (title: number) => ({
  lexical: { fields: { title, body: 1 }, bm25: { k1: 1.2, b: 0.7, d: 0.5 }, combineWith: 'OR', coordination: false, depth: 100 },
});
writeFileSync(join(ws, 'configs', 'title-1.rank.json'), JSON.stringify(lexical(1)));
writeFileSync(join(ws, 'configs', 'title-3.rank.json'), JSON.stringify(lexical(3)));
const session = RanklabSession.open(ws, { writeCache: false });

test('the reason line of a constructed boost change: the setting, the title term that gained most, the documents overtaken', async () => {
  const base = session.resolveConfig('title-1');
  const cand = session.resolveConfig('title-3');
  const text = 'espresso machine';
  const before = (await (await session.engine(base)).search(text)).docs.map((d) => d.id);
  const after = (await (await session.engine(cand)).search(text)).docs.map((d) => d.id);
  // A document that moved up: the reason must name its biggest title term and count what it overtook.
  const id = after.find((d, i) => before.indexOf(d) > i && before.indexOf(d) >= 0)!;
  assert.ok(id, 'some document moved up');
  const a = before.indexOf(id) + 1;
  const b = after.indexOf(id) + 1;
  const overtook = before.slice(0, a - 1).filter((d) => after.indexOf(d) + 1 > b || after.indexOf(d) < 0).length;
  // Independent reference: MiniSearch's own single-field, single-term BM25 for the title; the boost adds 2× it.
  const reference = LexicalIndex.build(session.corpus().docs, ['title'], createAnalyzer(base.lexical!.analyzer)).miniSearch;
  const gains = ['espresso', 'machine'].map((t) => ({
    t,
    g: 2 * (reference.search(t, { fields: ['title'], bm25: { k: 1.2, b: 0.7, d: 0.5 } }).find((r) => r.id === id)?.score ?? 0),
  }));
  const top = gains.sort((x, y) => y.g - x.g)[0];
  const r = await explainDocument(session, { config: cand, baseline: base, query: text, doc: id });
  assert.equal(
    r.reason,
    `title boost 1→3: +${top.g.toFixed(2)} from '${top.t}' in title; rank ${a}→${b}, overtook ${overtook} document${overtook === 1 ? '' : 's'}`,
  );
  assert.equal(r.candidate!.rank, b);
  assert.equal(r.baseline!.rank, a);
});

test('fused lists are paired by name: a list in another order, or one the baseline does not fuse, is compared with its own', () => {
  const config = session.resolveConfig('baseline');
  type List = { name: string; rank: number | null; weight: number };
  const explained = (rank: number, lists: List[]): ConfigExplanation => {
    // Each list's contribution weight / (k + rank), k = 60, as the fuse step explains it.
    const fused = lists.map((l) => ({ ...l, contribution: l.rank === null ? 0 : l.weight / (60 + l.rank) }));
    const sum = fused.reduce((t, l) => t + l.contribution, 0);
    const step = {
      step: 'fuse' as const,
      rank,
      score: sum,
      outcome: 'kept' as const,
      note: '',
      fusion: { k: 60, depth: 100, lists: fused, sum },
    };
    const ranking = ['x1', 'x2', 'x3', 'x4'];
    ranking.splice(rank - 1, 0, 'd');
    return { config: 'c', mode: 'hybrid', rank, score: sum, fellOut: null, steps: [step], ranking, notes: [] };
  };
  const base = explained(4, [
    { name: 'lexical', rank: 5, weight: 1 },
    { name: 'vector', rank: null, weight: 1 },
  ]);
  // The candidate lists vector first, and fuses a third list the baseline has not got.
  const cand = explained(2, [
    { name: 'vector', rank: 1, weight: 1 },
    { name: 'lexical', rank: 5, weight: 1 },
    { name: 'extra', rank: 40, weight: 0.5 },
  ]);
  // vector: 1/61 − 0 = +0.0164 (the largest change); lexical: unchanged; extra: 0.5/100 − 0 = +0.0050.
  assert.equal(
    rankChangeReason(config, base, config, cand, 'd'),
    'same settings: fused +0.0164 from vector (rank -→1); rank 4→2, overtook 2 documents',
  );
});

test('config changes are named as people name them', () => {
  const base = session.resolveConfig('baseline');
  assert.deepEqual(configChanges(base, session.resolveConfig('title-boost-3')), ['title boost 1→3']);
  assert.deepEqual(configChanges(base, base), []);
  assert.ok(configChanges(base, session.resolveConfig('hybrid-rrf')).includes('hybrid added'));
});

test('a query id resolves to its text; unknown ids and documents are input errors with "did you mean"', async () => {
  const config = session.resolveConfig('baseline');
  const r = await explainDocument(session, { config, query: 'q02', doc: 'visit-toraja' });
  assert.deepEqual(r.query, { qid: 'q02', text: 'toraja coffee' });
  await assert.rejects(
    explainDocument(session, { config, query: 'q2x', doc: 'visit-toraja' }),
    (e: Error) => e instanceof InputError && /unknown query id "q2x".*did you mean "q2\d"|did you mean "q\d+"/.test(e.message),
  );
  await assert.rejects(
    explainDocument(session, { config, query: 'q02', doc: 'visit-torja' }),
    (e: Error) => e instanceof InputError && /unknown document "visit-torja".*did you mean "visit-toraja"/.test(e.message),
  );
  assert.throws(() => session.resolveConfig('baselin'), /did you mean "baseline"/);
});

test('as a principal: a document they may not see is only "not visible"; a not-ranked one names the step it fell out at', async () => {
  const config = session.resolveConfig('baseline');
  const policy = session.accessFor('guest');
  const hidden = session.corpus().docs.find((d) => !policy.filter(d.id))!;
  assert.ok(hidden, 'guest cannot see some document');
  const r = await explainDocument(session, { config, query: 'q02', doc: hidden.id, principal: 'guest' });
  assert.equal(r.visible, false);
  assert.equal(r.candidate, undefined);
  const miss = await explainDocument(session, { config, query: 'kintamani', doc: 'visit-toraja' });
  assert.equal(miss.candidate!.rank, null);
  assert.deepEqual(miss.candidate!.fellOut, {
    step: 'lexical',
    outcome: 'not-matched',
    note: 'not matched (no query term in a searched field)',
  });
});
