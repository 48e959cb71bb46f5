/**
 * What the Tune engine can move in a config without a new search (its sliders, with ranges), what it lists instead
 * (with the reason), and the full config a set of slider positions means. Lexical: boosts, k1, b, d, depth (cached
 * term frequencies and field lengths). Hybrid: also the RRF constant, both weights, the hybrid depth and, with exact
 * vector search, the vector depth (the vector list is cached at its largest). Vector-only: the vector depth with exact
 * search (the same cached list). Reranked (lexical, hybrid or vector-only): top-N and top-M over the reranker scores of
 * a cached pool (the candidates before the reranker stay as the config has them).
 */
import type { RankConfig } from '../config';
import { hashRankConfig } from '../config/defaults';
import { semanticProblems } from '../config/parse';
import { closest } from '../util/closest';
import { InputError } from '../util/diagnostics';

/** A setting that moves without a search: where it is in the config, its value there, and a sensible range. */
export interface Slider {
  path: string;
  value: number;
  min: number;
  max: number;
  step: number;
}

/** A setting shown but not offered as a slider, and why. */
export interface FixedSetting {
  path: string;
  reason: string;
}

export interface TuneSliders {
  sliders: Slider[];
  fixed: FixedSetting[];
}

/** Slider positions by path (those not given keep the base config's value). */
export type TuneSettings = Record<string, number>;

/** An exact config's vector list is cached this deep (or at its own depth when deeper): the vector.depth slider's top. */
const VECTOR_CACHE_DEPTH = 1000;
/** The reranker scores this much of the list before it (or the config's top-N when larger), once: the top-N slider's top. */
const RERANK_POOL = 100;

/** How deep the Tune engine caches a hybrid or vector-only config's vector list: the vector.depth slider's top when exact. */
export function vectorCacheDepth(config: RankConfig): number {
  const v = config.vector!;
  return v.exact ? Math.max(VECTOR_CACHE_DEPTH, v.depth) : v.depth;
}

/** How many of the list before the reranker get their reranker scores cached: the top-N slider's top. */
export function rerankPoolSize(config: RankConfig): number {
  const r = config.rerank!;
  const before = config.hybrid ? config.hybrid.depth : config.lexical ? config.lexical.depth : config.vector!.depth;
  return Math.max(r.topN, Math.min(before, RERANK_POOL));
}

/** Settings taking whole numbers. */
const WHOLE = /(^|\.)(depth|topN|topM)$/;

/** What can be tuned in `config` by recombination, and what cannot (with the reason). */
export function tuneSliders(config: RankConfig): TuneSliders {
  const fixed: FixedSetting[] = [];
  const sliders: Slider[] = [];
  if (config.engine) {
    fixed.push({ path: 'engine', reason: 'an external engine ranks: every setting needs a new search on it' });
    return { sliders, fixed };
  }
  const { lexical: lx, vector: v, hybrid: h, rerank: r } = config;
  // Before a reranker, every setting that changes its candidates needs reranker scores of documents it never saw.
  const add = (s: Slider) =>
    r ? fixed.push({ path: s.path, reason: 'a new rerank: other candidates need reranker scores that are not cached' }) : sliders.push(s);
  if (lx) {
    for (const [field, boost] of Object.entries(lx.fields))
      add({ path: `lexical.fields.${field}`, value: boost, min: 0, max: Math.max(5, 2 * boost), step: 0.1 });
    add({ path: 'lexical.bm25.k1', value: lx.bm25.k1, min: 0, max: Math.max(3, lx.bm25.k1), step: 0.05 });
    add({ path: 'lexical.bm25.b', value: lx.bm25.b, min: 0, max: 1, step: 0.05 });
    add({ path: 'lexical.bm25.d', value: lx.bm25.d, min: 0, max: Math.max(2, lx.bm25.d), step: 0.05 });
    add({ path: 'lexical.depth', value: lx.depth, min: 1, max: Math.max(1000, lx.depth), step: 1 });
    fixed.push(
      { path: 'lexical.prefix', reason: 'a new search: prefix expansion changes which documents are candidates' },
      { path: 'lexical.fuzzy', reason: 'a new search: fuzzy expansion changes which documents are candidates' },
      { path: 'lexical.analyzer', reason: 'a rebuild: the analyzer changes the index' },
    );
  }
  if (v && h) {
    add({ path: 'hybrid.k', value: h.k, min: 0, max: Math.max(200, 2 * h.k), step: 1 });
    for (const list of ['lexical', 'vector'] as const)
      add({ path: `hybrid.weights.${list}`, value: h.weights[list], min: 0, max: Math.max(5, 2 * h.weights[list]), step: 0.1 });
    add({ path: 'hybrid.depth', value: h.depth, min: 1, max: Math.max(1000, h.depth), step: 1 });
  }
  if (v) {
    // Hybrid or vector-only alike: exact search's shallower list is a prefix of the cached one.
    if (v.exact) add({ path: 'vector.depth', value: v.depth, min: 1, max: vectorCacheDepth(config), step: 1 });
    else
      fixed.push({
        path: 'vector.depth',
        reason:
          'a new search: HNSW searches with the depth as its k, so another depth can find other documents (exact search would cut a cached list)',
      });
    fixed.push(
      { path: 'vector.hnsw.efSearch', reason: 'a new search: efSearch changes what HNSW finds' },
      { path: 'vector.embedder', reason: 'a rebuild: another embedder means other vectors' },
    );
  }
  if (r) {
    const pool = rerankPoolSize(config);
    sliders.push(
      { path: 'rerank.topN', value: r.topN, min: 1, max: pool, step: 1 },
      { path: 'rerank.topM', value: r.topM, min: 1, max: Math.max(r.topM, pool), step: 1 },
    );
    fixed.push(
      { path: 'rerank.maxPassageChars', reason: 'a new rerank: the passages the model reads change' },
      { path: 'rerank.provider', reason: 'a new rerank: another model scores the candidates' },
    );
  }
  return { sliders, fixed };
}

