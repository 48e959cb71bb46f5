import type { RankedDoc } from './types';

/**
 * trec_eval's order: score descending, ties broken by docid DEScending as byte strings
 * (so "9" > "100" > "10"). The rank column of a TREC file plays no part.
 */
export function compareTrecOrder(a: RankedDoc, b: RankedDoc): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export function sortTrecOrder<T extends RankedDoc>(docs: T[]): T[] {
  return docs.sort(compareTrecOrder);
}
