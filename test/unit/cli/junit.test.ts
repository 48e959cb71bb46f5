// The JUnit report of `ranklab gate` / `compare --format junit`, read as XML on a real compare of the example
// workspace: its counts add up, there is one test per gate result failing exactly when the gate fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ranklab } from '../../helpers/cli';
import { copyOfExample, tempDir } from '../../helpers/workspace';
import { descendants, parseXml, type XmlElement } from '../../helpers/xml';

const example = copyOfExample();
type Gate = { gate: string; passed: boolean; queries: { qid: string }[] };

/** Every count of the document is the number of elements below it. */
function assertCountsAddUp(root: XmlElement) {
  assert.equal(root.name, 'testsuites');
  const suites = root.children.filter((c) => c.name === 'testsuite');
  assert.equal(Number(root.attrs.tests), descendants(root, 'testcase').length, 'testsuites tests');
  assert.equal(Number(root.attrs.failures), descendants(root, 'failure').length, 'testsuites failures');
  for (const s of suites) {
    assert.equal(Number(s.attrs.tests), descendants(s, 'testcase').length, `${s.attrs.name} tests`);
    assert.equal(Number(s.attrs.failures), descendants(s, 'failure').length, `${s.attrs.name} failures`);
  }
}

/** The cases of a suite match the gates one to one, by name, failing exactly when the gate fails. */
function assertCasesAreGates(suite: XmlElement, gates: Gate[], texts: Record<string, string>) {
  const cases = suite.children.filter((c) => c.name === 'testcase');
  assert.deepEqual(
    cases.map((c) => c.attrs.name),
    gates.map((g) => g.gate),
  );
  for (const [i, g] of gates.entries()) {
    const failure = cases[i].children.find((c) => c.name === 'failure');
    assert.equal(!failure, g.passed, g.gate);
    if (!failure) continue;
    // The queries to blame, by id with a short text, worst first.
    const listed = [...failure.text.matchAll(/^ {2}(\S+)(?: "([^"]*)")?: /gm)];
    assert.deepEqual(
      listed.map((m) => m[1]),
      g.queries.slice(0, 20).map((q) => q.qid),
      g.gate,
    );
    for (const m of listed) {
      assert.ok((m[2] ?? '').length <= 60, `${m[1]}: a short text`);
      if (texts[m[1]].length <= 60) assert.equal(m[2], texts[m[1]].replace(/\s+/g, ' ').trim());
    }
    if (g.queries.length > 20) assert.match(failure.text, new RegExp(`… and ${g.queries.length - 20} more`));
  }
}

test('gate on a regressing candidate: JUnit counts add up, one test per gate result, failing exactly with its gate', () => {
  const junit = join(tempDir(), 'gates.xml');
  const r = ranklab(['gate', '--workspace', example, '--candidate', 'regressing', '--junit', junit]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const json = JSON.parse(
    ranklab(['compare', '--workspace', example, '--baseline', 'baseline', '--candidate', 'regressing', '--format', 'json']).stdout,
  );
  const gates: Gate[] = json.gates;
  assert.ok(gates.some((g) => g.passed) && gates.some((g) => !g.passed), 'some gates pass, some fail');
  assert.ok(
    gates.some((g) => g.gate.includes(' in slice ')),
    'per-slice gates are there',
  );

  const root = parseXml(readFileSync(junit, 'utf8'));
  assertCountsAddUp(root);
  assert.equal(Number(root.attrs.failures), gates.filter((g) => !g.passed).length);
  assert.equal(root.children.length, 1);
  assert.equal(root.children[0].attrs.name, 'regressing vs baseline');
  const texts = Object.fromEntries(Object.entries(json.queryInfo as Record<string, { text: string }>).map(([q, i]) => [q, i.text]));
  assertCasesAreGates(root.children[0], gates, texts);
  // A minimum gate that fails now fails as one test (it used to pass every one of its per-query tests).
  const min = descendants(root, 'testcase').find((c) => c.attrs.name === 'ndcg@10 >= 0.65')!;
  assert.ok(min.children.some((c) => c.name === 'failure'));
});

test('N-way compare --format junit: one suite per candidate, counts add up', () => {
  const three = ['--workspace', example, '--baseline', 'baseline', '--candidate', 'title-boost-3', '--candidate', 'regressing'];
  const root = parseXml(ranklab(['compare', ...three, '--format', 'junit']).stdout);
  assertCountsAddUp(root);
  const json = JSON.parse(ranklab(['compare', ...three, '--format', 'json']).stdout);
  assert.deepEqual(
    root.children.map((s) => s.attrs.name),
    ['title-boost-3 vs baseline', 'regressing vs baseline'],
  );
  for (const [i, cmp] of (json.comparisons as { gates: Gate[]; queryInfo: Record<string, { text: string }> }[]).entries()) {
    assertCasesAreGates(root.children[i], cmp.gates, Object.fromEntries(Object.entries(cmp.queryInfo).map(([q, x]) => [q, x.text])));
  }
  assert.equal(Number(root.children[0].attrs.failures), 0, 'title-boost-3 passes every gate');
});
