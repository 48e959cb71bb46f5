// The LLM judge against a local server speaking the real chat completions shapes (test/fixtures/http-chat-server.ts):
// grades and what is stored with them, the cache (a second run asks nothing), malformed answers (asked again, then
// reported), refusals, timeouts, 429 with Retry-After, a wrong key stopping the run, --dry-run, untrusted
// workspaces, and agreement with people through `ranklab agreement`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createChatClient } from '../../../src/core/judging/chat-client';
import { gradeOfAnswer } from '../../../src/core/judging/llm-prompt';
import { type LlmRating, llmJudgeSettings } from '../../../src/core/judging/llm-judge';
import { judgeWorkspaceWithLlm } from '../../../src/core/session/judging-llm';
import { RanklabSession } from '../../../src/core/session/session';
import { InputError } from '../../../src/core/util/diagnostics';
import { REPO_DIR, ranklab } from '../../helpers/cli';
import { copyOfExample } from '../../helpers/workspace';
import { type ChatServer, fakeGrade, promptParts, startChatServer } from '../../fixtures/http-chat-server';

/** The CLI in a child process without blocking this one (the test server answers from here). */
function ranklabAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO_DIR, 'dist/cli.js'), ...args], { cwd: REPO_DIR });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('reading an answer', () => {
  it('takes the last "##final score: N" or a bare 0–3, and nothing else', () => {
    assert.equal(gradeOfAnswer('##final score: 2'), 2);
    assert.equal(gradeOfAnswer('M: 2\nT: 1\n##final score: 3'), 3);
    assert.equal(gradeOfAnswer('##Final Score: 1\n'), 1);
    assert.equal(gradeOfAnswer('##final score: 1 ... ##final score: 0'), 0);
    assert.equal(gradeOfAnswer(' 3 '), 3);
    assert.equal(gradeOfAnswer('**2**'), 2);
    assert.equal(gradeOfAnswer('##final score: 5'), undefined, 'off the scale');
    assert.equal(gradeOfAnswer('The passage is relevant.'), undefined);
    assert.equal(gradeOfAnswer('I would say 2 or 3'), undefined, 'a digit in prose is not a grade');
    assert.equal(gradeOfAnswer(''), undefined);
  });
});

