/**
 * `ranklab explain`: why one document is where it is for one query under a config (each step's account, from
 * retrieval/steps), optionally beside a baseline config with the one-line reason its rank changed; and the same
 * reason for every moved document of a comparison.
 */
import type { RankConfig } from '../config/types';
import { modeLabel } from '../config';
import type { StepExplanation, StepName } from '../retrieval/steps';
import { closest } from '../util/closest';
import { yieldToEventLoop } from '../util/cooperative';
import { InputError } from '../util/diagnostics';
import type { RanklabSession } from './session';

export interface ConfigExplanation {
  config: string;
  mode: string;
  /** The document's rank and score in the run (null: not in it). */
  rank: number | null;
  score: number | null;
  /** Where it left the pipeline (null: it is ranked): the step, what happened, and that step's words for it. */
  fellOut: { step: StepName; outcome: StepExplanation['outcome']; note: string } | null;
  /** Each step's account, in pipeline order. */
  steps: StepExplanation[];
  /** The run's ids, best first (what "overtook" counts against). */
  ranking: string[];
  notes: string[];
}

export interface ExplainReport {
  query: { qid: string | null; text: string };
  doc: { id: string; title: string };
  principal: string | null;
  /** False when the principal may not see the document: nothing more is said about it. */
  visible: boolean;
  candidate?: ConfigExplanation;
  baseline?: ConfigExplanation;
  /** With a baseline: why the rank changed, in one line. */
  reason?: string;
}

export interface ExplainRequest {
  config: RankConfig;
  baseline?: RankConfig;
  /** A query id of the workspace's judgments, or the text of a query. */
  query: string;
  doc: string;
  principal?: string;
  signal?: AbortSignal;
}

const RETRIEVAL: ReadonlySet<StepName> = new Set(['lexical', 'vector']);

/** Explains `doc` for `query` under the config (and the baseline); unknown query ids and documents are InputErrors. */
export async function explainDocument(session: RanklabSession, req: ExplainRequest): Promise<ExplainReport> {
  const query = resolveQuery(session, req.query);
  const doc = session.document(req.doc);
  if (!doc) {
    const near = closest(
      req.doc,
      session.corpus().docs.map((d) => d.id),
    );
    throw new InputError(`unknown document "${req.doc}"`, [], {
      key: '--doc',
      hint: near ? `did you mean "${near}"?` : `the corpus has ${session.corpus().docs.length} documents`,
    });
  }
  const report: ExplainReport = { query, doc: { id: doc.id, title: doc.title }, principal: req.principal ?? null, visible: true };
  if (req.principal && !session.accessFor(req.principal).filter(doc.id)) return { ...report, visible: false };
  report.candidate = await explainFor(session, req.config, query.text, doc.id, req);
  if (req.baseline) {
    report.baseline = await explainFor(session, req.baseline, query.text, doc.id, req);
    report.reason = rankChangeReason(req.baseline, report.baseline, req.config, report.candidate, doc.id);
  }
  return report;
}

/** One config's account of a document for a query, run as `evaluateConfig` runs it (so scores are the run's). */
export async function explainFor(
  session: RanklabSession,
  config: RankConfig,
  text: string,
  docId: string,
  opts: { principal?: string; signal?: AbortSignal } = {},
): Promise<ConfigExplanation> {
  const engine = await session.engine(config);
  const access = opts.principal ? session.accessFor(opts.principal) : undefined;
  const r = await engine.search(text, { filter: access?.filter, principal: access?.principal, signal: opts.signal, explain: docId });
  if (!r.explanation)
    throw new InputError(
      `config ${config.name} runs on an external engine (${config.engine?.kind ?? 'remote'}), which Ranklab cannot explain`,
      [],
      { key: '--config' },
    );
  const at = r.docs.findIndex((d) => d.id === docId);
  return {
    config: config.name,
    mode: modeLabel(config),
    rank: at < 0 ? null : at + 1,
    score: r.docs[at]?.score ?? null, // at is -1 when the document is not listed
    fellOut: at < 0 ? fellOut(r.explanation) : null,
    steps: r.explanation,
    ranking: r.docs.map((d) => d.id),
    notes: r.notes,
  };
}

/**
 * The step that dropped the document: the first ordering step after the last one that kept it; when no step kept
 * it, retrieval (every retrieval step's words, joined).
 */
function fellOut(steps: StepExplanation[]): ConfigExplanation['fellOut'] {
  let last = -1;
  steps.forEach((s, i) => {
    if (s.outcome === 'kept') last = i;
  });
  const after = steps.slice(last + 1).find((s) => !RETRIEVAL.has(s.step));
  if (last >= 0 && after) return { step: after.step, outcome: after.outcome, note: after.note };
  const retrieval = steps.filter((s) => RETRIEVAL.has(s.step));
  const first = retrieval[0] ?? steps[0];
  if (!first) return null;
  const note = retrieval.length > 1 ? retrieval.map((s) => `${s.step}: ${s.note}`).join('; ') : first.note;
  return { step: first.step, outcome: first.outcome, note };
}

