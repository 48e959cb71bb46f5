// Bad ranking configs (*.rank.json): exit 2 naming file, line and key; a bad config among good ones does not
// stop the good ones, and is reported with its diagnostics.
import assert from 'node:assert/strict';
import { unusable } from './cases';
import { type FuzzCase, type FuzzWorkspace, at, fuzzTable } from './harness';

const FILE = 'configs/broken.rank.json';
const RUN = ['eval', '-c', 'broken'];

/** configs/broken.rank.json holding `text`; eval of it exits 2 naming the line that holds `needle`. */
function badConfig(name: string, text: string | Buffer, needle: string | undefined, words: (string | RegExp)[] = [], argv = RUN): FuzzCase {
  return unusable(`config: ${name}`, (ws) => ws.write(FILE, text), argv, { file: FILE, needle, words });
}

const lexical = (settings: string) => `{\n  "lexical": {\n    ${settings}\n  }\n}\n`;

/** A config with a mistake that still runs, with a warning at its line. */
function warned(name: string, text: string, needle: string, words: (string | RegExp)[]): FuzzCase {
  return {
    name: `config: ${name} (a warning at its line; it runs)`,
    setup: (ws) => ws.write(FILE, text),
    argv: RUN,
    expect: { code: 0, stderr: (ws) => [at(FILE, ws.lineOf(FILE, needle)), 'warning', ...words], stdout: ['broken'] },
  };
}

