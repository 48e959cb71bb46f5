import schema from '../../../schemas/rank.schema.json';
import { closest } from '../util/closest';
import { InputError } from '../util/diagnostics';

/**
 * One `--vary` flag: a setting of `*.rank.json` (a dotted path of the schema, e.g. `lexical.fields.title`,
 * `hybrid.k`, `hybrid.weights.vector`) and the values the sweep tries.
 */
export interface Variation {
  path: string;
  values: SettingValue[];
  kind: ParameterKind;
}

export type SettingValue = number | boolean | string;

/**
 * What a new value of a setting costs: `recombination` re-weights what retrieval already found (boosts,
 * combineWith, depths, RRF k, list weights; reranker scores are cached per document), `re-search` runs the queries
 * again over the same index (BM25 k1/b/d, prefix, fuzzy, HNSW efSearch, an engine's params), `rebuild` builds
 * another index or embeds again (analyzer, HNSW M/efConstruction, embedder, exact/storage).
 */
export type ParameterKind = 'recombination' | 're-search' | 'rebuild';

const RECOMBINATION = [
  /^lexical\.fields\.[^.]+$/,
  /^lexical\.combineWith$/,
  /^lexical\.depth$/,
  /^vector\.depth$/,
  /^hybrid\./,
  /^rerank\.top[NM]$/,
];
const REBUILD = [
  /^lexical\.analyzer\./,
  /^vector\.(embedder|space|exact|storage)\b/,
  /^vector\.hnsw\.(M|efConstruction)$/,
  /^rerank\.provider\./,
];

export function parameterKind(path: string): ParameterKind {
  if (RECOMBINATION.some((r) => r.test(path))) return 'recombination';
  if (REBUILD.some((r) => r.test(path))) return 'rebuild';
  return 're-search';
}

/** The grid is refused above this many combinations (a random search samples it instead). */
export const MAX_COMBINATIONS = 100_000;
/** One range gives at most this many values. */
const MAX_RANGE_VALUES = 10_000;

type SchemaNode = Record<string, any>;

/** The schema of the setting at `path`, or undefined when the schema has no such setting. */
function settingSchema(path: string): SchemaNode | undefined {
  let node: SchemaNode | undefined = schema as SchemaNode;
  const parts = path.split('.');
  for (const [i, part] of parts.entries()) {
    node = resolveRef(node!);
    if (node.properties && Object.hasOwn(node.properties, part) && part !== '$schema') node = node.properties[part];
    else if (typeof node.additionalProperties === 'object') node = node.additionalProperties;
    else if (i === 2 && parts[0] === 'engine' && parts[1] === 'params')
      node = {}; // free-form: {{params.NAME}} of a template
    else return undefined;
  }
  return resolveRef(node!);
}

function resolveRef(node: SchemaNode): SchemaNode {
  return typeof node.$ref === 'string' ? (schema as SchemaNode).definitions[node.$ref.split('/').pop()!] : node;
}

/** Every single-valued setting of the schema, with `names` standing for open keys (`lexical.fields.<name>`), for "did you mean". */
export function settingPaths(names: readonly string[] = ['title', 'body']): string[] {
  const out: string[] = [];
  const walk = (node: SchemaNode, prefix: string) => {
    node = resolveRef(node);
    if (node.properties) {
      for (const [k, child] of Object.entries(node.properties as Record<string, SchemaNode>))
        if (k !== '$schema' && k !== 'description') walk(child, prefix ? `${prefix}.${k}` : k);
    } else if (typeof node.additionalProperties === 'object') {
      for (const n of names) walk(node.additionalProperties, `${prefix}.${n}`);
    } else if (node.type !== 'object' && node.type !== 'array' && node.type !== 'string') {
      out.push(prefix);
    }
  };
  walk(schema as SchemaNode, '');
  return out;
}

/**
 * Parses one `--vary PATH=a..b:step` (inclusive range) or `--vary PATH=v1,v2,...`. The values are checked against
 * the schema (type, minimum, maximum, enum); `fieldNames` are the base config's fields, offered in "did you mean".
 */
