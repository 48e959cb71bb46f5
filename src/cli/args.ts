import { parseArgs, type ParseArgsConfig } from 'node:util';
import { type Diagnostic, InputError } from '../core/util/diagnostics';
import {
  parseMetricList,
  metricNamesHelp,
  type EvaluateOptions,
  type MetricSpecs,
  DEFAULT_METRICS,
  THRESHOLD_ZERO_WARNING,
} from '../core/metrics';

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

/**
 * Parses the flags of a command. Unknown flags, a flag without its value, an empty value and (unless the command
 * takes them, e.g. a search query) extra arguments are exit-2 errors naming the flag or argument.
 */
export function parse<T extends Options>(argv: string[], options: T, opts: { positionals?: string } = {}) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    // node:util's messages name the flag ("Unknown option '--frobnicate'"); its advice on positionals does not apply.
    throw new InputError((e as Error).message.replace(/\. To specify a positional argument.*$/s, ''), [], { hint: 'see --help' });
  }
  if (!opts.positionals && parsed.positionals.length) {
    throw new InputError(`unexpected argument "${parsed.positionals[0]}"`, [], { hint: 'flags start with --; see --help' });
  }
  for (const [name, value] of Object.entries(parsed.values)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && v.trim() === ''))
      throw new InputError('needs a value, got an empty string', [], { key: `--${name}` });
  }
  return parsed;
}

/**
 * The one reader of numeric flags: plain decimal digits only (no "0x10", "1e3", "1.5", " "), a safe integer,
 * at least `min`. Undefined when the flag was not given.
 */
export function intFlag(value: string | undefined, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min) {
    throw new InputError(`must be an integer >= ${min}, not "${value}"`, [], { key: flag });
  }
  return n;
}

export interface MetricChoice {
  specs: MetricSpecs;
  options: EvaluateOptions;
  /** What a flag's value means that the user may not expect (for the command's InputReport). */
  warnings: Diagnostic[];
}

/** The metric lines of every scoring command's --help, generated from the metric registry. */
export const METRICS_HELP = `  --metrics: comma-separated, from ${metricNamesHelp()} (docs/metrics.md).
  --judged-only: condensed lists (trec_eval -J): unjudged documents are removed before every metric.`;

/**
 * Metrics and their variant from the flags, else from ranklab.json (validated where it was read, so a bad
 * setting is reported at its line there, never as a bad flag).
 */
export function metricChoice(
  values: { metrics?: string; gain?: string; 'relevance-threshold'?: string; 'exclude-no-relevant'?: boolean; 'judged-only'?: boolean },
  defaults: { metrics?: string | string[]; gain?: 'exp' | 'linear'; relevanceThreshold?: number; judgedOnly?: boolean } = {},
): MetricChoice {
  const gain = values.gain ?? defaults.gain ?? 'exp';
  if (gain !== 'exp' && gain !== 'linear')
    throw new InputError(`must be "exp" (2^rel-1) or "linear" (rel), not "${gain}"`, [], { key: '--gain' });
  // 0 is legal, as trec_eval's -l 0: every judged document is relevant, unjudged ones are not.
  const threshold = intFlag(values['relevance-threshold'], '--relevance-threshold', 0) ?? defaults.relevanceThreshold ?? 1;
  let specs: MetricSpecs;
  try {
    specs = parseMetricList(values.metrics ?? defaults.metrics ?? DEFAULT_METRICS);
  } catch (e) {
    if (e instanceof InputError && values.metrics !== undefined) throw new InputError(e.reason, [], { key: '--metrics' });
    throw e;
  }
  return {
    specs,
    options: {
      gain,
      relevanceThreshold: threshold,
      excludeNoRelevant: !!values['exclude-no-relevant'],
      judgedOnly: !!(values['judged-only'] ?? defaults.judgedOnly),
    },
    // ranklab.json's 0 is reported at its line when the workspace is read; the flag's here.
    warnings:
      values['relevance-threshold'] !== undefined && threshold === 0
        ? [{ file: '', line: 0, severity: 'warning', key: '--relevance-threshold', message: THRESHOLD_ZERO_WARNING }]
        : [],
  };
}

export function formatChoice<F extends string>(value: string | undefined, allowed: readonly F[], fallback: F, flag = '--format'): F {
  const f = (value ?? fallback) as F;
  if (!allowed.includes(f)) throw new InputError(`must be one of ${allowed.join(', ')}, not "${value}"`, [], { key: flag });
  return f;
}

export function required(value: string | undefined, flag: string): string {
  if (!value) throw new InputError('is required', [], { key: flag });
  return value;
}
