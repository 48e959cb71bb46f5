// The vector stage's caches (the LSA model, the HNSW graph) are checked against the sha256 stored beside them:
// changed files are not used (rebuilt, said in the log) and the fresh run equals the first. Example workspace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMetricList } from '../../../src/core/metrics/spec';
import { evaluateConfig } from '../../../src/core/session/evaluate';
import { RanklabSession } from '../../../src/core/session/session';
import { copyOfExample, tempDir } from '../../helpers/workspace';

function setup() {
  const ws = copyOfExample();
  const state = tempDir();
  const log: string[] = [];
  const evaluate = async () => {
    const session = RanklabSession.open(ws, { stateDir: state, log: (m) => log.push(m) });
    log.length = 0;
    const r = await evaluateConfig(session, session.resolveConfig('vector'), {
      specs: parseMetricList(['ndcg@10']),
      metricOptions: { gain: 'exp', relevanceThreshold: 1 },
      reuse: false,
    });
    return [...r.run].map(([q, docs]) => [q, docs.map((d) => d.id)]);
  };
  /** Every file under the state folder whose path matches. */
  const files = (re: RegExp): string[] =>
    (readdirSync(state, { recursive: true }) as string[]).filter((f) => re.test(f)).map((f) => join(state, f));
  return { log, evaluate, files };
}

test('an LSA model file changed after it was written is retrained, not used; an HNSW graph likewise is rebuilt', async () => {
  const { log, evaluate, files } = setup();
  const first = await evaluate();
  assert.deepEqual(await evaluate(), first);
  assert.ok(!log.some((m) => /not reused/.test(m)), log.join('\n'));

  const [model] = files(/lsa[\\/][0-9a-f]+\.json$/);
  const json = JSON.parse(readFileSync(model, 'utf8'));
  json.singularValues[0] *= 2; // still a loadable model (its own fingerprint does not cover these)
  writeFileSync(model, JSON.stringify(json));
  const [labels] = files(/labels\.json$/);
  const l = JSON.parse(readFileSync(labels, 'utf8'));
  l.labels.reverse(); // every graph node now names another document
  writeFileSync(labels, JSON.stringify(l));

  assert.deepEqual(await evaluate(), first, 'the fresh model and graph give the first run');
  assert.ok(
    log.some((m) => /LSA model cache not reused: its content hash does not match/.test(m)),
    log.join('\n'),
  );
  assert.ok(
    log.some((m) => /HNSW cache not reused: its content hash does not match/.test(m)),
    log.join('\n'),
  );
});
