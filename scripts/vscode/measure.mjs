// `npm run measure:extension`: activation time of the extension in a real VS Code (code-server; read back from
// the "Ranklab" output channel the extension writes on activation) and the size of the packaged .vsix.
// Prints figures; asserts nothing. Needs the harness (scripts/vscode/install.sh).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, copyWorkspace, makeRunDir, launchVSCode } from '../../test/e2e/driver.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const runs = Number(process.env.RUNS || 3);

function findLogs(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) findLogs(p, out);
    else if (/Ranklab\.log$/.test(e.name)) out.push(p);
  }
  return out;
}

execFileSync('node', ['scripts/build.mjs', '--production'], { cwd: REPO, stdio: 'inherit' });
const times = [];
for (let i = 0; i < runs; i++) {
  const runDir = makeRunDir('measure');
  const workspace = copyWorkspace(path.join(REPO, 'examples/food-search'), runDir);
  const vs = await launchVSCode({ name: 'measure', runDir, workspace, extensionDevelopmentPath: REPO });
  try {
    let ms;
    for (let t = 0; t < 120 && ms === undefined; t++) {
      for (const f of findLogs(path.join(runDir, 'user-data', 'logs'))) {
        const m = fs.readFileSync(f, 'utf8').match(/activated in ([\d.]+) ms/);
        if (m) ms = Number(m[1]);
      }
      if (ms === undefined) await sleep(500);
    }
    if (ms === undefined) throw new Error('no activation line in the Ranklab output channel log');
    times.push(ms);
    console.log(`run ${i + 1}: activate() took ${ms.toFixed(1)} ms`);
  } finally {
    await vs.close();
  }
}
times.sort((a, b) => a - b);
if (times.length)
  console.log(
    `activation: median ${times[Math.floor(times.length / 2)].toFixed(1)} ms over ${times.length} runs (min ${times[0].toFixed(1)}, max ${times.at(-1).toFixed(1)})`,
  );

const vsix = path.join(REPO, '.vscode-test', 'ranklab.vsix');
// The package users get (`npm run package`: platform target, bundled dependencies left out, contents checked).
execFileSync(process.execPath, ['--import', 'tsx', 'scripts/vscode/package.ts', '--out', vsix], {
  cwd: REPO,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const size = fs.statSync(vsix).size;
console.log(`vsix: ${(size / 1048576).toFixed(1)} MB (${size} bytes) at ${path.relative(REPO, vsix)}`);
// What the large parts weigh inside the package (uncompressed), from the zip listing.
const listing = execFileSync('unzip', ['-l', vsix], { encoding: 'utf8', maxBuffer: 64 << 20 });
const groups = new Map();
let files = 0;
for (const line of listing.split('\n')) {
  const m = line.match(/^\s*(\d+)\s+\S+\s+\S+\s+extension\/(.+)$/);
  if (!m) continue;
  files++;
  const parts = m[2].split('/');
  const key = parts[0] === 'node_modules' ? `node_modules/${parts[1].startsWith('@') ? parts[1] + '/' + parts[2] : parts[1]}` : parts[0];
  groups.set(key, (groups.get(key) ?? 0) + Number(m[1]));
}
console.log(`vsix: ${files} files; largest parts (uncompressed):`);
for (const [k, v] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 12))
  console.log(`  ${(v / 1048576).toFixed(1).padStart(7)} MB  ${k}`);
execFileSync('node', ['scripts/build.mjs'], { cwd: REPO, stdio: 'inherit' });
