/**
 * The one vocabulary of stages: every step of the built-in pipeline and every stage a run records, declared once,
 * in pipeline order, with its one spelling. The steps (retrieval/steps/), the runs (their `stages`, `stageIds` and
 * latencies), stage recall, reports, `ranklab explain` and the dashboard all take their names from here; a name a
 * run saved before it was unified is read through `aliases`, in one place (`canonicalStageNames`), and never written.
 */

interface StageDeclaration {
  readonly name: string;
  /** A step of the built-in pipeline (retrieval/steps/STEPS). */
  readonly step: boolean;
  /** Runs record it: each document's rank and score in it, its ids, its latency. */
  readonly recorded: boolean;
  /** Old spellings, read from runs saved before, never written. */
  readonly aliases?: readonly string[];
  /** What the step's explanation says about one document (`ranklab explain`, the dashboard, docs/cli.md); none: not a step. */
  readonly explains?: string;
}

export const STAGES = [
  {
    name: 'lexical',
    step: true,
    recorded: true,
    explains:
      'per field, query term and matched index term: tf, field length, idf, length norm, BM25, boost and coordination; the contributions add up to the lexical score',
  },
  {
    name: 'vector',
    step: true,
    recorded: true,
    explains:
      "the similarity, the rank in the vector list, whether HNSW or exact search produced it, and exact search's rank (so an HNSW miss shows)",
  },
  {
    name: 'fuse',
    step: true,
    recorded: true,
    aliases: ['fused'],
    explains: "each list's rank (within the hybrid depth), weight and weight/(k+rank); the sum is the fused score",
  },
  { name: 'rerank', step: true, recorded: true, explains: "the model's score and the rank before and after" },
  { name: 'post-filter', step: true, recorded: false, explains: 'kept, filtered by access, or beyond the candidates' },
  /** The list an external engine returned (src/core/engines/), in place of the local stages. */
  { name: 'engine', step: false, recorded: true },
] as const satisfies readonly StageDeclaration[];

type Declared = (typeof STAGES)[number];

/** A stage a run records. */
export type StageName = Extract<Declared, { recorded: true }>['name'];
/** A step of the built-in pipeline. */
export type StepName = Extract<Declared, { step: true }>['name'];

/** The stages a run records, in pipeline order (reports list stages in this order). */
export const STAGE_NAMES: readonly StageName[] = STAGES.filter((s): s is Extract<Declared, { recorded: true }> => s.recorded).map(
  (s) => s.name,
);
/** The steps of the built-in pipeline, in order. */
export const STEP_NAMES: readonly StepName[] = STAGES.filter((s): s is Extract<Declared, { step: true }> => s.step).map((s) => s.name);

const RECORDED: ReadonlySet<string> = new Set(STAGE_NAMES);

/** The stage a run records a step under (its own name), or undefined for a step runs do not record (post-filter). */
export function recordedStage(step: StepName): StageName | undefined {
  return RECORDED.has(step) ? (step as StageName) : undefined;
}

/** Each step's one-line account of its explanation (see `StageDeclaration.explains`). */
export const STEP_EXPLAINS: Readonly<Record<StepName, string>> = Object.fromEntries(
  STAGES.filter((s): s is Extract<Declared, { step: true }> => s.step).map((s) => [s.name, s.explains]),
) as Record<StepName, string>;

/**
 * Where one document stands after a step (`StepExplanation.outcome`), each with what it means: the one list of
 * them (`ranklab explain --format json`, the dashboard's outcome styles, docs/cli.md).
 */
export const STEP_OUTCOMES = {
  kept: "in the step's output",
  'not-matched': 'the step could not retrieve it (no query term, AND unmet, no vector)',
  'below-depth': "it scored, but under the step's depth or candidate cut",
  filtered: 'the principal may not see it',
  'not-reached': 'it was not among the hits the step was given',
} as const;
export type StepOutcome = keyof typeof STEP_OUTCOMES;

const CANONICAL: ReadonlyMap<string, StageName> = new Map(
  STAGES.filter((s) => s.recorded).flatMap((s) =>
    ('aliases' in s ? s.aliases : []).map((a): [string, StageName] => [a, s.name as StageName]),
  ),
);

/** The one spelling of a stage name read from a file (an old spelling becomes the current one; others unchanged). */
export function canonicalStageName(name: string): string {
  return CANONICAL.get(name) ?? name;
}

/** `record` with its stage keys in their current spelling (the same object when none is old). */
function renamed<T>(record: Record<string, T>): Record<string, T> {
  let old = false;
  for (const k in record) if (CANONICAL.has(k)) old = true; // no allocation: this runs once per ranked document
  if (!old) return record;
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [canonicalStageName(k), v]));
}

interface StagedRun {
  latency?: Record<string, unknown>;
  queries?: Array<{
    latencyMs?: Record<string, unknown>;
    stageIds?: Record<string, unknown>;
    docs?: Array<{ stages?: Record<string, unknown> }>;
  }>;
}

/**
 * A run read from a file (any format, expanded) with every stage key in its current spelling: the run-wide
 * latencies, each query's latencies and stage outputs, each document's stages. Runs saved before a spelling was
 * unified load and compare as new ones; nothing else reads an old spelling. Changes `run` in place and returns it.
 */
export function canonicalStageNames<T>(run: T): T {
  if (CANONICAL.size === 0 || typeof run !== 'object' || run === null) return run;
  const r = run as StagedRun;
  if (r.latency && typeof r.latency === 'object') r.latency = renamed(r.latency);
  if (!Array.isArray(r.queries)) return run;
  for (const q of r.queries) {
    if (!q || typeof q !== 'object') continue;
    if (q.latencyMs && typeof q.latencyMs === 'object') q.latencyMs = renamed(q.latencyMs);
    if (q.stageIds && typeof q.stageIds === 'object') q.stageIds = renamed(q.stageIds);
    if (!Array.isArray(q.docs)) continue;
    for (const d of q.docs) if (d && typeof d.stages === 'object' && d.stages !== null) d.stages = renamed(d.stages);
  }
  return run;
}
