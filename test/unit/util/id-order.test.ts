import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareIdBytes } from '../../../src/core/util/id-order';
import { createRng } from '../../../src/core/util/random';
import { evaluateRun, parseMetricList } from '../../../src/core/metrics';
import { readTrecRun } from '../../../src/core/run/trec-run';
import { compareScored } from '../../../src/core/retrieval/ranking';
import { idOrderOf } from '../../../src/core/retrieval/lexical';
import { judgmentsOf } from '../../helpers/judgments';

// U+10000 is F0 90 80 80 in UTF-8, U+E000 is EE 80 80: by bytes (trec_eval's strcmp) the first is the larger;
// in UTF-16 it is D800 DC00 against E000, the smaller.
const SUPPLEMENTARY = 'a\u{10000}';
const PRIVATE_USE = 'a\uE000';
const sign = (x: number) => Math.sign(x) || 0;

test('compareIdBytes orders as the UTF-8 bytes do, on the surrogate case and on random ids', () => {
  assert.equal(sign(compareIdBytes(SUPPLEMENTARY, PRIVATE_USE)), 1);
  const next = createRng(11);
  const alphabet = ['a', 'b', '0', '\u00e9', '\ud7ff', '\ue000', '\uffff', '\u{10000}', '\u{1f600}', '\u{10ffff}'];
  const id = () => Array.from({ length: 1 + Math.floor(next() * 3) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
  for (let k = 0; k < 3000; k++) {
    const a = id();
    const b = id();
    assert.equal(
      sign(compareIdBytes(a, b)),
      sign(Buffer.compare(Buffer.from(a), Buffer.from(b))),
      `${JSON.stringify(a)} vs ${JSON.stringify(b)}`,
    );
  }
});

test('tied scores in a TREC run: the supplementary-plane id sorts first (docid descending by bytes), MRR 1 as trec_eval', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-ties-'));
  const path = join(dir, 'run.txt');
  // The file lists the private-use id first; both orders of the lines must give the same ranking.
  writeFileSync(path, `q1 Q0 ${PRIVATE_USE} 1 1.0 t\nq1 Q0 ${SUPPLEMENTARY} 2 1.0 t\n`);
  const { run } = readTrecRun(path);
  assert.deepEqual(
    run.get('q1')!.map((d) => d.id),
    [SUPPLEMENTARY, PRIVATE_USE],
  );
  // Hand computed: the one relevant document is at rank 1, so RR = 1/1 (UTF-16 order put it at rank 2: 0.5).
  const ev = evaluateRun(run, judgmentsOf({ q1: { [SUPPLEMENTARY]: 1 } }), parseMetricList('mrr'));
  assert.equal(ev.means.mrr, 1);
});

test('the built-in engine breaks ties the same way (compareScored, the lexical id order)', () => {
  const hits = [
    { id: PRIVATE_USE, score: 2 },
    { id: SUPPLEMENTARY, score: 2 },
    { id: 'z', score: 3 },
  ];
  assert.deepEqual(
    [...hits].sort(compareScored).map((h) => h.id),
    ['z', SUPPLEMENTARY, PRIVATE_USE],
  );
  const order = idOrderOf([PRIVATE_USE, SUPPLEMENTARY]);
  assert.ok(order.get(SUPPLEMENTARY)! < order.get(PRIVATE_USE)!);
});
