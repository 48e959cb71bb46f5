/**
 * Agreement between raters on the (query, document) pairs they both graded.
 *
 * - Cohen's κ (Cohen 1960) per pair of raters: (p_o − p_e) / (1 − p_e) from their confusion matrix over the grades
 *   0..G (G = the highest grade given); weighted κ (Cohen 1968): 1 − Σ w_ij O_ij / Σ w_ij E_ij with disagreement
 *   weights w_ij = |i − j| (linear) and (i − j)² (quadratic), E_ij = row_i · col_j / n. Both as scikit-learn's
 *   `cohen_kappa_score(labels=0..G, weights=...)`. Undefined (null) when chance agreement is total (p_e = 1).
 * - Krippendorff's α, ordinal metric (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"): any number
 *   of raters, missing grades allowed; units = pairs graded at least twice; α = 1 − (n − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck
 *   with the coincidence matrix o, n_c its margins and δ²_ck = (Σ_{g=c..k} n_g − (n_c + n_k)/2)². Null without
 *   expected disagreement.
 * - Binary κ at a relevance threshold T: the same pairs with each grade read as relevant (grade ≥ T) or not, so a
 *   rater who grades 0/1 can be compared with raters who grade 0–3 (on raw grades a binary "1" is a disagreement with
 *   every 2 and 3, and κ says nothing useful); T is the threshold the metrics use (`relevanceThreshold`, default 1).
 * - Overall: α over every person (LLM raters `llm:MODEL` and the click rater `clicks` are reported only against each
 *   person, never mixed in),
 *   the mean pairwise κ between people (Light's κ), and every pair the people graded differently.
 */
import { isLlmRater, isMachineRater } from '../judgments/merge';
import type { JudgmentSet } from '../judgments/types';
import { compareIdBytes } from '../util/id-order';

type Grades = Map<string, Map<string, number>>;

export interface Conflict {
  qid: string;
  docId: string;
  /** Each rater's grade, for the raters that graded the pair. */
  grades: Record<string, number>;
}

export interface PairAgreement {
  a: string;
  b: string;
  /** Pairs both graded. */
  overlap: number;
  /** Share of those with the same grade. */
  agreement: number | null;
  kappa: number | null;
  kappaLinear: number | null;
  kappaQuadratic: number | null;
  alpha: number | null;
  /** confusion[i][j] = pairs `a` graded i and `b` graded j. */
  confusion: number[][];
  /** Share of the pairs both call relevant (grade ≥ threshold) or both not. */
  agreementBinary: number | null;
  /** Cohen's κ of relevant / not relevant at the threshold. */
  kappaBinary: number | null;
  /** [[neither relevant, only b], [only a, both]]: rows `a` not relevant / relevant, columns `b`. */
  confusionBinary: number[][];
  conflicts: Conflict[];
}

export interface AgreementReport {
  /** `machine`: an LLM or the clicks, compared with each person and left out of the overall figures. */
  raters: { name: string; grades: number; llm: boolean; machine: boolean }[];
  /** The grades 0..G every matrix is indexed by. */
  scale: number[];
  /** Grade from which a pair counts as relevant in the binary figures. */
  threshold: number;
  pairs: PairAgreement[];
  overall: {
    people: string[];
    /** Pairs graded by at least two people. */
    overlap: number;
    alpha: number | null;
    /** Mean of the pairwise κ between people (Light 1971), over pairs with a κ. */
    meanKappa: number | null;
    meanKappaLinear: number | null;
    meanKappaQuadratic: number | null;
    meanKappaBinary: number | null;
    conflicts: Conflict[];
  };
}

export interface AgreementOptions {
  /** Relevant from this grade on, for the binary figures (default 1). */
  threshold?: number;
}

