/**
 * A generated workspace large enough that indexing and evaluation take seconds (for interrupt tests and
 * bench/interrupt.ts): `docs` short documents from a small Zipf-like vocabulary, `queries` labeled queries of
 * 2–3 words (tagged with one of five topics, a quarter in the holdout split), six principals over three
 * tenants, and the configs asked for.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Mulberry32 } from '../../src/core/util/random';

export interface SyntheticWorkspaceOptions {
  docs: number;
  queries: number;
  /** `markdown`: one file per document in folders of 500; `jsonl`: one records file. */
  layout?: 'markdown' | 'jsonl';
  /** Config name -> the .rank.json content (default: `baseline`, BM25 over title and body). */
  configs?: Record<string, unknown>;
  seed?: number;
}

export const BM25_CONFIG = { lexical: { fields: { title: 1, body: 1 }, combineWith: 'OR', depth: 100 }, pageSize: 10 };

/** Writes the workspace into `dir` (which must exist). */
export function writeSyntheticWorkspace(dir: string, opts: SyntheticWorkspaceOptions): void {
  const rng = new Mulberry32(opts.seed ?? 7);
  const vocabulary = Array.from({ length: 4000 }, (_, i) => syllables(i));
  // Zipf-like: the square of a uniform draw picks low ranks far more often.
  const word = () => vocabulary[Math.floor((rng.nextUint32() / 2 ** 32) ** 2 * vocabulary.length)];
  const words = (n: number) => Array.from({ length: n }, word).join(' ');
  const tenants = ['acme', 'globex', 'initech'];
  const docs = Array.from({ length: opts.docs }, (_, i) => ({
    id: `d${i}`,
    title: words(4),
    text: words(30 + (i % 40)),
    tenant: tenants[i % 3],
    groups: [`g${i % 4}`],
    public: i % 10 === 0,
    tags: [`t${i % 7}`],
  }));
  if ((opts.layout ?? 'jsonl') === 'jsonl') {
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(join(dir, 'data/docs.jsonl'), docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
  } else {
    for (const [i, d] of docs.entries()) {
      const sub = join(dir, 'corpus', `part${Math.floor(i / 500)}`);
      if (i % 500 === 0) mkdirSync(sub, { recursive: true });
      writeFileSync(
        join(sub, `${d.id}.md`),
        `---\nid: ${d.id}\ntitle: ${d.title}\ntags: [${d.tags}]\ntenant: ${d.tenant}\ngroups: [${d.groups}]\npublic: ${d.public}\n---\n\n${d.text}\n`,
      );
    }
  }
  const golden = Array.from({ length: opts.queries }, (_, q) => {
    const target = docs[(q * 7919) % docs.length];
    const terms = target.text.split(' ');
    const judged = [target.id, docs[(q * 104729 + 1) % docs.length].id];
    return {
      id: `q${q}`,
      query: `${target.title.split(' ')[0]} ${terms[q % terms.length]}${q % 2 ? ` ${terms[(q + 3) % terms.length]}` : ''}`,
      judgments: { [judged[0]]: 3, [judged[1]]: 1 },
      tags: [`topic${q % 5}`],
      split: q % 4 ? 'tune' : 'holdout',
    };
  });
  mkdirSync(join(dir, 'judgments'), { recursive: true });
  writeFileSync(join(dir, 'judgments/golden.json'), JSON.stringify(golden));
  writeFileSync(
    join(dir, 'principals.json'),
    JSON.stringify([
      { name: 'guest', tenant: 'public', groups: [] },
      ...tenants.flatMap((t, i) => [{ name: `${t}-staff`, tenant: t, groups: [`g${i}`] }]),
      { name: 'acme-all', tenant: 'acme', groups: ['g0', 'g1', 'g2', 'g3'] },
      { name: 'globex-none', tenant: 'globex', groups: [] },
    ]),
  );
  mkdirSync(join(dir, 'configs'), { recursive: true });
  for (const [name, config] of Object.entries(opts.configs ?? { baseline: BM25_CONFIG })) {
    writeFileSync(join(dir, 'configs', `${name}.rank.json`), JSON.stringify(config, null, 2));
  }
  writeFileSync(
    join(dir, 'ranklab.json'),
    JSON.stringify(
      {
        corpus: {
          include: (opts.layout ?? 'jsonl') === 'jsonl' ? ['data/*.jsonl'] : ['corpus/**/*.md'],
          fields: { id: 'id', title: 'title', body: 'text', meta: ['tags', 'tenant', 'groups', 'public'] },
        },
        judgments: ['judgments/golden.json'],
        configs: 'configs/*.rank.json',
        baseline: Object.keys(opts.configs ?? { baseline: 1 })[0],
        metrics: ['ndcg@10', 'mrr@10'],
        acl: { principals: 'principals.json', fields: { tenant: 'tenant', groups: 'groups', public: 'public' }, missingAcl: 'public' },
      },
      null,
      2,
    ),
  );
}

/** A pronounceable, distinct word for each index (so analyzers keep them as they are). */
export function syllables(i: number): string {
  const c = 'bdfgklmnprstvz';
  const v = 'aeiou';
  let s = '';
  let n = i + 15;
  while (n > 0) {
    s += c[n % c.length] + v[Math.floor(n / c.length) % v.length];
    n = Math.floor(n / (c.length * v.length));
  }
  return s;
}
