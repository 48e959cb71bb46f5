// The real Ranklab worker (its test bundle, test/unit/extension/fixtures/ranklab-worker.cjs) through the RPC the
// extension uses, and copies of examples/food-search with only its two lexical configs (offline, no model); the
// worker is stopped and the copies deleted after the calling file's tests.
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { after } from 'node:test';
import type { RanklabMethods, RanklabNotification } from '../../src/extension/worker/protocol';
import { RpcClient } from '../../src/extension/worker/rpc';

const EXAMPLE = resolve(__dirname, '../../examples/food-search');
const WORKER = resolve(__dirname, '../unit/extension/fixtures/ranklab-worker.cjs');

export function realWorker(prefix: string) {
  const client = new RpcClient<RanklabMethods, RanklabNotification>({ entry: WORKER });
  const dirs: string[] = [];
  after(async () => {
    await client.terminate();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const workspace = (): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    cpSync(EXAMPLE, dir, { recursive: true, filter: (src) => !src.includes(`${sep}.ranklab`) });
    for (const f of readdirSync(join(dir, 'configs')))
      if (!['baseline.rank.json', 'title-boost-3.rank.json'].includes(f)) rmSync(join(dir, 'configs', f));
    return dir;
  };
  return { client, workspace };
}
