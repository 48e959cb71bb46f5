import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readRunJson } from '../../helpers/runs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { evaluateConfig } from '../../../src/core/session/evaluate';
import { loadSavedRun } from '../../../src/core/experiment/run-store';
import { RanklabSession } from '../../../src/core/session/session';
import { parseMetricList } from '../../../src/core/metrics/spec';
import { readSavedRuns } from '../../../src/extension/run-store';
import { buildQueryDetail } from '../../../src/extension/dashboard/model';

const EXAMPLE = resolve(__dirname, '../../../examples/food-search');

/** The title a Markdown file's front matter gives, read here without the corpus readers. */
function frontMatterTitle(path: string): string | undefined {
  const m = /^---\n[\s\S]*?^title:\s*(.+?)\s*$/m.exec(readFileSync(path, 'utf8'));
  return m?.[1].replace(/^(["'])(.*)\1$/, '$2');
}

test('a saved run stores one title per distinct top-10 document, and the per-query diff of the real run shows them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-titles-'));
  try {
    cpSync(EXAMPLE, dir, { recursive: true, filter: (src) => !src.includes(`${sep}.ranklab`) });
    const session = RanklabSession.open(dir);
    const specs = parseMetricList(['ndcg@10']);
    const r = await evaluateConfig(session, session.resolveConfig('baseline'), {
      specs,
      metricOptions: { gain: 'exp', relevanceThreshold: 1 },
    });
    assert.ok(r.path);
    const top = new Set(r.saved.queries.flatMap((q) => q.docs.slice(0, 10).map((d) => d.id)));
    const titles = r.saved.titles ?? {};
    // Every document of a top 10 once, nothing deeper.
    assert.deepEqual(Object.keys(titles).sort(), [...top].sort());
    let checkedMarkdown = 0;
    for (const id of top) {
      const source = join(dir, session.document(id)!.source.path);
      if (!source.endsWith('.md')) continue;
      assert.equal(titles[id], frontMatterTitle(source), id);
      checkedMarkdown++;
    }
    assert.ok(checkedMarkdown > 10, `${checkedMarkdown} Markdown titles checked`);

    // On disk: each title once (by position in the first query's list that has the document, or in the run-wide
    // map), never on each ranked entry; read back, the same map.
    const onDisk = readRunJson(r.path);
    const stored = [
      ...Object.values(onDisk.titles ?? {}),
      ...onDisk.queries.flatMap((q: { titles?: (string | null)[] }) => (q.titles ?? []).filter((t) => t !== null)),
    ];
    assert.equal(stored.length, Object.keys(titles).length);
    assert.deepEqual(loadSavedRun(r.path).titles, titles);
    // (the compact format stores a ranked entry as its id or the number of the id's first mention: no room for a title)
    assert.ok(
      onDisk.queries.every((q: { docs?: unknown[] }) => (q.docs ?? []).every((d) => typeof d === 'number' || typeof d === 'string')),
    );

    // The dashboard's per-query diff of that run, with no corpus lookup: titles come from the run.
    const { runs } = readSavedRuns(dir);
    assert.equal(runs.length, 1);
    const q = r.saved.queries.find((x) => x.docs.length > 0)!;
    const detail = buildQueryDetail(q.qid, runs[0], runs[0], 'ndcg@10');
    assert.deepEqual(
      detail.baseline!.docs.map((d) => d.title),
      q.docs.slice(0, 10).map((d) => titles[d.id]),
    );
    assert.ok(detail.baseline!.docs.every((d) => typeof d.title === 'string' && d.title.length > 0));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