export function parseVary(text: string, fieldNames: readonly string[] = []): Variation {
  const flag = `--vary ${text}`;
  const eq = text.indexOf('=');
  if (eq <= 0)
    throw new InputError('expected PATH=FROM..TO:STEP or PATH=V1,V2,...', [], {
      key: flag,
      hint: "e.g. --vary 'lexical.fields.title=1..5:0.5'",
    });
  const path = text.slice(0, eq).trim();
  const spec = text.slice(eq + 1).trim();
  const setting = settingSchema(path);
  if (!setting || setting.type === 'object' || setting.type === 'array' || setting.anyOf) {
    const suggestion = closest(path, settingPaths(fieldNames.length ? fieldNames : undefined));
    const hint = suggestion
      ? `did you mean ${suggestion}?`
      : 'name a setting of *.rank.json (schemas/rank.schema.json), e.g. lexical.fields.title or hybrid.k';
    throw new InputError(`"${path}" names no setting of a ranking config that can be varied`, [], { key: '--vary', hint });
  }
  const values = spec.includes('..') ? parseRange(spec, setting, flag) : spec.split(',').map((v) => parseValue(v.trim(), setting, flag));
  if (values.length === 0 || spec === '') throw new InputError('no values', [], { key: flag });
  const distinct = new Set(values);
  if (distinct.size !== values.length) throw new InputError('a value is listed twice', [], { key: flag });
  return { path, values, kind: parameterKind(path) };
}

function parseRange(spec: string, setting: SchemaNode, flag: string): number[] {
  const m = /^(-?[\d.]+(?:e-?\d+)?)\.\.(-?[\d.]+(?:e-?\d+)?)(?::([\d.]+(?:e-?\d+)?))?$/i.exec(spec);
  if (!m)
    throw new InputError(`"${spec}" is not a range FROM..TO:STEP`, [], { key: flag, hint: 'e.g. 1..5:0.5, or list the values: 1,2,3' });
  if (setting.type !== 'number' && setting.type !== 'integer')
    throw new InputError('a range needs a numeric setting; list the values instead', [], { key: flag });
  const from = Number(m[1]);
  const to = Number(m[2]);
  const step = m[3] === undefined ? (setting.type === 'integer' ? 1 : NaN) : Number(m[3]);
  if (!Number.isFinite(step)) throw new InputError('a range of a decimal setting needs a step (FROM..TO:STEP)', [], { key: flag });
  if (![from, to, step].every(Number.isFinite) || step <= 0)
    throw new InputError('FROM, TO and STEP must be numbers, and STEP above 0', [], { key: flag });
  if (to < from) throw new InputError(`the range is empty: ${to} is below ${from}`, [], { key: flag });
  const count = Math.floor((to - from) / step + 1e-9) + 1;
  if (count > MAX_RANGE_VALUES)
    throw new InputError(`the range gives ${count} values (at most ${MAX_RANGE_VALUES})`, [], { key: flag, hint: 'use a larger step' });
  // Each value from FROM (not by adding STEP repeatedly), rounded so 0.1 steps give 0.3, not 0.30000000000000004.
  const values = Array.from({ length: count }, (_, i) => Number((from + i * step).toPrecision(12)));
  for (const v of values) checkNumber(v, setting, flag);
  return values;
}

function parseValue(v: string, setting: SchemaNode, flag: string): SettingValue {
  if (setting.enum) {
    if (!setting.enum.includes(v))
      throw new InputError(`"${v}" is not one of ${setting.enum.map((e: string) => JSON.stringify(e)).join(', ')}`, [], { key: flag });
    return v;
  }
  if (setting.type === 'boolean') {
    if (v !== 'true' && v !== 'false') throw new InputError(`"${v}" is not true or false`, [], { key: flag });
    return v === 'true';
  }
  if (setting.type === 'number' || setting.type === 'integer') {
    const n = v === '' ? NaN : Number(v);
    if (!Number.isFinite(n)) throw new InputError(`"${v}" is not a number`, [], { key: flag });
    checkNumber(n, setting, flag);
    return n;
  }
  // A free-form setting (engine.params.NAME): a number when it reads as one, else the text.
  return v !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
}

function checkNumber(n: number, setting: SchemaNode, flag: string): void {
  if (setting.type === 'integer' && !Number.isInteger(n))
    throw new InputError(`${n} is not a whole number, and this setting takes whole numbers`, [], { key: flag });
  if (setting.minimum !== undefined && n < setting.minimum)
    throw new InputError(`${n} is below the setting's minimum ${setting.minimum}`, [], { key: flag });
  if (setting.maximum !== undefined && n > setting.maximum)
    throw new InputError(`${n} is above the setting's maximum ${setting.maximum}`, [], { key: flag });
}

/** A copy of the raw config with `path` set to `value` (sections created as needed). */
export function withSetting(raw: Record<string, unknown>, path: string, value: SettingValue): Record<string, unknown> {
  const out = structuredClone(raw);
  const parts = path.split('.');
  const leaf = parts.pop()!; // split gives at least one part
  let node: Record<string, unknown> = out;
  for (const part of parts) {
    const next = node[part];
    if (next === undefined || next === null || typeof next !== 'object') node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[leaf] = value;
  return out;
}
