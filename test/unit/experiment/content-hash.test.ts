// Saved runs carry the sha256 of their content and are checked on every read: a run edited after Ranklab wrote it
// is never reused as if Ranklab had made it (it is run again), and one named on the command line is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { parseMetricList } from '../../../src/core/metrics/spec';
import { encodeRunFile, loadSavedRun, readSavedRun, runFileText } from '../../../src/core/run/run-format';
import type { SavedRun } from '../../../src/core/run/types';
import { evaluateConfig } from '../../../src/core/session/evaluate';
import { RanklabSession } from '../../../src/core/session/session';
import { ContentHashMismatch, sealGzip, sealJson, unsealGzip, unsealJson } from '../../../src/core/util/content-hash';
import { InputError } from '../../../src/core/util/diagnostics';
import { ranklab } from '../../helpers/cli';
import { readRunText, writeRunText } from '../../helpers/runs';
import { copyOfExample, tempDir } from '../../helpers/workspace';

test('sealGzip / unsealGzip: the sha256 of the compressed data in the gzip comment; still gzip; any changed byte is caught', () => {
  const text = '{"a":[1,2,3],"title":"caf\u00e9 \u{1F600}"}';
  const gzip = gzipSync(text);
  const sealed = sealGzip(gzip);
  assert.equal(gunzipSync(sealed).toString('utf8'), text, 'a gzip file any tool reads');
  // RFC 1952 read apart: FLG has FCOMMENT alone; the comment (to its NUL) after the 10-byte header holds the hash of
  // what follows it, which is gzipSync's deflate data and trailer as they were.
  assert.equal(sealed[3], 0x10);
  const end = sealed.indexOf(0, 10);
  const rest = sealed.subarray(end + 1);
  assert.equal(sealed.toString('latin1', 10, end), `ranklab-sha256:${createHash('sha256').update(rest).digest('hex')}`);
  assert.deepEqual(rest, gzip.subarray(10));
  assert.equal(unsealGzip(sealed), sealed);
  for (const at of [end + 1, sealed.length - 1, 30]) {
    const changed = Buffer.from(sealed);
    changed[at] ^= 1; // a byte of the data, of the trailer, or of the stored hash itself
    assert.throws(() => unsealGzip(changed), ContentHashMismatch, `byte ${at}`);
  }
  assert.equal(unsealGzip(gzip), undefined, 'plain gzip (no seal)');
  assert.equal(unsealGzip(Buffer.from(text)), undefined, 'not gzip');
  assert.equal(unsealGzip(sealed.subarray(0, 40)), undefined, 'cut inside its header');
  assert.throws(() => unsealGzip(sealed.subarray(0, sealed.length - 3)), ContentHashMismatch, 'cut short');
  assert.throws(() => sealGzip(sealed), /without header fields/, 'sealed twice');
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
