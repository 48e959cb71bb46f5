// The layering of docs/design.md, checked by dependency-cruiser (`npm run lint:deps`, part of `npm test`).
// Every rule is an error: a violation fails the build. Type-only imports count like any other.

/**
 * The floor order of src/core, from the ground up: a folder may import the folders below it, never one above.
 * A new folder of src/core gets its line here (and in docs/design.md); until then any import to or from it fails.
 */
const FLOORS = [
  'util', // diagnostics, text files, JSON with locations, fingerprints, atomic writes, cooperative work
  'math', // dense and sparse matrices, randomized SVD
  'corpus', // files -> Documents, incremental snapshot
  'acl', // the access rule over documents and principals; the independent reference evaluator
  'judgments', // qrels, queries, golden sets, BEIR
  'run', // ranked lists, stage names, TREC runs
  'metrics', // one file per metric, the registry, evaluate(run, judgments)
  'config', // *.rank.json: types, defaults, parsing
  'retrieval', // analyzer, indexes, providers, the steps, the pipeline, the built-in engine
  'engines', // external engines (OpenSearch/Elasticsearch, Solr) as an Engine
  'experiment', // statistics, comparison, gates, bounds, stage recall, saved runs
  'workspace', // ranklab.json, configs and judgments found in a folder
  'judging', // pools, the grade writer, rater agreement, the LLM judge
  'session', // a workspace opened for work: evaluation, search views, the access check
  'tuning', // parameter sweeps over a session: combinations, tune/holdout splits and folds, the overfitting guard
  'report', // tables, Markdown, JUnit
  'actions', // one function per user action (evaluate configs, compare runs), called by the CLI and the extension alike
];

const floorRules = FLOORS.slice(0, -1).map((floor, i) => ({
  name: `core-${floor}-imports-down`,
  comment: `src/core/${floor}/ may import only the floors below it (${FLOORS.slice(0, i).join(', ') || 'none'}): see docs/design.md "Floors"`,
  severity: 'error',
  from: { path: `^src/core/${floor}/` },
  to: { path: `^src/core/(${FLOORS.slice(i + 1).join('|')})/` },
}));

const floored = `^src/core/(${FLOORS.join('|')})/`;

/**
 * The modules of src/extension/ that run without VS Code (unit-tested in plain Node; the worker's thread; the panel
 * table, read by scripts/build.mjs and the package check). At run time they import neither `vscode` nor a module of
 * src/extension/ outside this list; type-only imports load nothing and are allowed, and so are the panel table's
 * dynamic imports of its controllers (run only by the activated extension). A new such module gets its line here.
 */
const VSCODE_FREE = [
  'commands/errors', // the error text of a failed command
  'dashboard/comparison', // the comparison of the chosen pair, through the core's caches
  'dashboard/explanation', // a document's explanation as the dashboard shows it
  'dashboard/model', // the dashboard's view model
  'dashboard/move-reasons', // the one-line reasons of moved documents
  'dashboard/runs', // how runs are named and picked
  'judging/model', // the judging view's walk over the pool
  'logic/against-baseline', // a config evaluated against the baseline (runs in the worker)
  'logic/lens-tuner', // the CodeLens's early answer from a prepared Tuner (runs in the worker)
  'logic/findings', // CodeLens text, diagnostics and test verdicts as plain data
  'logic/progress', // progress notifications' text
  'run-store', // saved runs listed through the core's run index
  'settings', // every ranklab.* setting, read in one place
  'sweep/model', // the sweep view's points and diffs
  'webviews/endpoint', // the host's half of a webview protocol
  'webviews/html', // the page and its CSP
  'webviews/panels', // the panel table
  'webviews/view', // what a panel is made of (types)
  'worker/main', // the Ranklab worker's entry
  'worker/protocol', // the worker's messages
  'worker/rpc', // the RPC over a worker thread
];
const vscodeFree = `^src/extension/(${VSCODE_FREE.join('|')})\\.ts$`;

module.exports = {
  forbidden: [
    ...floorRules,
    {
      name: 'core-folder-has-a-floor',
      comment: 'every folder of src/core has its place in FLOORS (.dependency-cruiser.cjs) and in docs/design.md',
      severity: 'error',
      from: { path: '^src/core/', pathNot: floored },
      to: {},
    },
    {
      name: 'core-folder-has-a-floor-too',
      comment: 'every folder of src/core has its place in FLOORS (.dependency-cruiser.cjs) and in docs/design.md',
      severity: 'error',
      from: {},
      to: { path: '^src/core/', pathNot: floored },
    },
    {
      name: 'vscode-only-in-extension',
      comment: 'only src/extension/ talks to VS Code; the core, the CLI, the protocols and the webview apps run without it',
      severity: 'error',
      from: { pathNot: '^src/extension/' },
      to: { path: '^vscode$|node_modules/@types/vscode/' },
    },
    {
      name: 'extension-vscode-free-stays-so',
      comment: 'a module named in VSCODE_FREE (.dependency-cruiser.cjs) runs in plain Node: no `vscode` at run time',
      severity: 'error',
      from: { path: vscodeFree },
      to: { path: '^vscode$|node_modules/@types/vscode/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'extension-vscode-free-imports-vscode-free',
      comment: 'a module named in VSCODE_FREE loads only modules of src/extension/ named there too (the others need VS Code)',
      severity: 'error',
      from: { path: vscodeFree },
      to: { path: '^src/extension/', pathNot: vscodeFree, dependencyTypesNot: ['type-only', 'dynamic-import'] },
    },
    {
      name: 'core-imports-only-core',
      comment: 'the core is called by the CLI, the extension and the tests, and calls none of them',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^(src/(cli|extension|protocol)|webview|test|bench|scripts)/' },
    },
    {
      name: 'cli-never-imports-extension',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^(src/(extension|protocol)|webview)/' },
    },
    {
      name: 'extension-never-imports-cli',
      comment: 'the CLI and the extension are two faces over the same core',
      severity: 'error',
      from: { path: '^src/extension/' },
      to: { path: '^(src/cli|webview)/' },
    },
    {
      name: 'protocol-imports-only-protocol',
      comment: 'a protocol is shared by the host and the app: no core, no extension, no DOM code',
      severity: 'error',
      from: { path: '^src/protocol/' },
      to: { path: '^(src/(core|cli|extension)|webview)/' },
    },
    {
      name: 'webview-imports-only-protocol',
      comment: 'a webview app talks to the extension through its protocol (src/protocol/) and nothing else of src/',
      severity: 'error',
      from: { path: '^webview/' },
      to: { path: '^src/', pathNot: '^src/protocol/' },
    },
    {
      name: 'webview-app-imports-only-its-own-files',
      comment: 'an app (webview/<app>/) uses its own files and the shared client (webview/ipc.ts), not another app',
      severity: 'error',
      from: { path: '^webview/([^/]+)/' },
      to: { path: '^webview/[^/]+/', pathNot: '^webview/$1/' },
    },
    {
      name: 'no-circular',
      comment: 'files that import each other cannot be understood (or tested) one at a time',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // node_modules is not excluded, only not followed: `vscode` resolves to node_modules/@types/vscode/
    exclude: { path: '^(dist|\\.vscode-test)/' },
  },
};
