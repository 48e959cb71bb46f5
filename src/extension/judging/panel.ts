/**
 * The judging panel: builds the pool through the core (src/core/session/judging-pool.ts, saved runs reused),
 * walks it with a JudgingModel (./model.ts, no vscode) and answers its protocol (src/protocol/judging.ts) through
 * the generic WebviewPanelHost (CSP, handshake, serializer). The app is webview/judging/main.ts. Grades are written
 * by the core's GradeWriter; the session's file watcher then reloads the judgments, which refreshes the dashboard,
 * the comparisons and the CodeLens.
 */
import { userInfo } from 'node:os';
import * as vscode from 'vscode';
import type { RankConfig } from '../../core/config';
import { DEFAULT_ANALYZER } from '../../core/config/defaults';
import { poolEntries, workspacePool } from '../../core/session/judging-pool';
import { GradeWriter } from '../../core/judging/writer';
import { createAnalyzer } from '../../core/retrieval/analyzer';
import type { RanklabSession } from '../../core/session/session';
import { InputError } from '../../core/util/diagnostics';
import { type JudgingMessages, type JudgingView, judgingProtocol } from '../../protocol/judging';
import type { RanklabController } from '../controller';
import type { SessionManager } from '../sessions';
import { type PanelView, WebviewPanelHost } from '../webviews/host';
import { JudgingModel } from './model';

const VIEW: PanelView<JudgingMessages> = {
  protocol: judgingProtocol,
  title: 'Ranklab: Judge',
  app: 'judging',
  styles: ['base.css', 'judging.css'],
  icon: 'ranklab.svg',
  loading: 'Building the pool of unjudged documents…',
};

/** What "Judge Unjudged Documents" may be given: the configs to pool, and a pair to show first. */
export interface JudgeRequest {
  configs?: string[];
  qid?: string;
  docId?: string;
}

export class JudgingPanel implements vscode.Disposable {
  private readonly host: WebviewPanelHost<JudgingMessages>;
  private model: JudgingModel | undefined;
  private configs: string[] = [];

  constructor(extensionUri: vscode.Uri, private readonly controller: RanklabController, private readonly sessions: SessionManager) {
    const model = () => {
      if (!this.model) throw new InputError('no pool yet: run "Ranklab: Judge Unjudged Documents"');
      return this.model;
    };
    this.host = new WebviewPanelHost(extensionUri, controller.log, VIEW, {
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
          return this.sessions.exclusive(folder, 'pooling', (session) => this.build(session, configs, abort.signal, (m) => progress.report({ message: m })));
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

  private async build(session: RanklabSession, configs: string[], signal: AbortSignal, report: (m: string) => void): Promise<JudgingModel> {
    const settings = session.workspace.settings;
    const rater = this.controller.settings.judgingRater ?? settings.judging.rater ?? userInfo().username;
    const writer = new GradeWriter({ root: session.root, specs: session.workspace.judgmentSpecs, mode: settings.judging.write, rater });
    // Configs that cannot be used are reported with the others' pool, not instead of it.
    const usable: RankConfig[] = [];
    const unusable: { config: string; error: string }[] = [];
    for (const entry of poolEntries(session, configs)) {
      try {
        usable.push(session.usable(entry));
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        unusable.push({ config: entry.name, error: e.message });
      }
    }
    if (usable.length === 0) throw new InputError(`no config to pool: ${unusable.map((u) => `${u.config}: ${u.error}`).join('; ')}`);
    const pooled = await workspacePool(session, { configs: usable, signal, onProgress: (config, done, total) => report(`${config} ${done}/${total}`) });
    const { pool, sides, metricOptions } = pooled;
    const failed = [...unusable, ...pooled.failed];
    for (const f of failed) this.controller.log.warn(`judging: config ${f.config} not pooled: ${f.error}`);
    const first = session.resolveConfig(pool.configs[0]);
    const folder = this.controller.folder!;
    const current = () => this.sessions.session(folder);
    return new JudgingModel({
      pool, sides, failed, metricOptions, writer,
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
    const b = this.controller.findRun(m.baselineRunId)?.run.provenance.config;
    const c = this.controller.findRun(m.candidateRunId)?.run.provenance.config;
    return b && c && b !== c ? [b, c] : [];
  }

  registerSerializer(): vscode.Disposable {
    return this.host.registerSerializer();
  }

  dispose(): void {
    this.host.dispose();
  }
}
