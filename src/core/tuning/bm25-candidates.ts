/**
 * One judged query's lexical candidates with what BM25 needs to score them again under any k1, b and d: per
 * (field, query-term occurrence, vocabulary expansion) posting list its weight, idf and (candidate, tf) pairs; per
 * candidate its document number (for the field lengths, read through the postings' norms). `rescore` writes the
 * per-field scores into a FieldScores that CandidateRanker ranks: the same floating-point operations in the same
 * order as pruned top-k (postings/top-k.ts), so the scores are bit-identical to a search with those settings.
 * The candidate set (every document matching a term in a field) does not depend on k1, b or d; prefix and fuzzy
 * change it, so they stay as the base config has them.
 */
import type { Bm25Params } from '../config/types';
import type { FieldScores, LexicalIndex } from '../retrieval/lexical';
import { expand, idfOf } from '../retrieval/postings/top-k';
import type { Postings } from '../retrieval/postings/postings';

interface TermList {
  weight: number;
  idf: number;
  slots: Int32Array;
  tfs: Float64Array;
}

/** The lists of one query-term occurrence in one field (MiniSearch sums them into one term score). */
type Group = TermList[];

export class Bm25Candidates {
  readonly scores: FieldScores;
  /** Per index field: the occurrence groups, in query order. */
  private readonly groups: Group[][];
  /** Per index field, per candidate: distinct query terms matched in it (MiniSearch's ×q/q). */
  private readonly fieldQuality: Uint16Array[];
  /** Document number per candidate. */
  private readonly docs: Int32Array;

  constructor(
    private readonly postings: Postings,
    index: LexicalIndex,
    text: string,
    settings: { prefix: boolean; fuzzy: number },
  ) {
    const p = postings;
    const terms = index.analyzer.analyze(text);
    const distinct = [...new Set(terms)];
    const sourceOf = new Map(distinct.map((t, i) => [t, i]));
    const maskWords = Math.max(1, Math.ceil(distinct.length / 32));
    const slotOf = new Map<number, number>();
    const docs: number[] = [];
    const expansions = new Map<string, Array<[number, number]>>();
    // Each list's place in the postings, for the term masks once every candidate has its slot.
    const raw: Array<Array<{ source: number; start: number; end: number }>> = [];
    this.groups = [];
    for (let field = 0; field < index.fields.length; field++) {
      const fieldGroups: Group[] = [];
      const fieldRaw: (typeof raw)[number] = [];
      for (const term of terms) {
        let exp = expansions.get(term);
        if (!exp) expansions.set(term, (exp = expand(p, term, settings.prefix, settings.fuzzy)));
        const group: Group = [];
        for (const [t, weight] of exp) {
          // t is a term number and field < fieldCount: l is a list, whose postings [start, end) lie within docs / tfs.
          const l = t * p.fieldCount + field;
          const start = p.start[l]!;
          const end = p.end[l]!;
          if (end === start) continue;
          const slots = new Int32Array(end - start);
          const tfs = new Float64Array(end - start);
          for (let i = start; i < end; i++) {
            const n = p.docs[i]!;
            let s = slotOf.get(n);
            if (s === undefined) {
              s = docs.length;
              slotOf.set(n, s);
              docs.push(n);
            }
            slots[i - start] = s;
            tfs[i - start] = p.tfs[i]!;
          }
          group.push({ weight, idf: idfOf(p.documentCount, end - start), slots, tfs });
          fieldRaw.push({ source: sourceOf.get(term)!, start, end });
        }
        if (group.length) fieldGroups.push(group);
      }
      this.groups.push(fieldGroups);
      raw.push(fieldRaw);
    }
    this.docs = Int32Array.from(docs);
    const n = docs.length;
    const perField: FieldScores['perField'] = new Map();
    this.fieldQuality = [];
    // raw has a list per field; a posting's document has its slot s < n, a source is below 32 · maskWords, so the
    // masks' words are in range.
    index.fields.forEach((name, field) => {
      const mask = new Uint32Array(n * maskWords);
      for (const list of raw[field]!) {
        for (let i = list.start; i < list.end; i++) {
          const s = slotOf.get(p.docs[i]!)!;
          mask[s * maskWords + (list.source >>> 5)]! |= 1 << (list.source & 31);
        }
      }
      const quality = new Uint16Array(n);
      for (let s = 0; s < n; s++) {
        let q = 0;
        for (let w = 0; w < maskWords; w++) q += popCount(mask[s * maskWords + w]!);
        quality[s] = q;
      }
      this.fieldQuality.push(quality);
      perField.set(name, { raw: new Float64Array(n), mask });
    });
    this.scores = { docIds: docs.map((d) => p.ids[d]!), termCount: distinct.length, maskWords, perField };
  }

  /** Writes each candidate's per-field score under these BM25 settings into `scores` (in place). */
  rescore(bm25: Bm25Params, fieldNames: readonly string[]): void {
    const { k1: k, b, d } = bm25;
    const k1p1 = k + 1;
    const n = this.docs.length;
    const termSum = new Float64Array(n);
    const seen = new Int32Array(n).fill(-1);
    const touched = new Int32Array(n);
    let stamp = 0;
    // fieldNames are the index's fields (scores has one column per field); a slot s < n indexes every per-candidate
    // array (termSum, seen, touched, quality, fieldSum, docs) and a document number the norms; count ≤ n.
    for (let field = 0; field < this.groups.length; field++) {
      const norm = this.postings.norms(field, k, b);
      const fieldSum = this.scores.perField.get(fieldNames[field]!)!.raw;
      fieldSum.fill(0);
      for (const group of this.groups[field]!) {
        // A candidate's term score: its lists' contributions summed in list order (top-k's order), then added once.
        let count = 0;
        stamp++;
        for (const list of group) {
          const { weight, idf, slots, tfs } = list;
          for (let i = 0; i < slots.length; i++) {
            const s = slots[i]!;
            const tf = tfs[i]!;
            const x = weight * (idf * (d + (tf * k1p1) / (tf + norm[this.docs[s]!]!)));
            if (seen[s] !== stamp) {
              seen[s] = stamp;
              touched[count++] = s;
              termSum[s] = x;
            } else termSum[s]! += x;
          }
        }
        for (let i = 0; i < count; i++) fieldSum[touched[i]!]! += termSum[touched[i]!]!;
      }
      const quality = this.fieldQuality[field]!;
      for (let s = 0; s < n; s++) if (quality[s]! > 0) fieldSum[s] = (fieldSum[s]! * quality[s]!) / quality[s]!;
    }
  }
}

function popCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
