/**
 * Saved-run files. In memory a run is always the expanded `SavedRun`; files are written as `ranklab-run@4` and read
 * in every version, one module per version (file names: run-files.ts):
 * - `ranklab-run@1`: the expanded object as JSON (one object per ranked document, every key repeated).
 * - `ranklab-run@2`: compact JSON (ids once, ranks as indexes, titles once, short scores): run-format-v2.ts.
 * - `ranklab-run@3`: the `@2` layout without the id table and derivable stage ranks (run-format-v3.ts), gzipped:
 *   one gzip member, recognised by its first two bytes (1f 8b); such files are named `.json`.
 * - `ranklab-run@4`: the `@3` values in columns (run-format-v4.ts), gzipped, named `.json.gz`.
 *   `ranklab show-run FILE` prints any of them as plain JSON or TREC.
 * Files written now carry the sha256 of their JSON text as its first member (util/content-hash.ts), checked on
 * every read: a run edited after Ranklab wrote it is refused (see readSavedRun).
 */
import { readFileSync } from 'node:fs';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { sealJson, unsealJson } from '../util/content-hash';
import { InputError } from '../util/diagnostics';
import type { SavedRun } from './types';
import { canonicalStageNames } from './stages';
import { RUN_FORMAT_V2, decodeRunV2 } from './run-format-v2';
import { RUN_FORMAT_V3, decodeRunV3 } from './run-format-v3';
import { RUN_FORMAT_V4, decodeRunV4, encodeRunV4 } from './run-format-v4';

export const RUN_FORMAT = RUN_FORMAT_V4;
export const RUN_FORMATS = ['ranklab-run@1', RUN_FORMAT_V2, RUN_FORMAT_V3, RUN_FORMAT_V4] as const;
export type RunFormat = (typeof RUN_FORMATS)[number];

/**
 * The bytes of a saved-run file in the current format. Z_FILTERED: the file is mostly short numbers, which Huffman
 * codes better as literals than as the short matches the default strategy takes (a hybrid run 5% smaller); still one
 * plain gzip member.
 */
export function encodeRunFile(saved: SavedRun): Buffer {
  return gzipSync(sealJson(JSON.stringify(encodeRunV4(saved)) + '\n'), { level: 9, memLevel: 9, strategy: constants.Z_FILTERED });
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** A run as plain, readable JSON: the expanded shape, which is format `@1` (`ranklab show-run`, Export Run → JSON). */
export function expandedRunJson(saved: SavedRun): string {
  return JSON.stringify({ ...saved, format: 'ranklab-run@1' }, null, 2) + '\n';
}

/** The JSON text of a run file's bytes (gunzipped when it is a gzip member). */
export function runFileText(bytes: Buffer): string {
  return runFileBytes(bytes).toString('utf8');
}

/** The JSON bytes of a run file (gunzipped when it is a gzip member). */
function runFileBytes(bytes: Buffer): Buffer {
  return isGzip(bytes) ? gunzipSync(bytes) : bytes;
}

/**
 * The expanded run of a file's parsed JSON (any version), its stage names in their current spelling (a run saved
 * as `fused` reads as `fuse`: stages.ts); other values are returned unchanged for the checks to name.
 */
export function decodeRun(value: unknown): unknown {
  const format = (value as { format?: unknown } | null)?.format;
  return canonicalStageNames(
    format === RUN_FORMAT_V4
      ? decodeRunV4(value)
      : format === RUN_FORMAT_V3
        ? decodeRunV3(value)
        : format === RUN_FORMAT_V2
          ? decodeRunV2(value)
          : value,
  );
}

/** A saved run file of any format, expanded; an InputError naming the file when it is not a usable run. */
export function loadSavedRun(path: string): SavedRun {
  return readSavedRun(path).saved;
}

/**
 * A saved run file, expanded, and whether it carried a content hash (`sealed`; runs written before hashes did
 * not). An InputError naming the file when it is not a usable run, or when its hash does not match its content.
 */
export function readSavedRun(path: string): { saved: SavedRun; sealed: boolean } {
  let data: SavedRun;
  let sealed: boolean;
  try {
    const unsealed = unsealJson(runFileBytes(readFileSync(path)));
    sealed = unsealed.sealed;
    data = decodeRun(JSON.parse(unsealed.text)) as SavedRun;
  } catch (e) {
    throw new InputError(`${path}: not a readable saved run (${(e as Error).message})`);
  }
  const problem = checkSavedRun(data);
  if (problem) throw new InputError(`${path}: not a usable Ranklab saved run: ${problem}`);
  return { saved: data, sealed };
}

/** Said of a run given by name that has no content hash: it is used, unverified. */
export const UNSEALED_RUN_WARNING = 'saved before runs carried a content hash, so it cannot be checked for edits; used as it is';

/** Minimal structural check of a saved run; returns what is wrong, or undefined. */
export function checkSavedRun(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null) return 'not a JSON object';
  const r = v as Record<string, unknown>;
  if (!RUN_FORMATS.includes(r.format as never))
    return `format is ${JSON.stringify(r.format)}, expected ${RUN_FORMATS.map((f) => `"${f}"`).join(' or ')}`;
  const prov = r.provenance as Record<string, unknown> | undefined;
  if (!prov || typeof prov.config !== 'string' || typeof prov.createdAt !== 'string')
    return 'provenance.config and provenance.createdAt are required';
  if (!Array.isArray(r.metricSpecs)) return 'metricSpecs must be a list';
  if (typeof r.metrics !== 'object' || r.metrics === null) return 'metrics must be an object';
  if (!Array.isArray(r.queries)) return 'queries must be a list';
  for (const [i, q] of (r.queries as unknown[]).entries()) {
    const qr = q as Record<string, unknown>;
    if (!qr || typeof qr.qid !== 'string' || !Array.isArray(qr.docs) || typeof qr.metrics !== 'object') {
      return `queries[${i}] needs qid, docs and metrics`;
    }
  }
  return undefined;
}
