// Shared index and score cache (issue 11): `ranklab eval` of `baseline` then `title-boost-3` (boosts only differ) on a
// generated workspace, through the session API exactly as the CLI's eval calls it (one session, evaluateConfig per
// config, runs saved). With sharing (the product: one session) the second is a recombination of the first's cached
// per-field scores; the baseline, measured in the same run, is the second config without sharing: its own session
// over the same state folder (its engine loads the lexical index from the disk cache, its score cache is empty;
// what every config cost before), the corpus read beforehand and not timed.
// Run: npm run bench:shared [-- --docs 50000] [--queries 1000] [--no-doc]
// Writes its section of docs/benchmarks.md unless --no-doc or --docs is given.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ANALYZER } from '../src/core/config/defaults';
import { parseMetricList } from '../src/core/metrics';
import { createAnalyzer } from '../src/core/retrieval/analyzer';
import { describeSharing, evaluateConfig } from '../src/core/session/evaluate';
import { RanklabSession } from '../src/core/session/session';

const arg = (name: string, fallback?: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const DOCS = Number(arg('docs', '50000'));
const QUERIES = Number(arg('queries', '1000'));
const writeDoc = !process.argv.includes('--no-doc') && arg('docs') === undefined;
const BM25 = { fields: { title: 1, body: 1 }, bm25: { k1: 1.2, b: 0.7, d: 0.5 }, combineWith: 'OR', coordination: true, depth: 100 };
const CONFIGS = {
  baseline: { lexical: BM25, pageSize: 10 },
  'title-boost-3': { lexical: { ...BM25, fields: { title: 3, body: 1 } }, pageSize: 10 },
};

/** A workspace folder: the synthetic corpus as JSONL, one judged document per query (metrics are not the point), two configs. */
async function writeWorkspace(dir: string): Promise<void> {
  // @ts-expect-error a plain ES module of the bench, without type declarations
  const { syntheticCorpus } = await import('./lib/corpus.mjs');
  const analyzer = createAnalyzer(DEFAULT_ANALYZER);
  const { docs, queries } = syntheticCorpus(DOCS, QUERIES, (w: string) => analyzer.processTerm(w) === null);
  mkdirSync(join(dir, 'data'));
  writeFileSync(
    join(dir, 'data', 'docs.jsonl'),
    docs.map((d: { id: string; title: string; body: string }) => JSON.stringify({ id: d.id, title: d.title, text: d.body })).join('\n') +
      '\n',
  );
  mkdirSync(join(dir, 'judgments'));
  writeFileSync(
    join(dir, 'judgments', 'golden.json'),
    JSON.stringify(
      queries.map((q: string, i: number) => ({ id: `q${i}`, query: q, judgments: { [docs[(i * 7919) % docs.length].id]: 2 } })),
    ),
  );
  mkdirSync(join(dir, 'configs'));
  for (const [name, config] of Object.entries(CONFIGS))
    writeFileSync(join(dir, 'configs', `${name}.rank.json`), JSON.stringify(config, null, 2));
  writeFileSync(
    join(dir, 'ranklab.json'),
    JSON.stringify(
      {
        corpus: { include: ['data/*.jsonl'], fields: { id: 'id', title: 'title', body: 'text' } },
        judgments: ['judgments/golden.json'],
        configs: 'configs/*.rank.json',
        baseline: 'baseline',
        metrics: ['ndcg@10', 'mrr@10'],
      },
      null,
      2,
    ),
  );
}

const specs = parseMetricList(['ndcg@10', 'mrr@10']);
const metricOptions = { gain: 'exp' as const, relevanceThreshold: 1 };

/** One `eval` of a config on the session, as the CLI runs it (the run is saved); wall ms. */
async function timedEval(session: RanklabSession, name: string) {
  const t = performance.now();
  const r = await evaluateConfig(session, session.resolveConfig(name), { specs, metricOptions });
  return { ms: performance.now() - t, r };
}

async function main(): Promise<void> {
  // The bench libraries are plain ES modules without type declarations (imported as bench/score.ts does).
  // @ts-expect-error see above
  const { loadavg, machine } = await import('./lib/measure.mjs');
  // @ts-expect-error see above
  const { writeDocSection } = await import('./lib/doc-section.mjs');
  const root = mkdtempSync(join(tmpdir(), 'ranklab-shared-bench-'));
  try {
    const ws = join(root, 'ws');
    mkdirSync(ws);
    await writeWorkspace(ws);
    const state = join(root, 'state');
    console.log(`workspace: ${DOCS} synthetic documents, ${QUERIES} queries; load average ${loadavg()}`);

    // The product: one session, baseline then title-boost-3. The corpus is read before timing (both sides alike).
    const shared = RanklabSession.open(ws, { stateDir: state });
    await shared.loadCorpus();
    const first = await timedEval(shared, 'baseline');
    const second = await timedEval(shared, 'title-boost-3');
    console.log(
      `shared:   baseline ${fmt(first.ms)} (index built), title-boost-3 ${fmt(second.ms)} (${describeSharing(second.r.sharing!)}); ratio 1/${(first.ms / second.ms).toFixed(1)}`,
    );

    // Without sharing: title-boost-3 in its own session over the same state folder (index from the disk cache).
    const alone = RanklabSession.open(ws, { stateDir: state });
    await alone.loadCorpus();
    const separate = await timedEval(alone, 'title-boost-3');
    console.log(
      `separate: title-boost-3 ${fmt(separate.ms)} (${describeSharing(separate.r.sharing!) || 'nothing shared'}); shared is ${(separate.ms / second.ms).toFixed(1)}x faster`,
    );
    for (const [a, b] of [[second.r, separate.r]]) {
      if (JSON.stringify([...a.run]) !== JSON.stringify([...b.run])) throw new Error('shared and separate runs differ');
    }
    const target = second.ms * 10 <= first.ms ? 'met' : 'NOT met';
    console.log(`target (second <= 1/10 of first): ${target}`);
    if (writeDoc) {
      const m = machine();
      writeDocSection(
        'shared-cache',
        [
          '## Shared index and score cache (`npm run bench:shared`)',
          '',
          `\`ranklab eval\` of \`baseline\` then \`title-boost-3\` (title boost 3 instead of 1, nothing else differs) through the session API as the CLI calls it (runs saved), on a generated workspace of ${DOCS.toLocaleString('en')} synthetic documents (\`bench/lib/corpus.mjs\`) and ${QUERIES.toLocaleString('en')} queries; the corpus is read before timing. Baseline in the same run: \`title-boost-3\` in a session of its own over the same state folder (lexical index loaded from the disk cache, empty score cache), which is what each config cost before indexes were shared. ${m.cpuModel}, ${m.cpus} cores, Node ${m.node}; load average at the end ${loadavg()}.`,
          '',
          '| eval | wall time |',
          '|---|---|',
          `| baseline (index built, every query scored) | ${fmt(first.ms)} |`,
          `| title-boost-3, same session (index shared, scores recombined) | ${fmt(second.ms)} (1/${(first.ms / second.ms).toFixed(1)} of baseline) |`,
          `| title-boost-3, own session (no sharing) | ${fmt(separate.ms)} (${(separate.ms / second.ms).toFixed(1)}x the shared one) |`,
          '',
        ].join('\n'),
      );
      console.log('wrote its section of docs/benchmarks.md');
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

function fmt(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}
