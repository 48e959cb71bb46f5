import type { Document } from '../corpus/document';
import { ProviderError } from './providers/errors';
import type { Reranker } from './providers/types';
import { compareScored, type ScoredId } from './ranking';

/** Title + body, cut at a word boundary near `maxChars` (cross-encoders see ~512 tokens anyway). */
export function rerankPassage(doc: Pick<Document, 'title' | 'body'>, maxChars: number): string {
  const text = doc.title ? `${doc.title}\n${doc.body}` : doc.body;
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf(' ', maxChars);
  return text.slice(0, cut > maxChars * 0.8 ? cut : maxChars);
}

/** Reranker scores per (reranker id, query, document hash): boost or fusion changes never re-score a pair. */
export class RerankScoreCache {
  private readonly scores = new Map<string, number>();
  constructor(private readonly limit = 500_000) {}

  private key(rerankerId: string, query: string, docHash: string): string {
    return `${rerankerId}\u0000${docHash}\u0000${query}`;
  }
  get(rerankerId: string, query: string, docHash: string): number | undefined {
    return this.scores.get(this.key(rerankerId, query, docHash));
  }
  set(rerankerId: string, query: string, docHash: string, score: number): void {
    if (this.scores.size >= this.limit) this.scores.clear();
    this.scores.set(this.key(rerankerId, query, docHash), score);
  }
  get size(): number {
    return this.scores.size;
  }
}

export interface RerankOptions {
  topN: number;
  topM: number;
  maxPassageChars: number;
  cache?: RerankScoreCache;
  signal?: AbortSignal;
}

/**
 * Scores the first `topN` candidates with the reranker (only pairs not cached) and keeps the best `topM`,
 * ordered by reranker score.
 */
export async function rerankCandidates(
  reranker: Reranker,
  query: string,
  candidates: readonly ScoredId[],
  docsById: ReadonlyMap<string, Document>,
  options: RerankOptions,
): Promise<{ hits: ScoredId[]; scored: number }> {
  const pool = candidates.slice(0, options.topN).filter((c) => docsById.has(c.id));
  const scores = new Array<number | undefined>(pool.length);
  const missing: number[] = [];
  pool.forEach((c, i) => {
    const cached = options.cache?.get(reranker.id, query, docsById.get(c.id)!.hash);
    if (cached === undefined) missing.push(i);
    else scores[i] = cached;
  });
  if (missing.length > 0) {
    // missing holds positions of pool; fresh has a score per passage (checked below).
    const passages = missing.map((i) => rerankPassage(docsById.get(pool[i]!.id)!, options.maxPassageChars));
    const fresh = await reranker.score(query, passages, options.signal);
    if (fresh.length !== passages.length)
      throw new ProviderError(`reranker ${reranker.id} returned ${fresh.length} scores for ${passages.length} passages`, reranker.id);
    missing.forEach((i, j) => {
      const score = fresh[j]!;
      scores[i] = score;
      options.cache?.set(reranker.id, query, docsById.get(pool[i]!.id)!.hash, score);
    });
  }
  const hits = rerankedOrder(
    pool.map((c, i) => ({ id: c.id, score: scores[i]! })),
    options.topM,
  );
  return { hits, scored: missing.length };
}

/** The reranker's order of a scored pool: best model score first (ties as everywhere: compareScored), the best `topM` kept. */
export function rerankedOrder(scored: ScoredId[], topM: number): ScoredId[] {
  return scored.sort(compareScored).slice(0, topM);
}
