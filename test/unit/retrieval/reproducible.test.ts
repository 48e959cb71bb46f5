// Identical inputs give identical numbers, whatever the caches saw before: a workspace evaluated with empty
// caches and the same workspace evaluated after its caches (or a long-lived session) saw another version of
// the corpus must give the same ranked lists, scores and per-query metrics, for every kind of config.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMetricList } from '../../../src/core/metrics/spec';
import { evaluateConfig } from '../../../src/core/session/evaluate';
import { RanklabSession } from '../../../src/core/session/session';
import { copyOfExample, tempDir } from '../../helpers/workspace';

const CONFIGS = ['baseline', 'vector', 'vector-exact', 'hybrid-rrf'];
const specs = parseMetricList(['ndcg@10', 'recall@20', 'mrr@10']);

/** Per config: the ranked list of every query (id, score, per-stage ranks and scores) and its metrics. */
async function evaluateAll(session: RanklabSession): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const name of CONFIGS) {
    const r = await evaluateConfig(session, session.resolveConfig(name), {
      specs,
      metricOptions: { gain: 'exp', relevanceThreshold: 1 },
      save: false,
    });
    out[name] = { run: [...r.run], perQuery: [...r.evaluation.perQuery], means: r.evaluation.means };
  }
  return out;
}

function sameResults(actual: Record<string, unknown>, expected: Record<string, unknown>, what: string): void {
  for (const name of CONFIGS) assert.deepStrictEqual(actual[name], expected[name], `${what}: ${name}`);
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

test('fresh caches and caches that saw an earlier corpus version give identical results (lexical, LSA + HNSW, LSA exact, hybrid)', async () => {
  const ws = copyOfExample();
  writeFileSync(
    join(ws, 'configs', 'vector-exact.rank.json'),
    JSON.stringify({ vector: { embedder: { provider: 'lsa', dimensions: 128 }, exact: true, depth: 100 } }),
  );
  const files = markdownFiles(join(ws, 'corpus'));
  const original = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
  const edited = files.filter((_, i) => i % 8 === 0); // ~12% of the documents: within the old incremental-reuse share
  const added = join(ws, 'corpus', 'bar', 'ops-quokka.md');
  const removed = files[5];
  const edit = () => {
    for (const f of edited) writeFileSync(f, original.get(f)! + '\nA note on espresso grinder burrs, kopi gayo and cold brew ratios.\n');
    writeFileSync(
      added,
      '---\nid: ops-quokka\ntitle: Quokka latte art checklist\npublic: true\n---\n\nThe quokka pattern needs microfoam, espresso and a steady pour.\n',
    );
    rmSync(removed);
  };
  const revert = () => {
    for (const f of edited) writeFileSync(f, original.get(f)!);
    writeFileSync(removed, original.get(removed)!);
    rmSync(added);
  };

  const freshV0 = await evaluateAll(RanklabSession.open(ws, { stateDir: tempDir() }));

  // Caches that saw version 0, then the edited version 1, then version 0 again (a CLI run each time).
  const warmState = tempDir();
  sameResults(await evaluateAll(RanklabSession.open(ws, { stateDir: warmState })), freshV0, 'a second fresh evaluation');
  // A long-lived session (the extension's) that follows the same edits through refreshCorpus().
  const live = RanklabSession.open(ws, { stateDir: tempDir() });
  await evaluateAll(live);

  edit();
  const freshV1 = await evaluateAll(RanklabSession.open(ws, { stateDir: tempDir() }));
  assert.notDeepStrictEqual(freshV1.vector, freshV0.vector, 'the edit changes the vector results (else this test shows nothing)');
  sameResults(await evaluateAll(RanklabSession.open(ws, { stateDir: warmState })), freshV1, 'edited corpus, caches of the earlier version');
  await live.refreshCorpus();
  sameResults(await evaluateAll(live), freshV1, 'edited corpus, long-lived session');

  revert();
  sameResults(
    await evaluateAll(RanklabSession.open(ws, { stateDir: warmState })),
    freshV0,
    'reverted corpus, caches of the edited version',
  );
  await live.refreshCorpus();
  sameResults(await evaluateAll(live), freshV0, 'reverted corpus, long-lived session');
});
