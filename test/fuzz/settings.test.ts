// Bad ranklab.json: an error is exit 2 naming ranklab.json, its line and the key (a wrong value is never
// silently replaced by a default in the CLI); an unknown key is a warning at its line.
import { EVAL, unusable } from './cases';
import { type FuzzCase, type FuzzWorkspace, at, fuzzTable } from './harness';

const FILE = 'ranklab.json';

/** ranklab.json edited through its parsed value; eval exits 2 naming the line holding `needle`. */
function badSetting(
  name: string,
  edit: (s: any) => void,
  needle: string | undefined,
  words: (string | RegExp)[] = [],
  argv = EVAL,
): FuzzCase {
  return unusable(`ranklab.json: ${name}`, (ws) => ws.settings(edit), argv, { file: FILE, needle, words });
}

function badText(
  name: string,
  text: (original: string) => string | Buffer,
  needle: string | undefined,
  words: (string | RegExp)[] = [],
): FuzzCase {
  return unusable(`ranklab.json: ${name}`, (ws) => ws.write(FILE, text(ws.read(FILE))), EVAL, { file: FILE, needle, words });
}

const cases: FuzzCase[] = [
  badText('JSON syntax error', (t) => t.replace('"baseline": "baseline",', '"baseline": "baseline"'), '"metrics"', [/expected/]),
  badText(
    'duplicate key',
    (t) => t.replace('"baseline": "baseline",', '"baseline": "baseline",\n  "baseline": "title-boost-3",'),
    '"baseline": "title-boost-3"',
    ['duplicate', 'baseline'],
  ),
  badText('empty file', () => '', undefined, [/empty|end of input/]),
  badText('binary file', () => Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), undefined, ['binary']),
  badText('a list', () => '[]\n', undefined, [/object/]),
  badText('a string', () => '"corpus"\n', undefined, [/object/]),
  unusable(
    'ranklab.json: a folder',
    (ws) => {
      ws.remove(FILE);
      ws.write(`${FILE}/x`, '{}');
    },
    EVAL,
    { file: FILE },
  ),
  // Reported as the setting it is, at its line; not as a bad --relevance-threshold flag (nobody passed one).
  unusable(
    'ranklab.json: relevanceThreshold -1',
    (ws) => ws.settings((s) => (s.relevanceThreshold = -1)),
    EVAL,
    { file: FILE, needle: '"relevanceThreshold"', words: ['relevanceThreshold'] },
    { notStderr: ['--relevance-threshold'] },
  ),
  badSetting('relevanceThreshold 1.5', (s) => (s.relevanceThreshold = 1.5), '"relevanceThreshold"', ['relevanceThreshold']),
  badSetting('relevanceThreshold "1"', (s) => (s.relevanceThreshold = '1'), '"relevanceThreshold"', ['relevanceThreshold']),
  badSetting('gain "log"', (s) => (s.gain = 'log'), '"gain"', ['gain']),
  badSetting('metrics with an unknown metric', (s) => (s.metrics = ['ndcg@10', 'foo@10']), '"foo@10"', ['foo@10']),
  badSetting('metrics with a bad cut-off', (s) => (s.metrics = ['ndcg@x']), '"ndcg@x"', ['ndcg@x']),
  badSetting('metrics with a metric lacking its cut-off', (s) => (s.metrics = ['p']), '"p"', [/cut-off/]),
  badSetting('metrics as a string', (s) => (s.metrics = 'ndcg@10'), '"metrics"', ['metrics']),
  badSetting('corpus.maxFileBytes 0', (s) => (s.corpus.maxFileBytes = 0), '"maxFileBytes"', ['maxFileBytes']),
  badSetting('corpus.maxFileBytes "big"', (s) => (s.corpus.maxFileBytes = 'big'), '"maxFileBytes"', ['maxFileBytes']),
  badSetting('corpus.include a number', (s) => (s.corpus.include = 5), '"include"', ['include']),
  badSetting('corpus.fields.id empty', (s) => (s.corpus.fields.id = ''), '"id": ""', ['id']),
  {
    name: 'ranklab.json: an unknown key in corpus.fields is a warning at its line ("did you mean")',
    setup: (ws) => ws.settings((s) => (s.corpus.fields.titel = 'x')),
    argv: ['search', 'kopi', '--strict'],
    expect: { code: 0, stderr: (ws: FuzzWorkspace) => [at(FILE, ws.lineOf(FILE, '"titel"')), 'warning', 'did you mean "title"'] },
  },
  badSetting('judgments a number', (s) => (s.judgments = 5), '"judgments"', ['judgments']),
  badSetting('judgments an empty list', (s) => (s.judgments = []), '"judgments"', ['judgments']),
  badSetting('judgments an object with an unknown key', (s) => (s.judgments = [{ gold: 'judgments/golden.json' }]), '"gold"', ['gold']),
  badSetting('judgments naming a missing file', (s) => (s.judgments = ['judgments/nope.json']), 'judgments/nope.json', ['not found']),
  badSetting('configs glob matching nothing', (s) => (s.configs = 'cfg/*.rank.json'), '"configs"', ['configs', 'cfg/*.rank.json']),
  badSetting('acl.missingAcl "maybe"', (s) => (s.acl.missingAcl = 'maybe'), '"missingAcl"', ['missingAcl']),
  badSetting('acl.principals naming a missing file', (s) => (s.acl.principals = 'people.json'), '"principals"', ['people.json']),
  badSetting('acl.rule with an unknown operator', (s) => (s.acl.rule = { either: [] }), '"either"', ['either', 'denies everything']),
  badSetting('acl.fields.tenant a number', (s) => (s.acl.fields.tenant = 3), '"tenant": 3', ['tenant']),
  badSetting(
    'baseline naming no config (compare)',
    (s) => (s.baseline = 'basline'),
    '"basline"',
    ['basline'],
    ['compare', '--candidate', 'title-boost-3'],
  ),
  {
    name: 'ranklab.json: relevanceThreshold 0 is legal (every judged document counts as relevant, as trec_eval -l 0), with a warning at its line saying so',
    setup: (ws) => ws.settings((s) => (s.relevanceThreshold = 0)),
    argv: [...EVAL, '--strict', '--format', 'json'],
    expect: {
      code: 0,
      notStderr: ['--relevance-threshold'],
      stdout: ['"ndcg@10"'],
      stderr: (ws: FuzzWorkspace) => [
        at(FILE, ws.lineOf(FILE, '"relevanceThreshold"')),
        'warning: relevanceThreshold',
        'grade 0 ("not relevant") included',
      ],
    },
  },
  {
    name: 'ranklab.json: an unknown top-level key is a warning at its line',
    setup: (ws) => ws.settings((s) => (s.metrcs = ['mrr'])),
    argv: ['search', 'kopi'],
    expect: {
      code: 0,
      stderr: (ws: FuzzWorkspace) => [at(FILE, ws.lineOf(FILE, '"metrcs"')), 'metrcs', 'metrics', /ranklab\.json: 1 problem/],
    },
  },
  {
    // --strict stops on errors; an unknown key is a warning (it cannot change a result, only fail to).
    name: 'ranklab.json: an unknown top-level key under --strict is still a warning',
    setup: (ws) => ws.settings((s) => (s.metrcs = ['mrr'])),
    argv: ['search', 'kopi', '--strict'],
    expect: { code: 0, stderr: (ws: FuzzWorkspace) => [at(FILE, ws.lineOf(FILE, '"metrcs"')), 'warning'] },
  },
  {
    name: 'ranklab.json: comments, trailing commas and a BOM are fine',
    setup: (ws) =>
      ws.write(
        FILE,
        '\ufeff// the example\n' +
          ws
            .read(FILE)
            .replace('"gain": "exp",', '"gain": "exp", /* default */')
            .replace('"missingAcl": "public"\n  }', '"missingAcl": "public",\n  },'),
      ),
    argv: [...EVAL, '--strict'],
    expect: { code: 0 },
  },
  unusable('workspace: --workspace names a missing folder', undefined, ['eval', '--workspace', 'no/such/dir'], { file: 'no/such/dir' }),
  unusable('workspace: --workspace names a file', undefined, ['eval', '--workspace', 'ranklab.json'], {
    file: 'ranklab.json',
    words: ['folder'],
  }),
  unusable('workspace: a folder that is no workspace', undefined, ['eval', '--workspace', 'configs'], {
    file: 'configs',
    words: ['ranklab.json'],
  }),
];

fuzzTable('ranklab.json', cases);
