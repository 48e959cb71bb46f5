import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { loadCorpus } from '../../../src/core/corpus/load';
import { InputError } from '../../../src/core/util/diagnostics';
import { ensureRanklabDir } from '../../../src/core/workspace/ranklab-dir';
import { loadWorkspace } from '../../../src/core/workspace/load';
import { syntheticCollection } from '../../helpers/synthetic-collection';

const FIXTURES = resolve(__dirname, '../../fixtures/workspace');

test('ranklab.json: settings defaulted once, paths resolved, configs globbed, ACL field names reach the corpus', () => {
  const root = join(FIXTURES, 'shop');
  const ws = loadWorkspace(root);
  assert.deepEqual(ws.diagnostics, []);
  assert.equal(ws.kind, 'ranklab');
  assert.equal(ws.settingsFile, join(root, 'ranklab.json'));
  assert.deepEqual(ws.configFiles, [join(root, 'configs/baseline.rank.json'), join(root, 'configs/title-boost.rank.json')]);
  assert.deepEqual(ws.builtinConfigs, []);
  assert.equal(ws.baselineName, 'baseline');
  assert.deepEqual(ws.judgmentSpecs, [
    { golden: join(root, 'judgments/golden.json') },
    { qrels: join(root, 'judgments/qrels.txt'), queries: join(root, 'judgments/queries.tsv') },
  ]);
  assert.equal(ws.principalsFile, join(root, 'principals.json'));
  assert.equal(ws.cacheDir, join(root, '.ranklab/cache'));
  assert.equal(ws.runsDir, join(root, '.ranklab/runs'));
  // Given values and defaults side by side.
  assert.deepEqual(ws.settings.metrics, ['ndcg@10', 'hit@5']);
  assert.equal(ws.settings.gain, 'exp');
  assert.equal(ws.settings.relevanceThreshold, 1);
  assert.deepEqual(ws.settings.gates, { min: { 'ndcg@5': 0.7 }, maxRegression: {}, maxSliceRegression: {} });
  assert.equal(ws.settings.acl.missingAcl, 'private');
  assert.deepEqual(ws.settings.acl.fields, { tenant: 'tenant_id', groups: 'acl_groups', public: 'public' });
  assert.deepEqual(ws.settings.corpus.aclFields, ws.settings.acl.fields);
  assert.equal(ws.settings.corpus.maxFileBytes, 2 * 1024 * 1024);

  const { corpus } = loadCorpus(ws.root, ws.settings.corpus);
  assert.deepEqual(corpus.diagnostics, []);
  assert.equal(corpus.docs.length, 1);
  assert.deepEqual(corpus.docs[0].meta, { tenant: 'acme', groups: ['sales'] });
  assert.deepEqual(corpus.docs[0].fields, { summary: 'Ratio 1:16.' });
  assert.equal(corpus.docs[0].title, 'Pour-over');
});

test('schema problems are diagnostics at the offending key line; unknown keys are warnings with a suggestion', () => {
  const ws = loadWorkspace(join(FIXTURES, 'bad-schema'));
  const got = ws.diagnostics.map((d) => `${d.line} ${d.severity}`);
  assert.deepEqual(got, [
    '3 error', // corpus.include: 42
    '4 error', // corpus.maxFileBytes: -5
    '5 warning', // corpus.feilds
    '7 error', // gain: log
    '8 error', // metrics[1]
    '9 error', // gates.min.ndcg@5: "high"
    '10 warning', // judgmets
    '11 warning', // judgments[0].extra
    '11 error', // judgments[0].qrels not found
  ]);
  const msg = (line: number, sev: string) => ws.diagnostics.find((d) => d.line === line && d.severity === sev)!.message;
  assert.match(msg(3, 'error'), /"corpus\.include" must be string or array/);
  assert.match(msg(5, 'warning'), /unknown key "corpus\.feilds" \(did you mean "fields"\?\)/);
  assert.match(msg(7, 'error'), /"gain" must be one of "exp", "linear"/);
  assert.match(msg(10, 'warning'), /did you mean "judgments"/);
  assert.match(msg(11, 'error'), /judgments qrels not found/);
  assert.ok(ws.diagnostics.every((d) => d.file === 'ranklab.json'));
  // Invalid values fall back to the defaults.
  assert.deepEqual(ws.settings.corpus.include, ['corpus/**/*.{md,markdown,txt,html,htm,json,jsonl}']);
  assert.equal(ws.settings.corpus.maxFileBytes, 2 * 1024 * 1024);
  assert.equal(ws.settings.gain, 'exp');
  assert.deepEqual(ws.settings.gates.min, {});
});

test('JSON syntax error: line and column, defaults still usable', () => {
  const ws = loadWorkspace(join(FIXTURES, 'bad-syntax'));
  assert.equal(ws.diagnostics.length, 1);
  const [d] = ws.diagnostics;
  assert.equal(d.line, 5);
  assert.equal(d.severity, 'error');
  assert.match(d.message, /invalid JSON at column 25: expected ',' or '\]' after an array element/);
  assert.deepEqual(ws.settings.metrics, ['ndcg@10', 'mrr@10', 'p@5', 'recall@100']);
  assert.equal(ws.baselineName, 'bm25'); // no configs folder: the built-in BM25 config
});

