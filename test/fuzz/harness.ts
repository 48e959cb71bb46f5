/**
 * The fuzz harness: a case is a setup mutation of a fresh workspace (a copy of examples/food-search, or a
 * generated one large enough that a phase takes seconds), the CLI arguments, and what must happen. Every case
 * also asserts the rules that hold for any input: no stack trace and no "internal error" on stderr, no
 * half-written (`*.tmp`) file left, and no file outside `.ranklab/` changed except the ones the case says it
 * writes. Tables of cases live in `test/fuzz/*.test.ts` and call `fuzzTable`.
 *
 * Cases run in-process through `main()` (fast: the modules stay warm) unless they set `child: true`,
 * which runs the built binary (`node dist/cli.js`) as a user would — needed for signals and crashes
 * (`onSpawn` gets the process). `interruptWhen` runs the binary with RANKLAB_PROGRESS on and sends SIGINT at the
 * first progress line it accepts (Ctrl-C in a chosen phase). A new input kind is a new table file,
 * `test/fuzz/<kind>.test.ts`, calling `fuzzTable(title, cases)`; shared case shapes are in cases.ts.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { constants as os, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { main } from '../../src/cli/main';
import type { WorkProgress } from '../../src/core/util/cooperative';
import { CLI } from '../helpers/cli';
import { type InterruptWatch, interruptOnProgress } from '../helpers/interrupt';
import { type SyntheticWorkspaceOptions, writeSyntheticWorkspace } from '../helpers/synthetic-workspace';

const REPO_DIR = resolve(__dirname, '../..');
/**
 * Where the workspace copies go: a memory file system when there is one (copying and removing the example
 * takes a few times less there than on disk, and every case does both), else the system's temporary folder.
 */
const FUZZ_TMP = process.env.RANKLAB_FUZZ_TMP ?? (writableFolder('/dev/shm') ? '/dev/shm' : tmpdir());
export const EXAMPLE_DIR = join(REPO_DIR, 'examples/food-search');

/** The workspace copy a case works on; paths are relative to its root. */
export class FuzzWorkspace {
  constructor(readonly root: string) {}

  path(rel: string): string {
    return join(this.root, rel);
  }
  read(rel: string): string {
    return readFileSync(this.path(rel), 'utf8');
  }
  write(rel: string, data: string | Buffer): void {
    mkdirSync(dirname(this.path(rel)), { recursive: true });
    writeFileSync(this.path(rel), data);
  }
  json(rel: string): any {
    return JSON.parse(this.read(rel));
  }
  writeJson(rel: string, value: unknown): void {
    this.write(rel, JSON.stringify(value, null, 2) + '\n');
  }
  /** Changes ranklab.json through its parsed value (re-written with 2-space indentation). */
  settings(edit: (s: any) => void): void {
    const s = this.json('ranklab.json');
    edit(s);
    this.writeJson('ranklab.json', s);
  }
  /** Replaces the first occurrence of `from` in a file; fails loudly when it is not there (a stale case). */
  replace(rel: string, from: string | RegExp, to: string): void {
    const text = this.read(rel);
    const found = typeof from === 'string' ? text.includes(from) : from.test(text);
    if (!found) throw new Error(`fuzz setup: ${String(from)} not found in ${rel}`);
    this.write(rel, text.replace(from, to));
  }
  remove(rel: string): void {
    rmSync(this.path(rel), { recursive: true, force: true });
  }
  /** 1-based line of the first line containing `needle` (0 when absent: the case is then wrong). */
  lineOf(rel: string, needle: string, nth = 1): number {
    let seen = 0;
    const lines = this.read(rel).split(/\r\n|\n|\r/);
    for (let k = 0; k < lines.length; k++) if (lines[k].includes(needle) && ++seen === nth) return k + 1;
    throw new Error(`fuzz case: "${needle}" not in ${rel}`);
  }
  /** Keeps only these configs in configs/ (cases that run "all configs" stay fast). */
  keepConfigs(...names: string[]): void {
    for (const f of readdirSync(this.path('configs'))) if (!names.some((n) => f === `${n}.rank.json`)) this.remove(`configs/${f}`);
  }
}

export type Matcher = string | RegExp;

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Expectation {
  code: number;
  /** Each must occur in stderr (a string literally). A function gets the workspace (to compute lines). */
  stderr?: Matcher[] | ((ws: FuzzWorkspace) => Matcher[]);
  stdout?: Matcher[] | ((ws: FuzzWorkspace) => Matcher[]);
  /** None of these may occur in stderr. */
  notStderr?: Matcher[];
  /** Paths (relative to the workspace) this case may create or change outside `.ranklab/`. */
  writes?: string[];
  /** No run was saved: the command stopped before the work (or saved nothing half-done). */
  noRuns?: boolean;
  /** The configs that have a saved run afterwards, exactly these (by config name). */
  runs?: string[];
  /** Entries under `.ranklab/cache` that must not exist afterwards (nothing half-built is kept). */
  noCache?: string[];
  /** Anything else, with the result and the workspace. */
  check?: (r: RunResult, ws: FuzzWorkspace) => void;
}

