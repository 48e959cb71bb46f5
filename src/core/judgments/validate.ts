import { type Diagnostic, InputError } from '../util/diagnostics';
import type { JudgmentBuilder } from './builder';
import { compareIds, judgmentKey } from './keys';
import type { JudgmentSet, SourceLocation } from './types';

/** Above this many, queries without judgments are reported once as a summary (BEIR ships every split's queries). */
const MAX_NO_JUDGMENT_INFOS = 20;

/**
 * Cross-checks queries against judgments once everything is read:
 * judged query ids without text (when some query text was given) are a warning, their judgments are kept;
 * queries with text but no judgments are an info (the evaluator decides what to do with them).
 */
export function crossCheckQueries(builder: JudgmentBuilder, queryTextGiven: boolean): void {
  const judged = builder.judgedQueries();
  if (queryTextGiven) {
    for (const [qid, first] of judged) {
      if (builder.queries.has(qid)) continue;
      const at = first ?? { file: builder.sources[0] ?? '', line: 0 };
      builder.report(at, 'warning', `unknown query id "${qid}": it has judgments but no query text; judgments kept`);
    }
  }
  const unjudged = [...builder.queries.keys()].filter((qid) => !judged.has(qid));
  if (unjudged.length <= MAX_NO_JUDGMENT_INFOS) {
    for (const qid of unjudged) {
      const at = builder.queryLocations.get(qid) ?? { file: builder.sources[0] ?? '', line: 0 };
      builder.report(at, 'info', `query "${qid}" has no judgments`);
    }
  } else if (unjudged.length > 0) {
    const files = [...new Set(unjudged.map((q) => builder.queryLocations.get(q)?.file ?? ''))];
    const examples = unjudged
      .slice(0, 5)
      .map((q) => `"${q}"`)
      .join(', ');
    builder.report({ file: files[0] ?? '', line: 0 }, 'info', `${unjudged.length} queries have no judgments (e.g. ${examples}, ...)`);
  }
}

/**
 * Ids of queries that have no document graded >= threshold (all grades 0, or no judgments at all),
 * in id order. Such queries score 0 on every metric, or are left out, depending on the evaluator.
 */
export function queriesWithoutRelevant(set: JudgmentSet, threshold = 1): string[] {
  const qids = new Set([...set.queries.keys(), ...set.qrels.keys()]);
  const out: string[] = [];
  for (const qid of qids) {
    const docs = set.qrels.get(qid);
    let relevant = false;
    if (docs) for (const g of docs.values()) if (g >= threshold) relevant = true;
    if (!relevant) out.push(qid);
  }
  return out.sort(compareIds);
}

/** A warning for every judged (query, document) whose document id is not in the corpus, at the judgment's line. */
export function checkDocIds(set: JudgmentSet, knownDocIds: Set<string>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [qid, docs] of set.qrels) {
    for (const docId of docs.keys()) {
      if (knownDocIds.has(docId)) continue;
      const at: SourceLocation = set.locations?.get(judgmentKey(qid, docId)) ?? { file: set.sources[0] ?? '', line: 0 };
      out.push({
        file: at.file,
        line: at.line,
        severity: 'warning',
        message: `unknown document id "${docId}" (judged for query "${qid}"): not in the corpus`,
      });
    }
  }
  return out;
}

/**
 * Judged queries none of which has text (qrels read without their queries file): nothing can be searched and every
 * metric would be 0, so this is an error naming the judgment files and the fix, not a quiet run of zeros.
 */
export function missingQueryText(set: JudgmentSet): InputError | undefined {
  const judged = [...set.qrels.keys()];
  if (judged.length === 0 || judged.some((qid) => set.queries.get(qid)?.text.trim())) return undefined;
  const qrels = set.sources[0] ?? 'qrels.txt';
  return new InputError(`none of the ${judged.length} judged queries has text, so nothing can be searched (every metric would be 0)`, [], {
    file: set.sources.join(', '),
    key: 'judgments',
    hint: `name the queries file beside the qrels in ranklab.json: "judgments": [{"qrels": ${JSON.stringify(qrels)}, "queries": "queries.tsv"}] (qid<TAB>text a line, or JSONL {"id", "text"})`,
  });
}
