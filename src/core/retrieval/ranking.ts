/** Shared ordering: score descending, ties by id descending (trec_eval's order, so our ranks match its ranks). */
export function compareScored(a: { id: string; score: number }, b: { id: string; score: number }): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export interface ScoredId {
  id: string;
  score: number;
}

/** Field text of a document as the indexes see it: `title`, `body`, or a key of `fields`. */
export function fieldText(doc: { title: string; body: string; fields: Record<string, string> }, field: string): string {
  if (field === 'title') return doc.title;
  if (field === 'body') return doc.body;
  return doc.fields[field] ?? '';
}