/** Cohen's κ of a square confusion matrix; `weights` = disagreement weight of (i, j). */
export function cohenKappa(confusion: number[][], weights: 'none' | 'linear' | 'quadratic' = 'none'): number | null {
  const k = confusion.length;
  const n = confusion.flat().reduce((s, x) => s + x, 0);
  if (n === 0) return null;
  const rows = confusion.map((r) => r.reduce((s, x) => s + x, 0));
  const cols = confusion[0]!.map((_, j) => confusion.reduce((s, r) => s + r[j]!, 0));
  const w = (i: number, j: number) => (weights === 'none' ? (i === j ? 0 : 1) : weights === 'linear' ? Math.abs(i - j) : (i - j) ** 2);
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      observed += w(i, j) * confusion[i]![j]!;
      expected += (w(i, j) * rows[i]! * cols[j]!) / n;
    }
  }
  return expected === 0 ? null : 1 - observed / expected;
}

/**
 * Krippendorff's α with the ordinal metric. `units`: each unit's values (one per rater who graded it; values are
 * integer ranks 0..). Units with fewer than two values are not pairable and are left out.
 */
export function krippendorffOrdinalAlpha(units: number[][]): number | null {
  const pairable = units.filter((u) => u.length >= 2);
  if (pairable.length === 0) return null;
  const values = [...new Set(pairable.flat())].sort((x, y) => x - y);
  const index = new Map(values.map((v, i) => [v, i]));
  const V = values.length;
  const o = Array.from({ length: V }, () => new Array<number>(V).fill(0));
  for (const u of pairable) {
    const m = u.length;
    for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) if (i !== j) o[index.get(u[i]!)!]![index.get(u[j]!)!]! += 1 / (m - 1);
  }
  const nc = o.map((r) => r.reduce((s, x) => s + x, 0));
  const n = nc.reduce((s, x) => s + x, 0);
  const delta2 = (c: number, k: number) => {
    const [lo, hi] = c <= k ? [c, k] : [k, c];
    let s = 0;
    for (let g = lo; g <= hi; g++) s += nc[g]!;
    return (s - (nc[lo]! + nc[hi]!) / 2) ** 2;
  };
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < V; c++) {
    for (let k = 0; k < V; k++) {
      const d = delta2(c, k);
      observed += o[c]![k]! * d;
      expected += nc[c]! * nc[k]! * d;
    }
  }
  return expected === 0 ? null : 1 - ((n - 1) * observed) / expected;
}

export function agreementReport(set: JudgmentSet, opts: AgreementOptions = {}): AgreementReport {
  const threshold = opts.threshold ?? 1;
  if (!Number.isInteger(threshold) || threshold < 1) throw new RangeError(`relevance threshold must be an integer >= 1, not ${threshold}`);
  const ratings = set.ratings ?? new Map([['default', set.qrels]]);
  const names = [...ratings.keys()];
  let G = 0;
  for (const g of ratings.values()) for (const docs of g.values()) for (const x of docs.values()) G = Math.max(G, x);
  const scale = Array.from({ length: G + 1 }, (_, i) => i);
  const pairs: PairAgreement[] = [];
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      // A person is always the first of a pair with an LLM or the clicks ("llm:MODEL against ana").
      const [a, b] = isMachineRater(names[i]!) && !isMachineRater(names[j]!) ? [names[j]!, names[i]!] : [names[i]!, names[j]!];
      pairs.push(pairAgreement(a, b, ratings.get(a)!, ratings.get(b)!, G, threshold));
    }
  }
  const people = names.filter((r) => !isMachineRater(r));
  const units = unitsOf(people, ratings);
  const peoplePairs = pairs.filter((p) => !isMachineRater(p.a) && !isMachineRater(p.b));
  const mean = (xs: Array<number | null>) => {
    const defined = xs.filter((x): x is number => x !== null);
    return defined.length ? defined.reduce((s, x) => s + x, 0) / defined.length : null;
  };
  return {
    raters: names.map((name) => ({
      name,
      grades: [...ratings.get(name)!.values()].reduce((s, d) => s + d.size, 0),
      llm: isLlmRater(name),
      machine: isMachineRater(name),
    })),
    scale,
    threshold,
    pairs,
    overall: {
      people,
      overlap: units.filter((u) => Object.keys(u.grades).length >= 2).length,
      alpha: krippendorffOrdinalAlpha(units.map((u) => Object.values(u.grades))),
      meanKappa: mean(peoplePairs.map((p) => p.kappa)),
      meanKappaLinear: mean(peoplePairs.map((p) => p.kappaLinear)),
      meanKappaQuadratic: mean(peoplePairs.map((p) => p.kappaQuadratic)),
      meanKappaBinary: mean(peoplePairs.map((p) => p.kappaBinary)),
      conflicts: sortConflicts(units.filter((u) => new Set(Object.values(u.grades)).size > 1)),
    },
  };
}

