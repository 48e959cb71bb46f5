// Entry loaded by VS Code's extension host via extensionTestsPath (the @vscode/test-electron contract):
// export run(): Promise<void>; it resolves when all suites pass and rejects otherwise.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60000, reporter: 'spec' });
  const suiteDir = path.join(__dirname, 'suite');
  for (const f of fs
    .readdirSync(suiteDir)
    .filter((n) => n.endsWith('.test.js'))
    .sort())
    mocha.addFile(path.join(suiteDir, f));
  const resultFile = process.env.RANKLAB_TEST_RESULT;
  const result = { passes: [] as string[], failures: [] as { title: string; error: string }[] };
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      if (resultFile) fs.writeFileSync(resultFile, JSON.stringify(result, null, 2));
      console.log(`RANKLAB-INTEGRATION-DONE failures=${failures} passes=${result.passes.length}`);
      if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
      else resolve();
    });
    runner.on('pass', (t) => result.passes.push(t.fullTitle()));
    runner.on('fail', (t, err) => result.failures.push({ title: t.fullTitle(), error: String((err as Error)?.message ?? err) }));
  });
}
