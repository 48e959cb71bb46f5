/**
 * A folder of per-rater judgments (ranklab.json `"judgments": [..., {"raters": "judgments"}]`):
 * - `<rater>.qrels`: one rater's TREC qrels (`qid iter docid rel`); the file name is the rater;
 * - `*.jsonl`: one grade a line, `{"qid", "docid", "grade", "rater"?}` (the rater defaults to the file name); other
 *   keys (an LLM judge's prompt, model, answer and time) are kept in the file and ignored here.
 * Other files are not read. A missing folder has no raters yet (the first per-rater grade creates it).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../util/diagnostics';
import { splitLines } from '../util/text-file';
import type { JudgmentBuilder } from './builder';
import { describe, idField, isRecord } from './fields';
import { parseQrelsInto } from './qrels';
import { parseGrade, readSourceText } from './source';

export const RATER_QRELS_SUFFIX = '.qrels';
export const RATINGS_SUFFIX = '.jsonl';

/**
 * A person's rater name is a file name (`<rater>.qrels`) and goes in `rater:NAME`: letters, digits, `.`, `_`, `-`,
 * `@`, `+`. An LLM rater is `llm:` + the model as the endpoint names it, which may also hold `/` and `:`.
 */
export function checkRaterName(name: string): string | undefined {
  const llm = name.startsWith('llm:');
  const bare = llm ? name.slice(4) : name;
  const ok = llm ? /^[\p{L}\p{N}][\p{L}\p{N}._@+/:-]*$/u : /^[\p{L}\p{N}][\p{L}\p{N}._@+-]*$/u;
  if (!ok.test(bare) || bare.length > 100) {
    return `rater name ${JSON.stringify(name)} must start with a letter or digit and hold only letters, digits, ".", "_", "-", "@", "+"${llm ? ', "/", ":"' : ''} (at most 100)`;
  }
  return undefined;
}

export function parseRatersInto(builder: JudgmentBuilder, dir: string, display: string): void {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) throw new InputError(`${display}: "raters" must name a folder`);
  const before = builder.rater;
  try {
    for (const name of readdirSync(dir).sort()) {
      const isQrels = name.endsWith(RATER_QRELS_SUFFIX);
      if (!isQrels && !name.endsWith(RATINGS_SUFFIX)) continue;
      const file = join(display, name);
      const rater = name.slice(0, -(isQrels ? RATER_QRELS_SUFFIX : RATINGS_SUFFIX).length);
      try {
        const text = readSourceText(join(dir, name), file, builder);
        if (isQrels) {
          const problem = checkRaterName(rater);
          if (problem) {
            builder.report({ file, line: 0 }, 'error', `${problem}; file skipped`);
            continue;
          }
          builder.rater = rater;
          parseQrelsInto(builder, text, file, 'trec');
        } else parseRatingsInto(builder, text, file, rater);
      } catch (e) {
        // One unusable rater file is reported; the other raters still count.
        if (!(e instanceof InputError)) throw e;
        const fresh = e.diagnostics.filter((d) => !builder.diagnostics.includes(d));
        if (fresh.length) builder.diagnostics.push(...fresh);
        else builder.report({ file, line: 0 }, 'error', `${e.message}; file skipped`);
      }
    }
  } finally {
    builder.rater = before;
  }
}

/** `{"qid", "docid", "grade", "rater"?}` per line; bad lines are reported and skipped. */
export function parseRatingsInto(builder: JudgmentBuilder, text: string, file: string, defaultRater: string): void {
  builder.addSource(file);
  const before = builder.rater;
  try {
    for (const { line, text: raw } of splitLines(text)) {
      if (raw.trim() === '') continue;
      const at = { file, line };
      let record: unknown;
      try {
        record = JSON.parse(raw);
      } catch {
        builder.report(at, 'error', 'invalid JSON; line skipped');
        continue;
      }
      if (!isRecord(record)) {
        builder.report(at, 'error', 'expected a JSON object {"qid", "docid", "grade", "rater"}; line skipped');
        continue;
      }
      const qid = idField(record, ['qid']);
      const doc = idField(record, ['docid']);
      const problems: string[] = [];
      if (!qid.ok) problems.push(qid.message);
      else if (qid.value === undefined) problems.push('missing "qid"');
      if (!doc.ok) problems.push(doc.message);
      else if (doc.value === undefined) problems.push('missing "docid"');
      const g = record.grade;
      const grade = typeof g === 'number' ? parseGrade(String(g)) : `"grade" must be a non-negative integer, got ${describe(g)}`;
      if (typeof grade === 'string') problems.push(grade.replace('; line skipped', ''));
      const rater = record.rater === undefined ? defaultRater : record.rater;
      const bad = typeof rater !== 'string' ? `"rater" must be a string, got ${describe(rater)}` : checkRaterName(rater);
      if (bad) problems.push(bad);
      if (problems.length || !qid.ok || !doc.ok || typeof grade === 'string') {
        builder.report(at, 'error', `${problems.join('; ')}; line skipped`);
        continue;
      }
      builder.rater = rater as string;
      builder.addJudgment(qid.value!, doc.value!, grade, at);
    }
  } finally {
    builder.rater = before;
  }
}
