import { parseMetric, type MetricSpec, type MetricSpecs } from '../metrics/spec';
import { closest } from '../util/closest';
import { type Diagnostic, InputError } from '../util/diagnostics';
import { JsonSyntaxError, type JsonLocations, escapePointerToken, lineOfPointer, parseJsonWithLocations } from '../util/json-source';
import { readUserText } from '../util/text-file';
import type { ComparisonStatistics } from './compare';

/**
 * Quality gates declared in ranklab.json, in the shape of Anserini's regression files:
 * minimum means for the candidate and maximum regressions against the baseline, overall and per slice.
 */
export interface GateSettings {
  min?: Record<string, number>;
  maxRegression?: Record<string, number>;
  maxSliceRegression?: Record<string, number>;
}

export const GATE_KINDS = ['min', 'maxRegression', 'maxSliceRegression'] as const;
export type GateKind = (typeof GATE_KINDS)[number];

/** A problem with a gate declaration, at a JSON pointer relative to the gates object ("" = the object itself). */
export interface GateProblem {
  pointer: string;
  /** Dotted path of the offending entry, relative to the gates object ("min.ndcg@10"; "" = the object). */
  key: string;
  message: string;
  hint?: string;
}

/**
 * The one definition of a valid gates declaration (ranklab.json "gates", a --gates file, the extension):
 * an object whose keys are gate kinds, each an object of metric name -> finite number. Anything else is a
 * problem (a gate that cannot be evaluated must never pass silently). Metric names come back canonical
 * ("NDCG_cut@10" -> "ndcg@10"), so every gate finds its metric in a comparison.
 */
export function validateGates(value: unknown): { gates: GateSettings; problems: GateProblem[] } {
  const problems: GateProblem[] = [];
  const gates: GateSettings = {};
  if (!isObject(value)) {
    problems.push({
      pointer: '',
      key: '',
      message: `gates must be an object {"min": {...}, "maxRegression": {...}, "maxSliceRegression": {...}}, not ${describe(value)}`,
    });
    return { gates, problems };
  }
  for (const [kind, entries] of Object.entries(value)) {
    const kindPointer = `/${escapePointerToken(kind)}`;
    if (!(GATE_KINDS as readonly string[]).includes(kind)) {
      const lower = kind.toLowerCase();
      const guess =
        closest(kind, [...GATE_KINDS]) ?? GATE_KINDS.find((k) => lower.startsWith(k.toLowerCase()) || k.toLowerCase().startsWith(lower));
      problems.push({
        pointer: kindPointer,
        key: kind,
        message: `unknown gate kind "${kind}"`,
        hint: guess ? `did you mean "${guess}"?` : `use ${GATE_KINDS.map((k) => `"${k}"`).join(', ')}`,
      });
      continue;
    }
    if (!isObject(entries)) {
      problems.push({
        pointer: kindPointer,
        key: kind,
        message: `must be an object of metric -> threshold, e.g. {"ndcg@10": 0.65}, not ${describe(entries)}`,
      });
      continue;
    }
    const out: Record<string, number> = {};
    for (const [metric, threshold] of Object.entries(entries)) {
      const pointer = `${kindPointer}/${escapePointerToken(metric)}`;
      const key = `${kind}.${metric}`;
      let spec: MetricSpec;
      try {
        spec = parseMetric(metric);
      } catch (e) {
        problems.push({ pointer, key, message: e instanceof InputError ? e.reason : (e as Error).message });
        continue;
      }
      if (typeof threshold !== 'number' || !Number.isFinite(threshold)) {
        problems.push({ pointer, key, message: `the threshold must be a number, not ${describe(threshold)}` });
        continue;
      }
      if (spec.name in out) {
        problems.push({ pointer, key, message: `"${spec.name}" is gated twice in "${kind}"` });
        continue;
      }
      out[spec.name] = threshold;
    }
    gates[kind as GateKind] = out;
  }
  return { gates, problems };
}

/** Number of declared gates. */
export function gateCount(gates: GateSettings): number {
  return GATE_KINDS.reduce((n, k) => n + Object.keys(gates[k] ?? {}).length, 0);
}

/** Gate problems as diagnostics of a file whose gates object sits at `base` (a JSON pointer), keys prefixed by `keyPrefix`. */
export function gateDiagnostics(problems: GateProblem[], file: string, locations: JsonLocations, base = '', keyPrefix = ''): Diagnostic[] {
  return problems.map((p) => {
    const d: Diagnostic = { file, line: lineOfPointer(locations, base + p.pointer), severity: 'error', message: p.message };
    const key = p.key ? `${keyPrefix}${p.key}` : keyPrefix.replace(/\.$/, '');
    if (key) d.key = key;
    if (p.hint) d.hint = p.hint;
    return d;
  });
}

