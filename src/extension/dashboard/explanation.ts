/**
 * The dashboard's view of `ranklab explain` (core session/explain.ts, computed in the Ranklab worker): the core's
 * report as plain protocol data, baseline first, without what the panel does not show (each run's full ranking).
 */
import type { ConfigExplanation, ExplainReport } from '../../core/session/explain';
import type { DocExplanation, ExplainSideView, ExplainStepView } from '../../protocol/dashboard';
import { STEP_EXPLAINS } from '../../core/run/stages';

/** `runIds`: the runs whose configs the report's candidate and baseline are. */
export function explanationView(qid: string, report: ExplainReport, runIds: { candidate: string; baseline?: string }): DocExplanation {
  const sides: ExplainSideView[] = [];
  if (report.baseline && runIds.baseline) sides.push(sideView('baseline', runIds.baseline, report.baseline));
  if (report.candidate) sides.push(sideView('candidate', runIds.candidate, report.candidate));
  return {
    qid,
    docId: report.doc.id,
    visible: report.visible,
    principal: report.principal,
    ...(report.reason !== undefined && { reason: report.reason }),
    sides,
  };
}

function sideView(side: ExplainSideView['side'], runId: string, c: ConfigExplanation): ExplainSideView {
  return {
    side,
    runId,
    config: c.config,
    mode: c.mode,
    rank: c.rank,
    score: c.score,
    fellOut: c.fellOut && { step: c.fellOut.step, note: c.fellOut.note },
    steps: c.steps.map(
      (s): ExplainStepView => ({
        step: s.step,
        about: STEP_EXPLAINS[s.step],
        rank: s.rank,
        score: s.score,
        outcome: s.outcome,
        note: s.note,
        ...(s.lexical && {
          lexical: {
            parts: s.lexical.parts.map((p) => ({
              field: p.field,
              queryTerm: p.queryTerm,
              term: p.term,
              match: p.match,
              tf: p.tf,
              idf: p.idf,
              lengthNorm: p.lengthNorm,
              boost: p.boost,
              contribution: p.contribution,
            })),
            sum: s.lexical.sum,
            matched: s.lexical.matched,
            missingTerms: s.lexical.missingTerms,
            combineWith: s.lexical.combineWith,
          },
        }),
        ...(s.vector && { vector: { ...s.vector } }),
        ...(s.fusion && { fusion: { ...s.fusion, lists: s.fusion.lists.map((l) => ({ ...l })) } }),
        ...(s.rerank && { rerank: { ...s.rerank } }),
      }),
    ),
    notes: c.notes,
  };
}
