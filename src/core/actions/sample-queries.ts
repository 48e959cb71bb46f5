/**
 * The user action "sample queries from a log" (`ranklab queries sample`, the editor's "Sample Queries from a Log"):
 * read the log (its columns detected, or as given), clean it (personal data and bots removed and counted, the
 * queries already judged left out), draw N by the scheme and seed, and give back the golden set's text with the
 * report. Plain data out; each face writes the text where its user chose (atomically) and shows the report
 * (core/report/query-sample.ts). Nothing is written here, so a face checks its output before calling.
 */
import { DEFAULT_BOT_RULES } from '../judging/bots';
import { BUILT_IN_PII, type PiiPattern } from '../judging/personal-data';
import { type LogField, readQueryLog } from '../judging/query-log';
import { type QuerySample, type Scheme, cleanQueries, goldenSetText, sampleQueries, strataReport } from '../judging/query-sample';
import { normalizeQuery } from '../judging/query-text';
import type { Diagnostic } from '../util/diagnostics';
import { readUserText } from '../util/text-file';

export interface SampleQueriesInput {
  /** The query log: JSONL, CSV with a header, or OpenSearch UBI ubi_queries exported as JSONL. */
  log: string;
  n: number;
  scheme: Scheme;
  seed: number;
  /** Field → column, overriding the detected mapping. */
  columns?: Partial<Record<LogField, string>>;
  /** Also fold accents and punctuation when normalising. */
  loose?: boolean;
  /** Texts of the queries already judged (as written: normalised here, with `loose`). */
  exclude?: Iterable<string>;
  /** Patterns beside the built-in ones (personal-data.ts `loadPiiPatterns`). */
  piiPatterns?: readonly PiiPattern[];
  /** Bot rule: more searches than this in one session (default DEFAULT_BOT_RULES.maxPerSession). */
  maxPerSession?: number;
}

export type { QuerySample };

export interface SampleQueriesResult {
  /** The report (what the CLI prints as JSON, less its `out`). */
  report: QuerySample;
  /** The golden set's text: the same log, options and seed give the same bytes. */
  golden: string;
  /** The log's problems (lines skipped, with file and line). */
  diagnostics: Diagnostic[];
}

export function sampleQueryLog(input: SampleQueriesInput, signal?: AbortSignal): SampleQueriesResult {
  const log = readQueryLog(readUserText(input.log), input.log, input.columns ?? {});
  signal?.throwIfAborted();
  const exclude = new Set<string>();
  for (const text of input.exclude ?? []) exclude.add(normalizeQuery(text, input.loose));
  const pii = [...BUILT_IN_PII, ...(input.piiPatterns ?? [])];
  const bots = { ...DEFAULT_BOT_RULES, maxPerSession: input.maxPerSession ?? DEFAULT_BOT_RULES.maxPerSession };
  const { queries, report: cleaned } = cleanQueries(log.records, { pii, bots, loose: input.loose, exclude });
  signal?.throwIfAborted();
  const sample = sampleQueries(queries, input.n, input.scheme, input.seed);
  return {
    report: {
      log: { file: input.log, format: log.format, columns: log.mapping, lines: log.lines, skipped: log.lines - log.records.length },
      ...cleaned,
      strata: strataReport(queries, sample),
      scheme: input.scheme,
      seed: input.seed,
      n: input.n,
      sampled: sample.length,
    },
    golden: goldenSetText(sample),
    diagnostics: log.diagnostics,
  };
}
