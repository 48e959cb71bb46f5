// The CLI's one error path: user errors are exit 2 with file:line: error: key: reason (hint); a bug is exit 3 with its stack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import { InputError, formatDiagnostic } from '../../../src/core/util/diagnostics';
import { tempDir } from '../../helpers/workspace';

function capture() {
  const io = {
    stdout: '',
    stderr: '',
    out(t: string) {
      io.stdout += t;
    },
    err(t: string) {
      io.stderr += t;
    },
  };
  return io;
}

test('an InputError is printed as file:line: error: key: reason (hint), exit 2', async () => {
  const dir = tempDir();
  const gates = join(dir, 'gates.json');
  writeFileSync(gates, '{\n  "min": {\n    "ndcg@10": null\n  }\n}\n');
  const io = capture();
  const code = await main(
    ['gate', '--workspace', join(__dirname, '../../../examples/food-search'), '--candidate', 'baseline', '--gates', gates],
    io,
  );
  assert.equal(code, 2);
  assert.equal(io.stderr.trim(), `${gates}:3: error: min.ndcg@10: the threshold must be a number, not null`);
});

test('an error that is not the user\'s is exit 3, "internal error", with the stack', async () => {
  const io = capture();
  io.out = () => {
    throw new TypeError('boom');
  };
  const code = await main(['eval', '--help'], io);
  assert.equal(code, 3);
  assert.match(io.stderr, /internal error/);
  assert.match(io.stderr, /TypeError: boom\n\s+at /);
});

test('a name every object inherits ("constructor", "toString") is an unknown command, not a bug; help on it is the general help', async () => {
  for (const name of ['constructor', 'toString', '__proto__']) {
    const io = capture();
    assert.equal(await main([name], io), 2, name);
    assert.match(io.stderr, new RegExp(`^ranklab: unknown command "${name}" \\(commands: `), name);
  }
  const general = capture();
  await main(['help'], general);
  const io = capture();
  assert.equal(await main(['help', 'toString'], io), 0);
  assert.equal(io.stdout, general.stdout);
});

test("a file-system error naming a path is the user's machine, not a bug: exit 2 naming the path", async () => {
  const io = capture();
  io.out = () => {
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
      syscall: 'write',
      path: '/full/disk/out.txt',
    });
  };
  assert.equal(await main(['eval', '--help'], io), 2);
  assert.equal(io.stderr.trim(), '/full/disk/out.txt: error: cannot write it: ENOSPC');
});

test('InputError: the message carries the location for callers that only show a message', () => {
  const e = new InputError('must be a number', [], { file: 'gates.json', line: 3, key: 'min.ndcg@10', hint: 'e.g. 0.65' });
  assert.equal(e.message, 'gates.json:3: min.ndcg@10: must be a number (e.g. 0.65)');
  assert.equal(e.reason, 'must be a number');
  assert.equal(formatDiagnostic(e.toDiagnostic()), 'gates.json:3: error: min.ndcg@10: must be a number (e.g. 0.65)');
  assert.equal(new InputError('no gates').message, 'no gates');
});
