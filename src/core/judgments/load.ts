import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../util/diagnostics';
import { parseBeirInto } from './beir';
import { JudgmentBuilder } from './builder';
import { parseGoldenInto } from './golden-set';
import { DEFAULT_RATER, type MergeOptions } from './merge';
import { checkRaterName, parseRatersInto } from './raters';
import { parseQrelsInto, qrelsFormatOf } from './qrels';
import { parseQueriesInto } from './queries';
import { isBlankOrComment, readSourceLines, readSourceText } from './source';
import type { JudgmentSet } from './types';
import { crossCheckQueries } from './validate';

/** Which files hold one set of labels. Paths are read relative to `baseDir` and reported as written. */
export interface JudgmentSpec {
  qrels?: string;
  queries?: string;
  golden?: string;
  beir?: string;
  /** BEIR split (default "test"): reads qrels/<split>.tsv. */
  split?: string;
  /** A folder of per-rater files (`<rater>.qrels`, rater-column `*.jsonl`; src/core/judgments/raters.ts). */
  raters?: string;
  /** The rater of every judgment in this entry's qrels / golden / beir files (default: DEFAULT_RATER). */
  rater?: string;
}

/**
 * A spec, or the short string form of ranklab.json: "beir:DIR", a folder (BEIR), a .json/.jsonl file
 * (golden set), anything else a TREC qrels file.
 */
export type JudgmentSpecInput = JudgmentSpec | string;

export interface LoadOptions {
  /** Folder relative paths are resolved against (default: the process's working folder). */
  baseDir?: string;
  /** How several raters' grades of one pair are merged for scoring (default mean-rounded, LLM grades ignored). */
  merge?: MergeOptions;
}

/**
 * Reads and merges every spec into one JudgmentSet. Duplicates across files follow the same rules as
 * within a file (same grade: warning; different grade: error, the first read wins). Throws InputError
 * for a missing or empty file, or a file without a single valid line.
 */
export function loadJudgments(specs: JudgmentSpecInput | JudgmentSpecInput[], options: LoadOptions = {}): JudgmentSet {
  const list = (Array.isArray(specs) ? specs : [specs]).map((s) => normaliseSpec(s, options.baseDir));
  if (list.length === 0) throw new InputError('no judgments configured');
  const builder = new JudgmentBuilder();
  const abs = (p: string): string => resolve(options.baseDir ?? '.', p);
  let queryTextGiven = false;
  for (const spec of list) {
    if (!spec.qrels && !spec.queries && !spec.golden && !spec.beir && !spec.raters) {
      throw new InputError(`judgment spec ${JSON.stringify(spec)} names no file (expected qrels, queries, golden, beir or raters)`);
    }
    const badRater = spec.rater === undefined ? undefined : checkRaterName(spec.rater);
    if (badRater) throw new InputError(`judgment spec ${JSON.stringify(spec)}: ${badRater}`);
    builder.rater = spec.rater ?? DEFAULT_RATER;
    if (spec.beir) {
      parseBeirInto(builder, abs(spec.beir), spec.split ?? 'test', spec.beir);
      queryTextGiven = true;
    }
    if (spec.golden) {
      parseGoldenInto(builder, readSourceText(abs(spec.golden), spec.golden), spec.golden);
      queryTextGiven = true;
    }
    if (spec.queries) {
      parseQueriesInto(builder, readSourceLines(abs(spec.queries), spec.queries, builder), spec.queries);
      queryTextGiven = true;
    }
    if (spec.qrels) {
      const { lines, first } = readSourceLines(abs(spec.qrels), spec.qrels, builder, (t) => !isBlankOrComment(t));
      parseQrelsInto(builder, lines, spec.qrels, qrelsFormatOf(first));
    }
    if (spec.raters) parseRatersInto(builder, abs(spec.raters), spec.raters);
  }
  builder.rater = DEFAULT_RATER;
  crossCheckQueries(builder, queryTextGiven);
  return builder.build(options.merge);
}

function normaliseSpec(spec: JudgmentSpecInput, baseDir: string | undefined): JudgmentSpec {
  if (typeof spec !== 'string') return spec;
  if (spec.startsWith('beir:')) return { beir: spec.slice('beir:'.length) };
  const abs = resolve(baseDir ?? '.', spec);
  if (existsSync(abs) && statSync(abs).isDirectory()) return { beir: spec };
  if (/\.jsonl?$/i.test(spec)) return { golden: spec };
  return { qrels: spec };
}
