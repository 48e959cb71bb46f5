/**
 * Seeded pseudo-random numbers, so results that sample (bootstrap CI, permutation p, the randomized SVD's
 * test matrix) are reproducible from their seed.
 *
 * Generator: mulberry32 (Tommy Ettinger, 2017; public-domain JavaScript by bryc,
 * https://github.com/bryc/code/blob/master/jshash/PRNGs.md#mulberry32). 32-bit state, period 2^32,
 * passes gjrand/PractRand for the stream lengths we use (a few million draws). It is not
 * cryptographic and need not be.
 */
export class Mulberry32 {
  private state: number;

  /** The seed is reduced to 32 bits (`seed >>> 0`). */
  constructor(seed: number) {
    this.state = seed | 0;
  }

  /** The next output, a uniform unsigned 32-bit integer. */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return (z ^ (z >>> 14)) >>> 0;
  }

  /**
   * Fills `out` with the next out.length outputs (the same sequence as calling nextUint32). Hot loops
   * use this: the integers stay unboxed in the typed array instead of crossing a function return.
   */
  fill(out: Uint32Array): void {
    let state = this.state;
    for (let i = 0; i < out.length; i++) {
      state = (state + 0x6d2b79f5) | 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 15), z | 1);
      z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
      out[i] = z ^ (z >>> 14); // stored modulo 2^32
    }
    this.state = state;
  }

  /**
   * Fills `out` with the next out.length outputs, each scaled to an index in [0, n): floor(output · n / 2^32),
   * the very indices fill and that scaling give, in one pass (a resampling loop's hot path).
   */
  fillIndices(out: Uint32Array, n: number): void {
    const toIndex = n / 4294967296;
    let state = this.state;
    for (let i = 0; i < out.length; i++) {
      state = (state + 0x6d2b79f5) | 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 15), z | 1);
      z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
      out[i] = Math.floor(((z ^ (z >>> 14)) >>> 0) * toIndex);
    }
    this.state = state;
  }
}

/** Returns a generator of uniform unsigned 32-bit integers (mulberry32). */
export function createUint32Rng(seed: number): () => number {
  const generator = new Mulberry32(seed);
  return () => generator.nextUint32();
}

/** Returns a generator of uniform numbers in [0, 1): each is a mulberry32 output divided by 2^32. */
export function createRng(seed: number): () => number {
  const generator = new Mulberry32(seed);
  return () => generator.nextUint32() / 4294967296;
}

/** Standard normal samples by the Box–Muller transform over a uniform source; keeps the spare sample. */
export function gaussianSource(uniform: () => number): () => number {
  let spare: number | undefined;
  return () => {
    if (spare !== undefined) {
      const s = spare;
      spare = undefined;
      return s;
    }
    let u = 0;
    while (u === 0) u = uniform(); // ln(0) is -Infinity
    const v = uniform();
    const radius = Math.sqrt(-2 * Math.log(u));
    spare = radius * Math.sin(2 * Math.PI * v);
    return radius * Math.cos(2 * Math.PI * v);
  };
}