export interface FuzzCase {
  name: string;
  /** A generated workspace instead of a copy of the example. */
  workspace?: SyntheticWorkspaceOptions;
  setup?: (ws: FuzzWorkspace) => void;
  /** CLI arguments; the command runs with the workspace as its working folder. */
  argv: string[] | ((ws: FuzzWorkspace) => string[]);
  /** Run the built binary in a child process instead of `main()` in this process. */
  child?: boolean;
  /** With `child`: called once the process runs (to send it a signal, say). */
  onSpawn?: (child: ChildProcess, ws: FuzzWorkspace) => void;
  /** Extra environment variables for the run. */
  env?: Record<string, string>;
  /** Ctrl-C: run the binary and send SIGINT at the first progress line this accepts (which must come). */
  interruptWhen?: (p: WorkProgress) => boolean;
  /** With `interruptWhen`: a second SIGINT as soon as the CLI says it is stopping. */
  secondInterrupt?: boolean;
  expect: Expectation;
}

/** `file:line` as a diagnostic prints it (the file may be printed with a folder in front). */
export function at(file: string, line: number): RegExp {
  return new RegExp(`${escape(file)}:${line}(?!\\d)`);
}

/** How many times `text` occurs in `haystack`. */
export function count(haystack: string, text: string): number {
  return haystack.split(text).length - 1;
}

const STACK_FRAME = /^\s*at .*:\d+:\d+/m;

/** Registers one test per case (sequential: in-process cases change the working folder). */
export function fuzzTable(title: string, cases: FuzzCase[]): void {
  const names = new Set<string>();
  for (const c of cases) {
    if (names.has(c.name)) throw new Error(`duplicate fuzz case name: ${c.name}`);
    names.add(c.name);
    test(`${title}: ${c.name}`, { concurrency: false }, async () => void (await runCase(c)));
  }
}

export async function runCase(c: FuzzCase): Promise<RunResult> {
  const ws = c.workspace ? syntheticWorkspace(c.workspace) : freshWorkspace();
  try {
    c.setup?.(ws);
    const before = treeHashes(ws.root);
    const runsBefore = savedRuns(ws.root);
    const argv = typeof c.argv === 'function' ? c.argv(ws) : c.argv;
    let watch: InterruptWatch | undefined;
    const onSpawn = (child: ChildProcess) => {
      if (c.interruptWhen)
        watch = interruptOnProgress(child, { interruptWhen: c.interruptWhen, secondInterruptOnNotice: c.secondInterrupt });
      c.onSpawn?.(child, ws);
    };
    const env = c.interruptWhen ? { RANKLAB_PROGRESS: '1', ...c.env } : c.env;
    const r = c.child || c.interruptWhen ? await runChild(argv, ws.root, { env, onSpawn }) : await runInProcess(argv, ws.root, env);
    const stderr = r.stderr
      .split('\n')
      .filter((l) => !l.startsWith('ranklab-progress '))
      .join('\n');
    const show = `\n--- argv: ${argv.join(' ')}\n--- exit ${r.code}\n--- stderr:\n${stderr.slice(0, 4000)}\n--- stdout:\n${r.stdout.slice(0, 2000)}`;
    if (c.interruptWhen) assert.ok(watch?.interruptedAt !== undefined, `the phase to interrupt never showed${show}`);
    assert.equal(r.code, c.expect.code, `exit code${show}`);
    assert.ok(!STACK_FRAME.test(stderr) && !STACK_FRAME.test(r.stdout), `a stack trace was printed${show}`);
    assert.ok(!/internal error/i.test(stderr), `"internal error" was printed${show}`);
    const e = c.expect;
    for (const m of resolveMatchers(e.stderr, ws)) assert.ok(matches(stderr, m), `stderr lacks ${String(m)}${show}`);
    for (const m of resolveMatchers(e.stdout, ws)) assert.ok(matches(r.stdout, m), `stdout lacks ${String(m)}${show}`);
    for (const m of e.notStderr ?? []) assert.ok(!matches(stderr, m), `stderr has ${String(m)}${show}`);
    const changed = diffTrees(before, treeHashes(ws.root)).filter((p) => !(e.writes ?? []).includes(p));
    assert.deepEqual(changed, [], `files outside .ranklab/ changed${show}`);
    assert.deepEqual(
      filesUnder(ws.root).filter((f) => f.endsWith('.tmp')),
      [],
      `half-written files were left${show}`,
    );
    if (e.noRuns)
      assert.deepEqual(
        savedRuns(ws.root).filter((f) => !runsBefore.includes(f)),
        [],
        `a run was saved${show}`,
      );
    if (e.runs) assert.deepEqual(configsOfRuns(savedRuns(ws.root)), [...e.runs].sort(), `saved runs${show}`);
    for (const entry of e.noCache ?? []) {
      const prefix = `.ranklab/cache/${entry}`;
      assert.ok(!filesUnder(ws.root).some((f) => f.startsWith(prefix)), `${entry} was cached by an interrupted build${show}`);
    }
    e.check?.(r, ws);
    return r;
  } finally {
    rmSync(dirname(ws.root), { recursive: true, force: true });
  }
}

