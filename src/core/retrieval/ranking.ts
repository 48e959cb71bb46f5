import { compareTrecOrder } from '../run/trec-order';
/** Shared ordering: score descending, ties by id descending (trec_eval's order, so our ranks match its ranks). */
export const compareScored = compareTrecOrder;

export const ALL_FIELDS = 'all';

export interface ScoredId {
  id: string;
  score: number;
}

/**
 * Field text of a document as the indexes see it: `title`, `body`, a key of `fields`, or `all`: the whole
 * document as one field (title, body and the other text fields), i.e. classic single-field BM25 rather
 * than per-field scoring. Per-field scoring (title and body saturate separately) is what boosts need, but it
 * ranks differently: on the shared collections single-field BM25 matches the reference runs.
 */
export function fieldText(doc: { title: string; body: string; fields: Record<string, string> }, field: string): string {
  if (field === ALL_FIELDS) return [doc.title, doc.body, ...Object.values(doc.fields)].filter((t) => t).join('\n');
  if (field === 'title') return doc.title;
  if (field === 'body') return doc.body;
  return doc.fields[field] ?? '';
}

/** Keeps the k best (score, id) seen; the root is the worst kept, in compareScored order. */
export class TopK {
  private readonly items: ScoredId[] = [];
  constructor(private readonly k: number) {}

  // true when a ranks below b (worse)
  private worse(a: ScoredId, b: ScoredId): boolean {
    return compareScored(a, b) > 0;
  }

  offer(id: string, score: number): void {
    if (this.k <= 0) return;
    const items = this.items;
    // Heap positions i, p, l, r, w are read only below items.length (items[0] exists once the heap is full, k > 0).
    if (items.length < this.k) {
      items.push({ id, score });
      let i = items.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(items[i]!, items[p]!)) break;
        [items[i], items[p]] = [items[p]!, items[i]!];
        i = p;
      }
      return;
    }
    const candidate = { id, score };
    if (!this.worse(items[0]!, candidate)) return;
    items[0] = candidate;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let w = i;
      if (l < items.length && this.worse(items[l]!, items[w]!)) w = l;
      if (r < items.length && this.worse(items[r]!, items[w]!)) w = r;
      if (w === i) break;
      [items[i], items[w]] = [items[w]!, items[i]!];
      i = w;
    }
  }

  /** Holds k items: a newcomer must beat `worstScore` (or tie it with a higher id) to get in. */
  get full(): boolean {
    return this.k <= 0 || this.items.length >= this.k;
  }

  /** Score of the worst kept item (-Infinity while not full). */
  get worstScore(): number {
    const root = this.items[0];
    return this.full && root ? root.score : -Infinity;
  }

  sorted(): ScoredId[] {
    return [...this.items].sort(compareScored);
  }
}

/** The k best of `items` in compareScored order, without sorting them all (a heap of size k). */
export function topK(items: readonly ScoredId[], k: number): ScoredId[] {
  if (items.length <= k) return [...items].sort(compareScored);
  const heap = new TopK(k);
  for (const it of items) heap.offer(it.id, it.score);
  return heap.sorted();
}
