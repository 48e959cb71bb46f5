// A saved run is reused only when everything that shaped it is equal: config, corpus, judgments, the principal
// and its attributes, the access rule and missingAcl, the tool version and the learned models. Each case below
// changes one of them on the example workspace and expects a fresh run, with the reason in the log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMetricList } from '../../../src/core/metrics/spec';
import { TOOL_VERSION, evaluateConfig } from '../../../src/core/session/evaluate';
import { RanklabSession } from '../../../src/core/session/session';
import { copyOfExample, tempDir } from '../../helpers/workspace';
import { readRunJson, writeRunJson } from '../../helpers/runs';

const specs = parseMetricList(['ndcg@10']);
const metricOptions = { gain: 'exp' as const, relevanceThreshold: 1 };

function setup() {
  const ws = copyOfExample();
  const state = tempDir();
  const log: string[] = [];
  const evaluate = async (config: string, principal?: string) => {
    const session = RanklabSession.open(ws, { stateDir: state, log: (m) => log.push(m) });
    log.length = 0;
    return evaluateConfig(session, session.resolveConfig(config), { specs, metricOptions, principal, reuse: true });
  };
  const editJson = (file: string, edit: (data: any) => void) => {
    const path = join(ws, file);
    const data = JSON.parse(readFileSync(path, 'utf8'));
    edit(data);
    writeFileSync(path, JSON.stringify(data, null, 2));
  };
  return { ws, log, evaluate, editJson };
}

test("the principal's attributes are part of the key: another group, tenant or attribute is a fresh run", async () => {
  const { log, evaluate, editJson } = setup();
  assert.equal((await evaluate('baseline', 'ayu')).reused, false);
  const again = await evaluate('baseline', 'ayu');
  assert.equal(again.reused, true, 'unchanged: reused');
  assert.deepEqual(again.saved.provenance.access?.principal, { name: 'ayu', tenant: 'dapur-nusantara', groups: ['kitchen'] });
  assert.ok(
    log.some((m) => m.startsWith('baseline: reusing ')),
    log.join('\n'),
  );

  editJson('principals.json', (ps) => (ps.find((p: any) => p.name === 'ayu').clearance = 'high'));
  assert.equal((await evaluate('baseline', 'ayu')).reused, false, 'a new attribute');
  assert.ok(
    log.some((m) => /^baseline: not reusing .*: principal attributes differ/.test(m)),
    log.join('\n'),
  );
  assert.equal((await evaluate('baseline', 'ayu')).reused, true);

  editJson('principals.json', (ps) => ps.find((p: any) => p.name === 'ayu').groups.push('management'));
  assert.equal((await evaluate('baseline', 'ayu')).reused, false, 'another group');
  editJson('principals.json', (ps) => (ps.find((p: any) => p.name === 'ayu').tenant = 'warung-kopi'));
  assert.equal((await evaluate('baseline', 'ayu')).reused, false, 'another tenant');
});

test('the access rule and missingAcl are part of the key', async () => {
  const { log, evaluate, editJson } = setup();
  assert.equal((await evaluate('baseline')).reused, false);
  editJson('ranklab.json', (s) => (s.acl.missingAcl = 'private'));
  assert.equal((await evaluate('baseline')).reused, false, 'missingAcl changed');
  assert.ok(
    log.some((m) => /not reusing .*: access rule or missingAcl differ/.test(m)),
    log.join('\n'),
  );
  assert.equal((await evaluate('baseline')).reused, true);
  editJson('ranklab.json', (s) => (s.acl.rule = { any: [{ doc: 'public', is: true }] }));
  const r = await evaluate('baseline');
  assert.equal(r.reused, false, 'rule changed');
  assert.deepEqual(r.saved.provenance.access, { principal: null, rule: { any: [{ doc: 'public', is: true }] }, missingAcl: 'private' });
});

test('the tool version and the learned model are part of the key; a run of an earlier version is not reused', async () => {
  const { log, evaluate } = setup();
  const first = await evaluate('vector');
  assert.equal(first.reused, false);
  assert.equal(first.saved.provenance.tool, TOOL_VERSION);
  assert.match(first.saved.provenance.models?.lsa ?? '', /^sha256:[0-9a-f]{16}$/);
  const again = await evaluate('vector');
  assert.equal(again.reused, true);
  assert.ok(
    log.some((m) => m.startsWith('vector: reusing ')),
    log.join('\n'),
  );

  const path = again.path!;
  const rewrite = (edit: (saved: any) => void) => {
    const saved = readRunJson(path);
    edit(saved);
    writeRunJson(path, saved);
  };
  rewrite((s) => (s.provenance.models.lsa = 'sha256:0000000000000000'));
  const otherModel = await evaluate('vector');
  assert.equal(otherModel.reused, false, 'another LSA model');
  assert.ok(
    log.some((m) => /not reusing .*: learned models differ/.test(m)),
    log.join('\n'),
  );
  assert.equal(otherModel.saved.provenance.models?.lsa, first.saved.provenance.models?.lsa, 'the same inputs give the same model');

  const latest = otherModel.path!;
  const saved = readRunJson(latest);
  saved.provenance.tool = 'ranklab 0.0.9';
  writeRunJson(latest, saved);
  assert.equal((await evaluate('vector')).reused, false, 'an older tool version');
  assert.ok(
    log.some((m) => /not reusing .*: tool version differs \(ranklab 0\.0\.9\)/.test(m)),
    log.join('\n'),
  );

  // A run saved before these fields existed (format ranklab-run@1 all the same) is readable but never reused.
  const newest = (await evaluate('vector')).path!;
  const older = readRunJson(newest);
  delete older.provenance.access;
  delete older.provenance.models;
  writeRunJson(newest, older);
  assert.equal((await evaluate('vector')).reused, false, 'a run without access and models');
  assert.ok(
    log.some((m) => /not reusing .*: no record of its access rule and learned models \(saved by an earlier version\)$/.test(m)),
    log.join('\n'),
  );
});

test('TOOL_VERSION follows package.json', () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8'));
  assert.equal(TOOL_VERSION, `ranklab ${pkg.version}`);
});
