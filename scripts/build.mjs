// Bundles the CLI, the extension and the webview apps with esbuild, and assembles the WebAssembly kernels into
// dist/ beside the bundles, which load them from there.
// The webview apps are the panel table's (src/extension/webviews/panels.ts): each row's webview/<app>/main.ts is
// bundled to dist/webviews/<app>.js, the script its page loads.
import { build } from 'esbuild';
import { mkdirSync, readFileSync } from 'node:fs';
import { tsImport } from 'tsx/esm/api';
import { buildWasm } from './build-wasm.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
// Native addons and lazily-loaded model runtimes stay outside the bundle and load from node_modules
// (scripts/vscode/package.ts ships exactly these and their dependencies in the .vsix).
const nodeExternals = JSON.parse(readFileSync(new URL('./node-externals.json', import.meta.url), 'utf8'));

// The table loads without `vscode` (its controllers are dynamic imports, not run here).
const { PANEL_LIST } = await tsImport('../src/extension/webviews/panels.ts', import.meta.url);
const apps = PANEL_LIST.map((p) => p.app);
const entries = [
  { in: 'src/cli/main.ts', out: 'dist/cli.js', platform: 'node', banner: '#!/usr/bin/env node' },
  { in: 'src/extension/extension.ts', out: 'dist/extension.js', platform: 'node' },
  // The extension's worker thread (src/extension/worker/main.ts), started from dist/extension.js by file name.
  { in: 'src/extension/worker/main.ts', out: 'dist/worker.js', platform: 'node' },
  ...apps.map((app) => ({ in: `webview/${app}/main.ts`, out: `dist/webviews/${app}.js`, platform: 'browser' })),
];

for (const e of entries) {
  const opts = {
    entryPoints: [e.in],
    outfile: e.out,
    bundle: true,
    sourcemap: !production,
    minify: production,
    target: e.platform === 'node' ? 'node20' : 'es2022',
    platform: e.platform,
    format: e.platform === 'node' ? 'cjs' : 'iife',
    external: e.platform === 'node' ? nodeExternals : [],
    // jsonc-parser's `main` is a UMD build whose inner requires esbuild cannot follow: bundle its ESM build.
    alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
    // Some ESM dependencies (fdir, via tinyglobby) read import.meta.url, which is empty in a CJS bundle.
    define: e.platform === 'node' ? { 'import.meta.url': '__ranklabImportMetaUrl' } : undefined,
    banner:
      e.platform === 'node'
        ? { js: `${e.banner ? e.banner + '\n' : ''}const __ranklabImportMetaUrl = require('url').pathToFileURL(__filename).href;` }
        : undefined,
    logLevel: 'warning',
  };
  await build(opts);
}
mkdirSync('dist', { recursive: true });
await buildWasm('dist');
if (watch) console.log('watch mode is not implemented; re-run npm run build');
