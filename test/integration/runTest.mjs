// Standard @vscode/test-electron entry point, unmodified runTests().
// - Where VS Code can be downloaded (RANKLAB_VSCODE=electron, or no code-server harness installed): downloads it as usual.
// - Here (offline): vscodeExecutablePath is test/integration/vscode-shim.mjs, a stand-in that starts code-server + Chromium.
// Exit code 0 only when every in-host mocha test passed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const shim = path.join(here, 'vscode-shim.mjs');
const codeServer = path.join(root, '.vscode-test/code-server/node_modules/.bin/code-server');
const useShim = process.env.RANKLAB_VSCODE !== 'electron' && fs.existsSync(codeServer);
const vscodeExecutablePath = process.env.VSCODE_EXECUTABLE || (useShim ? shim : undefined);

// A throwaway copy of the fixture workspace (tests write files into it).
const fixture = process.env.RANKLAB_INTEGRATION_WORKSPACE || path.join(root, 'test/fixtures/vscode-workspace');
const wsRoot = fs.mkdtempSync(path.join(root, '.vscode-test', 'ws-integration-'));
const workspace = path.join(wsRoot, path.basename(fixture));
fs.cpSync(fixture, workspace, { recursive: true });

try {
  await runTests({
    vscodeExecutablePath,
    version: '1.100.3',
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(root, 'out/test/integration/index.js'),
    launchArgs: [workspace, '--disable-extensions'],
    extensionTestsEnv: { RANKLAB_TEST_RESULT: process.env.RANKLAB_TEST_RESULT || path.join(wsRoot, 'result.json') },
  });
  console.log(`runTests: OK (${vscodeExecutablePath ? `executable ${path.relative(root, vscodeExecutablePath)}` : 'downloaded VS Code'})`);
} catch (e) {
  console.error('runTests: FAILED', e?.message ?? e);
  process.exitCode = 1;
} finally {
  fs.rmSync(wsRoot, { recursive: true, force: true });
}
