/** Number formats of the dashboard (pure: unit-tested in plain Node). A minus sign is U+2212, as in print. */

const finite = (v: number | undefined | null): v is number => typeof v === 'number' && Number.isFinite(v);

export const fmt = (v: number | undefined | null, digits = 4): string => (finite(v) ? v.toFixed(digits) : '–');

/** Signed: "+0.0040", "−0.2222", "±0.0000". */
export const fmtDelta = (v: number | undefined | null, digits = 4): string =>
  finite(v) ? (v > 0 ? '+' : v < 0 ? '−' : '±') + Math.abs(v).toFixed(digits) : '–';

export const fmtMs = (v: number | undefined | null): string => (finite(v) ? `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms` : '–');

export const fmtP = (p: number): string => (!Number.isFinite(p) ? '–' : p < 0.001 ? '<0.001' : p.toFixed(3));

export const fmtCI = (ci: [number, number]): string => `${fmtDelta(ci[0])} to ${fmtDelta(ci[1])}`;

/** "1,234" */
export const fmtCount = (n: number): string => n.toLocaleString('en-US');
