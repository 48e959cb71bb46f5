import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createFileAtomic } from '../util/atomic-write';
import { InputError } from '../util/diagnostics';
import { DOCUMENT_EXTENSIONS, type FieldGuess, type FolderScan, type FoundJudgments, scanFolder } from './init-scan';
import { SETTINGS_FILE } from './load';
import { DEFAULT_METRICS } from './settings';

/**
 * `ranklab init` / "Create Workspace": look at a folder (planWorkspace), then write a commented ranklab.json and
 * four starter configs (writeWorkspace). Never overwrites a file.
 */

export interface PlannedFile {
  /** Relative to the folder, POSIX slashes. */
  path: string;
  content: string;
  /** Already there: left as it is. */
  exists: boolean;
}

/** The corpus part of the plan: globs and the field mapping as ranklab.json will say them. */
export interface CorpusPlan {
  include: string[];
  exclude: string[];
  /** Record / front-matter keys mapped onto id, title and body. */
  fields: { id?: string; title?: string; body?: string };
  /** Keys holding the access fields, when found. */
  acl: { tenant?: string; groups?: string; public?: string };
  /** What was found, for the report: documents (Markdown, text, HTML) and record files with their count sampled. */
  documents: number;
  records: { file: string; records: number; fields: FieldGuess }[];
}

export interface WorkspacePlan {
  root: string;
  corpus: CorpusPlan;
  judgments: FoundJudgments[];
  warnings: string[];
  files: PlannedFile[];
}

export interface WriteResult {
  written: string[];
  skipped: { path: string; reason: string }[];
}

export const STARTER_CONFIGS = ['baseline', 'title-boost', 'vector', 'hybrid-rrf'] as const;

/**
 * Looks at a folder and says what it would write. Throws InputError when the folder is missing, already has a
 * ranklab.json, or has nothing to search.
 */
export function planWorkspace(dir: string): WorkspacePlan {
  const root = resolve(dir);
  if (!existsSync(root)) throw new InputError('folder not found', [], { file: dir });
  if (!statSync(root).isDirectory()) throw new InputError('is a file, not a folder', [], { file: dir });
  const settingsFile = join(root, SETTINGS_FILE);
  if (existsSync(settingsFile)) {
    throw new InputError('already exists; ranklab init never overwrites it', [], {
      file: settingsFile,
      hint: `run ranklab eval --workspace ${dir} to use it, or move it away to start again`,
    });
  }
  const scan = scanFolder(root);
  if (scan.documents.length === 0 && scan.records.length === 0) {
    throw new InputError(
      `has nothing to search: no Markdown, text or HTML file (${DOCUMENT_EXTENSIONS.map((e) => `.${e}`).join(' ')}), no JSON or JSONL file of records and no BEIR folder`,
      [],
      {
        file: dir,
        hint: 'point ranklab init at the folder that holds your documents',
      },
    );
  }
  const corpus = corpusPlan(scan);
  const warnings = [...scan.warnings, ...mappingWarnings(scan, corpus)];
  if (scan.judgments.length === 0)
    warnings.push(
      'no judgments found (golden set, TREC qrels with queries, or BEIR): ranklab eval needs labeled queries; see the comment in ranklab.json',
    );
  const hasTitle = !!corpus.fields.title || scan.documents.length > 0 || !!scan.frontMatter.title;
  const files: PlannedFile[] = [
    { path: SETTINGS_FILE, content: settingsText(corpus, scan.judgments), exists: false },
    ...starterConfigs(hasTitle).map(([name, config]) => {
      const path = `configs/${name}.rank.json`;
      return { path, content: JSON.stringify(config, null, 2) + '\n', exists: existsSync(join(root, path)) };
    }),
  ];
  if (!hasTitle) warnings.push('no title field found: the configs search the body only, and there is no title-boost config');
  return { root, corpus, judgments: scan.judgments, warnings, files };
}

/**
 * Writes the plan's files that do not exist yet, each atomically and only if still absent (a file that appeared
 * since the plan is left alone). ranklab.json already there is exit 2, as in planWorkspace.
 */
