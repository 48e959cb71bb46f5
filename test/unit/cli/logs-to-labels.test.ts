// The workflow of docs/logs.md through the CLI, in-process: a generated log → `queries sample` → a golden set the
// workspace reads → a person's grades and `judgments from-clicks` → `agreement` between the person and the clicks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import { readGoldenSet } from '../../../src/core/judgments';
import { RanklabSession } from '../../../src/core/session/session';
import { createRng } from '../../../src/core/util/random';
import { generateLog, simulateClicks } from '../../helpers/query-logs';
import { copyOfExample } from '../../helpers/workspace';

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { out: (t) => void (stdout += t), err: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'ranklab-logs-'));
const log = join(dir, 'searches.jsonl');
const g = generateLog({ seed: 11, distinct: 300, searches: 4000 });
writeFileSync(log, g.lines.join('\n') + '\n');

test('queries sample: the same seed gives the same file byte for byte; the report counts every removal', async () => {
  const a = await cli(['queries', 'sample', '--log', log, '--n', '40', '--seed', '5', '--out', join(dir, 'a.json'), '--format', 'json']);
  assert.equal(a.code, 0, a.stderr);
  const b = await cli(['queries', 'sample', '--log', log, '--n', '40', '--seed', '5', '--out', join(dir, 'b.json')]);
  assert.equal(b.code, 0, b.stderr);
  assert.ok(readFileSync(join(dir, 'a.json')).equals(readFileSync(join(dir, 'b.json'))), 'byte for byte');
  const c = await cli(['queries', 'sample', '--log', log, '--n', '40', '--seed', '6', '--out', join(dir, 'c.json')]);
  assert.equal(c.code, 0, c.stderr);
  assert.notEqual(readFileSync(join(dir, 'c.json'), 'utf8'), readFileSync(join(dir, 'a.json'), 'utf8'));

  const report = JSON.parse(a.stdout);
  assert.equal(
    Object.values(report.personal as Record<string, number>).reduce((s, x) => s + x, 0),
    g.planted.length,
  );
  assert.equal(report.log.skipped, g.garbled);
  assert.deepEqual(report.log.columns, { query: 'query', timestamp: 'timestamp', session: 'session_id', agent: 'user_agent' });
  assert.equal(report.sampled, 40);
  assert.deepEqual(
    report.strata.map((s: { sampled: number }) => s.sampled).reduce((x: number, y: number) => x + y, 0),
    40,
  );
  // Each garbled line at file:line on stderr, never its text.
  assert.equal((a.stderr.match(/searches\.jsonl:\d+: error/g) ?? []).length, g.garbled);
  // The table report says the same in words.
  assert.match(b.stdout, /removed: personal data 30 \(/);
  assert.match(b.stdout, /columns: query <- query/);

  // The output is a golden set the judgments reader takes: ids, the normalised text, the stratum as the tag.
  const set = readGoldenSet(join(dir, 'a.json'));
  assert.equal(set.queries.size, 40);
  for (const q of set.queries.values()) {
    assert.match(q.id, /^log-[0-9a-f]{10}$/);
    assert.equal(q.tags.length, 1);
    assert.ok(['head', 'torso', 'tail'].includes(q.tags[0]!));
    assert.ok(g.people.has(q.text) || [...g.people.keys()].some((p) => p.toLowerCase() === q.text), q.text);
  }
  const text = readFileSync(join(dir, 'a.json'), 'utf8');
  for (const p of g.planted) assert.ok(!text.includes(p.item.toLowerCase()));
});

test('queries sample --exclude leaves out the queries already judged', async () => {
  const first = JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8')) as { query: string }[];
  const r = await cli([
    'queries',
    'sample',
    '--log',
    log,
    '--n',
    '1000',
    '--exclude',
    join(dir, 'a.json'),
    '--out',
    join(dir, 'rest.json'),
    '--format',
    'json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const rest = JSON.parse(readFileSync(join(dir, 'rest.json'), 'utf8')) as { query: string }[];
  assert.equal(rest.length + first.length, g.people.size);
  const firstSet = new Set(first.map((q) => q.query));
  assert.ok(rest.every((q) => !firstSet.has(q.query)));
  assert.ok(JSON.parse(r.stdout).excluded > 0);
});

test("queries sample --for-effect: N from a pilot's per-query spread (compare deltas, or one run times √2)", async () => {
  const rng = createRng(9);
  const deltas = Object.fromEntries(
    Array.from({ length: 50 }, (_, i) => [`q${i}`, { 'ndcg@10': { baseline: 0.5, candidate: 0.5, delta: (rng() - 0.5) * 0.4 } }]),
  );
  writeFileSync(join(dir, 'pilot.json'), JSON.stringify({ perQuery: deltas }));
  const r = await cli([
    'queries',
    'sample',
    '--log',
    log,
    '--for-effect',
    '0.02',
    '--pilot',
    join(dir, 'pilot.json'),
    '--out',
    join(dir, 'sized.json'),
    '--format',
    'json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.forEffect.source, 'deltas');
  // Normal approximation ((1.96 + 0.84) · s_d / δ)², s_d ≈ 0.4/√12 ≈ 0.115: about 260; the t form is a little more.
  assert.ok(out.forEffect.queries > 200 && out.forEffect.queries < 330, String(out.forEffect.queries));
  assert.equal(out.n, Math.min(out.forEffect.queries, Number.MAX_SAFE_INTEGER));
  assert.equal(out.sampled, Math.min(out.n, g.people.size));
  const bad = await cli([
    'queries',
    'sample',
    '--log',
    log,
    '--for-effect',
    '0.02',
    '--pilot',
    join(dir, 'pilot.json'),
    '--metric',
    'mrr',
    '--out',
    join(dir, 'x.json'),
  ]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--metric: metric "mrr" is not in the pilot \(it has ndcg@10\)/);
});

test('bad flags and inputs are exit 2 naming the flag or file; nothing is written', async () => {
  for (const [args, message] of [
    [['--n', '0'], /--n: must be an integer >= 1/],
    [['--n', '5', '--scheme', 'random'], /--scheme: must be one of uniform, stratified, pps/],
    [['--n', '5', '--columns', 'qury=x'], /--columns: "qury=x" is not FIELD=COLUMN/],
    [['--n', '5', '--out', log], /--out/],
  ] as const) {
    const out = (args as readonly string[]).includes('--out') ? [] : ['--out', join(dir, 'never.json')];
    const r = await cli(['queries', 'sample', '--log', log, ...args, ...out]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  assert.ok(!existsSync(join(dir, 'never.json')));
  const missing = await cli(['queries', 'sample', '--log', join(dir, 'nope.jsonl'), '--n', '5', '--out', join(dir, 'never.json')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /nope\.jsonl/);
  assert.equal((await cli(['queries', 'pick'])).code, 2);
});

test('judgments from-clicks writes the rater "clicks"; agreement compares it with the person; it is never scored silently', async () => {
  const ws = join(dir, 'ws');
  mkdirSync(join(ws, 'judgments'), { recursive: true });
  const golden = JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8')) as { id: string; query: string }[];
  writeFileSync(join(ws, 'golden.json'), JSON.stringify(golden));
  writeFileSync(join(ws, 'ranklab.json'), JSON.stringify({ judgments: [{ golden: 'golden.json' }, { raters: 'judgments' }] }));
  // The truth: 8 documents a query, graded 0–3; the person "ana" gives the true grade, the clicks follow it.
  const rng = createRng(21);
  const truth = golden.map((q) => ({
    id: q.id,
    text: q.query,
    docs: new Map(Array.from({ length: 8 }, (_, i) => [`${q.id}-d${i}`, Math.floor(rng() * 4)])),
  }));
  writeFileSync(
    join(ws, 'judgments', 'ana.qrels'),
    truth.flatMap((q) => [...q.docs].map(([d, gr]) => `${q.id} 0 ${d} ${gr}`)).join('\n') + '\n',
  );
  const shuffle = (docs: string[], r: () => number) =>
    docs
      .map((d) => [d, r()] as const)
      .sort((x, y) => x[1] - y[1])
      .map((x) => x[0]);
  const lists = simulateClicks(
    4,
    truth.map((q) => ({ text: q.text.toUpperCase(), docs: q.docs })),
    truth.length * 150,
    shuffle,
  );
  const clickLog = join(dir, 'clicks.jsonl');
  writeFileSync(
    clickLog,
    lists.map((l) => JSON.stringify({ query: l.query, results: l.results, clicks: [...l.clicks] })).join('\n') +
      '\n{"query": "unknown query", "results": ["z"], "clicks": []}\n',
  );

  const r = await cli(['judgments', 'from-clicks', '--workspace', ws, '--log', clickLog, '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.queries, truth.length);
  assert.equal(out.graded, truth.length * 8);
  assert.equal(out.pairsBelowMinImpressions, 1, 'the unknown query was shown once');
  const lines = readFileSync(join(ws, 'judgments', 'clicks.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.ok(lines.every((l) => l.rater === 'clicks' && Number.isInteger(l.grade) && l.impressions >= 10));

  const agreement = await cli(['agreement', '--workspace', ws, '--format', 'json']);
  assert.equal(agreement.code, 0, agreement.stderr);
  const report = JSON.parse(agreement.stdout);
  const pair = report.pairs.find((p: { a: string; b: string }) => p.a === 'ana' && p.b === 'clicks');
  assert.equal(pair.overlap, truth.length * 8);
  assert.ok(pair.kappaQuadratic > 0.6, `kappa quadratic ${pair.kappaQuadratic}`);
  assert.deepEqual(report.overall.people, ['ana'], 'the clicks are not a person');

  // Scored grades: ana's only, unless ranklab.json names the click rater.
  const scored = RanklabSession.open(ws).judgments().qrels;
  for (const q of truth) for (const [d, gr] of q.docs) assert.equal(scored.get(q.id)?.get(d), gr);
  writeFileSync(
    join(ws, 'ranklab.json'),
    JSON.stringify({ judgments: [{ golden: 'golden.json' }, { raters: 'judgments' }], judging: { merge: 'rater:clicks' } }),
  );
  const clicksScored = RanklabSession.open(ws).judgments().qrels;
  assert.equal(clicksScored.get(lines[0].qid)?.get(lines[0].docid), lines[0].grade);
});

test('judgments from-clicks without a raters folder is exit 2 naming ranklab.json; --dry-run writes nothing', async () => {
  const ws = join(dir, 'ws2');
  mkdirSync(ws);
  writeFileSync(join(ws, 'golden.json'), readFileSync(join(dir, 'a.json')));
  writeFileSync(join(ws, 'ranklab.json'), JSON.stringify({ judgments: [{ golden: 'golden.json' }] }));
  writeFileSync(join(ws, 'c.jsonl'), '{"query": "x", "results": ["a"], "clicks": ["a"]}\n');
  const r = await cli(['judgments', 'from-clicks', '--workspace', ws, '--log', join(ws, 'c.jsonl')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /ranklab\.json: error: judgments: click grades are written as a rater of their own/);
  const dry = await cli(['judgments', 'from-clicks', '--workspace', ws, '--log', join(ws, 'c.jsonl'), '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assert.ok(!existsSync(join(ws, 'judgments')));
  const both = await cli(['judgments', 'from-clicks', '--workspace', ws, '--log', join(ws, 'c.jsonl'), '--ubi-queries', 'q.jsonl']);
  assert.equal(both.code, 2);
  const thr = await cli(['judgments', 'from-clicks', '--workspace', ws, '--log', join(ws, 'c.jsonl'), '--thresholds', '2,1']);
  assert.match(thr.stderr, /--thresholds: must be increasing/);
});

test('a fresh sample is pooled: its queries have no judgment yet, ranklab pool searches them and lists their pairs', async () => {
  const ws = copyOfExample();
  const csv = join(ws, 'searches.csv');
  writeFileSync(
    csv,
    'query,count,session_id\n"Coffee grinder",12,a\ncoffee  grinder,3,b\nsourdough starter,7,c\nmatcha latte,4,f\n"call me +44 151 234 5678",1,e\n',
  );
  const s = await cli(['queries', 'sample', '--log', csv, '--n', '3', '--out', join(ws, 'judgments', 'sampled.json')]);
  assert.equal(s.code, 0, s.stderr);
  const sampled = JSON.parse(readFileSync(join(ws, 'judgments', 'sampled.json'), 'utf8')) as { id: string; query: string }[];
  assert.deepEqual(sampled.map((q) => q.query).sort(), ['coffee grinder', 'matcha latte', 'sourdough starter']);
  const settings = JSON.parse(readFileSync(join(ws, 'ranklab.json'), 'utf8'));
  settings.judgments = [...settings.judgments, 'judgments/sampled.json'];
  writeFileSync(join(ws, 'ranklab.json'), JSON.stringify(settings));
  // The workspace as --exclude: its judged queries are left out, and its judgment files are never an --out.
  const again = await cli([
    'queries',
    'sample',
    '--log',
    csv,
    '--n',
    '3',
    '--exclude',
    ws,
    '--out',
    join(ws, 'more.json'),
    '--format',
    'json',
  ]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(JSON.parse(again.stdout).excluded, 4, 'the records of the three sampled queries (coffee grinder twice)');
  assert.equal(JSON.parse(again.stdout).sampled, 0);
  const over = await cli(['queries', 'sample', '--log', csv, '--n', '3', '--exclude', ws, '--out', join(ws, 'judgments', 'sampled.json')]);
  assert.equal(over.code, 2);
  assert.match(over.stderr, /--out/);
  const r = await cli([
    'pool',
    '--workspace',
    ws,
    '--config',
    'baseline',
    '--queries',
    sampled.map((q) => q.id).join(','),
    '--format',
    'json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const pool = JSON.parse(r.stdout) as { pairs: { qid: string; docid: string }[] };
  const pooled = new Set(pool.pairs.map((p) => p.qid));
  assert.deepEqual([...pooled].sort(), sampled.map((q) => q.id).sort(), 'every sampled query with a match is pooled');
  // The pairs are what the config returns for the query's text.
  const { RanklabSession: Session } = await import('../../../src/core/session/session');
  const session = Session.open(ws);
  const grinder = sampled.find((q) => q.query === 'coffee grinder')!;
  const top = (await session.search(session.resolveConfig('baseline'), 'coffee grinder', { pageSize: 10 })).docs.map((d) => d.id);
  assert.deepEqual(
    pool.pairs
      .filter((p) => p.qid === grinder.id)
      .map((p) => p.docid)
      .sort(),
    top.sort(),
  );
});
