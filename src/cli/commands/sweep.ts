import { existsSync } from 'node:fs';
import { RANK_CONFIG_SUFFIX } from '../../core/config/parse';
import { InputError } from '../../core/util/diagnostics';
import { parseVary } from '../../core/tuning/parameters';
import { type SweepResult, type SweepSearch, bestConfigText } from '../../core/tuning/sweep';
import { sweepBase, sweepConfig } from '../../core/actions/sweep-config';
import { sweepJson, sweepText } from '../../core/report/sweep';
import { formatChoice, intFlag, metricChoice, parse, required } from '../args';
import type { Io } from '../io';
import { type Output, checkOutputs, writeOutput } from '../outputs';
import {
  INTERRUPTED,
  WORKSPACE_OPTIONS,
  interruptSignal,
  judgmentsOf,
  openWorkspace,
  readCorpus,
  requireConfigs,
  usableConfigs,
} from '../workspace-options';

export const SWEEP_USAGE = `ranklab sweep [--workspace DIR] --config BASE --vary PATH=FROM..TO:STEP|PATH=V1,V2,... [--vary ...]
             [--search grid|random:N] [--seed S] [--objective METRIC] [--split tune | --folds K] [--top N]
             [--format table|json|markdown] [--write-best FILE.rank.json [--force]]
  Evaluates BASE with every combination of the varied settings (PATH: a setting of *.rank.json, e.g.
  lexical.fields.title, lexical.bm25.k1, hybrid.k, hybrid.weights.vector), ranks them by the objective
  (default ndcg@10) on the tune queries and reports, for the best --top (default 5), the holdout score and the
  holdout gain over BASE with its bootstrap 95% CI and permutation p; warns when the tuning gain does not carry
  over to holdout. --split tune (default): the judgments' "split" field, else a hash split holding out one
  query in four. --folds K: K-fold cross-validation over all queries instead. --search random:N samples N
  combinations of the grid (seeded by --seed, default 42). Each parameter is shown with what a new value costs
  (recombination, re-search or rebuild). --write-best writes the best combination as a new config (atomically;
  an existing file only with --force). Nothing is saved under .ranklab/runs.`;

export async function sweepCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, {
    ...WORKSPACE_OPTIONS,
    config: { type: 'string', short: 'c' },
    vary: { type: 'string', multiple: true },
    search: { type: 'string' },
    seed: { type: 'string' },
    objective: { type: 'string' },
    gain: { type: 'string' },
    'relevance-threshold': { type: 'string' },
    'exclude-no-relevant': { type: 'boolean' },
    'judged-only': { type: 'boolean' },
    split: { type: 'string' },
    folds: { type: 'string' },
    top: { type: 'string' },
    format: { type: 'string', short: 'f' },
    'write-best': { type: 'string' },
    force: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return (io.out(SWEEP_USAGE + '\n'), 0);
  const format = formatChoice(values.format, ['table', 'json', 'markdown'] as const, 'table');
  const baseName = required(values.config, '--config');
  if (!values.vary?.length) throw new InputError('is required', [], { key: '--vary', hint: "e.g. --vary 'lexical.fields.title=1..5:0.5'" });
  const search = searchChoice(values.search, intFlag(values.seed, '--seed', 0) ?? 42);
  if (values.split !== undefined) formatChoice(values.split, ['tune'] as const, 'tune', '--split');
  const folds = intFlag(values.folds, '--folds', 2);
  if (folds !== undefined && values.split !== undefined)
    throw new InputError('--split and --folds exclude each other', [], { key: '--folds' });
  const top = intFlag(values.top, '--top', 1) ?? 5;
  const { session, report } = openWorkspace(values, io);
  const settings = session.workspace.settings;
  const { specs, options, warnings } = metricChoice(
    { ...values, metrics: values.objective ?? 'ndcg@10' },
    { gain: settings.gain, relevanceThreshold: settings.relevanceThreshold, judgedOnly: settings.judgedOnly },
  );
  report.add('--relevance-threshold', warnings);
  if (specs.length !== 1) throw new InputError('names one metric', [], { key: '--objective' });
  const base = sweepBase(session, baseName);
  const variations = values.vary.map((v) => parseVary(v, base.fields));
  const output: Output | undefined = values['write-best'] ? { flag: '--write-best', path: values['write-best'], named: false } : undefined;
  if (output && !output.path.endsWith(RANK_CONFIG_SUFFIX))
    throw new InputError(`must end with ${RANK_CONFIG_SUFFIX}`, [], { key: '--write-best', file: output.path });
  if (output) checkOutputs([output], { inputs: session.inputFiles(), force: !!values.force });
  const { signal, dispose } = interruptSignal(io);
  let result: SweepResult;
  let done = 0;
  let total = 0;
  try {
    await readCorpus(session, report, signal);
    judgmentsOf(session, report, 'all');
    const choice = usableConfigs(session, report, [base.entry]);
    report.stopIfStrict();
    requireConfigs(choice);
    result = await sweepConfig(
      session,
      { base, variations, search, objective: specs[0], metricOptions: options, folds, top },
      {
        signal,
        progress: (p) => {
          ({ done, total } = p);
          if (process.stderr.isTTY)
            io.err(`\rsweep: ${p.done}/${p.total} configs (${p.label.slice(0, 60)})\x1b[K${p.done === p.total ? '\n' : ''}`);
        },
      },
    );
  } catch (e) {
    if (signal.aborted) {
      io.err(`interrupted: ${done} of ${total || '?'} configs evaluated; nothing written\n`);
      return INTERRUPTED;
    }
    throw e;
  } finally {
    dispose();
  }
  let written: string | undefined;
  if (output) {
    // Checked again: the file may have appeared while the sweep ran.
    if (!values.force && existsSync(output.path))
      throw new InputError('exists; it is not overwritten', [], {
        file: output.path,
        key: '--write-best',
        hint: 'pass --force to replace it',
      });
    writeOutput(output, bestConfigText(result));
    written = output.path;
  }
  const objective = specs[0].name;
  io.out(
    format === 'json'
      ? JSON.stringify(sweepJson(result, objective, written), null, 2) + '\n'
      : sweepText(result, objective, { markdown: format === 'markdown', top, written }),
  );
  return 0;
}

/** `grid` (default) or `random:N`. */
function searchChoice(value: string | undefined, seed: number): SweepSearch {
  if (value === undefined || value === 'grid') return { kind: 'grid' };
  const m = /^random:(\d+)$/.exec(value);
  const n = m ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new InputError(`must be grid or random:N (N >= 1), not "${value}"`, [], { key: '--search' });
  return { kind: 'random', n, seed };
}
