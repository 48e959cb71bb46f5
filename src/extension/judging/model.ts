/**
 * The judging view's state without `vscode`: walks a pool (src/core/judging/pool.ts) one pair at a time, writes
 * every grade at once through the core's GradeWriter (so closing the editor loses nothing), undoes by writing the
 * file's previous grade back into the same file, and builds what the view shows (query, existing judgments,
 * passage with highlighted terms, progress, judged@k now and projected). Unit-tested in test/unit/extension/.
 */
import { optionalVisible, visibleMarked, visibleText } from '../../core/util/visible-text';
import type { Document } from '../../core/corpus/document';
import { type Pool, type PoolPair, type PoolSide, projectJudged } from '../../core/judging/pool';
import { passageAround } from '../../core/judging/passage';
import type { GradeWriter } from '../../core/judging/writer';
import type { JudgmentSet } from '../../core/judgments/types';
import { querySplit } from '../../core/judgments/splits';
import type { EvaluateOptions } from '../../core/metrics';
import type { Analyzer } from '../../core/retrieval/analyzer';
import type { HighlightedText, JudgingPair, JudgingView } from '../../protocol/judging';

export interface JudgingInputs {
  pool: Pool;
  sides: PoolSide[];
  failed: { config: string; error: string }[];
  metricOptions: EvaluateOptions;
  writer: GradeWriter;
  /** The judgments as they are now (the session's; re-read after each write). */
  judgments: () => JudgmentSet;
  /** Re-reads the judgments from disk (after a write). */
  reload: () => JudgmentSet;
  document: (id: string) => Document | undefined;
  analyzer: Analyzer;
  /** The rater, when grades go to per-rater files. */
  rater?: string;
}

/** A pool pair, or one the user asked for that the pool does not have (opened from the dashboard). */
type ViewPair = Omit<PoolPair, 'reason'> & { reason: PoolPair['reason'] | 'asked' };

type Step =
  | { kind: 'grade'; pair: ViewPair; file: string; fileKind: 'golden' | 'qrels'; previous: number | undefined }
  | { kind: 'skip'; pair: ViewPair };

export class JudgingModel {
  private readonly pairs: ViewPair[];
  private position = 0;
  private readonly skipped = new Set<string>();
  private readonly history: Step[] = [];
  private message: string | undefined;

  constructor(private readonly inputs: JudgingInputs) {
    this.pairs = [...inputs.pool.pairs];
    this.advance();
  }

  get current(): ViewPair | undefined {
    return this.pairs[this.position];
  }

  /** Shows (qid, docId) next: the pool's pair if it has it, else that pair added in front ("asked"). */
  focus(qid: string, docId: string): JudgingView {
    let i = this.pairs.findIndex((p) => p.qid === qid && p.docId === docId);
    if (i < 0) {
      const ranks: Record<string, number> = {};
      for (const s of this.inputs.sides) {
        const r = (s.run.get(qid) ?? []).findIndex((d) => d.id === docId);
        if (r >= 0) ranks[s.name] = r + 1;
      }
      this.pairs.splice(this.position, 0, {
        qid,
        docId,
        ranks,
        bestRank: Math.min(Infinity, ...Object.values(ranks)),
        reason: 'asked',
        shownByAll: false,
      });
      i = this.position;
    }
    this.skipped.delete(key(this.pairs[i]!));
    this.position = i;
    this.message = undefined;
    return this.view();
  }

  /** Writes the grade, then moves to the next pair nobody has graded. */
  grade(qid: string, docId: string, grade: number): JudgingView {
    const pair = this.find(qid, docId);
    const target = this.inputs.writer.target(this.inputs.judgments(), qid, docId);
    const written = this.inputs.writer.writeTo(target.file, target.kind, qid, docId, grade);
    this.inputs.reload();
    this.history.push({ kind: 'grade', pair, file: written.file, fileKind: target.kind, previous: written.previous });
    this.skipped.delete(key(pair));
    this.message = `${qid} ${docId}: graded ${grade} in ${written.display}`;
    this.position = this.pairs.indexOf(pair) + 1;
    this.advance();
    return this.view();
  }

  skip(qid: string, docId: string): JudgingView {
    const pair = this.find(qid, docId);
    this.skipped.add(key(pair));
    this.history.push({ kind: 'skip', pair });
    this.message = `${qid} ${docId}: skipped`;
    this.position = this.pairs.indexOf(pair) + 1;
    this.advance();
    return this.view();
  }

