import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { basename, extname, join, posix } from 'node:path';
import matter from 'gray-matter';
import { globSync } from 'tinyglobby';
import { compareStrings } from '../corpus/discover';
import { ALWAYS_EXCLUDED } from '../corpus/settings';
import { sniffQrelsFormat } from '../judgments/qrels';
import { splitLines, splitColumns } from '../util/text-file';

/**
 * What `ranklab init` finds in a folder, by looking at file names and the first records of each file (never the
 * whole of a large file). Pure reading; `init.ts` turns it into ranklab.json.
 */

export const DOCUMENT_EXTENSIONS = ['md', 'markdown', 'txt', 'html', 'htm'];
/** Records sampled per file to guess its field names. */
const SAMPLE_RECORDS = 200;
/** Bytes read from the head of a JSONL file for the sample; a JSON file is read whole up to this size. */
const SAMPLE_BYTES = 4 * 1024 * 1024;

export interface FieldGuess {
  id?: string;
  title?: string;
  body?: string;
  tenant?: string;
  groups?: string;
  public?: string;
}

export interface RecordFile {
  file: string;
  records: number;
  fields: FieldGuess;
  /** Every key the sampled records have (for the report). */
  keys: string[];
}

export interface FoundJudgments {
  kind: 'beir' | 'qrels' | 'golden';
  /** Files it is made of, relative to the folder. */
  files: string[];
  /** What ranklab.json says for it. */
  entry: string | { qrels: string; queries?: string };
}

export interface FolderScan {
  /** Markdown, text and HTML files (relative, POSIX slashes, sorted). */
  documents: string[];
  /** Fields found in the front matter of the Markdown files. */
  frontMatter: FieldGuess;
  records: RecordFile[];
  /** A BEIR folder (relative, '.' for the folder itself), when there is one. */
  beir?: string;
  judgments: FoundJudgments[];
  /** Judgment files, which the corpus globs must not read as documents. */
  judgmentFiles: string[];
  warnings: string[];
}

// Names tried in order; the first one most sampled records have wins. The defaults come first, so a folder that
// needs no mapping gets none.
const ID_NAMES = ['_id', 'id', 'doc_id', 'docid', 'docId', 'document_id', 'documentId', 'doc-id', 'uid', 'key', 'slug', 'sku', 'uuid'];
const TITLE_NAMES = ['title', 'headline', 'name', 'subject', 'heading', 'question'];
const BODY_NAMES = ['text', 'body', 'content', 'contents', 'description', 'abstract', 'summary', 'passage', 'answer', 'article'];
const TENANT_NAMES = ['tenant', 'tenant_id', 'tenantId', 'org', 'organization', 'organisation'];
const GROUPS_NAMES = ['groups', 'allowed_groups', 'allowedGroups', 'acl_groups', 'aclGroups'];
const PUBLIC_NAMES = ['public', 'is_public', 'isPublic'];

type Rec = Record<string, unknown>;

/** Files that are settings, not data: never documents or judgments. */
const NOT_DATA = [
  'ranklab.json',
  '**/*.rank.json',
  '**/principals.json',
  '**/package.json',
  '**/package-lock.json',
  '**/tsconfig*.json',
  'configs/**',
];

