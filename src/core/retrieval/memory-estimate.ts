import { freemem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import type { Document } from '../corpus/document';
import { InputError } from '../util/diagnostics';
import type { Analyzer } from './analyzer';
import { ALL_FIELDS, fieldText } from './ranking';

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
    `the lexical index of ${corpus} (${sizeOf(estimate)}) needs about ${mib(estimate.bytes)} of heap; ` +
      `${mib(heap.used)} is in use and the heap limit is ${mib(heap.limit)}, so it would end in an out-of-memory crash. ` +
      `Raise the heap (NODE_OPTIONS=--max-old-space-size=${need}, in MiB), ${OTHER_WAYS}`,
  );
}

/** The corpus's size as the estimate knows it: its indexed text, or (a postings-only index) its vocabulary. */
function sizeOf(e: LexicalMemoryEstimate | PostingsMemoryEstimate): string {
  const docs = `${e.docs.toLocaleString('en')} documents`;
  return 'terms' in e
    ? `${docs}, about ${e.terms.toLocaleString('en')} terms`
    : `${docs}, ${(e.chars / 1e6).toFixed(1)} million characters of indexed text`;
}

const OTHER_WAYS =
  'evaluate a sample of the corpus (corpus.include/exclude in ranklab.json), or measure the engine the corpus lives in through an engine adapter (docs/engines.md)';

/**
 * The postings-only index (postings/build.ts, from POSTINGS_ONLY_FROM documents) keeps most of its weight outside
 * the heap, in typed arrays: ~12 bytes a posting at the build's peak (3-4 gathered as varints, 8 laid out; measured
 * 11.2 at 1M: docs/scaling.md), the front-coded vocabulary (~8-10 bytes a term, postings/vocabulary.ts). On the heap,
 * while it is built: the terms as a Map of strings to numbers and their sorted copy (61 bytes a term measured with 2
 * million made-up terms of 5-7 letters, `bench/vocabulary.mts`; rounded up to 80 for longer words; the radix tree
 * this replaced took ~250 more), and the ids (array + Set: ~64 bytes a document); once built, and loaded from its
 * cache, only the ids. Postings and terms are not known before the build: they are extrapolated from an evenly
 * spread sample of the documents, the terms by Heaps' law (V = K·T^β, β fitted on the two halves of the sample, at
 * least 0.6: a small sample underestimates the rare terms (a test measures it)).
 */
export const BYTES_PER_POSTING = 12;
export const HEAP_BYTES_PER_TERM = 80;
export const HEAP_BYTES_PER_DOC = 64;
const SAMPLE_DOCS = 2000;
const MIN_HEAPS_BETA = 0.6;

export interface PostingsMemoryEstimate extends LexicalMemoryEstimate {
  postings: number;
  terms: number;
  /** Typed arrays (outside the V8 heap; `bytes` is the heap part). */
  offHeapBytes: number;
}

export function estimatePostingsMemory(docs: readonly Document[], fields: readonly string[], analyzer: Analyzer): PostingsMemoryEstimate {
  const { chars } = estimateLexicalMemory(docs, fields);
  const n = docs.length;
  const step = Math.max(1, n / SAMPLE_DOCS);
  const vocabulary = new Set<string>();
  let sampleChars = 0;
  let postings = 0;
  let tokens = 0;
  let half = { tokens: 0, terms: 0 };
  for (let i = 0, k = 0; i < n; k++, i = Math.floor(k * step)) {
    const doc = docs[i]!; // i < n
    sampleChars += estimateLexicalMemory([doc], fields).chars;
    for (const field of fields) {
      const text = fieldText(doc, field) as string | null | undefined;
      if (text == null) continue;
      const inField = new Set<string>();
      for (const token of analyzer.tokenize(String(text))) {
        const processed = analyzer.processTerm(token) as string | string[] | null | undefined;
        for (const t of Array.isArray(processed) ? processed : processed ? [processed] : []) {
          inField.add(t);
          vocabulary.add(t);
          tokens++;
        }
      }
      postings += inField.size;
    }
    if (k === Math.floor(Math.min(n, SAMPLE_DOCS) / 2)) half = { tokens, terms: vocabulary.size };
  }
  const scale = sampleChars > 0 ? chars / sampleChars : 1;
  const beta =
    half.tokens > 0 && tokens > half.tokens && half.terms > 0
      ? Math.min(1, Math.max(MIN_HEAPS_BETA, Math.log(vocabulary.size / half.terms) / Math.log(tokens / half.tokens)))
      : 1;
  const totalPostings = Math.round(postings * scale);
  const terms = Math.round(Math.min(tokens * scale, vocabulary.size * scale ** beta));
  const lists = terms * fields.length;
  const offHeapBytes = BYTES_PER_POSTING * totalPostings + 20 * lists + (4 * fields.length + 8) * n;
  const bytes = HEAP_BYTES_PER_TERM * terms + HEAP_BYTES_PER_DOC * n;
  return { docs: n, chars, bytes, postings: totalPostings, terms, offHeapBytes };
}

/**
 * A cached postings-only index as it will be once read (its file's header: exact counts, no sampling): on the heap the
 * ids (the vocabulary is typed arrays there, no Map of terms), the typed arrays at their size in the file.
 */
export function cachedPostingsMemory(shape: {
  documentCount: number;
  terms: number;
  postings: number;
  arrayBytes: number;
}): PostingsMemoryEstimate {
  return {
    docs: shape.documentCount,
    chars: 0,
    bytes: HEAP_BYTES_PER_DOC * shape.documentCount,
    postings: shape.postings,
    terms: shape.terms,
    offHeapBytes: shape.arrayBytes,
  };
}

/**
 * The postings-only index's check: its heap part as checkLexicalFits checks an index, its typed arrays against the
 * memory the system reports available (MemAvailable on Linux), at most HEADROOM of it. Throws an InputError (exit 2).
 */
export function checkPostingsFit(
  estimate: PostingsMemoryEstimate,
  corpus: string,
  heap: HeapState = currentHeap(),
  available: number = freemem(),
): void {
  checkLexicalFits(estimate, corpus, heap);
  if (estimate.offHeapBytes <= available * HEADROOM) return;
  throw new InputError(
    `the lexical index of ${corpus} (${estimate.docs.toLocaleString('en')} documents, about ${(estimate.postings / 1e6).toFixed(1)} million postings estimated) ` +
      `needs about ${mib(estimate.offHeapBytes)} of memory outside the heap while it is built, and ${mib(available)} is available on this machine, ` +
      `so it would not fit. Free memory, ${OTHER_WAYS}`,
  );
}

function mib(n: number): string {
  return n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(1)} GiB` : `${(n / 1024 ** 2).toFixed(0)} MiB`;
}
