// Sanity checks for the bundled example workspace (examples/food-search). They read the committed
// files directly (gray-matter for Markdown, JSON.parse for the rest), not through Ranklab's loaders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import matter from 'gray-matter';

const WS = path.resolve(__dirname, '../../../examples/food-search');

interface Doc {
  id: string;
  title: string;
  tenant?: string;
  groups: string[];
  public: boolean;
  path: string;
}

/** Files of the workspace as shipped (Ranklab's own .ranklab/ state folder is not part of it). */
function walk(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n !== '.ranklab')
    .flatMap((n) => {
      const p = path.join(dir, n);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
}

function loadDocs(): Doc[] {
  const docs: Doc[] = [];
  for (const file of walk(path.join(WS, 'corpus'))) {
    const src = readFileSync(file, 'utf8');
    if (file.endsWith('.md')) {
      const { data } = matter(src);
      docs.push({
        id: data.id,
        title: data.title,
        tenant: data.tenant,
        groups: data.groups ?? [],
        public: data.public === true,
        path: file,
      });
    } else if (file.endsWith('.html')) {
      const meta = Object.fromEntries([...src.matchAll(/<meta name="(\w+)" content="([^"]*)">/g)].map((m) => [m[1], m[2]]));
      docs.push({
        id: meta.id,
        title: /<title>([^<]*)</.exec(src)![1],
        tenant: meta.tenant,
        groups: [],
        public: meta.public === 'true',
        path: file,
      });
    }
  }
  readFileSync(path.join(WS, 'data/products.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .forEach((line) => {
      const r = JSON.parse(line);
      docs.push({ id: r.id, title: r.title, tenant: r.tenant, groups: r.groups, public: r.public === true, path: 'data/products.jsonl' });
    });
  return docs;
}

const docs = loadDocs();
const byId = new Map(docs.map((d) => [d.id, d]));
const golden: { id: string; query: string; judgments: Record<string, number>; tags: string[]; split: string }[] = JSON.parse(
  readFileSync(path.join(WS, 'judgments/golden.json'), 'utf8'),
);
const principals: { name: string; tenant: string; groups: string[] }[] = JSON.parse(readFileSync(path.join(WS, 'principals.json'), 'utf8'));
const visible = (d: Doc, p: { tenant: string; groups: string[] }) =>
  d.public || (d.tenant === p.tenant && (d.groups.length === 0 || d.groups.some((g) => p.groups.includes(g))));

test('corpus has at least 300 documents with unique ids and every ACL field set', () => {
  assert.ok(docs.length >= 300, `only ${docs.length} documents`);
  assert.equal(byId.size, docs.length, 'duplicate ids');
  for (const d of docs) {
    assert.ok(d.id && d.title, `missing id/title in ${d.path}`);
    assert.ok(['warung-kopi', 'dapur-nusantara', 'public'].includes(d.tenant ?? ''), `bad tenant in ${d.id}`);
    assert.equal(d.public, d.tenant === 'public', `public flag and tenant disagree in ${d.id}`);
  }
});

test('the workspace stays small (< 2 MB of files)', () => {
  const bytes = walk(WS).reduce((s, f) => s + statSync(f).size, 0);
  assert.ok(bytes < 2 * 1024 * 1024, `${bytes} bytes`);
});

test('one HTML page carries a script element and an onerror= attribute in its text', () => {
  const html = walk(path.join(WS, 'corpus'))
    .filter((f) => f.endsWith('.html'))
    .map((f) => readFileSync(f, 'utf8'));
  assert.ok(html.some((h) => /<script>[\s\S]*<\/script>/.test(h) && h.includes('onerror=')));
});

test('golden set: >= 60 queries, ~25% holdout, graded judgments of known documents', () => {
  assert.ok(golden.length >= 60);
  assert.equal(new Set(golden.map((q) => q.id)).size, golden.length);
  const holdout = golden.filter((q) => q.split === 'holdout').length / golden.length;
  assert.ok(holdout >= 0.2 && holdout <= 0.3, `holdout share ${holdout}`);
  for (const q of golden) {
    assert.ok(q.query.trim().length > 0);
    assert.ok(q.split === 'tune' || q.split === 'holdout');
    const positives = Object.values(q.judgments).filter((g) => g > 0).length;
    assert.ok(positives >= 1 && positives <= 6, `${q.id} has ${positives} relevant documents`);
    assert.ok(Object.values(q.judgments).includes(3), `${q.id} has no grade-3 answer`);
    for (const [id, g] of Object.entries(q.judgments)) {
      assert.ok(byId.has(id), `${q.id} judges unknown document ${id}`);
      assert.ok(Number.isInteger(g) && g >= 0 && g <= 3);
    }
  }
  const tags = new Set(golden.flatMap((q) => q.tags));
  for (const t of ['lang:id', 'lang:en', 'product-code', 'paraphrase', 'procedural', 'navigational', 'origin']) assert.ok(tags.has(t), t);
});

test('principals: a restricted supplier (<= 5%), a public-only guest, whole-tenant admins', () => {
  assert.ok(principals.length >= 5);
  const share = (name: string) => {
    const p = principals.find((x) => x.name === name)!;
    return docs.filter((d) => visible(d, p)).length / docs.length;
  };
  assert.ok(share('pak-joko') <= 0.05, `supplier sees ${share('pak-joko')}`);
  const guest = principals.find((x) => x.name === 'guest')!;
  assert.deepEqual(
    docs
      .filter((d) => visible(d, guest))
      .map((d) => d.id)
      .sort(),
    docs
      .filter((d) => d.public)
      .map((d) => d.id)
      .sort(),
  );
  for (const [name, tenant] of [
    ['dimas', 'warung-kopi'],
    ['rahmat', 'dapur-nusantara'],
  ]) {
    const p = principals.find((x) => x.name === name)!;
    assert.ok(
      docs.filter((d) => d.tenant === tenant).every((d) => visible(d, p)),
      `${name} should see all of ${tenant}`,
    );
  }
  const restrictedRelevant = golden.flatMap((q) => Object.entries(q.judgments).filter(([id, g]) => g > 0 && !byId.get(id)!.public));
  assert.ok(restrictedRelevant.length > 0);
});

test('workspace files reference configs that exist', () => {
  const ws = JSON.parse(readFileSync(path.join(WS, 'ranklab.json'), 'utf8'));
  assert.deepEqual(ws.metrics, ['ndcg@10', 'mrr@10', 'p@5', 'recall@20', 'hit@5']);
  const configs = readdirSync(path.join(WS, 'configs')).filter((f) => f.endsWith('.rank.json'));
  assert.ok(configs.includes(`${ws.baseline}.rank.json`));
  for (const f of configs) JSON.parse(readFileSync(path.join(WS, 'configs', f), 'utf8'));
  for (const name of ['title-boost-3', 'vector', 'hybrid-rrf', 'hybrid-rerank', 'pre-filter', 'post-filter', 'regressing'])
    assert.ok(configs.includes(`${name}.rank.json`), name);
});

test('the committed corpus is exactly what the generator writes', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'food-search-'));
  try {
    execFileSync(process.execPath, [path.join(WS, 'tools/generate.mjs')], { env: { ...process.env, FOOD_SEARCH_OUT: out } });
    const rel = (root: string) =>
      walk(root)
        .map((f) => path.relative(root, f))
        .sort();
    const generated = rel(out);
    const committed = [
      ...rel(path.join(WS, 'corpus')).map((f) => path.join('corpus', f)),
      ...rel(path.join(WS, 'data')).map((f) => path.join('data', f)),
      'judgments/golden.json',
    ].sort();
    assert.deepEqual(generated, committed);
    for (const f of generated) assert.equal(readFileSync(path.join(out, f), 'utf8'), readFileSync(path.join(WS, f), 'utf8'), f);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('the story holds under plain BM25: title x3 wins overall, loses on procedural queries', () => {
  const out = execFileSync(process.execPath, [path.join(WS, 'tools/check-story.mjs'), '--json'], {
    cwd: path.resolve(WS, '../..'),
  }).toString();
  const r = JSON.parse(out);
  assert.ok(r.overall.delta > 0, `overall delta ${r.overall.delta}`);
  assert.ok(r.byTag.procedural.delta < 0, `procedural delta ${r.byTag.procedural.delta}`);
  assert.ok(r.byTag.navigational.delta > 0);
  const wins = r.perQuery.filter((q: { baseline: number; titleBoost3: number }) => q.titleBoost3 > q.baseline + 1e-9).length;
  const losses = r.perQuery.filter((q: { baseline: number; titleBoost3: number }) => q.titleBoost3 < q.baseline - 1e-9).length;
  assert.ok(wins > 0 && losses > 0);
  assert.ok(r.overall.regressing < r.overall.baseline - 0.1, 'the regressing config should be clearly worse');
});