export function scanFolder(root: string): FolderScan {
  const files = globSync(['**/*'], { cwd: root, ignore: [...ALWAYS_EXCLUDED, ...NOT_DATA], onlyFiles: true, dot: false })
    .map((f) => f.replace(/\\/g, '/'))
    .sort(compareStrings);
  const scan: FolderScan = { documents: [], frontMatter: {}, records: [], judgments: [], judgmentFiles: [], warnings: [] };
  const claimed = new Set<string>();

  const beir = findBeir(files);
  if (beir) {
    const prefix = beir === '.' ? '' : `${beir}/`;
    scan.beir = beir;
    for (const f of files) if (f === `${prefix}queries.jsonl` || /^qrels(\/[^/]+\.tsv|\.tsv)$/.test(f.slice(prefix.length))) claimed.add(f);
    // corpus.jsonl is not claimed: it is read below as the record file it is.
    scan.judgments.push({ kind: 'beir', files: files.filter((f) => claimed.has(f)), entry: beirEntry(root, beir, scan.warnings) });
    scan.judgmentFiles.push(...files.filter((f) => claimed.has(f)));
  }

  const qrels: string[] = [];
  const queries: string[] = [];
  for (const f of files) {
    if (claimed.has(f)) continue;
    const name = basename(f).toLowerCase();
    const ext = extname(name).slice(1);
    if ((ext === 'qrels' || (/qrels/.test(name) && ['', 'tsv', 'txt'].includes(ext))) && looksLikeQrels(join(root, f))) qrels.push(f);
    else if (/(queries|topics)/.test(name) && ['tsv', 'txt', 'jsonl'].includes(ext)) queries.push(f);
    else if ((ext === 'json' || ext === 'jsonl') && isGoldenSet(sampleRecords(join(root, f), ext))) {
      scan.judgments.push({ kind: 'golden', files: [f], entry: f });
      scan.judgmentFiles.push(f);
    } else continue;
    claimed.add(f);
  }
  pairQrels(qrels, queries, scan);

  const front: Rec[] = [];
  for (const f of files) {
    if (claimed.has(f)) continue;
    const ext = extname(f).slice(1).toLowerCase();
    if (DOCUMENT_EXTENSIONS.includes(ext)) {
      scan.documents.push(f);
      if ((ext === 'md' || ext === 'markdown') && front.length < SAMPLE_RECORDS) {
        const data = frontMatterOf(join(root, f));
        if (data) front.push(data);
      }
    } else if (ext === 'json' || ext === 'jsonl') {
      if (ext === 'json' && statSync(join(root, f)).size > SAMPLE_BYTES) {
        scan.warnings.push(
          `${f}: a JSON file over ${SAMPLE_BYTES / 1024 / 1024} MiB is not looked into; if it holds records, add it to corpus.include (JSONL is sampled from its head)`,
        );
        continue;
      }
      const records = sampleRecords(join(root, f), ext);
      if (records.length === 0) continue;
      scan.records.push({
        file: f,
        records: records.length,
        fields: guessFields(records),
        keys: [...new Set(records.flatMap((r) => Object.keys(r)))],
      });
    }
  }
  scan.frontMatter = front.length ? guessFields(front, false) : {};
  const beirCorpus = scan.beir && scan.records.find((r) => r.file === `${scan.beir === '.' ? '' : `${scan.beir}/`}corpus.jsonl`);
  if (scan.beir && !beirCorpus) scan.warnings.push(`${scan.beir}/corpus.jsonl has no readable record`);
  return scan;
}

/** A folder (the root or one level down) with corpus.jsonl, queries.jsonl and qrels.tsv or qrels/*.tsv. */
function findBeir(files: string[]): string | undefined {
  const dirs = [...new Set(files.filter((f) => basename(f) === 'corpus.jsonl').map((f) => posix.dirname(f)))].filter(
    (d) => d === '.' || !d.includes('/'),
  );
  return dirs.find((d) => {
    const p = d === '.' ? '' : `${d}/`;
    return (
      files.includes(`${p}queries.jsonl`) &&
      files.some((f) => f === `${p}qrels.tsv` || (f.startsWith(`${p}qrels/`) && f.endsWith('.tsv') && !f.slice(p.length + 6).includes('/')))
    );
  });
}

/** "beir:DIR" when the loader finds its qrels (test split, qrels.tsv or a single file); else the first split by name. */
function beirEntry(root: string, dir: string, warnings: string[]): FoundJudgments['entry'] {
  const p = dir === '.' ? '' : `${dir}/`;
  const splits = globSync(['qrels/*.tsv'], { cwd: join(root, dir), onlyFiles: true })
    .map((f) => f.replace(/\\/g, '/'))
    .sort(compareStrings);
  const plain = globSync(['qrels.tsv'], { cwd: join(root, dir), onlyFiles: true }).length > 0;
  const [first] = splits;
  if (plain || first === undefined || splits.length === 1 || splits.includes('qrels/test.tsv')) return `beir:${dir}`;
  warnings.push(
    `${p}qrels has several splits (${splits.map((s) => basename(s, '.tsv')).join(', ')}) and no test.tsv; using ${basename(first, '.tsv')}`,
  );
  return { qrels: `${p}${first}`, queries: `${p}queries.jsonl` };
}

/** Qrels with their queries: one queries file serves every qrels file; else the one whose name shares a stem. */
function pairQrels(qrels: string[], queries: string[], scan: FolderScan): void {
  for (const q of qrels) {
    const stem = (f: string) =>
      basename(f)
        .toLowerCase()
        .replace(/\.[^.]+$/, '')
        .replace(/qrels|queries|topics/g, '');
    const match = queries.length === 1 ? queries[0] : queries.find((x) => stem(x) === stem(q));
    scan.judgments.push(
      match
        ? { kind: 'qrels', files: [q, match], entry: { qrels: q, queries: match } }
        : { kind: 'qrels', files: [q], entry: { qrels: q } },
    );
    scan.judgmentFiles.push(q, ...(match ? [match] : []));
    if (!match)
      scan.warnings.push(
        `${q} has no queries file beside it: without the queries' text nothing can be searched (add "queries" to its judgments entry)`,
      );
  }
  const used = new Set(scan.judgmentFiles);
  for (const q of queries)
    if (!used.has(q)) {
      scan.warnings.push(`${q} looks like queries but no qrels go with it; not used`);
      scan.judgmentFiles.push(q);
    }
}

