// Access control figures on the example workspace (a private copy in a temp folder):
//   1. revocation lag: file write -> session.refreshCorpus() -> next query no longer shows the document,
//      beside a full re-index (new session, no cache) for contrast;
//   2. page fill per principal under pre-filter vs post-filter, and the candidate depth post-filter needs;
//   3. vector pre-filter for a 2.5% principal: exact fallback taken, latency vs an unrestricted principal;
//   4. the cost of a full check-acl (queries + typing prefixes).
// Run: node --import tsx bench/acl.ts
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { checkAcl } from '../src/core/session/check-acl';
import { RanklabSession } from '../src/core/session/session';

const EXAMPLE = resolve(__dirname, '../examples/food-search');
const QUERY = 'how to replace the grinder burrs';
const OPEN = 'groups: [baristas, roastery, management]';
const CLOSED = 'groups: [management]';

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const ms = (x: number) => `${x.toFixed(1)} ms`;
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-acl-bench-'));
  cpSync(EXAMPLE, dir, { recursive: true, filter: (src) => !src.includes(`${sep}.ranklab`) });
  try {
    const session = RanklabSession.open(dir);
    const config = session.resolveConfig('pre-filter');
    await session.searchView(config, QUERY, { principal: 'sari' }); // warm: engine built, caches written

    // 1. Revocation lag.
    const file = join(dir, 'corpus', 'bar', 'ops-burrs.md');
    const original = readFileSync(file, 'utf8');
    const rounds = 30;
    const write: number[] = [],
      refresh: number[] = [],
      query: number[] = [],
      total: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const revoke = i % 2 === 0;
      const t0 = performance.now();
      writeFileSync(file, revoke ? original.replace(OPEN, CLOSED) : original);
      const t1 = performance.now();
      const r = await session.refreshCorpus();
      const t2 = performance.now();
      const view = await session.searchView(config, QUERY, { principal: 'sari' });
      const t3 = performance.now();
      const shown = view.results.some((x) => x.id === 'ops-burrs');
      if (r.changed.length !== 1 || shown === revoke) throw new Error(`round ${i}: refresh changed ${r.changed.length}, shown ${shown}`);
      write.push(t1 - t0);
      refresh.push(t2 - t1);
      query.push(t3 - t2);
      total.push(t3 - t0);
    }
    const t0 = performance.now();
    const cold = RanklabSession.open(dir, { writeCache: false });
    await cold.searchView(config, QUERY, { principal: 'sari' });
    const rebuild = performance.now() - t0;
    console.log(`Revocation lag (398 documents, ${rounds} rounds of revoke/restore of one file, BM25 pre-filter):`);
    console.log(
      `  write ${ms(quantile(write, 0.5))}, refresh ${ms(quantile(refresh, 0.5))} (p90 ${ms(quantile(refresh, 0.9))}), query ${ms(quantile(query, 0.5))}`,
    );
    console.log(
      `  file write -> query reflects it: median ${ms(quantile(total, 0.5))}, p90 ${ms(quantile(total, 0.9))}, max ${ms(Math.max(...total))}`,
    );
    console.log(`  for contrast, a full re-index (new session, corpus read and BM25 index built, no cache): ${ms(rebuild)}`);

    // 2. Page fill, pre vs post.
    const pre = session.resolveConfig('pre-filter');
    const post = session.resolveConfig('post-filter');
    const t4 = performance.now();
    const report = await checkAcl(session, { configs: [pre, post], prefixes: false });
    const checkMs = performance.now() - t4;
    console.log(`\nPage fill (results / page of 10, mean over ${report.queries} queries) and recall@10 as the principal:`);
    console.log('  principal  visible  pre-filter fill  post-filter fill  post empty pages  depth for 95%  recall pre / post');
    for (const name of Object.keys(report.byPrincipal['pre-filter'])) {
      const a = report.byPrincipal['pre-filter'][name];
      const b = report.byPrincipal['post-filter'][name];
      console.log(
        `  ${name.padEnd(9)}  ${String(a.visibleDocuments).padStart(7)}  ${pct(a.pageFill).padStart(15)}  ${pct(b.pageFill).padStart(16)}  ${`${b.emptyPages} (pre ${a.emptyPages})`.padStart(16)}  ${String(b.postFilter?.depthFor95 ?? 'never').padStart(13)}  ${a.recall?.toFixed(3) ?? '-'} / ${b.recall?.toFixed(3) ?? '-'}`,
      );
    }
    console.log(
      `  violations: ${report.violations.length}; check of 2 configs x 6 principals x ${report.queries} queries without prefixes: ${ms(checkMs)}`,
    );

    // 3. Vector pre-filter and the exact fallback.
    const vector = session.resolveConfig('vector');
    await session.searchView(vector, QUERY, { principal: 'guest' });
    for (const principal of ['guest', 'pak-joko', 'sari', 'dimas']) {
      const times: number[] = [];
      let fallbacks = 0;
      for (const qid of [...session.judgments().qrels.keys()]) {
        const text = session.judgments().queries.get(qid)?.text ?? '';
        const t = performance.now();
        const r = await session.searchView(vector, text, { principal });
        times.push(performance.now() - t);
        if (r.notes.some((n) => n.startsWith('vector: exact filtered fallback'))) fallbacks++;
      }
      const share = session.accessFor(principal).permitted.size / session.corpus().docs.length;
      console.log(
        `${principal === 'guest' ? '\nVector (LSA 128, HNSW) pre-filter, per principal:\n' : ''}  ${principal.padEnd(9)} ${pct(share).padStart(6)} permitted: exact fallback in ${fallbacks}/${times.length} queries, p50 ${ms(quantile(times, 0.5))}, p90 ${ms(quantile(times, 0.9))}`,
      );
    }

    // 4. The full check.
    const t5 = performance.now();
    const full = await checkAcl(session, { configs: [pre, post] });
    console.log(
      `\nFull check-acl (2 configs x 6 principals, ${full.queries} queries + ${full.prefixes} typing prefixes, ${full.checked} responses): ${ms(performance.now() - t5)}, ${full.violations.length} violations`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
