/**
 * The one definition of the messages between the extension host and the Ranklab worker (`main.ts`): the
 * envelope (request / progress / response by id, cancel, notification, log line) and Ranklab's methods with their
 * parameters, progress and results. Everything crosses by structured clone, so it is plain data.
 *
 * Why here and not in src/protocol/: the worker is the extension's own machinery, not a webview; its messages carry
 * core types (AclReport, WorkProgress), and src/protocol/ may import nothing but src/protocol/ (docs/design.md).
 */
import type { MoveReasonsResult, RunRef } from '../../core/actions/explain-runs';
import type { RankConfig } from '../../core/config';
import type { GateResult } from '../../core/experiment/gates';
import type { RunSummary } from '../../core/experiment/run-index';
import type { AclReport } from '../../core/session/check-acl';
import type { ExplainReport } from '../../core/session/explain';
import type { Variation } from '../../core/tuning/parameters';
import type { SweepResult } from '../../core/tuning/sweep';
import type { TuneQuick, TuneResult, TuneSettings, TuneSliders } from '../../core/tuning/tuner';
import type { WorkspacePool } from '../../core/session/judging-pool';
import type { WorkProgress } from '../../core/util/cooperative';
import type { Diagnostic } from '../../core/util/diagnostics';
import type { ConfigResult, EarlySource, LensFigures } from '../logic/against-baseline';

/** A method: what it takes, what it reports while it runs, what it returns. */
export interface MethodSpec {
  params: unknown;
  progress: unknown;
  result: unknown;
}
/** A method map: every method's spec (an interface, so no index signature is needed). */
export type MethodMap<M> = { [K in keyof M]: MethodSpec };

export type ToWorker =
  | { kind: 'request'; id: number; method: string; params: unknown }
  | { kind: 'cancel'; id: number }
  | { kind: 'notify'; notification: unknown };

export type FromWorker =
  | { kind: 'progress'; id: number; progress: unknown }
  | { kind: 'response'; id: number; ok: true; result: unknown }
  | { kind: 'response'; id: number; ok: false; error: RpcError }
  | { kind: 'log'; level: 'info' | 'warn' | 'error'; message: string };

/** An error crossing the thread: its name and message, whether it came from a cancel, and an InputError's location. */
export interface RpcError {
  name: string;
  message: string;
  aborted: boolean;
  file?: string;
  line?: number;
  key?: string;
}

/** Which workspace folder, and whether it is trusted (untrusted: no network, no model loading). */
export interface FolderParams {
  root: string;
  trusted: boolean;
}

/** What Run Evaluation reports: the core's work reports with the config step, and each config's outcome as it ends. */
/** The core's work report, with which config of how many it is for. */
export interface StepProgress {
  type: 'work';
  step: { index: number; count: number };
  work: WorkProgress;
}

export type EvaluateProgress =
  | StepProgress
  | { type: 'saved'; config: string; path: string; ms: number; notes: string[] }
  | { type: 'failed'; config: string; message: string }
  | { type: 'skipped'; config: string };

export interface EvaluateResult {
  saved: string[];
  failed: string[];
  /** Configs to evaluate (0 when none was usable). */
  total: number;
  cancelled: boolean;
  /** The config the cancel stopped (nothing of it saved). */
  stopped?: string;
}

export interface RebuildResult {
  removed: string[];
  docs: number;
  configs: string[];
  failed: { config: string; message: string }[];
}

/** What changed on disk (the host's file watcher), so the worker's warm session takes it in before its next task. */
export interface ChangedNotification {
  type: 'changed';
  root: string;
  kinds: ('corpus' | 'judgments' | 'settings' | 'config')[];
}

/** A config file's editor closed: the worker drops what it prepared for it (its CodeLens Tuner). */
export interface ClosedNotification {
  type: 'closed';
  root: string;
  file: string;
}

/**
 * The CodeLens's figures of a saved edit before the full evaluation ends: from the config's prepared Tuner
 * (logic/lens-tuner.ts, `tuner`), or else as soon as its queries are scored, before its run is saved and compared in
 * full (`search`); `ms`: the worker's time to them.
 */
export interface EarlyAnswer {
  type: 'early';
  source: EarlySource;
  configHash: string;
  figures: LensFigures;
  ms: number;
}

