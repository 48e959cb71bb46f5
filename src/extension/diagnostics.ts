/**
 * Problems shown by Ranklab (collection "ranklab"):
 * - a `*.rank.json`: its parse/schema errors at their line; a warning on the changed setting when the
 *   config regresses the baseline beyond a gate or a slice regresses, naming the worst queries with
 *   links (relatedInformation) to those queries in the judgments file; an error when an ACL check fails;
 * - judgment files: malformed lines (the loader's diagnostics) and unknown document ids;
 * - ranklab.json: the workspace loader's problems.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkDocIds } from '../core/judgments/validate';
import type { RanklabSession } from '../core/session/session';
import type { Diagnostic as CoreDiagnostic } from '../core/util/diagnostics';
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
          return [new vscode.DiagnosticRelatedInformation(new vscode.Location(vscode.Uri.file(file), lineRange(at.line)), `${q.qid} "${q.text}": ${q.value.toFixed(3)}`)];
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

  /** Judgment files (malformed lines, unknown document ids) and ranklab.json problems of a session. */
  refreshWorkspace(session: RanklabSession): void {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const add = (d: CoreDiagnostic) => {
      if (!d.file) return;
      const file = path.resolve(session.root, d.file);
      if (!byFile.has(file)) byFile.set(file, []);
      byFile.get(file)!.push(toVsDiagnostic(d));
    };
    for (const d of session.workspace.diagnostics) add(d);
    try {
      const j = session.judgments();
      for (const d of j.diagnostics) if (d.severity !== 'info') add(d);
      const ids = new Set(session.corpus().docs.map((d) => d.id));
      for (const d of checkDocIds(j, ids)) add(d);
    } catch (e) {
      const err = e as Error & { diagnostics?: CoreDiagnostic[] };
      for (const d of err.diagnostics ?? []) add(d);
    }
    const previous = this.workspaceFiles.get(session.root) ?? new Set();
    for (const f of previous) if (!byFile.has(f)) this.collection.delete(vscode.Uri.file(f));
    for (const [f, ds] of byFile) this.collection.set(vscode.Uri.file(f), ds);
    this.workspaceFiles.set(session.root, new Set(byFile.keys()));
  }

  dispose(): void {
    this.collection.dispose();
  }
}
