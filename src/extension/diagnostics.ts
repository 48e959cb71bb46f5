/**
 * Problems shown by Ranklab (collection "ranklab"):
 * - a `*.rank.json`: its parse/schema errors at their line; a warning on the changed setting when the
 *   config regresses the baseline beyond a gate or a slice regresses, naming the worst queries with
 *   links (relatedInformation) to those queries in the judgments file; an error when an ACL check fails;
 * - judgment files: malformed lines (the loader's diagnostics) and unknown document ids;
 * - corpus files: duplicate ids, binary/oversized/unreadable files, invalid fields (the corpus loader's);
 * - principals.json: entries that were skipped;
 * - ranklab.json: the workspace loader's problems, and corpus settings that match or map nothing.
 * The same lists the CLI prints (from the same session methods); a one-line count goes to the output channel.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RanklabSession } from '../core/session/session';
import { type Diagnostic as CoreDiagnostic, countProblems } from '../core/util/diagnostics';
import type { ConfigState } from './live';
import { changedSettingLine, type Finding, gateFindings } from './logic/findings';

const SEVERITY: Record<CoreDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

function lineRange(line1: number): vscode.Range {
  const l = Math.max(0, line1 - 1);
  return new vscode.Range(l, 0, l, 1000);
}

export function toVsDiagnostic(d: CoreDiagnostic): vscode.Diagnostic {
  const v = new vscode.Diagnostic(lineRange(d.line), d.message, SEVERITY[d.severity]);
  v.source = 'ranklab';
  return v;
}

export class RanklabDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('ranklab');
  /** Files whose diagnostics come from the workspace (judgments, ranklab.json), per folder root. */
  private readonly workspaceFiles = new Map<string, Set<string>>();
  /** Latest access-control findings per config file (kept across re-evaluations). */
  private readonly aclFindings = new Map<string, Finding[]>();
  /** The last summary logged per folder root, so an unchanged state is not logged again. */
  private readonly summaries = new Map<string, string>();

  constructor(private readonly log?: { info(message: string): void; warn(message: string): void }) {}

  /** Replaces the access-control errors of one config file, keeping its other diagnostics. */
  setAcl(file: string, findings: Finding[]): void {
    this.aclFindings.set(file, findings);
    const uri = vscode.Uri.file(file);
    const kept = (this.collection.get(uri) ?? []).filter((d) => d.code !== 'acl');
    const added = findings.map((f) => {
      const d = new vscode.Diagnostic(lineRange(f.line), f.message, SEVERITY[f.severity]);
      d.source = 'ranklab';
      d.code = 'acl';
      return d;
    });
    this.collection.set(uri, [...kept, ...added]);
  }

  /** Diagnostics of one config from its latest state; `session` locates the baseline config and the queries. */
  setConfig(state: ConfigState, session: RanklabSession | undefined): void {
    const aclFindings = this.aclFindings.get(state.file) ?? [];
    const uri = vscode.Uri.file(state.file);
    const out = state.parseDiagnostics.map(toVsDiagnostic);
    const r = state.status === 'done' ? state.result : undefined;
    if (r && session) {
      let text = '';
      let baselineText: string | undefined;
      try {
        text = readFileSync(state.file, 'utf8');
        const base = session.configEntries().find((e) => e.name === session.workspace.baselineName)?.file;
        if (base) baselineText = readFileSync(base, 'utf8');
      } catch {
        /* the file vanished between evaluation and now */
      }
      const { line } = changedSettingLine(text, baselineText);
      for (const f of gateFindings(r.gates, r.comparison, line)) {
        const d = new vscode.Diagnostic(lineRange(f.line), f.message, SEVERITY[f.severity]);
        d.source = 'ranklab';
        d.code = f.severity === 'error' ? 'acl' : 'gate';
        d.relatedInformation = f.queries.flatMap((q) => {
          const at = r.judgments.queryLocations?.get(q.qid);
          if (!at) return [];
          const file = path.resolve(session.root, at.file);
          return [
            new vscode.DiagnosticRelatedInformation(
              new vscode.Location(vscode.Uri.file(file), lineRange(at.line)),
              `${q.qid} "${q.text}": ${q.value.toFixed(3)}`,
            ),
          ];
        });
        out.push(d);
      }
    }
    for (const f of aclFindings) {
      const d = new vscode.Diagnostic(lineRange(f.line), f.message, SEVERITY[f.severity]);
      d.source = 'ranklab';
      d.code = 'acl';
      out.push(d);
    }
    this.collection.set(uri, out);
  }

  /** Judgment, corpus, principals and ranklab.json problems of a session, on their files. */
  refreshWorkspace(session: RanklabSession): void {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const counts: string[] = [];
    const add = (input: string, ds: readonly CoreDiagnostic[]) => {
      const shown = ds.filter((d) => d.severity !== 'info');
      if (shown.length) counts.push(`${input} ${countProblems(shown)}`);
      for (const d of shown) {
        if (!d.file) continue;
        const file = path.resolve(session.root, d.file);
        if (!byFile.has(file)) byFile.set(file, []);
        byFile.get(file)!.push(toVsDiagnostic(d));
      }
    };
    // Each input separately: one that cannot be read at all still lets the others show their problems.
    const collect = (input: string, read: () => readonly CoreDiagnostic[]) => {
      try {
        add(input, read());
      } catch (e) {
        const err = e as Error & { diagnostics?: CoreDiagnostic[]; toDiagnostic?: () => CoreDiagnostic };
        add(input, [...(err.toDiagnostic ? [err.toDiagnostic()] : []), ...(err.diagnostics ?? [])]);
      }
    };
    add('ranklab.json', session.workspace.diagnostics);
    collect('corpus', () => session.corpusDiagnostics());
    collect('judgments', () => session.judgmentDiagnostics());
    if (session.principalsFile()) collect('principals', () => (session.principals(), session.principalDiagnostics()));
    // A mapping or rule of ranklab.json that matches nothing (an error at its line), groups used on one side only.
    collect('access settings', () => session.accessDiagnostics());
    const previous = this.workspaceFiles.get(session.root) ?? new Set();
    for (const f of previous) if (!byFile.has(f)) this.collection.delete(vscode.Uri.file(f));
    for (const [f, ds] of byFile) this.collection.set(vscode.Uri.file(f), ds);
    this.workspaceFiles.set(session.root, new Set(byFile.keys()));
    const summary = counts.length ? `problems in the inputs: ${counts.join('; ')} (see the Problems view)` : 'no problems in the inputs';
    if (this.summaries.get(session.root) !== summary) {
      this.summaries.set(session.root, summary);
      if (counts.length) this.log?.warn(summary);
      else if (previous.size) this.log?.info(summary);
    }
  }

  dispose(): void {
    this.collection.dispose();
  }
}
