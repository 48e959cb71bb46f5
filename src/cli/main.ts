import { InputError, formatDiagnostic } from '../core/util/diagnostics';
import { type Io, processIo } from './io';
import { SCORE_USAGE, scoreCommand } from './commands/score';
import { EVAL_USAGE, evalCommand } from './commands/eval';
import { COMPARE_USAGE, GATE_USAGE, compareCommand, gateCommand } from './commands/compare';
import { SEARCH_USAGE, searchCommand } from './commands/search';
import { SUGGEST_USAGE, suggestCommand } from './commands/suggest';
import { CHECK_ACL_USAGE, checkAclCommand } from './commands/check-acl';
import { POOL_USAGE, poolCommand } from './commands/pool';
import { AGREEMENT_USAGE, agreementCommand } from './commands/agreement';
import { JUDGE_USAGE, judgeCommand } from './commands/judge';

type Command = { run: (argv: string[], io: Io) => Promise<number>; usage: string };

const COMMANDS: Record<string, Command> = {
  eval: { run: evalCommand, usage: EVAL_USAGE },
  score: { run: scoreCommand, usage: SCORE_USAGE },
  compare: { run: compareCommand, usage: COMPARE_USAGE },
  gate: { run: gateCommand, usage: GATE_USAGE },
  search: { run: searchCommand, usage: SEARCH_USAGE },
  suggest: { run: suggestCommand, usage: SUGGEST_USAGE },
  'check-acl': { run: checkAclCommand, usage: CHECK_ACL_USAGE },
  pool: { run: poolCommand, usage: POOL_USAGE },
  agreement: { run: agreementCommand, usage: AGREEMENT_USAGE },
  judge: { run: judgeCommand, usage: JUDGE_USAGE },
};

const USAGE = `ranklab — measured search-ranking experiments

Usage: ranklab <command> [options]   (ranklab <command> --help for details)

${Object.values(COMMANDS).map((c) => c.usage).join('\n\n')}

Exit codes: 0 success, 1 a gate or check failed, 2 unusable input (the message says what and where).
`;

/** Runs the CLI and returns the exit code (exported so tests can call it in-process). */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`ranklab: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof InputError) {
      io.err(`ranklab ${name}: ${e.message}\n`);
      for (const d of e.diagnostics.slice(0, 50)) io.err(formatDiagnostic(d) + '\n');
      return 2;
    }
    throw e;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (e) => {
      process.stderr.write(`ranklab: internal error: ${(e as Error).stack ?? e}\n`);
      process.exitCode = 3;
    },
  );
}
