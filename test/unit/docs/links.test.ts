// The README is the front page and the manual lives in docs/: every relative link between them (and into the
// tree) must reach an existing file, and every #anchor a heading of that file, so that moving a section cannot
// leave a dead link behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_DIR } from '../../helpers/cli';
import { brokenLinks, githubSlug, headingAnchors, markdownLinks } from '../../helpers/markdown-links';

const DOCS = join(REPO_DIR, 'docs');
const FILES = [
  join(REPO_DIR, 'README.md'),
  join(REPO_DIR, 'CHANGELOG.md'),
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => join(DOCS, f)),
];

test('every relative link of README.md, CHANGELOG.md and docs/*.md reaches a file, and every #anchor a heading', () => {
  const broken = FILES.flatMap((f) => brokenLinks(f, REPO_DIR));
  assert.deepEqual(
    broken.map((b) => `${b.file}:${b.line}: ${b.target}: ${b.reason}`),
    [],
  );
  // The check saw the links that matter (a parser finding none would pass vacuously).
  const readmeTargets = markdownLinks(readFileSync(join(REPO_DIR, 'README.md'), 'utf8')).map((l) => l.target);
  for (const doc of ['docs/cli.md', 'docs/metrics.md', 'docs/editor.md', 'docs/images/dashboard-verdict-light.png']) {
    assert.ok(readmeTargets.includes(doc), `README.md links to ${doc}`);
  }
});

test('README.md stays a front page: at most 260 lines', () => {
  const lines = readFileSync(join(REPO_DIR, 'README.md'), 'utf8').split('\n').length;
  assert.ok(lines <= 260, `README.md has ${lines} lines; move reference text into docs/`);
});

test('anchors follow GitHub: lower case, spaces to hyphens, punctuation dropped, repeats numbered', () => {
  assert.equal(githubSlug('`ranklab explain` — why a document is where it is'), 'ranklab-explain--why-a-document-is-where-it-is');
  assert.equal(githubSlug('A production engine: OpenSearch, Elasticsearch, Solr'), 'a-production-engine-opensearch-elasticsearch-solr');
  assert.equal(githubSlug("Heavy work runs off the editor's thread"), 'heavy-work-runs-off-the-editors-thread');
  assert.equal(githubSlug('Gates file (`--gates FILE`)'), 'gates-file---gates-file');
  assert.equal(githubSlug('Δ per query'), 'δ-per-query');
  const anchors = headingAnchors('# T\n\n## Usage\n\n```sh\n# not a heading\n```\n\n### Usage\n');
  assert.deepEqual([...anchors], ['t', 'usage', 'usage-1']);
});

test('a missing file, a missing anchor and an anchor into a non-Markdown file are reported with file and line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-links-'));
  try {
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'a.md'), '# A\n\n## Exit codes\n');
    writeFileSync(join(dir, 'data.txt'), 'x\n');
    writeFileSync(
      join(dir, 'README.md'),
      [
        '# R',
        '[ok](docs/a.md#exit-codes) [ok too](#r) [web](https://example.com/#x)',
        '[gone](docs/b.md)',
        '[no such heading](docs/a.md#exit-code)',
        '`[in code](docs/b.md)`',
        '```',
        '[in a fence](docs/b.md)',
        '```',
        '[text file](data.txt#x) [self](#nothing)',
      ].join('\n'),
    );
    const broken = brokenLinks(join(dir, 'README.md'), dir).map((b) => `${b.file}:${b.line}: ${b.target}`);
    assert.deepEqual(broken, [
      'README.md:3: docs/b.md',
      'README.md:4: docs/a.md#exit-code',
      'README.md:9: data.txt#x',
      'README.md:9: #nothing',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
