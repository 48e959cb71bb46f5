import { InputError } from '../util/diagnostics';
import type { MetricOptions, QueryContext } from './context';
import { precisionAt } from './precision';
import { recallAt } from './recall';
import { reciprocalRank } from './reciprocal-rank';
import { ndcgAt } from './ndcg';
import { hitAt } from './hit';
import { averagePrecision } from './average-precision';
import { judgedAt } from './judged';

export type MetricKind = 'p' | 'recall' | 'mrr' | 'ndcg' | 'hit' | 'ap' | 'judged';

/** A metric as the user names it ("ndcg@10", "mrr"), parsed once. */
export interface MetricSpec {
  /** Canonical name, used as the key in every report: "ndcg@10", "mrr", "p@5". */
  name: string;
  kind: MetricKind;
  k?: number;
}

interface MetricDefinition {
  /** Whether the metric takes a cut-off: required (p@k), optional (mrr, mrr@k) or none. */
  cutoff: 'required' | 'optional';
  compute(ctx: QueryContext, k: number | undefined): number;
  label: string;
}

const DEFINITIONS: Record<MetricKind, MetricDefinition> = {
  p: { cutoff: 'required', compute: (c, k) => precisionAt(c, k!), label: 'Precision' },
  recall: { cutoff: 'required', compute: (c, k) => recallAt(c, k!), label: 'Recall' },
  mrr: { cutoff: 'optional', compute: (c, k) => reciprocalRank(c, k), label: 'MRR' },
  ndcg: { cutoff: 'optional', compute: (c, k) => ndcgAt(c, k), label: 'nDCG' },
  hit: { cutoff: 'required', compute: (c, k) => hitAt(c, k!), label: 'Hit rate' },
  ap: { cutoff: 'optional', compute: (c, k) => averagePrecision(c, k), label: 'AP' },
  judged: { cutoff: 'required', compute: (c, k) => judgedAt(c, k!), label: 'Judged' },
};

const ALIASES: Record<string, MetricKind> = {
  p: 'p', precision: 'p', recall: 'recall', r: 'recall', mrr: 'mrr', rr: 'mrr', recip_rank: 'mrr',
  ndcg: 'ndcg', ndcg_cut: 'ndcg', hit: 'hit', hits: 'hit', success: 'hit', ap: 'ap', map: 'ap', judged: 'judged',
};

export function parseMetric(text: string): MetricSpec {
  const m = /^\s*([a-z_]+)\s*(?:@\s*(\d+))?\s*$/i.exec(text);
  const kind = m ? ALIASES[m[1].toLowerCase()] : undefined;
  if (!m || !kind) {
    throw new InputError(`unknown metric "${text}": use p@k, recall@k, mrr, mrr@k, ndcg@k, hit@k, ap or judged@k`);
  }
  const k = m[2] === undefined ? undefined : Number(m[2]);
  const def = DEFINITIONS[kind];
  if (k === undefined && def.cutoff === 'required') throw new InputError(`metric "${text}" needs a cut-off, e.g. ${kind}@10`);
  if (k !== undefined && k < 1) throw new InputError(`metric "${text}": the cut-off must be at least 1`);
  return { name: k === undefined ? kind : `${kind}@${k}`, kind, k };
}

/** Parses a comma-separated list such as "ndcg@10,mrr@10,p@5", dropping duplicates. */
export function parseMetricList(text: string | string[]): MetricSpec[] {
  const parts = (Array.isArray(text) ? text : text.split(',')).map((s) => s.trim()).filter(Boolean);
  if (parts.length === 0) throw new InputError('no metrics given');
  const seen = new Map<string, MetricSpec>();
  for (const p of parts) {
    const spec = parseMetric(p);
    if (!seen.has(spec.name)) seen.set(spec.name, spec);
  }
  return [...seen.values()];
}

export function computeMetric(spec: MetricSpec, ctx: QueryContext): number {
  return DEFINITIONS[spec.kind].compute(ctx, spec.k);
}

/** The variant in words, printed beside every number: "nDCG@10, gain 2^rel−1, ideal over all judged documents". */
export function describeMetric(spec: MetricSpec, options: MetricOptions): string {
  const def = DEFINITIONS[spec.kind];
  const head = spec.k === undefined ? `${def.label}, whole list` : `${def.label}@${spec.k}`;
  switch (spec.kind) {
    case 'ndcg':
      return `${head}, gain ${options.gain === 'exp' ? '2^rel−1' : 'rel (linear)'}, log2(rank+1) discount, ideal over all judged documents`;
    case 'judged':
      return `${head}, share of shown results with any judgment`;
    default:
      return `${head}, relevant = grade ≥ ${options.relevanceThreshold}`;
  }
}

export const DEFAULT_METRICS = 'ndcg@10,mrr@10,p@5,recall@100';
