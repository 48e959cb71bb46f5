/**
 * The judging view's protocol (envelope in ./base.ts): the pool of unjudged (query, document) pairs walked one at a
 * time, each grade written to the workspace's judgments at once by the host. Imported by the host
 * (src/extension/judging/) and the app (webview/judging/); no `vscode`, no DOM.
 *
 * - after `ready` the host sends `show` with the current view; again when a command focuses another pair (the
 *   dashboard's "judge" action) or the pool is rebuilt.
 * - the app grades, skips and undoes with requests; each answers with the next view (or fails with the reason,
 *   e.g. a file that could not be written: nothing was changed then).
 * - commands open the document's file or the query in its judgments file.
 */
import { defineProtocol } from './base';

/** Plain text with highlighted ranges: drawn as text nodes and <mark> elements, never parsed as HTML. */
export interface HighlightedText {
  text: string;
  /** [start, end) character ranges to highlight. */
  marks: Array<[number, number]>;
  cutStart: boolean;
  cutEnd: boolean;
}

export interface JudgingPair {
  /** Position in the pool (0-based). */
  index: number;
  qid: string;
  docId: string;
  query: { text: string; tags: string[]; split?: string };
  /** The query's judgments as they are now (other documents included), best grade first. */
  existing: { docId: string; title?: string; grade: number }[];
  doc: {
    /** False when the document is no longer in the corpus. */
    found: boolean;
    title: HighlightedText;
    passage: HighlightedText;
    /** Source file relative to the workspace, and line (records). */
    path?: string;
    line?: number;
  };
  /** Rank in each config that shows it. */
  ranks: Record<string, number>;
  /** Why the pool has it where it is: deciding | differing | shared | asked (opened from the dashboard). */
  reason: string;
  /** Its grade in the judgments now (after grading it, or when someone else did). */
  grade?: number;
}

export interface JudgingProgress {
  /** Pairs of the pool that carry a grade now. */
  graded: number;
  skipped: number;
  size: number;
  /** judged@k per config: now (current judgments) and if every pair of the pool were graded. */
  judged: Record<string, { k: number; now: number; projected: number }>;
}

export interface JudgingView {
  /** The configs the pool comes from, baseline first. */
  configs: string[];
  depth: number;
  /** Where grades go (workspace-relative), and the rater when grades go to per-rater files. */
  writesTo: string;
  rater?: string;
  /** The pair to grade; absent when every pair is graded or skipped. */
  pair?: JudgingPair;
  progress: JudgingProgress;
  /** Configs that could not run, with the reason. */
  failed: { config: string; error: string }[];
  /** What the last action did ("q01 origin-gayo graded 3 in judgments/golden.json"), for the status line. */
  message?: string;
}

export type JudgingMessages = {
  requests: {
    getView: { params: Record<string, never>; result: JudgingView };
    grade: { params: { qid: string; docId: string; grade: number }; result: JudgingView };
    skip: { params: { qid: string; docId: string }; result: JudgingView };
    undo: { params: Record<string, never>; result: JudgingView };
  };
  commands: {
    openDocument: { docId: string };
    openQuery: { qid: string };
  };
  notifications: {
    /** The current view: after `ready`, and when a command focuses a pair or the pool changes. */
    show: { view: JudgingView };
  };
};

export const judgingProtocol = defineProtocol<JudgingMessages>({
  viewType: 'ranklab.judging',
  version: 1,
  requests: { getView: true, grade: true, skip: true, undo: true },
  commands: { openDocument: true, openQuery: true },
  notifications: { show: true },
});

/** What the app persists with `setState`: the last view, drawn at once when the panel comes back. */
export interface JudgingState {
  view?: JudgingView;
}

/** The grades and their meaning, shown on the buttons and in the help (the scale docs/judging.md documents). */
export const GRADE_LABELS: ReadonlyArray<{ grade: number; label: string; meaning: string }> = [
  { grade: 0, label: 'Not relevant', meaning: 'nothing to do with the query' },
  { grade: 1, label: 'Related', meaning: 'on the topic, but does not answer the query' },
  { grade: 2, label: 'Relevant', meaning: 'answers the query, partly or among other things' },
  { grade: 3, label: 'Highly relevant', meaning: 'dedicated to the query and answers it exactly' },
];
