// Gates that cannot fail are exit 2 naming file, line and key: in a --gates file and in ranklab.json.
import { unusable } from './cases';
import { type FuzzCase, fuzzTable } from './harness';

const GATES = 'gates.json';
const GATE = ['gate', '--candidate', 'title-boost-3', '--gates', GATES];

/** A --gates file holding `text`; `gate` exits 2 naming the line holding `needle` — before any config runs. */
function badGates(name: string, text: string | Buffer, needle: string | undefined, words: (string | RegExp)[] = [], argv = GATE): FuzzCase {
  return unusable(`--gates: ${name}`, (ws) => ws.write(GATES, text), argv, { file: GATES, needle, words });
}

/** ranklab.json gates replaced by `gates`; `gate` exits 2 naming the line in ranklab.json. */
function badWorkspaceGates(
  name: string,
  gates: unknown,
  needle: string,
  words: (string | RegExp)[] = [],
  argv = ['gate', '--candidate', 'title-boost-3'],
): FuzzCase {
  return unusable(`ranklab.json gates: ${name}`, (ws) => ws.settings((s) => (s.gates = gates)), argv, {
    file: 'ranklab.json',
    needle,
    words,
  });
}

const cases: FuzzCase[] = [
  badGates('typo "minimum"', '{\n  "minimum": { "ndcg@10": 0.5 }\n}\n', '"minimum"', ['minimum', '"min"']),
  badGates('a list', '[\n  { "min": { "ndcg@10": 0.5 } }\n]\n', undefined, [/object/]),
  badGates('a null threshold', '{\n  "min": {\n    "ndcg@10": null\n  }\n}\n', '"ndcg@10": null', ['min.ndcg@10', 'number']),
  badGates('a string threshold', '{\n  "min": {\n    "ndcg@10": "0.5"\n  }\n}\n', '"ndcg@10": "0.5"', ['min.ndcg@10']),
  badGates('a boolean threshold', '{\n  "maxRegression": {\n    "ndcg@10": true\n  }\n}\n', '"ndcg@10": true', ['maxRegression.ndcg@10']),
  badGates('an unknown metric', '{\n  "min": {\n    "ndgc@10": 0.5\n  }\n}\n', '"ndgc@10"', ['ndgc@10']),
  badGates('a metric without its cut-off', '{\n  "min": {\n    "p": 0.5\n  }\n}\n', '"p"', [/cut-off/]),
  badGates('a kind that is not an object', '{\n  "min": 0.5\n}\n', '"min"', ['min']),
  badGates('a kind that is a list', '{\n  "maxSliceRegression": [0.1]\n}\n', '"maxSliceRegression"', ['maxSliceRegression']),
  badGates('nothing declared ({})', '{}\n', undefined, [/no gates/]),
  badGates('only empty kinds', '{\n  "min": {},\n  "maxRegression": {}\n}\n', undefined, [/no gates/]),
  badGates('a duplicate key', '{\n  "min": { "ndcg@10": 0.5 },\n  "min": { "ndcg@10": 0.9 }\n}\n', '"min": { "ndcg@10": 0.9 }', [
    'duplicate',
  ]),
  badGates('JSON syntax error', '{\n  "min": { "ndcg@10": 0.5 \n}\n', undefined, [/expected|end of input/]),
  badGates('empty file', '', undefined, ['empty']),
  badGates('binary', Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70]), undefined, ['binary']),
  badGates('NaN written as text', '{\n  "min": {\n    "ndcg@10": NaN\n  }\n}\n', '"ndcg@10": NaN', []),
  unusable('--gates: missing file', undefined, GATE, { file: GATES, words: ['not found'] }),
  unusable('--gates: a folder', (ws) => ws.write(`${GATES}/x`, '{}'), GATE, { file: GATES, words: ['folder'] }),
  badGates(
    'through compare --fail-on-regression',
    '{\n  "minimum": { "ndcg@10": 0.5 }\n}\n',
    '"minimum"',
    ['minimum'],
    ['compare', '--baseline', 'baseline', '--candidate', 'title-boost-3', '--fail-on-regression', '--gates', GATES],
  ),
  badGates(
    'through compare without gating (a given file is still checked)',
    '{\n  "min": {\n    "ndcg@10": null\n  }\n}\n',
    '"ndcg@10": null',
    [],
    ['compare', '--baseline', 'baseline', '--candidate', 'title-boost-3', '--gates', GATES],
  ),
  badWorkspaceGates('a string threshold', { min: { 'ndcg@10': '0.65' } }, '"ndcg@10": "0.65"', ['gates.min.ndcg@10']),
  badWorkspaceGates('a null threshold', { min: { 'ndcg@10': null } }, '"ndcg@10": null', ['gates.min.ndcg@10']),
  badWorkspaceGates('an unknown kind', { minimum: { 'ndcg@10': 0.65 } }, '"minimum"', ['minimum']),
  badWorkspaceGates('an unknown metric', { min: { 'foo@10': 0.65 } }, '"foo@10"', ['foo@10']),
  badWorkspaceGates('a list', [{ min: { 'ndcg@10': 0.65 } }], '"gates"', ['gates']),
  badWorkspaceGates(
    'an unknown kind breaks eval too',
    { minimum: { 'ndcg@10': 0.65 } },
    '"minimum"',
    ['minimum'],
    ['eval', '-c', 'baseline'],
  ),
  unusable('gate: no gates at all', (ws) => ws.settings((s) => delete s.gates), ['gate', '--candidate', 'title-boost-3'], {
    file: 'ranklab.json',
    words: [/no gates/],
  }),
  unusable('gate: empty gates in ranklab.json', (ws) => ws.settings((s) => (s.gates = {})), ['gate', '--candidate', 'title-boost-3'], {
    file: 'ranklab.json',
    words: [/no gates/],
  }),
  unusable(
    'compare --fail-on-regression: no gates at all',
    (ws) => ws.settings((s) => delete s.gates),
    ['compare', '--baseline', 'baseline', '--candidate', 'title-boost-3', '--fail-on-regression'],
    { file: 'ranklab.json', words: [/no gates/] },
  ),
  {
    name: '--gates: BOM, comments and trailing commas are accepted; a met gate passes',
    setup: (ws) => ws.write(GATES, '\ufeff{\n  // floor\n  "min": { "ndcg@10": 0.5, },\n}\n'),
    argv: GATE,
    expect: { code: 0 },
  },
  {
    name: '--gates: a gate on a metric not in --metrics is still computed (it can fail)',
    setup: (ws) => ws.write(GATES, '{ "min": { "recall@100": 0.999 } }\n'),
    argv: [...GATE, '--metrics', 'mrr@10'],
    expect: { code: 1, stderr: ['recall@100'] },
  },
  {
    name: 'gate: the regressing config fails its gates (exit 1)',
    argv: ['gate', '--candidate', 'regressing'],
    expect: { code: 1, stderr: ['gate failed'] },
  },
];

fuzzTable('gates', cases);
