import { freemem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import type { Document } from '../corpus/document';
import { InputError } from '../util/diagnostics';
import { Mulberry32 } from '../util/random';
import type { Analyzer } from './analyzer';
import { ALL_FIELDS, fieldText } from './ranking';

/**
 * The heap a lexical index (MiniSearch's term tree and postings) will take, estimated before it is built or loaded,
 * so that a corpus too large for the heap is refused with advice instead of ending in V8's "FATAL ERROR: Reached heap
 * limit" after minutes of work (issue 32). MiniSearch keeps a Map of documents per term and field and a tree node per
 * term, so its heap follows the postings and the vocabulary, not the characters: fitted on seven corpora (three real
 * collections, generated ones with a closed and with an open vocabulary, 1k-60k documents: docs/scaling.md) the
 * retained heap is 49 bytes a posting + 513 a term within 8%. An estimate from characters alone (4.4 bytes each, as
 * before) was half the heap of a corpus with many rare terms, and such corpora crashed V8 after the check had passed.
 */
export const MINISEARCH_BYTES_PER_POSTING = 52;
export const MINISEARCH_BYTES_PER_TERM = 520;
/** Share of the old space the live heap may reach: the build's garbage, and V8's room to collect. */
export const HEADROOM = 0.8;

/** Documents and extrapolated counts of the index a corpus will make. */
export interface IndexShape {
  docs: number;
  /** Characters of the text the index's fields hold. */
  chars: number;
  /** (term, field, document) triples, extrapolated from a sample. */
  postings: number;
  /** Distinct terms, extrapolated from a sample. */
  terms: number;
}

export interface LexicalMemoryEstimate extends IndexShape {
  bytes: number;
}

export function indexedChars(docs: readonly Document[], fields: readonly string[]): number {
  let chars = 0;
  for (const d of docs) {
    for (const f of fields) {
      if (f === ALL_FIELDS) {
        chars += d.title.length + d.body.length;
        for (const v of Object.values(d.fields)) chars += v.length;
      } else chars += f === 'title' ? d.title.length : f === 'body' ? d.body.length : (d.fields[f]?.length ?? 0);
    }
  }
  return chars;
}

export function estimateLexicalMemory(docs: readonly Document[], fields: readonly string[], analyzer: Analyzer): LexicalMemoryEstimate {
  const shape = sampleIndexShape(docs, fields, analyzer);
  return { ...shape, bytes: MINISEARCH_BYTES_PER_POSTING * shape.postings + MINISEARCH_BYTES_PER_TERM * shape.terms };
}

/** Whether the full (MiniSearch) index fits; when not, why, for the postings-only index built instead. */
export type MiniSearchVerdict = { fits: true; warning?: string } | { fits: false; why: string };

/**
 * The full index's check, without sampling when even the most an index of these characters could hold fits: every
 * posting and every term needs a token, and a token takes at least a character and a separator.
 */
export function miniSearchVerdict(
  docs: readonly Document[],
  fields: readonly string[],
  analyzer: Analyzer,
  heap: HeapState = currentHeap(),
  env: NodeJS.ProcessEnv = process.env,
): MiniSearchVerdict {
  const mostTokens = indexedChars(docs, fields) / 2 + docs.length * fields.length;
  if (heap.used + (MINISEARCH_BYTES_PER_POSTING + MINISEARCH_BYTES_PER_TERM) * mostTokens <= usableHeap(heap)) return { fits: true };
  const estimate = estimateLexicalMemory(docs, fields, analyzer);
  if (fitsHeap(estimate, heap)) return { fits: true };
  if (env[HEAP_CHECK_ENV] === 'off') return { fits: true, warning: overHeap(estimate, heap) };
  return {
    fits: false,
    why:
      `the full index (${sizeOf(estimate)}) would need about ${mib(estimate.bytes)} of heap beside ${mib(heap.used)} in use, ` +
      `over the ${mib(usableHeap(heap))} usable (NODE_OPTIONS=--max-old-space-size=${heapToAsk(estimate, heap)} would give it room)`,
  };
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
 * V8's heap limit counts the young generation (3 x the 16 MiB semi-space in Node 20 on 64 bits: 176 MiB for
 * --max-old-space-size=128, 4,144 for the default 4,096), which an index outlives: only the old space holds one.
 * Checking against the whole limit admitted, with a 128 MiB old space, corpora whose build then crashed V8.
 */
export const YOUNG_GENERATION_BYTES = 48 * 1024 * 1024;

/** The heap an index may fill: HEADROOM of the old space. */
export function usableHeap(heap: HeapState): number {
  return (heap.limit - Math.min(YOUNG_GENERATION_BYTES, heap.limit / 3)) * HEADROOM;
}

/** Set to `off` to build an index the check refuses (the estimate errs high; V8 may then end in its crash). */
export const HEAP_CHECK_ENV = 'RANKLAB_HEAP_CHECK';

const fitsHeap = (estimate: LexicalMemoryEstimate, heap: HeapState) => heap.used + estimate.bytes <= usableHeap(heap);
/** The old space (MiB, a multiple of 256) in which the heap in use and the estimate fit. */
const heapToAsk = (estimate: LexicalMemoryEstimate, heap: HeapState) =>
  Math.ceil((heap.used + estimate.bytes) / HEADROOM / (1024 * 1024) / 256) * 256;
const overHeap = (estimate: LexicalMemoryEstimate, heap: HeapState) =>
  `lexical: ${mib(estimate.bytes)} of heap estimated beside ${mib(heap.used)} in use, over the ${mib(usableHeap(heap))} usable; built all the same (${HEAP_CHECK_ENV}=off)`;

/**
 * Throws an InputError (exit 2 in the CLI) when the index would not fit: naming the corpus, the estimate, the limit,
 * and what to do about it. The heap in use counts garbage not yet collected, so it errs high, never low. With the
 * check turned off, a refusal becomes the warning returned.
 */
export function checkLexicalFits(
  estimate: LexicalMemoryEstimate,
  corpus: string,
  heap: HeapState = currentHeap(),
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (fitsHeap(estimate, heap)) return undefined;
  if (env[HEAP_CHECK_ENV] === 'off') return overHeap(estimate, heap);
  throw new InputError(
    `the lexical index of ${corpus} (${sizeOf(estimate)}) needs about ${mib(estimate.bytes)} of heap; ` +
      `${mib(heap.used)} is in use and the heap limit is ${mib(heap.limit)}, so it would end in an out-of-memory crash. ` +
      `Raise the heap (NODE_OPTIONS=--max-old-space-size=${heapToAsk(estimate, heap)}, in MiB), ${OTHER_WAYS}; ` +
      `or, since the estimate errs high, try all the same with ${HEAP_CHECK_ENV}=off`,
  );
}

/** The corpus's size as the estimate knows it. */
function sizeOf(e: LexicalMemoryEstimate): string {
  const counts =
    e.chars > 0
      ? `about ${millions(e.postings)} postings and ${e.terms.toLocaleString('en')} terms estimated`
      : `${millions(e.postings)} postings and ${e.terms.toLocaleString('en')} terms`; // a cache's header: exact
  return `${e.docs.toLocaleString('en')} documents, ${counts}`;
}

const millions = (n: number) => `${(n / 1e6).toFixed(1)} million`;

const OTHER_WAYS =
  'evaluate a sample of the corpus (corpus.include/exclude in ranklab.json), or measure the engine the corpus lives in through an engine adapter (docs/engines.md)';

/**
 * The postings-only index (postings/build.ts, from POSTINGS_ONLY_FROM documents) keeps most of its weight outside
 * the heap, in typed arrays: ~12 bytes a posting at the build's peak (3-4 gathered as varints, 8 laid out; measured
 * 11.2 at 1M: docs/scaling.md), the front-coded vocabulary (~8-10 bytes a term, postings/vocabulary.ts). On the heap,
 * while it is built: the terms as a Map of strings to numbers and their sorted copy (61 bytes a term measured with 2
 * million made-up terms of 5-7 letters, `bench/vocabulary.mts`; rounded up to 80 for longer words; the radix tree
 * this replaced took ~250 more), and the ids (array + Set: ~64 bytes a document); once built, and loaded from its
 * cache, only the ids.
 */
export const BYTES_PER_POSTING = 12;
export const HEAP_BYTES_PER_TERM = 80;
export const HEAP_BYTES_PER_DOC = 64;

export interface PostingsMemoryEstimate extends LexicalMemoryEstimate {
  /** Typed arrays (outside the V8 heap; `bytes` is the heap part). */
  offHeapBytes: number;
}

export function estimatePostingsMemory(docs: readonly Document[], fields: readonly string[], analyzer: Analyzer): PostingsMemoryEstimate {
  const shape = sampleIndexShape(docs, fields, analyzer);
  const lists = shape.terms * fields.length;
  const offHeapBytes = BYTES_PER_POSTING * shape.postings + 20 * lists + (4 * fields.length + 8) * shape.docs;
  const bytes = HEAP_BYTES_PER_TERM * shape.terms + HEAP_BYTES_PER_DOC * shape.docs;
  return { ...shape, bytes, offHeapBytes };
}

const SAMPLE_DOCS = 2000;
const MIN_HEAPS_BETA = 0.6;
const SAMPLE_SEED = 32;

/**
 * Postings and terms are not known before the build: they are extrapolated from a sample of the documents, the
 * postings by the sample's share of the characters, the terms by Heaps' law (V = K·T^β, β fitted on the two halves of
 * the sample, at least 0.6: a small sample underestimates the rare terms (a test measures it)). The sample is drawn
 * at random (seeded: the same corpus, the same estimate): every n/2000-th document, as before, saw 50 of the 250
 * topics of a corpus whose documents cycle through them, and half its terms.
 */
export function sampleIndexShape(docs: readonly Document[], fields: readonly string[], analyzer: Analyzer): IndexShape {
  const n = docs.length;
  const picked = samplePositions(n, Math.min(n, SAMPLE_DOCS));
  const vocabulary = new Set<string>();
  let sampleChars = 0;
  let postings = 0;
  let tokens = 0;
  let half = { tokens: 0, terms: 0 };
  for (let k = 0; k < picked.length; k++) {
    const doc = docs[picked[k]!]!; // positions < n
    sampleChars += indexedChars([doc], fields);
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
    if (k + 1 === Math.floor(picked.length / 2)) half = { tokens, terms: vocabulary.size };
  }
  const chars = indexedChars(docs, fields);
  const scale = sampleChars > 0 ? chars / sampleChars : 1;
  const beta =
    half.tokens > 0 && tokens > half.tokens && half.terms > 0
      ? Math.min(1, Math.max(MIN_HEAPS_BETA, Math.log(vocabulary.size / half.terms) / Math.log(tokens / half.tokens)))
      : 1;
  return {
    docs: n,
    chars,
    postings: Math.round(postings * scale),
    terms: Math.round(Math.min(tokens * scale, vocabulary.size * scale ** beta)),
  };
}

/** `k` distinct positions below `n` in a seeded random order (all of them, shuffled, when k = n). */
function samplePositions(n: number, k: number): number[] {
  const rng = new Mulberry32(SAMPLE_SEED);
  if (k === n) {
    const all = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = rng.nextUint32() % (i + 1);
      [all[i], all[j]] = [all[j]!, all[i]!];
    }
    return all;
  }
  const seen = new Set<number>();
  const out: number[] = [];
  while (out.length < k) {
    const i = rng.nextUint32() % n;
    if (!seen.has(i)) {
      seen.add(i);
      out.push(i);
    }
  }
  return out;
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
 * memory the system reports available (MemAvailable on Linux), at most HEADROOM of it. Throws an InputError (exit 2);
 * returns checkLexicalFits's warning.
 */
export function checkPostingsFit(
  estimate: PostingsMemoryEstimate,
  corpus: string,
  heap: HeapState = currentHeap(),
  available: number = freemem(),
): string | undefined {
  const warning = checkLexicalFits(estimate, corpus, heap);
  if (estimate.offHeapBytes <= available * HEADROOM) return warning;
  throw new InputError(
    `the lexical index of ${corpus} (${estimate.docs.toLocaleString('en')} documents, about ${(estimate.postings / 1e6).toFixed(1)} million postings estimated) ` +
      `needs about ${mib(estimate.offHeapBytes)} of memory outside the heap while it is built, and ${mib(available)} is available on this machine, ` +
      `so it would not fit. Free memory, ${OTHER_WAYS}`,
  );
}

function mib(n: number): string {
  return n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(1)} GiB` : `${(n / 1024 ** 2).toFixed(0)} MiB`;
}
