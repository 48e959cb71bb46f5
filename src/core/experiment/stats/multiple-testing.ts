/**
 * Holm–Bonferroni adjusted p-values (Holm 1979, "A simple sequentially rejective multiple test
 * procedure", Scand. J. Statist. 6:65–70), in the same order as the input.
 *
 * Step-down: sort the m p-values ascending p_(1) <= ... <= p_(m); then
 *   adj_(k) = min(1, max_{j <= k} (m - j + 1) · p_(j)),
 * i.e. multiply by m, m-1, ..., 1, enforce monotonicity with a running maximum, cap at 1. Rejecting
 * where adj <= α controls the family-wise error rate at α. Same definition as R's
 * `p.adjust(p, "holm")`, including NaN handling: NaN entries (tests that could not be computed) stay
 * NaN and do not count towards m. Values outside [0, 1] → RangeError.
 */
export function holmBonferroni(pValues: readonly number[]): number[] {
  const order: number[] = [];
  pValues.forEach((p, i) => {
    if (Number.isNaN(p)) return;
    if (!(p >= 0 && p <= 1)) throw new RangeError(`holmBonferroni: p-value at index ${i} is ${p}, outside [0, 1]`);
    order.push(i);
  });
  order.sort((i, j) => pValues[i]! - pValues[j]! || i - j); // indices of pValues

  const adjusted = pValues.map(() => NaN);
  const m = order.length;
  let runningMax = 0;
  order.forEach((index, k) => {
    runningMax = Math.max(runningMax, Math.min(1, (m - k) * pValues[index]!));
    adjusted[index] = runningMax;
  });
  return adjusted;
}
