/**
 * The one normal form of a logged query, used to count, de-duplicate, exclude and match queries: Unicode NFC,
 * lower case, runs of white space (any Unicode space) as one space, trimmed. `loose` also folds accents and
 * treats punctuation and symbols as spaces ("Café-Latte!" and "cafe latte" are one query) — de-duplication
 * without stemming: word forms ("shoe", "shoes") stay apart.
 */
export function normalizeQuery(text: string, loose = false): string {
  let s = text.normalize('NFC').toLowerCase();
  if (loose)
    s = s
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .replace(/[\p{P}\p{S}]+/gu, ' ')
      .normalize('NFC');
  return s.replace(/\s+/gu, ' ').trim();
}
