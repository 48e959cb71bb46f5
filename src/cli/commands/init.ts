import { InputError } from '../../core/util/diagnostics';
import { formatInit } from '../../core/report/init';
import { planWorkspace, writeWorkspace } from '../../core/workspace/init';
import { formatChoice, parse } from '../args';
import type { Io } from '../io';

export const INIT_USAGE = `ranklab init [DIR] [--format table|json]
  Makes DIR (default: the current folder) a workspace: finds the documents (Markdown, text, HTML, JSON/JSONL
  records, a BEIR folder) and their id/title/body/access fields, and the judgments (golden set, TREC qrels and
  queries, BEIR); writes a commented ranklab.json and four configs in configs/ (baseline, title-boost, vector,
  hybrid-rrf). Never overwrites: an existing ranklab.json is exit 2, an existing config is kept.
  Exit 2 when DIR has nothing to search.`;

export async function initCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { format: { type: 'string', short: 'f' }, help: { type: 'boolean', short: 'h' } },
    { positionals: 'DIR' },
  );
  if (values.help) return (io.out(INIT_USAGE + '\n'), 0);
  const format = formatChoice(values.format, ['table', 'json'] as const, 'table');
  if (positionals.length > 1)
    throw new InputError(`unexpected argument "${positionals[1]}" (one folder at most)`, [], { hint: 'see --help' });
  const dir = positionals[0] ?? '.';
  const plan = planWorkspace(dir);
  const result = writeWorkspace(plan);
  if (format === 'json') {
    const { files, ...found } = plan;
    io.out(
      JSON.stringify({ ...found, files: files.map((f) => f.path), ...result, next: `ranklab eval --workspace ${dir}` }, null, 2) + '\n',
    );
  } else {
    io.out(formatInit(plan, result, dir));
  }
  return 0;
}
