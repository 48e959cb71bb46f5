/**
 * "Check Access Control": the core checker (src/core/session/check-acl.ts) over every config and principal, run in
 * the Ranklab worker (worker/main.ts) under a cancellable progress notification. Results go to the dashboard's
 * ACL section and, for each config with a violation, an error on that config file (Problems).
 */
import * as vscode from 'vscode';
import { type AclReport, aclFindings } from '../core/session/check-acl';
import type { AclView } from '../protocol/dashboard';
import type { RanklabController } from './controller';
import type { RanklabDiagnostics } from './diagnostics';

/** The dashboard's view of a report: per principal the violations and mean page fill over configs. */
export function aclView(report: AclReport, at = new Date()): AclView {
  const perPrincipal = new Map<string, { violations: number; fills: number[] }>();
  for (const byName of Object.values(report.byPrincipal)) {
    for (const [name, r] of Object.entries(byName)) {
      const p = perPrincipal.get(name) ?? { violations: 0, fills: [] };
      p.violations += r.violations;
      p.fills.push(r.pageFill);
      perPrincipal.set(name, p);
    }
  }
  return {
    status: 'checked',
    passed: aclFindings(report).failures.length === 0 && report.failed.length === 0,
    checkedAt: at.toISOString(),
    principals: [...perPrincipal].map(([name, p]) => ({
      name,
      violations: p.violations,
      pageFill: p.fills.length ? p.fills.reduce((a, b) => a + b, 0) / p.fills.length : undefined,
    })),
    violations: report.violations.map((v) => ({ principal: v.principal, query: v.query, docId: v.docId, config: v.config })),
    notChecked: report.failed.map((f) => ({ config: f.config, message: f.message })),
  };
}

export async function checkAccessControl(controller: RanklabController, diagnostics?: RanklabDiagnostics): Promise<AclReport | undefined> {
  const folder = controller.folder;
  if (!folder || folder.uri.scheme !== 'file' || !controller.sessions) throw new Error('open a local folder containing ranklab.json');
  const sessions = controller.sessions;
  const report = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Ranklab: checking access control', cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort(new DOMException('cancelled', 'AbortError')));
      try {
        // The check runs in the worker; the diagnostics are set here from its report and the host's config list.
        return await sessions.inWorker(
          folder,
          'checking access',
          'checkAcl',
          {},
          { signal: abort.signal, onProgress: (message) => progress.report({ message }) },
        );
      } finally {
        sub.dispose();
      }
    },
  );
  if (diagnostics) {
    const files = new Map(
      sessions
        .session(folder)
        .configEntries()
        .filter((e) => e.file)
        .map((e) => [e.name, e.file!]),
    );
    const byConfig = new Map<string, typeof report.violations>();
    for (const v of report.violations) byConfig.set(v.config, [...(byConfig.get(v.config) ?? []), v]);
    for (const [name, file] of files) {
      const vs = byConfig.get(name) ?? [];
      diagnostics.setAcl(
        file,
        vs.length
          ? [
              {
                severity: 'error',
                line: 0,
                queries: [],
                message: `access control: ${vs.length} forbidden document(s) shown, e.g. ${vs
                  .slice(0, 3)
                  .map((v) => `"${v.docId}" to ${v.principal} for "${v.query}" (${v.where})`)
                  .join('; ')}`,
              },
            ]
          : [],
      );
    }
  }
  controller.setAcl(aclView(report));
  // The same failures as `ranklab check-acl`: leaks, a stale index filter, invalid or misspelled access fields,
  // anything left unchecked, documents public only by an unstated missingAcl.
  const { failures } = aclFindings(report);
  const missing = report.documentsWithoutAcl
    ? `; ${report.documentsWithoutAcl} document(s) decided by acl.missingAcl (${report.missingAcl})`
    : '';
  const msg =
    `Ranklab: access control ${failures.length ? `FAILED: ${failures.join('; ')}` : 'passed'} (${report.checked} responses checked, ` +
    `${report.principals.checked.length} of ${report.principals.total} principals${report.failed.length ? `, ${report.failed.length} config(s) could not run` : ''}${missing})`;
  controller.log.info(msg);
  if (failures.length) void vscode.window.showErrorMessage(msg);
  else void vscode.window.showInformationMessage(msg);
  return report;
}