/**
 * Reads a --gates file (JSON with comments, BOM, trailing commas, like every JSON file here; duplicate keys are
 * errors). An unusable file throws; invalid entries come back as error diagnostics at their line.
 */
export function readGatesFile(path: string, display = path): { gates: GateSettings; diagnostics: Diagnostic[] } {
  const text = readUserText(path, display);
  if (text.trim() === '') throw new InputError('file is empty; expected gates {"min": {...}, ...}', [], { file: display });
  let parsed: ReturnType<typeof parseJsonWithLocations>;
  try {
    parsed = parseJsonWithLocations(text, { comments: true, duplicateKeys: 'error' });
  } catch (e) {
    if (e instanceof JsonSyntaxError)
      throw new InputError(`invalid JSON: ${e.reason} (column ${e.column})`, [], { file: display, line: e.line });
    throw e;
  }
  const { gates, problems } = validateGates(parsed.value);
  return { gates, diagnostics: gateDiagnostics(problems, display, parsed.locations) };
}

/** The metrics the gates need, added to `specs` when missing, so that every gate can be evaluated. */
export function withGateMetrics(specs: MetricSpecs, gates: GateSettings): MetricSpecs {
  const out: MetricSpecs = [...specs];
  for (const kind of GATE_KINDS) {
    for (const metric of Object.keys(gates[kind] ?? {})) if (!out.some((s) => s.name === metric)) out.push(parseMetric(metric));
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  const s = JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
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
export function checkGates(gates: GateSettings, cmp: ComparisonStatistics): GateResult[] {
  const results: GateResult[] = [];
  const qids = Object.keys(cmp.perQuery);
  const losers = (metric: string, ids: string[]) =>
    ids
      .map((q) => ({ qid: q, value: cmp.perQuery[q]?.[metric]?.delta ?? NaN }))
      .filter((x) => x.value < -1e-9)
      .sort((a, b) => a.value - b.value);

  for (const [metric, threshold] of Object.entries(gates.min ?? {})) {
    const m = cmp.metrics[metric];
    const actual = m ? m.candidate : NaN;
    const below = qids
      .map((q) => ({ qid: q, value: cmp.perQuery[q]?.[metric]?.candidate ?? NaN }))
      .filter((x) => x.value < threshold)
      .sort((a, b) => a.value - b.value);
    results.push({
      gate: `${metric} >= ${threshold}`,
      kind: 'min',
      metric,
      threshold,
      actual,
      passed: actual >= threshold,
      queries: below,
    });
  }
  for (const [metric, threshold] of Object.entries(gates.maxRegression ?? {})) {
    const m = cmp.metrics[metric];
    const drop = m ? -m.delta : NaN;
    results.push({
      gate: `${metric} drop vs baseline <= ${threshold}`,
      kind: 'maxRegression',
      metric,
      threshold,
      actual: drop,
      passed: drop <= threshold,
      queries: losers(metric, qids),
    });
  }
  for (const [metric, threshold] of Object.entries(gates.maxSliceRegression ?? {})) {
    for (const [slice, sc] of Object.entries({ ...cmp.slices, ...prefixed(cmp.splits) })) {
      const m = sc.metrics[metric];
      const drop = m ? -m.delta : NaN;
      const ids = qids.filter((q) => sliceHas(cmp, q, slice));
      results.push({
        gate: `${metric} drop vs baseline <= ${threshold} in slice ${slice}`,
        kind: 'maxSliceRegression',
        metric,
        slice,
        threshold,
        actual: drop,
        passed: drop <= threshold,
        queries: losers(metric, ids),
      });
    }
  }
  return results;
}

function prefixed(splits: ComparisonStatistics['splits']) {
  return Object.fromEntries(Object.entries(splits).map(([k, v]) => [`split:${k}`, v!]));
}

function sliceHas(cmp: ComparisonStatistics, qid: string, slice: string): boolean {
  const info = cmp.queryInfo[qid];
  if (!info) return false;
  return slice.startsWith('split:') ? info.split === slice.slice(6) : info.tags.includes(slice);
}

export function gatesPassed(results: GateResult[]): boolean {
  return results.every((r) => r.passed);
}
