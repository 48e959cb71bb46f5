/**
 * "Sample Queries from a Log": `ranklab queries sample` in the editor, over the same core action
 * (core/actions/sample-queries.ts) and report (core/report/query-sample.ts). The workspace's judged queries are
 * left out (as `--exclude .`); the golden set is created atomically and never over an existing file.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type SampleQueriesResult, sampleQueryLog } from '../../core/actions/sample-queries';
import { SCHEMES, type Scheme } from '../../core/judging/query-sample';
import { formatQuerySample } from '../../core/report/query-sample';
import { createFileAtomic } from '../../core/util/atomic-write';
import { InputError } from '../../core/util/diagnostics';
import type { RanklabContext } from '../context';

export interface SampleQueriesArgs {
  n?: number;
  scheme?: Scheme;
  seed?: number;
  /** The golden set to create (asked for when absent). */
  target?: vscode.Uri;
}

const SCHEME_HELP: Record<Scheme, string> = {
  stratified: 'N split over head, torso and tail by traffic (default)',
  uniform: 'every distinct query equally likely',
  pps: 'probability proportional to frequency',
};

/**
 * Asks for what is not passed (log, N, scheme, target), samples, writes, logs the report to the "Ranklab" output
 * channel and offers "Pool for judging". Returns the result and the file written, or undefined when cancelled.
 */
export const sampleQueries =
  (ctx: RanklabContext) =>
  async (log?: vscode.Uri, args: SampleQueriesArgs = {}): Promise<(SampleQueriesResult & { file: string }) | undefined> => {
    const folder = ctx.controller.folder?.uri.scheme === 'file' ? ctx.controller.folder.uri : undefined;
    const logUri =
      log ??
      (
        await vscode.window.showOpenDialog({
          canSelectFiles: true,
          canSelectMany: false,
          defaultUri: folder,
          openLabel: 'Sample Queries',
          filters: { 'Query logs': ['jsonl', 'ndjson', 'json', 'csv'], 'All files': ['*'] },
        })
      )?.[0];
    if (!logUri) return undefined;
    const n = args.n ?? (await askN());
    if (n === undefined) return undefined;
    const scheme =
      args.scheme ??
      (
        await vscode.window.showQuickPick(
          SCHEMES.map((s) => ({ label: s, description: SCHEME_HELP[s] })),
          { placeHolder: 'Sampling scheme' },
        )
      )?.label;
    if (!scheme) return undefined;
    const target =
      args.target ??
      (await vscode.window.showSaveDialog({
        defaultUri: folder && vscode.Uri.joinPath(folder, 'judgments', 'sampled.json'),
        filters: { 'Golden set': ['json'] },
        saveLabel: 'Write Sample',
      }));
    if (!target) return undefined;
    const file = target.fsPath;
    const exists = new InputError('exists; a sample is never written over a file', [], { file, hint: 'choose a new file name' });
    if (path.resolve(file) === path.resolve(logUri.fsPath) || (await fileExists(target))) throw exists;

    // The workspace's judged queries are left out, as the CLI's `--exclude .` does.
    const session = ctx.controller.session();
    const exclude = session ? [...session.judgments().queries.values()].map((q) => q.text) : [];
    const result = sampleQueryLog({ log: logUri.fsPath, n, scheme, seed: args.seed ?? 1, exclude });
    for (const d of result.diagnostics) ctx.log.warn(`${d.file}:${d.line}: ${d.message}`);
    if (!createFileAtomic(file, result.golden)) throw exists;
    ctx.log.info(`Sample Queries from a Log\n${formatQuerySample({ ...result.report, out: file })}`);

    const listed = session?.workspace.judgmentSpecs.some((j) => j.golden && path.resolve(j.golden) === path.resolve(file));
    const rel = folder ? path.relative(folder.fsPath, file) : file;
    const summary = `Ranklab: sampled ${result.report.sampled} queries into ${rel} (${removedSummary(result)}; report in the Ranklab output).`;
    void (listed
      ? vscode.window
          .showInformationMessage(summary, 'Pool for judging')
          .then((c) => c && vscode.commands.executeCommand('ranklab.judgeUnjudged'))
      : vscode.window
          .showInformationMessage(`${summary} Add "${rel}" to "judgments" in ranklab.json to pool it for judging.`, 'Open ranklab.json')
          .then((c) => {
            if (c && folder) void vscode.window.showTextDocument(vscode.Uri.joinPath(folder, 'ranklab.json'));
          }));
    return { ...result, file };
  };

async function askN(): Promise<number | undefined> {
  const text = await vscode.window.showInputBox({
    prompt: 'How many queries to sample',
    value: '50',
    validateInput: (v) => (/^\s*[1-9]\d*\s*$/.test(v) ? undefined : 'a whole number of queries, 1 or more'),
  });
  return text === undefined ? undefined : Number(text.trim());
}

async function fileExists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

function removedSummary(r: SampleQueriesResult): string {
  const personal = Object.values(r.report.personal).reduce((s, v) => s + v, 0);
  const bots = Object.values(r.report.bots).reduce<number>((s, v) => s + (v ?? 0), 0);
  return `removed: ${personal} with personal data, ${bots} bot-like, ${r.report.excluded} already judged`;
}
