// Ctrl-C and provider failures against the built CLI (`node dist/cli.js`, so run `npm run build` first).
// Table-driven: each case gets a fresh workspace (a copy of examples/food-search, or a generated one large
// enough that the interrupted phase takes seconds), runs the CLI as a child process, optionally sends SIGINT
// when a `RANKLAB_PROGRESS` line shows the phase it targets, and then checks the exit code, the messages,
// that no stack trace was printed, that no `*.tmp` file is left, that no file outside `.ranklab/` changed,
// and exactly which configs have a saved run. Nothing here asserts how fast anything was
// (bench/interrupt.ts measures the stop latency).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { WorkProgress } from '../../src/core/util/cooperative';
import { type ModelServer, startModelServer } from '../fixtures/http-model-server';
import { type CliRun, runCli } from '../helpers/interrupt';
import { BM25_CONFIG, type SyntheticWorkspaceOptions, writeSyntheticWorkspace } from '../helpers/synthetic-workspace';
import { copyOfExample, tempDir } from '../helpers/workspace';

// ---------------------------------------------------------------------------------------------
// Local harness (to be folded into test/fuzz/harness.ts)

interface Ctx {
  dir: string;
  server: ModelServer;
  /** An address whose port refuses connections. */
  deadUrl: string;
}

interface Case {
  name: string;
  /** `example`: a fresh copy of examples/food-search; otherwise a generated workspace. */
  workspace: 'example' | SyntheticWorkspaceOptions;
  /** More setup in the fresh workspace (extra configs, server behaviour). */
  setup?: (ctx: Ctx) => void;
  argv: (ctx: Ctx) => string[];
  /** Send SIGINT at the first progress line this accepts. */
  interruptWhen?: (p: WorkProgress) => boolean;
  /** Send a second SIGINT as soon as the CLI says it is stopping. */
  secondInterrupt?: boolean;
  expect: {
    /** Exit code, or the signal the process died of. */
    exit: number | NodeJS.Signals | Array<number | NodeJS.Signals>;
    stderr?: (ctx: Ctx) => Array<string | RegExp>;
    stdout?: (ctx: Ctx) => Array<string | RegExp>;
    /** Configs that have a saved run afterwards (exactly these). */
    runs: string[];
    /** Cache folders under .ranklab/cache that must not exist (nothing half-built is kept). */
    noCache?: string[];
    more?: (ctx: Ctx, run: CliRun) => void;
  };
}

const STACK_LINE = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;

function makeWorkspace(spec: Case['workspace']): string {
  if (spec === 'example') return copyOfExample();
  const dir = join(tempDir('ranklab-sig-'), 'ws');
  mkdirSync(dir);
  writeSyntheticWorkspace(dir, spec);
  return dir;
}

function filesUnder(dir: string, skip?: string): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (path === skip) continue;
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, skip));
    else out.push(path);
  }
  return out;
}

/** sha256 of every file outside `.ranklab/`, by relative path. */
function userFiles(dir: string): Map<string, string> {
  return new Map(filesUnder(dir, join(dir, '.ranklab')).map((f) => [relative(dir, f), createHash('sha256').update(readFileSync(f)).digest('hex')]));
}

/** Config names of the saved runs (`.ranklab/runs/<config>-<time>.json`). */
function savedRuns(dir: string): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(join(dir, '.ranklab', 'runs'));
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith('.json')).map((n) => n.replace(/-\d{4}-\d\d-\d\dT[\d-]+Z\.json$/, '')).sort();
}

function has(text: string, expected: string | RegExp): boolean {
  return typeof expected === 'string' ? text.includes(expected) : expected.test(text);
}

function exitOf(run: CliRun): number | NodeJS.Signals | null {
  return run.signal ?? run.code;
}

async function runCase(c: Case, ctx: Omit<Ctx, 'dir'>): Promise<void> {
  const dir = makeWorkspace(c.workspace);
  try {
    await checkCase(c, { ...ctx, dir });
  } finally {
    rmSync(dirname(dir), { recursive: true, force: true }); // generated workspaces are tens of MB
  }
}

