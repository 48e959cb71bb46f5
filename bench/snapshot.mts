// npm run bench:snapshot -- [--docs N] [--runs R] [--wide SHARE] [--keep]
// The corpus snapshot (issue 32's warm start): the binary format (src/core/corpus/snapshot.ts, @3) beside the JSON
// Lines format it replaced (bench/lib/snapshot-v2.ts, @2), on the same documents, in the same run.
// A workspace of N generated records (bench/lib/corpus.mjs, issue 32's shape: 4-10 title and 60-220 body words,
// in one JSON Lines file; SHARE of the bodies, default 0.1, get an em dash, so that the wide-text path is measured)
// is read once by the real reader (loadCorpus, cold), and its snapshot written in both formats (write times). Then
// each read runs in a child process of its own with the default heap, as a warm start would: the snapshot file read,
// then loadCorpus with it (every file unchanged: nothing read but the snapshot; duplicate ids, the fingerprint).
// R rounds, old and new alternating; every read is checked against the cold documents (same ids, texts, sources).
// Prints per read: the snapshot read, the loadCorpus after it, CPU (user + system), peak RSS and the heap after.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ANALYZER } from '../src/core/config/defaults';
import type { Document } from '../src/core/corpus/document';
import { type CorpusSnapshot, loadCorpus } from '../src/core/corpus/load';
import { corpusSettings } from '../src/core/corpus/settings';
import { readSnapshotFile, writeSnapshotFile } from '../src/core/corpus/snapshot';
import { createAnalyzer } from '../src/core/retrieval/analyzer';
import { writeJsonLines } from './lib/json-lines';
import * as v2 from './lib/snapshot-v2';

const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const SHAPE = { title: [4, 10], body: [60, 220] };
const settings = corpusSettings({ include: ['data/*.jsonl'], maxRecordFileBytes: 8 * 2 ** 30 });
const FORMATS = { old: v2, new: { readSnapshotFile, writeSnapshotFile } } as const;
type Format = keyof typeof FORMATS;
const MB = 2 ** 20;

/** A short digest of the documents, to check that a read gives the cold documents back. */
function digest(docs: Document[]): string {
  let h = 0;
  let chars = 0;
  for (const d of docs) {
    for (const s of [
      d.id,
      d.title,
      d.body,
      d.hash,
      d.source.path,
      String(d.source.line),
      JSON.stringify(d.fields),
      JSON.stringify(d.meta),
    ]) {
      chars += s.length;
      for (let k = 0; k < s.length; k += 7) h = (Math.imul(h, 31) + s.charCodeAt(k)) | 0;
    }
  }
  return `${docs.length}:${chars}:${h >>> 0}`;
}

/** Child: one read of `file` in `format`, then the warm loadCorpus; prints one JSON line. */
function readOnce(format: Format, file: string, root: string): void {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const snapshot = FORMATS[format].readSnapshotFile(file) as CorpusSnapshot | undefined;
  const readMs = performance.now() - t0;
  if (!snapshot) throw new Error(`${format}: snapshot not read`);
  const t1 = performance.now();
  const r = loadCorpus(root, settings, snapshot);
  const loadMs = performance.now() - t1;
  if (r.reread.length) throw new Error(`${format}: ${r.reread.length} files read again`);
  const cpu = process.cpuUsage(cpu0);
  const out = {
    readMs,
    loadMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssMB: process.resourceUsage().maxRSS / 1024,
    heapMB: process.memoryUsage().heapUsed / MB,
    externalMB: process.memoryUsage().external / MB,
    digest: digest(r.corpus.docs),
    fingerprint: r.corpus.fingerprint,
  };
  console.log(JSON.stringify(out));
}

