import { corpusSettings, type AclFieldNames, type CorpusSettings } from '../corpus/settings';
import { type GateSettings, validateGates } from '../experiment/gates';
import type { JudgmentSpec } from '../judgments/load';
import type { MergePolicy } from '../judgments/merge';
import { type AclRule, ruleDocFields, validateRule } from '../acl/policy';
import type { MetricOptions } from '../metrics/context';
import { parseMetric } from '../metrics/spec';
import { RUNS_KEPT_PER_CONFIG } from '../experiment/run-store';

/** What the judgments loader gets; in a Workspace every path is absolute. */
export type { JudgmentSpec };

/** One entry of ranklab.json `judgments`: a path string or an object naming its files. */
export type JudgmentEntry = string | JudgmentSpec;

export interface AclSettings {
  principals?: string;
  fields: AclFieldNames;
  missingAcl: 'public' | 'private';
  /** Whether ranklab.json sets `missingAcl` (a public default left unstated makes check-acl fail: see session/access-settings). */
  missingAclStated: boolean;
  /** The `acl.fields` mappings ranklab.json sets: each must match some document. */
  fieldsStated: (keyof AclFieldNames)[];
  /** The access rule (src/core/acl/policy.ts); absent = DEFAULT_ACL_RULE. */
  rule?: AclRule;
}

/** ranklab.json `judging.llm` as written (checked where it is used: src/core/judging/llm-judge.ts). */
export type LlmSettings = Record<string, unknown>;

/** ranklab.json `judging`. */
export interface JudgingSettings {
  write: 'in-place' | 'per-rater';
  rater?: string;
  merge: MergePolicy;
  llmGrades: 'ignore' | 'fill';
  /** Pool depth (default 10). */
  depth: number;
  llm?: LlmSettings;
}

/** ranklab.json with every default applied (see `applyDefaults`). */
export interface RanklabSettings {
  /** Includes `aclFields` copied from `acl.fields`, so the corpus loader needs nothing else. */
  corpus: CorpusSettings;
  judgments: JudgmentEntry[];
  configs: string[];
  baseline?: string;
  metrics: string[];
  relevanceThreshold: number;
  gain: 'exp' | 'linear';
  /** Condensed lists: unjudged documents removed before every metric (trec_eval -J). Default false. */
  judgedOnly: boolean;
  /** Every kind present (possibly empty). */
  gates: Required<GateSettings>;
  acl: AclSettings;
  judging: JudgingSettings;
  /** `runs.keep`: retention, the newest saved runs kept per config and principal (0: every run; default 20). */
  runs: { keep: number };
}

export const DEFAULT_CONFIGS = ['configs/*.rank.json'];
export const DEFAULT_METRICS = ['ndcg@10', 'mrr@10', 'p@5', 'recall@100'];

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const nonNegativeInt = (v: unknown): number | undefined => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : undefined);
const posInt = (v: unknown): number | undefined => (Number.isInteger(v) && (v as number) > 0 ? (v as number) : undefined);
const strList = (v: unknown): string[] | undefined => {
  if (typeof v === 'string') return v ? [v] : undefined;
  return Array.isArray(v) && v.every((x) => typeof x === 'string' && x !== '') ? (v as string[]) : undefined;
};

/**
 * The one place where ranklab.json defaults are applied. Values of the wrong type fall back to the
 * default (schema validation has already reported them), so a half-broken file still gives a usable workspace.
 */
