// Saved run files as tests read and tamper with them: the current formats (ranklab-run@3 and @4) are gzipped JSON.
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { runFileText } from '../../src/core/run/run-format';

/** A saved run file's JSON text (gunzipped when it is gzipped). */
export function readRunText(path: string): string {
  return runFileText(readFileSync(path));
}

export function readRunJson(path: string): any {
  return JSON.parse(readRunText(path));
}

/** Writes a run file's JSON text back gzipped, as the writer does. */
export function writeRunText(path: string, text: string): void {
  writeFileSync(path, gzipSync(text));
}

export function writeRunJson(path: string, value: unknown): void {
  writeRunText(path, JSON.stringify(value));
}
