import type { Diagnostic } from '../util/diagnostics';

/** One searchable document, whatever file it came from. */
export interface Document {
  /** Stable id: front matter / record id, else the path relative to the workspace. */
  id: string;
  title: string;
  body: string;
  /** Other text fields to index (e.g. summary, ingredients), by field name. */
  fields: Record<string, string>;
  /** Non-text metadata: tags, tenant, groups, public, product codes... as found in the source. */
  meta: Record<string, unknown>;
  /** Where it came from, relative to the workspace; `line` for JSON/JSONL records (1-based). */
  source: { path: string; line?: number };
  /** Vector supplied with the corpus (the `precomputed` embedder), if any. */
  vector?: number[];
  /**
   * Source keys of access fields that are present but invalid (e.g. `tenant: [acme]`): such a document is
   * visible to nobody (src/core/acl/policy.ts). Absent when every access field is valid or absent.
   */
  invalidAcl?: string[];
  /** Content hash of everything above that affects indexing (incremental updates compare it). */
  hash: string;
}

export interface Corpus {
  docs: Document[];
  /** Hash over the sorted per-document hashes. */
  fingerprint: string;
  diagnostics: Diagnostic[];
  /** Configured field names (ranklab.json corpus.fields) that some record has; a mapping to none is reported. */
  fieldsSeen?: string[];
}
