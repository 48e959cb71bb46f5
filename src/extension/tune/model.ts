/**
 * The Tune view's model (no `vscode`; unit-tested in test/unit/extension/tune-model.test.ts): the core's TuneQuick
 * and TuneResult as the figures the app draws (a move's two stages), the checks on settings coming from the webview, the text edits that write settings
 * into a `*.rank.json` with its comments and formatting kept (jsonc-parser `modify`), the "Save as new config" file,
 * and the latest-only two-stage runner that keeps a burst of slider moves from queueing.
 */
import { basename, dirname, join } from 'node:path';
import { type Edit, applyEdits, modify, parse } from 'jsonc-parser';
import type { GateResult } from '../../core/experiment/gates';
import type { TuneQuick, TuneResult, TuneSliders } from '../../core/tuning/tuner';
import { createFileAtomic } from '../../core/util/atomic-write';
import { InputError } from '../../core/util/diagnostics';
import type { TuneGate, TuneSettingsMsg, TuneStats, TuneView } from '../../protocol/tune';

/**
 * The first stage of a move as the view shows it (plain JSON): the figures the ranking alone gives, for the settings
 * that made them, against the baseline named `baseline`, with the gates when given (Tuner.quickWithGates); `stats` is
 * left for the second stage (tuneStats).
 */
export function tuneQuickView(r: TuneQuick & { gates?: GateResult[] }, settings: TuneSettingsMsg, baseline: string, ms: number): TuneView {
  const names = Object.keys(r.metrics.all.candidate);
  const cell = (side: 'all' | 'tune' | 'holdout', m: string) => {
    const s = r.metrics[side];
    // Every side has a mean of every metric (the tuner's quickOf); NaN would show as n/a, not crash the view.
    const baseline = s.baseline[m] ?? NaN;
    const current = s.candidate[m] ?? NaN;
    return { baseline, current, delta: current - baseline };
  };
  const perQuery = r.perQuery
    .map((q) => ({ qid: q.qid, delta: q.delta }))
    .sort((a, b) => b.delta - a.delta || (a.qid < b.qid ? -1 : a.qid > b.qid ? 1 : 0));
  const headline = cell('all', r.headline);
  const tuneGain = cell('tune', r.headline).delta;
  const holdoutGain = cell('holdout', r.headline).delta;
  return {
    settings,
    baseline,
    headline: { metric: r.headline, ...headline },
    queries: { all: r.metrics.all.queries, tune: r.metrics.tune.queries, holdout: r.metrics.holdout.queries },
    metrics: names.map((metric) => ({ metric, all: cell('all', metric), tune: cell('tune', metric), holdout: cell('holdout', metric) })),
    perQuery,
    wins: r.wins,
    losses: r.losses,
    ties: r.ties,
    overfitting: r.overfitting
      ? `Overfitting: ${r.headline} gains ${signed(tuneGain)} on the tune queries but ${signed(holdoutGain)} on the holdout queries`
      : undefined,
    gates: r.gates && gatesOf(r.gates),
    ms,
  };
}

const gatesOf = (gates: GateResult[]): TuneGate[] => gates.map((g) => ({ gate: g.gate, passed: g.passed }));

/** The second stage of a move as the view shows it: compare's statistics of the settings (CI, p, verdict, gates). */
export function tuneStats(r: TuneResult, ms: number): TuneStats {
  const h = r.comparison.metrics[r.headline]!; // the headline is the first of the metrics compared
  return {
    pAdjusted: h.pAdjusted,
    ci: h.ci95,
    verdict: { outcome: r.verdict.outcome, headline: r.verdict.headline, basis: r.verdict.basis },
    gates: gatesOf(r.gates),
    warnings: r.comparison.warnings.map((w) => w.message),
    ms,
  };
}

/** A TuneResult as the view shows it once both stages are in (one step: `ms` for both). */
export function tuneView(r: TuneResult, settings: TuneSettingsMsg, ms: number): TuneView {
  return { ...tuneQuickView(r, settings, r.comparison.baseline, ms), stats: tuneStats(r, ms) };
}

