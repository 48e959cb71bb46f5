import { loadSavedRun, runOfSaved } from '../../core/experiment/run-store';
import { expandedRunJson } from '../../core/run/run-format';
import { formatTrecRun } from '../../core/run/trec-run';
import { InputError } from '../../core/util/diagnostics';
import { formatChoice, parse } from '../args';
import type { Io } from '../io';

export const SHOW_RUN_USAGE = `ranklab show-run FILE [--format json|trec]
  Prints a saved run (.ranklab/runs/*.json.gz, or an older *.json: any version) as plain text: json (the
  default) is the expanded ranklab-run@1 shape, one object per ranked document, as Export Run writes it; trec is
  "qid Q0 docid rank score tag" lines tagged with the config name.`;

export async function showRunCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { format: { type: 'string', short: 'f' }, help: { type: 'boolean', short: 'h' } },
    { positionals: 'FILE' },
  );
  if (values.help) return (io.out(SHOW_RUN_USAGE + '\n'), 0);
  const format = formatChoice(values.format, ['json', 'trec'] as const, 'json');
  const [file] = positionals;
  if (file === undefined || positionals.length !== 1)
    throw new InputError(`needs exactly one saved run file, got ${positionals.length}`, [], {
      hint: 'ranklab show-run .ranklab/runs/NAME.json.gz',
    });
  const saved = loadSavedRun(file);
  if (format === 'trec') io.out(formatTrecRun(runOfSaved(saved).run, saved.provenance.config));
  else io.out(expandedRunJson(saved));
  return 0;
}