export function writeWorkspace(plan: WorkspacePlan): WriteResult {
  const result: WriteResult = { written: [], skipped: [] };
  for (const file of plan.files) {
    const path = join(plan.root, file.path);
    const created = !file.exists && createFileAtomic(path, file.content);
    if (created) result.written.push(file.path);
    else if (file.path === SETTINGS_FILE) throw new InputError('already exists; ranklab init never overwrites it', [], { file: path });
    else result.skipped.push({ path: file.path, reason: 'already exists; kept as it is' });
  }
  return result;
}

function corpusPlan(scan: FolderScan): CorpusPlan {
  const include: string[] = [];
  if (scan.documents.length) {
    const exts = [...new Set(scan.documents.map((f) => f.slice(f.lastIndexOf('.') + 1).toLowerCase()))].sort();
    include.push(`${commonFolder(scan.documents)}**/*.${exts.length === 1 ? exts[0] : `{${exts.join(',')}}`}`);
  }
  // Record files by name: a glob over *.json would also read the judgments and any other JSON as documents.
  include.push(...scan.records.map((r) => r.file));
  // A judgments file the document glob would match (queries.txt, a .txt qrels) is not a document.
  const exclude = scan.judgmentFiles.filter((f) => DOCUMENT_EXTENSIONS.some((e) => f.toLowerCase().endsWith(`.${e}`)));
  const guesses = [...scan.records.map((r) => r.fields), scan.frontMatter];
  const first = (key: keyof FieldGuess) => guesses.find((g) => g[key])?.[key];
  const fields: CorpusPlan['fields'] = {};
  for (const key of ['id', 'title', 'body'] as const) {
    const found = key === 'body' ? scan.records.find((r) => r.fields.body)?.fields.body : first(key);
    if (found) fields[key] = found;
  }
  const acl: CorpusPlan['acl'] = {};
  for (const key of ['tenant', 'groups', 'public'] as const) {
    const found = first(key);
    if (found) acl[key] = found;
  }
  return {
    include,
    exclude,
    fields,
    acl,
    documents: scan.documents.length,
    records: scan.records.map(({ file, records, fields: f }) => ({ file, records, fields: f })),
  };
}

/** "docs/" when every file is under docs/, else "". */
function commonFolder(files: string[]): string {
  const parts = files.map((f) => f.split('/').slice(0, -1));
  const [head = [], ...rest] = parts;
  const out: string[] = [];
  for (const [i, part] of head.entries()) {
    if (!rest.every((p) => p[i] === part)) break;
    out.push(part);
  }
  return out.length ? `${out.join('/')}/` : '';
}

/** Record files that disagree with the one mapping ranklab.json can hold, or lack an id or a body. */
function mappingWarnings(scan: FolderScan, corpus: CorpusPlan): string[] {
  const out: string[] = [];
  for (const r of scan.records) {
    if (!r.fields.id)
      out.push(`${r.file}: no id field found among ${r.keys.join(', ')}; records without an id are skipped (set corpus.fields.id)`);
    if (!r.fields.body) out.push(`${r.file}: no text field found; set corpus.fields.body to the key that holds the text`);
    for (const key of ['id', 'title', 'body'] as const) {
      const mine = r.fields[key];
      if (mine && corpus.fields[key] && mine !== corpus.fields[key] && !defaultName(key, mine)) {
        out.push(
          `${r.file}: its ${key} is in "${mine}" but ranklab.json maps ${key} to "${corpus.fields[key]}" (one mapping serves every file)`,
        );
      }
    }
  }
  return out;
}

function defaultName(key: 'id' | 'title' | 'body', name: string): boolean {
  return (key === 'id' ? ['_id', 'id'] : key === 'title' ? ['title'] : ['text', 'body', 'content']).includes(name);
}