const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(4)}`;

/**
 * Settings sent by the webview, checked against the sliders (the host never trusts webview input): an object of
 * finite numbers on known slider paths, within each slider's range. The tuner checks the same again.
 */
export function checkSettings(value: unknown, sliders: TuneSliders): TuneSettingsMsg {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new InputError('settings: expected an object of slider values');
  const out: TuneSettingsMsg = {};
  for (const [path, v] of Object.entries(value)) {
    const s = sliders.sliders.find((x) => x.path === path);
    if (!s) throw new InputError(`"${path}" is not a slider of this config`, [], { key: path });
    if (typeof v !== 'number' || !Number.isFinite(v) || v < s.min || v > s.max)
      throw new InputError(`${JSON.stringify(v)} is not a number from ${s.min} to ${s.max}`, [], { key: path });
    out[path] = v;
  }
  return out;
}

/**
 * The text edits that write `settings` into a config's text (only where the value differs), keeping its comments
 * and formatting: jsonc-parser `modify` with the file's own indentation and line ends.
 */
export function settingsEdits(text: string, settings: TuneSettingsMsg): Edit[] {
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  const formattingOptions = {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
  let current = text;
  for (const [path, value] of Object.entries(settings)) {
    const keys = path.split('.');
    if (valueAt(parse(current), keys) !== value) current = applyEdits(current, modify(current, keys, value, { formattingOptions }));
  }
  // One edit from the text to the result: the edits `modify` returns each hold for the text before them only.
  return diffEdit(text, current);
}

function valueAt(raw: unknown, keys: string[]): unknown {
  let node = raw;
  for (const k of keys) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[k] : undefined;
  return node;
}

/** One edit turning `before` into `after` (their common prefix and suffix kept): what a WorkspaceEdit replaces. */
function diffEdit(before: string, after: string): Edit[] {
  if (before === after) return [];
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end])
    end++;
  return [{ offset: start, length: before.length - start - end, content: after.slice(start, after.length - end) }];
}

/** The config text with `settings` written in. */
export function applySettings(text: string, settings: TuneSettingsMsg): string {
  return applyEdits(text, settingsEdits(text, settings));
}

/**
 * Writes the settings as a new config beside `baseFile`: `<name>-tuned-N.rank.json`, the first N that names no
 * file, created atomically and never over an existing one (a file that appears meanwhile moves N on). Its `name`
 * field, if it has one, becomes the new name. Returns the path.
 */
export function saveTunedConfig(baseFile: string, text: string, settings: TuneSettingsMsg): string {
  const stem = basename(baseFile).replace(/\.rank\.json$/, '');
  const hasName = typeof valueAt(parse(text), ['name']) === 'string';
  for (let n = 1; n < 10_000; n++) {
    const name = `${stem}-tuned-${n}`;
    const path = join(dirname(baseFile), `${name}.rank.json`);
    const body = applySettings(text, settings);
    const out = hasName ? applyEdits(body, modify(body, ['name'], name, {})) : body;
    if (createFileAtomic(path, out)) return path;
  }
  throw new InputError(`no free name for a tuned copy of ${basename(baseFile)}`, [], { file: baseFile });
}

/** What LatestOnly does with the stages of an input nothing newer superseded. */
export interface LatestOnlyDelivery<P, Q, R> {
  quick(input: P, result: Q): void;
  full(input: P, result: R): void;
  fail(input: P, error: unknown): void;
}

/**
 * Runs one input at a time in two stages (a quick one, then the full one), and only the latest input: a `submit`
 * while one runs replaces any input still waiting, so a burst of 50 slider moves costs the one running and the last.
 * A stage's result is delivered only if nothing newer was submitted meanwhile; a superseded input's full stage is not
 * started, and a running one is aborted (`signal`: the worker's evaluate stops at its next pause, so the next move
 * does not wait for statistics nobody will see). The quick stage is not aborted: it is short, and the host's request
 * would settle at once while the worker (one thread) still finishes it; waiting for it keeps the worker to one move.
 */
export class LatestOnly<P, Q, R> {
  private pending?: P;
  private running = false;
  private abort?: AbortController;

  constructor(
    private readonly quick: (input: P) => Promise<Q>,
    private readonly full: (input: P, quick: Q, signal: AbortSignal) => Promise<R>,
    private readonly deliver: LatestOnlyDelivery<P, Q, R>,
  ) {}

  submit(input: P): void {
    this.pending = input;
    this.abort?.abort(new Error('superseded by a newer move'));
    if (!this.running) void this.loop();
  }

  /** A computation is running (tests). */
  get busy(): boolean {
    return this.running;
  }

  private async loop(): Promise<void> {
    this.running = true;
    try {
      while (this.pending !== undefined) {
        const input = this.pending;
        this.pending = undefined;
        try {
          const q = await this.quick(input);
          if (this.pending !== undefined) continue;
          this.deliver.quick(input, q);
          this.abort = new AbortController();
          const r = await this.full(input, q, this.abort.signal);
          if (this.pending === undefined) this.deliver.full(input, r);
        } catch (e) {
          if (this.pending === undefined) this.deliver.fail(input, e);
        } finally {
          this.abort = undefined;
        }
      }
    } finally {
      this.running = false;
    }
  }
}
