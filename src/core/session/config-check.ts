import type { RankConfig } from '../config';
import type { Document } from '../corpus/document';
import { ALL_FIELDS, fieldText } from '../retrieval/ranking';
import { closest } from '../util/closest';

export interface ConfigFieldProblem {
  /** JSON pointer of the setting in the config file. */
  pointer: string;
  key: string;
  severity: 'error' | 'warning';
  message: string;
  hint?: string;
}

/**
 * Searched fields (boost > 0) that no document of the corpus has any text in: a typo ("titel") gives zero
 * scores from that field without any other sign. A warning while another searched field has text; an error
 * when none has, since the config could then find nothing at all.
 */
export function configFieldProblems(config: RankConfig, docs: readonly Document[]): ConfigFieldProblem[] {
  const boosts = config.lexical?.fields;
  if (!boosts || docs.length === 0) return [];
  const searched = Object.entries(boosts)
    .filter(([, b]) => b > 0)
    .map(([f]) => f);
  const empty = searched.filter((f) => !docs.some((d) => fieldText(d, f).trim() !== ''));
  if (empty.length === 0) return [];
  // Only now: listing every document's fields costs more than the check itself (a sweep checks hundreds of configs).
  const known = new Set(['title', 'body', ALL_FIELDS, ...docs.flatMap((d) => Object.keys(d.fields))]);
  const severity = empty.length === searched.length ? 'error' : 'warning';
  return empty.map((f) => {
    const guess = closest(f, [...known]);
    const p: ConfigFieldProblem = {
      pointer: `/lexical/fields/${f.replace(/~/g, '~0').replace(/\//g, '~1')}`,
      key: `lexical.fields.${f}`,
      severity,
      message: `no document has text in field "${f}"${severity === 'error' ? ', and no other searched field has any: nothing can be found' : '; it adds nothing to any score'}`,
      hint: guess && guess !== f ? `did you mean "${guess}"?` : `fields of this corpus: ${[...known].join(', ')}`,
    };
    return p;
  });
}
