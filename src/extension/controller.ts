/**
 * Editor-side state: which workspace folder, which runs, which comparison the user picked.
 * Runs are listed from the core's run index (summaries only; a run's details are read when a comparison needs them);
 * a file watcher event on the runs folder re-reads only the file it names; listeners hear about changes.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { JudgmentSet } from '../core/judgments/types';
import { querySplit } from '../core/judgments/splits';
import { configAnalyzer } from '../core/retrieval/analyzer';
import { makeSnippet } from '../core/session/search-view';
import { REASON_QUERIES } from '../core/session/explain';
import type { Comparison, ComparisonStatistics } from '../core/experiment/compare';
import type { RanklabSession } from '../core/session/session';
import type { AclView, ComparisonParams, DashboardModel, DocExplanation, MatrixView, QueryDetail } from '../protocol/dashboard';
import { explanationView } from './dashboard/explanation';
import { applyMoveReasons, movesWithoutReason } from './dashboard/move-reasons';
import { ACL_UNAVAILABLE, buildDashboardModel, buildQueryDetail } from './dashboard/model';
import {
  type DashboardComparison,
  type DashboardComparisonOptions,
  type DocLookup,
  dashboardComparison,
  dashboardMatrix,
  matrixCandidates,
} from './dashboard/comparison';
import { chooseBaseline, chooseCandidate, principalOf, principalText } from './dashboard/runs';
import type { SessionManager } from './sessions';
import type { RunSummary } from '../core/experiment/run-index';
import { setPinned } from '../core/experiment/run-store';
import { stableStringify } from '../core/config/defaults';
import { RUN_FILE_GLOB, runIdOfFile } from '../core/run/run-files';
import { SavedRuns, readWorkspaceSettings, type RunStoreResult, type StoredRun } from './run-store';
import { type RanklabSettings, SETTINGS_SECTION, affectsSettings, readSettings } from './settings';

const BASELINE_KEY = 'ranklab.baselineRunId';

export class RanklabController implements vscode.Disposable {
  private cache: RunStoreResult | undefined;
  /** The run store of the folder and runs folder in use (recreated when the runs folder setting changes). */
  private store: SavedRuns | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Runs, baseline, settings or ACL results changed. */
  readonly onDidChange = this.changed.event;
  private readonly selectionChanged = new vscode.EventEmitter<void>();
  /** The user picked another comparison (the status bar follows it). */
  readonly onDidChangeSelection = this.selectionChanged.event;
  private readonly disposables: vscode.Disposable[] = [this.changed, this.selectionChanged];
  /**
   * The comparison the user picked last (dashboard pickers, Compare with Baseline); unset fields take the defaults
   * (the baseline set with Set as Baseline or ranklab.json, the newest other run made as the same principal).
   */
  private picked: ComparisonParams = {};
  /** Latest access-control result shown by the dashboard. */
  acl: AclView = ACL_UNAVAILABLE;
  private readonly comparisons = new Map<string, Promise<DashboardComparison>>();
  /** Set while a comparison waits for the worker to be idle to get its moved documents' reasons. */
  private whenIdle: vscode.Disposable | undefined;
  /** The N-way comparison being computed (a newer request aborts it). */
  private matrixWork: AbortController | undefined;
  /** The default pair's comparison computed ahead of a request (compareAhead); any user request aborts it. */
  private ahead: AbortController | undefined;
  /** User requests for a comparison in progress: nothing is computed ahead meanwhile. */
  private asked = 0;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
    readonly sessions?: SessionManager,
  ) {
    const folder = this.folder;
    if (folder) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, `${this.runsFolder}/${RUN_FILE_GLOB}`));
      const invalidate = (uri: vscode.Uri) => {
        this.log.debug(`runs changed: ${uri.fsPath}`);
        if (this.store && path.dirname(uri.fsPath) === this.store.dir) {
          const t0 = Date.now();
          this.cache = this.store.refresh(uri.fsPath);
          this.log.debug(`run index updated for ${path.basename(uri.fsPath)} in ${Date.now() - t0} ms`);
          this.changed.fire();
        } else {
          this.invalidate();
        }
      };
      const created = (uri: vscode.Uri) => {
        invalidate(uri);
        this.compareAhead(runIdOfFile(path.basename(uri.fsPath)));
      };
      watcher.onDidCreate(created);
      watcher.onDidChange(created); // a run written over another with the same name
      watcher.onDidDelete(invalidate);
      this.disposables.push(watcher);
    }
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affectsSettings(e)) this.invalidate();
      }),
    );
  }

  /**
   * A run the background evaluation just saved, with its summary: the run index takes it without decoding the file,
   * so the watcher's event for it (which refreshes the views) finds it known.
   */
  learnRun(file: string, summary: RunSummary): void {
    if (this.store && this.cache && path.dirname(file) === this.store.dir) this.cache = this.store.learn(file, summary);
  }

  /** The workspace folder Ranklab works on: the first one (in a multi-root workspace the other folders are not used). */
  get folder(): vscode.WorkspaceFolder | undefined {
    return vscode.workspace.workspaceFolders?.[0];
  }

  /** The `ranklab.*` settings as they are now. */
  get settings(): RanklabSettings {
    return readSettings(vscode.workspace.getConfiguration(SETTINGS_SECTION));
  }

  get runsFolder(): string {
    return this.settings.runsFolder;
  }

  invalidate(): void {
    this.cache = undefined;
    this.changed.fire();
  }

  /** The comparison the user picked (explicit choices only). */
  get selection(): Readonly<ComparisonParams> {
    return this.picked;
  }

  /** Records the comparison the user picked; `undefined` fields go back to the defaults. */
  select(params: ComparisonParams): void {
    const next: ComparisonParams = {
      baselineRunId: params.baselineRunId,
      candidateRunId: params.candidateRunId,
      allowMixedPrincipals: params.allowMixedPrincipals || undefined,
    };
    if (JSON.stringify(next) === JSON.stringify(this.picked)) return;
    this.picked = next;
    this.selectionChanged.fire();
  }

  /** The folder's core session (opened on first use), or undefined when there is none to open. */
  session(): RanklabSession | undefined {
    if (!this.folder || !this.sessions || this.folder.uri.scheme !== 'file') return undefined;
    try {
      return this.sessions.session(this.folder);
    } catch (e) {
      this.log.warn(`no Ranklab session: ${(e as Error).message}`);
      return undefined;
    }
  }

  /** Where a document came from (`Document.source`), by id. */
  documentSource(docId: string): { path: string; line?: number } | undefined {
    try {
      return this.session()
        ?.corpus()
        .docs.find((d) => d.id === docId)?.source;
    } catch {
      return undefined;
    }
  }

  /**
   * The comparison of two saved runs through the core (compareRuns + checkGates + verdictOf) on the current
   * judgments as the runs' principal sees them, cached per pair of runs, mode and judgment version (about half a
   * second on 100 queries, time-sliced so the editor stays responsive). Runs made as different principals are
   * refused (the core's message) unless `allowMixed`; then they are scored on the unrestricted judgments, as
   * `ranklab compare --allow-mixed-principals` does.
   */
  async comparison(
    baselineId: string | undefined,
    candidateId: string | undefined,
    allowMixed = false,
    onStatistics?: DashboardComparisonOptions['onStatistics'],
  ): Promise<DashboardComparison & { note?: string }> {
    // The user's request goes first: a comparison computed ahead stops at its next slice (it is not cached half done).
    this.ahead?.abort();
    this.asked++;
    try {
      return await this.compare(baselineId, candidateId, allowMixed, onStatistics);
    } finally {
      this.asked--;
    }
  }

  /** `onStatistics`: given the statistics first when the pair's comparison is computed now from cached per-query values. */
  private async compare(
    baselineId: string | undefined,
    candidateId: string | undefined,
    allowMixed: boolean,
    onStatistics?: DashboardComparisonOptions['onStatistics'],
  ): Promise<DashboardComparison & { note?: string }> {
    const b = this.findRun(baselineId);
    const c = this.findRun(candidateId);
    if (!b || !c || b === c) return { note: 'Pick two different runs to compare.' };
    const session = this.session();
    if (!session) return { note: 'No Ranklab workspace: the comparison needs the judgments.' };
    try {
      const judgments = this.judgmentsFor(session, [b, c]);
      // Every input of the figures, as the comparison cache's key (ranklab.json's metrics, options and gates included).
      const key = `${b.id}|${c.id}|${allowMixed}|${judgments.fingerprint}|${stableStringify(session.workspace.settings)}`;
      let hit = this.comparisons.get(key);
      if (!hit) {
        // A run is stale when the judgments as its own principal sees them changed since it was made.
        const stale = [b, c].some(
          (r) =>
            r.summary.provenance.judgments !== undefined && r.summary.provenance.judgments !== this.judgmentsFor(session, [r]).fingerprint,
        );
        let skipped = false;
        const reasons = async (cmp: Comparison) => {
          skipped = !(await this.moveReasons(b, c, cmp));
        };
        const t0 = Date.now();
        hit = dashboardComparison(b, c, judgments, session.workspace.settings, {
          allowMixedPrincipals: allowMixed,
          stale,
          lookup: this.docLookup(undefined, ''),
          reasons,
          cacheDir: this.store?.dir,
          log: (m) => this.log.warn(m),
          onStatistics: (first) => {
            this.log.info(`statistics of ${b.id} and ${c.id} from their cached per-query values in ${Date.now() - t0} ms`);
            onStatistics?.(first);
          },
        });
        hit.then(
          (r) =>
            r.view &&
            this.log.info(
              `comparison of ${b.id} and ${c.id} ${r.cached ? 'read from the comparison cache' : 'computed'} in ${Date.now() - t0} ms`,
            ),
          () => undefined,
        );
        if (this.comparisons.size >= 32) this.comparisons.clear(); // pairs the user looked at; recomputed on demand
        this.comparisons.set(key, hit);
        // Without its reasons (the worker was busy) it is not kept: asked again once the worker is idle.
        hit.then(
          () => {
            if (skipped) this.comparisons.delete(key);
          },
          () => this.comparisons.delete(key),
        );
      }
      return await hit;
    } catch (e) {
      return { note: `No comparison: ${(e as Error).message}` };
    }
  }

  /**
   * When a new run appears and the default pair (the one Open Dashboard shows) includes it, or a baseline is set,
   * that pair's comparison is computed now in the background (time-sliced as the dashboard's) and written to the
   * comparison cache, so that the next Open Dashboard reads it instead of computing it. Never while the user waits
   * for a comparison; any user request aborts it. Without the moved documents' reasons (the worker's: asked for on open).
   */
  private compareAhead(newRunId: string | undefined): void {
    if (this.asked > 0) return;
    const { baseline: b, candidate: c, allowMixed } = this.resolve();
    const session = this.session();
    const dir = this.store?.dir;
    if (!b || !c || b === c || !session || !dir) return;
    if (!this.baselineRunId && newRunId !== b.id && newRunId !== c.id) return;
    this.ahead?.abort();
    const abort = new AbortController();
    this.ahead = abort;
    // After the watcher's other listeners (the dashboard's refresh), which may ask for the comparison themselves.
    setTimeout(() => {
      if (abort.signal.aborted) return;
      const t0 = Date.now();
      this.computedAhead = (async () => {
        try {
          const judgments = this.judgmentsFor(session, [b, c]);
          const r = await dashboardComparison(b, c, judgments, session.workspace.settings, {
            allowMixedPrincipals: allowMixed,
            signal: abort.signal,
            cacheDir: dir,
            log: (m) => this.log.warn(m),
          });
          if (r.view)
            this.log.info(
              `comparison of ${b.id} and ${c.id} ${r.cached ? 'already in the comparison cache' : `computed ahead in ${Date.now() - t0} ms and cached`}`,
            );
          return r.view !== undefined;
        } catch (e) {
          if (!abort.signal.aborted) this.log.warn(`comparison of ${b.id} and ${c.id} not computed ahead: ${(e as Error).message}`);
          return false;
        } finally {
          if (this.ahead === abort) this.ahead = undefined;
        }
      })();
    }, 0);
  }

  /** The last comparison computed ahead (true: it is in the comparison cache); for tests and logs. */
  computedAhead: Promise<boolean> | undefined;

  /**
   * The moved documents' one-line reasons, from the Ranklab worker (each costs two searches there, on engines the
   * editor's thread need not build); none when a run can no longer be reproduced. False: skipped for now (busy).
   * `qids`: only these queries (an opened query's detail); by default the first screenful (REASON_QUERIES).
   */
  private async moveReasons(b: StoredRun, c: StoredRun, cmp: Comparison, qids?: string[]): Promise<boolean> {
    const folder = this.folder;
    const sessions = this.sessions;
    const queries = movesWithoutReason(cmp, qids ?? cmp.queryDeltas.slice(0, REASON_QUERIES).map((q) => q.qid));
    if (!folder || !sessions || queries.length === 0) return true;
    // The worker runs one task per folder at a time: the figures do not wait behind an evaluation for their reasons.
    // The dashboard is told to ask again once the work is done (the comparison is then recomputed with them).
    if (sessions.busy) {
      this.whenIdle ??= sessions.onDidChangeState(() => {
        if (sessions.busy) return;
        this.whenIdle?.dispose();
        this.whenIdle = undefined;
        this.changed.fire();
      });
      return false;
    }
    const r = await sessions.inWorker(folder, 'explaining moved documents', 'moveReasons', {
      baseline: runRef(b),
      candidate: runRef(c),
      principal: principalOf(b) ?? undefined,
      queries,
    });
    applyMoveReasons(cmp, r.reasons);
    return true;
  }

  /**
   * Why a document of a query's lists is where it is, under the candidate's and the baseline's configs (the
   * dashboard's expanded row), computed in the Ranklab worker; an error message instead when it cannot be said.
   */
  async explainDocument(qid: string, docId: string, ids: ComparisonParams): Promise<DocExplanation> {
    const failed = (error: string): DocExplanation => ({ qid, docId, visible: true, principal: null, sides: [], error });
    const { baseline, candidate } = this.resolve(ids);
    const folder = this.folder;
    if (!folder || !this.sessions) return failed('No Ranklab workspace: explaining needs its corpus and configs.');
    const cand = candidate ?? baseline;
    if (!cand) return failed('No run to explain.');
    const base = candidate && baseline !== candidate ? baseline : undefined;
    if (base && principalOf(base) !== principalOf(cand))
      return failed('The runs were made as different principals: explain each with `ranklab explain --as`.');
    try {
      const report = await this.sessions.inWorker(folder, `explaining ${docId}`, 'explain', {
        candidate: runRef(cand),
        baseline: base && runRef(base),
        query: qid,
        doc: docId,
        principal: principalOf(cand) ?? undefined,
      });
      return explanationView(qid, report, { candidate: cand.id, baseline: base?.id });
    } catch (e) {
      return failed((e as Error).message);
    }
  }

  /** The judgments as the runs' principal sees them (unrestricted when they were made as different principals). */
  private judgmentsFor(session: RanklabSession, runs: [StoredRun, ...StoredRun[]]): JudgmentSet {
    const p = principalOf(runs[0]);
    const principal = runs.every((r) => principalOf(r) === p) ? (p ?? undefined) : undefined;
    return session.judgmentsFor({ principal, relevanceThreshold: session.workspace.settings.relevanceThreshold });
  }

  /**
   * The model plus the comparison of the chosen runs (the dashboard's view). `onStatistics`: given a model with the
   * statistics alone first, when they come before the whole comparison (a pair not compared before).
   */
  async dashboardModel(overrides: ComparisonParams = {}, onStatistics?: (model: DashboardModel) => void): Promise<DashboardModel> {
    const ids = this.resolve(overrides);
    // The runs resolved before the comparison, not again after it: the user may have picked another pair meanwhile,
    // and a model must never label one pair's figures with another pair's runs.
    const picked = { baselineRunId: ids.baseline?.id, candidateRunId: ids.candidate?.id, allowMixedPrincipals: ids.allowMixed };
    const cmp = await this.comparison(
      ids.baseline?.id,
      ids.candidate?.id,
      ids.allowMixed,
      onStatistics && ((first) => onStatistics(this.model(picked, first))),
    );
    return this.model(picked, cmp);
  }

  /**
   * Several candidates against one baseline (the N-way matrix, the core's compareMany). Candidates default to the
   * newest run of every other config made as the baseline's principal; runs made as another principal are left
   * out. A newer request cancels the one still computing.
   */
  async matrix(baselineRunId: string, candidateRunIds?: string[]): Promise<{ matrix?: MatrixView; note?: string }> {
    this.matrixWork?.abort();
    const b = this.findRun(baselineRunId);
    const session = this.session();
    if (!b) return { note: 'The baseline run no longer exists.' };
    if (!session) return { note: 'No Ranklab workspace: the comparison needs the judgments.' };
    const runs = this.runs().runs;
    const candidates = candidateRunIds
      ? runs.filter((r) => candidateRunIds.includes(r.id) && r !== b && principalOf(r) === principalOf(b))
      : matrixCandidates(runs, b);
    if (candidates.length === 0) return { note: `No other run made ${principalText(principalOf(b))} to compare with the baseline.` };
    const abort = new AbortController();
    this.matrixWork = abort;
    try {
      const settings = readWorkspaceSettings(this.folder!.uri.fsPath);
      return {
        matrix: await dashboardMatrix(
          b,
          candidates,
          this.judgmentsFor(session, [b]),
          session.workspace.settings,
          settings.metricOptions,
          abort.signal,
          this.store?.dir,
        ),
      };
    } catch (e) {
      return { note: abort.signal.aborted ? 'Superseded by a newer request.' : `No comparison: ${(e as Error).message}` };
    } finally {
      if (this.matrixWork === abort) this.matrixWork = undefined;
    }
  }

  setAcl(view: AclView): void {
    this.acl = view;
    this.changed.fire();
  }

  runs(): RunStoreResult {
    const folder = this.folder;
    if (!folder || folder.uri.scheme !== 'file') return { runs: [], problems: folder ? ['Ranklab needs a local folder'] : [] };
    if (!this.cache) {
      const t0 = Date.now();
      const dir = path.resolve(folder.uri.fsPath, this.runsFolder);
      if (this.store?.dir !== dir) this.store = new SavedRuns(dir, folder.uri.fsPath, (m) => this.log.warn(m));
      const before = this.store.filesRead;
      this.cache = this.store.list();
      this.log.info(
        `listed ${this.cache.runs.length} saved run(s) from ${this.runsFolder} in ${Date.now() - t0} ms (${this.store.filesRead - before} run file(s) read, the rest from the run index)`,
      );
      for (const p of this.cache.problems) this.log.warn(p);
    }
    return this.cache;
  }

  findRun(id: string | undefined): StoredRun | undefined {
    return id ? this.runs().runs.find((r) => r.id === id) : undefined;
  }

  get baselineRunId(): string | undefined {
    return this.context.workspaceState.get<string>(BASELINE_KEY);
  }

  async setBaseline(runId: string): Promise<void> {
    const previous = this.baselineRunId;
    await this.context.workspaceState.update(BASELINE_KEY, runId);
    // The chosen baseline is pinned: retention (ranklab.json "runs.keep") never removes it.
    const dir = this.store?.dir ?? (this.folder && path.resolve(this.folder.uri.fsPath, this.runsFolder));
    if (dir) {
      try {
        if (previous && previous !== runId) setPinned(dir, previous, false);
        setPinned(dir, runId, true);
      } catch (e) {
        this.log.warn(`baseline run not pinned: ${(e as Error).message}`);
      }
    }
    this.log.info(`baseline set to run ${runId}`);
    this.picked = {
      ...this.picked,
      baselineRunId: runId,
      candidateRunId: this.picked.candidateRunId === runId ? undefined : this.picked.candidateRunId,
    };
    this.changed.fire();
    this.selectionChanged.fire();
  }

  /** Baseline and candidate runs for explicit ids, else the user's picks, else the defaults. */
  resolve(overrides: ComparisonParams = {}): { baseline?: StoredRun; candidate?: StoredRun; allowMixed: boolean } {
    const runs = this.runs().runs;
    const settings = this.folder ? readWorkspaceSettings(this.folder.uri.fsPath) : undefined;
    const baseline = chooseBaseline(
      runs,
      overrides.baselineRunId ?? this.picked.baselineRunId ?? this.baselineRunId,
      settings?.baselineConfig,
    );
    const candidate = chooseCandidate(runs, baseline, overrides.candidateRunId ?? this.picked.candidateRunId);
    return { baseline, candidate, allowMixed: overrides.allowMixedPrincipals ?? this.picked.allowMixedPrincipals ?? false };
  }

  /** `cmp.comparing`: the comparison is on its way (the page first, without reading any run file). */
  model(
    overrides: ComparisonParams = {},
    cmp?: DashboardComparison<ComparisonStatistics> & { note?: string; comparing?: boolean },
  ): DashboardModel {
    const folder = this.folder;
    const store = this.runs();
    const settings = folder ? readWorkspaceSettings(folder.uri.fsPath) : undefined;
    const ids = this.resolve(overrides);
    return buildDashboardModel({
      workspaceName: folder?.name ?? '(no folder)',
      runsFolder: this.runsFolder,
      runs: store.runs,
      problems: [...(settings?.problems ?? []), ...store.problems],
      metricOptions: settings?.metricOptions ?? { gain: 'exp', relevanceThreshold: 1 },
      baselineConfig: settings?.baselineConfig,
      baselineRunId: ids.baseline?.id,
      candidateRunId: ids.candidate?.id,
      primaryMetric: this.settings.primaryMetric,
      comparison: cmp?.view,
      core: cmp?.core,
      sides: cmp?.sides,
      comparing: cmp?.comparing,
      refusal: cmp?.refusal,
      comparisonNote: cmp?.note,
      allowMixedPrincipals: ids.allowMixed,
      queryInfo: this.queryInfo(),
      acl: this.acl,
    });
  }

  /** Tags and split of each query from the judgments, or undefined when they cannot be read. */
  private queryInfo(): ((qid: string) => { tags: string[]; split?: string } | undefined) | undefined {
    try {
      const judgments = this.session()?.judgments();
      return judgments
        ? (qid) => {
            const q = judgments.queries.get(qid);
            return q ? { tags: q.tags ?? [], split: querySplit(judgments, qid) } : undefined;
          }
        : undefined;
    } catch {
      return undefined;
    }
  }

  async queryDetail(qid: string, ids: ComparisonParams): Promise<QueryDetail> {
    const { baseline, candidate, allowMixed } = this.resolve(ids);
    const m = this.model(ids).primaryMetric?.spec;
    const core = (await this.comparison(baseline?.id, candidate?.id, allowMixed)).core;
    // A changed query beyond the first screenful gets its moved documents' reasons now (one query: a short worker task,
    // kept on the cached comparison for the next time it is opened).
    if (core && baseline && candidate && !core.principals.mixed)
      await this.moveReasons(baseline, candidate, core, [qid]).catch((e) =>
        this.log.warn(`no reasons for ${qid}: ${(e as Error).message}`),
      );
    let qrels: ReadonlyMap<string, number> | undefined;
    try {
      qrels = this.session()?.judgments().qrels.get(qid);
    } catch {
      qrels = undefined;
    }
    return buildQueryDetail(
      qid,
      baseline,
      candidate,
      m,
      10,
      qrels,
      this.queryInfo()?.(qid),
      core,
      this.docLookup(baseline ?? candidate, qid),
    );
  }

  /**
   * Titles and query-centred snippets from the current corpus, for runs saved without them; undefined when the
   * corpus cannot be read (the detail then shows ids only).
   */
  private docLookup(run: StoredRun | undefined, qid: string): DocLookup | undefined {
    const session = this.session();
    const query = run?.run.queries.find((q) => q.qid === qid)?.text ?? '';
    if (!session) return undefined;
    try {
      const analyzer = configAnalyzer(session.baselineConfig());
      return (id) => {
        const doc = session.document(id);
        return doc && { title: doc.title || undefined, snippet: makeSnippet(doc, query, analyzer) || undefined };
      };
    } catch (e) {
      this.log.warn(`no titles from the corpus: ${(e as Error).message}`);
      return undefined;
    }
  }

  /** Absolute path of a workspace-relative path, refusing anything outside the folder. */
  resolveInside(rel: string): string | undefined {
    const root = this.folder?.uri.fsPath;
    if (!root) return undefined;
    const abs = path.resolve(root, rel);
    return abs === root || abs.startsWith(root + path.sep) ? abs : undefined;
  }

  dispose(): void {
    this.whenIdle?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** What the worker needs of a run to rebuild its config: the config's hash and the corpus it ran on. */
function runRef(r: StoredRun): { configHash?: string; corpus?: string } {
  return { configHash: r.summary.provenance.configHash, corpus: r.summary.provenance.corpus };
}
