/**
 * The user actions "explain a document of a saved run" and "why did these documents move" (the dashboard's expanded
 * document and its moved documents, through the worker). Both need the configs that made the runs, and only when each
 * run can still be reproduced exactly (core session/explain.ts configsOfRuns: a workspace config with the run's hash,
 * on the current corpus, built-in pipeline): that is decided here once; explaining then is explainDocument or
 * addMoveReasons. The signal stops either with its reason (between searches, and between queries).
 */
import { type ExplainReport, addMoveReasons, configsOfRuns, explainDocument } from '../session/explain';
import type { RanklabSession } from '../session/session';
import { InputError } from '../util/diagnostics';

/** A saved run as far as explaining it goes: the config and corpus it was made with (its provenance). */
export interface RunRef {
  configHash?: string;
  corpus?: string;
}

export interface ExplainRunDocumentInput {
  candidate: RunRef;
  /** Explained beside the candidate, with the one-line reason the rank changed. */
  baseline?: RunRef;
  /** A query id of the judgments, or a query's text. */
  query: string;
  doc: string;
  principal?: string;
}

export const NOT_REPRODUCIBLE = 'run no longer reproducible: config or corpus changed since it was made (evaluate again to explain it)';

/** A run that can no longer be reproduced is an InputError saying so (and what to do). */
export async function explainRunDocument(
  session: RanklabSession,
  input: ExplainRunDocumentInput,
  hooks: { signal?: AbortSignal } = {},
): Promise<ExplainReport> {
  const configs = configsOfRuns(session, input.baseline ? [input.candidate, input.baseline] : [input.candidate]);
  const [config, baseline] = configs ?? [];
  if (!config) throw new InputError(NOT_REPRODUCIBLE);
  return explainDocument(session, {
    config,
    baseline,
    query: input.query,
    doc: input.doc,
    principal: input.principal,
    signal: hooks.signal,
  });
}

export interface MoveReasonsInput {
  baseline: RunRef;
  candidate: RunRef;
  /** Per query (in the order to explain), the documents that moved. */
  queries: ReadonlyArray<{ qid: string; text?: string; moved: readonly string[] }>;
  principal?: string;
}

export interface MoveReasonsResult {
  /** False when either run can no longer be reproduced: then no reason is given. */
  reproducible: boolean;
  reasons: { qid: string; id: string; reason: string }[];
}

/** Every query given is explained (not only the first screenful, as compare's reasons are). */
export async function moveReasonsOf(
  session: RanklabSession,
  input: MoveReasonsInput,
  hooks: { signal?: AbortSignal } = {},
): Promise<MoveReasonsResult> {
  const [baseline, candidate] = configsOfRuns(session, [input.baseline, input.candidate]) ?? [];
  if (!baseline || !candidate) return { reproducible: false, reasons: [] };
  const queryDeltas = input.queries.map((q) => ({
    qid: q.qid,
    text: q.text,
    moved: q.moved.map((id) => ({ id, reason: undefined as string | undefined })),
  }));
  await addMoveReasons(
    session,
    baseline,
    candidate,
    { queryDeltas },
    { principal: input.principal, signal: hooks.signal, maxQueries: queryDeltas.length },
  );
  const reasons = queryDeltas.flatMap((q) =>
    q.moved.filter((m) => m.reason !== undefined).map((m) => ({ qid: q.qid, id: m.id, reason: m.reason! })),
  );
  return { reproducible: true, reasons };
}
