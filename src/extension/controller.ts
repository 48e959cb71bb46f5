/**
 * Editor-side state: which workspace folder, which runs, which baseline/candidate the user picked.
 * Reads are cached and invalidated by a file watcher on the runs folder; listeners hear about changes.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DashboardModel, QueryDetail } from '../protocol';
import { buildDashboardModel, buildQueryDetail, chooseBaseline, chooseCandidate } from './dashboard/model';
import { DEFAULT_RUNS_FOLDER, readSavedRuns, readWorkspaceSettings, type RunStoreResult, type StoredRun } from './runStore';

const BASELINE_KEY = 'ranklab.baselineRunId';

export class RanklabController implements vscode.Disposable {
  private cache: RunStoreResult | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  /** The candidate the user asked to compare (not persisted: defaults to the newest run). */
  candidateRunId: string | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
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
        if (e.affectsConfiguration('ranklab')) this.invalidate();
      }),
    );
  }

  /** The first workspace folder (multi-root: Ranklab works on the first folder holding ranklab.json, else the first). */
  get folder(): vscode.WorkspaceFolder | undefined {
    return vscode.workspace.workspaceFolders?.[0];
  }

  get runsFolder(): string {
    return vscode.workspace.getConfiguration('ranklab').get<string>('runsFolder') || DEFAULT_RUNS_FOLDER;
  }

  invalidate(): void {
    this.cache = undefined;
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
      primaryMetric: vscode.workspace.getConfiguration('ranklab').get<string>('dashboard.primaryMetric') || undefined,
    });
  }

  queryDetail(qid: string, ids: { baselineRunId?: string; candidateRunId?: string }): QueryDetail {
    const runs = this.runs().runs;
    const settings = this.folder ? readWorkspaceSettings(this.folder.uri.fsPath) : undefined;
    const baseline = chooseBaseline(runs, ids.baselineRunId ?? this.baselineRunId, settings?.baselineConfig);
    const candidate = chooseCandidate(runs, baseline, ids.candidateRunId ?? this.candidateRunId);
    const m = this.model(ids).primaryMetric?.spec;
    return buildQueryDetail(qid, baseline, candidate, m);
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
