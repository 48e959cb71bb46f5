/**
 * An on-disk cache of embeddings keyed by (embedder.id, kind, text), so re-runs only send new texts to the model.
 *
 * Layout: `<cacheDir>/<fingerprint(embedder.id)>/<segment>.vec`, one folder per embedder. Each `embed` call
 * that had misses writes one new segment (atomically), so writes cost O(new vectors), never a rewrite of
 * everything. Segment file format (little-endian):
 *
 *   "RLV1" | u32 headerBytes | header JSON {id, dimension, count, keys: [hex text hash...], sha256} | pad to 4 |
 *   count × dimension float32
 *
 * `sha256` is over the header JSON without it (`{id, dimension, count, keys}` in that order) followed by the
 * vector bytes: a segment whose keys or vectors were changed after it was written, or one written before this
 * hash (no `sha256`), is not used (its texts are embedded again).
 *
 * When a folder holds more than MAX_SEGMENTS segments they are merged into one on the next load.
 * Unreadable segments (truncated, other embedder, other dimension) are ignored: their texts are simply misses.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-write';
import { sha256Hex } from '../../util/content-hash';
import { fingerprint } from '../../util/fingerprint';
import { ProviderError } from './errors';
import type { Embedder } from './types';

const MAGIC = 'RLV1';
const SEGMENT_EXT = '.vec';
const MAX_SEGMENTS = 16;

interface Segment {
  id: string;
  dimension: number;
  keys: string[];
  data: Float32Array;
}

function segmentHash(id: string, dimension: number, keys: string[], data: Uint8Array): string {
  return sha256Hex(Buffer.concat([Buffer.from(JSON.stringify({ id, dimension, count: keys.length, keys }), 'utf8'), data]));
}

export function encodeSegment(seg: Segment): Buffer {
  const bytes = new Uint8Array(seg.data.buffer, seg.data.byteOffset, seg.data.byteLength);
  const sha256 = segmentHash(seg.id, seg.dimension, seg.keys, bytes);
  const header = Buffer.from(
    JSON.stringify({ id: seg.id, dimension: seg.dimension, count: seg.keys.length, keys: seg.keys, sha256 }),
    'utf8',
  );
  const headerEnd = 8 + header.length;
  const dataStart = Math.ceil(headerEnd / 4) * 4;
  const buf = Buffer.alloc(dataStart + seg.data.byteLength);
  buf.write(MAGIC, 0, 'ascii');
  buf.writeUInt32LE(header.length, 4);
  header.copy(buf, 8);
  Buffer.from(seg.data.buffer, seg.data.byteOffset, seg.data.byteLength).copy(buf, dataStart);
  return buf;
}

/** Parses a segment; undefined when the bytes are not a complete, consistent segment. */
export function decodeSegment(buf: Buffer): Segment | undefined {
  if (buf.length < 8 || buf.toString('ascii', 0, 4) !== MAGIC) return undefined;
  const headerLen = buf.readUInt32LE(4);
  if (8 + headerLen > buf.length) return undefined;
  let header: { id?: unknown; dimension?: unknown; count?: unknown; keys?: unknown; sha256?: unknown };
  try {
    header = JSON.parse(buf.toString('utf8', 8, 8 + headerLen)) as typeof header;
  } catch {
    return undefined;
  }
  const { id, dimension, count, keys } = header;
  if (typeof id !== 'string' || typeof dimension !== 'number' || typeof count !== 'number' || !Array.isArray(keys) || keys.length !== count)
    return undefined;
  const dataStart = Math.ceil((8 + headerLen) / 4) * 4;
  if (buf.length !== dataStart + count * dimension * 4) return undefined;
  if (typeof header.sha256 !== 'string' || header.sha256 !== segmentHash(id, dimension, keys as string[], buf.subarray(dataStart)))
    return undefined;
  // Copy into an aligned buffer (Node's pooled Buffers may start at an offset that is not a multiple of 4).
  const data = new Float32Array(count * dimension);
  Buffer.from(data.buffer).set(buf.subarray(dataStart));
  return { id, dimension, keys: keys as string[], data };
}

export function textKey(kind: 'query' | 'document', text: string): string {
  return createHash('sha256').update(kind).update('\u0000').update(text).digest('hex').slice(0, 32);
}

/** The cache of one embedder: a Map in memory, backed by segments on disk. */
export class EmbeddingStore {
  private vectors = new Map<string, Float32Array>();
  private loadedDim: number | undefined;
  private loaded = false;
  readonly folder: string;

  constructor(
    readonly embedderId: string,
    cacheDir: string,
  ) {
    this.folder = join(cacheDir, fingerprint([embedderId]).replace('sha256:', ''));
  }

