/**
 * How many queries a sample needs to detect a change: the `compare` MDE (experiment/stats/power.ts) turned around,
 * from a pilot's per-query spread. The pilot is the JSON of
 * - `ranklab compare --format json` (per query, baseline/candidate/delta): s_d is the standard deviation of the
 *   deltas, exactly what compare's MDE uses; or
 * - `ranklab score` / `ranklab eval --format json` (per query, the metric's value): one run has no deltas, so
 *   s_d is taken as √2 · s (s the values' standard deviation): the spread of the difference of two independent
 *   runs. Runs of one system under a small change are positively correlated, so this over-estimates s_d and the
 *   answer errs on the side of more queries.
 */
import { sampleStdDev } from '../experiment/stats/descriptive';
import { queriesToDetect } from '../experiment/stats/power';
import { InputError } from '../util/diagnostics';
import { readUserText } from '../util/text-file';

export interface QueriesNeeded {
  metric: string;
  source: 'deltas' | 'one run';
  pilotQueries: number;
  sdOfDifferences: number;
  effect: number;
  power: number;
  alpha: number;
  /** Infinity: more than power.ts searches; NaN: no spread to estimate from. */
  queries: number;
}

export function queriesNeeded(
  path: string,
  effect: number,
  opts: { metric?: string; power?: number; alpha?: number; display?: string } = {},
): QueriesNeeded {
  const file = opts.display ?? path;
  let json: unknown;
  try {
    json = JSON.parse(readUserText(path, file));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`invalid JSON: ${(e as Error).message}`, [], { file, key: '--pilot' });
  }
  const perQuery = (json as { perQuery?: unknown })?.perQuery;
  if (typeof perQuery !== 'object' || perQuery === null) {
    throw new InputError('no "perQuery" object: give the JSON of ranklab compare, score or eval (--format json)', [], {
      file,
      key: '--pilot',
    });
  }
  const rows = Object.values(perQuery as Record<string, Record<string, unknown>>);
  const metrics = [...new Set(rows.flatMap((r) => Object.keys(r ?? {})))];
  const metric = opts.metric ?? metrics[0];
  if (!metric || !metrics.includes(metric)) {
    throw new InputError(`metric ${JSON.stringify(metric ?? '')} is not in the pilot (it has ${metrics.join(', ') || 'none'})`, [], {
      file,
      key: '--metric',
    });
  }
  const values: number[] = [];
  let deltas = 0;
  for (const r of rows) {
    const v = r?.[metric];
    if (typeof v === 'number') values.push(v);
    else if (typeof v === 'object' && v !== null && typeof (v as { delta?: unknown }).delta === 'number') {
      values.push((v as { delta: number }).delta);
      deltas++;
    }
  }
  if (values.length < 2) throw new InputError(`fewer than 2 queries with a value of ${metric}`, [], { file, key: '--pilot' });
  const source = deltas === values.length ? 'deltas' : 'one run';
  const sd = sampleStdDev(values) * (source === 'deltas' ? 1 : Math.SQRT2);
  const power = opts.power ?? 0.8;
  const alpha = opts.alpha ?? 0.05;
  return {
    metric,
    source,
    pilotQueries: values.length,
    sdOfDifferences: sd,
    effect,
    power,
    alpha,
    queries: queriesToDetect(effect, sd, { power, alpha }),
  };
}