  /** Takes back the last grade (the file gets its previous grade back, or loses the judgment) or skip. */
  undo(): JudgingView {
    const step = this.history.pop();
    if (!step) {
      this.message = 'nothing to undo';
      return this.view();
    }
    const { qid, docId } = step.pair;
    if (step.kind === 'grade') {
      const w = this.inputs.writer.writeTo(step.file, step.fileKind, qid, docId, step.previous);
      this.inputs.reload();
      this.message = `${qid} ${docId}: ${step.previous === undefined ? 'grade removed from' : `grade ${step.previous} restored in`} ${w.display}`;
    } else {
      this.skipped.delete(key(step.pair));
      this.message = `${qid} ${docId}: skip undone`;
    }
    this.position = this.pairs.indexOf(step.pair);
    return this.view();
  }

  view(): JudgingView {
    const judgments = this.inputs.judgments();
    const graded = this.pairs.filter((p) => isGraded(judgments, p)).length;
    const { pool, sides, metricOptions } = this.inputs;
    const now = projectJudged(sides, judgments, [], pool.depth, metricOptions, pool.scope);
    const judged = Object.fromEntries(
      Object.entries(pool.judged).map(([c, j]) => [c, { k: j.k, now: now[c]?.now ?? j.now, projected: j.projected }]),
    );
    const pair = this.current;
    const view: JudgingView = {
      configs: pool.configs,
      depth: pool.depth,
      writesTo: this.writesTo(judgments, pair),
      progress: { graded, skipped: this.skipped.size, size: this.pairs.length, judged },
      failed: this.inputs.failed,
    };
    if (this.inputs.rater) view.rater = this.inputs.rater;
    if (pair) view.pair = this.pairView(pair, judgments);
    if (this.message) view.message = this.message;
    return view;
  }

  /** The file the current pair's grade goes to (or why there is none). */
  private writesTo(judgments: JudgmentSet, pair: ViewPair | undefined): string {
    const { writer } = this.inputs;
    if (!pair) return writer.mode === 'per-rater' ? `the per-rater file of ${this.inputs.rater}` : 'the judgments file holding each query';
    try {
      return writer.display(writer.target(judgments, pair.qid, pair.docId).file);
    } catch (e) {
      return (e as Error).message;
    }
  }

  private pairView(p: ViewPair, judgments: JudgmentSet): JudgingPair {
    const query = judgments.queries.get(p.qid);
    const doc = this.inputs.document(p.docId);
    const text = query?.text ?? '';
    const shown = doc
      ? passageAround(doc, text, this.inputs.analyzer)
      : {
          title: { text: p.docId, marks: [], cutStart: false, cutEnd: false },
          passage: { text: 'This document is no longer in the corpus.', marks: [], cutStart: false, cutEnd: false },
        };
    const qrels = judgments.qrels.get(p.qid) ?? new Map<string, number>();
    const existing = [...qrels]
      .map(([docId, grade]) => ({ docId, grade, title: optionalVisible(this.inputs.document(docId)?.title) }))
      .sort((a, b) => b.grade - a.grade || (a.docId < b.docId ? -1 : 1));
    const out: JudgingPair = {
      index: this.pairs.indexOf(p),
      qid: p.qid,
      docId: p.docId,
      query: { text: visibleText(text), tags: query?.tags ?? [], split: querySplit(judgments, p.qid) },
      existing,
      doc: {
        found: !!doc,
        title: visibleHighlighted(shown.title),
        passage: visibleHighlighted(shown.passage),
        ...(doc && { path: doc.source.path, ...(doc.source.line !== undefined && { line: doc.source.line }) }),
      },
      ranks: p.ranks,
      reason: p.reason,
    };
    const grade = qrels.get(p.docId);
    if (grade !== undefined) out.grade = grade;
    return out;
  }

  /** From the current position on, the first pair that is neither graded (by anyone, meanwhile) nor skipped. */
  private advance(): void {
    const judgments = this.inputs.judgments();
    while (this.position < this.pairs.length) {
      const p = this.pairs[this.position]!;
      if (!isGraded(judgments, p) && !this.skipped.has(key(p))) return;
      this.position++;
    }
    // Past the end: skipped pairs come round again.
    const again = this.pairs.findIndex((p) => !isGraded(judgments, p));
    if (again >= 0 && this.skipped.size > 0) {
      this.skipped.clear();
      this.position = again;
    }
  }

  private find(qid: string, docId: string): ViewPair {
    const pair = this.pairs.find((p) => p.qid === qid && p.docId === docId);
    if (!pair) throw new Error(`${qid} ${docId} is not in the judging pool`);
    return pair;
  }
}

const key = (p: { qid: string; docId: string }) => `${p.qid}\t${p.docId}`;
const isGraded = (j: JudgmentSet, p: ViewPair) => j.qrels.get(p.qid)?.has(p.docId) ?? false;

/** A highlighted text as it is safe to show: bidi controls as markers, the highlights moved with the text. */
function visibleHighlighted(h: HighlightedText): HighlightedText {
  return { ...h, ...visibleMarked(h.text, h.marks) };
}
