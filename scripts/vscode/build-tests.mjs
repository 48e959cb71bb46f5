// Bundles the in-host mocha tests (test/integration/**) to out/test/integration/ (CommonJS, Node 20).
// `vscode` is provided by the extension host; mocha loads from node_modules.
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';

const suites = readdirSync('test/integration/suite')
  .filter((n) => n.endsWith('.test.ts'))
  .map((n) => `test/integration/suite/${n}`);
await build({
  entryPoints: ['test/integration/index.ts', ...suites],
  outdir: 'out/test/integration',
  outbase: 'test/integration',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline',
  external: ['vscode', 'mocha'],
  logLevel: 'warning',
});
console.log(`built integration tests (${suites.length} suite file(s)) -> out/test/integration`);