export function applyDefaults(raw: unknown): RanklabSettings {
  const r = obj(raw);
  const corpus = obj(r.corpus);
  const fields = obj(corpus.fields);
  const acl = obj(r.acl);
  const aclFields = obj(acl.fields);
  const settings: RanklabSettings = {
    corpus: corpusSettings({
      include: strList(corpus.include),
      exclude: strList(corpus.exclude),
      maxFileBytes: posInt(corpus.maxFileBytes),
      maxRecordFileBytes: posInt(corpus.maxRecordFileBytes),
      fields: {
        id: str(fields.id),
        title: str(fields.title),
        body: str(fields.body),
        text: strList(fields.text),
        meta: Array.isArray(fields.meta) ? (strList(fields.meta) ?? []) : undefined,
        vector: str(fields.vector),
      },
      aclFields: { tenant: str(aclFields.tenant), groups: str(aclFields.groups), public: str(aclFields.public) } as Partial<AclFieldNames>,
    }),
    judgments: judgmentEntries(r.judgments),
    configs: strList(r.configs) ?? DEFAULT_CONFIGS,
    metrics: validMetrics(strList(r.metrics)) ?? DEFAULT_METRICS,
    relevanceThreshold: nonNegativeInt(r.relevanceThreshold) ?? 1,
    gain: r.gain === 'linear' ? 'linear' : 'exp',
    judgedOnly: r.judgedOnly === true,
    gates: gatesWithDefaults(r.gates),
    acl: {
      fields: { tenant: 'tenant', groups: 'groups', public: 'public' },
      missingAcl: acl.missingAcl === 'private' ? 'private' : 'public',
      missingAclStated: acl.missingAcl === 'private' || acl.missingAcl === 'public',
      fieldsStated: (['tenant', 'groups', 'public'] as const).filter((k) => str(aclFields[k]) !== undefined),
    },
    judging: judgingSettings(obj(r.judging)),
    runs: { keep: nonNegativeInt(obj(r.runs).keep) ?? RUNS_KEPT_PER_CONFIG },
  };
  settings.acl.fields = { ...settings.corpus.aclFields };
  const principals = str(acl.principals);
  if (principals) settings.acl.principals = principals;
  // Unlike other values, an invalid rule (reported by schema validation) does not fall back to the default:
  // access control fails closed, so `{ any: [] }` (nothing allowed) stands in until the rule is fixed.
  if (acl.rule !== undefined) settings.acl.rule = validateRule(acl.rule).length === 0 ? (acl.rule as AclRule) : { any: [] };
  if (settings.acl.rule) settings.corpus.aclRuleFields = ruleDocFields(settings.acl.rule);
  const baseline = str(r.baseline);
  if (baseline) settings.baseline = baseline;
  return settings;
}

function judgingSettings(j: Json): JudgingSettings {
  // `merge` and `rater` are checked (with their line) when the workspace is assembled.
  const out: JudgingSettings = {
    write: j.write === 'per-rater' ? 'per-rater' : 'in-place',
    merge: (str(j.merge) ?? 'mean-rounded') as MergePolicy,
    llmGrades: j.llmGrades === 'fill' ? 'fill' : 'ignore',
    depth: posInt(j.depth) ?? 10,
  };
  const rater = str(j.rater);
  if (rater) out.rater = rater;
  if (j.llm && typeof j.llm === 'object' && !Array.isArray(j.llm)) out.llm = j.llm as LlmSettings;
  return out;
}

/** The metric names that parse (the others are reported by the workspace loader); undefined when none does. */
function validMetrics(names: string[] | undefined): string[] | undefined {
  const ok = names?.filter((n) => {
    try {
      return !!parseMetric(n);
    } catch {
      return false;
    }
  });
  return ok?.length ? ok : undefined;
}

/** The valid gates (validateGates reports the rest as errors); every kind present. */
function gatesWithDefaults(v: unknown): Required<GateSettings> {
  const { gates } = validateGates(v ?? {});
  return { min: gates.min ?? {}, maxRegression: gates.maxRegression ?? {}, maxSliceRegression: gates.maxSliceRegression ?? {} };
}

function judgmentEntries(v: unknown): JudgmentEntry[] {
  const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : [];
  const out: JudgmentEntry[] = [];
  for (const e of list) {
    if (typeof e === 'string' && e) out.push(e);
    else if (e && typeof e === 'object' && !Array.isArray(e)) {
      const spec: JudgmentSpec = {};
      for (const k of ['qrels', 'queries', 'golden', 'beir', 'raters', 'rater'] as const) {
        const p = str((e as Json)[k]);
        if (p) spec[k] = p;
      }
      if (Object.keys(spec).length > 0) out.push(spec);
    }
  }
  return out;
}

/** The metric options a workspace's ranklab.json asks for (gain, relevance threshold, condensed lists). */
export function metricOptionsOf(settings: Pick<RanklabSettings, 'gain' | 'relevanceThreshold'> & { judgedOnly?: boolean }): MetricOptions {
  return { gain: settings.gain, relevanceThreshold: settings.relevanceThreshold, ...(settings.judgedOnly && { judgedOnly: true }) };
}
