/**
 * Editor-side state: which workspace folder, which runs, which baseline/candidate the user picked.
 * Reads are cached and invalidated by a file watcher on the runs folder; listeners hear about changes.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RanklabSession } from '../core/session/session';
import type { AclView, ComparisonView, DashboardModel, QueryDetail } from '../protocol/dashboard';
import { ACL_UNAVAILABLE, buildDashboardModel, buildQueryDetail, chooseBaseline, chooseCandidate, dashboardComparison } from './dashboard/model';
import type { SessionManager } from './sessions';
import { readSavedRuns, readWorkspaceSettings, type RunStoreResult, type StoredRun } from './run-store';
import { type RanklabSettings, SETTINGS_SECTION, affectsSettings, readSettings } from './settings';

const BASELINE_KEY = 'ranklab.baselineRunId';

export class RanklabController implements vscode.Disposable {
  private cache: RunStoreResult | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  /** The candidate the user asked to compare (not persisted: defaults to the newest run). */
  candidateRunId: string | undefined;
  /** Latest access-control result shown by the dashboard. */
  acl: AclView = ACL_UNAVAILABLE;
  private readonly comparisons = new Map<string, { view?: ComparisonView; note?: string }>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
    readonly sessions?: SessionManager,
  ) {
    const folder = this.folder;
    if (folder) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, `${this.runsFolder}/*.json`));
      const invalidate = (uri: vscode.Uri) => {
        this.log.debug(`runs changed: ${uri.fsPath}`);
        this.invalidate();
      };
      watcher.onDidCreate(invalidate);
      watcher.onDidChange(invalidate);
      watcher.onDidDelete(invalidate);
      this.disposables.push(watcher);
    }
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affectsSettings(e)) this.invalidate();
      }),
    );
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
      return this.session()?.corpus().docs.find((d) => d.id === docId)?.source;
    } catch {
      return undefined;
    }
  }

  /**
   * The comparison of two saved runs through the core (compareRuns + checkGates) on the current judgments,
   * cached per pair of runs and judgment version (it takes about half a second on 100 queries).
   */
  comparison(baselineId: string | undefined, candidateId: string | undefined): { view?: ComparisonView; note?: string } {
    const b = this.findRun(baselineId);
    const c = this.findRun(candidateId);
    if (!b || !c || b === c) return { note: 'Pick two different runs to compare.' };
    const session = this.session();
    if (!session) return { note: 'No Ranklab workspace: the comparison needs the judgments.' };
    try {
      // Runs made as different principals are refused by the core (the note says so); as one, scored as that one.
      const principal = b.run.principal === c.run.principal ? b.run.principal : undefined;
      const judgments = session.judgmentsFor({ principal });
      const key = `${b.id}|${c.id}|${judgments.fingerprint}`;
      let hit = this.comparisons.get(key);
      if (!hit) {
        hit = dashboardComparison(b, c, judgments, session.workspace.settings);
        this.comparisons.set(key, hit);
      }
      return hit;
    } catch (e) {
      return { note: `No comparison: ${(e as Error).message}` };
    }
  }

  /** The model plus the comparison of the chosen runs (the dashboard's view). */
  dashboardModel(overrides: { baselineRunId?: string; candidateRunId?: string } = {}): DashboardModel {
    const m = this.model(overrides);
    const cmp = this.comparison(m.baselineRunId, m.candidateRunId);
    return { ...m, comparison: cmp.view, comparisonNote: cmp.note };
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
      this.cache = readSavedRuns(folder.uri.fsPath, this.runsFolder);
      this.log.info(`read ${this.cache.runs.length} saved run(s) from ${this.runsFolder} in ${Date.now() - t0} ms`);
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
    await this.context.workspaceState.update(BASELINE_KEY, runId);
    this.log.info(`baseline set to run ${runId}`);
    this.changed.fire();
  }

  model(overrides: { baselineRunId?: string; candidateRunId?: string } = {}): DashboardModel {
    const folder = this.folder;
    const store = this.runs();
    const settings = folder ? readWorkspaceSettings(folder.uri.fsPath) : undefined;
    return buildDashboardModel({
      workspaceName: folder?.name ?? '(no folder)',
      runsFolder: this.runsFolder,
      runs: store.runs,
      problems: [...(settings?.problems ?? []), ...store.problems],
      metricOptions: settings?.metricOptions ?? { gain: 'exp', relevanceThreshold: 1 },
      baselineConfig: settings?.baselineConfig,
      baselineRunId: overrides.baselineRunId ?? this.baselineRunId,
      candidateRunId: overrides.candidateRunId ?? this.candidateRunId,
      primaryMetric: this.settings.primaryMetric,
      acl: this.acl,
    });
  }

  queryDetail(qid: string, ids: { baselineRunId?: string; candidateRunId?: string }): QueryDetail {
    const runs = this.runs().runs;
    const settings = this.folder ? readWorkspaceSettings(this.folder.uri.fsPath) : undefined;
    const baseline = chooseBaseline(runs, ids.baselineRunId ?? this.baselineRunId, settings?.baselineConfig);
    const candidate = chooseCandidate(runs, baseline, ids.candidateRunId ?? this.candidateRunId);
    const m = this.model(ids).primaryMetric?.spec;
    let qrels: ReadonlyMap<string, number> | undefined;
    try {
      qrels = this.session()?.judgments().qrels.get(qid);
    } catch {
      qrels = undefined;
    }
    return buildQueryDetail(qid, baseline, candidate, m, 10, qrels);
  }

  /** Absolute path of a workspace-relative path, refusing anything outside the folder. */
  resolveInside(rel: string): string | undefined {
    const root = this.folder?.uri.fsPath;
    if (!root) return undefined;
    const abs = path.resolve(root, rel);
    return abs === root || abs.startsWith(root + path.sep) ? abs : undefined;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
