// What the Ranklab .vsix holds: only what runs. The bundles in dist/ inline every dependency esbuild could follow,
// so of node_modules the package needs only the packages the bundles load at run time (scripts/node-externals.json)
// and their own dependencies; the other production dependencies would be dead weight. Used by
// scripts/vscode/package.ts (writes the ignore file, refuses a package that breaks these rules) and its unit test.
import fs from 'node:fs';
import path from 'node:path';
import { PANEL_LIST } from '../../src/extension/webviews/panels';
import externals from '../node-externals.json';

interface Manifest {
  main?: string;
  bin?: Record<string, string>;
  icon?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  contributes?: {
    jsonValidation?: { url: string }[];
    walkthroughs?: { steps?: { media?: { markdown?: string; image?: string | Record<string, string> } }[] }[];
  };
}

/** Development files that must never ship, as patterns on a path inside the package (`extension/` stripped). */
export const DEV_FILES: readonly { re: RegExp; what: string }[] = [
  { re: /(^|\/)\.[^/]+/, what: 'dotfile or dot-folder (editor, lint, CI and git configs, .vscode-test)' },
  { re: /(^|\/)tsconfig[^/]*\.json$|\.tsbuildinfo$/, what: 'TypeScript config' },
  {
    re: /(^|\/)[^/]*(eslint|prettier|biome|jest|vitest|karma|babel|webpack|rollup|commitlint|dependency-cruiser)[^/]*\.(c|m)?(js|json|ya?ml)$/i,
    what: 'tool config',
  },
  { re: /(^|\/)(test|tests|__tests__|spec|specs|bench|benchmark|benchmarks)\//, what: 'test or benchmark folder' },
  { re: /\.(test|spec|bench)\.[cm]?[jt]sx?$/, what: 'test file' },
  { re: /^(src|webview|scripts|docs|examples|out|test-results)\//, what: 'Ranklab sources, scripts, docs or examples' },
  { re: /\.(map|ts|mts|cts|tsx)$/, what: 'source map or TypeScript source' },
  { re: /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml)$/, what: 'lock file' },
  { re: /(^|\/)(binding\.gyp|[^/]*\.gypi|Makefile|CMakeLists\.txt)$|\.(c|cc|cpp|cxx|h|hh|hpp)$/, what: 'native addon build input' },
  { re: /\.vsix$/, what: 'a package inside the package' },
];

/** The packages the bundles load from node_modules at run time (`vscode` is the editor's own). */
export const RUNTIME_ROOTS: readonly string[] = externals.filter((name) => name !== 'vscode');

const readManifest = (file: string): Manifest => JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
const relPath = (p: string) => path.posix.normalize(p).replace(/^\.\//, '');

/**
 * Files the package must hold: what package.json points at, every bundle, each panel's script, style sheets and
 * icon (the panel table), the externals, the native addons.
 */
export function requiredFiles(repo: string, target = HOST_TARGET): string[] {
  const pkg = readManifest(path.join(repo, 'package.json'));
  const files = new Set<string>(['package.json', 'dist/worker.js']); // the worker is started by file name
  if (pkg.main) files.add(relPath(pkg.main));
  for (const bin of Object.values(pkg.bin ?? {})) files.add(relPath(bin));
  if (pkg.icon) files.add(relPath(pkg.icon));
  for (const v of pkg.contributes?.jsonValidation ?? []) files.add(relPath(v.url));
  // The walkthrough's pages (Markdown, which .vscodeignore otherwise drops) and images.
  for (const w of pkg.contributes?.walkthroughs ?? []) {
    for (const step of w.steps ?? []) {
      const { markdown, image } = step.media ?? {};
      for (const f of [markdown, ...(typeof image === 'string' ? [image] : Object.values(image ?? {}))]) if (f) files.add(relPath(f));
    }
  }
  // What each panel's page loads: its app, bundled by scripts/build.mjs to dist/webviews/<app>.js, and its media.
  for (const p of PANEL_LIST) {
    files.add(`dist/webviews/${p.app}.js`);
    for (const m of [...p.styles, ...(p.icon ? [p.icon] : [])]) files.add(`media/${m}`);
  }
  // Whatever else the build put in dist/ (the WebAssembly kernels) is loaded from there.
  for (const f of walk(path.join(repo, 'dist'))) if (!f.endsWith('.map')) files.add(`dist/${f}`);
  for (const name of RUNTIME_ROOTS) {
    if (fs.existsSync(path.join(repo, 'node_modules', name, 'package.json'))) files.add(`node_modules/${name}/package.json`);
  }
  files.add('node_modules/hnswlib-node/build/Release/addon.node');
  for (const dir of onnxruntimeBinaries(repo, target).kept) files.add(`${dir}/onnxruntime_binding.node`);
  return [...files].sort();
}

/** What is wrong with a package's file list: dev files in it, required files missing from it. */
export function checkVsixFiles(files: readonly string[], required: readonly string[]): string[] {
  const problems: string[] = [];
  for (const f of files) {
    const rule = DEV_FILES.find((r) => r.re.test(f));
    if (rule) problems.push(`${f}: ${rule.what} (add it to .vscodeignore)`);
  }
  const have = new Set(files);
  for (const f of required) if (!have.has(f)) problems.push(`${f}: missing from the package`);
  return problems;
}

/**
 * Package folders (relative to the repo, e.g. `node_modules/sharp`) of `roots` and their dependencies, resolved
 * as Node does (a nested node_modules first, then each parent's). Missing optional or platform packages are skipped.
 */
export function dependencyClosure(repo: string, roots: readonly string[]): Set<string> {
  const found = new Set<string>();
  const visit = (name: string, from: string) => {
    const dir = resolvePackage(repo, name, from);
    if (!dir || found.has(dir)) return;
    found.add(dir);
    const pkg = readManifest(path.join(repo, dir, 'package.json'));
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep, dir);
  };
  for (const name of roots) visit(name, '');
  return found;
}

/** `.vscodeignore` lines dropping the production dependencies nothing loads at run time (bundled into dist/). */
export function bundledDependencyIgnores(repo: string): string[] {
  const pkg = readManifest(path.join(repo, 'package.json'));
  const runtime = dependencyClosure(repo, RUNTIME_ROOTS);
  const production = dependencyClosure(repo, Object.keys(pkg.dependencies ?? {}));
  return [...production]
    .filter((dir) => !runtime.has(dir))
    .sort()
    .map((dir) => `${dir}/**`);
}

/** The package's platform, as `vsce package --target` spells it (linux-x64, darwin-arm64, win32-x64, …). */
export const HOST_TARGET = `${process.platform}-${process.arch}`;

/**
 * onnxruntime-node ships its binaries for every platform (`bin/napi-vN/<os>/<arch>/`): the folders of `target`,
 * and the others (dropped from that target's package).
 */
export function onnxruntimeBinaries(repo: string, target: string): { kept: string[]; other: string[] } {
  const bin = 'node_modules/onnxruntime-node/bin';
  const kept: string[] = [];
  const other: string[] = [];
  const list = (dir: string) => (fs.existsSync(path.join(repo, dir)) ? fs.readdirSync(path.join(repo, dir)) : []);
  for (const napi of list(bin)) {
    for (const os of list(`${bin}/${napi}`)) {
      for (const arch of list(`${bin}/${napi}/${os}`)) (`${os}-${arch}` === target ? kept : other).push(`${bin}/${napi}/${os}/${arch}`);
    }
  }
  return { kept, other };
}

/** The ignore file `npm run package` hands to vsce: .vscodeignore, the bundled dependencies, other platforms' binaries. */
export function packageIgnoreFile(repo: string, target = HOST_TARGET): string {
  return `${fs.readFileSync(path.join(repo, '.vscodeignore'), 'utf8')}
# Added by scripts/vscode/package.ts: production dependencies bundled into dist/ by esbuild
${bundledDependencyIgnores(repo).join('\n')}
# Added by scripts/vscode/package.ts: onnxruntime-node binaries of platforms other than ${target}
${onnxruntimeBinaries(repo, target)
  .other.map((d) => `${d}/**`)
  .join('\n')}
`;
}

function resolvePackage(repo: string, name: string, from: string): string | undefined {
  for (let dir = from; ; dir = path.posix.dirname(dir)) {
    if (dir === '.') dir = '';
    const candidate = path.posix.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(repo, candidate, 'package.json'))) return candidate;
    if (dir === '') return undefined;
  }
}

function walk(dir: string, prefix = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
}
