import { getHeapStatistics } from 'node:v8';
import type { Document } from '../corpus/document';
import { InputError } from '../util/diagnostics';
import { ALL_FIELDS } from './ranking';

/**
 * The heap a lexical index (MiniSearch's term tree and postings) will take, estimated before it is built, so that a
 * corpus too large for the heap is refused with advice instead of ending in V8's "FATAL ERROR: Reached heap limit"
 * after minutes of work (issue 32). Calibrated with `bench/streaming.ts` on synthetic corpora over a real vocabulary
 * (docs/scaling.md): the retained heap grows by ~4.4 bytes per character of indexed text, on top of ~20 MB for the
 * vocabulary; the build's garbage on top of that is covered by HEADROOM.
 */
export const BYTES_PER_CHAR = 4.4;
export const BASE_BYTES = 20 * 1024 * 1024;
/** Share of the heap limit the live heap may reach: V8 needs room to collect (and fails, slowly, near the limit). */
export const HEADROOM = 0.8;

export interface LexicalMemoryEstimate {
  docs: number;
  /** Characters of the text the index's fields hold. */
  chars: number;
  bytes: number;
}

export function estimateLexicalMemory(docs: readonly Document[], fields: readonly string[]): LexicalMemoryEstimate {
  let chars = 0;
  for (const d of docs) {
    for (const f of fields) {
      if (f === ALL_FIELDS) {
        chars += d.title.length + d.body.length;
        for (const v of Object.values(d.fields)) chars += v.length;
      } else chars += f === 'title' ? d.title.length : f === 'body' ? d.body.length : (d.fields[f]?.length ?? 0);
    }
  }
  return { docs: docs.length, chars, bytes: Math.round(BASE_BYTES + BYTES_PER_CHAR * chars) };
}

export interface HeapState {
  used: number;
  limit: number;
}

export function currentHeap(): HeapState {
  const h = getHeapStatistics();
  return { used: h.used_heap_size, limit: h.heap_size_limit };
}

/**
 * Throws an InputError (exit 2 in the CLI) when the index would not fit: naming the corpus, the estimate, the limit,
 * and what to do about it.
 */
export function checkLexicalFits(estimate: LexicalMemoryEstimate, corpus: string, heap: HeapState = currentHeap()): void {
  const usable = heap.limit * HEADROOM;
  if (heap.used + estimate.bytes <= usable) return;
  const need = Math.ceil((heap.used + estimate.bytes) / HEADROOM / (1024 * 1024) / 256) * 256;
  throw new InputError(
    `the lexical index of ${corpus} (${estimate.docs.toLocaleString('en')} documents, ${(estimate.chars / 1e6).toFixed(1)} million characters of indexed text) needs about ${mib(estimate.bytes)} of heap; ` +
      `${mib(heap.used)} is in use and the heap limit is ${mib(heap.limit)}, so it would end in an out-of-memory crash. ` +
      `Raise the heap (NODE_OPTIONS=--max-old-space-size=${need}, in MiB), evaluate a sample of the corpus (corpus.include/exclude in ranklab.json), ` +
      'or measure the engine the corpus lives in through an engine adapter (docs/engines.md)',
  );
}

function mib(n: number): string {
  return n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(1)} GiB` : `${(n / 1024 ** 2).toFixed(0)} MiB`;
}
