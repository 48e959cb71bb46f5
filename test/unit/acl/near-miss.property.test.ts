import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { type AclPolicy, type AclRule, type Principal, ruleDocFields } from '../../../src/core/acl/policy';
import { ReferenceAcl } from '../../../src/core/acl/reference-acl';
import { corpusSettings } from '../../../src/core/corpus/settings';
import { RanklabSession } from '../../../src/core/session/session';
import { InputError } from '../../../src/core/util/diagnostics';
import { main } from '../../../src/cli/main';
import { type GeneratedDoc, type Scenario, scenarioArb, writeWorkspace } from './generated-workspace';

/**
 * Ranklab issue 26: one access-control mistake at a time, made in the raw text of a random workspace (a misspelled
 * or mis-cased access key in a document, in a principal, in `acl.fields`, in `acl.rule`; a key deleted from
 * `acl.fields` or from a rule; every access key of a document deleted while `missingAcl` is left unset), then
 * loaded the way a user loads it: `ranklab check-acl` in-process (exit code and messages) and the session behind
 * every command (the permitted sets). Properties:
 *  (a) when the command does not stop (exit 2), no principal's permitted set holds a document that the INTENDED
 *      workspace (the unmutated files, evaluated by the independent ReferenceAcl) hides from them;
 *  (b) the mistake is named: a message names the mutated file (and line, and "did you mean", where the
 *      specification says so).
 */

const INCLUDE = ['corpus/**/*.{md,jsonl}'];
const ACCESS = ['tenant', 'groups', 'public'] as const;
/** Every key the generator writes: a variant equal to one of these is not a misspelling but another field. */
const WRITTEN_KEYS = new Set(['id', 'title', 'text', 'tags', 'tenant', 'groups', 'public', 'classification', 'name', 'role']);

/** The intended workspace: the scenario made clean for the checks that are not under test here. */
interface Intended extends Scenario {
  /** `corpus.fields.meta` listed (as in the example) or unset (every key kept). */
  meta: boolean;
}

/**
 * d0 carries every field the mappings and rules name, and some principal every attribute the rule reads (`same`,
 * `overlap`, `principal`), so that the unmutated workspace maps and reads nothing that nobody carries.
 */
function clean(s: Scenario, meta: boolean): Intended {
  const docs = s.docs.slice();
  docs[0] = {
    ...docs[0],
    tenant: { value: 't1', valid: true },
    groups: { value: ['g1'], valid: true },
    public: { value: false, valid: true },
    classification: 'open',
  };
  const principals = s.principals.slice();
  const values: Record<string, unknown> = { tenant: 't1', groups: ['g1'], role: 'admin' };
  for (const a of principalAttributes(s.rule))
    if (!principals.some((p) => p[a] !== undefined)) principals[0] = { ...principals[0], [a]: values[a] };
  return { ...s, docs, principals, meta };
}

const intendedArb = fc.tuple(scenarioArb, fc.boolean()).map(([s, meta]) => clean(s, meta));

function settingsOf(s: Intended): Record<string, unknown> {
  return {
    corpus: { include: INCLUDE, ...(s.meta && { fields: { meta: ['tags'] } }) },
    judgments: ['golden.json'],
    acl: {
      principals: 'principals.json',
      fields: { tenant: 'tenant', groups: 'groups', public: 'public' },
      missingAcl: s.missingAcl,
      rule: s.rule,
    },
  };
}

/** One principal per line (line k + 2 for entry k), so "the entry's line" is a known number. */
function principalsText(ps: readonly Principal[]): string {
  return `[\n${ps.map((p) => `  ${JSON.stringify(p)}`).join(',\n')}\n]\n`;
}

/** The intended workspace on disk, and who may see what there according to the independent reference. */
function writeIntended(s: Intended): { dir: string; visible: Map<string, Set<string>> } {
  const dir = writeWorkspace(s);
  writeFileSync(join(dir, 'ranklab.json'), JSON.stringify(settingsOf(s), null, 2) + '\n');
  writeFileSync(join(dir, 'principals.json'), principalsText(s.principals));
  writeFileSync(join(dir, 'golden.json'), JSON.stringify([{ id: 'q1', query: 'kopi', judgments: { d0: 1 } }]));
  const policy: AclPolicy = { rule: s.rule, missingAcl: s.missingAcl };
  const reference = ReferenceAcl.fromDisk(dir, corpusSettings({ include: INCLUDE, aclRuleFields: ruleDocFields(s.rule) }), policy);
  const ids = s.docs.map((_, i) => `d${i}`);
  return { dir, visible: new Map(s.principals.map((p) => [p.name, new Set(ids.filter((id) => reference.visible(p, id)))])) };
}

