/**
 * The text and percentage of a long command's progress notification, from the core's progress reports
 * (src/core/util/cooperative.ts, the same ones the CLI prints as RANKLAB_PROGRESS lines). No `vscode` import:
 * unit-tested in test/unit/extension/progress.test.ts, drawn by `progress.report` in the vscode layer.
 */
import type { WorkPhase, WorkProgress } from '../../core/util/cooperative';

/** Which config of how many a command is on (index 0-based). */
export interface ConfigStep {
  index: number;
  count: number;
}

const PHASES: Record<WorkPhase, { doing: string; items?: string }> = {
  corpus: { doing: 'reading the corpus', items: 'files' },
  'lexical-index': { doing: 'building the lexical index', items: 'documents' },
  'lexical-cache': { doing: 'loading the cached lexical index' },
  lsa: { doing: 'training LSA', items: 'documents' },
  embedding: { doing: 'embedding documents', items: 'documents' },
  hnsw: { doing: 'building the vector index', items: 'points' },
  queries: { doing: 'running queries', items: 'queries' },
  'access-check': { doing: 'checking access', items: 'checks' },
  statistics: { doing: 'computing statistics' },
};

/**
 * "baseline: 40/94 queries (config 2 of 3)", "hybrid: building the lexical index 120/500 documents",
 * "baseline: reading the corpus (35 files)". The step is left out for a single config.
 */
export function progressText(p: WorkProgress, step?: ConfigStep): string {
  const { doing, items } = PHASES[p.phase] ?? { doing: p.phase };
  let what: string;
  if (p.phase === 'queries' && p.total > 0) what = `${p.done}/${p.total} queries`;
  else if (p.total > 1 && items) what = `${doing} ${p.done}/${p.total} ${items}`;
  else if (p.total === 0 && p.done > 0 && items) what = `${doing} (${p.done} ${items})`;
  else what = doing;
  const head = p.label ? `${p.label}: ${what}` : what;
  return step && step.count > 1 ? `${head} (config ${step.index + 1} of ${step.count})` : head;
}

/**
 * How far a run over `step.count` configs is, in percent: each config is an equal share, filled by its query
 * loop (index builds have no known length relative to the queries, so they count as the start of the share).
 */
export function progressPercent(step: ConfigStep, p?: WorkProgress): number {
  const within = p && p.phase === 'queries' && p.total > 0 ? Math.min(1, Math.max(0, p.done / p.total)) : 0;
  return (100 * (step.index + within)) / Math.max(1, step.count);
}

/** The message after a cancelled evaluation: what was saved, and which config was stopped (and not saved). */
export function cancelledText(saved: number, total: number, stopped?: string): string {
  const notSaved = stopped ? `; ${stopped} stopped, nothing of it saved` : '';
  return `Ranklab: evaluation cancelled (${saved} of ${total} config(s) saved${notSaved})`;
}
