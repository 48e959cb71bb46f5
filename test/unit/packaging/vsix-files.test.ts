// The .vsix rules of scripts/vscode/vsix-files.ts: the dev-file deny-list and the required files catch what they
// name; the runtime dependency closure follows Node's lookup (real folders); and .vscodeignore plus the bundled
// dependencies, as `npm run package` hands them to vsce, leave no dev file in the real repo's file list.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { REPO_DIR } from '../../helpers/cli';
import {
  HOST_TARGET,
  bundledDependencyIgnores,
  checkVsixFiles,
  dependencyClosure,
  onnxruntimeBinaries,
  packageIgnoreFile,
  requiredFiles,
} from '../../../scripts/vscode/vsix-files';

const RUNTIME = [
  'package.json',
  'README.md',
  'dist/extension.js',
  'dist/worker.js',
  'dist/cli.js',
  'dist/webviews/dashboard.js',
  'schemas/ranklab.schema.json',
  'node_modules/hnswlib-node/build/Release/addon.node',
  'node_modules/hnswlib-node/lib/index.js',
];

test('every kind of dev file is refused, runtime files are not', () => {
  assert.deepEqual(checkVsixFiles(RUNTIME, []), []);
  const dev = [
    '.dependency-cruiser.cjs',
    '.editorconfig',
    '.eslintrc.json',
    '.ci/run',
    'eslint.config.mjs',
    'biome.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'test/unit/a.test.ts',
    'node_modules/fast-uri/test/parse.test.js',
    'node_modules/x/tests/index.js',
    'node_modules/global-agent/dist/a.test.js',
    'node_modules/sharp/src/common.cc',
    'node_modules/hnswlib-node/binding.gyp',
    'dist/extension.js.map',
    'src/core/index.ts',
    'package-lock.json',
    'bench/run.mjs',
    'docs/design.md',
    'examples/food-search/ranklab.json',
  ];
  const problems = checkVsixFiles([...RUNTIME, ...dev], []);
  for (const f of dev)
    assert.ok(
      problems.some((p) => p.startsWith(`${f}: `)),
      `${f} refused (got ${problems.join(' | ')})`,
    );
  assert.equal(problems.length, dev.length);
});

test('the files the extension runs are required, and a package without one is refused', () => {
  const required = requiredFiles(REPO_DIR);
  for (const f of [
    'package.json',
    'dist/extension.js',
    'dist/worker.js',
    'dist/cli.js',
    'dist/webviews/dashboard.js',
    'dist/webviews/judging.js',
    'dist/webviews/sweep.js',
    'schemas/ranklab.schema.json',
    'schemas/rank.schema.json',
    'node_modules/hnswlib-node/build/Release/addon.node',
    'node_modules/hnswlib-node/package.json',
  ])
    assert.ok(required.includes(f), `${f} is required`);
  assert.deepEqual(checkVsixFiles(required, required), []);
  const without = required.filter((f) => f !== 'dist/worker.js');
  assert.deepEqual(checkVsixFiles(without, required), ['dist/worker.js: missing from the package']);
});

test('the runtime closure resolves nested copies first and skips missing optional packages', () => {
  const repo = mkdtempSync(join(tmpdir(), 'rl-closure-'));
  try {
    const pkg = (dir: string, json: object) => {
      mkdirSync(join(repo, dir), { recursive: true });
      writeFileSync(join(repo, dir, 'package.json'), JSON.stringify(json));
    };
    pkg('.', { dependencies: { a: '1', bundled: '1' } });
    pkg('node_modules/a', { dependencies: { b: '2', '@s/c': '1' }, optionalDependencies: { 'not-installed': '1' } });
    pkg('node_modules/a/node_modules/b', {}); // a's own b@2
    pkg('node_modules/b', {}); // b@1: nobody of the closure loads it
    pkg('node_modules/@s/c', { dependencies: { b: '1' } });
    pkg('node_modules/bundled', { dependencies: { d: '1' } });
    pkg('node_modules/d', {});
    assert.deepEqual([...dependencyClosure(repo, ['a'])].sort(), [
      'node_modules/@s/c',
      'node_modules/a',
      'node_modules/a/node_modules/b',
      'node_modules/b',
    ]);
    assert.deepEqual([...dependencyClosure(repo, ['bundled'])].sort(), ['node_modules/bundled', 'node_modules/d']);
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
});

test('a package keeps the onnxruntime-node binaries of its own target only, and requires its binding', () => {
  const repo = mkdtempSync(join(tmpdir(), 'rl-ort-'));
  try {
    mkdirSync(join(repo, 'webview'));
    writeFileSync(join(repo, 'package.json'), '{}');
    writeFileSync(join(repo, '.vscodeignore'), 'src/**\n');
    for (const d of ['napi-v6/linux/x64', 'napi-v6/linux/arm64', 'napi-v6/darwin/arm64', 'napi-v6/win32/x64'])
      mkdirSync(join(repo, 'node_modules/onnxruntime-node/bin', d), { recursive: true });
    const bin = 'node_modules/onnxruntime-node/bin/napi-v6';
    assert.deepEqual(onnxruntimeBinaries(repo, 'darwin-arm64'), {
      kept: [`${bin}/darwin/arm64`],
      other: [`${bin}/linux/arm64`, `${bin}/linux/x64`, `${bin}/win32/x64`].sort(),
    });
    const ignore = packageIgnoreFile(repo, 'linux-x64').split('\n');
    assert.ok(ignore.includes('src/**'), '.vscodeignore kept');
    for (const d of ['linux/arm64', 'darwin/arm64', 'win32/x64']) assert.ok(ignore.includes(`${bin}/${d}/**`), `${d} dropped`);
    assert.ok(!ignore.some((l) => l.includes('linux/x64')), 'linux/x64 kept');
    assert.ok(requiredFiles(repo, 'win32-x64').includes(`${bin}/win32/x64/onnxruntime_binding.node`));
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
});

test('the real file list vsce gets from npm run package holds no dev file and none of the bundled dependencies', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-vsce-ls-'));
  try {
    const bundled = bundledDependencyIgnores(REPO_DIR);
    assert.ok(bundled.includes('node_modules/minisearch/**'), 'minisearch is bundled into dist/, not shipped');
    const ignoreFile = join(dir, 'vscodeignore');
    writeFileSync(ignoreFile, packageIgnoreFile(REPO_DIR));
    const ls = spawnSync(process.execPath, [join(REPO_DIR, 'node_modules/@vscode/vsce/vsce'), 'ls', '--ignoreFile', ignoreFile], {
      cwd: REPO_DIR,
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    assert.equal(ls.status, 0, ls.stderr);
    const files = ls.stdout.split('\n').filter(Boolean);
    assert.ok(files.includes('node_modules/hnswlib-node/package.json'), 'hnswlib-node is shipped');
    assert.deepEqual(checkVsixFiles(files, []), []);
    const platforms = new Set(
      files
        .map((f) => f.match(/^node_modules\/onnxruntime-node\/bin\/napi-v\d+\/([^/]+)\/([^/]+)\//))
        .filter((m) => m !== null)
        .map((m) => `${m[1]}-${m[2]}`),
    );
    assert.deepEqual(
      [...platforms].filter((p) => p !== HOST_TARGET),
      [],
      'onnxruntime-node binaries of other platforms left out',
    );
    const shipped = new Set(files.map((f) => dirname(f)));
    for (const line of bundled) {
      const pkgDir = line.replace(/\/\*\*$/, '');
      assert.ok(![...shipped].some((d) => d === pkgDir || d.startsWith(`${pkgDir}/`)), `${pkgDir} left out`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