  get dimension(): number | undefined {
    this.load();
    return this.loadedDim;
  }

  get size(): number {
    this.load();
    return this.vectors.size;
  }

  private segmentFiles(): string[] {
    if (!existsSync(this.folder)) return [];
    return readdirSync(this.folder)
      .filter((f) => f.endsWith(SEGMENT_EXT))
      .sort();
  }

  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    const files = this.segmentFiles();
    for (const f of files) {
      let seg: Segment | undefined;
      try {
        seg = decodeSegment(readFileSync(join(this.folder, f)));
      } catch {
        seg = undefined; // removed by a concurrent compaction, or unreadable: its texts become misses
      }
      if (!seg || seg.id !== this.embedderId) continue;
      if (this.loadedDim !== undefined && seg.dimension !== this.loadedDim) continue;
      this.loadedDim = seg.dimension;
      seg.keys.forEach((k, i) => this.vectors.set(k, seg.data.subarray(i * seg.dimension, (i + 1) * seg.dimension)));
    }
    if (files.length > MAX_SEGMENTS) this.compact(files);
  }

  /** Writes everything in memory as one segment, then removes the old ones. */
  private compact(oldFiles: string[]): void {
    if (this.loadedDim === undefined) return;
    const keys = [...this.vectors.keys()];
    const data = new Float32Array(keys.length * this.loadedDim);
    keys.forEach((k, i) => data.set(this.vectors.get(k)!, i * this.loadedDim!));
    const name = this.writeSegment({ id: this.embedderId, dimension: this.loadedDim, keys, data });
    for (const f of oldFiles) if (f !== name) rmSync(join(this.folder, f), { force: true });
  }

  private writeSegment(seg: Segment): string {
    mkdirSync(this.folder, { recursive: true });
    // Time-ordered, unique across processes: concurrent writers never touch the same file.
    const name = `${Date.now().toString().padStart(15, '0')}-${process.pid}-${Math.random().toString(36).slice(2, 8)}${SEGMENT_EXT}`;
    writeFileAtomic(join(this.folder, name), encodeSegment(seg));
    return name;
  }

  get(key: string): Float32Array | undefined {
    this.load();
    return this.vectors.get(key);
  }

  /** Adds vectors (all of one dimension) and persists them as one new segment. */
  put(entries: Array<[string, Float32Array]>): void {
    this.load();
    const first = entries[0];
    if (first === undefined) return; // nothing to add
    const dimension = first[1].length;
    if (this.loadedDim !== undefined && dimension !== this.loadedDim) {
      throw new ProviderError(
        `embedding cache: the embedder now returns ${dimension}-dim vectors, the cache holds ${this.loadedDim}-dim ones`,
        this.embedderId,
        { hint: `delete the folder ${this.folder} if the model changed` },
      );
    }
    const data = new Float32Array(entries.length * dimension);
    entries.forEach(([k, v], i) => {
      data.set(v, i * dimension);
      this.vectors.set(k, data.subarray(i * dimension, (i + 1) * dimension));
    });
    this.loadedDim = dimension;
    this.writeSegment({ id: this.embedderId, dimension, keys: entries.map(([k]) => k), data });
  }
}

/**
 * Wraps an embedder so that vectors already computed (by this or an earlier process) come from
 * `cacheDir` and only misses reach the model. The id is the inner embedder's id.
 */
export function cachedEmbedder(inner: Embedder, cacheDir: string): Embedder {
  const store = new EmbeddingStore(inner.id, cacheDir);
  return {
    id: inner.id,
    get dimension() {
      return inner.dimension ?? store.dimension;
    },
    async embed(texts, kind, signal) {
      const keys = texts.map((t) => textKey(kind, t));
      // Each distinct missing text is sent once, even if it occurs several times in `texts`.
      const missing = new Map<string, string>();
      texts.forEach((text, i) => {
        const k = keys[i]!; // a key per text
        if (!store.get(k) && !missing.has(k)) missing.set(k, text);
      });
      if (missing.size > 0) {
        const vectors = await inner.embed([...missing.values()], kind, signal);
        if (vectors.length !== missing.size)
          throw new ProviderError(`embedder ${inner.id} returned ${vectors.length} vectors for ${missing.size} texts`, inner.id);
        store.put([...missing.keys()].map((k, i) => [k, vectors[i]!])); // as many vectors as keys (checked above)
      }
      // Copies, so callers that modify vectors (e.g. normalise in place) cannot corrupt the cache.
      return keys.map((k) => Float32Array.from(store.get(k)!));
    },
  };
}
