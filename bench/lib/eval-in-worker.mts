// bench:eval-1m --worker: one Run Evaluation as the editor runs it, in the Ranklab worker thread (the built
// dist/worker.js, started by the extension's RpcClient without resourceLimits: the worker's heap is V8's default, as
// in the extension host), over the workspace folder given. The state folder comes from RANKLAB_STATE_DIR (the
// session reads it). Prints the result and the configs' outcomes as JSON on stdout; exit 1 when none was saved.
// Run: RANKLAB_STATE_DIR=<state> node --import tsx bench/lib/eval-in-worker.mts <workspace>
import { join, resolve } from 'node:path';
import { RpcClient } from '../../src/extension/worker/rpc';
import type { EvaluateProgress, RanklabMethods } from '../../src/extension/worker/protocol';

const root = process.argv[2];
if (!root) throw new Error('usage: eval-in-worker.mts <workspace>');
const client = new RpcClient<RanklabMethods>({
  entry: join(resolve(import.meta.dirname, '../..'), 'dist/worker.js'),
  onLog: (level, message) => console.error(`[worker ${level}] ${message}`),
});
const outcomes: EvaluateProgress[] = [];
const result = await client.request('evaluate', { root, trusted: true }, { onProgress: (p) => p.type !== 'work' && outcomes.push(p) });
console.log(JSON.stringify({ result, outcomes }));
await client.terminate();
process.exit(result.saved.length > 0 ? 0 : 1);