/** A query id of the judgments, else the argument as query text (a mistyped id with no space is refused). */
export function resolveQuery(session: RanklabSession, arg: string): { qid: string | null; text: string } {
  const queries = session.judgments().queries;
  const q = queries.get(arg);
  if (q) return { qid: arg, text: q.text };
  const near = /\s/.test(arg) ? undefined : closest(arg, [...queries.keys()]);
  if (near)
    throw new InputError(`unknown query id "${arg}"`, [], {
      key: '--query',
      hint: `did you mean "${near}"? (query text with a space is run as it is)`,
    });
  if (!arg.trim()) throw new InputError('is empty', [], { key: '--query' });
  return { qid: null, text: arg };
}

// ---- the one-line reason ---------------------------------------------------------------------------------------

/**
 * Why the document's rank differs between two configs, in one line: what changed in the settings, the score part that
 * changed most, and the movement ("title boost 1→3: +2.10 from 'espresso' in title; rank 6→3, overtook 3 documents").
 */
export function rankChangeReason(
  baseConfig: RankConfig,
  base: ConfigExplanation,
  candConfig: RankConfig,
  cand: ConfigExplanation,
  docId: string,
): string {
  const changes = configChanges(baseConfig, candConfig);
  const shown = changes.length > 3 ? [...changes.slice(0, 3), `${changes.length - 3} more`] : changes;
  const head = shown.length ? shown.join(', ') : 'same settings';
  const parts = scoreChanges(base, cand);
  return `${head}${parts.length ? `: ${parts.join(', ')}` : ''}; ${movement(base, cand, docId)}`;
}

/** The settings that differ, as people name them: "title boost 1→3", "hybrid.k 60→30", "rerank added". */
export function configChanges(a: RankConfig, b: RankConfig): string[] {
  const out: string[] = [];
  for (const section of ['lexical', 'vector', 'hybrid', 'rerank', 'pageSize', 'acl'] as const) {
    const x = (a as unknown as Record<string, unknown>)[section];
    const y = (b as unknown as Record<string, unknown>)[section];
    if (x === undefined && y !== undefined) out.push(`${section} added`);
    else if (x !== undefined && y === undefined) out.push(`${section} removed`);
    else diff(section, x, y, out);
  }
  return out;
}

function diff(path: string, x: unknown, y: unknown, out: string[]): void {
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(x) && isObject(y)) {
    const keys = [...new Set([...Object.keys(x as object), ...Object.keys(y as object)])].sort();
    for (const k of keys) diff(`${path}.${k}`, (x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], out);
    return;
  }
  if (JSON.stringify(x) === JSON.stringify(y)) return;
  const show = (v: unknown) => (v === undefined ? 'off' : typeof v === 'string' ? v : JSON.stringify(v));
  const boost = /^lexical\.fields\.(.+)$/.exec(path);
  // A field missing from the boosts is not searched: boost 0.
  if (boost) out.push(`${boost[1]} boost ${show(x ?? 0)}→${show(y ?? 0)}`);
  else out.push(`${path} ${show(x)}→${show(y)}`);
}

/** The parts of the score that changed most: one (term, field) of the lexical sum, one fused list, the rerank input. */
function scoreChanges(base: ConfigExplanation, cand: ConfigExplanation): string[] {
  const out: string[] = [];
  const lexA = base.steps.find((s) => s.step === 'lexical')?.lexical;
  const lexB = cand.steps.find((s) => s.step === 'lexical')?.lexical;
  if (lexA || lexB) {
    const byKey = new Map<string, number>();
    for (const [sign, lx] of [
      [-1, lexA],
      [1, lexB],
    ] as const) {
      if (!lx?.matched) continue;
      for (const p of lx.parts) {
        const key = `${p.queryTerm}\u0000${p.field}`;
        byKey.set(key, (byKey.get(key) ?? 0) + sign * p.contribution);
      }
    }
    const [key, delta] = [...byKey].sort((p, q) => Math.abs(q[1]) - Math.abs(p[1]))[0] ?? ['', 0];
    if (Math.abs(delta) > 1e-12) {
      const [term, field] = key.split('\u0000');
      out.push(`${signed(delta, 2)} from '${term}' in ${field}`);
    } else if (lexA?.matched && lexB?.matched) out.push('its own lexical score unchanged');
  }
  const fuseA = base.steps.find((s) => s.step === 'fuse')?.fusion;
  const fuseB = cand.steps.find((s) => s.step === 'fuse')?.fusion;
  if (fuseA && fuseB) {
    // Lists are paired by name; a list the baseline does not fuse contributed nothing there.
    const deltas = fuseB.lists.map((l) => {
      const a = fuseA.lists.find((x) => x.name === l.name);
      return { l, a, d: l.contribution - (a?.contribution ?? 0) };
    });
    const top = deltas.sort((p, q) => Math.abs(q.d) - Math.abs(p.d))[0];
    if (top && Math.abs(top.d) > 1e-12)
      out.push(`fused ${signed(top.d, 4)} from ${top.l.name} (rank ${top.a?.rank ?? '-'}→${top.l.rank ?? '-'})`);
  }
  const rrA = base.steps.find((s) => s.step === 'rerank')?.rerank;
  const rrB = cand.steps.find((s) => s.step === 'rerank')?.rerank;
  if (rrA && rrB && rrA.rankBefore !== rrB.rankBefore) out.push(`rank before rerank ${rrA.rankBefore ?? '-'}→${rrB.rankBefore ?? '-'}`);
  return out;
}

