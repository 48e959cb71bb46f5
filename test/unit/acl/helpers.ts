import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Principals shared by the access tests: two acme users in different groups, a guest, and an admin by attribute. */
export const PRINCIPALS = [
  { name: 'guest', tenant: 'public', groups: [] },
  { name: 'hr', tenant: 'acme', groups: ['hr'] },
  { name: 'sales', tenant: 'acme', groups: ['sales'] },
  { name: 'boss', tenant: 'acme', groups: ['hr', 'sales', 'x', 'name'], role: 'admin' },
];

/**
 * A workspace written from scratch: ranklab.json (corpus under corpus/ and data/, a golden set, the principals
 * above, plus `settings` merged over the top level and `acl`), and the given files (path -> content).
 */
export function makeWorkspace(
  files: Record<string, string>,
  settings: { acl?: Record<string, unknown>; [key: string]: unknown } = {},
): string {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-acl-ws-'));
  const { acl, ...rest } = settings;
  const ranklab = {
    corpus: { include: ['corpus/**/*.{md,html,txt}', 'data/*.{json,jsonl}'] },
    judgments: ['judgments/golden.json'],
    ...rest,
    acl: { principals: 'principals.json', ...acl },
  };
  const all: Record<string, string> = {
    'ranklab.json': JSON.stringify(ranklab, null, 2),
    'principals.json': JSON.stringify(PRINCIPALS, null, 2),
    'judgments/golden.json': JSON.stringify([{ id: 'q1', query: 'salary', judgments: { ok: 1 } }]),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** A Markdown document with the given front-matter lines. */
export function md(frontMatter: string[], body = 'Salary bands and payroll dates.'): string {
  return ['---', ...frontMatter, '---', body, ''].join('\n');
}
