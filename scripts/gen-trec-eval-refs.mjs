#!/usr/bin/env node
// Regenerates the trec_eval 10.0 reference outputs committed under test/data/trec_eval/ (run once; CI does not
// build trec_eval, the tests read the committed files). Usage:
//   node scripts/gen-trec-eval-refs.mjs [--trec-eval PATH]   (default: build ../shared/tools/trec_eval in a temp dir)
// Writes, for each shared collection's BM25 run and for the adversarial run generated below:
//   NAME.txt     trec_eval -q -c -m bpref -m infAP -m Rprec -m success.1,5,10 -m rbp_resid.p=0.8
//   NAME.J.txt   trec_eval -q -c -J -m ndcg_cut.5,10 -m map -m P.5,10          (condensed lists)
// and for the adversarial run also NAME.l2.txt / NAME.l2.J.txt with -l 2 (relevant = grade >= 2).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const SHARED = process.env.RANKLAB_SHARED ?? resolve(ROOT, '../shared');
const OUT = join(ROOT, 'test/data/trec_eval');
const COLLECTIONS = ['adi', 'cacm', 'cisi', 'cranfield', 'lisa', 'med'];
const MAIN = ['-m', 'bpref', '-m', 'infAP', '-m', 'Rprec', '-m', 'success.1,5,10', '-m', 'rbp_resid.p=0.8'];
const CONDENSED = ['-J', '-m', 'ndcg_cut.5,10', '-m', 'map', '-m', 'P.5,10'];

function trecEvalBinary() {
  const i = process.argv.indexOf('--trec-eval');
  if (i > 0) return process.argv[i + 1];
  const dir = join(mkdtempSync(join(tmpdir(), 'trec-eval-')), 'te');
  cpSync(join(SHARED, 'tools/trec_eval'), dir, { recursive: true });
  execFileSync('make', ['-C', dir], { stdio: 'ignore' });
  return join(dir, 'trec_eval');
}

/** trec_eval pads measure names with spaces; one tab between columns keeps the files small. */
function run(bin, args, qrels, runFile, out) {
  const text = execFileSync(bin, ['-q', '-c', ...args, qrels, runFile], { encoding: 'utf8', maxBuffer: 1 << 28 });
  writeFileSync(
    out,
    text
      .split('\n')
      .filter(Boolean)
      .map((l) => l.trim().split(/\s+/).join('\t'))
      .join('\n') + '\n',
  );
}

/** mulberry32: a small seeded PRNG, so the adversarial run is the same on every regeneration. */
function prng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Queries built to break implementations that differ from trec_eval: exact score ties between ids whose string
 * order differs from their numeric order ("9" > "10" > "100"), unjudged documents on top, lists shorter than the
 * cut-offs and than R, queries judged but absent from the run (-c scores them 0), run queries without judgments,
 * queries with no relevant or no judged non-relevant document, graded 0-3 judgments. Then random queries.
 */
function adversarial() {
  const qrels = [];
  const runLines = [];
  const judge = (q, d, g) => qrels.push(`${q} 0 ${d} ${g}`);
  const rank = (q, docs) => docs.forEach(([d, s], i) => runLines.push(`${q} Q0 ${d} ${i + 1} ${s} adv`));
  // 1: a tie group spanning ranks 1-4 whose docid-descending order puts the relevant ones last.
  ['9', '10', '100', '1000'].forEach((d, i) => judge(1, d, i < 2 ? 0 : 3));
  rank(1, [
    ['1000', 5],
    ['100', 5],
    ['10', 5],
    ['9', 5],
    ['x1', 1],
  ]);
  // 2: unjudged documents on top, relevant ones below them.
  judge(2, 'r1', 2);
  judge(2, 'r2', 1);
  judge(2, 'n1', 0);
  rank(2, [
    ['u1', 9],
    ['u2', 8],
    ['u3', 7],
    ['r1', 6],
    ['n1', 5],
    ['r2', 4],
  ]);
  // 3: judged, but missing from the run.
  judge(3, 'a', 1);
  judge(3, 'b', 2);
  // 4: only non-relevant judgments.
  judge(4, 'a', 0);
  judge(4, 'b', 0);
  rank(4, [
    ['a', 2],
    ['c', 1],
  ]);
  // 5: no judged non-relevant document (bpref's N = 0), list shorter than R.
  for (const d of ['a', 'b', 'c', 'd', 'e']) judge(5, d, 1);
  rank(5, [
    ['z', 3],
    ['a', 2],
    ['b', 1],
  ]);
  // 6: everything retrieved is unjudged.
  judge(6, 'a', 3);
  judge(6, 'b', 0);
  rank(6, [
    ['u1', 3],
    ['u2', 2],
    ['u3', 1],
  ]);
  // 7: relevant, then many judged non-relevant, then relevant (bpref's min(n, R) cap), with ties inside.
  judge(7, 'r1', 1);
  judge(7, 'r2', 2);
  for (let i = 0; i < 8; i++) judge(7, `n${i}`, 0);
  rank(7, [['r1', 10], ...Array.from({ length: 8 }, (_, i) => [`n${i}`, 5]), ['r2', 1]]);
  // 8: run query without judgments (ignored).
  rank(8000, [['a', 1]]);
  // Random queries 100..159: 40-document pools, grades 0-3 on a random subset, scores from a few values (ties).
  const rnd = prng(18);
  for (let q = 100; q < 160; q++) {
    const pool = Array.from({ length: 40 }, (_, i) => String(Math.floor(rnd() * 1000) * 7 + i));
    const uniq = [...new Set(pool)];
    for (const d of uniq) if (rnd() < 0.45) judge(q, d, Math.floor(rnd() * 4));
    if (!qrels.some((l) => l.startsWith(`${q} `))) judge(q, uniq[0], 2);
    if (rnd() < 0.1) continue; // judged but absent from the run
    const len = Math.floor(rnd() * 30);
    const docs = uniq.slice(0, len).map((d) => [d, (Math.floor(rnd() * 6) / 2).toFixed(1)]);
    docs.sort((a, b) => Number(b[1]) - Number(a[1]));
    rank(q, docs);
  }
  return { qrels: qrels.join('\n') + '\n', run: runLines.join('\n') + '\n' };
}

const bin = trecEvalBinary();
mkdirSync(join(OUT, 'adversarial'), { recursive: true });
for (const c of COLLECTIONS) {
  const dir = join(SHARED, 'collections', c);
  run(bin, MAIN, join(dir, 'qrels.tsv'), join(dir, 'run.bm25.txt'), join(OUT, `${c}.txt`));
  run(bin, CONDENSED, join(dir, 'qrels.tsv'), join(dir, 'run.bm25.txt'), join(OUT, `${c}.J.txt`));
}
const adv = adversarial();
const aq = join(OUT, 'adversarial/qrels.txt');
const ar = join(OUT, 'adversarial/run.txt');
writeFileSync(aq, adv.qrels);
writeFileSync(ar, adv.run);
run(bin, MAIN, aq, ar, join(OUT, 'adversarial.txt'));
run(bin, CONDENSED, aq, ar, join(OUT, 'adversarial.J.txt'));
run(bin, ['-l', '2', ...MAIN], aq, ar, join(OUT, 'adversarial.l2.txt'));
run(bin, ['-l', '2', ...CONDENSED], aq, ar, join(OUT, 'adversarial.l2.J.txt'));
console.log(`trec_eval references written to ${OUT}`);