async function main(): Promise<void> {
  const read = opt('read') as Format | undefined;
  if (read) return readOnce(read, opt('file')!, opt('root')!);
  const n = Number(opt('docs') ?? 200_000);
  const runs = Number(opt('runs') ?? 1);
  const wide = Number(opt('wide') ?? 0.1);
  const root = mkdtempSync(join(tmpdir(), 'ranklab-bench-snapshot-'));
  try {
    // @ts-expect-error plain ES module of the bench without type declarations
    const { syntheticCorpus } = await import('./lib/corpus.mjs');
    const analyzer = createAnalyzer(DEFAULT_ANALYZER);
    const isStop = (w: string) => analyzer.processTerm(w) === null;
    let t = performance.now();
    const { docs } = syntheticCorpus(n, 0, isStop, { vectors: false, lengths: SHAPE }) as { docs: Document[] };
    mkdirSync(join(root, 'data'));
    const every = wide > 0 ? Math.round(1 / wide) : 0;
    const bytes = writeJsonLines(
      join(root, 'data', 'corpus.jsonl'),
      (function* () {
        for (const [i, d] of docs.entries())
          yield { id: d.id, title: d.title, text: every && i % every === 0 ? `${d.body} — ${d.title}` : d.body };
      })(),
    );
    docs.length = 0;
    console.log(
      `${n.toLocaleString('en')} records generated, ${(bytes / MB).toFixed(0)} MB of JSON Lines, in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    t = performance.now();
    const cold = loadCorpus(root, settings);
    const coldDigest = digest(cold.corpus.docs);
    console.log(`cold loadCorpus (the JSON Lines reader): ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const files: Record<Format, string> = { old: join(root, 'snapshot-v2.jsonl'), new: join(root, 'snapshot-v3.bin') };
    for (const f of ['old', 'new'] as const) {
      t = performance.now();
      FORMATS[f].writeSnapshotFile(files[f], cold.snapshot);
      console.log(`write ${f}: ${((performance.now() - t) / 1000).toFixed(2)} s, ${(statSync(files[f]).size / MB).toFixed(0)} MB`);
    }
    const fingerprint = cold.corpus.fingerprint;
    cold.corpus.docs.length = 0;
    cold.snapshot.files.clear();
    // the reads run with the default heap, whatever the parent was given
    const childArgv = process.execArgv.filter((a) => !a.startsWith('--max-old-space-size'));
    const rows: Record<Format, Array<Record<string, number>>> = { old: [], new: [] };
    for (let r = 0; r < runs; r++) {
      for (const f of ['old', 'new'] as const) {
        const child = spawnSync(process.execPath, [...childArgv, process.argv[1]!, '--read', f, '--file', files[f], '--root', root], {
          encoding: 'utf8',
          maxBuffer: 16 * MB,
        });
        if (child.status !== 0) throw new Error(`child ${f} failed: ${child.stderr}`);
        const row = JSON.parse(child.stdout.trim().split('\n').pop()!) as Record<string, number> & { digest: string; fingerprint: string };
        if (row.digest !== coldDigest || row.fingerprint !== fingerprint)
          throw new Error(`${f}: the documents read back differ from the cold ones`);
        rows[f].push(row);
        console.log(
          `read ${f} (round ${r + 1}): snapshot ${(row.readMs / 1000).toFixed(2)} s + loadCorpus ${(row.loadMs / 1000).toFixed(2)} s, ` +
            `CPU ${(row.cpuMs / 1000).toFixed(2)} s, peak RSS ${row.peakRssMB.toFixed(0)} MB, heap ${row.heapMB.toFixed(0)} MB + external ${row.externalMB.toFixed(0)} MB`,
        );
      }
    }
    const min = (f: Format, k: string) => Math.min(...rows[f].map((x) => x[k]!));
    console.log(
      `best of ${runs}: snapshot read old ${(min('old', 'readMs') / 1000).toFixed(2)} s, new ${(min('new', 'readMs') / 1000).toFixed(2)} s ` +
        `(${(min('old', 'readMs') / min('new', 'readMs')).toFixed(1)}x); with loadCorpus old ${((min('old', 'readMs') + min('old', 'loadMs')) / 1000).toFixed(2)} s, ` +
        `new ${((min('new', 'readMs') + min('new', 'loadMs')) / 1000).toFixed(2)} s; documents read back identical`,
    );
  } finally {
    if (argv.includes('--keep')) console.log(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

await main();
