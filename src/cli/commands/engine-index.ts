import { type IndexReport, indexCorpus } from '../../core/session/engine-index';
import { InputError } from '../../core/util/diagnostics';
import { engineCollectionsText } from '../../core/config/engine-kinds';
import { formatChoice, parse } from '../args';
import type { Io } from '../io';
import {
  INTERRUPTED,
  WORKSPACE_OPTIONS,
  interruptSignal,
  openWorkspace,
  readCorpus,
  requireConfigs,
  usableConfigs,
} from '../workspace-options';

export const INDEX_USAGE = `ranklab index --engine CONFIG [--workspace DIR] [--recreate] [--format table|json] [--strict]
  Loads the workspace corpus into the ${engineCollectionsText()} that the engine config
  names, to try configs on a real engine: title and text as text fields, tags and the access fields (tenant,
  groups, public, and any other field the access rule reads) as keywords, document vectors from the config's
  embedder when it has one. An index that exists is left alone unless --recreate (which deletes it first).`;

export async function indexCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, {
    ...WORKSPACE_OPTIONS,
    engine: { type: 'string', short: 'e' },
    recreate: { type: 'boolean' },
    format: { type: 'string', short: 'f' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return (io.out(INDEX_USAGE + '\n'), 0);
  const format = formatChoice(values.format, ['table', 'json'] as const, 'table');
  if (!values.engine) throw new InputError('--engine CONFIG is required: the engine config whose index is loaded', [], { key: '--engine' });
  const { session, report: inputs } = openWorkspace(values, io);
  const { signal, dispose } = interruptSignal(io);
  let report: IndexReport;
  try {
    const choice = usableConfigs(session, inputs, [session.configEntry(values.engine)]);
    await readCorpus(session, inputs, signal);
    inputs.stopIfStrict();
    const config = requireConfigs(choice);
    if (!config.engine) throw new InputError(`config ${config.name} has no "engine" section`, [], { key: '--engine' });
    let last = 0;
    report = await indexCorpus(session, config, {
      recreate: !!values.recreate,
      signal,
      onProgress: (phase, done, total) => {
        if (!process.stderr.isTTY || (done !== total && Date.now() - last < 200)) return;
        last = Date.now();
        io.err(`\r${phase === 'embed' ? 'embedding' : 'indexing'}: ${done}/${total} documents${done === total ? '\n' : ''}`);
      },
    });
  } catch (e) {
    if (signal.aborted) {
      io.err('interrupted: the index may hold part of the corpus; run again with --recreate\n');
      return INTERRUPTED;
    }
    throw e;
  } finally {
    dispose();
  }
  for (const s of report.skipped) io.err(`${s.file}${s.line ? `:${s.line}` : ''}: ${s.id} not indexed: ${s.reason}\n`);
  for (const r of report.refused.slice(0, 20)) io.err(`${r.id} refused by the engine: ${r.reason}\n`);
  const complete = report.refused.length === 0 && report.indexed === report.documents - report.skipped.length;
  if (format === 'json') {
    io.out(JSON.stringify(report, null, 2) + '\n');
  } else {
    io.out(
      [
        `${report.recreated ? 'Recreated' : 'Created'} ${report.kind} index "${report.index}" at ${report.url}: ${report.indexed} of ${report.documents} documents in ${(report.ms / 1000).toFixed(1)} s`,
        `  text: ${report.fields.text.join(', ')}; keywords: ${[...report.fields.keyword, ...report.fields.keywords].join(', ')}; boolean: ${report.fields.boolean.join(', ')}`,
        report.vectors
          ? `  vectors: ${report.fields.vector!.field}, ${report.vectors.dimension} dimensions (${report.vectors.embedder})`
          : '  vectors: none (the config has no embedder)',
        ...(report.skipped.length ? [`  ${report.skipped.length} document(s) with invalid access fields not indexed (listed above)`] : []),
        ...(report.refused.length ? [`  ${report.refused.length} document(s) refused by the engine (listed above)`] : []),
      ].join('\n') + '\n',
    );
  }
  return complete ? 0 : 2;
}