// ---- near misses, made by hand from the specification -------------------------------------------------------------

/** One edit of a key that the specification calls a near miss: a case change, a separator, or one edit of distance 1. */
const editArb = fc.record({
  op: fc.constantFrom('upper-first', 'upper-all', 'separator', 'delete', 'insert', 'transpose', 'substitute'),
  at: fc.nat(),
  letter: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'),
  separator: fc.constantFrom('_', '-'),
});
type Edit = typeof editArb extends fc.Arbitrary<infer T> ? T : never;

/** The edited key; undefined when the edit does not change it or lands on another key the generator writes. */
function nearMiss(key: string, e: Edit): string | undefined {
  const i = e.at % key.length;
  const inner = 1 + (e.at % (key.length - 1)); // 1..length-1: a separator inside or at the end, never first
  let out: string;
  switch (e.op) {
    case 'upper-first':
      out = key[0].toUpperCase() + key.slice(1);
      break;
    case 'upper-all':
      out = key.toUpperCase();
      break;
    case 'separator':
      out = key.slice(0, inner) + e.separator + key.slice(inner);
      break;
    case 'delete':
      out = key.slice(0, i) + key.slice(i + 1);
      break;
    case 'insert':
      out = key.slice(0, inner) + e.letter + key.slice(inner);
      break;
    case 'transpose':
      out = key.slice(0, inner - 1) + key[inner] + key[inner - 1] + key.slice(inner + 1);
      break;
    default:
      out = key.slice(0, i) + e.letter + key.slice(i + 1);
  }
  return out === key || WRITTEN_KEYS.has(out) ? undefined : out;
}

// ---- the rule as data: its leaves with their paths ---------------------------------------------------------------

interface Leaf {
  node: Record<string, unknown>;
  key: 'doc' | 'same' | 'overlap' | 'principal';
  path: string;
}

function leaves(rule: unknown, path = 'acl.rule'): Leaf[] {
  const r = rule as Record<string, unknown>;
  if (Array.isArray(r.any)) return r.any.flatMap((x, i) => leaves(x, `${path}.any[${i}]`));
  if (Array.isArray(r.all)) return r.all.flatMap((x, i) => leaves(x, `${path}.all[${i}]`));
  if (r.not) return leaves(r.not, `${path}.not`);
  const key = (['doc', 'same', 'overlap', 'principal'] as const).find((k) => k in r)!;
  return [{ node: r, key, path: `${path}.${key}` }];
}

/** Every object of the rule, with its path. */
function nodes(rule: unknown, path = 'acl.rule'): { node: Record<string, unknown>; path: string }[] {
  const r = rule as Record<string, unknown>;
  const kids = Array.isArray(r.any)
    ? r.any.map((x, i) => nodes(x, `${path}.any[${i}]`))
    : Array.isArray(r.all)
      ? r.all.map((x, i) => nodes(x, `${path}.all[${i}]`))
      : r.not
        ? [nodes(r.not, `${path}.not`)]
        : [];
  return [{ node: r, path }, ...kids.flat()];
}

/** The principal attributes the rule reads: `principal` tests and both sides of `same` and `overlap`. */
function principalAttributes(rule: AclRule): string[] {
  return [
    ...new Set(
      leaves(rule)
        .filter((l) => l.key !== 'doc')
        .map((l) => String(l.node[l.key])),
    ),
  ];
}

// ---- the mutations ------------------------------------------------------------------------------------------------

/** What a mutation did, and what must be said about it. */
interface Mutation {
  /** What was done, for the failure message. */
  what: string;
  /** The file changed, as messages name it. */
  file: string;
  /** Further text each run's messages must contain (a line, a key, "did you mean"). */
  expect: (string | RegExp)[];
  /** A document that must be visible to nobody afterwards. */
  hiddenDoc?: string;
  /** A principal that must not be usable afterwards. */
  skippedPrincipal?: string;
  /** The command must stop before anything runs (exit 2). */
  stops?: boolean;
  /** The meaning is unchanged: the permitted sets equal the intended ones, and nothing is reported about it. */
  same?: boolean;
  /** Every access key of this document deleted, missingAcl unset: check-acl must fail and name it. */
  missingAcl?: { id: string; file: string; alone: boolean };
}

