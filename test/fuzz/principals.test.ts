// Bad principals files: bad entries reported at their line (and skipped); an unusable file or an empty list is exit 2.
import { reportedAndStrict, unusable } from './cases';
import { type FuzzCase, type FuzzWorkspace, fuzzTable } from './harness';

const FILE = 'principals.json';
const ACL = ['check-acl', '-c', 'baseline', '--as', 'guest', '--no-prefixes'];
const HEADING = /principals: \d+ problems?/;

const entry = (json: string) => (ws: FuzzWorkspace) => ws.replace(FILE, '{ "name": "sari"', `${json},\n  { "name": "sari"`);

function badEntry(name: string, json: string, needle: string, words: string[], argv = ACL, code = 0): FuzzCase[] {
  return reportedAndStrict(`principals: ${name}`, entry(json), { file: FILE, needle, words }, { heading: HEADING, argv, code });
}

const cases: FuzzCase[] = [
  ...badEntry('an entry without a name', '{ "tenant": "x", "groups": [] }', '"tenant": "x"', ['name']),
  ...badEntry('an empty name', '{ "name": "", "groups": [] }', '"name": ""', ['name']),
  ...badEntry('groups as a string', '{ "name": "eka", "groups": "kitchen" }', '"eka"', ['groups']),
  ...badEntry('groups with a number', '{ "name": "eka", "groups": [1] }', '"eka"', ['groups']),
  ...badEntry('tenant as a number', '{ "name": "eka", "tenant": 7 }', '"eka"', ['tenant']),
  // The second "guest" entry was never checked, and check-acl was asked to check guest: not a pass (exit 1).
  ...badEntry('a name declared twice', '{ "name": "guest", "tenant": "x" }', '"tenant": "x"', ['twice'], ACL, 1),
  ...badEntry('an entry that is a string', '"eka"', '"eka"', ['name']),
  ...badEntry(
    'the same problem through eval --as',
    '{ "tenant": "x" }',
    '"tenant": "x"',
    ['name'],
    ['eval', '-c', 'baseline', '--as', 'guest'],
  ),
  ...badEntry('the same problem through search --as', '{ "tenant": "x" }', '"tenant": "x"', ['name'], ['search', '--as', 'guest', 'kopi']),
  unusable('principals: an empty list', (ws) => ws.write(FILE, '[]\n'), ['check-acl', '-c', 'baseline', '--no-prefixes'], {
    file: FILE,
    words: [/no principals|empty/],
  }),
  unusable(
    'principals: every entry invalid',
    (ws) => ws.write(FILE, '[\n  { "tenant": "x" }\n]\n'),
    ['check-acl', '-c', 'baseline', '--no-prefixes'],
    { file: FILE, needle: '"tenant": "x"', words: ['name'] },
  ),
  unusable('principals: JSON syntax error', (ws) => ws.replace(FILE, '{ "name": "sari"', '{ "name": "sari" "x": 1'), ACL, {
    file: FILE,
    needle: '"x": 1',
  }),
  unusable('principals: a number', (ws) => ws.write(FILE, '42\n'), ACL, { file: FILE, words: ['list'] }),
  unusable('principals: "principals" not a list', (ws) => ws.write(FILE, '{ "principals": 5 }\n'), ACL, {
    file: FILE,
    needle: '"principals"',
    words: ['list'],
  }),
  unusable('principals: binary', (ws) => ws.write(FILE, Buffer.from([0, 1, 2, 0xff, 0xfe, 0])), ACL, { file: FILE, words: ['binary'] }),
  unusable('principals: empty file', (ws) => ws.write(FILE, ''), ACL, { file: FILE, words: ['empty'] }),
  unusable('principals: missing file', (ws) => ws.remove(FILE), ACL, {
    file: 'ranklab.json',
    needle: '"principals"',
    words: ['not found'],
  }),
  unusable('principals: --principals names a missing file', undefined, [...ACL, '--principals', 'people.json'], {
    file: 'people.json',
    words: ['not found'],
  }),
  unusable('principals: --principals names a folder', undefined, [...ACL, '--principals', 'configs'], {
    file: 'configs',
    words: ['folder'],
  }),
  unusable('principals: --as names nobody', undefined, ['eval', '-c', 'baseline', '--as', 'nobody'], { file: FILE, words: ['nobody'] }),
  unusable('principals: --as names nobody in search', undefined, ['search', '--as', 'nobody', 'kopi'], { file: FILE, words: ['nobody'] }),
  unusable('principals: --as names nobody in check-acl', undefined, ['check-acl', '-c', 'baseline', '--as', 'nobody', '--no-prefixes'], {
    file: FILE,
    words: ['nobody'],
  }),
  {
    name: 'principals: comments and a BOM are fine',
    setup: (ws) => ws.write(FILE, '\ufeff// who is who\n' + ws.read(FILE)),
    argv: [...ACL, '--strict'],
    expect: { code: 0, notStderr: [HEADING] },
  },
];

fuzzTable('principals', cases);
