/**
 * Which moved documents of a comparison still lack their one-line reason, and filling them in from the worker's
 * answer (method `moveReasons`, core addMoveReasons). No `vscode`: the controller asks the worker, tests call these
 * with a real worker (test/unit/extension/move-reasons.test.ts). The comparison is computed with the reasons of its
 * first REASON_QUERIES queries; a query opened later gets its own when its detail is asked for.
 */
import type { Comparison } from '../../core/experiment/compare';

/** One query's moved documents to explain, as the worker's `moveReasons` takes them. */
export interface MovesToAsk {
  qid: string;
  text: string;
  moved: string[];
}

/** The moved documents without a reason, of the changed queries named (all of them when `qids` is undefined). */
export function movesWithoutReason(cmp: Comparison, qids?: ReadonlyArray<string>): MovesToAsk[] {
  const wanted = qids && new Set(qids);
  return cmp.queryDeltas
    .filter((q) => !wanted || wanted.has(q.qid))
    .map((q) => ({ qid: q.qid, text: q.text ?? '', moved: q.moved.filter((m) => m.reason === undefined).map((m) => m.id) }))
    .filter((q) => q.moved.length > 0);
}

/** Sets each moved document's reason from the worker's answer (documents it did not explain keep none). */
export function applyMoveReasons(cmp: Comparison, reasons: ReadonlyArray<{ qid: string; id: string; reason: string }>): void {
  const byKey = new Map(reasons.map((x) => [`${x.qid}\u0000${x.id}`, x.reason]));
  for (const q of cmp.queryDeltas) {
    for (const m of q.moved) {
      const reason = byKey.get(`${q.qid}\u0000${m.id}`);
      if (reason !== undefined) m.reason = reason;
    }
  }
}

/** The reason of each moved document of one query, by document id (for that query's detail). */
export function reasonsOf(cmp: Comparison | undefined, qid: string): Map<string, string> {
  const q = cmp?.queryDeltas.find((x) => x.qid === qid);
  return new Map((q?.moved ?? []).flatMap((m) => (m.reason !== undefined ? [[m.id, m.reason] as [string, string]] : [])));
}
