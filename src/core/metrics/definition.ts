import type { MetricOptions, QueryContext } from './context';

/**
 * The one parameter a metric may take after `@`: a cut-off (`ndcg@10`) or RBP's persistence (`rbp@0.8`).
 * `required` = the name is unusable without it; `default` = the canonical name spells it out (`rbp` → `rbp@0.8`);
 * neither = the metric without a value means "the whole list" (`ndcg`, `mrr`).
 */
export interface MetricParameter {
  name: 'k' | 'p';
  required: boolean;
  default?: number;
  /** One line for the docs table, e.g. "cut-off (optional; whole list without it)". */
  description: string;
}

/**
 * Everything about one metric, declared once next to its compute function (ir_measures style): the registry
 * (`registry.ts`) lists these, and the parser, the error messages, `--help`, `describeMetric` and the docs/metrics.md
 * metric table are generated from them.
 */
export interface MetricDefinition {
  /** Canonical name, the key in every report before `@`: "ndcg". */
  name: string;
  /** Other accepted spellings (trec_eval, ir_measures, ranx names); parsed into `name`. */
  aliases: string[];
  param?: MetricParameter;
  /** Short label printed in variant descriptions: "nDCG". */
  label: string;
  /** One line: what it measures. */
  description: string;
  /** The formula in plain text (docs/metrics.md table). */
  formula: string;
  /** Paper or tool it follows. */
  reference: string;
  /** How tied scores are ordered for this metric (see `TIE_RULE`). */
  ties: string;
  /** Whether "relevant = grade ≥ threshold" applies (binary metrics) — printed in the variant words. */
  binary: boolean;
  /** Extra variant words after the head (gain, discount...); default: the relevance threshold for binary metrics. */
  variant?(options: MetricOptions): string;
  compute(ctx: QueryContext, param: number | undefined): number;
  /** For metrics that report one: the most the value could rise if every unjudged document were relevant. */
  residual?(ctx: QueryContext, param: number | undefined): number;
}

/**
 * Ranklab takes each ranked list in its given order. TREC run files are put in trec_eval's order when read:
 * score descending, ties by document id descending (string order); the rank column is ignored. Ranklab's own
 * pipeline orders final lists the same way. Every metric inherits this rule.
 */
export const TIE_RULE = 'list order; TREC runs: score desc, then docid desc (trec_eval)';
