/** Shared ordering: score descending, ties by id descending (trec_eval's order, so our ranks match its ranks). */
export function compareScored(a: { id: string; score: number }, b: { id: string; score: number }): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

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
