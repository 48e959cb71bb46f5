/** Commands the dashboard and the search call to open a document or a query where it is written. */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RanklabContext } from '../context';

/** Opens a document where the corpus read it from (Document.source: path and, for records, the line). */
export const openDocument = (ctx: RanklabContext) => async (docId: string) => {
  const { controller } = ctx;
  const source = typeof docId === 'string' ? controller.documentSource(docId) : undefined;
  const abs = source ? controller.resolveInside(source.path) : typeof docId === 'string' ? controller.resolveInside(docId) : undefined;
  if (abs && existsSync(abs)) {
    const line = Math.max(0, (source?.line ?? 1) - 1);
    await vscode.window.showTextDocument(vscode.Uri.file(abs), { preview: true, selection: new vscode.Range(line, 0, line, 0) });
    return true;
  }
  void vscode.window.showInformationMessage(`Ranklab: document "${docId}" has no file of that name in the workspace.`);
  return false;
};

/** Opens a query at its line in the judgments. */
export const openQuery = (ctx: RanklabContext) => async (qid: string) => {
  let at: { file: string; line: number } | undefined;
  try {
    const session = ctx.controller.session();
    const loc = session?.judgments().queryLocations?.get(qid);
    if (session && loc) at = { file: path.resolve(session.root, loc.file), line: loc.line };
  } catch {
    at = undefined;
  }
  if (at && existsSync(at.file)) {
    const pos = new vscode.Position(Math.max(0, at.line - 1), 0);
    await vscode.window.showTextDocument(vscode.Uri.file(at.file), { selection: new vscode.Range(pos, pos), preview: true });
    return true;
  }
  // Fallback when no session could open or the judgments do not locate the query: a text search of the judgment files.
  const hits = await vscode.workspace.findFiles('**/{judgments,qrels}/**', '**/node_modules/**', 50);
  for (const uri of hits) {
    const doc = await vscode.workspace.openTextDocument(uri);
    const text = doc.getText();
    const offset = [`"${qid}"`, `\n${qid}\t`, `\n${qid} `]
      .map((s) => text.indexOf(s))
      .filter((i) => i >= 0)
      .sort((a, b) => a - b)[0];
    if (offset !== undefined) {
      const pos = doc.positionAt(offset + (text[offset] === '\n' ? 1 : 0));
      await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preview: true });
      return true;
    }
  }
  void vscode.window.showInformationMessage(`Ranklab: query "${qid}" not found in judgments/ or qrels/.`);
  return false;
};
