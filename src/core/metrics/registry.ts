import type { MetricDefinition } from './definition';
import { PRECISION } from './precision';
import { RECALL } from './recall';
import { MRR } from './reciprocal-rank';
import { NDCG } from './ndcg';
import { HIT } from './hit';
import { AP } from './average-precision';
import { JUDGED } from './judged';
import { BPREF } from './bpref';
import { INFAP } from './infap';
import { RPREC } from './rprec';
import { GRADED_RBP, RBP } from './rbp';
import { ERR, NERR } from './err';

/** Every metric Ranklab knows, one row each, in the order of the docs table. A new metric = its file + one row. */
export const METRICS: readonly MetricDefinition[] = [
  PRECISION,
  RECALL,
  MRR,
  NDCG,
  HIT,
  AP,
  JUDGED,
  RPREC,
  BPREF,
  INFAP,
  RBP,
  GRADED_RBP,
  ERR,
  NERR,
];

const BY_NAME = new Map<string, MetricDefinition>();
for (const def of METRICS) {
  for (const name of [def.name, ...def.aliases]) {
    if (BY_NAME.has(name)) throw new Error(`metric name "${name}" declared twice`);
    BY_NAME.set(name, def);
  }
}

/** The definition a name or alias (lower case) stands for. */
export function metricDefinition(name: string): MetricDefinition | undefined {
  return BY_NAME.get(name);
}

/** How a metric is written on the command line: "p@k", "mrr, mrr@k", "bpref", "rbp@p". */
export function metricUsage(def: MetricDefinition): string {
  const { param } = def;
  if (!param) return def.name;
  const at = `${def.name}@${param.name}`;
  return param.required || param.default !== undefined ? at : `${def.name}, ${at}`;
}

/** The accepted names in one line, for error messages and `--help`. */
export function metricNamesHelp(): string {
  return METRICS.map(metricUsage).join(', ');
}
