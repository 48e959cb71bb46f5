/**
 * What the editor shows about one evaluated config, computed from the core's comparison and gate results.
 * No `vscode` import: the CodeLens text, the diagnostics and the test verdicts are plain data here, so
 * they are unit-tested with node:test (test/unit/extension/) and only drawn by the vscode layer.
 */
import { visibleText } from '../../core/util/visible-text';
import type { Comparison } from '../../core/experiment/compare';
import type { GateResult, GateSettings } from '../../core/experiment/gates';
import { escapePointerToken, lineOfPointer, parseJsonWithLocations } from '../../core/util/json-source';
import type { RankedDoc } from '../../core/run/types';

/** A problem to show on a line of a file (1-based line; 0 = the first line). */
export interface Finding {
  severity: 'error' | 'warning' | 'info';
  line: number;
  message: string;
  /** Queries to link to (their line in the judgments file). */
  queries: { qid: string; text: string; value: number }[];
}

const fmt3 = (v: number | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(3) : '–');

/** `▲0.012` / `▼0.012` / `±0.000`: the change of the headline metric against the baseline. */
export function formatDelta(delta: number | undefined): string {
  if (typeof delta !== 'number' || !Number.isFinite(delta)) return '';
  if (Math.abs(delta) < 0.0005) return '±0.000';
  return `${delta > 0 ? '▲' : '▼'}${Math.abs(delta).toFixed(3)}`;
}

/** Display name of a metric spec: `ndcg@10` → `nDCG@10`, `mrr@10` → `MRR@10`. */
export function metricDisplayName(spec: string): string {
  const [name = '', k] = spec.split('@'); // split gives at least one part
  const pretty: Record<string, string> = { ndcg: 'nDCG', mrr: 'MRR', p: 'P', recall: 'Recall', hit: 'Hit', ap: 'AP', judged: 'Judged' };
  return (pretty[name.toLowerCase()] ?? name) + (k ? `@${k}` : '');
}

/**
 * The CodeLens headline: "nDCG@10 0.742 ▲0.012 vs baseline · MRR@10 0.810".
 * `metrics` = the config's means, `baseline` = the baseline's means (absent when the config is the baseline).
 */
export function headline(specs: string[], metrics: Record<string, number>, baseline?: Record<string, number>): string {
  const [first, second] = specs;
  if (first === undefined) return 'no metrics';
  let text = `${metricDisplayName(first)} ${fmt3(metrics[first])}`;
  if (baseline) {
    const d = formatDelta((metrics[first] ?? NaN) - (baseline[first] ?? NaN)); // a missing mean: no delta shown
    if (d) text += ` ${d} vs baseline`;
  } else {
    text += ' (baseline)';
  }
  if (second) text += ` · ${metricDisplayName(second)} ${fmt3(metrics[second])}`;
  return text;
}

/**
 * The line of the first setting that differs from the baseline config (by JSON pointer, leaves only),
 * e.g. `/lexical/fields/title` when the title boost changed. Returns 0 when nothing differs or a text
 * does not parse. Settings that exist only in the candidate count as changed; removed ones are not
 * locatable in the candidate and are skipped.
 */
export function changedSettingLine(candidateText: string, baselineText: string | undefined): { line: number; pointer?: string } {
  let cand;
  try {
    cand = parseJsonWithLocations(candidateText, { comments: true });
  } catch {
    return { line: 0 };
  }
  let base: unknown = undefined;
  if (baselineText !== undefined) {
    try {
      base = parseJsonWithLocations(baselineText, { comments: true }).value;
    } catch {
      base = undefined;
    }
  }
  const leaves: { pointer: string; value: unknown }[] = [];
  const walk = (v: unknown, pointer: string) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) walk(x, `${pointer}/${escapePointerToken(k)}`);
    } else {
      leaves.push({ pointer, value: v });
    }
  };
  walk(cand.value, '');
  const at = (root: unknown, pointer: string): unknown => {
    let cur = root;
    for (const token of pointer.split('/').slice(1)) {
      const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
      if (!cur || typeof cur !== 'object' || !(key in (cur as Record<string, unknown>))) return undefined;
      cur = (cur as Record<string, unknown>)[key];
    }
    return cur;
  };
  // "description" says nothing about ranking: a changed description is not the setting to blame.
  for (const leaf of leaves) {
    if (leaf.pointer === '/description') continue;
    if (JSON.stringify(at(base, leaf.pointer)) !== JSON.stringify(leaf.value)) {
      return { line: lineOfPointer(cand.locations, leaf.pointer), pointer: leaf.pointer };
    }
  }
  return { line: 0 };
}

