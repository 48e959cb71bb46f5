/**
 * The one vocabulary of query classes (where a query's relevant documents are lost, ./stage-recall.ts): each class
 * declared once, better first, with its label and what it means. Stage recall classes queries by these names, the
 * CLI's tables and legend and the dashboard's section (which receives the table with its view: a webview cannot
 * import the core) print these labels, and the slices are `class:<name>`. `{k}` stands for the cut-off of a hit.
 */
const DECLARED = [
  { name: 'hit', label: 'hit@{k}', means: 'a relevant document is in the top {k}' },
  {
    name: 'ranking-miss',
    label: 'ranking miss',
    means: 'none there, but some stage (or the list below {k}) retrieved one — better ranking can fix it',
  },
  { name: 'retrieval-miss', label: 'retrieval miss', means: 'no stage retrieved any — only retrieval can fix it' },
  { name: 'no-relevant', label: 'no relevant', means: 'the query has no relevant judgment' },
] as const;

export type QueryClass = (typeof DECLARED)[number]['name'];

/** The classes, better first (a change towards the first is a gain). */
export const QUERY_CLASSES: readonly QueryClass[] = DECLARED.map((c) => c.name);

/** A class as people read it at cut-off `k`: its label and what it means. */
export interface QueryClassText {
  name: QueryClass;
  label: string;
  means: string;
}

/** Every class with its label and meaning at cut-off `k`, better first. */
export function queryClassTexts(k: number): QueryClassText[] {
  const at = (s: string) => s.replaceAll('{k}', String(k));
  return DECLARED.map((c) => ({ name: c.name, label: at(c.label), means: at(c.means) }));
}

/** `hit@10: a relevant document is in the top 10; ranking miss: …` — every class with its meaning, in one line. */
export function queryClassLegend(k: number): string {
  return queryClassTexts(k)
    .map((c) => `${c.label}: ${c.means}`)
    .join('; ');
}