function looksLikeQrels(path: string): boolean {
  const text = readHead(path, 64 * 1024);
  if (sniffQrelsFormat(text) === 'beir') return true;
  const first = splitLines(text).find((l) => l.text.trim() && !l.text.trim().startsWith('#'));
  const cols = first ? splitColumns(first.text) : [];
  return cols.length === 4 && /^-?\d+$/.test(cols[3] ?? '');
}

function isGoldenSet(records: Rec[]): boolean {
  return (
    records.length > 0 &&
    records.every((r) => typeof r.query === 'string' && (r.judgments !== undefined || r.relevant_doc_ids !== undefined))
  );
}

/** The first records of a JSON (array or `{documents}`) or JSONL file; [] when it holds no objects. */
function sampleRecords(path: string, ext: string): Rec[] {
  const isRec = (v: unknown): v is Rec => !!v && typeof v === 'object' && !Array.isArray(v);
  if (ext === 'jsonl') {
    const out: Rec[] = [];
    const lines = readHead(path, SAMPLE_BYTES).split(/\r?\n/);
    for (const line of lines.slice(0, lines.length > 1 ? -1 : undefined)) {
      if (out.length >= SAMPLE_RECORDS) break;
      if (!line.trim()) continue;
      try {
        const v: unknown = JSON.parse(line);
        if (isRec(v)) out.push(v);
      } catch {
        // a bad line is the corpus reader's to report, at its line
      }
    }
    return out;
  }
  if (statSync(path).size > SAMPLE_BYTES) return [];
  let value: unknown;
  try {
    value = JSON.parse(readHead(path, SAMPLE_BYTES));
  } catch {
    return [];
  }
  const list = Array.isArray(value) ? value : isRec(value) && Array.isArray(value.documents) ? value.documents : [];
  return list.filter(isRec).slice(0, SAMPLE_RECORDS);
}

function frontMatterOf(path: string): Rec | undefined {
  try {
    const data = matter(readHead(path, 256 * 1024), {}).data;
    return data && typeof data === 'object' && Object.keys(data).length ? (data as Rec) : undefined;
  } catch {
    return undefined; // the Markdown reader reports it at its line
  }
}

function readHead(path: string, bytes: number): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(Math.min(bytes, statSync(path).size));
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf
      .subarray(0, n)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
  } finally {
    closeSync(fd);
  }
}

/**
 * Which keys hold the id, title, body and access fields: the first name of each list that at least half of the
 * records have (an id must also be unique in the sample); for the body, else the key with the longest text.
 */
export function guessFields(records: Rec[], withBody = true): FieldGuess {
  const share = (key: string, ok: (v: unknown) => boolean) => records.filter((r) => ok(r[key])).length / records.length;
  const isText = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  const isId = (v: unknown) => isText(v) || typeof v === 'number';
  const pick = (names: string[], ok: (v: unknown) => boolean) => names.find((n) => share(n, ok) >= 0.5);
  const guess: FieldGuess = {};
  // The conventional names, then any key that ends in id; the first whose values are unique in the sample.
  const unique = (k: string) => new Set(records.map((r) => String(r[k]))).size === records.filter((r) => isId(r[k])).length;
  const idLike = [...new Set(records.flatMap((r) => Object.keys(r)))].filter((k) => /(^|[-_])id$|[a-z]Id$/.test(k));
  guess.id = pick([...ID_NAMES, ...idLike].filter(unique), isId);
  guess.title = pick(TITLE_NAMES, isText);
  if (withBody) {
    const taken = new Set([guess.id, guess.title]);
    guess.body =
      pick(
        BODY_NAMES.filter((n) => !taken.has(n)),
        isText,
      ) ?? longestText(records, taken);
  }
  guess.tenant = pick(TENANT_NAMES, (v) => v !== undefined);
  guess.groups = pick(GROUPS_NAMES, (v) => v !== undefined);
  guess.public = pick(PUBLIC_NAMES, (v) => v !== undefined);
  for (const k of Object.keys(guess) as (keyof FieldGuess)[]) if (guess[k] === undefined) delete guess[k];
  return guess;
}

function longestText(records: Rec[], taken: Set<string | undefined>): string | undefined {
  const length = new Map<string, number>();
  for (const r of records)
    for (const [k, v] of Object.entries(r)) if (!taken.has(k) && typeof v === 'string') length.set(k, (length.get(k) ?? 0) + v.length);
  let best: string | undefined;
  for (const [k, n] of length) if (n > 0 && (!best || n > length.get(best)!)) best = k;
  return best;
}
