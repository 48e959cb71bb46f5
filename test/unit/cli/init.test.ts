// `ranklab init` through the built binary on folders made here (no ../shared): a BEIR folder, JSONL records with
// their own field names, Markdown with front matter, a folder without judgments; then `ranklab eval` on the result.
// Also the two first-contact errors: qrels without their queries, and a ranklab.json added to a BEIR folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ranklab } from '../../helpers/cli';
import { tempDir } from '../../helpers/workspace';
import { loadWorkspace, parseJsonWithLocations, validateSettings } from '../../../src/core/workspace';

const TOPICS = 6;
const PER_TOPIC = 8;

/** A made-up word: topic words are shared by one topic's documents only, so BM25 and LSA both find them. */
const word = (topic: number, k: number) => `t${topic}w${k}x`;
const common = ['report', 'guide', 'notes', 'summary', 'overview'];

/** Documents of TOPICS topics; each has a title and a body of its topic's words plus a few common ones. */
function documents() {
  const out: { id: string; topic: number; title: string; body: string }[] = [];
  for (let t = 0; t < TOPICS; t++) {
    for (let i = 0; i < PER_TOPIC; i++) {
      const body = Array.from({ length: 30 }, (_, k) => word(t, (i * 7 + k * 3) % 20)).join(' ');
      out.push({
        id: `doc-${t}-${i}`,
        topic: t,
        title: `${word(t, i)} ${word(t, i + 1)} ${common[i % common.length]}`,
        body: `${body} ${common[(i + t) % common.length]}`,
      });
    }
  }
  return out;
}

/** One query per topic (two of its words); the topic's documents are relevant. */
const queries = () => Array.from({ length: TOPICS }, (_, t) => ({ id: `q${t}`, text: `${word(t, 2)} ${word(t, 5)}` }));
const relevant = (t: number) => documents().filter((d) => d.topic === t);

function evalJson(dir: string) {
  const r = ranklab(['eval', '--workspace', dir, '--format', 'json', '--no-save']);
  return { ...r, out: r.code === 0 ? JSON.parse(r.stdout) : undefined };
}

function assertAllFourRun(dir: string) {
  const r = evalJson(dir);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.out.runs.map((x: { config: string }) => x.config).sort(), ['baseline', 'hybrid-rrf', 'title-boost', 'vector']);
  for (const run of r.out.runs) {
    assert.equal(Object.keys(run.perQuery).length, TOPICS, run.config);
    assert.ok(run.metrics['ndcg@10'] > 0.5, `${run.config} ndcg@10 ${run.metrics['ndcg@10']}`);
  }
  return r.out;
}

function assertValidSettings(dir: string) {
  const text = readFileSync(join(dir, 'ranklab.json'), 'utf8');
  assert.match(text, /^\s*\/\/ /m, 'commented');
  const { value, locations } = parseJsonWithLocations(text, { comments: true, duplicateKeys: 'error' });
  assert.deepEqual(validateSettings(value, locations, 'ranklab.json'), []);
  assert.deepEqual(loadWorkspace(dir).diagnostics, []);
  return value as {
    corpus: { include: string[]; fields: Record<string, string> };
    judgments?: unknown[];
    acl?: { fields: Record<string, string> };
  };
}

function beirFolder(): string {
  const dir = tempDir('ranklab-init-beir-');
  mkdirSync(join(dir, 'qrels'));
  writeFileSync(
    join(dir, 'corpus.jsonl'),
    documents()
      .map((d) => JSON.stringify({ _id: d.id, title: d.title, text: d.body }))
      .join('\n') + '\n',
  );
  writeFileSync(
    join(dir, 'queries.jsonl'),
    queries()
      .map((q) => JSON.stringify({ _id: q.id, text: q.text }))
      .join('\n') + '\n',
  );
  const lines = queries().flatMap((q, t) => relevant(t).map((d) => `${q.id}\t${d.id}\t1`));
  writeFileSync(join(dir, 'qrels', 'test.tsv'), ['query-id\tcorpus-id\tscore', ...lines].join('\n') + '\n');
  return dir;
}

