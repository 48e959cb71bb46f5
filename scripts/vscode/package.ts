// `npm run package [-- --out <file>]`: the .vsix for this machine's platform (`vsce package --target`), by default
// .vscode-test/ranklab.vsix (the folder is created). vsce runs `vscode:prepublish` (the production build) first.
// The ignore file given to vsce is .vscodeignore plus the production dependencies esbuild bundled into dist/ and
// onnxruntime-node's binaries of the other platforms (scripts/vscode/vsix-files.ts). The package is then read back
// and refused (exit 1, file removed) when it holds a development file or lacks a file the extension runs: see
// DEV_FILES and requiredFiles() there.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { HOST_TARGET, checkVsixFiles, packageIgnoreFile, requiredFiles } from './vsix-files';

const REPO = path.resolve(__dirname, '../..');
const outArg = process.argv.indexOf('--out');
const out = path.resolve(REPO, outArg >= 0 && process.argv[outArg + 1] ? process.argv[outArg + 1] : '.vscode-test/ranklab.vsix');
const target = HOST_TARGET;

fs.mkdirSync(path.dirname(out), { recursive: true });
fs.rmSync(out, { force: true });
const ignoreFile = `${out}.vscodeignore`;
fs.writeFileSync(ignoreFile, packageIgnoreFile(REPO, target));

const vsce = path.join(REPO, 'node_modules/@vscode/vsce/vsce');
const run = spawnSync(
  process.execPath,
  [vsce, 'package', '--target', target, '--allow-missing-repository', '--skip-license', '--ignoreFile', ignoreFile, '-o', out],
  { cwd: REPO, stdio: 'inherit' },
);
if (run.status !== 0) {
  console.error(`package: vsce package failed (exit ${run.status ?? run.signal})`);
  process.exit(1);
}

// The zip's own listing: what users install, not what vsce meant to put in.
const files = execFileSync('unzip', ['-Z1', out], { encoding: 'utf8', maxBuffer: 64 << 20 })
  .split('\n')
  .filter((l) => l.startsWith('extension/') && !l.endsWith('/'))
  .map((l) => l.slice('extension/'.length));
const problems = checkVsixFiles(files, requiredFiles(REPO, target));
if (problems.length) {
  fs.rmSync(out, { force: true });
  console.error(`package: ${path.relative(REPO, out)} refused, ${problems.length} problem(s):\n  ${problems.slice(0, 50).join('\n  ')}`);
  process.exit(1);
}
const mb = (fs.statSync(out).size / 1048576).toFixed(1);
console.log(`package: ${path.relative(REPO, out)} (${target}): ${mb} MB, ${files.length} files; no dev file, every runtime file present`);