type Mutate = (dir: string, s: Intended, pick: number, edit: Edit) => Mutation | undefined;

const at = (file: string, line: number) => new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}(?!\\d)`);
const read = (dir: string, rel: string) => readFileSync(join(dir, rel), 'utf8');
const write = (dir: string, rel: string, text: string) => writeFileSync(join(dir, rel), text);
const editSettings = (dir: string, edit: (s: any) => void) => {
  const s = JSON.parse(read(dir, 'ranklab.json'));
  edit(s);
  write(dir, 'ranklab.json', JSON.stringify(s, null, 2) + '\n');
};

/** Where document i is: its file and, for JSONL, its line. */
function docFile(s: Intended, i: number): { file: string; line?: number } {
  if (s.docs[i].format === 'md') return { file: `corpus/d${i}.md` };
  return { file: 'corpus/records.jsonl', line: s.docs.slice(0, i + 1).filter((d) => d.format === 'jsonl').length };
}

/** The keys of a generated document that access control reads: tenant, groups, public, and the rule's own fields. */
function accessKeysOf(d: GeneratedDoc, rule: AclRule): string[] {
  const fields = new Set<string>([...ACCESS, ...ruleDocFields(rule)]);
  return [...fields].filter((k) => (k === 'classification' ? d.classification !== undefined : k in d && d[k as 'tenant'] !== undefined));
}

/** A document's access key renamed to a near miss, in its front matter or JSONL record. */
const docKey: Mutate = (dir, s, pick, edit) => {
  const candidates = s.docs.flatMap((d, i) => accessKeysOf(d, s.rule).map((key) => ({ i, key })));
  const { i, key } = candidates[pick % candidates.length];
  const variant = nearMiss(key, edit);
  if (!variant) return undefined;
  const { file, line } = docFile(s, i);
  const text = read(dir, file);
  const lines = text.split('\n');
  const k = line ? line - 1 : lines.findIndex((l) => l.startsWith(`${key}: `));
  const changed = line ? lines[k].replace(`"${key}":`, `"${variant}":`) : lines[k].replace(`${key}:`, `${variant}:`);
  assert.notEqual(changed, lines[k], `the key ${key} of d${i} is in ${file}`);
  lines[k] = changed;
  write(dir, file, lines.join('\n'));
  return {
    what: `d${i}: ${key} -> ${variant} in ${file}`,
    file,
    expect: [at(file, k + 1), variant, `did you mean "${key}"`],
    hiddenDoc: `d${i}`,
  };
};

/** A principal's access key (tenant, groups, or an attribute the rule tests) renamed to a near miss. */
const principalKey: Mutate = (dir, s, pick, edit) => {
  const keys = [...new Set(['tenant', 'groups', ...principalAttributes(s.rule)])];
  const candidates = s.principals.flatMap((p, j) => keys.filter((k) => p[k] !== undefined).map((key) => ({ j, key })));
  const { j, key } = candidates[pick % candidates.length];
  const variant = nearMiss(key, edit);
  if (!variant) return undefined;
  const lines = read(dir, 'principals.json').split('\n');
  lines[j + 1] = lines[j + 1].replace(`"${key}":`, `"${variant}":`);
  write(dir, 'principals.json', lines.join('\n'));
  return {
    what: `${s.principals[j].name}: ${key} -> ${variant}`,
    file: 'principals.json',
    expect: [at('principals.json', j + 2), variant, `did you mean "${key}"`],
    skippedPrincipal: s.principals[j].name,
  };
};

/** `acl.fields.X` mapped to a near miss of its field, which no document carries. */
const fieldsValue: Mutate = (dir, _s, pick, edit) => {
  const key = ACCESS[pick % ACCESS.length];
  const variant = nearMiss(key, edit);
  if (!variant) return undefined;
  editSettings(dir, (x) => (x.acl.fields[key] = variant));
  return { what: `acl.fields.${key}: ${variant}`, file: 'ranklab.json', expect: [`acl.fields.${key}`], stops: true };
};

/**
 * A field the rule reads renamed to a near miss, which nothing carries: `doc` leaves (a document field only), or
 * leaves that read a principal attribute (`principal`, and `same`/`overlap`, which read both sides).
 */
const ruleField =
  (reads: 'document' | 'principal'): Mutate =>
  (dir, s, pick, edit) => {
    const all = leaves(s.rule);
    const mine = all.flatMap((l, i) => ((l.key === 'doc') === (reads === 'document') ? [i] : []));
    if (mine.length === 0) return undefined;
    const index = mine[pick % mine.length];
    const { key, path } = all[index];
    let variant: string | undefined;
    editSettings(dir, (x) => {
      const leaf = leaves(x.acl.rule)[index];
      variant = nearMiss(String(leaf.node[key]), edit);
      if (variant) leaf.node[key] = variant;
    });
    return variant ? { what: `${path}: ${variant}`, file: 'ranklab.json', expect: [path], stops: true } : undefined;
  };

/** A key of `acl.fields` deleted: the mapping falls back to the default name, which is the name the corpus uses. */
const fieldsDelete: Mutate = (dir, _s, pick) => {
  const key = ACCESS[pick % ACCESS.length];
  editSettings(dir, (x) => delete x.acl.fields[key]);
  return { what: `acl.fields.${key} deleted`, file: 'ranklab.json', expect: [], same: true };
};

/** One key of one rule object deleted (not `ifEmpty`, which is optional): the rule is invalid and fails closed. */
const ruleDelete: Mutate = (dir, s, pick) => {
  const keys = nodes(s.rule).flatMap(({ node, path }, n) =>
    Object.keys(node)
      .filter((k) => k !== 'ifEmpty')
      .map((k) => ({ n, k, path })),
  );
  const { n, k, path } = keys[pick % keys.length];
  editSettings(dir, (x) => delete nodes(x.acl.rule)[n].node[k]);
  return { what: `${path}.${k} deleted`, file: 'ranklab.json', expect: [path], stops: true };
};

/** Every access key of one document (not d0) deleted and `missingAcl` removed from ranklab.json. */
const stripDoc: Mutate = (dir, s, pick) => {
  const i = 1 + (pick % (s.docs.length - 1));
  const keys = accessKeysOf(s.docs[i], s.rule);
  if (keys.length === 0) return undefined; // already decided by missingAcl in the intended workspace
  const { file, line } = docFile(s, i);
  const lines = read(dir, file).split('\n');
  if (line) {
    const record = JSON.parse(lines[line - 1]);
    for (const k of keys) delete record[k];
    lines[line - 1] = JSON.stringify(record);
  } else {
    for (const k of keys)
      lines.splice(
        lines.findIndex((l) => l.startsWith(`${k}: `)),
        1,
      );
  }
  write(dir, file, lines.join('\n'));
  editSettings(dir, (x) => delete x.acl.missingAcl);
  const ruleFields = ruleDocFields(s.rule);
  const others = s.docs.filter((d, j) => j !== i && !ruleFields.some((f) => accessKeysOf(d, s.rule).includes(f))).length;
  return {
    what: `every access key of d${i} deleted, missingAcl unset`,
    file,
    expect: [],
    missingAcl: { id: `d${i}`, file, alone: others === 0 },
  };
};

// ---- loading as a user does ---------------------------------------------------------------------------------------

async function checkAcl(dir: string): Promise<{ code: number; text: string }> {
  let out = '';
  const io = { out: (t: string) => void (out += t), err: (t: string) => void (out += t) };
  const code = await main(['check-acl', '--workspace', dir, '--no-prefixes'], io);
  return { code, text: out };
}

/** The permitted set of every principal the session can use; undefined when loading stops with an InputError. */
function permittedSets(dir: string): Map<string, Set<string>> | undefined {
  const session = RanklabSession.open(dir, { writeCache: false });
  try {
    session.corpus();
    return new Map(session.principals().map((p) => [p.name, session.accessFor(p.name).permitted]));
  } catch (e) {
    if (e instanceof InputError) return undefined;
    throw e;
  }
}

function mutationProperty(mutate: Mutate) {
  return fc.asyncProperty(intendedArb, fc.nat(), editArb, async (s, pick, edit) => {
    const { dir, visible } = writeIntended(s);
    try {
      const m = mutate(dir, s, pick, edit);
      fc.pre(m !== undefined);
      const r = await checkAcl(dir);
      const show = `\n--- ${m!.what}\n--- exit ${r.code}\n${r.text.slice(0, 3000)}`;
      if (m!.missingAcl) {
        // By design not a typo: the check fails, names missingAcl, and lists the document when it is the only one.
        assert.equal(r.code, 1, `check-acl must fail when missingAcl decides a document and is not set${show}`);
        assert.match(r.text, /missingAcl/, `no message names missingAcl${show}`);
        if (m!.missingAcl.alone)
          assert.match(
            r.text,
            new RegExp(`\\b${m!.missingAcl.id}\\b[^\\n]*${m!.missingAcl.file}|${m!.missingAcl.file}[^\\n]*\\b${m!.missingAcl.id}\\b`),
            `${m!.missingAcl.id} is not listed with its file${show}`,
          );
        return;
      }
      if (m!.same) {
        assert.doesNotMatch(r.text, /acl\.fields/, `nothing to report about acl.fields${show}`);
        assert.notEqual(r.code, 2, `nothing to stop for${show}`);
      } else {
        // (b) the mutated file is named, with what the specification says the message holds.
        assert.ok(r.text.includes(m!.file), `no message names ${m!.file}${show}`);
        for (const e of m!.expect)
          assert.ok(typeof e === 'string' ? r.text.includes(e) : e.test(r.text), `the messages lack ${String(e)}${show}`);
      }
      if (m!.stops) assert.equal(r.code, 2, `check-acl must stop before anything runs${show}`);
      else if (!m!.same) assert.notEqual(r.code, 0, `check-acl must not pass${show}`);
      if (r.code === 2) return;
      // (a) nothing the intended workspace hides is permitted.
      const permitted = permittedSets(dir);
      if (!permitted) return;
      for (const [name, ids] of permitted) {
        const intended = visible.get(name);
        assert.ok(intended, `principal ${name} is not one of the intended principals`);
        const extra = [...ids].filter((id) => !intended.has(id));
        assert.deepEqual(extra, [], `${name} may see ${extra.join(', ')}, which the intended workspace hides${show}`);
        if (m!.same)
          assert.deepEqual([...ids].sort(), [...intended].sort(), `${name}: a deletion that changes nothing changed the permitted set`);
      }
      if (m!.hiddenDoc)
        for (const [name, ids] of permitted)
          assert.ok(!ids.has(m!.hiddenDoc), `${name} may see ${m!.hiddenDoc}, whose access key is misspelled`);
      if (m!.skippedPrincipal)
        assert.ok(!permitted.has(m!.skippedPrincipal), `${m!.skippedPrincipal} has a misspelled key and is still used`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

const RUNS = { numRuns: 60, seed: 26 };

/** fc.assert, with the failed assertion's own message (the test runner does not print an error's cause). */
async function holds(mutate: Mutate, params: fc.Parameters<[Intended, number, Edit]>): Promise<void> {
  try {
    await fc.assert(mutationProperty(mutate), params);
  } catch (e) {
    const cause = (e as Error).cause;
    throw new Error(`${(e as Error).message}\n${cause instanceof Error ? cause.message : String(cause ?? '')}`, { cause: e });
  }
}

test('property: a near-miss access key in a document is an error at its line, and the document is visible to nobody', async () => {
  await holds(docKey, RUNS);
});

test('property: a near-miss access key in a principal is an error at the entry, and that principal is not used', async () => {
  await holds(principalKey, RUNS);
});

test('property: acl.fields mapped to a near miss stops the command, naming ranklab.json and the key', async () => {
  await holds(fieldsValue, { ...RUNS, numRuns: 40 });
});

test('property: a rule reading a near miss of a document field stops the command, naming ranklab.json and the rule path', async () => {
  await holds(ruleField('document'), RUNS);
});

test('property: a rule reading a near miss of a principal attribute stops the command, naming ranklab.json and the rule path', async () => {
  await holds(ruleField('principal'), RUNS);
});

test('property: a key deleted from acl.fields (default names in the corpus) changes nothing and reports nothing', async () => {
  await holds(fieldsDelete, { ...RUNS, numRuns: 20 });
});

test('property: a key deleted from a rule object makes the rule invalid: the command stops, naming ranklab.json', async () => {
  await holds(ruleDelete, { ...RUNS, numRuns: 40 });
});

test('property: every access key of a document deleted, missingAcl not set: check-acl fails and names it', async () => {
  await holds(stripDoc, { ...RUNS, numRuns: 40 });
});
