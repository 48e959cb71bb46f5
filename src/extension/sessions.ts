/**
 * One core session (src/core/session) per workspace folder, kept warm between commands, plus the file
 * watching that keeps it current: corpus edits go through `refreshCorpus()` (only changed documents are
 * re-indexed), judgment edits reload the judgments, a changed ranklab.json or principals file reopens the
 * session. Work on a session is serialised (`exclusive`) so two evaluations never race on one engine.
 *
 * The heavy work (evaluation, index builds, the access check, judging pools) runs in the Ranklab worker
 * (`worker/main.ts`, a worker thread with its own warm session per folder) through `inWorker`; the session here
 * serves what is quick and interactive (configs, judgments, principals, search, diagnostics, live evaluation).
 * File changes reach both. A worker that dies is reported and replaced on the next task.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { RanklabSession } from '../core/session/session';
import type { ChangedNotification, RanklabMethods, RanklabNotification } from './worker/protocol';
import { type RequestOptions, RpcClient } from './worker/rpc';

/** What changed; 'corpus-problems': corpus files changed without changing a document (only their problems may have). */
export type InputChange = 'corpus' | 'corpus-problems' | 'judgments' | 'settings' | 'config';

interface Entry {
  session?: RanklabSession;
  queue: Promise<unknown>;
  watcher: vscode.Disposable;
  pending: Set<string>;
  timer?: NodeJS.Timeout;
}

