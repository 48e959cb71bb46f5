import type { Comparison } from './compare';

/**
 * Quality gates declared in ranklab.json, in the shape of Anserini's regression files:
 * minimum means for the candidate and maximum regressions against the baseline, overall and per slice.
 */
export interface GateSettings {
  min?: Record<string, number>;
  maxRegression?: Record<string, number>;
  maxSliceRegression?: Record<string, number>;
}

export interface GateResult {
  /** Readable statement of the gate, e.g. "ndcg@5 >= 0.70" or "ndcg@10 drop vs baseline <= 0.02 in slice procedural". */
  gate: string;
  kind: 'min' | 'maxRegression' | 'maxSliceRegression';
  metric: string;
  slice?: string;
  threshold: number;
  actual: number;
  passed: boolean;
  /** Queries that pull the figure down: below the minimum, or losing against the baseline, worst first. */
  queries: { qid: string; value: number }[];
}

/** Evaluates every gate against a comparison. A gate naming a metric that was not computed fails with a clear statement. */
export function checkGates(gates: GateSettings, cmp: Comparison): GateResult[] {
  const results: GateResult[] = [];
  const qids = Object.keys(cmp.perQuery);
  const losers = (metric: string, ids: string[]) =>
    ids.map((q) => ({ qid: q, value: cmp.perQuery[q]?.[metric]?.delta ?? NaN })).filter((x) => x.value < -1e-9).sort((a, b) => a.value - b.value);

  for (const [metric, threshold] of Object.entries(gates.min ?? {})) {
    const m = cmp.metrics[metric];
    const actual = m ? m.candidate : NaN;
    const below = qids.map((q) => ({ qid: q, value: cmp.perQuery[q]?.[metric]?.candidate ?? NaN })).filter((x) => x.value < threshold).sort((a, b) => a.value - b.value);
    results.push({ gate: `${metric} >= ${threshold}`, kind: 'min', metric, threshold, actual, passed: actual >= threshold, queries: below });
  }
  for (const [metric, threshold] of Object.entries(gates.maxRegression ?? {})) {
    const m = cmp.metrics[metric];
    const drop = m ? -m.delta : NaN;
    results.push({ gate: `${metric} drop vs baseline <= ${threshold}`, kind: 'maxRegression', metric, threshold, actual: drop, passed: drop <= threshold, queries: losers(metric, qids) });
  }
  for (const [metric, threshold] of Object.entries(gates.maxSliceRegression ?? {})) {
    for (const [slice, sc] of Object.entries({ ...cmp.slices, ...prefixed(cmp.splits) })) {
      const m = sc.metrics[metric];
      const drop = m ? -m.delta : NaN;
      const ids = qids.filter((q) => sliceHas(cmp, q, slice));
      results.push({ gate: `${metric} drop vs baseline <= ${threshold} in slice ${slice}`, kind: 'maxSliceRegression', metric, slice, threshold, actual: drop, passed: drop <= threshold, queries: losers(metric, ids) });
    }
  }
  return results;
}

function prefixed(splits: Comparison['splits']) {
  return Object.fromEntries(Object.entries(splits).map(([k, v]) => [`split:${k}`, v!]));
}

function sliceHas(cmp: Comparison, qid: string, slice: string): boolean {
  const info = cmp.queryInfo[qid];
  if (!info) return false;
  return slice.startsWith('split:') ? info.split === slice.slice(6) : info.tags.includes(slice);
}

export function gatesPassed(results: GateResult[]): boolean {
  return results.every((r) => r.passed);
}
