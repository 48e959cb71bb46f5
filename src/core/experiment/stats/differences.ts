/**
 * Paired per-query differences d_i = b_i - a_i (candidate minus baseline), the common input of every
 * paired test here. Both arrays must list the same queries in the same order.
 */
export function pairedDifferences(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  if (a.length !== b.length) {
    throw new RangeError(`paired statistics need one value per query on both sides: baseline has ${a.length}, candidate has ${b.length}`);
  }
  const d = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i]; // the lengths are equal (above)
    if (x === undefined || y === undefined || !Number.isFinite(x) || !Number.isFinite(y)) {
      throw new RangeError(`paired statistics need finite values: query index ${i} has baseline ${x}, candidate ${y}`);
    }
    d[i] = y - x;
  }
  return d;
}

export interface WinsLossesTies {
  /** Queries where the candidate is better: b - a > epsilon. */
  wins: number;
  /** Queries where the candidate is worse: b - a < -epsilon. */
  losses: number;
  /** |b - a| <= epsilon. */
  ties: number;
}

/**
 * Counts per-query wins, losses and ties of candidate b over baseline a, for metrics where higher is
 * better. `epsilon` absorbs floating-point noise so that equal rankings count as ties.
 */
export function winsLossesTies(a: ArrayLike<number>, b: ArrayLike<number>, epsilon = 1e-9): WinsLossesTies {
  if (!(epsilon >= 0)) throw new RangeError(`winsLossesTies: epsilon must be >= 0, got ${epsilon}`);
  const d = pairedDifferences(a, b);
  const counts: WinsLossesTies = { wins: 0, losses: 0, ties: 0 };
  for (const x of d) {
    if (x > epsilon) counts.wins++;
    else if (x < -epsilon) counts.losses++;
    else counts.ties++;
  }
  return counts;
}