test('init on a BEIR folder: corpus.jsonl and beir:. found, the workspace evaluates at once', () => {
  const dir = beirFolder();
  const r = ranklab(['init', dir]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /beir: qrels\/test\.tsv \+ queries\.jsonl/);
  assert.match(r.stdout, new RegExp(`Next: ranklab eval --workspace ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  const settings = assertValidSettings(dir);
  assert.deepEqual(settings.corpus.include, ['corpus.jsonl']);
  assert.deepEqual(settings.judgments, ['beir:.']);
  assertAllFourRun(dir);
});

test('init on JSONL records with their own field names (doc_id, headline, content, org) and TREC qrels + queries', () => {
  const dir = tempDir('ranklab-init-jsonl-');
  mkdirSync(join(dir, 'data'));
  mkdirSync(join(dir, 'labels'));
  writeFileSync(
    join(dir, 'data', 'articles.jsonl'),
    documents()
      .map((d) => JSON.stringify({ doc_id: d.id, headline: d.title, content: d.body, org: 'acme', words: d.body.length }))
      .join('\n') + '\n',
  );
  writeFileSync(
    join(dir, 'labels', 'queries.tsv'),
    queries()
      .map((q) => `${q.id}\t${q.text}`)
      .join('\n') + '\n',
  );
  writeFileSync(
    join(dir, 'labels', 'test.qrels'),
    queries()
      .flatMap((q, t) => relevant(t).map((d) => `${q.id} 0 ${d.id} 1`))
      .join('\n') + '\n',
  );
  const r = ranklab(['init', dir, '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.deepEqual(report.corpus.fields, { id: 'doc_id', title: 'headline', body: 'content' });
  assert.deepEqual(report.corpus.acl, { tenant: 'org' });
  assert.deepEqual(report.written, [
    'ranklab.json',
    'configs/baseline.rank.json',
    'configs/title-boost.rank.json',
    'configs/vector.rank.json',
    'configs/hybrid-rrf.rank.json',
  ]);
  const settings = assertValidSettings(dir);
  assert.deepEqual(settings.corpus.include, ['data/articles.jsonl']);
  assert.deepEqual(settings.corpus.fields, { id: 'doc_id', title: 'headline', body: 'content' });
  assert.deepEqual(settings.judgments, [{ qrels: 'labels/test.qrels', queries: 'labels/queries.tsv' }]);
  assert.deepEqual(settings.acl?.fields, { tenant: 'org' });
  const out = assertAllFourRun(dir);
  const baseline = out.runs.find((x: { config: string }) => x.config === 'baseline');
  assert.equal(baseline.metrics['recall@100'], 1, 'every document was read under its doc_id');
});

test('init on Markdown with front matter and a golden set; the table names the mapping and the next command', () => {
  const dir = tempDir('ranklab-init-md-');
  mkdirSync(join(dir, 'pages', 'sub'), { recursive: true });
  documents().forEach((d, i) => {
    writeFileSync(
      join(dir, 'pages', i % 2 ? 'sub' : '', `${d.id}.md`),
      `---\nid: ${d.id}\ntitle: ${d.title}\ntenant: acme\n---\n\n${d.body}\n`,
    );
  });
  const golden = queries().map((q, t) => ({ id: q.id, query: q.text, judgments: Object.fromEntries(relevant(t).map((d) => [d.id, 2])) }));
  writeFileSync(join(dir, 'golden.json'), JSON.stringify(golden, null, 2));
  const r = ranklab(['init', dir]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /48 Markdown\/text\/HTML files/);
  assert.match(r.stdout, /id +<- "id"/);
  assert.match(r.stdout, /golden: golden\.json/);
  const settings = assertValidSettings(dir);
  assert.deepEqual(settings.corpus.include, ['pages/**/*.md']);
  assert.deepEqual(settings.judgments, ['golden.json']);
  assertAllFourRun(dir);
});

test('a folder without judgments: init says so, eval stops with exit 2 and says how to add them', () => {
  const dir = tempDir('ranklab-init-nojudg-');
  for (const d of documents().slice(0, 10)) writeFileSync(join(dir, `${d.id}.txt`), `${d.title}\n\n${d.body}\n`);
  const r = ranklab(['init', dir]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /warning: no judgments found/);
  assert.match(r.stdout, /Next: add labeled queries to "judgments"/);
  const settings = assertValidSettings(dir);
  assert.equal(settings.judgments, undefined);
  assert.match(readFileSync(join(dir, 'ranklab.json'), 'utf8'), /\/\/ +"judgments": \["judgments\/golden\.json"\]/);
  const ev = ranklab(['eval', '--workspace', dir]);
  assert.equal(ev.code, 2);
  assert.match(
    ev.stderr,
    /ranklab\.json: error: judgments: no judgments configured \(add labeled queries to ranklab\.json, e\.g\. "judgments": \["judgments\/golden\.json"\]/,
  );
});

test('init never overwrites: an existing ranklab.json is exit 2 naming it; an existing config is kept and reported', () => {
  const dir = beirFolder();
  assert.equal(ranklab(['init', dir]).code, 0);
  const settingsText = readFileSync(join(dir, 'ranklab.json'), 'utf8');
  const again = ranklab(['init', dir]);
  assert.equal(again.code, 2);
  assert.match(
    again.stderr,
    new RegExp(
      `${join(dir, 'ranklab.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: error: already exists; ranklab init never overwrites it`,
    ),
  );
  assert.equal(readFileSync(join(dir, 'ranklab.json'), 'utf8'), settingsText);

  rmSync(join(dir, 'ranklab.json'));
  rmSync(join(dir, 'configs'), { recursive: true });
  mkdirSync(join(dir, 'configs'));
  const mine = '{ "description": "mine", "lexical": { "fields": { "title": 5, "body": 1 } } }\n';
  writeFileSync(join(dir, 'configs', 'baseline.rank.json'), mine);
  const third = ranklab(['init', dir, '--format', 'json']);
  assert.equal(third.code, 0, third.stderr);
  const report = JSON.parse(third.stdout);
  assert.deepEqual(report.skipped, [{ path: 'configs/baseline.rank.json', reason: 'already exists; kept as it is' }]);
  assert.ok(report.written.includes('ranklab.json'));
  assert.equal(readFileSync(join(dir, 'configs', 'baseline.rank.json'), 'utf8'), mine);
});

test('init on a folder with nothing to search is exit 2 naming the folder, and writes nothing', () => {
  const dir = tempDir('ranklab-init-empty-');
  writeFileSync(join(dir, 'picture.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const r = ranklab(['init', dir]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, new RegExp(`${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: error: has nothing to search`));
  assert.throws(() => readFileSync(join(dir, 'ranklab.json')));
});

test('qrels without their queries file: eval is exit 2 naming the qrels file and the "queries" key, not a run of zeros', () => {
  const dir = tempDir('ranklab-noqueries-');
  mkdirSync(join(dir, 'corpus'));
  writeFileSync(
    join(dir, 'corpus', 'docs.jsonl'),
    documents()
      .map((d) => JSON.stringify({ id: d.id, title: d.title, text: d.body }))
      .join('\n') + '\n',
  );
  writeFileSync(
    join(dir, 'qrels.txt'),
    queries()
      .flatMap((q, t) => relevant(t).map((d) => `${q.id} 0 ${d.id} 1`))
      .join('\n') + '\n',
  );
  writeFileSync(join(dir, 'ranklab.json'), '{ "judgments": [{ "qrels": "qrels.txt" }] }\n');
  const r = ranklab(['eval', '--workspace', dir, '--no-save']);
  assert.equal(r.code, 2, r.stdout);
  assert.match(r.stderr, /qrels\.txt: error: judgments: none of the 6 judged queries has text, so nothing can be searched/);
  assert.match(r.stderr, /"judgments": \[\{"qrels": "qrels\.txt", "queries": "queries\.tsv"\}\]/);
  assert.equal(r.stdout, '');
});

test('a ranklab.json added to a BEIR folder keeps the BEIR corpus and judgments for what it does not set', () => {
  const dir = beirFolder();
  writeFileSync(join(dir, 'ranklab.json'), '{ "metrics": ["ndcg@10", "p@5"] }\n');
  const r = evalJson(dir);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(Object.keys(r.out.runs[0].metrics), ['ndcg@10', 'p@5']);
  assert.equal(Object.keys(r.out.runs[0].perQuery).length, TOPICS);
  // What it does set still wins: a corpus glob of its own replaces corpus.jsonl.
  writeFileSync(join(dir, 'ranklab.json'), '{ "corpus": { "include": ["nothing/*.md"] } }\n');
  const own = ranklab(['eval', '--workspace', dir, '--no-save']);
  assert.equal(own.code, 2);
  assert.match(own.stderr, /the corpus has no document/);
});
