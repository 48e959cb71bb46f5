import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultRankConfig, parseRankConfig, parseRankConfigText } from '../../../src/core/config';

test('a full config parses with defaults applied, mode derived and a name from the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-config-'));
  try {
    const path = join(dir, 'title-boost.rank.json');
    writeFileSync(
      path,
      JSON.stringify({
        description: 'title x3',
        lexical: { fields: { title: 3, body: 1 }, analyzer: { stemmer: 'english' } },
        vector: { embedder: { provider: 'lsa', dimensions: 128 } },
        rerank: { provider: { provider: 'transformers', model: 'm' }, topM: 5 },
      }),
    );
    const { config, diagnostics } = parseRankConfig(path);
    assert.deepEqual(diagnostics, []);
    assert.ok(config);
    assert.equal(config.name, 'title-boost');
    assert.equal(config.mode, 'hybrid');
    assert.deepEqual(config.lexical!.fields, { title: 3, body: 1 });
    assert.deepEqual(config.lexical!.analyzer, { lowercase: true, stopwords: 'english', stemmer: 'english', minLength: 1 });
    assert.deepEqual(config.lexical!.bm25, { k1: 1.2, b: 0.75, d: 0 });
    assert.equal(config.lexical!.combineWith, 'OR');
    assert.deepEqual(config.vector!.hnsw, { M: 16, efConstruction: 200, efSearch: 100 });
    assert.deepEqual(config.hybrid, { k: 60, depth: 100, weights: { lexical: 1, vector: 1 } });
    assert.equal(config.rerank!.topN, 50);
    assert.equal(config.rerank!.topM, 5);
    assert.deepEqual(config.acl, { mode: 'pre-filter', candidates: 50 });
    assert.equal(config.pageSize, 10);
    assert.match(config.configHash, /^sha256:[0-9a-f]{16}$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('modes: lexical only, vector only, empty config = default BM25', () => {
  assert.equal(parseRankConfigText('{"lexical": {}}', 'a.rank.json').config!.mode, 'lexical');
  const v = parseRankConfigText(
    '{"vector": {"embedder": {"provider": "lsa"}}, "rerank": {"provider": {"provider": "http", "url": "u"}}}',
    'b.rank.json',
  ).config!;
  assert.equal(v.mode, 'vector');
  assert.equal(v.lexical, undefined);
  assert.ok(v.rerank);
  const empty = parseRankConfigText('{}', 'c.rank.json').config!;
  assert.equal(empty.mode, 'lexical');
  assert.deepEqual(empty.lexical!.fields, { title: 1, body: 1 });
  assert.equal(empty.configHash, defaultRankConfig().configHash, 'same settings, same hash, whatever the name');
});

test('configHash ignores description, key order and explicit defaults; changes with any setting', () => {
  const h = (text: string) => parseRankConfigText(text, 'x.rank.json').config!.configHash;
  const base = h('{"lexical": {"fields": {"title": 2, "body": 1}}}');
  assert.equal(h('{"description": "d", "lexical": {"fields": {"body": 1, "title": 2}, "combineWith": "OR"}}'), base);
  assert.notEqual(h('{"lexical": {"fields": {"title": 3, "body": 1}}}'), base);
  assert.notEqual(h('{"lexical": {"fields": {"title": 2, "body": 1}, "bm25": {"b": 0.5}}}'), base);
});

test('schema errors name the line of the offending key; every error is reported', () => {
  const text = [
    '{',
    '  "lexical": {',
    '    "fields": { "title": 3, "body": -1 },',
    '    "combineWith": "XOR",',
    '    "analyzr": {}',
    '  },',
    '  "vector": {',
    '    "hnsw": { "M": 16 }',
    '  }',
    '}',
  ].join('\n');
  const { config, diagnostics } = parseRankConfigText(text, 'bad.rank.json');
  assert.equal(config, undefined);
  const byLine = diagnostics.map((d) => [d.line, d.message] as const);
  assert.ok(
    byLine.some(([l, m]) => l === 3 && m.includes('lexical.fields.body') && m.includes('>= 0')),
    JSON.stringify(byLine),
  );
  assert.ok(
    byLine.some(([l, m]) => l === 4 && m.includes('"AND", "OR"')),
    JSON.stringify(byLine),
  );
  assert.ok(
    byLine.some(([l, m]) => l === 5 && m.includes('unknown setting "analyzr" in "lexical" (did you mean "analyzer"?)')),
    JSON.stringify(byLine),
  );
  assert.ok(
    byLine.some(([l, m]) => l === 7 && m.includes('missing "embedder"')),
    JSON.stringify(byLine),
  );
  assert.ok(diagnostics.every((d) => d.file === 'bad.rank.json' && d.severity === 'error'));
});

test('JSON syntax errors give line and column; comments and trailing commas are accepted', () => {
  const bad = parseRankConfigText('{\n  "lexical": {\n    "depth": 10\n    "prefix": true\n  }\n}', 'syntax.rank.json');
  assert.equal(bad.config, undefined);
  assert.equal(bad.diagnostics[0].line, 4);
  assert.match(bad.diagnostics[0].message, /column 5: expected ',' or '}'/);
  const ok = parseRankConfigText('{\n  // BM25 with a prefix\n  "lexical": { "prefix": true, /* inline */ },\n}', 'c.rank.json');
  assert.deepEqual(ok.diagnostics, []);
  assert.equal(ok.config!.lexical!.prefix, true);
  const dup = parseRankConfigText('{\n"pageSize": 5,\n"pageSize": 6}', 'd.rank.json');
  assert.equal(dup.diagnostics[0].line, 3);
});

test('unreadable file and hybrid without both lists are reported, not thrown', () => {
  const missing = parseRankConfig('/nonexistent/x.rank.json');
  assert.equal(missing.config, undefined);
  assert.match(missing.diagnostics[0].message, /file not found/);
  const warn = parseRankConfigText('{\n "lexical": {},\n "hybrid": {"k": 10}\n}', 'h.rank.json');
  assert.equal(warn.config!.mode, 'lexical');
  assert.equal(warn.diagnostics[0].severity, 'warning');
  assert.equal(warn.diagnostics[0].line, 3);
});

test('vector.storage: float16/int8 kept, float32 = absent (same hash as before the setting), warned about without exact, bad values refused with their line', () => {
  const parse = (text: string) => parseRankConfigText(text, 's.rank.json');
  const lsa = '"embedder": {"provider": "lsa"}';
  const plain = parse(`{"vector": {${lsa}, "exact": true}}`).config!;
  const f32 = parse(`{"vector": {${lsa}, "exact": true, "storage": "float32"}}`).config!;
  const int8 = parse(`{"vector": {${lsa}, "exact": true, "storage": "int8"}}`);
  assert.equal(plain.vector!.storage, undefined);
  assert.equal(f32.configHash, plain.configHash);
  assert.equal(int8.config!.vector!.storage, 'int8');
  assert.deepEqual(int8.diagnostics, []);
  assert.notEqual(int8.config!.configHash, plain.configHash);
  assert.equal(parse(`{"vector": {${lsa}, "exact": true, "storage": "float16"}}`).config!.vector!.storage, 'float16');
  const hnsw = parse(`{\n"vector": {\n${lsa},\n"storage": "int8"\n}\n}`);
  assert.deepEqual(
    hnsw.diagnostics.map((d) => [d.severity, d.line]),
    [['warning', 4]],
  );
  assert.match(hnsw.diagnostics[0].message, /applies to exact search only/);
  const bad = parse(`{\n"vector": {\n${lsa},\n"exact": true,\n"storage": "int4"\n}\n}`);
  assert.equal(bad.config, undefined);
  assert.deepEqual(
    bad.diagnostics.map((d) => d.line),
    [5],
  );
  assert.match(bad.diagnostics[0].message, /"vector\.storage" must be one of "float32", "float16", "int8"/);
});
