// Saved runs carry the sha256 of their content and are checked on every read: a run edited after Ranklab wrote it
// is never reused as if Ranklab had made it (it is run again), and one named on the command line is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { parseMetricList } from '../../../src/core/metrics/spec';
import { encodeRunFile, loadSavedRun, readSavedRun, runFileText } from '../../../src/core/run/run-format';
import type { SavedRun } from '../../../src/core/run/types';
import { evaluateConfig } from '../../../src/core/session/evaluate';
import { RanklabSession } from '../../../src/core/session/session';
import { ContentHashMismatch, sealBytes, sealJson, unsealBytes, unsealJson } from '../../../src/core/util/content-hash';
import { InputError } from '../../../src/core/util/diagnostics';
import { ranklab } from '../../helpers/cli';
import { readRunText, writeRunText } from '../../helpers/runs';
import { copyOfExample, tempDir } from '../../helpers/workspace';

test('sealBytes / unsealBytes: one line with the sha256 of the bytes after it; any changed byte is caught; other content is not sealed', () => {
  const bytes = gzipSync('{"a":[1,2,3],"title":"caf\u00e9 \u{1F600}"}');
  const sealed = sealBytes(bytes);
  const line = sealed.toString('latin1', 0, sealed.indexOf(0x0a) + 1);
  assert.equal(line, `ranklab-sha256:${createHash('sha256').update(bytes).digest('hex')}\n`); // the hash, computed apart
  assert.deepEqual(unsealBytes(sealed), bytes);
  for (const at of [line.length, sealed.length - 1, 20]) {
    const changed = Buffer.from(sealed);
    changed[at] ^= 1; // a byte of the content, or of the hash itself
    assert.throws(() => unsealBytes(changed), ContentHashMismatch, `byte ${at}`);
  }
  assert.equal(unsealBytes(bytes), undefined, 'gzip bytes with no seal');
  assert.equal(unsealBytes(sealed.subarray(0, 30)), undefined, 'cut inside its first line');
  assert.throws(() => unsealBytes(sealed.subarray(0, sealed.length - 3)), ContentHashMismatch, 'cut short');
});

test('sealJson / unsealJson: the hash covers the text as written; any change is caught; unsealed text passes as such', () => {
  const text = '{"a":[1,2,3],"b":"x"}\n';
  const sealed = sealJson(text);
  assert.deepEqual(unsealJson(sealed), { text, sealed: true });
  assert.deepEqual(JSON.parse(sealed).b, 'x');
  assert.throws(() => unsealJson(sealed.replace('[1,2,3]', '[3,2,1]')), ContentHashMismatch);
  assert.deepEqual(unsealJson(text), { text, sealed: false });
  // From the file's bytes: the same result, non-ASCII text included (the hash is over UTF-8 either way).
  const accented = sealJson('{"title":"caf\u00e9 \u{1F600}"}');
  assert.deepEqual(unsealJson(Buffer.from(accented)), unsealJson(accented));
  assert.throws(() => unsealJson(Buffer.from(accented.replace('caf', 'cof'))), ContentHashMismatch);
  assert.deepEqual(unsealJson(Buffer.from(text)), { text, sealed: false });
});

/** Rewrites a saved run with `edit` applied, keeping the content hash it had: an edit made by hand. */
function editKeepingHash(path: string, edit: (saved: SavedRun) => void): void {
  const head = runFileText(readFileSync(path)).slice(0, 77); // {"sha256":"<64 hex>",
  const saved = loadSavedRun(path);
  edit(saved);
  const rewritten = runFileText(encodeRunFile(saved));
  writeFileSync(path, gzipSync(head + rewritten.slice(77)));
}

/** The ranked lists in reverse order: a valid run, just not the one Ranklab made. */
const reverseLists = (saved: SavedRun) => {
  for (const q of saved.queries) q.docs = [...q.docs].reverse().map((d, i, all) => ({ id: d.id, score: all.length - i }));
};

function setup() {
  const ws = copyOfExample();
  const state = tempDir();
  const log: string[] = [];
  const specs = parseMetricList(['ndcg@10']);
  const evaluate = async () => {
    const session = RanklabSession.open(ws, { stateDir: state, log: (m) => log.push(m) });
    log.length = 0;
    return evaluateConfig(session, session.resolveConfig('baseline'), {
      specs,
      metricOptions: { gain: 'exp', relevanceThreshold: 1 },
      reuse: true,
    });
  };
  return { ws, log, evaluate };
}

test('a saved run whose lists were edited is not reused: it is run again (logged), and the fresh lists are used', async () => {
  const { log, evaluate } = setup();
  const first = await evaluate();
  assert.equal((await evaluate()).reused, true, 'unchanged: reused');
  editKeepingHash(first.path!, reverseLists);
  const again = await evaluate();
  assert.equal(again.reused, false, 'edited: not reused');
  assert.ok(
    log.some((m) => /^baseline: not reusing .*content hash does not match.*running the config again/.test(m)),
    log.join('\n'),
  );
  assert.deepEqual(
    [...again.run].map(([q, docs]) => [q, docs.map((d) => d.id)]),
    [...first.run].map(([q, docs]) => [q, docs.map((d) => d.id)]),
  );
  assert.equal(again.evaluation.means['ndcg@10'], first.evaluation.means['ndcg@10']);
});

test('a saved run without a content hash (an older Ranklab) is readable but not reused', async () => {
  const { log, evaluate } = setup();
  const first = await evaluate();
  writeRunText(first.path!, readRunText(first.path!)); // the same content, no hash
  assert.equal(readSavedRun(first.path!).sealed, false);
  assert.equal((await evaluate()).reused, false);
  assert.ok(
    log.some((m) => /^baseline: not reusing .*: it has no content hash/.test(m)),
    log.join('\n'),
  );
});

test('compare --baseline FILE: an edited run is exit 2 naming the file; a run without a hash is used with a warning', async () => {
  const { ws, evaluate } = setup();
  const { path } = await evaluate();
  const file = path!;
  const saved = loadSavedRun(file);
  editKeepingHash(file, reverseLists);
  assert.throws(
    () => loadSavedRun(file),
    (e: InputError) => e instanceof InputError && e.message.startsWith(file) && /content hash does not match/.test(e.message),
  );
  const args = ['compare', '--workspace', ws, '--baseline', file, '--candidate', 'title-boost-3', '--format', 'json'];
  const edited = ranklab(args);
  assert.equal(edited.code, 2, edited.stderr);
  assert.ok(edited.stderr.includes(file) && /content hash does not match/.test(edited.stderr), edited.stderr);

  writeRunText(file, JSON.stringify({ ...saved, format: 'ranklab-run@1' })); // an older, unhashed run
  const older = ranklab(args);
  assert.equal(older.code, 0, older.stderr);
  assert.match(older.stderr, /warning: saved before runs carried a content hash/);
});
