// Property tests: the exact index (WebAssembly SIMD kernels, the JS fallback, permitted-set row lists and
// per-row filters, float16 / int8 storage) against the previous plain scan (test/helpers/plain-exact.ts).
//
// Tolerance. The plain scan sums float32 products in float64 (exactly: a product of two float32 is exact in
// float64, and each of its additions errs by 2^-53 of the running sum). The SIMD kernel multiplies and adds in
// float32 over 16 lanes and then combines the lanes, so each score can differ by a few float32 ulps of the
// sum of |terms| — at most about (d/16 + 6) * 2^-24 * S with S = Σ|q_j x_j| (or Σ (q_j - x_j)^2 for l2),
// i.e. below 3e-6 S for the dimensions here, and in practice a random walk far below 1e-6 S. The tests allow
// 1e-6 * S relative to S (not to the score: a sum near 0 after cancellation has no relative precision).
// Where two scores lie within that tolerance, float32 rounding may order them either way; everything else
// must come out in the same order. On integer-valued vectors every sum is exact in float32 too, and there
// the SIMD results must be identical to the plain scan: same ids, same order (many exact ties), same scores.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type DocFilter, permittedFilter } from '../../../src/core/retrieval/doc-filter';
import { ExactIndex, type ExactSpace, type VectorStorage } from '../../../src/core/retrieval/exact';
import { compareScored, type ScoredId } from '../../../src/core/retrieval/ranking';
import { loadScanModule } from '../../../src/core/retrieval/simd/kernels';
import { PlainExactIndex } from '../../helpers/plain-exact';

const TOLERANCE = 1e-6;
const SPACES: ExactSpace[] = ['cosine', 'ip', 'l2'];

before(async () => {
  assert.ok(await loadScanModule(), 'the WebAssembly SIMD kernels assemble and compile here');
});

/** mulberry32: vectors from a seed, so that a failing case is reproducible from its printed seed. */
function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Case {
  dim: number;
  n: number;
  seed: number;
  /** Share of vectors that copy an earlier one (exact ties under any kernel). */
  duplicates: number;
  /** Integer components in [-8, 8] (exact sums) instead of floats. */
  integer: boolean;
  filter: 'none' | 'empty' | 'all' | 'sparse' | 'half';
  k: number;
  capacity: number;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  dim: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 41, max: 300 })),
  n: fc.integer({ min: 0, max: 150 }),
  seed: fc.integer(),
  duplicates: fc.constantFrom(0, 0.2, 0.6),
  integer: fc.boolean(),
  filter: fc.constantFrom('none', 'empty', 'all', 'sparse', 'half'),
  k: fc.constantFrom(1, 3, 10, 100, 1000),
  capacity: fc.constantFrom(1, 7, 1024),
});

interface Data {
  ids: string[];
  vectors: Float32Array[];
  queries: Float32Array[];
  permitted?: Set<string>;
}

function dataFor(c: Case): Data {
  const r = rng(c.seed);
  const value = () => (c.integer ? Math.floor(r() * 17) - 8 : r() * 2 - 1);
  const vectors: Float32Array[] = [];
  for (let i = 0; i < c.n; i++) {
    const copy = i > 0 && r() < c.duplicates;
    vectors.push(copy ? vectors[Math.floor(r() * i)].slice() : Float32Array.from({ length: c.dim }, value));
  }
  // Ids in an order unrelated to insertion, with numeric strings so that "9" > "10" matters for ties.
  const ids = vectors.map((_, i) => String(((i * 7919 + c.seed) % 100003) >>> 0) + (i % 3 === 0 ? 'a' : ''));
  const queries = [0, 1, 2].map(() => Float32Array.from({ length: c.dim }, value));
  const share = { none: -1, empty: 0, all: 1, sparse: 0.1, half: 0.5 }[c.filter];
  const permitted = share < 0 ? undefined : new Set(ids.filter(() => r() < share));
  if (permitted && c.filter === 'all') ids.forEach((id) => permitted.add(id));
  return { ids: [...new Set(ids)].length === ids.length ? ids : ids.map((id, i) => `${id}-${i}`), vectors, queries, permitted };
}

/** Σ|q_j x_j| (or Σ (q_j - x_j)^2 for l2) over the vectors as the plain scan stores them: the tolerance's scale. */
function scaleOf(space: ExactSpace, q: ArrayLike<number>, x: ArrayLike<number>): number {
  const norm = (v: ArrayLike<number>) => Math.sqrt(Array.from(v).reduce((s, a) => s + a * a, 0)) || 1;
  const [nq, nx] = space === 'cosine' ? [norm(q), norm(x)] : [1, 1];
  let s = 0;
  for (let j = 0; j < q.length; j++) s += space === 'l2' ? (q[j] - x[j]) ** 2 : Math.abs((q[j] / nq) * (x[j] / nx));
  return s;
}