/**
 * The full config that slider positions `moves` mean: BASE with each moved setting, its own hash. Refuses (InputError
 * naming the setting) a path that is not a slider, a value out of its range, a fraction for a whole-number setting,
 * and what a config file would be refused for (semanticProblems: every boost 0, both fusion weights 0).
 */
export function tunedConfig(base: RankConfig, { sliders, fixed }: TuneSliders, moves: TuneSettings): RankConfig {
  const sliderOf = new Map(sliders.map((s) => [s.path, s]));
  const { configHash: _, ...config } = structuredClone(base);
  for (const [path, value] of Object.entries(moves)) {
    const slider = sliderOf.get(path);
    if (!slider) {
      const known = fixed.find((f) => f.path === path || path.startsWith(`${f.path}.`));
      const near = closest(path, [...sliderOf.keys()]);
      const hint = known ? known.reason : near ? `did you mean ${near}?` : `the sliders are ${[...sliderOf.keys()].join(', ')}`;
      throw new InputError(`"${path}" is not a setting the Tune engine can move`, [], { key: path, hint });
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < slider.min || value > slider.max) {
      throw new InputError(`${JSON.stringify(value)} is not a number from ${slider.min} to ${slider.max}`, [], { key: path });
    }
    if (WHOLE.test(path) && !Number.isInteger(value))
      throw new InputError(`${value} is not a whole number, and this setting takes whole numbers`, [], { key: path });
    setPath(config, path, value);
  }
  // What a config file with these settings would be refused for (every boost 0, both fusion weights 0).
  const [problem] = semanticProblems(config);
  if (problem) throw new InputError(problem.message, [], { key: problem.pointer.slice(1).replace(/\//g, '.') });
  return { ...config, configHash: hashRankConfig(config) };
}

/** Sets a slider's setting in a config (a field name may hold dots: everything after `lexical.fields.`). */
function setPath(config: Omit<RankConfig, 'configHash'>, path: string, value: number): void {
  const fields = 'lexical.fields.';
  if (path.startsWith(fields)) {
    config.lexical!.fields[path.slice(fields.length)] = value;
    return;
  }
  const parts = path.split('.');
  let node = config as unknown as Record<string, unknown>;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  node[parts[parts.length - 1]!] = value;
}

/**
 * The slider positions that make `base` into `target`, when the two differ in nothing else (the same name, fields,
 * analyzer, every fixed setting): checked by the config hash of what those positions mean (tunedConfig), so a
 * difference anywhere outside the sliders, or a value outside a slider's range, gives undefined.
 */
export function tuneSettingsOf(base: RankConfig, tunable: TuneSliders, target: RankConfig): TuneSettings | undefined {
  const settings: TuneSettings = {};
  for (const s of tunable.sliders) {
    const value = settingIn(target, s.path);
    if (typeof value !== 'number') return undefined;
    if (value !== s.value) settings[s.path] = value;
  }
  try {
    return tunedConfig(base, tunable, settings).configHash === target.configHash ? settings : undefined;
  } catch (e) {
    if (e instanceof InputError) return undefined; // out of a slider's range, or refused as a config would be
    throw e;
  }
}

/** A slider's setting in a config (undefined when the config has no such part). */
export function settingIn(config: RankConfig, path: string): unknown {
  const fields = 'lexical.fields.';
  if (path.startsWith(fields)) return config.lexical?.fields[path.slice(fields.length)];
  let node: unknown = config;
  for (const part of path.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return node;
}
