// scoreConfig (what a sweep evaluates each combination with) measures exactly what evaluateConfig measures: the same
// run and the same metrics per query, for every config of the example that runs offline, also as a principal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMetricList } from '../../../src/core/metrics/spec';
import { evaluateConfig, scoreConfig } from '../../../src/core/session/evaluate';
import { RanklabSession } from '../../../src/core/session/session';
import { copyOfExample } from '../../helpers/workspace';

test("scoreConfig gives evaluateConfig's run and metrics, without saving anything", async () => {
  const session = RanklabSession.open(copyOfExample(), { writeCache: false, allowNetwork: false, allowModelLoading: false });
  const settings = session.workspace.settings;
  const specs = parseMetricList(settings.metrics);
  const metricOptions = { gain: settings.gain, relevanceThreshold: settings.relevanceThreshold };
  let compared = 0;
  for (const entry of session.configEntries()) {
    if (!entry.config) continue;
    for (const principal of [undefined, 'sari']) {
      let full;
      try {
        full = await evaluateConfig(session, entry.config, { specs, metricOptions, principal, save: false });
      } catch {
        continue; // a config that needs a model or the network: not run offline
      }
      const lean = await scoreConfig(session, entry.config, { specs, metricOptions, principal });
      assert.deepEqual(lean.run, full.run, `${entry.name} as ${principal ?? 'nobody'}`);
      assert.deepEqual(lean.evaluation.perQuery, full.evaluation.perQuery);
      assert.deepEqual(lean.evaluation.means, full.evaluation.means);
      assert.deepEqual(lean.excluded, full.excluded);
      compared++;
    }
  }
  assert.ok(compared >= 4, `${compared} config/principal pairs compared`);
});
