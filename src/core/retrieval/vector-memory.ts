import { freemem } from 'node:os';
import type { HnswParams } from '../config/types';
import { InputError } from '../util/diagnostics';

/**
 * The memory a vector stage will take, estimated before its vectors are embedded or loaded and before an HNSW build,
 * so that a corpus too large for the machine is refused with advice instead of ending in the OOM killer or a failed
 * allocation after minutes (or hours) of work (issue 32). The matrices live outside the V8 heap (typed arrays, WASM
 * memory, hnswlib's native memory), so the heap limit says nothing about them: they are compared with the memory the
 * system reports available (os.freemem(), MemAvailable on Linux), or with RANKLAB_VECTOR_MEMORY_MB when set.
 */
const WIDTH = { float32: 4, float16: 2, int8: 1 } as const;
/** Per vector in JS: a Float32Array object and its map entries (doc vectors, the exact index's row map). */
export const JS_BYTES_PER_VECTOR = 250;
/**
 * Per element of an HNSW graph beyond its float32 copy and level-0 links (2·M neighbours): link-list pointer, label map,
 * per-element lock, upper levels, the JS label maps. Calibrated from RSS growth in `npm run bench:hnsw -- --single`.
 */
export const HNSW_EXTRA_BYTES = 200;
/** Share of the available memory the stage may take: the rest of the process and the system need some. */
export const VECTOR_HEADROOM = 0.8;

export interface VectorMemoryEstimate {
  docs: number;
  dimension: number;
  storage: keyof typeof WIDTH;
  /** The float32 vectors as embedded or loaded (held until the indexes are built). */
  inputBytes: number;
  /** The exact index's matrix in its storage type. */
  exactBytes: number;
  /** hnswlib's graph with its own float32 copy (0 when HNSW is off). */
  hnswBytes: number;
  bytes: number;
}

export function estimateVectorMemory(
  docs: number,
  dimension: number,
  opts: { storage?: 'float16' | 'int8'; hnsw?: HnswParams },
): VectorMemoryEstimate {
  const storage = opts.storage ?? 'float32';
  const inputBytes = docs * (dimension * 4 + JS_BYTES_PER_VECTOR);
  // rows padded to 16 bytes for the SIMD lanes; float16/int8 keep a scale and a norm per row
  const exactBytes = docs * (Math.ceil((dimension * WIDTH[storage]) / 16) * 16 + (storage === 'float32' ? 8 : 24));
  const hnswBytes = opts.hnsw ? docs * (dimension * 4 + 2 * opts.hnsw.M * 4 + 4 + 8 + HNSW_EXTRA_BYTES) : 0;
  return { docs, dimension, storage, inputBytes, exactBytes, hnswBytes, bytes: inputBytes + exactBytes + hnswBytes };
}

/** Bytes the vector stage may use: RANKLAB_VECTOR_MEMORY_MB (a budget, MiB) or the memory available now. */
export function availableVectorMemory(env: NodeJS.ProcessEnv = process.env): { bytes: number; source: string } {
  const raw = env.RANKLAB_VECTOR_MEMORY_MB;
  if (raw !== undefined && raw !== '') {
    const mb = Number(raw);
    if (!Number.isFinite(mb) || mb <= 0) throw new InputError(`RANKLAB_VECTOR_MEMORY_MB: expected a positive number of MiB, got "${raw}"`);
    return { bytes: mb * 2 ** 20, source: 'the budget RANKLAB_VECTOR_MEMORY_MB' };
  }
  return { bytes: freemem(), source: 'the memory available on this machine' };
}

/** Throws an InputError (exit 2 in the CLI) naming the estimate, the limit and the ways out when it does not fit. */
export function checkVectorsFit(e: VectorMemoryEstimate, what: string, available = availableVectorMemory()): void {
  if (e.bytes <= available.bytes * VECTOR_HEADROOM) return;
  const parts = [`float32 input ${size(e.inputBytes)}`, `${e.storage} exact matrix ${size(e.exactBytes)}`];
  if (e.hnswBytes) parts.push(`HNSW graph ${size(e.hnswBytes)}`);
  throw new InputError(
    `${what}: the vectors of ${e.docs.toLocaleString('en')} documents × ${e.dimension} dimensions need about ${size(e.bytes)} (${parts.join(', ')}); ` +
      `${available.source} is ${size(available.bytes)}, of which ${Math.round(VECTOR_HEADROOM * 100)}% may be used. ` +
      `Store the exact index as int8 ("storage": "int8", a quarter of float32), turn HNSW off ("exact": true: no graph and no second copy), ` +
      'evaluate a sample of the corpus (corpus.include/exclude in ranklab.json), or measure the engine the vectors live in through an engine adapter (docs/engines.md); ' +
      'RANKLAB_VECTOR_MEMORY_MB sets the budget (MiB)',
  );
}

function size(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GiB`;
  return n >= 1024 ** 2 ? `${(n / 1024 ** 2).toFixed(0)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}
