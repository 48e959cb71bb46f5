// Test helper: reads the shared BEIR-style collections (read-only; never copied into the project).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Document } from '../../../src/core/corpus/document';
import { fingerprint } from '../../../src/core/util/fingerprint';

export const SHARED = process.env.RANKLAB_SHARED ?? resolve(__dirname, '../../../..', 'shared');

export function collectionPath(name: string, file: string): string {
  return resolve(SHARED, 'collections', name, file);
}

function readJsonl(path: string): any[] {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

export function loadDocs(name: string, idPrefix = ''): Document[] {
  return readJsonl(collectionPath(name, 'corpus.jsonl')).map((r, i) => {
    const doc: Document = {
      id: idPrefix + String(r.id), title: r.title ?? '', body: r.text ?? '', fields: {}, meta: {},
      source: { path: 'corpus.jsonl', line: i + 1 }, hash: '',
    };
    doc.hash = fingerprint([doc.id, doc.title, doc.body]);
    return doc;
  });
}

export function loadQueries(name: string): Array<{ id: string; text: string }> {
  return readJsonl(collectionPath(name, 'queries.jsonl')).map((r) => ({ id: String(r.id), text: String(r.text) }));
}

/** qid -> docid -> grade */
export function loadQrels(name: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const line of readFileSync(collectionPath(name, 'qrels.tsv'), 'utf8').split('\n')) {
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
