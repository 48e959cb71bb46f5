// Saved run files as tests read and tamper with them: the current formats (ranklab-run@3 and @4) are gzipped JSON.
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { runFileText } from '../../src/core/run/run-format';
import { sealJson, unsealJson } from '../../src/core/util/content-hash';
import { decodeRunV2, encodeRunV2 } from '../../src/core/run/run-format-v2';
import type { SavedQueryResult, SavedRun } from '../../src/core/run/types';

/** A small saved run around `queries` (format tests). */
export function savedRun(queries: SavedQueryResult[], extra: Partial<SavedRun> = {}): SavedRun {
  return {
    format: 'ranklab-run@4',
    provenance: { config: 'c', createdAt: '2026-12-03T10:00:00.000Z', tool: 't' },
    config: { name: 'c' },
    metricSpecs: ['ndcg@10'],
    metrics: { 'ndcg@10': 0.5 },
    latency: { total: { p50: 1, p99: 2 } },
    queries,
    ...extra,
  };
}

/** What the @2 layout gives back for `saved`: the reference @3 and @4 must equal. */
export const viaV2 = (saved: SavedRun) => decodeRunV2(JSON.parse(JSON.stringify(encodeRunV2(saved)))) as SavedRun;
export const withoutFormat = (r: SavedRun) => ({ ...r, format: undefined });

/** A saved run file's JSON text (gunzipped when it is gzipped), without its content hash (checked). */
export function readRunText(path: string): string {
  return unsealJson(runFileText(readFileSync(path))).text;
}

export function readRunJson(path: string): any {
  return JSON.parse(readRunText(path));
}

/** Writes a run file's JSON text back gzipped, without a content hash (as a run of an older Ranklab, or an edit). */
export function writeRunText(path: string, text: string): void {
  writeFileSync(path, gzipSync(text));
}

/** Writes a run as Ranklab's writer would, with its content hash: a run made from other inputs, not an edit. */
export function writeRunJson(path: string, value: unknown): void {
  writeRunText(path, sealJson(JSON.stringify(value)));
}