async function checkCase(c: Case, full: Ctx): Promise<void> {
  const dir = full.dir;
  c.setup?.(full);
  const before = userFiles(dir);
  const run = await runCli(c.argv(full), {
    cwd: dir,
    interruptWhen: c.interruptWhen,
    secondInterruptOnNotice: c.secondInterrupt,
  });
  const stderr = run.stderr.split('\n').filter((l) => !l.startsWith('ranklab-progress ')).join('\n');
  const context = `\n--- stderr ---\n${stderr.slice(-3000)}\n--- stdout ---\n${run.stdout.slice(0, 2000)}`;
  if (c.interruptWhen) assert.ok(run.interruptedAt !== undefined, `the phase to interrupt never showed${context}`);
  const exits = [c.expect.exit].flat();
  assert.ok(exits.includes(exitOf(run)!), `exit ${exitOf(run)}, expected ${exits.join(' or ')}${context}`);
  assert.doesNotMatch(stderr, STACK_LINE, `a stack trace was printed${context}`);
  assert.doesNotMatch(stderr, /internal error/, context);
  for (const e of c.expect.stderr?.(full) ?? []) assert.ok(has(stderr, e), `stderr lacks ${e}${context}`);
  for (const e of c.expect.stdout?.(full) ?? []) assert.ok(has(run.stdout, e), `stdout lacks ${e}${context}`);
  assert.deepEqual(filesUnder(dir).filter((f) => f.endsWith('.tmp')).map((f) => relative(dir, f)), [], 'half-written files were left');
  assert.deepEqual(userFiles(dir), before, 'a file outside .ranklab/ changed');
  assert.deepEqual(savedRuns(dir), [...c.expect.runs].sort(), `saved runs${context}`);
  for (const sub of c.expect.noCache ?? []) {
    const path = join(dir, '.ranklab', 'cache', sub);
    assert.ok(!filesUnder(join(dir, '.ranklab')).some((f) => f.startsWith(path)), `${sub} cache was written by an interrupted build`);
  }
  c.expect.more?.(full, run);
}

// ---------------------------------------------------------------------------------------------
// Cases

const at = (phase: WorkProgress['phase'], label?: string, minDone = 1) => (p: WorkProgress) =>
  p.phase === phase && (label === undefined || p.label === label) && p.done >= minDone;

const TITLE_BOOST = { ...BM25_CONFIG, lexical: { ...BM25_CONFIG.lexical, fields: { title: 3, body: 1 } } };
const LSA_HNSW = { vector: { embedder: { provider: 'lsa', dimensions: 16 }, hnsw: { M: 16, efConstruction: 200, efSearch: 50 }, depth: 100 }, pageSize: 10 };
const BIG = { docs: 30_000, queries: 300 };

/** A vector config embedding through the test server (or a dead address), with fast retries. */
function httpVectorConfig(url: string, extra: Record<string, unknown> = {}) {
  return { vector: { embedder: { provider: 'http', url, model: 'fake', maxRetries: 2, retryDelayMs: 10, ...extra }, exact: true, depth: 100 }, pageSize: 10 };
}
function httpRerankConfig(url: string) {
  return { ...BM25_CONFIG, rerank: { provider: { provider: 'http', url, model: 'fake', maxRetries: 1, retryDelayMs: 10 }, topN: 20, topM: 10 } };
}
function writeConfig(ctx: Ctx, name: string, config: unknown): void {
  writeFileSync(join(ctx.dir, 'configs', `${name}.rank.json`), JSON.stringify(config, null, 2));
}

const INTERRUPTED = (done: number, of: number) => new RegExp(`interrupted: ${done} of ${of} \\w+ completed`);