/** A generated workspace (test/helpers/synthetic-workspace.ts), in its own temporary folder. */
function syntheticWorkspace(opts: SyntheticWorkspaceOptions): FuzzWorkspace {
  const root = join(mkdtempSync(join(FUZZ_TMP, 'ranklab-fuzz-')), 'ws');
  mkdirSync(root);
  writeSyntheticWorkspace(root, opts);
  return new FuzzWorkspace(root);
}

/** A fresh copy of the example workspace (without its `.ranklab/` state), in its own temporary folder. */
export function freshWorkspace(): FuzzWorkspace {
  const root = join(mkdtempSync(join(FUZZ_TMP, 'ranklab-fuzz-')), 'food-search');
  cpSync(EXAMPLE_DIR, root, { recursive: true, filter: (src) => !src.split(/[\\/]/).includes('.ranklab') });
  return new FuzzWorkspace(root);
}

function writableFolder(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function resolveMatchers(m: Expectation['stderr'], ws: FuzzWorkspace): Matcher[] {
  return typeof m === 'function' ? m(ws) : (m ?? []);
}

function matches(text: string, m: Matcher): boolean {
  return typeof m === 'string' ? text.includes(m) : m.test(text);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Content hash of every file under `root` except `.ranklab/`, by relative path (symlinks by their target name). */
export function treeHashes(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      if (r === '.ranklab') continue;
      const st = lstatSync(join(root, r));
      if (st.isDirectory()) walk(r);
      else if (st.isSymbolicLink()) out.set(r, 'link');
      else
        out.set(
          r,
          createHash('sha1')
            .update(readFileSync(join(root, r)))
            .digest('hex'),
        );
    }
  };
  walk('');
  return out;
}

function diffTrees(a: Map<string, string>, b: Map<string, string>): string[] {
  const out = new Set<string>();
  for (const [p, h] of a) if (b.get(p) !== h) out.add(p);
  for (const p of b.keys()) if (!a.has(p)) out.add(p);
  return [...out].sort();
}

/** Every file under `root`, relative, with POSIX slashes. */
function filesUnder(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, rel))) {
    const r = rel ? `${rel}/${name}` : name;
    if (lstatSync(join(root, r)).isDirectory()) out.push(...filesUnder(root, r));
    else out.push(r);
  }
  return out;
}

/** What saved run files are of: `<config>[@principal]` of `<config>[@principal]-<time>.json.gz` (or older `.json`). */
function configsOfRuns(files: string[]): string[] {
  return files
    .filter((n) => n.endsWith('.json.gz') || n.endsWith('.json'))
    .map((n) => n.replace(/-\d{4}-\d\d-\d\dT[\d-]+Z\.json(\.gz)?$/, ''))
    .sort();
}

function savedRuns(root: string): string[] {
  const dir = join(root, '.ranklab', 'runs');
  try {
    return lstatSync(dir).isDirectory() ? readdirSync(dir) : [];
  } catch {
    return [];
  }
}

/**
 * The environment of a case: no state folder from the caller, caches of read-only folders in a temporary
 * place, and the case's own variables. `undefined` values remove a variable.
 */
function caseEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { RANKLAB_STATE_DIR: undefined, XDG_CACHE_HOME: join(FUZZ_TMP, 'ranklab-fuzz-cache'), ...extra };
}

async function runInProcess(argv: string[], cwd: string, extraEnv?: Record<string, string>): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const io = { out: (t: string) => void (stdout += t), err: (t: string) => void (stderr += t) };
  const previous = process.cwd();
  const env = caseEnv(extraEnv);
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const apply = (vars: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(vars))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  };
  apply(env);
  process.chdir(cwd);
  try {
    const code = await main(argv, io);
    return { code, stdout, stderr };
  } catch (e) {
    // What the binary does with an escaped exception (exit 3 with the stack): the case then fails on it.
    return { code: 3, stdout, stderr: `${stderr}ranklab: internal error: ${(e as Error).stack ?? e}\n` };
  } finally {
    process.chdir(previous);
    apply(saved);
  }
}

/** Runs the built binary (test/helpers/cli.ts; RANKLAB_TEST_CLI picks another build); `npm test` builds it first. */
export function runChild(
  argv: string[],
  cwd: string,
  opts: { env?: Record<string, string>; onSpawn?: (child: ChildProcess) => void } = {},
): Promise<RunResult> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build`);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(caseEnv(opts.env)))
    if (v === undefined) delete env[k];
    else env[k] = v;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...argv], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr!.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code: code ?? (signal ? 128 + os.signals[signal] : -1), stdout, stderr }));
    opts.onSpawn?.(child);
  });
}
