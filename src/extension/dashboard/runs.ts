/**
 * How the dashboard names and picks saved runs: "config · principal · time · headline" labels, the default
 * baseline and candidate, a run's summary for the pickers and tables (from the run index, never its file), and a
 * metric's column with its definition. No `vscode` import.
 */
import type { MetricColumn, RunSummary } from '../../protocol/dashboard';
import type { MetricOptions } from '../../core/metrics/context';
import { describeMetric, explainMetric, parseMetric } from '../../core/metrics/spec';
import type { StoredRun } from '../run-store';

export function metricColumn(spec: string, options: MetricOptions): MetricColumn {
  try {
    const parsed = parseMetric(spec);
    return { spec, label: describeMetric(parsed, options), definition: explainMetric(parsed) };
  } catch {
    return { spec, label: spec };
  }
}

/** Who a run was made as: a principal's name, or null (no principal: every document). */
export function principalOf(r: StoredRun): string | null {
  return r.summary.principal ?? null;
}

/** How a principal is named next to a run or a comparison. */
export function principalText(p: string | null): string {
  return p === null ? 'unrestricted' : `as ${p}`;
}

/**
 * Baseline: explicit pick, else the newest run of the configured baseline config (made without a principal when
 * there is one: runs as a principal are compared when asked for), else the oldest run.
 */
export function chooseBaseline(runs: StoredRun[], explicit?: string, baselineConfig?: string): StoredRun | undefined {
  const picked = explicit ? runs.find((r) => r.id === explicit) : undefined;
  if (picked) return picked;
  const ofConfig = baselineConfig ? runs.filter((r) => r.summary.provenance.config === baselineConfig) : [];
  const unrestricted = ofConfig.filter((r) => principalOf(r) === null);
  return unrestricted[unrestricted.length - 1] ?? ofConfig[ofConfig.length - 1] ?? runs[0];
}

/**
 * Candidate: explicit pick, else the newest other run made as the baseline's principal (a comparison with it is
 * possible), else the newest other run.
 */
export function chooseCandidate(runs: StoredRun[], baseline: StoredRun | undefined, explicit?: string): StoredRun | undefined {
  const picked = explicit ? runs.find((r) => r.id === explicit) : undefined;
  if (picked) return picked;
  const others = runs.filter((r) => r !== baseline);
  const same = baseline ? others.filter((r) => principalOf(r) === principalOf(baseline)) : others;
  return same[same.length - 1] ?? others[others.length - 1];
}

/** Local time to the minute, "2026-12-03 14:13" (the ISO string itself when it is not a date). */
export function runTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** "config · principal · time · headline metric", e.g. "title-boost-3 · unrestricted · 2026-12-03 14:13 · ndcg@10 0.787". */
export function runLabel(r: StoredRun, headline?: string): string {
  const v = headline ? r.summary.metrics[headline] : undefined;
  const parts = [r.summary.provenance.config, principalText(principalOf(r)), runTime(r.summary.provenance.createdAt)];
  if (headline && typeof v === 'number') parts.push(`${headline} ${v.toFixed(3)}`);
  return parts.join(' · ');
}

/** A run as the pickers and tables show it: from its summary (the run index), never its file. */
export function summarize(r: StoredRun, headline?: string): RunSummary {
  const { provenance, queryCount, metrics, latency, annRecall } = r.summary;
  const label = runLabel(r, headline);
  const principal = principalOf(r);
  return {
    id: r.id,
    config: provenance.config,
    principal,
    label,
    time: runTime(provenance.createdAt),
    createdAt: provenance.createdAt,
    tool: provenance.tool,
    queryCount,
    metrics,
    latency: latency ?? {},
    annRecall,
    search: [label, r.id, provenance.createdAt, principal ?? 'no principal'].join(' ').toLowerCase(),
  };
}
