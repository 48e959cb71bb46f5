#!/usr/bin/env node
// Stand-in for the VS Code executable, so that @vscode/test-electron's runTests({ vscodeExecutablePath }) works
// offline: it maps the Electron CLI onto code-server + headless Chromium (test/e2e/driver.mjs) and exits with
// the extension tests' exit code, as VS Code would. Other Electron flags are ignored.
import fs from 'node:fs';
import path from 'node:path';
import { launchVSCode, log } from '../e2e/driver.mjs';

const dev = [];
let testsPath;
let workspace;
for (const a of process.argv.slice(2)) {
  const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : undefined;
  if (a.startsWith('--extensionDevelopmentPath=')) dev.push(v);
  else if (a.startsWith('--extensionTestsPath=')) testsPath = v;
  else if (!a.startsWith('-') && !workspace) workspace = a;
}
if (!testsPath || dev.length !== 1 || !workspace) {
  console.error('vscode-shim: need --extensionTestsPath, exactly one --extensionDevelopmentPath and a folder to open');
  process.exit(2);
}
const timeoutMs = Number(process.env.RANKLAB_TEST_TIMEOUT_MS || 240000);
let code = 1;
const vs = await launchVSCode({
  name: 'integration',
  workspace: path.resolve(workspace),
  extensionDevelopmentPath: dev[0],
  extensionTestsPath: testsPath,
});
try {
  code = await Promise.race([
    vs.testsExit,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`extension tests did not finish within ${timeoutMs} ms`)), timeoutMs)),
  ]);
  log(`extension tests exit code ${code}`);
} catch (e) {
  log(`FAIL: ${e.message}`);
  await vs.screenshot('integration-failure').catch(() => {});
} finally {
  fs.writeFileSync(path.join(vs.runDir, 'ext-host-output.txt'), vs.hostLog.join('\n') + '\n');
  await vs.close();
}
process.exit(code === 0 ? 0 : 1);
