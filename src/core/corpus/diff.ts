import type { Document } from './document';

export interface CorpusDiff {
  /** In `next` only (in `next` order). */
  added: Document[];
  /** Same id, different hash (the `next` version, in `next` order). */
  changed: Document[];
  /** Ids in `prev` only (in `prev` order). */
  removed: string[];
}

/** What an index built on `prev` must do to match `next`, by id and content hash. */
export function diffCorpus(prev: Document[], next: Document[]): CorpusDiff {
  const prevHash = new Map<string, string>();
  for (const d of prev) if (!prevHash.has(d.id)) prevHash.set(d.id, d.hash);
  const nextIds = new Set<string>();
  const added: Document[] = [];
  const changed: Document[] = [];
  for (const d of next) {
    if (nextIds.has(d.id)) continue;
    nextIds.add(d.id);
    const h = prevHash.get(d.id);
    if (h === undefined) added.push(d);
    else if (h !== d.hash) changed.push(d);
  }
  const removed = [...prevHash.keys()].filter((id) => !nextIds.has(id));
  return { added, changed, removed };
}
