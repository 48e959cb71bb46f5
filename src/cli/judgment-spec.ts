import { statSync } from 'node:fs';

/** What `--qrels PATH [--queries PATH]` means: a BEIR folder, a golden-set JSON, or TREC qrels (+ queries). */
export function judgmentSpecFor(qrels: string, queries?: string): { qrels?: string; queries?: string; golden?: string; beir?: string } {
  let isDir = false;
  try {
    isDir = statSync(qrels).isDirectory();
  } catch {
    // a missing path is reported by the judgments loader, with its name
  }
  if (isDir) return { beir: qrels };
  if (/\.json$/i.test(qrels)) return { golden: qrels };
  return { qrels, queries };
}
