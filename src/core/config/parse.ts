import { basename } from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import schema from '../../../schemas/rank.schema.json';
import { type Diagnostic, InputError } from '../util/diagnostics';
import { readUserText } from '../util/text-file';
import { closest } from '../util/closest';
import { lsaSettingProblems } from './lsa-settings';
import { checkEngineSection } from './engine-section';
import { unknownEngineKindMessage } from './engine-kinds';
import { normaliseRankConfig } from './defaults';
import { JsonSyntaxError, type JsonLocations, lineOfPointer, parseJsonWithLocations } from '../util/json-source';
import type { RankConfig } from './types';

export const RANK_CONFIG_SUFFIX = '.rank.json';

let validator: ReturnType<Ajv['compile']> | undefined;
function validate(value: unknown): ErrorObject[] {
  // verbose: each error keeps its schema, whose known keys give an unknown one its "did you mean".
  validator ??= new Ajv({ allErrors: true, strict: false, verbose: true }).compile(schema);
  return validator(value) ? [] : [...(validator.errors ?? [])];
}

/** Config name = file name without `.rank.json` (or without `.json`). */
export function rankConfigName(path: string): string {
  const file = basename(path);
  if (file.endsWith(RANK_CONFIG_SUFFIX)) return file.slice(0, -RANK_CONFIG_SUFFIX.length);
  return file.endsWith('.json') ? file.slice(0, -'.json'.length) : file;
}

export interface ParsedRankConfig {
  config: RankConfig | undefined;
  diagnostics: Diagnostic[];
  /** Where each setting is, for problems found later against the corpus (a field no document has). */
  locations?: JsonLocations;
}

/**
 * Reads, validates and normalises one `*.rank.json`. Never throws for bad content: see `diagnostics`.
 * `display` names the file in diagnostics (default: `path`).
 */
export function parseRankConfig(path: string, display = path): ParsedRankConfig {
  let text: string;
  try {
    text = readUserText(path, display);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return { config: undefined, diagnostics: [{ file: display, line: 0, severity: 'error', message: e.reason }] };
  }
  return parseRankConfigText(text, display, rankConfigName(path));
}

