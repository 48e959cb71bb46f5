/**
 * The judging panel's controller: builds the pool through the core (src/core/session/judging-pool.ts, saved runs reused),
 * walks it with a JudgingModel (./model.ts, no vscode) and answers its protocol (src/protocol/judging.ts); its
 * row in the panel table (../webviews/panels.ts) gives its page and the generic host (CSP, handshake, serializer). The app is webview/judging/main.ts. Grades are written
 * by the core's GradeWriter; the session's file watcher then reloads the judgments, which refreshes the dashboard,
 * the comparisons and the CodeLens.
 */
import { userInfo } from 'node:os';
import * as vscode from 'vscode';
import { DEFAULT_ANALYZER } from '../../core/config/defaults';
import { GradeWriter } from '../../core/judging/writer';
import { createAnalyzer } from '../../core/retrieval/analyzer';
import { InputError } from '../../core/util/diagnostics';
import type { JudgingMessages, JudgingView } from '../../protocol/judging';
import type { RanklabController } from '../controller';
import type { SessionManager } from '../sessions';
import type { HostFor, PanelDeps, PanelHost } from '../webviews/view';
import { JudgingModel } from './model';

/** What "Judge Unjudged Documents" may be given: the configs to pool, and a pair to show first. */
export interface JudgeRequest {
  configs?: string[];
  qid?: string;
  docId?: string;
}

export class JudgingPanel {
  private readonly host: PanelHost<JudgingMessages>;
  private readonly controller: RanklabController;
  private readonly sessions: SessionManager;
  private model: JudgingModel | undefined;
  private configs: string[] = [];

  constructor({ controller, sessions }: PanelDeps, hostFor: HostFor<JudgingMessages>) {
    this.controller = controller;
    this.sessions = sessions;
    const model = () => {
      if (!this.model) throw new InputError('no pool yet: run "Ranklab: Judge Unjudged Documents"');
      return this.model;
    };
    this.host = hostFor({
      ready: () => {
        if (this.model) this.host.notify('show', { view: this.model.view() });
        // Restored after a window reload: the pool is built again (saved runs make that quick).
        else void this.open().catch((e) => controller.log.error(`judging: ${(e as Error).message}`));
      },
      requests: {
        getView: () => model().view(),
        grade: (p) => model().grade(p.qid, p.docId, p.grade),
        skip: (p) => model().skip(p.qid, p.docId),
        undo: () => model().undo(),
      },
      commands: {
        openDocument: (p) => vscode.commands.executeCommand('ranklab.openDocument', p.docId),
        openQuery: (p) => vscode.commands.executeCommand('ranklab.openQuery', p.qid),
      },
    });
  }

  get isOpen(): boolean {
    return this.host.isOpen;
  }

  /** The view as the app last got it or would get it now (tests read it). */
  currentView(): JudgingView | undefined {
    return this.model?.view();
  }

  /**
   * Opens the panel on the pool of `request.configs` (default: the dashboard's baseline and candidate, else every
   * config), built again when the configs change; with a pair, shows that pair first.
   */
  async open(request: JudgeRequest = {}): Promise<JudgingView> {
    const folder = this.controller.folder;
    if (!folder || folder.uri.scheme !== 'file') throw new InputError('open a local folder containing ranklab.json');
    const configs = request.configs?.length ? request.configs : this.defaultConfigs();
    if (!this.model || configs.join('\n') !== this.configs.join('\n')) {
      this.model = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Ranklab: pooling unjudged documents', cancellable: true },
        (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort(new Error('cancelled')));
          return this.build(folder, configs, abort.signal, (m) => progress.report({ message: m }));
        },
      );
      this.configs = configs;
    }
    if (request.qid && request.docId) this.model.focus(request.qid, request.docId);
    this.host.show();
    const view = this.model.view();
    if (this.host.isReady) this.host.notify('show', { view });
    return view;
  }

  /** The pool is drawn in the worker (every config's ranked lists); the model walks it here, over the host's session. */
  private async build(
    folder: vscode.WorkspaceFolder,
    configs: string[],
    signal: AbortSignal,
    report: (m: string) => void,
  ): Promise<JudgingModel> {
    const session = this.sessions.session(folder);
    const settings = session.workspace.settings;
    const rater = this.controller.settings.judgingRater ?? settings.judging.rater ?? userInfo().username;
    const writer = new GradeWriter({ root: session.root, specs: session.workspace.judgmentSpecs, mode: settings.judging.write, rater });
    const { pool, sides, metricOptions, failed } = await this.sessions.inWorker(
      folder,
      'pooling',
      'pool',
      { configs },
      { signal, onProgress: report },
    );
    for (const f of failed) this.controller.log.warn(`judging: config ${f.config} not pooled: ${f.error}`);
    const first = session.resolveConfig(pool.configs[0]);
    const current = () => this.sessions.session(folder);
    return new JudgingModel({
      pool,
      sides,
      failed,
      metricOptions,
      writer,
      judgments: () => current().judgments(),
      reload: () => current().reloadJudgments(),
      document: (id) => current().document(id),
      analyzer: createAnalyzer(first.lexical?.analyzer ?? DEFAULT_ANALYZER),
      ...(writer.mode === 'per-rater' && { rater }),
    });
  }

  /** The configs of the comparison the dashboard shows (baseline first), when there is one. */
  private defaultConfigs(): string[] {
    const m = this.controller.model();
    const b = this.controller.findRun(m.baselineRunId)?.summary.provenance.config;
    const c = this.controller.findRun(m.candidateRunId)?.summary.provenance.config;
    return b && c && b !== c ? [b, c] : [];
  }
}
