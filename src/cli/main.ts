import { InputError, formatDiagnostic } from '../core/util/diagnostics';
import { type Io, processIo, quietOnClosedStdout, reportDiagnostics } from './io';
import { SCORE_USAGE, scoreCommand } from './commands/score';
import { EVAL_USAGE, evalCommand } from './commands/eval';
import { COMPARE_USAGE, GATE_USAGE, compareCommand, gateCommand } from './commands/compare';
import { SEARCH_USAGE, searchCommand } from './commands/search';
import { EXPLAIN_USAGE, explainCommand } from './commands/explain';
import { SUGGEST_USAGE, suggestCommand } from './commands/suggest';
import { CHECK_ACL_USAGE, checkAclCommand } from './commands/check-acl';
import { INDEX_USAGE, indexCommand } from './commands/engine-index';
import { POOL_USAGE, poolCommand } from './commands/pool';
import { AGREEMENT_USAGE, agreementCommand } from './commands/agreement';
import { JUDGE_USAGE, judgeCommand } from './commands/judge';
import { SWEEP_USAGE, sweepCommand } from './commands/sweep';
import { SHOW_RUN_USAGE, showRunCommand } from './commands/show-run';
import { INIT_USAGE, initCommand } from './commands/init';
import { QUERIES_USAGE, queriesCommand } from './commands/queries';
import { JUDGMENTS_USAGE, judgmentsCommand } from './commands/judgments';
import { INTERRUPTED } from './workspace-options';

type Command = { run: (argv: string[], io: Io) => Promise<number>; usage: string };

const COMMANDS: Record<string, Command> = {
  init: { run: initCommand, usage: INIT_USAGE },
  eval: { run: evalCommand, usage: EVAL_USAGE },
  score: { run: scoreCommand, usage: SCORE_USAGE },
  compare: { run: compareCommand, usage: COMPARE_USAGE },
  gate: { run: gateCommand, usage: GATE_USAGE },
  search: { run: searchCommand, usage: SEARCH_USAGE },
  explain: { run: explainCommand, usage: EXPLAIN_USAGE },
  suggest: { run: suggestCommand, usage: SUGGEST_USAGE },
  'check-acl': { run: checkAclCommand, usage: CHECK_ACL_USAGE },
  index: { run: indexCommand, usage: INDEX_USAGE },
  pool: { run: poolCommand, usage: POOL_USAGE },
  queries: { run: queriesCommand, usage: QUERIES_USAGE },
  judgments: { run: judgmentsCommand, usage: JUDGMENTS_USAGE },
  agreement: { run: agreementCommand, usage: AGREEMENT_USAGE },
  judge: { run: judgeCommand, usage: JUDGE_USAGE },
  sweep: { run: sweepCommand, usage: SWEEP_USAGE },
  'show-run': { run: showRunCommand, usage: SHOW_RUN_USAGE },
};

const USAGE = `ranklab — measured search-ranking experiments

Usage: ranklab <command> [options]   (ranklab <command> --help for details)

${Object.values(COMMANDS)
  .map((c) => c.usage)
  .join('\n\n')}

Exit codes: 0 success, 1 a gate or check failed, 2 unusable input (the message says what and where),
3 internal error (a bug: please report it), 130 interrupted.
`;

/**
 * Runs the CLI and returns the exit code (exported so tests can call it in-process). Every failure a user can
 * cause is an InputError (exit 2, printed with its file, line and key); anything else is a bug: exit 3 with the
 * stack, so that it gets reported.
 */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [name, ...rest] = argv;
  const topic = name === 'help' ? commandNamed(rest[0]) : undefined;
  if (topic) {
    io.out(topic.usage + '\n');
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE);
    return name ? 0 : 2;
  }
  const command = commandNamed(name);
  if (!command) {
    io.err(`ranklab: unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')}; ranklab --help)\n`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    const input = e instanceof InputError ? e : fileSystemError(e);
    if (input) {
      reportInputError(io, name, input);
      return 2;
    }
    io.err(
      `ranklab ${name}: internal error (a bug in ranklab; please report it with the lines below): ${(e as Error)?.stack ?? String(e)}\n`,
    );
    return 3;
  }
}

/** The command of that name; an inherited key ("constructor", "toString") is no command. */
function commandNamed(name: string | undefined): Command | undefined {
  return name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}

function reportInputError(io: Io, command: string, e: InputError): void {
  const main = e.toDiagnostic();
  io.err(e.file ? `${formatDiagnostic(main)}\n` : `ranklab ${command}: error: ${e.message}\n`);
  const related = e.diagnostics.filter((d) => formatDiagnostic(d) !== formatDiagnostic(main));
  reportDiagnostics(io, related);
}

/**
 * A file-system error that names a path (a folder that vanished, a disk that is full, a permission) comes
 * from the user's machine, not from a bug: exit 2 naming the path, like any other unusable input.
 */
function fileSystemError(e: unknown): InputError | undefined {
  const err = e as NodeJS.ErrnoException;
  if (!err || typeof err.code !== 'string' || typeof err.path !== 'string') return undefined;
  return new InputError(`cannot ${err.syscall ?? 'use'} it: ${err.code}`, [], { file: err.path });
}

if (require.main === module) {
  quietOnClosedStdout();
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
    // Interrupted: leave now rather than wait for work the core abandoned (a library load, a request) to drain.
    if (code === INTERRUPTED) process.exit();
  });
}
