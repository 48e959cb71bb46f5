// The engine-kind table (src/core/config/engine-kinds.ts): the schema lists the same kinds, an unknown kind is an
// error at its file, line and key with the kind it was probably meant to be, and each face reads its facts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseRankConfigText } from '../../../src/core/config';
import { ENGINE_KINDS, engineKind } from '../../../src/core/config/engine-kinds';
import { formatDiagnostic } from '../../../src/core/util/diagnostics';
import { RemoteEngine } from '../../../src/core/engines/remote-engine';
import { INDEX_USAGE } from '../../../src/cli/commands/engine-index';

test('the schema enumerates exactly the declared kinds', () => {
  const schema = JSON.parse(readFileSync(new URL('../../../schemas/rank.schema.json', import.meta.url), 'utf8'));
  const enumerated: string[] = schema.properties.engine.properties.kind.enum;
  assert.deepEqual(enumerated, ENGINE_KINDS);
});

const config = (kind: string) => `{
  // an engine config
  "engine": {
    "kind": "${kind}",
    "url": "http://127.0.0.1:9200", "index": "docs", "template": { "q": "{{query}}" }
  }
}
`;

test('an unknown kind names file, line and key, and the kind it nearly spells', () => {
  const typo = parseRankConfigText(config('opensarch'), 'configs/os.rank.json');
  assert.equal(typo.config, undefined);
  assert.deepEqual(typo.diagnostics.map(formatDiagnostic), [
    'configs/os.rank.json:4: error: engine.kind: unknown engine kind "opensarch" (did you mean "opensearch"?): the kinds are "opensearch", "elasticsearch", "solr"',
  ]);
  assert.match(
    formatDiagnostic(parseRankConfigText(config('Solr'), 'a.rank.json').diagnostics[0]),
    /^a\.rank\.json:4: error: engine\.kind: unknown engine kind "Solr" \(did you mean "solr"\?\)/,
  );
  // Nothing near: no guess.
  assert.equal(
    parseRankConfigText(config('vespa'), 'a.rank.json').diagnostics[0].message,
    'unknown engine kind "vespa": the kinds are "opensearch", "elasticsearch", "solr"',
  );
});

test("each kind's facts reach the config, the adapter and the CLI", () => {
  for (const kind of ENGINE_KINDS) {
    const { config: c, diagnostics } = parseRankConfigText(config(kind), 'a.rank.json');
    assert.deepEqual(diagnostics, [], kind);
    assert.equal(c!.engine!.idField, engineKind(kind).defaultIdField, `${kind}: default id field`);
    // A principal's filter joins the query at its slot (a body), or as added parameters (Solr).
    const engine = new RemoteEngine(
      { ...c!, engine: { ...c!.engine!, template: { q: '{{query}}', fq: 'a' }, filter: { fq: 'tenant:{{principal.tenant}}' } } },
      { allowNetwork: true },
    );
    const request = engine.request('kopi', { k: 10, principal: { name: 'ayu', tenant: 't1', groups: [] } });
    assert.deepEqual(request, kind === 'solr' ? { q: 'kopi', fq: ['a', 'tenant:t1'] } : { q: 'kopi', fq: 'a' }, kind);
  }
  assert.match(INDEX_USAGE, /into the index \(OpenSearch\/Elasticsearch\) or core \(Solr\) that the engine config/);
});
