// Ctrl-C and provider failures against the built CLI (`node dist/cli.js`, so run `npm run build` first), through
// the fuzz harness (harness.ts). Each case gets a fresh workspace (a copy of examples/food-search, or a generated one
// large enough that the interrupted phase takes seconds), runs the CLI as a child process, optionally sends SIGINT
// when a `RANKLAB_PROGRESS` line shows the phase it targets, and then checks the exit code and the messages and,
// besides the harness's own rules (no stack trace, no `*.tmp` file left, no file outside `.ranklab/` changed),
// exactly which configs have a saved run and that nothing half-built was cached. Nothing here asserts how fast
// anything was (bench/interrupt.ts measures the stop latency).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { WorkProgress } from '../../src/core/util/cooperative';
import { type ModelServer, startModelServer } from '../fixtures/http-model-server';
import { BM25_CONFIG } from '../helpers/synthetic-workspace';
import { type FuzzCase, type FuzzWorkspace, fuzzTable } from './harness';

/** The model server of the provider cases, and an address whose port refuses connections. */
let server: ModelServer;
let deadUrl: string;

before(async () => {
  server = await startModelServer();
  const dead = await startModelServer();
  await dead.close(); // its port now refuses connections
  deadUrl = dead.url;
});
after(() => server.close());

const at =
  (phase: WorkProgress['phase'], label?: string, minDone = 1) =>
  (p: WorkProgress) =>
    p.phase === phase && (label === undefined || p.label === label) && p.done >= minDone;

const TITLE_BOOST = { ...BM25_CONFIG, lexical: { ...BM25_CONFIG.lexical, fields: { title: 3, body: 1 } } };
const LSA_HNSW = {
  vector: { embedder: { provider: 'lsa', dimensions: 16 }, hnsw: { M: 16, efConstruction: 200, efSearch: 50 }, depth: 100 },
  pageSize: 10,
};
const BIG = { docs: 30_000, queries: 300 };

/** A vector config embedding through the test server (or a dead address), with fast retries. */
function httpVectorConfig(url: string, extra: Record<string, unknown> = {}) {
  return {
    vector: { embedder: { provider: 'http', url, model: 'fake', maxRetries: 2, retryDelayMs: 10, ...extra }, exact: true, depth: 100 },
    pageSize: 10,
  };
}
function httpRerankConfig(url: string) {
  return {
    ...BM25_CONFIG,
    rerank: { provider: { provider: 'http', url, model: 'fake', maxRetries: 1, retryDelayMs: 10 }, topN: 20, topM: 10 },
  };
}
function writeConfig(ws: FuzzWorkspace, name: string, config: unknown): void {
  ws.writeJson(`configs/${name}.rank.json`, config);
}

const INTERRUPTED = (done: number, of: number) => new RegExp(`interrupted: ${done} of ${of} \\w+ completed`);

