import { type EngineKind, engineKind } from './engine-kinds';
import { templatePlaceholders } from './engine-template';

/** A problem in a config's `engine` section, at a JSON pointer (the caller turns it into a line). */
export interface EngineProblem {
  pointer: string;
  severity: 'error' | 'warning';
  message: string;
}

/** Sections of the local pipeline that an engine config cannot have. */
const LOCAL_SECTIONS = ['lexical', 'vector', 'hybrid', 'rerank', 'acl'];

const VARIABLES = new Set(['query', 'k', 'vector', 'filter']);

/**
 * Checks what the schema cannot: that an engine config has no local stages, and that every placeholder of its
 * template and filter can be filled (known variable, existing parameter, an embedder for `{{vector}}`, a place
 * for the filter). `raw` is the schema-valid config; run before anything is sent to an engine.
 */
export function checkEngineSection(raw: Record<string, unknown>): EngineProblem[] {
  const engine = raw.engine as Record<string, unknown> | undefined;
  if (!engine) return [];
  const out: EngineProblem[] = [];
  for (const key of LOCAL_SECTIONS) {
    if (raw[key] !== undefined) {
      out.push({
        pointer: `/${key}`,
        severity: 'error',
        message: `"${key}" cannot be combined with "engine": an engine config replaces the local pipeline`,
      });
    }
  }
  const kind = engineKind(engine.kind as EngineKind);
  const params = (engine.params ?? {}) as Record<string, unknown>;
  // A query of parameters (Solr) has no {{filter}} slot: the filter's parameters are added to the request.
  const solr = kind.query === 'params';
  const parts: [string, unknown][] = [['template', engine.template]];
  if (engine.filter !== undefined) parts.push(['filter', engine.filter]);
  let filterSlots = 0;
  for (const [part, value] of parts) {
    for (const use of templatePlaceholders(value, `/engine/${part}`)) {
      const [head = '', ...rest] = use.name.split('.');
      const where = `{{${use.name}}}`;
      if (head === 'params') {
        if (rest[0] === undefined || rest.length !== 1 || !Object.prototype.hasOwnProperty.call(params, rest[0])) {
          out.push({
            pointer: use.pointer,
            severity: 'error',
            message: `${where}: "engine.params" has no "${rest.join('.')}"${Object.keys(params).length ? ` (it has ${Object.keys(params).join(', ')})` : ''}`,
          });
        }
      } else if (head === 'principal') {
        if (rest.length === 0)
          out.push({ pointer: use.pointer, severity: 'error', message: `${where}: name an attribute, e.g. {{principal.tenant}}` });
        else if (part === 'template') {
          out.push({
            pointer: use.pointer,
            severity: 'warning',
            message: `${where} in the template: the config then runs only as a principal (--as); access parts belong in "filter"`,
          });
        }
      } else if (!VARIABLES.has(head) || rest.length) {
        out.push({
          pointer: use.pointer,
          severity: 'error',
          message: `${where}: unknown placeholder (use query, k, vector, filter, principal.NAME or params.NAME)`,
        });
      } else if (head === 'vector' && engine.embedder === undefined) {
        out.push({
          pointer: use.pointer,
          severity: 'error',
          message: `${where} needs an "embedder" in the engine section (it embeds the query)`,
        });
      } else if (head === 'filter') {
        if (part === 'filter' || solr) {
          out.push({
            pointer: use.pointer,
            severity: 'error',
            message: solr
              ? `${where}: ${kind.displayName} adds the "filter" parameters to the request; there is no {{filter}} slot`
              : `${where} cannot be used inside the filter itself`,
          });
        } else if (!use.whole) {
          out.push({
            pointer: use.pointer,
            severity: 'error',
            message: `${where} must be a whole value ("{{filter}}"), not part of a string`,
          });
        } else filterSlots++;
      }
    }
  }
  if (!solr && engine.filter !== undefined && filterSlots === 0) {
    out.push({
      pointer: '/engine/filter',
      severity: 'error',
      message: 'the filter is never sent: put "{{filter}}" where it belongs in the template (e.g. "bool": {"filter": "{{filter}}"})',
    });
  }
  if (!solr && engine.filter === undefined && filterSlots > 0) {
    out.push({
      pointer: '/engine/template',
      severity: 'warning',
      message: 'the template has a {{filter}} slot but there is no "filter": searching as a principal sends no access filter',
    });
  }
  if (solr) {
    for (const [part, value] of parts) {
      for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
        const scalar = (x: unknown) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean';
        if (!scalar(v) && !(Array.isArray(v) && v.every(scalar))) {
          out.push({
            pointer: `/engine/${part}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
            severity: 'error',
            message: `${kind.displayName} parameter "${key}" must be a string, number, boolean or a list of them`,
          });
        }
      }
    }
  }
  return out;
}
