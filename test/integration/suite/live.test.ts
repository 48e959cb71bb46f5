// In-host tests of the live layer: diagnostics and CodeLens after editing a config, the Testing view,
// judgment-file diagnostics and the dashboard webview receiving comparison results.
// Runs after extension.test.ts (files load in name order) on the same throwaway workspace copy.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RanklabApi } from '../../../src/extension/extension';
import type { DashboardComparison } from '../../../src/extension/dashboard/comparison';
import type { ComparisonStatistics } from '../../../src/core/experiment/compare';

const REGRESSING =
  '{\n  "description": "regressing: body almost ignored, every term required",\n  "lexical": {\n    "fields": { "title": 1, "body": 0.1 },\n    "combineWith": "AND"\n  }\n}\n';

async function api(): Promise<RanklabApi> {
  const e = vscode.extensions.getExtension<RanklabApi>('ranklab.ranklab');
  assert.ok(e);
  return e.activate();
}

function root(): vscode.Uri {
  return vscode.workspace.workspaceFolders![0].uri;
}

async function until<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, timeoutMs = 60000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v as T;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
}

suite('Ranklab live evaluation', () => {
  suiteSetup(async () => {
    const a = await api();
    // Gates for this workspace copy: at most 0.02 of nDCG@10 may be lost against the baseline.
    const settings = vscode.Uri.joinPath(root(), 'ranklab.json');
    const json = JSON.parse(fs.readFileSync(settings.fsPath, 'utf8'));
    json.gates = { maxRegression: { 'ndcg@10': 0.02 } };
    fs.writeFileSync(settings.fsPath, JSON.stringify(json, null, 2));
    a.sessions.reset(vscode.workspace.workspaceFolders![0]);
  });

  test('the Testing view lists the judgment file, its split and one test per query (label = query text)', async () => {
    const { tests } = await api();
    tests.loadItems();
    const sources: vscode.TestItem[] = [];
    tests.controller.items.forEach((i) => i.id !== 'acl' && sources.push(i));
    assert.deepEqual(
      sources.map((s) => s.label),
      [path.join('judgments', 'golden.json')],
    );
    const splits: vscode.TestItem[] = [];
    sources[0].children.forEach((i) => splits.push(i));
    assert.deepEqual(
      splits.map((s) => s.label),
      ['tune'],
    );
    const queries: vscode.TestItem[] = [];
    splits[0].children.forEach((i) => queries.push(i));
    assert.deepEqual(queries.map((q) => q.label).sort(), ['quick bread', 'tomato soup', 'vegan curry <b>hot</b>']);
    const q2 = queries.find((q) => q.id === 'query:q2')!;
    assert.equal(q2.range?.start.line, 2, 'q2 is on line 3 of golden.json');
  });

  test('saving a regressing config: CodeLens shows the drop, a warning sits on the changed setting, linked to the worst queries', async () => {
    const { live } = await api();
    const uri = vscode.Uri.joinPath(root(), 'configs', 'title-boost.rank.json');
    const doc = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.replace(new vscode.Range(0, 0, doc.lineCount, 0), REGRESSING));
    const evaluated = new Promise<void>((resolve) => {
      const sub = live.onDidChange((s) => {
        if (s.file === uri.fsPath && s.status === 'done') {
          sub.dispose();
          resolve();
        }
      });
    });
    assert.ok(await doc.save());
    await evaluated;

    const warning = await until('the gate warning', () =>
      vscode.languages.getDiagnostics(uri).find((d) => d.source === 'ranklab' && /regresses the baseline/.test(d.message)),
    );
    console.log(`gate diagnostic: line ${warning.range.start.line + 1}: ${warning.message}`);
    assert.equal(warning.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(warning.range.start.line, 3, 'on the "fields" line, where the body boost changed');
    // nDCG@10: baseline 1.0 on all three queries; the candidate loses q3 entirely and q2 partly.
    assert.match(warning.message, /ndcg@10 regresses the baseline beyond the gate: dropped 0\.391/);
    assert.match(warning.message, /worst queries: q3 "vegan curry <b>hot<\/b>" \(−1\.000\), q2 "quick bread" \(−0\.174\)/);
    const related = warning.relatedInformation ?? [];
    assert.deepEqual(
      related.map((r) => path.basename(r.location.uri.fsPath)),
      ['golden.json', 'golden.json'],
    );
    assert.deepEqual(
      related.map((r) => r.location.range.start.line),
      [3, 2],
      'q3 on line 4, q2 on line 3',
    );

    const lenses = await until('CodeLens with figures', async () => {
      const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
      return l?.some((x) => /nDCG@10/.test(x.command?.title ?? '')) ? l : undefined;
    });
    const titles = lenses.map((l) => l.command?.title ?? '');
    console.log(`codelens: ${titles.join(' | ')}`);
    assert.match(titles[0], /^nDCG@10 0\.609 ▼0\.391 vs baseline · MRR@10 0\.667/);
    assert.ok(titles.includes('Run') && titles.includes('Compare') && titles.includes('Open dashboard'));
  });

  test('running the Testing view on the regressing config fails q3 and q2 with a result-list diff, passes q1', async () => {
    const { tests } = await api();
    const uri = vscode.Uri.joinPath(root(), 'configs', 'title-boost.rank.json');
    await vscode.window.showTextDocument(uri);
    const cts = new vscode.CancellationTokenSource();
    await tests.run(new vscode.TestRunRequest(), cts.token);
    const r = (qid: string) => tests.lastResults.get(qid);
    assert.equal(r('q1')?.passed, true);
    assert.equal(r('q2')?.passed, false);
    assert.equal(r('q3')?.passed, false);
    assert.match(r('q3')!.message!, /regresses against the baseline: 1\.000 → 0\.000/);
    assert.equal(r('q3')!.config, 'title-boost');
  });

  test('access control appears in the Testing view, one test per principal, and running it checks for leaks', async () => {
    const { tests } = await api();
    tests.loadItems();
    const acl = tests.controller.items.get('acl');
    assert.ok(acl, 'an "Access control" item');
    const names: string[] = [];
    acl!.children.forEach((c) => names.push(c.label));
    assert.deepEqual(names.sort(), ['chef', 'guest']);
    const cts = new vscode.CancellationTokenSource();
    await tests.run(new vscode.TestRunRequest([acl!.children.get('acl:guest')!]), cts.token);
    // The fixture's documents carry no ACL fields and ranklab.json states missingAcl public: nothing can leak (left
    // unstated, documents public only by the default would fail the check).
    assert.equal(tests.lastResults.get('acl:guest')?.passed, true);
  });

  test('Compare with Baseline on the config shows the core comparison in the dashboard webview', async () => {
    const a = await api();
    const uri = vscode.Uri.joinPath(root(), 'configs', 'title-boost.rank.json');
    const cand = await vscode.commands.executeCommand<string>('ranklab.compareWithBaseline', uri);
    assert.ok(cand, 'no candidate run id');
    const panel = await until('dashboard ready', () => (a.dashboard()?.isReady ? a.dashboard() : undefined));
    const model = await until('a posted model with a comparison', () => {
      const m = panel!.lastPostedModel;
      // The fresh baseline run (evaluated with the config), not the fixture's 2025 run picked earlier.
      return m?.comparison && m.candidateRunId === cand && !m.baselineRunId?.startsWith('2025-') ? m : undefined;
    });
    assert.deepEqual(
      model.comparison!.runIds,
      { baseline: model.baselineRunId, candidate: model.candidateRunId },
      'figures of the runs named',
    );
    assert.equal(model.comparison!.candidate, 'title-boost');
    assert.equal(model.comparison!.baseline, 'baseline');
    const ndcg = model.comparison!.metrics.find((m) => m.spec === 'ndcg@10')!;
    assert.ok(Math.abs(ndcg.delta - -0.3913) < 1e-3, `delta ${ndcg.delta}`);
    assert.ok(ndcg.ci95[0] <= ndcg.delta && ndcg.delta <= ndcg.ci95[1]);
    assert.equal(model.comparison!.gates.find((g) => /ndcg@10 drop/.test(g.gate))?.passed, false);
    assert.equal(model.acl.status, 'not-run');
  });

  test('a pair of runs the worker made gets its verdict from their per-query values saved with them, before the comparison in full', async () => {
    const a = await api();
    const c = a.controller;
    // The two runs Compare with Baseline just made in the worker (their files were never read for this).
    const newest = (config: string) =>
      c
        .runs()
        .runs.filter((r) => r.summary.provenance.config === config && !r.id.startsWith('2025-'))
        .pop()!;
    const [b, t] = [newest('baseline'), newest('title-boost')];
    assert.ok(b && t, 'both runs made in this session');
    // Asked in the labelled mixed mode (the same principal: the same figures), a pair the comparison cache has not seen.
    const firsts: DashboardComparison<ComparisonStatistics>[] = [];
    const full = await c.comparison(b.id, t.id, true, (first) => firsts.push(first));
    assert.equal(
      firsts.length,
      1,
      "the statistics came first: the worker saved both runs' per-query values under the key the editor asks for",
    );
    const first = firsts[0].view!;
    assert.ok(first.pending && first.moved.length === 0 && !first.classes, 'the lists still to come');
    assert.deepEqual(first.metrics, full.view!.metrics, "every metric line is the whole comparison's");
    assert.equal(first.verdict.headline, full.view!.verdict.headline);
    assert.ok(!full.view!.pending && full.view!.classes, 'then the comparison in full');
  });

  test('a new run is compared ahead with the default pair, so the next open reads its comparison from the cache', async () => {
    const a = await api();
    const c = a.controller;
    // No dashboard open (it would ask for the comparison itself) and no pick: the default pair.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until('dashboard closed', () => !a.dashboard()?.isReady || undefined);
    c.select({});
    const before = c.resolve().candidate!;
    // A new run of the candidate's config (its file under a later id; runs are never rewritten).
    const newId = before.id.replace(/\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '2099-01-01T00-00-00-000Z');
    assert.notEqual(newId, before.id);
    c.computedAhead = undefined;
    fs.copyFileSync(before.file, path.join(path.dirname(before.file), path.basename(before.file).replace(before.id, newId)));
    const ahead = await until('the comparison computed ahead', () => c.computedAhead);
    assert.equal(ahead, true, 'computed and cached');
    const { baseline, candidate } = c.resolve();
    assert.equal(candidate?.id, newId, 'the new run is in the default pair');
    const cmp = await c.comparison(baseline!.id, newId);
    assert.ok(cmp.view, cmp.note);
    assert.equal(cmp.cached, true, 'read from the comparison cache, not computed again');
  });

  // Last: it changes the judgments.
  test('judgment files get a diagnostic for an unknown document id, at its line', async () => {
    await api();
    const file = vscode.Uri.joinPath(root(), 'judgments', 'golden.json');
    const text = fs
      .readFileSync(file.fsPath, 'utf8')
      .replace('"corpus/tomato-soup.md": 3', '"corpus/tomato-soup.md": 3, "corpus/no-such-doc.md": 1');
    fs.writeFileSync(file.fsPath, text);
    const d = await until('unknown-id diagnostic', () =>
      vscode.languages.getDiagnostics(file).find((x) => /unknown document id "corpus\/no-such-doc\.md"/.test(x.message)),
    );
    assert.equal(d.range.start.line, 1, 'q1 judgments are on line 2');
  });

  test('corpus files get their problems as diagnostics too (a duplicate id), which go when the file goes', async () => {
    await api();
    const copy = vscode.Uri.joinPath(root(), 'corpus', 'zz-soup-again.md');
    fs.writeFileSync(copy.fsPath, '---\nid: corpus/tomato-soup.md\ntitle: Tomato soup again\n---\nTomato soup, once more.\n');
    const d = await until('duplicate-id diagnostic', () =>
      vscode.languages.getDiagnostics(copy).find((x) => /duplicate id "corpus\/tomato-soup\.md"/.test(x.message)),
    );
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    fs.unlinkSync(copy.fsPath);
    await until('the diagnostic goes with the file', () => vscode.languages.getDiagnostics(copy).length === 0 || undefined);
  });
});
