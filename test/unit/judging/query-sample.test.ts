import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_BOT_RULES } from '../../../src/core/judging/bots';
import { BUILT_IN_PII } from '../../../src/core/judging/personal-data';
import { readQueryLog } from '../../../src/core/judging/query-log';
import { type DistinctQuery, cleanQueries, sampleQueries, stratify, stratumShares } from '../../../src/core/judging/query-sample';
import { normalizeQuery } from '../../../src/core/judging/query-text';
import { generateLog } from '../../helpers/query-logs';

const OPTS = { pii: BUILT_IN_PII, bots: DEFAULT_BOT_RULES };

test("a generated log: every planted item, bot line and garbled line removed and counted; people's queries merged", () => {
  const g = generateLog({ seed: 7, distinct: 200, searches: 3000 });
  const log = readQueryLog(g.lines.join('\n'), 'gen.jsonl');
  assert.equal(log.diagnostics.length, g.garbled);
  const { queries, report } = cleanQueries(log.records, OPTS);
  const byKind: Record<string, number> = {};
  for (const p of g.planted) byKind[p.kind] = (byKind[p.kind] ?? 0) + 1;
  assert.deepEqual(report.personal, byKind);
  assert.deepEqual(report.bots, { agent: g.bots.agent, volume: g.bots.volume, rate: g.bots.rate, shape: g.bots.shape });
  assert.equal(report.botSessions, 2);
  // What is left is exactly the people's queries with their counts (case and white space variants merged).
  assert.deepEqual(new Map(queries.map((q) => [q.text, q.count])), new Map([...g.people].map(([q, n]) => [normalizeQuery(q), n])));
  const text = queries.map((q) => q.text).join('\n');
  for (const p of g.planted) assert.ok(!text.includes(p.item.toLowerCase()), `${p.kind} survived`);
});

test('normal form: NFC, case, any white space; loose folds accents and punctuation, never word forms', () => {
  assert.equal(normalizeQuery('  Cafe\u0301\u00a0 LATTE\t'), 'café latte');
  assert.equal(normalizeQuery('Café-Latte!', true), 'cafe latte');
  assert.notEqual(normalizeQuery('shoe', true), normalizeQuery('shoes', true));
});

test('strata split the traffic in thirds, most frequent first', () => {
  const q = stratify(
    new Map([
      ['a', 50],
      ['b', 20],
      ['c', 15],
      ['d', 10],
      ['e', 5],
    ]),
  );
  // Cumulative before each: 0, 50, 70, 85, 95 of 100: a head; b (50 ≥ 33.3, < 66.7) torso; c, d, e tail.
  assert.deepEqual(
    q.map((x) => [x.text, x.stratum]),
    [
      ['a', 'head'],
      ['b', 'torso'],
      ['c', 'tail'],
      ['d', 'tail'],
      ['e', 'tail'],
    ],
  );
});

test('stratum shares: N evenly, a short stratum gives its share away, never more than there are', () => {
  assert.deepEqual(stratumShares([100, 100, 100], 10), [4, 3, 3]);
  assert.deepEqual(stratumShares([1, 100, 100], 10), [1, 5, 4]);
  assert.deepEqual(stratumShares([2, 3, 1], 10), [2, 3, 1]);
  assert.deepEqual(stratumShares([5, 5, 5], 0), [0, 0, 0]);
});

function zipf(n: number): DistinctQuery[] {
  return stratify(
    new Map(Array.from({ length: n }, (_, i) => [`q${String(i).padStart(4, '0')}`, Math.max(1, Math.round(1000 / (i + 1)))])),
  );
}

test('each scheme: seeded (same seed, same sample), N distinct queries, strata sampled as the scheme says', () => {
  const qs = zipf(500);
  for (const scheme of ['uniform', 'stratified', 'pps'] as const) {
    const a = sampleQueries(qs, 30, scheme, 42);
    assert.deepEqual(sampleQueries(qs, 30, scheme, 42), a, scheme);
    assert.notDeepEqual(sampleQueries(qs, 30, scheme, 43), a, scheme);
    assert.equal(new Set(a.map((q) => q.text)).size, 30, scheme);
  }
  const strat = sampleQueries(qs, 30, 'stratified', 1);
  const heads = qs.filter((q) => q.stratum === 'head').length;
  assert.ok(heads < 10, `the head of a Zipf log is a few queries (${heads})`);
  // The whole head, and its unused share split over torso and tail.
  const [h, t, l] = ['head', 'torso', 'tail'].map((s) => strat.filter((q) => q.stratum === s).length);
  assert.equal(h, heads);
  assert.equal(h! + t! + l!, 30);
  assert.ok(Math.abs(t! - l!) <= 1, `${t} ${l}`);
  assert.equal(sampleQueries(qs, 10_000, 'uniform', 1).length, 500);
});

test('pps picks a query about in proportion to its frequency; uniform does not look at frequency', () => {
  const qs = stratify(new Map([['big', 900], ...Array.from({ length: 100 }, (_, i) => [`small${i}`, 1] as [string, number])]));
  let ppsBig = 0;
  let uniformBig = 0;
  const runs = 400;
  for (let seed = 0; seed < runs; seed++) {
    if (sampleQueries(qs, 1, 'pps', seed)[0]!.text === 'big') ppsBig++;
    if (sampleQueries(qs, 1, 'uniform', seed)[0]!.text === 'big') uniformBig++;
  }
  // P(big) = 900/1000 under pps, 1/101 uniformly; bounds at well over 4 standard deviations.
  assert.ok(ppsBig / runs > 0.83 && ppsBig / runs < 0.97, `pps ${ppsBig}`);
  assert.ok(uniformBig / runs < 0.05, `uniform ${uniformBig}`);
});
