/**
 * Student's t distribution via the regularized incomplete beta function, following Numerical Recipes
 * (Press et al., "Numerical Recipes", 3rd ed., 2007, §6.1 gammln, §6.4 betai/betacf, §6.14.8 Student's t).
 */

/** Lanczos coefficients for γ = 671/128, n = 14 (Numerical Recipes 3rd ed. §6.1); |error| < 1e-15. */
const LANCZOS = [
  57.1562356658629235, -59.5979603554754912, 14.1360979747417471, -0.491913816097620199, 0.339946499848118887e-4, 0.465236289270485756e-4,
  -0.983744753048795646e-4, 0.158088703224912494e-3, -0.210264441724104883e-3, 0.217439618115212643e-3, -0.16431810653676389e-3,
  0.844182239838527433e-4, -0.261908384015814087e-4, 0.368991826595316234e-5,
];

/** ln Γ(x) for x > 0 (Lanczos approximation, NR3 §6.1 `gammln`). */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`logGamma: x must be > 0, got ${x}`);
  let y = x;
  let tmp = x + 5.2421875;
  tmp = (x + 0.5) * Math.log(tmp) - tmp;
  let series = 0.999999999999997092;
  for (const c of LANCZOS) series += c / ++y;
  return tmp + Math.log((2.5066282746310005 * series) / x);
}

const MAX_ITERATIONS = 10_000;
const EPSILON = 1e-15;
const TINY = 1e-300;

/**
 * Continued fraction for I_x(a, b), evaluated with the modified Lentz method (NR3 §6.4 `betacf`):
 *   I_x(a,b) = x^a (1-x)^b / (a B(a,b)) · 1/(1+ d1/(1+ d2/(1+ ...)))
 *   d_{2m+1} = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)),  d_{2m} = m(b-m) x / ((a+2m-1)(a+2m)).
 * Converges fast for x < (a+1)/(a+b+2); the caller uses the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) otherwise.
 */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) <= EPSILON) return h;
  }
  throw new Error(`regularizedIncompleteBeta: continued fraction did not converge (a=${a}, b=${b}, x=${x})`);
}

/**
 * Regularized incomplete beta function I_x(a, b) = B(x; a, b) / B(a, b)
 *   = 1/B(a,b) ∫_0^x t^(a-1) (1-t)^(b-1) dt,  for a, b > 0 and x in [0, 1] (NR3 §6.4 `betai`).
 */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`regularizedIncompleteBeta: a and b must be > 0, got a=${a}, b=${b}`);
  if (Number.isNaN(x)) return NaN;
  if (x < 0 || x > 1) throw new RangeError(`regularizedIncompleteBeta: x must be in [0, 1], got ${x}`);
  if (x === 0) return 0;
  if (x === 1) return 1;
  // Front factor x^a (1-x)^b / B(a,b), in logs to avoid overflow.
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/**
 * Two-sided tail probability of Student's t with `df` degrees of freedom:
 *   P(|T| >= |t|) = I_{df/(df+t²)}(df/2, 1/2)   (NR3 eq. 6.14.11; Abramowitz & Stegun 26.7.1 with 26.5.27).
 * Computed directly rather than as 2·(1 - CDF) so that tiny p-values keep their precision.
 * df must be > 0 (non-integer df allowed). t = ±∞ → 0; NaN → NaN.
 */
export function studentTTwoSidedP(t: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`studentTTwoSidedP: df must be > 0, got ${df}`);
  if (Number.isNaN(t)) return NaN;
  if (!Number.isFinite(t)) return 0;
  return regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** Cumulative distribution P(T <= t) of Student's t with `df` degrees of freedom (df > 0). */
export function studentTCdf(t: number, df: number): number {
  const tail = studentTTwoSidedP(t, df) / 2;
  return t > 0 ? 1 - tail : tail;
}
