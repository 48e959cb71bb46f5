/**
 * Writes one grade into the workspace's own judgment files, at once and atomically (temporary file + rename),
 * keeping each file's format, order, line ends and BOM (edit-qrels.ts, edit-golden.ts):
 * - `in-place` (default): into the file that already grades this (query, document), else the file holding the
 *   query's other judgments, else the golden set holding the query, else the first qrels or golden-set file;
 * - `per-rater`: into `<raters folder>/<rater>.qrels` (created on the first grade), the folder named by the
 *   `{"raters": DIR}` entry of ranklab.json `judgments`, so the grades are read back as that rater's.
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { JudgmentBuilder } from '../judgments/builder';
import { parseGoldenInto } from '../judgments/golden-set';
import { judgmentKey } from '../judgments/keys';
import { DEFAULT_RATER } from '../judgments/merge';
import { parseQrelsInto, sniffQrelsFormat } from '../judgments/qrels';
import { RATER_QRELS_SUFFIX, checkRaterName } from '../judgments/raters';
import type { JudgmentSpec } from '../judgments/load';
import type { JudgmentSet, SourceLocation } from '../judgments/types';
import { writeFileAtomic } from '../util/atomic-write';
import { InputError } from '../util/diagnostics';
import { goldenEdits } from './edit-golden';
import { qrelsEdit } from './edit-qrels';
import { type TextEdit, applyEdit, splitBom } from './text-edit';

export type WriteMode = 'in-place' | 'per-rater';

export interface GradeWriterOptions {
  /** Workspace root; relative spec paths and locations are resolved against it. */
  root: string;
  /** The workspace's judgment sources (ranklab.json `judgments`). */
  specs: JudgmentSpec[];
  mode?: WriteMode;
  /** Who grades: needed for `per-rater` (the file name). */
  rater?: string;
}

export interface WrittenGrade {
  /** Absolute path of the file written. */
  file: string;
  /** The file relative to the workspace root (for messages). */
  display: string;
  /** The grade this file gave the pair before (undefined: none), so an undo can restore it. */
  previous: number | undefined;
  /** False when the file already said exactly this. */
  changed: boolean;
}

type FileKind = 'golden' | 'qrels';

export class GradeWriter {
  readonly mode: WriteMode;
  private readonly golden = new Set<string>();
  private readonly qrels = new Set<string>();
  private readonly beirDirs: string[] = [];
  private readonly ratersDir?: string;

  constructor(private readonly opts: GradeWriterOptions) {
    this.mode = opts.mode ?? 'in-place';
    const abs = (p: string) => resolve(opts.root, p);
    for (const s of opts.specs) {
      if (s.golden) this.golden.add(abs(s.golden));
      if (s.qrels) this.qrels.add(abs(s.qrels));
      if (s.beir) this.beirDirs.push(abs(s.beir));
      if (s.raters && this.ratersDir === undefined) this.ratersDir = abs(s.raters);
    }
    if (this.mode === 'per-rater') {
      if (!this.ratersDir) {
        throw new InputError(
          'ranklab.json: "judging": {"write": "per-rater"} needs a folder of per-rater files in "judgments", e.g. {"raters": "judgments"}, so that the grades are read back',
        );
      }
      if (!opts.rater)
        throw new InputError(
          'per-rater judging needs a rater name (--rater NAME, the ranklab.judging.rater setting, or "judging": {"rater"} in ranklab.json)',
        );
      const problem = checkRaterName(opts.rater);
      if (problem || opts.rater.startsWith('llm:'))
        throw new InputError(problem ?? `"${opts.rater}": names starting with "llm:" are for LLM judges`);
    }
  }

  /** The file a grade of (qid, docId) goes to under the current judgments, and its kind. */
  target(judgments: JudgmentSet, qid: string, docId: string): { file: string; kind: FileKind } {
    if (this.mode === 'per-rater') return { file: join(this.ratersDir!, `${this.opts.rater}${RATER_QRELS_SUFFIX}`), kind: 'qrels' };
    // Per-rater files are not among the writable files, so only the shared files' locations can match.
    const shared = judgments.ratingLocations ? [...judgments.ratingLocations.values()] : judgments.locations ? [judgments.locations] : [];
    const key = judgmentKey(qid, docId);
    const prefix = `${qid}\t`;
    const candidates: Array<SourceLocation | undefined> = [
      ...shared.map((m) => m.get(key)),
      ...shared.map((m) => firstOfQuery(m, prefix)),
      judgments.queryLocations?.get(qid),
    ];
    for (const at of candidates) {
      const file = at && this.writable(resolve(this.opts.root, at.file));
      if (file) return file;
    }
    const first = [...this.qrels][0] ?? [...this.golden][0];
    if (first) return { file: first, kind: this.golden.has(first) ? 'golden' : 'qrels' };
    throw new InputError('no judgments file to write to: ranklab.json "judgments" names no TREC qrels or golden-set file');
  }

