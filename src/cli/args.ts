import { parseArgs, type ParseArgsConfig } from 'node:util';
import { InputError } from '../core/util/diagnostics';
import { parseMetricList, metricNamesHelp, type EvaluateOptions, type MetricSpec, DEFAULT_METRICS } from '../core/metrics';

export type Options = NonNullable<ParseArgsConfig['options']>;

/** Options every scoring command shares: which metrics, which variant, which output. */
export const METRIC_OPTIONS = {
  metrics: { type: 'string' },
  gain: { type: 'string' },
  'relevance-threshold': { type: 'string' },
  'exclude-no-relevant': { type: 'boolean' },
  'judged-only': { type: 'boolean' },
  format: { type: 'string', short: 'f' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

export function parse<T extends Options>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new InputError((e as Error).message);
  }
}

export interface MetricChoice {
  specs: MetricSpec[];
  options: EvaluateOptions;
}

/** The metric lines of every scoring command's --help, generated from the metric registry. */
export const METRICS_HELP = `  --metrics: comma-separated, from ${metricNamesHelp()} (README "Metrics, exactly").
  --judged-only: condensed lists (trec_eval -J): unjudged documents are removed before every metric.`;

export function metricChoice(values: { metrics?: string; gain?: string; 'relevance-threshold'?: string; 'exclude-no-relevant'?: boolean; 'judged-only'?: boolean }, defaults: { metrics?: string | string[]; gain?: 'exp' | 'linear'; relevanceThreshold?: number; judgedOnly?: boolean } = {}): MetricChoice {
  const gain = values.gain ?? defaults.gain ?? 'exp';
  if (gain !== 'exp' && gain !== 'linear') throw new InputError(`--gain must be "exp" (2^rel-1) or "linear" (rel), not "${gain}"`);
  const thresholdText = values['relevance-threshold'];
  const threshold = thresholdText === undefined ? (defaults.relevanceThreshold ?? 1) : Number(thresholdText);
  if (!Number.isInteger(threshold) || threshold < 1) throw new InputError(`--relevance-threshold must be an integer >= 1, not "${thresholdText}"`);
  return {
    specs: parseMetricList(values.metrics ?? defaults.metrics ?? DEFAULT_METRICS),
    options: { gain, relevanceThreshold: threshold, excludeNoRelevant: !!values['exclude-no-relevant'], judgedOnly: !!(values['judged-only'] ?? defaults.judgedOnly) },
  };
}

export function formatChoice<F extends string>(value: string | undefined, allowed: readonly F[], fallback: F): F {
  const f = (value ?? fallback) as F;
  if (!allowed.includes(f)) throw new InputError(`--format must be one of ${allowed.join(', ')}, not "${value}"`);
  return f;
}

export function required(value: string | undefined, flag: string): string {
  if (!value) throw new InputError(`${flag} is required`);
  return value;
}