describe('LLM judge settings', () => {
  it('defaults, and problems named by their ranklab.json key', () => {
    const s = llmJudgeSettings({ baseUrl: 'http://localhost:11434/v1/', model: 'm' });
    assert.deepEqual(s, {
      baseUrl: 'http://localhost:11434/v1',
      model: 'm',
      concurrency: 4,
      timeoutMs: 60000,
      maxRetries: 3,
      retryDelayMs: 1000,
      parseRetries: 2,
      temperature: 0,
      maxPassageChars: 4000,
    });
    assert.equal(llmJudgeSettings({ baseUrl: 'http://x', model: 'm' }, { model: 'other' }).model, 'other', '--model wins');
    assert.throws(() => llmJudgeSettings(undefined), /"judging": \{"llm": \{"baseUrl"/);
    assert.throws(() => llmJudgeSettings({ baseUrl: 'ftp://x', model: 'm' }), /judging\.llm\.baseUrl" must be http or https/);
    assert.throws(() => llmJudgeSettings({ baseUrl: 'http://x' }), /judging\.llm\.model" is missing/);
    assert.throws(
      () => llmJudgeSettings({ baseUrl: 'http://x', model: 'm', concurrency: 0 }),
      /judging\.llm\.concurrency" must be an integer >= 1/,
    );
    assert.throws(() => llmJudgeSettings({ baseUrl: 'http://x', model: 'm', temperature: 3 }), /judging\.llm\.temperature/);
  });
});

describe('LLM judge on the example workspace', () => {
  let server: ChatServer;
  let dir: string;
  const ratingsFile = () => join(dir, 'judgments/llm-fake-judge.jsonl');
  const ratings = (): LlmRating[] =>
    readFileSync(ratingsFile(), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  const configure = (llm: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const ws = JSON.parse(readFileSync(join(dir, 'ranklab.json'), 'utf8'));
    ws.judgments = ['judgments/golden.json', { raters: 'judgments' }];
    ws.judging = { llm: { baseUrl: `${server.url}/v1`, model: 'fake-judge', retryDelayMs: 1, timeoutMs: 5000, ...llm }, ...extra };
    writeFileSync(join(dir, 'ranklab.json'), JSON.stringify(ws, null, 2));
  };
  const judge = (opts: Partial<Parameters<typeof judgeWorkspaceWithLlm>[1]>, session = RanklabSession.open(dir)) =>
    judgeWorkspaceWithLlm(session, { configs: ['baseline', 'title-boost-3'].map((c) => session.resolveConfig(c)), ...opts });

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
    server.requiredKey = undefined;
    configure({});
  });

  it('grades the pool as llm:MODEL, storing model, template, prompt, hash, raw answer and time; a second run asks nothing', async () => {
    const session = RanklabSession.open(dir);
    const r = await judge({ max: 6 }, session);
    assert.equal(r.file, 'judgments/llm-fake-judge.jsonl');
    assert.equal(r.run!.ratings.length, 6);
    assert.equal(server.requests.length, 6);
    assert.deepEqual(r.failures, []);
    const lines = ratings();
    assert.equal(lines.length, 6);
    const judgments = session.judgments();
    for (const [i, line] of lines.entries()) {
      assert.equal(line.qid, r.pool.pairs[i]!.qid);
      assert.equal(line.docid, r.pool.pairs[i]!.docId);
      assert.equal(line.rater, 'llm:fake-judge');
      assert.equal(line.model, 'fake-judge');
      assert.equal(line.template, 'ranklab-umbrela-v1');
      assert.match(line.promptHash, /^sha256:[0-9a-f]{64}$/);
      assert.match(line.at, /^\d{4}-\d\d-\d\dT/);
      const { query, passage } = promptParts(line.prompt);
      assert.equal(query, judgments.queries.get(line.qid)!.text, 'the prompt holds the query');
      assert.ok(passage.startsWith(session.document(line.docid)!.title), 'the prompt holds the passage');
      assert.match(line.prompt, /0 = the passage has nothing to do with the query/);
      assert.equal(line.answer, `##final score: ${fakeGrade(query, passage)}`, 'the raw answer');
      assert.equal(line.grade, fakeGrade(query, passage));
    }
    const sent = server.requests[0]!.body;
    assert.equal(sent.model, 'fake-judge');
    assert.equal(sent.temperature, 0);
    assert.deepEqual(
      sent.messages.map((m: { role: string }) => m.role),
      ['user'],
    );
    // The grades are a rater of their own: read back, not scored (llmGrades "ignore"), pairs not pooled again.
    const after = RanklabSession.open(dir).judgments();
    assert.equal(after.ratings!.get('llm:fake-judge')!.size > 0, true);
    assert.equal(after.qrels.get(lines[0]!.qid)!.has(lines[0]!.docid), false, 'LLM grades are not scored unless asked');
    const again = await judge({ max: 6 });
    assert.ok(
      again.pool.pairs.every((p) => !lines.some((l) => l.qid === p.qid && l.docid === p.docId)),
      'graded pairs are not asked again',
    );
    // The cache: the same prompts (the sidecar removed) cost no request.
    rmSync(ratingsFile());
    server.requests.length = 0;
    const cached = await judge({ max: 6 });
    assert.equal(server.requests.length, 0);
    assert.equal(cached.plan.cachedCount, 6);
    assert.deepEqual(
      ratings().map((l) => [l.qid, l.docid, l.grade, l.at, l.cached]),
      lines.map((l) => [l.qid, l.docid, l.grade, l.at, true]),
    );
    // A cached answer edited after it was written (another grade typed in, its content hash kept) is not used: asked again.
    const cacheDir = join(RanklabSession.open(dir).workspace.cacheDir, 'llm-judge');
    const hex = lines[0]!.promptHash.replace(/^sha256:/, '');
    const path = join(cacheDir, hex.slice(0, 2), `${hex}.json`);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/##final score: \d/, '##final score: 9'));
    rmSync(ratingsFile());
    server.requests.length = 0;
    const edited = await judge({ max: 6 });
    assert.equal(server.requests.length, 1, 'only the edited entry is asked again');
    assert.equal(edited.plan.cachedCount, 5);
  });

  it('an answer without a grade is asked again; one that never has one is reported with the answer, not written', async () => {
    server.script.push({ kind: 'malformed' }, { kind: 'malformed', content: 'Score: high' });
    const ok = await judge({ max: 1 });
    assert.equal(ok.run!.ratings.length, 1, 'graded on the third request');
    assert.equal(server.requests.length, 3);
    rmSync(ratingsFile());
    server.requests.length = 0;
    server.always = { kind: 'malformed' };
    const r = await judge({ max: 2, model: 'other-model' }); // another model: no cache
    assert.equal(r.run!.ratings.length, 0);
    assert.equal(server.requests.length, 2 * 3, 'one request and two retries per pair (parseRetries 2)');
    assert.deepEqual(
      r.failures.map((f) => f.reason),
      ['no grade in the answer', 'no grade in the answer'],
    );
    assert.equal(r.failures[0]!.answer, 'The passage looks relevant to me.');
    assert.equal(existsSync(join(dir, 'judgments/llm-other-model.jsonl')), false, 'nothing guessed, nothing written');
  });

  it('refusals and content-filter stops are reported as refused', async () => {
    server.always = { kind: 'refuse' };
    let r = await judge({ max: 1 });
    assert.deepEqual(
      r.failures.map((f) => [f.reason, f.detail]),
      [['refused', "I'm sorry, I can't help with that."]],
    );
    server.always = { kind: 'filter' };
    r = await judge({ max: 1 });
    assert.deepEqual(
      r.failures.map((f) => [f.reason, f.detail]),
      [['refused', 'finish reason content_filter']],
    );
    assert.equal(existsSync(ratingsFile()), false);
  });

  it('a request that times out is reported; the other pairs are graded', async () => {
    configure({ timeoutMs: 300, maxRetries: 0 });
    server.script.push({ kind: 'hang' });
    const r = await judge({ max: 3 });
    assert.equal(r.failures.length, 1);
    assert.equal(r.failures[0]!.reason, 'request failed');
    assert.match(r.failures[0]!.detail, /300 ms/);
    assert.equal(r.run!.ratings.length, 2);
  });

  it('429 with Retry-After: waits as told, then grades', async () => {
    server.script.push({ kind: 'status', status: 429, retryAfter: '3' }, { kind: 'status', status: 503 });
    const waits: number[] = [];
    const settings = llmJudgeSettings({ baseUrl: `${server.url}/v1`, model: 'fake-judge', retryDelayMs: 7 });
    const client = createChatClient(settings, { allowNetwork: true, sleep: async (ms) => void waits.push(ms) });
    const answer = await client({
      model: 'fake-judge',
      messages: [{ role: 'user', content: 'Query: kopi\nPassage: kopi gayo\n\nWork through it' }],
      temperature: 0,
    });
    assert.equal(answer.content, '##final score: 1');
    assert.deepEqual(waits, [3000, 14], 'Retry-After 3 s, then the backoff 7·2^1 ms');
    assert.equal(server.requests.length, 3);
  });

  it('a wrong API key stops the run at once; the key comes from the environment variable named in ranklab.json', async () => {
    configure({ apiKeyEnv: 'RANKLAB_TEST_LLM_KEY', concurrency: 1 });
    server.requiredKey = 'right';
    await assert.rejects(judge({ max: 3, env: {} }), /RANKLAB_TEST_LLM_KEY is not set/);
    await assert.rejects(judge({ max: 3, env: { RANKLAB_TEST_LLM_KEY: 'wrong' } }), /401/);
    assert.equal(server.requests.length, 1, 'no pair after the first 401');
    const ok = await judge({ max: 2, env: { RANKLAB_TEST_LLM_KEY: 'right' } });
    assert.equal(ok.run!.ratings.length, 2);
    assert.equal(server.requests.at(-1)!.authorization, 'Bearer right');
    assert.ok(!readFileSync(ratingsFile(), 'utf8').includes('right'), 'the key is never stored');
  });

  it('refused in an untrusted workspace; needs a raters folder; --dry-run counts prompts and tokens and sends nothing', async () => {
    await assert.rejects(
      judge({ max: 2 }, RanklabSession.open(dir, { allowNetwork: false })),
      (e: unknown) => e instanceof InputError && /untrusted/.test(e.message),
    );
    const ws = JSON.parse(readFileSync(join(dir, 'ranklab.json'), 'utf8'));
    ws.judgments = ['judgments/golden.json'];
    writeFileSync(join(dir, 'ranklab.json'), JSON.stringify(ws));
    await assert.rejects(judge({ max: 2 }), /\{"raters": "judgments"\}/);
    const dry = await judge({ max: 5, dryRun: true });
    assert.equal(dry.run, undefined);
    assert.equal(dry.plan.items.length, 5);
    assert.equal(
      dry.plan.tokens,
      dry.plan.items.reduce((s, i) => s + Math.ceil(i.prompt.length / 4), 0),
    );
    assert.equal(server.requests.length, 0);
    const cli = ranklab(['judge', '--llm', '--workspace', dir, '--config', 'baseline', '--max', '4', '--dry-run']);
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stdout, /4 prompts for llm:fake-judge \(0 answered before, from the cache; 4 to send, about \d+ prompt tokens/);
    assert.match(cli.stdout, /dry run: nothing sent/);
    assert.equal(server.requests.length, 0);
  });

  it('--include-judged grades pairs people graded, and ranklab agreement compares the LLM with them', async () => {
    const cli = await ranklabAsync([
      'judge',
      '--llm',
      '--workspace',
      dir,
      '--config',
      'baseline',
      '--include-judged',
      '--max',
      '30',
      '--format',
      'json',
    ]);
    assert.equal(cli.code, 0, cli.stderr + cli.stdout.slice(0, 2000));
    const out = JSON.parse(cli.stdout);
    assert.equal(out.graded, 30);
    const report = JSON.parse(ranklab(['agreement', '--workspace', dir, '--format', 'json']).stdout);
    const pair = report.pairs.find((p: { a: string; b: string }) => p.a === 'default' && p.b === 'llm:fake-judge');
    assert.ok(pair.overlap > 0, 'the LLM graded pairs people graded');
    assert.equal(
      pair.confusion.flat().reduce((s: number, x: number) => s + x, 0),
      pair.overlap,
    );
    assert.equal(typeof pair.kappa, 'number');
    assert.deepEqual(report.overall.people, ['default'], 'the LLM is never one of the people');
    const table = ranklab(['agreement', '--workspace', dir]);
    assert.match(table.stdout, /confusion: rows default, columns llm:fake-judge/);
  });
});
