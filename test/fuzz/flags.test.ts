// Bad command-line flags: exit 2 naming the flag, before anything is loaded or run.
import { unusable, alsoThroughBinary } from './cases';
import { type FuzzCase, fuzzTable } from './harness';

function badFlag(name: string, argv: string[], words: (string | RegExp)[]): FuzzCase {
  const flag = words.find((w): w is string => typeof w === 'string') ?? argv[0];
  return unusable(`flags: ${name}`, undefined, argv, { file: flag, words });
}

const COMPARE = ['compare', '--baseline', 'baseline', '--candidate', 'title-boost-3'];

const cases: FuzzCase[] = [
  badFlag('--max-queries abc', [...COMPARE, '--max-queries', 'abc'], ['--max-queries', 'abc']),
  badFlag('--max-queries -1', [...COMPARE, '--max-queries', '-1'], ['--max-queries']),
  badFlag('--max-queries 1.5', [...COMPARE, '--max-queries', '1.5'], ['--max-queries']),
  badFlag('--max-queries empty', [...COMPARE, '--max-queries', ''], ['--max-queries']),
  badFlag('--max-queries 1e3', [...COMPARE, '--max-queries', '1e3'], ['--max-queries']),
  badFlag('--page-size abc', ['search', '--page-size', 'abc', 'kopi'], ['--page-size']),
  badFlag('--page-size 0', ['search', '--page-size', '0', 'kopi'], ['--page-size']),
  badFlag('--page-size 0x10', ['search', '--page-size', '0x10', 'kopi'], ['--page-size']),
  badFlag('--page-size huge', ['search', '--page-size', '99999999999999999999', 'kopi'], ['--page-size']),
  badFlag('--limit x', ['suggest', '--limit', 'x', 'kop'], ['--limit']),
  badFlag('--limit -3', ['suggest', '--limit', '-3', 'kop'], ['--limit']),
  badFlag('--relevance-threshold abc', ['eval', '-c', 'baseline', '--relevance-threshold', 'abc'], ['--relevance-threshold']),
  badFlag('--relevance-threshold -1', ['eval', '-c', 'baseline', '--relevance-threshold', '-1'], ['--relevance-threshold']),
  badFlag('--relevance-threshold 1.5', ['eval', '-c', 'baseline', '--relevance-threshold', '1.5'], ['--relevance-threshold']),
  badFlag('--relevance-threshold " "', ['eval', '-c', 'baseline', '--relevance-threshold', ' '], ['--relevance-threshold']),
  badFlag('--gain log', ['eval', '-c', 'baseline', '--gain', 'log'], ['--gain']),
  badFlag('--format xml', ['eval', '-c', 'baseline', '--format', 'xml'], ['--format']),
  badFlag('--format junit on eval', ['eval', '-c', 'baseline', '--format', 'junit'], ['--format']),
  badFlag('--split test', ['eval', '-c', 'baseline', '--split', 'test'], ['--split']),
  badFlag('--metrics foo@10', ['eval', '-c', 'baseline', '--metrics', 'foo@10'], ['--metrics', 'foo@10']),
  badFlag('--metrics empty', ['eval', '-c', 'baseline', '--metrics', ''], ['--metrics']),
  badFlag('--metrics ndcg@0', ['eval', '-c', 'baseline', '--metrics', 'ndcg@0'], ['--metrics']),
  badFlag('--metrics p (no cut-off)', ['eval', '-c', 'baseline', '--metrics', 'p'], ['--metrics', /cut-off/]),
  badFlag(
    'sweep: --vary naming no setting',
    ['sweep', '-c', 'baseline', '--vary', 'lexical.boosts.title=1..5:0.5'],
    ['--vary', /did you mean lexical\.fields\.title/],
  ),
  badFlag('sweep: --vary with an empty range', ['sweep', '-c', 'baseline', '--vary', 'hybrid.k=9..1:1'], ['--vary', /empty/]),
  badFlag('sweep: --vary without =', ['sweep', '-c', 'baseline', '--vary', 'lexical.fields.title'], ['--vary']),
  badFlag('sweep: --vary step 0', ['sweep', '-c', 'baseline', '--vary', 'lexical.fields.title=1..2:0'], ['--vary']),
  badFlag('sweep without --vary', ['sweep', '-c', 'baseline'], ['--vary']),
  badFlag('sweep without --config', ['sweep', '--vary', 'lexical.fields.title=1,2'], ['--config']),
  badFlag(
    'sweep: --search random without N',
    ['sweep', '-c', 'baseline', '--vary', 'lexical.fields.title=1,2', '--search', 'random:0'],
    ['--search'],
  ),
  badFlag('sweep: --folds 1', ['sweep', '-c', 'baseline', '--vary', 'lexical.fields.title=1,2', '--folds', '1'], ['--folds']),
  badFlag(
    'sweep: --write-best not a .rank.json',
    ['sweep', '-c', 'baseline', '--vary', 'lexical.fields.title=1,2', '--write-best', 'best.json'],
    ['--write-best'],
  ),
  badFlag('an unknown flag', ['eval', '--frobnicate'], ['--frobnicate']),
  badFlag('a flag without its value', ['eval', '--config'], ['--config']),
  badFlag('an unexpected argument to eval', ['eval', '-c', 'baseline', 'extra'], ['extra']),
  badFlag('an unexpected argument to compare', [...COMPARE, 'extra'], ['extra']),
  badFlag('an unexpected argument to score', ['score', '--qrels', 'q', '--run', 'r', 'extra'], ['extra']),
  badFlag('an unexpected argument to check-acl', ['check-acl', 'extra'], ['extra']),
  badFlag('compare without --candidate', ['compare', '--baseline', 'baseline'], ['--candidate']),
  badFlag('gate without --candidate', ['gate'], ['--candidate']),
  badFlag('score without --run', ['score', '--qrels', 'judgments/golden.json'], ['--run']),
  badFlag('score without --qrels', ['score', '--run', 'x'], ['--qrels']),
  badFlag('search without a query', ['search'], ['query']),
  badFlag('search with a blank query', ['search', '   '], ['query']),
  badFlag('suggest without a prefix', ['suggest'], ['prefix']),
  badFlag('an unknown command', ['evaluate'], ['evaluate']),
  badFlag('explain without --config', ['explain', '--query', 'q02', '--doc', 'visit-toraja'], ['--config']),
  badFlag('explain without --query', ['explain', '--config', 'baseline', '--doc', 'visit-toraja'], ['--query']),
  badFlag('explain without --doc', ['explain', '--config', 'baseline', '--query', 'q02'], ['--doc']),
  badFlag('explain with a blank --query', ['explain', '--config', 'baseline', '--query', '  ', '--doc', 'visit-toraja'], ['--query']),
  badFlag(
    'explain --format markdown',
    ['explain', '--config', 'baseline', '--query', 'q02', '--doc', 'visit-toraja', '--format', 'markdown'],
    ['--format'],
  ),
  badFlag('explain an unknown document', ['explain', '--config', 'baseline', '--query', 'q02', '--doc', 'nope-doc'], ['--doc', 'nope-doc']),
  badFlag(
    'explain a mistyped query id',
    ['explain', '--config', 'baseline', '--query', 'q020', '--doc', 'visit-toraja'],
    ['--query', 'q020', 'did you mean'],
  ),
  badFlag(
    'explain an unknown --baseline',
    ['explain', '--config', 'baseline', '--baseline', 'nope', '--query', 'q02', '--doc', 'visit-toraja'],
    ['nope'],
  ),
  badFlag('--as with an empty name', ['eval', '-c', 'baseline', '--as', ''], ['--as']),
  badFlag('--config with an empty name', ['eval', '--config', ''], ['--config']),
  badFlag('--workspace empty', ['eval', '--workspace', ''], ['--workspace']),
  badFlag('init --format markdown', ['init', '--format', 'markdown'], ['--format']),
  badFlag('init with two folders', ['init', 'corpus', 'configs'], ['configs', 'one folder at most']),
  badFlag('init on a folder that does not exist', ['init', 'no-such-folder'], ['no-such-folder', 'folder not found']),
  badFlag('init where ranklab.json exists (never overwritten)', ['init'], ['ranklab.json', 'never overwrites']),
  badFlag('--candidate names neither a config nor a run', ['compare', '--baseline', 'baseline', '--candidate', 'nope'], ['nope']),
  {
    name: 'flags: no command at all prints the usage and exits 2',
    argv: [],
    expect: { code: 2, stdout: ['Usage'] },
  },
  {
    name: 'flags: --relevance-threshold 0 is legal, with a warning saying what it means',
    argv: ['eval', '-c', 'baseline', '--relevance-threshold', '0', '--no-save'],
    expect: { code: 0, stdout: ['grade ≥ 0'], stderr: ['warning: --relevance-threshold:', 'grade 0 ("not relevant") included'] },
  },
  {
    name: 'flags: --max-queries 3 limits the listed queries',
    argv: [...COMPARE, '--max-queries', '3'],
    expect: { code: 0 },
  },
  {
    name: 'flags: --help of every command exits 0',
    argv: ['eval', '--help'],
    expect: { code: 0, stdout: ['--strict'] },
  },
];

fuzzTable(
  'flags',
  alsoThroughBinary(cases, ['flags: --max-queries abc', 'flags: an unknown command', 'flags: an unknown flag', 'flags: --page-size 0x10']),
);
