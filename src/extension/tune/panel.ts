/**
 * The Tune panel's controller: prepares the core's Tuner (src/core/tuning/tuner.ts) for a config in the Ranklab
 * worker (method `tunePrepare`, worker/main.ts, which keeps it) under a progress notification, then answers each
 * slider move in two stages: `tuneQuick` (means, per-query Δ, W/L/T, overfitting, gates: shown at once), then
 * `tuneEvaluate` of the same settings (compare's statistics, verdict), latest move only (./model.ts LatestOnly: moves made
 * while one computes are dropped but the last, and a newer move drops both stages of the older).
 * "Apply to config" is a WorkspaceEdit (undoable, comments kept); "Save as new config" a new file beside it.
 * Its row in the panel table (../webviews/panels.ts) gives its page and the generic host; the app is webview/tune/main.ts.
 */
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { TuneSliders } from '../../core/tuning/tuner';
import { InputError } from '../../core/util/diagnostics';
import type { TuneMessages, TuneSettingsMsg, TuneSetup, TuneStats, TuneView } from '../../protocol/tune';
import type { RanklabController } from '../controller';
import type { SessionManager } from '../sessions';
import type { HostFor, PanelDeps, PanelHost } from '../webviews/view';
import { LatestOnly, checkSettings, saveTunedConfig, settingsEdits, tuneQuickView, tuneStats } from './model';

interface Move {
  open: Open;
  settings: TuneSettingsMsg;
  seq: number;
  /** performance.now() when the host got the move. */
  t0: number;
}

interface Open {
  folder: vscode.WorkspaceFolder;
  file: string;
  sliders: TuneSliders;
  /** The baseline config the Tuner compares with. */
  baseline: string;
  setup: TuneSetup;
  view?: TuneView;
  seq: number;
}

export class TunePanel {
  private readonly host: PanelHost<TuneMessages>;
  private readonly controller: RanklabController;
  private readonly sessions: SessionManager;
  private current?: Open;
  private readonly moves: LatestOnly<Move, TuneView, TuneStats>;
  private readonly computed = new vscode.EventEmitter<TuneView>();
  /** A move's figures, both stages, reached the view (tests wait on it). */
  readonly onDidCompute = this.computed.event;

  constructor({ controller, sessions }: PanelDeps, hostFor: HostFor<TuneMessages>) {
    this.controller = controller;
    this.sessions = sessions;
    const since = (t0: number) => Math.round(performance.now() - t0);
    const args = ({ open, settings }: Move) => ({ file: open.file, settings });
    this.moves = new LatestOnly<Move, TuneView, TuneStats>(
      async (move) => {
        const q = await this.sessions.inWorker(move.open.folder, 'tuning', 'tuneQuick', args(move));
        return tuneQuickView(q, move.settings, move.open.baseline, since(move.t0));
      },
      async (move, _view, signal) => {
        const r = await this.sessions.inWorker(move.open.folder, 'tuning', 'tuneEvaluate', args(move), { signal });
        return tuneStats(r, since(move.t0));
      },
      {
        quick: ({ open, seq }, view) => {
          if (open !== this.current) return;
          open.view = view;
          open.seq = seq;
          if (this.host.isReady) this.host.notify('result', { seq, view });
        },
        full: ({ open, seq }, stats) => {
          if (open !== this.current || open.seq !== seq || !open.view) return;
          open.view = { ...open.view, stats };
          if (this.host.isReady) this.host.notify('stats', { seq, stats });
          this.computed.fire(open.view);
        },
        fail: ({ open }, e) => {
          if (open !== this.current) return;
          if (this.host.isReady) this.host.notify('status', { text: (e as Error).message ?? String(e), error: true });
        },
      },
    );
    const current = () => {
      if (!this.current) throw new InputError('no config is being tuned: run "Ranklab: Tune Config…"');
      return this.current;
    };
    this.host = hostFor({
      ready: () => {
        const open = this.current;
        if (!open) return;
        this.host.notify('setup', { setup: open.setup });
        if (open.view) this.host.notify('result', { seq: open.seq, view: open.view });
      },
      requests: {
        apply: async (p) => {
          const open = current();
          return { path: await this.apply(open.file, checkSettings(p.settings, open.sliders)) };
        },
        saveAs: async (p) => {
          const open = current();
          const path = saveTunedConfig(open.file, readFileSync(open.file, 'utf8'), checkSettings(p.settings, open.sliders));
          controller.log.info(`tune: saved ${path}`);
          await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: false, viewColumn: vscode.ViewColumn.One });
          return { path };
        },
      },
      commands: {
        move: (p) => {
          const open = current();
          const t0 = performance.now();
          this.moves.submit({ open, settings: checkSettings(p.settings, open.sliders), seq: Number(p.seq) || 0, t0 });
        },
      },
    });
  }

  get isOpen(): boolean {
    return this.host.isOpen;
  }

  /** The figures last shown (tests read them). */
  currentView(): TuneView | undefined {
    return this.current?.view;
  }

  /** Opens the Tune view on the config in `file`: prepares its Tuner in the worker, then shows its own settings' figures. */
  async open(file: string): Promise<TuneSetup | undefined> {
    const folder = this.controller.folder;
    if (!folder || folder.uri.scheme !== 'file') throw new InputError('open a local folder containing ranklab.json');
    const abort = new AbortController();
    const prepared = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Ranklab: preparing the Tune view', cancellable: true },
      (progress, token) => {
        token.onCancellationRequested(() => abort.abort(new Error('cancelled')));
        return this.sessions
          .inWorker(
            folder,
            'preparing Tune',
            'tunePrepare',
            { file },
            { signal: abort.signal, onProgress: (m) => progress.report({ message: m }) },
          )
          .catch((e) => {
            if (abort.signal.aborted) return undefined;
            throw e;
          });
      },
    );
    if (!prepared) return undefined;
    const { baseline, ...sliders } = prepared;
    const setup: TuneSetup = {
      config: file.replace(/^.*[\\/]/, '').replace(/\.rank\.json$/, ''),
      file: vscode.workspace.asRelativePath(file),
      sliders: sliders.sliders,
      fixed: sliders.fixed,
    };
    const open: Open = { folder, file, sliders, baseline, setup, seq: 0 };
    this.current = open;
    this.host.show();
    if (this.host.isReady) this.host.notify('setup', { setup });
    this.moves.submit({ open, settings: {}, seq: 0, t0: performance.now() });
    return setup;
  }

  /** Writes `settings` into the config through a WorkspaceEdit (undoable; comments and formatting kept), then saves it. */
  private async apply(file: string, settings: TuneSettingsMsg): Promise<string> {
    const uri = vscode.Uri.file(file);
    const doc = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    for (const e of settingsEdits(doc.getText(), settings))
      edit.replace(uri, new vscode.Range(doc.positionAt(e.offset), doc.positionAt(e.offset + e.length)), e.content);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`could not edit ${vscode.workspace.asRelativePath(uri)}`);
    await doc.save();
    this.controller.log.info(`tune: applied ${JSON.stringify(settings)} to ${file}`);
    return file;
  }

  dispose(): void {
    this.computed.dispose();
  }
}