const cases: FuzzCase[] = [
  badConfig('JSON syntax error', '{\n  "lexical": {\n    "fuzzy": 0.2\n  \n', undefined, [/JSON|end of input/]),
  badConfig('unknown top-level key', '{\n  "lexcial": {}\n}\n', '"lexcial"', ['lexcial']),
  badConfig('unknown nested key', lexical('"feilds": { "title": 1 }'), '"feilds"', ['feilds']),
  badConfig('duplicate key', lexical('"fuzzy": 0.2,\n    "fuzzy": 0.3'), '"fuzzy": 0.3', ['duplicate']),
  badConfig('fuzzy 1e9', lexical('"fuzzy": 1e9'), '"fuzzy"', ['fuzzy']),
  badConfig('fuzzy 1.5', lexical('"fuzzy": 1.5'), '"fuzzy"', ['fuzzy']),
  badConfig('fuzzy -1', lexical('"fuzzy": -1'), '"fuzzy"', ['fuzzy']),
  badConfig('fuzzy "yes"', lexical('"fuzzy": "yes"'), '"fuzzy"', ['fuzzy']),
  badConfig('every boost 0', lexical('"fields": {\n      "title": 0,\n      "body": 0\n    }'), '"fields"', ['fields', /boost/]),
  badConfig('no fields', lexical('"fields": {}'), '"fields"', ['fields']),
  badConfig('a negative boost', lexical('"fields": { "title": -1, "body": 1 }'), '"fields"', ['title']),
  badConfig('a boost as a string', lexical('"fields": { "title": "3", "body": 1 }'), '"fields"', ['title']),
  badConfig('every searched field unknown', lexical('"fields": {\n      "titel": 1,\n      "bdy": 1\n    }'), '"titel"', [
    'lexical.fields.titel',
    /no document/,
    'did you mean "title"',
  ]),
  badConfig(
    'hybrid weights all 0',
    '{\n  "lexical": {},\n  "vector": { "embedder": { "provider": "lsa", "dimensions": 16 } },\n  "hybrid": {\n    "weights": { "lexical": 0, "vector": 0 }\n  }\n}\n',
    '"weights"',
    ['weights'],
  ),
  badConfig('bm25.b 2', lexical('"bm25": { "b": 2 }'), '"bm25"', ['b']),
  badConfig('bm25.k1 -1', lexical('"bm25": { "k1": -1 }'), '"bm25"', ['k1']),
  badConfig('depth 0', lexical('"depth": 0'), '"depth"', ['depth']),
  badConfig('pageSize 0', '{\n  "pageSize": 0\n}\n', '"pageSize"', ['pageSize']),
  badConfig('pageSize "10"', '{\n  "pageSize": "10"\n}\n', '"pageSize"', ['pageSize']),
  badConfig('combineWith "XOR"', lexical('"combineWith": "XOR"'), '"combineWith"', ['combineWith']),
  badConfig('unknown stemmer', lexical('"analyzer": { "stemmer": "klingon" }'), '"analyzer"', ['stemmer']),
  badConfig('stopwords 5', lexical('"analyzer": { "stopwords": 5 }'), '"analyzer"', ['stopwords']),
  badConfig('minLength 0', lexical('"analyzer": { "minLength": 0 }'), '"analyzer"', ['minLength']),
  badConfig('unknown provider', '{\n  "vector": {\n    "embedder": { "provider": "nope" }\n  }\n}\n', '"embedder"', ['provider']),
  badConfig('vector without embedder', '{\n  "vector": {\n    "exact": true\n  }\n}\n', '"vector"', ['embedder']),
  badConfig('hnsw.M 1', '{\n  "vector": {\n    "embedder": { "provider": "lsa" },\n    "hnsw": { "M": 1 }\n  }\n}\n', '"hnsw"', ['M']),
  badConfig('acl.mode "sideways"', '{\n  "acl": {\n    "mode": "sideways"\n  }\n}\n', '"mode"', ['mode']),
  badConfig('acl.candidates 0', '{\n  "acl": {\n    "candidates": 0\n  }\n}\n', '"candidates"', ['candidates']),
  badConfig('rerank without provider', '{\n  "lexical": {},\n  "rerank": {\n    "topN": 5\n  }\n}\n', '"rerank"', ['provider']),
  badConfig(
    'hybrid.k -5',
    '{\n  "lexical": {},\n  "vector": { "embedder": { "provider": "lsa" } },\n  "hybrid": {\n    "k": -5\n  }\n}\n',
    '"k": -5',
    ['hybrid.k'],
  ),
  badConfig(
    'lsa: a typo\'d setting ("dimension")',
    '{\n  "vector": {\n    "embedder": {\n      "provider": "lsa",\n      "dimension": 64\n    }\n  }\n}\n',
    '"dimension"',
    ['dimension', 'dimensions'],
  ),
  badConfig(
    'lsa: maxDfRatio 5',
    '{\n  "vector": {\n    "embedder": {\n      "provider": "lsa",\n      "maxDfRatio": 5\n    }\n  }\n}\n',
    '"maxDfRatio"',
    ['maxDfRatio'],
  ),
  badConfig(
    'lsa: powerIterations -1',
    '{\n  "vector": {\n    "embedder": {\n      "provider": "lsa",\n      "powerIterations": -1\n    }\n  }\n}\n',
    '"powerIterations"',
    ['powerIterations'],
  ),
  badConfig(
    'lsa: seed "x"',
    '{\n  "vector": {\n    "embedder": {\n      "provider": "lsa",\n      "seed": "x"\n    }\n  }\n}\n',
    '"seed"',
    ['seed'],
  ),
  badConfig(
    'lsa: dimensions 0',
    '{\n  "vector": {\n    "embedder": {\n      "provider": "lsa",\n      "dimensions": 0\n    }\n  }\n}\n',
    '"dimensions": 0',
    ['dimensions'],
  ),
  badConfig('description 5', '{\n  "description": 5\n}\n', '"description"', ['description']),
  badConfig('empty file', '', undefined, ['empty']),
  badConfig('a list', '[]\n', undefined, [/object/]),
  badConfig('null', 'null\n', undefined, [/object/]),
  badConfig('binary', Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0]), undefined, ['binary']),
  badConfig('fuzzy 1e9 through search', lexical('"fuzzy": 1e9'), '"fuzzy"', ['fuzzy'], ['search', '-c', 'broken', 'kopi']),
  badConfig(
    'through compare',
    lexical('"fuzzy": 1e9'),
    '"fuzzy"',
    ['fuzzy'],
    ['compare', '--baseline', 'baseline', '--candidate', 'broken'],
  ),
  badConfig('through gate', lexical('"fuzzy": 1e9'), '"fuzzy"', ['fuzzy'], ['gate', '--candidate', 'broken']),
  badConfig(
    'through check-acl',
    lexical('"fuzzy": 1e9'),
    '"fuzzy"',
    ['fuzzy'],
    ['check-acl', '-c', 'broken', '--as', 'guest', '--no-prefixes'],
  ),
  badConfig('through suggest', lexical('"fuzzy": 1e9'), '"fuzzy"', ['fuzzy'], ['suggest', '-c', 'broken', 'kop']),
  warned('unknown field in fields', lexical('"fields": {\n      "titel": 3,\n      "body": 1\n    }'), '"titel"', ['titel', 'title']),
  warned('"hybrid" without "vector"', '{\n  "lexical": {},\n  "hybrid": {\n    "k": 10\n  }\n}\n', '"hybrid"', ['hybrid']),
  {
    name: 'config: BOM, comments and trailing commas are fine',
    setup: (ws) => ws.write(FILE, '\ufeff{\n  // BM25 with a title boost\n  "lexical": { "fields": { "title": 2, "body": 1, }, },\n}\n'),
    argv: [...RUN, '--strict'],
    expect: { code: 0, stdout: ['broken'] },
  },
  unusable('config: -c names no config', undefined, ['eval', '-c', 'nonexistent'], { file: 'nonexistent', words: ['baseline'] }),
  unusable('config: -c names a folder', undefined, ['eval', '-c', 'configs'], { file: 'configs', words: ['folder'] }),
  unusable(
    'config: -c names a file outside the workspace with an error',
    (ws) => ws.write('../outside.rank.json', '{\n  "pageSize": -1\n}\n'),
    ['eval', '-c', '../outside.rank.json'],
    { file: 'outside.rank.json', words: ['pageSize'] },
  ),
  {
    name: 'config: a bad config among good ones: the good ones run, the bad one is reported with its line, exit 2',
    setup: (ws) => {
      ws.keepConfigs('baseline', 'title-boost-3');
      ws.write(FILE, lexical('"fuzzy": 1e9'));
    },
    argv: ['eval', '--format', 'json'],
    expect: {
      code: 2,
      stderr: (ws) => [at(FILE, ws.lineOf(FILE, '"fuzzy"')), 'broken'],
      check: (r) => {
        const out = JSON.parse(r.stdout);
        assert.deepEqual(out.runs.map((x: { config: string }) => x.config).sort(), ['baseline', 'title-boost-3']);
        assert.deepEqual(
          out.failed.map((x: { name: string }) => x.name),
          ['broken'],
        );
      },
    },
  },
  {
    // A check that left a config unchecked has not passed: exit 1, the config named among the failures.
    name: 'config: a bad config among good ones in check-acl: the good one is checked, exit 1',
    setup: (ws) => {
      ws.keepConfigs('baseline');
      ws.write(FILE, '{\n  "pageSize": 0\n}\n');
    },
    argv: ['check-acl', '--as', 'guest', '--no-prefixes'],
    expect: {
      code: 1,
      stderr: (ws) => [at(FILE, ws.lineOf(FILE, '"pageSize"'))],
      stdout: ['baseline', /FAILED: config broken was not checked/],
    },
  },
  {
    name: 'config: every config bad',
    setup: (ws) => {
      ws.keepConfigs();
      ws.write(FILE, '{\n  "pageSize": 0\n}\n');
      ws.write('configs/other.rank.json', '{ "lexical": 3 }');
    },
    argv: ['eval'],
    expect: { code: 2, noRuns: true, stderr: (ws) => [at(FILE, ws.lineOf(FILE, '"pageSize"')), 'configs/other.rank.json'] },
  },
  {
    name: 'config: only a description is a valid BM25 config',
    setup: (ws: FuzzWorkspace) => ws.write(FILE, '{ "description": "plain BM25" }\n'),
    argv: [...RUN, '--strict'],
    expect: { code: 0, stdout: ['broken'] },
  },
];

fuzzTable('configs', cases);
