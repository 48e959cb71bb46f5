/**
 * Testing view "Ranklab": judgment source → split → one test per labeled query (label = query text,
 * tags as description). Running evaluates one config against the baseline:
 *   the config of the active editor when it is a `*.rank.json`, else the config evaluated most recently in
 *   the background, else the workspace baseline (then only the `gates.min` checks can fail).
 * A query fails when its primary metric (the workspace's first metric) is below `gates.min` for that metric,
 * or when it drops against the baseline by more than `gates.maxRegression` (or 1e-6 without a gate); the
 * message is a diff of the two result lists (expected = baseline, actual = candidate).
 *   A workspace without config files (a BEIR folder) runs its built-in config, as Run Evaluation does.
 * The continuous profile reports again every time a config is re-evaluated on save.
 * "Access control" → one test per principal: running it checks every labeled query and its typing
 * prefixes as that principal under the same config (core `checkAcl`), and fails on any leak. Without principals
 * the item is still listed, and running it reports it skipped with the reason (never silently absent).
 */
import { visibleText } from '../core/util/visible-text';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { aclFindings, checkAcl } from '../core/session/check-acl';
import type { JudgmentSet } from '../core/judgments/types';
import { querySplit } from '../core/judgments/splits';
import type { ConfigResult, ConfigState, LiveEvaluator } from './live';
import { formatResultList, queryVerdict } from './logic/findings';
import { LIST_TOP } from './logic/against-baseline';
import type { SessionManager } from './sessions';

/** The access-control item of a workspace without principals: listed, and skipped with the reason when run. */
const ACL_NONE = 'acl:(none)';

/** What a test run evaluates: a config file, or a built-in config (a workspace with no config files). */
type TestTarget = { file: string; name: string } | { file?: undefined; name: string };

/** Why access-control tests cannot run in a workspace with no principals (shown on the item and in the run). */
export const NO_PRINCIPALS_REASON =
  'no principals declared (ranklab.json "acl.principals" or principals.json), so there is no one to check access for';

