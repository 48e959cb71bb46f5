// The typed settings of the editor (src/extension/settings.ts) and the settings package.json contributes agree:
// same keys, same types, same defaults; and the reader falls back to the default for unset or mistyped values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS, SETTINGS_SECTION, readSettings } from '../../../src/extension/settings';

const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8'));
const contributed: Record<string, { type: string; default: unknown }> = pkg.contributes.configuration.properties;

test('every contributed ranklab.* setting is read by settings.ts and every setting read there is contributed', () => {
  const declared = Object.keys(contributed).sort();
  const read = Object.keys(SETTINGS)
    .map((k) => `${SETTINGS_SECTION}.${k}`)
    .sort();
  assert.deepEqual(read, declared);
});

test('each setting has the type and default that package.json declares', () => {
  for (const [key, spec] of Object.entries(SETTINGS)) {
    const c = contributed[`${SETTINGS_SECTION}.${key}`];
    assert.equal(spec.type, c.type, key);
    assert.deepEqual(spec.default, c.default, key);
  }
});

/** A configuration section as VS Code hands it over: `get` returns undefined for what is not set. */
const section = (values: Record<string, unknown>) => ({ get: <T>(key: string) => values[key] as T | undefined });

test('readSettings: defaults when nothing is set, the user values when set', () => {
  assert.deepEqual(readSettings(section({})), {
    runsFolder: '.ranklab/runs',
    primaryMetric: undefined,
    statusBarEnabled: true,
    judgingRater: undefined,
  });
  assert.deepEqual(
    readSettings(
      section({ runsFolder: 'out/runs', 'dashboard.primaryMetric': 'mrr@10', 'statusBar.enabled': false, 'judging.rater': 'ana' }),
    ),
    {
      runsFolder: 'out/runs',
      primaryMetric: 'mrr@10',
      statusBarEnabled: false,
      judgingRater: 'ana',
    },
  );
});

test('readSettings: an empty folder or metric means the default, a value of the wrong type is ignored', () => {
  assert.deepEqual(readSettings(section({ runsFolder: '', 'dashboard.primaryMetric': '', 'judging.rater': '' })), {
    runsFolder: '.ranklab/runs',
    primaryMetric: undefined,
    statusBarEnabled: true,
    judgingRater: undefined,
  });
  assert.deepEqual(
    readSettings(section({ runsFolder: 42, 'dashboard.primaryMetric': ['ndcg@10'], 'statusBar.enabled': 'no', 'judging.rater': 7 })),
    {
      runsFolder: '.ranklab/runs',
      primaryMetric: undefined,
      statusBarEnabled: true,
      judgingRater: undefined,
    },
  );
});
