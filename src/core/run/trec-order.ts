import { compareIdBytes } from '../util/id-order';
import type { RankedDoc } from './types';

/**
 * trec_eval's order: score descending, ties broken by docid DEScending as byte strings (UTF-8 bytes, so
 * "9" > "100" > "10", and U+1F600 > U+FFFD). The rank column of a TREC file plays no part.
 */
export function compareTrecOrder(a: Pick<RankedDoc, 'id' | 'score'>, b: Pick<RankedDoc, 'id' | 'score'>): number {
  if (a.score !== b.score) return b.score - a.score;
  return compareIdBytes(b.id, a.id);
}

export function sortTrecOrder<T extends RankedDoc>(docs: T[]): T[] {
  return docs.sort(compareTrecOrder);
}
