// The LLM judge's loop against a real local chat server (test/fixtures/http-chat-server.ts): every request sent is
// counted (HTTP retries too), a dead endpoint stops the run after N pairs in a row, Ctrl-C keeps every answer
// received (a re-run sends only the rest), --dry-run shows the prompt it would send, failures go to a log file.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { LlmRating } from '../../../src/core/judging/llm-judge';
import { judgeWorkspaceWithLlm } from '../../../src/core/session/judging-llm';
import { RanklabSession } from '../../../src/core/session/session';
import { CLI, REPO_DIR } from '../../helpers/cli';
import { copyOfExample } from '../../helpers/workspace';
import { type ChatServer, startChatServer } from '../../fixtures/http-chat-server';

/** The CLI in a child process (the test server answers from this one); `onSpawn` gets the child, e.g. to send SIGINT. */
function ranklabAsync(
  args: string[],
  onSpawn?: (child: ChildProcess) => void,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO_DIR, timeout: 120_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    onSpawn?.(child);
  });
}

describe('the LLM judge loop', () => {
  let server: ChatServer;
  let dir: string;
  const ratingsFile = () => join(dir, 'judgments/llm-fake-judge.jsonl');
  const ratings = (): LlmRating[] =>
    existsSync(ratingsFile())
      ? readFileSync(ratingsFile(), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : [];
  const configure = (llm: Record<string, unknown>) => {
    const ws = JSON.parse(readFileSync(join(dir, 'ranklab.json'), 'utf8'));
    ws.judgments = ['judgments/golden.json', { raters: 'judgments' }];
    ws.judging = { llm: { baseUrl: `${server.url}/v1`, model: 'fake-judge', retryDelayMs: 1, timeoutMs: 5000, ...llm } };
    writeFileSync(join(dir, 'ranklab.json'), JSON.stringify(ws, null, 2));
  };
  const judge = (opts: Partial<Parameters<typeof judgeWorkspaceWithLlm>[1]>, session = RanklabSession.open(dir)) =>
    judgeWorkspaceWithLlm(session, { configs: ['baseline', 'title-boost-3'].map((c) => session.resolveConfig(c)), ...opts });
  const cli = (...args: string[]) => ['judge', '--llm', '--workspace', dir, '--config', 'baseline', '--config', 'title-boost-3', ...args];

  before(async () => {
    server = await startChatServer();
  });
  after(() => server.close());
  beforeEach(() => {
    if (dir) rmSync(dirname(dir), { recursive: true, force: true });
    dir = copyOfExample();
    server.requests.length = 0;
    server.script.length = 0;
    server.always = undefined;
    server.delayMs = 0;
    server.onRequest = undefined;
    configure({});
  });

  it('counts every request the server received, HTTP retries included, apart from the pairs and the parse retries', async () => {
    configure({ maxRetries: 1, concurrency: 1 });
    server.always = { kind: 'status', status: 500 };
    const r = await judge({ max: 3 });
    assert.equal(server.requests.length, 6, 'one request and one retry per pair');
    assert.equal(r.run!.requests, server.requests.length);
    assert.equal(r.run!.pairsSent, 3);
    assert.equal(r.run!.httpRetries, 3);
    assert.equal(r.run!.parseRetries, 0);
    assert.deepEqual(
      r.failures.map((f) => f.reason),
      ['request failed', 'request failed', 'request failed'],
    );
    // An answer without a grade is asked again: a parse retry, not an HTTP one.
    server.always = undefined;
    server.requests.length = 0;
    server.script.push({ kind: 'malformed' }, { kind: 'status', status: 503 });
    const p = await judge({ max: 1, model: 'other-model' });
    assert.equal(server.requests.length, 3);
    assert.deepEqual([p.run!.requests, p.run!.pairsSent, p.run!.httpRetries, p.run!.parseRetries], [3, 1, 1, 1]);
  });

  it('a dead endpoint stops the run after N pairs in a row; what was graded is kept; a failure between answers does not', async () => {
    configure({ maxRetries: 0, concurrency: 1 });
    server.script.push({ kind: 'ok' }, { kind: 'ok' });
    server.always = { kind: 'status', status: 502 };
    const r = await judge({ max: 12, maxConsecutiveFailures: 4 });
    assert.equal(server.requests.length, 2 + 4, 'nothing sent after the fourth failure in a row');
    assert.equal(r.run!.stopped?.reason, 'failing endpoint');
    assert.match(r.run!.stopped!.message, /failed for 4 pairs in a row \(last: .*502/);
    assert.equal(r.run!.unfinished, 12 - 2 - 4);
    assert.deepEqual(
      ratings().map((x) => [x.qid, x.docid]),
      r.run!.ratings.map((x) => [x.qid, x.docid]),
    );
    assert.equal(ratings().length, 2);
    // Failures separated by answers never add up to N in a row.
    server.requests.length = 0;
    server.always = undefined;
    server.script.push(
      { kind: 'status', status: 500 },
      { kind: 'ok' },
      { kind: 'status', status: 500 },
      { kind: 'ok' },
      { kind: 'status', status: 500 },
    );
    const mixed = await judge({ max: 6, maxConsecutiveFailures: 2, model: 'other-model' });
    assert.equal(mixed.run!.stopped, undefined);
    assert.equal(mixed.run!.ratings.length, 3);
    assert.equal(mixed.failures.length, 3);
  });

  it('CLI: a dead endpoint is one message and exit 2 after --max-failures pairs; the failures are logged in the state folder', async () => {
    configure({ maxRetries: 0 });
    server.always = { kind: 'status', status: 500 };
    const r = await ranklabAsync(cli('--max', '30', '--max-failures', '3', '--format', 'json'));
    assert.equal(r.code, 2, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.ok(
      server.requests.length >= 3 && server.requests.length < 3 + 4,
      `stops after 3 in a row (plus those in flight), sent ${server.requests.length}`,
    );
    assert.equal(out.requests, server.requests.length);
    assert.equal(out.stopped.reason, 'failing endpoint');
    assert.equal((r.stderr.match(/failed for \d+ pairs in a row/g) ?? []).length, 1, r.stderr);
    const log = /listed in (\S+)/.exec(r.stderr)?.[1];
    assert.ok(log && log.startsWith('.ranklab/logs/'), r.stderr);
    assert.equal(join(dir, log), out.failureLog);
    const lines = readFileSync(out.failureLog, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines[0].requests, server.requests.length);
    assert.deepEqual(
      lines.slice(1).map((l: { qid: string; docId: string }) => [l.qid, l.docId]),
      out.failures.map((f: { qid: string; docId: string }) => [f.qid, f.docId]),
    );
  });

  it('CLI: Ctrl-C keeps every answer already sent for; a re-run sends only the rest', async () => {
    server.delayMs = 150; // answers in flight when the signal comes
    let child: ChildProcess | undefined;
    server.onRequest = (n) => void (n === 10 && child?.kill('SIGINT'));
    const first = await ranklabAsync(cli('--max', '20'), (c) => (child = c));
    assert.equal(first.code, 130, first.stderr);
    const sent = server.requests.map((q) => q.body.messages[0].content as string);
    assert.ok(sent.length >= 10 && sent.length < 20, `interrupted mid-run (${sent.length} sent)`);
    assert.equal(ratings().length, sent.length, 'every request sent has its answer saved');
    server.onRequest = undefined;
    server.delayMs = 0;
    server.requests.length = 0;
    const again = await ranklabAsync(cli('--max', '20', '--format', 'json'));
    assert.equal(again.code, 0, again.stderr);
    const resent = server.requests.map((q) => q.body.messages[0].content as string).filter((p) => sent.includes(p));
    assert.equal(resent.length, 0, 'nothing answered before is sent again');
  });

  it('--dry-run shows the prompt it would send, in full; the run then sends exactly that', async () => {
    const dry = await ranklabAsync(cli('--max', '1', '--dry-run', '--format', 'json'));
    assert.equal(dry.code, 0, dry.stderr);
    const sample = JSON.parse(dry.stdout).samplePrompt;
    const table = await ranklabAsync(cli('--max', '1', '--dry-run'));
    assert.ok(table.stdout.includes(sample.prompt), 'the table shows the whole prompt');
    assert.equal(server.requests.length, 0);
    const run = await ranklabAsync(cli('--max', '1'));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]!.body.messages[0].content, sample.prompt);
    assert.deepEqual([sample.qid, sample.docid], [ratings()[0]!.qid, ratings()[0]!.docid]);
  });

  it('pairs not graded go to a log in the state folder, with their answers', async () => {
    server.always = { kind: 'malformed' };
    const r = await judge({ max: 2 });
    assert.equal(r.failures.length, 2);
    assert.ok(r.failureLog && r.failureLog.startsWith(join(dir, '.ranklab', 'logs')), r.failureLog);
    const [head, ...rest] = readFileSync(r.failureLog, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(head.requests, server.requests.length);
    assert.deepEqual(
      rest.map((f) => [f.qid, f.docId, f.reason, f.answer]),
      r.failures.map((f) => [f.qid, f.docId, f.reason, 'The passage looks relevant to me.']),
    );
  });
});
