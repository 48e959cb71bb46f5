import { InputError } from '../util/diagnostics';
import type { MetricOptions, QueryContext } from './context';
import type { MetricDefinition } from './definition';
import { metricDefinition, metricNamesHelp } from './registry';

/** A metric's canonical name without its parameter: "ndcg", "mrr", "rbp". */
export type MetricKind = string;

/** A metric as the user names it ("ndcg@10", "mrr", "rbp@0.8"), parsed once. */
export interface MetricSpec {
  /** Canonical name, used as the key in every report: "ndcg@10", "mrr", "p@5", "rbp@0.8". */
  name: string;
  kind: MetricKind;
  /** The cut-off, for metrics whose parameter is one. */
  k?: number;
  /** The parameter after `@` whatever it is (cut-off or RBP's p); undefined = whole list. */
  param?: number;
}

export function definitionOf(spec: MetricSpec): MetricDefinition {
  const def = metricDefinition(spec.kind);
  if (!def) throw new InputError(`unknown metric "${spec.name}": use ${metricNamesHelp()}`);
  return def;
}

export function parseMetric(text: string): MetricSpec {
  const m = /^\s*([a-z_-]+)\s*(?:@\s*([0-9]*\.?[0-9]+))?\s*$/i.exec(text);
  const def = m?.[1] ? metricDefinition(m[1].toLowerCase()) : undefined;
  if (!m || !def) throw new InputError(`unknown metric "${text}": use ${metricNamesHelp()}`);
  const { param } = def;
  const given = m[2] === undefined ? undefined : Number(m[2]);
  if (given !== undefined && !param) throw new InputError(`metric "${text}": ${def.name} takes no parameter`);
  const value = given ?? param?.default;
  if (value === undefined && param?.required) throw new InputError(`metric "${text}" needs a cut-off, e.g. ${def.name}@10`);
  if (value !== undefined && param?.name === 'k' && (!Number.isInteger(value) || value < 1)) {
    throw new InputError(`metric "${text}": the cut-off must be a whole number, at least 1`);
  }
  if (value !== undefined && param?.name === 'p' && !(value > 0 && value < 1)) {
    throw new InputError(`metric "${text}": the persistence p must be between 0 and 1, e.g. ${def.name}@0.8`);
  }
  return {
    name: value === undefined ? def.name : `${def.name}@${value}`,
    kind: def.name,
    k: param?.name === 'k' ? value : undefined,
    param: value,
  };
}

/** A metric list that is never empty: its first metric is the primary one (a sweep's objective, a verdict's). */
export type MetricSpecs = [MetricSpec, ...MetricSpec[]];

/** Parses a comma-separated list such as "ndcg@10,mrr@10,p@5", dropping duplicates. */
export function parseMetricList(text: string | string[]): MetricSpecs {
  const parts = (Array.isArray(text) ? text : text.split(',')).map((s) => s.trim()).filter(Boolean);
  const seen = new Map<string, MetricSpec>();
  for (const p of parts) {
    const spec = parseMetric(p);
    if (!seen.has(spec.name)) seen.set(spec.name, spec);
  }
  const [first, ...rest] = seen.values();
  if (!first) throw new InputError('no metrics given');
  return [first, ...rest];
}

/** The names of a metric list (never empty either). */
export function metricNames(specs: MetricSpecs): [string, ...string[]] {
  const [first, ...rest] = specs;
  return [first.name, ...rest.map((s) => s.name)];
}

export function computeMetric(spec: MetricSpec, ctx: QueryContext): number {
  return definitionOf(spec).compute(ctx, spec.param);
}

/** The variant in words, printed beside every number: "nDCG@10, gain 2^rel−1, ideal over all judged documents". */
export function describeMetric(spec: MetricSpec, options: MetricOptions): string {
  const def = definitionOf(spec);
  const head = !def.param ? def.label : spec.param === undefined ? `${def.label}, whole list` : `${def.label}@${spec.param}`;
  const words = def.variant ? def.variant(options) : def.binary ? `relevant = grade ≥ ${options.relevanceThreshold}` : '';
  const condensed = options.judgedOnly ? 'condensed: unjudged removed' : '';
  return [head, words, condensed].filter(Boolean).join(', ');
}

/** The definition in words for a tooltip or a legend: what it measures, its formula, its source and its tie rule. */
export function explainMetric(spec: MetricSpec): string {
  const def = definitionOf(spec);
  const said = def.description.charAt(0).toUpperCase() + def.description.slice(1);
  return `${said}. Formula: ${def.formula}. Reference: ${def.reference}. Ties: ${def.ties}.`;
}

export const DEFAULT_METRICS = 'ndcg@10,mrr@10,p@5,recall@100';