const SIGNAL_CASES: Case[] = [
  {
    name: 'eval: Ctrl-C while the first lexical index is built stops it; nothing is saved',
    workspace: { ...BIG, configs: { baseline: BM25_CONFIG, title: TITLE_BOOST } },
    argv: () => ['eval', '-c', 'baseline', '-c', 'title'],
    interruptWhen: at('lexical-index', 'baseline'),
    expect: { exit: 130, stderr: () => [INTERRUPTED(0, 2), 'not completed: baseline, title'], runs: [], noCache: ['lexical'] },
  },
  {
    name: 'eval: Ctrl-C in the query loop of the second config keeps the first run and saves no partial one',
    workspace: { docs: 5_000, queries: 3_000, configs: { baseline: BM25_CONFIG, title: TITLE_BOOST } },
    argv: () => ['eval', '-c', 'baseline', '-c', 'title'],
    interruptWhen: at('queries', 'title'),
    expect: {
      exit: 130,
      stderr: () => [INTERRUPTED(1, 2), /baseline \(ndcg@10 0\.\d{4}, saved .*\.ranklab\/runs\/baseline-.*\.json\)/, 'not completed: title'],
      runs: ['baseline'],
    },
  },
  {
    name: 'eval: Ctrl-C during LSA training (in the SVD) leaves no model cache',
    workspace: { docs: 8_000, queries: 50, configs: { vector: LSA_HNSW } },
    argv: () => ['eval', '-c', 'vector'],
    interruptWhen: (p) => p.phase === 'lsa' && p.total > 0 && p.done === p.total,
    expect: { exit: 130, stderr: () => [INTERRUPTED(0, 1)], runs: [], noCache: ['lsa', 'vector'] },
  },
  {
    name: 'eval: Ctrl-C during the HNSW build leaves no graph cache',
    workspace: { docs: 8_000, queries: 50, configs: { vector: LSA_HNSW } },
    argv: () => ['eval', '-c', 'vector'],
    interruptWhen: at('hnsw', 'vector'),
    expect: { exit: 130, stderr: () => [INTERRUPTED(0, 1)], runs: [], noCache: ['vector'] },
  },
  {
    name: 'eval: Ctrl-C while reading thousands of corpus files',
    workspace: { docs: 8_000, queries: 20, layout: 'markdown' },
    argv: () => ['eval'],
    interruptWhen: at('corpus', undefined, 100),
    expect: { exit: 130, stderr: () => [INTERRUPTED(0, 1)], runs: [], noCache: ['corpus-snapshot.json', 'lexical'] },
  },
  {
    name: 'check-acl: Ctrl-C during the access check',
    workspace: { ...BIG, configs: { baseline: BM25_CONFIG } },
    argv: () => ['check-acl'],
    interruptWhen: at('access-check', 'baseline'),
    expect: { exit: 130, stderr: () => [INTERRUPTED(0, 1), 'not completed: baseline'], runs: [] },
  },
  {
    name: 'compare: Ctrl-C while the candidate runs keeps the baseline run',
    workspace: { docs: 5_000, queries: 3_000, configs: { baseline: BM25_CONFIG, title: TITLE_BOOST } },
    argv: () => ['compare', '--baseline', 'baseline', '--candidate', 'title'],
    interruptWhen: at('queries', 'title'),
    expect: { exit: 130, stderr: () => [/interrupted: 1 of 3 steps completed: baseline baseline \(run in .*baseline-.*\.json\)/, 'not completed: candidate, statistics'], runs: ['baseline'] },
  },
  {
    name: 'eval: Ctrl-C while an HTTP embedder does not answer stops the request',
    workspace: 'example',
    setup: (ctx) => {
      ctx.server.hang = true;
      writeConfig(ctx, 'http-vector', httpVectorConfig(`${ctx.server.url}/v1/embeddings`, { timeoutMs: 600_000 }));
    },
    argv: () => ['eval', '-c', 'baseline', '-c', 'http-vector'],
    interruptWhen: (p) => p.phase === 'embedding' && p.label === 'http-vector',
    expect: { exit: 130, stderr: () => [INTERRUPTED(1, 2), 'not completed: http-vector'], runs: ['baseline'] },
  },
  {
    name: 'eval: a second Ctrl-C ends the process at once; still no partial run',
    workspace: { ...BIG, configs: { baseline: BM25_CONFIG } },
    argv: () => ['eval'],
    interruptWhen: at('lexical-index', 'baseline'),
    secondInterrupt: true,
    // Either the second signal ended it, or the first stop had already finished.
    expect: { exit: ['SIGINT', 130], runs: [], noCache: ['lexical'] },
  },
];