export function parseRankConfigText(text: string, path: string, name = rankConfigName(path)): ParsedRankConfig {
  const error = (line: number, message: string, key?: string): Diagnostic => ({
    file: path,
    line,
    severity: 'error',
    message,
    ...(key ? { key } : {}),
  });
  if (text.trim() === '')
    return { config: undefined, diagnostics: [error(0, 'file is empty; {} is the smallest config (BM25 with defaults)')] };
  let located;
  try {
    located = parseJsonWithLocations(text, { comments: true, duplicateKeys: 'error' });
  } catch (e) {
    if (e instanceof JsonSyntaxError) {
      return { config: undefined, diagnostics: [error(e.line, `JSON syntax error at column ${e.column}: ${e.reason}`)] };
    }
    throw e;
  }
  const lineOf = (pointer: string) => lineOfPointer(located.locations, pointer);
  const errors = simplify(validate(located.value));
  if (errors.length > 0) {
    const diagnostics = errors.map((err) => {
      const pointer =
        err.keyword === 'additionalProperties' ? `${err.instancePath}/${String(err.params.additionalProperty)}` : err.instancePath;
      // The kinds are the engine-kind table's (the schema lists the same): name the one that was probably meant.
      if (pointer === '/engine/kind' && err.keyword === 'enum')
        return error(
          lineOf(pointer),
          unknownEngineKindMessage((located.value as { engine?: { kind?: unknown } }).engine?.kind),
          'engine.kind',
        );
      return error(lineOf(pointer), describeError(err));
    });
    diagnostics.sort((a, b) => a.line - b.line);
    return { config: undefined, diagnostics, locations: located.locations };
  }
  const raw = located.value as Record<string, unknown>;
  const keyOf = (pointer: string) => pointer.slice(1).replace(/\//g, '.');
  const semantic = semanticProblems(raw).map((p) => error(lineOf(p.pointer), p.message, keyOf(p.pointer)));
  const engine: Diagnostic[] = checkEngineSection(raw).map((p) => ({
    file: path,
    line: lineOf(p.pointer),
    severity: p.severity,
    message: p.message,
    key: keyOf(p.pointer),
  }));
  if (semantic.length || engine.some((d) => d.severity === 'error')) {
    return { config: undefined, diagnostics: [...semantic, ...engine].sort((a, b) => a.line - b.line), locations: located.locations };
  }
  const diagnostics: Diagnostic[] = engine;
  if (raw.hybrid !== undefined && (raw.lexical === undefined || raw.vector === undefined)) {
    diagnostics.push({
      file: path,
      line: lineOf('/hybrid'),
      severity: 'warning',
      key: 'hybrid',
      message: '"hybrid" has no effect unless both "lexical" and "vector" are present',
    });
  }
  const vector = raw.vector as Record<string, unknown> | undefined;
  if (vector?.storage !== undefined && vector.storage !== 'float32' && vector.exact !== true) {
    diagnostics.push({
      file: path,
      line: lineOf('/vector/storage'),
      severity: 'warning',
      key: 'vector.storage',
      message: '"vector.storage" applies to exact search only ("exact": true); HNSW search keeps float32 vectors',
    });
  }
  return { config: normaliseRankConfig(raw, name), diagnostics, locations: located.locations };
}

/**
 * What the schema cannot say: settings that are each valid but together make a config that finds nothing
 * (every boost 0, every hybrid weight 0), that MiniSearch cannot run (a fractional edit distance), or that
 * the lsa embedder does not know (its own check, so a typo such as "dimension" is not silently ignored).
 */
export function semanticProblems(raw: Record<string, any>): Array<{ pointer: string; message: string }> {
  const out: Array<{ pointer: string; message: string }> = [];
  const fuzzy = raw.lexical?.fuzzy;
  if (typeof fuzzy === 'number' && fuzzy >= 1 && !Number.isInteger(fuzzy)) {
    out.push({
      pointer: '/lexical/fuzzy',
      message: `${fuzzy} is neither a ratio below 1 nor a whole edit distance (1 to 6, the schema's maximum)`,
    });
  }
  const boosts = raw.lexical?.fields as Record<string, number> | undefined;
  if (boosts && Object.keys(boosts).length > 0 && Object.values(boosts).every((b) => b === 0)) {
    out.push({ pointer: '/lexical/fields', message: 'every field has boost 0, so nothing is searched (0 = indexed, not searched)' });
  }
  const embedder = raw.vector?.embedder as Record<string, unknown> | undefined;
  if (embedder?.provider === 'lsa') {
    for (const p of lsaSettingProblems(embedder)) out.push({ pointer: `/vector/embedder/${p.key}`, message: p.message });
  }
  const weights = raw.hybrid?.weights as { lexical?: number; vector?: number } | undefined;
  if (raw.lexical !== undefined && raw.vector !== undefined && weights && (weights.lexical ?? 1) === 0 && (weights.vector ?? 1) === 0) {
    out.push({ pointer: '/hybrid/weights', message: 'both fusion weights are 0, so every fused score is 0' });
  }
  return out;
}

/** anyOf/enum failures produce one error per branch; keep the most telling one per location. */
function simplify(errors: ErrorObject[]): ErrorObject[] {
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  return errors.filter((e) => !(anyOfPaths.has(e.instancePath) && e.keyword !== 'anyOf' && e.schemaPath.includes('/anyOf/')));
}

function describeError(err: ErrorObject): string {
  const where = err.instancePath === '' ? 'config' : `"${err.instancePath.slice(1).replace(/\//g, '.')}"`;
  switch (err.keyword) {
    case 'additionalProperties': {
      const key = String(err.params.additionalProperty);
      const guess = closest(key, Object.keys((err.parentSchema as { properties?: object } | undefined)?.properties ?? {}));
      return `unknown setting "${key}" in ${where}${guess ? ` (did you mean "${guess}"?)` : ''}`;
    }
    case 'enum':
      return `${where} must be one of ${(err.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'anyOf':
      return `${where} must be "none", "english", "indonesian" or a list of words`;
    case 'required':
      return `${where} is missing "${String(err.params.missingProperty)}"`;
    default:
      return `${where} ${err.message ?? 'is invalid'}`;
  }
}
