/**
 * Case builders shared by the fuzz tables: the shapes that recur (a problem reported at file:line and the
 * rest still runs; the same under --strict; an input that cannot be used at all).
 */
import { type FuzzCase, type FuzzWorkspace, type Matcher, at, count } from './harness';
import assert from 'node:assert/strict';

export const EVAL = ['eval', '-c', 'baseline'];

/** What a reported problem looks like: where (file and a needle on its line) and words the message contains. */
export interface Problem {
  file: string;
  /** Text on the offending line (its line number is looked up after the setup); omit for file-level problems. */
  needle?: string;
  /** Which occurrence of the needle (default the first). */
  nth?: number;
  words?: Matcher[];
}

function problemMatchers(ws: FuzzWorkspace, p: Problem): Matcher[] {
  const where = p.needle === undefined ? p.file : at(p.file, ws.lineOf(p.file, p.needle, p.nth));
  return [where, ...(p.words ?? [])];
}

/**
 * Two cases: the problem is reported once (with its file and line, under a counted heading) and the
 * command still completes with `code`; with --strict the same problem stops the command before the work.
 */
export function reportedAndStrict(
  name: string,
  setup: (ws: FuzzWorkspace) => void,
  problem: Problem,
  opts: { argv?: string[]; heading: RegExp; code?: number; strictFails?: boolean; line?: string } = { heading: /problem/ },
): FuzzCase[] {
  const argv = opts.argv ?? EVAL;
  const lineText = opts.line; // a unique piece of the diagnostic line, to count it
  return [
    {
      name: `${name} (reported, the rest runs)`,
      setup,
      argv,
      expect: {
        code: opts.code ?? 0,
        stderr: (ws) => [...problemMatchers(ws, problem), opts.heading],
        check: (r) => {
          const headings = r.stderr.match(new RegExp(opts.heading.source, 'g')) ?? [];
          assert.equal(headings.length, 1, `the counted heading is printed once:\n${r.stderr}`);
          if (lineText) assert.equal(count(r.stderr, lineText), 1, `the problem is printed once:\n${r.stderr}`);
        },
      },
    },
    {
      name: `${name} (--strict: exit 2 before the work)`,
      setup,
      argv: [...argv, '--strict'],
      expect:
        opts.strictFails === false
          ? { code: opts.code ?? 0, stderr: (ws) => problemMatchers(ws, problem) }
          : { code: 2, noRuns: true, stderr: (ws) => [...problemMatchers(ws, problem), /--strict/] },
    },
  ];
}

/** One case: the command cannot use the input and exits 2, naming where, before any run is saved. */
export function unusable(
  name: string,
  setup: ((ws: FuzzWorkspace) => void) | undefined,
  argv: string[],
  problem: Problem,
  extra: Partial<FuzzCase['expect']> = {},
): FuzzCase {
  return {
    name,
    setup,
    argv,
    expect: { code: 2, noRuns: true, ...extra, stderr: (ws) => problemMatchers(ws, problem) },
  };
}

/**
 * The cases, plus the named ones again through the built binary (`node dist/cli.js` in a child process), as a
 * user or a CI job runs them: the exit code as the process sets it, stderr as written.
 */
export function alsoThroughBinary(cases: FuzzCase[], names: string[]): FuzzCase[] {
  const again = names.map((n) => {
    const c = cases.find((x) => x.name === n);
    if (!c) throw new Error(`fuzz table: no case named ${n}`);
    return { ...c, name: `${c.name} (through the binary)`, child: true };
  });
  return [...cases, ...again];
}
