// recombine (the boost recombination a sweep repeats) against a plain reference: score every candidate, keep the
// ones that match (OR/AND, filter), sort all, cut at depth. Scores on a coarse grid so ties (score and id order) are
// common; each case is recombined several times so the repeated-use path (threshold algorithm) is the one compared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type FieldScores, recombine } from '../../../src/core/retrieval/lexical';
import { compareScored } from '../../../src/core/retrieval/ranking';

const FIELDS = ['title', 'body', 'tags'];

interface Case {
  termCount: number;
  docs: { raw: number[]; terms: number[][] }[];
}

function fieldScores(c: Case): FieldScores {
  const maskWords = Math.max(1, Math.ceil(c.termCount / 32));
  const perField = new Map<string, { raw: Float64Array; mask: Uint32Array }>();
  FIELDS.forEach((field, f) => {
    const raw = new Float64Array(c.docs.length);
    const mask = new Uint32Array(c.docs.length * maskWords);
    c.docs.forEach((d, i) => {
      raw[i] = d.raw[f];
      if (d.raw[f] === 0) return;
      for (const t of d.terms[f]) mask[i * maskWords + (t >>> 5)] |= 1 << (t & 31);
    });
    perField.set(field, { raw, mask });
  });
  return { docIds: c.docs.map((_, i) => `d${(i * 7) % 13}-${i}`), termCount: c.termCount, maskWords, perField };
}

/** The reference, written from the definition (not from recombine). */
function reference(
  c: Case,
  ids: string[],
  boosts: Record<string, number>,
  and: boolean,
  coordination: boolean,
  depth: number,
  filter?: (id: string) => boolean,
) {
  const matching: { id: string; score: number }[] = [];
  c.docs.forEach((d, i) => {
    const terms = new Set<number>();
    let score = 0;
    FIELDS.forEach((field, f) => {
      if (!((boosts[field] ?? 0) > 0) || d.raw[f] === 0) return;
      score += boosts[field] * d.raw[f];
      for (const t of d.terms[f]) terms.add(t);
    });
    if (terms.size === 0 || (and && terms.size < c.termCount)) return;
    if (filter && !filter(ids[i])) return;
    matching.push({ id: ids[i], score: coordination ? score * terms.size : score });
  });
  return { hits: matching.sort(compareScored).slice(0, depth), total: matching.length };
}

const caseArb = fc.integer({ min: 1, max: 40 }).chain((termCount) =>
  fc.record({
    termCount: fc.constant(termCount),
    docs: fc.array(
      fc.record({
        // a coarse grid of scores (many ties), 0 = the field does not match
        raw: fc.array(
          fc.integer({ min: 0, max: 6 }).map((x) => x * 0.75),
          { minLength: 3, maxLength: 3 },
        ),
        terms: fc.array(fc.uniqueArray(fc.integer({ min: 0, max: termCount - 1 }), { minLength: 1, maxLength: Math.min(termCount, 5) }), {
          minLength: 3,
          maxLength: 3,
        }),
      }),
      { maxLength: 120 },
    ),
  }),
);
const boostArb = fc.record({
  title: fc.constantFrom(0, 0.5, 1, 1.5, 3),
  body: fc.constantFrom(0, 0.5, 1, 2.5),
  tags: fc.constantFrom(0, 1, 0.1),
});

test('recombine equals scoring, filtering and sorting every candidate, on first and repeated use', () => {
  fc.assert(
    fc.property(
      caseArb,
      fc.array(
        fc.record({
          boosts: boostArb,
          and: fc.boolean(),
          coordination: fc.boolean(),
          depth: fc.constantFrom(0, 1, 3, 10, 50, 1000),
          filtered: fc.boolean(),
        }),
        { minLength: 1, maxLength: 6 },
      ),
      (c, queries) => {
        const scores = fieldScores(c);
        for (const q of queries) {
          const filter = q.filtered ? (id: string) => !id.startsWith('d3') : undefined;
          const expected = reference(c, scores.docIds, q.boosts, q.and, q.coordination, q.depth, filter);
          for (let repeat = 0; repeat < 2; repeat++) {
            const got = recombine(scores, {
              boosts: q.boosts,
              combineWith: q.and ? 'AND' : 'OR',
              coordination: q.coordination,
              depth: q.depth,
              filter,
            });
            assert.deepEqual(got, expected);
          }
        }
      },
    ),
    { numRuns: 300 },
  );
});
