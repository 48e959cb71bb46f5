/**
 * The sweep view's model (no `vscode`; unit-tested in test/unit/extension/sweep-model.test.ts): the core's
 * SweepResult as the points the app draws, one point's per-query diff against BASE, the numeric settings of a
 * config a sweep can vary (and the one under the cursor), and where a chosen combination is saved.
 */
import { visibleText } from '../../core/util/visible-text';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { getLocation } from 'jsonc-parser';
import { type JudgmentSet, querySplit } from '../../core/judgments';
import { parseVary } from '../../core/tuning/parameters';
import { type SweepResult, combinationLabel } from '../../core/tuning/sweep';
import type { QueryDiff, SweepView } from '../../protocol/sweep';

export function sweepView(r: SweepResult, objective: string): SweepView {
  const points = r.rows
    .map((row) => ({
      index: row.index,
      values: row.values,
      tune: row.tune,
      holdout: row.holdout ?? NaN,
      gain: row.holdoutStats?.gain ?? NaN,
      ci: row.holdoutStats?.ci ?? ([NaN, NaN] as [number, number]),
      p: row.holdoutStats?.p ?? NaN,
    }))
    .sort((a, b) => a.index - b.index);
  return {
    base: r.base.config.name,
    objective,
    parameters: r.variations.map((v) => ({ path: v.path, kind: v.kind, values: v.values })),
    points,
    baseTune: r.base.tune,
    baseHoldout: r.base.holdout ?? NaN,
    best: r.rows[0]!.index, // runSweep throws when no combination could be scored
    split: r.split
      ? `${r.split.tune} tune / ${r.split.holdout} holdout queries (${r.split.source === 'judgments' ? "the judgments' split field" : 'hash of the query id'})`
      : '',
    warnings: r.warnings,
  };
}

/** One combination against BASE, per query: largest change first (then by query id). */
export function queryDiff(r: SweepResult, index: number, judgments: JudgmentSet): QueryDiff {
  const values = r.perQuery.combinations.get(index);
  const combination = r.combinations.find((c) => c.index === index);
  if (!values || !combination) throw new Error(`no evaluated combination ${index}`);
  const rows = [...r.perQuery.base]
    .filter(([qid]) => values.has(qid))
    .map(([qid, base]) => {
      const value = values.get(qid)!;
      const q = judgments.queries.get(qid);
      return { qid, text: visibleText(q?.text ?? ''), split: querySplit(judgments, qid), base, value, delta: value - base };
    });
  rows.sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || (a.qid < b.qid ? -1 : a.qid > b.qid ? 1 : 0));
  return { index, label: combinationLabel(combination.values), rows };
}

/** Every numeric setting written in a config (raw JSON) that a sweep can vary, with its value: `lexical.fields.title` → 1. */
export function numericSettings(raw: unknown): { path: string; value: number }[] {
  const out: { path: string; value: number }[] = [];
  const walk = (v: unknown, path: string[]) => {
    if (typeof v === 'number') {
      const p = path.join('.');
      try {
        parseVary(`${p}=${v}`);
        out.push({ path: p, value: v });
      } catch {
        // not a setting a sweep can vary
      }
    } else if (v && typeof v === 'object' && !Array.isArray(v)) {
      for (const [k, child] of Object.entries(v)) walk(child, [...path, k]);
    }
  };
  walk(raw, []);
  return out;
}

/** The numeric setting whose key or value the cursor (`offset` in the config's text) is on, if any. */
export function settingAt(text: string, offset: number, raw: unknown): string | undefined {
  const location = getLocation(text, offset);
  const path = location.path.map(String).join('.');
  return numericSettings(raw).find((s) => s.path === path)?.path;
}

/** A default range for a setting around its value (for the input box): 0..2×value in 10 steps, whole numbers for integer settings. */
export function defaultRange(path: string, value: number): string {
  const integer = !parseVaryOk(`${path}=0.5`);
  if (integer) {
    const step = Math.max(1, Math.round(value / 5));
    return `${Math.max(1, value - 5 * step)}..${value + 5 * step}:${step}`;
  }
  const top = value > 0 ? value * 2 : 1;
  const step = Number((top / 10).toPrecision(2));
  return path.startsWith('lexical.bm25.b') ? '0..1:0.1' : `0..${Number((step * 10).toPrecision(3))}:${step}`;
}

function parseVaryOk(text: string): boolean {
  try {
    parseVary(text);
    return true;
  } catch {
    return false;
  }
}

/** A new file beside BASE for a combination: `<base>-sweep-<n>.rank.json`, the first n that names no existing file. */
export function savePathFor(baseFile: string): string {
  const dir = dirname(baseFile);
  const name = basename(baseFile).replace(/\.rank\.json$/, '');
  for (let n = 1; ; n++) {
    const candidate = join(dir, `${name}-sweep-${n}.rank.json`);
    if (!existsSync(candidate)) return candidate;
  }
}
