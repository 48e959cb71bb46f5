import assert from 'node:assert/strict';
import { type IncomingHttpHeaders, createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { normaliseRankConfig } from '../../../src/core/config';
import { RemoteEngine } from '../../../src/core/engines/remote-engine';
import { RanklabSession } from '../../../src/core/session/session';
import { InputError } from '../../../src/core/util/diagnostics';
import { copyOfExample } from '../../helpers/workspace';

/** A local HTTP server that records what it is sent and answers like Solr's /select (no engine logic). */
function recorder() {
  const seen: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          responseHeader: { QTime: 3 },
          response: {
            numFound: 2,
            docs: [
              { id: 'a', score: 2 },
              { id: 'b', score: 1 },
            ],
          },
        }),
      );
    });
  });
  return { seen, server, url: () => `http://127.0.0.1:${(server.address() as { port: number }).port}/solr` };
}

describe('RemoteEngine without an engine behind it', () => {
  const rec = recorder();
  before(() => new Promise<void>((r) => rec.server.listen(0, '127.0.0.1', () => r())));
  after(() => new Promise<void>((r) => rec.server.close(() => r())));

  const config = (extra: Record<string, unknown> = {}) =>
    normaliseRankConfig(
      {
        engine: {
          kind: 'solr',
          url: rec.url(),
          index: 'docs',
          template: { defType: 'edismax', q: '{{query}}', qf: 'title^{{params.tb}} body', fq: 'lang:en' },
          filter: { fq: '{!term f=tenant}{{principal.tenant}}', groups: '{{principal.groups}}' },
          params: { tb: 2 },
          ...extra,
        },
      },
      'solr-test',
    );

  it('an untrusted workspace never sends a request: a clear error instead', async () => {
    const ws = copyOfExample();
    const session = RanklabSession.open(ws, { allowNetwork: false, writeCache: false });
    const before = rec.seen.length;
    await assert.rejects(
      session.engine(config()),
      (e: Error) => e instanceof InputError && /needs network access, which is not allowed here \(untrusted workspace\)/.test(e.message),
    );
    await assert.rejects(session.search(config(), 'kopi'), /not allowed here/);
    assert.equal(rec.seen.length, before, 'nothing reached the server');
  });

  it('fills the template; as a principal, the filter parameters are added (fq becomes multi-valued)', () => {
    const engine = new RemoteEngine(config(), { allowNetwork: true });
    assert.deepEqual(engine.request('say "hi"', { k: 7 }), { defType: 'edismax', q: 'say "hi"', qf: 'title^2 body', fq: 'lang:en' });
    assert.deepEqual(engine.request('x', { k: 7, principal: { name: 'ana', tenant: 'acme', groups: ['a', 'b'] } }), {
      defType: 'edismax',
      q: 'x',
      qf: 'title^2 body',
      fq: ['lang:en', '{!term f=tenant}acme'],
      groups: ['a', 'b'],
    });
  });

  it("sends the config's credentials, or the principal's own; their values never appear in a message", async () => {
    const env = { RL_ENGINE: 'svc:s3cret', RL_ANA: 'ana-token' };
    const engine = new RemoteEngine(config({ auth: { env: 'RL_ENGINE' } }), { allowNetwork: true, env });
    const r = await engine.search('boundary', { pageSize: 2 });
    assert.deepEqual(
      r.docs.map((d) => d.id),
      ['a', 'b'],
    );
    assert.deepEqual(r.latencyMs.engine, 3);
    assert.equal(rec.seen.at(-1)!.headers.authorization, `Basic ${Buffer.from('svc:s3cret').toString('base64')}`);
    const sent = JSON.parse(rec.seen.at(-1)!.body).params;
    assert.equal(sent.rows, 2, 'the page size becomes rows when the template sets none');
    assert.equal(sent.fl, 'id,score');
    await engine.search('boundary', { principal: { name: 'ana', tenant: 'acme', groups: [], credentials: { env: 'RL_ANA' } } });
    assert.equal(rec.seen.at(-1)!.headers.authorization, `Basic ${Buffer.from('ana-token').toString('base64')}`);
    const missing = { name: 'bo', groups: [], credentials: { env: 'RL_NOT_SET' } };
    await assert.rejects(
      engine.search('x', { principal: missing }),
      (e: Error) =>
        /principal "bo" credentials\.env: the environment variable RL_NOT_SET is not set/.test(e.message) && !e.message.includes('s3cret'),
    );
    assert.throws(
      () => new RemoteEngine(config({ auth: { env: 'RL_NONE' } }), { allowNetwork: true, env }),
      /engine\.auth\.env: the environment variable RL_NONE is not set/,
    );
  });

  it('a principal attribute the filter needs but the principal lacks is an error naming it', async () => {
    const engine = new RemoteEngine(config(), { allowNetwork: true });
    await assert.rejects(
      engine.search('x', { principal: { name: 'guest', groups: [] } }),
      /engine\.filter\.fq: \{\{principal\.tenant\}\}: the principal "guest" has no attribute "tenant"/,
    );
  });
});