const SIGNAL_CASES: FuzzCase[] = [
  {
    name: 'eval: Ctrl-C while the first lexical index is built stops it; nothing is saved',
    workspace: { ...BIG, configs: { baseline: BM25_CONFIG, title: TITLE_BOOST } },
    argv: ['eval', '-c', 'baseline', '-c', 'title'],
    interruptWhen: at('lexical-index', 'baseline'),
    expect: { code: 130, stderr: [INTERRUPTED(0, 2), 'not completed: baseline, title'], runs: [], noCache: ['lexical'] },
  },
  {
    name: 'eval: Ctrl-C in the query loop of the second config keeps the first run and saves no partial one',
    workspace: { docs: 5_000, queries: 3_000, configs: { baseline: BM25_CONFIG, title: TITLE_BOOST } },
    argv: ['eval', '-c', 'baseline', '-c', 'title'],
    interruptWhen: at('queries', 'title'),
    expect: {
      code: 130,
      stderr: [INTERRUPTED(1, 2), /baseline \(ndcg@10 0\.\d{4}, saved .*\.ranklab\/runs\/baseline-.*\.json\.gz\)/, 'not completed: title'],
      runs: ['baseline'],
    },
  },
  {
    name: 'eval: Ctrl-C during LSA training (in the SVD) leaves no model cache',
    workspace: { docs: 8_000, queries: 50, configs: { vector: LSA_HNSW } },
    argv: ['eval', '-c', 'vector'],
    interruptWhen: (p) => p.phase === 'lsa' && p.total > 0 && p.done === p.total,
    expect: { code: 130, stderr: [INTERRUPTED(0, 1)], runs: [], noCache: ['lsa', 'vector'] },
  },
  {
    name: 'eval: Ctrl-C during the HNSW build leaves no graph cache',
    workspace: { docs: 8_000, queries: 50, configs: { vector: LSA_HNSW } },
    argv: ['eval', '-c', 'vector'],
    interruptWhen: at('hnsw', 'vector'),
    expect: { code: 130, stderr: [INTERRUPTED(0, 1)], runs: [], noCache: ['vector'] },
  },
  {
    name: 'eval: Ctrl-C while reading thousands of corpus files (the inputs are read before any config runs)',
    workspace: { docs: 8_000, queries: 20, layout: 'markdown' },
    argv: ['eval'],
    interruptWhen: at('corpus', undefined, 100),
    expect: { code: 130, stderr: [INTERRUPTED(0, 1)], runs: [], noCache: ['corpus-snapshot.json', 'lexical'] },
  },
  {
    name: 'check-acl: Ctrl-C during the access check',
    workspace: { ...BIG, configs: { baseline: BM25_CONFIG } },
    argv: ['check-acl'],
    interruptWhen: at('access-check', 'baseline'),
    expect: { code: 130, stderr: [INTERRUPTED(0, 1), 'not completed: baseline'], runs: [] },
  },
  {
    name: 'compare: Ctrl-C while the candidate runs keeps the baseline run',
    workspace: { docs: 5_000, queries: 3_000, configs: { baseline: BM25_CONFIG, title: TITLE_BOOST } },
    argv: ['compare', '--baseline', 'baseline', '--candidate', 'title'],
    interruptWhen: at('queries', 'title'),
    expect: {
      code: 130,
      stderr: [
        /interrupted: 1 of 3 steps completed: baseline baseline \(run in .*baseline-.*\.json\.gz\)/,
        'not completed: candidate title, statistics',
      ],
      runs: ['baseline'],
    },
  },
  {
    name: 'eval: Ctrl-C while an HTTP embedder does not answer stops the request',
    setup: (ws) => {
      server.hang = true;
      writeConfig(ws, 'http-vector', httpVectorConfig(`${server.url}/v1/embeddings`, { timeoutMs: 600_000 }));
    },
    argv: ['eval', '-c', 'baseline', '-c', 'http-vector'],
    interruptWhen: (p) => p.phase === 'embedding' && p.label === 'http-vector',
    expect: { code: 130, stderr: [INTERRUPTED(1, 2), 'not completed: http-vector'], runs: ['baseline'] },
  },
  {
    name: 'eval: a second Ctrl-C ends the process at once; still no partial run',
    workspace: { ...BIG, configs: { baseline: BM25_CONFIG } },
    argv: ['eval'],
    interruptWhen: at('lexical-index', 'baseline'),
    secondInterrupt: true,
    // Either the second signal ended it (128 + SIGINT) or the first stop had already finished (130): the same code.
    expect: { code: 130, runs: [], noCache: ['lexical'] },
  },
];

/** Every case through the binary, the model server reset first (pending failures, hang, garbage, requests). */
function withFreshServer(c: FuzzCase): FuzzCase {
  return { ...c, child: true, setup: (ws) => (server.reset(), c.setup?.(ws)) };
}

