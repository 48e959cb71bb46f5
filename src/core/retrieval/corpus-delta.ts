import type { Document } from '../corpus/document';

/** Content hash per document id: what an on-disk index was built from. */
export type DocHashes = Record<string, string>;

/**
 * An index cache older than the corpus is brought up to date with the documents that changed, rather than
 * rebuilt, as long as at most this share of the corpus changed (beyond it a rebuild is as cheap and cleaner).
 */
export const MAX_INCREMENTAL_SHARE = 0.25;

export function docHashes(docs: readonly Document[]): DocHashes {
  return Object.fromEntries(docs.map((d) => [d.id, d.hash])); // an id such as "__proto__" stays a key
}

export interface CorpusDelta {
  upserts: Document[];
  deletes: string[];
  /** (changed + added + removed) / current corpus size. */
  share: number;
}

/** What changed between the documents an index was built from and the current ones. */
export function corpusDelta(previous: DocHashes, docs: readonly Document[]): CorpusDelta {
  const upserts = docs.filter((d) => previous[d.id] !== d.hash);
  const current = new Set(docs.map((d) => d.id));
  const deletes = Object.keys(previous).filter((id) => !current.has(id));
  return { upserts, deletes, share: (upserts.length + deletes.length) / Math.max(1, docs.length) };
}

export function describeDelta(stage: string, delta: CorpusDelta): string {
  return `${stage}: cache brought up to date incrementally (${delta.upserts.length} added or changed, ${delta.deletes.length} removed)`;
}
