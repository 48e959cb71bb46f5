// npm run bench:logs [-- --lines N]
// From logs to labels at log scale: a generated query log of N lines (default 100,000: Zipf-like queries from
// people, planted personal data, bot sessions, garbled lines; test/helpers/query-logs.ts) read, cleaned and sampled
// by each scheme, as `ranklab queries sample` does; and N logged result lists with position-based clicks graded by
// COEC, as `ranklab judgments from-clicks` does (reading the JSONL, the model). Prints milliseconds (median of 3).
import { cpus } from 'node:os';
import { readImpressions } from '../src/core/judging/click-log';
import { coecGrades } from '../src/core/judging/clicks';
import { DEFAULT_BOT_RULES } from '../src/core/judging/bots';
import { BUILT_IN_PII } from '../src/core/judging/personal-data';
import { readQueryLog } from '../src/core/judging/query-log';
import { cleanQueries, goldenSetText, sampleQueries } from '../src/core/judging/query-sample';
import { createRng } from '../src/core/util/random';
import { generateLog, simulateClicks } from '../test/helpers/query-logs';

const arg = process.argv.indexOf('--lines');
const lines = arg > 0 ? Number(process.argv[arg + 1]) : 100_000;

function median(f: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    f();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[1]!;
}

const g = generateLog({ seed: 1, distinct: Math.max(100, Math.floor(lines / 5)), searches: lines });
const logText = g.lines.join('\n') + '\n';
let distinct = 0;
const read = median(() => void readQueryLog(logText, 'log.jsonl'));
const log = readQueryLog(logText, 'log.jsonl');
const clean = median(() => void (distinct = cleanQueries(log.records, { pii: BUILT_IN_PII, bots: DEFAULT_BOT_RULES }).queries.length));
const { queries } = cleanQueries(log.records, { pii: BUILT_IN_PII, bots: DEFAULT_BOT_RULES });
const sample = Object.fromEntries(
  (['uniform', 'stratified', 'pps'] as const).map((s) => [s, median(() => void goldenSetText(sampleQueries(queries, 500, s, 1)))]),
);

const rng = createRng(2);
const truth = Array.from({ length: Math.max(10, Math.floor(lines / 100)) }, (_, i) => ({
  text: `query ${i}`,
  docs: new Map(Array.from({ length: 10 }, (_, d) => [`q${i}-d${d}`, Math.floor(rng() * 4)])),
}));
const lists = simulateClicks(3, truth, lines, (docs, r) =>
  docs
    .map((d) => [d, r()] as const)
    .sort((a, b) => a[1] - b[1])
    .map((x) => x[0]),
);
const clickText = lists.map((l) => JSON.stringify({ query: l.query, results: l.results, clicks: [...l.clicks] })).join('\n') + '\n';
const readClicks = median(() => void readImpressions(clickText, 'clicks.jsonl'));
const { impressions } = readImpressions(clickText, 'clicks.jsonl');
let graded = 0;
const model = median(() => void (graded = coecGrades(impressions).grades.length));

const mb = (s: string) => (Buffer.byteLength(s) / 1e6).toFixed(1);
const ms = (x: number) => `${x.toFixed(0)} ms`;
console.log(`machine: ${cpus()[0]?.model ?? 'unknown'} x${cpus().length}, node ${process.version}`);
console.log(`queries sample: ${g.lines.length} lines (${mb(logText)} MB), ${distinct} distinct queries after cleaning`);
console.log(
  `  read ${ms(read)}, clean (personal data, bots, normalise, merge) ${ms(clean)}, sample 500: uniform ${ms(sample.uniform!)}, stratified ${ms(sample.stratified!)}, pps ${ms(sample.pps!)}`,
);
console.log(`  total (read + clean + stratified) ${ms(read + clean + sample.stratified!)}`);
console.log(`judgments from-clicks: ${lists.length} result lists of 10 (${mb(clickText)} MB), ${graded} pairs graded`);
console.log(`  read ${ms(readClicks)}, COEC ${ms(model)}, total ${ms(readClicks + model)}`);