export class SessionManager implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly busyLabels = new Map<string, string>();
  private readonly stateChanged = new vscode.EventEmitter<void>();
  /** Busy/idle changed (status bar). */
  readonly onDidChangeState = this.stateChanged.event;
  private readonly inputsChanged = new vscode.EventEmitter<{ folder: vscode.WorkspaceFolder; kinds: Set<InputChange> }>();
  /** Corpus, judgments or settings changed on disk and the session took the change in. */
  readonly onDidChangeInputs = this.inputsChanged.event;

  /** The worker thread doing the heavy work (started on first use, again after it died). */
  readonly worker: RpcClient<RanklabMethods, RanklabNotification>;

  /** `workerEntry`: the worker's bundle (dist/worker.js beside dist/extension.js). */
  constructor(
    readonly log: vscode.LogOutputChannel,
    workerEntry: string,
  ) {
    this.worker = new RpcClient({
      entry: workerEntry,
      onLog: (level, message) => this.log[level](`worker: ${message}`),
      onDeath: (e) => {
        this.log.error(`${e.message}; a new worker starts with the next task`);
        void vscode.window.showErrorMessage(`Ranklab: ${e.message}. It starts again with the next command.`);
      },
    });
  }

  /**
   * Runs `method` in the worker on the folder's files; `label` shows in the status bar while it runs. The worker
   * serialises tasks per folder itself; the host's session is not held, so quick commands still answer meanwhile.
   */
  async inWorker<K extends keyof RanklabMethods>(
    folder: vscode.WorkspaceFolder,
    label: string,
    method: K,
    params: Omit<RanklabMethods[K]['params'], 'root' | 'trusted'>,
    opts: RequestOptions<RanklabMethods[K]['progress']> = {},
  ): Promise<RanklabMethods[K]['result']> {
    const key = `${folder.uri.toString()}#${Math.random()}`;
    this.busyLabels.set(key, label);
    this.stateChanged.fire();
    try {
      const full = { ...params, root: folder.uri.fsPath, trusted: vscode.workspace.isTrusted } as RanklabMethods[K]['params'];
      return await this.worker.request(method, full, opts);
    } finally {
      this.busyLabels.delete(key);
      this.stateChanged.fire();
    }
  }

  /** A config file's editor closed: the worker drops its CodeLens tune cache. */
  configClosed(folder: vscode.WorkspaceFolder, file: string): void {
    this.worker.notify({ type: 'closed', root: folder.uri.fsPath, file });
  }

  /** What the session is doing right now ("indexing", "evaluating title-boost-3"), if anything. */
  get busy(): string | undefined {
    return [...this.busyLabels.values()][0];
  }

  private entry(folder: vscode.WorkspaceFolder): Entry {
    const key = folder.uri.toString();
    let e = this.entries.get(key);
    if (!e) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**/*'));
      const created: Entry = { queue: Promise.resolve(), watcher, pending: new Set() };
      const onFile = (uri: vscode.Uri) => this.fileChanged(folder, created, uri);
      watcher.onDidCreate(onFile);
      watcher.onDidChange(onFile);
      watcher.onDidDelete(onFile);
      e = created;
      this.entries.set(key, e);
    }
    return e;
  }

  /** The session of a folder, opened on first use. Throws (InputError) when the folder is not a Ranklab workspace. */
  session(folder: vscode.WorkspaceFolder): RanklabSession {
    const e = this.entry(folder);
    if (!e.session) {
      const trusted = vscode.workspace.isTrusted;
      e.session = RanklabSession.open(folder.uri.fsPath, {
        allowNetwork: trusted,
        allowModelLoading: trusted,
        log: (m) => this.log.info(m),
        warn: (m) => this.log.warn(m),
      });
      this.log.info(`session opened on ${folder.uri.fsPath}`);
    }
    return e.session;
  }

  /** Drops the session of a folder (the next use reopens it and reloads every file). */
  reset(folder: vscode.WorkspaceFolder): void {
    const e = this.entries.get(folder.uri.toString());
    if (e) e.session = undefined;
  }

  /** Runs `fn` on the folder's session after every earlier task on it has finished; `label` shows in the status bar. */
  exclusive<T>(folder: vscode.WorkspaceFolder, label: string, fn: (session: RanklabSession) => Promise<T>): Promise<T> {
    const e = this.entry(folder);
    const key = `${folder.uri.toString()}#${Math.random()}`;
    const run = async () => {
      this.busyLabels.set(key, label);
      this.stateChanged.fire();
      try {
        return await fn(this.session(folder));
      } finally {
        this.busyLabels.delete(key);
        this.stateChanged.fire();
      }
    };
    const result = e.queue.then(run, run);
    e.queue = result.catch(() => undefined);
    return result;
  }

  private fileChanged(folder: vscode.WorkspaceFolder, e: Entry, uri: vscode.Uri): void {
    const rel = path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/');
    if (!rel || rel.startsWith('..') || /(^|\/)(\.ranklab|\.git|node_modules|\.vscode)(\/|$)/.test(rel)) return;
    e.pending.add(rel);
    clearTimeout(e.timer);
    // Editors save in bursts (format on save, several files): take them in together.
    e.timer = setTimeout(() => void this.applyChanges(folder, e), 300);
  }

  private async applyChanges(folder: vscode.WorkspaceFolder, e: Entry): Promise<void> {
    const files = [...e.pending];
    e.pending.clear();
    if (!e.session) {
      // Nothing loaded here: the next open reads everything fresh. The worker's session (if any) starts afresh too,
      // as the change cannot be classified without the workspace's settings.
      this.worker.notify({ type: 'changed', root: folder.uri.fsPath, kinds: ['settings'] });
      return;
    }
    const session = e.session;
    const judgmentFiles = new Set<string>();
    try {
      for (const s of session.judgments().sources) judgmentFiles.add(path.resolve(session.root, s));
    } catch {
      /* judgments unreadable: any change may fix them */
    }
    // A per-rater folder's files are judgments before the first one has been read.
    const raterDirs = session.workspace.judgmentSpecs.flatMap((s) => (s.raters ? [path.resolve(session.root, s.raters) + path.sep] : []));
    const principals = session.principalsFile();
    const kinds = new Set<InputChange>();
    for (const rel of files) {
      const abs = path.join(folder.uri.fsPath, rel);
      if (rel === 'ranklab.json' || abs === principals) kinds.add('settings');
      else if (judgmentFiles.has(abs) || raterDirs.some((d) => abs.startsWith(d)) || /(^|\/)(judgments|qrels)\//.test(rel))
        kinds.add('judgments');
      else if (rel.endsWith('.rank.json')) kinds.add('config');
      else kinds.add('corpus');
    }
    await this.exclusive(folder, 'updating', async (s) => {
      if (kinds.has('settings')) {
        this.reset(folder);
        return;
      }
      if (kinds.has('judgments')) s.reloadJudgments();
      if (kinds.has('corpus')) {
        const r = await s.refreshCorpus();
        const n = r.added.length + r.changed.length + r.removed.length;
        this.log.info(
          `corpus refresh: ${r.added.length} added, ${r.changed.length} changed, ${r.removed.length} removed in ${r.ms.toFixed(0)} ms`,
        );
        // No document changed, but the file may have brought or fixed a problem (a duplicate id, a binary file).
        if (n === 0) {
          kinds.delete('corpus');
          kinds.add('corpus-problems');
        }
      }
    }).catch((err) => this.log.warn(`could not take in file changes: ${(err as Error).message}`));
    const forWorker = [...kinds].filter((k): k is ChangedNotification['kinds'][number] => k !== 'corpus-problems');
    if (forWorker.length) this.worker.notify({ type: 'changed', root: folder.uri.fsPath, kinds: forWorker });
    if (kinds.size) this.inputsChanged.fire({ folder, kinds });
  }

  dispose(): void {
    for (const e of this.entries.values()) {
      clearTimeout(e.timer);
      e.watcher.dispose();
    }
    this.entries.clear();
    void this.worker.terminate();
    this.stateChanged.dispose();
    this.inputsChanged.dispose();
  }
}
