import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import schema from '../../../schemas/rank.schema.json';
import type { Diagnostic } from '../util/diagnostics';
import { decodeText } from '../util/text-file';
import { normaliseRankConfig } from './defaults';
import { JsonSyntaxError, lineOfPointer, parseJsonWithLocations } from '../util/json-source';
import type { RankConfig } from './types';

export const RANK_CONFIG_SUFFIX = '.rank.json';

let validator: ReturnType<Ajv['compile']> | undefined;
function validate(value: unknown): ErrorObject[] {
  validator ??= new Ajv({ allErrors: true, strict: false }).compile(schema);
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
}

/** Reads, validates and normalises one `*.rank.json`. Never throws for bad content: see `diagnostics`. */
export function parseRankConfig(path: string): ParsedRankConfig {
  let text: string;
  try {
    text = decodeText(readFileSync(path));
  } catch (e) {
    return { config: undefined, diagnostics: [{ file: path, line: 0, severity: 'error', message: `cannot read: ${(e as Error).message}` }] };
  }
  return parseRankConfigText(text, path);
}

export function parseRankConfigText(text: string, path: string): ParsedRankConfig {
  const error = (line: number, message: string): Diagnostic => ({ file: path, line, severity: 'error', message });
  let located;
  try {
    located = parseJsonWithLocations(text, { comments: true, duplicateKeys: 'error' });
  } catch (e) {
    if (e instanceof JsonSyntaxError) {
      return { config: undefined, diagnostics: [error(e.line, `JSON syntax error at column ${e.column}: ${e.reason}`)] };
    }
    throw e;
  }
  const errors = simplify(validate(located.value));
  if (errors.length > 0) {
    const diagnostics = errors.map((err) => {
      const pointer = err.keyword === 'additionalProperties'
        ? `${err.instancePath}/${String(err.params.additionalProperty)}`
        : err.instancePath;
      return error(lineOfPointer(located.locations, pointer), describeError(err));
    });
    diagnostics.sort((a, b) => a.line - b.line);
    return { config: undefined, diagnostics };
  }
  const raw = located.value as Record<string, unknown>;
  const diagnostics: Diagnostic[] = [];
  if (raw.hybrid !== undefined && (raw.lexical === undefined || raw.vector === undefined)) {
    diagnostics.push({
      file: path, line: lineOfPointer(located.locations, '/hybrid'), severity: 'warning',
      message: '"hybrid" has no effect unless both "lexical" and "vector" are present',
    });
  }
  const vector = raw.vector as Record<string, unknown> | undefined;
  if (vector?.storage !== undefined && vector.storage !== 'float32' && vector.exact !== true) {
    diagnostics.push({
      file: path, line: lineOfPointer(located.locations, '/vector/storage'), severity: 'warning',
      message: '"vector.storage" applies to exact search only ("exact": true); HNSW search keeps float32 vectors',
    });
  }
  return { config: normaliseRankConfig(raw, rankConfigName(path)), diagnostics };
}

/** anyOf/enum failures produce one error per branch; keep the most telling one per location. */
function simplify(errors: ErrorObject[]): ErrorObject[] {
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  return errors.filter((e) => !(anyOfPaths.has(e.instancePath) && e.keyword !== 'anyOf' && e.schemaPath.includes('/anyOf/')));
}

function describeError(err: ErrorObject): string {
  const where = err.instancePath === '' ? 'config' : `"${err.instancePath.slice(1).replace(/\//g, '.')}"`;
  switch (err.keyword) {
    case 'additionalProperties':
      return `unknown setting "${String(err.params.additionalProperty)}" in ${where}`;
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