/**
 * Warnings for a config from its gate results: an overall regression beyond `maxRegression`, a slice
 * regression beyond `maxSliceRegression`, a mean below `min`; each names the worst queries. Plus the
 * comparison's own slice-regression / overfitting warnings (reported even without gates).
 */
export function gateFindings(gates: GateResult[], cmp: Comparison | undefined, line: number, worst = 3): Finding[] {
  const out: Finding[] = [];
  const info = (qid: string) => cmp?.queryInfo[qid]?.text ?? '';
  for (const g of gates) {
    if (g.passed) continue;
    const queries = g.queries.slice(0, worst).map((q) => ({ qid: q.qid, text: info(q.qid), value: q.value }));
    const named = queries.length
      ? `; worst queries: ${queries.map((q) => `${q.qid} "${q.text}" (${g.kind === 'min' ? fmt3(q.value) : signed(q.value)})`).join(', ')}`
      : '';
    const actual = Number.isNaN(g.actual) ? 'not computed' : g.kind === 'min' ? fmt3(g.actual) : `dropped ${fmt3(g.actual)}`;
    const what =
      g.kind === 'min'
        ? 'below the minimum'
        : g.kind === 'maxRegression'
          ? 'regresses the baseline beyond the gate'
          : `slice "${g.slice}" regresses beyond the gate`;
    out.push({ severity: 'warning', line, message: `${g.metric} ${what}: ${actual} (gate: ${g.gate})${named}`, queries });
  }
  for (const w of cmp?.warnings ?? []) {
    if (w.kind !== 'slice-regression' && w.kind !== 'overfitting') continue;
    // Slice regressions already reported through a failing maxSliceRegression gate are not repeated.
    if (
      w.kind === 'slice-regression' &&
      gates.some((g) => !g.passed && g.kind === 'maxSliceRegression' && g.slice === w.slice && g.metric === w.metric)
    )
      continue;
    const ids = w.slice ? Object.keys(cmp!.perQuery).filter((q) => cmp!.queryInfo[q]?.tags.includes(w.slice!)) : [];
    const queries = ids
      .map((qid) => ({ qid, text: info(qid), value: cmp!.perQuery[qid]?.[w.metric ?? cmp!.primaryMetric]?.delta ?? 0 }))
      .filter((q) => q.value < -1e-9)
      .sort((a, b) => a.value - b.value)
      .slice(0, worst);
    out.push({
      severity: 'warning',
      line,
      message: w.message + (queries.length ? `; worst queries: ${queries.map((q) => q.qid).join(', ')}` : ''),
      queries,
    });
  }
  return out;
}

function signed(x: number): string {
  return (x >= 0 ? '+' : '−') + Math.abs(x).toFixed(3);
}

/** Why one query fails as a test, or undefined when it passes. */
export function queryVerdict(
  metric: string,
  value: number | undefined,
  baselineValue: number | undefined,
  gates: Partial<GateSettings>,
  epsilon = 1e-6,
): string | undefined {
  if (typeof value !== 'number') return `${metric}: the query was not run`;
  const min = gates.min?.[metric];
  const reasons: string[] = [];
  if (typeof min === 'number' && value < min) reasons.push(`${metric} ${fmt3(value)} is below the gate ${min}`);
  if (typeof baselineValue === 'number') {
    const allowed = Math.max(epsilon, gates.maxRegression?.[metric] ?? 0);
    const delta = value - baselineValue;
    if (delta < -allowed)
      reasons.push(
        `${metric} regresses against the baseline: ${fmt3(baselineValue)} → ${fmt3(value)} (${signed(delta)}${gates.maxRegression?.[metric] !== undefined ? `, allowed −${allowed}` : ''})`,
      );
  }
  return reasons.length ? reasons.join('; ') : undefined;
}

/** A result list as the test diff shows it: one line per document, with the grade or "unjudged". */
export function formatResultList(docs: readonly RankedDoc[] | undefined, qrels: ReadonlyMap<string, number> | undefined, k = 10): string {
  if (!docs || docs.length === 0) return '(no results)\n';
  return (
    docs
      .slice(0, k)
      .map((d, i) => {
        const g = qrels?.get(d.id);
        return `${String(i + 1).padStart(2)}. ${d.id}  [${g === undefined ? 'unjudged' : `grade ${g}`}]${d.title ? `  ${visibleText(d.title)}` : ''}`;
      })
      .join('\n') + '\n'
  );
}
