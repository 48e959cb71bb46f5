// The numeric flags of `ranklab pool`, `ranklab judge` and `ranklab agreement` are read as every other command's
// (cli/args.ts intFlag: plain decimal digits, a safe integer, a minimum): `1e3`, `2.5` and words are exit 2 naming
// the flag, where these commands once took them as numbers (a word as 0). Through the built binary, on a copy of the example.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ranklab } from '../../helpers/cli';
import { copyOfExample } from '../../helpers/workspace';

const example = copyOfExample();

test('an integer flag given 1e3, 2.5, a word or 0 (below its minimum) is exit 2 naming the flag and the value', () => {
  const cases: string[][] = [
    ['pool', '--depth', '1e3'],
    ['pool', '--max', '2.5'],
    ['pool', '--depth', '0'],
    ['judge', '--llm', '--max-failures', '1e3'],
    ['agreement', '--max-conflicts', '1e3'],
    ['agreement', '--max-conflicts', 'ten'],
    ['agreement', '--relevance-threshold', '2.5'],
  ];
  for (const args of cases) {
    const r = ranklab([...args, '--workspace', example]);
    const [flag, value] = args.slice(-2);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.ok(r.stderr.includes(`${flag}: must be an integer >= `) && r.stderr.includes(`"${value}"`), `${args.join(' ')}: ${r.stderr}`);
  }
});

test('the same flags given plain integers are taken', () => {
  const pool = ranklab(['pool', '--workspace', example, '--config', 'baseline', '--depth', '3', '--max', '2', '--format', 'json']);
  assert.equal(pool.code, 0, pool.stderr);
  const out = JSON.parse(pool.stdout);
  assert.equal(out.depth, 3);
  assert.equal(out.pairs.length, 2);
  const agreement = ranklab(['agreement', '--workspace', example, '--max-conflicts', '0']);
  assert.equal(agreement.code, 0, agreement.stderr);
});
