// Rewrites the metric table between the markers of docs/metrics.md and docs/formats.md from the metric registry.
// `npm run docs:metrics`; `--check` only reports whether the files are current (exit 1 if not).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { withMetricTable } from '../src/core/metrics/docs';
import { writeFileAtomic } from '../src/core/util/atomic-write';

const root = resolve(__dirname, '..');
const check = process.argv.includes('--check');
let stale = 0;
for (const file of ['docs/metrics.md', 'docs/formats.md']) {
  const path = resolve(root, file);
  const text = readFileSync(path, 'utf8');
  const next = withMetricTable(text);
  if (next === undefined) {
    console.error(`${file}: metric table markers not found`);
    process.exitCode = 2;
    continue;
  }
  if (next === text) continue;
  stale++;
  if (check) console.error(`${file}: metric table is out of date (run npm run docs:metrics)`);
  else {
    writeFileAtomic(path, next);
    console.log(`${file}: metric table rewritten`);
  }
}
if (check && stale) process.exitCode = 1;