export class RanklabTests implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController('ranklab', 'Ranklab');
  /** Outcome of each query test (by qid) and access test (by item id) in the latest report (the test API does not expose results to extensions). */
  readonly lastResults = new Map<string, { passed: boolean; message?: string; config: string }>();
  private readonly disposables: vscode.Disposable[] = [this.controller];

  constructor(
    private readonly sessions: SessionManager,
    private readonly live: LiveEvaluator,
    private readonly folder: () => vscode.WorkspaceFolder | undefined,
  ) {
    const c = this.controller;
    c.resolveHandler = async (item) => {
      if (!item) this.loadItems();
    };
    c.refreshHandler = () => this.loadItems();
    const profile = c.createRunProfile(
      'Evaluate against the baseline',
      vscode.TestRunProfileKind.Run,
      (req, token) => this.run(req, token),
      true,
      undefined,
      true,
    );
    this.disposables.push(
      profile,
      sessions.onDidChangeInputs(({ kinds }) => {
        if (kinds.has('judgments') || kinds.has('settings')) this.loadItems();
      }),
    );
  }

  /** (Re)builds the test tree from the judgments of the workspace. */
  loadItems(): void {
    const folder = this.folder();
    const c = this.controller;
    if (!folder) return c.items.replace([]);
    let judgments: JudgmentSet;
    let root: string;
    try {
      const session = this.sessions.session(folder);
      judgments = session.judgments();
      root = session.root;
    } catch (e) {
      this.sessions.log.warn(`testing: no judgments (${(e as Error).message})`);
      return c.items.replace([]);
    }
    const sources = new Map<string, vscode.TestItem>();
    const splits = new Map<string, vscode.TestItem>();
    for (const [qid, q] of judgments.queries) {
      if (!judgments.qrels.has(qid)) continue;
      const at = judgments.queryLocations?.get(qid);
      const file = path.resolve(root, at?.file ?? judgments.sources[0] ?? 'judgments');
      const uri = vscode.Uri.file(file);
      let source = sources.get(file);
      if (!source) {
        source = c.createTestItem(`source:${file}`, path.relative(root, file) || file, uri);
        sources.set(file, source);
      }
      const split = querySplit(judgments, qid);
      const splitKey = `${file}\t${split}`;
      let splitItem = splits.get(splitKey);
      if (!splitItem) {
        splitItem = c.createTestItem(`split:${splitKey}`, split, uri);
        source.children.add(splitItem);
        splits.set(splitKey, splitItem);
      }
      const item = c.createTestItem(`query:${qid}`, visibleText(q.text) || qid, uri);
      item.description = [qid, ...q.tags].join(' · ');
      if (at && at.line > 0) item.range = new vscode.Range(at.line - 1, 0, at.line - 1, 0);
      item.tags = q.tags.map((t) => new vscode.TestTag(t));
      splitItem.children.add(item);
    }
    c.items.replace([...sources.values(), ...this.aclItems(folder)]);
  }

  /** "Access control" with one item per declared principal (none when the workspace declares no principals). */
  private aclItems(folder: vscode.WorkspaceFolder): vscode.TestItem[] {
    let names: string[];
    let file: string | undefined;
    try {
      const session = this.sessions.session(folder);
      file = session.principalsFile();
      names = file ? session.principals().map((p) => p.name) : [];
    } catch (e) {
      this.sessions.log.warn(`testing: no principals (${(e as Error).message})`);
      return [];
    }
    const uri = file ? vscode.Uri.file(file) : undefined;
    const root = this.controller.createTestItem('acl', 'Access control', uri);
    if (!file || names.length === 0) {
      const item = this.controller.createTestItem(ACL_NONE, 'no principals', uri);
      item.description = `not run: ${NO_PRINCIPALS_REASON}`;
      root.children.add(item);
      return [root];
    }
    for (const name of names) {
      const item = this.controller.createTestItem(`acl:${name}`, name, uri);
      item.description = 'nothing restricted is shown: results, counts, facets, snippets, suggestions';
      root.children.add(item);
    }
    return [root];
  }

  /** The config a test run evaluates (see the module comment). */
  private pickConfig(folder: vscode.WorkspaceFolder): TestTarget | undefined {
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active?.scheme === 'file' && active.fsPath.endsWith('.rank.json') && active.fsPath.startsWith(folder.uri.fsPath + path.sep))
      return { file: active.fsPath, name: path.basename(active.fsPath) };
    const recent = [...this.live.states.values()]
      .filter((s) => s.result)
      .sort((a, b) => b.result!.evaluatedAt.getTime() - a.result!.evaluatedAt.getTime())[0];
    if (recent) return { file: recent.file, name: path.basename(recent.file) };
    const session = this.sessions.session(folder);
    const entries = session.configEntries();
    const entry = entries.find((e) => e.name === session.workspace.baselineName) ?? entries[0];
    if (!entry) return undefined;
    return entry.file ? { file: entry.file, name: path.basename(entry.file) } : { name: entry.name };
  }

  /** Evaluates a built-in config against the baseline (a config file goes through the live evaluator instead). */
  private async evaluateBuiltin(folder: vscode.WorkspaceFolder, name: string, token: vscode.CancellationToken): Promise<ConfigState> {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      const config = this.sessions.session(folder).resolveConfig(name);
      const { result } = await this.sessions.inWorker(
        folder,
        `evaluating ${name}`,
        'evaluateAgainstBaseline',
        { file: name, config },
        { signal: abort.signal },
      );
      return { file: name, folder, status: 'done', parseDiagnostics: [], result };
    } catch (e) {
      return { file: name, folder, status: 'error', parseDiagnostics: [], error: (e as Error).message };
    } finally {
      sub.dispose();
    }
  }

  private queryItems(request: vscode.TestRunRequest): vscode.TestItem[] {
    const out: vscode.TestItem[] = [];
    const excluded = new Set(request.exclude?.map((i) => i.id) ?? []);
    const visit = (item: vscode.TestItem) => {
      if (excluded.has(item.id)) return;
      if (item.id.startsWith('query:') || item.id.startsWith('acl:')) out.push(item);
      item.children.forEach(visit);
    };
    if (request.include) request.include.forEach(visit);
    else this.controller.items.forEach(visit);
    return out;
  }

  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const folder = this.folder();
    if (!folder) return;
    if (this.controller.items.size === 0) this.loadItems();
    if (request.continuous) {
      const sub = this.live.onDidChange((s) => {
        if (s.status === 'done' && s.result) this.report(request, s.result);
      });
      token.onCancellationRequested(() => {
        sub.dispose();
      });
      return;
    }
    const target = this.pickConfig(folder);
    const all = this.queryItems(request);
    const aclItems = all.filter((i) => i.id.startsWith('acl:'));
    const items = all.filter((i) => i.id.startsWith('query:'));
    if (aclItems.length) await this.runAcl(request, aclItems, folder, target, token);
    if (items.length === 0) return;
    if (!target) {
      const run = this.controller.createTestRun(request);
      for (const i of items) run.errored(i, new vscode.TestMessage('no ranking config in the workspace'));
      run.end();
      return;
    }
    const pending = this.controller.createTestRun(request, `Ranklab: ${target.name}`, false);
    for (const i of items) pending.enqueued(i);
    const sub = token.onCancellationRequested(() => pending.end());
    const state = target.file ? await this.live.evaluate(target.file, folder) : await this.evaluateBuiltin(folder, target.name, token);
    sub.dispose();
    if (token.isCancellationRequested) return;
    if (!state.result || state.status !== 'done') {
      for (const i of items) pending.errored(i, new vscode.TestMessage(`${target.name}: ${state.error ?? 'evaluation failed'}`));
      pending.end();
      return;
    }
    this.report(request, state.result, pending);
  }

  private async runAcl(
    request: vscode.TestRunRequest,
    items: vscode.TestItem[],
    folder: vscode.WorkspaceFolder,
    target: TestTarget | undefined,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const run = this.controller.createTestRun(request, `Ranklab access control${target ? `: ${target.name}` : ''}`, false);
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      for (const item of items.filter((i) => i.id === ACL_NONE)) {
        run.skipped(item);
        run.appendOutput(`Access control not checked: ${NO_PRINCIPALS_REASON}.\r\n`, undefined, item);
        this.lastResults.set(item.id, { passed: false, message: `skipped: ${NO_PRINCIPALS_REASON}`, config: target?.name ?? '' });
      }
      const checks = items.filter((i) => i.id !== ACL_NONE);
      if (checks.length === 0) return;
      if (!target) throw new Error('no ranking config in the workspace');
      const session = this.sessions.session(folder);
      const config = session.resolveConfig(target.file ?? target.name);
      for (const item of checks) {
        if (abort.signal.aborted) break;
        const principal = item.id.slice('acl:'.length);
        run.started(item);
        const t0 = Date.now();
        const report = await checkAcl(session, { configs: [config], principals: [principal], signal: abort.signal });
        const leaks = report.violations;
        // Leaks, a stale filter and invalid access fields fail the item, as they fail `ranklab check-acl`.
        const { failures } = aclFindings(report);
        if (report.failed.length) {
          run.errored(item, new vscode.TestMessage(report.failed.map((f) => `${f.config}: ${f.message}`).join('\n')));
        } else if (failures.length === 0) {
          run.passed(item, Date.now() - t0);
          this.lastResults.set(item.id, { passed: true, config: config.name });
        } else {
          const lines = leaks.slice(0, 20).map((v) => `${v.where}: "${v.query}" showed ${v.docId || '(a count)'} — ${v.detail}`);
          const message = `Access check as ${principal} under ${config.name} failed:\n${[...failures, ...lines].join('\n')}`;
          run.failed(item, new vscode.TestMessage(message), Date.now() - t0);
          this.lastResults.set(item.id, { passed: false, message, config: config.name });
        }
      }
    } catch (e) {
      for (const item of items.filter((i) => i.id !== ACL_NONE)) run.errored(item, new vscode.TestMessage((e as Error).message));
    } finally {
      sub.dispose();
      run.end();
    }
  }

  /** Marks every requested query passed or failed from one evaluation result. */
  report(request: vscode.TestRunRequest, r: ConfigResult, existing?: vscode.TestRun): void {
    const folder = this.folder();
    if (!folder) return;
    const gates = this.sessions.session(folder).workspace.settings.gates;
    const run =
      existing ??
      this.controller.createTestRun(
        new vscode.TestRunRequest(request.include, request.exclude, request.profile),
        `Ranklab: ${r.name} vs baseline`,
        false,
      );
    const metric = r.specs[0];
    for (const item of this.queryItems(request).filter((i) => i.id.startsWith('query:'))) {
      const qid = item.id.slice('query:'.length);
      run.started(item);
      const value = r.candidate.evaluation.perQuery.get(qid)?.[metric];
      const baseValue = r.baseline?.evaluation.perQuery.get(qid)?.[metric];
      const verdict = queryVerdict(metric, value, baseValue, gates);
      const latency = r.candidate.latencies.get(qid)?.total;
      this.lastResults.set(qid, { passed: !verdict, message: verdict, config: r.name });
      if (!verdict) {
        run.passed(item, latency);
        continue;
      }
      const qrels = r.judgments.qrels.get(qid);
      const expected = r.baseline ? formatResultList(r.baseline.top.get(qid), qrels, LIST_TOP) : '(this config is the baseline)\n';
      const message = vscode.TestMessage.diff(
        `${r.name}: ${verdict}`,
        expected,
        formatResultList(r.candidate.top.get(qid), qrels, LIST_TOP),
      );
      if (item.uri && item.range) message.location = new vscode.Location(item.uri, item.range);
      run.failed(item, message, latency);
    }
    run.end();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