/** ranklab.json with a comment over each key (the loader reads JSONC). */
function settingsText(corpus: CorpusPlan, judgments: FoundJudgments[]): string {
  const j = (v: unknown) => JSON.stringify(v);
  const lines: string[] = [
    '// Ranklab workspace settings, written by `ranklab init`. Comments are allowed; docs/formats.md "ranklab.json" lists every key.',
    '{',
    '  // The documents: globs relative to this folder (Markdown, text, HTML, and JSON/JSONL records).',
    '  "corpus": {',
    `    "include": ${j(corpus.include)},`,
  ];
  if (corpus.exclude.length)
    lines.push('    // Judgment files the globs above would otherwise read as documents.', `    "exclude": ${j(corpus.exclude)},`);
  const fields = Object.keys(corpus.fields).length ? corpus.fields : undefined;
  lines.push(
    '    // Which record (or front-matter) keys hold the id, the title and the text; found in your files. Markdown and',
    '    // text files without an id are named by their path.',
    `    "fields": ${j(fields ?? {})}`,
    '  },',
  );
  if (judgments.length) {
    lines.push(
      '  // Labeled queries: a golden set (.json), TREC qrels with the file of their queries, or "beir:FOLDER".',
      `  "judgments": ${j(judgments.map((x) => x.entry))},`,
    );
  } else {
    lines.push(
      '  // No judgments were found. Add labeled queries before `ranklab eval`, e.g. a golden set',
      '  //   "judgments": ["judgments/golden.json"]   with   [{"query": "how do I ...", "judgments": {"<doc id>": 2}}]',
      '  // or TREC qrels with their queries: "judgments": [{"qrels": "qrels.txt", "queries": "queries.tsv"}].',
    );
  }
  lines.push(
    '  // The ranking configs to compare (one *.rank.json each), and the one the others are compared against.',
    `  "configs": ${j('configs/*.rank.json')},`,
    `  "baseline": ${j('baseline')},`,
    '  // What `ranklab eval` prints (docs/metrics.md).',
    `  "metrics": ${j(DEFAULT_METRICS)}${Object.keys(corpus.acl).length ? ',' : ''}`,
  );
  if (Object.keys(corpus.acl).length) {
    lines.push(
      '  // Keys holding who may see each document (tenant, groups, public); checked by `ranklab check-acl` with a',
      '  // principals file ("acl": {"principals": "principals.json"}). A document with none of them is hidden',
      '  // ("missingAcl": "private"); say "public" if untagged documents may be shown to everyone (docs/access-control.md).',
      `  "acl": { "fields": ${j(corpus.acl)}, "missingAcl": "private" }`,
    );
  }
  lines.push('}', '');
  return lines.join('\n');
}

/** The example workspace's shapes (examples/food-search/configs), which run offline: BM25, a title boost, LSA vectors, RRF. */
function starterConfigs(hasTitle: boolean): [string, Record<string, unknown>][] {
  const fields: Record<string, number> = hasTitle ? { title: 1, body: 1 } : { body: 1 };
  const lexical = (f: Record<string, number>) => ({
    fields: f,
    bm25: { k1: 1.2, b: 0.75 },
    combineWith: 'OR',
    coordination: true,
    depth: 100,
  });
  const vector = { embedder: { provider: 'lsa', dimensions: 128 }, hnsw: { M: 16, efConstruction: 200, efSearch: 100 }, depth: 100 };
  const out: [string, Record<string, unknown>][] = [
    [
      'baseline',
      { description: `BM25 over ${hasTitle ? 'title and body with equal weights' : 'the body'}`, lexical: lexical(fields), pageSize: 10 },
    ],
    [
      'title-boost',
      {
        description: 'BM25 with the title boosted x3: edit the boost and save to see the change',
        lexical: lexical({ title: 3, body: 1 }),
        pageSize: 10,
      },
    ],
    [
      'vector',
      {
        description: 'Dense retrieval only: the built-in LSA embedder (offline) with an HNSW index',
        vector: { ...vector, exact: false },
        pageSize: 10,
      },
    ],
    [
      'hybrid-rrf',
      {
        description: 'BM25 and LSA vectors fused with reciprocal rank fusion, k = 60',
        lexical: lexical(fields),
        vector,
        hybrid: { k: 60, depth: 100 },
        pageSize: 10,
      },
    ],
  ];
  return hasTitle ? out : out.filter(([name]) => name !== 'title-boost');
}
