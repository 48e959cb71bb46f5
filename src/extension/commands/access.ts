/** Access-control commands: check every principal (results to the dashboard and Problems), search as one principal. */
import { visibleText } from '../../core/util/visible-text';
import * as vscode from 'vscode';
import { checkAccessControl as checkAll } from '../acl';
import type { RanklabContext } from '../context';
import { configUri, needFolder, pickPrincipal } from './common';

export const checkAccessControl = (ctx: RanklabContext) => async () => {
  const r = await checkAll(ctx.controller, ctx.diagnostics);
  ctx.dashboard.show();
  return r ? { violations: r.violations.length, checked: r.checked } : undefined;
};

/**
 * Searches as a principal (none: the whole corpus) with a config (default: the active editor's, else the baseline).
 * Called with a query it returns the hits; from the palette it asks, shows the hits, and opens the one picked.
 */
export const searchAsPrincipal = (ctx: RanklabContext) => async (queryArg?: string, principalArg?: string, configArg?: string) => {
  const { sessions } = ctx;
  const folder = needFolder(ctx);
  const session = sessions.session(folder);
  const text = queryArg ?? (await vscode.window.showInputBox({ prompt: 'Ranklab: search as a principal', placeHolder: 'query text' }));
  if (!text) return undefined;
  const principal = principalArg ?? (await pickPrincipal(ctx, session, 'Search as…', 'search the whole corpus'));
  if (principal === undefined) return undefined;
  const config = session.resolveConfig(configArg ?? configUri(undefined)?.fsPath);
  const r = await sessions.exclusive(folder, 'searching', () => session.search(config, text, { principal: principal || undefined }));
  // As in the CLI: documents that acl.missingAcl decided are counted and named, never silently public.
  const note = principal ? session.missingAclNote() : undefined;
  if (note) ctx.controller.log.warn(`search as ${principal}: ${note}`);
  if (queryArg !== undefined) return r.docs.map((d) => ({ id: d.id, title: d.title, score: d.score }));
  const items = r.docs.map((d, i) => ({
    label: `${i + 1}. ${visibleText(d.title ?? '') || d.id}`,
    description: d.score.toFixed(3),
    detail: d.id,
    docId: d.id,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder: `${r.total} match(es) for "${text}" as ${principal || 'anyone'} with ${config.name} (${r.latencyMs.total.toFixed(1)} ms)${note ? `; ${note.split(':')[0]}` : ''}`,
    matchOnDetail: true,
  });
  if (picked) await vscode.commands.executeCommand('ranklab.openDocument', picked.docId);
  return picked?.docId;
};
