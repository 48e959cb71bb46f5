import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import schema from '../../../schemas/ranklab.schema.json';
import { validateRule } from '../acl/policy';
import type { Diagnostic } from '../util/diagnostics';
import { closest } from '../util/closest';
import { lineOfPointer, type JsonLocations } from '../util/json-source';

let validator: ValidateFunction | undefined;

function getValidator(): ValidateFunction {
  validator ??= new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true }).compile(schema);
  return validator;
}

/**
 * Checks parsed ranklab.json against schemas/ranklab.schema.json. Every problem becomes a Diagnostic at
 * the line of the offending key; unknown keys are warnings (with a suggestion), everything else an error.
 */
export function validateSettings(value: unknown, locations: JsonLocations, file: string): Diagnostic[] {
  const validate = getValidator();
  const diagnostics: Diagnostic[] = [];
  // The access rule's shape is checked by validateRule (acl/policy.ts), the definition applyDefaults uses: a rule
  // it refuses denies everything, so each of its problems is an error at its line. The schema adds "did you mean".
  const rule = (value as { acl?: { rule?: unknown } } | null)?.acl?.rule;
  if (rule !== undefined) {
    for (const p of validateRule(rule)) {
      diagnostics.push({
        file,
        line: lineOfPointer(locations, p.pointer),
        severity: 'error',
        key: displayPath(p.pointer),
        message: `${p.message}; the access rule denies everything until it is fixed`,
      });
    }
  }
  if (validate(value)) return diagnostics;
  for (const err of validate.errors ?? []) {
    // "gates" is checked by validateGates (src/core/experiment/gates.ts), the one definition the CLI uses too.
    if (err.instancePath === '/gates' || err.instancePath.startsWith('/gates/')) continue;
    const inRule = err.instancePath === '/acl/rule' || err.instancePath.startsWith('/acl/rule/');
    if (inRule && err.keyword !== 'additionalProperties') continue; // reported by validateRule above
    if (err.keyword === 'additionalProperties') {
      const key = String((err.params as { additionalProperty: string }).additionalProperty);
      const pointer = `${err.instancePath}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const known = Object.keys((err.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const guess = closest(key, known);
      // In the access rule an unknown operator is an error: the rule then fails closed (see applyDefaults).
      diagnostics.push({
        file,
        line: lineOfPointer(locations, pointer),
        severity: inRule ? 'error' : 'warning',
        message: inRule
          ? `unknown access-rule operator "${displayPath(pointer)}"${guess ? ` (did you mean "${guess}"?)` : ''}; the rule denies everything until it is fixed`
          : `unknown key "${displayPath(pointer)}"${guess ? ` (did you mean "${guess}"?)` : ''}; ignored`,
      });
      continue;
    }
    if (err.keyword === 'propertyNames') continue; // reported again, more precisely, as a pattern error
    diagnostics.push({ file, line: lineOfPointer(locations, err.instancePath), severity: 'error', message: describeError(err) });
  }
  return diagnostics;
}

function describeError(err: ErrorObject): string {
  const at = err.instancePath ? `"${displayPath(err.instancePath)}"` : 'ranklab.json';
  if (err.keyword === 'enum') {
    const allowed = (err.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ');
    return `${at} must be one of ${allowed}`;
  }
  // The only patterns in the schema are metric names.
  if (err.keyword === 'pattern') {
    return err.propertyName
      ? `"${err.propertyName}" in ${at} is not a metric name like ndcg@10`
      : `${at} (${JSON.stringify(err.data)}) is not a metric name like ndcg@10`;
  }
  if (err.keyword === 'type') {
    const t = (err.params as { type: string | string[] }).type;
    return `${at} must be ${Array.isArray(t) ? t.join(' or ') : t}`;
  }
  return `${at} ${err.message ?? 'is invalid'}`;
}

/** "/corpus/fields/id" → "corpus.fields.id", "/judgments/0" → "judgments[0]". */
export function displayPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, t) => (/^\d+$/.test(t) ? `${acc}[${t}]` : acc ? `${acc}.${t}` : t), '');
}
