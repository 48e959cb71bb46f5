import { closest } from '../util/closest';

/**
 * The settings an `lsa` embedder takes besides `provider`, each with its check. In config/ (not beside the embedder
 * in retrieval/providers/lsa.ts, which uses it too) because the config parser, a floor lower, checks them.
 */
const LSA_SETTINGS: Record<string, { ok: (v: unknown) => boolean; want: string }> = {
  dimensions: { ok: (v) => Number.isInteger(v) && (v as number) >= 1, want: 'an integer >= 1' },
  minDf: { ok: (v) => Number.isInteger(v) && (v as number) >= 1, want: 'an integer >= 1' },
  maxDfRatio: { ok: (v) => typeof v === 'number' && v > 0 && v <= 1, want: 'a number in (0, 1]' },
  seed: { ok: (v) => Number.isSafeInteger(v), want: 'an integer' },
  powerIterations: { ok: (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 20, want: 'an integer from 0 to 20' },
  oversample: { ok: (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 1000, want: 'an integer from 0 to 1000' },
};

/**
 * What is wrong with the settings of an `lsa` embedder (unknown keys, values out of range), by key. The config
 * parser reports these at their line; trainLsa refuses them, so a bad value never reaches the SVD.
 */
export function lsaSettingProblems(settings: Record<string, unknown>): Array<{ key: string; message: string }> {
  const out: Array<{ key: string; message: string }> = [];
  for (const [key, value] of Object.entries(settings)) {
    if (key === 'provider' || value === undefined) continue;
    const rule = LSA_SETTINGS[key];
    if (!rule) {
      const guess = closest(key, Object.keys(LSA_SETTINGS));
      out.push({
        key,
        message: `"${key}" is not a setting of the lsa embedder (${guess ? `did you mean "${guess}"?` : `settings: ${Object.keys(LSA_SETTINGS).join(', ')}`})`,
      });
    } else if (!rule.ok(value)) {
      out.push({ key, message: `must be ${rule.want}, not ${JSON.stringify(value)}` });
    }
  }
  return out;
}
