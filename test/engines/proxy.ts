/**
 * A real HTTP proxy in front of a real engine that makes chosen requests fail, to see what Ranklab does when an
 * engine fails in the middle of a run. Every request is forwarded unchanged, except that a request whose body
 * contains `failWhenBodyHas` is answered 503 the first `failTimes` times it is seen (Infinity: always).
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';

export interface FailingProxy {
  url: string;
  /** Requests that were answered 503 instead of being forwarded. */
  failed: number;
  /** Requests forwarded to the engine. */
  forwarded: number;
  failWhenBodyHas?: string;
  failTimes: number;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect']);

export async function failingProxy(target: string): Promise<FailingProxy> {
  const state: FailingProxy = { url: '', failed: 0, forwarded: 0, failTimes: 0, close: async () => {} };
  const seen = new Map<string, number>();
  // Answers every request itself (a failed forward is a 502), so the listener can drop the promise.
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const marker = state.failWhenBodyHas;
    if (marker && body.toString('utf8').includes(marker)) {
      const n = seen.get(marker) ?? 0;
      if (n < state.failTimes) {
        seen.set(marker, n + 1);
        state.failed++;
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"injected by the test proxy"}');
        return;
      }
    }
    state.forwarded++;
    try {
      const url = new URL(req.url ?? '/', target);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !HOP_BY_HOP.has(k)) headers[k] = v;
      const upstream = await fetch(url, {
        method: req.method,
        headers,
        body: ['GET', 'HEAD'].includes(req.method ?? 'GET') ? undefined : body,
      });
      const out = Buffer.from(await upstream.arrayBuffer());
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(out);
    } catch (e) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`proxy: ${(e as Error).message}`);
    }
  };
  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  const base = new URL(target);
  state.url = `http://127.0.0.1:${address.port}${base.pathname.replace(/\/$/, '')}`;
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}
