import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { JudgmentBuilder } from './builder';
import { parseQrelsInto, type ReadOptions } from './qrels';
import { parseQueriesInto } from './queries';
import { fileError, isBlankOrComment, readSourceLines } from './source';
import type { JudgmentSet } from './types';
import { crossCheckQueries } from './validate';

/**
 * A BEIR folder: `queries.jsonl` plus `qrels/<split>.tsv`, else `qrels.tsv`, else the only `qrels/*.tsv`.
 * All queries are kept (BEIR ships every split's queries in one file); `qrels` has only the judged ones.
 * `corpus.jsonl` is the corpus reader's business and is not read here.
 */
export function readBeirJudgments(dir: string, split = 'test', options: ReadOptions = {}): JudgmentSet {
  const builder = new JudgmentBuilder();
  parseBeirInto(builder, dir, split, options.displayPath ?? dir);
  crossCheckQueries(builder, true);
  return builder.build();
}

export function parseBeirInto(builder: JudgmentBuilder, dir: string, split: string, display: string): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw fileError(display, 'BEIR folder not found');
  const qrels = findQrelsFile(dir, split, display);
  const queriesFile = join(dir, 'queries.jsonl');
  const queriesDisplay = join(display, 'queries.jsonl');
  parseQueriesInto(builder, readSourceLines(queriesFile, queriesDisplay, builder), queriesDisplay);
  const qrelsDisplay = join(display, qrels);
  parseQrelsInto(
    builder,
    readSourceLines(join(dir, qrels), qrelsDisplay, builder, (t) => !isBlankOrComment(t)).lines,
    qrelsDisplay,
    'beir',
  );
}

/** Returns the qrels path relative to `dir`. */
function findQrelsFile(dir: string, split: string, display: string): string {
  const splitFile = join('qrels', `${split}.tsv`);
  if (existsSync(join(dir, splitFile))) return splitFile;
  if (existsSync(join(dir, 'qrels.tsv'))) return 'qrels.tsv';
  const qrelsDir = join(dir, 'qrels');
  const candidates =
    existsSync(qrelsDir) && statSync(qrelsDir).isDirectory()
      ? readdirSync(qrelsDir)
          .filter((f) => f.endsWith('.tsv'))
          .sort()
      : [];
  if (candidates.length === 1) return join('qrels', candidates[0]!);
  if (candidates.length > 1) {
    throw fileError(display, `no qrels/${split}.tsv; choose a split among ${candidates.map((c) => c.replace(/\.tsv$/, '')).join(', ')}`);
  }
  throw fileError(display, `no qrels found (looked for qrels/${split}.tsv, qrels.tsv, qrels/*.tsv)`);
}
