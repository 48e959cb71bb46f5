import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRankConfigText, withEngineParams } from '../../../src/core/config';

const parse = (value: unknown) => parseRankConfigText(JSON.stringify(value, null, 2), 'x.rank.json');

const os = {
  engine: {
    kind: 'opensearch',
    url: 'http://127.0.0.1:9200/',
    index: 'docs',
    template: {
      query: {
        bool: { must: { multi_match: { query: '{{query}}', fields: ['title^{{params.titleBoost}}', 'body'] } }, filter: '{{filter}}' },
      },
      size: '{{k}}',
    },
    filter: { term: { tenant: '{{principal.tenant}}' } },
    params: { titleBoost: 2 },
  },
};

test('an engine section gets its defaults (Solr and OpenSearch id fields differ) and mode "engine"', () => {
  const { config, diagnostics } = parse(os);
  assert.deepEqual(diagnostics, []);
  assert.equal(config!.mode, 'engine');
  assert.equal(config!.lexical, undefined);
  const e = config!.engine!;
  assert.equal(e.url, 'http://127.0.0.1:9200', 'trailing slash dropped');
  assert.equal(e.idField, '_id');
  assert.deepEqual(e.fields, { title: 'title', text: 'body' });
  assert.deepEqual(e.aclFields, { tenant: 'tenant', groups: 'groups', public: 'public' });
  assert.equal(e.depth, 100);
  assert.deepEqual(e.request, { batchSize: 20, concurrency: 2, timeoutMs: 30_000, maxRetries: 3, retryDelayMs: 500 });
  const solr = parse({ engine: { kind: 'solr', url: 'http://h:8983/solr', index: 'c', template: { q: '{{query}}' } } });
  assert.equal(solr.config!.engine!.idField, 'id');
});

test('params are part of the config hash, request settings are not', () => {
  const base = parse(os).config!;
  const otherParams = parse({ engine: { ...os.engine, params: { titleBoost: 3 } } }).config!;
  const otherRequest = parse({ engine: { ...os.engine, request: { concurrency: 8, batchSize: 50 } } }).config!;
  assert.notEqual(otherParams.configHash, base.configHash);
  assert.equal(otherRequest.configHash, base.configHash);
  // withEngineParams: what a sweep calls; same hash as a config file with those params
  const swept = withEngineParams(base, { titleBoost: 3 });
  assert.equal(swept.configHash, otherParams.configHash);
  assert.equal(base.engine!.params.titleBoost, 2, 'the original is not changed');
});

test('problems of an engine section are reported at their line with the setting named', () => {
  const text = `{
  "lexical": {},
  "engine": {
    "kind": "opensearch", "url": "http://h:9200", "index": "i",
    "template": {
      "query": {"match": {"body": "{{query}}"}},
      "size": "{{params.sise}}",
      "knn": "{{vector}}"
    },
    "filter": {"term": {"tenant": "{{principal.tenant}}"}},
    "params": {"size": 10}
  }
}`;
  const { config, diagnostics } = parseRankConfigText(text, 'x.rank.json');
  assert.equal(config, undefined);
  const byLine = diagnostics.map((d) => [d.line, d.severity, d.message]);
  assert.deepEqual(byLine, [
    [2, 'error', '"lexical" cannot be combined with "engine": an engine config replaces the local pipeline'],
    [7, 'error', '{{params.sise}}: "engine.params" has no "sise" (it has size)'],
    [8, 'error', '{{vector}} needs an "embedder" in the engine section (it embeds the query)'],
    [10, 'error', 'the filter is never sent: put "{{filter}}" where it belongs in the template (e.g. "bool": {"filter": "{{filter}}"})'],
  ]);
});

test('schema problems: unknown kind, a URL without a scheme, a Solr parameter that is an object', () => {
  const bad = parse({ engine: { kind: 'vespa', url: 'h:9200', index: 'i', template: {} } });
  assert.equal(bad.config, undefined);
  assert.ok(
    bad.diagnostics.some(
      (d) => d.key === 'engine.kind' && d.message === 'unknown engine kind "vespa": the kinds are "opensearch", "elasticsearch", "solr"',
    ),
    JSON.stringify(bad.diagnostics),
  );
  assert.ok(bad.diagnostics.some((d) => /engine\.url/.test(d.message)));
  const solr = parse({ engine: { kind: 'solr', url: 'http://h/solr', index: 'i', template: { q: '{{query}}', json: { a: 1 } } } });
  assert.equal(solr.config, undefined);
  assert.match(solr.diagnostics[0].message, /Solr parameter "json" must be a string, number, boolean or a list of them/);
  const slot = parse({
    engine: { kind: 'solr', url: 'http://h/solr', index: 'i', template: { q: '{{query}}', fq: '{{filter}}' }, filter: { fq: 'a:b' } },
  });
  assert.match(slot.diagnostics[0].message, /Solr adds the "filter" parameters to the request; there is no \{\{filter\}\} slot/);
});

test('principal attributes in the template (not the filter) are a warning: the config runs only with --as', () => {
  const { config, diagnostics } = parse({
    engine: { kind: 'solr', url: 'http://h/solr', index: 'i', template: { q: '{{query}}', fq: 'tenant:{{principal.tenant}}' } },
  });
  assert.ok(config);
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0].severity, 'warning');
  assert.match(diagnostics[0].message, /runs only as a principal/);
});