function signed(x: number, digits: number): string {
  return `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(digits)}`;
}

/** "rank 6→3, overtook 3 documents", "entered at rank 4", "fell out at lexical: … (was rank 9)". */
function movement(base: ConfigExplanation, cand: ConfigExplanation, docId: string): string {
  const a = base.rank;
  const b = cand.rank;
  if (a === null && b === null) return `not ranked by either (${cand.fellOut?.step ?? '-'}: ${cand.fellOut?.note ?? '-'})`;
  if (a === null) return `entered at rank ${b} (baseline: ${base.fellOut?.step}: ${base.fellOut?.note})`;
  if (b === null) return `fell out at ${cand.fellOut?.step}: ${cand.fellOut?.note} (was rank ${a})`;
  if (a === b) return `rank ${a} unchanged`;
  const candRank = new Map(cand.ranking.map((id, i) => [id, i + 1]));
  const baseRank = new Map(base.ranking.map((id, i) => [id, i + 1]));
  if (b < a) {
    const overtook = base.ranking.slice(0, a - 1).filter((id) => id !== docId && (candRank.get(id) ?? Infinity) > b).length;
    return `rank ${a}→${b}, overtook ${plural(overtook, 'document')}`;
  }
  const by = cand.ranking.slice(0, b - 1).filter((id) => id !== docId && (baseRank.get(id) ?? Infinity) > a).length;
  return `rank ${a}→${b}, overtaken by ${plural(by, 'document')}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** What `addMoveReasons` reads and fills of a comparison (a plain copy of it will do, e.g. across a thread). */
export interface MovesToExplain {
  queryDeltas: ReadonlyArray<{ qid: string; text?: string; moved: ReadonlyArray<{ id: string; reason?: string }> }>;
}

/**
 * The dashboard's first screenful: queries (worst first) whose moved documents get their reason with the comparison
 * itself; the others get theirs when their row is opened (each costs two searches per moved document).
 */
export const REASON_QUERIES = 20;

/**
 * Gives the moved documents of a comparison of two workspace configs their one-line reason (`MovedDocument.reason`),
 * explaining each under both configs as `principal` sees them: every query that changed, or the first `maxQueries`.
 * Yields to the event loop between queries, so a worker or the CLI's Ctrl+C is heard between them.
 */
export async function addMoveReasons(
  session: RanklabSession,
  baseConfig: RankConfig,
  candConfig: RankConfig,
  cmp: MovesToExplain,
  opts: { principal?: string; signal?: AbortSignal; maxQueries?: number } = {},
): Promise<void> {
  for (const q of cmp.queryDeltas.slice(0, opts.maxQueries ?? cmp.queryDeltas.length)) {
    const text = q.text || session.judgments().queries.get(q.qid)?.text;
    if (!text) continue;
    for (const m of q.moved) {
      const base = await explainFor(session, baseConfig, text, m.id, opts);
      const cand = await explainFor(session, candConfig, text, m.id, opts);
      m.reason = rankChangeReason(baseConfig, base, candConfig, cand, m.id);
    }
    await yieldToEventLoop();
    opts.signal?.throwIfAborted();
  }
}

/**
 * The workspace configs that made these runs, when each run is still exactly reproducible (a config of the workspace
 * with its hash, on the current corpus, built-in pipeline): only then can their moved documents be explained.
 */
export function configsOfRuns(
  session: RanklabSession,
  runs: ReadonlyArray<{ configHash?: string; corpus?: string }>,
): RankConfig[] | undefined {
  if (runs.some((r) => !r.configHash || !r.corpus)) return undefined;
  let corpus: string;
  try {
    corpus = session.corpus().fingerprint;
  } catch {
    return undefined; // no readable corpus: nothing to explain against (the comparison itself does not need one)
  }
  const configs: RankConfig[] = [];
  for (const run of runs) {
    const entry = session.configEntries().find((e) => e.config?.configHash === run.configHash);
    if (!entry?.config || entry.config.engine || run.corpus !== corpus) return undefined;
    configs.push(session.usable(entry));
  }
  return configs;
}
