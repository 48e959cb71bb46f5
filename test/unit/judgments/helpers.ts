import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Diagnostic } from '../../../src/core/util/diagnostics';

export const FIXTURES = resolve(__dirname, '../../fixtures/judgments');
export const fixture = (name: string): string => join(FIXTURES, name);

/** "line:severity:message" for compact, order-sensitive assertions. */
export function brief(diagnostics: Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.line}:${d.severity}:${d.message}`);
}

export function plainQrels(qrels: Map<string, Map<string, number>>): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const [qid, docs] of qrels) out[qid] = Object.fromEntries(docs);
  return out;
}

/** A scratch folder removed after the callback; for byte-exact inputs (BOM, CRLF) and missing/empty files. */
export function withTempDir<T>(fn: (dir: string, write: (name: string, data: string | Buffer) => string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-judgments-'));
  try {
    return fn(dir, (name, data) => {
      const p = join(dir, name);
      writeFileSync(p, data);
      return p;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