/** The config's run, just saved: its summary, so that the host's run index need not decode the file. */
export interface RunSaved {
  type: 'saved';
  path: string;
  summary: RunSummary;
}

/** After each evaluated config of a sweep: how many of `total` (BASE and the combinations) are done. */
export interface SweepProgress {
  done: number;
  total: number;
  label: string;
}

export interface RanklabMethods {
  evaluate: { params: FolderParams & { only?: string[]; principal?: string }; progress: EvaluateProgress; result: EvaluateResult };
  /** The background evaluation of one saved `*.rank.json` (live.ts), with the searched fields no document has. */
  evaluateAgainstBaseline: {
    params: FolderParams & { file: string; config: RankConfig };
    /** The CodeLens's figures before the result (from a prepared Tuner, or before the run is saved); the run saved. */
    progress: EarlyAnswer | RunSaved;
    result: { result: ConfigResult; fieldProblems: Diagnostic[] };
  };
  checkAcl: { params: FolderParams; progress: string; result: AclReport };
  rebuildIndex: { params: FolderParams; progress: StepProgress; result: RebuildResult };
  pool: { params: FolderParams & { configs: string[] }; progress: string; result: WorkspacePool };
  /** `ranklab explain` for two saved runs' configs (the dashboard's expanded document). */
  explain: { params: ExplainParams; progress: never; result: ExplainReport };
  /** The one-line reasons of a comparison's moved documents (core addMoveReasons). */
  moveReasons: { params: MoveReasonsParams; progress: never; result: MoveReasonsResult };
  /** Sweep Parameter: the config in `baseFile` over `variations` (grid, every point with its holdout comparison). */
  sweep: {
    params: FolderParams & { baseFile: string; variations: Variation[]; objective: string };
    progress: SweepProgress;
    result: SweepResult;
  };
  /** The Tune view: prepares (or reuses the CodeLens's) and keeps, one per folder, the Tuner of the config in `file`; its sliders. */
  tunePrepare: { params: FolderParams & { file: string }; progress: string; result: TuneSliders & { baseline: string } };
  /** The first stage of a move: the figures its ranking alone gives and the gates, without compare's resampling. */
  /** (Tuner.quickWithGates: with the gates, which need no resampling; the same gates as tuneEvaluate's.) */
  tuneQuick: {
    params: FolderParams & { file: string; settings: TuneSettings };
    progress: never;
    result: TuneQuick & { gates: GateResult[] };
  };
  /** One slider position of the Tuner `tunePrepare` kept for `file`: what eval + compare say of it (after tuneQuick
   * of the same settings, it reuses that ranking). */
  tuneEvaluate: { params: FolderParams & { file: string; settings: TuneSettings }; progress: never; result: TuneResult };
  /** Which thread the worker is, which folders it holds a session for, which config files have a Tuner (the CodeLens's
   * or the Tune view's), how many Tuners were prepared in all (a reused one is not) (tests, diagnostics, the benchmark). */
  status: {
    params: Record<string, never>;
    progress: never;
    result: { sessions: string[]; pid: number; threadId: number; lensTuners: string[]; lensCandidates: number; tunerPreparations: number };
  };
}

/** A saved run as far as explaining it goes (core actions/explain-runs.ts). */
export type { RunRef };

/**
 * Explain a document: the configs are those that made the runs (candidate, and the baseline beside it), refused when
 * a run can no longer be reproduced (its config or the corpus changed since).
 */
export interface ExplainParams extends FolderParams {
  candidate: RunRef;
  baseline?: RunRef;
  /** A query id of the judgments, or a query's text. */
  query: string;
  doc: string;
  principal?: string;
}

/** The moved documents of a comparison of two runs, per query (worst first): each gets its one-line reason. */
export interface MoveReasonsParams extends FolderParams {
  baseline: RunRef;
  candidate: RunRef;
  principal?: string;
  queries: { qid: string; text: string; moved: string[] }[];
}

/** `reproducible: false`: a run's config or the corpus changed since it was made, so no reason is given. */
export type { MoveReasonsResult };

export type RanklabNotification = ChangedNotification | ClosedNotification;
