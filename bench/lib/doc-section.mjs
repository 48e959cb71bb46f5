// Sections of docs/benchmarks.md owned by the smaller benchmarks (bench:vectors, bench:score): each sits between
// `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`, is rewritten by its own script, and is carried over when
// bench/run.mjs rewrites the rest of the file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const BENCHMARKS_DOC = join(resolve(import.meta.dirname, '..', '..'), 'docs', 'benchmarks.md');

const blockPattern = /<!-- bench:([\w-]+) -->[\s\S]*?<!-- \/bench:\1 -->\n?/g;

/** The owned sections of `text`, concatenated (what bench/run.mjs keeps). */
export function ownedSections(text) {
  return (text.match(blockPattern) ?? []).map((b) => (b.endsWith('\n') ? b : `${b}\n`)).join('\n');
}

/** Replaces (or appends) section `name` of docs/benchmarks.md with `markdown`. */
export function writeDocSection(name, markdown) {
  const text = existsSync(BENCHMARKS_DOC) ? readFileSync(BENCHMARKS_DOC, 'utf8') : '# Benchmarks\n';
  const block = `<!-- bench:${name} -->\n${markdown.trim()}\n<!-- /bench:${name} -->\n`;
  const pattern = new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->\\n?`);
  writeFileSync(BENCHMARKS_DOC, pattern.test(text) ? text.replace(pattern, block) : `${text.trimEnd()}\n\n${block}`);
}