/**
 * `got` must be the oracle's top k: every score within tolerance of the oracle's score for that id, the same
 * length, and the same id at every rank unless the two scores there are within tolerance (a float32 near-tie).
 * `strict`: identical ids, order and scores.
 */
function assertMatches(got: ScoredId[], oracle: ScoredId[], tolOf: (id: string) => number, strict: boolean, label: string): void {
  if (strict) {
    assert.deepEqual(got, oracle, label);
    return;
  }
  assert.equal(got.length, oracle.length, `${label}: length`);
  const oracleScore = new Map(oracle.map((h) => [h.id, h.score]));
  for (let i = 0; i < got.length; i++) {
    const tol = tolOf(got[i].id);
    const expected = oracle[i];
    if (got[i].id !== expected.id) {
      assert.ok(
        Math.abs(got[i].score - expected.score) <= tol + tolOf(expected.id),
        `${label}: rank ${i + 1} is ${got[i].id} (${got[i].score}), oracle has ${expected.id} (${expected.score})`,
      );
    }
    const own = oracleScore.get(got[i].id);
    if (own !== undefined) assert.ok(Math.abs(got[i].score - own) <= tol, `${label}: score of ${got[i].id} ${got[i].score} vs ${own}`);
  }
  // The list itself is in compareScored order (ties by id descending).
  assert.deepEqual([...got].sort(compareScored), got, `${label}: order`);
}

function build(c: Case, d: Data, space: ExactSpace, options: { storage?: VectorStorage; kernel: 'simd' | 'js' }): ExactIndex {
  const index = new ExactIndex(c.dim, space, { ...options, capacity: c.capacity });
  d.ids.forEach((id, i) => index.set(id, d.vectors[i]));
  return index;
}

function filtersOf(d: Data): Array<{ name: string; filter?: DocFilter }> {
  if (!d.permitted) return [{ name: 'no filter' }];
  const set = d.permitted;
  return [
    { name: 'permitted set', filter: permittedFilter(set) },
    { name: 'per-row function', filter: (id: string) => set.has(id) },
  ];
}

test('SIMD and JS exact search = the plain scan (cosine, ip, l2; any dimension; filters; exact ties)', () => {
  fc.assert(
    fc.property(caseArb, (c) => {
      const d = dataFor(c);
      for (const space of SPACES) {
        const plain = new PlainExactIndex(c.dim, space);
        d.ids.forEach((id, i) => plain.set(id, d.vectors[i]));
        const vectorOf = new Map(d.ids.map((id, i) => [id, d.vectors[i]]));
        for (const kernel of ['simd', 'js'] as const) {
          const index = build(c, d, space, { kernel });
          assert.equal(index.kernel, kernel);
          for (const { name, filter } of filtersOf(d)) {
            for (const q of d.queries) {
              const oracle = plain.search(q, c.k, d.permitted ? (id) => d.permitted!.has(id) : undefined);
              const got = index.search(q, c.k, filter);
              // integer vectors: exact sums everywhere (cosine normalises, so not there)
              const strict = c.integer && space !== 'cosine';
              assertMatches(
                got,
                oracle,
                (id) => TOLERANCE * scaleOf(space, q, vectorOf.get(id)!) + 1e-300,
                strict,
                `${space} ${kernel} ${name}`,
              );
            }
          }
        }
      }
    }),
    { numRuns: 60, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH, endOnFailure: true } : {}) },
  );
});

