// Test helper: reads a BEIR-style collection folder as plain records, without the corpus loader: a real one
// (collectionPath of test/helpers/shared.ts; read-only, never copied into the project) or a synthetic one
// (test/helpers/synthetic-collection.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Document } from '../../../src/core/corpus/document';
import { fingerprint } from '../../../src/core/util/fingerprint';

function readJsonl(path: string): any[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

export function loadDocs(dir: string, idPrefix = ''): Document[] {
  return readJsonl(join(dir, 'corpus.jsonl')).map((r, i) => {
    const doc: Document = {
      id: idPrefix + String(r.id),
      title: r.title ?? '',
      body: r.text ?? '',
      fields: {},
      meta: {},
      source: { path: 'corpus.jsonl', line: i + 1 },
      hash: '',
    };
    doc.hash = fingerprint([doc.id, doc.title, doc.body]);
    return doc;
  });
}

export function loadQueries(dir: string): Array<{ id: string; text: string }> {
  return readJsonl(join(dir, 'queries.jsonl')).map((r) => ({ id: String(r.id), text: String(r.text) }));
}

/** qid -> docid -> grade */
export function loadQrels(dir: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const line of readFileSync(join(dir, 'qrels.tsv'), 'utf8').split('\n')) {
    const parts = line.trim().split(/\s+/);
    if (parts.length < 4) continue;
    const [qid, , docid, rel] = parts;
    if (!out.has(qid)) out.set(qid, new Map());
    out.get(qid)!.set(docid, Number(rel));
  }
  return out;
}

export function corpusFingerprint(docs: Document[]): string {
  return fingerprint(docs.map((d) => d.hash).sort());
}
