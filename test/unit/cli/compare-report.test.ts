// What a person reads of `ranklab compare` / `gate` on the example workspace: --brief, query texts cut to one
// short line (bidi controls shown), the biggest wins beside the losses, and one note for judgments that list only
// relevant documents.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ranklab } from '../../helpers/cli';
import { copyOfExample } from '../../helpers/workspace';

type Golden = { id: string; query: string; judgments: Record<string, number>; split?: string }[];

/** A copy of the example with its golden set changed by `edit`. */
function exampleWith(edit: (queries: Golden) => void): string {
  const dir = copyOfExample();
  const file = join(dir, 'judgments', 'golden.json');
  const queries = JSON.parse(readFileSync(file, 'utf8')) as Golden;
  edit(queries);
  writeFileSync(file, JSON.stringify(queries, null, 2));
  return dir;
}

const example = copyOfExample();
const pair = (dir: string) => ['--workspace', dir, '--baseline', 'baseline', '--candidate', 'title-boost-3'];

test('--brief: the verdict, the metrics and the gates, none of the long sections; gate too', () => {
  const full = ranklab(['compare', ...pair(example)]);
  const brief = ranklab(['compare', ...pair(example), '--brief']);
  assert.equal(brief.code, 0, brief.stderr);
  assert.match(brief.stdout, /^Ranklab compare: candidate title-boost-3 vs baseline baseline\n\nVerdict: title-boost-3 vs baseline: /);
  assert.match(brief.stdout, /\nndcg@10 +0\.7827 +0\.7867 +\+0\.0040 /, 'the metrics table');
  assert.match(brief.stdout, /\n== Gates: all 15 pass\n/);
  for (const section of [
    '== Slices',
    '== Latency',
    '== Biggest losses',
    '== Biggest wins',
    'Where relevant documents are lost',
    'judged@',
  ]) {
    assert.ok(full.stdout.includes(section), `the full report has ${section}`);
    assert.ok(!brief.stdout.includes(section), `--brief leaves out ${section}`);
  }
  assert.ok(brief.stdout.split('\n').length * 2 < full.stdout.split('\n').length, 'less than half as long');

  const three = ['compare', '--workspace', example, '--baseline', 'baseline', '--candidate', 'title-boost-3', '--candidate', 'regressing'];
  const many = ranklab(three).stdout;
  const manyBrief = ranklab([...three, '--brief']).stdout;
  assert.match(manyBrief, /\n== Matrix /);
  assert.ok(
    many.includes('\n== regressing vs baseline') && !manyBrief.includes('\n== regressing vs baseline'),
    'no per-candidate sections',
  );

  const gate = ranklab(['gate', '--workspace', example, '--candidate', 'regressing', '--brief']);
  assert.equal(gate.code, 1);
  assert.match(gate.stdout, /\n== Gates: \d+ of 15 fail\n/);
  assert.match(gate.stdout, /\nndcg@10 >= 0\.65 +0\.5605 +FAIL +q\d+/);
  assert.doesNotMatch(gate.stdout, / pass +\n| +pass\n/, 'passing gates are only counted');
  assert.ok(!gate.stdout.includes('== Biggest losses'));
});

test('the biggest losses worst first and the biggest wins best first, as many of each as --max-queries', () => {
  const json = JSON.parse(ranklab(['compare', ...pair(example), '--format', 'json']).stdout);
  const deltas = Object.entries(json.perQuery as Record<string, Record<string, { delta: number }>>).map(([q, m]) => ({
    q,
    d: m['ndcg@10'].delta,
  }));
  const lost = deltas.filter((x) => x.d < -1e-9).sort((a, b) => a.d - b.d);
  const won = deltas.filter((x) => x.d > 1e-9).sort((a, b) => b.d - a.d);
  assert.ok(lost.length > 3 && won.length > 3);
  const text = ranklab(['compare', ...pair(example), '--max-queries', '3']).stdout;
  const section = (title: string) => {
    const at = text.indexOf(`== ${title}`);
    assert.ok(at >= 0, title);
    const body = text.slice(text.indexOf('\n', at) + 1).split('\n== ')[0];
    return { head: text.slice(at, text.indexOf('\n', at)), qids: [...body.matchAll(/^(q\d+) [+-]\d/gm)].map((m) => m[1]) };
  };
  const losses = section('Biggest losses');
  const wins = section('Biggest wins');
  assert.equal(losses.head, `== Biggest losses (ndcg@10, worst first; 3 of ${lost.length})`);
  assert.equal(wins.head, `== Biggest wins (ndcg@10, best first; 3 of ${won.length})`);
  // Ties in the delta may order either way: compare the deltas, and the ids where the delta is unique.
  const deltaOf = new Map(deltas.map((x) => [x.q, x.d]));
  assert.deepEqual(
    losses.qids.map((q) => deltaOf.get(q)),
    lost.slice(0, 3).map((x) => x.d),
  );
  assert.deepEqual(
    wins.qids.map((q) => deltaOf.get(q)),
    won.slice(0, 3).map((x) => x.d),
  );
});

test('a 600-character query text is cut to one short line, and a right-to-left override in it is shown as ⟨U+202E⟩', () => {
  const json = JSON.parse(ranklab(['compare', ...pair(example), '--format', 'json']).stdout);
  const worst: string = json.queryDeltas[0].qid;
  let long = '';
  const dir = exampleWith((queries) => {
    const q = queries.find((x) => x.id === worst)!;
    // Nonsense words match no document, so the query still changes between the two configs.
    long = `${q.query} \u202E zzqv ${Array.from({ length: 100 }, (_, i) => `xqz${i}`).join(' ')}`;
    q.query = long;
  });
  assert.ok(long.length > 500);
  const text = ranklab(['compare', ...pair(dir), '--max-queries', '100']).stdout;
  const line = text.split('\n').find((l) => l.startsWith(`${worst} `));
  assert.ok(line, `${worst} is listed`);
  const quoted = line.match(/"([^"]*)"/)![1];
  assert.ok(quoted.length <= 80, `${quoted.length} characters`);
  assert.ok(quoted.endsWith('…'));
  assert.ok(quoted.includes('⟨U+202E⟩'), quoted);
  assert.ok(!text.includes('\u202E'), 'no raw override anywhere in the report');
  assert.ok(!text.includes('xqz60'), 'the rest of the text is not printed');
  const md = ranklab(['compare', ...pair(dir), '--max-queries', '100', '--format', 'markdown']).stdout;
  assert.ok(!md.includes('\u202E') && md.includes('⟨U+202E⟩'));
});

test('judgments that list only relevant documents: one note that unjudged means not relevant, no could-flip per metric', () => {
  const full = ranklab(['compare', ...pair(example)]).stdout;
  assert.match(full, /unjudged documents could flip it/, 'the example grades non-relevant documents too');
  assert.doesNotMatch(full, /list only relevant documents/);

  const dir = exampleWith((queries) => {
    for (const q of queries) q.judgments = Object.fromEntries(Object.entries(q.judgments).filter(([, g]) => g >= 1));
  });
  const text = ranklab(['compare', ...pair(dir)]).stdout;
  assert.doesNotMatch(text, /could flip/);
  assert.equal(text.split('The judgments list only relevant documents').length - 1, 1, 'said once');
  const json = JSON.parse(ranklab(['compare', ...pair(dir), '--format', 'json']).stdout);
  assert.match(json.verdict.unjudgedNote, /unjudged document counts as not relevant/);
  assert.ok(json.verdict.metrics.every((m: { couldFlip?: unknown }) => m.couldFlip === undefined));
});