function pairAgreement(a: string, b: string, ga: Grades, gb: Grades, G: number, threshold: number): PairAgreement {
  const confusion = Array.from({ length: G + 1 }, () => new Array<number>(G + 1).fill(0));
  const conflicts: Conflict[] = [];
  const units: number[][] = [];
  let overlap = 0;
  let same = 0;
  for (const [qid, docs] of ga) {
    const other = gb.get(qid);
    if (!other) continue;
    for (const [docId, x] of docs) {
      const y = other.get(docId);
      if (y === undefined) continue;
      overlap++;
      confusion[x]![y]!++;
      units.push([x, y]);
      if (x === y) same++;
      else conflicts.push({ qid, docId, grades: { [a]: x, [b]: y } });
    }
  }
  return {
    a,
    b,
    overlap,
    agreement: overlap ? same / overlap : null,
    kappa: cohenKappa(confusion),
    kappaLinear: cohenKappa(confusion, 'linear'),
    kappaQuadratic: cohenKappa(confusion, 'quadratic'),
    alpha: krippendorffOrdinalAlpha(units),
    confusion,
    ...binaryAgreement(confusion, threshold, overlap),
    conflicts: sortConflicts(conflicts),
  };
}

/** The graded confusion matrix folded at the threshold: not relevant (grade < threshold) and relevant. */
function binaryAgreement(
  confusion: number[][],
  threshold: number,
  overlap: number,
): Pick<PairAgreement, 'agreementBinary' | 'kappaBinary' | 'confusionBinary'> {
  const binary = [
    [0, 0],
    [0, 0],
  ];
  confusion.forEach((row, i) => row.forEach((n, j) => (binary[Number(i >= threshold)]![Number(j >= threshold)]! += n)));
  return {
    agreementBinary: overlap ? (binary[0]![0]! + binary[1]![1]!) / overlap : null,
    kappaBinary: cohenKappa(binary),
    confusionBinary: binary,
  };
}

/** Every pair graded by at least two of `raters`, with their grades, in the order the pairs were read. */
function unitsOf(raters: string[], ratings: Map<string, Grades>): Conflict[] {
  const units = new Map<string, Conflict>();
  for (const r of raters) {
    for (const [qid, docs] of ratings.get(r)!) {
      for (const [docId, g] of docs) {
        const key = `${qid}\t${docId}`;
        let u = units.get(key);
        if (!u) units.set(key, (u = { qid, docId, grades: {} }));
        u.grades[r] = g;
      }
    }
  }
  return [...units.values()].filter((u) => Object.keys(u.grades).length >= 2);
}

/** Largest disagreement (grade spread) first, then by query and document. */
function sortConflicts(list: Conflict[]): Conflict[] {
  const spread = (c: Conflict) => Math.max(...Object.values(c.grades)) - Math.min(...Object.values(c.grades));
  return list.sort((x, y) => spread(y) - spread(x) || compareIdBytes(x.qid, y.qid) || compareIdBytes(x.docId, y.docId));
}