  /** Gives (qid, docId) `grade` (undefined: removes its judgment) in the file `target` picks. */
  write(judgments: JudgmentSet, qid: string, docId: string, grade: number | undefined): WrittenGrade {
    const { file, kind } = this.target(judgments, qid, docId);
    return this.writeTo(file, kind, qid, docId, grade);
  }

  /** The same, into a given file (an undo goes back to the file the grade went to). */
  writeTo(file: string, kind: FileKind, qid: string, docId: string, grade: number | undefined): WrittenGrade {
    if (grade !== undefined && (!Number.isSafeInteger(grade) || grade < 0))
      throw new InputError(`grade must be a non-negative integer, not ${grade}`);
    const display = this.display(file);
    const exists = existsSync(file);
    const bytes = exists ? readFileSync(file) : Buffer.alloc(0);
    const raw = bytes.toString('utf8');
    // Rewriting a file that is not UTF-8 would change bytes far from the edit: refuse instead.
    if (!Buffer.from(raw, 'utf8').equals(bytes))
      throw new InputError(`${display}: not UTF-8 text; Ranklab does not rewrite it (convert it to UTF-8 first)`);
    const { bom, body } = splitBom(raw);
    const previous = exists && body.trim() !== '' ? gradeIn(body, display, kind, qid, docId) : undefined;
    const edits: TextEdit[] =
      kind === 'golden'
        ? goldenEdits(body, display, qid, docId, grade)
        : [qrelsEdit(body, exists ? sniffQrelsFormat(body) : 'trec', qid, docId, grade)].filter((e): e is TextEdit => e !== null);
    if (edits.length === 0) return { file, display, previous, changed: false };
    const text = [...edits].sort((a, b) => b.offset - a.offset).reduce(applyEdit, body);
    // A qrels file without a judgment line is unusable input for the reader (a golden set keeps its items). A
    // rater's own file (the writer made it; an undo of its first grade empties it) goes away; a shared one stays.
    if (grade === undefined && kind === 'qrels' && !hasQrelsLine(text, display)) {
      if (this.ratersDir && dirname(file) === this.ratersDir && file.endsWith(RATER_QRELS_SUFFIX)) {
        rmSync(file, { force: true });
        return { file, display, previous, changed: true };
      }
      throw new InputError(
        `removing its last judgment would leave the file without judgments, which the reader refuses; the file is left as it is (edit it by hand)`,
        [],
        { file: display },
      );
    }
    writeFileAtomic(file, bom + text);
    return { file, display, previous, changed: true };
  }

  /** A file as messages name it: relative to the workspace root. */
  display(file: string): string {
    return relative(this.opts.root, file).split(sep).join('/') || file;
  }

  private writable(file: string): { file: string; kind: FileKind } | undefined {
    if (this.golden.has(file)) return { file, kind: 'golden' };
    if (this.qrels.has(file)) return { file, kind: 'qrels' };
    if (this.beirDirs.some((d) => file.startsWith(d + sep)) && file.endsWith('.tsv') && statSync(file, { throwIfNoEntry: false })?.isFile())
      return { file, kind: 'qrels' };
    return undefined;
  }
}

function firstOfQuery(locations: Map<string, SourceLocation>, prefix: string): SourceLocation | undefined {
  for (const [key, at] of locations) if (key.startsWith(prefix)) return at;
  return undefined;
}

/** Whether a qrels text still holds one judgment, read as the judgments reader reads it. */
function hasQrelsLine(text: string, display: string): boolean {
  if (text.trim() === '') return false;
  const builder = new JudgmentBuilder();
  try {
    parseQrelsInto(builder, text, display, sniffQrelsFormat(text));
  } catch (e) {
    if (!(e instanceof InputError)) throw e; // no valid line
    return false;
  }
  return true;
}

/** The grade a file gives the pair, read as the judgments reader reads it. */
function gradeIn(text: string, display: string, kind: FileKind, qid: string, docId: string): number | undefined {
  const builder = new JudgmentBuilder();
  try {
    if (kind === 'golden') parseGoldenInto(builder, text, display);
    else parseQrelsInto(builder, text, display, sniffQrelsFormat(text));
  } catch (e) {
    if (!(e instanceof InputError)) throw e; // a file without one valid line grades nothing
  }
  return builder.byRater.get(DEFAULT_RATER)?.get(qid)?.get(docId);
}
