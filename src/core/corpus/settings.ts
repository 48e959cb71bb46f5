/** How files and records map onto `Document`s. Field names may be dotted paths into nested records ("metadata.lang"). */
export interface CorpusFieldMap {
  /** Record id field, tried before the defaults `_id`, `id`. */
  id?: string;
  /** Title field, tried before the default `title`. */
  title?: string;
  /** Body field of JSON/JSONL records, tried before the defaults `text`, `body`, `content`. */
  body?: string;
  /** Other text fields to index, kept in `Document.fields` under the same name. */
  text: string[];
  /** Keys kept in `Document.meta`; unset = every key not mapped to something else. */
  meta?: string[];
  /** Numeric array field holding a precomputed vector. */
  vector: string;
}

/** Which source keys hold the access-control fields; they end up as `meta.tenant`, `meta.groups`, `meta.public`. */
export interface AclFieldNames {
  tenant: string;
  groups: string;
  public: string;
}

/** Fully defaulted corpus settings (the `corpus` section of ranklab.json plus `acl.fields`). */
export interface CorpusSettings {
  /** Globs relative to the workspace root. */
  include: string[];
  exclude: string[];
  /** Markdown, text and HTML files larger than this are reported and skipped. */
  maxFileBytes: number;
  /** JSON/JSONL record files larger than this are reported and skipped (a corpus.jsonl is often large). */
  maxRecordFileBytes: number;
  fields: CorpusFieldMap;
  aclFields: AclFieldNames;
  /** Document fields the access rule reads (`acl.rule`): always kept in `meta`, whatever `fields.meta` lists. */
  aclRuleFields: string[];
}

export const DEFAULT_ID_FIELDS = ['_id', 'id'];
export const DEFAULT_TITLE_FIELD = 'title';
export const DEFAULT_BODY_FIELDS = ['text', 'body', 'content'];

/** Folders that are never part of a corpus, whatever the globs say. */
export const ALWAYS_EXCLUDED = ['**/.ranklab/**', '**/node_modules/**', '**/.git/**'];

export const DEFAULT_CORPUS_SETTINGS: CorpusSettings = {
  include: ['corpus/**/*.{md,markdown,txt,html,htm,json,jsonl}'],
  exclude: [],
  maxFileBytes: 2 * 1024 * 1024,
  maxRecordFileBytes: 1024 * 1024 * 1024,
  fields: { text: [], vector: 'vector' },
  aclFields: { tenant: 'tenant', groups: 'groups', public: 'public' },
  aclRuleFields: [],
};

/** Merges partial settings over the defaults (used by the workspace loader and by callers without a ranklab.json). */
export function corpusSettings(
  partial: Partial<Omit<CorpusSettings, 'fields' | 'aclFields'>> & {
    fields?: Partial<CorpusFieldMap>;
    aclFields?: Partial<AclFieldNames>;
  } = {},
): CorpusSettings {
  const d = DEFAULT_CORPUS_SETTINGS;
  const fields: CorpusFieldMap = {
    text: partial.fields?.text ?? d.fields.text,
    vector: partial.fields?.vector ?? d.fields.vector,
  };
  if (partial.fields?.id !== undefined) fields.id = partial.fields.id;
  if (partial.fields?.title !== undefined) fields.title = partial.fields.title;
  if (partial.fields?.body !== undefined) fields.body = partial.fields.body;
  if (partial.fields?.meta !== undefined) fields.meta = partial.fields.meta;
  return {
    include: partial.include ?? d.include,
    exclude: partial.exclude ?? d.exclude,
    maxFileBytes: partial.maxFileBytes ?? d.maxFileBytes,
    maxRecordFileBytes: partial.maxRecordFileBytes ?? d.maxRecordFileBytes,
    fields,
    aclFields: {
      tenant: partial.aclFields?.tenant ?? d.aclFields.tenant,
      groups: partial.aclFields?.groups ?? d.aclFields.groups,
      public: partial.aclFields?.public ?? d.aclFields.public,
    },
    aclRuleFields: partial.aclRuleFields ?? d.aclRuleFields,
  };
}

/** The logical access fields a rule names; in records they are found under their `acl.fields` names. */
export const ACL_LOGICAL_FIELDS = ['tenant', 'groups', 'public'] as const;

/**
 * The record keys that hold access values in this corpus: the mapped tenant, groups and public fields and every
 * other document field the rule reads. A key that nearly spells one of them is a mistake (see util/near-miss).
 */
export function accessFieldNames(settings: Pick<CorpusSettings, 'aclFields' | 'aclRuleFields'>): string[] {
  const logical = ACL_LOGICAL_FIELDS as readonly string[];
  const names = [
    settings.aclFields.tenant,
    settings.aclFields.groups,
    settings.aclFields.public,
    ...settings.aclRuleFields.filter((f) => !logical.includes(f)),
  ];
  return [...new Set(names)];
}

/** Record keys the settings map to something else (id, title, body, text, meta, vector, their defaults): never near misses. */
export function mappedRecordKeys(settings: Pick<CorpusSettings, 'fields'>): Set<string> {
  const f = settings.fields;
  return new Set(
    [
      ...DEFAULT_ID_FIELDS,
      DEFAULT_TITLE_FIELD,
      ...DEFAULT_BODY_FIELDS,
      f.id,
      f.title,
      f.body,
      f.vector,
      ...f.text,
      ...(f.meta ?? []),
    ].filter((k): k is string => k !== undefined),
  );
}
