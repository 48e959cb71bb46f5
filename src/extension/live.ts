/**
 * Background evaluation of ranking configs: on save of a `*.rank.json` (and when the corpus, the judgments
 * or ranklab.json change) the config is evaluated through the core, compared with the baseline and
 * checked against the gates (logic/against-baseline.ts), in the Ranklab worker so the editor stays responsive.
 * The results feed the CodeLens, the diagnostics and the Testing view. Runs are saved under .ranklab/runs with
 * `reuse`, so an unchanged config costs nothing the second time.
 */
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { parseRankConfig } from '../core/config';
import type { Diagnostic } from '../core/util/diagnostics';
import type { ConfigResult } from './logic/against-baseline';
import type { SessionManager } from './sessions';
import type { EarlyAnswer, RunSaved } from './worker/protocol';

export type { ConfigResult } from './logic/against-baseline';

export interface ConfigState {
  file: string;
  folder: vscode.WorkspaceFolder;
  status: 'evaluating' | 'done' | 'error' | 'invalid';
  parseDiagnostics: Diagnostic[];
  result?: ConfigResult;
  /** While evaluating: the edit's figures already answered from the config's tune cache (the full evaluation follows). */
  early?: EarlyAnswer;
  error?: string;
}

export class LiveEvaluator implements vscode.Disposable {
  readonly states = new Map<string, ConfigState>();
  private readonly running = new Map<string, AbortController>();
  private readonly changed = new vscode.EventEmitter<ConfigState>();
  readonly onDidChange = this.changed.event;
  private readonly runSaved = new vscode.EventEmitter<RunSaved>();
  /** A background evaluation saved its run (with the run's summary). */
  readonly onDidSaveRun = this.runSaved.event;
  private readonly disposables: vscode.Disposable[] = [this.changed, this.runSaved];

  constructor(
    private readonly sessions: SessionManager,
    private readonly folderOf: (uri: vscode.Uri) => vscode.WorkspaceFolder | undefined,
  ) {
    this.disposables.push(
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (!doc.uri.fsPath.endsWith('.rank.json')) return;
        const folder = this.folderOf(doc.uri);
        if (!folder) return;
        // Completes the walkthrough's "edit a boost and save" step (package.json contributes.walkthroughs).
        void vscode.commands.executeCommand('setContext', 'ranklab.savedConfig', true);
        void this.evaluate(doc.uri.fsPath, folder).then(() => {
          // The baseline changed: every other shown comparison is stale.
          if (this.isBaselineFile(folder, doc.uri.fsPath)) this.reevaluateAll(folder, doc.uri.fsPath);
        });
      }),
      // What the worker prepared for a closed config (its CodeLens tune cache) is dropped with it.
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (!doc.uri.fsPath.endsWith('.rank.json') || doc.uri.scheme !== 'file') return;
        const folder = this.folderOf(doc.uri);
        if (folder) sessions.configClosed(folder, doc.uri.fsPath);
      }),
      sessions.onDidChangeInputs(({ folder, kinds }) => {
        if (kinds.has('corpus') || kinds.has('judgments') || kinds.has('settings')) this.reevaluateAll(folder);
      }),
    );
  }

  private isBaselineFile(folder: vscode.WorkspaceFolder, file: string): boolean {
    try {
      const s = this.sessions.session(folder);
      return s.configEntries().some((e) => e.file === file && e.name === s.workspace.baselineName);
    } catch {
      return false;
    }
  }

  /** Re-evaluates every config that has been shown (has a state), except `skip`. */
  reevaluateAll(folder: vscode.WorkspaceFolder, skip?: string): void {
    for (const s of this.states.values()) {
      if (s.folder.uri.toString() === folder.uri.toString() && s.file !== skip && existsSync(s.file)) void this.evaluate(s.file, folder);
    }
  }

  /** Evaluates now (a newer request for the same file aborts this one). Resolves with the state when done. */
  async evaluate(file: string, folder: vscode.WorkspaceFolder): Promise<ConfigState> {
    this.running.get(file)?.abort();
    const abort = new AbortController();
    this.running.set(file, abort);
    const parsed = parseRankConfig(file);
    const previous = this.states.get(file);
    if (!parsed.config) {
      const state: ConfigState = { file, folder, status: 'invalid', parseDiagnostics: parsed.diagnostics, error: 'the config has errors' };
      this.set(state);
      return state;
    }
    const config = parsed.config;
    const evaluating: ConfigState = { file, folder, status: 'evaluating', parseDiagnostics: parsed.diagnostics, result: previous?.result };
    this.set(evaluating);
    if (!vscode.workspace.isTrusted) {
      const state: ConfigState = {
        file,
        folder,
        status: 'error',
        parseDiagnostics: parsed.diagnostics,
        error: 'evaluation is off in an untrusted workspace',
      };
      this.set(state);
      return state;
    }
    let state: ConfigState;
    let fieldProblems: Diagnostic[] = [];
    try {
      // Searched fields no document has come back too: shown on the config like its other problems (as the CLI).
      const r = await this.sessions.inWorker(
        folder,
        `evaluating ${config.name}`,
        'evaluateAgainstBaseline',
        { file, config },
        {
          signal: abort.signal,
          onProgress: (p) => {
            // The run's summary, for the run index before the watcher sees the file (nothing decoded then).
            if (p.type === 'saved') return this.runSaved.fire(p);
            // The early figures, shown until the full evaluation (which must agree) ends.
            if (this.running.get(file) === abort && p.configHash === config.configHash) this.set({ ...evaluating, early: p });
          },
        },
      );
      const result = r.result;
      fieldProblems = r.fieldProblems;
      state = { file, folder, status: 'done', parseDiagnostics: [...parsed.diagnostics, ...fieldProblems], result };
      const early = result.early
        ? `, answered early (${result.early.source === 'tuner' ? 'tune cache' : 'before saving the run'}) in ${result.early.ms.toFixed(0)} ms`
        : '';
      this.sessions.log.info(
        `live: ${config.name} evaluated (${result.candidate.reused ? 'reused saved run' : 'ran'}${early}), ${result.gates.filter((g) => !g.passed).length} gate(s) failed`,
      );
    } catch (e) {
      if (abort.signal.aborted) return this.states.get(file)!;
      state = {
        file,
        folder,
        status: 'error',
        parseDiagnostics: [...parsed.diagnostics, ...fieldProblems],
        error: (e as Error).message,
        result: previous?.result,
      };
      this.sessions.log.warn(`live: ${file}: ${(e as Error).message}`);
    } finally {
      if (this.running.get(file) === abort) this.running.delete(file);
    }
    this.set(state);
    return state;
  }

  private set(state: ConfigState): void {
    this.states.set(state.file, state);
    this.changed.fire(state);
  }

  dispose(): void {
    for (const a of this.running.values()) a.abort();
    for (const d of this.disposables) d.dispose();
  }
}
