import { fingerprint } from '../util/fingerprint';
import type { Document } from './document';

/** JSON with object keys sorted, so that equal data always hashes the same. */
export function stableJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) => {
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        const sorted: Record<string, unknown> = {};
        for (const k of Object.keys(v as Record<string, unknown>).sort()) sorted[k] = (v as Record<string, unknown>)[k];
        return sorted;
      }
      return v;
    }) ?? 'null'
  );
}

/**
 * Content hash over everything that affects indexing or access: id, title, body, fields, meta, vector, invalid
 * access fields (not the source path). The last part is only added when present, so valid documents keep their hash.
 */
export function hashDocument(doc: Omit<Document, 'hash' | 'source'>): string {
  return fingerprint([
    doc.id,
    doc.title,
    doc.body,
    stableJson(doc.fields),
    stableJson(doc.meta),
    doc.vector ? doc.vector.join(',') : '',
    ...(doc.invalidAcl?.length ? [`invalid-acl:${doc.invalidAcl.join(',')}`] : []),
  ]);
}

export function makeDocument(parts: Omit<Document, 'hash'>): Document {
  const doc: Document = {
    id: parts.id,
    title: parts.title,
    body: parts.body,
    fields: parts.fields,
    meta: parts.meta,
    source: parts.source,
    hash: '',
  };
  if (parts.vector) doc.vector = parts.vector;
  if (parts.invalidAcl?.length) doc.invalidAcl = parts.invalidAcl;
  doc.hash = hashDocument(doc);
  return doc;
}

export function hasText(doc: Pick<Document, 'title' | 'body' | 'fields'>): boolean {
  return doc.title.trim() !== '' || doc.body.trim() !== '' || Object.values(doc.fields).some((t) => t.trim() !== '');
}
