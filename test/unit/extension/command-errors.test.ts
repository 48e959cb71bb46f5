// What a failed command shows in its error notification (src/extension/commands/errors.ts): never a stack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandErrorMessage } from '../../../src/extension/commands/errors';
import { InputError } from '../../../src/core/util/diagnostics';

test('an InputError is shown as it is: it names the file and line', () => {
  const e = new InputError('judgments/golden.json:12: grade "x" is not a number');
  assert.equal(commandErrorMessage(e), 'Ranklab: judgments/golden.json:12: grade "x" is not a number');
});

test('another error shows its message without the stack', () => {
  const e = new TypeError("Cannot read properties of undefined (reading 'docs')");
  assert.ok(e.stack?.includes('\n    at '), 'the control: a real error carries a stack');
  const shown = commandErrorMessage(e);
  assert.equal(shown, "Ranklab: Cannot read properties of undefined (reading 'docs')");
});

test('stack frames written into a message are dropped too; an empty message falls back to the error name', () => {
  const e = new Error('addon failed\n    at Object.<anonymous> (/x/hnswlib.js:1:1)\n    at Module._compile (node:internal)');
  assert.equal(commandErrorMessage(e), 'Ranklab: addon failed');
  assert.equal(commandErrorMessage(new RangeError('')), 'Ranklab: RangeError');
  assert.equal(commandErrorMessage('plain string'), 'Ranklab: plain string');
});

test('only the first line of a message is shown (an InputError listing related problems, a multi-line error)', () => {
  const e = new InputError('3 id(s) hold white space\ncorpus/a.jsonl:2: document id "a b"\ncorpus/a.jsonl:5: document id "c d"', [], {
    key: '--trec-run',
  });
  assert.equal(commandErrorMessage(e), 'Ranklab: --trec-run: 3 id(s) hold white space');
  assert.equal(commandErrorMessage(new Error('model not found\nsee https://example.org/help')), 'Ranklab: model not found');
});
