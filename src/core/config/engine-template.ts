/**
 * Query templates of engine configs: a JSON value (OpenSearch/Elasticsearch request body, Solr request
 * parameters) with `{{name}}` placeholders, filled in per query by a pure function (the coming `sweep` calls it
 * with other `params`). Substitution works on the parsed JSON tree, never on its text, so a query with quotes,
 * backslashes or braces cannot break the JSON:
 *
 * - a string that is exactly one placeholder (`"{{k}}"`, `"{{principal.groups}}"`) becomes the variable's value
 *   with its JSON type: a number, a list, an object;
 * - a placeholder inside a longer string (`"title^{{params.titleBoost}}"`) is replaced by the value's text: strings
 *   as they are, numbers and booleans printed, lists joined with commas (Solr's `{!terms}` syntax);
 * - keys of objects may hold placeholders too (text form);
 * - an optional variable without a value (`{{filter}}` when no principal is given) removes the object member or
 *   list element that consists of it; any other variable without a value is an error naming the placeholder and
 *   where it is.
 *
 * Variables: `query`, `k`, `vector` (the query's embedding), `filter` (the rendered access part),
 * `principal.NAME` (an attribute of the principal searching), `params.NAME` (the config's `params`).
 */

/** The values a template is filled with. `principal`/`filter`/`vector` are absent when not applicable. */
export interface TemplateVars {
  query: string;
  k: number;
  params: Readonly<Record<string, unknown>>;
  principal?: Readonly<Record<string, unknown>>;
  vector?: readonly number[];
  filter?: unknown;
}

/** Variables that may be absent: a member or element that is exactly such a placeholder is then removed. */
const OPTIONAL = new Set(['filter']);

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\s*\}\}$/;

/** A placeholder that cannot be filled: its name and the JSON path (dotted) where it is. */
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly placeholder: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

/** Marks a value to be dropped from its parent (an optional variable without a value). */
const DROP = Symbol('drop');

/**
 * Fills a template. Pure: the template is not changed, the result shares nothing with it. `path` names the
 * template in error messages (e.g. `engine.template`).
 */
export function renderTemplate(template: unknown, vars: TemplateVars, path = 'template'): unknown {
  const out = render(template, vars, path);
  return out === DROP ? undefined : out;
}

function render(node: unknown, vars: TemplateVars, path: string): unknown {
  if (typeof node === 'string') return renderString(node, vars, path);
  if (Array.isArray(node)) {
    const out: unknown[] = [];
    node.forEach((item, i) => {
      const v = render(item, vars, `${path}[${i}]`);
      if (v !== DROP) out.push(v);
    });
    return out;
  }
  if (node !== null && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(node)) {
      const k = key.includes('{{') ? (renderString(key, vars, `${path}.${key}`, true) as string) : key;
      const v = render(item, vars, `${path}.${key}`);
      if (v !== DROP) out[k] = v;
    }
    return out;
  }
  return node;
}

function renderString(s: string, vars: TemplateVars, path: string, asText = false): unknown {
  if (!s.includes('{{')) return s;
  // The group always takes part in a match of WHOLE or PLACEHOLDER, so `?? ''` never applies.
  const whole = asText ? undefined : WHOLE.exec(s)?.[1];
  if (whole !== undefined) {
    const value = lookup(whole, vars);
    if (value === undefined) {
      if (OPTIONAL.has(whole)) return DROP;
      throw missing(whole, vars, path);
    }
    return structuredClone(value);
  }
  return s.replace(PLACEHOLDER, (_m, name: string) => {
    const value = lookup(name, vars);
    if (value === undefined) throw missing(name, vars, path);
    return asString(value, name, path);
  });
}

function lookup(name: string, vars: TemplateVars): unknown {
  const [head = '', ...rest] = name.split('.');
  let cur: unknown;
  switch (head) {
    case 'query':
    case 'k':
    case 'vector':
    case 'filter':
      if (rest.length) return undefined;
      cur = vars[head];
      return cur === null ? undefined : cur;
    case 'params':
      cur = vars.params;
      break;
    case 'principal':
      cur = vars.principal;
      break;
    default:
      return undefined;
  }
  for (const part of rest) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !Object.prototype.hasOwnProperty.call(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return rest.length ? (cur === null ? undefined : cur) : undefined;
}

function asString(value: unknown, name: string, path: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((x) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean'))
    return value.join(',');
  throw new TemplateError(
    `${path}: {{${name}}} is ${Array.isArray(value) ? 'a list of non-scalar values' : 'an object'} and cannot be put inside a string; make the whole string "{{${name}}}"`,
    name,
    path,
  );
}

function missing(name: string, vars: TemplateVars, path: string): TemplateError {
  const [head = '', ...rest] = name.split('.');
  let why: string;
  if (head === 'principal')
    why = vars.principal
      ? `the principal "${String(vars.principal.name)}" has no attribute "${rest.join('.')}"`
      : 'no principal is given (run with --as, or move the access part into "filter")';
  else if (head === 'params')
    why = `"params" has no "${rest.join('.')}"${Object.keys(vars.params).length ? ` (it has ${Object.keys(vars.params).join(', ')})` : ''}`;
  else if (head === 'vector') why = 'there is no query vector (give the engine config an "embedder")';
  else if (['query', 'k', 'filter'].includes(head)) why = `{{${head}}} takes no ".${rest.join('.')}"`;
  else why = 'unknown variable (use query, k, vector, filter, principal.NAME or params.NAME)';
  return new TemplateError(`${path}: {{${name}}}: ${why}`, name, path);
}

/** One placeholder found in a template: its variable name and the JSON pointer of the string (or key) holding it. */
export interface PlaceholderUse {
  name: string;
  pointer: string;
  /** True when the placeholder is the whole string value (typed substitution). */
  whole: boolean;
}

/** Every placeholder of a template with where it is (for checking a config before anything is sent). */
export function templatePlaceholders(template: unknown, pointer = ''): PlaceholderUse[] {
  const out: PlaceholderUse[] = [];
  const scan = (s: string, at: string, isKey: boolean) => {
    const whole = isKey ? undefined : WHOLE.exec(s)?.[1];
    if (whole !== undefined) out.push({ name: whole, pointer: at, whole: true });
    else for (const m of s.matchAll(PLACEHOLDER)) out.push({ name: m[1] ?? '', pointer: at, whole: false });
  };
  const walk = (node: unknown, at: string) => {
    if (typeof node === 'string') scan(node, at, false);
    else if (Array.isArray(node)) node.forEach((x, i) => walk(x, `${at}/${i}`));
    else if (node !== null && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        const child = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (k.includes('{{')) scan(k, child, true);
        walk(v, child);
      }
    }
  };
  walk(template, pointer);
  return out;
}