const PROVIDER_CASES: Case[] = [
  {
    name: 'eval: an unreachable HTTP embedder fails its config only; baseline is printed and saved',
    workspace: 'example',
    setup: (ctx) => writeConfig(ctx, 'http-vector', httpVectorConfig(`${ctx.deadUrl}/v1/embeddings`)),
    argv: () => ['eval', '-c', 'baseline', '-c', 'http-vector'],
    expect: {
      exit: 2,
      stderr: (ctx) => [`config http-vector not run: connection refused (ECONNREFUSED) at ${ctx.deadUrl}/v1/embeddings`, 'gave up after 3 attempts'],
      stdout: (ctx) => [/baseline +lexical +0\.\d{4}/, `not run: http-vector: connection refused (ECONNREFUSED) at ${ctx.deadUrl}/v1/embeddings`],
      runs: ['baseline'],
    },
  },
  {
    name: 'eval: an HTTP embedder that never answers times out (after retries) and fails its config only',
    workspace: 'example',
    setup: (ctx) => {
      ctx.server.hang = true;
      writeConfig(ctx, 'http-vector', httpVectorConfig(`${ctx.server.url}/v1/embeddings`, { timeoutMs: 300, maxRetries: 1 }));
    },
    argv: () => ['eval', '-c', 'baseline', '-c', 'http-vector'],
    expect: {
      exit: 2,
      stderr: (ctx) => [`config http-vector not run: no answer within 300 ms from ${ctx.server.url}/v1/embeddings (vector.embedder.timeoutMs); gave up after 2 attempts`],
      runs: ['baseline'],
      more: (ctx) => assert.equal(ctx.server.requests.length, 2, 'one retry after the timeout'),
    },
  },
  {
    name: 'eval: an HTTP embedder that answers 500 twice, then works, is retried and the config runs',
    workspace: 'example',
    setup: (ctx) => {
      ctx.server.failNext(2, 500);
      writeConfig(ctx, 'http-vector', httpVectorConfig(`${ctx.server.url}/v1/embeddings`));
    },
    argv: () => ['eval', '-c', 'baseline', '-c', 'http-vector', '--format', 'json'],
    expect: {
      exit: 0,
      runs: ['baseline', 'http-vector'],
      more: (ctx, run) => {
        const out = JSON.parse(run.stdout);
        assert.deepEqual(out.runs.map((r: { config: string }) => r.config), ['baseline', 'http-vector']);
        assert.deepEqual(out.failed, []);
        // 398 documents in batches of 64 = 7 requests, the first one answered 500, 500, then 200.
        assert.equal(ctx.server.requests.filter((r) => Array.isArray(r.body.input) && r.body.input.length > 1).length, 9);
      },
    },
  },
  {
    name: 'eval: an HTTP embedder answering something that is not JSON fails its config without retrying',
    workspace: 'example',
    setup: (ctx) => {
      ctx.server.garbage = true;
      writeConfig(ctx, 'http-vector', httpVectorConfig(`${ctx.server.url}/v1/embeddings`));
    },
    argv: () => ['eval', '-c', 'baseline', '-c', 'http-vector', '--format', 'json'],
    expect: {
      exit: 2,
      stderr: (ctx) => [`config http-vector not run: ${ctx.server.url}/v1/embeddings answered 200 with a body that is not JSON`],
      runs: ['baseline'],
      more: (ctx, run) => {
        const out = JSON.parse(run.stdout);
        assert.deepEqual(out.runs.map((r: { config: string }) => r.config), ['baseline']);
        assert.equal(out.failed[0].name, 'http-vector');
        assert.match(out.failed[0].message, /not JSON.*Welcome to nginx/);
        assert.equal(ctx.server.requests.length, 1);
      },
    },
  },
  {
    name: 'eval: an unreachable HTTP reranker fails its config only',
    workspace: 'example',
    setup: (ctx) => writeConfig(ctx, 'http-rerank', httpRerankConfig(`${ctx.deadUrl}/v2/rerank`)),
    argv: () => ['eval', '-c', 'baseline', '-c', 'http-rerank'],
    expect: {
      exit: 2,
      stderr: (ctx) => [`config http-rerank not run: connection refused (ECONNREFUSED) at ${ctx.deadUrl}/v2/rerank (rerank.provider)`],
      runs: ['baseline'],
    },
  },
  {
    name: 'compare: an unreachable candidate is named; the baseline run is kept',
    workspace: 'example',
    setup: (ctx) => writeConfig(ctx, 'http-vector', httpVectorConfig(`${ctx.deadUrl}/v1/embeddings`)),
    argv: () => ['compare', '--baseline', 'baseline', '--candidate', 'http-vector'],
    expect: {
      exit: 2,
      stderr: (ctx) => [`ranklab compare: candidate "http-vector" not run: connection refused (ECONNREFUSED) at ${ctx.deadUrl}/v1/embeddings`, /the baseline's run is in .*baseline-.*\.json/],
      runs: ['baseline'],
    },
  },
  {
    name: 'compare: an unreachable baseline is named',
    workspace: 'example',
    setup: (ctx) => writeConfig(ctx, 'http-vector', httpVectorConfig(`${ctx.deadUrl}/v1/embeddings`)),
    argv: () => ['compare', '--baseline', 'http-vector', '--candidate', 'baseline'],
    expect: { exit: 2, stderr: (ctx) => [`ranklab compare: baseline "http-vector" not run: connection refused (ECONNREFUSED) at ${ctx.deadUrl}/v1/embeddings`], runs: [] },
  },
  {
    name: 'check-acl: an unreachable HTTP embedder fails its config; the others are checked',
    workspace: 'example',
    setup: (ctx) => writeConfig(ctx, 'http-vector', httpVectorConfig(`${ctx.deadUrl}/v1/embeddings`)),
    argv: () => ['check-acl', '-c', 'baseline', '-c', 'http-vector', '--as', 'guest', '--no-prefixes'],
    expect: {
      exit: 2,
      stderr: (ctx) => [`config http-vector not checked: connection refused (ECONNREFUSED) at ${ctx.deadUrl}/v1/embeddings`],
      stdout: () => ['No violations', /^baseline \(lexical/m],
      runs: [],
    },
  },
];

// ---------------------------------------------------------------------------------------------

let server: ModelServer;
let deadUrl: string;

before(async () => {
  server = await startModelServer();
  const dead = await startModelServer();
  await dead.close(); // its port now refuses connections
  deadUrl = dead.url;
});
after(() => server.close());

for (const [group, cases] of [['Ctrl-C', SIGNAL_CASES], ['provider failures', PROVIDER_CASES]] as const) {
  describe(group, () => {
    for (const c of cases) {
      test(c.name, { timeout: 600_000 }, async () => {
        server.reset();
        await runCase(c, { server, deadUrl });
      });
    }
  });
}

test('a second Ctrl-C ends the process even while the work does not stop (default action restored)', { timeout: 120_000 }, async () => {
  // Work that never checks its signal: only the second Ctrl-C can end it.
  const script = `
    const { interruptSignal } = require(${JSON.stringify(resolve(__dirname, '../../src/cli/workspace-options.ts'))});
    interruptSignal({ out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) });
    process.stderr.write('ready\\n');
    const busy = () => { const end = Date.now() + 100; while (Date.now() < end); };
    (async () => { for (;;) { busy(); await new Promise((r) => setImmediate(r)); } })();`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  const killer = setTimeout(() => child.kill('SIGKILL'), 100_000);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    const before = stderr;
    stderr += d.toString('utf8');
    if (!before.includes('ready') && stderr.includes('ready')) child.kill('SIGINT');
    if (!before.includes('interrupted: stopping') && stderr.includes('interrupted: stopping')) child.kill('SIGINT');
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.on('close', (c, s) => r([c, s])));
  clearTimeout(killer);
  assert.match(stderr, /interrupted: stopping \(Ctrl-C again to quit at once\)/);
  assert.deepEqual([code, signal], [null, 'SIGINT'], stderr);
});