const PROVIDER_CASES: FuzzCase[] = [
  {
    name: 'eval: an unreachable HTTP embedder fails its config only; baseline is printed and saved',
    setup: (ws) => writeConfig(ws, 'http-vector', httpVectorConfig(`${deadUrl}/v1/embeddings`)),
    argv: ['eval', '-c', 'baseline', '-c', 'http-vector'],
    expect: {
      code: 2,
      stderr: () => [
        `config http-vector not run: vector.embedder: connection refused (ECONNREFUSED) at ${deadUrl}/v1/embeddings`,
        '(gave up after 3 attempts; see vector.embedder.maxRetries)',
      ],
      stdout: () => [
        /baseline +lexical +0\.\d{4}/,
        `not run: http-vector: vector.embedder: connection refused (ECONNREFUSED) at ${deadUrl}/v1/embeddings`,
      ],
      runs: ['baseline'],
    },
  },
  {
    name: 'eval: an HTTP embedder that never answers times out (after retries) and fails its config only',
    setup: (ws) => {
      server.hang = true;
      writeConfig(ws, 'http-vector', httpVectorConfig(`${server.url}/v1/embeddings`, { timeoutMs: 300, maxRetries: 1 }));
    },
    argv: ['eval', '-c', 'baseline', '-c', 'http-vector'],
    expect: {
      code: 2,
      // Two attempts, said by the message. (How many requests reached the server is not asserted: under load the
      // client can give up before the server has read a request, so that count depends on timing.)
      stderr: () => [
        `config http-vector not run: vector.embedder.timeoutMs: no answer within 300 ms from ${server.url}/v1/embeddings (gave up after 2 attempts; see vector.embedder.maxRetries)`,
      ],
      runs: ['baseline'],
    },
  },
  {
    name: 'eval: an HTTP embedder that answers 500 twice, then works, is retried and the config runs',
    setup: (ws) => {
      server.failNext(2, 500);
      writeConfig(ws, 'http-vector', httpVectorConfig(`${server.url}/v1/embeddings`));
    },
    argv: ['eval', '-c', 'baseline', '-c', 'http-vector', '--format', 'json'],
    expect: {
      code: 0,
      runs: ['baseline', 'http-vector'],
      check: (r) => {
        const out = JSON.parse(r.stdout);
        assert.deepEqual(
          out.runs.map((x: { config: string }) => x.config),
          ['baseline', 'http-vector'],
        );
        assert.deepEqual(out.failed, []);
        // 398 documents in batches of 64 = 7 requests, the first one answered 500, 500, then 200.
        assert.equal(server.requests.filter((q) => Array.isArray(q.body.input) && q.body.input.length > 1).length, 9);
      },
    },
  },
  {
    name: 'eval: an HTTP embedder answering something that is not JSON fails its config without retrying',
    setup: (ws) => {
      server.garbage = true;
      writeConfig(ws, 'http-vector', httpVectorConfig(`${server.url}/v1/embeddings`));
    },
    argv: ['eval', '-c', 'baseline', '-c', 'http-vector', '--format', 'json'],
    expect: {
      code: 2,
      stderr: () => [`config http-vector not run: vector.embedder: ${server.url}/v1/embeddings answered 200 with a body that is not JSON`],
      runs: ['baseline'],
      check: (r) => {
        const out = JSON.parse(r.stdout);
        assert.deepEqual(
          out.runs.map((x: { config: string }) => x.config),
          ['baseline'],
        );
        assert.equal(out.failed[0].name, 'http-vector');
        assert.match(out.failed[0].message, /not JSON.*Welcome to nginx/);
        assert.equal(server.requests.length, 1);
      },
    },
  },
  {
    name: 'eval: an unreachable HTTP reranker fails its config only',
    setup: (ws) => writeConfig(ws, 'http-rerank', httpRerankConfig(`${deadUrl}/v2/rerank`)),
    argv: ['eval', '-c', 'baseline', '-c', 'http-rerank'],
    expect: {
      code: 2,
      stderr: () => [`config http-rerank not run: rerank.provider: connection refused (ECONNREFUSED) at ${deadUrl}/v2/rerank`],
      runs: ['baseline'],
    },
  },
  {
    name: 'compare: an unreachable candidate is named; the baseline run is kept',
    setup: (ws) => writeConfig(ws, 'http-vector', httpVectorConfig(`${deadUrl}/v1/embeddings`)),
    argv: ['compare', '--baseline', 'baseline', '--candidate', 'http-vector'],
    expect: {
      code: 2,
      stderr: () => [
        `ranklab compare: error: candidate "http-vector" not run: vector.embedder: connection refused (ECONNREFUSED) at ${deadUrl}/v1/embeddings`,
        /the baseline's run is in .*baseline-.*\.json/,
      ],
      runs: ['baseline'],
    },
  },
  {
    name: 'compare: an unreachable baseline is named',
    setup: (ws) => writeConfig(ws, 'http-vector', httpVectorConfig(`${deadUrl}/v1/embeddings`)),
    argv: ['compare', '--baseline', 'http-vector', '--candidate', 'baseline'],
    expect: {
      code: 2,
      stderr: () => [
        `ranklab compare: error: baseline "http-vector" not run: vector.embedder: connection refused (ECONNREFUSED) at ${deadUrl}/v1/embeddings`,
      ],
      runs: [],
    },
  },
  {
    // The others are checked, but a check that left a config out has not passed: exit 1, the config named.
    name: 'check-acl: an unreachable HTTP embedder fails its config; the others are checked, the check fails',
    setup: (ws) => writeConfig(ws, 'http-vector', httpVectorConfig(`${deadUrl}/v1/embeddings`)),
    argv: ['check-acl', '-c', 'baseline', '-c', 'http-vector', '--as', 'guest', '--no-prefixes'],
    expect: {
      code: 1,
      stderr: () => [`config http-vector not checked: vector.embedder: connection refused (ECONNREFUSED) at ${deadUrl}/v1/embeddings`],
      stdout: ['No violations', /^baseline \(lexical/m, /FAILED: config http-vector was not checked/],
      runs: [],
    },
  },
];

fuzzTable('Ctrl-C', SIGNAL_CASES.map(withFreshServer));
fuzzTable('provider failures', PROVIDER_CASES.map(withFreshServer));

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