test('comments and trailing commas are accepted (JSONC, as VS Code edits it)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-ws-'));
  try {
    writeFileSync(
      join(dir, 'ranklab.json'),
      '// workspace\n{\n  /* corpus */ "corpus": { "include": "docs/*.md", },\n  "gain": "linear",\n}\n',
    );
    const ws = loadWorkspace(dir);
    assert.deepEqual(ws.diagnostics, []);
    assert.deepEqual(ws.settings.corpus.include, ['docs/*.md']);
    assert.equal(ws.settings.gain, 'linear');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('baseline naming no config is a warning at its line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-ws-'));
  try {
    mkdirSync(join(dir, 'configs'));
    writeFileSync(join(dir, 'configs/a.rank.json'), '{}');
    writeFileSync(join(dir, 'ranklab.json'), '{\n  "baseline": "missing",\n  "judgments": "beir:."\n}\n');
    const ws = loadWorkspace(dir);
    assert.deepEqual(
      ws.diagnostics.map((d) => [d.line, d.severity]),
      [[2, 'warning']],
    );
    assert.match(ws.diagnostics[0].message, /baseline "missing" matches no config \(have: a\)/);
    assert.deepEqual(ws.judgmentSpecs, [{ beir: dir }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('BEIR folder without ranklab.json (a generated MED-sized one): defaults, 1033 docs, nothing written', () => {
  const MED = syntheticCollection({ docs: 1033, queries: 30 });
  const ws = loadWorkspace(MED);
  assert.equal(ws.kind, 'beir');
  assert.deepEqual(ws.diagnostics, []);
  assert.equal(ws.settingsFile, undefined);
  assert.deepEqual(ws.settings.corpus.include, ['corpus.jsonl']);
  assert.deepEqual(ws.judgmentSpecs, [{ beir: MED }]);
  assert.deepEqual(ws.configFiles, []);
  assert.deepEqual(
    ws.builtinConfigs.map((c) => c.name),
    ['bm25'],
  );
  assert.deepEqual(ws.builtinConfigs[0].config.lexical, { fields: { all: 1 } });
  assert.equal(ws.baselineName, 'bm25');
  const { corpus } = loadCorpus(ws.root, ws.settings.corpus);
  assert.equal(corpus.docs.length, 1033);
  assert.deepEqual(corpus.diagnostics, []);
  assert.equal(existsSync(join(MED, '.ranklab')), false);
});

test('BEIR layout with qrels/test.tsv is recognised; a folder that is neither is an InputError', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-ws-'));
  try {
    cpSync(resolve(__dirname, '../../fixtures/corpus/beir-mini'), dir, { recursive: true });
    rmSync(join(dir, 'qrels.tsv'));
    assert.throws(
      () => loadWorkspace(dir),
      (e: unknown) => e instanceof InputError && /not a BEIR folder/.test(e.message),
    );
    mkdirSync(join(dir, 'qrels'));
    writeFileSync(join(dir, 'qrels/test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td1\t1\n');
    assert.equal(loadWorkspace(dir).kind, 'beir');
    assert.throws(() => loadWorkspace(join(dir, 'nope')), InputError);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ensureRanklabDir creates cache/runs and a .gitignore with *, and never overwrites one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-ws-'));
  try {
    writeFileSync(join(dir, 'ranklab.json'), '{}');
    const ws = loadWorkspace(dir);
    assert.equal(existsSync(join(dir, '.ranklab')), false, 'loading writes nothing');
    ensureRanklabDir(ws);
    assert.equal(readFileSync(join(dir, '.ranklab/.gitignore'), 'utf8'), '*\n');
    assert.ok(existsSync(ws.cacheDir) && existsSync(ws.runsDir));
    writeFileSync(join(dir, '.ranklab/.gitignore'), 'custom\n');
    ensureRanklabDir(ws);
    assert.equal(readFileSync(join(dir, '.ranklab/.gitignore'), 'utf8'), 'custom\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('corpus.include patterns that leave the workspace folder are refused at their line unless corpus.allowOutsideWorkspace', () => {
  // parent/ws is the workspace; parent/elsewhere/secret.md is outside it.
  const parent = mkdtempSync(join(tmpdir(), 'ranklab-outside-'));
  const root = join(parent, 'ws');
  try {
    mkdirSync(join(root, 'corpus'), { recursive: true });
    mkdirSync(join(parent, 'elsewhere'));
    writeFileSync(join(root, 'corpus/inside.md'), '# Inside doc\n\nkept\n');
    writeFileSync(join(parent, 'elsewhere/secret.md'), '# Outside secret\n\nmust not be indexed\n');
    const absolute = join(parent, 'elsewhere/*.md').replace(/\\/g, '/');
    const write = (extra: string) =>
      writeFileSync(
        join(root, 'ranklab.json'),
        `{\n  "corpus": {\n    "include": [\n      "corpus/*.md",\n      "../elsewhere/*.md",\n      ${JSON.stringify(absolute)},\n      "corpus/../../elsewhere/*.md"\n    ]${extra}\n  }\n}\n`,
      );
    const titles = (ws: ReturnType<typeof loadWorkspace>) =>
      loadCorpus(ws.root, ws.settings.corpus)
        .corpus.docs.map((d) => d.title)
        .sort();

    write('');
    const refused = loadWorkspace(root);
    assert.deepEqual(
      refused.diagnostics.map((d) => [d.file, d.line, d.severity, d.key]),
      [
        ['ranklab.json', 5, 'error', 'corpus.include[1]'],
        ['ranklab.json', 6, 'error', 'corpus.include[2]'],
        ['ranklab.json', 7, 'error', 'corpus.include[3]'],
      ],
    );
    assert.match(
      refused.diagnostics[0].message,
      /"\.\.\/elsewhere\/\*\.md" leaves the workspace folder; it includes nothing.*"allowOutsideWorkspace": true/,
    );
    assert.deepEqual(titles(refused), ['Inside doc']); // the rest of the corpus still loads

    write(',\n    "allowOutsideWorkspace": true');
    const allowed = loadWorkspace(root);
    assert.deepEqual(allowed.diagnostics, []);
    assert.deepEqual(titles(allowed), ['Inside doc', 'Outside secret']);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
