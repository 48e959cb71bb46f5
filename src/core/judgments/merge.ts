/**
 * Several raters: how their grades of one (query, document) become the one grade every metric scores.
 * Grades from LLM raters (`llm:MODEL`) never enter silently: they are left out unless the policy names that rater
 * (`rater:llm:MODEL`) or `llmGrades` is "fill" (an LLM grade then stands only where no person graded the pair).
 * Grades from clicks (the rater `clicks`) are left out unless the policy is `rater:clicks`.
 */
import { InputError } from '../util/diagnostics';
import { judgmentKey } from './keys';
import type { SourceLocation } from './types';

/** Judgments read from a source that names no rater belong to this one. */
export const DEFAULT_RATER = 'default';

/**
 * - `mean-rounded`: the mean of the raters' grades, rounded half up (1.5 → 2);
 * - `max`: the highest grade;
 * - `majority`: the grade most raters gave; a tie goes to the lowest of the tied grades (a grade needs a majority);
 * - `rater:NAME`: that rater's grades only (pairs they did not grade are unjudged).
 */
export type MergePolicy = 'mean-rounded' | 'max' | 'majority' | `rater:${string}`;
export const MERGE_POLICIES = ['mean-rounded', 'max', 'majority', 'rater:NAME'] as const;

export interface MergeOptions {
  merge?: MergePolicy;
  /** `ignore` (default): LLM grades are for agreement reports only; `fill`: they stand where no person graded. */
  llmGrades?: 'ignore' | 'fill';
}

export const isLlmRater = (rater: string): boolean => rater.startsWith('llm:');

/** Grades derived from clicks (`ranklab judgments from-clicks`): scored only when the policy names the rater. */
export const CLICK_RATER = 'clicks';

/** A rater that is not a person (an LLM, the clicks): compared with people, never merged with them silently. */
export const isMachineRater = (rater: string): boolean => isLlmRater(rater) || rater === CLICK_RATER;

export function parseMergePolicy(value: string): MergePolicy {
  if (value === 'mean-rounded' || value === 'max' || value === 'majority') return value;
  if (value.startsWith('rater:') && value.length > 'rater:'.length) return value as MergePolicy;
  throw new InputError(`merge policy must be one of ${MERGE_POLICIES.join(', ')}, not "${value}"`);
}

/** The one grade of several (non-empty) grades under a policy other than `rater:NAME`. */
export function mergeGrades(grades: number[], policy: Exclude<MergePolicy, `rater:${string}`>): number {
  if (grades.length === 1) return grades[0]!;
  if (policy === 'max') return Math.max(...grades);
  if (policy === 'mean-rounded') return Math.floor(grades.reduce((s, g) => s + g, 0) / grades.length + 0.5);
  const counts = new Map<number, number>();
  for (const g of grades) counts.set(g, (counts.get(g) ?? 0) + 1);
  let best = -1;
  let bestCount = 0;
  for (const [g, n] of counts) if (n > bestCount || (n === bestCount && g < best)) [best, bestCount] = [g, n];
  return best;
}

/** What the merge did, in words, for reports and the fingerprint ("mean-rounded; LLM grades ignored"). */
export function describeMerge(opts: MergeOptions): string {
  const merge = opts.merge ?? 'mean-rounded';
  if (merge.startsWith('rater:')) return merge;
  return `${merge}; LLM grades ${opts.llmGrades === 'fill' ? 'fill pairs no person graded' : 'ignored'}`;
}

type Grades = Map<string, Map<string, number>>;

/**
 * The scored grades of every (query, document) from each rater's, in the order pairs were first read, with the
 * location of the first contributing grade.
 */
export function mergeRatings(
  byRater: Map<string, Grades>,
  locationsByRater: Map<string, Map<string, SourceLocation>>,
  opts: MergeOptions,
): { qrels: Grades; locations: Map<string, SourceLocation> } {
  const policy = opts.merge ?? 'mean-rounded';
  const named = policy.startsWith('rater:') ? policy.slice('rater:'.length) : undefined;
  const humans = [...byRater.keys()].filter((r) => (named ? r === named : !isMachineRater(r)));
  const llms = named ? [] : opts.llmGrades === 'fill' ? [...byRater.keys()].filter(isLlmRater) : [];
  // One rater and no filling: its grades as read, not a copy (the common case, and large sets).
  if (humans.length === 1 && llms.length === 0) return { qrels: byRater.get(humans[0]!)!, locations: locationsByRater.get(humans[0]!)! };
  const qrels: Grades = new Map();
  const locations = new Map<string, SourceLocation>();
  const how = named ? 'max' : (policy as Exclude<MergePolicy, `rater:${string}`>);
  for (const group of [humans, llms]) {
    const pairs = new Map<string, { qid: string; doc: string; grades: number[]; at?: SourceLocation }>();
    for (const rater of group) {
      for (const [qid, docs] of byRater.get(rater)!) {
        for (const [doc, grade] of docs) {
          const key = judgmentKey(qid, doc);
          if (qrels.get(qid)?.has(doc)) continue; // people graded it: an LLM grade does not fill it
          let p = pairs.get(key);
          if (!p) pairs.set(key, (p = { qid, doc, grades: [], at: locationsByRater.get(rater)?.get(key) }));
          p.grades.push(grade);
        }
      }
    }
    for (const [key, p] of pairs) {
      let docs = qrels.get(p.qid);
      if (!docs) qrels.set(p.qid, (docs = new Map<string, number>()));
      docs.set(p.doc, mergeGrades(p.grades, how));
      if (p.at) locations.set(key, p.at);
    }
  }
  return { qrels, locations };
}