test('after deletions, replacements and re-insertions the index still equals the plain scan (row lists follow the layout)', () => {
  fc.assert(
    fc.property(caseArb, fc.integer(), (c, seed) => {
      const d = dataFor({ ...c, n: Math.max(c.n, 5) });
      const r = rng(seed);
      const space: ExactSpace = SPACES[Math.floor(r() * 3)];
      const plain = new PlainExactIndex(c.dim, space);
      const index = new ExactIndex(c.dim, space, { kernel: 'simd', capacity: c.capacity });
      const current = new Map<string, Float32Array>();
      const put = (id: string, v: Float32Array) => (plain.set(id, v), index.set(id, v), current.set(id, v));
      d.ids.forEach((id, i) => put(id, d.vectors[i]));
      const set = new Set(d.ids.filter(() => r() < 0.5));
      const filter = permittedFilter(set); // one filter object throughout: its cached rows must be renewed
      const check = (label: string) => {
        for (const q of d.queries) {
          const oracle = plain.search(q, c.k, (id) => set.has(id));
          assertMatches(
            index.search(q, c.k, filter),
            oracle,
            (id) => TOLERANCE * scaleOf(space, q, current.get(id)!) + 1e-300,
            c.integer && space !== 'cosine',
            label,
          );
          assert.equal(index.permittedCount(filter), [...set].filter((id) => current.has(id)).length, `${label}: permitted count`);
        }
      };
      check('initial');
      for (const id of d.ids) {
        const x = r();
        if (x < 0.3) {
          plain.delete(id);
          index.delete(id);
          current.delete(id);
        } else if (x < 0.5) {
          put(id, d.vectors[Math.floor(r() * d.vectors.length)]);
        }
      }
      check('after deletes and replacements');
      d.vectors.slice(0, 5).forEach((v, i) => put(`new${i}`, v)); // reuses freed rows
      set.add('new0');
      set.add('new3');
      // The set changed under the filter: that breaks DocFilter's contract; use a fresh one, as the session does.
      const fresh = permittedFilter(new Set(set));
      for (const q of d.queries) {
        const oracle = plain.search(q, c.k, (id) => set.has(id));
        assertMatches(
          index.search(q, c.k, fresh),
          oracle,
          (id) => TOLERANCE * scaleOf(space, q, current.get(id)!) + 1e-300,
          c.integer && space !== 'cosine',
          'after re-insertion',
        );
      }
    }),
    { numRuns: 40 },
  );
});

test('float16 and int8 storage: SIMD = JS kernels, and = the plain scan over the stored (decoded) vectors', () => {
  fc.assert(
    fc.property(caseArb, (c) => {
      const d = dataFor({ ...c, dim: Math.min(c.dim, 256) });
      const dim = Math.min(c.dim, 256);
      for (const storage of ['float16', 'int8'] as const) {
        for (const space of SPACES) {
          const simd = build({ ...c, dim }, d, space, { storage, kernel: 'simd' });
          const js = build({ ...c, dim }, d, space, { storage, kernel: 'js' });
          // The oracle sees what the index stores (normalised for cosine, then rounded), as inner products or l2.
          const plain = new PlainExactIndex(dim, space === 'cosine' ? 'ip' : space);
          d.ids.forEach((id) => plain.set(id, simd.vectorOf(id)!));
          for (const { name, filter } of filtersOf(d)) {
            for (const query of d.queries) {
              const q = space === 'cosine' ? normalised(query) : query;
              const a = simd.search(query, c.k, filter);
              const b = js.search(query, c.k, filter);
              const oracle = plain.search(q, c.k, d.permitted ? (id) => d.permitted!.has(id) : undefined);
              const label = `${storage} ${space} ${name}`;
              if (storage === 'int8') {
                // integer products are exact in both kernels, and the scaling is the same JS code
                assert.deepEqual(a, b, `${label}: SIMD = JS`);
                // the query is rounded to int16: each |Δq_j| <= max|q| / (2 * 32767)
                const maxQ = Math.max(...Array.from(q, Math.abs));
                const tol = (id: string) => {
                  const x = simd.vectorOf(id)!;
                  const sumX = Array.from(x).reduce((s, v) => s + Math.abs(v), 0);
                  const sumQ = space === 'l2' ? Array.from(q).reduce((s, v) => s + Math.abs(v), 0) : 0;
                  // l2 also adds the stored |x|^2 and |q|^2, each with its own float rounding (a zero query has no
                  // quantisation error at all, but still that one)
                  const norms = space === 'l2' ? dot(q, q) + dot(x, x) : 0;
                  return (sumX + sumQ) * (maxQ / 65534) * 2 + TOLERANCE * (scaleOf('ip', q, x) * 4 + norms) + 1e-300;
                };
                assertMatches(a, oracle, tol, false, `${label}: vs plain`);
              } else {
                const tol = (id: string) => {
                  const x = simd.vectorOf(id)!;
                  // l2 from |q|^2 - 2 q.x + |x|^2: the error scales with every term of that sum
                  const s = space === 'l2' ? scaleOf('l2', q, x) + 2 * scaleOf('ip', q, x) + dot(q, q) + dot(x, x) : scaleOf('ip', q, x);
                  return TOLERANCE * s + 1e-300;
                };
                assertMatches(a, oracle, tol, false, `${label}: SIMD vs plain`);
                assertMatches(b, oracle, tol, false, `${label}: JS vs plain`);
              }
            }
          }
        }
      }
    }),
    { numRuns: 30, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH, endOnFailure: true } : {}) },
  );
});

function normalised(v: Float32Array): Float32Array {
  const n = Math.sqrt(dot(v, v));
  return n > 0 ? Float32Array.from(v, (x) => x / n) : v.slice();
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j] * b[j];
  return s;
}
